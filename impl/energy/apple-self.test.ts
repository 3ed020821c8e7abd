// Unit tests of impl/energy/apple-self.ts: jouleclaw §1.3's Apple per-process span.
import { describe, expect, it } from 'vitest';
import { codeOf, thrown } from '../_test-support.ts';
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
  it('names the field that is negative or not a bigint, and own time exceeding every client\'s', () => {
    const gpu = { own_gpu_ns: 99n, clients_gpu_ns: 100n, rail_nj: 9_000n };
    for (const k of ['own_gpu_ns', 'clients_gpu_ns', 'rail_nj'] as const) {
      for (const v of [-1n, 5]) {
        const e = thrown(() => appleGpuFigure({ ...gpu, [k]: v as never }));
        expect(e.code).toBe('ERR_ENERGY_MALFORMED');
        expect(e.message).toContain(`gpu.${k} must be a non-negative integer`);
      }
    }
    expect(thrown(() => appleGpuFigure({ ...gpu, own_gpu_ns: 101n })).message).toContain("the process's own GPU time exceeds every client's");
  });
});

describe('meterAppleSelf', () => {
  it('both ends checked, the GPU its own: HwShunt, Whole', () => {
    expect(meterAppleSelf({ start: ok, stop: ok, cpu_nj: 5_000n, gpu: { own_gpu_ns: 0n, clients_gpu_ns: 0n, rail_nj: 0n }, estimated_uj: 9n }).energy).toEqual({ measured_uj: 5n, estimated_uj: 9n, provenance: 'HwShunt', coverage: 'Whole' });
  });
  it('measures the CPU figure plus the GPU figure, each nJ to µJ, with nothing to record', () => {
    const f = meterAppleSelf({ start: ok, stop: ok, cpu_nj: 5_999n, gpu: { own_gpu_ns: 100n, clients_gpu_ns: 100n, rail_nj: 9_999n }, estimated_uj: 1n });
    expect(f).toEqual({ energy: { measured_uj: 14n, estimated_uj: 1n, provenance: 'HwShunt', coverage: 'Whole' }, gpu_uj: 9n, why: [] });
  });
  it('carries no gpu_uj field when there is no GPU figure', () => {
    expect(Object.keys(meterAppleSelf({ start: ok, stop: ok, cpu_nj: 5_000n, estimated_uj: 9n }))).toEqual(['energy', 'why']);
  });
  it('an end not checked is estimated', () => {
    for (const [start, stop] of [[no, ok], [ok, no]] as const) expect(meterAppleSelf({ start, stop, cpu_nj: 5_000n, estimated_uj: 9n }).energy).toEqual({ estimated_uj: 9n, provenance: 'Estimator', coverage: 'Whole' });
  });
  it('records which end was not seen to leave its core', () => {
    const why = (start: typeof ok, stop: typeof ok): readonly string[] => meterAppleSelf({ start, stop, cpu_nj: 5_000n, estimated_uj: 9n }).why;
    expect(why(no, ok)).toEqual(['the reading thread was not seen to leave its core before the start read']);
    expect(why(ok, no)).toEqual(['the reading thread was not seen to leave its core before the stop read']);
  });
  it('refuses a span field that is missing, negative or not a bigint, naming it', () => {
    const span = { start: ok, stop: ok, cpu_nj: 5_000n, estimated_uj: 9n };
    const cases: Array<[unknown, string]> = [
      [undefined, 'cpu_nj'],
      [{ ...span, cpu_nj: -1n }, 'cpu_nj'],
      [{ ...span, cpu_nj: 5 }, 'cpu_nj'],
      [{ ...span, estimated_uj: -1n }, 'estimated_uj'],
      [{ ...span, start: undefined }, 'start.before_nj'],
      [{ ...span, start: { before_nj: 1n, after_nj: -1n } }, 'start.after_nj'],
      [{ ...span, stop: undefined }, 'stop.before_nj'],
      [{ ...span, stop: { before_nj: 1n, after_nj: -1n } }, 'stop.after_nj'],
    ];
    for (const [s, k] of cases) {
      const e = thrown(() => meterAppleSelf(s as never));
      expect(e.code).toBe('ERR_ENERGY_MALFORMED');
      expect(e.message).toContain(`${k} must be a non-negative integer`);
    }
  });
  it('a shared GPU, no GPU reading, or the ANE: the CPU figure alone, Partial', () => {
    const shared = meterAppleSelf({ start: ok, stop: ok, cpu_nj: 5_000n, gpu: { own_gpu_ns: 50n, clients_gpu_ns: 100n, rail_nj: 9_000_000n }, estimated_uj: 9n });
    expect(shared.gpu_uj).toBeUndefined();
    expect(shared.energy).toMatchObject({ measured_uj: 5n, coverage: 'Partial' });
    expect(meterAppleSelf({ start: ok, stop: ok, cpu_nj: 5_000n, estimated_uj: 9n }).energy.coverage).toBe('Partial');
    expect(meterAppleSelf({ start: ok, stop: ok, cpu_nj: 5_000n, gpu: { own_gpu_ns: 0n, clients_gpu_ns: 0n, rail_nj: 0n }, used_ane: true, estimated_uj: 9n }).energy.coverage).toBe('Partial');
  });
  it('records the ANE as uncovered', () => {
    // jouleclaw §1.3: "No live source covers the ANE: a figure for work that used it is Partial."
    const f = meterAppleSelf({ start: ok, stop: ok, cpu_nj: 5_000n, gpu: { own_gpu_ns: 0n, clients_gpu_ns: 0n, rail_nj: 0n }, used_ane: true, estimated_uj: 9n });
    expect(f.why).toEqual(['no live source covers the ANE']);
  });
});
