// How many mutants Stryker makes of each file: its own instrumenter (the version the runs use), over the files' text as
// they stand. No test runs; a file of types and re-exports only holds none, and so never has a result in a report.
import { readFileSync } from 'node:fs';
import { Instrumenter } from '@stryker-mutator/instrumenter';

const noLog = () => false;
const quiet = { isTraceEnabled: noLog, isDebugEnabled: noLog, isInfoEnabled: noLog, isWarnEnabled: noLog, isErrorEnabled: noLog, isFatalEnabled: noLog, trace() {}, debug() {}, info() {}, warn() {}, error() {}, fatal() {} };

/** file → the number of mutants Stryker's instrumenter makes of it (no mutator excluded, as stryker.config.json). */
export async function mutantsOf(files: readonly string[]): Promise<Map<string, number>> {
  const counts = new Map(files.map((f) => [f, 0]));
  if (files.length === 0) return counts;
  const instrumenter = new Instrumenter(quiet as never);
  const result = await instrumenter.instrument(
    files.map((name) => ({ name, content: readFileSync(name, 'utf8'), mutate: true })),
    { plugins: null, excludedMutations: [], ignorers: [] } as never,
  );
  for (const m of result.mutants) counts.set(m.fileName, (counts.get(m.fileName) ?? 0) + 1);
  return counts;
}
