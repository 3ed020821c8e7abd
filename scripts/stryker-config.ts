// What the mutation scripts read from stryker.config.json, so a run over some files keeps the configuration's
// exclusions (test files, test-support programs) and its thresholds.
import { readFileSync } from 'node:fs';

interface StrykerConfig {
  mutate?: string[];
  thresholds?: { break?: number };
}

const config = (): StrykerConfig => JSON.parse(readFileSync('stryker.config.json', 'utf8')) as StrykerConfig;

/** The `!`-patterns of the configuration's `mutate`: the files no run mutates. */
export const excludedFromMutation = (): string[] => (config().mutate ?? []).filter((p) => p.startsWith('!'));

/** The configuration's `--mutate` for these files or globs: them, less the configured exclusions. */
export const mutateArg = (files: string[]): string => [...files, ...excludedFromMutation()].join(',');

/** The score below which a run fails (`thresholds.break`), 0 where none is set. */
export const breakThreshold = (): number => config().thresholds?.break ?? 0;
