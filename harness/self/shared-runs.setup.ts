// vitest globalSetup: a fresh folder for the shared certify runs of this test run (./shared-runs.ts), provided to
// every test file. It is emptied here, at the start of an outer run, and left afterwards so its reports and
// screenshots can be read.
import { mkdirSync, rmSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { TestProject } from 'vitest/node';

export default function setup(project: TestProject): void {
  // a vitest run started by a self-test (testees.test.ts runs the suite in a subprocess) inherits the outer run's
  // folder through the environment, and must not empty it under the outer run's feet
  const inherited = process.env['JCP_SHARED_RUNS'];
  if (inherited) {
    project.provide('sharedRuns', inherited);
    return;
  }
  const dir = join(resolve(dirname(fileURLToPath(import.meta.url)), '..', '..'), 'reports', 'self-shared');
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  process.env['JCP_SHARED_RUNS'] = dir;
  project.provide('sharedRuns', dir);
}
