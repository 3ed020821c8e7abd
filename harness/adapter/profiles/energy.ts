// The reference's handlers for the suite-defined profiles sense:P-ENERGY, sense:P-OBSERVER, jouleclaw:P-ENERGY (harness/protocol/profiles/energy.md).
import type { CborInput, CborMap, CborValue } from '../../../impl/cbor/index.ts';
import { JcpError } from '../../../impl/errors.ts';
import type { EnforcementPoint } from '../../../impl/index.ts';
import { meterAppleSelf } from '../../../impl/energy/apple-self.ts';
import type { Energy } from '../../../impl/energy/energy.ts';
import { breakerGranularity, counterFloors } from '../../../impl/energy/floors.ts';
import { meterSenseFigure } from '../../../impl/energy/sense-meter.ts';
import { sourceClass, trustLevel } from '../../../impl/sense/event.ts';
import { project } from '../../../impl/sense/salience.ts';
import { arg, map, text, uint } from '../args.ts';

const list = (v: CborValue | undefined, k: string): CborValue[] => {
  if (!Array.isArray(v)) throw new JcpError('ERR_BAD_ARGUMENT', `argument ${k} must be an array`);
  return v;
};

/** A figure as the protocol carries it: each field present only when it has a value, coverage only as Partial. */
const figureOut = (e: Energy): CborInput => ({
  ...(e.measured_uj !== undefined ? { measured_uj: e.measured_uj } : {}),
  ...(e.estimated_uj !== undefined ? { estimated_uj: e.estimated_uj } : {}),
  provenance: e.provenance,
  ...(e.coverage === 'Partial' ? { coverage: 'Partial' } : {}),
});

const check = (v: CborValue | undefined, k: string) => {
  const m = map(v, k);
  return { before_nj: uint(m.get('before_nj'), `${k}.before_nj`), after_nj: uint(m.get('after_nj'), `${k}.after_nj`) };
};

const floorsIn = (v: CborValue | undefined, k: string) => {
  const m = map(v, k);
  return { resolution_uj: uint(m.get('resolution_uj'), `${k}.resolution_uj`), min_window_ns: uint(m.get('min_window_ns'), `${k}.min_window_ns`) };
};

export function energyProfileHandlers(_point: (a: CborMap) => EnforcementPoint): Record<string, (a: CborMap) => CborInput> {
  return {
    // sense §7
    'sense-energy.meter': (a) => {
      const domains = list(arg(a, 'domains'), 'domains').map((d, i) => {
        if (typeof d !== 'string') throw new JcpError('ERR_BAD_ARGUMENT', `domains[${i}] must be text`);
        return d;
      });
      const counters = list(arg(a, 'counters'), 'counters').map((c, i) => {
        const m = map(c, `counters[${i}]`);
        return {
          domain: text(m, 'domain'),
          samples: list(m.get('samples'), `counters[${i}].samples`).map((s, j) => {
            const sm = map(s, `counters[${i}].samples[${j}]`);
            return { t_ns: uint(sm.get('t_ns'), 't_ns'), value: uint(sm.get('value'), 'value') };
          }),
          delta_uj: uint(m.get('delta_uj'), `counters[${i}].delta_uj`),
        };
      });
      const f = meterSenseFigure(domains, counters, uint(a.get('estimated_uj'), 'estimated_uj'));
      return { energy: figureOut(f.energy), why: [...f.why] };
    },
    // sense §4
    'observer.project': (a) => {
      const evs = list(arg(a, 'events'), 'events').map((x, i) => {
        const m = map(x, `events[${i}]`);
        return { source: sourceClass(m.get('source')), trust: trustLevel(m.get('trust')) };
      });
      return { projections: project(evs).map((p) => ({ salience: p.salience, novelty: p.novelty, uncertainty: p.uncertainty })) };
    },
    // jouleclaw §1.3
    'jc-energy.floors': (a) => ({ ...counterFloors(text(a, 'counter')) }),
    // jouleclaw §1.3, §9.4
    'jc-energy.breaker': (a) => ({ ...breakerGranularity(list(arg(a, 'counters'), 'counters').map((c, i) => floorsIn(c, `counters[${i}]`))) }),
    // jouleclaw §1.3 (Apple per process)
    'jc-energy.proc-self': (a) => {
      const g = a.get('gpu');
      const gm = g === undefined ? undefined : map(g, 'gpu');
      const f = meterAppleSelf({
        start: check(a.get('start'), 'start'),
        stop: check(a.get('stop'), 'stop'),
        cpu_nj: uint(a.get('cpu_nj'), 'cpu_nj'),
        ...(gm
          ? { gpu: { own_gpu_ns: uint(gm.get('own_gpu_ns'), 'gpu.own_gpu_ns'), clients_gpu_ns: uint(gm.get('clients_gpu_ns'), 'gpu.clients_gpu_ns'), rail_nj: uint(gm.get('rail_nj'), 'gpu.rail_nj') } }
          : {}),
        used_ane: a.get('used_ane') === 'used',
        estimated_uj: uint(a.get('estimated_uj'), 'estimated_uj'),
      });
      return { energy: figureOut(f.energy), ...(f.gpu_uj !== undefined ? { gpu_uj: f.gpu_uj } : {}), why: [...f.why] };
    },
  };
}
