// The lab's meter (ARCHITECTURE.md: "the meter that walks the ladder over live backends"): for each backend of jcp
// §5.1 — RAPL, NVML, macOS per-process energy and IOReport — read what the host has, probe it (hardware-lab/probe.ts),
// and judge it with impl/energy: liveness (every counter of a summed domain), RAPL zone selection and wrap correction,
// two-sided plausibility against the board's own telemetry, and the ladder's choice with why every rung above it
// declined. Every finding names what was read and why a counter was not; nothing unreadable is reported as zero.
import { judgeDomainLiveness, sumRaplPackages, type DomainVerdict, type LivenessVerdict, type RaplZoneSeries } from '../impl/energy/liveness.ts';
import { meterSpan, type CounterRung, type LadderChoice, type RungEvidence } from '../impl/energy/ladder.ts';
import type { BoardTelemetry, PlausibilityVerdict } from '../impl/energy/plausibility.ts';
import { RaplBackend, type FoundZone } from './backends/rapl.ts';
import { nvmlDescribe, openNvml, type NvmlDevice, type NvmlResult } from './backends/nvml.ts';
import { ioreportCpuRails, ioreportSample, isMacos, procEnergy } from './backends/macos.ts';
import { livenessOf, plausibilityOf, probe, spanOf, type ProbeCounter, type ProbeOptions, type ProbeRun, type ProbedCounter } from './probe.ts';

/**
 * The default active power of the estimate rung (jcp §5.1 rung 6: "wall-clock duration times a default or assumed
 * active power — a documented default"): 15 W, this lab's documented default, calibrated on no host.
 */
export const DEFAULT_ACTIVE_POWER_MW = 15_000n;

/** One counter as the lab found and judged it. */
export interface CounterFinding {
  readonly counter: string;
  readonly samples: number;
  /** The raw samples, [ns since the first sample, count in µJ], so the judgement can be re-made later. */
  readonly trace?: ReadonlyArray<readonly [bigint, bigint]>;
  readonly failures: readonly string[];
  readonly liveness?: LivenessVerdict;
  readonly delta_uj?: bigint;
  readonly rate_mw?: bigint;
  readonly plausibility?: PlausibilityVerdict;
  readonly telemetry?: { readonly draw_mw: readonly bigint[]; readonly draw_failures: readonly string[]; readonly limit_mw?: bigint; readonly limit_status?: string };
}

/** What one rung's backend found on the host. */
export interface RungFinding {
  readonly rung: CounterRung;
  /** `absent`: nothing to read; `unreadable`: present but a count could not be read; `probed`: sampled and judged. */
  readonly status: 'absent' | 'unreadable' | 'error' | 'not-macos' | 'probed';
  readonly detail: string;
  readonly counters: readonly CounterFinding[];
  /** RAPL: the zones not summed, each with why (impl/energy selectRaplPackages). */
  readonly excluded?: ReadonlyArray<{ readonly zone: string; readonly name: string; readonly reason: string }>;
  /** Every counter of the summed domain live (jcp §5: "every one of them MUST be observed live"). */
  readonly domain?: DomainVerdict;
  readonly burn?: ProbeRun['burn'];
}

/** A rung's finding and the evidence the ladder walks. */
export interface RungProbe {
  readonly finding: RungFinding;
  readonly evidence: RungEvidence;
}

function finding(c: ProbedCounter, extra: Partial<CounterFinding> = {}): CounterFinding {
  const liveness = c.samples.length > 0 ? livenessOf(c) : undefined;
  const t0 = c.samples[0]?.t_ns ?? 0n;
  const trace = c.samples.map((s) => [s.t_ns - t0, s.value] as const);
  return { counter: c.name, samples: c.samples.length, ...(trace.length ? { trace } : {}), failures: c.failures.slice(0, 5), ...(liveness ? { liveness } : {}), ...extra };
}

function rateOf(c: ProbedCounter, delta_uj: bigint | undefined): bigint | undefined {
  const { duration_ns } = spanOf(c.samples);
  return delta_uj !== undefined && duration_ns > 0n ? (delta_uj * 1_000_000n) / duration_ns : undefined;
}

function series(c: ProbedCounter, zone: string): RaplZoneSeries {
  return { zone, name: c.name, samples: c.samples, ...(c.max_energy_range_uj !== undefined ? { max_energy_range_uj: c.max_energy_range_uj } : {}) };
}

// ---- RAPL (jcp §5.1 rung 1) -------------------------------------------------------------------------------------

/** Probes the RAPL package counters under a powercap root: only top-level package-<n> zones are probed or summed. */
export async function probeRapl(backend: RaplBackend, opts: ProbeOptions = {}): Promise<RungProbe> {
  const rung = 'rapl' as const;
  const scan = backend.scan();
  if (scan.status === 'absent') return { finding: { rung, status: 'absent', detail: scan.detail, counters: [] }, evidence: { rung, status: 'absent' } };
  const { packages, excluded } = backend.packages(scan.zones);
  if (packages.length === 0) {
    const detail = `no top-level package-<n> zone under ${scan.root} (${scan.zones.length} zone(s): ${scan.zones.map((z) => `${z.zone}=${z.name}`).join(', ') || 'none'})`;
    return { finding: { rung, status: 'absent', detail, counters: [], excluded }, evidence: { rung, status: 'absent' } };
  }
  const denied = packages.filter((z) => !z.energy_readable);
  if (denied.length > 0) {
    const why = denied.map((z) => `${z.zone}/energy_uj: ${z.energy_error?.code ?? 'error'} (${z.energy_error?.error ?? ''})`).join('; ');
    const root = denied.some((z) => z.energy_error?.code === 'EACCES') ? ' — energy_uj is root-only on this kernel; run the lab as root or grant read access' : '';
    return {
      finding: { rung, status: 'unreadable', detail: `package energy_uj unreadable: ${why}${root}`, counters: denied.map((z) => ({ counter: z.name, samples: 0, failures: [z.energy_error?.error ?? 'unreadable'] })), excluded },
      evidence: { rung, status: 'failed', at: 'start', error: why },
    };
  }
  const counters: ProbeCounter[] = packages.map((z: FoundZone) => ({
    name: z.name,
    ...(z.max_energy_range_uj !== undefined ? { max_energy_range_uj: z.max_energy_range_uj } : {}),
    read: () => {
      const r = backend.readEnergy(z.zone);
      if (!r.ok) throw new Error(`${z.zone}/energy_uj: ${r.failure.code ?? ''} ${r.failure.error}`);
      return r.uj;
    },
  }));
  const run = await probe(counters, opts);
  const zs = run.counters.map((c, i) => series(c, packages[i]!.zone));
  const failed = run.counters.filter((c) => c.failures.length > 0);
  const fig = sumRaplPackages(zs);
  const per = new Map(fig.per_package.map((p) => [p.name, p.delta_uj]));
  const found = run.counters.map((c) => finding(c, { ...(per.get(c.name) !== undefined ? { delta_uj: per.get(c.name)!, rate_mw: rateOf(c, per.get(c.name))! } : {}) }));
  const base = { rung, counters: found, excluded, domain: fig.liveness, burn: run.burn };
  if (failed.length > 0) {
    const error = failed.map((c) => `${c.name}: ${c.failures[0]}`).join('; ');
    // jcp §5.1: a backend that fails mid-reading degrades the figure, never keeps the hardware grade
    return { finding: { ...base, status: 'unreadable', detail: `a package read failed during the probe: ${error}` }, evidence: { rung, status: 'failed', at: 'stop', error } };
  }
  const detail = `${packages.length} package zone(s) probed; ${fig.liveness.live ? 'every package live' : `not live: ${fig.liveness.not_live.join(', ')}`}`;
  return { finding: { ...base, status: 'probed', detail }, evidence: { rung, status: 'read', counters: zs } };
}

// ---- NVML (jcp §5.1 rung 2) -------------------------------------------------------------------------------------

function value<T>(r: NvmlResult<T>): T {
  if (!r.ok) throw new Error(`${r.call}: ${nvmlDescribe(r.code)}`);
  return r.value;
}

/**
 * Probes every GPU's total-energy counter with the board's draw sampled beside it and its enforced limit read once.
 * Reading taken for several GPUs: the ladder's NVML domain sums every device, each of which must be live, and is
 * judged against the summed draw and the summed limits; each device's own plausibility verdict is in its finding.
 */
export async function probeNvml(library: string | undefined, opts: ProbeOptions = {}): Promise<RungProbe> {
  const rung = 'nvml' as const;
  const nv = openNvml(library);
  if (nv.status !== 'ok') {
    const detail = `${nv.status} (${nv.library}): ${nv.detail}`;
    return { finding: { rung, status: nv.status === 'library-not-found' ? 'absent' : 'error', detail, counters: [] }, evidence: nv.status === 'library-not-found' ? { rung, status: 'absent' } : { rung, status: 'failed', at: 'start', error: detail } };
  }
  try {
    if (nv.devices.length === 0) return { finding: { rung, status: 'absent', detail: `NVML (${nv.library}) lists no GPU`, counters: [] }, evidence: { rung, status: 'absent' } };
    const limits = nv.devices.map((d) => d.limitMw());
    const name = (d: NvmlDevice): string => `gpu${d.index}:${d.name.ok ? d.name.value : d.name.status}`;
    const counters: ProbeCounter[] = nv.devices.map((d) => ({ name: name(d), read: () => value(d.energyMj()) * 1000n }));
    const run = await probe(counters, { ...opts, draws: nv.devices.map((d) => () => value(d.powerMw())) });
    const found = run.counters.map((c, i) => {
      const limit = limits[i]!;
      const telemetry: BoardTelemetry = { draw_mw: run.draws[i]!.draw_mw, ...(limit.ok ? { limit_mw: limit.value } : {}) };
      const delta = c.samples.length > 1 ? c.samples[c.samples.length - 1]!.value - c.samples[0]!.value : undefined;
      const plaus = delta !== undefined && delta >= 0n ? plausibilityOf(c, delta, telemetry) : undefined;
      return finding(c, {
        ...(delta !== undefined ? { delta_uj: delta } : {}),
        ...(rateOf(c, delta) !== undefined ? { rate_mw: rateOf(c, delta)! } : {}),
        ...(plaus ? { plausibility: plaus } : {}),
        telemetry: { draw_mw: run.draws[i]!.draw_mw, draw_failures: run.draws[i]!.failures.slice(0, 5), ...(limit.ok ? { limit_mw: limit.value } : { limit_status: `${limit.call}: ${nvmlDescribe(limit.code)}` }) },
      });
    });
    const zs = run.counters.map((c, i) => series(c, `nvml:${i}`));
    const domain = judgeDomainLiveness(zs);
    const base = { rung, counters: found, domain, burn: run.burn };
    const failed = run.counters.filter((c) => c.failures.length > 0);
    if (failed.length > 0) {
      const error = failed.map((c) => `${c.name}: ${c.failures[0]}`).join('; ');
      const at = failed.some((c) => c.samples.length === 0) ? 'start' : 'stop';
      return { finding: { ...base, status: 'unreadable', detail: `an energy read failed during the probe: ${error}` }, evidence: { rung, status: 'failed', at, error } };
    }
    const telemetry = summedTelemetry(run, limits);
    const detail = `${nv.devices.length} GPU(s) probed through ${nv.library}; ${domain.live ? 'every counter live' : `not live: ${domain.not_live.join(', ')}`}`;
    return { finding: { ...base, status: 'probed', detail }, evidence: { rung, status: 'read', counters: zs, ...(telemetry ? { telemetry } : {}) } };
  } finally {
    nv.close();
  }
}

/** The boards' draws summed sample by sample (as many samples as the shortest series) and their limits summed. */
function summedTelemetry(run: ProbeRun, limits: ReadonlyArray<NvmlResult<bigint>>): BoardTelemetry | undefined {
  if (run.draws.length === 1) {
    const l = limits[0]!;
    return { draw_mw: run.draws[0]!.draw_mw, ...(l.ok ? { limit_mw: l.value } : {}) };
  }
  const n = Math.min(...run.draws.map((d) => d.draw_mw.length));
  const draw_mw = Array.from({ length: n }, (_, k) => run.draws.reduce((s, d) => s + d.draw_mw[k]!, 0n));
  const allLimits = limits.every((l) => l.ok);
  return { draw_mw, ...(allLimits ? { limit_mw: limits.reduce((s, l) => s + (l.ok ? l.value : 0n), 0n) } : {}) };
}

// ---- macOS (jcp §5.1 rungs 3 and 4) -----------------------------------------------------------------------------

/**
 * Probes the macOS counters where macOS is present: the process's own ri_energy_nj (rung 3, proc-self) and every
 * IOReport CPU energy rail (rung 4). Elsewhere both are `not-macos`. The lab probe establishes liveness only; it does
 * not meter a span, so §5.1's thread-left-core check at a span's ends does not arise here.
 */
export async function probeMacos(opts: ProbeOptions = {}, platform: string = process.platform): Promise<RungProbe[]> {
  if (!isMacos(platform)) {
    const detail = `not macOS (platform ${platform}): proc_pid_rusage and IOReport exist only there`;
    return (['proc-self', 'ioreport'] as const).map((rung) => ({ finding: { rung, status: 'not-macos', detail, counters: [] }, evidence: { rung, status: 'absent' } }));
  }
  const out: RungProbe[] = [];
  const self: ProbeCounter = {
    name: 'ri_energy_nj',
    read: () => {
      const r = procEnergy();
      if (r.status !== 'ok') throw new Error(r.status === 'error' ? r.detail : r.status);
      return r.value.energy_nj / 1000n;
    },
  };
  out.push(await probeSimple('proc-self', [self], opts, 'the process\'s own CPU energy (proc_pid_rusage RUSAGE_INFO_V6)'));
  const first = ioreportSample();
  if (first.status !== 'ok') {
    out.push({ finding: { rung: 'ioreport', status: 'error', detail: first.status === 'error' ? first.detail : first.status, counters: [] }, evidence: { rung: 'ioreport', status: 'absent' } });
    return out;
  }
  const rails = ioreportCpuRails(first.value);
  if (rails.length === 0) {
    out.push({ finding: { rung: 'ioreport', status: 'absent', detail: 'IOReport Energy Model lists no CPU energy rail', counters: [] }, evidence: { rung: 'ioreport', status: 'absent' } });
    return out;
  }
  const counters = rails.map((r) => ({
    name: r.name,
    read: () => {
      const s = ioreportSample();
      const ch = s.status === 'ok' ? s.value.find((c) => c.name === r.name) : undefined;
      if (!ch) throw new Error(`IOReport rail ${r.name} not read`);
      return ch.uj;
    },
  }));
  out.push(await probeSimple('ioreport', counters, opts, 'IOReport Energy Model CPU rails'));
  return out;
}

async function probeSimple(rung: CounterRung, counters: ProbeCounter[], opts: ProbeOptions, what: string): Promise<RungProbe> {
  const run = await probe(counters, opts);
  const zs = run.counters.map((c, i) => series(c, `${rung}:${i}`));
  const domain = judgeDomainLiveness(zs);
  const found = run.counters.map((c) => {
    const d = c.samples.length > 1 ? c.samples[c.samples.length - 1]!.value - c.samples[0]!.value : undefined;
    return finding(c, d !== undefined ? { delta_uj: d, ...(rateOf(c, d) !== undefined ? { rate_mw: rateOf(c, d)! } : {}) } : {});
  });
  const failed = run.counters.filter((c) => c.failures.length > 0);
  if (failed.length > 0) {
    const error = failed.map((c) => `${c.name}: ${c.failures[0]}`).join('; ');
    return { finding: { rung, status: 'unreadable', detail: error, counters: found, domain, burn: run.burn }, evidence: { rung, status: 'failed', at: 'stop', error } };
  }
  return { finding: { rung, status: 'probed', detail: `${what}: ${domain.live ? 'live' : `not live: ${domain.not_live.join(', ')}`}`, counters: found, domain, burn: run.burn }, evidence: { rung, status: 'read', counters: zs } };
}

// ---- the ladder ---------------------------------------------------------------------------------------------------

/** The rung the ladder selects over the probe window (impl/energy meterSpan), with the estimate at the default power. */
export function ladderFor(evidence: readonly RungEvidence[], window_ms: number): LadderChoice {
  const estimated_uj = DEFAULT_ACTIVE_POWER_MW * BigInt(Math.round(window_ms)); // mW × ms = µJ
  return meterSpan(evidence, { estimated_uj });
}
