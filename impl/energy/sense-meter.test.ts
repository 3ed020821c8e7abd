// Unit tests of impl/energy/sense-meter.ts: sense §7's figure from vendor counters over claimed domains.
import { describe, expect, it } from 'vitest';
import { codeOf } from '../_test-support.ts';
import { meterSenseFigure } from './sense-meter.ts';

const MS = 1_000_000n;
const probe = (n: number, len: bigint, adv: (i: number) => boolean) => {
  const out = [{ t_ns: 0n, value: 0n }];
  for (let i = 0; i < n; i++) out.push({ t_ns: out[i]!.t_ns + len, value: out[i]!.value + (adv(i) ? 10n : 0n) });
  return out;
};
const LIVE = probe(40, 25n * MS, () => true);
const FROZEN = probe(40, 25n * MS, () => false);

describe('meterSenseFigure', () => {
  it('a live counter of the claimed domain: HwShunt, Whole, the pair', () => {
    expect(meterSenseFigure(['cpu'], [{ domain: 'cpu', samples: LIVE, delta_uj: 500n }], 700n).energy).toEqual({ measured_uj: 500n, estimated_uj: 700n, provenance: 'HwShunt', coverage: 'Whole' });
  });
  it('a frozen counter, or a live one of another domain: the estimator, no measurement, and why', () => {
    for (const cs of [[{ domain: 'cpu', samples: FROZEN, delta_uj: 0n }], [{ domain: 'gpu', samples: LIVE, delta_uj: 9n }]]) {
      const f = meterSenseFigure(['cpu'], cs, 700n);
      expect(f.energy).toEqual({ estimated_uj: 700n, provenance: 'Estimator', coverage: 'Whole' });
      expect(f.why.length).toBeGreaterThan(0);
    }
  });
  it('intervals over 75 ms count as nothing', () => {
    expect(meterSenseFigure(['cpu'], [{ domain: 'cpu', samples: probe(12, 76n * MS, () => true), delta_uj: 120n }], 1n).energy.provenance).toBe('Estimator');
  });
  it('a claimed domain no live counter reads makes the hardware figure Partial', () => {
    const f = meterSenseFigure(['cpu', 'gpu'], [{ domain: 'cpu', samples: LIVE, delta_uj: 500n }], 700n);
    expect(f.energy).toMatchObject({ provenance: 'HwShunt', coverage: 'Partial', measured_uj: 500n });
    expect(f.why).toEqual(['no live counter covers gpu']);
  });
  it('refuses malformed input with ERR_ENERGY_MALFORMED', () => {
    expect(codeOf(() => meterSenseFigure([], [], 1n))).toBe('ERR_ENERGY_MALFORMED');
    expect(codeOf(() => meterSenseFigure(['cpu', 'cpu'], [], 1n))).toBe('ERR_ENERGY_MALFORMED');
    expect(codeOf(() => meterSenseFigure(['cpu'], [{ domain: 'cpu', samples: LIVE, delta_uj: -1n }], 1n))).toBe('ERR_ENERGY_MALFORMED');
  });
});
