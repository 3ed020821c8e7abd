import { defineConfig, mergeConfig, type TestProjectInlineConfiguration } from 'vitest/config';
import base from './vitest.config.ts';

// Mutation runs test the reference implementation: the harness's own self-tests (which start nested test runs and
// testee processes) are left out, since they exercise the harness rather than the code being mutated. So is the wire
// endpoint's abuse test, a load test with latency and memory bounds: under Stryker's instrumented code (a switch at
// every mutant) it misses those bounds, and what it checks is timing, not values a mutant would change.
// Each test file runs in a module graph of its own here (the suite project shares one per worker for speed): Stryker
// switches mutants and records per-test coverage inside those modules. With the shared graph, Stryker's dry run
// failed impl/durable/point.test.ts's replay property, which passes under vitest alone with this same test set.
const projects = (base.test?.projects ?? []).map((p) =>
  typeof p === 'object' && 'test' in p && p.test?.name === 'suite' ? mergeConfig(p as TestProjectInlineConfiguration, { test: { isolate: true } }) : p,
);
export default defineConfig({
  ...base,
  test: { ...base.test, projects, exclude: ['harness/self/**', 'node_modules/**', 'impl/wire/abuse.test.ts'] },
});
