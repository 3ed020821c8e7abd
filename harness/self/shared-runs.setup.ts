// vitest globalSetup: a fresh folder for the shared certify runs of this test run (./shared-runs.ts), provided to
// every test file. It is emptied here, at the start, and left afterwards so its reports and screenshots can be read.
import { mkdirSync, rmSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { TestProject } from 'vitest/node';

export default function setup(project: TestProject): void {
  const dir = join(resolve(dirname(fileURLToPath(import.meta.url)), '..', '..'), 'reports', 'self-shared');
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  project.provide('sharedRuns', dir);
}
