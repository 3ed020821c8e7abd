// What the conformance runner (harness/certify.vitest.config.ts) takes from the environment, checked: certify refuses
// a bad value before anything runs (exit 2), and the runner does not start on one.
//
// $JCP_WORKERS: how many worker processes. One worker loads the suite once; each more loads it again and runs beside
// it, which pays where cores are idle. Where they are not (a run nested in another that keeps them busy: this
// project's self-tests set 1 in vitest.config.ts) a second worker only loads the suite twice: about 2 CPU-seconds more
// for a certify of two classes, 2.5 for a whole one.
//
// $JCP_MODULE_CACHE: a folder where the runner keeps the modules it transformed (TypeScript to JavaScript, imports
// rewritten), keyed by each file's content, for the next run to read rather than transform again (vitest's
// experimental fsModuleCache). Worth it where certify runs many times over a checkout's TypeScript (this project's
// self-tests set it in vitest.config.ts): a certify of two classes about 2.3 CPU-seconds less. An installed package's
// compiled suite is under node_modules/, which the runner loads as it is, so there the cache keeps next to nothing.
// Unset, nothing is kept.
import { existsSync, statSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { isAbsolute } from 'node:path';

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

/**
 * What is wrong with $JCP_MODULE_CACHE, or undefined when it is unset, empty, or an absolute path that is a folder or
 * not there yet (the runner makes it). A relative path is refused: the runner resolves it from the suite's own folder,
 * which for an installed package is inside node_modules, not where it was typed.
 */
export function moduleCacheProblem(v = process.env['JCP_MODULE_CACHE']): string | undefined {
  if (v === undefined || v === '') return undefined;
  if (!isAbsolute(v)) return `JCP_MODULE_CACHE must be an absolute path (the folder the runner keeps transformed modules in), not ${JSON.stringify(v)}`;
  if (existsSync(v) && !statSync(v).isDirectory()) return `JCP_MODULE_CACHE names ${v}, which is not a folder`;
  return undefined;
}

/** The runner's module cache folder, or undefined for none. Throws (the runner does not start) on a bad $JCP_MODULE_CACHE. */
export function runnerModuleCache(v = process.env['JCP_MODULE_CACHE']): string | undefined {
  const problem = moduleCacheProblem(v);
  if (problem) throw new Error(problem);
  return v || undefined;
}
