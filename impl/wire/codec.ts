// jcp §11 the jcp/1 wire binding: WireRequest / WireResponse as canonical det-CBOR, the 4-byte big-endian length
// prefix, a declared size cap, the caller's signature preimage, and strict parsing. The exact shapes are in WIRE.md.
// Byte shapes §11 leaves open are fixed here once (ARCHITECTURE.md): text-keyed maps named by the spec's field names;
// the decision is {verdict, deny_reason?}; a message refused before any decision is a WireRefusal {error, message}.
import { decodeCanonical, encodeCanonical, type CborInput, type CborMap, type CborValue } from '../cbor/index.ts';
import { isProvenance, type Cost } from '../energy/cost.ts';
import { JcpError, isJcpError, ERROR_CODES, type JcpErrorCode } from '../errors.ts';
import { blake3 } from '../hash/blake3.ts';
import { isDidKey, didPublicKey } from '../identity/did-key.ts';
import { defaultEd25519, type Ed25519, type KeyPair } from '../identity/ed25519.ts';
import { frameToCbor, parseFrame, parseSignedGrant, signedGrantToCbor } from '../jcp/codec.ts';
import type { Did, Frame, SignedGrant } from '../jcp/types.ts';

const U64_MAX = (1n << 64n) - 1n;

/**
 * The declared cap of this implementation's receiver (1 MiB of body). jcp §11 requires a cap and leaves its size to
 * the receiver; a grant chain or a receipt is a few KiB.
 */
export const WIRE_MAX_MESSAGE_BYTES = 1 << 20;

/**
 * The reference endpoint's freshness window in seconds. jcp §11 names "its freshness window" and fixes no size (the
 * change notes give none either): the reading taken is 300 s, the usual allowance for clock skew between hosts.
 */
export const WIRE_FRESHNESS_WINDOW_S = 300n;

/** jcp §11 WireRequest, signature included. `now` is the caller's signing time (unix seconds), a freshness stamp. */
export interface WireRequest {
  readonly frame: Frame;
  readonly chain: readonly SignedGrant[];
  readonly caller: Did;
  readonly cost: Cost;
  readonly now: bigint;
  /** Ed25519 by `caller` over {@link wireSigningBytes} of the other fields. */
  readonly signature: Uint8Array;
}

/** A WireRequest before the caller signs it. */
export type UnsignedWireRequest = Omit<WireRequest, 'signature'>;

/** The decision a WireResponse carries (jcp §7): the verdict and, on deny, the reason as the receipt names it. */
export interface WireDecision {
  readonly verdict: 'allow' | 'deny';
  readonly deny_reason?: string;
}

/** jcp §11 WireResponse: the deterministic decision and the sealed JCR-1 receipt (deny and allow alike). */
export interface WireResponse {
  readonly decision: WireDecision;
  readonly receipt: Uint8Array;
}

/** A message refused before any decision (over the cap, non-canonical, not a WireRequest): a code and why. */
export interface WireRefusal {
  readonly error: JcpErrorCode;
  readonly message: string;
}

// ---- to CBOR -------------------------------------------------------------------------------------------------------

function costToCbor(c: Cost): CborInput {
  return { uj: c.uj, provenance: c.provenance, coverage: c.coverage };
}

function unsignedToCbor(r: UnsignedWireRequest): { [k: string]: CborInput | undefined } {
  return { frame: frameToCbor(r.frame), chain: r.chain.map(signedGrantToCbor), caller: r.caller, cost: costToCbor(r.cost), now: r.now };
}

/**
 * The caller's signature preimage. jcp §11: "signature is Ed25519 by caller over the canonical bytes of every other
 * field" — read here as the canonical encoding of the WireRequest map with the `signature` entry left out.
 */
export function wireSigningBytes(r: UnsignedWireRequest): Uint8Array {
  return encodeCanonical(unsignedToCbor(r));
}

/** Signs an unsigned request as `caller` (whose did must be the request's caller). */
export function signWireRequest(r: UnsignedWireRequest, caller: KeyPair, backend: Ed25519 = defaultEd25519()): WireRequest {
  if (caller.did !== r.caller) throw new JcpError('ERR_BAD_ARGUMENT', `the signing key ${caller.did} is not the request's caller ${r.caller}`);
  return Object.freeze({ ...r, signature: backend.sign(caller.seed, wireSigningBytes(r)) });
}

/** True when the request's signature verifies under its caller's key (jcp §11 caller authentication). */
export function verifyWireSignature(r: WireRequest, backend: Ed25519 = defaultEd25519()): boolean {
  const { signature, ...rest } = r;
  return backend.verify(signature, wireSigningBytes(rest), didPublicKey(r.caller));
}

/** The canonical body of a WireRequest (no length prefix). */
export function encodeWireRequest(r: WireRequest): Uint8Array {
  return encodeCanonical({ ...unsignedToCbor(r), signature: r.signature });
}

/** The canonical body of a WireResponse. */
export function encodeWireResponse(r: WireResponse): Uint8Array {
  return encodeCanonical({ decision: { verdict: r.decision.verdict, deny_reason: r.decision.deny_reason }, receipt: r.receipt });
}

/** The canonical body of a WireRefusal. */
export function encodeWireRefusal(r: WireRefusal): Uint8Array {
  return encodeCanonical({ error: r.error, message: r.message });
}

/** The key under which a request is remembered: blake3 of its body, 32 bytes (two byte-identical requests are one). */
export function wireRequestKey(body: Uint8Array): Uint8Array {
  return blake3(body);
}

// ---- framing -------------------------------------------------------------------------------------------------------

/** One message on the wire: the 4-byte big-endian length of `body`, then `body`. Refuses a body over `cap`. */
export function frameMessage(body: Uint8Array, cap = WIRE_MAX_MESSAGE_BYTES): Uint8Array {
  if (body.length > cap) throw new JcpError('ERR_WIRE_OVERSIZE', `a message of ${body.length} bytes exceeds the ${cap}-byte cap`);
  const out = new Uint8Array(4 + body.length);
  new DataView(out.buffer).setUint32(0, body.length, false);
  out.set(body, 4);
  return out;
}

/** A body longer than this is gathered into one buffer of its declared length once this much of it has arrived. */
const GATHER_AT = 64 * 1024;

/**
 * Splits a byte stream into message bodies: handles a message split over several reads and several messages in one
 * read. A declared length over the cap throws ERR_WIRE_OVERSIZE before any of that body is buffered; the stream is
 * then out of step and must be closed. Bodies are returned raw (the caller decodes, so it can key on the exact bytes),
 * each a copy on an ArrayBuffer of its own: the reader keeps nothing of a chunk it was given. A large body is held
 * as the pieces that came until GATHER_AT bytes of it have, then in one buffer of its declared length (so a sender
 * makes it allocate at most cap / GATHER_AT times what it sent, and a large partial frame is one allocation that is
 * freed whole when the reader is dropped).
 */
export class WireFrameReader {
  private readonly head = new Uint8Array(4);
  private headHave = 0;
  /** The declared length of the body being read; -1 while a header is. */
  private want = -1;
  private parts: Uint8Array[] = [];
  private whole: Uint8Array | undefined;
  private have = 0;
  constructor(readonly cap = WIRE_MAX_MESSAGE_BYTES) {}

  /** Bytes buffered that are not yet a whole message (a partial header, or a header and part of its body). */
  get pending(): number {
    return this.want < 0 ? this.headHave : 4 + this.have;
  }

  private body(): Uint8Array {
    let b = this.whole;
    if (!b) {
      b = new Uint8Array(this.want);
      let at = 0;
      for (const p of this.parts) {
        b.set(p, at);
        at += p.length;
      }
    }
    this.want = -1;
    this.parts = [];
    this.whole = undefined;
    this.have = 0;
    return b;
  }

  /** Reads `chunk` and returns every message body now complete. */
  push(chunk: Uint8Array): Uint8Array[] {
    const out: Uint8Array[] = [];
    let at = 0;
    while (at < chunk.length) {
      if (this.want < 0) {
        const k = Math.min(4 - this.headHave, chunk.length - at);
        this.head.set(chunk.subarray(at, at + k), this.headHave);
        this.headHave += k;
        at += k;
        if (this.headHave < 4) break;
        this.headHave = 0;
        const len = new DataView(this.head.buffer).getUint32(0, false);
        // jcp §11: "A receiver MUST reject a message longer than its declared cap"
        if (len > this.cap) throw new JcpError('ERR_WIRE_OVERSIZE', `a message declares ${len} bytes, over the ${this.cap}-byte cap`, { declared: len, cap: this.cap });
        this.want = len;
      }
      const k = Math.min(this.want - this.have, chunk.length - at);
      const piece = chunk.subarray(at, at + k);
      at += k;
      if (this.whole) this.whole.set(piece, this.have);
      else if (k > 0) this.parts.push(k === this.want ? piece : piece.slice());
      this.have += k;
      if (!this.whole && this.have >= GATHER_AT && this.have < this.want) {
        this.whole = new Uint8Array(this.want);
        let o = 0;
        for (const p of this.parts) {
          this.whole.set(p, o);
          o += p.length;
        }
        this.parts = [];
      }
      if (this.have === this.want) out.push(this.body());
    }
    return out;
  }
}

// ---- from CBOR (strict) --------------------------------------------------------------------------------------------

function malformed(msg: string, cause?: unknown): never {
  throw new JcpError('ERR_WIRE_MALFORMED', msg, isJcpError(cause) ? { cause_code: cause.code } : undefined, cause === undefined ? undefined : { cause });
}

function fields(v: CborValue, allowed: readonly string[], required: readonly string[], at: string): CborMap {
  if (!(v instanceof Map)) malformed(`${at} must be a map`);
  for (const k of v.keys()) if (typeof k !== 'string' || !allowed.includes(k)) malformed(`${at}: unknown field ${String(k)}`);
  for (const k of required) if (!v.has(k)) malformed(`${at}: missing field ${k}`);
  return v;
}

function uint(v: CborValue | undefined, at: string): bigint {
  if (typeof v === 'number' && Number.isSafeInteger(v) && v >= 0) return BigInt(v);
  if (typeof v === 'bigint' && v >= 0n && v <= U64_MAX) return v;
  return malformed(`${at} must be an unsigned integer`);
}

function inner<T>(f: () => T): T {
  try {
    return f();
  } catch (e) {
    if (isJcpError(e)) malformed(e.message, e);
    throw e;
  }
}

function parseCost(v: CborValue | undefined): Cost {
  const m = fields(v as CborValue, ['uj', 'provenance', 'coverage'], ['uj', 'provenance'], '$.cost');
  const provenance = m.get('provenance');
  if (!isProvenance(provenance)) malformed('$.cost.provenance must be HwShunt, ModelBased or Estimator');
  if (m.has('coverage') && m.get('coverage') !== 'Partial') malformed('$.cost.coverage is either absent (Whole) or "Partial"');
  return Object.freeze({ uj: uint(m.get('uj'), '$.cost.uj'), provenance, ...(m.has('coverage') ? { coverage: 'Partial' as const } : {}) });
}

const REQUEST_FIELDS = ['frame', 'chain', 'caller', 'cost', 'now', 'signature'];

/** A WireRequest from its decoded value, every field validated; throws ERR_WIRE_MALFORMED naming the field. */
export function parseWireRequest(v: CborValue): WireRequest {
  const m = fields(v, REQUEST_FIELDS, REQUEST_FIELDS, '$');
  const chainV = m.get('chain');
  // jcp §11: "chain is the full delegation chain, root first (a single un-delegated grant is a one-link chain)"
  if (!Array.isArray(chainV) || chainV.length === 0) malformed('$.chain must be a non-empty array of signed grants, root first');
  const caller = m.get('caller');
  if (typeof caller !== 'string' || !isDidKey(caller)) malformed('$.caller must be an Ed25519 did:key');
  const signature = m.get('signature');
  if (!(signature instanceof Uint8Array) || signature.length !== 64) malformed('$.signature must be a byte string of 64 bytes');
  return Object.freeze({
    frame: inner(() => parseFrame(m.get('frame') as CborValue, '$.frame')),
    chain: Object.freeze(chainV.map((g, i) => inner(() => parseSignedGrant(g, `$.chain[${i}]`)))),
    caller,
    cost: parseCost(m.get('cost')),
    now: uint(m.get('now'), '$.now'),
    signature,
  });
}

/**
 * Decodes a request body strictly: ERR_WIRE_NON_CANONICAL for bytes that are not the one canonical det-CBOR form
 * (the decoder's own code in detail.cause_code), ERR_WIRE_MALFORMED for a canonical value that is not a WireRequest.
 */
export function decodeWireRequest(body: Uint8Array, cap = WIRE_MAX_MESSAGE_BYTES): WireRequest {
  return parseWireRequest(decodeBody(body, cap));
}

function decodeBody(body: Uint8Array, cap: number): CborValue {
  if (body.length > cap) throw new JcpError('ERR_WIRE_OVERSIZE', `a message of ${body.length} bytes exceeds the ${cap}-byte cap`);
  try {
    // jcp §11: "MUST reject a non-canonical body"
    return decodeCanonical(body, { maxBytes: cap });
  } catch (e) {
    if (isJcpError(e)) throw new JcpError('ERR_WIRE_NON_CANONICAL', `the body is not canonical det-CBOR: ${e.message}`, { cause_code: e.code }, { cause: e });
    throw e;
  }
}

/** What an endpoint answered: a response (a decision was sealed) or a refusal (none was). */
export type WireReply = { readonly kind: 'response'; readonly response: WireResponse } | { readonly kind: 'refusal'; readonly refusal: WireRefusal };

/** Decodes and validates a reply body strictly (ERR_WIRE_NON_CANONICAL / ERR_WIRE_MALFORMED). */
export function decodeWireReply(body: Uint8Array, cap = WIRE_MAX_MESSAGE_BYTES): WireReply {
  const v = decodeBody(body, cap);
  if (v instanceof Map && v.has('error')) {
    const m = fields(v, ['error', 'message'], ['error', 'message'], '$');
    const code = m.get('error');
    const message = m.get('message');
    if (typeof code !== 'string' || !(ERROR_CODES as readonly string[]).includes(code)) malformed(`$.error must be a code of the closed list, got ${String(code)}`);
    if (typeof message !== 'string') malformed('$.message must be text');
    return Object.freeze({ kind: 'refusal', refusal: Object.freeze({ error: code as JcpErrorCode, message }) });
  }
  const m = fields(v, ['decision', 'receipt'], ['decision', 'receipt'], '$');
  const d = fields(m.get('decision') as CborValue, ['verdict', 'deny_reason'], ['verdict'], '$.decision');
  const verdict = d.get('verdict');
  if (verdict !== 'allow' && verdict !== 'deny') malformed('$.decision.verdict must be allow or deny');
  const reason = d.get('deny_reason');
  // a deny names its reason; an allow names none (the receipt core's rule, jcp §8)
  if (verdict === 'deny' ? typeof reason !== 'string' || reason.length === 0 : d.has('deny_reason')) malformed('$.decision.deny_reason is present, as text, exactly on deny');
  const receipt = m.get('receipt');
  if (!(receipt instanceof Uint8Array)) malformed('$.receipt must be a byte string');
  const decision: WireDecision = verdict === 'deny' ? { verdict, deny_reason: reason as string } : { verdict };
  return Object.freeze({ kind: 'response', response: Object.freeze({ decision: Object.freeze(decision), receipt }) });
}
