// A vitest reporter that writes one JSON line per conformance test to $JCP_RECORD: the test lines of the primary
// record (harness/report/record.ts adds the header and footer). Non-conformance tests (no clause ids) are left out.
import { appendFileSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import type { Reporter, SerializedError, TestCase, TestModule, TestRunEndReason, TestSpecification } from 'vitest/node';
import { classesOfClauses, clausesOf, gradeOfClauses, levelOfClauses, type Grade } from '../clause-index.ts';
import type { TestExchanges } from '../driver.ts';
import { diagnosticOfHex } from './diagnostic.ts';
import { PROGRAM_FAULTS } from './expectations.ts';

/** One test's line in the primary record. */
export interface TestLine {
  readonly type: 'test';
  readonly id: string;
  readonly file: string;
  readonly title: string;
  readonly clauses: readonly string[];
  readonly classes: readonly string[];
  readonly level: string;
  /** What the result is graded on (harness/PROTOCOL.md "Grades"): spec, bytes (the byte contract) or open. */
  readonly grade: Grade;
  readonly outcome: string;
  /** Why the test did not pass or fail: the testee's own reason for `unimplemented`, why it is not applicable or acceptable. */
  readonly reason?: string;
  /** The operation an unimplemented or not-applicable test needed (`wire`: a live jcp/1 endpoint, certify --endpoint). */
  readonly needs?: string;
  /** Byte-contract differences a spec-graded test noted (the testee does not claim the byte contract). */
  readonly contract?: readonly string[];
  /** Sub-checks left out, each with why. */
  readonly notes?: readonly string[];
  /** When the test started (ISO 8601), as the runner timed it. */
  readonly started_at?: string;
  readonly duration_ms?: number;
  readonly error?: string;
  /** A test that did not pass: every exchange it had with the implementation, whole (see {@link TestTranscript}). */
  readonly transcript?: TestTranscript;
}

/** One request and its response, whole: hex of the canonical CBOR, and its diagnostic notation (RFC 8949 §8). */
export interface TranscriptExchange {
  readonly op: string;
  readonly request: string;
  readonly request_diag: string;
  readonly response: string;
  readonly response_diag: string;
}

/**
 * A failing test's transcript. `exchanges` is every request the test made and its response, in order, none cut; a
 * test with more than the driver's bound (TRANSCRIPT_LIMIT in harness/driver.ts) keeps the first and the last half of
 * it, and `left_out` says how many were left out and after which kept exchange. When the testee failed as a program
 * (timeout, crash, errored) `request`, `response` and `stderr` are that failure's own evidence: the request it gave no
 * valid answer to (never among `exchanges`, which holds answered requests), what it sent instead, its stderr.
 */
export interface TestTranscript {
  readonly exchanges?: readonly TranscriptExchange[];
  readonly left_out?: { readonly count: number; readonly after: number };
  readonly op?: string;
  readonly request?: string;
  readonly request_diag?: string;
  readonly response?: string;
  readonly response_diag?: string;
  readonly stderr?: string;
}

/** The test line's transcript from what the test's meta carries: the driver's exchanges, a testee failure's evidence. */
function transcriptOf(outcome: string, meta: Record<string, unknown>): TestTranscript | undefined {
  const kept = meta['exchanges'] as TestExchanges | undefined;
  const failure = PROGRAM_FAULTS.has(outcome) ? (meta['transcript'] as { request?: string; response?: string; stderr?: string } | undefined) : undefined;
  if (!kept && !failure) return undefined;
  return {
    ...(kept
      ? {
          exchanges: kept.exchanges.map((x) => ({ op: x.op, request: x.request, request_diag: diagnosticOfHex(x.request), response: x.response, response_diag: diagnosticOfHex(x.response) })),
          ...(kept.left_out ? { left_out: kept.left_out } : {}),
        }
      : {}),
    ...(failure?.request !== undefined ? { request: failure.request, request_diag: diagnosticOfHex(failure.request) } : {}),
    ...(failure?.response !== undefined ? { response: failure.response, response_diag: diagnosticOfHex(failure.response) } : {}),
    ...(failure?.stderr !== undefined ? { stderr: failure.stderr } : {}),
  };
}

/** The reporter's last line: how the run ended. */
export interface EndLine {
  readonly type: 'end';
  readonly reason: string;
  readonly unhandled: number;
  readonly broken_files: readonly string[];
}

/** The test lines and the end line of a record the reporter wrote (empty when the file is missing). */
export function readTestRecord(path: string): { tests: TestLine[]; end: EndLine | undefined } {
  const lines = existsSync(path)
    ? readFileSync(path, 'utf8')
        .split('\n')
        .filter(Boolean)
        .map((l) => JSON.parse(l) as TestLine | EndLine)
    : [];
  return { tests: lines.filter((l): l is TestLine => l.type === 'test'), end: lines.find((l): l is EndLine => l.type === 'end') };
}

/** Whether the runner reached its end, every test file loaded, with no error outside a test (tests or none). */
export function runEnded(end: Omit<EndLine, 'type'> | undefined): boolean {
  return end !== undefined && end.reason !== 'interrupted' && end.unhandled === 0 && end.broken_files.length === 0;
}

/** Whether a run reached its end with tests, every test file loaded, and no error outside a test. */
export function runCompleted(tests: readonly TestLine[], end: Omit<EndLine, 'type'> | undefined): boolean {
  return tests.length > 0 && runEnded(end);
}

/** The stable id of a test: its first class, its first clause, and its case name — never a position. */
export function testId(classes: readonly string[], clauses: readonly string[], title: string): string {
  return `${classes[0] ?? 'unclassed'}|${clauses[0] ?? 'no-clause'}|${title}`;
}

function bareTitle(name: string): string {
  const i = name.lastIndexOf(' ⟦');
  return i < 0 ? name : name.slice(0, i);
}

/**
 * Whether a test is part of the record: it names clauses, and under certify --classes one of its classes is selected
 * (a test of no selected class is not part of the run, however it ended: skipped suites included).
 */
function recorded(name: string): boolean {
  const clauses = clausesOf(name);
  if (clauses.length === 0) return false;
  const selected = process.env['JCP_CLASSES']?.split(',').filter(Boolean);
  return !selected || classesOfClauses(clauses).some((k) => selected.includes(k));
}

export default class RecordReporter implements Reporter {
  private readonly path = process.env['JCP_RECORD'];

  onInit(): void {
    if (this.path) writeFileSync(this.path, '');
  }

  /** Marks the record complete: how the run ended, and errors outside any test (a file that failed to load). */
  onTestRunEnd(modules: ReadonlyArray<TestModule>, unhandled: ReadonlyArray<SerializedError>, reason: TestRunEndReason): void {
    if (!this.path) return;
    const broken = modules.filter((m) => m.errors().length > 0).map((m) => m.relativeModuleId);
    appendFileSync(this.path, JSON.stringify({ type: 'end', reason, unhandled: unhandled.length, broken_files: broken }) + '\n');
  }

  /** How many test files the run has: until each is collected, certify's progress line knows its total is a floor. */
  onTestRunStart(specifications: ReadonlyArray<TestSpecification>): void {
    if (this.path) appendFileSync(this.path, JSON.stringify({ type: 'files', files: specifications.length }) + '\n');
  }

  /** How many of a test file's tests will be recorded: what certify's progress line counts towards. */
  onTestModuleCollected(module: TestModule): void {
    if (!this.path) return;
    let tests = 0;
    for (const t of module.children.allTests()) if (recorded(t.name)) tests++;
    appendFileSync(this.path, JSON.stringify({ type: 'collected', file: module.relativeModuleId, tests }) + '\n');
  }

  onTestCaseResult(test: TestCase): void {
    if (!this.path) return;
    if (!recorded(test.name)) return;
    const clauses = clausesOf(test.name);
    const meta = test.meta() as Record<string, unknown>;
    const r = test.result();
    // classes and level come from the clause ids in the name, so a test that failed before its body ran keeps both
    const classes = classesOfClauses(clauses);
    if (meta['outcome'] === 'not selected') return;
    let outcome = (meta['outcome'] as string | undefined) ?? (r.state === 'passed' ? 'passed' : r.state === 'failed' ? 'failed' : 'skipped');
    // a test that failed before recording an outcome (e.g. in a hook) is a failure, never a pass
    if (r.state === 'failed' && outcome === 'passed') outcome = 'failed';
    const title = bareTitle(test.name);
    // the whole reason, never cut: the record is what every other report is derived from
    const error = r.state === 'failed' ? r.errors.map((e) => e.message).join('\n') : undefined;
    const transcript = transcriptOf(outcome, meta);
    const line: TestLine = {
      type: 'test',
      id: testId(classes, clauses, [...test.fullName.split(' > ').slice(0, -1), title].join(' > ')),
      file: test.module.relativeModuleId,
      title,
      clauses,
      classes,
      level: levelOfClauses(clauses),
      grade: (meta['grade'] as Grade | undefined) ?? gradeOfClauses(clauses),
      outcome,
      ...(typeof meta['reason'] === 'string' ? { reason: meta['reason'] } : {}),
      ...(typeof meta['needs'] === 'string' ? { needs: meta['needs'] } : {}),
      ...(Array.isArray(meta['contract']) ? { contract: meta['contract'] as string[] } : {}),
      ...(Array.isArray(meta['notes']) ? { notes: meta['notes'] as string[] } : {}),
      ...(test.diagnostic()?.startTime !== undefined ? { started_at: new Date(test.diagnostic()!.startTime).toISOString() } : {}),
      ...(test.diagnostic()?.duration !== undefined ? { duration_ms: Math.round(test.diagnostic()!.duration) } : {}),
      ...(error ? { error } : {}),
      ...(r.state === 'failed' && transcript ? { transcript } : {}),
    };
    appendFileSync(this.path, JSON.stringify(line) + '\n');
  }
}

/**
 * A transcript as plain text lines, every exchange whole (hex, then diagnostic notation), for the text reports: each
 * exchange as `exchange <n>: <op>` and its indented request and response; then a testee failure's own evidence as
 * `request: <hex>`, `response: <hex>`, their diagnostic notation, and `stderr: <text>`.
 */
export function transcriptLines(t: TestTranscript): string[] {
  const out: string[] = [];
  const left = t.left_out;
  (t.exchanges ?? []).forEach((x, i) => {
    if (left && i === left.after) out.push(`… ${left.count} exchange(s) left out here (over the bound the driver keeps) …`);
    out.push(
      `exchange ${i + 1 + (left && i >= left.after ? left.count : 0)}: ${x.op}`,
      `  request: ${x.request}`,
      `  request, diagnostic: ${x.request_diag}`,
      `  response: ${x.response}`,
      `  response, diagnostic: ${x.response_diag}`,
    );
  });
  if (t.op !== undefined) out.push(`op: ${t.op}`);
  if (t.request !== undefined) out.push(`request: ${t.request}`);
  if (t.response !== undefined) out.push(`response: ${t.response}`);
  if (t.request_diag !== undefined) out.push(`request, diagnostic: ${t.request_diag}`);
  if (t.response_diag !== undefined) out.push(`response, diagnostic: ${t.response_diag}`);
  if (t.stderr !== undefined) out.push(`stderr: ${t.stderr}`);
  return out;
}
