// jcp §4.3 Propagation: the reference's definition of how revocations reach its enforcement points. "An implementation
// that supports revocation MUST define how revocations reach its enforcement points, and SHOULD let each point state
// how current its revocation knowledge is, as a marker monotonic in whatever its revocation feed counts — a sequence
// number, a log index, a timestamp."
//
// The reference's definition (one of many the text permits): a revocation feed is an append-only log. A revocation
// enters it only once its authority is verified against the grant it names (§4.3's rule, the same one a point applies),
// and is issued at the next log index, 1, 2, …. A point is brought current by applying the feed's entries it has not
// yet applied, in log order, each through the point's own revoke (which verifies authority again before honouring
// it). The point's marker, known_through, is the index of the last entry it has applied, 0 before any: a larger value
// has seen at least as much. A revocation handed to a point outside the feed (EnforcementPoint.revoke called directly)
// is honoured but advances no marker, since the marker counts this feed alone.
import { JcpError } from '../errors.ts';
import type { EnforcementPoint } from './enforcement-point.ts';
import { advanceMarker } from './propagation.ts';
import { verifyRevocationAuthority } from './revocation.ts';
import type { SignedGrant, SignedRevocation } from './types.ts';

/** The reference's definition of its propagation path, in words (jcp §4.3). */
export const PROPAGATION_PATH =
  'a revocation feed: an append-only log of revocations whose authority was verified, each issued at the next log index (1, 2, ...); ' +
  "a point is brought current by applying the entries it has not applied, in log order, each through its own revoke, and states as its " +
  'marker known_through the index of the last entry applied (0 before any)';
/** What the reference's marker counts. */
export const MARKER_COUNTS = 'log index of the revocation feed';

/** One revocation feed and the points it has reached. */
export interface RevocationFeed {
  /** Enters a revocation whose authority verifies against `grant` (ERR_REVOCATION_UNAUTHORIZED otherwise); returns the marker it was issued at. */
  issue(revocation: SignedRevocation, grant: SignedGrant): bigint;
  /** Applies every entry `point` has not yet applied, in log order; returns its marker afterwards. */
  deliver(point: EnforcementPoint): bigint;
  /** The marker `point` states for this feed: the index of the last entry it has applied, 0 before any. */
  knownThrough(point: EnforcementPoint): bigint;
  /** The number of entries issued. */
  readonly length: bigint;
}

export function createRevocationFeed(): RevocationFeed {
  const log: { revocation: SignedRevocation; grant: SignedGrant }[] = [];
  const reached = new WeakMap<EnforcementPoint, bigint>();
  const knownThrough = (p: EnforcementPoint): bigint => reached.get(p) ?? 0n;
  return {
    issue(revocation, grant) {
      if (typeof grant !== 'object' || grant === null || typeof revocation !== 'object' || revocation === null) {
        throw new JcpError('ERR_BAD_ARGUMENT', 'issue takes a signed revocation and the signed grant it names');
      }
      verifyRevocationAuthority(revocation, grant.grant);
      log.push({ revocation, grant });
      return BigInt(log.length);
    },
    deliver(point) {
      let at = knownThrough(point);
      while (at < BigInt(log.length)) {
        const e = log[Number(at)]!;
        point.revoke(e.revocation, e.grant);
        at = advanceMarker(at, at + 1n);
        reached.set(point, at);
      }
      return at;
    },
    knownThrough,
    get length() {
      return BigInt(log.length);
    },
  };
}
