// Unit tests of impl/energy/apple-self.ts: jouleclaw §1.3's Apple per-process span.
import { describe, expect, it } from 'vitest';
import { codeOf } from '../_test-support.ts';
import { appleGpuFigure, meterAppleSelf } from './apple-self.ts';

const ok = { before_nj: 1n, after_nj: 2n };
const no = { before_nj: 2n, after_nj: 2n };

describe('appleGpuFigure', () => {
  it('an exact zero when its own GPU time did not move; the rail at 99% or more; nothing when shared', () => {
    expect(appleGpuFigure({ own_gpu_ns: 0n, clients_gpu_ns: 50n, rail_nj: 9_000n })).toBe(0n);
    expect(appleGpuFigure({ own_gpu_ns: 99n, clients_gpu_ns: 100n, rail_nj: 9_000n })).toBe(9n);
    expect(appleGpuFigure({ own_gpu_ns: 98n, clients_gpu_ns: 100n, rail_nj: 9_000n })).toBeUndefined();
    expect(codeOf(() => appleGpuFigure({ own_gpu_ns: 101n, clients_gpu_ns: 100n, rail_nj: 1n }))).toBe('ERR_ENERGY_MALFORMED');
  });
});

describe('meterAppleSelf', () => {
  it('both ends checked, the GPU its own: HwShunt, Whole', () => {
    expect(meterAppleSelf({ start: ok, stop: ok, cpu_nj: 5_000n, gpu: { own_gpu_ns: 0n, clients_gpu_ns: 0n, rail_nj: 0n }, estimated_uj: 9n }).energy).toEqual({ measured_uj: 5n, estimated_uj: 9n, provenance: 'HwShunt', coverage: 'Whole' });
  });
  it('an end not checked is estimated', () => {
    for (const [start, stop] of [[no, ok], [ok, no]] as const) expect(meterAppleSelf({ start, stop, cpu_nj: 5_000n, estimated_uj: 9n }).energy).toEqual({ estimated_uj: 9n, provenance: 'Estimator', coverage: 'Whole' });
  });
  it('a shared GPU, no GPU reading, or the ANE: the CPU figure alone, Partial', () => {
    const shared = meterAppleSelf({ start: ok, stop: ok, cpu_nj: 5_000n, gpu: { own_gpu_ns: 50n, clients_gpu_ns: 100n, rail_nj: 9_000_000n }, estimated_uj: 9n });
    expect(shared.gpu_uj).toBeUndefined();
    expect(shared.energy).toMatchObject({ measured_uj: 5n, coverage: 'Partial' });
    expect(meterAppleSelf({ start: ok, stop: ok, cpu_nj: 5_000n, estimated_uj: 9n }).energy.coverage).toBe('Partial');
    expect(meterAppleSelf({ start: ok, stop: ok, cpu_nj: 5_000n, gpu: { own_gpu_ns: 0n, clients_gpu_ns: 0n, rail_nj: 0n }, used_ane: true, estimated_uj: 9n }).energy.coverage).toBe('Partial');
  });
});
