// RFC 9052 §4.2–§4.4 COSE_Sign1 with EdDSA (alg −8), as jcp §8 seals receipts: protected {1: −8, 4: kid}, empty unprotected.
import { allocBytes } from '../bytes.ts';
import { decodeCanonical, encodeCanonical, type CborMap, type CborValue } from '../cbor/index.ts';
import { JcpError, isJcpError } from '../errors.ts';
import type { Ed25519 } from '../identity/ed25519.ts';

/** COSE algorithm id of EdDSA (RFC 9053 §2.2). */
export const COSE_ALG_EDDSA = -8;
/** CBOR tag of COSE_Sign1_Tagged (RFC 9052 §2). */
export const COSE_SIGN1_TAG = 18;
/** The default cap on an envelope's size: a receipt is a few hundred bytes. */
export const DEFAULT_MAX_COSE_BYTES = 64 * 1024;

const EMPTY = new Uint8Array(0);

/** A decoded COSE_Sign1. */
export interface Sign1 {
  readonly protectedBytes: Uint8Array;
  readonly protectedHeader: CborMap;
  readonly unprotected: CborMap;
  readonly payload: Uint8Array;
  readonly signature: Uint8Array;
}

/** The protected header bucket {1: alg, 4: kid} as canonical bytes. */
export function protectedHeaderBytes(kid: Uint8Array): Uint8Array {
  return encodeCanonical(
    new Map<CborValue, CborValue>([
      [1, COSE_ALG_EDDSA],
      [4, kid],
    ]),
  );
}

/** Bytes of the canonical head of a byte string of `len` bytes (major type 2, shortest argument). */
function bstrHeadSize(len: number): number {
  return len < 24 ? 1 : len < 0x100 ? 2 : len < 0x10000 ? 3 : 5;
}

function writeBstrHead(out: Uint8Array, o: number, len: number): number {
  if (len < 24) {
    out[o] = 0x40 | len;
    return o + 1;
  }
  if (len < 0x100) {
    out[o] = 0x58;
    out[o + 1] = len;
    return o + 2;
  }
  if (len < 0x10000) {
    out[o] = 0x59;
    out[o + 1] = len >> 8;
    out[o + 2] = len & 0xff;
    return o + 3;
  }
  out[o] = 0x5a;
  out[o + 1] = (len >>> 24) & 0xff;
  out[o + 2] = (len >> 16) & 0xff;
  out[o + 3] = (len >> 8) & 0xff;
  out[o + 4] = len & 0xff;
  return o + 5;
}

/** A piece of an assembled encoding: a byte string (its head is written before it) or bytes copied as they are. */
type Piece = Uint8Array | { readonly raw: Uint8Array };

/** Concatenates canonical pieces into one allocation, copying each byte string once. */
function assemble(pieces: readonly Piece[]): Uint8Array {
  let n = 0;
  for (const p of pieces) n += p instanceof Uint8Array ? bstrHeadSize(p.length) + p.length : p.raw.length;
  const out = new Uint8Array(n);
  let o = 0;
  for (const p of pieces) {
    if (p instanceof Uint8Array) {
      o = writeBstrHead(out, o, p.length);
      out.set(p, o);
      o += p.length;
    } else {
      out.set(p.raw, o);
      o += p.raw.length;
    }
  }
  return out;
}

// 0x84 (array of 4), then the text "Signature1" (0x6a + 10 bytes)
const SIG1_PREFIX = Uint8Array.of(0x84, 0x6a, ...new TextEncoder().encode('Signature1'));

/**
 * RFC 9052 §4.4 Sig_structure for COSE_Sign1: ["Signature1", body_protected, external_aad, payload], canonically
 * encoded. Assembled directly (the tests check it equals the generic encoder's bytes and the cose-wg example's).
 */
export function sigStructure(protectedBytes: Uint8Array, payload: Uint8Array, externalAad: Uint8Array = EMPTY): Uint8Array {
  return assemble([{ raw: SIG1_PREFIX }, protectedBytes, externalAad, payload]);
}

/** Bytes of a Sig_structure's prefix: everything before the payload's own bytes (no external aad). */
function sigPrefixSize(protectedBytes: Uint8Array, payloadLength: number): number {
  return SIG1_PREFIX.length + bstrHeadSize(protectedBytes.length) + protectedBytes.length + 1 + bstrHeadSize(payloadLength);
}

/**
 * The room a Sig_structure's prefix (no external aad) may need before a payload under `protectedBytes`: what a caller
 * of {@link signSign1InPlace} leaves free before the payload it writes (the payload's head taken at its longest).
 */
export function sigPrefixRoom(protectedBytes: Uint8Array): number {
  return SIG1_PREFIX.length + bstrHeadSize(protectedBytes.length) + protectedBytes.length + 1 + 5;
}

/** Writes a Sig_structure's prefix (no external aad) at `out[o]`; returns where the payload's bytes go. */
function writeSigPrefix(out: Uint8Array, o: number, protectedBytes: Uint8Array, payloadLength: number): number {
  out.set(SIG1_PREFIX, o);
  o = writeBstrHead(out, o + SIG1_PREFIX.length, protectedBytes.length);
  out.set(protectedBytes, o);
  o += protectedBytes.length;
  out[o] = 0x40; // external_aad: the empty byte string
  return writeBstrHead(out, o + 1, payloadLength);
}

/**
 * {@link sigStructure} (no external aad) in scratch memory, for a signature made or checked at once: a scratch result
 * may live in Node's shared Buffer pool; anything handed to a caller gets an ArrayBuffer of its own.
 */
function scratchSigStructure(protectedBytes: Uint8Array, payload: Uint8Array): Uint8Array {
  const pre = sigPrefixSize(protectedBytes, payload.length);
  const out = allocBytes(pre + payload.length, false);
  out.set(payload, writeSigPrefix(out, 0, protectedBytes, payload.length));
  return out;
}

/** Seals `payload` as a tagged COSE_Sign1 signed with `seed`, protected header {1: −8, 4: kid}, unprotected {}. */
export function signSign1(payload: Uint8Array, kid: Uint8Array, seed: Uint8Array, backend: Ed25519, protectedBytes?: Uint8Array): Uint8Array {
  return signSign1WithHeader(payload, protectedBytes ?? protectedHeaderBytes(kid), seed, backend);
}

/** {@link signSign1} with the protected bucket already encoded (a steward's header never changes). */
export function signSign1WithHeader(payload: Uint8Array, prot: Uint8Array, seed: Uint8Array, backend: Ed25519): Uint8Array {
  return envelope(prot, payload, 0, payload.length, backend.sign(seed, scratchSigStructure(prot, payload)));
}

/** The bytes an envelope needs after its payload: the signature's bstr head (0x58 0x40) and the 64-byte signature. */
export const SIGN1_TAIL_ROOM = 2 + 64;

/**
 * {@link signSign1WithHeader} over a payload already written at `frame[at, end)`, the bytes before it free for the
 * caller's use: the Sig_structure's prefix is written there, in place, so the signed bytes are never copied. Falls
 * back to the copying path when the room before the payload is too short. Same bytes either way.
 *
 * A caller that also gives up `frame[end, limit)` lets the envelope be laid out around the payload in `frame` itself
 * when {@link SIGN1_TAIL_ROOM} bytes are there (and `frame` is a plain Uint8Array) — its head over the signed prefix,
 * the signature after — and copied out once, by `slice`, into an ArrayBuffer of its own. The payload's bytes, and
 * everything from `limit` on, are left as they were either way.
 */
export function signSign1InPlace(frame: Uint8Array, at: number, end: number, prot: Uint8Array, seed: Uint8Array, backend: Ed25519, limit = end): Uint8Array {
  const len = end - at;
  const start = at - sigPrefixSize(prot, len);
  if (start < 0) return signSign1WithHeader(frame.subarray(at, end), prot, seed, backend);
  writeSigPrefix(frame, start, prot, len);
  const signature = backend.sign(seed, frame.subarray(start, end));
  // a Buffer's slice is a view, not a copy: only a plain Uint8Array takes the in-frame path
  if (Math.min(limit, frame.length) - end < SIGN1_TAIL_ROOM || signature.length !== 64 || Object.getPrototypeOf(frame) !== Uint8Array.prototype) {
    return envelope(prot, frame, at, end, signature);
  }
  // the envelope's head is shorter than the Sig_structure's prefix ("Signature1" and the aad are not in it), so it
  // fits in the room the prefix used
  const from = at - envelopeHeadSize(prot, len);
  writeEnvelopeHead(frame, from, prot, len);
  frame.set(signature, writeBstrHead(frame, end, signature.length));
  return frame.slice(from, end + SIGN1_TAIL_ROOM);
}

const _NodeBuffer = (globalThis as { Buffer?: { allocUnsafeSlow(n: number): Uint8Array } }).Buffer;

/**
 * A Uint8Array of `n` bytes on an ArrayBuffer of its own (byteOffset 0, the buffer exactly `n` long), its bytes NOT
 * initialised: for a caller that writes every one of them. Through Node's unpooled allocation where there is one,
 * which skips the zero-fill that `new Uint8Array(n)` pays (a large share of a small array's cost).
 */
export function _ownBytesUnfilled(n: number): Uint8Array {
  if (_NodeBuffer === undefined) return new Uint8Array(n);
  const b = _NodeBuffer.allocUnsafeSlow(n);
  return new Uint8Array(b.buffer, 0, n);
}

/** Bytes of a tagged COSE_Sign1's head: everything before the payload's own bytes. */
function envelopeHeadSize(prot: Uint8Array, payloadLength: number): number {
  return 2 + bstrHeadSize(prot.length) + prot.length + 1 + bstrHeadSize(payloadLength);
}

/**
 * Writes a tagged COSE_Sign1's head at `out[o]` — 0xd2 = tag 18, 0x84 = array of 4, the protected bstr, the unprotected
 * {} (0xa0), the payload's bstr head — and returns where the payload's bytes go.
 */
function writeEnvelopeHead(out: Uint8Array, o: number, prot: Uint8Array, payloadLength: number): number {
  out[o] = 0xd2;
  out[o + 1] = 0x84;
  o = writeBstrHead(out, o + 2, prot.length);
  out.set(prot, o);
  o += prot.length;
  out[o] = 0xa0;
  return writeBstrHead(out, o + 1, payloadLength);
}

/**
 * The tagged COSE_Sign1 bytes of the payload `src[at, end)`, in an array of their own: 0xd2 = tag 18, 0x84 = array
 * of 4, then the protected bstr, the unprotected {} (0xa0), the payload bstr and the signature bstr.
 */
function envelope(prot: Uint8Array, src: Uint8Array, at: number, end: number, signature: Uint8Array): Uint8Array {
  const len = end - at;
  const n = envelopeHeadSize(prot, len) + len + bstrHeadSize(signature.length) + signature.length;
  const out = _ownBytesUnfilled(n); // every byte is written below
  let o = writeEnvelopeHead(out, 0, prot, len);
  out.set(at === 0 && end === src.length ? src : src.subarray(at, end), o);
  o = writeBstrHead(out, o + len, signature.length);
  out.set(signature, o);
  return out;
}

function malformed(msg: string, cause?: unknown): never {
  throw new JcpError('ERR_COSE_MALFORMED', msg, undefined, cause === undefined ? undefined : { cause });
}

/**
 * Decodes a COSE_Sign1 strictly: canonical CBOR, tag 18 (or untagged when `requireTag` is false), four fields of the
 * right types, a protected header that is itself canonical. Throws ERR_COSE_TOO_LARGE, ERR_COSE_MALFORMED.
 */
export function decodeSign1(bytes: Uint8Array, opts: { maxBytes?: number; requireTag?: boolean } = {}): Sign1 {
  if (!(bytes instanceof Uint8Array)) malformed('a COSE_Sign1 must be given as bytes');
  const max = opts.maxBytes ?? DEFAULT_MAX_COSE_BYTES;
  if (bytes.length > max) throw new JcpError('ERR_COSE_TOO_LARGE', `COSE_Sign1 of ${bytes.length} bytes exceeds the cap of ${max}`);
  let top: CborValue;
  try {
    top = decodeCanonical(bytes, { allowTags: [COSE_SIGN1_TAG], maxDepth: 8 });
  } catch (e) {
    if (isJcpError(e)) malformed(`COSE_Sign1 is not canonical CBOR (${e.code}): ${e.message}`, e);
    throw e;
  }
  let body: CborValue = top;
  if (typeof top === 'object' && top !== null && !(top instanceof Uint8Array) && !(top instanceof Map) && !Array.isArray(top)) {
    if (top.tag !== COSE_SIGN1_TAG) malformed(`expected tag 18 (COSE_Sign1), got tag ${top.tag}`);
    body = top.value;
  } else if (opts.requireTag !== false) {
    malformed('expected tag 18 (COSE_Sign1_Tagged)');
  }
  if (!Array.isArray(body) || body.length !== 4) malformed('COSE_Sign1 must be an array of four items');
  const [prot, unprot, payload, signature] = body as [CborValue, CborValue, CborValue, CborValue];
  if (!(prot instanceof Uint8Array)) malformed('protected header must be a byte string');
  if (!(unprot instanceof Map)) malformed('unprotected header must be a map');
  if (!(payload instanceof Uint8Array)) malformed('payload must be a byte string (detached payloads are not supported)');
  if (!(signature instanceof Uint8Array)) malformed('signature must be a byte string');
  let protectedHeader: CborValue;
  try {
    protectedHeader = prot.length === 0 ? new Map() : decodeCanonical(prot, { maxDepth: 4 });
  } catch (e) {
    if (isJcpError(e)) malformed(`protected header is not canonical CBOR (${e.code})`, e);
    throw e;
  }
  if (!(protectedHeader instanceof Map)) malformed('protected header must encode a map');
  return Object.freeze({ protectedBytes: prot, protectedHeader, unprotected: unprot, payload, signature });
}

// One scratch array for the Sig_structures that envelope verification builds and drops at once (grown when needed; a
// re-entrant call while it is in use gets pooled memory instead).
let _verifyScratch = new Uint8Array(1024);
let _verifyScratchBusy = false;

/**
 * Verifies the signature of a tagged COSE_Sign1 already read and found in its canonical layout — 0xd2 0x84, the
 * protected bstr from byte 2 to `protEnd`, 0xa0 (an empty unprotected map), the payload bstr up to `payloadEnd`, then
 * the 64-byte signature at `sigAt` — under `publicKey` (no external aad). The Sig_structure is the envelope's protected
 * and payload byte strings behind the "Signature1" prefix, with the empty external_aad (0x40) where the unprotected map
 * (0xa0) stood: the same bytes as {@link sigStructure}, copied from the envelope in one block.
 */
export function verifySign1Layout(bytes: Uint8Array, protEnd: number, payloadEnd: number, sigAt: number, publicKey: Uint8Array, backend: Ed25519): boolean {
  const n = SIG1_PREFIX.length + payloadEnd - 2;
  const own = !_verifyScratchBusy;
  let out: Uint8Array;
  if (own) {
    if (_verifyScratch.length < n) _verifyScratch = new Uint8Array(Math.max(n, 2 * _verifyScratch.length));
    out = _verifyScratch;
    _verifyScratchBusy = true;
  } else {
    out = allocBytes(n, false);
  }
  try {
    out.set(SIG1_PREFIX, 0);
    out.set(bytes.subarray(2, payloadEnd), SIG1_PREFIX.length);
    out[SIG1_PREFIX.length + protEnd - 2] = 0x40; // external_aad: the empty byte string, where 0xa0 stood
    return backend.verify(bytes.subarray(sigAt, sigAt + 64), out.subarray(0, n), publicKey);
  } finally {
    if (own) _verifyScratchBusy = false;
  }
}

/** Verifies a decoded COSE_Sign1's signature under `publicKey` (no external aad). */
export function verifySign1(s: Sign1, publicKey: Uint8Array, backend: Ed25519): boolean {
  if (s.signature.length !== 64) {
    throw new JcpError('ERR_SIGNATURE_LENGTH', `an EdDSA COSE signature is 64 bytes, got ${s.signature.length}`);
  }
  return backend.verify(s.signature, scratchSigStructure(s.protectedBytes, s.payload), publicKey);
}
