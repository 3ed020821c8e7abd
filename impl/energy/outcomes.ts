// jcp §5.2 (coverage: Partial rules, the efficiency/1 receipt rules), §5.3 (traceability residual), §5.5 (the
// conservation floor and what it rests on), §5.6 (the physical bound: refutation, never verification).
import { JcpError } from '../errors.ts';
import { isProvenance, PROVENANCES, type Provenance } from './cost.ts';
import { provenanceFloor, type Coverage, type Energy } from './energy.ts';

// ---- §5.2 coverage ----------------------------------------------------------------------------------------------

/** The floor of coverages: Partial if any is (jcp §5.2: "A total summed from receipts of which any is Partial is Partial"). */
export function coverageFloor(coverages: readonly Coverage[]): Coverage {
  return coverages.includes('Partial') ? 'Partial' : 'Whole';
}

/**
 * Reads a wire coverage field under the one-value rule (jcp §5.2: "the field, when present, has exactly one value,
 * "Partial"; a verifier MUST refuse any other value, "Whole" included"). Absent reads as Whole.
 */
export function readCoverageField(v: unknown): Coverage {
  if (v === undefined) return 'Whole';
  if (v === 'Partial') return 'Partial';
  throw new JcpError('ERR_ENERGY_COVERAGE_VALUE', `a coverage field carries only "Partial" (absent is Whole), got ${typeof v === 'string' ? `"${v}"` : typeof v}`);
}

/** The figure as a task total, refused when Partial (jcp §5.2: "A Partial figure MUST NOT be presented as a task total"). */
export function taskTotalUj(e: Energy): bigint {
  if (e.coverage === 'Partial') throw new JcpError('ERR_ENERGY_PARTIAL_NOT_TOTAL', 'a Partial figure is not a task total: its remainder is unmeasured, not zero');
  return e.measured_uj ?? e.estimated_uj;
}

/** The energy fields of an efficiency/1 outcome receipt's payload (jcp §5.2, §5.3). */
export interface EfficiencyPayload {
  readonly energy_uj: bigint;
  readonly provenance: Provenance;
  /** Present only as "Partial". */
  readonly energy_coverage?: 'Partial';
  readonly accepted_tokens: bigint;
  /** The headline: energy per accepted token, µJ, rounded down; never on a Partial receipt. */
  readonly uj_per_accepted_token?: bigint;
}

/**
 * The energy fields an efficiency/1 receipt seals for `e` over `accepted_tokens`: energy_coverage only when Partial,
 * and uj_per_accepted_token only when Whole and tokens > 0 (jcp §5.2: "a Partial receipt MUST NOT carry
 * uj_per_accepted_token"). Integer µJ per token, rounded down, since canonical CBOR carries no floats (a reading the
 * suite takes: the Rust reference's own headline type is not in the spec).
 */
export function efficiencyPayload(e: Energy, accepted_tokens: bigint): EfficiencyPayload {
  const energy_uj = e.measured_uj ?? e.estimated_uj;
  if (e.coverage === 'Partial') return Object.freeze({ energy_uj, provenance: e.provenance, energy_coverage: 'Partial' as const, accepted_tokens });
  return Object.freeze({
    energy_uj,
    provenance: e.provenance,
    accepted_tokens,
    ...(accepted_tokens > 0n ? { uj_per_accepted_token: energy_uj / accepted_tokens } : {}),
  });
}

/**
 * Reads an efficiency/1 payload's energy fields as a verifier must (CHANGE-NOTES.md read_payload): refuses a Partial
 * receipt carrying the headline (ERR_EFFICIENCY_PARTIAL_HEADLINE), any energy_coverage but "Partial"
 * (ERR_ENERGY_COVERAGE_VALUE), and a provenance that is not one of the three (ERR_ENERGY_MALFORMED).
 */
export function readEfficiencyPayload(p: Readonly<Record<string, unknown>>): { readonly energy_uj: bigint; readonly provenance: Provenance; readonly coverage: Coverage } {
  const energy_uj = p['energy_uj'];
  if (typeof energy_uj !== 'bigint' || energy_uj < 0n) throw new JcpError('ERR_ENERGY_MALFORMED', 'energy_uj must be a non-negative integer');
  const provenance = p['provenance'];
  if (!isProvenance(provenance)) throw new JcpError('ERR_ENERGY_MALFORMED', `provenance must be one of ${PROVENANCES.join(', ')}`);
  const coverage = readCoverageField(p['energy_coverage']);
  // jcp §5.2: "a verifier MUST refuse one that does"
  if (coverage === 'Partial' && p['uj_per_accepted_token'] !== undefined) {
    throw new JcpError('ERR_EFFICIENCY_PARTIAL_HEADLINE', 'a Partial efficiency/1 receipt carries uj_per_accepted_token');
  }
  return { energy_uj, provenance, coverage };
}

/** Totals over efficiency/1 receipts: the sum, the provenance and coverage floors, a per-unit figure only when Whole. */
export interface EfficiencyTotals {
  readonly energy_uj: bigint;
  readonly provenance_floor: Provenance;
  readonly coverage: Coverage;
  readonly units: bigint;
  readonly uj_per_unit?: bigint;
}

/** Aggregates receipts (jcp §5.2: a total over any Partial receipt is Partial "and gives no per-unit energy figure"). */
export function aggregateEfficiency(receipts: ReadonlyArray<{ readonly energy_uj: bigint; readonly provenance: Provenance; readonly coverage: Coverage }>, units: bigint): EfficiencyTotals {
  if (receipts.length === 0) throw new JcpError('ERR_ENERGY_MALFORMED', 'no receipts to aggregate');
  const energy_uj = receipts.reduce((s, r) => s + r.energy_uj, 0n);
  const provenance_floor = receipts.map((r) => r.provenance).reduce(provenanceFloor);
  const coverage = coverageFloor(receipts.map((r) => r.coverage));
  return Object.freeze({ energy_uj, provenance_floor, coverage, units, ...(coverage === 'Whole' && units > 0n ? { uj_per_unit: energy_uj / units } : {}) });
}

// ---- §5.3 traceability ------------------------------------------------------------------------------------------

/** A figure at one level, graded. */
export interface GradedFigure {
  readonly uj: bigint;
  readonly provenance: Provenance;
  readonly coverage: Coverage;
}

/** An outcome's trace: the outcome's total, its activities by content-id, the residual and the composite grade. */
export interface Trace {
  readonly outcome_total_uj: bigint;
  readonly activities_uj: bigint;
  /** outcome_total_uj − Σ activity.joules_uj, signed, never clamped. */
  readonly residual_uj: bigint;
  readonly provenance: Provenance;
  readonly coverage: Coverage;
}

/**
 * Traces an outcome's energy to its activities (jcp §5.3). Refuses an outcome naming no activity
 * (ERR_TRACE_UNTRACEABLE), an activity named twice, before any sum (ERR_TRACE_ACTIVITY_BOUND_TWICE), and a named
 * activity `resolve` cannot find (ERR_TRACE_UNRESOLVED). The residual is signed and never clamped; the composite
 * provenance and coverage are floors across the outcome and every activity.
 */
export function traceOutcome(outcome: GradedFigure, activity_ids: readonly string[], resolve: (id: string) => GradedFigure | undefined): Trace {
  // jcp §5.3: "An outcome naming no activity is not traceable and MUST NOT be presented as though it were."
  if (activity_ids.length === 0) throw new JcpError('ERR_TRACE_UNTRACEABLE', 'the outcome names no activity: it is not traceable');
  // jcp §5.3: "An activity bound twice MUST be refused before the sum"
  const seen = new Set<string>();
  for (const id of activity_ids) {
    if (seen.has(id)) throw new JcpError('ERR_TRACE_ACTIVITY_BOUND_TWICE', `activity ${id} is bound twice`, { activity: id });
    seen.add(id);
  }
  // jcp §5.3: "A verifier MUST be able to resolve each named activity and re-add the figures."
  const parts = activity_ids.map((id) => {
    const a = resolve(id);
    if (!a) throw new JcpError('ERR_TRACE_UNRESOLVED', `activity ${id} does not resolve`, { activity: id });
    return a;
  });
  const activities_uj = parts.reduce((s, a) => s + a.uj, 0n);
  // jcp §5.3: "The residual MUST NOT be clamped."
  const residual_uj = outcome.uj - activities_uj;
  // jcp §5.3: "The composite provenance is the floor across the outcome and every activity (...) Coverage takes the floor the same way."
  const provenance = parts.map((a) => a.provenance).reduce(provenanceFloor, outcome.provenance);
  const coverage = coverageFloor([outcome.coverage, ...parts.map((a) => a.coverage)]);
  return Object.freeze({ outcome_total_uj: outcome.uj, activities_uj, residual_uj, provenance, coverage });
}

// ---- §5.5 conservation floor ------------------------------------------------------------------------------------

/** The conservation floor against a grant, and what it rests on. */
export interface ConservationFloor {
  /** The smallest representable discrepancy in ppm is ppm_numerator / ppm_denominator (= 1 000 000 / budget_uj). */
  readonly ppm_numerator: bigint;
  readonly ppm_denominator: bigint;
  /** jcp §5.5: "whether the floor it quotes rests on a measured figure or a modelled one". */
  readonly rests_on: 'measured' | 'modelled';
  readonly provenance_floor: Provenance;
}

/**
 * The conservation floor of a grant of `budget_uj` reconciled from `figures` (jcp §5.5): 1 µJ in `budget_uj`, and
 * 'measured' only when every figure is a hardware reading (HwShunt); one ModelBased or Estimator figure makes it
 * 'modelled' ("quoting a 1 ppm floor over Estimator windows is exact arithmetic over a model's opinion").
 */
export function conservationFloor(budget_uj: bigint, figures: ReadonlyArray<{ readonly provenance: Provenance }>): ConservationFloor {
  if (typeof budget_uj !== 'bigint' || budget_uj <= 0n) throw new JcpError('ERR_ENERGY_MALFORMED', 'budget_uj must be a positive bigint');
  if (figures.length === 0) throw new JcpError('ERR_ENERGY_MALFORMED', 'a floor rests on at least one figure');
  const provenance_floor = figures.map((f) => f.provenance).reduce(provenanceFloor);
  return Object.freeze({ ppm_numerator: 1_000_000n, ppm_denominator: budget_uj, rests_on: provenance_floor === 'HwShunt' ? 'measured' : 'modelled', provenance_floor });
}

// ---- §5.6 the physical bound ------------------------------------------------------------------------------------

/** A physical-bound finding: a refutation, or not refuted. There is no "verified" (jcp §5.6). */
export type PhysicalBoundFinding = 'refuted-above-envelope' | 'refuted-below-floor' | 'not-refuted';

/**
 * Judges a figure against the part's envelope over a window (jcp §5.6): above ceiling_mw × duration (burst rating) or
 * below floor_mw × duration (absolute idle) refutes; otherwise "not-refuted" — "Passing a physical bound MUST NOT be
 * reported as verification."
 */
export function physicalBound(energy_uj: bigint, duration_ns: bigint, envelope: { readonly floor_mw: bigint; readonly ceiling_mw: bigint }): PhysicalBoundFinding {
  if (duration_ns <= 0n || energy_uj < 0n || envelope.floor_mw < 0n || envelope.ceiling_mw < envelope.floor_mw) {
    throw new JcpError('ERR_ENERGY_MALFORMED', 'a physical bound needs a positive window, a non-negative figure and floor ≤ ceiling');
  }
  // µJ × 10⁶ compared with mW × ns, exactly
  if (energy_uj * 1_000_000n > envelope.ceiling_mw * duration_ns) return 'refuted-above-envelope';
  if (energy_uj * 1_000_000n < envelope.floor_mw * duration_ns) return 'refuted-below-floor';
  return 'not-refuted';
}
