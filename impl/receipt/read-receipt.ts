// jcp §3, §8: a one-pass reader of a sealed receipt in its one expected shape — the tagged COSE_Sign1 of jcp §8 around
// a canonical core — for the hot path of receipt verification. It accepts only bytes that the strict path (decodeSign1,
// decodeCanonical, parseReceiptCore, then the kid check of verify.ts) accepts, with the same core; for everything
// else it answers undefined and verify.ts runs the strict path, which names the fault. So it never refuses anything
// itself: every refusal, and its code, stays the strict path's. impl/receipt/verify.test.ts checks the two agree
// over mutated and random receipts.
import { DEFAULT_MAX_COSE_BYTES } from '../cose/sign1.ts';
import { PROVENANCES } from '../energy/cost.ts';
import { asciiBytes, OFF_SHAPE, ShapeCursor, shapeTexts, type ShapeText } from '../cbor/cursor.ts';
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
      key: asciiBytes(name),
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
const _ENUMS: Readonly<Partial<Record<Kind, readonly ShapeText[]>>> = {
  frame_kind: shapeTexts(FRAME_KINDS),
  trust: shapeTexts(['control', 'data']),
  verdict: shapeTexts(['allow', 'deny']),
  provenance: shapeTexts(PROVENANCES),
  partial: shapeTexts(['Partial']),
  profile: shapeTexts(RECEIPT_PROFILES),
};

const _c = new ShapeCursor();
/** Where the steward's text lies in the input (set when the core is read). */
let _stewardAt = 0;
let _stewardEnd = 0;

/** A non-empty array of content ids, frozen, as parseReceiptCore returns it. */
function _cids(): readonly string[] {
  const c = _c;
  if (c.p >= c.end) throw OFF_SHAPE;
  const ib = c.b[c.p]!;
  if (ib <= 0x80 || ib >= 0x98) throw OFF_SHAPE; // 1 … 23 items, one-byte head
  c.p++;
  const out: string[] = [];
  for (let i = 0; i < ib - 0x80; i++) out.push(c.cid(true));
  return Object.freeze(out);
}

function _value(f: _Field): unknown {
  switch (f.kind) {
    case 'cid':
      return _c.cid(f.intern);
    case 'did':
      return _c.did();
    case 'text':
      return _c.text(f.intern);
    case 'uint':
      return _c.uint();
    case 'cids':
      return _cids();
    default:
      return _c.oneOf(_ENUMS[f.kind]!);
  }
}

// ---- the envelope and the core --------------------------------------------------------------------------------------

/** The core map at the cursor, ending exactly at its end, with its fields in canonical order; the values by field index. */
function _core(vals: unknown[]): void {
  const c = _c;
  if (c.p >= c.end) throw OFF_SHAPE;
  const ib = c.b[c.p++]!;
  if (ib < 0xa1 || ib > 0xa0 + _N) throw OFF_SHAPE;
  let last = -1;
  for (let i = 0; i < ib - 0xa0; i++) {
    const n = c.textHead();
    if (c.p + n > c.end) throw OFF_SHAPE;
    // keys rise strictly in canonical order, each one of the profile's: a duplicate, an unsorted or an unknown key
    // is left to the strict path
    let j = last + 1;
    while (j < _N && !c.same(c.p, n, _FIELDS[j]!.key)) j++;
    if (j === _N) throw OFF_SHAPE;
    c.p += n;
    if (j === _I_STEWARD) _stewardAt = c.p + (c.b[c.p]! === 0x78 ? 2 : 1);
    vals[j] = _value(_FIELDS[j]!);
    if (j === _I_STEWARD) _stewardEnd = c.p;
    last = j;
  }
  if (c.p !== c.end) throw OFF_SHAPE;
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
  // §8.1: chain_ids name every grant id debited, root first, the receipt's own grant last (one link for a single grant)
  const chain = vals[_I_CHAIN] as readonly string[] | undefined;
  if (chain !== undefined && (chain.length === 0 || chain[chain.length - 1] !== vals[_I_GRANT])) return undefined;
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
  const c = _c;
  c.begin(bytes);
  try {
    if (c.end < 2 || bytes[0] !== 0xd2 || bytes[1] !== 0x84) return undefined;
    c.p = 2;
    const protLen = c.bstrHead();
    const protAt = c.p;
    const protEnd = protAt + protLen;
    if (protEnd > c.end || !c.same(protAt, 4, _PROT_PREFIX)) return undefined;
    c.p = protAt + 4;
    const kidLen = c.bstrHead();
    const kidAt = c.p;
    if (kidAt + kidLen !== protEnd || protEnd >= c.end || bytes[protEnd] !== 0xa0) return undefined;
    c.p = protEnd + 1;
    const payloadLen = c.bstrHead();
    const payloadAt = c.p;
    const payloadEnd = payloadAt + payloadLen;
    // the signature: 0x58 0x40 and 64 bytes, the last of the input
    if (payloadEnd + 66 !== c.end || bytes[payloadEnd] !== 0x58 || bytes[payloadEnd + 1] !== 64) return undefined;
    c.end = payloadEnd;
    const vals = _vals.fill(undefined);
    _core(vals);
    const core = _coreObject(vals);
    if (core === undefined) return undefined;
    // jcp §8: "steward = the signer's id (the COSE kid)" — the kid holds exactly the steward's (ASCII) text
    if (kidLen !== _stewardEnd - _stewardAt || !c.sameRanges(kidAt, _stewardAt, kidLen)) return undefined;
    return { core, payloadAt, payloadEnd, protEnd, sigAt: payloadEnd + 2 };
  } catch {
    // off the shape (OFF_SHAPE), or anything unforeseen: the strict path decides, and names any fault
    return undefined;
  } finally {
    c.release();
  }
}

/** The values read, by field index (reused: the reader is not re-entrant, and the core object copies them out). */
const _vals: unknown[] = new Array(_N).fill(undefined);
