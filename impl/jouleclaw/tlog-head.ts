// jouleclaw §22.2 the signed tree head: (size, root, timestamp) signed with Ed25519 over exactly
// 0x02 ‖ size (8 bytes, big-endian) ‖ root (32 raw bytes) ‖ timestamp (8 bytes, big-endian), by the key that seals
// the receipts (§8).
//
// Wire form (the spec fixes the signed bytes, not how a head travels; the suite fixes it here, once): the canonical
// det-CBOR map
//   { "root": tstr (64 lowercase hex), "size": uint, "steward": tstr (the signer's did:key),
//     "signature": bstr (64), "timestamp": uint }
// "root" is hex because §22.2 speaks of "32 bytes of hex"; "steward" names the signing key so that two heads at one
// size are attributable to one key (§22.2 "the pair is evidence against one key"). An unsigned head is the same map
// without "signature" (or with an empty one). The timestamp is taken as given; the reference's callers pass their
// clock in integer seconds (now_s), a reading the spec leaves open (it fixes the width, not the unit).
//
// What a verifier checks, in this order, each with its own code:
//   not canonical CBOR, unknown or mistyped field .......... ERR_TLOG_HEAD_MALFORMED
//   root absent, empty, or not 64 lowercase hex digits ..... ERR_TLOG_ROOT_MALFORMED   (§22.2 "MUST reject")
//   no signature ........................................... ERR_TLOG_HEAD_UNSIGNED    (§22.2 "MUST NOT be used")
//   steward other than the receipts' sealer ................ ERR_TLOG_HEAD_WRONG_KEY   (§22.2 "MUST be the same principal")
//   signature not valid over the three fields .............. ERR_TLOG_HEAD_SIGNATURE_INVALID
import { bytesEqual, fromHex, toHex } from '../bytes.ts';
import { decodeCanonical, encodeCanonical, type CborValue } from '../cbor/index.ts';
import { JcpError, isJcpError } from '../errors.ts';
import { didPublicKey, isDidKey } from '../identity/did-key.ts';
import { defaultEd25519, type Ed25519, type KeyPair } from '../identity/ed25519.ts';

/** A tree head (§22.2 "A tree head is (size, root, timestamp)"). */
export interface TreeHead {
  /** Entries in the tree (u64). */
  readonly size: bigint;
  /** The 32-byte Merkle root. */
  readonly root: Uint8Array;
  /** u64, as given by the caller (the reference passes now_s). */
  readonly timestamp: bigint;
}

/** A tree head with its signer and signature. */
export interface SignedTreeHead extends TreeHead {
  /** The did:key of the signing key: the receipts' sealer. */
  readonly steward: string;
  /** Ed25519 over {@link treeHeadSigningBytes}. */
  readonly signature: Uint8Array;
}

/** §22.2 "0x02 is a third domain separator, distinct from the leaf and node prefixes". */
export const TREE_HEAD_PREFIX = 0x02;

const U64_MAX = (1n << 64n) - 1n;
const ROOT_HEX = /^[0-9a-f]{64}$/;
const FIELDS = new Set(['root', 'size', 'steward', 'signature', 'timestamp']);

function _u64be(v: bigint, out: Uint8Array, at: number): void {
  for (let i = 7; i >= 0; i--) {
    out[at + i] = Number(v & 0xffn);
    v >>= 8n;
  }
}

function _checkHead(h: TreeHead): void {
  if (typeof h !== 'object' || h === null) throw new JcpError('ERR_BAD_ARGUMENT', 'a tree head must be {size, root, timestamp}');
  for (const k of ['size', 'timestamp'] as const) {
    const v = h[k];
    if (typeof v !== 'bigint' || v < 0n || v > U64_MAX) throw new JcpError('ERR_BAD_ARGUMENT', `tree head ${k} must be a bigint in 0 … 2^64−1`);
  }
  if (!(h.root instanceof Uint8Array) || h.root.length !== 32) throw new JcpError('ERR_TLOG_ROOT_MALFORMED', 'a tree head root must be 32 bytes');
}

/**
 * The 49 bytes a head's signature covers: §22.2 "0x02 || size (8 bytes, big-endian) || root (32 raw bytes) ||
 * timestamp (8 bytes, big-endian)". Throws ERR_BAD_ARGUMENT for a size or timestamp outside u64, ERR_TLOG_ROOT_MALFORMED
 * for a root that is not 32 bytes.
 */
export function treeHeadSigningBytes(h: TreeHead): Uint8Array {
  _checkHead(h);
  const out = new Uint8Array(1 + 8 + 32 + 8);
  out[0] = TREE_HEAD_PREFIX;
  _u64be(h.size, out, 1);
  out.set(h.root, 9);
  _u64be(h.timestamp, out, 41);
  return out;
}

/** Signs a head with the receipts' sealing key (§22.2 "The key MUST be the same principal that seals the receipts"). */
export function signTreeHead(h: TreeHead, sealer: KeyPair, backend: Ed25519 = defaultEd25519()): SignedTreeHead {
  const signature = backend.sign(sealer.seed, treeHeadSigningBytes(h));
  return Object.freeze({ size: h.size, root: h.root.slice(), timestamp: h.timestamp, steward: sealer.did, signature });
}

/** The wire form of a head (this file's header); `signature`/`steward` omitted for an unsigned head. */
export function encodeTreeHead(h: TreeHead & { readonly steward?: string; readonly signature?: Uint8Array }): Uint8Array {
  _checkHead(h);
  return encodeCanonical({
    root: toHex(h.root),
    size: h.size,
    timestamp: h.timestamp,
    ...(h.steward !== undefined ? { steward: h.steward } : {}),
    ...(h.signature !== undefined ? { signature: h.signature } : {}),
  });
}

/** A head as read from the wire, before its signature is judged. */
export interface ParsedTreeHead extends TreeHead {
  readonly steward?: string;
  /** Absent when the head is unsigned. */
  readonly signature?: Uint8Array;
}

function _malformed(msg: string, cause?: unknown): never {
  throw new JcpError('ERR_TLOG_HEAD_MALFORMED', msg, undefined, cause === undefined ? undefined : { cause });
}

function _uint(v: CborValue | undefined, k: string): bigint {
  if (typeof v === 'number' && Number.isSafeInteger(v) && v >= 0) return BigInt(v);
  if (typeof v === 'bigint' && v >= 0n && v <= U64_MAX) return v;
  return _malformed(`tree head ${k} must be an unsigned integer of at most 64 bits`);
}

/**
 * Reads a head's wire form strictly, without judging its signature (the order of checks is this file's header's).
 * Throws ERR_TLOG_HEAD_MALFORMED or ERR_TLOG_ROOT_MALFORMED.
 */
export function parseTreeHead(bytes: Uint8Array): ParsedTreeHead {
  if (!(bytes instanceof Uint8Array)) _malformed('a tree head must be given as bytes');
  let v: CborValue;
  try {
    v = decodeCanonical(bytes, { maxDepth: 2 });
  } catch (e) {
    if (isJcpError(e)) _malformed(`a tree head is not canonical CBOR (${e.code}): ${e.message}`, e);
    throw e;
  }
  if (!(v instanceof Map)) return _malformed('a tree head must be a map');
  for (const k of v.keys()) if (typeof k !== 'string' || !FIELDS.has(k)) _malformed(`a tree head has an unknown field ${String(k)}`);
  // §22.2: "A verifier MUST reject a head whose root is not 32 bytes of hex rather than treating it as absent or empty."
  const rootV = v.get('root');
  if (typeof rootV !== 'string' || !ROOT_HEX.test(rootV)) {
    throw new JcpError('ERR_TLOG_ROOT_MALFORMED', `a tree head root must be 32 bytes as 64 lowercase hex digits, got ${rootV === undefined ? 'none' : typeof rootV === 'string' ? `${rootV.length} characters` : 'a non-text value'}`);
  }
  const root = fromHex(rootV, 'tree head root');
  const size = _uint(v.get('size'), 'size');
  const timestamp = _uint(v.get('timestamp'), 'timestamp');
  const stewardV = v.get('steward');
  if (stewardV !== undefined && !isDidKey(stewardV)) _malformed('a tree head steward must be an Ed25519 did:key');
  const sigV = v.get('signature');
  if (sigV !== undefined && !(sigV instanceof Uint8Array)) _malformed('a tree head signature must be a byte string');
  // an empty signature is no signature
  const signature = sigV !== undefined && sigV.length > 0 ? sigV : undefined;
  if (signature !== undefined && signature.length !== 64) _malformed(`a tree head signature must be 64 bytes, got ${signature.length}`);
  if (signature !== undefined && stewardV === undefined) _malformed('a signed tree head must name its steward');
  return Object.freeze({ size, root, timestamp, ...(stewardV !== undefined ? { steward: stewardV as string } : {}), ...(signature !== undefined ? { signature } : {}) });
}

/**
 * Verifies a head's wire form as signed by `steward`, the did:key that seals the receipts the log holds. Returns the
 * head; throws, in the order of this file's header, ERR_TLOG_HEAD_MALFORMED, ERR_TLOG_ROOT_MALFORMED,
 * ERR_TLOG_HEAD_UNSIGNED, ERR_TLOG_HEAD_WRONG_KEY, ERR_TLOG_HEAD_SIGNATURE_INVALID (ERR_DID_MALFORMED for a bad
 * `steward` argument).
 */
export function verifyTreeHead(bytes: Uint8Array, steward: string, backend: Ed25519 = defaultEd25519()): SignedTreeHead {
  const expectedKey = didPublicKey(steward);
  const h = parseTreeHead(bytes);
  // §22.2: "An unsigned root MUST NOT be used to verify a proof."
  if (h.signature === undefined) throw new JcpError('ERR_TLOG_HEAD_UNSIGNED', `the tree head of size ${h.size} is unsigned`);
  // §22.2: "The key MUST be the same principal that seals the receipts (§8)"
  if (h.steward !== steward) {
    throw new JcpError('ERR_TLOG_HEAD_WRONG_KEY', `the tree head is signed by ${String(h.steward)}, not by the receipts' sealer ${steward}`, { expected: steward, actual: h.steward });
  }
  // §22.2: "the signature MUST cover all three fields over exactly these bytes"
  if (!backend.verify(h.signature, treeHeadSigningBytes(h), expectedKey)) {
    throw new JcpError('ERR_TLOG_HEAD_SIGNATURE_INVALID', `the tree head signature does not verify over 0x02 ‖ size ‖ root ‖ timestamp under ${steward}`);
  }
  return Object.freeze({ size: h.size, root: h.root, timestamp: h.timestamp, steward, signature: h.signature });
}

/** True when two signed heads commit the same size to different roots: equivocation under one key (§22.2). */
export function isEquivocation(a: SignedTreeHead, b: SignedTreeHead): boolean {
  return a.steward === b.steward && a.size === b.size && !bytesEqual(a.root, b.root);
}
