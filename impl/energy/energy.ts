// jcp §5 / sense §7: an energy figure {measured_uj?, estimated_uj, provenance, coverage} and its honesty invariants,
// enforced by one validating constructor: HwShunt requires a measurement, Estimator forbids one, and a figure never
// claims better provenance (jcp §5.1) or wider coverage (jcp §5) than how it was obtained.
import { JcpError } from '../errors.ts';
import { isProvenance, PROVENANCES, type Cost, type Provenance } from './cost.ts';

/** jcp §5.2: how much of the work a figure accounts for. Whole is the default. */
export type Coverage = 'Whole' | 'Partial';

/**
 * An energy figure in integer microjoules (sense §7: "measured_uj (present only from a live hardware interface) and
 * estimated_uj (always present), tagged with a Provenance"). Build one only with {@link makeEnergy}.
 */
export interface Energy {
  readonly measured_uj?: bigint;
  readonly estimated_uj: bigint;
  readonly provenance: Provenance;
  readonly coverage: Coverage;
}

/**
 * How a figure was obtained, which fixes the best provenance it may claim (jcp §5, §5.1):
 * - `counter`: a hardware reading (a vendor counter or a shunt). HwShunt only while the counter was live, read at both
 *   ends of the span, and not refuted by a bound; `covers` is the part of the claimed domain the counter reads.
 * - `apportioned-reading`: a real reading apportioned by a model (ModelBased; a measured figure MAY be present).
 * - `host-calibrated-model`: time × a power calibrated on this host (ModelBased).
 * - `uncalibrated-model`: time × a default, nameplate or other host's power (Estimator: "graded by its power").
 * - `constant`: a constant per-operation figure (Estimator).
 */
export type Obtained =
  | {
      readonly how: 'counter';
      readonly live: boolean;
      readonly read_both_ends: boolean;
      readonly plausibility: 'not-refuted' | 'no-bound' | 'refuted' | 'indeterminate';
      readonly covers: Coverage;
    }
  | { readonly how: 'apportioned-reading' }
  | { readonly how: 'host-calibrated-model' }
  | { readonly how: 'uncalibrated-model' }
  | { readonly how: 'constant' };

/** The rank of a provenance: 0 is best (HwShunt), 2 worst (Estimator). */
export function provenanceRank(p: Provenance): number {
  return PROVENANCES.indexOf(p);
}

/** The worse of two provenances (jcp §5.3: the floor). */
export function provenanceFloor(a: Provenance, b: Provenance): Provenance {
  return provenanceRank(a) >= provenanceRank(b) ? a : b;
}

/**
 * Why a counter reading earns no grade at all, or undefined when it is an admissible reading. A counter that is not
 * live, was not read at both ends (a backend that failed mid-reading), or was refuted or left unjudged by its bound
 * is not a reading of the span (jcp §5: "MUST NOT produce a hardware-graded figure").
 */
export function counterInadmissible(o: Extract<Obtained, { how: 'counter' }>): string | undefined {
  if (!o.live) return 'the counter was not live';
  if (!o.read_both_ends) return 'the backend did not read both ends of the span (failed mid-reading)';
  if (o.plausibility === 'refuted') return 'the counter was refuted by a plausibility bound';
  if (o.plausibility === 'indeterminate') return 'the counter could not be judged against its bound (indeterminate)';
  return undefined;
}

/** The best provenance `o` earns, or undefined when it earns none (an inadmissible counter reading). */
export function bestProvenance(o: Obtained): Provenance | undefined {
  switch (o.how) {
    case 'counter':
      return counterInadmissible(o) === undefined ? 'HwShunt' : undefined;
    case 'apportioned-reading':
    case 'host-calibrated-model':
      return 'ModelBased';
    case 'uncalibrated-model':
    case 'constant':
      return 'Estimator';
  }
}

const HOWS = ['counter', 'apportioned-reading', 'host-calibrated-model', 'uncalibrated-model', 'constant'];
const GRADES = ['not-refuted', 'no-bound', 'refuted', 'indeterminate'];

function assertObtained(o: Obtained | undefined): void {
  const bad = (what: string): never => {
    throw new JcpError('ERR_ENERGY_MALFORMED', `obtained ${what}`);
  };
  if (typeof o !== 'object' || o === null || !HOWS.includes(o.how)) bad(`must say how the figure was obtained (one of ${HOWS.join(', ')})`);
  if (o!.how !== 'counter') return;
  const c = o as Extract<Obtained, { how: 'counter' }>;
  if (typeof c.live !== 'boolean' || typeof c.read_both_ends !== 'boolean') bad('of a counter must say whether it was live and read at both ends');
  if (!GRADES.includes(c.plausibility)) bad(`plausibility must be one of ${GRADES.join(', ')}`);
  if (c.covers !== 'Whole' && c.covers !== 'Partial') bad('covers must be Whole or Partial');
}

/** The fields a caller proposes for a figure; {@link makeEnergy} checks them against `obtained`. */
export interface EnergyFields {
  readonly measured_uj?: bigint;
  readonly estimated_uj: bigint;
  readonly provenance: Provenance;
  /** Absent means Whole (jcp §5.2). */
  readonly coverage?: Coverage;
  readonly obtained: Obtained;
}

function uj(v: unknown, name: string): bigint {
  if (typeof v !== 'bigint' || v < 0n) throw new JcpError('ERR_ENERGY_MALFORMED', `${name} must be a non-negative integer of microjoules (bigint), got ${String(v)}`);
  return v;
}

/**
 * The validating constructor of an {@link Energy}. Refuses, with a typed error:
 * - ERR_ENERGY_HWSHUNT_UNMEASURED: HwShunt without measured_uj;
 * - ERR_ENERGY_ESTIMATOR_MEASURED: Estimator with measured_uj;
 * - ERR_ENERGY_PROVENANCE_OVERCLAIMED: a provenance better than `obtained` earns, a measurement on a figure that was
 *   not obtained from a reading, or any figure from a counter reading that earns no grade;
 * - ERR_ENERGY_COVERAGE_OVERCLAIMED: Whole from a counter that reads only part of the domain;
 * - ERR_ENERGY_MALFORMED: a negative or non-integer figure, an unknown provenance or coverage.
 */
export function makeEnergy(f: EnergyFields): Energy {
  assertObtained(f?.obtained);
  if (!isProvenance(f.provenance)) throw new JcpError('ERR_ENERGY_MALFORMED', `provenance must be one of ${PROVENANCES.join(', ')}, got ${String(f.provenance)}`);
  const coverage = f.coverage ?? 'Whole';
  if (coverage !== 'Whole' && coverage !== 'Partial') throw new JcpError('ERR_ENERGY_MALFORMED', `coverage must be Whole or Partial, got ${String(coverage)}`);
  const estimated_uj = uj(f.estimated_uj, 'estimated_uj');
  const measured_uj = f.measured_uj === undefined ? undefined : uj(f.measured_uj, 'measured_uj');
  // jcp §5: "HwShunt (hardware reading; a measured figure REQUIRED)"
  if (f.provenance === 'HwShunt' && measured_uj === undefined) {
    throw new JcpError('ERR_ENERGY_HWSHUNT_UNMEASURED', 'a HwShunt figure requires measured_uj');
  }
  // jcp §5: "Estimator (...) measured MUST be absent"
  if (f.provenance === 'Estimator' && measured_uj !== undefined) {
    throw new JcpError('ERR_ENERGY_ESTIMATOR_MEASURED', 'an Estimator figure must not carry measured_uj');
  }
  // jcp §5.1: "A figure MUST NOT claim better provenance than how it was obtained — including when a hardware backend
  // fails mid-reading"
  const earned = bestProvenance(f.obtained);
  if (earned === undefined) {
    const why = f.obtained.how === 'counter' ? counterInadmissible(f.obtained) : 'no grade';
    throw new JcpError('ERR_ENERGY_PROVENANCE_OVERCLAIMED', `a counter reading that earns no grade cannot make a figure: ${why}`, { obtained: f.obtained.how });
  }
  if (provenanceRank(f.provenance) < provenanceRank(earned)) {
    throw new JcpError('ERR_ENERGY_PROVENANCE_OVERCLAIMED', `${f.provenance} claims better than ${f.obtained.how} earns (${earned} at best)`, { claimed: f.provenance, earned });
  }
  // sense §7: measured_uj is "present only from a live hardware interface"
  if (measured_uj !== undefined && f.obtained.how !== 'counter' && f.obtained.how !== 'apportioned-reading') {
    throw new JcpError('ERR_ENERGY_PROVENANCE_OVERCLAIMED', `measured_uj present on a figure obtained by ${f.obtained.how}, which reads nothing`);
  }
  // jcp §5: "A figure MUST NOT claim coverage of a domain its counter does not read"
  if (f.obtained.how === 'counter' && f.obtained.covers === 'Partial' && coverage === 'Whole') {
    throw new JcpError('ERR_ENERGY_COVERAGE_OVERCLAIMED', 'the counter reads only part of the domain, so the figure is Partial, not Whole');
  }
  return Object.freeze({ ...(measured_uj !== undefined ? { measured_uj } : {}), estimated_uj, provenance: f.provenance, coverage });
}

/** The headline figure of an energy: the measurement where there is one, else the estimate. */
export function headlineUj(e: Energy): bigint {
  return e.measured_uj ?? e.estimated_uj;
}

/** The metered cost a decision debits (impl/energy/cost.ts), coverage carried only when Partial (jcp §5.2). */
export function toCost(e: Energy): Cost {
  return { uj: headlineUj(e), provenance: e.provenance, ...(e.coverage === 'Partial' ? { coverage: 'Partial' as const } : {}) };
}
