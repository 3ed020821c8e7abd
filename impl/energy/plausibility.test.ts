// Unit tests of impl/energy/plausibility.ts (jcp §5 Plausibility; jouleclaw §1.3; CHANGE-NOTES.md two-sided bound).
// Figures are the spec's RTX 4050 Laptop GPU: a 65 W limit, 14.8 W draw samples, a ~590 W wake spike.
import { describe, expect, it } from 'vitest';
import { codeOf, thrown } from '../_test-support.ts';
import {
  GPU_DRAW_SLACK_MW,
  GPU_UNDER_FACTOR,
  judgePlausibility,
  overRateCeilingMw,
  plausibilityAdmits,
  plausibilityGrade,
  rankVerdicts,
  underRateFloorMw,
  type PlausibilityVerdict,
} from './plausibility.ts';

const S = 1_000_000_000n;
/** A counter running at `mw` milliwatts for 10 s. */
const at = (mw: bigint) => ({ delta_uj: mw * 10n * 1000n, duration_ns: 10n * S });
const board = (draw: bigint[], limit_mw: bigint | undefined = 65_000n) => ({ draw_mw: draw, ...(limit_mw !== undefined ? { limit_mw } : {}) });
const sane = Array.from({ length: 10 }, () => 14_800n);

describe('constants from the spec', () => {
  it('±5 W slack and a quarter', () => {
    expect(GPU_DRAW_SLACK_MW).toBe(5000n);
    expect(GPU_UNDER_FACTOR).toBe(4n);
    // CHANGE-NOTES.md: floor = (mean_usable_draw - GPU_DRAW_SLACK_MW) / GPU_UNDER_FACTOR
    expect(underRateFloorMw(14_800n)).toBe((14_800n - 5000n) / 4n);
    expect(underRateFloorMw(5000n)).toBe(0n);
    expect(underRateFloorMw(3000n)).toBe(0n);
  });
});

describe('judgePlausibility', () => {
  it('a counter at the draw is not refuted (and that is not "verified")', () => {
    const v = judgePlausibility(at(14_800n), board(sane));
    expect(v.verdict).toBe('not-refuted');
    expect(plausibilityAdmits(v)).toBe(true);
  });
  it('×4 the draw is over-rate against the draw, with the rate and the bound', () => {
    expect(judgePlausibility(at(59_200n), board(sane))).toEqual({ verdict: 'counter-over-rate', rate_mw: 59_200n, bound: 'draw', bound_mw: overRateCeilingMw(14_800n), discarded: 0 });
  });
  it('×30 the draw is over the static limit', () => {
    expect(judgePlausibility(at(444_000n), board(sane))).toMatchObject({ verdict: 'counter-over-rate', bound: 'limit', bound_mw: 65_000n, rate_mw: 444_000n });
  });
  it('a counter far below the draw is under-rate; the floor allows the draw its ±5 W', () => {
    // 40 W board: floor (40 − 5) / 4 = 8.75 W
    const b = board(Array.from({ length: 10 }, () => 40_000n));
    expect(judgePlausibility(at(8_700n), b)).toEqual({ verdict: 'counter-under-rate', rate_mw: 8_700n, floor_mw: 8_750n, mean_draw_mw: 40_000n, discarded: 0 });
    // under a quarter of the draw (10 W) but above the floor once the slack is off: not refuted
    expect(judgePlausibility(at(9_000n), b).verdict).toBe('not-refuted');
    // at a quarter of the 14.8 W draw: above the floor (2.45 W), not refuted
    expect(judgePlausibility(at(3_700n), board(sane)).verdict).toBe('not-refuted');
    expect(judgePlausibility(at(2_000n), board(sane))).toMatchObject({ verdict: 'counter-under-rate', floor_mw: 2_450n });
  });
  it('does not fire near idle', () => {
    expect(judgePlausibility(at(100n), board(Array.from({ length: 10 }, () => 4_000n))).verdict).toBe('not-refuted');
    expect(judgePlausibility(at(0n), board(Array.from({ length: 10 }, () => 5_000n))).verdict).toBe('not-refuted');
  });
  it('discards a 590 W spike alone: the overrun is still found, against the sane mean', () => {
    const spiked = [...sane.slice(0, 9), 590_000n];
    expect(judgePlausibility(at(59_200n), board(spiked))).toEqual({ verdict: 'counter-over-rate', rate_mw: 59_200n, bound: 'draw', bound_mw: overRateCeilingMw(14_800n), discarded: 1 });
  });
  it('no usable draw left is indeterminate, not an overrun; the static limit still refutes', () => {
    const broken = [590_000n, 600_000n, 0n];
    const v = judgePlausibility(at(10_000n), board(broken));
    expect(v).toEqual({ verdict: 'indeterminate', rate_mw: 10_000n, reason: 'no-usable-draw', discarded: 3 });
    expect(plausibilityAdmits(v)).toBe(false);
    expect(judgePlausibility(at(444_000n), board(broken))).toMatchObject({ verdict: 'counter-over-rate', bound: 'limit' });
  });
  it('with no bound readable, liveness stands alone; with a limit only, the limit refutes', () => {
    expect(judgePlausibility(at(444_000n), { draw_mw: [] })).toEqual({ verdict: 'no-bound', rate_mw: 444_000n });
    expect(judgePlausibility(at(10_000n), { draw_mw: [], limit_mw: 65_000n }).verdict).toBe('not-refuted');
    expect(judgePlausibility(at(70_000n), { draw_mw: [], limit_mw: 65_000n }).verdict).toBe('counter-over-rate');
  });
  it('compares the rate exactly (no rounding)', () => {
    // 396 000 001 µJ over 10 s is 39 600.0001 mW: over the 39 600 mW ceiling of a 14.8 W draw, though it rounds to it
    expect(overRateCeilingMw(14_800n)).toBe(39_600n);
    expect(judgePlausibility({ delta_uj: 396_000_001n, duration_ns: 10n * S }, board(sane))).toMatchObject({ verdict: 'counter-over-rate', rate_mw: 39_600n });
    expect(judgePlausibility({ delta_uj: 396_000_000n, duration_ns: 10n * S }, board(sane)).verdict).toBe('not-refuted');
  });
  it('refuses malformed input', () => {
    expect(codeOf(() => judgePlausibility({ delta_uj: 1n, duration_ns: 0n }, board(sane)))).toBe('ERR_ENERGY_MALFORMED');
    expect(codeOf(() => judgePlausibility({ delta_uj: -1n, duration_ns: 1n }, board(sane)))).toBe('ERR_ENERGY_MALFORMED');
    expect(codeOf(() => judgePlausibility(at(1n), { draw_mw: [1] as never }))).toBe('ERR_ENERGY_MALFORMED');
    expect(codeOf(() => judgePlausibility(at(1n), { draw_mw: [], limit_mw: 0n }))).toBe('ERR_ENERGY_MALFORMED');
  });
  it('refuses a number where a bigint is due, naming the field', () => {
    const cases: Array<[() => unknown, string]> = [
      [() => judgePlausibility({ delta_uj: 1 as never, duration_ns: S }, board(sane)), 'delta_uj must be a non-negative bigint'],
      [() => judgePlausibility({ delta_uj: 1n, duration_ns: 1 as never }, board(sane)), 'duration_ns must be a positive bigint'],
      [() => judgePlausibility(at(1n), board(sane, 65_000 as never)), 'limit_mw must be a positive bigint'],
    ];
    for (const [f, message] of cases) {
      const e = thrown(f);
      expect(e.code).toBe('ERR_ENERGY_MALFORMED');
      expect(e.message).toContain(message);
    }
  });
  it('refuses a negative draw sample rather than discarding it', () => {
    const e = thrown(() => judgePlausibility(at(1n), board([14_800n, -1n])));
    expect(e.code).toBe('ERR_ENERGY_MALFORMED');
    expect(e.message).toContain('draw_mw must be an array of non-negative bigint milliwatts');
  });
  it('judges against the draw alone when the board gives no static limit', () => {
    // jcp §5: "the board's instantaneous power draw" is a bound on its own; floor 2 450 mW, ceiling 39 600 mW
    expect(judgePlausibility(at(14_800n), { draw_mw: sane })).toEqual({ verdict: 'not-refuted', rate_mw: 14_800n, floor_mw: 2_450n, ceiling_mw: 39_600n, discarded: 0 });
  });
  it('keeps a draw sample exactly at the static limit: only one past it is impossible', () => {
    // jcp §5: "past its own 65 W limit" is impossible; at the limit is a reading
    expect(judgePlausibility(at(60_000n), board([65_000n]))).toMatchObject({ verdict: 'not-refuted', discarded: 0, floor_mw: 15_000n });
  });
  it('reports the static limit as the ceiling where it is below the draw-derived one', () => {
    // 14.8 W draw: (14.8 + 5) × 2 = 39.6 W from the draw, but a 30 W limit is the tighter bound
    expect(judgePlausibility(at(14_800n), board(sane, 30_000n))).toMatchObject({ verdict: 'not-refuted', ceiling_mw: 30_000n });
  });
});

describe('rankVerdicts', () => {
  it('puts an under-report above an overrun, two under-reports by shortfall', () => {
    const over: PlausibilityVerdict = { verdict: 'counter-over-rate', rate_mw: 444_000n, bound: 'limit', bound_mw: 65_000n, discarded: 0 };
    const underSmall: PlausibilityVerdict = { verdict: 'counter-under-rate', rate_mw: 100n, floor_mw: 2_000n, mean_draw_mw: 13_000n, discarded: 0 };
    const underBig: PlausibilityVerdict = { verdict: 'counter-under-rate', rate_mw: 5_000n, floor_mw: 20_000n, mean_draw_mw: 85_000n, discarded: 0 };
    const ok: PlausibilityVerdict = { verdict: 'not-refuted', rate_mw: 1n, discarded: 0 };
    expect(rankVerdicts([ok, over, underSmall, underBig])).toEqual([underBig, underSmall, over, ok]);
  });
  it('orders two under-reports by floor minus rate, not by the floor or the rate alone', () => {
    // shortfalls: 1 000 mW (floor 10 000, rate 9 000) and 5 000 mW (floor 5 000, rate 0)
    const near: PlausibilityVerdict = { verdict: 'counter-under-rate', rate_mw: 9_000n, floor_mw: 10_000n, mean_draw_mw: 45_000n, discarded: 0 };
    const far: PlausibilityVerdict = { verdict: 'counter-under-rate', rate_mw: 0n, floor_mw: 5_000n, mean_draw_mw: 25_000n, discarded: 0 };
    expect(rankVerdicts([near, far])).toEqual([far, near]);
    expect(rankVerdicts([far, near])).toEqual([far, near]);
  });
  it('keeps verdicts of equal rank and shortfall in the order given', () => {
    const overA: PlausibilityVerdict = { verdict: 'counter-over-rate', rate_mw: 444_000n, bound: 'limit', bound_mw: 65_000n, discarded: 0 };
    const overB: PlausibilityVerdict = { verdict: 'counter-over-rate', rate_mw: 59_200n, bound: 'draw', bound_mw: 39_600n, discarded: 1 };
    expect(rankVerdicts([overA, overB])).toEqual([overA, overB]);
    expect(rankVerdicts([overB, overA])).toEqual([overB, overA]);
  });
});

describe('plausibilityAdmits and plausibilityGrade', () => {
  const under: PlausibilityVerdict = { verdict: 'counter-under-rate', rate_mw: 100n, floor_mw: 2_000n, mean_draw_mw: 13_000n, discarded: 0 };
  const over: PlausibilityVerdict = { verdict: 'counter-over-rate', rate_mw: 444_000n, bound: 'limit', bound_mw: 65_000n, discarded: 0 };
  const ind: PlausibilityVerdict = { verdict: 'indeterminate', rate_mw: 1n, reason: 'no-usable-draw', discarded: 3 };
  const ok: PlausibilityVerdict = { verdict: 'not-refuted', rate_mw: 1n, discarded: 0 };
  const none: PlausibilityVerdict = { verdict: 'no-bound', rate_mw: 1n };
  it('admits a hardware grade with no bound readable: liveness stands alone', () => {
    // jcp §5: "Where no such bound is readable, this requirement does not apply"
    expect([under, over, ind, ok, none].map(plausibilityAdmits)).toEqual([false, false, false, true, true]);
  });
  it('grades both directions of refutation alike, and passes the other verdicts through', () => {
    // jcp §5: "The check is two-sided"; unjudgeable is not reported as a counter that overran
    expect([under, over, ind, ok, none].map(plausibilityGrade)).toEqual(['refuted', 'refuted', 'indeterminate', 'not-refuted', 'no-bound']);
  });
});
