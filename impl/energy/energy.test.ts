// Unit tests of impl/energy/energy.ts: the honesty invariants of an energy figure (jcp §5, §5.1; sense §7).
import { describe, expect, it } from 'vitest';
import { codeOf } from '../_test-support.ts';
import { makeEnergy, provenanceFloor, toCost, type Obtained } from './energy.ts';

const liveCounter: Obtained = { how: 'counter', live: true, read_both_ends: true, plausibility: 'not-refuted', covers: 'Whole' };

describe('makeEnergy', () => {
  it('makes an honest HwShunt figure from a live counter, coverage Whole by default', () => {
    const e = makeEnergy({ measured_uj: 10n, estimated_uj: 12n, provenance: 'HwShunt', obtained: liveCounter });
    expect(e).toEqual({ measured_uj: 10n, estimated_uj: 12n, provenance: 'HwShunt', coverage: 'Whole' });
    expect(Object.isFrozen(e)).toBe(true);
    expect(toCost(e)).toEqual({ uj: 10n, provenance: 'HwShunt' });
  });
  it('HwShunt requires a measurement; Estimator forbids one', () => {
    expect(codeOf(() => makeEnergy({ estimated_uj: 12n, provenance: 'HwShunt', obtained: liveCounter }))).toBe('ERR_ENERGY_HWSHUNT_UNMEASURED');
    expect(codeOf(() => makeEnergy({ measured_uj: 1n, estimated_uj: 12n, provenance: 'Estimator', obtained: liveCounter }))).toBe('ERR_ENERGY_ESTIMATOR_MEASURED');
    // ModelBased: measured MAY be absent, and may be present from an apportioned reading
    expect(makeEnergy({ estimated_uj: 12n, provenance: 'ModelBased', obtained: { how: 'host-calibrated-model' } }).measured_uj).toBeUndefined();
    expect(makeEnergy({ measured_uj: 5n, estimated_uj: 12n, provenance: 'ModelBased', obtained: { how: 'apportioned-reading' } }).measured_uj).toBe(5n);
  });
  it('never claims better provenance than how the figure was obtained', () => {
    expect(codeOf(() => makeEnergy({ estimated_uj: 1n, provenance: 'ModelBased', obtained: { how: 'uncalibrated-model' } }))).toBe('ERR_ENERGY_PROVENANCE_OVERCLAIMED');
    expect(codeOf(() => makeEnergy({ estimated_uj: 1n, provenance: 'ModelBased', obtained: { how: 'constant' } }))).toBe('ERR_ENERGY_PROVENANCE_OVERCLAIMED');
    expect(codeOf(() => makeEnergy({ measured_uj: 1n, estimated_uj: 1n, provenance: 'HwShunt', obtained: { how: 'host-calibrated-model' } }))).toBe('ERR_ENERGY_PROVENANCE_OVERCLAIMED');
    expect(codeOf(() => makeEnergy({ measured_uj: 1n, estimated_uj: 1n, provenance: 'ModelBased', obtained: { how: 'host-calibrated-model' } }))).toBe('ERR_ENERGY_PROVENANCE_OVERCLAIMED');
    // claiming worse than earned is allowed
    expect(makeEnergy({ estimated_uj: 1n, provenance: 'Estimator', obtained: { how: 'host-calibrated-model' } }).provenance).toBe('Estimator');
  });
  it('a counter reading that is not live, failed mid-reading, refuted or unjudged makes no figure at all', () => {
    for (const bad of [
      { ...liveCounter, live: false },
      { ...liveCounter, read_both_ends: false },
      { ...liveCounter, plausibility: 'refuted' as const },
      { ...liveCounter, plausibility: 'indeterminate' as const },
    ]) {
      expect(codeOf(() => makeEnergy({ measured_uj: 1n, estimated_uj: 1n, provenance: 'HwShunt', obtained: bad }))).toBe('ERR_ENERGY_PROVENANCE_OVERCLAIMED');
      expect(codeOf(() => makeEnergy({ measured_uj: 1n, estimated_uj: 1n, provenance: 'ModelBased', obtained: bad }))).toBe('ERR_ENERGY_PROVENANCE_OVERCLAIMED');
    }
  });
  it('a counter that reads part of the domain cannot claim Whole', () => {
    const gpu: Obtained = { ...liveCounter, covers: 'Partial' };
    expect(codeOf(() => makeEnergy({ measured_uj: 1n, estimated_uj: 1n, provenance: 'HwShunt', obtained: gpu }))).toBe('ERR_ENERGY_COVERAGE_OVERCLAIMED');
    const e = makeEnergy({ measured_uj: 1n, estimated_uj: 1n, provenance: 'HwShunt', coverage: 'Partial', obtained: gpu });
    expect(toCost(e)).toEqual({ uj: 1n, provenance: 'HwShunt', coverage: 'Partial' });
  });
  it('refuses junk', () => {
    const junk: unknown[] = [-1n, 1, '1', NaN, undefined, null];
    for (const j of junk) {
      expect(codeOf(() => makeEnergy({ estimated_uj: j as bigint, provenance: 'Estimator', obtained: { how: 'constant' } }))).toBe('ERR_ENERGY_MALFORMED');
    }
    expect(codeOf(() => makeEnergy({ measured_uj: -1n, estimated_uj: 1n, provenance: 'HwShunt', obtained: liveCounter }))).toBe('ERR_ENERGY_MALFORMED');
    expect(codeOf(() => makeEnergy({ estimated_uj: 1n, provenance: 'Shunt' as never, obtained: { how: 'constant' } }))).toBe('ERR_ENERGY_MALFORMED');
    expect(codeOf(() => makeEnergy({ estimated_uj: 1n, provenance: 'Estimator', coverage: 'Half' as never, obtained: { how: 'constant' } }))).toBe('ERR_ENERGY_MALFORMED');
  });
});

describe('provenanceFloor', () => {
  it('is the worse of two', () => {
    expect(provenanceFloor('HwShunt', 'Estimator')).toBe('Estimator');
    expect(provenanceFloor('ModelBased', 'HwShunt')).toBe('ModelBased');
    expect(provenanceFloor('HwShunt', 'HwShunt')).toBe('HwShunt');
  });
});

describe('obtained is validated', () => {
  it('refuses an unknown method or a counter description with junk', () => {
    expect(codeOf(() => makeEnergy({ estimated_uj: 1n, provenance: 'Estimator', obtained: { how: 'guess' } as never }))).toBe('ERR_ENERGY_MALFORMED');
    expect(codeOf(() => makeEnergy({ estimated_uj: 1n, provenance: 'Estimator', obtained: undefined as never }))).toBe('ERR_ENERGY_MALFORMED');
    expect(codeOf(() => makeEnergy({ measured_uj: 1n, estimated_uj: 1n, provenance: 'HwShunt', obtained: { ...liveCounter, plausibility: 'fine' as never } }))).toBe('ERR_ENERGY_MALFORMED');
    expect(codeOf(() => makeEnergy({ measured_uj: 1n, estimated_uj: 1n, provenance: 'HwShunt', obtained: { ...liveCounter, live: 'yes' as never } }))).toBe('ERR_ENERGY_MALFORMED');
  });
});
