// A vitest reporter that writes one JSON line per conformance test to $JCP_RECORD: the test lines of the primary
// record (harness/report/record.ts adds the header and footer). Non-conformance tests (no clause ids) are left out.
import { appendFileSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import type { Reporter, SerializedError, TestCase, TestModule, TestRunEndReason, TestSpecification } from 'vitest/node';
import { classesOfClauses, clausesOf, gradeOfClauses, levelOfClauses, type Grade } from '../clause.ts';

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
  readonly duration_ms?: number;
  readonly error?: string;
  readonly transcript?: Readonly<Record<string, string>>;
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

/** Whether a run reached its end with tests, every test file loaded, and no error outside a test. */
export function runCompleted(tests: readonly TestLine[], end: EndLine | undefined): boolean {
  return tests.length > 0 && end !== undefined && end.reason !== 'interrupted' && end.unhandled === 0 && end.broken_files.length === 0;
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
      ...(test.diagnostic()?.duration !== undefined ? { duration_ms: Math.round(test.diagnostic()!.duration) } : {}),
      ...(error ? { error } : {}),
      ...(meta['transcript'] ? { transcript: meta['transcript'] as Record<string, string> } : {}),
    };
    appendFileSync(this.path, JSON.stringify(line) + '\n');
  }
}
