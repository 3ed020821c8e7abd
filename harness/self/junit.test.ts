// Self-test of junit.xml as a real JUnit consumer reads it (python3-junitparser): a record with every outcome, built in
// the reporter's line shape, and one real `certify --classes C3` of the reference. Per suite, the consumer's tests,
// failures, errors, skipped, time and timestamp are held to the record and to the class table (classRows); per case,
// its result kind, message and body. Without a python3 that imports junitparser it says so in one line and passes,
// unless JCP_REQUIRE_JUNITPARSER=1 (.ci/run sets it after installing python3-junitparser), where it fails.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { judge, PROGRAM_FAULTS, type Judged } from '../report/expectations.ts';
import { junitXml } from '../report/junit.ts';
import { classRows, type ClassRow, type Footer, type Header } from '../report/record.ts';
import type { TestLine } from '../report/record-reporter.ts';
import { REFERENCE_C3, sharedCertify } from './shared-runs.ts';

const REQUIRED = process.env.JCP_REQUIRE_JUNITPARSER === '1';
const TMP = mkdtempSync(join(tmpdir(), 'jcp-junit-'));
afterAll(() => rmSync(TMP, { recursive: true, force: true }));

/** The first interpreter that imports junitparser: $JCP_PYTHON, python3, then Debian's own (where apt puts it). */
function findPython(): string | undefined {
  for (const py of [process.env.JCP_PYTHON, 'python3', '/usr/bin/python3']) {
    if (py && spawnSync(py, ['-c', 'import junitparser'], { stdio: 'ignore' }).status === 0) return py;
  }
  return undefined;
}
const PY = findPython();

// what the consumer sees: the attributes each suite declares, and each case's result elements
const READ = `
import json, sys
from junitparser import JUnitXml, Failure, Error, Skipped
x = JUnitXml.fromfile(sys.argv[1])
kind = lambda r: 'failure' if isinstance(r, Failure) else 'error' if isinstance(r, Error) else 'skipped' if isinstance(r, Skipped) else type(r).__name__
out = {'root': {k: getattr(x, k) for k in ('tests', 'failures', 'errors', 'skipped', 'time')}, 'suites': []}
for s in x:
    out['suites'].append({
        'name': s.name, 'tests': s.tests, 'failures': s.failures, 'errors': s.errors, 'skipped': s.skipped, 'time': s.time, 'timestamp': s.timestamp,
        'properties': {p.name: p.value for p in s.properties()},
        'cases': [{'name': c.name, 'classname': c.classname, 'file': c._elem.get('file'), 'time': c.time,
                   'results': [{'kind': kind(r), 'type': r.type, 'message': r.message, 'text': r.text} for r in c.result]} for c in s],
    })
print(json.dumps(out))
`;

interface Read {
  root: { tests: number; failures: number; errors: number; skipped: number; time: number };
  suites: Array<{
    name: string;
    tests: number;
    failures: number;
    errors: number;
    skipped: number;
    time: number;
    timestamp: string;
    properties: Record<string, string>;
    cases: Array<{ name: string; classname: string; file: string; time: number; results: Array<{ kind: string; type: string | null; message: string | null; text: string | null }> }>;
  }>;
}

/** junit.xml read by junitparser. */
function readJUnit(path: string): Read {
  const r = spawnSync(PY!, ['-c', READ, path], { encoding: 'utf8', timeout: 60_000, maxBuffer: 256 * 1024 * 1024 });
  expect(r.status, r.stderr).toBe(0);
  return JSON.parse(r.stdout) as Read;
}

/** A case's kind as the consumer reads it: passed when it has no result element. */
const kindOf = (c: Read['suites'][number]['cases'][number]) => (c.results.length === 0 ? 'passed' : c.results.map((r) => r.kind).join('+'));

/** The table's total for a class: its spec, byte-contract and SHOULD / MAY / open-point columns together. */
const rowTotal = (r: ClassRow) => [r.must, r.bytes, r.should].flatMap((c) => Object.values(c)).reduce((a, b) => a + b, 0);
const rowCount = (r: ClassRow, outcome: string) => (r.must[outcome] ?? 0) + (r.bytes[outcome] ?? 0) + (r.should[outcome] ?? 0);

/** The checks every junit.xml must pass against its record and table, whatever the run. */
function holdsToRecord(x: Read, judged: readonly Judged[], rows: readonly ClassRow[], started_at: string): void {
  const unclassed = judged.filter((t) => t.classes.length === 0);
  expect(x.suites.map((s) => s.name)).toEqual([...rows.map((r) => r.class), ...(unclassed.length ? ['unclassed'] : [])]);
  const byId = new Map(judged.map((t) => [t.id, t]));
  for (const s of x.suites) {
    const row = rows.find((r) => r.class === s.name);
    const tests = row ? judged.filter((t) => t.classes.includes(row.class)) : unclassed;
    // the table's counts: every test of the class, of all three grades
    if (row) expect(s.tests, s.name).toBe(rowTotal(row));
    expect(s.tests, s.name).toBe(tests.length);
    expect(s.cases.map((c) => c.name).sort(), s.name).toEqual(tests.map((t) => t.id).sort());
    // the declared counts are the cases' own
    const kinds = s.cases.map(kindOf);
    expect(kinds.every((k) => ['passed', 'failure', 'error', 'skipped'].includes(k)), `${s.name}: one result element at most`).toBe(true);
    expect([s.failures, s.errors, s.skipped], s.name).toEqual(['failure', 'error', 'skipped'].map((k) => kinds.filter((x) => x === k).length));
    if (row) expect(kinds.filter((k) => k === 'passed').length, s.name).toBe(rowCount(row, 'passed') - tests.filter((t) => t.outcome === 'passed' && t.unexpected).length);
    if (row) expect(s.properties, s.name).toEqual({ claimed: String(row.claimed), verdict: row.verdict });
    expect(s.timestamp).toBe(started_at);
    expect(s.time).toBeCloseTo(tests.reduce((a, t) => a + (t.duration_ms ?? 0), 0) / 1000, 2);
    const claimed = row ? row.claimed : true;
    for (const c of s.cases) {
      const t = byId.get(c.name)!;
      expect([c.classname, c.file], c.name).toEqual([s.name, t.file]);
      expect(c.time, c.name).toBeCloseTo((t.duration_ms ?? 0) / 1000, 3);
      // harness/report/junit.ts junitResult, restated: error for a program fault that fails the run, failure for any
      // other result that fails it (but unimplemented in an unclaimed class), plain for a pass, skipped for the rest
      const want = t.outcome === 'skipped' ? 'skipped'
        : t.unexpected && PROGRAM_FAULTS.has(t.outcome) ? 'error'
        : t.unexpected && !(t.outcome === 'unimplemented' && !claimed) ? 'failure'
        : t.outcome === 'passed' ? 'passed' : 'skipped';
      expect(kindOf(c), `${s.name} ${c.name} (${t.outcome}${t.unexpected ? ', unexpected' : ''})`).toBe(want);
      for (const r of c.results) {
        expect(r.message, c.name).not.toMatch(/[\n\r]/);
        expect(r.message, c.name).not.toBe('skipped');
      }
    }
  }
  // the root carries the sums over the suites
  for (const k of ['tests', 'failures', 'errors', 'skipped'] as const) expect(x.root[k], k).toBe(x.suites.reduce((a, s) => a + s[k], 0));
  expect(x.root.time).toBeCloseTo(x.suites.reduce((a, s) => a + s.time, 0), 2);
  // each test of the record is a case somewhere; what fails the run is a failure or an error somewhere
  const failing = new Set(x.suites.flatMap((s) => s.cases.filter((c) => ['failure', 'error'].includes(kindOf(c))).map((c) => c.name)));
  expect(new Set(x.suites.flatMap((s) => s.cases.map((c) => c.name)))).toEqual(new Set(judged.map((t) => t.id)));
  expect(failing).toEqual(new Set(judged.filter((t) => t.unexpected && t.outcome !== 'skipped').map((t) => t.id)));
}

const STARTED = '2026-01-02T03:04:05.678Z';
// a reason that needs escaping: markup, quotes, CR LF, a control character, a lone surrogate, an emoji, and length
const NASTY = `expected <a href="x">&amp;</a> ]]> 'q' to equal "b"\r\nsecond line\ttab \u0001 \ud800 🐘 ${'long '.repeat(4000)}end`;
const NASTY_READ = NASTY.replace('\u0001', '\\u{0001}').replace('\ud800', '\\u{d800}');
const mk = (id: string, outcome: string, extra: Partial<TestLine> = {}): TestLine => ({
  type: 'test',
  id,
  file: 'harness/conformance/x.test.ts',
  title: id,
  clauses: ['jcp/7#expired'],
  classes: ['jcp:C1'],
  level: 'MUST',
  grade: 'spec',
  outcome,
  duration_ms: 125,
  ...extra,
});

/** One line per outcome, and the kind each must read as in each suite (C1 claimed, C2 not). */
const CASES: ReadonlyArray<{ line: TestLine; kinds: Readonly<Record<string, string>> }> = [
  { line: mk('passed', 'passed'), kinds: { 'jcp:C1': 'passed' } },
  { line: mk('failed', 'failed', { error: NASTY, transcript: { op: 'grant.verify', request: 'a1006161', response: 'a2<&>' } }), kinds: { 'jcp:C1': 'failure' } },
  { line: mk('failed-open', 'failed', { grade: 'open', level: 'SHOULD', error: 'a SHOULD' }), kinds: { 'jcp:C1': 'skipped' } },
  { line: mk('failed-bytes', 'failed', { grade: 'bytes', error: 'byte contract: layout' }), kinds: { 'jcp:C1': 'skipped' } },
  { line: mk('unimplemented', 'unimplemented', { classes: ['jcp:C1', 'jcp:C2'], reason: 'grant.verify unimplemented — required by claimed jcp:C1' }), kinds: { 'jcp:C1': 'failure', 'jcp:C2': 'skipped' } },
  { line: mk('not-applicable', 'not applicable', { reason: 'needs wire' }), kinds: { 'jcp:C1': 'skipped' } },
  { line: mk('acceptable', 'acceptable', { grade: 'open', reason: 'no reading declared: valid-at-expiry' }), kinds: { 'jcp:C1': 'skipped' } },
  { line: mk('not-claimed', 'not claimed', { classes: ['jcp:C2'] }), kinds: { 'jcp:C2': 'skipped' } },
  { line: mk('errored', 'errored', { error: 'frame not CBOR', transcript: { stderr: 'boom' } }), kinds: { 'jcp:C1': 'error' } },
  { line: mk('timeout', 'timeout', { error: 'no answer in 5000 ms' }), kinds: { 'jcp:C1': 'error' } },
  { line: mk('crash', 'crash', { error: 'exited with 139' }), kinds: { 'jcp:C1': 'error' } },
  { line: mk('expected-failure', 'failed', { error: 'known bug' }), kinds: { 'jcp:C1': 'skipped' } },
  { line: mk('expected-timeout', 'timeout', { error: 'slow' }), kinds: { 'jcp:C1': 'skipped' } },
  { line: mk('unexpected-pass', 'passed'), kinds: { 'jcp:C1': 'failure' } },
  { line: mk('skipped', 'skipped'), kinds: { 'jcp:C1': 'skipped' } },
  { line: mk('unclassed', 'passed', { classes: [], clauses: ['jcp/1#scope'] }), kinds: { unclassed: 'passed' } },
];

if (PY === undefined) {
  it(`junit.xml: no python3 imports junitparser (apt-get install python3-junitparser)${REQUIRED ? '' : '; not read by a JUnit consumer'}`, () => {
    console.warn('junit.xml: no python3 imports junitparser (apt-get install python3-junitparser); not read by a JUnit consumer');
    expect(REQUIRED, 'JCP_REQUIRE_JUNITPARSER=1 asks for junit.xml to be read by junitparser').toBe(false);
  });
} else {
  describe('junit.xml read by junitparser', () => {
    it('a record with every outcome: counts per class as the table, kinds per case, whole escaped bodies', () => {
      const { judged, problems } = judge(
        CASES.map((c) => c.line),
        {
          expectations: [
            { test: 'expected-failure', reason: 'known bug' },
            { test: 'expected-timeout', outcome: 'timeout', reason: 'slow testee' },
            { test: 'unexpected-pass', reason: 'was broken' },
          ],
        },
        { byteContract: false },
      );
      expect(problems.unmatched).toEqual([]);
      expect(new Set(judged.map((t) => t.outcome))).toEqual(new Set(['passed', 'failed', 'unimplemented', 'not applicable', 'acceptable', 'not claimed', 'errored', 'timeout', 'crash', 'expected failure', 'skipped']));
      const rows = classRows(judged, ['jcp:C1'], ['jcp:C1', 'jcp:C2']);
      const path = join(TMP, 'every-outcome.xml');
      writeFileSync(path, junitXml(judged, rows, STARTED));
      const x = readJUnit(path);
      holdsToRecord(x, judged, rows, STARTED);
      // each case as the table of CASES says, in every suite it is in
      const got = Object.fromEntries(x.suites.flatMap((s) => s.cases.map((c) => [`${s.name} ${c.name}`, kindOf(c)])));
      expect(got).toEqual(Object.fromEntries(CASES.flatMap((c) => Object.entries(c.kinds).map(([k, v]) => [`${k} ${c.line.id}`, v]))));
      expect(x.suites.map((s) => [s.name, s.tests, s.failures, s.errors, s.skipped])).toEqual([
        ['jcp:C1', 14, 3, 3, 7],
        ['jcp:C2', 2, 0, 0, 2],
        ['unclassed', 1, 0, 0, 0],
      ]);
      const c1 = new Map(x.suites[0]!.cases.map((c) => [c.name, c.results[0]]));
      // a failure: the reason in one line as its message, and whole in the body with expected, actual and transcript
      const f = c1.get('failed')!;
      expect(f.type).toBe('failed');
      expect(f.message).toBe(NASTY_READ.replace(/\s+/g, ' ').trim());
      expect(f.text).toContain(NASTY_READ);
      expect(f.text).toContain('expected: passed\nactual: failed');
      expect(f.text).toContain('  request: a1006161\n  response: a2<&>');
      expect(c1.get('unexpected-pass')!.message).toMatch(/^passed, but the expectation file expects failed/);
      expect(c1.get('unexpected-pass')!.text).toContain('expected: failed (the expectation file)\nactual: passed');
      // an error: its kind as type, the whole reason in the body
      expect([c1.get('timeout')!.type, c1.get('timeout')!.message]).toEqual(['timeout', 'timeout: no answer in 5000 ms']);
      expect(c1.get('errored')!.text).toContain('frame not CBOR');
      expect(c1.get('errored')!.text).toContain('stderr: boom');
      // skipped, each saying why; an expected failure names what was expected
      expect(c1.get('not-applicable')!.message).toBe('not applicable: needs wire');
      expect(x.suites[1]!.cases.find((c) => c.name === 'not-claimed')!.results[0]!.message).toBe('not claimed: the implementation claims none of jcp:C2');
      expect(c1.get('expected-failure')!.message).toBe('expected failure (the expectation file expects failed): known bug');
      expect(c1.get('expected-timeout')!.message).toBe('expected failure (the expectation file expects timeout): slow');
      expect(c1.get('failed-open')!.message).toBe('failed, graded open (not counted against the run): a SHOULD');
      expect(c1.get('skipped')!.message).toMatch(/^skipped by the runner .*counted against the run/);
      expect(x.suites[1]!.cases.find((c) => c.name === 'unimplemented')!.results[0]!.message).toMatch(/^unimplemented, in a class the implementation does not claim: grant\.verify/);
    });

    it('one real certify --classes C3 of the reference: junit.xml holds to its record.jsonl and its table', async () => {
      // the run transcript.test.ts reads too (./shared-runs.ts)
      const r = await sharedCertify('reference-c3', REFERENCE_C3);
      const dir = r.dir;
      // the record as certify wrote it: unexpected is 0 / 1 there
      const lines = readFileSync(join(dir, 'record.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l) as { type: string; unexpected?: number });
      const header = lines[0] as unknown as Header;
      const footer = lines.at(-1) as unknown as Footer;
      const judged = lines.filter((l) => l.type === 'test').map((l): Judged => ({ ...(l as unknown as TestLine), unexpected: l.unexpected === 1 }));
      expect(judged.length, r.stdout).toBeGreaterThan(0);
      expect(judged.length).toBe(Object.values(footer.counts).reduce((a, b) => a + b, 0));
      const rows = classRows(judged, header.testee.claims, header.classes_requested === 'all' ? undefined : header.classes_requested);
      const x = readJUnit(join(dir, 'junit.xml'));
      holdsToRecord(x, judged, rows, header.started_at);
      expect(x.suites.map((s) => s.name)).toEqual(['jcp:C3']);
      // the verdict the terminal table printed is the suite's
      expect(r.stdout).toMatch(new RegExp(`jcp:C3\\s+${x.suites[0]!.properties['verdict']}`));
    }, 900_000);
  });
}
