// JUnit XML as CI tools read it (the Ant / Jenkins schema: testsuites > testsuite > testcase), derived from the judged
// lines of the primary record: one testsuite per row of the class table (classRows), so its counts are the table's.
import { PROGRAM_FAULTS, type Judged } from './expectations.ts';
import { transcriptLines } from './record-reporter.ts';
import type { ClassRow } from './record.ts';

/** How a test reads in a JUnit consumer: plain (passed), `<failure>`, `<error>` or `<skipped>`. */
export type JUnitKind = 'passed' | 'failure' | 'error' | 'skipped';

/** One testcase's result element: its kind, its `type` and `message` attributes and its body. */
export interface JUnitResult {
  readonly kind: JUnitKind;
  readonly type?: string;
  readonly message?: string;
  readonly body?: string;
}

/** The suite holding tests of no class (clauses that belong to no class): the class table has no row for them. */
export const UNCLASSED_SUITE = 'unclassed';

const oneLine = (s: string) => s.replace(/\s+/g, ' ').trim();

/** Everything the record says about a result that did not pass, whole: reason, expected and actual, transcript. */
function _details(t: Judged): string {
  const out: string[] = [];
  if (t.error) out.push(t.error);
  if (t.reason && t.reason !== t.error) out.push(t.reason);
  out.push('', `expected: ${t.expected ?? 'passed'}${t.expected ? ' (the expectation file)' : ''}`, `actual: ${t.outcome}`);
  out.push(`grade: ${t.grade ?? 'spec'}, level ${t.level}`, `clauses: ${t.clauses.join(' ')}`, `file: ${t.file}`);
  if (t.needs) out.push(`needs: ${t.needs}`);
  for (const n of t.notes ?? []) out.push(`note: ${n}`);
  for (const c of t.contract ?? []) out.push(`byte contract: ${c}`);
  if (t.transcript) out.push('transcript:', ...transcriptLines(t.transcript).map((l) => `  ${l}`));
  return out.join('\n');
}

/**
 * What test `t` reads as in the suite of a class (claimed or not by the testee). `<error>` for a program fault that
 * fails the run (timeout, crash, errored); `<failure>` for any other result that fails the run (an unexpected failure,
 * an unimplemented operation a claimed class requires, an unexpected pass); `<skipped>` for every result that did not
 * pass and does not fail the run — not claimed, not applicable, acceptable (no reading declared), unimplemented in a
 * class the testee does not claim, an expected failure (the adopter's expectation file matched it), and a failure
 * graded apart (SHOULD / MAY / open point, or the byte contract of a testee not claiming it: harness/PROTOCOL.md
 * "Grades") — and for a test the runner skipped (`skipped`, which the run does count against the testee: its message
 * says so). A passing test is plain.
 */
export function junitResult(t: Judged, claimed: boolean): JUnitResult {
  const why = oneLine(t.error ?? t.reason ?? '');
  const tail = why ? `: ${why}` : '';
  if (t.outcome === 'skipped') return { kind: 'skipped', message: `skipped by the runner (no outcome of its own${t.unexpected ? '; counted against the run' : ''})${tail}` };
  if (t.unexpected) {
    if (PROGRAM_FAULTS.has(t.outcome)) return { kind: 'error', type: t.outcome, message: `${t.outcome}${tail}`, body: _details(t) };
    if (t.outcome === 'unimplemented' && !claimed) return { kind: 'skipped', message: `unimplemented, in a class the implementation does not claim${tail}` };
    if (t.outcome === 'passed') return { kind: 'failure', type: 'unexpected pass', message: `passed, but the expectation file expects ${t.expected ?? 'a failure'}: remove its entry`, body: _details(t) };
    return { kind: 'failure', type: t.outcome, message: why || t.outcome, body: _details(t) };
  }
  if (t.outcome === 'passed') return { kind: 'passed' };
  if (t.outcome === 'expected failure') return { kind: 'skipped', type: 'expected failure', message: `expected failure (the expectation file expects ${t.expected ?? 'failed'})${tail}`, body: _details(t) };
  // a test of no claimed class is skipped before its body runs, with no reason of its own (harness/clause.ts clauseIt)
  if (t.outcome === 'not claimed') return { kind: 'skipped', type: t.outcome, message: `not claimed${tail || `: the implementation claims none of ${t.classes.join(', ')}`}` };
  if (t.outcome === 'not applicable' || t.outcome === 'acceptable') return { kind: 'skipped', type: t.outcome, message: `${t.outcome}${tail}` };
  // did not pass, and does not count against the run: graded apart
  return { kind: 'skipped', type: t.outcome, message: `${t.outcome}, graded ${t.grade ?? 'spec'} (not counted against the run)${tail}`, body: _details(t) };
}

// XML 1.0 §2.2 Char: a character outside it cannot be written even as a reference, so it is written as the text
// \u{…} (nothing is dropped); §3.3.3 attribute-value normalization: tab, newline and CR in an attribute as references
const NOT_XML_CHAR = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;
const visible = (s: string) => s.replace(NOT_XML_CHAR, (c) => `\\u{${c.charCodeAt(0).toString(16).padStart(4, '0')}}`);
const ENTITY: Record<string, string> = { '<': '&lt;', '>': '&gt;', '&': '&amp;', '"': '&quot;', "'": '&apos;', '\t': '&#9;', '\n': '&#10;', '\r': '&#13;' };
/** Text escaped for an attribute value. */
export const xmlAttr = (s: string) => visible(s).replace(/[<>&"'\t\n\r]/g, (c) => ENTITY[c]!);
/** Text escaped for element content (CR kept as a reference: XML 1.0 §2.11 would fold it). */
export const xmlText = (s: string) => visible(s).replace(/[<>&\r]/g, (c) => ENTITY[c]!);

const seconds = (ms: number) => (ms / 1000).toFixed(3);

/**
 * JUnit XML: one `<testsuite>` per row of the class table (`rows`, from classRows over the same lines), in its order;
 * a test of several classes is a testcase in each of its classes' suites, as the table counts it, so a suite's `tests`
 * is the table's total for that class over all three grades (the spec, byte-contract and SHOULD / MAY / open-point
 * columns together). Tests of no class, which no row counts, go in one more suite, `unclassed`, when there are any.
 * Each suite carries tests, failures, errors, skipped, time (seconds, the sum of its tests' durations) and timestamp
 * (`started_at`, the record header's), and the class's claim and verdict as properties (a shard's rows carry no
 * verdict: certify --shard judges no class); the `<testsuites>` root carries the sums over the suites. Each testcase:
 * name (the test's id), classname (the suite's class), file, time, and its result as junitResult says.
 */
export function junitXml(judged: readonly Judged[], rows: ReadonlyArray<Pick<ClassRow, 'class' | 'claimed' | 'suite_defined'> & { readonly verdict?: string }>, started_at: string): string {
  const suites: Array<{ name: string; claimed: boolean; verdict?: string; suite_defined?: true; tests: Judged[] }> = rows.map((r) => ({
    name: r.class,
    claimed: r.claimed,
    ...(r.suite_defined ? { suite_defined: true as const } : {}),
    ...(r.verdict !== undefined ? { verdict: r.verdict } : {}),
    tests: judged.filter((t) => t.classes.includes(r.class)),
  }));
  const unclassed = judged.filter((t) => t.classes.length === 0);
  if (unclassed.length) suites.push({ name: UNCLASSED_SUITE, claimed: true, tests: unclassed });
  const total = { tests: 0, failures: 0, errors: 0, skipped: 0, ms: 0 };
  const body = suites.map((s) => {
    const n = { tests: s.tests.length, failures: 0, errors: 0, skipped: 0, ms: 0 };
    const cases = s.tests.map((t) => {
      const r = junitResult(t, s.claimed);
      n.ms += t.duration_ms ?? 0;
      if (r.kind === 'failure') n.failures++;
      else if (r.kind === 'error') n.errors++;
      else if (r.kind === 'skipped') n.skipped++;
      const open = `    <testcase name="${xmlAttr(t.id)}" classname="${xmlAttr(s.name)}" file="${xmlAttr(t.file)}" time="${seconds(t.duration_ms ?? 0)}"`;
      if (r.kind === 'passed') return `${open}/>`;
      const attrs = `${r.type !== undefined ? ` type="${xmlAttr(r.type)}"` : ''} message="${xmlAttr(r.message ?? '')}"`;
      const el = r.body !== undefined ? `<${r.kind}${attrs}>${xmlText(r.body)}</${r.kind}>` : `<${r.kind}${attrs}/>`;
      return `${open}>\n      ${el}\n    </testcase>`;
    });
    for (const k of ['tests', 'failures', 'errors', 'skipped', 'ms'] as const) total[k] += n[k];
    const props = [`      <property name="claimed" value="${s.claimed}"/>`, ...(s.verdict ? [`      <property name="verdict" value="${xmlAttr(s.verdict)}"/>`] : []),
      // a profile this suite defines (spec-map/profiles.json), not a class of the spec
      ...(s.suite_defined ? ['      <property name="defined_by" value="jcp-conformance suite profile, not a class of the spec"/>'] : [])];
    return [
      `  <testsuite name="${xmlAttr(s.name)}" tests="${n.tests}" failures="${n.failures}" errors="${n.errors}" skipped="${n.skipped}" time="${seconds(n.ms)}" timestamp="${xmlAttr(started_at)}">`,
      '    <properties>',
      ...props,
      '    </properties>',
      ...cases,
      '  </testsuite>',
    ].join('\n');
  });
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="jcp-conformance" tests="${total.tests}" failures="${total.failures}" errors="${total.errors}" skipped="${total.skipped}" time="${seconds(total.ms)}">`,
    ...body,
    '</testsuites>',
    '',
  ].join('\n');
}
