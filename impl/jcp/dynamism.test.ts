// Unit tests of jcp §5.4 window findings and §5.6 declared shapes (impl/jcp/dynamism.ts).
import { describe, expect, it } from 'vitest';
import { codeOf } from '../_test-support.ts';
import { baselineApplies, classifyWindows, judgeDeclaredShape, type Baseline, type MeasuredOn } from './dynamism.ts';

const ON: MeasuredOn = { silicon: 'rtx-4050', occupancy: 'exclusive', sampling_ns: 100_000_000n };
const BASE: Baseline = { lo_uj: 100n, hi_uj: 200n, measured_on: ON };
const EV = 'a'.repeat(64);
const W = (uj: bigint, duration_ns = 100_000_000n) => ({ uj, duration_ns });

describe('jcp §5.4 baselines, causes and windows', () => {
  it('a baseline applies only where it was measured, and an undeclared one nowhere', () => {
    expect(baselineApplies(BASE, ON)).toBe(true);
    expect(baselineApplies({ lo_uj: 1n, hi_uj: 2n }, ON)).toBe(false);
    expect(baselineApplies(BASE, { ...ON, silicon: 'm2-max' })).toBe(false);
    expect(baselineApplies(BASE, { ...ON, occupancy: 'shared' })).toBe(false);
    expect(baselineApplies({ ...BASE, measured_on: { ...ON, sampling_ns: 1_000_000_000n } }, ON)).toBe(false);
  });

  it('each window reads as its own kind', () => {
    expect(classifyWindows(ON, [W(150n), W(100n), W(200n), W(99n), W(500n), W(500n), W(500n, 10n)], BASE, [{ window: 4, cause: 'thermal-limit', evidence: EV }, { window: 5, cause: 'cold-start' }])).toEqual([
      { kind: 'within-band' },
      { kind: 'within-band' },
      { kind: 'within-band' },
      { kind: 'unexplained' },
      { kind: 'explained', cause: 'thermal-limit', evidence: EV },
      { kind: 'unexplained' },
      { kind: 'unresolvable' },
    ]);
    expect(classifyWindows(ON, [W(150n), W(500n)], { lo_uj: 100n, hi_uj: 200n })).toEqual([{ kind: 'inapplicable' }, { kind: 'inapplicable' }]);
  });

  it('refuses malformed input', () => {
    expect(codeOf(() => classifyWindows({ ...ON, sampling_ns: 0n }, [], BASE))).toBe('ERR_BAD_ARGUMENT');
    expect(codeOf(() => classifyWindows(ON, [], { lo_uj: 3n, hi_uj: 2n }))).toBe('ERR_BAD_ARGUMENT');
    expect(codeOf(() => classifyWindows(ON, [W(-1n)], BASE))).toBe('ERR_BAD_ARGUMENT');
    expect(codeOf(() => classifyWindows(ON, [W(1n)], BASE, [{ window: 1, cause: 'cold-start', evidence: EV }]))).toBe('ERR_BAD_ARGUMENT');
    expect(codeOf(() => classifyWindows(ON, [W(1n)], BASE, [{ window: 0, cause: 'sabotage' as never, evidence: EV }]))).toBe('ERR_BAD_ARGUMENT');
    expect(codeOf(() => classifyWindows(ON, [W(1n)], BASE, [{ window: 0, cause: 'cold-start', evidence: 'nope' }]))).toBe('ERR_BAD_ARGUMENT');
    expect(codeOf(() => classifyWindows(ON, [W(1n)], BASE, [{ window: 0, cause: 'cold-start', evidence: EV }, { window: 0, cause: 'thermal-limit', evidence: EV }]))).toBe('ERR_BAD_ARGUMENT');
  });
});

describe('jcp §5.6 declared shapes', () => {
  it('judges only a declaration made in advance, and an inconsistency refutes it', () => {
    expect(judgeDeclaredShape('flat', 5n, 'flat', 10n)).toBe('not-refuted');
    expect(judgeDeclaredShape('flat', 5n, 'ramp', 10n)).toBe('refuted');
    expect(judgeDeclaredShape('ramp', 10n, 'ramp', 10n)).toBe('not-in-advance');
    expect(judgeDeclaredShape('ramp', 11n, 'flat', 10n)).toBe('not-in-advance');
    expect(codeOf(() => judgeDeclaredShape('spiky' as never, 1n, 'flat', 10n))).toBe('ERR_BAD_ARGUMENT');
    expect(codeOf(() => judgeDeclaredShape('flat', -1n, 'flat', 10n))).toBe('ERR_BAD_ARGUMENT');
  });
});
