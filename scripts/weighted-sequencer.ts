// vitest's order of test files for `npm test`: the longest first, so that on two cores the last file to finish is a
// short one, not testees.test.ts started beside an idle core. vitest orders by the durations of the last run it
// cached (node_modules/.vite/vitest/), and on a fresh clone, with no cache, by file size, which put the two longest
// self-tests (about 2 min each, under 100 lines) among the last to start. Here a file's weight is its duration in that
// cache where there is one, else its measured duration in ./file-weights.json (npm run test:weights writes it from an
// npm test's file times), else it runs first as vitest runs unknown files. As vitest does, a file that failed last
// time runs first, and projects keep their order.
// Stryker's mutant runs take the other order (ShortestFirstSequencer, vitest.stryker.config.ts): one worker runs a
// mutant's covering files one after another and stops at the first failure (bail 1), so a mutant a short file kills
// is found without first running every longer file that covers it; a file that failed last time (it killed the mutant
// before, likely a neighbour of this one) still runs first.
import { readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/** The committed weights: file (relative to the root) → milliseconds, from one measured run of the whole suite. */
export const WEIGHTS_FILE = join(dirname(fileURLToPath(import.meta.url)), 'file-weights.json');

/** The weights, or none (said in one line: a wrong order costs time, never a result) where the file cannot be read. */
export function committed(file = WEIGHTS_FILE): Record<string, number> {
  try {
    const ms = (JSON.parse(readFileSync(file, 'utf8')) as { ms?: unknown }).ms;
    if (typeof ms !== 'object' || ms === null || Object.values(ms).some((v) => typeof v !== 'number')) throw new Error('no "ms" object of milliseconds per file');
    return ms as Record<string, number>;
  } catch (e) {
    console.warn(`test order: ${relative(process.cwd(), file)} unusable (${(e as Error).message.split('\n')[0]}); files vitest has no duration for run first, in its order`);
    return {};
  }
}

export default class WeightedSequencer extends BaseSequencer {
  /** 1 where the longest file runs first, -1 where the shortest does. */
  protected readonly direction: 1 | -1 = 1;

  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const weights = committed();
    const root = this.ctx.config.root;
    const facts = new Map(
      files.map((f) => {
        const rel = relative(root, f.moduleId).replace(/\\/g, '/');
        const cached = this.ctx.cache.getFileTestResults(`${f.project.name}:${rel}`);
        return [f, { failed: cached?.failed === true, ms: cached?.duration ?? weights[rel] ?? Infinity }] as const;
      }),
    );
    return [...files].sort((a, b) => {
      const group = a.project.config.sequence.groupOrder - b.project.config.sequence.groupOrder;
      if (group !== 0) return group;
      if (a.project.name !== b.project.name) return a.project.name < b.project.name ? -1 : 1;
      const fa = facts.get(a)!;
      const fb = facts.get(b)!;
      if (fa.failed !== fb.failed) return fa.failed ? -1 : 1;
      if (fa.ms === fb.ms) return 0;
      return fa.ms < fb.ms ? this.direction : -this.direction;
    });
  }
}

/** The order of Stryker's mutant runs: as WeightedSequencer, the shortest file first and files it has no weight for last. */
export class ShortestFirstSequencer extends WeightedSequencer {
  protected override readonly direction = -1;
}
