// How many worker processes the conformance runner (harness/certify.vitest.config.ts) uses: $JCP_WORKERS when set (a
// whole number of at least 1), else one fewer than the cores and at least 2. One worker loads the suite once; each
// more loads it again and runs beside it, which pays where cores are idle. Where they are not (a run nested in
// another that keeps them busy: this project's self-tests set 1 in vitest.config.ts) a second worker only loads the
// suite twice: about 2 CPU-seconds more for a certify of two classes, 2.5 for a whole one.
import { availableParallelism } from 'node:os';

/** What is wrong with $JCP_WORKERS, or undefined when it is unset or a whole number of at least 1. */
export function workersProblem(v = process.env['JCP_WORKERS']): string | undefined {
  if (v === undefined || v === '' || /^[1-9][0-9]{0,3}$/.test(v)) return undefined;
  return `JCP_WORKERS must be a whole number of at least 1 (the runner's worker processes), not ${JSON.stringify(v)}`;
}

/** The runner's worker count. Throws (the runner does not start) on a $JCP_WORKERS that is no whole number of at least 1. */
export function runnerWorkers(v = process.env['JCP_WORKERS']): number {
  const problem = workersProblem(v);
  if (problem) throw new Error(problem);
  return v ? Number(v) : Math.max(2, availableParallelism() - 1);
}
