// Certify runs that several self-test files read, each made once per test run: the first file to ask for a run makes
// it, any other asking for the same run waits for it and reads the same report folder. Each run is named, and its
// arguments are part of the name's record: asking for a name with other arguments is a mistake in the tests, refused.
// The folders live under reports/self-shared/ (emptied when a run of the whole suite starts, by
// ./shared-runs.setup.ts) and stay afterwards, screenshots included. Outside that setup (one test file run under
// another config) each file makes its own run in a private folder.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildBundlesNamedIn, variantTestee } from './bundles.ts';
import { cliPath, provided } from './cli.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The folder of the shared certify runs (./shared-runs.setup.ts). */
    sharedRuns: string;
  }
}

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');

/** A finished certify run: its exit status, what it printed, its report folder, and when it started and ended. */
export interface SharedRun {
  readonly status: number;
  readonly stdout: string;
  readonly stderr: string;
  readonly dir: string;
  readonly startedMs: number;
  readonly endedMs: number;
}

const DONE = 'shared-run.json';

function base(): string {
  return provided('sharedRuns') ?? mkdtempSync(join(tmpdir(), 'jcp-shared-runs-'));
}

/**
 * `certify <args> --report <its folder>` run once under `name`, or the run another test file made of it. The guard
 * only keeps a failed maker from hanging its waiters; no assertion reads the time.
 */
export async function sharedCertify(name: string, args: readonly string[]): Promise<SharedRun> {
  const dir = join(base(), name);
  const done = join(dir, DONE);
  let maker = true;
  try {
    mkdirSync(dir, { recursive: false });
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
    maker = false;
  }
  if (maker) {
    await buildBundlesNamedIn(args.join(' '));
    const startedMs = Date.now();
    const r = spawnSync(process.execPath, [cliPath(), 'certify', ...args, '--report', dir], {
      cwd: ROOT,
      encoding: 'utf8',
      timeout: 600_000,
      env: { ...process.env, JCP_RECORD: '', JCP_TESTEE: '', JCP_TRANSCRIPT: '', JCP_CERT_SEED_HEX: '' },
    });
    const run: SharedRun = { status: r.status ?? -1, stdout: r.stdout, stderr: r.stderr, dir, startedMs, endedMs: Date.now() };
    writeFileSync(done, JSON.stringify({ args, run }));
    return run;
  }
  const guard = Date.now() + 900_000;
  while (!existsSync(done)) {
    if (Date.now() > guard) throw new Error(`the shared certify run ${name} was never finished by the file that began it`);
    await new Promise((r) => setTimeout(r, 250));
  }
  const made = JSON.parse(readFileSync(done, 'utf8')) as { args: string[]; run: SharedRun };
  if (made.args.join('\0') !== args.join('\0')) throw new Error(`the shared certify run ${name} was made with other arguments (${made.args.join(' ')})`);
  return made.run;
}

/** The planted bug most self-tests of the reports read: debit on deny, class C3, few property runs, with a transcript. */
export const DEBIT_ON_DENY_C3 = ['--testee', variantTestee('debit-on-deny'), '--classes', 'C3', '--property-runs', '5', '--transcript'] as const;
/** A passing run of the reference on two small classes. */
export const REFERENCE_C10_C11 = ['--classes', 'C10,C11'] as const;
/** A passing run of the reference on C3, few property runs, with a transcript. */
export const REFERENCE_C3 = ['--classes', 'C3', '--property-runs', '5', '--transcript'] as const;
