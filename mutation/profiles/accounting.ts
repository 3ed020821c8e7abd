// Clause mutants of the suite-defined profiles jcp:P-TRACE: source patches of copies of impl/ modules
// (mutation/testees/patches.ts), filed under each profile in the kill matrix.
import type { Mutant, Unbroken } from '../catalog.ts';
import type { SourcePatch } from '../testees/patches.ts';
import { P } from './applied.ts';

const PL = 'impl/energy/plausibility.ts';
const LD = 'impl/energy/ladder.ts';
const OUT = 'impl/energy/outcomes.ts';
const T = 'jcp:P-TRACE';

export const ACCOUNTING_PROFILE_MUTANTS: readonly Mutant[] = [
  // ---- jcp §5 Plausibility: unjudgeable is not an overrun ----
  { id: 'unjudgeable-reported-overran', clauses: ['jcp/5#unjudgeable-not-overran'], class: T, description: 'a counter with no usable draw sample left is reported as a counter that overran the draw, not as indeterminate', applied: `${P(PL)} the indeterminate verdict answered as counter-over-rate (bound draw)` },
  { id: 'unjudgeable-declined-implausible', clauses: ['jcp/5#unjudgeable-not-overran'], class: T, description: 'the ladder declines an unjudgeable counter as implausible (a refuted counter), conflating no yardstick with an overrun', applied: `${P(LD)} the decline reason is implausible whatever the verdict` },
  // ---- jcp §5.3 traceability ----
  { id: 'untraceable-outcome-traced', clauses: ['jcp/5.3#outcome-names-activities', 'jcp/5.3#untraceable-not-presented'], class: T, description: 'an outcome naming no activity is traced (its whole total presented as a residual) instead of refused as untraceable', applied: `${P(OUT)} traceOutcome's no-activity refusal skipped` },
  { id: 'unresolved-activity-zero', clauses: ['jcp/5.3#activities-resolvable'], class: T, description: 'a named activity that does not resolve is counted as zero joules instead of refused', applied: `${P(OUT)} traceOutcome answers an unresolved activity as a 0 µJ figure of the outcome's grade` },
  { id: 'residual-absorbed', clauses: ['jcp/5.3#difference-named'], class: T, description: 'the difference between the outcome and its activities is absorbed: the residual is reported as 0', applied: `${P(OUT)} traceOutcome's residual_uj = 0n` },
  { id: 'residual-sign-flipped', clauses: ['jcp/5.3#difference-named'], class: T, description: 'the residual is Σ activities − outcome instead of outcome − Σ activities', applied: `${P(OUT)} traceOutcome's residual_uj = activities_uj - outcome.uj` },
  { id: 'residual-clamped', clauses: ['jcp/5.3#residual-not-clamped'], class: T, description: 'a negative residual (activities claiming more than the outcome admits) is clamped to 0', applied: `${P(OUT)} traceOutcome's residual_uj clamped at 0n` },
  { id: 'activity-bound-twice-summed', clauses: ['jcp/5.3#activity-bound-twice-refused'], class: T, description: 'an activity bound twice is summed twice instead of refused', applied: `${P(OUT)} traceOutcome's bound-twice refusal skipped` },
  { id: 'bound-twice-refused-when-over', clauses: ['jcp/5.3#activity-bound-twice-refused'], class: T, description: 'an activity bound twice is refused only when the doubled sum exceeds the outcome (after the sum), so a double count that balances the books passes', applied: `${P(OUT)} traceOutcome's bound-twice refusal made conditional on Σ > outcome` },
  { id: 'trace-provenance-best', clauses: ['jcp/5.3#aggregation-no-grade-improvement'], class: T, description: "the trace's composite provenance is the best across the outcome and its activities, not the floor", applied: `${P(OUT)} traceOutcome reduces provenance to the best` },
  { id: 'trace-outcome-provenance-dropped', clauses: ['jcp/5.3#aggregation-no-grade-improvement'], class: T, description: "the trace's composite provenance is the floor of the activities alone: an Estimator outcome over hardware-graded activities is graded HwShunt", applied: `${P(OUT)} traceOutcome's provenance floor leaves the outcome out` },
  { id: 'trace-activity-coverage-dropped', clauses: ['jcp/5.3#aggregation-no-grade-improvement'], class: T, description: "the trace's coverage is the outcome's alone: a Partial activity leaves the trace Whole", applied: `${P(OUT)} traceOutcome's coverage floor over the outcome only` },
  { id: 'trace-outcome-coverage-dropped', clauses: ['jcp/5.3#aggregation-no-grade-improvement'], class: T, description: "the trace's coverage is the floor of the activities alone: a Partial outcome over Whole activities is traced Whole", applied: `${P(OUT)} traceOutcome's coverage floor leaves the outcome out` },
  // ---- jcp §5.5 the conservation floor's basis ----
  { id: 'floor-basis-always-measured', clauses: ['jcp/5.5#report-floor-basis'], class: T, description: 'the conservation floor always says it rests on measured figures, Estimator ones included', applied: `${P(OUT)} conservationFloor answers rests_on 'measured'` },
  { id: 'floor-basis-from-best', clauses: ['jcp/5.5#report-floor-basis'], class: T, description: 'the conservation floor rests on measured figures when any figure is a hardware reading, not when every one is', applied: `${P(OUT)} conservationFloor takes the best provenance, not the floor` },
  { id: 'floor-basis-modelbased-measured', clauses: ['jcp/5.5#report-floor-basis'], class: T, description: 'a floor over ModelBased figures is said to rest on measured ones (only an Estimator figure counts as modelled)', applied: `${P(OUT)} conservationFloor's rests_on is modelled only when the floor is Estimator` },
  // ---- jcp §5.6 the physical bound ----
  { id: 'bound-pass-reported-verified', clauses: ['jcp/5.6#bound-not-verification'], class: T, description: "a figure inside the part's envelope is reported verified instead of not-refuted", applied: `${P(OUT)} physicalBound answers 'verified' inside the envelope` },
];

export const ACCOUNTING_PROFILE_PATCHES: Readonly<Record<string, readonly SourcePatch[]>> = {
  'unjudgeable-reported-overran': [
    {
      file: PL,
      find: "return Object.freeze({ verdict: 'indeterminate', rate_mw, reason: 'no-usable-draw', discarded });",
      replace: "return Object.freeze({ verdict: 'counter-over-rate', rate_mw, bound: 'draw', bound_mw: 0n, discarded });",
    },
  ],
  'unjudgeable-declined-implausible': [
    { file: LD, find: "const reason = r.plausibility.verdict === 'indeterminate' ? 'unjudgeable' : 'implausible';", replace: "const reason = 'implausible' as const;" },
  ],
  'untraceable-outcome-traced': [{ file: OUT, find: 'if (activity_ids.length === 0) throw', replace: 'if (false && activity_ids.length === 0) throw' }],
  'unresolved-activity-zero': [
    {
      file: OUT,
      find: "    if (!a) throw new JcpError('ERR_TRACE_UNRESOLVED'",
      replace: "    if (!a) return { uj: 0n, provenance: outcome.provenance, coverage: outcome.coverage };\n    if (!a) throw new JcpError('ERR_TRACE_UNRESOLVED'",
    },
  ],
  'residual-absorbed': [{ file: OUT, find: 'const residual_uj = outcome.uj - activities_uj;', replace: 'const residual_uj = 0n;' }],
  'residual-sign-flipped': [{ file: OUT, find: 'const residual_uj = outcome.uj - activities_uj;', replace: 'const residual_uj = activities_uj - outcome.uj;' }],
  'residual-clamped': [{ file: OUT, find: 'const residual_uj = outcome.uj - activities_uj;', replace: 'const residual_uj = outcome.uj > activities_uj ? outcome.uj - activities_uj : 0n;' }],
  'activity-bound-twice-summed': [{ file: OUT, find: 'if (seen.has(id)) throw', replace: 'if (false && seen.has(id)) throw' }],
  'bound-twice-refused-when-over': [
    { file: OUT, find: 'if (seen.has(id)) throw', replace: 'if (seen.has(id) && activity_ids.reduce((s, x) => s + (resolve(x)?.uj ?? 0n), 0n) > outcome.uj) throw' },
  ],
  'trace-provenance-best': [
    {
      file: OUT,
      find: 'const provenance = parts.map((a) => a.provenance).reduce(provenanceFloor, outcome.provenance);',
      replace: 'const provenance = parts.map((a) => a.provenance).reduce((x, y) => (PROVENANCES.indexOf(x) <= PROVENANCES.indexOf(y) ? x : y), outcome.provenance);',
    },
  ],
  'trace-outcome-provenance-dropped': [
    {
      file: OUT,
      find: 'const provenance = parts.map((a) => a.provenance).reduce(provenanceFloor, outcome.provenance);',
      replace: 'const provenance = parts.map((a) => a.provenance).reduce(provenanceFloor);',
    },
  ],
  'trace-activity-coverage-dropped': [
    { file: OUT, find: 'const coverage = coverageFloor([outcome.coverage, ...parts.map((a) => a.coverage)]);', replace: 'const coverage = coverageFloor([outcome.coverage]);' },
  ],
  'trace-outcome-coverage-dropped': [
    { file: OUT, find: 'const coverage = coverageFloor([outcome.coverage, ...parts.map((a) => a.coverage)]);', replace: 'const coverage = coverageFloor(parts.map((a) => a.coverage));' },
  ],
  'floor-basis-always-measured': [
    { file: OUT, find: "rests_on: provenance_floor === 'HwShunt' ? 'measured' : 'modelled'", replace: "rests_on: 'measured' as const" },
  ],
  'floor-basis-from-best': [
    {
      file: OUT,
      find: 'const provenance_floor = figures.map((f) => f.provenance).reduce(provenanceFloor);',
      replace: 'const provenance_floor = figures.map((f) => f.provenance).reduce((x, y) => (PROVENANCES.indexOf(x) <= PROVENANCES.indexOf(y) ? x : y));',
    },
  ],
  'floor-basis-modelbased-measured': [
    { file: OUT, find: "rests_on: provenance_floor === 'HwShunt' ? 'measured' : 'modelled'", replace: "rests_on: provenance_floor === 'Estimator' ? 'modelled' : 'measured'" },
  ],
  'bound-pass-reported-verified': [{ file: OUT, find: "  return 'not-refuted';\n}", replace: "  return 'verified' as PhysicalBoundFinding;\n}" }],
};

export const ACCOUNTING_PROFILE_UNBROKEN: readonly Unbroken[] = [];
