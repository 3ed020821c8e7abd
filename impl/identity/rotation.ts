// jcp §2.1 identity continuity: pre-committed rotation. An identity is its inception did:key (seq 0) forever; the key
// that controls it rotates through a verified log of KeyEvents, each committing to the NEXT key by hash.
//
// Byte shapes (the spec names the fields; it fixes no encoding, so this module fixes them once, like impl/jcp/codec.ts):
//   KeyEvent        = { identity: tstr (did:key), seq: uint, current: tstr (did:key), next_hash: tstr (content id),
//                       ? parent: tstr (content id), nonce: bstr(16) }       ; canonical det-CBOR, text keys (jcp §3);
//                                                                             ; parent omitted at inception, never null
//   SignedKeyEvent  = { event: KeyEvent, signature: bstr(64) }                ; Ed25519 by `current` over KeyEvent's bytes
//   event id        = blake3(canonical_cbor(KeyEvent)), lowercase hex       ; a content id (jcp §3), what `parent` names
//   next_hash       = lowercase hex of blake3(the next key's 32 raw public-key bytes) ; jcp §2.1: "blake3 of the NEXT
//                     key's 32 public bytes" — the raw key bytes, not a CBOR wrapping of them
// Signatures: jcp §2.1 "Inception is signed by the identity key (current MUST equal identity). Rotation event N is signed
// by its new current key, which MUST hash to event N−1's next_hash". So every event is signed by its own `current`.
// Reading taken where the spec is silent: every event of a log names the same `identity` (the seq-0 DID, "stable for
// life"); a log whose events name another identity is refused ERR_KEY_EVENT_IDENTITY_MISMATCH.
import { toHex } from '../bytes.ts';
import { decodeCanonical, encodeCanonical, type CborInput, type CborMap, type CborValue } from '../cbor/index.ts';
import { JcpError, type JcpErrorCode } from '../errors.ts';
import { blake3 } from '../hash/blake3.ts';
import { contentIdOfBytes, isContentId } from '../jcp/content-id.ts';
import { didPublicKey, isDidKey } from './did-key.ts';
import { defaultEd25519, type Ed25519, type KeyPair } from './ed25519.ts';

/** jcp §2.1 KeyEvent. `parent` is absent at inception. */
export interface KeyEvent {
  readonly identity: string;
  readonly seq: bigint;
  readonly current: string;
  readonly next_hash: string;
  readonly parent?: string;
  /** 16 bytes. */
  readonly nonce: Uint8Array;
}

/** A KeyEvent with its `current` key's Ed25519 signature over the event's canonical bytes. */
export interface SignedKeyEvent {
  readonly event: KeyEvent;
  readonly signature: Uint8Array;
}

/** What a verified log establishes. */
export interface VerifiedKeyLog {
  /** The inception DID, stable across every rotation. */
  readonly identity: string;
  /** The key controlling the identity at the end of the log. */
  readonly current: string;
  /** The last event's seq. */
  readonly seq: bigint;
  /** The pre-commitment to the key that may rotate next. */
  readonly next_hash: string;
  /** The last event's id (what the next rotation's parent must name). */
  readonly head: string;
}

/** jcp §2.1 next_hash: lowercase hex of blake3 over a key's 32 raw public bytes. */
export function nextKeyHash(publicKey: Uint8Array): string {
  if (!(publicKey instanceof Uint8Array) || publicKey.length !== 32) throw new JcpError('ERR_KEY_LENGTH', 'a pre-committed key must be 32 public-key bytes');
  return toHex(blake3(publicKey));
}

/** The CBOR value of a KeyEvent; an absent parent is omitted. */
export function keyEventToCbor(e: KeyEvent): CborInput {
  return { identity: e.identity, seq: e.seq, current: e.current, next_hash: e.next_hash, parent: e.parent, nonce: e.nonce };
}

/** The CBOR value of a signed KeyEvent. */
export function signedKeyEventToCbor(se: SignedKeyEvent): CborInput {
  return { event: keyEventToCbor(se.event), signature: se.signature };
}

/** The canonical bytes `current` signs. */
export function keyEventBytes(e: KeyEvent): Uint8Array {
  return encodeCanonical(keyEventToCbor(e));
}

/** The event's content id (what the next event's parent names). */
export function keyEventId(e: KeyEvent): string {
  return contentIdOfBytes(keyEventBytes(e));
}

function fail(code: JcpErrorCode, msg: string, detail: Record<string, unknown> = {}): never {
  throw new JcpError(code, msg, detail);
}

function anonce(nonce: Uint8Array): Uint8Array {
  if (!(nonce instanceof Uint8Array) || nonce.length !== 16) fail('ERR_KEY_EVENT_MALFORMED', 'nonce must be 16 bytes');
  return nonce.slice();
}

function sign(event: KeyEvent, key: KeyPair, backend: Ed25519): SignedKeyEvent {
  const e = Object.freeze(event);
  return Object.freeze({ event: e, signature: backend.sign(key.seed, keyEventBytes(e)) });
}

/**
 * jcp §2.1 inception: seq 0, current = identity = the identity key's did:key, committing to the next key by hash.
 * Only the next key's PUBLIC bytes are needed. Throws ERR_KEY_LENGTH / ERR_KEY_EVENT_MALFORMED on bad input.
 */
export function inceptIdentity(identityKey: KeyPair, nextPublicKey: Uint8Array, nonce: Uint8Array, backend: Ed25519 = defaultEd25519()): SignedKeyEvent {
  return sign({ identity: identityKey.did, seq: 0n, current: identityKey.did, next_hash: nextKeyHash(nextPublicKey), nonce: anonce(nonce) }, identityKey, backend);
}

/**
 * jcp §2.1 rotation: event N+1 after `prior`, signed by `newKey`, which must be the key `prior` pre-committed to
 * (refused ERR_KEY_EVENT_HASH_MISMATCH otherwise, so nothing minted here is refused by {@link verifyKeyLog}), and
 * committing to `nextPublicKey`.
 */
export function rotateIdentity(prior: SignedKeyEvent, newKey: KeyPair, nextPublicKey: Uint8Array, nonce: Uint8Array, backend: Ed25519 = defaultEd25519()): SignedKeyEvent {
  const p = prior.event;
  if (nextKeyHash(newKey.publicKey) !== p.next_hash) {
    fail('ERR_KEY_EVENT_HASH_MISMATCH', `${newKey.did} is not the key event ${p.seq} pre-committed to (next_hash ${p.next_hash})`, { seq: String(p.seq + 1n) });
  }
  return sign(
    { identity: p.identity, seq: p.seq + 1n, current: newKey.did, next_hash: nextKeyHash(nextPublicKey), parent: keyEventId(p), nonce: anonce(nonce) },
    newKey,
    backend,
  );
}

// ---- strict parsing ------------------------------------------------------------------------------------------------

const EVENT_FIELDS = ['identity', 'seq', 'current', 'next_hash', 'parent', 'nonce'];
const U64_MAX = (1n << 64n) - 1n;

function fields(v: CborValue | undefined, allowed: readonly string[], at: string): CborMap {
  if (!(v instanceof Map)) fail('ERR_KEY_EVENT_MALFORMED', `${at}: must be a map`, { path: at });
  for (const k of v.keys()) if (typeof k !== 'string' || !allowed.includes(k)) fail('ERR_KEY_EVENT_MALFORMED', `${at}: unknown field ${String(k)}`, { path: at });
  return v;
}

function field<T>(m: CborMap, k: string, at: string, ok: (v: CborValue | undefined) => v is CborValue & T, what: string): T {
  const v = m.get(k);
  if (!ok(v)) fail('ERR_KEY_EVENT_MALFORMED', `${at}.${k}: must be ${what}`, { path: `${at}.${k}` });
  return v as T;
}

const isDid = (v: CborValue | undefined): v is string => typeof v === 'string' && isDidKey(v);
const isCid = (v: CborValue | undefined): v is string => isContentId(v);
const isUint = (v: CborValue | undefined): v is number | bigint =>
  (typeof v === 'number' && Number.isSafeInteger(v) && v >= 0) || (typeof v === 'bigint' && v >= 0n && v <= U64_MAX);
const isNonce = (v: CborValue | undefined): v is Uint8Array => v instanceof Uint8Array && v.length === 16;
const isSig = (v: CborValue | undefined): v is Uint8Array => v instanceof Uint8Array && v.length === 64;

/** A signed KeyEvent from its CBOR value, strictly: every field present and well-typed, no unknown field. ERR_KEY_EVENT_MALFORMED otherwise. */
export function parseSignedKeyEvent(v: CborValue, at = '$key_event'): SignedKeyEvent {
  const outer = fields(v, ['event', 'signature'], at);
  const m = fields(outer.get('event'), EVENT_FIELDS, `${at}.event`);
  const e = `${at}.event`;
  const event: KeyEvent = {
    identity: field(m, 'identity', e, isDid, 'an Ed25519 did:key'),
    seq: BigInt(field(m, 'seq', e, isUint, 'an unsigned integer')),
    current: field(m, 'current', e, isDid, 'an Ed25519 did:key'),
    next_hash: field(m, 'next_hash', e, isCid, 'a content id (64 lowercase hex digits)'),
    ...(m.has('parent') ? { parent: field(m, 'parent', e, isCid, 'a content id (64 lowercase hex digits)') } : {}),
    nonce: field(m, 'nonce', e, isNonce, 'a byte string of 16 bytes').slice(),
  };
  return Object.freeze({ event: Object.freeze(event), signature: field(outer, 'signature', at, isSig, 'a byte string of 64 bytes').slice() });
}

/** A signed KeyEvent from its canonical bytes (CBOR errors keep their ERR_CBOR_* codes). */
export function signedKeyEventFromBytes(b: Uint8Array): SignedKeyEvent {
  return parseSignedKeyEvent(decodeCanonical(b));
}

// ---- verification --------------------------------------------------------------------------------------------------

function signatureHolds(se: SignedKeyEvent, backend: Ed25519): boolean {
  try {
    return backend.verify(se.signature, keyEventBytes(se.event), didPublicKey(se.event.current));
  } catch {
    return false;
  }
}

/**
 * jcp §2.1: "A verifier MUST reject sequence gaps, parent-link mismatches, hash mismatches, and bad signatures."
 * Checks, event by event: seq i at position i (ERR_KEY_EVENT_SEQ_GAP); every event names the inception identity, and
 * inception's current is that identity (ERR_KEY_EVENT_IDENTITY_MISMATCH); inception has no parent and event i's parent
 * is event i−1's id (ERR_KEY_EVENT_PARENT_MISMATCH); event i's current hashes to event i−1's next_hash
 * (ERR_KEY_EVENT_HASH_MISMATCH); each signature verifies under its own current key (ERR_KEY_EVENT_BAD_SIGNATURE).
 * An empty log is ERR_KEY_EVENT_MALFORMED. detail.seq names the event refused.
 */
export function verifyKeyLog(log: readonly SignedKeyEvent[], backend: Ed25519 = defaultEd25519()): VerifiedKeyLog {
  if (!Array.isArray(log) || log.length === 0) fail('ERR_KEY_EVENT_MALFORMED', 'a key event log needs at least its inception event');
  const identity = log[0]!.event.identity;
  let prev: KeyEvent | undefined;
  for (let i = 0; i < log.length; i++) {
    const se = log[i]!;
    const e = se.event;
    const seq = String(e.seq);
    if (e.seq !== BigInt(i)) fail('ERR_KEY_EVENT_SEQ_GAP', `event ${i} of the log has seq ${seq}; expected ${i}`, { seq, position: i });
    if (e.identity !== identity) fail('ERR_KEY_EVENT_IDENTITY_MISMATCH', `event ${seq} names identity ${e.identity}, not the inception's ${identity}`, { seq });
    if (prev === undefined) {
      if (e.current !== identity) fail('ERR_KEY_EVENT_IDENTITY_MISMATCH', `inception's current ${e.current} must equal its identity ${identity}`, { seq });
      if (e.parent !== undefined) fail('ERR_KEY_EVENT_PARENT_MISMATCH', 'inception must have no parent', { seq });
    } else {
      const want = keyEventId(prev);
      if (e.parent !== want) fail('ERR_KEY_EVENT_PARENT_MISMATCH', `event ${seq}'s parent ${e.parent ?? '(absent)'} is not event ${prev.seq}'s id ${want}`, { seq });
      let pk: Uint8Array;
      try {
        pk = didPublicKey(e.current);
      } catch {
        fail('ERR_KEY_EVENT_MALFORMED', `event ${seq}'s current is not an Ed25519 did:key`, { seq });
      }
      if (nextKeyHash(pk) !== prev.next_hash) {
        fail('ERR_KEY_EVENT_HASH_MISMATCH', `event ${seq}'s key ${e.current} does not hash to event ${prev.seq}'s next_hash ${prev.next_hash}`, { seq });
      }
    }
    if (!signatureHolds(se, backend)) fail('ERR_KEY_EVENT_BAD_SIGNATURE', `event ${seq}'s signature does not verify under its current key ${e.current}`, { seq });
    prev = e;
  }
  const last = prev!;
  return Object.freeze({ identity, current: last.current, seq: last.seq, next_hash: last.next_hash, head: keyEventId(last) });
}

