// The hardware lab's unit tests (hardware-lab/**/*.test.ts), which the root vitest.config.ts does not yet include:
//   npx vitest run --config hardware-lab/vitest.config.ts
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';
import base from '../vitest.config.ts';

export default defineConfig({ ...base, root: fileURLToPath(new URL('..', import.meta.url)), test: { ...base.test, include: ['hardware-lab/**/*.test.ts'] } });
