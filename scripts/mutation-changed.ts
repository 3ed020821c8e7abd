// The incremental mutation run for a pull request: Stryker on only the impl/ files changed since a base revision
// (default origin/main), then the survivors with their clause comments (scripts/mutation-survivors.ts).
//   tsx scripts/mutation-changed.ts [base-rev]
import { execFileSync, spawnSync } from 'node:child_process';

const base = process.argv[2] ?? 'origin/main';
let changed: string[];
try {
  changed = execFileSync('git', ['diff', '--name-only', '--diff-filter=AM', `${base}...HEAD`, '--', 'impl/'], { encoding: 'utf8' })
    .split('\n')
    .filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts') && !f.endsWith('_test-support.ts'));
} catch (e) {
  console.error(`cannot diff against ${base}: ${(e as Error).message.split('\n')[0]} (fetch it, or name another base)`);
  process.exit(2);
}
if (changed.length === 0) {
  console.log(`no impl/ source file changed since ${base}: nothing to mutate`);
  process.exit(0);
}
console.log(`mutating ${changed.length} changed file(s) since ${base}:\n  ${changed.join('\n  ')}`);
const run = spawnSync('npx', ['stryker', 'run', '--mutate', changed.join(',')], { stdio: 'inherit' });
spawnSync('npx', ['tsx', 'scripts/mutation-survivors.ts'], { stdio: 'inherit' });
process.exit(run.status ?? 1);
