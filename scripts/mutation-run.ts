// `npm run test:mutation [-- <glob> ...]`: Stryker over impl/ (stryker.config.json), or over the files the globs name,
// incrementally against the committed reports/mutation/stryker-incremental.json: a mutant whose code and covering
// tests are unchanged keeps its last result, and the results of files outside the globs are carried over, so a
// whole-impl score is built up part by part. A survivor of these files whose run completed fewer tests than cover it
// (./mutation-unmeasured.ts) is taken out of the incremental file and the run made again, once, so that only those
// mutants are tested again; any left after that are listed. Then the survivors with their clause comments.
//   tsx scripts/mutation-run.ts 'impl/jcp/revocation.ts' 'impl/energy/**/*.ts'
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { matchesGlob, mutateArg } from './stryker-config.ts';
import { unmeasured, withoutUnmeasured, type Report } from './mutation-unmeasured.ts';

const INCREMENTAL = 'reports/mutation/stryker-incremental.json';
const globs = process.argv.slice(2).filter((a) => a !== '--');
const mutate = globs.length > 0 ? ['--mutate', mutateArg(globs)] : [];
const mine = (f: string) => globs.length === 0 || globs.some((g) => matchesGlob(f, g));
if (globs.length > 0) console.log(`mutating ${globs.join(', ')} (the other files keep their results in the incremental file)`);
const stryker = () => spawnSync('npx', ['stryker', 'run', ...mutate], { stdio: 'inherit' });
let run = stryker();
const read = () => JSON.parse(readFileSync(INCREMENTAL, 'utf8')) as Report;
let left = run.status === 0 ? unmeasured(read(), mine) : [];
if (left.length > 0) {
  console.log(`\n${left.length} survivor(s) ran fewer tests than cover them (stryker-js issue 6213); testing them again:\n  ${left.join('\n  ')}`);
  writeFileSync(INCREMENTAL, JSON.stringify(withoutUnmeasured(read(), mine)));
  run = stryker();
  left = run.status === 0 ? unmeasured(read(), mine) : [];
  if (left.length > 0) console.log(`\n${left.length} survivor(s) still ran fewer tests than cover them, scored as survived:\n  ${left.join('\n  ')}`);
}
spawnSync('npx', ['tsx', 'scripts/mutation-survivors.ts'], { stdio: 'inherit' });
process.exit(run.status ?? 1);
