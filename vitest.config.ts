import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['impl/**/*.test.ts', 'harness/**/*.test.ts', 'spec-map/**/*.test.ts', 'hardware-lab/**/*.test.ts', 'mutation/**/*.test.ts', 'vectors/**/*.test.ts'],
    environment: 'node',
    // the certify runs several self-test files read, each made once (harness/self/shared-runs.ts)
    globalSetup: ['harness/self/shared-runs.setup.ts'],
    // fast-check runs with a fixed seed unless FC_SEED is set, so CI is reproducible.
    testTimeout: 60_000,
    pool: 'forks',
    // vitest's default is one worker fewer than the cores: a single worker on the 2-core machines CI runs on, where the
    // self-tests spend most of their time waiting on the subprocess runs they start. Two workers at least.
    maxWorkers: Math.max(2, availableParallelism() - 1),
  },
});
