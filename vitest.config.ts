import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['impl/**/*.test.ts', 'harness/**/*.test.ts', 'spec-map/**/*.test.ts', 'hardware-lab/**/*.test.ts', 'mutation/**/*.test.ts', 'vectors/**/*.test.ts'],
    environment: 'node',
    // fast-check runs with a fixed seed unless FC_SEED is set, so CI is reproducible.
    testTimeout: 60_000,
    pool: 'forks',
  },
});
