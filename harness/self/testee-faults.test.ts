// One faulty operation of a testee is charged to that operation alone (harness/PROTOCOL.md "Framing", "Messages",
// "Grades": a timeout, a crash or a protocol error counts against the testee). The fault testee
// (harness/self/testees/fault-main.ts) is the reference with one fault on one operation: a hang, an exit, an answer
// written twice. Conformance files run against it: only tests that call that operation get a fault outcome, every
// other test passes, no test reaches vitest's own time limit, and a property that meets the fault stops there, at
// once, naming the input that met it (a differential property: the sequence). Beside them, the driver on its own: a
// duplicate answer is reported once, on the request it answers or, written late, on the next one, and the requests
// after are not affected.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testeeTransport } from '../drivers/testee.ts';
import { TesteeFailure } from '../implementation.ts';
import type { TestLine } from '../report/record-reporter.ts';
import { runConformance } from './suite-run.ts';
import { buildBundle, bundlePath } from './bundles.ts';

const TMP = mkdtempSync(join(tmpdir(), 'jcp-testee-faults-'));
const FAULT = bundlePath('fault-main');
/** The per-request timeout of these runs (JCP_TESTEE_TIMEOUT_MS): short, so that a hang costs little. */
const TIMEOUT_MS = 1500;
/** The faulty operation: called by one conformance file only, whose last test is a property over it. */
const OP = 'rotation.verify';
const FILES = ['harness/conformance/rotation.test.ts', 'harness/conformance/identity.test.ts'];
const FAULT_OUTCOMES = new Set(['timeout', 'crash', 'errored']);

beforeAll(async () => {
  await buildBundle('fault-main');
}, 60_000);
afterAll(() => rmSync(TMP, { recursive: true, force: true }));

/** The record of `files` (default FILES) run against the fault testee with `args`. */
function run(name: string, args: string, files = FILES, extra: Record<string, string> = {}): TestLine[] {
  const vars = { JCP_TESTEE: `node ${FAULT} ${args}`, JCP_TESTEE_TIMEOUT_MS: String(TIMEOUT_MS), ...extra };
  return runConformance(name, files, vars, join(TMP, `${name}.jsonl`), 150_000);
}

const row = (t: TestLine): string => `${t.file} ${t.title}: ${t.outcome} ${(t.error ?? '').slice(0, 200)}`;

/** The fault is charged to OP alone, and no test ran into vitest's own limit. */
function chargedToOpAlone(tests: readonly TestLine[]): TestLine[] {
  const faulted = tests.filter((t) => FAULT_OUTCOMES.has(t.outcome));
  expect(faulted.length, 'tests that met the fault').toBeGreaterThan(0);
  // every fault outcome names the faulty operation as the request it happened on
  expect(faulted.filter((t) => !(t.error ?? '').includes(`(on ${OP}, seq `)).map(row)).toEqual([]);
  // only the file that calls OP has faults; every other test passes
  expect(faulted.filter((t) => !t.file.endsWith('rotation.test.ts')).map(row)).toEqual([]);
  expect(tests.filter((t) => !FAULT_OUTCOMES.has(t.outcome) && t.outcome !== 'passed').map(row)).toEqual([]);
  expect(tests.filter((t) => t.file.endsWith('identity.test.ts') && t.outcome === 'passed').length).toBeGreaterThan(5);
  // none reached vitest's test timeout: each ended on the driver's own per-request timeout, or sooner
  expect(tests.filter((t) => /Test timed out/.test(t.error ?? '') || (t.duration_ms ?? 0) > 10 * TIMEOUT_MS).map(row)).toEqual([]);
  return faulted;
}

const property = (tests: readonly TestLine[]): TestLine => {
  const p = tests.find((t) => t.file.endsWith('rotation.test.ts') && t.title.startsWith('property:'));
  if (!p) throw new Error('the rotation property is not in the record');
  return p;
};

describe('one faulty operation fails the tests that call it, and no other', () => {
  it(`a hang on refused ${OP}: those tests time out; the property stops at the first input that met it`, () => {
    const tests = run('hang', `hang ${OP} refused`);
    const faulted = chargedToOpAlone(tests);
    expect(new Set(faulted.map((t) => t.outcome))).toEqual(new Set(['timeout']));
    const p = property(tests);
    expect(p.outcome).toBe('timeout');
    // one timeout, not one per shrink step: the run that met it is named, unshrunk
    expect(p.error).toMatch(/met by run 1 of the property \(seed \d+\), on \[.*\]; the property stopped there, unshrunk/);
    expect(p.duration_ms ?? Infinity).toBeLessThan(3 * TIMEOUT_MS);
    // the tests of the file whose calls are all accepted pass
    expect(tests.filter((t) => t.file.endsWith('rotation.test.ts') && t.outcome === 'passed').length).toBeGreaterThan(0);
  }, 160_000);

  it(`an exit on every ${OP}: those tests crash, every test of another file passes`, () => {
    const tests = run('exit', `exit ${OP}`);
    const faulted = chargedToOpAlone(tests);
    expect(new Set(faulted.map((t) => t.outcome))).toEqual(new Set(['crash']));
    expect(property(tests).outcome).toBe('crash');
  }, 160_000);

  it(`an answer to refused ${OP} written twice: errored on that request, not on the next`, () => {
    const tests = run('twice', `twice ${OP} refused`);
    const faulted = chargedToOpAlone(tests);
    expect(new Set(faulted.map((t) => t.outcome))).toEqual(new Set(['errored']));
    expect(faulted.filter((t) => !/the testee wrote a second frame \(seq \d+\) after answering seq \d+/.test(t.error ?? '')).map(row)).toEqual([]);
    expect(property(tests).outcome).toBe('errored');
  }, 160_000);
});

describe('a differential property that meets a program fault stops there', () => {
  it('a hang on refused grant.attenuate: each property that draws it times out once, naming the sequence; the others pass', () => {
    const tests = run('differential', 'hang grant.attenuate refused', ['harness/conformance/differential.test.ts'], { JCP_PROPERTY_RUNS: '10', JCP_CASES_DIR: join(TMP, 'cases') });
    const faulted = tests.filter((t) => FAULT_OUTCOMES.has(t.outcome));
    expect(faulted.length, 'properties that met the fault').toBeGreaterThan(0);
    expect(faulted.filter((t) => t.outcome !== 'timeout' || !/\(on grant\.attenuate, seq \d+\)\nmet at step \d+ of \d+ of sequence \d+ \(seed \d+\): .*attenuate.*; the property stopped there, unshrunk/.test(t.error ?? '')).map(row)).toEqual([]);
    // one timeout each, not one per shrink step
    expect(faulted.filter((t) => (t.duration_ms ?? Infinity) > 3 * TIMEOUT_MS).map(row)).toEqual([]);
    expect(tests.filter((t) => !FAULT_OUTCOMES.has(t.outcome) && t.outcome !== 'passed').map(row)).toEqual([]);
  }, 160_000);
});

/** The protocol failure `p` must end in. */
async function protocolFailure(p: Promise<unknown>): Promise<TesteeFailure> {
  const e = await p.then(
    () => undefined,
    (x: unknown) => x,
  );
  expect(e).toBeInstanceOf(TesteeFailure);
  expect((e as TesteeFailure).kind).toBe('protocol');
  return e as TesteeFailure;
}

describe('the driver: a response belongs to its request', () => {
  const seed = new Uint8Array(32).fill(7);
  const DID = 'did:key:z6MkhaXgBZDvotDkL5257faiztiGiC2QtKLGpbnnEGta2doK';

  it('a second frame in the answer’s own write fails the request it answers; the next request respawns and passes', async () => {
    const t = testeeTransport(`node ${FAULT} twice identity.from-seed`, { timeoutMs: TIMEOUT_MS });
    try {
      await t.hello();
      expect((await protocolFailure(t.request('identity.from-seed', { seed }))).message).toMatch(/a second frame \(seq 2\) after answering seq 2 \(on identity\.from-seed, seq 2\)/);
      expect((await t.request('identity.parse-did', { did: DID })).has('ok')).toBe(true);
    } finally {
      await t.close();
    }
  });

  it('a frame written when nothing is in flight is reported once, on the next request, naming the seq it followed', async () => {
    const t = testeeTransport(`node ${FAULT} late identity.from-seed`, { timeoutMs: TIMEOUT_MS });
    try {
      await t.hello();
      expect((await t.request('identity.from-seed', { seed })).has('ok')).toBe(true);
      await new Promise((r) => setTimeout(r, 800)); // the duplicate arrives 300 ms after the answer
      expect((await protocolFailure(t.request('identity.parse-did', { did: DID }))).message).toMatch(/a frame \(seq 2\) nobody asked for after seq 2 \(identity\.from-seed\) was answered/);
      // reported once: the requests after it go to a fresh testee and are answered
      for (let i = 0; i < 2; i++) expect((await t.request('identity.parse-did', { did: DID })).has('ok')).toBe(true);
    } finally {
      await t.close();
    }
  });

  it('a frame for another seq than the one in flight fails that request alone', async () => {
    const t = testeeTransport(`node ${FAULT} wrong-seq identity.from-seed`, { timeoutMs: TIMEOUT_MS });
    try {
      await t.hello();
      expect((await protocolFailure(t.request('identity.from-seed', { seed }))).message).toMatch(/a frame for seq 1002 while seq 2 was in flight \(on identity\.from-seed, seq 2\)/);
      for (let i = 0; i < 2; i++) expect((await t.request('identity.parse-did', { did: DID })).has('ok')).toBe(true);
    } finally {
      await t.close();
    }
  });
});
