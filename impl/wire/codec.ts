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
import { knownLink, rememberLink } from './grant-memo.ts';
import { _readKnownWireRequest } from './read-request.ts';

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

// The tail of a canonical WireRequest body: "signature" is the longest of its six keys, so in det-CBOR's length-first
// key order (jcp §3) its entry comes last: the text key (0x69 + 9 bytes), then a 64-byte byte string (0x58 0x40 + 64).
const SIGNATURE_ENTRY = Uint8Array.from([0x69, ...new TextEncoder().encode('signature'), 0x58, 0x40]);
const SIGNATURE_ENTRY_BYTES = SIGNATURE_ENTRY.length + 64;

/**
 * The caller's signature preimage read off a request body that {@link decodeWireRequest} accepted, without encoding
 * the request again: the same six-entry map (0xa6) less its last entry, the signature, is the five-entry map (0xa5) of
 * the other fields in the same canonical bytes. Returns undefined when `body` does not have that shape (then
 * {@link wireSigningBytes} of the parsed request is the preimage).
 */
export function wireSigningBytesOfBody(body: Uint8Array): Uint8Array | undefined {
  const at = signatureEntryAt(body);
  if (at < 0) return undefined;
  const out = new Uint8Array(at);
  out.set(body.subarray(0, at));
  out[0] = 0xa5;
  return out;
}

/** Where the signature entry of a request body in the canonical shape begins (the preimage's length), or -1. */
function signatureEntryAt(body: Uint8Array): number {
  const at = body.length - SIGNATURE_ENTRY_BYTES;
  if (at < 1 || body[0] !== 0xa6) return -1;
  for (let i = 0; i < SIGNATURE_ENTRY.length; i++) if (body[at + i] !== SIGNATURE_ENTRY[i]) return -1;
  return at;
}

/** Room for the preimages of bodies up to this size is kept between calls (the verify is synchronous and keeps nothing). */
const SCRATCH_MAX = 64 * 1024;
let scratch = new Uint8Array(4096);

/**
 * {@link verifyWireSignature} for a request decoded from `body`: the preimage is read off the body where it has the
 * canonical shape (into scratch memory, not a new buffer), so the request is not encoded a second time.
 */
export function verifyWireBodySignature(body: Uint8Array, r: WireRequest, backend: Ed25519 = defaultEd25519()): boolean {
  const at = signatureEntryAt(body);
  if (at < 0) return verifyWireSignature(r, backend);
  let room = scratch;
  if (room.length < at) {
    room = new Uint8Array(at);
    if (at <= SCRATCH_MAX) scratch = room;
  }
  room.set(body.subarray(0, at));
  room[0] = 0xa5;
  return backend.verify(r.signature, room.subarray(0, at), didPublicKey(r.caller));
}

/** The canonical body of a WireRequest (no length prefix). */
export function encodeWireRequest(r: WireRequest): Uint8Array {
  return encodeCanonical({ ...unsignedToCbor(r), signature: r.signature });
}

// An allow's response in canonical det-CBOR (jcp §3: "receipt" sorts before "decision", being shorter):
// {"receipt": h'…', "decision": {"verdict": "allow"}}, written around the receipt's bytes without the generic encoder
const RESPONSE_HEAD = Uint8Array.from([0xa2, 0x67, ...new TextEncoder().encode('receipt')]);
const ALLOW_TAIL = Uint8Array.from([0x68, ...new TextEncoder().encode('decision'), 0xa1, 0x67, ...new TextEncoder().encode('verdict'), 0x65, ...new TextEncoder().encode('allow')]);

/** The canonical body of a WireResponse. */
export function encodeWireResponse(r: WireResponse): Uint8Array {
  const receipt = r.receipt;
  if (r.decision.verdict !== 'allow' || r.decision.deny_reason !== undefined || !(receipt instanceof Uint8Array) || receipt.length > 0xffff) {
    return encodeCanonical({ decision: { verdict: r.decision.verdict, deny_reason: r.decision.deny_reason }, receipt });
  }
  const n = receipt.length;
  const head = n < 24 ? 1 : n < 0x100 ? 2 : 3;
  const out = new Uint8Array(RESPONSE_HEAD.length + head + n + ALLOW_TAIL.length);
  out.set(RESPONSE_HEAD);
  let at = RESPONSE_HEAD.length;
  if (head === 1) out[at++] = 0x40 + n;
  else if (head === 2) {
    out[at++] = 0x58;
    out[at++] = n;
  } else {
    out[at++] = 0x59;
    out[at++] = n >> 8;
    out[at++] = n & 0xff;
  }
  out.set(receipt, at);
  out.set(ALLOW_TAIL, at + n);
  return out;
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

/**
 * A WireRequest from its decoded value, every field validated; throws ERR_WIRE_MALFORMED naming the field.
 * `grantAt(i, link, parse)`, where given, answers link i of the chain, already parsed or by `parse` (see
 * {@link decodeWireRequest}).
 */
export function parseWireRequest(v: CborValue, grantAt?: (i: number, link: CborValue, parse: () => SignedGrant) => SignedGrant): WireRequest {
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
    chain: Object.freeze(
      chainV.map((g, i) => {
        const parse = () => inner(() => parseSignedGrant(g, `$.chain[${i}]`));
        return grantAt === undefined ? parse() : grantAt(i, g, parse);
      }),
    ),
    caller,
    cost: parseCost(m.get('cost')),
    now: uint(m.get('now'), '$.now'),
    signature,
  });
}

/**
 * Decodes a request body strictly: ERR_WIRE_NON_CANONICAL for bytes that are not the one canonical det-CBOR form
 * (the decoder's own code in detail.cause_code), ERR_WIRE_MALFORMED for a canonical value that is not a WireRequest.
 *
 * A signed grant whose exact bytes were accepted before is neither decoded nor parsed again: requests under one grant
 * repeat its bytes, and both steps are functions of those bytes alone (a link's depth in the body is always the same),
 * so the earlier result is the same value. It is a frozen object shared between the requests that carry those bytes,
 * with its id and signature check memoised on it (impl/wire/grant-memo.ts). A body in the one expected shape whose
 * links are all known is read in one pass (impl/wire/read-request.ts); otherwise everything but the known links is
 * decoded strictly. Any body the short paths do not take, or that fails on them, takes the whole path, so a refusal is
 * always the one the whole body's decode gives.
 */
export function decodeWireRequest(body: Uint8Array, cap = WIRE_MAX_MESSAGE_BYTES): WireRequest {
  if (body.length <= cap) {
    const read = _readKnownWireRequest(body);
    if (read !== undefined) return read;
  }
  const seen = body.length <= cap ? knownLinks(body) : undefined;
  if (seen !== undefined) {
    try {
      return parseWireRequest(decodeBody(seen.residual, cap), (i, link, parse) => {
        const sg = seen.links[i];
        if (sg === undefined) return rememberLink(body, seen.spans[i]![0], seen.spans[i]![1], parse());
        // the placeholder is where the link was: anything else means the spans were misread, and the whole path decides
        if (link !== i) throw new Error('a known link is not where its placeholder was put');
        return sg;
      });
    } catch {
      // the whole path below gives the refusal, with the byte offsets of the body itself
    }
  }
  const v = decodeBody(body, cap);
  const spans = chainSpans(body);
  return parseWireRequest(v, spans === undefined ? undefined : (i, _link, parse) => (spans[i] === undefined ? parse() : rememberLink(body, spans[i]![0], spans[i]![1], parse())));
}

/**
 * The links of `body`'s chain already known, and the body with each of them replaced by a one-byte placeholder (the
 * unsigned integer of its index): undefined when none is known or the body's chain cannot be found. The spans come
 * from reading heads alone, before any validation; they are right whenever the strict decode of the residual accepts
 * it, since that decode reads the same heads to the same extents, and a known link's bytes are a whole item by
 * themselves (they were accepted as one).
 */
function knownLinks(body: Uint8Array): { readonly residual: Uint8Array; readonly links: readonly (SignedGrant | undefined)[]; readonly spans: readonly (readonly [number, number])[] } | undefined {
  const spans = chainSpans(body);
  if (spans === undefined || spans.length > 23) return undefined;
  let hits = 0;
  let cut = 0;
  const links = spans.map((span) => {
    const sg = knownLink(body, span[0], span[1]);
    if (sg !== undefined) {
      hits++;
      cut += span[1] - span[0] - 1;
    }
    return sg;
  });
  if (hits === 0) return undefined;
  const residual = new Uint8Array(body.length - cut);
  let from = 0;
  let to = 0;
  spans.forEach((span, i) => {
    if (links[i] === undefined) return;
    residual.set(body.subarray(from, span[0]), to);
    to += span[0] - from;
    residual[to++] = i;
    from = span[1];
  });
  residual.set(body.subarray(from), to);
  return { residual, links, spans };
}

/**
 * The end of the det-CBOR item at `p` of `b`, read from heads alone, or -1 where a head is not one a canonical item
 * can have or a length runs past the input. Nothing is validated beyond that (see {@link knownLinks}).
 */
function itemEnd(b: Uint8Array, p: number, depth = 0): number {
  if (p >= b.length || depth > 64) return -1;
  const ib = b[p]!;
  const major = ib >> 5;
  const ai = ib & 31;
  if (major === 7 || ai > 27) return -1;
  let arg = ai;
  let q = p + 1;
  if (ai === 24) arg = b[q++] ?? -1;
  else if (ai === 25) {
    arg = q + 2 <= b.length ? (b[q]! << 8) | b[q + 1]! : -1;
    q += 2;
  } else if (ai === 26) {
    arg = q + 4 <= b.length ? b[q]! * 0x1000000 + ((b[q + 1]! << 16) | (b[q + 2]! << 8) | b[q + 3]!) : -1;
    q += 4;
  } else if (ai === 27) {
    // only an integer's argument can be this long inside an input of at most 2^53 bytes
    return major <= 1 && q + 8 <= b.length ? q + 8 : -1;
  }
  if (arg < 0 || q > b.length) return -1;
  switch (major) {
    case 2:
    case 3:
      return q + arg <= b.length ? q + arg : -1;
    case 4:
    case 5:
      for (let i = 0, n = major === 4 ? arg : 2 * arg; i < n && q >= 0; i++) q = itemEnd(b, q, depth + 1);
      return q;
    case 6:
      return itemEnd(b, q, depth + 1);
    default:
      return q;
  }
}

const CHAIN_KEY = Uint8Array.from([0x65, ...new TextEncoder().encode('chain')]);

/** The byte ranges of the chain's links, read from heads alone; undefined when no chain array is found. */
function chainSpans(body: Uint8Array): (readonly [number, number])[] | undefined {
  if (body.length === 0 || body[0]! >> 5 !== 5 || (body[0]! & 31) >= 24) return undefined;
  const entries = body[0]! & 31;
  let p = 1;
  for (let e = 0; e < entries; e++) {
    const keyEnd = itemEnd(body, p);
    if (keyEnd < 0) return undefined;
    let isChain = keyEnd - p === CHAIN_KEY.length;
    for (let i = 0; isChain && i < CHAIN_KEY.length; i++) isChain = body[p + i] === CHAIN_KEY[i];
    if (!isChain) {
      p = itemEnd(body, keyEnd);
      if (p < 0) return undefined;
      continue;
    }
    const head = body[keyEnd];
    if (head === undefined || head >> 5 !== 4 || (head & 31) >= 24) return undefined;
    const spans: (readonly [number, number])[] = [];
    let q = keyEnd + 1;
    for (let i = 0; i < (head & 31); i++) {
      const end = itemEnd(body, q);
      if (end < 0) return undefined;
      spans.push([q, end]);
      q = end;
    }
    return spans;
  }
  return undefined;
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
