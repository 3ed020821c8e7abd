// The test runner's configuration for `jcp-conformance certify`: the conformance tests and the third-party vector
// replays, from a checkout (.ts) or from the installed package (.js, compiled), with the settings of the project's own
// vitest.config.ts. certify names this file with --config, so it never depends on the folder it is started from.
import { defineConfig } from 'vitest/config';
import { runnerModuleCache, runnerWorkers } from './runner-env.ts';

const moduleCache = runnerModuleCache();

export default defineConfig({
  test: {
    include: ['harness/conformance/**/*.test.{ts,js}', 'harness/external/**/*.test.{ts,js}'],
    environment: 'node',
    testTimeout: 60_000,
    pool: 'forks',
    // the files of one worker share its modules, and so its one client of the implementation (harness/driver.ts):
    // a testee is started once per worker, not once per file, and each file no longer loads impl/ and the fixtures
    // afresh (a whole certify of the reference: 22 s rather than 37 s; against the reference testee 49 s rather
    // than 94 s). No conformance file keeps state of its own between files; the per-test outcomes are the same.
    isolate: false,
    // $JCP_WORKERS, else one fewer than the cores and at least 2 (./runner-env.ts)
    maxWorkers: runnerWorkers(),
    // an assertion's message whole (expected and actual values uncut): the record keeps each failure's reason entire
    chaiConfig: { truncateThreshold: 0 },
    // $JCP_MODULE_CACHE: transformed modules kept there for the next run (./runner-env.ts); unset, none kept
    ...(moduleCache ? { experimental: { fsModuleCache: true, fsModuleCachePath: moduleCache } } : {}),
  },
});
