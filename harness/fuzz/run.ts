// The fuzz runner: each target's inputs run in a worker process (./worker.ts) watched for progress. A worker silent
// for longer than the hang limit is killed, the block of inputs it was in is reported as a hang (the seed and range
// replay it), and a new worker goes on after that block, so one hang costs one block, not the run. Per target the
// runner reports the inputs run, the typed refusals by code, and the three kinds of finding that fail a run: untyped
// throws, hangs and breaks (an accepted input that does not re-encode to its bytes, or two readers that disagree).
import { spawn } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { built } from '../build.ts';
import { PROGRESS_EVERY, STARTUP_MS, regressions, type Counts, type WorkerLine } from './lines.ts';

const WORKER = join(dirname(fileURLToPath(import.meta.url)), built('worker.ts'));

/** One finding, with what replays it. */
export interface Finding {
  readonly target: string;
  readonly kind: 'untyped' | 'break' | 'hang';
  /** The input's index (a regression input is named), or for a hang the first index of the block it hung in. */
  readonly index: number | string;
  /** For a hang: the end of the block (exclusive). */
  readonly to?: number;
  readonly input?: string;
  readonly what: string;
}

/** What a target's run came to. */
export interface TargetResult {
  readonly target: string;
  /** Inputs run (the regression inputs included); the blocks a worker hung or died in not. */
  readonly inputs: number;
  readonly regressions: number;
  readonly accepted: number;
  readonly refused: Readonly<Record<string, number>>;
  readonly untyped: number;
  readonly hangs: number;
  readonly breaks: number;
  /** The findings in full (at most `keep` per kind; the counts above are whole). */
  readonly findings: readonly Finding[];
}

/** How to run. */
export interface FuzzOptions {
  readonly targets: readonly string[];
  readonly seed: number;
  readonly inputs: number;
  /** Where in the sequence to start (default 0; the regression inputs run only from 0). */
  readonly from?: number;
  /** A worker silent this long is hung (default 10 000 ms). */
  readonly hangMs?: number;
  /** Findings kept in full per target and kind (default 20). */
  readonly keep?: number;
  /** Extra environment for the workers. */
  readonly env?: Readonly<Record<string, string>>;
  /** Called with each progress line (a target's inputs so far). */
  readonly onProgress?: (target: string, done: number, total: number) => void;
}

function add(into: Counts, c: Counts): void {
  into.accepted += c.accepted;
  into.untyped += c.untyped;
  into.breaks += c.breaks;
  for (const [k, n] of Object.entries(c.refused)) into.refused[k] = (into.refused[k] ?? 0) + n;
}

interface WorkerRun {
  /** The counts of the last line it wrote. */
  readonly counts: Counts;
  /** The index after the last input it reported done. */
  readonly next: number;
  /** ended: it reached `to`; died: it exited before (an untyped failure, already reported); hung: it went silent and was killed. */
  readonly how: 'ended' | 'died' | 'hung';
  /** For a worker that died: the inputs of the block it died in, skipped. */
  readonly skipped?: number;
}

/** Runs one worker over [from, to); resolves when it ends, or when it has been silent for `hangMs` (then killed). */
function runWorker(target: string, seed: number, from: number, to: number, o: FuzzOptions, finding: (f: Finding) => void, total: number): Promise<WorkerRun> {
  return new Promise((resolve) => {
    const c = spawn(process.execPath, [...process.execArgv, WORKER, target, String(seed), String(from), String(to)], {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, ...o.env },
    });
    let last: { counts: Counts; next: number; ended: boolean } = { counts: { accepted: 0, refused: {}, untyped: 0, breaks: 0 }, next: from, ended: false };
    let buf = '';
    let stderr = '';
    let done = false;
    let timer: NodeJS.Timeout;
    const finish = (r: WorkerRun) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      resolve(r);
    };
    // the hang limit starts at the worker's first line: loading it under a busy machine is not a hang
    let ready = false;
    const quiet = () => {
      clearTimeout(timer);
      timer = setTimeout(() => {
        c.kill('SIGKILL');
        finish({ counts: last.counts, next: last.next, how: 'hung' });
      }, ready ? (o.hangMs ?? 10_000) : Math.max(STARTUP_MS, o.hangMs ?? 10_000));
    };
    quiet();
    c.stdout.setEncoding('utf8');
    c.stdout.on('data', (chunk: string) => {
      buf += chunk;
      let nl: number;
      while ((nl = buf.indexOf('\n')) >= 0) {
        const line = JSON.parse(buf.slice(0, nl)) as WorkerLine;
        buf = buf.slice(nl + 1);
        if (line.t === 'ready') ready = true;
        else if (line.t === 'finding') finding({ target, kind: line.kind, index: line.index, input: line.input, what: line.what });
        else {
          last = { counts: line.counts, next: line.next, ended: line.t === 'end' };
          o.onProgress?.(target, line.next - (o.from ?? 0), total);
        }
      }
      quiet();
    });
    c.stderr.on('data', (chunk: Buffer) => {
      stderr = (stderr + chunk.toString('utf8')).slice(-4000);
    });
    c.on('close', (code) => {
      if (!last.ended && !done) {
        // a worker that died (not one the runner killed) is an untyped failure of the input after its last progress
        finding({ target, kind: 'untyped', index: last.next, what: `the worker exited (code ${code}) in the block from input ${last.next}: ${stderr.trim().split('\n').slice(-3).join(' | ')}` });
        const next = Math.min(to, last.next + PROGRESS_EVERY);
        finish({ counts: { ...last.counts, untyped: last.counts.untyped + 1 }, next, how: 'died', skipped: next - last.next });
        return;
      }
      finish({ counts: last.counts, next: last.next, how: 'ended' });
    });
  });
}

/** Runs every target of `o` in turn; the results in the order asked. */
export async function fuzz(o: FuzzOptions): Promise<TargetResult[]> {
  const results: TargetResult[] = [];
  const keep = o.keep ?? 20;
  for (const target of o.targets) {
    const from = o.from ?? 0;
    const to = from + o.inputs;
    const total: Counts = { accepted: 0, refused: {}, untyped: 0, breaks: 0 };
    const findings: Finding[] = [];
    const kept = { untyped: 0, break: 0, hang: 0 };
    const finding = (f: Finding) => {
      if (kept[f.kind]++ < keep) findings.push(f);
    };
    let hangs = 0;
    let lost = 0;
    let at = from;
    while (at < to) {
      const r = await runWorker(target, o.seed, at, to, o, finding, o.inputs);
      add(total, r.counts);
      if (r.how === 'ended') break;
      if (r.how === 'died') {
        lost += r.skipped ?? 0;
        at = r.next;
        continue;
      }
      // silent: the block after its last progress line hung
      const end = Math.min(to, r.next + PROGRESS_EVERY);
      hangs++;
      lost += end - r.next;
      finding({ target, kind: 'hang', index: r.next, to: end, what: `no progress for ${o.hangMs ?? 10_000} ms within inputs ${r.next}–${end - 1}` });
      at = end;
    }
    const reg = from === 0 ? regressions(target).length : 0;
    results.push({
      target,
      inputs: o.inputs - lost + reg,
      regressions: reg,
      accepted: total.accepted,
      refused: total.refused,
      untyped: total.untyped,
      hangs,
      breaks: total.breaks,
      findings,
    });
  }
  return results;
}

/** Whether a run found anything that fails it. */
export function failed(rs: readonly TargetResult[]): boolean {
  return rs.some((r) => r.untyped + r.hangs + r.breaks > 0);
}

const n = (x: number) => x.toLocaleString('en-US');

/** One line per target, then one per finding kept, each with what replays it. */
export function fuzzReport(rs: readonly TargetResult[], seed: number): string[] {
  const out: string[] = [];
  for (const r of rs) {
    const codes = Object.entries(r.refused).sort((a, b) => b[1] - a[1]);
    const refusedTotal = codes.reduce((s, [, k]) => s + k, 0);
    out.push(
      `${r.untyped + r.hangs + r.breaks ? '✗' : '✓'} ${r.target}: ${n(r.inputs)} inputs${r.regressions ? ` (${r.regressions} regression)` : ''}, ${n(r.accepted)} accepted, ${n(refusedTotal)} refused typed (${codes.map(([c, k]) => `${c} ${n(k)}`).join(', ') || 'none'}); ${r.untyped} untyped throws, ${r.hangs} hangs, ${r.breaks} breaks`,
    );
    for (const f of r.findings) {
      const replay = typeof f.index === 'number' ? ` — replay: npm run fuzz -- --target ${f.target} --seed ${seed} --from ${f.index} --inputs ${f.to !== undefined ? f.to - f.index : 1}` : '';
      out.push(`    ${f.kind} at input ${f.index}${f.input !== undefined ? ` (${f.input.length / 2} bytes: ${f.input.slice(0, 160)}${f.input.length > 160 ? '…' : ''})` : ''}: ${f.what}${replay}`);
    }
  }
  return out;
}

/** Writes the results, every finding's input whole, to `<dir>/fuzz.json`. */
export function writeFuzzReport(dir: string, rs: readonly TargetResult[], o: FuzzOptions): string {
  mkdirSync(dir, { recursive: true });
  const file = join(dir, 'fuzz.json');
  writeFileSync(file, JSON.stringify({ seed: o.seed, inputs_per_target: o.inputs, from: o.from ?? 0, results: rs }, null, 2) + '\n');
  return file;
}
