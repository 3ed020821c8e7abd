// Locates the third-party vectors of ../shared/external-vectors/, read in place and never copied (shared/README.md).
// Absent (a user's own clone): one line says so and those tests do not run; under CI=true absence is a failure.
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, it } from 'vitest';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');

/** Where the vectors are looked for: $JCP_EXTERNAL_VECTORS, else ../shared/external-vectors beside the project. */
export function externalVectorsDir(): string {
  return process.env['JCP_EXTERNAL_VECTORS'] ?? resolve(ROOT, '..', 'shared', 'external-vectors');
}

/** Where the spec texts are looked for: $JCP_SPEC_DIR, else ../shared/spec beside the project. */
export function specDir(): string {
  return process.env['JCP_SPEC_DIR'] ?? resolve(ROOT, '..', 'shared', 'spec');
}

const said = new Set<string>();

/**
 * `describe` for tests that need files under a shared folder. When the folder is absent it registers one test that
 * fails under CI=true and otherwise passes after printing one line naming what was not run.
 */
export function describeWithShared(kind: 'vectors' | 'spec', title: string, fn: (dir: string) => void): void {
  const dir = kind === 'vectors' ? externalVectorsDir() : specDir();
  if (existsSync(dir)) {
    describe(title, () => fn(dir));
    return;
  }
  describe(title, () => {
    it(`${kind} folder absent: ${title} not run`, () => {
      const line = `${title}: ${dir} is absent, so these ${kind === 'vectors' ? 'third-party vectors' : 'spec-text checks'} were not run`;
      if (process.env['CI'] === 'true') throw new Error(`${line} (a failure under CI=true)`);
      if (!said.has(line)) {
        said.add(line);
        console.warn(line);
      }
    });
  });
}

/** Reads and parses a JSON file under the external vectors folder. */
export function readVectorJson<T = unknown>(dir: string, rel: string): T {
  return JSON.parse(readFileSync(join(dir, rel), 'utf8')) as T;
}

/** Seeds and run counts for fast-check: fixed in CI, overridable with FC_SEED / FC_RUNS to replay a failure. */
export function fcParams(defaultRuns = 200): { seed: number; numRuns: number } {
  const seed = process.env['FC_SEED'] !== undefined ? Number(process.env['FC_SEED']) : 0x4a4350; // "JCP"
  const numRuns = process.env['FC_RUNS'] !== undefined ? Number(process.env['FC_RUNS']) : defaultRuns;
  return { seed, numRuns };
}
