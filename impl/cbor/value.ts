// jcp §3: the data model of canonical det-CBOR (RFC 8949 §4.2.1) — integers, byte and text strings, arrays, maps, tags.
import { bytesEqual } from '../bytes.ts';
import { JcpError } from '../errors.ts';

/**
 * A value of the det-CBOR data model as the decoder returns it.
 * Integers are `number` when `Number.isSafeInteger`, `bigint` otherwise (range −2^64 … 2^64−1); byte strings are
 * `Uint8Array`; text is `string`; arrays are arrays; maps are `Map`s; tags (only where allowed) are {@link CborTagged}.
 * There are no floats, booleans, null, undefined or other simple values (jcp §3: "no floats, bools, or nulls in a signed core").
 */
export type CborValue = number | bigint | string | Uint8Array | CborValue[] | CborMap | CborTagged;

/**
 * A det-CBOR map. A JS `Map` compares keys by identity for objects, so look up text and integer keys
 * (`m.get('grant_id')`, `m.get(1)`); byte-string and array keys are kept but can only be found by iterating.
 */
export type CborMap = Map<CborValue, CborValue>;

/** A CBOR tag (major type 6) around a value. Created by {@link cborTag}; frozen. */
export interface CborTagged {
  readonly tag: number;
  readonly value: CborValue;
}

/**
 * What the encoder accepts: any {@link CborValue}, plus read-only arrays and maps, and plain objects with text keys.
 * In a plain object a property whose value is `undefined` is omitted, which is how an absent OPTIONAL field is left out
 * (jcp §4: "an absent OPTIONAL field is omitted from the canonical encoding entirely").
 * TypeScript gives an `interface` no implicit index signature, so declare object shapes with `type` to pass them here.
 */
export type CborInput =
  | CborValue
  | readonly CborInput[]
  | ReadonlyMap<CborInput, CborInput>
  | { readonly [k: string]: CborInput | undefined };

/** The prototype every {@link CborTagged} has; how the encoder tells a tag from a look-alike plain object. */
const _TAGGED_PROTO: object = Object.freeze(Object.create(null) as object);

/**
 * A frozen {@link CborTagged}. `tag` must be a non-negative safe integer, else `ERR_BAD_ARGUMENT`.
 * Encoding it still needs `encodeCanonical(v, { allowTags: true })`, and decoding it `allowTags: [tag]`.
 */
export function cborTag(tag: number, value: CborValue): CborTagged {
  if (!Number.isSafeInteger(tag) || tag < 0) {
    throw new JcpError('ERR_BAD_ARGUMENT', `a CBOR tag number must be a non-negative safe integer, got ${String(tag)}`, {
      what: 'tag',
    });
  }
  const t = Object.create(_TAGGED_PROTO) as { tag: number; value: CborValue };
  t.tag = tag;
  t.value = value;
  return Object.freeze(t);
}

/** True when `v` was made by {@link cborTag} (or returned by the decoder as a tag). */
export function isCborTagged(v: unknown): v is CborTagged {
  return typeof v === 'object' && v !== null && Object.getPrototypeOf(v) === _TAGGED_PROTO;
}

/**
 * Structural equality of two det-CBOR values: integers by value whatever their JS type (`5 == 5n`), byte strings by
 * content, arrays in order, maps as unordered sets of entries (keys compared structurally too), tags by number and value.
 */
export function cborEquals(a: CborValue, b: CborValue): boolean {
  if (typeof a === 'number' || typeof a === 'bigint') {
    // number and bigint compare by mathematical value under ==; no other CborValue is a number or bigint
    return (typeof b === 'number' || typeof b === 'bigint') && a == b;
  }
  if (typeof a === 'string') return a === b;
  if (a instanceof Uint8Array) return b instanceof Uint8Array && bytesEqual(a, b);
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (!cborEquals(a[i] as CborValue, b[i] as CborValue)) return false;
    return true;
  }
  if (a instanceof Map) return b instanceof Map && _mapEquals(a, b);
  if (isCborTagged(a)) return isCborTagged(b) && a.tag === b.tag && cborEquals(a.value, b.value);
  return false;
}

function _mapEquals(a: CborMap, b: CborMap): boolean {
  if (a.size !== b.size) return false;
  for (const [ka, va] of a) {
    const vb = _lookup(b, ka);
    if (vb === undefined || !cborEquals(va, vb)) return false;
  }
  return true;
}

/** The value under a key structurally equal to `k`: a direct look-up for primitives, a scan for the rest. */
function _lookup(m: CborMap, k: CborValue): CborValue | undefined {
  if (typeof k === 'string') return m.get(k);
  if (typeof k === 'number') return m.get(k) ?? m.get(BigInt(k));
  if (typeof k === 'bigint') return m.get(k) ?? (Number.isSafeInteger(Number(k)) && BigInt(Number(k)) === k ? m.get(Number(k)) : undefined);
  for (const [kb, vb] of m) if (cborEquals(k, kb)) return vb;
  return undefined;
}
