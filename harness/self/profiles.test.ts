// The suite-defined profiles (spec-map/profiles.json; harness/PROTOCOL.md "Suite-defined profiles"): each holds only
// MUST-level clauses no spec class holds, `--classes` takes them, and every report marks a profile's row as defined by
// this suite — the terminal table and the Markdown summary (†, with the note), JUnit (a defined_by property) and the
// certificate (suite_profiles, which an older certificate without it still verifies without).
import { describe, expect, it } from 'vitest';
import { keyPairFromSeed } from '../../impl/index.ts';
import { allClauses, implementedClasses, isSuiteProfile, suiteProfiles } from '../../spec-map/index.ts';
import { parseClassList } from '../commands/classes.ts';
import { sampleCertificatePayload } from '../report/certificate-sample.ts';
import { sealCertificate, verifyCertificate } from '../report/certificate.ts';
import type { Judged } from '../report/expectations.ts';
import { junitXml } from '../report/junit.ts';
import { classRows, SUITE_PROFILE_NOTE, terminalTable } from '../report/record.ts';

const MUST = new Set(['MUST', 'MUST NOT', 'REQUIRED']);

function line(id: string, classes: string[], outcome: string): Judged {
  return { type: 'test', id, file: 'f.test.ts', title: id, clauses: [], classes, level: 'MUST', grade: 'spec', outcome, unexpected: outcome !== 'passed' };
}

describe('suite-defined profiles', () => {
  it('are named P-, hold only clauses of their own spec that no spec class holds, each clause in one profile', () => {
    const profiles = suiteProfiles();
    expect(profiles.length).toBeGreaterThan(0);
    const seen = new Set<string>();
    for (const p of profiles) {
      expect(p.id, p.id).toMatch(/^(jcp|jouleclaw|sense):P-[A-Z]+$/);
      expect(isSuiteProfile(p.id)).toBe(true);
      expect(p.clauses.length, p.id).toBeGreaterThan(0);
      for (const id of p.clauses) {
        const c = allClauses().get(id)!;
        expect(c.id.split('/')[0], id).toBe(p.id.split(':')[0]);
        // the merged index shows the profile as the clause's only class: the spec gave it none
        expect(c.classes, id).toEqual([p.id]);
        expect(MUST.has(c.level), `${id} is ${c.level}`).toBe(true);
        expect(seen.has(id), id).toBe(false);
        seen.add(id);
      }
    }
    expect(isSuiteProfile('jcp:C9')).toBe(false);
    expect(isSuiteProfile('jouleclaw:C-TLOG')).toBe(false);
  });

  it('--classes takes a profile by its full id and refuses a bare P- name, which would read as jcp', () => {
    const id = suiteProfiles()[0]!.id;
    expect(parseClassList(`C1,${id}`)).toEqual(['jcp:C1', id]);
    expect(() => parseClassList('P-NOSUCH')).toThrow(/unknown class P-NOSUCH/);
  });

  it('the reference claims exactly the implemented profiles beside its classes', () => {
    const claimed = implementedClasses();
    for (const p of suiteProfiles()) expect(claimed.includes(p.id), p.id).toBe(p.implemented);
  });

  it('every report marks a profile row as suite-defined, and a spec class row not', () => {
    const judged = [line('a', ['jcp:C1'], 'passed'), line('b', ['jouleclaw:P-VALUE'], 'passed')];
    const rows = classRows(judged, ['jcp:C1', 'jouleclaw:P-VALUE'], ['jcp:C1', 'jouleclaw:P-VALUE']);
    expect(rows.map((r) => [r.class, r.verdict, r.suite_defined])).toEqual([
      ['jcp:C1', 'PASS', undefined],
      ['jouleclaw:P-VALUE', 'PASS', true],
    ]);
    const table = terminalTable(rows);
    expect(table).toMatch(/^jouleclaw:P-VALUE † +PASS/m);
    expect(table).toMatch(/^jcp:C1 +PASS/m);
    expect(table).toContain(SUITE_PROFILE_NOTE);
    // a table with no profile row has no note
    expect(terminalTable(rows.slice(0, 1))).not.toContain(SUITE_PROFILE_NOTE);
    const xml = junitXml(judged, rows, '2026-01-01T00:00:00Z');
    const suiteOf = (name: string) => xml.slice(xml.indexOf(`<testsuite name="${name}"`), xml.indexOf('</testsuite>', xml.indexOf(`<testsuite name="${name}"`)));
    expect(suiteOf('jouleclaw:P-VALUE')).toContain('<property name="defined_by"');
    expect(suiteOf('jcp:C1')).not.toContain('defined_by');
  });

  it('the certificate lists its profile verdicts under suite_profiles; one without the field still verifies', () => {
    const key = keyPairFromSeed(new Uint8Array(32).fill(7));
    const base = sampleCertificatePayload(key.did);
    const withProfiles = { ...base, verdicts: { ...base.verdicts, 'jouleclaw:P-VALUE': 'PASS' }, suite_profiles: ['jouleclaw:P-VALUE'] };
    expect(verifyCertificate(sealCertificate(withProfiles, key)).suite_profiles).toEqual(['jouleclaw:P-VALUE']);
    expect(verifyCertificate(sealCertificate(base, key)).suite_profiles).toBeUndefined();
    expect(() => verifyCertificate(sealCertificate({ ...withProfiles, suite_profiles: 'jouleclaw:P-VALUE' as never }, key))).toThrow(/suite_profiles field is not a texts/);
  });
});
