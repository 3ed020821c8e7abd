// The liveness probe (jcp §5 "Liveness", sense §7 the interval rule): burn CPU on a thread of its own (worker_threads),
// sample every counter at the probe's 25 ms tick for a bounded window (~1.5 s), and hand the timestamped samples to
// impl/energy's pure judgements (judgeLiveness, judgeDomainLiveness, sumRaplPackages, judgePlausibility). For a GPU
// counter it also samples the board's own telemetry (power draw, enforced limit) for the two-sided plausibility check.
// Reading taken: the GPU draw is sampled every 4th tick (100 ms), since NVML's power reading is a ~1 s average and
// polling it faster only repeats it (CHANGE-NOTES.md: "the draw readings are one-second averages").
import { Worker } from 'node:worker_threads';
import { LIVENESS_TICK_NS, judgeLiveness, type CounterSample, type LivenessVerdict } from '../impl/energy/liveness.ts';
import { judgePlausibility, type BoardTelemetry, type PlausibilityVerdict } from '../impl/energy/plausibility.ts';

/** The probe's tick (impl/energy: LIVENESS_TICK_NS, sense §7 "its 25 ms tick"). */
export const PROBE_TICK_MS = Number(LIVENESS_TICK_NS / 1_000_000n);
/** The default probe window: long enough for 300 ms of counted time under a loaded scheduler, short enough for CI. */
export const PROBE_WINDOW_MS = 1500;
/** The draw is sampled every this many ticks (see the header). */
export const DRAW_EVERY_TICKS = 4;

/** A counter the probe samples. `read` returns the raw count in µJ, or throws when the counter cannot be read. */
export interface ProbeCounter {
  readonly name: string;
  read(): bigint;
  readonly max_energy_range_uj?: bigint;
}

/** What the CPU burn did: evidence the probe really loaded a core of its own. */
export interface BurnEvidence {
  readonly ran: boolean;
  readonly thread_id?: number;
  /** Busy-loop iterations the burn thread completed over the window. */
  readonly iterations: number;
}

/** One counter's samples over the window, and every read that failed (never recorded as a zero). */
export interface ProbedCounter {
  readonly name: string;
  readonly samples: readonly CounterSample[];
  readonly failures: readonly string[];
  readonly max_energy_range_uj?: bigint;
}

/** The probe's raw evidence. */
export interface ProbeRun {
  readonly tick_ms: number;
  readonly window_ms: number;
  readonly ticks: number;
  readonly counters: readonly ProbedCounter[];
  /** Per board given in `draws`: the draw samples (mW) read, and every failed draw read (not a sample). */
  readonly draws: ReadonlyArray<{ readonly draw_mw: readonly bigint[]; readonly failures: readonly string[] }>;
  readonly burn: BurnEvidence;
}

/** The probe's clock: the real monotonic clock, or a simulated one that advances only when the probe sleeps. */
export interface ProbeClock {
  now_ns(): bigint;
  sleep(ms: number): Promise<void>;
}

/** The real clock: process.hrtime and timers. */
export const REAL_CLOCK: ProbeClock = {
  now_ns: () => process.hrtime.bigint(),
  sleep: (ms) => new Promise((r) => setTimeout(r, Math.max(0, ms))),
};

/** Probe options. `burn: false` only where the counter does not respond to CPU load (simulated counters). */
export interface ProbeOptions {
  /** Default {@link REAL_CLOCK}; tests of simulated counters pass a simulated clock so that scheduling load cannot change a verdict. */
  readonly clock?: ProbeClock;
  readonly tick_ms?: number;
  readonly window_ms?: number;
  readonly burn?: boolean;
  /** Each board's power draw, mW; a reader throws when it cannot read. */
  readonly draws?: ReadonlyArray<() => bigint>;
  readonly draw_every_ticks?: number;
}

const BURN_SOURCE = `
const { workerData, threadId, parentPort } = require('node:worker_threads');
const flag = new Int32Array(workerData);
parentPort.postMessage(threadId);
let x = 0;
while (Atomics.load(flag, 0) === 0) {
  for (let i = 0; i < 10000; i++) x = (x * 1103515245 + 12345) | 0;
  Atomics.add(flag, 1, 1);
}
parentPort.postMessage(x);
`;

/** Starts burning CPU on a worker thread; `stop` ends it and reports what it did. */
export async function startBurn(): Promise<{ stop(): Promise<BurnEvidence> }> {
  const shared = new SharedArrayBuffer(8);
  const flag = new Int32Array(shared);
  const worker = new Worker(BURN_SOURCE, { eval: true, workerData: shared });
  const thread_id = await new Promise<number>((resolve, reject) => {
    worker.once('message', resolve);
    worker.once('error', reject);
  });
  return {
    stop: async () => {
      Atomics.store(flag, 0, 1);
      await new Promise((resolve) => worker.once('message', resolve));
      await worker.terminate();
      return { ran: true, thread_id, iterations: Atomics.load(flag, 1) };
    },
  };
}

/**
 * Samples every counter once a tick (a tick begins one tick after the previous one began, or at once when that is
 * already past) for the window,
 * while a worker thread burns CPU. A sample's time is taken when its reading is in hand (sense §7: an interval runs
 * "from one sample in hand to the next"). A read that throws is a failure, not a sample.
 */
export async function probe(counters: readonly ProbeCounter[], opts: ProbeOptions = {}): Promise<ProbeRun> {
  const tick_ms = opts.tick_ms ?? PROBE_TICK_MS;
  const window_ms = opts.window_ms ?? PROBE_WINDOW_MS;
  const every = opts.draw_every_ticks ?? DRAW_EVERY_TICKS;
  const burner = opts.burn === false ? undefined : await startBurn();
  const samples: CounterSample[][] = counters.map(() => []);
  const failures: string[][] = counters.map(() => []);
  const draws = (opts.draws ?? []).map(() => ({ draw_mw: [] as bigint[], failures: [] as string[] }));
  const clock = opts.clock ?? REAL_CLOCK;
  const tick_ns = BigInt(Math.round(tick_ms * 1e6));
  const window_ns = BigInt(Math.round(window_ms * 1e6));
  const t0 = clock.now_ns();
  let ticks = 0;
  let burn: BurnEvidence = { ran: false, iterations: 0 };
  try {
    // each tick is one tick after the previous one began (never a catch-up tick: an interval shorter than the tick
    // would read "no advance" on a counter that updates every few ms, and a late tick already counts as nothing)
    for (let k = 0, next = t0; clock.now_ns() - t0 <= window_ns; k++, next += tick_ns) {
      // a timer may fire a little early (its clock is the event loop's cached time): sleep again until the tick is due
      for (let wait = next - clock.now_ns(); wait > 0n; wait = next - clock.now_ns()) await clock.sleep(Math.max(1, Number(wait) / 1e6));
      const now = clock.now_ns();
      if (now > next) next = now;
      ticks++;
      counters.forEach((c, i) => {
        try {
          const value = c.read();
          samples[i]!.push({ t_ns: clock.now_ns(), value });
        } catch (e) {
          failures[i]!.push((e as Error).message);
        }
      });
      if (k % every === 0) {
        (opts.draws ?? []).forEach((read, i) => {
          try {
            draws[i]!.draw_mw.push(read());
          } catch (e) {
            draws[i]!.failures.push((e as Error).message);
          }
        });
      }
    }
  } finally {
    if (burner) burn = await burner.stop();
  }
  return {
    tick_ms,
    window_ms,
    ticks,
    counters: counters.map((c, i) => ({ name: c.name, samples: samples[i]!, failures: failures[i]!, ...(c.max_energy_range_uj !== undefined ? { max_energy_range_uj: c.max_energy_range_uj } : {}) })),
    draws,
    burn,
  };
}

/** A counter's advance and span over its samples (first to last sample in hand). */
export function spanOf(samples: readonly CounterSample[]): { readonly duration_ns: bigint } {
  return { duration_ns: samples.length > 1 ? samples[samples.length - 1]!.t_ns - samples[0]!.t_ns : 0n };
}

/** The liveness of one probed counter (impl/energy judgeLiveness). */
export function livenessOf(c: ProbedCounter): LivenessVerdict {
  return judgeLiveness(c.samples, c.max_energy_range_uj);
}

/** A GPU counter's plausibility over the probe (impl/energy judgePlausibility), or undefined with no span. */
export function plausibilityOf(c: ProbedCounter, delta_uj: bigint, telemetry: BoardTelemetry): PlausibilityVerdict | undefined {
  const { duration_ns } = spanOf(c.samples);
  return duration_ns > 0n ? judgePlausibility({ delta_uj, duration_ns }, telemetry) : undefined;
}
