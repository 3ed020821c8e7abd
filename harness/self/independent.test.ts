// An implementation that made other choices where the spec allows them is certified fairly (harness/PROTOCOL.md
// "Grades"): the independent testee of ./testees/independent.ts — caveats laid out as {k, v} maps in its signed grants,
// the other reading of the expiry boundary (declared), its own canonical check passing tags through as data (the other
// reading of tags in a canonical check, declared), its own error taxonomy, no claim of the byte contract — PASSes
// every class it claims on the spec grade with no unexpected result, its differences shown under the byte contract
// only; and each rule breaker of mutation/testees/ rebuilt on it is still flagged on the clause it breaks, and nowhere else.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifyCertificate } from '../report/certificate.ts';
import { cliPath } from './cli.ts';
import type { TestLine } from '../report/record-reporter.ts';
import { BREAKER_FILES, BREAKERS } from './breakers.ts';
import { runConformance } from './suite-run.ts';
import { buildIndependent } from './testees/independent.ts';
import { implementedClasses } from '../../spec-map/index.ts';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const TMP = mkdtempSync(join(tmpdir(), 'jcp-independent-'));
const BUNDLE = join(ROOT, 'node_modules', '.cache', 'jcp-self', 'independent.mjs');
const CLAIMED = [...implementedClasses()];

beforeAll(() => buildIndependent(BUNDLE), 60_000);
afterAll(() => rmSync(TMP, { recursive: true, force: true }));

const cleanEnv = (): NodeJS.ProcessEnv => {
  const env = { ...process.env };
  for (const k of ['JCP_TESTEE', 'JCP_CLASSES', 'JCP_RECORD', 'JCP_MUTANT']) delete env[k];
  return env;
};

describe('an independent implementation is certified on what the spec says', () => {
  it('it PASSes every class it claims, exit 0, its layout and codes shown under the byte contract only', () => {
    const report = join(TMP, 'certify');
    const r = spawnSync(process.execPath, [cliPath(), 'certify', '--testee', `node ${BUNDLE}`, '--report', report], { cwd: ROOT, env: cleanEnv(), encoding: 'utf8', timeout: 400_000 });
    expect(r.status, r.stdout.slice(-3000)).toBe(0);
    const cert = verifyCertificate(new Uint8Array(readFileSync(join(report, 'certificate.cose'))));
    const notPass = CLAIMED.filter((k) => cert.verdicts[k] !== 'PASS').map((k) => `${k}: ${cert.verdicts[k]}`);
    // every claimed class passes, the wire classes through the endpoint it starts itself (endpoint.start)
    expect(notPass).toEqual([]);
    expect(cert.unexpected).toBe(0);
    // its choices are visible, and only as byte-contract differences: caveated grants (C7, C24) and codes (C1)
    expect(cert.byte_contract?.['jcp:C7']).toBeGreaterThan(0);
    expect(cert.byte_contract?.['jcp:C1']).toBeGreaterThan(0);
    const lines = readFileSync(join(report, 'record.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l) as TestLine & { type: string });
    // the declared reading of the expiry boundary is what its boundary test was held to
    const boundary = lines.find((l) => l.type === 'test' && l.clauses?.[0] === 'jcp/7#open-expiry-boundary');
    expect(boundary?.outcome).toBe('passed');
    // the declared reading of tags in a canonical check (passed-through) is what every test of that open point was held to
    const tags = lines.filter((l) => l.type === 'test' && l.clauses?.includes('jcp/3#open-tags-in-canonical-check'));
    expect(tags.length).toBeGreaterThan(0);
    expect(tags.filter((l) => l.outcome !== 'passed').map((l) => `${l.id}: ${l.outcome}`)).toEqual([]);
  }, 420_000);
});

function run(name: string, testee: string): TestLine[] {
  return runConformance(name, BREAKER_FILES, { JCP_TESTEE: testee }, join(TMP, `${name}.jsonl`), 400_000);
}

describe('rule breakers rebuilt on the independent implementation are flagged on their rule and nowhere else', () => {
  for (const [v, clauses] of Object.entries(BREAKERS)) {
    it(v, () => {
      const failing = run(v, `node ${BUNDLE} ${v}`).filter((t) => t.outcome === 'failed' && t.grade === 'spec');
      expect(failing.length, `${v} was not caught by any spec-graded test`).toBeGreaterThan(0);
      expect(failing.filter((t) => !t.clauses.some((c) => clauses.includes(c))).map((t) => `${t.id} (names ${t.clauses.join(' ')})`)).toEqual([]);
    }, 420_000);
  }
});
