// Conformance: jcp §5 energy honesty (C9) — the figure's invariants, counter liveness, RAPL zone summing, two-sided
// plausibility, the metering ladder (§5.1), coverage (§5.2), and the outcome-level rules of §5.3, §5.5 and §5.6.
// Every sample series is generated here, deterministically, from a power and a clock: the expected figures are that
// power times that time, independent of the implementation under test. The board figures are the spec's own RTX 4050
// Laptop GPU (a 65 W limit, 14.8 W draw samples, a ~590 W wake spike).
import { describe, expect } from 'vitest';
import fc from 'fast-check';
import { implementation } from '../driver.ts';
import { clauseIt } from '../clause.ts';
import { assertProperty, expectCode } from '../refusal.ts';
import { fcParams } from '../external-vectors.ts';

const MS = 1_000_000n; // ns
const TICK = 25n * MS; // the probe's tick (sense §7: "its 25 ms tick")

interface Sample {
  t_ns: bigint;
  value: bigint;
}

/**
 * A counter accruing `mw` milliwatts, sampled every `tick_ns` for `ticks` intervals (ticks + 1 samples). With `lump_ns`
 * the platform republishes the count only at multiples of it; with `max` the raw value wraps at max_energy_range_uj.
 * Energy in µJ = mW × ns / 10⁶.
 */
function series(o: { mw: bigint; ticks: number; tick_ns?: bigint; lump_ns?: bigint; max?: bigint; start?: bigint }): Sample[] {
  const tick = o.tick_ns ?? TICK;
  const out: Sample[] = [];
  for (let i = 0; i <= o.ticks; i++) {
    const t = BigInt(i) * tick;
    const published = o.lump_ns ? (t / o.lump_ns) * o.lump_ns : t;
    const e = (o.start ?? 0n) + (o.mw * published) / 1_000_000n;
    out.push({ t_ns: t, value: o.max ? e % o.max : e });
  }
  return out;
}
/** The exact energy `mw` accrues over `ticks` ticks: the figure a live, whole counter must report. */
const energyOver = (mw: bigint, ticks: number, tick_ns = TICK): bigint => (mw * BigInt(ticks) * tick_ns) / 1_000_000n;

const live = (mw = 15_000n) => series({ mw, ticks: 20 });
const frozen = () => series({ mw: 0n, ticks: 20, start: 123_456n });

// the RTX 4050 Laptop GPU of jcp §5
const LIMIT_MW = 65_000n;
const SANE = Array.from({ length: 10 }, () => 14_800n);
const SPIKED = [...SANE.slice(0, 9), 590_000n];
const S10 = 10_000_000_000n; // a 10 s span
/** A counter's advance at `mw` over the 10 s span. */
const at = (mw: bigint) => mw * 10_000n;

type Plain = Readonly<Record<string, unknown>>;
const declinedOf = (r: Plain): Plain[] => r['declined'] as Plain[];
const energyOf = (r: Plain): Plain => r['energy'] as Plain;

describe('jcp §5 the figure: measured and provenance', () => {
  clauseIt(['jcp/5#hwshunt-measured-required', 'jouleclaw/1.3#reading-carries-provenance'], 'a HwShunt figure without measured_uj is refused', async () => {
    const impl = await implementation();
    const counter = { how: 'counter', live: 'live', read: 'both-ends', plausibility: 'not-refuted', covers: 'Whole' } as const;
    await expectCode(impl.energyMake({ estimated_uj: 10n, provenance: 'HwShunt', obtained: counter }), 'ERR_ENERGY_HWSHUNT_UNMEASURED');
    expect(await impl.energyMake({ measured_uj: 9n, estimated_uj: 10n, provenance: 'HwShunt', obtained: counter })).toEqual({ measured_uj: 9n, estimated_uj: 10n, provenance: 'HwShunt' });
  });

  clauseIt(['jcp/5#estimator-measured-absent'], 'an Estimator figure carrying measured_uj is refused', async () => {
    const impl = await implementation();
    await expectCode(impl.energyMake({ measured_uj: 9n, estimated_uj: 10n, provenance: 'Estimator', obtained: { how: 'uncalibrated-model' } }), 'ERR_ENERGY_ESTIMATOR_MEASURED');
    expect(await impl.energyMake({ estimated_uj: 10n, provenance: 'Estimator', obtained: { how: 'uncalibrated-model' } })).toEqual({ estimated_uj: 10n, provenance: 'Estimator' });
  });

  clauseIt(['jcp/5#modelbased-measured-may-be-absent'], 'a ModelBased figure may omit measured_uj, or carry an apportioned reading', async () => {
    const impl = await implementation();
    expect(await impl.energyMake({ estimated_uj: 10n, provenance: 'ModelBased', obtained: { how: 'host-calibrated-model' } })).toEqual({ estimated_uj: 10n, provenance: 'ModelBased' });
    expect(await impl.energyMake({ measured_uj: 4n, estimated_uj: 10n, provenance: 'ModelBased', obtained: { how: 'apportioned-reading' } })).toEqual({ measured_uj: 4n, estimated_uj: 10n, provenance: 'ModelBased' });
  });

  clauseIt(['jcp/5.1#provenance-not-overclaimed'], 'no figure claims better provenance than how it was obtained, a failed or dead reading included', async () => {
    const impl = await implementation();
    // time × a default power is graded by its power: Estimator, never ModelBased
    await expectCode(impl.energyMake({ estimated_uj: 10n, provenance: 'ModelBased', obtained: { how: 'uncalibrated-model' } }), 'ERR_ENERGY_PROVENANCE_OVERCLAIMED');
    await expectCode(impl.energyMake({ measured_uj: 1n, estimated_uj: 10n, provenance: 'HwShunt', obtained: { how: 'host-calibrated-model' } }), 'ERR_ENERGY_PROVENANCE_OVERCLAIMED');
    // a counter whose backend failed mid-reading, or that was not live, makes no hardware-graded figure
    for (const bad of [
      { how: 'counter', live: 'live', read: 'failed-mid-reading', plausibility: 'no-bound', covers: 'Whole' },
      { how: 'counter', live: 'not-live', read: 'both-ends', plausibility: 'no-bound', covers: 'Whole' },
    ] as const) {
      await expectCode(impl.energyMake({ measured_uj: 1n, estimated_uj: 10n, provenance: 'HwShunt', obtained: bad }), 'ERR_ENERGY_PROVENANCE_OVERCLAIMED');
    }
  });

  clauseIt(['jcp/5.1#provenance-not-overclaimed'], 'the ladder: a backend failing mid-reading degrades the figure, graded by how it was then obtained', async () => {
    const impl = await implementation();
    const failed = { rung: 'rapl', status: 'failed', at: 'stop', error: 'energy_uj unreadable' };
    const est = await impl.energyLadder({ rungs: [failed], estimated_uj: 5000n });
    expect(est['rung']).toBe('estimate');
    expect(energyOf(est)).toEqual({ estimated_uj: 5000n, provenance: 'Estimator' });
    expect(declinedOf(est)[0]).toMatchObject({ rung: 'rapl', reason: 'failed-mid-reading' });
    const cal = await impl.energyLadder({ rungs: [failed], calibrated_uj: 4000n, estimated_uj: 5000n });
    expect(cal['rung']).toBe('calibrated-power');
    expect(energyOf(cal)).toEqual({ estimated_uj: 4000n, provenance: 'ModelBased' });
  });

  clauseIt(['jcp/5#coverage-not-overclaimed', 'jouleclaw/1.3#no-coverage-beyond-counter'], 'a counter that reads part of the domain yields a Partial figure, never Whole', async () => {
    const impl = await implementation();
    const gpuOnly = { how: 'counter', live: 'live', read: 'both-ends', plausibility: 'no-bound', covers: 'Partial' } as const;
    await expectCode(impl.energyMake({ measured_uj: 1n, estimated_uj: 1n, provenance: 'HwShunt', obtained: gpuOnly }), 'ERR_ENERGY_COVERAGE_OVERCLAIMED');
    // the ladder grades NVML (the GPU's counter, not the CPU's share) Partial
    const r = await impl.energyLadder({ rungs: [{ rung: 'nvml', status: 'read', counters: [{ name: 'gpu0', samples: live() }] }], estimated_uj: 1n });
    expect(r['rung']).toBe('nvml');
    expect(energyOf(r)).toEqual({ measured_uj: energyOver(15_000n, 20), estimated_uj: 1n, provenance: 'HwShunt', coverage: 'Partial' });
  });
});

describe('jcp §5 liveness', () => {
  clauseIt(['jcp/5#observe-counter-advance', 'jcp/5#hw-grade-only-while-live'], 'a counter advancing at every 25 ms tick under load is live and graded HwShunt', async () => {
    const impl = await implementation();
    const v = await impl.energyLiveness([{ name: 'package-0', samples: live() }]);
    expect(v['verdict']).toBe('live');
    expect((v['counters'] as Plain[])[0]).toMatchObject({ name: 'package-0', verdict: 'live', counted: 20n, advanced: 20n, counted_ns: 500n * MS });
    const r = await impl.energyLadder({ rungs: [{ rung: 'rapl', status: 'read', counters: [{ zone: 'intel-rapl:0', name: 'package-0', samples: live() }] }], estimated_uj: 1n });
    expect(r['rung']).toBe('rapl');
    expect(energyOf(r)).toEqual({ measured_uj: energyOver(15_000n, 20), estimated_uj: 1n, provenance: 'HwShunt' });
  });

  clauseIt(['jcp/5#not-live-no-hw-grade', 'jcp/5#observe-counter-advance', 'jouleclaw/1.3#not-live-no-hw-grade', 'jouleclaw/1.3#hw-grade-only-while-live'], 'a frozen counter is not live, and the ladder falls back to the estimate', async () => {
    const impl = await implementation();
    const v = await impl.energyLiveness([{ name: 'package-0', samples: frozen() }]);
    expect(v['verdict']).toBe('not-live');
    expect(v['not_live']).toEqual(['package-0']);
    const r = await impl.energyLadder({ rungs: [{ rung: 'rapl', status: 'read', counters: [{ zone: 'intel-rapl:0', name: 'package-0', samples: frozen() }] }], estimated_uj: 777n });
    expect(r['rung']).toBe('estimate');
    expect(energyOf(r)).toEqual({ estimated_uj: 777n, provenance: 'Estimator' });
    expect(declinedOf(r)[0]).toMatchObject({ rung: 'rapl', reason: 'not-live' });
  });

  // For the kill matrix: the frozen verdict itself, not only "not live". The spec names "frozen" as a kind of not-live
  // counter and says the implementation SHOULD record why; the reading taken is that the testee's recorded reason for a
  // counter that never advanced is 'frozen', the spec's own word, never another (e.g. too few advances). Open point:
  // PROTOCOL.md's energy.liveness leaves `reason` as free text, so this vocabulary is the reference's; it should be named there.
  clauseIt(['jcp/5#observe-counter-advance', 'jcp/5#not-live-no-hw-grade', 'jouleclaw/1.3#not-live-no-hw-grade', 'jouleclaw/1.3#hw-grade-only-while-live'], "a counter that never advances is not live for being frozen: its recorded reason is 'frozen'", async () => {
    const impl = await implementation();
    const v = await impl.energyLiveness([{ name: 'package-0', samples: frozen() }]);
    expect(v['verdict']).toBe('not-live');
    const c = (v['counters'] as Plain[])[0]!;
    expect(c).toMatchObject({ name: 'package-0', verdict: 'not-live', reason: 'frozen', counted: 20n, advanced: 0n });
  });

  clauseIt(['jcp/5#not-live-no-hw-grade', 'jouleclaw/1.3#not-live-no-hw-grade', 'jouleclaw/1.3#hw-grade-only-while-live'], 'a counter republished in lumps every 100 ms, or every 1 s, is not live', async () => {
    const impl = await implementation();
    for (const lump_ns of [100n * MS, 1000n * MS]) {
      const samples = series({ mw: 15_000n, ticks: 80, lump_ns }); // 2 s at 25 ms
      expect(samples.at(-1)!.value).toBeGreaterThan(0n); // it does advance: this is not a frozen counter
      const v = await impl.energyLiveness([{ name: 'package-0', samples }]);
      expect(v['verdict'], `lumps every ${lump_ns / MS} ms`).toBe('not-live');
      const r = await impl.energyLadder({ rungs: [{ rung: 'rapl', status: 'read', counters: [{ zone: 'intel-rapl:0', name: 'package-0', samples }] }], estimated_uj: 9n });
      expect(energyOf(r)['provenance']).not.toBe('HwShunt');
      expect(energyOf(r)['measured_uj']).toBeUndefined();
    }
  });

  clauseIt(['jcp/5#observe-counter-advance', 'jcp/5#not-live-no-hw-grade', 'jouleclaw/1.3#not-live-no-hw-grade', 'jouleclaw/1.3#hw-grade-only-while-live'], 'an interval over 75 ms counts as nothing: a rail advancing only across stretched intervals is not live', async () => {
    const impl = await implementation();
    // 8 intervals of exactly 75 ms, each advancing: 600 ms counted, live
    const at75 = series({ mw: 15_000n, ticks: 8, tick_ns: 75n * MS });
    expect((await impl.energyLiveness([{ name: 'rail', samples: at75 }]))['verdict']).toBe('live');
    // the same at 76 ms: no interval counts, so nothing advanced and nothing was counted
    const at76 = series({ mw: 15_000n, ticks: 8, tick_ns: 76n * MS });
    const v = await impl.energyLiveness([{ name: 'rail', samples: at76 }]);
    expect(v['verdict']).toBe('not-live');
    expect((v['counters'] as Plain[])[0]).toMatchObject({ counted: 0n, advanced: 0n, counted_ns: 0n });
    // load stretches the interval to 100 ms each time the rail is republished (every 100 ms): live only by miscounting
    const stretched: Sample[] = [];
    let t = 0n;
    let e = 0n;
    for (let i = 0; i < 16; i++) {
      stretched.push({ t_ns: t, value: e });
      t += 25n * MS; // a short interval: nothing republished
      stretched.push({ t_ns: t, value: e });
      t += 100n * MS; // a long interval across which the lump lands
      e += 1_500n;
    }
    expect((await impl.energyLiveness([{ name: 'rail', samples: stretched }]))['verdict']).toBe('not-live');
  });

  clauseIt(['jcp/5#observe-counter-advance'], 'liveness needs 5 advances, in 4 of every 5 counted intervals, over 300 ms of counted time', async () => {
    const impl = await implementation();
    const verdict = async (samples: Sample[]) => ((await impl.energyLiveness([{ name: 'c', samples }]))['verdict']);
    expect(await verdict(series({ mw: 15_000n, ticks: 12 }))).toBe('live'); // 300 ms
    expect(await verdict(series({ mw: 15_000n, ticks: 11 }))).toBe('not-live'); // 275 ms
    expect(await verdict(series({ mw: 15_000n, ticks: 4, tick_ns: 75n * MS }))).toBe('not-live'); // 4 advances, 300 ms
    expect(await verdict(series({ mw: 15_000n, ticks: 5, tick_ns: 75n * MS }))).toBe('live'); // 5 advances, 375 ms
    // republished every 50 ms at a 25 ms tick: every other interval advances, 2 or 3 of every 5
    expect(await verdict(series({ mw: 15_000n, ticks: 40, lump_ns: 50n * MS }))).toBe('not-live');
  });

  clauseIt(['jcp/5#every-summed-counter-live'], 'one of two package counters frozen: the domain is not live, and RAPL is declined naming it', async () => {
    const impl = await implementation();
    const v = await impl.energyLiveness([
      { name: 'package-0', samples: live() },
      { name: 'package-1', samples: frozen() },
    ]);
    expect(v['verdict']).toBe('not-live');
    expect(v['not_live']).toEqual(['package-1']);
    const r = await impl.energyLadder({
      rungs: [
        {
          rung: 'rapl',
          status: 'read',
          counters: [
            { zone: 'intel-rapl:0', name: 'package-0', samples: live() },
            { zone: 'intel-rapl:1', name: 'package-1', samples: frozen() },
          ],
        },
      ],
      estimated_uj: 42n,
    });
    expect(energyOf(r)).toEqual({ estimated_uj: 42n, provenance: 'Estimator' });
    expect(declinedOf(r)[0]).toMatchObject({ rung: 'rapl', reason: 'not-live', not_live: ['package-1'] });
  });
});

describe('jcp §5.1 RAPL zones', () => {
  clauseIt(['jcp/5#observe-counter-advance'], 'each package is wrap-corrected at its own max_energy_range_uj', async () => {
    const impl = await implementation();
    // package-0 advances 500 000 µJ a tick and wraps every other tick at a 1 000 000 µJ range; package-1 wraps once at
    // 262 143 328 850 µJ (a real range)
    const p0 = series({ mw: 20_000n, ticks: 20, max: 1_000_000n, start: 950_000n });
    const big = 262_143_328_850n;
    const p1 = series({ mw: 30_000n, ticks: 20, max: big, start: big - 1_000n });
    const r = await impl.energyRapl([
      { zone: 'intel-rapl:0', name: 'package-0', max_energy_range_uj: 1_000_000n, samples: p0 },
      { zone: 'intel-rapl:1', name: 'package-1', max_energy_range_uj: big, samples: p1 },
    ]);
    expect(r['total_uj']).toBe(energyOver(20_000n, 20) + energyOver(30_000n, 20));
    expect(r['verdict']).toBe('live');
    expect(r['summed']).toEqual(['intel-rapl:0', 'intel-rapl:1']);
  });

  clauseIt(['jcp/5#coverage-not-overclaimed', 'jouleclaw/1.3#no-coverage-beyond-counter'], 'only top-level package-<n> zones are summed: never psys, dram or a subzone', async () => {
    const impl = await implementation();
    const r = await impl.energyRapl([
      { zone: 'intel-rapl:0', name: 'package-0', samples: live(10_000n) },
      { zone: 'intel-rapl:0:0', name: 'core', samples: live(6_000n) },
      { zone: 'intel-rapl:0:1', name: 'uncore', samples: live(1_000n) },
      { zone: 'intel-rapl:0:2', name: 'dram', samples: live(3_000n) },
      { zone: 'intel-rapl:1', name: 'psys', samples: live(25_000n) },
      { zone: 'intel-rapl:2', name: 'package-1', samples: live(12_000n) },
      { zone: 'intel-rapl:3', name: 'dram', samples: live(4_000n) }, // a top-level dram zone: still not CPU energy
    ]);
    expect(r['total_uj']).toBe(energyOver(10_000n, 20) + energyOver(12_000n, 20));
    expect(r['summed']).toEqual(['intel-rapl:0', 'intel-rapl:2']);
    expect((r['excluded'] as Plain[]).map((x) => x['zone'])).toEqual(['intel-rapl:0:0', 'intel-rapl:0:1', 'intel-rapl:0:2', 'intel-rapl:1', 'intel-rapl:3']);
    // a frozen psys beside live packages does not decline the rung: it is not probed
    const r2 = await impl.energyRapl([
      { zone: 'intel-rapl:0', name: 'package-0', samples: live() },
      { zone: 'intel-rapl:1', name: 'psys', samples: frozen() },
    ]);
    expect(r2['verdict']).toBe('live');
  });
});

describe('jcp §5.1 RAPL exclusions, each with why', () => {
  // For the kill matrix: psys is left out because it is psys (§5.1: "A psys zone already includes the packages"), not
  // merely because its name is not package-<n> — the same sum can hide an implementation that would take a psys zone
  // once renamed. The exclusion reasons are the reference's words (PROTOCOL.md: "excluded with why"; open point as above).
  clauseIt(['jcp/5#every-summed-counter-live', 'jcp/5#coverage-not-overclaimed', 'jouleclaw/1.3#no-coverage-beyond-counter'], "a psys zone is excluded for being psys, and a dram zone for being dram, never as a mere non-package", async () => {
    const impl = await implementation();
    const r = await impl.energyRapl([
      { zone: 'intel-rapl:0', name: 'package-0', samples: live(10_000n) },
      { zone: 'intel-rapl:1', name: 'psys', samples: live(25_000n) },
      { zone: 'intel-rapl:2', name: 'dram', samples: live(3_000n) },
    ]);
    expect(r['summed']).toEqual(['intel-rapl:0']);
    expect(r['total_uj']).toBe(energyOver(10_000n, 20));
    expect(r['excluded']).toEqual([
      { zone: 'intel-rapl:1', reason: 'psys' },
      { zone: 'intel-rapl:2', reason: 'dram' },
    ]);
  });
});

describe('jcp §5 plausibility (two-sided)', () => {
  const board = (draw_mw: readonly bigint[]) => ({ draw_mw, limit_mw: LIMIT_MW });

  clauseIt(
    ['jcp/5#rate-checked-against-bound', 'jcp/5#rate-over-bound-no-hw-grade', 'jcp/5#record-rate-and-bound'],
    'a live counter at ×4 and ×30 the board draw is over-rate, recorded with its rate and bound',
    async () => {
      const impl = await implementation();
      const x4 = await impl.energyPlausibility(at(59_200n), S10, board(SANE));
      expect(x4).toMatchObject({ verdict: 'counter-over-rate', rate_mw: 59_200n, bound: 'draw' });
      // the draw bound: at or above the draw it is derived from, and broken by the rate
      expect(x4['bound_mw'] as bigint).toBeGreaterThanOrEqual(14_800n);
      expect(x4['bound_mw'] as bigint).toBeLessThan(59_200n);
      const x30 = await impl.energyPlausibility(at(444_000n), S10, board(SANE));
      expect(x30).toMatchObject({ verdict: 'counter-over-rate', rate_mw: 444_000n });
      expect(x30['bound_mw'] as bigint).toBeLessThanOrEqual(LIMIT_MW);
      // through the ladder: a live NVML counter at ×4 is declined, with the rate it ran at
      const samples = series({ mw: 59_200n, ticks: 20 });
      const r = await impl.energyLadder({ rungs: [{ rung: 'nvml', status: 'read', counters: [{ name: 'gpu0', samples }], telemetry: board(SANE) }], estimated_uj: 3n });
      expect(energyOf(r)).toEqual({ estimated_uj: 3n, provenance: 'Estimator' });
      expect(declinedOf(r)[1]).toMatchObject({ rung: 'nvml', reason: 'implausible', plausibility: { verdict: 'counter-over-rate', rate_mw: 59_200n } });
    },
  );

  clauseIt(['jcp/5#rate-under-draw-no-hw-grade', 'jcp/5#rate-checked-against-bound', 'jouleclaw/1.3#bound-two-sided'], 'a counter far below the draw is under-rate (the bound is two-sided)', async () => {
    const impl = await implementation();
    // floor = (14.8 W − 5 W) / 4 = 2.45 W; a counter at 2 W reads far below a 14.8 W board
    expect(await impl.energyPlausibility(at(2_000n), S10, board(SANE))).toMatchObject({ verdict: 'counter-under-rate', rate_mw: 2_000n, floor_mw: 2_450n });
    // a counter republished in lumps, read on a 60 W board at an eighth of its draw: live-looking, and refuted
    expect(await impl.energyPlausibility(at(7_500n), S10, board(Array.from({ length: 10 }, () => 60_000n)))).toMatchObject({ verdict: 'counter-under-rate', floor_mw: 13_750n });
    const r = await impl.energyLadder({
      rungs: [{ rung: 'nvml', status: 'read', counters: [{ name: 'gpu0', samples: series({ mw: 2_000n, ticks: 20 }) }], telemetry: board(SANE) }],
      estimated_uj: 3n,
    });
    expect(energyOf(r)['provenance']).not.toBe('HwShunt');
    expect(declinedOf(r)[1]).toMatchObject({ rung: 'nvml', reason: 'implausible', plausibility: { verdict: 'counter-under-rate' } });
  });

  clauseIt(['jcp/5#floor-allows-imprecision'], 'a counter at or just under a quarter of the draw is inside the floor once the ±5 W is taken off', async () => {
    const impl = await implementation();
    // a quarter of 14.8 W is 3.7 W; 3.6 W is under a quarter of the raw draw, above (14.8 − 5) / 4 = 2.45 W
    expect((await impl.energyPlausibility(at(3_700n), S10, board(SANE)))['verdict']).toBe('not-refuted');
    expect((await impl.energyPlausibility(at(3_600n), S10, board(SANE)))['verdict']).toBe('not-refuted');
    expect((await impl.energyPlausibility(at(2_400n), S10, board(SANE)))['verdict']).toBe('counter-under-rate');
  });

  clauseIt(['jcp/5#floor-not-near-idle', 'jouleclaw/1.3#bound-silent-near-idle'], 'an idle board: a correct counter accruing almost nothing is not refuted', async () => {
    const impl = await implementation();
    const idle = Array.from({ length: 10 }, () => 3_000n);
    expect((await impl.energyPlausibility(at(150n), S10, board(idle)))['verdict']).toBe('not-refuted');
    expect((await impl.energyPlausibility(at(0n), S10, board(Array.from({ length: 10 }, () => 5_000n))))['verdict']).toBe('not-refuted');
    const r = await impl.energyLadder({
      rungs: [{ rung: 'nvml', status: 'read', counters: [{ name: 'gpu0', samples: series({ mw: 150n, ticks: 20 }) }], telemetry: board(idle) }],
      estimated_uj: 3n,
    });
    expect(energyOf(r)).toEqual({ measured_uj: energyOver(150n, 20), estimated_uj: 3n, provenance: 'HwShunt', coverage: 'Partial' });
  });

  clauseIt(['jcp/5#impossible-bound-discarded'], 'a 590 W spike among 14.8 W samples is discarded alone: the ×4 counter is still refuted', async () => {
    const impl = await implementation();
    const v = await impl.energyPlausibility(at(59_200n), S10, board(SPIKED));
    // not indeterminate (the whole judgement discarded), not passed (the spike left in the mean)
    expect(v).toMatchObject({ verdict: 'counter-over-rate', rate_mw: 59_200n, bound: 'draw', discarded: 1n });
    expect(v['bound_mw']).toBe((await impl.energyPlausibility(at(59_200n), S10, board(SANE)))['bound_mw']);
    // ×30 past the static limit is refuted whatever the draw samples were
    expect(await impl.energyPlausibility(at(444_000n), S10, board(SPIKED))).toMatchObject({ verdict: 'counter-over-rate', bound: 'limit', bound_mw: LIMIT_MW });
    // and a correct counter beside the spike is not refuted
    expect((await impl.energyPlausibility(at(14_800n), S10, board(SPIKED)))['verdict']).toBe('not-refuted');
  });

  clauseIt(['jcp/5#unjudgeable-no-hw-grade', 'jcp/5#unjudgeable-not-overran', 'jouleclaw/1.3#indeterminate-not-hw-grade'], 'every draw sample unusable: indeterminate, not "overran", and not hardware-graded', async () => {
    const impl = await implementation();
    const broken = [590_000n, 610_000n, 588_000n];
    const v = await impl.energyPlausibility(at(10_000n), S10, board(broken));
    expect(v['verdict']).toBe('indeterminate');
    const r = await impl.energyLadder({
      rungs: [{ rung: 'nvml', status: 'read', counters: [{ name: 'gpu0', samples: series({ mw: 10_000n, ticks: 20 }) }], telemetry: board(broken) }],
      estimated_uj: 3n,
    });
    expect(energyOf(r)).toEqual({ estimated_uj: 3n, provenance: 'Estimator' });
    expect(declinedOf(r)[1]).toMatchObject({ rung: 'nvml', reason: 'unjudgeable', plausibility: { verdict: 'indeterminate' } });
    // the static limit is never discarded: ×30 over it is still an overrun
    expect(await impl.energyPlausibility(at(444_000n), S10, board(broken))).toMatchObject({ verdict: 'counter-over-rate', bound: 'limit' });
  });
});

describe('jcp §5.1 the ladder always yields an honest figure (C9)', () => {
  clauseIt(['jcp/9#c9-energy-honesty', 'jcp/5.1#provenance-not-overclaimed', 'jcp/5#hwshunt-measured-required', 'jcp/5#estimator-measured-absent', 'jouleclaw/1.3#reading-carries-provenance'], 'any mix of rung results: a figure, whose provenance matches the rung that made it', async () => {
    const impl = await implementation();
    const counterRung = fc.record({
      status: fc.constantFrom('absent', 'failed', 'live', 'frozen', 'lumped', 'over', 'under'),
    });
    await assertProperty(
      fc.asyncProperty(fc.tuple(counterRung, counterRung, counterRung), fc.option(fc.bigInt({ min: 0n, max: 10n ** 9n }), { nil: undefined }), fc.bigInt({ min: 0n, max: 10n ** 9n }), async (rs, calibrated, estimated) => {
        const names = ['rapl', 'nvml', 'ioreport'] as const;
        const rungs = rs.map((r, i) => {
          const rung = names[i]!;
          if (r.status === 'absent') return { rung, status: 'absent' };
          if (r.status === 'failed') return { rung, status: 'failed', at: 'start', error: 'EIO' };
          const mw = r.status === 'over' ? 59_200n : r.status === 'under' ? 2_000n : 14_800n;
          const samples = r.status === 'frozen' ? frozen() : series({ mw, ticks: 20, ...(r.status === 'lumped' ? { lump_ns: 100n * MS } : {}) });
          return { rung, status: 'read', counters: [{ zone: `intel-rapl:${i}`, name: i === 0 ? 'package-0' : `c${i}`, samples }], telemetry: { draw_mw: SANE, limit_mw: LIMIT_MW } };
        });
        const r = await impl.energyLadder({ rungs, estimated_uj: estimated, ...(calibrated !== undefined ? { calibrated_uj: calibrated } : {}) });
        const e = energyOf(r);
        const firstGood = rs.findIndex((x) => x.status === 'live');
        if (firstGood >= 0) {
          expect(r['rung']).toBe(names[firstGood]);
          expect(e['provenance']).toBe('HwShunt');
          expect(e['measured_uj']).toBe(energyOver(14_800n, 20));
        } else if (calibrated !== undefined) {
          expect(e).toEqual({ estimated_uj: calibrated, provenance: 'ModelBased' });
        } else {
          expect(e).toEqual({ estimated_uj: estimated, provenance: 'Estimator' });
        }
        // every rung above the chosen one is recorded with why it declined
        const above = firstGood >= 0 ? firstGood : names.length;
        expect(declinedOf(r).filter((d) => (names as readonly unknown[]).includes(d['rung'])).length).toBe(above);
      }),
      fcParams(40),
    );
  });
});

describe('jcp §5.2 coverage', () => {
  const partial = { measured_uj: 1000n, estimated_uj: 900n, provenance: 'HwShunt', coverage: 'Partial' };
  const whole = { measured_uj: 1000n, estimated_uj: 900n, provenance: 'HwShunt' };

  clauseIt(['jcp/5.2#partial-not-task-total'], 'a Partial figure is refused as a task total', async () => {
    const impl = await implementation();
    await expectCode(impl.energyTaskTotal(partial), 'ERR_ENERGY_PARTIAL_NOT_TOTAL');
    expect(await impl.energyTaskTotal(whole)).toBe(1000n);
  });

  clauseIt(['jcp/5.2#partial-no-per-token'], 'a Partial efficiency/1 receipt seals no uj_per_accepted_token', async () => {
    const impl = await implementation();
    const p = await impl.energyEfficiencySeal(partial, 10n);
    expect(p['energy_coverage']).toBe('Partial');
    expect('uj_per_accepted_token' in p).toBe(false);
    const w = await impl.energyEfficiencySeal(whole, 10n);
    expect('energy_coverage' in w).toBe(false);
    expect(w['uj_per_accepted_token']).toBe(100n);
  });

  clauseIt(['jcp/5.2#verifier-refuses-partial-per-token'], 'a verifier refuses a Partial efficiency/1 receipt carrying the headline', async () => {
    const impl = await implementation();
    await expectCode(impl.energyEfficiencyRead({ energy_uj: 1000n, provenance: 'HwShunt', energy_coverage: 'Partial', uj_per_accepted_token: 100n }), 'ERR_EFFICIENCY_PARTIAL_HEADLINE');
    expect(await impl.energyEfficiencyRead({ energy_uj: 1000n, provenance: 'HwShunt', energy_coverage: 'Partial' })).toEqual({ energy_uj: 1000n, provenance: 'HwShunt', coverage: 'Partial' });
  });

  // efficiency/1 carries energy_coverage "under the same one-value rule" as intercept/1's coverage (jcp §5.2)
  clauseIt(['jcp/5.2#intercept-coverage-one-value'], 'a coverage field has one value: "Whole" and any other is refused, absence is Whole', async () => {
    const impl = await implementation();
    for (const bad of ['Whole', 'partial', 'Full', '']) {
      await expectCode(impl.energyEfficiencyRead({ energy_uj: 1n, provenance: 'Estimator', energy_coverage: bad }), 'ERR_ENERGY_COVERAGE_VALUE', bad);
    }
    expect(await impl.energyEfficiencyRead({ energy_uj: 1n, provenance: 'Estimator' })).toEqual({ energy_uj: 1n, provenance: 'Estimator' });
  });
});

describe('jcp §5.3 traceability', () => {
  const acts = {
    a: { uj: 400n, provenance: 'HwShunt' },
    b: { uj: 500n, provenance: 'ModelBased' },
    c: { uj: 300n, provenance: 'HwShunt', coverage: 'Partial' },
  };
  const outcome = { uj: 1000n, provenance: 'HwShunt' };

  clauseIt(['jcp/5.3#difference-named', 'jcp/5.3#residual-not-clamped'], 'the residual is outcome − Σ activities, signed and never clamped', async () => {
    const impl = await implementation();
    expect(await impl.energyTrace(outcome, ['a', 'b'], acts)).toMatchObject({ residual_uj: 100n, activities_uj: 900n });
    expect((await impl.energyTrace(outcome, ['a', 'b', 'c'], acts))['residual_uj']).toBe(-200n);
  });

  clauseIt(['jcp/5.3#activity-bound-twice-refused'], 'an activity bound twice is refused before the sum', async () => {
    const impl = await implementation();
    // bound twice, a (400) twice + 200 would balance an 800 outcome exactly: refused all the same
    await expectCode(impl.energyTrace({ uj: 800n, provenance: 'HwShunt' }, ['a', 'a'], acts), 'ERR_TRACE_ACTIVITY_BOUND_TWICE');
  });

  clauseIt(['jcp/5.3#outcome-names-activities', 'jcp/5.3#untraceable-not-presented', 'jcp/5.3#activities-resolvable'], 'an outcome naming no activity, or one that does not resolve, is not traced', async () => {
    const impl = await implementation();
    await expectCode(impl.energyTrace(outcome, [], acts), 'ERR_TRACE_UNTRACEABLE');
    await expectCode(impl.energyTrace(outcome, ['a', 'zz'], acts), 'ERR_TRACE_UNRESOLVED');
  });

  clauseIt(['jcp/5.3#aggregation-no-grade-improvement'], 'the composite provenance and coverage are the floors, never improved', async () => {
    const impl = await implementation();
    expect(await impl.energyTrace(outcome, ['a', 'b'], acts)).toMatchObject({ provenance: 'ModelBased' });
    expect(await impl.energyTrace({ uj: 1000n, provenance: 'Estimator' }, ['a'], acts)).toMatchObject({ provenance: 'Estimator' });
    expect(await impl.energyTrace(outcome, ['a', 'c'], acts)).toMatchObject({ provenance: 'HwShunt', coverage: 'Partial' });
    // the floor is "across the outcome and every activity": a Partial outcome over Whole activities is Partial
    expect(await impl.energyTrace({ uj: 1000n, provenance: 'HwShunt', coverage: 'Partial' }, ['a'], acts)).toMatchObject({ provenance: 'HwShunt', coverage: 'Partial' });
  });
});

describe('jcp §5.5 and §5.6', () => {
  clauseIt(['jcp/5.5#report-floor-basis'], 'the conservation floor says whether it rests on measured or modelled figures', async () => {
    const impl = await implementation();
    expect(await impl.energyConservationFloor(1_000_000n, ['HwShunt', 'HwShunt'])).toEqual({ ppm_numerator: 1_000_000n, ppm_denominator: 1_000_000n, rests_on: 'measured' });
    expect((await impl.energyConservationFloor(1_000_000n, ['HwShunt', 'Estimator']))['rests_on']).toBe('modelled');
    // a ModelBased figure is a model's (jcp §5: "a model calibrated on the host (...) or a real reading apportioned by a
    // model"), not a hardware reading: a floor resting on one rests on a modelled figure
    expect((await impl.energyConservationFloor(1_000_000n, ['ModelBased']))['rests_on']).toBe('modelled');
    expect((await impl.energyConservationFloor(1_000_000n, ['HwShunt', 'ModelBased']))['rests_on']).toBe('modelled');
  });

  clauseIt(['jcp/5.6#bound-not-verification', 'jcp/5.6#may-refute-out-of-envelope'], 'a physical bound refutes outside the envelope and never reports verified inside it', async () => {
    const impl = await implementation();
    const S = 1_000_000_000n;
    expect(await impl.energyPhysicalBound(2_000_000n, S, 1_000n, 100_000n)).toBe('not-refuted');
    expect(await impl.energyPhysicalBound(100_000_001n, S, 1_000n, 100_000n)).toBe('refuted-above-envelope');
    expect(await impl.energyPhysicalBound(999_999n, S, 1_000n, 100_000n)).toBe('refuted-below-floor');
  });
});

describe('jcp §5.1 rung 3: per-process CPU energy, the ends of a span', () => {
  const root = { pid: 100n, start_time: 5n, parent: 1n, reaped_cpu_ns: 0n, threads: ['waiting'] };
  const child = { pid: 101n, start_time: 6n, parent: 100n, reaped_cpu_ns: 0n, threads: ['stopped'] };
  const settled = { walk: [root, child], confirm: [root, child] };

  clauseIt(['jcp/5.1#check-thread-left-core', 'jouleclaw/1.3#own-process-read-after-off-core'], 'an end whose reading thread was not seen to leave its core is no reading', async () => {
    const impl = await implementation();
    const moved = { before_nj: 1_000n, after_nj: 1_250n };
    const still = { before_nj: 1_000n, after_nj: 1_000n };
    expect(await impl.energyProcSpan({ self: { start: moved, stop: moved } })).toEqual({ verdict: 'reading', coverage: 'Whole', gaps: [] });
    expect((await impl.energyProcSpan({ self: { start: still, stop: moved } }))['verdict']).toBe('no-reading');
    expect((await impl.energyProcSpan({ self: { start: moved, stop: still } }))['verdict']).toBe('no-reading');
  });

  clauseIt(['jcp/5.1#member-read-at-rest', 'jcp/5.1#kernel-wait-waited-out'], 'a member running, or in a wait no signal ends, at an end is a gap', async () => {
    const impl = await implementation();
    for (const state of ['running', 'uninterruptible']) {
      const busy = { ...child, threads: ['waiting', state] };
      const r = await impl.energyProcSpan({ tree: { start: settled, stop: { walk: [root, busy], confirm: [root, busy] }, declaration: 'declared' } });
      expect(r['coverage'], state).toBe('Partial');
      expect(r['gaps'], state).toEqual(['unsettled-at-stop']);
    }
  });

  clauseIt(['jcp/5.1#walk-confirmed'], 'an end whose walk no agreeing walk confirmed is a gap', async () => {
    const impl = await implementation();
    const disagreeing = [
      [root], // a process missing
      [root, { ...child, start_time: 7n }], // a reused pid is another process
      [root, { ...child, parent: 1n }],
      [{ ...root, reaped_cpu_ns: 10n }, child],
      [root, { ...child, exit_time: 9n }],
    ];
    for (const confirm of disagreeing) {
      const r = await impl.energyProcSpan({ tree: { start: { walk: [root, child], confirm }, stop: settled, declaration: 'declared' } });
      expect(r).toMatchObject({ verdict: 'reading', coverage: 'Partial', gaps: ['unconfirmed-walk-at-start'] });
    }
    const gone = await impl.energyProcSpan({ tree: { start: settled, stop: { walk: [root, { ...child, child_gone: 'gone' }], confirm: [root, child] }, declaration: 'declared' } });
    expect(gone['gaps']).toEqual(['unconfirmed-walk-at-stop']);
    const none = await impl.energyProcSpan({ tree: { start: settled, stop: { walk: [root, child] }, declaration: 'declared' } });
    expect(none['gaps']).toEqual(['unconfirmed-walk-at-stop']);
  });

  clauseIt(['jcp/5.1#whole-not-on-empty-list'], 'a tree figure is Whole only with no gap AND the operator declaration, never on an empty list alone', async () => {
    const impl = await implementation();
    expect(await impl.energyProcSpan({ tree: { start: settled, stop: settled, declaration: 'declared' } })).toEqual({ verdict: 'reading', coverage: 'Whole', gaps: [] });
    const undeclared = await impl.energyProcSpan({ tree: { start: settled, stop: settled, declaration: 'undeclared' } });
    expect(undeclared['coverage']).toBe('Partial');
    // the declaration does not outweigh evidence: a bill is a gap under it
    const billed = await impl.energyProcSpan({ tree: { start: settled, stop: settled, declaration: 'declared' }, gaps: ['delegated'] });
    expect(billed['coverage']).toBe('Partial');
  });
});
