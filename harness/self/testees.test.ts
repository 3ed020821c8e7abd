// The protocol is faithful and language-neutral: the reference run as a separate process passes, test for test, what
// it passes in process; and testees that each break one rule on purpose are flagged on the clauses of that rule and
// nowhere else, while testees that hang or crash on one operation lose only the tests that use it.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestLine } from '../report/record-reporter.ts';
import { BREAKER_FILES, BREAKERS } from './breakers.ts';
import { buildBundle, REFERENCE_TESTEE as REFERENCE, variantTestee as variant } from './bundles.ts';
import { runConformance } from './suite-run.ts';
import { implementedClasses } from '../../spec-map/index.ts';

const TMP = mkdtempSync(join(tmpdir(), 'jcp-testees-'));
beforeAll(() => Promise.all([buildBundle('reference'), buildBundle('variant')]), 60_000);
afterAll(() => rmSync(TMP, { recursive: true, force: true }));

const SUITE = ['harness/conformance', 'harness/external'];

/** Runs conformance test files against a testee (or in-process when `testee` is undefined) and reads the record. */
function run(name: string, testee: string | undefined, files = SUITE, extraEnv: Record<string, string> = {}): Map<string, TestLine> {
  const tests = runConformance(name, files, { ...extraEnv, ...(testee ? { JCP_TESTEE: testee } : {}) }, join(TMP, `${name}.jsonl`), 400_000);
  return new Map(tests.map((l) => [l.id, l]));
}

// No test is out of a stdio testee's reach but one: the wire tests go to the endpoint it starts itself
// (endpoint.start), the durable crash tests kill and respawn its own process; a second instance of that endpoint on
// its record cannot be started through the protocol (its one-writer rule is tested through durable.open instead).
const OUT_OF_REACH = new Set(['wire second instance']);
const failing = (m: Map<string, TestLine>) =>
  [...m.values()].filter((t) => t.outcome !== 'passed' && t.outcome !== 'not claimed' && !(t.outcome === 'not applicable' && OUT_OF_REACH.has(t.needs ?? '')));

/** The classes the reference claims (spec-map/implemented.json): a test of any other class reads "not claimed". */
const CLAIMED = new Set([...implementedClasses()]);

// The in-process outcome of every one of these tests is what this same `npm test` run reports for harness/conformance
// and harness/external (they run in it, in process, and must pass), so the separate process is held to that outcome
// directly rather than by running the whole suite in process a second time here.
describe('the testee protocol', () => {
  it('the reference as a separate process passes every claimed test, and reads "not claimed" exactly where it claims no class', () => {
    const sub = run('subprocess', REFERENCE);
    expect(sub.size).toBeGreaterThan(100);
    expect(failing(sub).map((t) => `${t.id}: ${t.outcome}`)).toEqual([]);
    // the wire and the durable record were tested through the testee itself
    expect([...sub.values()].filter((t) => (t.file.endsWith('wire.test.ts') || t.file.endsWith('durable.test.ts')) && t.outcome === 'passed').length).toBeGreaterThan(5);
    const claimsOne = (t: TestLine) => t.classes.length === 0 || t.classes.some((c) => CLAIMED.has(c));
    // a claimed test passes (or is one a stdio testee cannot take); an unclaimed one is never run
    const misread = [...sub.values()]
      .filter((t) => (t.outcome === 'not claimed') === claimsOne(t))
      .map((t) => `${t.id}: ${t.outcome} (classes ${t.classes.join(' ')})`);
    expect(misread).toEqual([]);
    expect([...sub.values()].filter((t) => t.outcome === 'passed').length).toBeGreaterThan(100);
  }, 420_000);
});

describe('testees that break one rule are flagged on that rule and nowhere else', () => {
  for (const [v, clauses] of Object.entries(BREAKERS)) {
    it(v, () => {
      const bad = failing(run(v, variant(v), BREAKER_FILES));
      expect(bad.length, `${v} was not caught by any test`).toBeGreaterThan(0);
      const elsewhere = bad.filter((t) => !t.clauses.some((c) => clauses.includes(c))).map((t) => `${t.id} (${t.outcome}; names ${t.clauses.join(' ')})`);
      expect(elsewhere).toEqual([]);
      expect(bad.every((t) => t.outcome === 'failed')).toBe(true);
    }, 420_000);
  }
});

describe('a testee that hangs or crashes on one operation loses only the tests that use it', () => {
  const files = ['harness/conformance/frame.test.ts', 'harness/conformance/grant.test.ts'];
  for (const [v, outcome] of [
    ['crash:frame.check', 'crash'],
    ['slow:frame.check', 'timeout'],
  ] as const) {
    it(v, () => {
      const m = run(v.replace(':', '-'), variant(v), files, { JCP_TESTEE_TIMEOUT_MS: '3000' });
      const frameTests = [...m.values()].filter((t) => t.file.endsWith('frame.test.ts'));
      const others = [...m.values()].filter((t) => !t.file.endsWith('frame.test.ts'));
      expect(frameTests.length).toBeGreaterThan(0);
      expect(frameTests.map((t) => t.outcome)).toEqual(frameTests.map(() => outcome));
      expect(frameTests.every((t) => (t.transcript?.['request'] ?? '').length > 0)).toBe(true);
      expect(others.length).toBeGreaterThan(0);
      expect(others.filter((t) => t.outcome !== 'passed' && t.outcome !== 'not claimed').map((t) => t.id)).toEqual([]);
    }, 420_000);
  }
});
