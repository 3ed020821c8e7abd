// Unit tests of impl/energy/outcomes.ts (jcp §5.2 coverage, efficiency/1; §5.3 traceability; §5.5; §5.6).
import { describe, expect, it } from 'vitest';
import { codeOf, lazy } from '../_test-support.ts';
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
  it('efficiency/1: a Partial receipt seals no headline, and a verifier refuses one that does', () => {
    expect(efficiencyPayload(gpu, 10n)).toEqual({ energy_uj: 1000n, provenance: 'HwShunt', energy_coverage: 'Partial', accepted_tokens: 10n });
    expect(efficiencyPayload(whole, 10n)).toEqual({ energy_uj: 1000n, provenance: 'HwShunt', accepted_tokens: 10n, uj_per_accepted_token: 100n });
    expect(codeOf(() => readEfficiencyPayload({ energy_uj: 1n, provenance: 'HwShunt', energy_coverage: 'Partial', uj_per_accepted_token: 1n }))).toBe('ERR_EFFICIENCY_PARTIAL_HEADLINE');
    expect(codeOf(() => readEfficiencyPayload({ energy_uj: 1n, provenance: 'HwShunt', energy_coverage: 'Whole' }))).toBe('ERR_ENERGY_COVERAGE_VALUE');
    expect(codeOf(() => readEfficiencyPayload({ energy_uj: 1n, provenance: 'Shunt' }))).toBe('ERR_ENERGY_MALFORMED');
    expect(readEfficiencyPayload({ energy_uj: 1n, provenance: 'Estimator', uj_per_accepted_token: 1n })).toEqual({ energy_uj: 1n, provenance: 'Estimator', coverage: 'Whole' });
  });
  it('a total over any Partial receipt is Partial, with no per-unit figure; provenance takes the floor', () => {
    const t = aggregateEfficiency([{ energy_uj: 10n, provenance: 'HwShunt', coverage: 'Whole' }, { energy_uj: 20n, provenance: 'ModelBased', coverage: 'Partial' }], 3n);
    expect(t).toEqual({ energy_uj: 30n, provenance_floor: 'ModelBased', coverage: 'Partial', units: 3n });
    expect(aggregateEfficiency([{ energy_uj: 30n, provenance: 'HwShunt', coverage: 'Whole' }], 3n).uj_per_unit).toBe(10n);
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
});

describe('§5.5 conservation floor', () => {
  it('is 1 µJ in the budget, and says whether it rests on measured or modelled figures', () => {
    expect(conservationFloor(1_000_000n, [{ provenance: 'HwShunt' }])).toEqual({ ppm_numerator: 1_000_000n, ppm_denominator: 1_000_000n, rests_on: 'measured', provenance_floor: 'HwShunt' });
    expect(conservationFloor(1_000_000n, [{ provenance: 'HwShunt' }, { provenance: 'Estimator' }]).rests_on).toBe('modelled');
    expect(conservationFloor(1_000_000n, [{ provenance: 'ModelBased' }]).rests_on).toBe('modelled');
    expect(codeOf(() => conservationFloor(0n, [{ provenance: 'HwShunt' }]))).toBe('ERR_ENERGY_MALFORMED');
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
});
