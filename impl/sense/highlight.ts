// sense §5 (first half): the highlight detector — an EMA-baselined k-sigma rule with an absolute floor and a
// debounce, one detector per probe. "The decision is made against the prior baseline (then the baseline updates) so a
// single large spike does not suppress its own fire."
//
// The suite's readings (the spec names the rule, not its constants): readings are ppm (salience.ts); the baseline
// starts at mean 0, variance 0; a reading x fires when
//   x ≥ HIGHLIGHT_FLOOR_PPM  and  x > mean  and  (x − mean)² > HIGHLIGHT_K² · var  and  it is past the debounce
// (comparing squares keeps k-sigma exact, with no square root); after a fire, the next HIGHLIGHT_DEBOUNCE readings
// cannot fire. The baseline then updates by the exponentially weighted mean and variance with α = 1/8:
//   d = x − mean;  mean += d·α;  var = (1 − α)·(var + α·d²)
// in integers, each division rounding toward zero (BigInt division).
import { JcpError } from '../errors.ts';
import { _oneOf, _uint } from './_read.ts';

/** The three probes of sense §4, each a source of highlights. */
export const PROBES = ['salience', 'novelty', 'uncertainty'] as const;
/** A probe. */
export type Probe = (typeof PROBES)[number];

/** The absolute floor below which nothing fires (ppm). */
export const HIGHLIGHT_FLOOR_PPM = 200_000n;
/** k of the k-sigma rule. */
export const HIGHLIGHT_K = 3n;
/** Readings after a fire during which the detector cannot fire again. */
export const HIGHLIGHT_DEBOUNCE = 3;
/** The EMA weight α = ALPHA_NUM / ALPHA_DEN. */
export const HIGHLIGHT_ALPHA_NUM = 1n;
export const HIGHLIGHT_ALPHA_DEN = 8n;

/** A fired highlight: which probe, at which reading, with what score (ppm). */
export interface Highlight {
  readonly probe: Probe;
  readonly index: number;
  readonly score: bigint;
}

/** A detector's baseline. */
export interface Baseline {
  readonly mean: bigint;
  readonly var: bigint;
}

/** One probe's detector, fed one reading at a time. */
export interface Detector {
  /** The highlight `score` fires, decided against the baseline before it, or undefined. Then the baseline updates. */
  feed(score: bigint): Highlight | undefined;
  /** The current baseline. */
  baseline(): Baseline;
}

/** The k-sigma, floor and debounce test of `x` against `prior` (no state). */
export function fires(x: bigint, prior: Baseline, readingsSinceFire: number | undefined): boolean {
  if (x < HIGHLIGHT_FLOOR_PPM) return false;
  if (readingsSinceFire !== undefined && readingsSinceFire <= HIGHLIGHT_DEBOUNCE) return false;
  const d = x - prior.mean;
  return d > 0n && d * d > HIGHLIGHT_K * HIGHLIGHT_K * prior.var;
}

/** The baseline after `x`. */
export function updateBaseline(b: Baseline, x: bigint): Baseline {
  const d = x - b.mean;
  const mean = b.mean + (d * HIGHLIGHT_ALPHA_NUM) / HIGHLIGHT_ALPHA_DEN;
  const v = ((HIGHLIGHT_ALPHA_DEN - HIGHLIGHT_ALPHA_NUM) * (b.var * HIGHLIGHT_ALPHA_DEN + HIGHLIGHT_ALPHA_NUM * d * d)) / (HIGHLIGHT_ALPHA_DEN * HIGHLIGHT_ALPHA_DEN);
  return Object.freeze({ mean, var: v });
}

/** A fresh detector for `probe`. */
export function createDetector(probe: Probe): Detector {
  _oneOf(probe, PROBES, 'probe', 'ERR_SENSE_SIGNAL_MALFORMED');
  let b: Baseline = Object.freeze({ mean: 0n, var: 0n });
  let index = 0;
  let lastFire: number | undefined;
  return Object.freeze({
    feed(score: bigint): Highlight | undefined {
      const x = _uint(score, 'score', 'ERR_SENSE_SIGNAL_MALFORMED', 1_000_000n);
      const i = index++;
      // sense §5: "The decision is made against the prior baseline (then the baseline updates)"
      const fire = fires(x, b, lastFire === undefined ? undefined : i - lastFire);
      b = updateBaseline(b, x);
      if (!fire) return undefined;
      lastFire = i;
      return Object.freeze({ probe, index: i, score: x });
    },
    baseline: () => b,
  });
}

/** The highlights of one probe's reading stream, by a fresh detector. */
export function detect(probe: Probe, scores: readonly bigint[]): Highlight[] {
  if (!Array.isArray(scores)) throw new JcpError('ERR_SENSE_SIGNAL_MALFORMED', 'scores must be an array');
  const d = createDetector(probe);
  return scores.flatMap((s) => d.feed(s) ?? []);
}
