// Unit tests of impl/energy/sense-meter.ts: sense §7's figure from vendor counters over claimed domains.
import { describe, expect, it } from 'vitest';
import { codeOf, thrown } from '../_test-support.ts';
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
  it('records each claimed counter not live, then each claimed domain no live counter covers', () => {
    // sense §7: "SHOULD record why"; a counter of an unclaimed domain is ignored, live or not
    const f = meterSenseFigure(['cpu'], [{ domain: 'cpu', samples: FROZEN, delta_uj: 0n }, { domain: 'gpu', samples: FROZEN, delta_uj: 0n }], 700n);
    expect(f.why).toEqual(['the cpu counter is not live (frozen)', 'no live counter covers cpu']);
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
  it('refuses domains that are not all non-empty names, or a domain claimed twice', () => {
    for (const domains of [['cpu', ''], ['cpu', 5], ['cpu', ['gpu']]]) {
      const e = thrown(() => meterSenseFigure(domains as never, [], 1n));
      expect(e.code).toBe('ERR_ENERGY_MALFORMED');
      expect(e.message).toContain('domains must be a non-empty array of domain names');
    }
    expect(thrown(() => meterSenseFigure(['cpu', 'cpu'], [], 1n)).message).toContain('a domain is claimed twice');
  });
  it('refuses counters that are not an array', () => {
    const e = thrown(() => meterSenseFigure(['cpu'], null as never, 1n));
    expect(e.code).toBe('ERR_ENERGY_MALFORMED');
    expect(e.message).toContain('counters must be an array');
  });
  it('refuses a counter naming no domain, or with a bad delta_uj, even of an unclaimed domain', () => {
    const ok = { domain: 'gpu', samples: FROZEN, delta_uj: 0n };
    for (const bad of [null, { ...ok, domain: '' }, { ...ok, domain: 5 }]) {
      const e = thrown(() => meterSenseFigure(['cpu'], [ok, bad as never], 1n));
      expect(e.code).toBe('ERR_ENERGY_MALFORMED');
      expect(e.message).toContain('counters[1].domain must name a domain');
    }
    for (const delta_uj of [-1n, 5]) {
      const e = thrown(() => meterSenseFigure(['cpu'], [ok, { ...ok, delta_uj } as never], 1n));
      expect(e.code).toBe('ERR_ENERGY_MALFORMED');
      expect(e.message).toContain('counters[1].delta_uj must be a non-negative integer of µJ');
    }
  });
  it('refuses an estimated_uj that is negative or not a bigint, before judging any counter', () => {
    for (const estimated_uj of [-1n, 5]) {
      const e = thrown(() => meterSenseFigure(['cpu'], [{ domain: 'cpu', samples: LIVE, delta_uj: 1n }], estimated_uj as never));
      expect(e.code).toBe('ERR_ENERGY_MALFORMED');
      expect(e.message).toContain('estimated_uj must be a non-negative integer of µJ');
    }
  });
});
