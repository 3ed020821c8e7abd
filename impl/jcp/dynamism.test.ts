// Unit tests of jcp §5.4 window findings and §5.6 declared shapes (impl/jcp/dynamism.ts).
import { describe, expect, it } from 'vitest';
import { thrown } from '../_test-support.ts';
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

  it('refuses a series that is not {silicon, occupancy, sampling_ns > 0}, naming the series', () => {
    const msg = 'ERR_BAD_ARGUMENT: series must be {silicon: text, occupancy: text, sampling_ns: uint > 0}';
    expect(thrown(() => classifyWindows({ ...ON, sampling_ns: 0n }, [], BASE)).message).toBe(msg);
    expect(thrown(() => classifyWindows({ ...ON, sampling_ns: -1n }, [], BASE)).message).toBe(msg);
    expect(thrown(() => classifyWindows({ ...ON, sampling_ns: 100 as never }, [], BASE)).message).toBe(msg);
    expect(thrown(() => classifyWindows({ ...ON, silicon: 4050 as never }, [], BASE)).message).toBe(msg);
    expect(thrown(() => classifyWindows({ ...ON, occupancy: null as never }, [], BASE)).message).toBe(msg);
    expect(thrown(() => classifyWindows(null as never, [], BASE)).message).toBe(msg);
    // a look-alike: a function carrying the three fields is not a record
    expect(thrown(() => classifyWindows(Object.assign(() => 0, ON), [], BASE)).message).toBe(msg);
  });

  it('refuses a baseline measured somewhere malformed, naming baseline.measured_on', () => {
    const e = thrown(() => classifyWindows(ON, [W(150n)], { ...BASE, measured_on: { ...ON, sampling_ns: 0n } }));
    expect(e.code).toBe('ERR_BAD_ARGUMENT');
    expect(e.message).toBe('ERR_BAD_ARGUMENT: baseline.measured_on must be {silicon: text, occupancy: text, sampling_ns: uint > 0}');
  });

  it('refuses a band whose bounds are not uints or whose lo_uj exceeds hi_uj, and accepts a one-point band', () => {
    const msg = 'ERR_BAD_ARGUMENT: baseline must have lo_uj ≤ hi_uj, both uints';
    expect(thrown(() => classifyWindows(ON, [], { lo_uj: 3n, hi_uj: 2n })).message).toBe(msg);
    expect(thrown(() => classifyWindows(ON, [], { lo_uj: -1n, hi_uj: 2n })).message).toBe(msg);
    expect(thrown(() => classifyWindows(ON, [], { lo_uj: 1n, hi_uj: 2 as never })).message).toBe(msg);
    expect(classifyWindows(ON, [W(100n), W(101n)], { ...BASE, hi_uj: 100n })).toEqual([{ kind: 'within-band' }, { kind: 'unexplained' }]);
  });

  it('refuses a window whose duration or energy is not a uint, naming the window', () => {
    expect(thrown(() => classifyWindows(ON, [W(1n), W(-1n)], BASE)).message).toBe('ERR_BAD_ARGUMENT: windows[1] must be {duration_ns: uint, uj: uint}');
  });

  it('refuses a cause that names no window of the series', () => {
    const msg = 'ERR_BAD_ARGUMENT: causes[0].window must index a window';
    expect(thrown(() => classifyWindows(ON, [W(1n)], BASE, [{ window: 1, cause: 'cold-start', evidence: EV }])).message).toBe(msg);
    expect(thrown(() => classifyWindows(ON, [W(1n)], BASE, [{ window: -1, cause: 'cold-start', evidence: EV }])).message).toBe(msg);
    expect(thrown(() => classifyWindows(ON, [W(1n), W(1n)], BASE, [{ window: 0.5, cause: 'cold-start', evidence: EV }])).message).toBe(msg);
  });

  it('refuses a cause outside the five §5.4 names, listing them', () => {
    const e = thrown(() => classifyWindows(ON, [W(1n)], BASE, [{ window: 0, cause: 'sabotage' as never, evidence: EV }]));
    expect(e.message).toBe('ERR_BAD_ARGUMENT: causes[0].cause must be one of thermal-limit, host-contention, cold-start, frequency-scaling, coverage-gap');
  });

  it('refuses evidence that is not a content id, and a window named twice', () => {
    expect(thrown(() => classifyWindows(ON, [W(1n)], BASE, [{ window: 0, cause: 'cold-start', evidence: 'nope' }])).message).toBe(
      'ERR_BAD_ARGUMENT: causes[0].evidence must be a content id (64 lowercase hex digits)',
    );
    expect(thrown(() => classifyWindows(ON, [W(1n)], BASE, [{ window: 0, cause: 'cold-start', evidence: EV }, { window: 0, cause: 'thermal-limit', evidence: EV }])).message).toBe(
      'ERR_BAD_ARGUMENT: causes[1] names window 0 a second time',
    );
  });
});

describe('jcp §5.6 declared shapes', () => {
  it('judges only a declaration made in advance, and an inconsistency refutes it', () => {
    expect(judgeDeclaredShape('flat', 5n, 'flat', 10n)).toBe('not-refuted');
    expect(judgeDeclaredShape('flat', 5n, 'ramp', 10n)).toBe('refuted');
    expect(judgeDeclaredShape('ramp', 10n, 'ramp', 10n)).toBe('not-in-advance');
    expect(judgeDeclaredShape('ramp', 11n, 'flat', 10n)).toBe('not-in-advance');
  });

  it('refuses a shape outside the three §5.6 names and an instant that is not a uint', () => {
    expect(thrown(() => judgeDeclaredShape('spiky' as never, 1n, 'flat', 10n)).message).toBe('ERR_BAD_ARGUMENT: a shape is one of flat, ramp, alternating');
    expect(thrown(() => judgeDeclaredShape('flat', -1n, 'flat', 10n)).message).toBe('ERR_BAD_ARGUMENT: declared_at_ns and observed_from_ns must be uints');
  });
});
