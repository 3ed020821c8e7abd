// jouleclaw §1.3, Apple Silicon per process (macOS 27.0.1, unprivileged): the figure for a span of the process's own
// work from what its meter read. "An implementation MUST take each read of its own process only once it has checked
// that the reading thread left its core just before it (...) and a span with an end not so checked MUST NOT be graded
// a hardware reading: it is estimated." Its GPU energy "is HwShunt in two cases only: an exact zero when its own GPU
// time (I/O Registry) did not move, and the IOReport GPU Energy rail (nJ, live) when it had at least 99% of every GPU
// client's GPU time over the span. A shared GPU gives no figure: the rail MUST NOT be split by GPU time (...). Without
// a GPU figure, the process's CPU figure alone is Partial. No live source covers the ANE: a figure for work that used
// it is Partial."
//
// Readings taken here: an end is checked when the reading thread's own energy count rose across its sleep (tree.ts
// threadLeftCore); nJ become µJ rounded down; `clients_gpu_ns` is every client's GPU time, the process's own included;
// the rail is taken as live (its liveness is liveness.ts's judgement, not repeated here); a span with an unchecked end
// is the estimator's figure for the whole work.
import { JcpError } from '../errors.ts';
import { makeEnergy, type Energy } from './energy.ts';
import { threadLeftCore } from './tree.ts';

/** The reading thread's own energy count across its sleep before one end's read. */
export interface ThreadCheck {
  readonly before_nj: bigint;
  readonly after_nj: bigint;
}

/** What the meter read over the span. */
export interface AppleSelfSpan {
  readonly start: ThreadCheck;
  readonly stop: ThreadCheck;
  /** The process's own CPU energy advance over the span (proc_pid_rusage, nJ). */
  readonly cpu_nj: bigint;
  /** The GPU over the span; absent when the process has no GPU reading at all. */
  readonly gpu?: {
    /** The process's own GPU time over the span (I/O Registry), ns. */
    readonly own_gpu_ns: bigint;
    /** Every GPU client's GPU time over the span, the process's own included, ns. */
    readonly clients_gpu_ns: bigint;
    /** The IOReport GPU Energy rail's advance over the span, nJ. */
    readonly rail_nj: bigint;
  };
  /** Whether the work used the ANE. */
  readonly used_ane?: boolean;
  /** The estimator's figure for the whole work, µJ. */
  readonly estimated_uj: bigint;
}

/** The span's figure, its GPU figure when there is one, and why it is not a Whole hardware reading. */
export interface AppleSelfFigure {
  readonly energy: Energy;
  readonly gpu_uj?: bigint;
  readonly why: readonly string[];
}

const nat = (v: unknown, k: string): bigint => {
  if (typeof v !== 'bigint' || v < 0n) throw new JcpError('ERR_ENERGY_MALFORMED', `${k} must be a non-negative integer`);
  return v;
};

/** The GPU figure (µJ) of jouleclaw §1.3's two cases, or undefined: a shared GPU gives no figure. */
export function appleGpuFigure(gpu: NonNullable<AppleSelfSpan['gpu']>): bigint | undefined {
  const own = nat(gpu.own_gpu_ns, 'gpu.own_gpu_ns');
  const all = nat(gpu.clients_gpu_ns, 'gpu.clients_gpu_ns');
  const rail = nat(gpu.rail_nj, 'gpu.rail_nj');
  if (own > all) throw new JcpError('ERR_ENERGY_MALFORMED', "the process's own GPU time exceeds every client's");
  // "an exact zero when its own GPU time (I/O Registry) did not move"
  if (own === 0n) return 0n;
  // "the IOReport GPU Energy rail (...) when it had at least 99% of every GPU client's GPU time over the span"
  if (own * 100n >= all * 99n) return rail / 1_000n;
  // "A shared GPU gives no figure: the rail MUST NOT be split by GPU time"
  return undefined;
}

/** The figure for the span (jouleclaw §1.3), made through makeEnergy. */
export function meterAppleSelf(s: AppleSelfSpan): AppleSelfFigure {
  const cpu_nj = nat(s?.cpu_nj, 'cpu_nj');
  const estimated_uj = nat(s.estimated_uj, 'estimated_uj');
  const startChecked = threadLeftCore(nat(s.start?.before_nj, 'start.before_nj'), nat(s.start?.after_nj, 'start.after_nj'));
  const stopChecked = threadLeftCore(nat(s.stop?.before_nj, 'stop.before_nj'), nat(s.stop?.after_nj, 'stop.after_nj'));
  const gpu_uj = s.gpu === undefined ? undefined : appleGpuFigure(s.gpu);
  const why: string[] = [];
  if (!startChecked) why.push('the reading thread was not seen to leave its core before the start read');
  if (!stopChecked) why.push('the reading thread was not seen to leave its core before the stop read');
  // "a span with an end not so checked MUST NOT be graded a hardware reading: it is estimated"
  if (!startChecked || !stopChecked) {
    const energy = makeEnergy({ estimated_uj, provenance: 'Estimator', obtained: { how: 'uncalibrated-model' } });
    return Object.freeze({ energy, ...(gpu_uj !== undefined ? { gpu_uj } : {}), why });
  }
  if (s.gpu !== undefined && gpu_uj === undefined) why.push('the GPU was shared over the span: no GPU figure');
  if (s.used_ane === true) why.push('no live source covers the ANE');
  // "Without a GPU figure, the process's CPU figure alone is Partial"; "a figure for work that used it [the ANE] is Partial"
  const covers = gpu_uj === undefined || s.used_ane === true ? 'Partial' : 'Whole';
  const energy = makeEnergy({
    measured_uj: cpu_nj / 1_000n + (gpu_uj ?? 0n),
    estimated_uj,
    provenance: 'HwShunt',
    coverage: covers,
    obtained: { how: 'counter', live: true, read_both_ends: true, plausibility: 'no-bound', covers },
  });
  return Object.freeze({ energy, ...(gpu_uj !== undefined ? { gpu_uj } : {}), why });
}
