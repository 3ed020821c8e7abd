// Unit tests of sense §4/§5 (impl/sense/{salience,highlight,attention}.ts): the projection's exact counts, the detector
// deciding against the prior baseline with its floor and debounce, the gate's value-test-first order and debits, and
// refusals that name the field at fault.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { thrown } from '../_test-support.ts';
import { createAttentionGate, decideOutcome, gateAll, highlightValue, interruptionCost, INTERFERENCE_PPM, SURFACE_MARGIN_PPM, type UserContext } from './attention.ts';
import { createDetector, detect, fires, HIGHLIGHT_DEBOUNCE, HIGHLIGHT_FLOOR_PPM, HIGHLIGHT_K, updateBaseline, type Highlight } from './highlight.ts';
import { project, SALIENCE_WINDOW, SCALE_PPM } from './salience.ts';

const FC = { seed: 0xa77e, numRuns: 100 } as const;
const IDLE: UserContext = { engagement_ppm: 0n, active_modality: 'audio', surface_modality: 'visual' };
const BUSY: UserContext = { engagement_ppm: 900_000n, active_modality: 'visual', surface_modality: 'visual' };

describe('sense §4 salience projection', () => {
  it('computes the three scalars from exact counts', () => {
    const p = project([
      { source: 'shell', trust: 'FirstParty' },
      { source: 'shell', trust: 'Untrusted' },
      { source: 'file_change', trust: 'Inferred' },
    ]);
    // salience: share of the window held by the current class; novelty: 1 − its share of all traffic; uncertainty: low-trust share
    expect(p[2]).toEqual({ salience: 333_333n, novelty: 666_666n, uncertainty: 666_666n });
    expect(p[0]).toEqual({ salience: SCALE_PPM, novelty: 0n, uncertainty: 0n });
  });

  it('the window forgets: after SALIENCE_WINDOW other events a class is no longer bursting', () => {
    const evs = [{ source: 'network' as const, trust: 'Attested' as const }, ...Array.from({ length: SALIENCE_WINDOW }, () => ({ source: 'shell' as const, trust: 'Attested' as const }))];
    expect(project(evs).at(-1)!.salience).toBe(SCALE_PPM);
  });

  it('is deterministic under replay and stays in [0, 1]', () => {
    const arb = fc.array(fc.record({ source: fc.constantFrom('shell', 'network', 'file_change' as const), trust: fc.constantFrom('Attested', 'FirstParty', 'Inferred', 'Untrusted' as const) }), { maxLength: 40 });
    fc.assert(
      fc.property(arb, (evs) => {
        const a = project(evs as never);
        expect(project(evs as never)).toEqual(a);
        for (const p of a) for (const v of Object.values(p)) expect(v >= 0n && v <= SCALE_PPM).toBe(true);
      }),
      FC,
    );
  });
});

describe('sense §5 highlight detector', () => {
  it('decides against the prior baseline: a single spike after a steady baseline fires', () => {
    const steady = Array.from({ length: 8 }, () => 100_000n);
    expect(detect('salience', [...steady, 900_000n])).toEqual([{ probe: 'salience', index: 8, score: 900_000n }]);
    // had the baseline been updated first, the same spike would not clear k-sigma: the order matters
    let b = { mean: 0n, var: 0n };
    for (const x of steady) b = updateBaseline(b, x);
    expect(fires(900_000n, b, undefined)).toBe(true);
    expect(fires(900_000n, updateBaseline(b, 900_000n), undefined)).toBe(false);
  });

  it('never fires below the absolute floor', () => {
    fc.assert(
      fc.property(fc.array(fc.bigInt({ min: 0n, max: HIGHLIGHT_FLOOR_PPM - 1n }), { maxLength: 40 }), (xs) => {
        expect(detect('novelty', xs)).toEqual([]);
      }),
      FC,
    );
  });

  it('debounces: no two fires within HIGHLIGHT_DEBOUNCE readings', () => {
    fc.assert(
      fc.property(fc.array(fc.bigInt({ min: 0n, max: SCALE_PPM }), { maxLength: 60 }), (xs) => {
        const hs = detect('salience', xs);
        for (let i = 1; i < hs.length; i++) expect(hs[i]!.index - hs[i - 1]!.index).toBeGreaterThan(HIGHLIGHT_DEBOUNCE);
      }),
      FC,
    );
    expect(detect('salience', [900_000n, 0n, 0n, 0n, 1_000_000n]).map((h) => h.index)).toEqual([0, 4]);
    expect(detect('salience', [900_000n, 0n, 0n, 1_000_000n]).map((h) => h.index)).toEqual([0]);
  });

  it('fires only above the mean, and only past k sigma: a reading exactly k sigma above does not fire', () => {
    // highlight.ts's rule: x > mean and (x − mean)² > k²·var
    expect(fires(300_000n, { mean: 900_000n, var: 0n }, undefined)).toBe(false); // far below a steady mean
    const sigma = 100_000n;
    expect(fires(HIGHLIGHT_K * sigma, { mean: 0n, var: sigma * sigma }, undefined)).toBe(false);
    expect(fires(HIGHLIGHT_K * sigma + 1n, { mean: 0n, var: sigma * sigma }, undefined)).toBe(true);
  });

  it('updates the baseline by the EMA with α = 1/8, each division rounding toward zero', () => {
    // highlight.ts's rule: d = x − mean; mean += d·α; var = (1 − α)·(var + α·d²)
    const b = updateBaseline({ mean: 0n, var: 0n }, 800_000n);
    expect(b).toEqual({ mean: 100_000n, var: 70_000_000_000n }); // 7/8 · 800 000²/8
    expect(updateBaseline(b, 100_000n)).toEqual({ mean: 100_000n, var: 61_250_000_000n }); // d = 0: var · 7/8
    expect(updateBaseline({ mean: 10n, var: 0n }, 3n)).toEqual({ mean: 10n, var: 5n }); // −7/8 → 0; 7·49/64 → 5
  });

  it('a detector reports the baseline after each reading, starting from mean 0, variance 0', () => {
    const d = createDetector('novelty');
    expect(d.baseline()).toEqual({ mean: 0n, var: 0n });
    d.feed(800_000n);
    expect(d.baseline()).toEqual(updateBaseline({ mean: 0n, var: 0n }, 800_000n));
  });

  it('refuses an unknown probe, a score outside [0, 1] or a stream that is not an array, naming what was wrong', () => {
    const cases: [() => unknown, RegExp, string | undefined][] = [
      [() => createDetector('anger' as never), /probe must be one of salience, novelty, uncertainty/, 'probe'],
      [() => createDetector('salience').feed(1_000_001n), /score must be an unsigned integer/, 'score'],
      [() => createDetector('salience').feed(-1n), /score must be an unsigned integer/, 'score'],
      [() => detect('salience', 'not an array' as never), /scores must be an array/, undefined],
    ];
    for (const [fn, message, what] of cases) {
      const e = thrown(fn);
      expect(e.code).toBe('ERR_SENSE_SIGNAL_MALFORMED');
      expect(e.message).toMatch(message);
      expect(e.detail).toEqual(what === undefined ? undefined : { what });
    }
  });
});

const arbHighlight = fc.record({ probe: fc.constantFrom('salience', 'novelty', 'uncertainty' as const), index: fc.nat(100), score: fc.bigInt({ min: 0n, max: SCALE_PPM }) });
const arbUser = fc.record({
  engagement_ppm: fc.bigInt({ min: 0n, max: SCALE_PPM }),
  active_modality: fc.constantFrom('visual', 'audio'),
  surface_modality: fc.constantFrom('visual', 'audio'),
});

describe('sense §5 attention gate', () => {
  it('value discounts uncertainty; cost is displacement plus interference', () => {
    expect(highlightValue({ probe: 'uncertainty', score: 800_000n })).toBe(400_000n);
    expect(highlightValue({ probe: 'novelty', score: 800_000n })).toBe(800_000n);
    expect(interruptionCost(IDLE)).toBe(0n);
    expect(interruptionCost(BUSY)).toBe(450_000n + INTERFERENCE_PPM);
  });

  it('the value test comes first: not worth it is hold:value whether or not the budget could pay', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: 0n, max: SCALE_PPM }), fc.bigInt({ min: 0n, max: SCALE_PPM }), fc.bigInt({ min: 0n, max: 1000n }), fc.bigInt({ min: 0n, max: 1000n }), (value, cost, budget, price) => {
        const o = decideOutcome(value, cost, budget, price);
        if (value <= cost + SURFACE_MARGIN_PPM) expect(o).toBe('hold:value');
        else expect(o).toBe(budget >= price ? 'surface' : 'hold:budget');
      }),
      FC,
    );
    expect(decideOutcome(SURFACE_MARGIN_PPM, 0n, 0n, 10n)).toBe('hold:value');
    expect(decideOutcome(SURFACE_MARGIN_PPM + 1n, 0n, 0n, 10n)).toBe('hold:budget');
    expect(decideOutcome(SURFACE_MARGIN_PPM + 1n, 0n, 10n, 10n)).toBe('surface');
  });

  it('surfacing debits the price; a hold spends nothing; the budget never goes below zero', () => {
    fc.assert(
      fc.property(fc.array(arbHighlight, { maxLength: 20 }), arbUser, fc.bigInt({ min: 0n, max: 500n }), fc.bigInt({ min: 0n, max: 100n }), (hs, user, budget, price) => {
        const ds = gateAll(hs as Highlight[], user, budget, price);
        let b = budget;
        for (const d of ds) {
          expect(d.charged_uj).toBe(d.outcome === 'surface' ? price : 0n);
          b -= d.charged_uj;
          expect(d.budget_uj).toBe(b);
          expect(b >= 0n).toBe(true);
        }
        // deterministic in its inputs
        expect(gateAll(hs as Highlight[], user, budget, price)).toEqual(ds);
      }),
      FC,
    );
  });

  it('a busy user on a small budget sees all three outcomes', () => {
    const g = createAttentionGate(BUSY, 100n, 60n);
    const h = (probe: Highlight['probe'], score: bigint): Highlight => ({ probe, index: 0, score });
    expect(g.gate(h('salience', 1_000_000n)).outcome).toBe('surface');
    expect(g.gate(h('uncertainty', 1_000_000n)).outcome).toBe('hold:value');
    expect(g.gate(h('novelty', 1_000_000n)).outcome).toBe('hold:budget');
    expect(g.budget_uj()).toBe(40n);
  });

  it('refuses a malformed context, budget, price or highlight, naming the field', () => {
    const cases: [string, () => unknown][] = [
      ['engagement_ppm', () => createAttentionGate({ ...IDLE, engagement_ppm: 2_000_000n }, 1n, 1n)],
      ['active_modality', () => createAttentionGate({ ...IDLE, active_modality: 3 as never }, 1n, 1n)],
      ['surface_modality', () => createAttentionGate({ ...IDLE, surface_modality: undefined as never }, 1n, 1n)],
      ['budget_uj', () => createAttentionGate(IDLE, -1n, 1n)],
      ['price_uj', () => createAttentionGate(IDLE, 1n, 0.5 as never)],
      ['highlight.probe', () => createAttentionGate(IDLE, 1n, 1n).gate({ probe: 'x' as never, index: 0, score: 1n })],
      ['highlight.score', () => createAttentionGate(IDLE, 1n, 1n).gate({ probe: 'novelty', index: 0, score: 1_000_001n })],
    ];
    for (const [what, fn] of cases) {
      const e = thrown(fn);
      expect([e.code, e.detail], what).toEqual(['ERR_SENSE_SIGNAL_MALFORMED', { what }]);
      expect(e.message, what).toContain(`${what} must be`);
    }
  });

  it('refuses a user context that is not an object', () => {
    for (const user of [null, undefined, 7, 'visual']) {
      const e = thrown(() => createAttentionGate(user as never, 1n, 1n));
      expect(e.code, String(user)).toBe('ERR_SENSE_SIGNAL_MALFORMED');
      expect(e.message, String(user)).toMatch(/user context must be an object/);
    }
  });
});
