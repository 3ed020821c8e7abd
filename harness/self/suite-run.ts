// Conformance files run as certify runs them — vitest in a subprocess, with certify's runner configuration
// (harness/certify.vitest.config.ts) and the record reporter — for the self-tests that hold a testee's per-test
// outcomes to what its faults should cause, without the rest of certify (reports, certificate, verdicts).
import { spawnSync } from 'node:child_process';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { readTestRecord, runCompleted, type TestLine } from '../report/record-reporter.ts';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');

/**
 * The variables that choose what a conformance run tests and where it writes (harness/driver.ts, the record
 * reporter, certify): none is inherited from the run that starts it, so a self-test's run is what its caller names.
 */
const SUITE_VARIABLES = [
  'JCP_TESTEE',
  'JCP_TESTEE_TIMEOUT_MS',
  'JCP_ENDPOINT',
  'JCP_CLASSES',
  'JCP_MUTANT',
  'JCP_RECORD',
  'JCP_TRANSCRIPT',
  'JCP_REFUSAL_LOG',
  'JCP_CASES_DIR',
] as const;

/**
 * Runs `files` with `vars` (JCP_TESTEE names the testee; without it the in-process reference) over this process's
 * environment less {@link SUITE_VARIABLES}, and returns the test lines of the record written to `record`; a run that
 * did not complete is an error naming `name` and the runner's output.
 */
export function runConformance(name: string, files: readonly string[], vars: Readonly<Record<string, string>>, record: string, timeoutMs: number): TestLine[] {
  const env: NodeJS.ProcessEnv = { ...process.env };
  for (const k of SUITE_VARIABLES) delete env[k];
  const r = spawnSync(
    process.execPath,
    [
      join(ROOT, 'node_modules', 'vitest', 'vitest.mjs'),
      'run',
      `--config=${join(ROOT, 'harness', 'certify.vitest.config.ts')}`,
      ...files,
      '--reporter=dot',
      `--reporter=${join(ROOT, 'harness', 'report', 'record-reporter.ts')}`,
    ],
    { cwd: ROOT, env: { ...env, ...vars, JCP_RECORD: record }, encoding: 'utf8', timeout: timeoutMs },
  );
  if (r.error) throw r.error;
  const { tests, end } = readTestRecord(record);
  if (!runCompleted(tests, end)) throw new Error(`${name}: the run did not complete: ${JSON.stringify(end)}\n${r.stdout.slice(-2000)}`);
  return tests;
}
