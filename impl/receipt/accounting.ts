// jcp §8.2 group accounting: per-(grant_id, subject) attribution — actions allowed, actions refused, joules spent —
// computed from the verified receipt stream, with every receipt that fails verification counted, never dropped.
import { isJcpError, JcpError } from '../errors.ts';
import type { Ed25519 } from '../identity/ed25519.ts';
import type { ContentId, Did } from '../jcp/types.ts';
import type { ReplayRefusal } from './replay.ts';
import { verifyReceipt } from './verify.ts';

/** One worker's line of the ledger: the grant it acted under and the grant's subject. */
export interface Attribution {
  readonly grant_id: ContentId;
  readonly subject: Did;
  /** Allow receipts. */
  readonly allowed: number;
  /** Deny receipts (jcp §8 "A deny receipt is as load-bearing as an allow receipt"). */
  readonly refused: number;
  /** Sum of cost_uj over allow receipts: what the decisions debited (a deny debits nothing). */
  readonly spent_uj: bigint;
}

/** The group ledger: one row per (grant_id, subject), and the count of receipts that did not verify. */
export interface GroupLedger {
  /** Rows in order of first appearance in the stream. */
  readonly rows: readonly Attribution[];
  readonly verified: number;
  /** jcp §8.2: "An aggregator MUST count (not silently skip) receipts that fail verification". */
  readonly unverified: number;
  readonly failures: readonly ReplayRefusal[];
}

/** Options of {@link aggregateReceipts}. */
export interface AccountingOptions {
  /** The steward whose stream is aggregated; a receipt sealed by another key counts as unverified. */
  readonly steward: Did;
  readonly backend?: Ed25519;
}

/**
 * Aggregates a receipt stream by (grant_id, subject) (jcp §8.2). `verified + unverified` always equals the stream's
 * length. Throws ERR_BAD_ARGUMENT only when the stream is not an array or no steward is named.
 */
export function aggregateReceipts(receipts: readonly Uint8Array[], opts: AccountingOptions): GroupLedger {
  if (!Array.isArray(receipts)) throw new JcpError('ERR_BAD_ARGUMENT', 'a receipt stream must be an array of COSE_Sign1 byte strings');
  if (typeof opts?.steward !== 'string') throw new JcpError('ERR_BAD_ARGUMENT', 'accounting needs the steward (did:key) whose stream it is');
  const rows = new Map<string, { grant_id: ContentId; subject: Did; allowed: number; refused: number; spent_uj: bigint }>();
  const failures: ReplayRefusal[] = [];
  let verified = 0;
  receipts.forEach((bytes, index) => {
    let core;
    try {
      core = verifyReceipt(bytes, { steward: opts.steward, ...(opts.backend ? { backend: opts.backend } : {}) }).core;
    } catch (e) {
      // jcp §8.2: "a ledger that drops entries is not a ledger" — counted with its code, attributed to nobody
      if (!isJcpError(e)) throw e;
      failures.push(Object.freeze({ index, code: e.code, message: e.message }));
      return;
    }
    verified++;
    const key = `${core.grant_id} ${core.subject}`;
    let row = rows.get(key);
    if (!row) rows.set(key, (row = { grant_id: core.grant_id, subject: core.subject, allowed: 0, refused: 0, spent_uj: 0n }));
    if (core.verdict === 'allow') {
      row.allowed++;
      row.spent_uj += core.cost_uj;
    } else row.refused++;
  });
  return Object.freeze({
    rows: Object.freeze([...rows.values()].map((r) => Object.freeze({ ...r }))),
    verified,
    unverified: failures.length,
    failures: Object.freeze(failures),
  });
}
