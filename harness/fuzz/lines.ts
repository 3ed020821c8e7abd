// What a fuzz worker (./worker.ts) tells its runner (./run.ts), and the regression inputs both read.
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** How often a worker reports progress, in inputs. */
export const PROGRESS_EVERY = 256;

/** How long a worker may take to load (node, the TypeScript loader, its target's modules) before its first line. */
export const STARTUP_MS = 60_000;

/** A worker's counts: accepted inputs, and refusals by code. */
export interface Counts {
  accepted: number;
  refused: Record<string, number>;
  untyped: number;
  breaks: number;
}

/** One line a worker writes. */
export type WorkerLine =
  | { readonly t: 'ready' }
  | { readonly t: 'progress'; readonly next: number; readonly counts: Counts }
  | { readonly t: 'finding'; readonly kind: 'untyped' | 'break'; readonly index: number | string; readonly input: string; readonly what: string }
  | { readonly t: 'end'; readonly next: number; readonly counts: Counts };

/** A regression input: a finding kept after its fix, replayed first on every run. */
export interface Regression {
  readonly input: string;
  readonly why: string;
}

const HERE = dirname(fileURLToPath(import.meta.url));

/** The regression inputs of `target` (harness/fuzz/regressions/<target>.json), empty when it has none. */
export function regressions(target: string): Regression[] {
  const file = join(HERE, 'regressions', `${target}.json`);
  return existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as Regression[]) : [];
}

