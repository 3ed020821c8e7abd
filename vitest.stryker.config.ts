import { defineConfig, mergeConfig } from 'vitest/config';
import base from './vitest.config.ts';

// Mutation runs test the reference implementation: the harness's own self-tests (which start nested test runs and
// testee processes) are left out, since they exercise the harness rather than the code being mutated.
export default mergeConfig(
  base,
  defineConfig({
    test: { exclude: ['harness/self/**', 'node_modules/**'] },
  }),
);
