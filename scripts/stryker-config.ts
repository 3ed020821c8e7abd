// What the mutation scripts share about Stryker: its configuration (stryker.config.json: the exclusions a run over some
// files keeps, the thresholds), the glob matching it uses for `mutate` (minimatch, Stryker's own), and its score.
import { readFileSync } from 'node:fs';
import { minimatch } from 'minimatch';

interface StrykerConfig {
  mutate?: string[];
  thresholds?: { break?: number };
}

const config = (): StrykerConfig => JSON.parse(readFileSync('stryker.config.json', 'utf8')) as StrykerConfig;

/** The `!`-patterns of the configuration's `mutate`: the files no run mutates. */
export const excludedFromMutation = (): string[] => (config().mutate ?? []).filter((p) => p.startsWith('!'));

/** Whether `file` matches a glob of `mutate`, as Stryker matches it. */
export const matchesGlob = (file: string, glob: string): boolean => minimatch(file, glob);

/** Whether a run would mutate `file`: no exclusion of the configuration names it. */
export const mutated = (file: string): boolean => file.endsWith('.ts') && !excludedFromMutation().some((p) => matchesGlob(file, p.slice(1)));

/** The configuration's `--mutate` for these files or globs: them, less the configured exclusions. */
export const mutateArg = (files: string[]): string => [...files, ...excludedFromMutation()].join(',');

/** The score below which a run fails (`thresholds.break`), 0 where none is set. */
export const breakThreshold = (): number => config().thresholds?.break ?? 0;

// Stryker's mutation score: detected (killed, timed out) over valid mutants (neither ignored nor a compile or runtime
// error)
const DETECTED = new Set(['Killed', 'Timeout']);
const INVALID = new Set(['Ignored', 'CompileError', 'RuntimeError', 'Pending']);

/** Mutants counted as Stryker scores them. */
export interface Tally {
  total: number;
  detected: number;
  valid: number;
  ignored: number;
}

export const emptyTally = (): Tally => ({ total: 0, detected: 0, valid: 0, ignored: 0 });

/** Adds mutants of these statuses to `t`. */
export function count(t: Tally, statuses: Iterable<string>): Tally {
  for (const s of statuses) {
    t.total++;
    if (s === 'Ignored') t.ignored++;
    if (!INVALID.has(s)) t.valid++;
    if (DETECTED.has(s)) t.detected++;
  }
  return t;
}

/** The score of `t` in percent: 100 where no mutant is valid, as Stryker reads it. */
export const score = (t: Tally): number => (t.valid === 0 ? 100 : (100 * t.detected) / t.valid);
