// Self-tests of the reports: expectations (unexpected failures and passes, stale and over-broad entries), the signed
// certificate, and the CLI end to end — a clean run, a rule breaker caught, its expectation file written and honoured.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildBundle, variantTestee } from './bundles.ts';
import { cliPath } from './cli.ts';
import { deriveSeed, keyPairFromSeed } from '../oracle.ts';
import { certificatePayload, CertificateError, sealCertificate, verifyCertificate } from '../report/certificate.ts';
import { expectationsFor, judge, MAX_GLOB_MATCHES } from '../report/expectations.ts';
import { classRows, junitXml, type Footer, type Header } from '../report/record.ts';
import type { TestLine } from '../report/record-reporter.ts';
import { REFERENCE_C10_C11, sharedCertify } from './shared-runs.ts';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const TMP = mkdtempSync(join(tmpdir(), 'jcp-reports-'));
afterAll(() => rmSync(TMP, { recursive: true, force: true }));

const line = (id: string, outcome: string, classes = ['jcp:C1']): TestLine => ({ type: 'test', id, file: 'f', title: id, clauses: ['jcp/7#expired'], classes, level: 'MUST', grade: 'spec', outcome });

describe('expectations', () => {
  it('grades unexpected failures and passes, expected failures, and neutral outcomes', () => {
    const lines = [line('a', 'passed'), line('b', 'failed'), line('c', 'failed'), line('d', 'passed'), line('e', 'not claimed'), line('f', 'timeout')];
    const { judged, problems } = judge(lines, {
      expectations: [
        { test: 'c', reason: 'known bug' },
        { test: 'd', reason: 'was broken, now fixed' },
        { test: 'f', outcome: 'timeout', reason: 'slow testee' },
        { test: 'zzz', reason: 'stale' },
      ],
    });
    const by = Object.fromEntries(judged.map((j) => [j.id, [j.outcome, j.unexpected]]));
    expect(by).toEqual({
      a: ['passed', false],
      b: ['failed', true],
      c: ['expected failure', false],
      d: ['passed', true],
      e: ['not claimed', false],
      f: ['expected failure', false],
    });
    expect(problems.unmatched).toEqual(['zzz']);
  });

  it('refuses a glob that matches too much, and writes the file that would make a run pass', () => {
    const many = Array.from({ length: MAX_GLOB_MATCHES + 1 }, (_, i) => line(`jcp:C1|x|case ${i}`, 'failed'));
    expect(judge(many, { expectations: [{ test: 'jcp:C1|*', reason: 'everything' }] }).problems.tooBroad).toEqual([{ test: 'jcp:C1|*', matches: MAX_GLOB_MATCHES + 1 }]);
    expect(judge(many.slice(0, 3), { expectations: [{ test: 'jcp:C1|x|case *', reason: 'three' }] }).judged.every((j) => !j.unexpected)).toBe(true);
    const file = expectationsFor([line('a', 'passed'), line('b', 'failed'), line('c', 'crash')]);
    expect(file.expectations.map((e) => [e.test, e.outcome])).toEqual([
      ['b', 'failed'],
      ['c', 'crash'],
    ]);
    expect(file.expectations.every((e) => e.reason.startsWith('TODO'))).toBe(true);
  });
});

describe('certificate', () => {
  const key = keyPairFromSeed(deriveSeed('self-test certifying key'));
  const header: Header = {
    type: 'header',
    suite: { name: 'jcp-conformance', version: '0.0.0' },
    protocol: 'jcp-testee/1',
    testee: { name: 't', version: '1', protocol: 'jcp-testee/1', claims: ['jcp:C1'], features: [], driver: 'in-process reference' },
    digests: { x: 'ab' },
    vector_packs: [],
    seed: 7,
    classes_requested: 'all',
    started_at: '',
  };
  const judged = judge([line('a', 'passed')]).judged;
  const footer: Footer = { type: 'footer', counts: { passed: 1 }, unexpected: 0, expectation_problems: { unmatched: [], tooBroad: [] }, finished_at: '', complete: true };
  const cert = sealCertificate(certificatePayload(header, footer, classRows(judged, ['jcp:C1']), 'cd', key.did, 1_700_000_000), key);

  it('verifies, binds the verdicts and digests, and names its signer', () => {
    const p = verifyCertificate(cert, key.did);
    expect(p.verdicts).toEqual({ 'jcp:C1': 'PASS' });
    expect(p.record_digest).toBe('cd');
    expect(p.digests).toEqual({ x: 'ab' });
    expect(p.signer).toBe(key.did);
  });

  it('refuses any changed byte, and a signer other than the expected one', () => {
    for (let i = 0; i < cert.length; i += 5) {
      const t = cert.slice();
      t[i]! ^= 1;
      expect(() => verifyCertificate(t)).toThrow(CertificateError);
    }
    expect(() => verifyCertificate(cert, keyPairFromSeed(deriveSeed('another')).did)).toThrow(/expected/);
  });

  it('JUnit XML escapes what it quotes and fails only unexpected results', () => {
    const { judged } = judge([line('a<&"b', 'failed'), line('ok', 'passed')]);
    const x = junitXml(judged, classRows(judged, ['jcp:C1'], ['jcp:C1']), '2026-01-01T00:00:00.000Z');
    expect(x).toContain('name="a&lt;&amp;&quot;b"');
    expect(x).toContain('failures="1"');
  });
});

function cli(args: string[]): { status: number; out: string } {
  const r = spawnSync(process.execPath, [cliPath(), ...args], { cwd: ROOT, encoding: 'utf8', timeout: 300_000, env: { ...process.env, JCP_RECORD: '', JCP_TESTEE: '' } });
  return { status: r.status ?? -1, out: `${r.stdout}\n${r.stderr}` };
}

describe('the CLI end to end', () => {
  const breaker = variantTestee('debit-on-deny');
  beforeAll(() => buildBundle('variant'), 60_000);

  it('certifies the reference for a class subset, writes every report, and the certificate verifies', async () => {
    // the passing run other self-tests read too (./shared-runs.ts)
    const run = await sharedCertify('reference-c10-c11', REFERENCE_C10_C11);
    const dir = run.dir;
    const r = { status: run.status, out: `${run.stdout}\n${run.stderr}` };
    expect(r.status, r.out).toBe(0);
    for (const f of ['record.jsonl', 'junit.xml', 'summary.md', 'certificate.cose']) expect(existsSync(join(dir, f)), f).toBe(true);
    expect(r.out).toMatch(/jcp:C10\s+PASS/);
    expect(cli(['verify-certificate', join(dir, 'certificate.cose')]).status).toBe(0);
  }, 900_000);

  it('flags a rule breaker, writes its expectation file, honours it, and refuses a stale entry', () => {
    const dir = join(TMP, 'breaker');
    const exp = join(TMP, 'expectations.json');
    // one run both flags the breaker (no expectations yet: every failure is unexpected) and writes the file that
    // would make it pass; the differential properties run 5 sequences each here (they find it in 1)
    const runs = ['--property-runs', '5'];
    const r1 = cli(['certify', '--testee', breaker, '--classes', 'C3', '--report', dir, ...runs, '--expectations', exp, '--update-expectations']);
    expect(r1.status, r1.out).toBe(1);
    expect(r1.out).toMatch(/jcp:C3\s+FAIL/);
    // the terminal: the table, then one line per unexpected result (id, outcome, reason, seed) and where the details
    // are; the runner's own output (its diffs and stack traces) is in runner.log, not here
    const unexpected = readFileSync(join(dir, 'record.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l) as { type: string; unexpected?: number }).filter((l) => l.type === 'test' && l.unexpected === 1);
    expect(unexpected.length).toBeGreaterThan(0);
    expect(r1.out.match(/^✗ jcp:[^|]+\|[^|]+\|.*\(seed \d+\)$/gm) ?? []).toHaveLength(unexpected.length);
    expect(r1.out).toMatch(/each one whole \(reason, expected and actual values, requests and responses\): .*record\.jsonl/);
    expect(r1.out).not.toMatch(/⎯|AssertionError|\n\s+at /);
    expect(readFileSync(join(dir, 'runner.log'), 'utf8')).toMatch(/AssertionError|Error:/);
    expect(existsSync(exp), r1.out).toBe(true);
    const r3 = cli(['certify', '--testee', breaker, '--classes', 'C3', '--report', dir, ...runs, '--expectations', exp]);
    expect(r3.status, r3.out).toBe(0);
    expect(r3.out).toMatch(/jcp:C3\s+PARTIAL/);
    const file = JSON.parse(readFileSync(exp, 'utf8')) as { expectations: Array<{ test: string; reason: string }> };
    file.expectations.push({ test: 'jcp:C3|no-such-clause|no such case', reason: 'a stale entry' });
    writeFileSync(exp, JSON.stringify(file));
    const r4 = cli(['certify', '--testee', breaker, '--classes', 'C3', '--report', dir, ...runs, '--expectations', exp]);
    expect(r4.status).toBe(1);
    expect(r4.out).toContain('matches no test');
  }, 600_000);
});
