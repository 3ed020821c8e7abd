// `npm test`: the phases of the project's test command — type-check, every vitest test, the spec-map check, the
// clause-mutant kill matrix — then a table of the time each took, so a slow CI run shows where its time went. vitest
// runs with its output as it comes; beside it, one after another, run tsc, the spec-map check and the kill matrix (with
// one worker: vitest's self-tests spend much of their time waiting on the subprocesses they start, and the matrix fills
// that time, where after vitest it cost 2 to 3 minutes of its own). Their output is held and printed, in order, when
// vitest has ended (live from then on). JCP_TEST_SERIAL=1 runs the four one after another instead, each with its
// output as it comes. The heavy checks that run as vitest files (packing and installing the product, the page in a
// real browser, the fuzzers' short run, the endpoint's abuse test) get a line each under vitest, their files' time as
// vitest counts it (./file-times-reporter.ts; they run beside other files, so those lines overlap and do not add up);
// `.ci/run` hands its install time in JCP_CI_INSTALL_S. A lane stops at its first phase that fails (the table says
// which), and npm test exits with the code of the first failed phase in the order above.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { exitWhenWritten } from './exit-when-written.ts';
import { readFileTimes } from './file-times-reporter.ts';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const bin = (pkg: string, file: string) => join(ROOT, 'node_modules', pkg, file);
const TMP = mkdtempSync(join(tmpdir(), 'jcp-npm-test-'));
// kept where JCP_FILE_TIMES names a file (each file's time, and when it ran: ./file-times-reporter.ts)
const FILE_TIMES = process.env['JCP_FILE_TIMES'] || join(TMP, 'file-times.jsonl');
// vitest's own reporters as it would choose them (github-actions beside the default on a GitHub runner), and ours
const reporters = ['--reporter=default', ...(process.env['GITHUB_ACTIONS'] === 'true' ? ['--reporter=github-actions'] : []), `--reporter=${join(ROOT, 'scripts', 'file-times-reporter.ts')}`];
/** Each phase's command, and `besideVitest`: what it adds to it when it runs beside vitest. */
const PHASES: ReadonlyArray<{ readonly name: string; readonly args: readonly string[]; readonly besideVitest?: readonly string[] }> = [
  { name: 'type-check (tsc)', args: [bin('typescript', 'bin/tsc'), '-p', '.'] },
  { name: 'vitest (every test)', args: [bin('vitest', 'vitest.mjs'), 'run', ...reporters] },
  { name: 'spec-map check', args: [bin('tsx', 'dist/cli.mjs'), 'scripts/spec-map-check.ts'] },
  { name: 'kill matrix', args: [bin('tsx', 'dist/cli.mjs'), 'mutation/matrix.ts'], besideVitest: ['--pool', '1'] },
];
const VITEST = PHASES[1]!;
const SERIAL = process.env['JCP_TEST_SERIAL'] === '1';

/** The heavy checks inside the vitest phase, by the file that runs each. */
const INSIDE_VITEST: ReadonlyArray<readonly [string, string]> = [
  ['packaging', 'harness/self/package.test.ts'],
  ['browser', 'harness/self/page.test.ts'],
  ['fuzz (short)', 'harness/self/fuzz.test.ts'],
  ['endpoint abuse', 'impl/wire/abuse.test.ts'],
];

const clock = (ms: number) => {
  const s = Math.round(ms / 1000); // rounded once, so 719.6 s reads 12 min 00 s, never 11 min 60 s
  return `${Math.floor(s / 60)} min ${String(s % 60).padStart(2, '0')} s`;
};
/** A line per heavy check inside the vitest run: its file's time and state, from ./file-times-reporter.ts. */
function insideVitest(): string[] {
  if (!existsSync(FILE_TIMES)) return ['    (vitest wrote no file times: no lines for the checks inside it)'];
  const files = readFileTimes(FILE_TIMES);
  return INSIDE_VITEST.map(([name, file]) => {
    const f = files.find((x) => x.file === file);
    const label = `  └ ${name}`.padEnd(24);
    return f ? `${label} ${clock(f.ms).padStart(12)}  ${f.state} (${file}, beside other files)` : `${label} ${'—'.padStart(12)}  not run (${file})`;
  });
}

/** One phase's outcome: its exit code (or the signal that ended it) and its wall time. */
interface Outcome {
  readonly code: number;
  readonly signal: string | null;
  readonly ms: number;
}
const env = { ...process.env, JCP_FILE_TIMES: FILE_TIMES };

/** Output held while vitest runs, then printed; live once `live` is set. */
class Held {
  private chunks: Buffer[] = [];
  private isLive = false;
  write(b: Buffer): void {
    if (this.isLive) process.stdout.write(b);
    else this.chunks.push(b);
  }
  live(): void {
    for (const c of this.chunks) process.stdout.write(c);
    this.chunks = [];
    this.isLive = true;
  }
}

/** Runs one phase to its end, its output straight to this terminal, or into `held`. */
function runPhase(args: readonly string[], held?: Held): Promise<Outcome> {
  const start = Date.now();
  return new Promise((res) => {
    const c = spawn(process.execPath, args, { cwd: ROOT, stdio: held ? ['ignore', 'pipe', 'pipe'] : 'inherit', env });
    c.stdout?.on('data', (b: Buffer) => held!.write(b));
    c.stderr?.on('data', (b: Buffer) => held!.write(b));
    c.on('error', (e) => {
      (held ?? process.stdout).write(Buffer.from(`${e.message}\n`));
      res({ code: 1, signal: null, ms: Date.now() - start });
    });
    c.on('close', (code, signal) => res({ code: code ?? 1, signal, ms: Date.now() - start }));
  });
}

const t0 = Date.now();
const outcomes = new Map<string, Outcome>();
/** Runs `phases` one after another, stopping at the first that fails. */
async function lane(phases: typeof PHASES, held?: Held): Promise<void> {
  for (const p of phases) {
    held?.write(Buffer.from(`\n── ${p.name} ──\n`));
    const o = await runPhase(held ? [...p.args, ...(p.besideVitest ?? [])] : p.args, held);
    outcomes.set(p.name, o);
    if (o.code !== 0) break;
  }
}
if (SERIAL) await lane(PHASES);
else {
  const others = PHASES.filter((p) => p !== VITEST);
  const held = new Held();
  console.log(`npm test: vitest runs with ${others.map((p) => p.name).join(', ')} beside it, one after another; their output follows vitest's`);
  const beside = lane(others, held);
  await lane([VITEST]);
  held.live();
  await beside;
}

const rows: string[] = [];
const install = process.env['JCP_CI_INSTALL_S'];
if (install !== undefined && /^\d+$/.test(install)) rows.push(`  ${'install (.ci/run)'.padEnd(22)} ${clock(Number(install) * 1000).padStart(12)}  done`);
for (const p of PHASES) {
  const o = outcomes.get(p.name);
  const where = SERIAL || p === VITEST ? '' : ' (beside vitest)';
  rows.push(o ? `  ${p.name.padEnd(22)} ${clock(o.ms).padStart(12)}  ${o.code === 0 ? 'passed' : `FAILED (exit ${o.signal ?? o.code})`}${where}` : `  ${p.name.padEnd(22)} ${'—'.padStart(12)}  not run`);
  if (p === VITEST && o) rows.push(...insideVitest());
}
const failed = PHASES.find((p) => { const o = outcomes.get(p.name); return o !== undefined && o.code !== 0; });
console.log(`\nnpm test: time per phase (wall clock, this machine)\n${rows.join('\n')}\n  ${'total (npm test)'.padEnd(22)} ${clock(Date.now() - t0).padStart(12)}`);
if (failed) console.log(`✗ ${failed.name} failed`);
rmSync(TMP, { recursive: true, force: true });
exitWhenWritten(failed ? outcomes.get(failed.name)!.code : 0);
