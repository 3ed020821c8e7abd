// Unit tests of impl/energy/liveness.ts (jcp §5 Liveness, sense §7 interval rule, jcp §5.1 RAPL zones).
import { describe, expect, it } from 'vitest';
import { codeOf, thrown } from '../_test-support.ts';
import {
  isTopLevelZone,
  judgeDomainLiveness,
  judgeLiveness,
  LIVENESS_MAX_INTERVAL_NS,
  LIVENESS_MIN_COUNTED_NS,
  selectRaplPackages,
  seriesDelta,
  sumRaplPackages,
  wrapDelta,
  type CounterSample,
} from './liveness.ts';

const MS = 1_000_000n;

/** Samples at the given interval lengths (ms); the counter advances by `step` µJ across interval i when adv(i). */
function byIntervals(lengths_ms: readonly number[], adv: (i: number) => boolean, step = 1000n): CounterSample[] {
  const out: CounterSample[] = [{ t_ns: 0n, value: 0n }];
  let t = 0n;
  let v = 0n;
  lengths_ms.forEach((l, i) => {
    t += BigInt(l) * MS;
    if (adv(i)) v += step;
    out.push({ t_ns: t, value: v });
  });
  return out;
}
const rep = (n: number, x: number): number[] => Array.from({ length: n }, () => x);

describe('constants', () => {
  it('take the spec values: 75 ms cap (three 25 ms ticks), 300 ms of counted time', () => {
    expect(LIVENESS_MAX_INTERVAL_NS).toBe(75n * MS);
    expect(LIVENESS_MIN_COUNTED_NS).toBe(300n * MS);
  });
});

describe('judgeLiveness', () => {
  it('a counter advancing every 25 ms tick for 500 ms is live', () => {
    const v = judgeLiveness(byIntervals(rep(20, 25), () => true));
    expect(v).toMatchObject({ live: true, counted: 20, advanced: 20, too_long: 0, counted_ns: 500n * MS, worst_window: 5 });
    expect(v.reason).toBeUndefined();
  });
  it('a frozen counter is not live, reason frozen', () => {
    expect(judgeLiveness(byIntervals(rep(20, 25), () => false))).toMatchObject({ live: false, reason: 'frozen', advanced: 0 });
  });
  it('an interval of exactly 75 ms counts; one of 76 ms counts as nothing', () => {
    expect(judgeLiveness(byIntervals(rep(8, 75), () => true))).toMatchObject({ live: true, counted: 8, counted_ns: 600n * MS });
    expect(judgeLiveness(byIntervals(rep(8, 76), () => true))).toMatchObject({ live: false, reason: 'no-counted-intervals', counted: 0, too_long: 8, counted_ns: 0n });
  });
  it('a long interval is not an advance, nor counted time: lumps seen only across stretched intervals are frozen', () => {
    // load stretches every other interval to 100 ms; the rail is republished only across those
    const lengths = Array.from({ length: 24 }, (_, i) => (i % 2 === 0 ? 25 : 100));
    const v = judgeLiveness(byIntervals(lengths, (i) => i % 2 === 1));
    expect(v).toMatchObject({ live: false, reason: 'frozen', counted: 12, too_long: 12, counted_ns: 300n * MS, advanced: 0 });
  });
  it('300 ms of counted time is enough; 275 ms is not', () => {
    expect(judgeLiveness(byIntervals(rep(12, 25), () => true)).live).toBe(true);
    expect(judgeLiveness(byIntervals(rep(11, 25), () => true))).toMatchObject({ live: false, reason: 'too-little-counted-time', counted_ns: 275n * MS });
  });
  it('five advances are needed; four over 300 ms are not enough', () => {
    expect(judgeLiveness(byIntervals(rep(4, 75), () => true))).toMatchObject({ live: false, reason: 'too-few-advances', advanced: 4 });
    expect(judgeLiveness(byIntervals(rep(5, 75), () => true))).toMatchObject({ live: true, advanced: 5 });
  });
  it('exactly 5 counted intervals make one window, judged 4 of 5', () => {
    expect(judgeLiveness(byIntervals(rep(5, 75), () => true)).worst_window).toBe(5);
    // jcp §5: "in at least 4 of every 5" — two stalls in the one window
    expect(judgeLiveness(byIntervals(rep(5, 75), (i) => i < 3))).toMatchObject({ live: false, reason: 'republished-in-lumps', worst_window: 3 });
  });
  it('fewer than 5 counted intervals make no window, and report no worst_window', () => {
    expect(Object.keys(judgeLiveness(byIntervals(rep(4, 75), () => true)))).not.toContain('worst_window');
  });
  it('4 of every 5: one stall per 5 is live, two in one window is not', () => {
    expect(judgeLiveness(byIntervals(rep(20, 25), (i) => i % 5 !== 4))).toMatchObject({ live: true, worst_window: 4 });
    // 17 of 20 advance (85 % overall) but intervals 8 and 9 stall together
    const v = judgeLiveness(byIntervals(rep(20, 25), (i) => i !== 8 && i !== 9 && i !== 15));
    expect(v).toMatchObject({ live: false, reason: 'republished-in-lumps', worst_window: 3, advanced: 17 });
  });
  it('republished every 100 ms at a 25 ms tick is not live', () => {
    expect(judgeLiveness(byIntervals(rep(40, 25), (i) => i % 4 === 3))).toMatchObject({ live: false, reason: 'republished-in-lumps', advanced: 10 });
  });
  it('a wrap at max_energy_range_uj is an advance; a drop with no range is not', () => {
    const max = 10_000n;
    const s: CounterSample[] = Array.from({ length: 21 }, (_, i) => ({ t_ns: BigInt(i) * 25n * MS, value: (9_000n + BigInt(i) * 300n) % max }));
    expect(judgeLiveness(s, max)).toMatchObject({ live: true, advanced: 20 });
    expect(judgeLiveness(s).advanced).toBeLessThan(20);
  });
  it('refuses malformed samples', () => {
    expect(codeOf(() => judgeLiveness([{ t_ns: 5n, value: 0n }, { t_ns: 5n, value: 1n }]))).toBe('ERR_ENERGY_MALFORMED');
    expect(codeOf(() => judgeLiveness([{ t_ns: 5n, value: -1n }]))).toBe('ERR_ENERGY_MALFORMED');
    expect(codeOf(() => judgeLiveness([{ t_ns: 5, value: 1n } as never]))).toBe('ERR_ENERGY_MALFORMED');
    expect(codeOf(() => judgeLiveness([{ t_ns: 0n, value: 11n }], 10n))).toBe('ERR_ENERGY_MALFORMED');
    expect(codeOf(() => judgeLiveness('x' as never))).toBe('ERR_ENERGY_MALFORMED');
  });
  it('names what is malformed: not an array, a bad sample, one not later than its predecessor', () => {
    expect(thrown(() => judgeLiveness('x' as never)).message).toContain('samples must be an array');
    for (const bad of [null, { t_ns: -1n, value: 0n }, { t_ns: 0n, value: 1 }, { t_ns: 0n, value: -1n }]) {
      const e = thrown(() => judgeLiveness([{ t_ns: 0n, value: 0n }, bad as never]));
      expect(e.code).toBe('ERR_ENERGY_MALFORMED');
      expect(e.message).toContain('samples[1] must carry non-negative bigint t_ns and value');
    }
    const late = thrown(() => judgeLiveness([{ t_ns: 0n, value: 0n }, { t_ns: 1n, value: 0n }, { t_ns: 1n, value: 0n }]));
    expect(late.message).toContain('samples[2] is not later than samples[1]');
    expect(thrown(() => judgeLiveness([{ t_ns: 0n, value: 11n }], 10n)).message).toContain('samples[0].value 11 exceeds max_energy_range_uj 10');
  });
  it('refuses a max_energy_range_uj that is negative or not a bigint, even with no samples', () => {
    for (const max of [-1n, 10 as unknown as bigint]) {
      const e = thrown(() => judgeLiveness([], max));
      expect(e.code).toBe('ERR_ENERGY_MALFORMED');
      expect(e.message).toContain('max_energy_range_uj must be a non-negative bigint');
    }
  });
  it('a zero max_energy_range_uj is no known range: any value in range, a drop no advance', () => {
    const v = judgeLiveness([{ t_ns: 0n, value: 500n }, { t_ns: 25n * MS, value: 10n }], 0n);
    expect(v).toMatchObject({ live: false, reason: 'frozen', counted: 1, advanced: 0 });
  });
  it('a value equal to max_energy_range_uj is in range', () => {
    expect(judgeLiveness([{ t_ns: 0n, value: 9n }, { t_ns: 25n * MS, value: 10n }], 10n)).toMatchObject({ counted: 1, advanced: 1 });
  });
});

describe('wrapDelta', () => {
  it('corrects one wrap at the range, refuses a drop without one', () => {
    expect(wrapDelta(100n, 250n, 1000n)).toBe(150n);
    expect(wrapDelta(900n, 50n, 1000n)).toBe(150n);
    expect(wrapDelta(900n, 50n)).toBeUndefined();
    expect(wrapDelta(900n, 50n, 0n)).toBeUndefined();
  });
});

describe('domain liveness', () => {
  const live = byIntervals(rep(20, 25), () => true);
  const frozen = byIntervals(rep(20, 25), () => false);
  it('is live only when every counter is', () => {
    expect(judgeDomainLiveness([{ name: 'package-0', samples: live }, { name: 'package-1', samples: live }]).live).toBe(true);
    const v = judgeDomainLiveness([{ name: 'package-0', samples: live }, { name: 'package-1', samples: frozen }]);
    expect(v.live).toBe(false);
    expect(v.not_live).toEqual(['package-1']);
    expect(v.counters[1]!.verdict.reason).toBe('frozen');
    expect(judgeDomainLiveness([]).live).toBe(false);
  });
  it('keeps each counter\'s name beside its verdict', () => {
    const v = judgeDomainLiveness([{ name: 'package-0', samples: frozen }]);
    expect(v.counters).toEqual([{ name: 'package-0', verdict: judgeLiveness(frozen) }]);
    expect(v.not_live).toEqual(['package-0']);
  });
});

describe('RAPL zones', () => {
  const zones = [
    { zone: 'intel-rapl:0', name: 'package-0' },
    { zone: 'intel-rapl:0:0', name: 'core' },
    { zone: 'intel-rapl:0:1', name: 'dram' },
    { zone: 'intel-rapl:1', name: 'psys' },
    { zone: 'intel-rapl:2', name: 'package-1' },
    { zone: 'intel-rapl-mmio:0', name: 'package-0' },
    { zone: 'intel-rapl:3', name: 'dram' },
  ];
  it('sums only top-level package-<n> zones; psys, dram, subzones and duplicates excluded with why', () => {
    const { packages, excluded } = selectRaplPackages(zones);
    expect(packages.map((p) => p.zone)).toEqual(['intel-rapl:0', 'intel-rapl:2']);
    expect(excluded.map((e) => `${e.zone}:${e.reason}`)).toEqual([
      'intel-rapl:0:0:subzone',
      'intel-rapl:0:1:dram',
      'intel-rapl:1:psys',
      'intel-rapl-mmio:0:duplicate-package',
      'intel-rapl:3:dram',
    ]);
  });
  it('a top-level zone is <control-type>:<n> as a whole directory name, any number of digits', () => {
    expect(isTopLevelZone('intel-rapl:0')).toBe(true);
    expect(isTopLevelZone('intel-rapl:12')).toBe(true);
    expect(isTopLevelZone('intel-rapl:0:1')).toBe(false);
    expect(isTopLevelZone('powercap/intel-rapl:0')).toBe(false);
  });
  it('sums package-<n> for any n, and excludes every other top-level name as not-a-package', () => {
    // jcp §5.1: the package counters are the top-level zones whose name is "package-<n>"
    const { packages, excluded } = selectRaplPackages([
      { zone: 'intel-rapl:0', name: 'package-10' },
      { zone: 'intel-rapl:1', name: 'uncore' },
      { zone: 'intel-rapl:2', name: 'sub-package-1' },
      { zone: 'intel-rapl:3', name: 'package-0-die-1' },
    ]);
    expect(packages.map((p) => p.name)).toEqual(['package-10']);
    expect(excluded).toEqual([
      { zone: 'intel-rapl:1', name: 'uncore', reason: 'not-a-package' },
      { zone: 'intel-rapl:2', name: 'sub-package-1', reason: 'not-a-package' },
      { zone: 'intel-rapl:3', name: 'package-0-die-1', reason: 'not-a-package' },
    ]);
  });
  it('wrap-corrects each package at its own range and judges every package live', () => {
    const s0 = Array.from({ length: 21 }, (_, i) => ({ t_ns: BigInt(i) * 25n * MS, value: (900n + BigInt(i) * 50n) % 1000n }));
    const s1 = Array.from({ length: 21 }, (_, i) => ({ t_ns: BigInt(i) * 25n * MS, value: (90_000n + BigInt(i) * 700n) % 100_000n }));
    const psys = Array.from({ length: 21 }, (_, i) => ({ t_ns: BigInt(i) * 25n * MS, value: BigInt(i) * 5000n }));
    const f = sumRaplPackages([
      { zone: 'intel-rapl:0', name: 'package-0', max_energy_range_uj: 1000n, samples: s0 },
      { zone: 'intel-rapl:1', name: 'psys', max_energy_range_uj: 1_000_000n, samples: psys },
      { zone: 'intel-rapl:2', name: 'package-1', max_energy_range_uj: 100_000n, samples: s1 },
    ]);
    expect(f.per_package.map((p) => p.delta_uj)).toEqual([1000n, 14_000n]);
    expect(f.total_uj).toBe(15_000n);
    expect(f.liveness.live).toBe(true);
    expect(f.advanced).toBe(true);
  });
  it('gives no total when a package drops with no usable range, and a frozen package makes the domain not live', () => {
    const drop = [{ t_ns: 0n, value: 500n }, { t_ns: 25n * MS, value: 10n }];
    expect(seriesDelta(drop)).toBeUndefined();
    const f = sumRaplPackages([{ zone: 'intel-rapl:0', name: 'package-0', samples: drop }]);
    expect(f.total_uj).toBeUndefined();
    expect(f.liveness.live).toBe(false);
  });
  it('a package with no reading carries no delta_uj, and one such package withholds the total', () => {
    const drop = [{ t_ns: 0n, value: 500n }, { t_ns: 25n * MS, value: 10n }];
    const f = sumRaplPackages([
      { zone: 'intel-rapl:0', name: 'package-0', samples: byIntervals([25], () => true) },
      { zone: 'intel-rapl:1', name: 'package-1', samples: drop },
    ]);
    expect(f.per_package).toEqual([{ zone: 'intel-rapl:0', name: 'package-0', delta_uj: 1000n }, { zone: 'intel-rapl:1', name: 'package-1' }]);
    expect(Object.keys(f.per_package[1]!)).not.toContain('delta_uj');
    expect(Object.keys(f)).not.toContain('total_uj');
  });
  it('no package zone: no total, nothing advanced, not live', () => {
    const f = sumRaplPackages([{ zone: 'intel-rapl:1', name: 'psys', samples: byIntervals(rep(20, 25), () => true) }]);
    expect(Object.keys(f)).not.toContain('total_uj');
    expect(f.advanced).toBe(false);
    expect(f.liveness.live).toBe(false);
  });
  it('advanced when any package advanced, not when every package is frozen', () => {
    // jcp §5.1: "A span over which no package counter advanced is metered by a lower rung."
    const one = sumRaplPackages([
      { zone: 'intel-rapl:0', name: 'package-0', samples: byIntervals([25], () => false) },
      { zone: 'intel-rapl:1', name: 'package-1', samples: byIntervals([25], () => true) },
    ]);
    expect(one.advanced).toBe(true);
    const none = sumRaplPackages([{ zone: 'intel-rapl:0', name: 'package-0', samples: byIntervals([25, 25], () => false) }]);
    expect(none).toMatchObject({ total_uj: 0n, advanced: false });
  });
});
