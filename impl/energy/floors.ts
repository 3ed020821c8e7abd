// jouleclaw §1.3: "Implementations MUST surface resolution_uj() and min_window_ns() so callers can refuse to claim
// microjoule accuracy on platforms that cannot deliver it", and "The thermodynamic circuit breaker MUST enforce at the
// granularity of the worst counter in the request's span" (jouleclaw §9.4: "This is normative").
//
// Readings taken here: the floors are jouleclaw §1.3's "Realistic floors", taken at their stated values (RAPL ~1 µJ,
// ~10 ms; NVML ~1 mJ, ~100 ms — "A counter read below its own update rate is not a reading of the span"; Apple
// IOReport ~1 mJ, ~10 ms; the process's own CPU energy counts nJ, so 1 µJ, and its read waits out a scheduling quantum,
// taken as 10 ms). "The worst counter" is the one with the coarsest resolution and the longest minimum window; where
// no one counter is worst in both, the breaker takes the coarsest of each (never finer than any counter in the span).
import { JcpError } from '../errors.ts';

/** A counter's floors: the smallest energy it resolves, and the shortest window it is a reading over. */
export interface CounterFloors {
  readonly resolution_uj: bigint;
  readonly min_window_ns: bigint;
}

/** jouleclaw §1.3 "Realistic floors", by counter. */
export const COUNTER_FLOORS: Readonly<Record<string, CounterFloors>> = Object.freeze({
  // "Intel / AMD x86 RAPL: ~1 μJ, ~10 ms window"
  rapl: { resolution_uj: 1n, min_window_ns: 10_000_000n },
  // "NVIDIA discrete (NVML cumulative-energy): ~1 mJ, ~100 ms"
  nvml: { resolution_uj: 1_000n, min_window_ns: 100_000_000n },
  // "Apple Silicon IOReport: ~1 mJ, ~10 ms"
  ioreport: { resolution_uj: 1_000n, min_window_ns: 10_000_000n },
  // "the process's own CPU energy (proc_pid_rusage, nJ, live)"; a read short by "up to a scheduling quantum"
  'proc-self': { resolution_uj: 1n, min_window_ns: 10_000_000n },
});

/** The floors the meter surfaces for `counter` (jouleclaw §1.3 resolution_uj(), min_window_ns()); a counter it does not know is refused. */
export function counterFloors(counter: string): CounterFloors {
  const f = Object.hasOwn(COUNTER_FLOORS, counter) ? COUNTER_FLOORS[counter] : undefined;
  if (f === undefined) throw new JcpError('ERR_BAD_ARGUMENT', `no counter ${JSON.stringify(counter)} on this meter (it knows ${Object.keys(COUNTER_FLOORS).join(', ')})`);
  return f;
}

/**
 * The granularity the breaker enforces at over a span metered by `counters` (jouleclaw §1.3, §9.4): the worst
 * counter's — the coarsest resolution_uj and the longest min_window_ns of any counter in the span.
 */
export function breakerGranularity(counters: readonly CounterFloors[]): CounterFloors {
  if (!Array.isArray(counters) || counters.length === 0) throw new JcpError('ERR_ENERGY_MALFORMED', 'a span is metered by at least one counter');
  counters.forEach((c, i) => {
    if (typeof c?.resolution_uj !== 'bigint' || c.resolution_uj <= 0n || typeof c.min_window_ns !== 'bigint' || c.min_window_ns <= 0n) {
      throw new JcpError('ERR_ENERGY_MALFORMED', `counters[${i}] must carry a positive resolution_uj and min_window_ns`);
    }
  });
  let resolution_uj = counters[0]!.resolution_uj;
  let min_window_ns = counters[0]!.min_window_ns;
  for (const c of counters) {
    if (c.resolution_uj > resolution_uj) resolution_uj = c.resolution_uj;
    if (c.min_window_ns > min_window_ns) min_window_ns = c.min_window_ns;
  }
  return Object.freeze({ resolution_uj, min_window_ns });
}
