// jcp §4.3 Propagation: how current an enforcement point's revocation knowledge is, and an auditor's verdict on an
// allow it issued against a revoked grant (or a chain containing one).
//
// The spec's words: a point "SHOULD let each point state how current its revocation knowledge is, as a marker monotonic
// in whatever its revocation feed counts — a sequence number, a log index, a timestamp. JCP neither defines nor
// interprets the marker; it requires only that a larger value mean 'has seen at least as much'." "Given a revocation
// issued at marker M, an allow from a point at known_through < M is explicable and one at known_through >= M is not.
// Where a point states no marker, an auditor MUST treat its allows as unverifiable for revocation rather than as
// compliant — 'did not say' is not 'was current'." The one that is not explicable is, in §4.3's words, "a violation of
// this specification".
// Readings taken where the text is open: a marker is a uint (bigint) in one feed's count; markers of different feeds
// are not comparable, so the auditor is given the revocation's marker in the same feed the allow states. The verdict
// concerns an allow against the revoked grant or a chain containing it; an allow of anything else is no business of
// this audit, and a deny is never a revocation violation, so only allows are judged here (ERR_BAD_ARGUMENT otherwise).
import { JcpError } from '../errors.ts';

/** The auditor's verdict on one allow, in §4.3's words. */
export type RevocationAuditVerdict = 'explicable' | 'violation' | 'unverifiable-for-revocation';

/** What the auditor reads of one decision: its verdict and, if its point stated one, its revocation marker. */
export interface AuditedDecision {
  readonly verdict: 'allow' | 'deny';
  /** The point's revocation marker at the decision; absent when the point stated none. */
  readonly known_through?: bigint;
}

const U64_MAX = (1n << 64n) - 1n;

function marker(v: unknown, what: string): bigint {
  if (typeof v !== 'bigint' || v < 0n || v > U64_MAX) throw new JcpError('ERR_BAD_ARGUMENT', `${what} must be an unsigned 64-bit integer marker`, { what });
  return v;
}

/**
 * jcp §4.3: the verdict on an allow against a grant whose revocation was issued at marker `revoked_at` (M):
 * 'explicable' when the point's known_through < M (a propagation delay), 'violation' when known_through ≥ M (the point
 * had seen the revocation and allowed anyway), 'unverifiable-for-revocation' when the point stated no marker.
 * Throws ERR_BAD_ARGUMENT for a deny (not an allow) or a marker that is not a uint.
 */
export function auditAllowAgainstRevocation(revoked_at: bigint, decision: AuditedDecision): RevocationAuditVerdict {
  const m = marker(revoked_at, 'the revocation marker');
  if (decision.verdict !== 'allow') throw new JcpError('ERR_BAD_ARGUMENT', `only an allow is audited against a revocation, got ${String(decision.verdict)}`);
  if (decision.known_through === undefined) return 'unverifiable-for-revocation';
  return marker(decision.known_through, 'known_through') < m ? 'explicable' : 'violation';
}

/** A point's marker may only grow ("a larger value mean[s] has seen at least as much"): the next marker, or ERR_BAD_ARGUMENT when it goes back. */
export function advanceMarker(current: bigint | undefined, next: bigint): bigint {
  const n = marker(next, 'the next marker');
  if (current !== undefined && n < marker(current, 'the current marker')) {
    throw new JcpError('ERR_BAD_ARGUMENT', `a revocation marker is monotonic: ${n} would go back from ${current}`);
  }
  return n;
}
