// Unit tests of impl/energy/floors.ts: jouleclaw §1.3's surfaced floors and the breaker's granularity.
import { describe, expect, it } from 'vitest';
import { codeOf } from '../_test-support.ts';
import { breakerGranularity, counterFloors } from './floors.ts';

describe('counterFloors', () => {
  it("surfaces §1.3's realistic floors, and refuses a counter it does not know", () => {
    expect(counterFloors('rapl')).toEqual({ resolution_uj: 1n, min_window_ns: 10_000_000n });
    expect(counterFloors('nvml')).toEqual({ resolution_uj: 1_000n, min_window_ns: 100_000_000n });
    expect(counterFloors('ioreport').resolution_uj).toBe(1_000n);
    expect(codeOf(() => counterFloors('toString'))).toBe('ERR_BAD_ARGUMENT');
  });
});

describe('breakerGranularity', () => {
  it('the coarsest resolution and the longest window of the span', () => {
    expect(breakerGranularity([counterFloors('rapl'), counterFloors('nvml')])).toEqual(counterFloors('nvml'));
    expect(breakerGranularity([{ resolution_uj: 5n, min_window_ns: 1n }, { resolution_uj: 2n, min_window_ns: 9n }])).toEqual({ resolution_uj: 5n, min_window_ns: 9n });
  });
  it('refuses an empty span or a zero floor', () => {
    expect(codeOf(() => breakerGranularity([]))).toBe('ERR_ENERGY_MALFORMED');
    expect(codeOf(() => breakerGranularity([{ resolution_uj: 0n, min_window_ns: 1n }]))).toBe('ERR_ENERGY_MALFORMED');
  });
});
