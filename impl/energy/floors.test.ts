// Unit tests of impl/energy/floors.ts: jouleclaw §1.3's surfaced floors and the breaker's granularity.
import { describe, expect, it } from 'vitest';
import { codeOf, thrown } from '../_test-support.ts';
import { breakerGranularity, counterFloors } from './floors.ts';

describe('counterFloors', () => {
  it("surfaces §1.3's realistic floors, and refuses a counter it does not know", () => {
    expect(counterFloors('rapl')).toEqual({ resolution_uj: 1n, min_window_ns: 10_000_000n });
    expect(counterFloors('nvml')).toEqual({ resolution_uj: 1_000n, min_window_ns: 100_000_000n });
    expect(counterFloors('ioreport').resolution_uj).toBe(1_000n);
    expect(codeOf(() => counterFloors('toString'))).toBe('ERR_BAD_ARGUMENT');
  });
  it('names the counter it refuses and the counters it knows', () => {
    const e = thrown(() => counterFloors('smc'));
    expect(e.code).toBe('ERR_BAD_ARGUMENT');
    expect(e.message).toContain('no counter "smc" on this meter (it knows rapl, nvml, ioreport, proc-self)');
  });
});

describe('breakerGranularity', () => {
  it('the coarsest resolution and the longest window of the span', () => {
    expect(breakerGranularity([counterFloors('rapl'), counterFloors('nvml')])).toEqual(counterFloors('nvml'));
    expect(breakerGranularity([{ resolution_uj: 5n, min_window_ns: 1n }, { resolution_uj: 2n, min_window_ns: 9n }])).toEqual({ resolution_uj: 5n, min_window_ns: 9n });
  });
  it('refuses an empty span or a zero floor', () => {
    const empty = thrown(() => breakerGranularity([]));
    expect(empty.code).toBe('ERR_ENERGY_MALFORMED');
    expect(empty.message).toContain('a span is metered by at least one counter');
    expect(codeOf(() => breakerGranularity([{ resolution_uj: 0n, min_window_ns: 1n }]))).toBe('ERR_ENERGY_MALFORMED');
  });
  it('refuses a counter whose floors are missing, not bigints, or zero, naming which counter', () => {
    // jouleclaw §1.3: the floors are resolution_uj() and min_window_ns(), each a positive amount
    const bad = [null, { resolution_uj: 1, min_window_ns: 1n }, { resolution_uj: 1n, min_window_ns: 1 }, { resolution_uj: 1n, min_window_ns: 0n }];
    for (const c of bad) {
      const e = thrown(() => breakerGranularity([counterFloors('rapl'), c as never]));
      expect(e.code).toBe('ERR_ENERGY_MALFORMED');
      expect(e.message).toContain('counters[1] must carry a positive resolution_uj and min_window_ns');
    }
  });
});
