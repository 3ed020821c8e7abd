import { defineConfig } from 'vitest/config';
import base from './vitest.config.ts';

// Mutation runs test the reference implementation: the harness's own self-tests (which start nested test runs and
// testee processes) are left out, since they exercise the harness rather than the code being mutated. So is the wire
// endpoint's abuse test, a load test with latency and memory bounds: under Stryker's instrumented code (a switch at
// every mutant) it misses those bounds, and what it checks is timing, not values a mutant would change. So is the
// durable record's SIGKILL test (impl/durable/crash.test.ts): its decisions run in child processes (a bundled child),
// where Stryker switches no mutant on (in process it only reads back the records the killed child left), and at about
// 50 s a run it made each mutant it covered cost most of a minute.
// The suite project keeps its one module graph per worker (vitest.config.ts): Stryker switches mutants at run time, so
// a mutant run only re-runs the tests that cover it in modules already loaded, about 1 s a mutant against 4.3 s with a
// graph per file; static mutants (run while modules load) are not run at all (stryker.config.json `ignoreStatic`).
// The tests run in child processes, as under vitest.config.ts (pool 'forks'), where Stryker's runner asks for worker
// threads of its own process: there the durable record's close-then-reopen tests (impl/durable/point.test.ts, the wire
// and durable conformance files) failed with ERR_RECORD_LOCKED in 2 of 3 runs of just those files here (0 of 3 in
// child processes), which would fail the dry run, or count as kills. In child processes a mutant costs about 1.4 s
// rather than 0.8.
export default defineConfig({
  ...base,
  plugins: [
    {
      name: 'jcp-tests-in-child-processes',
      configureVitest({ project }) {
        project.config.pool = 'forks';
      },
    },
  ],
  test: { ...base.test, exclude: ['harness/self/**', 'node_modules/**', 'impl/wire/abuse.test.ts', 'impl/durable/crash.test.ts'] },
});
