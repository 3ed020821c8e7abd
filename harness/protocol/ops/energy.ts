// The testee protocol's operations for jcp §5 energy honesty (C9): pure judgements over samples (impl/energy)
// (harness/PROTOCOL.md).
import { type OpSpec, type Shape, cid, did, PROVENANCE } from '../shapes.ts';

export const ENERGY_OPS: Readonly<Record<string, OpSpec>> = {
  ...((): Record<string, OpSpec> => {
    const ENERGY: Shape = { map: { measured_uj: 'uint', estimated_uj: 'uint', provenance: PROVENANCE, coverage: { enum: ['Partial'] } }, optional: ['measured_uj', 'coverage'] };
    const COUNTER: Shape = {
      map: { zone: 'text', name: 'text', max_energy_range_uj: 'uint', samples: { array: { map: { t_ns: 'uint', value: 'uint' } } } },
      optional: ['zone', 'max_energy_range_uj'],
    };
    const LIVE: Shape = { enum: ['live', 'not-live'] };
    const TELEMETRY: Shape = { map: { draw_mw: { array: 'uint' }, limit_mw: 'uint' }, optional: ['limit_mw'] };
    const PLAUSIBILITY: Shape = {
      map: {
        verdict: { enum: ['not-refuted', 'counter-under-rate', 'counter-over-rate', 'indeterminate', 'no-bound'] },
        rate_mw: 'uint',
        bound: { enum: ['draw', 'limit'] },
        bound_mw: 'uint',
        floor_mw: 'uint',
        ceiling_mw: 'uint',
        mean_draw_mw: 'uint',
        reason: 'text',
        discarded: 'uint',
      },
      optional: ['bound', 'bound_mw', 'floor_mw', 'ceiling_mw', 'mean_draw_mw', 'reason', 'discarded'],
    };
    const FIGURE: Shape = { map: { uj: 'uint', provenance: PROVENANCE, coverage: { enum: ['Partial'] } }, optional: ['coverage'] };
    const THREAD_CHECK: Shape = { map: { before_nj: 'uint', after_nj: 'uint' } };
    const MEMBER: Shape = {
      map: {
        pid: 'uint',
        start_time: 'uint',
        parent: 'uint',
        reaped_cpu_ns: 'uint',
        exit_time: 'uint',
        threads: { array: { enum: ['running', 'stopped', 'waiting', 'uninterruptible', 'halted'] } },
        child_gone: { enum: ['gone'] },
      },
      optional: ['exit_time', 'child_gone'],
    };
    const TREE_END: Shape = { map: { walk: { array: MEMBER }, confirm: { array: MEMBER } }, optional: ['confirm'] };
    return {
      'energy.make': {
        about: 'jcp §5, §5.1 (C9)',
        args: {
          map: {
            measured_uj: 'uint',
            estimated_uj: 'uint',
            provenance: PROVENANCE,
            coverage: { enum: ['Partial'] },
            obtained: {
              map: {
                how: { enum: ['counter', 'apportioned-reading', 'host-calibrated-model', 'uncalibrated-model', 'constant'] },
                live: LIVE,
                read: { enum: ['both-ends', 'failed-mid-reading'] },
                plausibility: { enum: ['not-refuted', 'no-bound', 'refuted', 'indeterminate'] },
                covers: { enum: ['Whole', 'Partial'] },
              },
              optional: ['live', 'read', 'plausibility', 'covers'],
            },
          },
          optional: ['measured_uj', 'coverage'],
        },
        result: { map: { energy: ENERGY } },
      },
      'energy.liveness': {
        about: 'jcp §5 Liveness (C9)',
        args: { map: { counters: { array: COUNTER, min: 1 } } },
        result: {
          map: {
            verdict: LIVE,
            not_live: { array: 'text' },
            counters: { array: { map: { name: 'text', verdict: LIVE, reason: 'text', counted: 'uint', advanced: 'uint', counted_ns: 'uint' }, optional: ['reason'] } },
          },
        },
      },
      'energy.rapl': {
        about: 'jcp §5.1 rung 1 (C9)',
        args: { map: { zones: { array: COUNTER } } },
        result: {
          map: { total_uj: 'uint', summed: { array: 'text' }, excluded: { array: { map: { zone: 'text', reason: 'text' } } }, verdict: LIVE, not_live: { array: 'text' } },
          optional: ['total_uj'],
        },
      },
      'energy.plausibility': {
        about: 'jcp §5 Plausibility (C9)',
        args: { map: { delta_uj: 'uint', duration_ns: 'uint', telemetry: TELEMETRY } },
        result: PLAUSIBILITY,
      },
      'energy.ladder': {
        about: 'jcp §5.1 (C9)',
        args: {
          map: {
            rungs: {
              array: {
                map: {
                  rung: { enum: ['rapl', 'nvml', 'proc-self', 'proc-tree', 'ioreport'] },
                  status: { enum: ['absent', 'failed', 'read'] },
                  at: { enum: ['start', 'stop'] },
                  error: 'text',
                  counters: { array: COUNTER },
                  telemetry: TELEMETRY,
                  gaps: { array: 'text' },
                },
                optional: ['at', 'error', 'counters', 'telemetry', 'gaps'],
              },
            },
            calibrated_uj: 'uint',
            estimated_uj: 'uint',
          },
          optional: ['calibrated_uj'],
        },
        result: {
          map: {
            rung: 'text',
            energy: ENERGY,
            declined: { array: { map: { rung: 'text', reason: 'text', detail: 'text', not_live: { array: 'text' }, plausibility: PLAUSIBILITY }, optional: ['detail', 'not_live', 'plausibility'] } },
          },
        },
      },
      'energy.task-total': { about: 'jcp §5.2 (C9)', args: { map: { energy: ENERGY } }, result: { map: { total_uj: 'uint' } } },
      'energy.efficiency-seal': {
        about: 'jcp §5.2 efficiency/1 (C9)',
        args: { map: { energy: ENERGY, accepted_tokens: 'uint' } },
        result: { map: { payload: { textMap: 'any' } } },
      },
      'energy.efficiency-read': {
        about: 'jcp §5.2 efficiency/1 (C9)',
        args: { map: { payload: { textMap: 'any' } } },
        result: { map: { energy_uj: 'uint', provenance: PROVENANCE, coverage: { enum: ['Partial'] } }, optional: ['coverage'] },
      },
      // jcp §5.2 totals over efficiency/1 receipts (C9)
      'energy.efficiency-totals': {
        about: 'jcp §5.2 (C9): the sum, the provenance floor, Partial when any is, a per-unit figure only when Whole',
        args: { map: { payloads: { array: { textMap: 'any' }, min: 1 }, units: 'uint' } },
        result: { map: { energy_uj: 'uint', provenance_floor: PROVENANCE, coverage: { enum: ['Partial'] }, units: 'uint', uj_per_unit: 'uint' }, optional: ['coverage', 'uj_per_unit'] },
      },
      'energy.trace': {
        about: 'jcp §5.3',
        args: { map: { outcome: FIGURE, activity_ids: { array: 'text' }, activities: { textMap: FIGURE } } },
        // residual_uj is a signed integer (never clamped): 'any' because the table has no signed-int shape
        result: { map: { residual_uj: 'any', activities_uj: 'uint', provenance: PROVENANCE, coverage: { enum: ['Partial'] } }, optional: ['coverage'] },
      },
      'energy.conservation-floor': {
        about: 'jcp §5.5',
        args: { map: { budget_uj: 'uint', provenances: { array: PROVENANCE, min: 1 } } },
        result: { map: { ppm_numerator: 'uint', ppm_denominator: 'uint', rests_on: { enum: ['measured', 'modelled'] } } },
      },
      'energy.physical-bound': {
        about: 'jcp §5.6',
        args: { map: { energy_uj: 'uint', duration_ns: 'uint', floor_mw: 'uint', ceiling_mw: 'uint' } },
        result: { map: { finding: 'text' } },
      },
      'energy.proc-span': {
        about: 'jcp §5.1 rung 3 (C9)',
        args: {
          map: {
            self: { map: { start: THREAD_CHECK, stop: THREAD_CHECK } },
            tree: { map: { start: TREE_END, stop: TREE_END, declaration: { enum: ['declared', 'undeclared'] } } },
            gaps: { array: 'text' },
          },
          optional: ['self', 'tree', 'gaps'],
        },
        result: { map: { verdict: { enum: ['reading', 'no-reading'] }, why_not: 'text', coverage: { enum: ['Whole', 'Partial'] }, gaps: { array: 'text' } }, optional: ['why_not', 'coverage'] },
      },
    };
  })(),
  'point.spent': { about: 'jcp §7', args: { map: { point: 'text', grant_id: cid } }, result: { map: { spent_uj: 'uint' } } },
  'receipt.verify': {
    about: 'jcp §8',
    args: { map: { receipt: 'bytes', steward: did }, optional: ['steward'] },
    result: { map: { core: { textMap: 'any' } } },
  },
};
