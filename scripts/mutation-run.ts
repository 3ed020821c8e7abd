// `npm run test:mutation [-- <glob> ...]`: Stryker over impl/ (stryker.config.json), or over the files the globs name,
// incrementally against the committed reports/mutation/stryker-incremental.json: a mutant whose code and covering
// tests are unchanged keeps its last result, and the results of files outside the globs are carried over, so a
// whole-impl score is built up part by part. Then the survivors with their clause comments.
//   tsx scripts/mutation-run.ts 'impl/jcp/revocation.ts' 'impl/energy/**/*.ts'
import { spawnSync } from 'node:child_process';
import { mutateArg } from './stryker-config.ts';

const globs = process.argv.slice(2).filter((a) => a !== '--');
const mutate = globs.length > 0 ? ['--mutate', mutateArg(globs)] : [];
if (globs.length > 0) console.log(`mutating ${globs.join(', ')} (the other files keep their results in the incremental file)`);
const run = spawnSync('npx', ['stryker', 'run', ...mutate], { stdio: 'inherit' });
spawnSync('npx', ['tsx', 'scripts/mutation-survivors.ts'], { stdio: 'inherit' });
process.exit(run.status ?? 1);
