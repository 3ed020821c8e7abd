// The incremental mutation run for a pull request: Stryker on only the impl/ files changed since a base revision
// (default origin/main), against the committed incremental file (reports/mutation/stryker-incremental.json: a mutant
// whose code and covering tests did not change keeps its result), then the changed files' score and survivors with
// their clause comments (scripts/mutation-survivors.ts, into $GITHUB_STEP_SUMMARY on CI); exit 1 below `break`.
//   tsx scripts/mutation-changed.ts [base-rev]
import { execFileSync, spawnSync } from 'node:child_process';
import { breakThreshold, mutateArg, mutated } from './stryker-config.ts';

const base = process.argv[2] ?? 'origin/main';
let changed: string[];
try {
  changed = execFileSync('git', ['diff', '--name-only', '--diff-filter=AM', `${base}...HEAD`, '--', 'impl/'], { encoding: 'utf8' })
    .split('\n')
    .filter(mutated);
} catch (e) {
  console.error(`cannot diff against ${base}: ${(e as Error).message.split('\n')[0]} (fetch it, or name another base)`);
  process.exit(2);
}
if (changed.length === 0) {
  console.log(`no impl/ file Stryker mutates (stryker.config.json) changed since ${base}: nothing to mutate`);
  process.exit(0);
}
console.log(`mutating ${changed.length} changed file(s) since ${base}:\n  ${changed.join('\n  ')}`);
const run = spawnSync('npx', ['stryker', 'run', '--mutate', mutateArg(changed)], { stdio: 'inherit' });
const gate = spawnSync('npx', ['tsx', 'scripts/mutation-survivors.ts', '--only', changed.join(','), '--break', String(breakThreshold())], { stdio: 'inherit' });
process.exit(run.status !== 0 ? (run.status ?? 1) : (gate.status ?? 1));
