// Unit tests of impl/energy/outcomes.ts (jcp §5.2 coverage, efficiency/1; §5.3 traceability; §5.5; §5.6).
import { describe, expect, it } from 'vitest';
import { codeOf, lazy, thrown } from '../_test-support.ts';
import { makeEnergy } from './energy.ts';
import {
  aggregateEfficiency,
  conservationFloor,
  efficiencyPayload,
  physicalBound,
  readCoverageField,
  readEfficiencyPayload,
  taskTotalUj,
  traceOutcome,
  type GradedFigure,
} from './outcomes.ts';

const gpu = lazy(() => makeEnergy({ measured_uj: 1000n, estimated_uj: 1n, provenance: 'HwShunt', coverage: 'Partial', obtained: { how: 'counter', live: true, read_both_ends: true, plausibility: 'not-refuted', covers: 'Partial' } }));
const whole = lazy(() => makeEnergy({ measured_uj: 1000n, estimated_uj: 1n, provenance: 'HwShunt', obtained: { how: 'counter', live: true, read_both_ends: true, plausibility: 'no-bound', covers: 'Whole' } }));

describe('§5.2 coverage', () => {
  it('a Partial figure is not a task total', () => {
    expect(codeOf(() => taskTotalUj(gpu))).toBe('ERR_ENERGY_PARTIAL_NOT_TOTAL');
    expect(taskTotalUj(whole)).toBe(1000n);
  });
  it('the coverage field has one value: absent is Whole, "Whole" is refused', () => {
    expect(readCoverageField(undefined)).toBe('Whole');
    expect(readCoverageField('Partial')).toBe('Partial');
    for (const v of ['Whole', 'partial', '', 0, 5n, null, {}]) expect(codeOf(() => readCoverageField(v))).toBe('ERR_ENERGY_COVERAGE_VALUE');
  });
  it('a refused coverage value is named in the message: a string quoted, anything else by its type', () => {
    expect(thrown(() => readCoverageField('Whole')).message).toMatch(/got "Whole"$/);
    expect(thrown(() => readCoverageField(0)).message).toMatch(/got number$/);
  });
  it('the refusal of a Partial figure as a total says its remainder is unmeasured', () => {
    expect(thrown(() => taskTotalUj(gpu)).message).toContain('its remainder is unmeasured, not zero');
  });
  it('efficiency/1: a Partial receipt seals no headline, and a verifier refuses one that does', () => {
    expect(efficiencyPayload(gpu, 10n)).toEqual({ energy_uj: 1000n, provenance: 'HwShunt', energy_coverage: 'Partial', accepted_tokens: 10n });
    expect(efficiencyPayload(whole, 10n)).toEqual({ energy_uj: 1000n, provenance: 'HwShunt', accepted_tokens: 10n, uj_per_accepted_token: 100n });
    expect(codeOf(() => readEfficiencyPayload({ energy_uj: 1n, provenance: 'HwShunt', energy_coverage: 'Partial', uj_per_accepted_token: 1n }))).toBe('ERR_EFFICIENCY_PARTIAL_HEADLINE');
    expect(codeOf(() => readEfficiencyPayload({ energy_uj: 1n, provenance: 'HwShunt', energy_coverage: 'Whole' }))).toBe('ERR_ENERGY_COVERAGE_VALUE');
    expect(codeOf(() => readEfficiencyPayload({ energy_uj: 1n, provenance: 'Shunt' }))).toBe('ERR_ENERGY_MALFORMED');
    expect(readEfficiencyPayload({ energy_uj: 1n, provenance: 'Estimator', uj_per_accepted_token: 1n })).toEqual({ energy_uj: 1n, provenance: 'Estimator', coverage: 'Whole' });
  });
  it('efficiency/1: no headline over zero accepted tokens', () => {
    expect(efficiencyPayload(whole, 0n)).toEqual({ energy_uj: 1000n, provenance: 'HwShunt', accepted_tokens: 0n });
  });
  it('efficiency/1: a verifier refuses an energy_uj that is negative or not an integer', () => {
    for (const energy_uj of [-1n, 1, '1', undefined]) {
      const e = thrown(() => readEfficiencyPayload({ energy_uj, provenance: 'HwShunt' }));
      expect(e.code).toBe('ERR_ENERGY_MALFORMED');
      expect(e.message).toContain('energy_uj must be a non-negative integer');
    }
    expect(readEfficiencyPayload({ energy_uj: 0n, provenance: 'HwShunt' }).energy_uj).toBe(0n);
  });
  it('efficiency/1: the refusals of a bad provenance and of a Partial headline name what is wrong', () => {
    expect(thrown(() => readEfficiencyPayload({ energy_uj: 1n, provenance: 'Shunt' })).message).toContain('provenance must be one of HwShunt, ModelBased, Estimator');
    const e = thrown(() => readEfficiencyPayload({ energy_uj: 1n, provenance: 'HwShunt', energy_coverage: 'Partial', uj_per_accepted_token: 1n }));
    expect(e.message).toContain('a Partial efficiency/1 receipt carries uj_per_accepted_token');
  });
  it('a total over any Partial receipt is Partial, with no per-unit figure; provenance takes the floor', () => {
    const t = aggregateEfficiency([{ energy_uj: 10n, provenance: 'HwShunt', coverage: 'Whole' }, { energy_uj: 20n, provenance: 'ModelBased', coverage: 'Partial' }], 3n);
    expect(t).toEqual({ energy_uj: 30n, provenance_floor: 'ModelBased', coverage: 'Partial', units: 3n });
    expect(aggregateEfficiency([{ energy_uj: 30n, provenance: 'HwShunt', coverage: 'Whole' }], 3n).uj_per_unit).toBe(10n);
  });
  it('a Whole total over zero units gives no per-unit figure', () => {
    expect(aggregateEfficiency([{ energy_uj: 30n, provenance: 'HwShunt', coverage: 'Whole' }], 0n)).toEqual({ energy_uj: 30n, provenance_floor: 'HwShunt', coverage: 'Whole', units: 0n });
  });
  it('refuses to aggregate no receipts', () => {
    const e = thrown(() => aggregateEfficiency([], 1n));
    expect(e.code).toBe('ERR_ENERGY_MALFORMED');
    expect(e.message).toContain('no receipts to aggregate');
  });
});

describe('§5.3 traceability', () => {
  const acts: Record<string, GradedFigure> = {
    a: { uj: 400n, provenance: 'HwShunt', coverage: 'Whole' },
    b: { uj: 500n, provenance: 'Estimator', coverage: 'Whole' },
    c: { uj: 300n, provenance: 'HwShunt', coverage: 'Partial' },
  };
  const resolve = (id: string): GradedFigure | undefined => acts[id];
  const outcome: GradedFigure = { uj: 1000n, provenance: 'HwShunt', coverage: 'Whole' };
  it('the residual is signed and never clamped; the composite grade is the floor', () => {
    expect(traceOutcome(outcome, ['a', 'b'], resolve)).toEqual({ outcome_total_uj: 1000n, activities_uj: 900n, residual_uj: 100n, provenance: 'Estimator', coverage: 'Whole' });
    expect(traceOutcome(outcome, ['a', 'b', 'c'], resolve)).toMatchObject({ residual_uj: -200n, coverage: 'Partial' });
  });
  it('refuses an activity bound twice before the sum, an unresolvable one, and an outcome naming none', () => {
    expect(codeOf(() => traceOutcome(outcome, ['a', 'a'], resolve))).toBe('ERR_TRACE_ACTIVITY_BOUND_TWICE');
    // bound twice is refused even where the sum would look clean (a: 400 × 2 + 200 = the outcome)
    expect(codeOf(() => traceOutcome({ ...outcome, uj: 800n }, ['a', 'a'], resolve))).toBe('ERR_TRACE_ACTIVITY_BOUND_TWICE');
    expect(codeOf(() => traceOutcome(outcome, ['a', 'z'], resolve))).toBe('ERR_TRACE_UNRESOLVED');
    expect(codeOf(() => traceOutcome(outcome, [], resolve))).toBe('ERR_TRACE_UNTRACEABLE');
  });
  it('a trace refusal names the activity at fault, in its message and its detail', () => {
    const twice = thrown(() => traceOutcome(outcome, ['b', 'a', 'b'], resolve));
    expect(twice.message).toContain('activity b is bound twice');
    expect(twice.detail).toEqual({ activity: 'b' });
    const unresolved = thrown(() => traceOutcome(outcome, ['a', 'z'], resolve));
    expect(unresolved.message).toContain('activity z does not resolve');
    expect(unresolved.detail).toEqual({ activity: 'z' });
    expect(thrown(() => traceOutcome(outcome, [], resolve)).message).toContain('the outcome names no activity: it is not traceable');
  });
});

describe('§5.5 conservation floor', () => {
  it('is 1 µJ in the budget, and says whether it rests on measured or modelled figures', () => {
    expect(conservationFloor(1_000_000n, [{ provenance: 'HwShunt' }])).toEqual({ ppm_numerator: 1_000_000n, ppm_denominator: 1_000_000n, rests_on: 'measured', provenance_floor: 'HwShunt' });
    expect(conservationFloor(1_000_000n, [{ provenance: 'HwShunt' }, { provenance: 'Estimator' }]).rests_on).toBe('modelled');
    expect(conservationFloor(1_000_000n, [{ provenance: 'ModelBased' }]).rests_on).toBe('modelled');
    expect(codeOf(() => conservationFloor(0n, [{ provenance: 'HwShunt' }]))).toBe('ERR_ENERGY_MALFORMED');
  });
  it('refuses a budget that is not a bigint, naming it', () => {
    const e = thrown(() => conservationFloor(1_000_000 as unknown as bigint, [{ provenance: 'HwShunt' }]));
    expect(e.code).toBe('ERR_ENERGY_MALFORMED');
    expect(e.message).toContain('budget_uj must be a positive bigint');
  });
  it('refuses a floor resting on no figure', () => {
    const e = thrown(() => conservationFloor(1_000_000n, []));
    expect(e.code).toBe('ERR_ENERGY_MALFORMED');
    expect(e.message).toContain('a floor rests on at least one figure');
  });
});

describe('§5.6 physical bound', () => {
  const env = { floor_mw: 1_000n, ceiling_mw: 100_000n };
  it('refutes outside the envelope and never verifies inside it', () => {
    const S = 1_000_000_000n;
    // 2 J over 1 s is 2 W, inside [1 W, 100 W]: not refuted, and there is no "verified" outcome to report
    expect(physicalBound(2_000_000n, S, env)).toBe('not-refuted');
    expect(physicalBound(100_000_001n, S, env)).toBe('refuted-above-envelope');
    expect(physicalBound(999n, S, env)).toBe('refuted-below-floor');
    expect(physicalBound(100_000_000n, S, env)).toBe('not-refuted');
  });
  it('refuses an empty window, a negative figure or floor, and a ceiling below the floor', () => {
    const bad: Array<[bigint, bigint, { floor_mw: bigint; ceiling_mw: bigint }]> = [
      [1n, 0n, env],
      [1n, -1n, env],
      [-1n, 1n, env],
      [1n, 1n, { floor_mw: -1n, ceiling_mw: 10n }],
      [1n, 1n, { floor_mw: 10n, ceiling_mw: 9n }],
    ];
    for (const [uj, ns, envelope] of bad) {
      const e = thrown(() => physicalBound(uj, ns, envelope));
      expect(e.code).toBe('ERR_ENERGY_MALFORMED');
      expect(e.message).toContain('a physical bound needs a positive window, a non-negative figure and floor ≤ ceiling');
    }
    // a one-nanosecond window, a zero figure and a zero-width envelope are all well-formed
    expect(physicalBound(0n, 1n, { floor_mw: 0n, ceiling_mw: 0n })).toBe('not-refuted');
  });
});
