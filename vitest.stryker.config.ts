import { defineConfig, mergeConfig } from 'vitest/config';
import base from './vitest.config.ts';

// Mutation runs test the reference implementation: the harness's own self-tests (which start nested test runs and
// testee processes) are left out, since they exercise the harness rather than the code being mutated. So is the wire
// endpoint's abuse test, a load test with latency and memory bounds: under Stryker's instrumented code (a switch at
// every mutant) it misses those bounds, and what it checks is timing, not values a mutant would change.
export default mergeConfig(
  base,
  defineConfig({
    test: { exclude: ['harness/self/**', 'node_modules/**', 'impl/wire/abuse.test.ts'] },
  }),
);
