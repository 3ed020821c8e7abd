// jcp §5 "Liveness", sense §7 (the interval rule), jcp §5.1 rung 1 (RAPL zones): pure judgements over timestamped
// samples of a vendor energy counter. Is the counter live under load, is every counter of a summed domain live, and
// which RAPL zones are summed, each wrap-corrected at its own max_energy_range_uj.
import { JcpError } from '../errors.ts';

// sense §7 / CHANGE-NOTES.md (the IOReport liveness interval rule): "only one no longer than three of the probe's
// ticks, 75 ms at its 25 ms tick, counts: a longer one counts as nothing, neither among the intervals, nor as an
// advance, nor towards the 300 ms, which is the summed length of the intervals that count".
/** The probe's tick (sense §7: "its 25 ms tick"). */
export const LIVENESS_TICK_NS = 25_000_000n;
/** sense §7: "only one no longer than three of the probe's ticks (...) counts". */
export const LIVENESS_MAX_TICKS_PER_INTERVAL = 3n;
/** sense §7: "75 ms at its 25 ms tick" — the longest interval that counts. */
export const LIVENESS_MAX_INTERVAL_NS = LIVENESS_TICK_NS * LIVENESS_MAX_TICKS_PER_INTERVAL;
// jcp §5 / sense §7: "advancing in at least 5 sample intervals, in at least 4 of every 5, over at least 300 ms"
/** jcp §5: "advancing in at least 5 sample intervals". */
export const LIVENESS_MIN_ADVANCES = 5;
/** jcp §5: "in at least 4 of every 5" — the window length. */
export const LIVENESS_WINDOW = 5;
/** jcp §5: "in at least 4 of every 5" — advances each window must hold. */
export const LIVENESS_MIN_ADVANCES_PER_WINDOW = 4;
/** jcp §5: "over at least 300 ms" of counted time. */
export const LIVENESS_MIN_COUNTED_NS = 300_000_000n;

/** One sample of a counter: when it was in hand (ns, any fixed origin) and the counter's raw value. */
export interface CounterSample {
  readonly t_ns: bigint;
  readonly value: bigint;
}

/** Why a counter is not live. */
export type NotLiveReason =
  | 'no-counted-intervals' // every interval was longer than the cap (or there were fewer than two samples)
  | 'frozen' // no counted interval advanced
  | 'republished-in-lumps' // it advanced, but some 5 consecutive counted intervals hold fewer than 4 advances
  | 'too-few-advances' // fewer than 5 counted intervals advanced
  | 'too-little-counted-time'; // the counted intervals sum to under 300 ms

/** A liveness verdict, with the counts it rests on (jcp §5: "SHOULD record why"). */
export interface LivenessVerdict {
  readonly live: boolean;
  /** Present exactly when not live. */
  readonly reason?: NotLiveReason;
  /** Intervals no longer than {@link LIVENESS_MAX_INTERVAL_NS}. */
  readonly counted: number;
  /** Counted intervals over which the counter advanced. */
  readonly advanced: number;
  /** Intervals longer than the cap: counted as nothing. */
  readonly too_long: number;
  /** The summed length of the counted intervals. */
  readonly counted_ns: bigint;
  /** The fewest advances in any window of 5 consecutive counted intervals (absent with fewer than 5 counted). */
  readonly worst_window?: number;
}

function assertSamples(samples: readonly CounterSample[], max_energy_range_uj?: bigint): void {
  if (!Array.isArray(samples)) throw new JcpError('ERR_ENERGY_MALFORMED', 'samples must be an array');
  if (max_energy_range_uj !== undefined && (typeof max_energy_range_uj !== 'bigint' || max_energy_range_uj < 0n)) {
    throw new JcpError('ERR_ENERGY_MALFORMED', 'max_energy_range_uj must be a non-negative bigint');
  }
  samples.forEach((s, i) => {
    if (typeof s?.t_ns !== 'bigint' || typeof s.value !== 'bigint' || s.t_ns < 0n || s.value < 0n) {
      throw new JcpError('ERR_ENERGY_MALFORMED', `samples[${i}] must carry non-negative bigint t_ns and value`);
    }
    if (i > 0 && s.t_ns <= samples[i - 1]!.t_ns) throw new JcpError('ERR_ENERGY_MALFORMED', `samples[${i}] is not later than samples[${i - 1}]`);
    if (max_energy_range_uj !== undefined && max_energy_range_uj > 0n && s.value > max_energy_range_uj) {
      throw new JcpError('ERR_ENERGY_MALFORMED', `samples[${i}].value ${s.value} exceeds max_energy_range_uj ${max_energy_range_uj}`);
    }
  });
}

/**
 * The energy a counter advanced from `prev` to `cur`, wrap-corrected at `max_energy_range_uj` (jcp §5.1: RAPL
 * "wraparound-corrected"): cur − prev, or max − prev + cur after one wrap. Undefined when the counter went backwards
 * and no usable range is known: that interval is no reading (never a negative energy).
 */
export function wrapDelta(prev: bigint, cur: bigint, max_energy_range_uj?: bigint): bigint | undefined {
  if (cur >= prev) return cur - prev;
  if (max_energy_range_uj === undefined || max_energy_range_uj <= 0n) return undefined;
  return max_energy_range_uj - prev + cur;
}

/**
 * Judges whether a counter is live from its samples taken at the probe's tick under load (jcp §5, sense §7).
 * An interval runs from one sample in hand to the next; one longer than 75 ms counts as nothing. The counter is live
 * only if it advanced in at least 5 counted intervals, in at least 4 of every 5 consecutive counted intervals, over at
 * least 300 ms of counted time.
 *
 * Reading taken where the spec leaves one open: "in at least 4 of every 5" is read as every window of 5 consecutive
 * counted intervals holding at least 4 advances (the literal reading, and the stricter: a counter that stalls late in
 * the probe is not averaged into liveness by its earlier advances).
 */
export function judgeLiveness(samples: readonly CounterSample[], max_energy_range_uj?: bigint): LivenessVerdict {
  assertSamples(samples, max_energy_range_uj);
  const flags: boolean[] = [];
  let too_long = 0;
  let counted_ns = 0n;
  for (let i = 1; i < samples.length; i++) {
    const a = samples[i - 1]!;
    const b = samples[i]!;
    const len = b.t_ns - a.t_ns;
    // sense §7: "only one no longer than three of the probe's ticks (...) counts"
    if (len > LIVENESS_MAX_INTERVAL_NS) {
      too_long++;
      continue;
    }
    counted_ns += len;
    const d = wrapDelta(a.value, b.value, max_energy_range_uj);
    flags.push(d !== undefined && d > 0n);
  }
  const advanced = flags.filter(Boolean).length;
  let worst: number | undefined;
  for (let i = 0; i + LIVENESS_WINDOW <= flags.length; i++) {
    const n = flags.slice(i, i + LIVENESS_WINDOW).filter(Boolean).length;
    worst = worst === undefined ? n : Math.min(worst, n);
  }
  const base = { counted: flags.length, advanced, too_long, counted_ns, ...(worst !== undefined ? { worst_window: worst } : {}) };
  const reason = notLiveReason(flags.length, advanced, worst, counted_ns);
  return Object.freeze(reason === undefined ? { live: true, ...base } : { live: false, reason, ...base });
}

function notLiveReason(counted: number, advanced: number, worst: number | undefined, counted_ns: bigint): NotLiveReason | undefined {
  if (counted === 0) return 'no-counted-intervals';
  if (advanced === 0) return 'frozen';
  // jcp §5: "in at least 4 of every 5"
  if (worst !== undefined && worst < LIVENESS_MIN_ADVANCES_PER_WINDOW) return 'republished-in-lumps';
  // jcp §5: "advancing in at least 5 sample intervals"
  if (advanced < LIVENESS_MIN_ADVANCES) return 'too-few-advances';
  // jcp §5: "over at least 300 ms" — sense §7: "the summed length of the intervals that count"
  if (counted_ns < LIVENESS_MIN_COUNTED_NS) return 'too-little-counted-time';
  return undefined;
}

/** One counter of a summed domain, named as the platform names it. */
export interface DomainCounter {
  readonly name: string;
  readonly samples: readonly CounterSample[];
  readonly max_energy_range_uj?: bigint;
}

/** A domain's verdict: live only when every counter is; each counter's verdict kept. */
export interface DomainVerdict {
  readonly live: boolean;
  readonly counters: ReadonlyArray<{ readonly name: string; readonly verdict: LivenessVerdict }>;
  /** The counters that are not live (jcp §5: "a frozen one beside live ones would be left out"). */
  readonly not_live: readonly string[];
}

/**
 * jcp §5: "Where the figure sums several counters of the domain (...) every one of them MUST be observed live".
 * A domain with no counter is not live.
 */
export function judgeDomainLiveness(counters: readonly DomainCounter[]): DomainVerdict {
  const judged = counters.map((c) => ({ name: c.name, verdict: judgeLiveness(c.samples, c.max_energy_range_uj) }));
  const not_live = judged.filter((j) => !j.verdict.live).map((j) => j.name);
  return Object.freeze({ live: judged.length > 0 && not_live.length === 0, counters: judged, not_live });
}

// ---- RAPL zones (jcp §5.1 rung 1) -----------------------------------------------------------------------------

/** A powercap zone as the platform lists it: its directory (e.g. `intel-rapl:0`, `intel-rapl:0:1`) and `name`. */
export interface RaplZone {
  readonly zone: string;
  readonly name: string;
  readonly max_energy_range_uj?: bigint;
}

/** Why a zone is not summed. */
export type RaplExclusion = 'psys' | 'dram' | 'subzone' | 'not-a-package' | 'duplicate-package';

/** True when `zone` is a top-level powercap zone (`<control-type>:<n>`, no sub-index). */
export function isTopLevelZone(zone: string): boolean {
  return /^[a-z][a-z0-9-]*:\d+$/.test(zone);
}

/**
 * The zones summed into the CPU package figure, and every other zone with why it is not (jcp §5.1: "The package
 * counters are the top-level zones whose name is package-<n>, every socket's (...) no other zone is summed or probed.
 * A psys zone already includes the packages (...) and a dram zone is not CPU energy"). A second top-level zone of the
 * same package name (the same package seen through MSR and MMIO) is excluded as a duplicate, the first one kept.
 */
export function selectRaplPackages<Z extends RaplZone>(zones: readonly Z[]): { readonly packages: readonly Z[]; readonly excluded: ReadonlyArray<{ readonly zone: string; readonly name: string; readonly reason: RaplExclusion }> } {
  const packages: Z[] = [];
  const excluded: Array<{ zone: string; name: string; reason: RaplExclusion }> = [];
  for (const z of zones) {
    let reason: RaplExclusion | undefined;
    if (z.name === 'psys') reason = 'psys';
    else if (z.name === 'dram') reason = 'dram';
    else if (!isTopLevelZone(z.zone)) reason = 'subzone';
    else if (!/^package-\d+$/.test(z.name)) reason = 'not-a-package';
    else if (packages.some((p) => p.name === z.name)) reason = 'duplicate-package';
    if (reason === undefined) packages.push(z);
    else excluded.push({ zone: z.zone, name: z.name, reason });
  }
  return { packages, excluded };
}

/** A zone with its samples over a span. */
export interface RaplZoneSeries extends RaplZone {
  readonly samples: readonly CounterSample[];
}

/** The package figure over a span: the sum of every package's wrap-corrected advance, and the domain's liveness. */
export interface RaplPackageFigure {
  /** Undefined when some package interval went backwards with no usable max_energy_range_uj: no figure. */
  readonly total_uj?: bigint;
  readonly per_package: ReadonlyArray<{ readonly zone: string; readonly name: string; readonly delta_uj?: bigint }>;
  readonly excluded: ReadonlyArray<{ readonly zone: string; readonly name: string; readonly reason: RaplExclusion }>;
  readonly liveness: DomainVerdict;
  /** True when at least one package counter advanced over the span (jcp §5.1: else a lower rung meters it). */
  readonly advanced: boolean;
}

/** The advance of one counter over its samples, each interval wrap-corrected at `max`; undefined if any interval is no reading. */
export function seriesDelta(samples: readonly CounterSample[], max_energy_range_uj?: bigint): bigint | undefined {
  assertSamples(samples, max_energy_range_uj);
  let sum = 0n;
  for (let i = 1; i < samples.length; i++) {
    const d = wrapDelta(samples[i - 1]!.value, samples[i]!.value, max_energy_range_uj);
    if (d === undefined) return undefined;
    sum += d;
  }
  return sum;
}

/**
 * Sums the CPU package zones over a span (jcp §5.1 rung 1): only top-level `package-<n>` zones, each wrap-corrected
 * at its own max_energy_range_uj; psys and dram never summed. Liveness is judged for every summed package.
 */
export function sumRaplPackages(zones: readonly RaplZoneSeries[]): RaplPackageFigure {
  const { packages, excluded } = selectRaplPackages(zones);
  const per_package = packages.map((p) => {
    const d = seriesDelta(p.samples, p.max_energy_range_uj);
    return { zone: p.zone, name: p.name, ...(d !== undefined ? { delta_uj: d } : {}) };
  });
  const complete = per_package.every((p) => p.delta_uj !== undefined);
  const total = per_package.reduce((s, p) => s + (p.delta_uj ?? 0n), 0n);
  const liveness = judgeDomainLiveness(packages.map((p) => ({ name: p.name, samples: p.samples, ...(p.max_energy_range_uj !== undefined ? { max_energy_range_uj: p.max_energy_range_uj } : {}) })));
  return Object.freeze({
    ...(complete && packages.length > 0 ? { total_uj: total } : {}),
    per_package,
    excluded,
    liveness,
    advanced: per_package.some((p) => (p.delta_uj ?? 0n) > 0n),
  });
}
