// Unit tests of impl/energy/energy.ts: the honesty invariants of an energy figure (jcp §5, §5.1; sense §7).
import { describe, expect, it } from 'vitest';
import { codeOf, thrown } from '../_test-support.ts';
import { bestProvenance, makeEnergy, provenanceFloor, toCost, type Obtained } from './energy.ts';

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
  it('a figure with no measurement carries no measured_uj field', () => {
    const e = makeEnergy({ estimated_uj: 12n, provenance: 'ModelBased', obtained: { how: 'host-calibrated-model' } });
    expect(Object.keys(e)).toEqual(['estimated_uj', 'provenance', 'coverage']);
  });
  it('the refusals of a missing or forbidden measurement say which', () => {
    expect(thrown(() => makeEnergy({ estimated_uj: 12n, provenance: 'HwShunt', obtained: liveCounter })).message).toContain('a HwShunt figure requires measured_uj');
    const e = thrown(() => makeEnergy({ measured_uj: 1n, estimated_uj: 12n, provenance: 'Estimator', obtained: liveCounter }));
    expect(e.message).toContain('an Estimator figure must not carry measured_uj');
  });
  it('never claims better provenance than how the figure was obtained', () => {
    expect(codeOf(() => makeEnergy({ estimated_uj: 1n, provenance: 'ModelBased', obtained: { how: 'uncalibrated-model' } }))).toBe('ERR_ENERGY_PROVENANCE_OVERCLAIMED');
    expect(codeOf(() => makeEnergy({ estimated_uj: 1n, provenance: 'ModelBased', obtained: { how: 'constant' } }))).toBe('ERR_ENERGY_PROVENANCE_OVERCLAIMED');
    expect(codeOf(() => makeEnergy({ measured_uj: 1n, estimated_uj: 1n, provenance: 'HwShunt', obtained: { how: 'host-calibrated-model' } }))).toBe('ERR_ENERGY_PROVENANCE_OVERCLAIMED');
    expect(codeOf(() => makeEnergy({ measured_uj: 1n, estimated_uj: 1n, provenance: 'ModelBased', obtained: { how: 'host-calibrated-model' } }))).toBe('ERR_ENERGY_PROVENANCE_OVERCLAIMED');
    // claiming worse than earned is allowed
    expect(makeEnergy({ estimated_uj: 1n, provenance: 'Estimator', obtained: { how: 'host-calibrated-model' } }).provenance).toBe('Estimator');
  });
  it('each method earns its best provenance: HwShunt, ModelBased or Estimator', () => {
    expect(bestProvenance(liveCounter)).toBe('HwShunt');
    expect(bestProvenance({ how: 'apportioned-reading' })).toBe('ModelBased');
    expect(bestProvenance({ how: 'host-calibrated-model' })).toBe('ModelBased');
    expect(bestProvenance({ how: 'uncalibrated-model' })).toBe('Estimator');
    expect(bestProvenance({ how: 'constant' })).toBe('Estimator');
  });
  it('an overclaim names what was claimed and what the method earns', () => {
    const e = thrown(() => makeEnergy({ measured_uj: 1n, estimated_uj: 1n, provenance: 'HwShunt', obtained: { how: 'apportioned-reading' } }));
    expect(e.code).toBe('ERR_ENERGY_PROVENANCE_OVERCLAIMED');
    expect(e.message).toContain('HwShunt claims better than apportioned-reading earns (ModelBased at best)');
    expect(e.detail).toEqual({ claimed: 'HwShunt', earned: 'ModelBased' });
  });
  it('a measurement on a figure obtained by no reading is refused, naming the method', () => {
    const e = thrown(() => makeEnergy({ measured_uj: 1n, estimated_uj: 1n, provenance: 'ModelBased', obtained: { how: 'host-calibrated-model' } }));
    expect(e.message).toContain('measured_uj present on a figure obtained by host-calibrated-model, which reads nothing');
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
  it('the refusal of an inadmissible counter reading says why, and names the method in its detail', () => {
    const why: Array<[Obtained, string]> = [
      [{ ...liveCounter, live: false }, 'the counter was not live'],
      [{ ...liveCounter, read_both_ends: false }, 'the backend did not read both ends of the span (failed mid-reading)'],
      [{ ...liveCounter, plausibility: 'refuted' }, 'the counter was refuted by a plausibility bound'],
      [{ ...liveCounter, plausibility: 'indeterminate' }, 'the counter could not be judged against its bound (indeterminate)'],
    ];
    for (const [obtained, reason] of why) {
      const e = thrown(() => makeEnergy({ measured_uj: 1n, estimated_uj: 1n, provenance: 'HwShunt', obtained }));
      expect(e.message).toContain(`a counter reading that earns no grade cannot make a figure: ${reason}`);
      expect(e.detail).toEqual({ obtained: 'counter' });
    }
  });
  it('a counter that reads part of the domain cannot claim Whole', () => {
    const gpu: Obtained = { ...liveCounter, covers: 'Partial' };
    expect(codeOf(() => makeEnergy({ measured_uj: 1n, estimated_uj: 1n, provenance: 'HwShunt', obtained: gpu }))).toBe('ERR_ENERGY_COVERAGE_OVERCLAIMED');
    expect(thrown(() => makeEnergy({ measured_uj: 1n, estimated_uj: 1n, provenance: 'HwShunt', obtained: gpu })).message).toContain('the counter reads only part of the domain');
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
    expect(codeOf(() => makeEnergy(undefined as never))).toBe('ERR_ENERGY_MALFORMED');
  });
  it('a malformed field is named in the refusal, with the value given', () => {
    const msg = (f: object): string => thrown(() => makeEnergy({ estimated_uj: 1n, provenance: 'Estimator', obtained: { how: 'constant' }, ...f } as never)).message;
    expect(msg({ estimated_uj: -1n })).toContain('estimated_uj must be a non-negative integer of microjoules (bigint), got -1');
    expect(msg({ provenance: 'ModelBased', measured_uj: 2 })).toContain('measured_uj must be a non-negative integer of microjoules (bigint), got 2');
    expect(msg({ provenance: 'Shunt' })).toContain('provenance must be one of HwShunt, ModelBased, Estimator, got Shunt');
    expect(msg({ coverage: 'Half' })).toContain('coverage must be Whole or Partial, got Half');
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
  it('names what is wrong with obtained', () => {
    const msg = (obtained: unknown): string => thrown(() => makeEnergy({ measured_uj: 1n, estimated_uj: 1n, provenance: 'HwShunt', obtained: obtained as never })).message;
    const how = 'obtained must say how the figure was obtained (one of counter, apportioned-reading, host-calibrated-model, uncalibrated-model, constant)';
    expect(msg(null)).toContain(how);
    expect(msg({ how: 'guess' })).toContain(how);
    expect(msg({ ...liveCounter, read_both_ends: 'yes' })).toContain('obtained of a counter must say whether it was live and read at both ends');
    expect(msg({ ...liveCounter, plausibility: 'fine' })).toContain('obtained plausibility must be one of not-refuted, no-bound, refuted, indeterminate');
    expect(msg({ ...liveCounter, covers: 'Half' })).toContain('obtained covers must be Whole or Partial');
  });
});
