// `npm test`: the phases of the project's test command in order — type-check, every vitest test, the spec-map check,
// the clause-mutant kill matrix — each with its output as it comes, then a table of the time each took, so a slow CI
// run shows where its time went. It stops at the first phase that fails (the table says which) and exits with its code.
import { spawnSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const bin = (pkg: string, file: string) => join(ROOT, 'node_modules', pkg, file);
const PHASES: ReadonlyArray<{ readonly name: string; readonly args: readonly string[] }> = [
  { name: 'type-check (tsc)', args: [bin('typescript', 'bin/tsc'), '-p', '.'] },
  { name: 'vitest (every test)', args: [bin('vitest', 'vitest.mjs'), 'run'] },
  { name: 'spec-map check', args: [bin('tsx', 'dist/cli.mjs'), 'scripts/spec-map-check.ts'] },
  { name: 'kill matrix', args: [bin('tsx', 'dist/cli.mjs'), 'mutation/matrix.ts'] },
];

const rows: string[] = [];
const clock = (ms: number) => {
  const s = Math.round(ms / 1000); // rounded once, so 719.6 s reads 12 min 00 s, never 11 min 60 s
  return `${Math.floor(s / 60)} min ${String(s % 60).padStart(2, '0')} s`;
};
const t0 = Date.now();
let failed: { name: string; code: number } | undefined;
for (const p of PHASES) {
  const start = Date.now();
  const r = spawnSync(process.execPath, p.args, { cwd: ROOT, stdio: 'inherit' });
  const code = r.status ?? 1;
  rows.push(`  ${p.name.padEnd(22)} ${clock(Date.now() - start).padStart(12)}  ${code === 0 ? 'passed' : `FAILED (exit ${r.signal ?? code})`}`);
  if (code !== 0) {
    failed = { name: p.name, code };
    break;
  }
}
const skipped = PHASES.slice(rows.length).map((p) => `  ${p.name.padEnd(22)} ${'—'.padStart(12)}  not run`);
console.log(`\nnpm test: time per phase (wall clock, this machine)\n${[...rows, ...skipped].join('\n')}\n  ${'total'.padEnd(22)} ${clock(Date.now() - t0).padStart(12)}`);
if (failed) console.log(`✗ ${failed.name} failed`);
process.exit(failed ? failed.code : 0);
