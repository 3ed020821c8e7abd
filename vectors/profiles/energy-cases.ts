// The named cases of the energy group (vectors/profiles/energy.ts): sense:P-ENERGY (sense §7), sense:P-OBSERVER
// (sense §4), sense:P-HONESTY (sense §6) and jouleclaw:P-ENERGY (jouleclaw §1.3, §9.4). Every expected answer is
// written here from the spec's words, never read from the reference: the IOReport criterion's numbers (5 advancing
// intervals, 4 of every 5, 300 ms) and sense §7's interval rule (75 ms), a counter frozen or republished in lumps, a
// counter of another domain, the honesty invariant, Partial where a claimed domain is not read, §4's three meanings,
// §6's zero estimate, §1.3's "Realistic floors", the worst counter of a span, an unchecked span end, a shared GPU's
// rail, a bound in both directions that never fires near idle and grades no indeterminate.
//
// Where the spec permits several answers the vector leaves the point out (the executor, energy-execute.ts, reports
// facts, and the expected omits those not decided): whether a live counter is graded HwShunt (§7, §1.3: "MAY"),
// whether a counter that is not live gives an estimate or the work unmetered, what a live figure measures, "4 of
// every 5" read over the whole count, over blocks of 5 or over every window of 5 (every liveness input here is live,
// or not, under all three), the observer's window and rounding (only comparisons every reading agrees on), which
// counters a meter reads, the floors §1.3 gives only as "~", a breaker over a span with no counter worst in both
// floors, how far below the draw a counter must fall to be refuted (only a counter at 1/600 of it), and the tag of a
// zero estimate.
import { toHex } from '../../impl/bytes.ts';
import type { Case } from '../cases.ts';
import type { Json, JsonObject } from '../model.ts';

const P = 'profiles' as const;
const utf8 = new TextEncoder();
const exactly = (e: JsonObject, result: 'valid' | 'invalid' = 'valid') => ({ exactly: e, result });
const MS = 1_000_000;

/** One interval of a liveness probe: its length in ms, and whether the counter advanced over it. */
type Step = readonly [ms: number, advanced: boolean];
const repeat = (n: number, step: Step): Step[] => Array.from({ length: n }, () => step);
/** The samples of a probe whose intervals are `steps` (each advance adds `per` µJ). */
function samples(steps: readonly Step[], start = 7_000, per = 1_000): Json[] {
  const out: { t_ns: number; value: number }[] = [{ t_ns: 0, value: start }];
  for (const [ms, adv] of steps) {
    const p = out[out.length - 1]!;
    out.push({ t_ns: p.t_ns + ms * MS, value: p.value + (adv ? per : 0) });
  }
  return out;
}
/** The samples of a counter accruing `mw` for `ticks` 25 ms ticks (µJ = mW × ms), published only every `lump_ms` if given. */
function accruing(mw: number, ticks: number, lump_ms?: number): Json[] {
  return Array.from({ length: ticks + 1 }, (_, i) => {
    const t = i * 25;
    const published = lump_ms ? Math.floor(t / lump_ms) * lump_ms : t;
    return { t_ns: t * MS, value: mw * published };
  });
}

/** Advancing at every 25 ms tick for 1 s: live under every reading. */
const LIVE = repeat(40, [25, true]);
/** Never advancing over 1 s. */
const FROZEN = repeat(40, [25, false]);
/** Republished every `every` ticks: one advance in each `every` intervals. */
const lumps = (every: number, n = 40): Step[] => Array.from({ length: n }, (_, i) => [25, i % every === every - 1] as Step);
/** Advancing in `k` of every 5 intervals (the misses last in each 5), `n` intervals of 25 ms. */
const kOfFive = (k: number, n: number): Step[] => Array.from({ length: n }, (_, i) => [25, i % 5 < k] as Step);

/**
 * sense §7's criterion under each permitted reading of "in at least 4 of every 5" (over the whole count, over blocks of
 * 5 at every alignment, over every window of 5), after the interval rule: the readings' verdicts, so that a case is
 * built only where they agree (the case code throws otherwise).
 */
function liveUnderEveryReading(steps: readonly Step[]): boolean | 'readings differ' {
  const counted = steps.filter(([ms]) => ms <= 75);
  const flags = counted.map(([, a]) => a);
  const adv = flags.filter(Boolean).length;
  const ms = counted.reduce((s, [m]) => s + m, 0);
  const base = adv >= 5 && ms >= 300;
  const windows = (from: number, stride: number): boolean => {
    for (let i = from; i + 5 <= flags.length; i += stride) if (flags.slice(i, i + 5).filter(Boolean).length < 4) return false;
    return true;
  };
  const verdicts = [base && adv * 5 >= flags.length * 4, base && windows(0, 1), ...[0, 1, 2, 3, 4].map((a) => base && windows(a, 5))];
  return verdicts.every((v) => v === verdicts[0]) ? verdicts[0]! : 'readings differ';
}
function premise(steps: readonly Step[], live: boolean, what: string): Json[] {
  const v = liveUnderEveryReading(steps);
  if (v !== live) throw new Error(`energy-cases: ${what} is not ${live ? 'live' : 'not live'} under every reading (${String(v)})`);
  return samples(steps);
}

// ---- sense:P-ENERGY (sense §7) ------------------------------------------------------------------------------------

const PAIR = 'sense/7#integer-uj-pair';
const HW_MEASURED = 'sense/7#hwshunt-requires-measurement';
const ONLY_LIVE = 'sense/7#hw-grade-only-while-live';
const CRITERION = 'sense/7#ioreport-liveness-criterion';
const INTERVAL = 'sense/7#ioreport-interval-rule';
const NOT_LIVE = 'sense/7#not-live-no-hw-grade';
const COVERAGE = 'sense/7#no-coverage-beyond-counter';

/** A figure that is no hardware reading: honest, and neither hardware-graded nor claiming the whole work as one. */
const NOT_HW: JsonObject = { integer_pair: true, tag_matches_measurement: true, tagged: true, hardware_graded: false, claims_whole_hardware: false };
/** A figure from a live counter: honest (whether it is graded HwShunt is §7's "MAY", left out). */
const HONEST: JsonObject = { integer_pair: true, tag_matches_measurement: true, tagged: true };

function senseMeterCases(): Case[] {
  const out: Case[] = [];
  const M = (name: string, comment: string, flags: string[], clauses: string[], domains: string[], counters: [string, Json[], number][], expected: JsonObject, estimated_uj = 4_321): void => {
    out.push({
      pack: P,
      name: `sense-energy-${name}`,
      type: 'SenseEnergyMeter',
      comment,
      flags,
      clauses,
      inputs: { domains, counters: counters.map(([domain, s, delta_uj]) => ({ domain, samples: s, delta_uj })), estimated_uj },
      intent: exactly(expected),
    });
  };
  // §7: "an integer microjoule pair: measured_uj (present only from a live hardware interface) and estimated_uj (always present)"; "HwShunt requires a measurement and Estimator forbids one"
  M('live-figure-honest', 'CPU work read by a live CPU rail (every 25 ms tick for 1 s): an integer pair whose tag matches its measurement (HwShunt or not: §7 "MAY")', ['HonestFigure'], [PAIR, HW_MEASURED], ['cpu'], [['cpu', premise(LIVE, true, 'LIVE'), 9_000]], HONEST);
  M('live-figure-zero-estimate', 'the same with an estimate of 0 µJ: still an integer pair, honestly tagged', ['HonestFigure'], [PAIR, HW_MEASURED], ['cpu'], [['cpu', premise(LIVE, true, 'LIVE'), 0]], HONEST, 0);
  M('frozen', 'CPU work read by a frozen CPU rail: no hardware grade and no measured_uj (an estimate, or the work unmetered)', ['NotLiveCounter'], [PAIR, HW_MEASURED, NOT_LIVE], ['cpu'], [['cpu', premise(FROZEN, false, 'FROZEN'), 0]], NOT_HW);
  M('lumps-100ms', 'a CPU rail republished every 100 ms (one advance in four 25 ms intervals): not live, no hardware grade', ['NotLiveCounter'], [NOT_LIVE], ['cpu'], [['cpu', premise(lumps(4), false, 'lumps(4)'), 10_000]], NOT_HW);
  M('lumps-1s', 'a CPU rail republished every 1 s over 2 s: not live, no hardware grade', ['NotLiveCounter'], [NOT_LIVE], ['cpu'], [['cpu', premise(lumps(40, 80), false, 'lumps(40)'), 2_000]], NOT_HW);
  M('no-counter', 'CPU work with no counter read at all: no hardware grade', ['NotLiveCounter'], [ONLY_LIVE], ['cpu'], [], NOT_HW);
  // §7: "live for the domain the figure claims: (...) observed the counter covering that domain advance under load"
  M('other-domain-live', 'CPU work read only by a live GPU rail: the claimed domain has no live counter, no hardware grade', ['NotLiveCounter'], [ONLY_LIVE], ['cpu'], [['gpu', premise(LIVE, true, 'LIVE'), 40_000]], NOT_HW);
  M('frozen-beside-live-other', 'CPU work: the CPU rail frozen, the GPU rail live: no hardware grade', ['NotLiveCounter'], [ONLY_LIVE, NOT_LIVE], ['cpu'], [['cpu', premise(FROZEN, false, 'FROZEN'), 0], ['gpu', premise(LIVE, true, 'LIVE'), 40_000]], NOT_HW);
  // the IOReport criterion: "advancing in at least 5 sample intervals, in at least 4 of every 5, over at least 300 ms"
  M('four-advances', 'four advancing 75 ms intervals (300 ms, but 4 advances): not live, no hardware grade', ['LivenessCriterion'], [CRITERION], ['cpu'], [['cpu', premise(repeat(4, [75, true]), false, '4x75'), 4_000]], NOT_HW);
  M('eleven-over-275ms', 'eleven advancing 25 ms intervals (275 ms counted): not live, no hardware grade', ['LivenessCriterion'], [CRITERION], ['cpu'], [['cpu', premise(repeat(11, [25, true]), false, '11x25'), 11_000]], NOT_HW);
  M('299ms', 'five advancing intervals summing to 299 ms (4 × 60 ms and 59 ms): not live, no hardware grade', ['LivenessCriterion'], [CRITERION], ['cpu'], [['cpu', premise([...repeat(4, [60, true]), [59, true]], false, '299 ms'), 5_000]], NOT_HW);
  M('three-of-five', 'three advances in every five 25 ms intervals over 500 ms: not live, no hardware grade', ['LivenessCriterion'], [CRITERION], ['cpu'], [['cpu', premise(kOfFive(3, 20), false, '3 of 5'), 12_000]], NOT_HW);
  // the interval rule: "only one no longer than three of the probe's ticks, 75 ms at its 25 ms tick, counts"
  M('all-76ms', 'twelve advancing 76 ms intervals: none counts, so nothing advanced and nothing was counted: no hardware grade', ['LivenessCriterion'], [INTERVAL], ['cpu'], [['cpu', premise(repeat(12, [76, true]), false, '12x76'), 12_000]], NOT_HW);
  M('short-between-long', 'six advancing 25 ms intervals between six advancing 100 ms ones: 150 ms counted, not live', ['LivenessCriterion'], [INTERVAL], ['cpu'], [['cpu', premise(Array.from({ length: 12 }, (_, i) => (i % 2 === 0 ? [25, true] : [100, true]) as Step), false, 'short-between-long'), 12_000]], NOT_HW);
  M('advances-only-stretched', 'a rail advancing only across 150 ms intervals, frozen over every 25 ms one: every counted interval frozen, not live', ['LivenessCriterion'], [INTERVAL], ['cpu'], [['cpu', premise(Array.from({ length: 40 }, (_, i) => (i % 2 === 0 ? [25, false] : [150, true]) as Step), false, 'stretched'), 20_000]], NOT_HW);
  // §7: "A figure MUST NOT claim coverage of a domain its counter does not read; (...) such a figure is Partial"
  const partial = { ...HONEST, claims_whole_hardware: false };
  M('cpu-gpu-cpu-read', 'CPU and GPU work, only a live CPU rail read: a hardware figure (if any) is Partial', ['CoveragePartial'], [COVERAGE], ['cpu', 'gpu'], [['cpu', premise(LIVE, true, 'LIVE'), 30_000]], partial);
  M('cpu-ane-gpu-unclaimed', 'CPU and ANE work, a live CPU rail and a live GPU rail the figure does not claim: Partial (the ANE is not read)', ['CoveragePartial'], [COVERAGE], ['cpu', 'ane'], [['cpu', premise(LIVE, true, 'LIVE'), 30_000], ['gpu', premise(LIVE, true, 'LIVE'), 5_000]], partial);
  M('cpu-gpu-gpu-frozen', 'CPU and GPU work, the CPU rail live and the GPU rail frozen: Partial', ['CoveragePartial'], [COVERAGE, NOT_LIVE], ['cpu', 'gpu'], [['cpu', premise(LIVE, true, 'LIVE'), 30_000], ['gpu', premise(FROZEN, false, 'FROZEN'), 0]], partial);
  M('cpu-gpu-at-the-criterion', 'CPU and GPU work, the CPU rail live at the criterion itself (5 intervals of 60 ms, 300 ms, every one advancing), no GPU counter: Partial', ['CoveragePartial'], [COVERAGE], ['cpu', 'gpu'], [['cpu', premise(repeat(5, [60, true]), true, '5x60'), 5_000]], partial);
  M('cpu-gpu-at-75ms', 'CPU and GPU work, the CPU rail advancing over eight 75 ms intervals (each counts: 600 ms), no GPU counter: Partial', ['CoveragePartial'], [COVERAGE], ['cpu', 'gpu'], [['cpu', premise(repeat(8, [75, true]), true, '8x75'), 8_000]], partial);
  return out;
}

/** energy.make: the validating constructor (the same invariants asked directly, as the profiles' tests ask them). */
function figureMakeCases(prefix: string, clauses: { measured: string; coverage: string; notLive: string }): Case[] {
  const counter = { how: 'counter', live: 'live', read: 'both-ends', plausibility: 'not-refuted', covers: 'Whole' };
  const F = (name: string, comment: string, flags: string[], clause: string[], inputs: JsonObject, expected: JsonObject, result: 'valid' | 'invalid' = 'valid'): Case => ({ pack: P, name: `${prefix}-make-${name}`, type: 'EnergyFigureMake', comment, flags, clauses: clause, inputs, intent: exactly(expected, result) });
  return [
    F('hwshunt-measured', 'HwShunt with measured_uj from a live counter read at both ends over the whole domain: made as HwShunt with its measurement', ['HonestFigure'], [clauses.measured], { measured_uj: 10, estimated_uj: 10, provenance: 'HwShunt', obtained: counter }, { made: { provenance: 'HwShunt', measured: true, partial: false } }),
    F('hwshunt-unmeasured', 'HwShunt with no measured_uj: refused ("HwShunt requires a measurement")', ['HonestFigure', 'SuiteErrorCode'], [clauses.measured], { estimated_uj: 10, provenance: 'HwShunt', obtained: counter }, { error: 'ERR_ENERGY_HWSHUNT_UNMEASURED' }, 'invalid'),
    F('estimator-measured', 'Estimator carrying measured_uj: refused ("Estimator forbids one")', ['HonestFigure', 'SuiteErrorCode'], [clauses.measured], { measured_uj: 10, estimated_uj: 10, provenance: 'Estimator', obtained: { how: 'uncalibrated-model' } }, { error: 'ERR_ENERGY_ESTIMATOR_MEASURED' }, 'invalid'),
    F('estimator', 'Estimator with no measured_uj from an uncalibrated model: made as Estimator', ['HonestFigure'], [clauses.measured], { estimated_uj: 10, provenance: 'Estimator', obtained: { how: 'uncalibrated-model' } }, { made: { provenance: 'Estimator', measured: false, partial: false } }),
    F('whole-from-partial-counter', 'HwShunt claiming the whole domain from a counter that reads part of it: refused', ['CoveragePartial', 'SuiteErrorCode'], [clauses.coverage], { measured_uj: 10, estimated_uj: 10, provenance: 'HwShunt', obtained: { ...counter, covers: 'Partial' } }, { error: 'ERR_ENERGY_COVERAGE_OVERCLAIMED' }, 'invalid'),
    F('partial-from-partial-counter', 'the same figure marked Partial: made, Partial', ['CoveragePartial'], [clauses.coverage], { measured_uj: 10, estimated_uj: 10, provenance: 'HwShunt', coverage: 'Partial', obtained: { ...counter, covers: 'Partial' } }, { made: { provenance: 'HwShunt', measured: true, partial: true } }),
    F('hwshunt-not-live', 'HwShunt from a counter that is not live: refused', ['NotLiveCounter', 'SuiteErrorCode'], [clauses.notLive], { measured_uj: 10, estimated_uj: 10, provenance: 'HwShunt', obtained: { ...counter, live: 'not-live' } }, { error: 'ERR_ENERGY_PROVENANCE_OVERCLAIMED' }, 'invalid'),
  ];
}

// ---- sense:P-OBSERVER (sense §4) ----------------------------------------------------------------------------------

const OBSERVER = 'sense/4#observer-deterministic';

function observerCases(): Case[] {
  const ev = (source: string, trust: string): Json => ({ source, trust });
  const run = (n: number, source: string, trust: string): Json[] => Array.from({ length: n }, () => ev(source, trust));
  const DET = { one_per_event: true, replay_identical: true, prefix_consistent: true, in_range: true };
  const O = (name: string, comment: string, streams: [Json[], number][], greater: [string, [number, number], [number, number], boolean][]): Case => ({
    pack: P,
    name: `sense-observer-${name}`,
    type: 'SenseObserverReplay',
    comment,
    flags: ['ObserverDeterminism'],
    clauses: [OBSERVER],
    inputs: { streams: streams.map(([events, prefix]) => ({ events, prefix })), greater: greater.map(([scalar, of, than]) => ({ scalar, of, than })) },
    intent: exactly({ streams: streams.map(() => DET), greater: greater.map(([, , , g]) => g) }),
  });
  // a fixed mix of every source class and trust level (no randomness: indices stepped by primes)
  const SOURCES = ['file_change', 'app_focus', 'system_log', 'process_tree', 'thermal_power', 'shell', 'accessibility', 'network', 'endpoint', 'salience'];
  const TRUSTS = ['Attested', 'FirstParty', 'Inferred', 'Untrusted'];
  const mixed = Array.from({ length: 40 }, (_, i) => ev(SOURCES[(i * 7 + (i >> 2)) % SOURCES.length]!, TRUSTS[(i * 3 + (i >> 3)) % TRUSTS.length]!));
  const burst = [...run(30, 'shell', 'FirstParty'), ev('network', 'FirstParty')];
  return [
    O('mixed-replay', '40 events mixing ten source classes and the four trust levels: replayed, the same projections; the first 17 project as the start of the whole; every scalar in [0, 1]', [[mixed, 17]], []),
    O('empty', 'no events: no projections, replayed alike', [[[], 0]], []),
    O('one-event', 'one event, and its prefix of none', [[[ev('shell', 'Attested')], 0]], []),
    // "salience — is the current source bursting?"; "novelty — is the current source rare? (one minus its share of all traffic seen)"
    O(
      'burst-then-lone',
      '30 shell events then one network event: the burst (event 29) is more salient and less novel than the lone event (30) — under any window longer than one event, the current event in it or not',
      [[burst, 30]],
      [
        ['salience', [0, 29], [0, 30], true],
        ['novelty', [0, 30], [0, 29], true],
        ['salience', [0, 30], [0, 29], false],
        ['novelty', [0, 29], [0, 30], false],
      ],
    ),
    // "uncertainty — is the recent window low-trust? (the fraction of the window at Inferred/Untrusted)"
    O(
      'trust-windows',
      'four streams of 30 file_change events, at Untrusted, Inferred, Attested and FirstParty: each low-trust window (after event 29) more uncertain than each other',
      [[run(30, 'file_change', 'Untrusted'), 15], [run(30, 'file_change', 'Inferred'), 15], [run(30, 'file_change', 'Attested'), 15], [run(30, 'file_change', 'FirstParty'), 15]],
      [
        ['uncertainty', [0, 29], [2, 29], true],
        ['uncertainty', [0, 29], [3, 29], true],
        ['uncertainty', [1, 29], [2, 29], true],
        ['uncertainty', [1, 29], [3, 29], true],
        ['uncertainty', [2, 29], [0, 29], false],
        ['uncertainty', [3, 29], [1, 29], false],
      ],
    ),
  ];
}

// ---- sense:P-HONESTY (sense §6) -----------------------------------------------------------------------------------

const HONEST_ANSWER = 'sense/6#honest-energy-figure';

function honestyCases(): Case[] {
  const wire = (physical_ns: number, source: string, line: string, trust = 'FirstParty', logical = 0): Json => ({ physical_ns, logical, source, trust, payload: toHex(utf8.encode(`raw:${source}:${line}`)), line });
  /** What a host saw in one session (as harness/conformance/sense.test.ts's SESSION). */
  const SESSION: Json[] = [
    wire(1_000, 'file_change', 'modified src/main.ts'),
    wire(1_000, 'shell', 'npm test', 'FirstParty', 1),
    wire(2_000, 'app_focus', 'focused editor'),
    wire(3_000, 'system_log', 'disk nearly full', 'Inferred'),
    wire(4_000, 'file_change', 'modified README.md'),
    wire(5_000, 'shell', 'git status'),
    wire(6_000, 'salience', 'surfaced: build failing', 'Attested'),
  ];
  const H = (name: string, comment: string, events: Json[], query: string, k: number): Case => ({
    pack: P,
    name: `sense-honesty-${name}`,
    type: 'SenseAnswerEnergy',
    comment: `${comment}: an integer pair, honestly tagged, and a zero estimate with no measurement where no model was called`,
    flags: ['AnswerEnergyHonesty'],
    clauses: [HONEST_ANSWER],
    inputs: { events, query, k },
    intent: exactly({ integer_pair: true, tag_matches_measurement: true, deterministic_zero_estimate: true }),
  });
  return [
    H('last-command', 'the session asked "what was the last command I ran?"', SESSION, 'what was the last command I ran?', 6),
    H('files-changed', 'the session asked "which files changed recently?" with 7 slots', SESSION, 'which files changed recently?', 7),
    H('surfaced', 'the session asked "what was surfaced?"', SESSION, 'what was surfaced?', 6),
    H('open-ended', 'the session asked an open-ended question', SESSION, 'why is the build failing and what should I try?', 6),
    H('recall-unbacked', 'a session with no shell event asked "what was the last command I ran?"', SESSION.filter((e) => (e as JsonObject)['source'] !== 'shell'), 'what was the last command I ran?', 6),
    H('empty-log', 'an empty log asked "what was the last command I ran?"', [], 'what was the last command I ran?', 6),
  ];
}

// ---- jouleclaw:P-ENERGY (jouleclaw §1.3, §9.4) --------------------------------------------------------------------

const JC_CRITERION = 'jouleclaw/1.3#ioreport-liveness-criterion';
const JC_BREAKER = 'jouleclaw/1.3#breaker-worst-counter';
const JC_BREAKER_94 = 'jouleclaw/9.4#breaker-worst-counter';
const JC_FLOORS = 'jouleclaw/1.3#surface-resolution-and-window';
const JC_UNCHECKED = 'jouleclaw/1.3#unchecked-span-end-not-hw';
const JC_SHARED = 'jouleclaw/1.3#shared-gpu-rail-not-split';
const JC_PROVENANCE = 'jouleclaw/1.3#reading-carries-provenance';
const JC_ONLY_LIVE = 'jouleclaw/1.3#hw-grade-only-while-live';
const JC_NOT_LIVE = 'jouleclaw/1.3#not-live-no-hw-grade';
const JC_COVERAGE = 'jouleclaw/1.3#no-coverage-beyond-counter';
const JC_TWO_SIDED = 'jouleclaw/1.3#bound-two-sided';
const JC_INDETERMINATE = 'jouleclaw/1.3#indeterminate-not-hw-grade';
const JC_IDLE = 'jouleclaw/1.3#bound-silent-near-idle';
const JC_OFF_CORE = 'jouleclaw/1.3#own-process-read-after-off-core';

/** energy.liveness: the verdict, where every reading of the criterion agrees (the same judgement sense §7 and jouleclaw §1.3 ask). */
function livenessCase(name: string, comment: string, clauses: string[], steps: Step[], live: boolean): Case {
  return {
    pack: P,
    name,
    type: 'EnergyLiveness',
    comment: `the IOReport CPU rail ${comment}: ${live ? 'live' : 'not live'}`,
    flags: ['LivenessCriterion'],
    clauses,
    inputs: { counters: [{ name: 'CPU Energy', samples: premise(steps, live, name) }] },
    intent: exactly({ verdict: live ? 'live' : 'not-live' }),
  };
}

/** sense §7's interval rule, which jouleclaw §1.3 does not state: through energy.liveness, for sense:P-ENERGY. */
function senseLivenessCases(): Case[] {
  const L = (name: string, comment: string, steps: Step[], live: boolean, clauses = [INTERVAL]): Case => livenessCase(`sense-energy-liveness-${name}`, comment, clauses, steps, live);
  return [
    L('eight-of-75ms', 'advancing over eight 75 ms intervals (each counts: 8 advances, 600 ms)', repeat(8, [75, true]), true),
    L('twelve-of-76ms', 'advancing over twelve 76 ms intervals (none counts)', repeat(12, [76, true]), false),
    L('short-between-long', 'advancing over six 25 ms intervals between six 100 ms ones (150 ms counted)', Array.from({ length: 12 }, (_, i) => (i % 2 === 0 ? [25, true] : [100, true]) as Step), false),
    L('advances-only-stretched', 'advancing only across 150 ms intervals, frozen over every 25 ms one', Array.from({ length: 40 }, (_, i) => (i % 2 === 0 ? [25, false] : [150, true]) as Step), false),
    L('long-gaps-ignored', 'advancing at every 25 ms tick, twelve of them, with a 200 ms stall (not advancing) between the sixth and seventh: the stall counts as nothing (300 ms counted, every counted interval advancing)', [...repeat(6, [25, true]), [200, false], ...repeat(6, [25, true])], true),
    L('every-tick-1s', 'advancing at every 25 ms tick for 1 s', LIVE, true, [CRITERION]),
    L('five-of-60ms', 'advancing over five 60 ms intervals (5 advances, exactly 300 ms)', repeat(5, [60, true]), true, [CRITERION]),
    L('eleven-over-275ms', 'advancing at eleven 25 ms ticks (275 ms)', repeat(11, [25, true]), false, [CRITERION]),
    L('three-of-five', 'advancing in 3 of every 5 of twenty 25 ms intervals', kOfFive(3, 20), false, [CRITERION]),
  ];
}

function jcLivenessCases(): Case[] {
  const L = (name: string, comment: string, steps: Step[], live: boolean): Case => livenessCase(`jc-energy-liveness-${name}`, comment, [JC_CRITERION], steps, live);
  return [
    L('every-tick-1s', 'advancing at every 25 ms tick for 1 s', LIVE, true),
    L('exactly-300ms', 'advancing at each of twelve 25 ms ticks (exactly 300 ms)', repeat(12, [25, true]), true),
    L('five-of-six', 'advancing over five of six 50 ms intervals, the third frozen (5 advances, 300 ms, every 5 consecutive holding 4)', [[50, true], [50, true], [50, false], [50, true], [50, true], [50, true]], true),
    L('four-of-five', 'advancing in 4 of every 5 of forty 25 ms intervals', kOfFive(4, 40), true),
    L('frozen', 'never advancing over 1 s', FROZEN, false),
    L('four-advances', 'advancing over four 75 ms intervals (300 ms, 4 advances)', repeat(4, [75, true]), false),
    L('299ms', 'advancing over five intervals summing to 299 ms', [...repeat(4, [60, true]), [59, true]], false),
    L('three-of-five', 'advancing in 3 of every 5 of twenty 25 ms intervals', kOfFive(3, 20), false),
  ];
}

function jcLadderCases(): Case[] {
  const NOT_HW_J: JsonObject = { tagged: true, tag_matches_measurement: true, hardware_graded: false, claims_whole_hardware: false };
  const J = (name: string, comment: string, flags: string[], clauses: string[], rung: JsonObject, expected: JsonObject): Case => ({
    pack: P,
    name: `jc-energy-ladder-${name}`,
    type: 'JcEnergyLadder',
    comment,
    flags,
    clauses,
    inputs: { rungs: [{ status: 'read', ...rung }], estimated_uj: 777 },
    intent: exactly(expected),
  });
  const io = (steps: Step[], what: string) => ({ rung: 'ioreport', counters: [{ name: 'CPU Energy', samples: premise(steps, false, what) }] });
  const board = (draw_mw: number[]): JsonObject => ({ draw_mw, limit_mw: 65_000 });
  const nvml = (mw: number, telemetry?: JsonObject) => ({ rung: 'nvml', counters: [{ name: 'gpu0', samples: accruing(mw, 20) }], ...(telemetry ? { telemetry } : {}) });
  if (liveUnderEveryReading(repeat(20, [25, true])) !== true) throw new Error('energy-cases: the NVML counter is not live');
  return [
    J('ioreport-four-advances', 'an IOReport rung whose CPU rail advanced over four 75 ms intervals: tagged, and no hardware grade', ['LivenessCriterion'], [JC_CRITERION, JC_NOT_LIVE, JC_PROVENANCE], io(repeat(4, [75, true]), '4x75'), NOT_HW_J),
    J('ioreport-frozen', 'an IOReport rung whose CPU rail is frozen (macOS 27.0.1 unprivileged): tagged, and no hardware grade', ['NotLiveCounter'], [JC_NOT_LIVE, JC_ONLY_LIVE, JC_PROVENANCE], io(FROZEN, 'FROZEN'), NOT_HW_J),
    J('rapl-frozen', 'a RAPL rung whose package counter is frozen: no hardware grade', ['NotLiveCounter'], [JC_NOT_LIVE, JC_ONLY_LIVE], { rung: 'rapl', counters: [{ zone: 'intel-rapl:0', name: 'package-0', samples: accruing(0, 20) }] }, NOT_HW_J),
    J('rapl-lumps-100ms', 'a RAPL rung whose package counter is republished every 100 ms over 2 s: no hardware grade', ['NotLiveCounter'], [JC_NOT_LIVE, JC_ONLY_LIVE], { rung: 'rapl', counters: [{ zone: 'intel-rapl:0', name: 'package-0', samples: accruing(15_000, 80, 100) }] }, NOT_HW_J),
    // jcp §5.1: NVML "reads the GPU and not the CPU's share of the work"
    J('nvml-live-partial', 'a live NVML rung (15 W at every tick): a hardware figure (if any) is Partial — the counter reads the GPU, not the work', ['CoveragePartial'], [JC_COVERAGE, JC_PROVENANCE], nvml(15_000), { tagged: true, tag_matches_measurement: true, claims_whole_hardware: false }),
    // the two-sided bound, over a board whose draw samples are sane (at or under its 65 W limit)
    J('nvml-far-below-draw', 'a live NVML counter at 100 mW on a board drawing 60 W (1/600 of the draw): refuted, no hardware grade', ['TwoSidedBound'], [JC_TWO_SIDED], nvml(100, board(Array.from({ length: 10 }, () => 60_000))), NOT_HW_J),
    J('nvml-far-above-draw', 'a live NVML counter at 444 W on a board drawing 14.8 W with a 65 W limit: refuted, no hardware grade', ['TwoSidedBound'], [JC_TWO_SIDED], nvml(444_000, board(Array.from({ length: 10 }, () => 14_800))), NOT_HW_J),
    J('nvml-yardstick-unusable', 'a live NVML counter at 10 W, every draw sample of the board past its own 65 W limit (590, 610, 588 W): the yardstick unusable, an indeterminate, no hardware grade', ['TwoSidedBound'], [JC_INDETERMINATE], nvml(10_000, board([590_000, 610_000, 588_000])), NOT_HW_J),
  ];
}

function jcPlausibilityCases(): Case[] {
  const S10 = 10_000_000_000; // 10 s
  const Q = (name: string, comment: string, clauses: string[], mw: number, draw: number[], refuted: 'below' | 'above' | 'no'): Case => ({
    pack: P,
    name: `jc-energy-bound-${name}`,
    type: 'JcEnergyPlausibility',
    comment,
    flags: ['TwoSidedBound'],
    clauses,
    // µJ over 10 s at `mw`: mW × 10 s = mW × 10,000 µJ
    inputs: { delta_uj: mw * 10_000, duration_ns: S10, telemetry: { draw_mw: draw, limit_mw: 65_000 } },
    intent: exactly({ refuted }),
  });
  const flat = (mw: number) => Array.from({ length: 10 }, () => mw);
  return [
    Q('far-below', 'a counter at 100 mW over 10 s on a board drawing 60 W: refuted below', [JC_TWO_SIDED], 100, flat(60_000), 'below'),
    Q('far-above', 'a counter at 444 W over 10 s on a board drawing 14.8 W with a 65 W limit: refuted above', [JC_TWO_SIDED], 444_000, flat(14_800), 'above'),
    Q('at-the-draw', 'a counter at the board draw (14.8 W): refuted in neither direction', [JC_TWO_SIDED], 14_800, flat(14_800), 'no'),
    Q('idle-zero', 'a counter that accrued nothing on a board drawing 3 W, under the draw reading\'s own ±5 W: near idle, the bound does not fire', [JC_IDLE], 0, flat(3_000), 'no'),
    Q('idle-150mw', 'a counter at 150 mW on a board drawing 3 W: near idle, the bound does not fire', [JC_IDLE], 150, flat(3_000), 'no'),
  ];
}

function jcFloorsCases(): Case[] {
  /** §1.3 "Realistic floors": what each counter cannot claim (a refused counter is one the meter does not read, claiming nothing). */
  const claims: Record<string, JsonObject> = {
    rapl: { positive: true },
    // "NVIDIA discrete (NVML cumulative-energy): ~1 mJ, ~100 ms"; "86.3 % at 10 ms"; "A counter read below its own update rate is not a reading of the span"
    nvml: { positive: true, claims_microjoule: false, claims_window_within_10ms: false },
    // "Apple Silicon IOReport: ~1 mJ, ~10 ms"; "Marketing claims of microjoule precision on Apple Silicon are sales talk"
    ioreport: { positive: true, claims_microjoule: false },
    'proc-self': { positive: true },
  };
  const F = (name: string, comment: string, counters: string[]): Case => ({
    pack: P,
    name: `jc-energy-floors-${name}`,
    type: 'JcEnergyFloors',
    comment,
    flags: ['MeterFloors'],
    clauses: [JC_FLOORS],
    inputs: { counters },
    intent: exactly({ counters: counters.map((c) => claims[c]!), answered_any: true }),
  });
  return [
    F('every-counter', "RAPL, NVML, IOReport and the process's own count: floors surfaced for at least one; each surfaced positive; NVML and IOReport claim no microjoule, NVML no window of 10 ms or less", ['rapl', 'nvml', 'ioreport', 'proc-self']),
    F('every-counter-reversed', 'the same asked in the reverse order', ['proc-self', 'ioreport', 'nvml', 'rapl']),
  ];
}

function jcBreakerCases(): Case[] {
  const RAPL = { resolution_uj: 1, min_window_ns: 10 * MS };
  const NVML = { resolution_uj: 1_000, min_window_ns: 100 * MS };
  const IOREPORT = { resolution_uj: 1_000, min_window_ns: 10 * MS };
  const B = (name: string, comment: string, counters: JsonObject[]): Case => {
    // the worst counter: coarsest in resolution and longest in window; built only where one counter is both
    const worst = counters.find((c) => counters.every((d) => (c['resolution_uj'] as number) >= (d['resolution_uj'] as number) && (c['min_window_ns'] as number) >= (d['min_window_ns'] as number)));
    if (!worst) throw new Error(`energy-cases: ${name} has no counter worst in both floors`);
    return { pack: P, name: `jc-energy-breaker-${name}`, type: 'JcEnergyBreaker', comment: `${comment}: enforced at the worst counter's floors`, flags: ['BreakerWorstCounter'], clauses: [JC_BREAKER, JC_BREAKER_94], inputs: { counters }, intent: exactly({ ...worst }) };
  };
  return [
    B('rapl-nvml', "RAPL (1 µJ, 10 ms) with NVML (1 mJ, 100 ms): NVML's", [RAPL, NVML]),
    B('nvml-rapl', 'NVML with RAPL, in the other order', [NVML, RAPL]),
    B('three-counters', 'IOReport, NVML and RAPL: NVML, tied with IOReport in resolution and worst in window', [IOREPORT, NVML, RAPL]),
    B('worst-in-middle', 'five counters, the worst third', [{ resolution_uj: 3, min_window_ns: 7 }, { resolution_uj: 40, min_window_ns: 250 * MS }, { resolution_uj: 2_000_000, min_window_ns: 2_000_000_000 }, { resolution_uj: 5, min_window_ns: 100 }, { resolution_uj: 1, min_window_ns: 1 }]),
    B('large-floors', 'floors past 2^32', [{ resolution_uj: 2 ** 40, min_window_ns: 2 ** 50 }, RAPL]),
  ];
}

function jcProcSelfCases(): Case[] {
  const checked = { before_nj: 1_000, after_nj: 1_350 };
  const unchecked = { before_nj: 1_000, after_nj: 1_000 };
  const noGpu = { own_gpu_ns: 0, clients_gpu_ns: 0, rail_nj: 0 };
  const C = (name: string, comment: string, flags: string[], clauses: string[], start: JsonObject, stop: JsonObject, gpu: JsonObject | undefined, expected: JsonObject): Case => ({
    pack: P,
    name: `jc-energy-proc-self-${name}`,
    type: 'JcEnergyProcSelf',
    comment,
    flags,
    clauses,
    inputs: { start, stop, cpu_nj: 5_000_000, ...(gpu ? { gpu } : {}), estimated_uj: 9_999 },
    intent: exactly(expected),
  });
  const out: Case[] = [
    C('unchecked-start', "the reading thread's count did not rise across its sleep before the start read: the span is estimated, no hardware grade", ['CheckedSpanEnd'], [JC_UNCHECKED, JC_OFF_CORE], unchecked, checked, noGpu, { hardware_graded: false }),
    C('unchecked-stop', 'the same before the stop read: no hardware grade', ['CheckedSpanEnd'], [JC_UNCHECKED, JC_OFF_CORE], checked, unchecked, noGpu, { hardware_graded: false }),
    C('unchecked-both', 'neither end checked: no hardware grade', ['CheckedSpanEnd'], [JC_UNCHECKED, JC_OFF_CORE], unchecked, unchecked, noGpu, { hardware_graded: false }),
    C('unchecked-start-shared-gpu', 'the start unchecked and a GPU shared at 50 %: no hardware grade, no GPU figure, no split', ['CheckedSpanEnd', 'SharedGpuRail'], [JC_UNCHECKED, JC_SHARED], unchecked, checked, { own_gpu_ns: 500_000_000, clients_gpu_ns: 1_000_000_000, rail_nj: 8_000_000_000 }, { hardware_graded: false, gpu_figure: false, rail_split: false }),
  ];
  // "A shared GPU gives no figure: the rail MUST NOT be split by GPU time"; "at least 99% of every GPU client's GPU time" is not shared
  for (const [label, own, all] of [['1pct', 10_000_000, 1_000_000_000], ['50pct', 500_000_000, 1_000_000_000], ['98-9pct', 989_999_999, 1_000_000_000], ['one-ns', 1, 1_000_000], ['thirds', 1_000_000, 3_000_001]] as const) {
    if (!(own > 0 && own * 100 < all * 99)) throw new Error(`energy-cases: ${label} is not a shared GPU`);
    out.push(C(`shared-gpu-${label}`, `both ends checked, the process's own GPU time ${own} of every client's ${all} ns, the rail 8 J: no GPU figure, and no measurement that is the rail split by GPU time`, ['SharedGpuRail'], [JC_SHARED], checked, checked, { own_gpu_ns: own, clients_gpu_ns: all, rail_nj: 8_000_000_000 }, { gpu_figure: false, rail_split: false }));
  }
  return out;
}

/** Every case of the energy group, profile by profile, in a stable order. */
export function energyCases(): Case[] {
  return [
    ...senseMeterCases(),
    ...senseLivenessCases(),
    ...figureMakeCases('sense-energy', { measured: HW_MEASURED, coverage: COVERAGE, notLive: NOT_LIVE }),
    ...observerCases(),
    ...honestyCases(),
    ...jcLivenessCases(),
    ...jcLadderCases(),
    ...jcPlausibilityCases(),
    ...jcFloorsCases(),
    ...jcBreakerCases(),
    ...jcProcSelfCases(),
    ...figureMakeCases('jc-energy', { measured: JC_PROVENANCE, coverage: JC_COVERAGE, notLive: JC_NOT_LIVE }),
  ];
}
