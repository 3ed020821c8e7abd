// The whole-impl/ mutation score as far as it is built: reads the committed incremental file
// (reports/mutation/stryker-incremental.json, which `npm run test:mutation -- <glob>` adds to part by part) and prints
// the score per folder of impl/ and over every file scored, the static mutants left out (`ignoreStatic`), and the files
// of impl/ Stryker would mutate that have no result yet. Exit 0; it judges nothing.
//   tsx scripts/mutation-scores.ts [incremental.json]
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { matchesGlob } from './mutation-merge.ts';
import { excludedFromMutation } from './stryker-config.ts';

interface Mutant {
  readonly status: string;
}
const file = process.argv[2] ?? 'reports/mutation/stryker-incremental.json';
const report = JSON.parse(readFileSync(file, 'utf8')) as { files: Record<string, { mutants: readonly Mutant[] }> };

// Stryker's score: detected (killed, timed out) over valid mutants (neither ignored nor a compile or runtime error)
const DETECTED = new Set(['Killed', 'Timeout']);
const INVALID = new Set(['Ignored', 'CompileError', 'RuntimeError', 'Pending']);

interface Tally {
  files: number;
  detected: number;
  valid: number;
  ignored: number;
}
const tally = (): Tally => ({ files: 0, detected: 0, valid: 0, ignored: 0 });
const folderOf = (f: string) => (f.split('/').length > 2 ? f.split('/').slice(0, 2).join('/') + '/' : 'impl/ (top level)');
const byFolder = new Map<string, Tally>();
const whole = tally();
for (const [f, { mutants }] of Object.entries(report.files)) {
  const t = byFolder.get(folderOf(f)) ?? tally();
  byFolder.set(folderOf(f), t);
  for (const x of [t, whole]) {
    x.files++;
    for (const m of mutants) {
      if (m.status === 'Ignored') x.ignored++;
      if (INVALID.has(m.status)) continue;
      x.valid++;
      if (DETECTED.has(m.status)) x.detected++;
    }
  }
}

// the files a whole run would mutate: impl/'s TypeScript, less the configuration's exclusions
const excluded = excludedFromMutation().map((p) => p.slice(1));
const mutable = execFileSync('git', ['ls-files', 'impl'], { encoding: 'utf8' })
  .split('\n')
  .filter((f) => f.endsWith('.ts') && !excluded.some((g) => matchesGlob(f, g)));
const unscored = mutable.filter((f) => !(f in report.files));

const pct = (t: Tally) => (t.valid === 0 ? '—' : `${((100 * t.detected) / t.valid).toFixed(2)}%`);
const line = (name: string, t: Tally) =>
  `${name.padEnd(22)} ${pct(t).padStart(7)}  ${String(t.detected).padStart(5)} of ${String(t.valid).padEnd(5)} detected, ${String(t.files).padStart(2)} files, ${t.ignored} static ignored`;
for (const [name, t] of [...byFolder].sort(([a], [b]) => a.localeCompare(b))) console.log(line(name, t));
console.log(line('scored so far', whole));
console.log(`${mutable.length - unscored.length} of ${mutable.length} files of impl/ scored${unscored.length ? `; not yet: ${unscored.join(', ')}` : ''}`);
