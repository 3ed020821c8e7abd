// The whole-impl/ mutation score as far as it is built: reads the committed incremental file
// (reports/mutation/stryker-incremental.json, which `npm run test:mutation -- <glob>` adds to part by part) and prints
// the score per folder of impl/ and over every file scored, the static mutants left out (`ignoreStatic`), and the files
// of impl/ Stryker would mutate that have no result yet, with their mutants counted by Stryker's instrumenter (a file
// that holds none, types and re-exports only, has nothing to score and is counted as scored), and how many survivors
// were not measured (./mutation-unmeasured.ts; counted as survived), and the timeouts (counted as detected, with the
// score were each a survivor). Exit 0; it judges nothing.
//   tsx scripts/mutation-scores.ts [incremental.json]
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mutantsOf } from './mutants-of.ts';
import { unmeasured, type Report } from './mutation-unmeasured.ts';
import { count, emptyTally, mutated, score, type Tally } from './stryker-config.ts';

const file = process.argv[2] ?? 'reports/mutation/stryker-incremental.json';
const report = JSON.parse(readFileSync(file, 'utf8')) as { files: Record<string, { mutants: ReadonlyArray<{ status: string }> }> };

const folderOf = (f: string) => (f.split('/').length > 2 ? f.split('/').slice(0, 2).join('/') + '/' : 'impl/ (top level)');
const byFolder = new Map<string, Tally & { files: number }>();
const whole = { ...emptyTally(), files: 0 };
for (const [f, { mutants }] of Object.entries(report.files)) {
  const folder = byFolder.get(folderOf(f)) ?? { ...emptyTally(), files: 0 };
  byFolder.set(folderOf(f), folder);
  for (const t of [folder, whole]) {
    t.files++;
    count(t, mutants.map((m) => m.status));
  }
}

// the files a whole run would mutate: impl/'s TypeScript, less the configuration's exclusions
const mutable = execFileSync('git', ['ls-files', 'impl'], { encoding: 'utf8' }).split('\n').filter(mutated);
const absent = mutable.filter((f) => !(f in report.files));
const mutants = await mutantsOf(absent);
const empty = absent.filter((f) => mutants.get(f) === 0);
const unscored = absent.filter((f) => mutants.get(f) !== 0);
const waiting = unscored.reduce((n, f) => n + (mutants.get(f) ?? 0), 0);

const line = (name: string, t: Tally & { files: number }) =>
  `${name.padEnd(22)} ${(t.valid === 0 ? '—' : `${score(t).toFixed(2)}%`).padStart(7)}  ${String(t.detected).padStart(5)} of ${String(t.valid).padEnd(5)} detected, ${String(t.files).padStart(2)} files, ${t.ignored} static ignored`;
for (const [name, t] of [...byFolder].sort(([a], [b]) => a.localeCompare(b))) console.log(line(name, t));
console.log(line('scored so far', whole));
console.log(`${mutable.length - unscored.length} of ${mutable.length} files of impl/ scored${empty.length ? ` (${empty.length} of them hold no mutant: ${empty.join(', ')})` : ''}`);
// a timeout counts as detected, as Stryker scores it; beside other load a mutant that would survive can time out, so
// the score with every timeout read as a survivor is the floor under it
const timeouts = Object.values(report.files).reduce((n, { mutants }) => n + mutants.filter((m) => m.status === 'Timeout').length, 0);
if (timeouts) console.log(`${timeouts} mutant(s) timed out, counted as detected; with every one read as survived: ${((100 * (whole.detected - timeouts)) / whole.valid).toFixed(2)}%`);
const notMeasured = unmeasured(report as Report);
if (notMeasured.length) console.log(`${notMeasured.length} survivor(s) ran fewer tests than cover them (counted as survived; \`tsx scripts/mutation-unmeasured.ts\` lists them)`);
if (unscored.length) console.log(`not yet scored: ${unscored.length} files, ${waiting} mutants (static ones included): ${unscored.map((f) => `${f} (${mutants.get(f)})`).join(', ')}`);
