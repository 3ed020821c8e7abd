// jcp §5: a metered cost is integer microjoules with a provenance tag; §5.2: coverage is Whole unless marked Partial.

/** jcp §5 provenance grades, best first. */
export const PROVENANCES = ['HwShunt', 'ModelBased', 'Estimator'] as const;
/** How a figure was obtained (jcp §5). */
export type Provenance = (typeof PROVENANCES)[number];

/**
 * The metered cost a decision debits: integer microjoules, its provenance, and its coverage.
 * `coverage` is present only when the figure is Partial (jcp §5.2: absent means Whole).
 */
export interface Cost {
  readonly uj: bigint;
  readonly provenance: Provenance;
  readonly coverage?: 'Partial';
}

/** True when `p` is one of the three provenance labels. */
export function isProvenance(p: unknown): p is Provenance {
  return typeof p === 'string' && (PROVENANCES as readonly string[]).includes(p);
}
