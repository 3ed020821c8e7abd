// The test set of a narrow Stryker run (scripts/mutation-narrow.ts): only the test files JCP_NARROW_TESTS names
// (comma-separated globs), one module graph per worker as in vitest.stryker.config.ts, with JCP_STRYKER set as there.
import { defineConfig } from 'vitest/config';

const include = (process.env['JCP_NARROW_TESTS'] ?? '').split(',').filter((g) => g !== '');
if (include.length === 0) throw new Error('JCP_NARROW_TESTS names no test file: run it through scripts/mutation-narrow.ts');

export default defineConfig({
  test: { environment: 'node', testTimeout: 60_000, include, isolate: false, env: { JCP_STRYKER: '1' } },
});
