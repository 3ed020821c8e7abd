// Runs one vector of the energy group (vectors/profiles/energy.ts) through the profiles' own testee operations
// (harness/protocol/profiles/energy.md; the energy.* operations of testee.cddl, which sense:P-ENERGY and
// jouleclaw:P-ENERGY share with jcp:C9; sense.ask, which sense:P-HONESTY shares with sense:C4) and reports only what
// the profiles' clauses decide, read from the answer the way the profiles' conformance tests read it
// (harness/conformance/p-energy-*.test.ts, sense.test.ts), so that every reading the spec permits gives the same JSON:
//   - a figure as facts, never its numbers: an integer µJ pair, its tag matching its measurement, whether it is
//     hardware-graded (HwShunt or carrying measured_uj) and whether it is a hardware figure claiming the whole work; a
//     work reported unmetered (sense §7, jouleclaw §1.3 permit it where the counter is not live) is no figure, and so
//     neither hardware-graded nor dishonestly tagged;
//   - the observer's determinism and the comparisons its meanings fix, never its values (sense §4 names no window);
//   - an answer's figure as sense §6's honesty, never the figure a fallback chose;
//   - a meter's floors as the claims they make (microjoule accuracy, a window of 10 ms or less); a counter the meter
//     refuses is one it does not read, claiming nothing;
//   - a plausibility judgement as whether the bound fired and in which direction (an indeterminate does not fire);
//   - a per-process span as whether it is hardware-graded, whether it gives a GPU figure, and whether its measurement
//     is the GPU rail split by GPU time (rounded any way).
// Refusals are `{ error: code }` (the caller wraps each run in vectors/jc-execute.ts's refusal).
import type { CborMap, CborValue } from '../../impl/cbor/index.ts';
import type { Implementation } from '../../harness/implementation.ts';
import { TesteeError } from '../../harness/implementation.ts';
import { arr, hex, obj, str, uint } from '../inputs.ts';
import type { Json, JsonObject } from '../model.ts';
import type { ENERGY_PROFILE_TYPES } from './energy-kinds.ts';
import type { KindExecutor } from './group.ts';

type Kind = (typeof ENERGY_PROFILE_TYPES)[number];

const MS = 1_000_000n;
const ONE_PPM = 1_000_000n;
/** sense §7, jouleclaw §1.3, jcp §5: the three provenance tags. */
const TAGS: ReadonlySet<string> = new Set(['HwShunt', 'ModelBased', 'Estimator']);

/** A non-negative integer as the testee answered it (bigint, or a safe integer number), else undefined. */
function nat(v: unknown): bigint | undefined {
  if (typeof v === 'bigint') return v >= 0n ? v : undefined;
  if (typeof v === 'number' && Number.isSafeInteger(v) && v >= 0) return BigInt(v);
  return undefined;
}
const isMap = (v: unknown): v is CborMap => v instanceof Map;
/** A non-negative integer the answer carries, as a JSON number, or its text where it is not one. */
const num = (v: unknown): Json => {
  const n = nat(v);
  return n !== undefined && n <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(n) : `not an integer: ${String(v)}`;
};

/** Samples as the protocol takes them. */
const samplesIn = (v: Json | undefined, what: string) =>
  arr(v, what).map((s, i) => {
    const o = obj(s, `${what}[${i}]`);
    return { t_ns: uint(o['t_ns'], `${what}[${i}].t_ns`), value: uint(o['value'], `${what}[${i}].value`) };
  });

/**
 * A figure as the facts sense §7 and jouleclaw §1.3 decide: `integer_pair` (estimated_uj always present, and it and
 * measured_uj integers of µJ), `tag_matches_measurement` (HwShunt with a measurement, Estimator without one),
 * `hardware_graded` (HwShunt, or measured_uj present: "measured_uj (present only from a live hardware interface)"),
 * `claims_whole_hardware` (hardware-graded and not Partial) and `tagged` (a provenance of the three). No figure (the
 * work unmetered) is none of these things wrongly.
 */
function figureFacts(e: CborValue | undefined): JsonObject {
  if (e === undefined) return { integer_pair: true, tag_matches_measurement: true, hardware_graded: false, claims_whole_hardware: false, tagged: true };
  if (!isMap(e)) return { figure: 'not a map' };
  const measured = e.get('measured_uj');
  const estimated = e.get('estimated_uj');
  const prov = e.get('provenance');
  const hardware = prov === 'HwShunt' || measured !== undefined;
  return {
    integer_pair: nat(estimated) !== undefined && (measured === undefined || nat(measured) !== undefined),
    tag_matches_measurement: !(prov === 'HwShunt' && measured === undefined) && !(prov === 'Estimator' && measured !== undefined),
    hardware_graded: hardware,
    claims_whole_hardware: hardware && e.get('coverage') !== 'Partial',
    tagged: typeof prov === 'string' && TAGS.has(prov),
  };
}

const counterIn = (c: Json, what: string) => {
  const o = obj(c, what);
  return {
    ...(o['zone'] !== undefined ? { zone: str(o['zone'], `${what}.zone`) } : {}),
    name: str(o['name'], `${what}.name`),
    samples: samplesIn(o['samples'], `${what}.samples`),
  };
};

const telemetryIn = (v: Json | undefined, what: string) => {
  const t = obj(v, what);
  return { draw_mw: arr(t['draw_mw'], `${what}.draw_mw`).map((d, i) => uint(d, `${what}.draw_mw[${i}]`)), ...(t['limit_mw'] !== undefined ? { limit_mw: uint(t['limit_mw'], `${what}.limit_mw`) } : {}) };
};

/** sense-energy.meter (sense §7): the figure's facts. */
async function senseMeter(impl: Implementation, inp: JsonObject): Promise<JsonObject> {
  const r = await impl._call('sense-energy.meter', {
    domains: arr(inp['domains'], 'domains').map((d, i) => str(d, `domains[${i}]`)),
    counters: arr(inp['counters'], 'counters').map((c, i) => {
      const o = obj(c, `counters[${i}]`);
      return { domain: str(o['domain'], `counters[${i}].domain`), samples: samplesIn(o['samples'], `counters[${i}].samples`), delta_uj: uint(o['delta_uj'], `counters[${i}].delta_uj`) };
    }),
    estimated_uj: uint(inp['estimated_uj'], 'estimated_uj'),
  });
  return figureFacts(r.get('energy'));
}

/** energy.make (sense §7, jouleclaw §1.3 through the validating constructor): the figure made, as its tag, whether it carries a measurement and whether it is Partial. */
async function figureMake(impl: Implementation, inp: JsonObject): Promise<JsonObject> {
  const o = obj(inp['obtained'], 'obtained');
  const r = await impl._call('energy.make', {
    ...(inp['measured_uj'] !== undefined ? { measured_uj: uint(inp['measured_uj'], 'measured_uj') } : {}),
    estimated_uj: uint(inp['estimated_uj'], 'estimated_uj'),
    provenance: str(inp['provenance'], 'provenance'),
    ...(inp['coverage'] !== undefined ? { coverage: str(inp['coverage'], 'coverage') } : {}),
    obtained: Object.fromEntries(Object.entries(o).map(([k, v]) => [k, str(v, `obtained.${k}`)])),
  });
  const e = r.get('energy');
  if (!isMap(e)) return { made: 'not a map' };
  return { made: { provenance: String(e.get('provenance')), measured: e.get('measured_uj') !== undefined, partial: e.get('coverage') === 'Partial' } };
}

/** The observer's projections of `events`, as ppm triples (a value that is no integer kept as it came). */
async function project(impl: Implementation, events: Record<string, string>[]): Promise<unknown[][]> {
  const r = await impl._call('observer.project', { events });
  const ps = r.get('projections');
  if (!Array.isArray(ps)) throw new Error('observer.project answered no projections array');
  return ps.map((p) => (isMap(p) ? [p.get('salience'), p.get('novelty'), p.get('uncertainty')] : [p, p, p]));
}
const sameProjections = (a: unknown[][], b: unknown[][]): boolean =>
  a.length === b.length && a.every((p, i) => p.length === b[i]!.length && p.every((x, j) => nat(x) !== undefined && nat(x) === nat(b[i]![j])));
const SCALARS = ['salience', 'novelty', 'uncertainty'] as const;

/**
 * observer.project (sense §4): per stream, one projection per event, the same projections when replayed, the
 * projections of its first `prefix` events the start of the whole, every scalar in [0, 1]; then each comparison
 * `greater` asks (the scalar at `of` above the one at `than`, each [stream, event index]).
 */
async function observerReplay(impl: Implementation, inp: JsonObject): Promise<JsonObject> {
  const runs: unknown[][][] = [];
  const streams: Json[] = [];
  for (const [s, x] of arr(inp['streams'], 'streams').entries()) {
    const o = obj(x, `streams[${s}]`);
    const events = arr(o['events'], `streams[${s}].events`).map((e, i) => {
      const eo = obj(e, `streams[${s}].events[${i}]`);
      return { source: str(eo['source'], 'source'), trust: str(eo['trust'], 'trust') };
    });
    const k = Number(uint(o['prefix'], `streams[${s}].prefix`));
    const first = await project(impl, events);
    const again = await project(impl, events);
    const prefix = await project(impl, events.slice(0, k));
    runs.push(first);
    streams.push({
      one_per_event: first.length === events.length,
      replay_identical: sameProjections(first, again),
      prefix_consistent: sameProjections(prefix, first.slice(0, k)),
      in_range: first.every((p) => p.every((v) => nat(v) !== undefined && nat(v)! <= ONE_PPM)),
    });
  }
  const at = (v: Json, what: string, scalar: number): bigint | undefined => {
    const [s, i] = arr(v, what).map((n, j) => Number(uint(n, `${what}[${j}]`)));
    return nat(runs[s!]?.[i!]?.[scalar]);
  };
  const greater = arr(inp['greater'], 'greater').map((g, i) => {
    const o = obj(g, `greater[${i}]`);
    const scalar = SCALARS.indexOf(str(o['scalar'], `greater[${i}].scalar`) as (typeof SCALARS)[number]);
    if (scalar < 0) throw new Error(`vector input greater[${i}].scalar must name one of ${SCALARS.join(', ')}`);
    const a = at(o['of'] ?? null, `greater[${i}].of`, scalar);
    const b = at(o['than'] ?? null, `greater[${i}].than`, scalar);
    return a !== undefined && b !== undefined && a > b;
  });
  return { streams, greater };
}

/**
 * sense.ask (sense §6): the answer's figure — an integer pair, its tag matching its measurement, and, for a
 * deterministic answer (no model call), "an honest zero estimate, never a measurement": estimated_uj 0, no
 * measured_uj, not HwShunt (the tag of a zero estimate, Estimator or ModelBased, is not what §6 names).
 */
async function answerEnergy(impl: Implementation, inp: JsonObject): Promise<JsonObject> {
  const events = arr(inp['events'], 'events').map((v, i) => {
    const e = obj(v, `events[${i}]`);
    return {
      physical_ns: uint(e['physical_ns'], `events[${i}].physical_ns`),
      logical: uint(e['logical'], `events[${i}].logical`),
      source: str(e['source'], `events[${i}].source`),
      trust: str(e['trust'], `events[${i}].trust`),
      payload: hex(e['payload'], `events[${i}].payload`),
      line: str(e['line'], `events[${i}].line`),
    };
  });
  const r = await impl._call('sense.ask', { events, query: str(inp['query'], 'query'), k: uint(inp['k'], 'k') });
  const e = r.get('energy');
  const f = figureFacts(e);
  const deterministic = nat(r.get('model_calls')) === 0n || r.get('tier') === 'tier0';
  const zero = isMap(e) && e.get('measured_uj') === undefined && nat(e.get('estimated_uj')) === 0n && e.get('provenance') !== 'HwShunt';
  return { integer_pair: f['integer_pair']!, tag_matches_measurement: f['tag_matches_measurement']!, deterministic_zero_estimate: !deterministic || zero };
}

/** energy.liveness (jouleclaw §1.3): the verdict over the counters. */
async function liveness(impl: Implementation, inp: JsonObject): Promise<JsonObject> {
  const r = await impl._call('energy.liveness', { counters: arr(inp['counters'], 'counters').map((c, i) => counterIn(c, `counters[${i}]`)) });
  return { verdict: String(r.get('verdict')) };
}

/** energy.ladder (jouleclaw §1.3): the facts of the figure the ladder settles on. */
async function ladder(impl: Implementation, inp: JsonObject): Promise<JsonObject> {
  const rungs = arr(inp['rungs'], 'rungs').map((x, i) => {
    const o = obj(x, `rungs[${i}]`);
    return {
      rung: str(o['rung'], `rungs[${i}].rung`),
      status: str(o['status'], `rungs[${i}].status`),
      counters: arr(o['counters'], `rungs[${i}].counters`).map((c, j) => counterIn(c, `rungs[${i}].counters[${j}]`)),
      ...(o['telemetry'] !== undefined ? { telemetry: telemetryIn(o['telemetry'], `rungs[${i}].telemetry`) } : {}),
    };
  });
  const r = await impl._call('energy.ladder', { rungs, estimated_uj: uint(inp['estimated_uj'], 'estimated_uj') });
  return figureFacts(r.get('energy'));
}

/** energy.plausibility (jouleclaw §1.3): whether the bound fired, and which way ("no" for not refuted, indeterminate or no bound). */
async function plausibility(impl: Implementation, inp: JsonObject): Promise<JsonObject> {
  const r = await impl._call('energy.plausibility', { delta_uj: uint(inp['delta_uj'], 'delta_uj'), duration_ns: uint(inp['duration_ns'], 'duration_ns'), telemetry: telemetryIn(inp['telemetry'], 'telemetry') });
  const v = r.get('verdict');
  return { refuted: v === 'counter-under-rate' ? 'below' : v === 'counter-over-rate' ? 'above' : 'no' };
}

/**
 * jc-energy.floors (jouleclaw §1.3), per counter: `refused` (a counter the meter does not read), `positive` (floors
 * surfaced, each at least 1), `claims_microjoule` (a resolution of 1 µJ or finer), `claims_window_within_10ms`; and
 * whether the meter answered for any counter.
 */
async function floors(impl: Implementation, inp: JsonObject): Promise<JsonObject> {
  const counters: Json[] = [];
  for (const [i, c] of arr(inp['counters'], 'counters').entries()) {
    const counter = str(c, `counters[${i}]`);
    let r: CborMap;
    try {
      r = await impl._call('jc-energy.floors', { counter });
    } catch (e) {
      if (!(e instanceof TesteeError)) throw e;
      counters.push({ refused: true, positive: true, claims_microjoule: false, claims_window_within_10ms: false });
      continue;
    }
    const res = nat(r.get('resolution_uj'));
    const win = nat(r.get('min_window_ns'));
    counters.push({
      refused: false,
      positive: res !== undefined && win !== undefined && res >= 1n && win >= 1n,
      claims_microjoule: res === undefined || res <= 1n,
      claims_window_within_10ms: win === undefined || win <= 10n * MS,
    });
  }
  return { counters, answered_any: counters.some((c) => (c as JsonObject)['refused'] === false) };
}

/** jc-energy.breaker (jouleclaw §1.3, §9.4): the floors the breaker enforces at. */
async function breaker(impl: Implementation, inp: JsonObject): Promise<JsonObject> {
  const counters = arr(inp['counters'], 'counters').map((c, i) => {
    const o = obj(c, `counters[${i}]`);
    return { resolution_uj: uint(o['resolution_uj'], `counters[${i}].resolution_uj`), min_window_ns: uint(o['min_window_ns'], `counters[${i}].min_window_ns`) };
  });
  const r = await impl._call('jc-energy.breaker', { counters });
  return { resolution_uj: num(r.get('resolution_uj')), min_window_ns: num(r.get('min_window_ns')) };
}

/**
 * jc-energy.proc-self (jouleclaw §1.3, Apple per process): `hardware_graded`, `gpu_figure` (gpu_uj answered), and
 * `rail_split` — over a GPU the process shared (its own GPU time above zero and under 99 % of every client's), whether
 * the measurement is the rail split by GPU time, rounded down, to nearest or up, alone or beside the CPU figure
 * (rounded any of those ways).
 */
async function procSelf(impl: Implementation, inp: JsonObject): Promise<JsonObject> {
  const end = (v: Json | undefined, what: string) => {
    const o = obj(v, what);
    return { before_nj: uint(o['before_nj'], `${what}.before_nj`), after_nj: uint(o['after_nj'], `${what}.after_nj`) };
  };
  const cpu_nj = uint(inp['cpu_nj'], 'cpu_nj');
  const gpu = inp['gpu'] === undefined ? undefined : obj(inp['gpu'], 'gpu');
  const g = gpu && { own_gpu_ns: uint(gpu['own_gpu_ns'], 'gpu.own_gpu_ns'), clients_gpu_ns: uint(gpu['clients_gpu_ns'], 'gpu.clients_gpu_ns'), rail_nj: uint(gpu['rail_nj'], 'gpu.rail_nj') };
  const r = await impl._call('jc-energy.proc-self', {
    start: end(inp['start'], 'start'),
    stop: end(inp['stop'], 'stop'),
    cpu_nj,
    ...(g ? { gpu: g } : {}),
    ...(inp['used_ane'] !== undefined ? { used_ane: str(inp['used_ane'], 'used_ane') } : {}),
    estimated_uj: uint(inp['estimated_uj'], 'estimated_uj'),
  });
  const e = r.get('energy');
  const f = figureFacts(e);
  let split = false;
  if (g && g.own_gpu_ns > 0n && g.own_gpu_ns * 100n < g.clients_gpu_ns * 99n && isMap(e)) {
    const m = nat(e.get('measured_uj'));
    // the share in µJ, rail × own / every client's, rounded down, to nearest and up; and as nJ rounded down first
    const ways = (num: bigint, den: bigint) => [num / den, (2n * num + den) / (2n * den), (num + den - 1n) / den];
    const round = (nj: bigint) => ways(nj, 1_000n);
    const splits = [...ways(g.rail_nj * g.own_gpu_ns, g.clients_gpu_ns * 1_000n), ...round((g.rail_nj * g.own_gpu_ns) / g.clients_gpu_ns)];
    const cpus = round(cpu_nj);
    // a share that rounds to 0 µJ is no split: the CPU figure alone is what a conforming meter reports
    split = m !== undefined && splits.some((s) => s > 0n && (m === s || cpus.some((c) => m === c + s)));
  }
  return { hardware_graded: f['hardware_graded']!, gpu_figure: r.get('gpu_uj') !== undefined, rail_split: split };
}

/** Each kind's executor (vectors/p-execute.ts turns a refusal into { error: code }). */
export const ENERGY_RUN: Readonly<Record<Kind, KindExecutor>> = {
  SenseEnergyMeter: senseMeter,
  EnergyFigureMake: figureMake,
  SenseObserverReplay: observerReplay,
  SenseAnswerEnergy: answerEnergy,
  EnergyLiveness: liveness,
  JcEnergyLadder: ladder,
  JcEnergyPlausibility: plausibility,
  JcEnergyFloors: floors,
  JcEnergyBreaker: breaker,
  JcEnergyProcSelf: procSelf,
};
