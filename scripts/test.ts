// `npm test`: the phases of the project's test command in order — type-check, every vitest test, the spec-map check,
// the clause-mutant kill matrix — each with its output as it comes, then a table of the time each took, so a slow CI
// run shows where its time went. The heavy checks that run as vitest files (packing and installing the product, the
// page in a real browser, the fuzzers' short run, the endpoint's abuse test) get a line each under vitest, their files'
// time as vitest counts it (./file-times-reporter.ts; they run beside other files, so those lines overlap and do not
// add up);
// `.ci/run` hands its install time in JCP_CI_INSTALL_S. It stops at the first phase that fails (the table says which)
// and exits with its code.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FileTime } from './file-times-reporter.ts';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const bin = (pkg: string, file: string) => join(ROOT, 'node_modules', pkg, file);
const TMP = mkdtempSync(join(tmpdir(), 'jcp-npm-test-'));
const FILE_TIMES = join(TMP, 'file-times.jsonl');
// vitest's own reporters as it would choose them (github-actions beside the default on a GitHub runner), and ours
const reporters = ['--reporter=default', ...(process.env['GITHUB_ACTIONS'] === 'true' ? ['--reporter=github-actions'] : []), `--reporter=${join(ROOT, 'scripts', 'file-times-reporter.ts')}`];
const PHASES: ReadonlyArray<{ readonly name: string; readonly args: readonly string[] }> = [
  { name: 'type-check (tsc)', args: [bin('typescript', 'bin/tsc'), '-p', '.'] },
  { name: 'vitest (every test)', args: [bin('vitest', 'vitest.mjs'), 'run', ...reporters] },
  { name: 'spec-map check', args: [bin('tsx', 'dist/cli.mjs'), 'scripts/spec-map-check.ts'] },
  { name: 'kill matrix', args: [bin('tsx', 'dist/cli.mjs'), 'mutation/matrix.ts'] },
];

/** The heavy checks inside the vitest phase, by the file that runs each. */
const INSIDE_VITEST: ReadonlyArray<readonly [string, string]> = [
  ['packaging', 'harness/self/package.test.ts'],
  ['browser', 'harness/self/page.test.ts'],
  ['fuzz (short)', 'harness/self/fuzz.test.ts'],
  ['endpoint abuse', 'impl/wire/abuse.test.ts'],
];

const rows: string[] = [];
const clock = (ms: number) => {
  const s = Math.round(ms / 1000); // rounded once, so 719.6 s reads 12 min 00 s, never 11 min 60 s
  return `${Math.floor(s / 60)} min ${String(s % 60).padStart(2, '0')} s`;
};
/** A line per heavy check inside the vitest run: its file's time and state, from ./file-times-reporter.ts. */
function insideVitest(): string[] {
  if (!existsSync(FILE_TIMES)) return ['    (vitest wrote no file times: no lines for the checks inside it)'];
  const files = readFileSync(FILE_TIMES, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as FileTime);
  return INSIDE_VITEST.map(([name, file]) => {
    const f = files.find((x) => x.file === file);
    const label = `  └ ${name}`.padEnd(24);
    return f ? `${label} ${clock(f.ms).padStart(12)}  ${f.state} (${file}, beside other files)` : `${label} ${'—'.padStart(12)}  not run (${file})`;
  });
}

const install = process.env['JCP_CI_INSTALL_S'];
if (install !== undefined && /^\d+$/.test(install)) rows.push(`  ${'install (.ci/run)'.padEnd(22)} ${clock(Number(install) * 1000).padStart(12)}  done`);
const t0 = Date.now();
let failed: { name: string; code: number } | undefined;
let ran = 0;
for (const p of PHASES) {
  ran++;
  const start = Date.now();
  const r = spawnSync(process.execPath, p.args, { cwd: ROOT, stdio: 'inherit', env: { ...process.env, JCP_FILE_TIMES: FILE_TIMES } });
  const code = r.status ?? 1;
  rows.push(`  ${p.name.padEnd(22)} ${clock(Date.now() - start).padStart(12)}  ${code === 0 ? 'passed' : `FAILED (exit ${r.signal ?? code})`}`);
  if (p.name.startsWith('vitest')) rows.push(...insideVitest());
  if (code !== 0) {
    failed = { name: p.name, code };
    break;
  }
}
const skipped = PHASES.slice(ran).map((p) => `  ${p.name.padEnd(22)} ${'—'.padStart(12)}  not run`);
console.log(`\nnpm test: time per phase (wall clock, this machine)\n${[...rows, ...skipped].join('\n')}\n  ${'total (npm test)'.padEnd(22)} ${clock(Date.now() - t0).padStart(12)}`);
if (failed) console.log(`✗ ${failed.name} failed`);
rmSync(TMP, { recursive: true, force: true });
process.exit(failed ? failed.code : 0);
