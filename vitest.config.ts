import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';
import WeightedSequencer from './scripts/weighted-sequencer.ts';

export default defineConfig({
  test: {
    environment: 'node',
    // fast-check runs with a fixed seed unless FC_SEED is set, so CI is reproducible.
    testTimeout: 60_000,
    pool: 'forks',
    // vitest's default is one worker fewer than the cores: a single worker on the 2-core machines CI runs on, where the
    // self-tests spend most of their time waiting on the subprocess runs they start. Two workers at least.
    maxWorkers: Math.max(2, availableParallelism() - 1),
    // the longest files first, by the measured weights where vitest has no cache (scripts/weighted-sequencer.ts)
    sequence: { sequencer: WeightedSequencer },
    projects: [
      {
        extends: true,
        test: {
          name: 'suite',
          include: ['impl/**/*.test.ts', 'harness/conformance/**/*.test.ts', 'harness/external/**/*.test.ts', 'harness/*.test.ts', 'spec-map/**/*.test.ts', 'hardware-lab/**/*.test.ts', 'vectors/**/*.test.ts'],
          // impl/'s unit tests and the conformance files share one module graph per worker, as certify runs the
          // conformance files (harness/certify.vitest.config.ts): impl/ and the fixtures load once per worker, not
          // once per file (these 104 files: 51 s rather than 74 s idle, 80 rather than 117 CPU-seconds; the same 1,380
          // tests pass)
          isolate: false,
        },
      },
      {
        extends: true,
        test: {
          name: 'self',
          // the harness's self-tests: they start certify, testees and endpoints in subprocesses and build bundles. They
          // share one module graph per worker, as the suite's files do (what they import loads once per worker, not
          // once per file: about 0.5 CPU-seconds a file); none changes the process's environment, working folder or
          // globals for good (a test that sets a variable puts it back)
          include: ['harness/self/**/*.test.ts', 'mutation/**/*.test.ts'],
          isolate: false,
          // the certify runs several self-test files read, each made once (harness/self/shared-runs.ts)
          globalSetup: ['harness/self/shared-runs.setup.ts', 'harness/self/compiled-cli.setup.ts'],
          // their hooks pack and install the product, and remove installed trees: on a shared 2-core machine a
          // recursive removal of one can pass vitest's 10 s default
          hookTimeout: 120_000,
          // the conformance runs they start (certify, harness/self/suite-run.ts) use one worker: beside this run,
          // which keeps the cores busy, a second only loads the suite twice; and they keep the modules the runner
          // transformed for the next of them, about 2.3 CPU-seconds less a run (harness/runner-env.ts)
          // and their runs of harness/conformance/durable.test.ts kill the testee 10 times rather than 40: there they
          // check that the crash test works through a testee process and flags only what it should; the crash property
          // itself is this run's, at 40 kills in the suite's own run of that file and 200 in impl/durable/crash.test.ts
          env: { JCP_WORKERS: '1', JCP_DURABLE_KILLS: '10', JCP_MODULE_CACHE: fileURLToPath(new URL('./node_modules/.cache/jcp-self/runner-modules', import.meta.url)) },
        },
      },
    ],
  },
});
