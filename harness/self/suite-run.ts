// Conformance files run as certify runs them — vitest in a subprocess, with certify's runner configuration
// (harness/certify.vitest.config.ts) and the record reporter — for the self-tests that hold a testee's per-test
// outcomes to what its faults should cause, without the rest of certify (reports, certificate, verdicts).
import { spawnSync } from 'node:child_process';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { readTestRecord, runCompleted, type TestLine } from '../report/record-reporter.ts';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');

/**
 * Runs `files` with `env` (which names the testee, or none for the in-process reference) and returns the test lines
 * of the record written to `record`; a run that did not complete is an error naming `name` and the runner's output.
 */
export function runConformance(name: string, files: readonly string[], env: NodeJS.ProcessEnv, record: string, timeoutMs: number): TestLine[] {
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
    { cwd: ROOT, env: { ...env, JCP_RECORD: record }, encoding: 'utf8', timeout: timeoutMs },
  );
  if (r.error) throw r.error;
  const { tests, end } = readTestRecord(record);
  if (!runCompleted(tests, end)) throw new Error(`${name}: the run did not complete: ${JSON.stringify(end)}\n${r.stdout.slice(-2000)}`);
  return tests;
}
