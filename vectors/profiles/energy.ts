// profiles.json vectors of jouleclaw:P-ENERGY, sense:P-ENERGY, sense:P-OBSERVER, sense:P-HONESTY: each kind's JSON
// Schema and flags here, the cases in energy-cases.ts (their expected answers written from the spec's words), the
// executors in energy-execute.ts (each kind reporting only what the profiles' clauses decide).
import type { ProfileVectorGroup } from './group.ts';
import { ENERGY_PROFILE_TYPES } from './energy-kinds.ts';
import { energyCases } from './energy-cases.ts';
import { ENERGY_RUN } from './energy-execute.ts';
import { ERROR, HEX, UINT, obj, type S } from '../schema-parts.ts';

type Kind = (typeof ENERGY_PROFILE_TYPES)[number];

const B: S = { type: 'boolean' };
const TEXT: S = { type: 'string' };
const SAMPLES: S = { type: 'array', items: obj(['t_ns', 'value'], { t_ns: UINT, value: UINT }) };
const COUNTER: S = obj(['name', 'samples'], { zone: TEXT, name: TEXT, samples: SAMPLES });
const TELEMETRY: S = obj(['draw_mw'], { draw_mw: { type: 'array', items: UINT }, limit_mw: UINT });
const FLOORS: S = obj(['resolution_uj', 'min_window_ns'], { resolution_uj: UINT, min_window_ns: UINT });
const THREAD_CHECK: S = obj(['before_nj', 'after_nj'], { before_nj: UINT, after_nj: UINT });
/** A figure's facts (energy-execute.ts figureFacts); the expected holds those its input decides. */
const FIGURE_FACTS: S = obj([], { integer_pair: B, tag_matches_measurement: B, hardware_graded: B, claims_whole_hardware: B, tagged: B });
const PROVENANCE: S = { type: 'string', enum: ['HwShunt', 'ModelBased', 'Estimator'] };
const SCALAR: S = { type: 'string', enum: ['salience', 'novelty', 'uncertainty'] };
const AT: S = { type: 'array', items: UINT, minItems: 2 };
const EVENT: S = obj(['physical_ns', 'logical', 'source', 'trust', 'payload', 'line'], { physical_ns: UINT, logical: UINT, source: TEXT, trust: TEXT, payload: HEX, line: TEXT });
const or = (ok: S): S => ({ oneOf: [ok, ERROR] });

const KINDS: Record<Kind, { inputs: S; expected: S }> = {
  SenseEnergyMeter: {
    inputs: obj(['domains', 'counters', 'estimated_uj'], { domains: { type: 'array', items: TEXT, minItems: 1 }, counters: { type: 'array', items: obj(['domain', 'samples', 'delta_uj'], { domain: TEXT, samples: SAMPLES, delta_uj: UINT }) }, estimated_uj: UINT }),
    expected: FIGURE_FACTS,
  },
  EnergyFigureMake: {
    inputs: obj(['estimated_uj', 'provenance', 'obtained'], {
      measured_uj: UINT,
      estimated_uj: UINT,
      provenance: PROVENANCE,
      coverage: { type: 'string', enum: ['Partial'] },
      obtained: obj(['how'], { how: TEXT, live: { type: 'string', enum: ['live', 'not-live'] }, read: TEXT, plausibility: TEXT, covers: { type: 'string', enum: ['Whole', 'Partial'] } }),
    }),
    expected: or(obj(['made'], { made: obj(['provenance', 'measured', 'partial'], { provenance: PROVENANCE, measured: B, partial: B }) })),
  },
  SenseObserverReplay: {
    inputs: obj(['streams', 'greater'], {
      streams: { type: 'array', items: obj(['events', 'prefix'], { events: { type: 'array', items: obj(['source', 'trust'], { source: TEXT, trust: TEXT }) }, prefix: UINT }), minItems: 1 },
      greater: { type: 'array', items: obj(['scalar', 'of', 'than'], { scalar: SCALAR, of: AT, than: AT }) },
    }),
    expected: obj(['streams', 'greater'], {
      streams: { type: 'array', items: obj(['one_per_event', 'replay_identical', 'prefix_consistent', 'in_range'], { one_per_event: B, replay_identical: B, prefix_consistent: B, in_range: B }) },
      greater: { type: 'array', items: B },
    }),
  },
  SenseAnswerEnergy: {
    inputs: obj(['events', 'query', 'k'], { events: { type: 'array', items: EVENT }, query: TEXT, k: UINT }),
    expected: obj(['integer_pair', 'tag_matches_measurement', 'deterministic_zero_estimate'], { integer_pair: B, tag_matches_measurement: B, deterministic_zero_estimate: B }),
  },
  EnergyLiveness: {
    inputs: obj(['counters'], { counters: { type: 'array', items: COUNTER, minItems: 1 } }),
    expected: obj(['verdict'], { verdict: { type: 'string', enum: ['live', 'not-live'] } }),
  },
  JcEnergyLadder: {
    inputs: obj(['rungs', 'estimated_uj'], {
      rungs: { type: 'array', minItems: 1, items: obj(['rung', 'status', 'counters'], { rung: { type: 'string', enum: ['rapl', 'nvml', 'proc-self', 'proc-tree', 'ioreport'] }, status: { const: 'read' }, counters: { type: 'array', items: COUNTER }, telemetry: TELEMETRY }) },
      estimated_uj: UINT,
    }),
    expected: FIGURE_FACTS,
  },
  JcEnergyPlausibility: {
    inputs: obj(['delta_uj', 'duration_ns', 'telemetry'], { delta_uj: UINT, duration_ns: UINT, telemetry: TELEMETRY }),
    expected: obj(['refuted'], { refuted: { type: 'string', enum: ['below', 'above', 'no'] } }),
  },
  JcEnergyFloors: {
    inputs: obj(['counters'], { counters: { type: 'array', minItems: 1, items: { type: 'string', enum: ['rapl', 'nvml', 'ioreport', 'proc-self'] } } }),
    expected: obj(['counters'], { counters: { type: 'array', items: obj([], { refused: B, positive: B, claims_microjoule: B, claims_window_within_10ms: B }) }, answered_any: B }),
  },
  JcEnergyBreaker: {
    inputs: obj(['counters'], { counters: { type: 'array', items: FLOORS, minItems: 1 } }),
    expected: FLOORS,
  },
  JcEnergyProcSelf: {
    inputs: obj(['start', 'stop', 'cpu_nj', 'estimated_uj'], {
      start: THREAD_CHECK,
      stop: THREAD_CHECK,
      cpu_nj: UINT,
      gpu: obj(['own_gpu_ns', 'clients_gpu_ns', 'rail_nj'], { own_gpu_ns: UINT, clients_gpu_ns: UINT, rail_nj: UINT }),
      used_ane: { const: 'used' },
      estimated_uj: UINT,
    }),
    expected: obj([], { hardware_graded: B, gpu_figure: B, rail_split: B }),
  },
};

export const energyGroup: ProfileVectorGroup<Kind> = {
  profiles: ['jouleclaw:P-ENERGY', 'sense:P-ENERGY', 'sense:P-OBSERVER', 'sense:P-HONESTY'],
  types: ENERGY_PROFILE_TYPES,
  kinds: KINDS,
  flags: {
    HonestFigure: {
      bugType: 'ENERGY_PROVENANCE',
      description: 'A figure is an integer µJ pair tagged with its provenance, and the tag matches the measurement: HwShunt requires measured_uj, Estimator forbids it (sense §7; jouleclaw §1.3 "Every energy reading MUST carry a Provenance tag").',
      effect: 'A figure claims a measurement it does not carry, or carries one under an estimate, so its honesty cannot be read off the tag.',
    },
    NotLiveCounter: {
      bugType: 'ENERGY_PROVENANCE',
      description: 'A counter that is not live for the domain the figure claims (frozen, republished in lumps, of another domain, or absent) produces no hardware-graded figure and no measured_uj (sense §7; jouleclaw §1.3, §9.4).',
      effect: 'A frozen or lumped counter is read as a measurement: the receipts-as-marketing failure mode in its most literal form.',
    },
    LivenessCriterion: {
      bugType: 'ENERGY_PROVENANCE',
      description: "The IOReport liveness criterion: the CPU rail advancing in at least 5 sample intervals, in 4 of every 5, over at least 300 ms; and (sense §7) only an interval no longer than 75 ms counts, as an interval, an advance or time (jouleclaw §1.3, sense §7). Every input is live, or not, under each reading of '4 of every 5'.",
      effect: 'A counter too briefly or too sparsely observed is taken as live, and its figure graded as a hardware reading.',
    },
    CoveragePartial: {
      bugType: 'ENERGY_COVERAGE',
      description: 'A hardware figure over a domain its counter does not read is Partial, never Whole (sense §7; jouleclaw §1.3; jcp §5.1: NVML reads the GPU and not the CPU\'s share of the work).',
      effect: 'Part of the work is metered and reported as all of it.',
    },
    ObserverDeterminism: {
      bugType: 'DETERMINISM',
      description: 'The observer projects the same scalars when the same events are replayed, a prefix as the start of the whole, every scalar in [0, 1]; and its scalars carry their meanings in the comparisons every reading agrees on: a burst more salient and less novel than a lone event of another source, a low-trust window more uncertain (sense §4).',
      effect: 'Two hosts fed the same events disagree on what is salient, so attention decisions are not reproducible or mean nothing.',
    },
    AnswerEnergyHonesty: {
      bugType: 'ENERGY_PROVENANCE',
      description: 'Every answer carries an honest energy figure; a deterministic answer (no model call) is an honest zero estimate, never a measurement (sense §6).',
      effect: 'A Tier-0 answer claims joules it never spent, or a measurement nothing took.',
    },
    MeterFloors: {
      bugType: 'ENERGY_RESOLUTION',
      description: "A meter surfaces resolution_uj() and min_window_ns() for the counters it reads, and claims no accuracy §1.3's floors deny: no microjoule from NVML or IOReport, no window of 10 ms or less from NVML (jouleclaw §1.3).",
      effect: 'Callers claim microjoule accuracy on platforms that cannot deliver it.',
    },
    BreakerWorstCounter: {
      bugType: 'ENERGY_RESOLUTION',
      description: 'The breaker enforces at the granularity of the worst counter in the span: where one counter is coarsest in resolution and longest in window, its floors (jouleclaw §1.3, §9.4).',
      effect: 'The breaker trips on differences finer than the coarsest counter can see, enforcing a ceiling on noise.',
    },
    CheckedSpanEnd: {
      bugType: 'ENERGY_PROVENANCE',
      description: "A per-process span with an end whose reading thread was not seen to leave its core (its own count did not rise across the sleep) is estimated, never graded a hardware reading (jouleclaw §1.3).",
      effect: 'A read short by up to a scheduling quantum is reported as a measurement of the span.',
    },
    SharedGpuRail: {
      bugType: 'ENERGY_APPORTIONMENT',
      description: "A GPU the process shared (its own GPU time under 99 % of every client's) gives no GPU figure, and the rail is never split by GPU time, rounded any way (jouleclaw §1.3).",
      effect: 'GPU energy is apportioned by time, which is not energy-proportional (~1.9 W vs ~17 W per GPU-second), and reported as a measurement.',
    },
    TwoSidedBound: {
      bugType: 'ENERGY_PLAUSIBILITY',
      description: 'A counter judged against the board\'s draw is refuted far below it as far above it; an unusable yardstick is an indeterminate, never graded a hardware reading; the bound does not fire near idle (jouleclaw §1.3).',
      effect: 'An under-reporting counter admits work the budget cannot cover, or a correct idle counter is refuted as noise.',
    },
  },
  cases: energyCases,
  run: ENERGY_RUN,
  // each kind answers a fixed set of facts, and a vector's expected leaves out those the spec does not decide for its
  // input (whether a live counter is graded HwShunt, "MAY"; whether a meter reads a counter at all; the floors of a
  // counter §1.3 states only as "~")
  open: ENERGY_PROFILE_TYPES,
};
