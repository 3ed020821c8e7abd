// Unit tests of impl/energy/ladder.ts (jcp §5.1 the metering ladder).
import { describe, expect, it } from 'vitest';
import { thrown } from '../_test-support.ts';
import { meterSpan, walkLadder, type CounterResult } from './ladder.ts';
import type { LivenessVerdict } from './liveness.ts';

const LIVE: LivenessVerdict = { live: true, counted: 20, advanced: 20, too_long: 0, counted_ns: 500_000_000n, worst_window: 5 };
const FROZEN: LivenessVerdict = { live: false, reason: 'frozen', counted: 20, advanced: 0, too_long: 0, counted_ns: 500_000_000n, worst_window: 0 };
const models = { estimated_uj: 900n };

describe('walkLadder', () => {
  it('chooses a live, advancing, unrefuted RAPL figure: HwShunt, Whole', () => {
    const c = walkLadder([{ rung: 'rapl', status: 'read', delta_uj: 500n, liveness: LIVE }], models);
    expect(c.rung).toBe('rapl');
    expect(c.energy).toEqual({ measured_uj: 500n, estimated_uj: 900n, provenance: 'HwShunt', coverage: 'Whole' });
    expect(c.declined).toEqual([]);
  });
  it('falls past a frozen RAPL to NVML, which is Partial, recording why', () => {
    const c = walkLadder(
      [
        { rung: 'rapl', status: 'read', delta_uj: 0n, liveness: FROZEN },
        { rung: 'nvml', status: 'read', delta_uj: 300n, liveness: LIVE, plausibility: { verdict: 'not-refuted', rate_mw: 1n, discarded: 0 } },
      ],
      models,
    );
    expect(c.rung).toBe('nvml');
    expect(c.energy).toMatchObject({ provenance: 'HwShunt', coverage: 'Partial', measured_uj: 300n });
    expect(c.declined).toEqual([{ rung: 'rapl', reason: 'not-live', detail: 'frozen', liveness: FROZEN }]);
  });
  it('declines an implausible counter with its rate and bound, an unjudged one as unjudgeable, not implausible', () => {
    const over = { verdict: 'counter-over-rate', rate_mw: 59_200n, bound: 'draw', bound_mw: 39_600n, discarded: 0 } as const;
    const ind = { verdict: 'indeterminate', rate_mw: 1n, reason: 'no-usable-draw', discarded: 3 } as const;
    const a = walkLadder([{ rung: 'nvml', status: 'read', delta_uj: 1n, liveness: LIVE, plausibility: over }], models);
    expect(a.declined.find((d) => d.rung === 'nvml')).toMatchObject({ reason: 'implausible', plausibility: over });
    const b = walkLadder([{ rung: 'nvml', status: 'read', delta_uj: 1n, liveness: LIVE, plausibility: ind }], models);
    expect(b.declined.find((d) => d.rung === 'nvml')).toMatchObject({ reason: 'unjudgeable', plausibility: ind });
    expect(b.energy.provenance).toBe('Estimator');
  });
  it('a backend failing mid-reading degrades to the model, graded by how it was obtained', () => {
    const r: CounterResult[] = [{ rung: 'rapl', status: 'failed', at: 'stop', error: 'EACCES' }];
    const est = walkLadder(r, models);
    expect(est.rung).toBe('estimate');
    expect(est.energy).toEqual({ estimated_uj: 900n, provenance: 'Estimator', coverage: 'Whole' });
    expect(est.declined[0]).toEqual({ rung: 'rapl', reason: 'failed-mid-reading', detail: 'stop: EACCES' });
    expect(est.declined.map((d) => d.rung)).toEqual(['rapl', 'nvml', 'proc-self', 'proc-tree', 'ioreport', 'calibrated-power']);
    expect(est.declined.at(-1)).toEqual({ rung: 'calibrated-power', reason: 'no-calibration' });
    const cal = walkLadder(r, { calibrated_uj: 700n, estimated_uj: 900n });
    expect(cal.rung).toBe('calibrated-power');
    expect(cal.energy).toEqual({ estimated_uj: 700n, provenance: 'ModelBased', coverage: 'Whole' });
  });
  it('a span over which the counter did not advance is metered lower; gaps make a counter figure Partial', () => {
    const c = walkLadder(
      [
        { rung: 'rapl', status: 'read', delta_uj: 0n, liveness: LIVE },
        { rung: 'proc-self', status: 'read', delta_uj: 40n, liveness: LIVE, gaps: ['reaped-child'] },
      ],
      models,
    );
    expect(c.declined[0]).toMatchObject({ rung: 'rapl', reason: 'did-not-advance' });
    expect(c.rung).toBe('proc-self');
    expect(c.energy.coverage).toBe('Partial');
  });
  it('refuses an unknown or repeated rung and a bad estimate, naming what was wrong', () => {
    const cases: Array<[() => unknown, string]> = [
      [() => walkLadder([{ rung: 'smc', status: 'absent' } as never], models), 'unknown counter rung smc'],
      [() => walkLadder([null as never], models), 'unknown counter rung undefined'],
      [() => walkLadder([{ rung: 'nvml', status: 'absent' }, { rung: 'nvml', status: 'absent' }], models), 'rung nvml reported twice'],
      [() => walkLadder([], { estimated_uj: -1n }), 'estimated_uj must be a non-negative bigint'],
      [() => walkLadder([], { estimated_uj: 900 as never }), 'estimated_uj must be a non-negative bigint'],
    ];
    for (const [f, message] of cases) {
      const e = thrown(f);
      expect(e.code).toBe('ERR_ENERGY_MALFORMED');
      expect(e.message).toContain(message);
    }
  });
  it('declines a summed domain with a counter not live, though the verdict it carries is live', () => {
    // jcp §5: "every one of them MUST be observed live: a frozen one beside live ones would be left out"
    const c = walkLadder([{ rung: 'rapl', status: 'read', delta_uj: 500n, liveness: LIVE, not_live: ['package-1'] }], models);
    expect(c.rung).toBe('estimate');
    expect(c.declined[0]).toEqual({ rung: 'rapl', reason: 'not-live', liveness: LIVE, not_live: ['package-1'] });
  });
  it('never grades a result that is not a reading: an unknown status counts as absent', () => {
    // jcp §5: HwShunt is "a hardware reading"
    const c = walkLadder([{ rung: 'rapl', status: 'stale', delta_uj: 500n, liveness: LIVE } as never], models);
    expect(c.rung).toBe('estimate');
    expect(c.declined[0]).toEqual({ rung: 'rapl', reason: 'absent' });
  });
});

describe('meterSpan (from raw samples)', () => {
  const MS = 1_000_000n;
  const samples = (uj_per_tick: bigint) => Array.from({ length: 21 }, (_, i) => ({ t_ns: BigInt(i) * 25n * MS, value: BigInt(i) * uj_per_tick }));
  it('sums only RAPL packages, declines the rung when one package is frozen, naming it', () => {
    const ok = meterSpan(
      [{ rung: 'rapl', status: 'read', counters: [{ zone: 'intel-rapl:0', name: 'package-0', samples: samples(100n) }, { zone: 'intel-rapl:1', name: 'psys', samples: samples(900n) }] }],
      models,
    );
    expect(ok.energy).toEqual({ measured_uj: 2000n, estimated_uj: 900n, provenance: 'HwShunt', coverage: 'Whole' });
    const bad = meterSpan(
      [{ rung: 'rapl', status: 'read', counters: [{ zone: 'intel-rapl:0', name: 'package-0', samples: samples(100n) }, { zone: 'intel-rapl:1', name: 'package-1', samples: samples(0n) }] }],
      models,
    );
    expect(bad.rung).toBe('estimate');
    // the domain's verdict is the frozen package's, not the first package's
    expect(bad.declined[0]).toMatchObject({ rung: 'rapl', reason: 'not-live', detail: 'frozen', liveness: { live: false, reason: 'frozen' }, not_live: ['package-1'] });
  });
  it('judges plausibility where telemetry is given, and treats a RAPL with no package zone as absent', () => {
    // 100 000 µJ per 25 ms is 4 W, on a board drawing 60 W: under (60 − 5) / 4 = 13.75 W
    const c = meterSpan([{ rung: 'nvml', status: 'read', counters: [{ zone: 'gpu0', name: 'gpu0', samples: samples(100_000n) }], telemetry: { draw_mw: [60_000n], limit_mw: 65_000n } }], models);
    expect(c.declined[1]).toMatchObject({ rung: 'nvml', reason: 'implausible', plausibility: { verdict: 'counter-under-rate', rate_mw: 4_000n } });
    const none = meterSpan([{ rung: 'rapl', status: 'read', counters: [{ zone: 'intel-rapl:1', name: 'psys', samples: samples(1n) }] }], models);
    expect(none.declined[0]).toEqual({ rung: 'rapl', reason: 'absent' });
  });
  it('times the span from the earliest to the latest sample of any counter of the rung', () => {
    // gpu0 runs 100–600 ms, gpu1 0–500 ms: 4 000 000 µJ over 600 ms is 6 666 mW, under the 60 W board's 13.75 W floor
    const late = samples(100_000n).map((x) => ({ ...x, t_ns: x.t_ns + 100n * MS }));
    const counters = [{ zone: 'gpu0', name: 'gpu0', samples: late }, { zone: 'gpu1', name: 'gpu1', samples: samples(100_000n) }];
    const c = meterSpan([{ rung: 'nvml', status: 'read', counters, telemetry: { draw_mw: [60_000n] } }], models);
    expect(c.declined[1]).toMatchObject({ rung: 'nvml', reason: 'implausible', plausibility: { verdict: 'counter-under-rate', rate_mw: 6_666n } });
  });
  it('judges no rate over a span of no length', () => {
    const c = meterSpan([{ rung: 'nvml', status: 'read', counters: [{ zone: 'gpu0', name: 'gpu0', samples: [{ t_ns: 0n, value: 5n }] }], telemetry: { draw_mw: [60_000n] } }], models);
    expect(c.declined[1]).toMatchObject({ rung: 'nvml', reason: 'not-live', detail: 'no-counted-intervals' });
    expect(c.declined[1]).not.toHaveProperty('plausibility');
  });
  it('a counter that went backwards with no wrap range fails the rung, though another counter of it advanced', () => {
    const back = [{ t_ns: 0n, value: 500n }, { t_ns: 25n * MS, value: 100n }];
    const counters = [{ zone: 'gpu0', name: 'gpu0', samples: samples(100n) }, { zone: 'gpu1', name: 'gpu1', samples: back }];
    const c = meterSpan([{ rung: 'nvml', status: 'read', counters }], models);
    expect(c.declined[1]).toEqual({ rung: 'nvml', reason: 'failed-mid-reading', detail: 'stop: no counter of the domain gave a wrap-correctable advance' });
  });
  it("carries the backend's gaps into the figure: Partial", () => {
    // jcp §5.1: a reaped child is a gap of the per-process count
    const c = meterSpan([{ rung: 'proc-self', status: 'read', counters: [{ zone: 'self', name: 'self', samples: samples(100n) }], gaps: ['reaped-child'] }], models);
    expect(c.rung).toBe('proc-self');
    expect(c.energy).toEqual({ measured_uj: 2000n, estimated_uj: 900n, provenance: 'HwShunt', coverage: 'Partial' });
  });
});
