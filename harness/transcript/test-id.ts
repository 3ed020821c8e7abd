// Re-verifiable transcripts: the id a transcript entry names its test by — the same id the record's
// test line carries (harness/report/record-reporter.ts testId), so that reverify can join exchanges to verdicts.
// Computed inside the test worker, where only the running task is known, exactly as the reporter computes it from the
// finished test: its full name (suites > name, the file left out) split on ' > ', the last part replaced by the bare
// title — a title that itself holds ' > ' repeats its head in the id, and so must this.
// record-reporter.ts imports clause.ts, which calls this: the one-line format is repeated here rather than imported, to
// keep that cycle out, and harness/self/transcript.test.ts checks every recorded id against a real record.

/** The part of a running vitest task this needs: its name and its enclosing suites up to the file. */
export interface TaskLike {
  readonly name: string;
  readonly suite?: SuiteLike | undefined;
  readonly file?: unknown;
}
interface SuiteLike {
  readonly name: string;
  readonly suite?: SuiteLike | undefined;
}

/** The record's id of the conformance test `task`, which names `classes` and `clauses` and has bare title `title`. */
export function transcriptTestId(task: TaskLike, classes: readonly string[], clauses: readonly string[], title: string): string {
  const names = [task.name];
  // the file is a suite too, but the record's full name leaves it out
  for (let s = task.suite; s && s !== task.file && !('filepath' in s); s = s.suite) names.unshift(s.name);
  const path = [...names.join(' > ').split(' > ').slice(0, -1), title].join(' > ');
  return `${classes[0] ?? 'unclassed'}|${clauses[0] ?? 'no-clause'}|${path}`;
}
