// One primary record, many views: the JSONL record (header, one line per test, footer) and, derived from it alone,
// the per-class verdicts, JUnit XML, Allure results, a Markdown summary and the signed conformance certificate.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { TesteeInfo } from '../implementation.ts';
import type { Judged } from './expectations.ts';

/** The record's first line. */
export interface Header {
  readonly type: 'header';
  readonly suite: { readonly name: string; readonly version: string };
  readonly protocol: string;
  readonly testee: TesteeInfo & { readonly driver: string };
  /** blake3 of each spec-map clause file and of the expectation file, hex. */
  readonly digests: Readonly<Record<string, string>>;
  /** Published vector packs replayed, with their digests (none yet: the vectors issue publishes them). */
  readonly vector_packs: ReadonlyArray<{ readonly name: string; readonly digest: string }>;
  readonly seed: number;
  /** Sequences per differential property (harness/property/, issue 9); absent in records written before them. */
  readonly property_runs?: number;
  readonly classes_requested: readonly string[] | 'all';
  readonly started_at: string;
}

/** The record's last line. */
export interface Footer {
  readonly type: 'footer';
  readonly counts: Readonly<Record<string, number>>;
  readonly unexpected: number;
  readonly expectation_problems: { readonly unmatched: readonly string[]; readonly tooBroad: ReadonlyArray<{ test: string; matches: number }> };
  readonly finished_at: string;
  readonly complete: boolean;
}

/** A class's verdict. */
export interface ClassRow {
  readonly class: string;
  readonly claimed: boolean;
  /** Counts of MUST-level tests by outcome. */
  readonly must: Readonly<Record<string, number>>;
  /** Counts of SHOULD/MAY-level and open-point tests by outcome (graded apart). */
  readonly should: Readonly<Record<string, number>>;
  readonly verdict: 'PASS' | 'FAIL' | 'PARTIAL' | 'NOT CLAIMED' | 'NOT TESTED';
}

const MUSTISH = new Set(['MUST', 'MUST NOT', 'REQUIRED']);

/** Every JCP class the spec defines, listed in every table whether tested or not. */
export const JCP_CLASSES = [...Array.from({ length: 26 }, (_, i) => `jcp:C${i + 1}`), 'jcp:C-neg'];

/** Per-class verdicts from judged test lines. */
export function classRows(judged: readonly Judged[], claims: readonly string[]): ClassRow[] {
  const seen = new Set(judged.flatMap((t) => t.classes));
  const order = [...new Set([...JCP_CLASSES, ...[...seen].sort()])];
  return order.map((k) => {
    const tests = judged.filter((t) => t.classes.includes(k));
    const must: Record<string, number> = {};
    const should: Record<string, number> = {};
    for (const t of tests) {
      const bucket = MUSTISH.has(t.level) ? must : should;
      bucket[t.outcome] = (bucket[t.outcome] ?? 0) + 1;
    }
    const claimed = claims.includes(k);
    let verdict: ClassRow['verdict'];
    if (tests.length === 0) verdict = 'NOT TESTED';
    else if (!claimed) verdict = 'NOT CLAIMED';
    else if (tests.some((t) => t.unexpected)) verdict = 'FAIL';
    else if (tests.some((t) => t.outcome !== 'passed' && t.outcome !== 'not claimed')) verdict = 'PARTIAL';
    else verdict = 'PASS';
    return { class: k, claimed, must, should, verdict };
  });
}

const fmt = (c: Readonly<Record<string, number>>) =>
  Object.entries(c)
    .sort()
    .map(([k, v]) => `${v} ${k}`)
    .join(', ') || '—';

/** The closing table for a terminal. */
export function terminalTable(rows: readonly ClassRow[]): string {
  const lines = ['class         verdict       MUST-level tests                      SHOULD/MAY/open-point tests'];
  for (const r of rows) lines.push(`${r.class.padEnd(13)} ${r.verdict.padEnd(13)} ${fmt(r.must).padEnd(37)} ${fmt(r.should)}`);
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
    '| class | verdict | MUST-level | SHOULD / MAY / open point |',
    '| --- | --- | --- | --- |',
    ...rows.map((r) => `| ${r.class} | ${r.verdict} | ${fmt(r.must)} | ${fmt(r.should)} |`),
  ];
  const bad = judged.filter((t) => t.unexpected);
  if (bad.length) {
    out.push('', '## Unexpected results', '');
    for (const t of bad) out.push(`- \`${t.id}\` — ${t.outcome}${t.expected ? ` (expected ${t.expected})` : ''}: ${(t.error ?? '').split('\n')[0]}`);
  }
  if (footer.expectation_problems.unmatched.length || footer.expectation_problems.tooBroad.length) {
    out.push('', '## Expectation file problems', '');
    for (const u of footer.expectation_problems.unmatched) out.push(`- entry \`${u}\` matches no test`);
    for (const b of footer.expectation_problems.tooBroad) out.push(`- glob \`${b.test}\` matches ${b.matches} tests (more than allowed)`);
  }
  return out.join('\n') + '\n';
}

const xml = (s: string) => s.replace(/[<>&"']/g, (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', '"': '&quot;', "'": '&apos;' })[c]!).replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f]/g, '');

/** JUnit XML: one testsuite per class, unexpected results as failures, not-passed-but-expected as skipped. */
export function junitXml(judged: readonly Judged[]): string {
  const byClass = new Map<string, Judged[]>();
  for (const t of judged) {
    const k = t.classes[0] ?? 'unclassed';
    (byClass.get(k) ?? byClass.set(k, []).get(k)!).push(t);
  }
  const suites = [...byClass].map(([k, ts]) => {
    const failures = ts.filter((t) => t.unexpected).length;
    const skipped = ts.filter((t) => !t.unexpected && t.outcome !== 'passed').length;
    const cases = ts.map((t) => {
      const body = t.unexpected
        ? `<failure message="${xml(t.outcome)}">${xml(t.error ?? t.outcome)}</failure>`
        : t.outcome !== 'passed'
          ? `<skipped message="${xml(t.outcome)}"/>`
          : '';
      return `    <testcase classname="${xml(k)}" name="${xml(t.id)}" time="${((t.duration_ms ?? 0) / 1000).toFixed(3)}">${body}</testcase>`;
    });
    return `  <testsuite name="${xml(k)}" tests="${ts.length}" failures="${failures}" skipped="${skipped}">\n${cases.join('\n')}\n  </testsuite>`;
  });
  return `<?xml version="1.0" encoding="UTF-8"?>\n<testsuites name="jcp-conformance">\n${suites.join('\n')}\n</testsuites>\n`;
}

/** Allure results (one `<uuid>-result.json` per test) for `allure generate`. */
export function writeAllure(dir: string, judged: readonly Judged[], uuidOf: (id: string) => string): void {
  mkdirSync(dir, { recursive: true });
  for (const t of judged) {
    const uuid = uuidOf(t.id);
    const status = t.outcome === 'passed' ? 'passed' : t.unexpected ? (['timeout', 'crash', 'errored'].includes(t.outcome) ? 'broken' : 'failed') : 'skipped';
    writeFileSync(
      join(dir, `${uuid}-result.json`),
      JSON.stringify({
        uuid,
        historyId: uuidOf(`history:${t.id}`),
        name: t.title,
        fullName: t.id,
        status,
        stage: 'finished',
        statusDetails: { message: t.expected ? `${t.outcome} (expected ${t.expected})` : t.outcome, trace: t.error ?? '' },
        labels: [
          { name: 'parentSuite', value: 'jcp-conformance' },
          { name: 'suite', value: t.classes[0] ?? 'unclassed' },
          { name: 'subSuite', value: t.clauses[0] ?? '' },
          ...t.clauses.map((c) => ({ name: 'tag', value: c })),
          { name: 'severity', value: MUSTISH.has(t.level) ? 'critical' : 'normal' },
        ],
        parameters: [],
        start: 0,
        stop: t.duration_ms ?? 0,
      }),
    );
  }
}
