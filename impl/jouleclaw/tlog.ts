// jouleclaw §22 (OPTIONAL, class C-TLOG) the transparency log: receipts appended to an RFC 6962 tree over BLAKE3
// (tlog-merkle.ts), heads signed by the receipts' own sealer (tlog-head.ts), an inclusion proof for every entry —
// allow and deny alike — and consistency proofs between heads.
//
// Readings taken where §22 leaves the shape open:
//   - An entry is a sealed receipt: a COSE_Sign1 (a jcp receipt, or a JouleClaw sibling receipt in the same envelope)
//     whose signature verifies under the log's key. A receipt sealed by anyone else is refused (ERR_TLOG_ENTRY_FOREIGN),
//     so a head never commits the decisions of a party other than its signer (§22.2 "a head signed by anyone else
//     commits a party that did not make the decisions").
//   - The append returns the entry's index, the head signed over the tree that now holds it, and the inclusion proof
//     of the entry against that head: the caller holds a proof for its verdict the moment it holds the verdict.
//   - §22.3 "written on the same code path that produces the verdict, before the verdict is returned": decideAndLog
//     decides on an enforcement point and appends the sealed receipt before it returns anything, allow and deny alike.
//     A decision the log cannot record (the log is full, or signs with a key other than the point's steward) is
//     checked for before deciding and answered deny "unrecorded" with no receipt and nothing debited — §22.3 "an
//     implementation that cannot record a decision MUST refuse the action rather than perform it unrecorded".
import { JcpError, isJcpError } from '../errors.ts';
import { decodeSign1, verifySign1 } from '../cose/sign1.ts';
import { defaultEd25519, type Ed25519, type KeyPair } from '../identity/ed25519.ts';
import type { DecisionRequest } from '../jcp/decide.ts';
import type { Decision, EnforcementPoint } from '../jcp/enforcement-point.ts';
import { encodeTreeHead, signTreeHead, verifyTreeHead, type SignedTreeHead } from './tlog-head.ts';
import { createMerkleTree, merkleLeafHash, merkleVerifyConsistency, merkleVerifyInclusion, MERKLE_BLAKE3 } from './tlog-merkle.ts';

/** The default bound on a log's entries (an in-memory log; a deployment's bound is its storage). */
export const DEFAULT_TLOG_CAPACITY = 1 << 20;

/** How to create a log. */
export interface TransparencyLogOptions {
  /** The key that seals the receipts the log holds; it signs every head (§22.2). */
  readonly sealer: KeyPair;
  /** The most entries it will hold; an append past it is ERR_TLOG_UNRECORDED. Default {@link DEFAULT_TLOG_CAPACITY}. */
  readonly capacity?: number;
  readonly backend?: Ed25519;
}

/** What an append returns. */
export interface LogEntry {
  /** The entry's 0-based index. */
  readonly index: number;
  /** The head signed over the tree that now holds the entry (size = index + 1). */
  readonly head: SignedTreeHead;
  /** The head's wire form (tlog-head.ts). */
  readonly headBytes: Uint8Array;
  /** The inclusion proof of the entry against `head` (RFC 9162 §2.1.3.1, lowest level first). */
  readonly proof: readonly Uint8Array[];
}

/** An append-only log of sealed receipts (§22). */
export interface TransparencyLog {
  /** The did:key that signs its heads: the receipts' sealer. */
  readonly steward: string;
  /** Entries held. */
  readonly size: number;
  readonly capacity: number;
  /** True while an append would find room. */
  canRecord(): boolean;
  /**
   * Appends a sealed receipt and signs the new head at `timestamp`. Throws ERR_TLOG_UNRECORDED when the log is full,
   * ERR_TLOG_ENTRY_FOREIGN when `receipt` is not a COSE_Sign1 sealed by the log's key; the log is unchanged then.
   */
  append(receipt: Uint8Array, timestamp: bigint): LogEntry;
  /** The current head, signed at `timestamp`. */
  head(timestamp: bigint): SignedTreeHead;
  /** The receipt bytes at `index` (ERR_BAD_ARGUMENT when there is none). */
  entry(index: number): Uint8Array;
  /** The inclusion proof of entry `index` in the tree of `size` (default: the whole log). */
  inclusionProof(index: number, size?: number): Uint8Array[];
  /** The consistency proof from the tree of `size1` to that of `size2` (default: the whole log); 0 < size1 ≤ size2. */
  consistencyProof(size1: number, size2?: number): Uint8Array[];
}

function _checkTimestamp(t: bigint): bigint {
  if (typeof t !== 'bigint' || t < 0n || t >= 1n << 64n) throw new JcpError('ERR_BAD_ARGUMENT', 'a head timestamp must be a bigint in 0 … 2^64−1');
  return t;
}

/** A fresh, empty log whose heads are signed by `opts.sealer`. */
export function createTransparencyLog(opts: TransparencyLogOptions): TransparencyLog {
  const sealer = opts.sealer;
  if (typeof sealer !== 'object' || sealer === null || !(sealer.seed instanceof Uint8Array)) throw new JcpError('ERR_BAD_ARGUMENT', 'a log needs the sealer key pair');
  const backend = opts.backend ?? defaultEd25519();
  const capacity = opts.capacity ?? DEFAULT_TLOG_CAPACITY;
  if (!Number.isSafeInteger(capacity) || capacity < 0) throw new JcpError('ERR_BAD_ARGUMENT', `log capacity must be a non-negative integer, got ${String(capacity)}`);
  const tree = createMerkleTree(MERKLE_BLAKE3);
  const receipts: Uint8Array[] = [];

  const headAt = (timestamp: bigint): SignedTreeHead =>
    signTreeHead({ size: BigInt(tree.size), root: tree.root(), timestamp: _checkTimestamp(timestamp) }, sealer, backend);

  /** Throws unless `receipt` is a COSE_Sign1 whose signature verifies under the log's key. */
  const checkSealed = (receipt: Uint8Array): void => {
    let ok: boolean;
    try {
      ok = verifySign1(decodeSign1(receipt), sealer.publicKey, backend);
    } catch (e) {
      if (!isJcpError(e)) throw e;
      throw new JcpError('ERR_TLOG_ENTRY_FOREIGN', `a log entry must be a receipt sealed as COSE_Sign1 (${e.code}): ${e.message}`, { cause_code: e.code }, { cause: e });
    }
    if (!ok) throw new JcpError('ERR_TLOG_ENTRY_FOREIGN', `the receipt is not sealed by this log's key ${sealer.did}`);
  };

  return Object.freeze({
    steward: sealer.did,
    get size() {
      return tree.size;
    },
    capacity,
    canRecord: () => tree.size < capacity,
    append(receipt: Uint8Array, timestamp: bigint): LogEntry {
      _checkTimestamp(timestamp);
      if (tree.size >= capacity) throw new JcpError('ERR_TLOG_UNRECORDED', `the log is full (${capacity} entries): the entry cannot be recorded`);
      checkSealed(receipt);
      const copy = receipt.slice();
      const index = tree.append(copy);
      receipts.push(copy);
      const head = headAt(timestamp);
      return Object.freeze({ index, head, headBytes: encodeTreeHead(head), proof: tree.inclusionProof(index) });
    },
    head: headAt,
    entry(index: number): Uint8Array {
      const r = receipts[index];
      if (!Number.isSafeInteger(index) || r === undefined) throw new JcpError('ERR_BAD_ARGUMENT', `no entry ${String(index)} in a log of ${tree.size}`);
      return r.slice();
    },
    inclusionProof: (index: number, size?: number) => tree.inclusionProof(index, size),
    consistencyProof: (size1: number, size2?: number) => tree.consistencyProof(size1, size2),
  });
}

// ---------------------------------------------------------------------------------------------------------------
// The auditor's side: proofs verified only against heads signed by the receipts' sealer.

/**
 * Verifies that `receipt` is entry `index` of the tree the signed head `headBytes` commits to. The head is verified
 * first (tlog-head.ts: §22.2 "An unsigned root MUST NOT be used to verify a proof"), then the proof closes the leaf
 * BLAKE3(0x00 ‖ receipt) to its root. Returns the head; throws the head's codes or ERR_TLOG_INCLUSION_INVALID.
 */
export function verifyLogInclusion(headBytes: Uint8Array, steward: string, receipt: Uint8Array, index: bigint, proof: readonly Uint8Array[], backend?: Ed25519): SignedTreeHead {
  const head = verifyTreeHead(headBytes, steward, backend);
  merkleVerifyInclusion(MERKLE_BLAKE3, index, head.size, merkleLeafHash(MERKLE_BLAKE3, receipt), proof, head.root);
  return head;
}

/**
 * Verifies that the log has only grown from the signed head `head1Bytes` to `head2Bytes` (§22.3 "the log has only
 * grown between two signed heads"). Both heads are verified first. Throws the head's codes or ERR_TLOG_CONSISTENCY_INVALID.
 */
export function verifyLogConsistency(head1Bytes: Uint8Array, head2Bytes: Uint8Array, steward: string, proof: readonly Uint8Array[], backend?: Ed25519): readonly [SignedTreeHead, SignedTreeHead] {
  const h1 = verifyTreeHead(head1Bytes, steward, backend);
  const h2 = verifyTreeHead(head2Bytes, steward, backend);
  merkleVerifyConsistency(MERKLE_BLAKE3, h1.size, h2.size, proof, h1.root, h2.root);
  return [h1, h2];
}

// ---------------------------------------------------------------------------------------------------------------
// §22.3 the append on the verdict's own path.

/** A decision recorded in the log before it was returned. */
export type LoggedDecision = (Decision & { readonly recorded: true; readonly entry: LogEntry }) | UnrecordedDecision;

/** A request refused because its decision could not be recorded: nothing decided, sealed or debited. */
export interface UnrecordedDecision {
  readonly recorded: false;
  readonly verdict: 'deny';
  readonly deny_reason: 'unrecorded';
  /** Why the log could not record it, for people. */
  readonly why: string;
}

/**
 * Decides `req` on `point` and appends the sealed receipt to `log` before returning — allow and deny alike (§22.3).
 * When the log cannot record the decision (full, or its key is not the point's steward) the request is refused
 * unrecorded before it is decided. An append that fails after the decision throws ERR_TLOG_UNRECORDED, so the
 * verdict is never returned unrecorded.
 */
export function decideAndLog(point: EnforcementPoint, log: TransparencyLog, req: DecisionRequest): LoggedDecision {
  // §22.3: "an implementation that cannot record a decision MUST refuse the action rather than perform it unrecorded"
  if (log.steward !== point.steward) {
    return unrecorded(`the log signs with ${log.steward}, not with the point's steward ${point.steward}: its heads would commit a party that did not decide`);
  }
  if (!log.canRecord()) return unrecorded(`the log is full (${log.capacity} entries)`);
  const d = point.decide(req);
  let entry: LogEntry;
  try {
    // §22.3: "The entry SHOULD be written on the same code path that produces the verdict, before the verdict is returned"
    entry = log.append(d.receipt, req.now_s);
  } catch (e) {
    if (!isJcpError(e)) throw e;
    throw new JcpError('ERR_TLOG_UNRECORDED', `the ${d.verdict} decision could not be recorded (${e.code}): ${e.message}`, { cause_code: e.code }, { cause: e });
  }
  return Object.freeze({ ...d, recorded: true as const, entry });
}

function unrecorded(why: string): UnrecordedDecision {
  return Object.freeze({ recorded: false, verdict: 'deny', deny_reason: 'unrecorded', why });
}
