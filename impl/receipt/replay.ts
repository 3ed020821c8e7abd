// jcp §8.1 "The receipt stream is the write-ahead log" (and §4.11 durable spend): rebuild an enforcement point's
// spend from its own verified receipt stream alone. Allow receipts re-apply their debit to every grant they name
// (chain_ids, root first, for a chained decision; else grant_id); deny receipts debit nothing; a receipt that does
// not verify under the steward contributes nothing and is counted, with its code, in the report.
import { isJcpError, JcpError, type JcpErrorCode } from '../errors.ts';
import type { Ed25519 } from '../identity/ed25519.ts';
import type { ContentId, Did } from '../jcp/types.ts';
import type { ReceiptCore } from './core.ts';
import { verifyReceipt } from './verify.ts';

/** One receipt of the stream that was not admitted: its position, the verifier's code, and why. */
export interface ReplayRefusal {
  readonly index: number;
  readonly code: JcpErrorCode;
  readonly message: string;
}

/** What a replay found: the spend it rebuilt per grant id and a count of every receipt, admitted or not. */
export interface ReplayReport {
  /** Receipts that verified under the steward (allow and deny alike). */
  readonly verified: number;
  /** Of those, allow receipts, whose debit was re-applied. */
  readonly allowed: number;
  /** Receipts that failed verification: they contribute nothing (jcp §9 C14 "a tampered receipt contributes nothing"). */
  readonly refused: number;
  readonly refusals: readonly ReplayRefusal[];
  /** The rebuilt spend per grant id, in microjoules, for every id some allow receipt debited. */
  readonly spend: ReadonlyMap<ContentId, bigint>;
}

/** Options of {@link replayReceipts}. */
export interface ReplayOptions {
  /** The steward whose stream this is: a receipt sealed by any other key is refused (jcp §8.1 "its own"). */
  readonly steward: Did;
  readonly backend?: Ed25519;
}

/**
 * The ids an allow receipt debited: jcp §8.1 "allow-receipts re-apply their debits to every grant they name,
 * ancestors included" — chain_ids (root first, ending with grant_id, checked by the core reader) for a chained
 * decision, otherwise the one grant_id.
 */
export function debitedIds(core: ReceiptCore): readonly ContentId[] {
  if (core.verdict !== 'allow') return [];
  return core.chain_ids ?? [core.grant_id];
}

/**
 * Replays a receipt stream in order (jcp §8.1). Never throws on a bad entry: each one is refused and counted, with
 * the code verifyReceipt gave it. Throws ERR_BAD_ARGUMENT only when the stream itself is not an array.
 */
export function replayReceipts(receipts: readonly Uint8Array[], opts: ReplayOptions): ReplayReport {
  if (!Array.isArray(receipts)) throw new JcpError('ERR_BAD_ARGUMENT', 'a receipt stream must be an array of COSE_Sign1 byte strings');
  if (typeof opts?.steward !== 'string') throw new JcpError('ERR_BAD_ARGUMENT', 'replay needs the steward (did:key) whose stream it is');
  const spend = new Map<ContentId, bigint>();
  const refusals: ReplayRefusal[] = [];
  let verified = 0;
  let allowed = 0;
  receipts.forEach((bytes, index) => {
    let core: ReceiptCore;
    try {
      core = verifyReceipt(bytes, { steward: opts.steward, ...(opts.backend ? { backend: opts.backend } : {}) }).core;
    } catch (e) {
      // jcp §8.2: "MUST count (not silently skip) receipts that fail verification"; a non-JcpError is a bug, not a refusal
      if (!isJcpError(e)) throw e;
      refusals.push(Object.freeze({ index, code: e.code, message: e.message }));
      return;
    }
    verified++;
    if (core.verdict !== 'allow') return; // jcp §9 C3: "the denied call is never debited"
    allowed++;
    for (const id of debitedIds(core)) spend.set(id, (spend.get(id) ?? 0n) + core.cost_uj);
  });
  return Object.freeze({ verified, allowed, refused: refusals.length, refusals: Object.freeze(refusals), spend });
}

/** What {@link replayInto} needs of an enforcement point: its steward and a way to add restored spend. */
export interface ReplayTarget {
  readonly steward: Did;
  restoreSpend(id: ContentId, uj: bigint): void;
}

/**
 * Replays `receipts` — the point's own stream, verified under its own steward — into a fresh enforcement point, so
 * that it re-establishes the spend before deciding anything new (jcp §4.11, §8.1). Returns the report.
 */
export function replayInto(point: ReplayTarget, receipts: readonly Uint8Array[], backend?: Ed25519): ReplayReport {
  const report = replayReceipts(receipts, { steward: point.steward, ...(backend ? { backend } : {}) });
  for (const [id, uj] of report.spend) point.restoreSpend(id, uj);
  return report;
}
