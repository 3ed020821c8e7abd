// jcp §3, §8: a one-pass reader of a sealed receipt in its one expected shape — the tagged COSE_Sign1 of jcp §8 around
// a canonical core — for the hot path of receipt verification. It accepts only bytes that the strict path (decodeSign1,
// decodeCanonical, parseReceiptCore, then the kid check of verify.ts) accepts, with the same core; for everything
// else it answers undefined and verify.ts runs the strict path, which names the fault. So it never refuses anything
// itself: every refusal, and its code, stays the strict path's. impl/receipt/verify.test.ts checks the two agree
// over mutated and random receipts.
import { DEFAULT_MAX_COSE_BYTES } from '../cose/sign1.ts';
import { PROVENANCES } from '../energy/cost.ts';
import { isDidKey } from '../identity/did-key.ts';
import { FRAME_KINDS } from '../jcp/types.ts';
import { PROFILE_FIELDS, RECEIPT_PROFILES, type ReceiptCore } from './core.ts';

/** Where the parts of a receipt read by {@link _readReceipt} lie in its bytes. */
export interface _ReadReceipt {
  readonly core: ReceiptCore;
  /** The payload's own bytes: `bytes[payloadAt, payloadEnd)`. */
  readonly payloadAt: number;
  readonly payloadEnd: number;
  /** Where the protected bucket's byte string (its head included) ends; it starts at byte 2, after tag and array heads. */
  readonly protEnd: number;
  /** The 64 signature bytes: `bytes[sigAt, sigAt + 64)`. */
  readonly sigAt: number;
}

// ---- the field table: jcp/2's fields (a superset of jcp/1's) in canonical key order ----------------------------------

type Kind = 'cid' | 'did' | 'text' | 'uint' | 'frame_kind' | 'trust' | 'verdict' | 'provenance' | 'partial' | 'cids' | 'profile';

interface _Field {
  readonly name: string;
  /** The key's UTF-8 (ASCII) bytes; every field name is shorter than 24, so its text head is one byte. */
  readonly key: Uint8Array;
  readonly kind: Kind;
  readonly requiredV1: boolean;
  readonly requiredV2: boolean;
  readonly inV1: boolean;
  /** Whether the value is interned (it repeats across receipts: dids, grant ids, resources); payload hashes are not. */
  readonly intern: boolean;
}

const _ascii = (s: string): Uint8Array => Uint8Array.from(s, (c) => c.charCodeAt(0));

// jcp §3: "length-first then bytewise key order" — the strict decoder's order over the encoded keys of the jcp/2
// fields, written out rather than sorted at load through the generic encoder (impl/receipt/verify.test.ts reads every
// kind of receipt on both paths, so a field out of order or missing fails there)
const _ORDER = [
  'trust', 'action', 'issuer', 'cost_uj', 'steward', 'subject', 'verdict', 'grant_id', 'resource', 'budget_uj', 'chain_ids',
  'frame_kind', 'deny_reason', 'jcp_receipt', 'payload_hash', 'energy_coverage', 'energy_provenance', 'budget_remaining_uj',
] as const;
const _FIELDS: readonly _Field[] = _ORDER
  .map((name) => {
    const v2 = PROFILE_FIELDS['jcp/2'][name]!;
    const v1 = PROFILE_FIELDS['jcp/1'][name];
    return Object.freeze({
      name,
      key: _ascii(name),
      kind: v2.kind as Kind,
      requiredV1: v1?.required === true,
      requiredV2: v2.required,
      inV1: v1 !== undefined,
      intern: v2.kind === 'did' || name === 'grant_id' || name === 'resource' || name === 'chain_ids' || name === 'action',
    });
  });
const _N = _FIELDS.length;
if (_N > 23 || _FIELDS.some((f) => f.key.length > 23)) throw new Error('read-receipt: a core map head or key head would not fit one byte');
const _REQ_V1 = _FIELDS.filter((f) => f.requiredV1).length;
const _REQ_V2 = _FIELDS.filter((f) => f.requiredV2).length;
const _IDX = (name: string): number => _FIELDS.findIndex((f) => f.name === name);
const _I_PROFILE = _IDX('jcp_receipt');
const _I_GRANT = _IDX('grant_id');
const _I_VERDICT = _IDX('verdict');
const _I_DENY = _IDX('deny_reason');
const _I_STEWARD = _IDX('steward');
const _I_CHAIN = _IDX('chain_ids');

/** The closed text values of the enumerated kinds, as the strict path would return them. */
const _ENUMS: Readonly<Partial<Record<Kind, readonly { readonly s: string; readonly b: Uint8Array }[]>>> = {
  frame_kind: FRAME_KINDS.map((s) => ({ s, b: _ascii(s) })),
  trust: ['control', 'data'].map((s) => ({ s, b: _ascii(s) })),
  verdict: ['allow', 'deny'].map((s) => ({ s, b: _ascii(s) })),
  provenance: PROVENANCES.map((s) => ({ s, b: _ascii(s) })),
  partial: ['Partial'].map((s) => ({ s, b: _ascii(s) })),
  profile: RECEIPT_PROFILES.map((s) => ({ s, b: _ascii(s) })),
};

// ---- the cursor --------------------------------------------------------------------------------------------------

/** Thrown (and caught below) when the bytes leave the one shape read here: the strict path then decides. */
const _OFF_SHAPE = Symbol('off-shape');

let _b: Uint8Array = new Uint8Array(0);
/** A DataView of `_b`, for comparing four bytes at a time. */
let _dv = new DataView(new ArrayBuffer(0));
let _p = 0;
/** End of the region being read (the payload's end inside the core). */
let _end = 0;
/** Where the steward's text lies in `_b` (set when the core is read). */
let _stewardAt = 0;
let _stewardEnd = 0;

function _off(): never {
  throw _OFF_SHAPE;
}

/** A text head (major 3) in its shortest form, lengths below 256; returns the length, `_p` at the text. */
function _textHead(): number {
  if (_p >= _end) _off();
  const ib = _b[_p]!;
  if (ib >= 0x60 && ib < 0x78) {
    _p++;
    return ib - 0x60;
  }
  if (ib !== 0x78 || _p + 1 >= _end) _off();
  const n = _b[_p + 1]!;
  if (n < 24) _off(); // jcp §3 "shortest … length forms"; the strict path names it
  _p += 2;
  return n;
}

/** Are `_b[at, at + n)` the bytes of `k`? (Short `k`: keys and enumerated values.) */
function _same(at: number, n: number, k: Uint8Array): boolean {
  if (n !== k.length) return false;
  const b = _b;
  for (let i = 0; i < n; i++) if (b[at + i] !== k[i]) return false;
  return true;
}

/** Are `_b[at, at + n)` the bytes `kd` views? Four at a time. */
function _sameView(at: number, n: number, kd: DataView): boolean {
  if (n !== kd.byteLength) return false;
  const dv = _dv;
  let i = 0;
  for (; i + 4 <= n; i += 4) if (dv.getInt32(at + i) !== kd.getInt32(i)) return false;
  for (; i < n; i++) if (dv.getUint8(at + i) !== kd.getUint8(i)) return false;
  return true;
}

/** Are `_b[a, a + n)` and `_b[c, c + n)` the same bytes? Four at a time. */
function _sameRanges(a: number, c: number, n: number): boolean {
  const dv = _dv;
  let i = 0;
  for (; i + 4 <= n; i += 4) if (dv.getInt32(a + i) !== dv.getInt32(c + i)) return false;
  for (; i < n; i++) if (dv.getUint8(a + i) !== dv.getUint8(c + i)) return false;
  return true;
}

// Node's native one-byte string maker (a Buffer method that takes any Uint8Array); elsewhere, a TextDecoder. Only
// ever given bytes already checked to be ASCII, for which both give the same text as a UTF-8 decoder.
const _nativeAscii = (globalThis as { Buffer?: { prototype: { asciiSlice?: unknown } } }).Buffer?.prototype.asciiSlice as
  | ((this: Uint8Array, start: number, end: number) => string)
  | undefined;
const _decoder = new TextDecoder();

/** The text of `n` ASCII bytes at `_p` (off shape when any byte is not ASCII: the strict path decodes UTF-8). */
function _asciiText(n: number): string {
  const at = _p;
  if (at + n > _end) _off();
  const b = _b;
  for (let i = 0; i < n; i++) if (b[at + i]! >= 0x80) _off();
  _p = at + n;
  if (n < 16) {
    let s = '';
    for (let i = 0; i < n; i++) s += String.fromCharCode(b[at + i]!);
    return s;
  }
  return _nativeAscii !== undefined ? _nativeAscii.call(b, at, at + n) : _decoder.decode(b.subarray(at, at + n));
}

// Interned strings of values that repeat across receipts, by their bytes: a hit costs a comparison instead of a new
// string, and gives the same string object (whose hash is already known to the caches keyed by it). One table per kind,
// each holding only strings that passed that kind's check.
const _SLOTS = 256;

interface _Interned {
  readonly bytes: (DataView | undefined)[];
  readonly text: string[];
}

const _table = (): _Interned => ({ bytes: new Array<DataView | undefined>(_SLOTS).fill(undefined), text: new Array<string>(_SLOTS).fill('') });
const _internedDids = _table();
const _internedCids = _table();
const _internedTexts = _table();

function _slot(at: number, n: number): number {
  let h = n;
  const b = _b;
  // the last bytes differ most between dids (their prefix is shared) and are as good as any in a content id
  for (let i = n > 12 ? n - 12 : 0; i < n; i++) h = (Math.imul(h, 31) + b[at + i]!) | 0;
  return (h ^ (h >>> 9)) & (_SLOTS - 1);
}

/** The interned string of `_b[at, at + n)` in `t`, or undefined. */
function _interned(t: _Interned, slot: number, at: number, n: number): string | undefined {
  const hit = t.bytes[slot];
  return hit !== undefined && _sameView(at, n, hit) ? t.text[slot] : undefined;
}

function _intern(t: _Interned, slot: number, at: number, n: number, s: string): void {
  const copy = _b.slice(at, at + n);
  t.bytes[slot] = new DataView(copy.buffer);
  t.text[slot] = s;
}

/** A content id (64 lowercase hex digits), as `isContentId` reads it. */
function _cid(intern: boolean): string {
  if (_p + 2 + 64 > _end || _b[_p] !== 0x78 || _b[_p + 1] !== 64) _off();
  _p += 2;
  const at = _p;
  const slot = intern ? _slot(at, 64) : -1;
  if (intern) {
    const hit = _interned(_internedCids, slot, at, 64);
    if (hit !== undefined) {
      _p += 64;
      return hit;
    }
  }
  const b = _b;
  for (let i = 0; i < 64; i++) {
    const c = b[at + i]!;
    // jcp §3: "lowercase-hex on the wire"
    if (!((c >= 0x30 && c <= 0x39) || (c >= 0x61 && c <= 0x66))) _off();
  }
  const s = _asciiText(64);
  if (intern) _intern(_internedCids, slot, at, 64, s);
  return s;
}

/**
 * The `n`-byte ASCII text at the cursor through table `t`: a hit costs a comparison; a miss is decoded, checked by
 * `accept` (a refusal is left to the strict path) and interned.
 */
function _internedAscii(t: _Interned, n: number, accept?: (s: string) => boolean): string {
  const at = _p;
  if (at + n > _end) _off();
  const slot = _slot(at, n);
  const hit = _interned(t, slot, at, n);
  if (hit !== undefined) {
    _p += n;
    return hit;
  }
  const s = _asciiText(n);
  if (accept !== undefined && !accept(s)) _off();
  _intern(t, slot, at, n, s);
  return s;
}

/** An Ed25519 did:key, as `isDidKey` reads it (a did that is not one is left to the strict path). */
function _did(): string {
  return _internedAscii(_internedDids, _textHead(), isDidKey);
}

/** Non-empty ASCII text (other text is left to the strict path's UTF-8 decoding). */
function _text(intern: boolean): string {
  const n = _textHead();
  if (n === 0) _off();
  return intern ? _internedAscii(_internedTexts, n) : _asciiText(n);
}

/** One of a closed set of texts: the set's own string. */
function _oneOf(kind: Kind): string {
  const n = _textHead();
  const at = _p;
  if (at + n > _end) _off();
  for (const e of _ENUMS[kind]!) {
    if (_same(at, n, e.b)) {
      _p += n;
      return e.s;
    }
  }
  return _off();
}

function _u32(at: number): number {
  return _b[at]! * 0x1000000 + ((_b[at + 1]! << 16) | (_b[at + 2]! << 8) | _b[at + 3]!);
}

/** An unsigned integer (major 0) in its shortest form, as a bigint. */
function _uint(): bigint {
  if (_p >= _end) _off();
  const ib = _b[_p]!;
  if (ib < 24) {
    _p++;
    return BigInt(ib);
  }
  const p = _p + 1;
  // jcp §3: "shortest integer form" — a longer head than needed is the strict path's ERR_CBOR_NOT_SHORTEST
  if (ib === 24 && p + 1 <= _end && _b[p]! >= 24) {
    _p = p + 1;
    return BigInt(_b[p]!);
  }
  if (ib === 25 && p + 2 <= _end) {
    const v = (_b[p]! << 8) | _b[p + 1]!;
    if (v >= 0x100) {
      _p = p + 2;
      return BigInt(v);
    }
  }
  if (ib === 26 && p + 4 <= _end) {
    const v = _u32(p);
    if (v >= 0x10000) {
      _p = p + 4;
      return BigInt(v);
    }
  }
  if (ib === 27 && p + 8 <= _end) {
    const hi = _u32(p);
    if (hi !== 0) {
      _p = p + 8;
      return (BigInt(hi) << 32n) | BigInt(_u32(p + 4));
    }
  }
  return _off();
}

/** A non-empty array of content ids, frozen, as parseReceiptCore returns it. */
function _cids(): readonly string[] {
  if (_p >= _end) _off();
  const ib = _b[_p]!;
  if (ib <= 0x80 || ib >= 0x98) _off(); // 1 … 23 items, one-byte head
  _p++;
  const out: string[] = [];
  for (let i = 0; i < ib - 0x80; i++) out.push(_cid(true));
  return Object.freeze(out);
}

function _value(f: _Field): unknown {
  switch (f.kind) {
    case 'cid':
      return _cid(f.intern);
    case 'did':
      return _did();
    case 'text':
      return _text(f.intern);
    case 'uint':
      return _uint();
    case 'cids':
      return _cids();
    default:
      return _oneOf(f.kind);
  }
}

// ---- the envelope and the core --------------------------------------------------------------------------------------

/** A byte-string head in its shortest form at `_p` (lengths below 2^16); returns the length, `_p` at the bytes. */
function _bstrHead(): number {
  if (_p >= _end) _off();
  const ib = _b[_p]!;
  if (ib >= 0x40 && ib < 0x58) {
    _p++;
    return ib - 0x40;
  }
  if (ib === 0x58 && _p + 1 < _end && _b[_p + 1]! >= 24) {
    _p += 2;
    return _b[_p - 1]!;
  }
  if (ib === 0x59 && _p + 2 < _end) {
    const n = (_b[_p + 1]! << 8) | _b[_p + 2]!;
    if (n >= 0x100) {
      _p += 3;
      return n;
    }
  }
  return _off();
}

/** The core map at `_p`, ending exactly at `_end`, with its fields in canonical order; the values by field index. */
function _core(vals: unknown[]): number {
  if (_p >= _end) _off();
  const ib = _b[_p++]!;
  if (ib < 0xa1 || ib > 0xa0 + _N) _off();
  let last = -1;
  for (let i = 0; i < ib - 0xa0; i++) {
    const n = _textHead();
    if (_p + n > _end) _off();
    // keys rise strictly in canonical order, each one of the profile's: a duplicate, an unsorted or an unknown key
    // is left to the strict path
    let j = last + 1;
    while (j < _N && !_same(_p, n, _FIELDS[j]!.key)) j++;
    if (j === _N) _off();
    _p += n;
    if (j === _I_STEWARD) _stewardAt = _p + (_b[_p]! === 0x78 ? 2 : 1);
    vals[j] = _value(_FIELDS[j]!);
    if (j === _I_STEWARD) _stewardEnd = _p;
    last = j;
  }
  if (_p !== _end) _off();
  return ib - 0xa0;
}

/** The core object as parseReceiptCore builds it: the fields in the map's order, frozen; undefined when not valid. */
function _coreObject(vals: unknown[]): ReceiptCore | undefined {
  const profile = vals[_I_PROFILE];
  if (profile === undefined) return undefined;
  const v1 = profile === 'jcp/1';
  let required = 0;
  for (let j = 0; j < _N; j++) {
    if (vals[j] === undefined) continue;
    const f = _FIELDS[j]!;
    if (v1 && !f.inV1) return undefined;
    if (v1 ? f.requiredV1 : f.requiredV2) required++;
  }
  if (required !== (v1 ? _REQ_V1 : _REQ_V2)) return undefined;
  // jcp §8: "deny_reason = string ; omitted on allow"
  if ((vals[_I_VERDICT] === 'deny') !== (vals[_I_DENY] !== undefined)) return undefined;
  // §8.1: chain_ids name every link root first, the receipt's own grant last, after at least a root
  const chain = vals[_I_CHAIN] as readonly string[] | undefined;
  if (chain !== undefined && (chain.length < 2 || chain[chain.length - 1] !== vals[_I_GRANT])) return undefined;
  return Object.freeze(_build(vals)) as unknown as ReceiptCore;
}

// The names below are written out so that each store is a named one (a keyed store per field costs more than the rest
// of the object); their order is the canonical key order of _FIELDS, checked at load, so the object's keys come in the
// order parseReceiptCore gives them: the map's.
const _BUILT_ORDER = [
  'trust', 'action', 'issuer', 'cost_uj', 'steward', 'subject', 'verdict', 'grant_id', 'resource', 'budget_uj', 'chain_ids',
  'frame_kind', 'deny_reason', 'jcp_receipt', 'payload_hash', 'energy_coverage', 'energy_provenance', 'budget_remaining_uj',
];
if (_BUILT_ORDER.join() !== _FIELDS.map((f) => f.name).join()) throw new Error(`read-receipt: built order ${_BUILT_ORDER.join()} is not the canonical ${_FIELDS.map((f) => f.name).join()}`);
const _REQUIRED_ALWAYS = ['trust', 'action', 'issuer', 'cost_uj', 'steward', 'subject', 'verdict', 'grant_id', 'resource', 'budget_uj', 'frame_kind', 'jcp_receipt', 'energy_provenance', 'budget_remaining_uj'];
if (_REQUIRED_ALWAYS.some((k) => !_FIELDS[_IDX(k)]!.requiredV1 || !_FIELDS[_IDX(k)]!.requiredV2)) throw new Error('read-receipt: a field built unconditionally is optional');

/** The core's fields (present ones only) in canonical order. */
function _build(v: unknown[]): Record<string, unknown> {
  const o: Record<string, unknown> = { trust: v[0], action: v[1], issuer: v[2], cost_uj: v[3], steward: v[4], subject: v[5], verdict: v[6], grant_id: v[7], resource: v[8], budget_uj: v[9] };
  if (v[10] !== undefined) o['chain_ids'] = v[10];
  o['frame_kind'] = v[11];
  if (v[12] !== undefined) o['deny_reason'] = v[12];
  o['jcp_receipt'] = v[13];
  if (v[14] !== undefined) o['payload_hash'] = v[14];
  if (v[15] !== undefined) o['energy_coverage'] = v[15];
  o['energy_provenance'] = v[16];
  o['budget_remaining_uj'] = v[17];
  return o;
}

// 0xd2 = tag 18, 0x84 = array of 4; the protected bucket {1: −8, 4: kid} is a2 01 27 04 ‖ kid; 0xa0 = unprotected {}
const _PROT_PREFIX = Uint8Array.of(0xa2, 0x01, 0x27, 0x04);

/**
 * Reads a receipt in its one expected shape: tag 18, protected {1: −8, 4: kid} with kid the UTF-8 of the core's
 * steward, unprotected {}, the canonical core of a known profile, a 64-byte signature, nothing after. Returns
 * undefined for anything else (including anything the strict path would refuse), never throws a JcpError.
 */
export function _readReceipt(bytes: Uint8Array, maxBytes: number | undefined): _ReadReceipt | undefined {
  if (!(bytes instanceof Uint8Array) || !(bytes.buffer instanceof ArrayBuffer)) return undefined;
  if (!(bytes.length <= (maxBytes ?? DEFAULT_MAX_COSE_BYTES))) return undefined;
  _b = bytes;
  _dv = new DataView(bytes.buffer, bytes.byteOffset, bytes.length);
  _end = bytes.length;
  try {
    if (_end < 2 || bytes[0] !== 0xd2 || bytes[1] !== 0x84) return undefined;
    _p = 2;
    const protLen = _bstrHead();
    const protAt = _p;
    const protEnd = protAt + protLen;
    if (protEnd > _end || !_same(protAt, 4, _PROT_PREFIX)) return undefined;
    _p = protAt + 4;
    const kidLen = _bstrHead();
    const kidAt = _p;
    if (kidAt + kidLen !== protEnd || protEnd >= _end || bytes[protEnd] !== 0xa0) return undefined;
    _p = protEnd + 1;
    const payloadLen = _bstrHead();
    const payloadAt = _p;
    const payloadEnd = payloadAt + payloadLen;
    // the signature: 0x58 0x40 and 64 bytes, the last of the input
    if (payloadEnd + 66 !== _end || bytes[payloadEnd] !== 0x58 || bytes[payloadEnd + 1] !== 64) return undefined;
    _end = payloadEnd;
    const vals = _vals.fill(undefined);
    _core(vals);
    const core = _coreObject(vals);
    if (core === undefined) return undefined;
    // jcp §8: "steward = the signer's id (the COSE kid)" — the kid holds exactly the steward's (ASCII) text
    if (kidLen !== _stewardEnd - _stewardAt || !_sameRanges(kidAt, _stewardAt, kidLen)) return undefined;
    return { core, payloadAt, payloadEnd, protEnd, sigAt: payloadEnd + 2 };
  } catch {
    // off the shape (_OFF_SHAPE), or anything unforeseen: the strict path decides, and names any fault
    return undefined;
  } finally {
    _b = _EMPTY;
    _dv = _EMPTY_VIEW;
  }
}

const _EMPTY = new Uint8Array(0);
const _EMPTY_VIEW = new DataView(new ArrayBuffer(0));
/** The values read, by field index (reused: the reader is not re-entrant, and the core object copies them out). */
const _vals: unknown[] = new Array(_N).fill(undefined);
