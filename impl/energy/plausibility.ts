// jcp §5 "Plausibility", jouleclaw §1.3 (the bound is two-sided), CHANGE-NOTES.md (two-sided GPU counter
// plausibility): a counter's implied rate judged against the board's own telemetry. Over-rate against the draw and
// against the static power limit; under-rate against a floor derived from the usable draw; an impossible draw sample
// discarded alone; no usable draw is indeterminate, never "overran". It refutes, never verifies.
import { JcpError } from '../errors.ts';

// CHANGE-NOTES.md: "floor = (mean_usable_draw - GPU_DRAW_SLACK_MW) / GPU_UNDER_FACTOR"; jcp §5: "The reference meters
// refute a rate under a quarter of the board's mean draw, after the draw's ±5 W accuracy is taken off it."
/** jcp §5: "the draw's ±5 W accuracy" — taken off the draw before the division (CHANGE-NOTES.md). */
export const GPU_DRAW_SLACK_MW = 5_000n;
/** jcp §5: "under a quarter of the board's mean draw". */
export const GPU_UNDER_FACTOR = 4n;
/**
 * The over-rate factor against the draw. CHANGE-NOTES.md names GPU_DRAW_FACTOR and says only that GPU_UNDER_FACTOR is
 * "deliberately looser"; neither spec text gives its value. Reading taken here (an open point, not a spec constant):
 * 2, applied to the mean usable draw with the same ±5 W slack added, so that the bound is permissive (§5.6:
 * "deliberately permissive (...) so that a refutation is unassailable") and the jcp §5 RTX 4050 case — a counter at
 * four to thirty times the draw — is refuted.
 */
export const GPU_DRAW_FACTOR = 2n;

/** The board telemetry a counter is judged against. */
export interface BoardTelemetry {
  /** Instantaneous (or 1 s average) draw samples over the span, milliwatts. */
  readonly draw_mw: readonly bigint[];
  /** The board's static maximum power limit, milliwatts: a limit, not a reading, never discarded. */
  readonly limit_mw?: bigint;
}

/** What the counter claims over the span. */
export interface CounterSpan {
  readonly delta_uj: bigint;
  readonly duration_ns: bigint;
}

/** A plausibility verdict. Every verdict carries the rate; a refutation carries the bound it broke. */
export type PlausibilityVerdict =
  | { readonly verdict: 'not-refuted'; readonly rate_mw: bigint; readonly floor_mw?: bigint; readonly ceiling_mw?: bigint; readonly discarded: number }
  | { readonly verdict: 'counter-under-rate'; readonly rate_mw: bigint; readonly floor_mw: bigint; readonly mean_draw_mw: bigint; readonly discarded: number }
  | { readonly verdict: 'counter-over-rate'; readonly rate_mw: bigint; readonly bound: 'draw' | 'limit'; readonly bound_mw: bigint; readonly discarded: number }
  | { readonly verdict: 'indeterminate'; readonly rate_mw: bigint; readonly reason: 'no-usable-draw'; readonly discarded: number }
  | { readonly verdict: 'no-bound'; readonly rate_mw: bigint };

/** The counter's mean rate over the span in milliwatts, rounded down (µJ/ns × 10⁶ = mW). */
export function rateMw(c: CounterSpan): bigint {
  return (c.delta_uj * 1_000_000n) / c.duration_ns;
}

/** `delta_uj` over `duration_ns` is strictly above `mw` (exact: no rounding of the rate). */
function rateAbove(c: CounterSpan, mw: bigint): boolean {
  return c.delta_uj * 1_000_000n > mw * c.duration_ns;
}
/** `delta_uj` over `duration_ns` is strictly below `mw` (exact). */
function rateBelow(c: CounterSpan, mw: bigint): boolean {
  return c.delta_uj * 1_000_000n < mw * c.duration_ns;
}

function assertInputs(c: CounterSpan, t: BoardTelemetry): void {
  if (typeof c.delta_uj !== 'bigint' || c.delta_uj < 0n) throw new JcpError('ERR_ENERGY_MALFORMED', 'delta_uj must be a non-negative bigint');
  if (typeof c.duration_ns !== 'bigint' || c.duration_ns <= 0n) throw new JcpError('ERR_ENERGY_MALFORMED', 'duration_ns must be a positive bigint');
  if (!Array.isArray(t.draw_mw) || !t.draw_mw.every((d) => typeof d === 'bigint' && d >= 0n)) {
    throw new JcpError('ERR_ENERGY_MALFORMED', 'draw_mw must be an array of non-negative bigint milliwatts');
  }
  if (t.limit_mw !== undefined && (typeof t.limit_mw !== 'bigint' || t.limit_mw <= 0n)) throw new JcpError('ERR_ENERGY_MALFORMED', 'limit_mw must be a positive bigint');
}

/**
 * The draw samples that are readings. jcp §5: "A bound reading that is itself impossible is not a reading (...) Such
 * a reading MUST be discarded — and only that reading." Impossible: above the board's own static limit. Also dropped:
 * an exact 0 mW, which a powered board cannot draw (hardware-lab research: NVML answers 0 mW when polled too fast).
 */
export function usableDraw(t: BoardTelemetry): { readonly usable: readonly bigint[]; readonly discarded: number } {
  const usable = t.draw_mw.filter((d) => d > 0n && (t.limit_mw === undefined || d <= t.limit_mw));
  return { usable, discarded: t.draw_mw.length - usable.length };
}

/** The under-rate floor (CHANGE-NOTES.md): (mean − slack) / factor, and 0 at or below the slack (never fires near idle). */
export function underRateFloorMw(mean_draw_mw: bigint): bigint {
  const net = mean_draw_mw - GPU_DRAW_SLACK_MW;
  return net > 0n ? net / GPU_UNDER_FACTOR : 0n;
}

/** The over-rate ceiling against the draw: (mean + slack) × {@link GPU_DRAW_FACTOR}. */
export function overRateCeilingMw(mean_draw_mw: bigint): bigint {
  return (mean_draw_mw + GPU_DRAW_SLACK_MW) * GPU_DRAW_FACTOR;
}

/**
 * Judges a counter's rate over a span against the board's telemetry (jcp §5 Plausibility, two-sided):
 * 1. over the static limit → counter-over-rate (bound 'limit'), whatever the draw samples are;
 * 2. no usable draw sample left (and a draw was offered) → indeterminate, never an overrun;
 * 3. under the floor from the mean usable draw → counter-under-rate (the floor is 0 near idle: never fires there);
 * 4. over the ceiling from the mean usable draw → counter-over-rate (bound 'draw');
 * 5. else not-refuted (which is not a finding that the counter is correct).
 * With neither a draw nor a limit, no-bound: "liveness stands alone".
 */
export function judgePlausibility(c: CounterSpan, t: BoardTelemetry): PlausibilityVerdict {
  assertInputs(c, t);
  const rate_mw = rateMw(c);
  if (t.draw_mw.length === 0 && t.limit_mw === undefined) return Object.freeze({ verdict: 'no-bound', rate_mw });
  const { usable, discarded } = usableDraw(t);
  // jcp §5: "A bound that is a static limit rather than a reading (...) is never discarded, so a broken draw sample
  // cannot excuse a counter that overran that limit outright."
  if (t.limit_mw !== undefined && rateAbove(c, t.limit_mw)) {
    return Object.freeze({ verdict: 'counter-over-rate', rate_mw, bound: 'limit', bound_mw: t.limit_mw, discarded });
  }
  if (usable.length === 0) {
    // only a limit was offered: the rate is inside it, and there is no draw to judge the other side against
    if (t.draw_mw.length === 0) return Object.freeze({ verdict: 'not-refuted', rate_mw, ceiling_mw: t.limit_mw!, discarded });
    // jcp §5: "Only where no usable reading remains is the counter unjudgeable rather than implausible"
    return Object.freeze({ verdict: 'indeterminate', rate_mw, reason: 'no-usable-draw', discarded });
  }
  const mean_draw_mw = usable.reduce((s, d) => s + d, 0n) / BigInt(usable.length);
  const floor_mw = underRateFloorMw(mean_draw_mw);
  // jcp §5: "a counter whose rate falls far below that draw MUST NOT produce a hardware-graded figure either"
  if (rateBelow(c, floor_mw)) return Object.freeze({ verdict: 'counter-under-rate', rate_mw, floor_mw, mean_draw_mw, discarded });
  const ceiling = overRateCeilingMw(mean_draw_mw);
  const ceiling_mw = t.limit_mw !== undefined && t.limit_mw < ceiling ? t.limit_mw : ceiling;
  // jcp §5: "a counter whose rate exceeds the bound MUST NOT produce a hardware-graded figure"
  if (rateAbove(c, ceiling)) return Object.freeze({ verdict: 'counter-over-rate', rate_mw, bound: 'draw', bound_mw: ceiling, discarded });
  return Object.freeze({ verdict: 'not-refuted', rate_mw, floor_mw, ceiling_mw, discarded });
}

/** True when a verdict admits a hardware-graded figure: not refuted, or no bound readable. Indeterminate is not. */
export function plausibilityAdmits(v: PlausibilityVerdict): boolean {
  return v.verdict === 'not-refuted' || v.verdict === 'no-bound';
}

/** The grade {@link Obtained} records for a verdict. */
export function plausibilityGrade(v: PlausibilityVerdict): 'not-refuted' | 'no-bound' | 'refuted' | 'indeterminate' {
  if (v.verdict === 'counter-under-rate' || v.verdict === 'counter-over-rate') return 'refuted';
  return v.verdict;
}

const RANK: Record<PlausibilityVerdict['verdict'], number> = { 'counter-under-rate': 0, 'counter-over-rate': 1, indeterminate: 2, 'not-refuted': 3, 'no-bound': 4 };

/**
 * Orders verdicts of several counters (several GPUs of one probe), the one an operator must act on first:
 * an under-report ranks above an overrun (CHANGE-NOTES.md: "only this one admits work a budget cannot cover"), two
 * under-reports by shortfall (floor − rate, largest first), then overruns, indeterminates, and the rest.
 */
export function rankVerdicts<V extends PlausibilityVerdict>(verdicts: readonly V[]): V[] {
  const shortfall = (v: PlausibilityVerdict): bigint => (v.verdict === 'counter-under-rate' ? v.floor_mw - v.rate_mw : 0n);
  return [...verdicts].sort((a, b) => {
    const r = RANK[a.verdict] - RANK[b.verdict];
    if (r !== 0) return r;
    const s = shortfall(b) - shortfall(a);
    return s > 0n ? 1 : s < 0n ? -1 : 0;
  });
}
