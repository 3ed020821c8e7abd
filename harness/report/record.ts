// One primary record, many views: the JSONL record (header, one line per test, footer) and, derived from it alone,
// the per-class verdicts, JUnit XML, Allure results, a Markdown summary and the signed conformance certificate.
import type { TesteeInfo } from '../implementation.ts';
import { NEUTRAL, PROGRAM_FAULTS, type Judged } from './expectations.ts';
import { isSuiteProfile } from '../../spec-map/index.ts';

/** JUnit XML (harness/report/junit.ts), a view derived from the record beside the others here. */
export { junitXml } from './junit.ts';
/** Allure results (harness/report/allure.ts), written through Allure's own library. */
export { writeAllure } from './allure.ts';

/** The record's first line. */
export interface Header {
  readonly type: 'header';
  readonly suite: { readonly name: string; readonly version: string };
  readonly protocol: string;
  readonly testee: TesteeInfo & { readonly driver: string };
  /** blake3 of each spec-map clause file and of the expectation file, hex. */
  readonly digests: Readonly<Record<string, string>>;
  /** Published vector packs replayed (vectors/conformance/v1/), with the blake3 of each. */
  readonly vector_packs: ReadonlyArray<{ readonly name: string; readonly digest: string }>;
  readonly seed: number;
  /** Sequences per differential property (harness/property/); absent in records written before them. */
  readonly property_runs?: number;
  readonly classes_requested: readonly string[] | 'all';
  /**
   * A shard's record (certify --shard k/n): which of the n shards of the run it is. A shard's record holds its own
   * tests' results and no class verdict; `jcp-conformance merge` joins the n records into the run's one.
   */
  readonly shard?: { readonly index: number; readonly count: number };
  /** A merged record (jcp-conformance merge): how many shard records it joins. */
  readonly shards?: number;
  readonly started_at: string;
}

/** The record's last line. */
export interface Footer {
  readonly type: 'footer';
  readonly counts: Readonly<Record<string, number>>;
  readonly unexpected: number;
  readonly expectation_problems: {
    readonly unmatched: readonly string[];
    readonly tooBroad: ReadonlyArray<{ test: string; matches: number }>;
    /** without_verdict entries naming a class that got a verdict. */
    readonly stale_without_verdict?: readonly string[];
  };
  /** Claimed classes that got no verdict, each excused by the expectation file or counted unexpected. */
  readonly claimed_without_verdict?: ReadonlyArray<{ readonly class: string; readonly verdict: string; readonly excused?: string }>;
  /**
   * A shard's record: how its test runner ended (the reporter's end line), from which merge judges whether the whole
   * run completed; absent in a record that is no shard's, and in a shard's whose runner never reached its end.
   */
  readonly runner?: { readonly reason: string; readonly unhandled: number; readonly broken_files: readonly string[] };
  readonly finished_at: string;
  readonly complete: boolean;
}

/** A class's verdict. */
export interface ClassRow {
  readonly class: string;
  readonly claimed: boolean;
  /** Counts of spec-graded tests by outcome: the class passes or fails on these alone. */
  readonly must: Readonly<Record<string, number>>;
  /** Counts of byte-contract tests by outcome (harness/PROTOCOL.md "Grades"). */
  readonly bytes: Readonly<Record<string, number>>;
  /** Tests with a byte-contract difference: byte-contract tests that did not pass, and tests that noted one. */
  readonly contract_differences: number;
  /** Counts of SHOULD / MAY / open-point tests by outcome (graded apart). */
  readonly should: Readonly<Record<string, number>>;
  /** NEEDS …: what the run lacked for it — ENDPOINT (a live jcp/1 endpoint), or an option such as --endpoint-restart. */
  readonly verdict: 'PASS' | 'FAIL' | 'PARTIAL' | 'NOT CLAIMED' | 'NOT TESTED' | 'NOT APPLICABLE' | `NEEDS ${string}`;
  /** Set on a profile this suite defines (spec-map/profiles.json), which is not a class of any spec. */
  readonly suite_defined?: true;
}

/** The note every report prints under a table holding a suite-defined profile. */
export const SUITE_PROFILE_NOTE =
  '† a profile defined by this suite (spec-map/profiles.json), not a class of the spec: MUST-level clauses no class of the spec holds, grouped so they can be claimed and certified; its verdict is graded on the spec\'s words like a class\'s';

/** A class id as the tables show it: a suite-defined profile marked †. */
export function classLabel(r: Pick<ClassRow, 'class' | 'suite_defined'>): string {
  return r.suite_defined ? `${r.class} †` : r.class;
}

/** Every JCP class the spec defines, listed in every table whether tested or not. */
export const JCP_CLASSES = [...Array.from({ length: 26 }, (_, i) => `jcp:C${i + 1}`), 'jcp:C-neg'];

/** The classes a jcp/1 endpoint shows over the wire (jcp §9: C8 wire binding, C13 caller-signed wire + threshold). */
const WIRE_CLASSES = new Set(['jcp:C8', 'jcp:C13']);

/**
 * Per-class verdicts from judged test lines. A class passes or fails on its spec-graded tests (on all its tests when
 * it has none): FAIL on an unexpected result there or a program fault anywhere; NOT APPLICABLE when none of them
 * passed and none failed; NEEDS ENDPOINT for a wire class (C8, C13) whose tests needed a live jcp/1 endpoint the run
 * did not have (a stdio testee that starts none: never passed, never failed), and NEEDS <option> for a class some of
 * whose tests needed an option of the run it was not given (harness/clause.ts RunLacks, e.g. --endpoint-restart);
 * PARTIAL when some did not pass but were expected not to; else PASS. `requested` (certify --classes) limits the rows
 * to those classes.
 */
export function classRows(judged: readonly Judged[], claims: readonly string[], requested?: readonly string[]): ClassRow[] {
  const seen = new Set(judged.flatMap((t) => t.classes));
  const order = requested ? [...requested] : [...new Set([...JCP_CLASSES, ...[...seen].sort()])];
  return order.map((k) => {
    const tests = judged.filter((t) => t.classes.includes(k));
    const must: Record<string, number> = {};
    const bytes: Record<string, number> = {};
    const should: Record<string, number> = {};
    let contract_differences = 0;
    for (const t of tests) {
      const grade = t.grade ?? 'spec';
      const bucket = grade === 'spec' ? must : grade === 'bytes' ? bytes : should;
      bucket[t.outcome] = (bucket[t.outcome] ?? 0) + 1;
      if ((grade === 'bytes' && t.outcome !== 'passed' && !NEUTRAL.has(t.outcome)) || (t.contract?.length ?? 0) > 0) contract_differences++;
    }
    const claimed = claims.includes(k);
    const spec = tests.filter((t) => (t.grade ?? 'spec') === 'spec');
    const relevant = spec.length ? spec : tests;
    let verdict: ClassRow['verdict'];
    if (tests.length === 0) verdict = 'NOT TESTED';
    else if (!claimed) verdict = 'NOT CLAIMED';
    else if (relevant.some((t) => t.unexpected) || tests.some((t) => PROGRAM_FAULTS.has(t.outcome) && t.unexpected)) verdict = 'FAIL';
    else if (WIRE_CLASSES.has(k) && tests.some((t) => t.outcome === 'not applicable' && t.needs === 'wire')) verdict = 'NEEDS ENDPOINT';
    else if (relevant.some((t) => t.outcome === 'not applicable' && t.needs?.startsWith('--'))) {
      verdict = `NEEDS ${[...new Set(relevant.filter((t) => t.outcome === 'not applicable' && t.needs?.startsWith('--')).map((t) => t.needs!))].sort().join(' ')}`;
    }
    else if (!relevant.some((t) => t.outcome === 'passed')) verdict = relevant.some((t) => t.outcome === 'expected failure') ? 'PARTIAL' : 'NOT APPLICABLE';
    else if (relevant.some((t) => t.outcome !== 'passed' && !NEUTRAL.has(t.outcome))) verdict = 'PARTIAL';
    else verdict = 'PASS';
    return { class: k, claimed, must, bytes, contract_differences, should, verdict, ...(isSuiteProfile(k) ? { suite_defined: true as const } : {}) };
  });
}

/** The byte-contract column: whether the class's bytes and codes are the suite's. */
export function contractCell(r: ClassRow): string {
  const ran = Object.values(r.bytes).reduce((a, b) => a + b, 0);
  if (r.contract_differences > 0) return `${r.contract_differences} test(s) differ: does not interoperate byte for byte with the published vectors`;
  return ran > 0 || Object.keys(r.must).length > 0 ? 'no difference' : '—';
}

const fmt = (c: Readonly<Record<string, number>>) =>
  Object.entries(c)
    .sort()
    .map(([k, v]) => `${v} ${k}`)
    .join(', ') || '—';

/** The closing table for a terminal. */
export function terminalTable(rows: readonly ClassRow[]): string {
  // the class and verdict columns as wide as their longest entry (jouleclaw:C-TLOG, NEEDS --endpoint-restart)
  const w = Math.max(13, ...rows.map((r) => classLabel(r).length));
  const v = Math.max(14, ...rows.map((r) => r.verdict.length));
  const lines = [`${'class'.padEnd(w)} ${'verdict'.padEnd(v)} ${'spec grade (MUST)'.padEnd(37)} ${'byte contract'.padEnd(28)} SHOULD/MAY/open point`];
  for (const r of rows) {
    const bytes = r.contract_differences > 0 ? `${r.contract_differences} test(s) differ` : Object.keys(r.must).length || Object.keys(r.bytes).length ? 'no difference' : '—';
    lines.push(`${classLabel(r).padEnd(w)} ${r.verdict.padEnd(v)} ${fmt(r.must).padEnd(37)} ${bytes.padEnd(28)} ${fmt(r.should)}`);
  }
  if (rows.some((r) => r.suite_defined)) lines.push(SUITE_PROFILE_NOTE);
  return lines.join('\n');
}

/** A Markdown summary (for a CI step summary). */
export function markdownSummary(header: Header, footer: Footer, rows: readonly ClassRow[], judged: readonly Judged[]): string {
  const out = [
    `# JCP conformance: ${header.testee.name} ${header.testee.version}`,
    '',
    `Suite ${header.suite.name} ${header.suite.version}, protocol ${header.protocol}, driver: ${header.testee.driver}, seed ${header.seed}${header.property_runs !== undefined ? `, ${header.property_runs} differential sequences per property` : ''}.`,
    `Result: **${footer.unexpected === 0 && footer.complete ? 'no unexpected results' : `${footer.unexpected} unexpected result(s)`}** — ${fmt(footer.counts)}.`,
    '',
    'A class passes or fails on its spec grade alone (the spec\'s own normative words). The byte contract (layouts and ERR_ codes the suite fixes so implementations interoperate) and SHOULD / MAY / open points are graded apart (harness/PROTOCOL.md "Grades").',
    '',
    '| class | verdict | spec grade (MUST) | byte contract | SHOULD / MAY / open point |',
    '| --- | --- | --- | --- | --- |',
    ...rows.map((r) => `| ${classLabel(r)} | ${r.verdict} | ${fmt(r.must)} | ${contractCell(r)}${Object.keys(r.bytes).length ? ` (${fmt(r.bytes)})` : ''} | ${fmt(r.should)} |`),
    ...(rows.some((r) => r.suite_defined) ? ['', SUITE_PROFILE_NOTE] : []),
  ];
  const bad = judged.filter((t) => t.unexpected);
  if (bad.length) {
    out.push('', '## Unexpected results', '');
    for (const t of bad) out.push(`- \`${t.id}\` — ${t.outcome}, ${t.grade ?? 'spec'} grade${t.expected ? ` (expected ${t.expected})` : ''}: ${(t.error ?? t.reason ?? '').split('\n')[0]}`);
  }
  const differing = judged.filter((t) => t.contract?.length || ((t.grade ?? 'spec') === 'bytes' && t.outcome !== 'passed' && !NEUTRAL.has(t.outcome) && !t.unexpected));
  if (differing.length) {
    out.push('', '## Byte-contract differences (not spec failures)', '');
    for (const t of differing) out.push(`- \`${t.id}\`: ${(t.contract ?? [(t.error ?? t.outcome).split('\n')[0]]).join('; ')}`);
  }
  const inapplicable = judged.filter((t) => t.outcome === 'not applicable' || t.outcome === 'acceptable');
  if (inapplicable.length) {
    out.push('', '## Not applicable and acceptable', '');
    for (const t of inapplicable) out.push(`- \`${t.id}\` — ${t.outcome}: ${t.reason ?? ''}`);
  }
  if (footer.claimed_without_verdict?.length) {
    out.push('', '## Claimed classes without a verdict', '');
    for (const c of footer.claimed_without_verdict) out.push(`- ${c.class}: ${c.verdict}${c.excused !== undefined ? ` — expected by the expectation file: ${c.excused}` : ' — unexpected'}`);
  }
  const stale = footer.expectation_problems.stale_without_verdict ?? [];
  if (footer.expectation_problems.unmatched.length || footer.expectation_problems.tooBroad.length || stale.length) {
    out.push('', '## Expectation file problems', '');
    for (const u of footer.expectation_problems.unmatched) out.push(`- entry \`${u}\` matches no test`);
    for (const b of footer.expectation_problems.tooBroad) out.push(`- glob \`${b.test}\` matches ${b.matches} tests (more than allowed)`);
    for (const k of stale) out.push(`- without_verdict entry \`${k}\` names a class that got a verdict`);
  }
  return out.join('\n') + '\n';
}
