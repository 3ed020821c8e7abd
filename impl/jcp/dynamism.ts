// jcp §5.4 Dynamism (what a deviation establishes, and what it never does) and §5.6's declared shapes, as pure
// judgements over a time-resolved series.
//
// jcp §5.4: "A baseline MUST declare where it was measured, and MUST NOT be applied outside it. [...] Comparing against a
// baseline taken on different silicon, at a different occupancy, or at a coarser sampling window manufactures
// deviations [...] An undeclared baseline is inapplicable". "A named operational cause — thermal limit, host contention,
// cold start, frequency scaling, a meter coverage gap — MUST carry a content-id for the reading that supports it."
// "A phenomenon shorter than one sampling window is invisible to it. That case is unresolvable, never within band."
// "There MUST NOT be a verdict of intent. [...] a conformant implementation MUST NOT collapse unexplained, inapplicable
// and unresolvable windows into a single score".
// jcp §5.6: "A declared shape MUST be declared in advance [...] An inconsistency refutes the declaration. It attributes
// no cause and names no intent."
//
// Readings taken where the text is open (the conformance tests lean on none of them):
// - "where it was measured" is the triple (silicon, occupancy, sampling window in ns); the reference applies a baseline
//   only where all three equal the series' (the text names coarser sampling as outside; a finer one is read as outside
//   too, since "a fit is only a fit somewhere" and that somewhere is where it was measured);
// - a window shorter than the series' sampling window is unresolvable before anything else is asked of it;
// - the band is inclusive at both ends (the conformance tests and vectors put no window on an edge); a cause explains only a window outside the band, naming it by index, and its
//   evidence must be a content id (64 lowercase hex digits): a malformed one is refused, an absent one explains nothing;
// - "in advance" is strictly before the observation's first instant.
import { JcpError } from '../errors.ts';
import { isContentId } from './content-id.ts';

/** Where a series, or a baseline, was measured (jcp §5.4). */
export interface MeasuredOn {
  readonly silicon: string;
  readonly occupancy: string;
  readonly sampling_ns: bigint;
}

/** A baseline: an expected band of µJ per window, and where it was measured (absent: undeclared). */
export interface Baseline {
  readonly lo_uj: bigint;
  readonly hi_uj: bigint;
  readonly measured_on?: MeasuredOn;
}

export interface SeriesWindow {
  readonly duration_ns: bigint;
  readonly uj: bigint;
}

/** The operational causes §5.4 names. */
export const CAUSES = ['thermal-limit', 'host-contention', 'cold-start', 'frequency-scaling', 'coverage-gap'] as const;
export type Cause = (typeof CAUSES)[number];

/** A named cause for one window, with the content id of the reading that supports it (absent: none given). */
export interface NamedCause {
  readonly window: number;
  readonly cause: Cause;
  readonly evidence?: string;
}

/**
 * What a window establishes (jcp §5.4), kept apart: "look at this" (unexplained), "we have no yardstick"
 * (inapplicable), "we could not have seen it" (unresolvable). None is a verdict of intent.
 */
export type WindowKind = 'within-band' | 'explained' | 'unexplained' | 'inapplicable' | 'unresolvable';

export interface WindowFinding {
  readonly kind: WindowKind;
  /** For an explained window: the cause and the content id of its reading. */
  readonly cause?: Cause;
  readonly evidence?: string;
}

const bad = (m: string): never => {
  throw new JcpError('ERR_BAD_ARGUMENT', m);
};
const isUint = (v: unknown): v is bigint => typeof v === 'bigint' && v >= 0n;

/** jcp §5.4: a baseline applies only where it was measured; an undeclared one applies nowhere. */
export function baselineApplies(b: Baseline, series: MeasuredOn): boolean {
  const where = b.measured_on;
  if (where === undefined) return false;
  if (where.silicon !== series.silicon) return false;
  if (where.occupancy !== series.occupancy) return false;
  if (where.sampling_ns !== series.sampling_ns) return false;
  return true;
}

function checkOn(m: MeasuredOn, what: string): void {
  if (typeof m !== 'object' || m === null || typeof m.silicon !== 'string' || typeof m.occupancy !== 'string' || !isUint(m.sampling_ns) || m.sampling_ns === 0n) {
    bad(`${what} must be {silicon: text, occupancy: text, sampling_ns: uint > 0}`);
  }
}

/** jcp §5.4: each window's finding, in order. ERR_BAD_ARGUMENT on a malformed series, baseline or cause. */
export function classifyWindows(series: MeasuredOn, windows: readonly SeriesWindow[], baseline: Baseline, causes: readonly NamedCause[] = []): WindowFinding[] {
  checkOn(series, 'series');
  if (!isUint(baseline.lo_uj) || !isUint(baseline.hi_uj) || baseline.lo_uj > baseline.hi_uj) bad('baseline must have lo_uj ≤ hi_uj, both uints');
  if (baseline.measured_on !== undefined) checkOn(baseline.measured_on, 'baseline.measured_on');
  windows.forEach((w, i) => {
    if (!isUint(w.duration_ns) || !isUint(w.uj)) bad(`windows[${i}] must be {duration_ns: uint, uj: uint}`);
  });
  const byWindow = new Map<number, NamedCause>();
  causes.forEach((c, i) => {
    if (!Number.isSafeInteger(c.window) || c.window < 0 || c.window >= windows.length) bad(`causes[${i}].window must index a window`);
    if (!(CAUSES as readonly string[]).includes(c.cause)) bad(`causes[${i}].cause must be one of ${CAUSES.join(', ')}`);
    if (c.evidence !== undefined && !isContentId(c.evidence)) bad(`causes[${i}].evidence must be a content id (64 lowercase hex digits)`);
    if (byWindow.has(c.window)) bad(`causes[${i}] names window ${c.window} a second time`);
    byWindow.set(c.window, c);
  });
  const applies = baselineApplies(baseline, series);
  return windows.map((w, i): WindowFinding => {
    // "A phenomenon shorter than one sampling window is invisible to it. That case is unresolvable, never within band."
    if (w.duration_ns < series.sampling_ns) return { kind: 'unresolvable' };
    if (!applies) return { kind: 'inapplicable' };
    if (w.uj >= baseline.lo_uj && w.uj <= baseline.hi_uj) return { kind: 'within-band' };
    const c = byWindow.get(i);
    // "A cause explains a deviation only with evidence."
    if (c !== undefined && c.evidence !== undefined) return { kind: 'explained', cause: c.cause, evidence: c.evidence };
    // a request for a look, not a finding of wrongdoing
    return { kind: 'unexplained' };
  });
}

/** The work shapes §5.6 names ("a compute-bound steady state is flat [...] a cold start ramps [...] a queue-driven workload alternates"). */
export const SHAPES = ['flat', 'ramp', 'alternating'] as const;
export type WorkShape = (typeof SHAPES)[number];

/** jcp §5.6: a shape check's finding. There is no "verified": a consistent shape only fails to refute. */
export type ShapeFinding = 'refuted' | 'not-refuted' | 'not-in-advance';

/**
 * jcp §5.6: a declaration of `declared` made at `declared_at_ns`, against the shape classified from an observation that
 * began at `observed_from_ns`. A declaration not made strictly before the observation is no declaration
 * ('not-in-advance', judged against nothing); otherwise an inconsistency refutes it.
 */
export function judgeDeclaredShape(declared: WorkShape, declared_at_ns: bigint, observed: WorkShape, observed_from_ns: bigint): ShapeFinding {
  if (!(SHAPES as readonly string[]).includes(declared) || !(SHAPES as readonly string[]).includes(observed)) bad(`a shape is one of ${SHAPES.join(', ')}`);
  if (!isUint(declared_at_ns) || !isUint(observed_from_ns)) bad('declared_at_ns and observed_from_ns must be uints');
  if (declared_at_ns >= observed_from_ns) return 'not-in-advance';
  return declared === observed ? 'not-refuted' : 'refuted';
}
