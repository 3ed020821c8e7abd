// vitest globalSetup of the self-tests: the suite compiled once for this test run, as `npm pack` compiles it for the
// installed package (scripts/build-package.ts, the same compiler and layout), into node_modules/.cache/jcp-self/suite;
// the self-tests start the CLI from there (./cli.ts). Through tsx each start of the CLI cost about 1.4 CPU-seconds more
// (a certify, compiled: 0.7 CPU-seconds against 2.1), and the self-tests start it about 120 times.
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { TestProject } from 'vitest/node';
import { buildSuite } from '../../scripts/build-package.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The compiled CLI of this test run (./cli.ts). */
    compiledCli: string;
  }
}

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');

export default function setup(project: TestProject): void {
  // a vitest run started by a self-test inherits the outer run's build, and must not rebuild it under its feet
  const inherited = process.env['JCP_SELF_CLI'];
  if (inherited) {
    project.provide('compiledCli', inherited);
    return;
  }
  const dir = join(ROOT, 'node_modules', '.cache', 'jcp-self', 'suite');
  // npm test type-checks every source in its first phase: here tsc only emits (scripts/build-package.ts)
  buildSuite(dir, { typeCheck: false });
  const cli = join(dir, 'harness', 'cli.js');
  process.env['JCP_SELF_CLI'] = cli;
  project.provide('compiledCli', cli);
}
