// jouleclaw §1.2 recent knowledge over frozen weights, §4 ClaimProvenance: the retrieval stage ("L3.5", between L2 the
// local index and L3 the local model) prefers a fresh, provenance-stamped fetch to the model whenever the fetch +
// extract costs less than the inference AND the source's trust tier is above the operator's threshold; every retrieved
// claim that contributes to the resolution carries its ClaimProvenance { source, content_hash (blake3 hex of the bytes
// as fetched), fetched_at, trust_tier }; a synthesised fact is never presented as a retrieved claim; and when no
// retrieval closes the query the resolution falls back to the model, its claims empty and its tier L3 (Model), not L2.
//
// Readings taken: both conditions are strict ("below", "above"); the reference fetches only sources meeting both (the
// spec requires the preference there and leaves the rest open), in the order offered, and the first fetched source
// that closes the query is the one contributing claim. A resolution by retrieval carries the L2 (Embed) wire tag —
// the tag §4 contrasts with L3:Model — since the wire tags are L0–L4 and "L3.5" has none.
import { JcpError } from '../errors.ts';
import { blake3 } from '../hash/blake3.ts';
import { toHex } from '../bytes.ts';
import { runCascade, UNRESOLVABLE } from './cascade.ts';
import type { ClaimProvenance, Tier } from './receipt.ts';

/** One source the retriever can fetch: its bytes as fetched, its trust tier (0..10), what the fetch + extract costs, and whether its content closes the query. */
export interface RetrievalSource {
  readonly source: string;
  readonly content: Uint8Array;
  readonly trust_tier: number;
  readonly cost_uj: bigint;
  readonly closes: boolean;
}

/** A query that no tier below the retrieval stage closed, with what the model tier's inference would cost. */
export interface RetrievalQuery {
  /** RFC 3339: the clock the fetches are stamped with. */
  readonly now: string;
  /** The operator's configured trust threshold (0..10). */
  readonly threshold: number;
  readonly inference_cost_uj: bigint;
  readonly sources: readonly RetrievalSource[];
}

/** How the query was resolved: the tier's wire tag and the claims that contributed. */
export interface RetrievalResolution {
  readonly tier: Tier;
  readonly claims: readonly ClaimProvenance[];
  /** Every envelope the retriever fetched, contributing or not (diagnostics; not part of the resolution). */
  readonly fetched: readonly ClaimProvenance[];
}

/** jouleclaw §4 the envelope of a fetched source: content_hash is BLAKE3 of the bytes as fetched. */
export function claimProvenance(s: RetrievalSource, fetched_at: string): ClaimProvenance {
  return Object.freeze({ source: s.source, content_hash: toHex(blake3(s.content)), fetched_at, trust_tier: s.trust_tier });
}

/** jouleclaw §1.2 the two conditions under which fresh retrieval MUST be preferred to synthesis. */
export function retrievalPreferred(s: RetrievalSource, q: RetrievalQuery): boolean {
  return s.cost_uj < q.inference_cost_uj && s.trust_tier > q.threshold;
}

// RFC 3339 date-time, as impl/jouleclaw/receipt.ts reads claims' fetched_at
const RFC3339 = /^\d{4}-\d{2}-\d{2}[Tt ]\d{2}:\d{2}:\d{2}(\.\d+)?([Zz]|[+-]\d{2}:\d{2})$/;

function checkQuery(q: RetrievalQuery): void {
  if (typeof q.now !== 'string' || !RFC3339.test(q.now)) throw new JcpError('ERR_BAD_ARGUMENT', 'now must be an RFC 3339 date-time (fetched_at, jouleclaw §4)');
  const tier = (n: number, what: string): void => {
    if (!Number.isInteger(n) || n < 0 || n > 10) throw new JcpError('ERR_BAD_ARGUMENT', `${what} must be 0..10 (jouleclaw §4), got ${n}`);
  };
  tier(q.threshold, 'threshold');
  const names = new Set<string>();
  q.sources.forEach((s, i) => {
    tier(s.trust_tier, `sources[${i}].trust_tier`);
    if (s.source === '') throw new JcpError('ERR_BAD_ARGUMENT', `sources[${i}].source must be non-empty`);
    if (names.has(s.source)) throw new JcpError('ERR_BAD_ARGUMENT', `source ${s.source} is offered twice`);
    names.add(s.source);
  });
}

/**
 * Resolves a query through the retrieval stage (tagged L2) and the model (L3), cheapest first (§1.1): the retriever
 * fetches each source §1.2 prefers and closes on the first whose content closes the query, its envelope the claim;
 * else Unresolvable, and the model closes with no claims (§4).
 */
export function resolveWithRetrieval(q: RetrievalQuery): RetrievalResolution {
  checkQuery(q);
  const fetched: ClaimProvenance[] = [];
  const retrieve = () => {
    for (const s of q.sources) {
      if (!retrievalPreferred(s, q)) continue;
      const envelope = claimProvenance(s, q.now);
      fetched.push(envelope);
      // jouleclaw §1.2: "The retriever MUST emit a ClaimProvenance envelope (see §4) for every fact that contributes to the resolution."
      if (s.closes) return { closes: true as const, value: [envelope] };
    }
    return UNRESOLVABLE;
  };
  // jouleclaw §4: the model's synthesis is never a retrieved claim: "the receipt's claims array MUST remain empty for that tier"
  const synthesise = () => ({ closes: true as const, value: [] as ClaimProvenance[] });
  const walk = runCascade<ClaimProvenance[]>([
    { tier: 'L2', invoke: retrieve },
    { tier: 'L3', invoke: synthesise },
  ]);
  return Object.freeze({ tier: walk.resolved!, claims: Object.freeze(walk.value ?? []), fetched: Object.freeze(fetched) });
}
