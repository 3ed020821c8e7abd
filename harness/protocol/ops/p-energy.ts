// The testee protocol's operations of the suite-defined profiles sense:P-ENERGY, sense:P-OBSERVER, jouleclaw:P-ENERGY (spec-map/profiles.json;
// harness/protocol/profiles/energy.md). The existing energy.* operations (ops/energy.ts) are mapped to sense:P-ENERGY
// and jouleclaw:P-ENERGY too: where the rule is the same judgement, the profile's tests call them.
import { type OpSpec, type Shape, PROVENANCE } from '../shapes.ts';

const SAMPLES: Shape = { array: { map: { t_ns: 'uint', value: 'uint' } } };
/**
 * A figure as these operations answer it. measured_uj and estimated_uj are 'any' (and estimated_uj optional) so that a
 * figure breaking sense §7's integer pair reads as the test's failure, not as a protocol error.
 */
const FIGURE: Shape = { map: { measured_uj: 'any', estimated_uj: 'any', provenance: PROVENANCE, coverage: { enum: ['Partial'] } }, optional: ['measured_uj', 'estimated_uj', 'coverage'] };
const THREAD_CHECK: Shape = { map: { before_nj: 'uint', after_nj: 'uint' } };
const FLOORS: Shape = { map: { resolution_uj: 'uint', min_window_ns: 'uint' } };

export const P_ENERGY_OPS: Readonly<Record<string, OpSpec>> = {
  'sense-energy.meter': {
    about: 'sense §7 (sense:P-ENERGY): the figure for work claiming `domains`, from vendor counters probed under load',
    args: {
      map: {
        domains: { array: 'text', min: 1 },
        counters: { array: { map: { domain: 'text', samples: SAMPLES, delta_uj: 'uint' } } },
        estimated_uj: 'uint',
      },
    },
    // energy absent: the work reported unmetered (sense §7 permits it where a counter is not live)
    result: { map: { energy: FIGURE, why: { array: 'text' } }, optional: ['energy', 'why'] },
  },
  'observer.project': {
    about: 'sense §4 (sense:P-OBSERVER): the observer fed the events in order, its three scalars after each, in ppm',
    args: { map: { events: { array: { map: { source: 'text', trust: 'text' } } } } },
    result: { map: { projections: { array: { map: { salience: 'uint', novelty: 'uint', uncertainty: 'uint' } } } } },
  },
  'jc-energy.floors': {
    about: 'jouleclaw §1.3 (jouleclaw:P-ENERGY): resolution_uj() and min_window_ns() of a counter the meter reads',
    args: { map: { counter: { enum: ['rapl', 'nvml', 'ioreport', 'proc-self'] } } },
    result: FLOORS,
  },
  'jc-energy.breaker': {
    about: "jouleclaw §1.3, §9.4 (jouleclaw:P-ENERGY): the granularity the breaker enforces at over a span metered by these counters",
    args: { map: { counters: { array: FLOORS, min: 1 } } },
    result: FLOORS,
  },
  'jc-energy.proc-self': {
    about: "jouleclaw §1.3 (jouleclaw:P-ENERGY): Apple per-process span — the checked ends, the CPU figure, the GPU's two cases",
    args: {
      map: {
        start: THREAD_CHECK,
        stop: THREAD_CHECK,
        cpu_nj: 'uint',
        gpu: { map: { own_gpu_ns: 'uint', clients_gpu_ns: 'uint', rail_nj: 'uint' } },
        used_ane: { enum: ['used'] },
        estimated_uj: 'uint',
      },
      optional: ['gpu', 'used_ane'],
    },
    result: { map: { energy: FIGURE, gpu_uj: 'uint', why: { array: 'text' } }, optional: ['gpu_uj', 'why'] },
  },
};
