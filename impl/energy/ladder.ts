// jcp §5.1: the metering ladder. Given each rung's backend result for one span, choose the best rung whose reading is
// admissible, make its figure through the validating constructor (so its provenance never claims better than how it
// was obtained), and record for every rung above it why it declined. There is always a figure: the estimate.
import { JcpError } from '../errors.ts';
import { makeEnergy, type Coverage, type Energy, type Obtained } from './energy.ts';
import { judgeDomainLiveness, seriesDelta, sumRaplPackages, type DomainVerdict, type LivenessVerdict, type RaplZoneSeries } from './liveness.ts';
import { judgePlausibility, plausibilityAdmits, plausibilityGrade, type BoardTelemetry, type PlausibilityVerdict } from './plausibility.ts';

/** jcp §5.1's counter rungs, best first (rungs 1–4; per-process CPU energy is rung 3, its own process or a tree). */
export const COUNTER_RUNGS = ['rapl', 'nvml', 'proc-self', 'proc-tree', 'ioreport'] as const;
/** A counter rung. */
export type CounterRung = (typeof COUNTER_RUNGS)[number];
/** Every rung, best first: the counter rungs, then time × calibrated power (5), then the estimate (6). */
export const RUNGS = [...COUNTER_RUNGS, 'calibrated-power', 'estimate'] as const;
/** A rung of the ladder. */
export type Rung = (typeof RUNGS)[number];

/** jcp §5.1: "NVML — the GPU total-energy counter → HwShunt, Partial": the rungs that cover only part of the work. */
const ALWAYS_PARTIAL: ReadonlySet<CounterRung> = new Set(['nvml']);

/** What one counter rung's backend produced over the span. */
export type CounterResult =
  | { readonly rung: CounterRung; readonly status: 'absent' }
  | { readonly rung: CounterRung; readonly status: 'failed'; readonly at: 'start' | 'stop'; readonly error: string }
  | {
      readonly rung: CounterRung;
      readonly status: 'read';
      /** The counter's (summed, wrap-corrected) advance over the span. */
      readonly delta_uj: bigint;
      /** The liveness of the counter (every counter of a summed domain: live only when all are). */
      readonly liveness: LivenessVerdict;
      /** The plausibility verdict, where a bound was readable; absent: liveness stands alone. */
      readonly plausibility?: PlausibilityVerdict;
      /** The gaps the backend saw (jcp §5.1: a reaped child, a member not at rest, ...); any makes the figure Partial. */
      readonly gaps?: readonly string[];
      /** The counters of a summed domain that were not live, by name. */
      readonly not_live?: readonly string[];
    };

/** The rungs below the counters: a host-calibrated power (rung 5) if held, and the estimate (rung 6), always. */
export interface ModelInputs {
  /** Time × a power calibrated on this host, µJ (rung 5 → ModelBased); absent when the host holds none. */
  readonly calibrated_uj?: bigint;
  /** Time × a default power, or a constant (rung 6 → Estimator): always available. */
  readonly estimated_uj: bigint;
}

/** Why a rung above the chosen one declined. */
export type DeclineReason =
  | 'absent'
  | 'failed-mid-reading'
  | 'not-live'
  | 'did-not-advance'
  | 'implausible'
  | 'unjudgeable'
  | 'no-calibration';

/** A declined rung, with the evidence behind it (jcp §5: "SHOULD record why"; the rate and the bound it broke). */
export interface Declined {
  readonly rung: Rung;
  readonly reason: DeclineReason;
  readonly detail?: string;
  readonly liveness?: LivenessVerdict;
  /** The counters of a summed domain that were not live (jcp §5: "a frozen one beside live ones"). */
  readonly not_live?: readonly string[];
  readonly plausibility?: PlausibilityVerdict;
}

/** The ladder's choice for a span. */
export interface LadderChoice {
  readonly rung: Rung;
  readonly energy: Energy;
  /** Every rung above the chosen one, best first, with why it declined. */
  readonly declined: readonly Declined[];
}

function declineOf(r: CounterResult): Declined | undefined {
  if (r.status === 'absent') return { rung: r.rung, reason: 'absent' };
  // jcp §5.1: "including when a hardware backend fails mid-reading and the figure degrades to a model or an estimate"
  if (r.status === 'failed') return { rung: r.rung, reason: 'failed-mid-reading', detail: `${r.at}: ${r.error}` };
  // jcp §5: "A counter that is present but not live (...) MUST NOT produce a hardware-graded figure"
  if (!r.liveness.live || (r.not_live?.length ?? 0) > 0) {
    return { rung: r.rung, reason: 'not-live', ...(r.liveness.reason ? { detail: r.liveness.reason } : {}), liveness: r.liveness, ...(r.not_live?.length ? { not_live: r.not_live } : {}) };
  }
  // jcp §5.1: "A span over which no package counter advanced is metered by a lower rung"
  if (r.delta_uj === 0n) return { rung: r.rung, reason: 'did-not-advance', liveness: r.liveness };
  if (r.plausibility && !plausibilityAdmits(r.plausibility)) {
    // jcp §5: unjudgeable "MUST NOT produce a hardware-graded figure either (...) MUST NOT report it as a counter that overran"
    const reason = r.plausibility.verdict === 'indeterminate' ? 'unjudgeable' : 'implausible';
    return { rung: r.rung, reason, detail: r.plausibility.verdict, liveness: r.liveness, plausibility: r.plausibility };
  }
  return undefined;
}

function counterCoverage(r: Extract<CounterResult, { status: 'read' }>): Coverage {
  return ALWAYS_PARTIAL.has(r.rung) || (r.gaps?.length ?? 0) > 0 ? 'Partial' : 'Whole';
}

function assertResults(results: readonly CounterResult[], m: ModelInputs): void {
  const seen = new Set<string>();
  for (const r of results) {
    if (!(COUNTER_RUNGS as readonly string[]).includes(r?.rung)) throw new JcpError('ERR_ENERGY_MALFORMED', `unknown counter rung ${String(r?.rung)}`);
    if (seen.has(r.rung)) throw new JcpError('ERR_ENERGY_MALFORMED', `rung ${r.rung} reported twice`);
    seen.add(r.rung);
  }
  if (typeof m.estimated_uj !== 'bigint' || m.estimated_uj < 0n) throw new JcpError('ERR_ENERGY_MALFORMED', 'estimated_uj must be a non-negative bigint');
}

/**
 * Walks the ladder for one span (jcp §5.1). Counter rungs missing from `results` count as absent. The first counter
 * rung that is live, advanced, and not refuted or left unjudged by its bound is chosen (HwShunt, Partial for NVML or
 * when the backend saw gaps); else rung 5 (ModelBased) when the host holds a calibrated power; else the estimate
 * (Estimator). "There is always an estimate."
 */
export function walkLadder(results: readonly CounterResult[], models: ModelInputs): LadderChoice {
  assertResults(results, models);
  const declined: Declined[] = [];
  const estimate = models.calibrated_uj ?? models.estimated_uj;
  for (const rung of COUNTER_RUNGS) {
    const r = results.find((x) => x.rung === rung) ?? { rung, status: 'absent' as const };
    const d = declineOf(r);
    if (d !== undefined || r.status !== 'read') {
      declined.push(d ?? { rung, reason: 'absent' });
      continue;
    }
    const coverage = counterCoverage(r);
    const obtained: Obtained = {
      how: 'counter',
      live: r.liveness.live,
      read_both_ends: true,
      plausibility: r.plausibility ? plausibilityGrade(r.plausibility) : 'no-bound',
      covers: coverage,
    };
    const energy = makeEnergy({ measured_uj: r.delta_uj, estimated_uj: estimate, provenance: 'HwShunt', coverage, obtained });
    return Object.freeze({ rung, energy, declined });
  }
  if (models.calibrated_uj !== undefined) {
    const energy = makeEnergy({ estimated_uj: models.calibrated_uj, provenance: 'ModelBased', obtained: { how: 'host-calibrated-model' } });
    return Object.freeze({ rung: 'calibrated-power', energy, declined });
  }
  declined.push({ rung: 'calibrated-power', reason: 'no-calibration' });
  const energy = makeEnergy({ estimated_uj: models.estimated_uj, provenance: 'Estimator', obtained: { how: 'uncalibrated-model' } });
  return Object.freeze({ rung: 'estimate', energy, declined });
}

// ---- from raw samples: what a meter calls -----------------------------------------------------------------------

/** One counter rung's raw evidence over a span: its counters' samples and, where readable, the board's telemetry. */
export type RungEvidence =
  | { readonly rung: CounterRung; readonly status: 'absent' }
  | { readonly rung: CounterRung; readonly status: 'failed'; readonly at: 'start' | 'stop'; readonly error: string }
  | {
      readonly rung: CounterRung;
      readonly status: 'read';
      /** The counters of the domain (for RAPL every powercap zone; the package zones are chosen here). */
      readonly counters: readonly RaplZoneSeries[];
      /** The bound, where the platform exposes one read independently of the counter. */
      readonly telemetry?: BoardTelemetry;
      readonly gaps?: readonly string[];
    };

/**
 * Judges each rung's raw evidence and walks the ladder (jcp §5, §5.1): for RAPL only the top-level package zones are
 * summed and judged (liveness.ts sumRaplPackages); for other rungs every counter given is summed and must be live.
 * The span runs from the earliest to the latest sample of the rung's counters; plausibility is judged where telemetry
 * is given. A rung whose counters give no wrap-correctable advance is treated as a failed reading.
 */
export function meterSpan(evidence: readonly RungEvidence[], models: ModelInputs): LadderChoice {
  return walkLadder(evidence.map(judgeRung), models);
}

function judgeRung(e: RungEvidence): CounterResult {
  if (e.status !== 'read') return e;
  const figure = e.rung === 'rapl' ? sumRaplPackages(e.counters) : sumDomain(e.counters);
  // a RAPL with no package zone, or a rung with no counter, has nothing to read: absent
  if (figure.liveness.counters.length === 0) return { rung: e.rung, status: 'absent' };
  if (figure.total_uj === undefined) return { rung: e.rung, status: 'failed', at: 'stop', error: 'no counter of the domain gave a wrap-correctable advance' };
  const times = e.counters.flatMap((c) => c.samples.map((s) => s.t_ns));
  const duration_ns = times.reduce((m, t) => (t > m ? t : m), 0n) - times.reduce((m, t) => (t < m ? t : m), times[0] ?? 0n);
  // a domain verdict is live only when every counter is; the ladder reads one verdict, so take the worst counter's
  const worst = figure.liveness.counters.find((c) => !c.verdict.live)?.verdict ?? figure.liveness.counters[0]?.verdict;
  const liveness: LivenessVerdict = worst!;
  const plausibility = e.telemetry && duration_ns > 0n ? judgePlausibility({ delta_uj: figure.total_uj, duration_ns }, e.telemetry) : undefined;
  return {
    rung: e.rung,
    status: 'read',
    delta_uj: figure.total_uj,
    liveness,
    ...(figure.liveness.not_live.length ? { not_live: figure.liveness.not_live } : {}),
    ...(plausibility ? { plausibility } : {}),
    ...(e.gaps ? { gaps: e.gaps } : {}),
  };
}

function sumDomain(counters: readonly RaplZoneSeries[]): { total_uj?: bigint; liveness: DomainVerdict } {
  const deltas = counters.map((c) => seriesDelta(c.samples, c.max_energy_range_uj));
  const liveness = judgeDomainLiveness(counters);
  if (counters.length === 0 || deltas.some((d) => d === undefined)) return { liveness };
  return { total_uj: deltas.reduce((s: bigint, d) => s + d!, 0n), liveness };
}
