// The simulated NVML for CI: builds hardware-lab/sim/fake-nvml.c into a shared library with the
// machine's C compiler and gives each scenario its own copy (its own path, so its own static state when loaded) with
// a control file beside it (`<library>.ctl`, read by the fake at nvmlInit_v2). The copy is loaded through the same
// koffi binding as the real libnvidia-ml (hardware-lab/backends/nvml.ts).
import { execFileSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The fake's C source. */
export const FAKE_NVML_SOURCE = join(dirname(fileURLToPath(import.meta.url)), 'fake-nvml.c');

/** The fake's behaviour (see the control keys in fake-nvml.c). */
export interface FakeNvmlControl {
  readonly count?: number;
  readonly name?: string;
  readonly energy_mw?: bigint;
  readonly step_mj?: bigint;
  readonly lump_ms?: number;
  readonly lump_calls?: number;
  readonly draw_mw?: readonly bigint[];
  readonly limit_mw?: bigint;
  readonly start_mj?: bigint;
  readonly err_init?: number;
  readonly err_count?: number;
  readonly err_handle?: number;
  readonly err_energy?: number;
  readonly err_power?: number;
  readonly err_limit?: number;
  readonly err_name?: number;
  readonly err_energy_after?: number;
}

/** The compiler used: $CC, else `cc`. */
export function compiler(): string {
  return process.env['CC'] || 'cc';
}

/** Whether a C compiler answers. */
export function haveCompiler(): boolean {
  try {
    execFileSync(compiler(), ['--version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

/** Builds the fake once per source digest into a cache directory; returns the built library's path. */
export function buildFakeNvml(cacheDir: string = join(tmpdir(), 'jcp-hardware-lab')): string {
  const src = readFileSync(FAKE_NVML_SOURCE);
  const digest = createHash('sha256').update(src).digest('hex').slice(0, 16);
  mkdirSync(cacheDir, { recursive: true });
  const out = join(cacheDir, `fake-nvml-${digest}.so`);
  if (!existsSync(out)) {
    const tmp = `${out}.${process.pid}.tmp`;
    execFileSync(compiler(), ['-shared', '-fPIC', '-O2', '-Wall', '-o', tmp, FAKE_NVML_SOURCE], { stdio: 'pipe' });
    renameSync(tmp, out); // atomic: a concurrent test process never loads a half-written library
  }
  return out;
}

let instances = 0;

/** A copy of the built fake at a path of its own, with its control file written; returns the copy's path. */
export function fakeNvmlInstance(built: string, control: FakeNvmlControl, dir: string = dirname(built)): string {
  const path = join(dir, `fake-nvml-${process.pid}-${++instances}-${Date.now()}.so`);
  copyFileSync(built, path);
  const lines = Object.entries(control).map(([k, v]) => `${k}=${Array.isArray(v) ? v.join(',') : String(v)}`);
  writeFileSync(`${path}.ctl`, `${lines.join('\n')}\n`);
  return path;
}
