// Clause mutants of the suite-defined profiles jcp:P-PROPAGATION, jcp:P-DYNAMISM: source patches of copies of impl/ modules
// (mutation/testees/patches.ts), filed under each profile in the kill matrix.
import type { Mutant, Unbroken } from '../catalog.ts';
import type { SourcePatch } from '../testees/patches.ts';
import { P } from './applied.ts';

const FEED = 'impl/jcp/revocation-feed.ts';
const PROP = 'impl/jcp/propagation.ts';
const PP = 'jcp:P-PROPAGATION';
const DYN = 'impl/jcp/dynamism.ts';
const PD = 'jcp:P-DYNAMISM';

export const JCP_PROFILE_MUTANTS: readonly Mutant[] = [
  // ---- jcp:P-PROPAGATION (jcp §4.3 Propagation) ----
  { id: 'propagation-path-unstated', clauses: ['jcp/4.3#define-revocation-propagation'], class: PP, description: 'the implementation states no definition of how revocations reach its points (an empty path)', applied: `${P(FEED)} PROPAGATION_PATH made the empty text` },
  { id: 'propagation-path-never-delivers', clauses: ['jcp/4.3#define-revocation-propagation'], class: PP, description: 'the path it defines never brings a revocation to a point: delivery advances the marker without honouring the entry', applied: `${P(FEED)} deliver's point.revoke call removed` },
  { id: 'no-marker-read-compliant', clauses: ['jcp/4.3#no-marker-unverifiable'], class: PP, description: 'the auditor reads an allow from a point that states no marker as explicable (compliant) instead of unverifiable', applied: `${P(PROP)} auditAllowAgainstRevocation answers explicable where known_through is absent` },
  // ---- jcp:P-DYNAMISM (jcp §5.4, §5.6) ----
  { id: 'baseline-undeclared-applied', clauses: ['jcp/5.4#baseline-declared'], class: PD, description: 'a baseline that declares nowhere is applied everywhere', applied: `${P(DYN)} baselineApplies answers true for a baseline without measured_on` },
  { id: 'baseline-other-silicon-applied', clauses: ['jcp/5.4#baseline-not-applied-outside'], class: PD, description: 'a baseline measured on other silicon is applied', applied: `${P(DYN)} the silicon comparison of baselineApplies skipped` },
  { id: 'baseline-other-occupancy-applied', clauses: ['jcp/5.4#baseline-not-applied-outside'], class: PD, description: 'a baseline measured at another occupancy is applied', applied: `${P(DYN)} the occupancy comparison of baselineApplies skipped` },
  { id: 'baseline-coarser-window-applied', clauses: ['jcp/5.4#baseline-not-applied-outside'], class: PD, description: 'a baseline measured at a coarser sampling window is applied', applied: `${P(DYN)} the sampling-window comparison of baselineApplies skipped` },
  { id: 'cause-explains-without-evidence', clauses: ['jcp/5.4#cause-carries-evidence'], class: PD, description: 'a named cause with no content id for its reading explains the deviation', applied: `${P(DYN)} the evidence condition of the explained finding dropped` },
  { id: 'deviation-read-as-intent', clauses: ['jcp/5.4#no-verdict-of-intent'], class: PD, description: 'a deviation of more than twice the band\'s top is reported as tampering, a verdict of intent', applied: `${P(DYN)} the unexplained finding made "tampering" above 2 × hi_uj` },
  { id: 'unresolvable-collapsed', clauses: ['jcp/5.4#no-single-score'], class: PD, description: 'a window that could not have been seen is reported as unexplained, one kind with the deviations', applied: `${P(DYN)} the unresolvable finding made unexplained` },
  { id: 'inapplicable-collapsed', clauses: ['jcp/5.4#no-single-score'], class: PD, description: 'a window with no yardstick is reported as unexplained, one kind with the deviations', applied: `${P(DYN)} the inapplicable finding made unexplained` },
  { id: 'shape-declared-after-the-fact', clauses: ['jcp/5.6#shape-declared-in-advance'], class: PD, description: 'a shape declared once the observation had begun is judged against it like one declared in advance', applied: `${P(DYN)} the in-advance check of judgeDeclaredShape skipped` },
];

export const JCP_PROFILE_PATCHES: Readonly<Record<string, readonly SourcePatch[]>> = {
  'propagation-path-unstated': [{ file: FEED, find: 'export const PROPAGATION_PATH =\n', replace: "export const PROPAGATION_PATH = '' && \n" }],
  'propagation-path-never-delivers': [{ file: FEED, find: 'point.revoke(e.revocation, e.grant);', replace: 'void e;' }],
  'no-marker-read-compliant': [{ file: PROP, find: "if (decision.known_through === undefined) return 'unverifiable-for-revocation';", replace: "if (decision.known_through === undefined) return 'explicable';" }],
  'baseline-undeclared-applied': [{ file: DYN, find: 'if (where === undefined) return false;', replace: 'if (where === undefined) return true;' }],
  'baseline-other-silicon-applied': [{ file: DYN, find: 'if (where.silicon !== series.silicon)', replace: 'if (false && (where.silicon !== series.silicon))' }],
  'baseline-other-occupancy-applied': [{ file: DYN, find: 'if (where.occupancy !== series.occupancy)', replace: 'if (false && (where.occupancy !== series.occupancy))' }],
  'baseline-coarser-window-applied': [{ file: DYN, find: 'if (where.sampling_ns !== series.sampling_ns)', replace: 'if (false && (where.sampling_ns !== series.sampling_ns))' }],
  'cause-explains-without-evidence': [{ file: DYN, find: 'if (c !== undefined && c.evidence !== undefined)', replace: 'if (c !== undefined)' }],
  'deviation-read-as-intent': [{ file: DYN, find: "return { kind: 'unexplained' };", replace: "return { kind: w.uj > 2n * baseline.hi_uj ? ('tampering' as WindowKind) : 'unexplained' };" }],
  'unresolvable-collapsed': [{ file: DYN, find: "return { kind: 'unresolvable' };", replace: "return { kind: 'unexplained' };" }],
  'inapplicable-collapsed': [{ file: DYN, find: "if (!applies) return { kind: 'inapplicable' };", replace: "if (!applies) return { kind: 'unexplained' };" }],
  'shape-declared-after-the-fact': [{ file: DYN, find: "if (declared_at_ns >= observed_from_ns) return 'not-in-advance';", replace: "if (false && declared_at_ns >= observed_from_ns) return 'not-in-advance';" }],
};

export const JCP_PROFILE_UNBROKEN: readonly Unbroken[] = [];
