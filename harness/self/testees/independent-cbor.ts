// jcp §3, §11: the independent implementation's canonical check (cbor.check), its own walk over the bytes rather than
// the reference's decoder, taking the other reading of jcp/3#open-tags-in-canonical-check: a tag is data, kept when its
// head and its content are canonical. Heads are read as bigints, so a tag number up to 2^64 − 1 is kept as it stands.
import { JcpError, type JcpErrorCode } from '../../../impl/errors.ts';

/** Arrays, maps and tags nested deeper than this are refused (ERR_CBOR_TOO_DEEP), so the walk's recursion stays small. */
const _MAX_DEPTH = 64;

/** Text is valid UTF-8 (RFC 8949 §3.1); a byte order mark is text like any other. */
const _utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

interface _Walk {
  readonly b: Uint8Array;
  p: number;
}

function _fail(code: JcpErrorCode, at: number, what: string): never {
  throw new JcpError(code, `at byte ${at}: ${what}`, { offset: at });
}

/**
 * `bytes` when they are the canonical det-CBOR encoding of one data item (jcp §3), tags included as data; otherwise
 * a JcpError naming the first fault found (ERR_CBOR_*), as jcp §11 says a receiver must reject a non-canonical body.
 */
export function checkCanonical(bytes: Uint8Array): Uint8Array {
  if (!(bytes instanceof Uint8Array)) throw new JcpError('ERR_BAD_ARGUMENT', 'cbor.check: bytes must be a byte string', { what: 'bytes' });
  const w: _Walk = { b: bytes, p: 0 };
  _item(w, 0);
  // jcp §11: "a message has exactly one wire form" — one item, nothing after it
  if (w.p !== bytes.length) _fail('ERR_CBOR_TRAILING_BYTES', w.p, `${bytes.length - w.p} byte(s) after the one item`);
  return bytes;
}

/** The head at `w.p` (major type and argument), moving past it; refuses every head a canonical item cannot have. */
function _head(w: _Walk): { major: number; arg: bigint } {
  const at = w.p;
  if (at >= w.b.length) _fail('ERR_CBOR_TRUNCATED', at, 'input ends where a data item was expected');
  const ib = w.b[at] as number;
  const major = ib >> 5;
  const ai = ib & 31;
  if (major === 7) {
    // jcp §3: "no floats, bools, or nulls in a signed core" — nor any other simple value
    if (ai >= 25 && ai <= 27) _fail('ERR_CBOR_FLOAT', at, 'a float');
    if (ai === 31) _fail('ERR_CBOR_INDEFINITE_LENGTH', at, 'a break code outside any indefinite-length item');
    if (ai >= 28) _fail('ERR_CBOR_RESERVED_ADDITIONAL_INFO', at, `reserved additional information ${ai}`);
    _fail('ERR_CBOR_SIMPLE_VALUE', at, 'a simple value');
  }
  // RFC 8949 §4.2.1: "Indefinite-length items MUST NOT appear"
  if (ai === 31) _fail('ERR_CBOR_INDEFINITE_LENGTH', at, `an indefinite length in major type ${major}`);
  // RFC 8949 §3: additional information 28 … 30 is reserved, not well-formed
  if (ai >= 28) _fail('ERR_CBOR_RESERVED_ADDITIONAL_INFO', at, `reserved additional information ${ai}`);
  const n = ai < 24 ? 0 : 1 << (ai - 24);
  if (w.b.length - (at + 1) < n) _fail('ERR_CBOR_TRUNCATED', at, `input ends inside a ${n}-byte argument`);
  let arg = ai < 24 ? BigInt(ai) : 0n;
  for (let i = 1; i <= n; i++) arg = (arg << 8n) | BigInt(w.b[at + i] as number);
  // jcp §3: "shortest integer form" — a head of n bytes only for an argument the next shorter head cannot hold
  if (n > 0 && arg < (n === 1 ? 24n : 1n << BigInt(4 * n))) _fail('ERR_CBOR_NOT_SHORTEST', at, `${arg} in a ${n}-byte argument`);
  w.p = at + 1 + n;
  return { major, arg };
}

/** A declared length the rest of the input can hold, each element taking at least `per` bytes; else truncation. */
function _length(w: _Walk, at: number, arg: bigint, per: bigint): number {
  if (arg * per > BigInt(w.b.length - w.p)) _fail('ERR_CBOR_TRUNCATED', at, `a declared length of ${arg} beyond the input`);
  return Number(arg);
}

function _enter(at: number, depth: number): void {
  if (depth >= _MAX_DEPTH) _fail('ERR_CBOR_TOO_DEEP', at, `nesting deeper than ${_MAX_DEPTH}`);
}

/** Walks one canonical data item at `w.p`, moving past it. */
function _item(w: _Walk, depth: number): void {
  const at = w.p;
  const { major, arg } = _head(w);
  switch (major) {
    case 0:
    case 1:
      return;
    case 2:
    case 3: {
      const len = _length(w, at, arg, 1n);
      if (major === 3) {
        try {
          _utf8.decode(w.b.subarray(w.p, w.p + len));
        } catch {
          _fail('ERR_CBOR_INVALID_UTF8', w.p, 'a text string that is not valid UTF-8');
        }
      }
      w.p += len;
      return;
    }
    case 4: {
      _enter(at, depth);
      const n = _length(w, at, arg, 1n);
      for (let i = 0; i < n; i++) _item(w, depth + 1);
      return;
    }
    case 5: {
      _enter(at, depth);
      const n = _length(w, at, arg, 2n);
      let prev: Uint8Array | undefined;
      for (let i = 0; i < n; i++) {
        const ks = w.p;
        _item(w, depth + 1);
        const key = w.b.subarray(ks, w.p);
        if (prev !== undefined) {
          const c = _keyOrder(prev, key);
          // jcp §3: "length-first then bytewise key order" over the encoded keys, strictly rising
          if (c === 0) _fail('ERR_CBOR_DUPLICATE_KEY', ks, `map key #${i} repeats the key before it`);
          if (c > 0) _fail('ERR_CBOR_UNSORTED_KEYS', ks, `map key #${i} sorts before the key before it`);
        }
        prev = key;
        _item(w, depth + 1);
      }
      return;
    }
    default:
      // major type 6. jcp/3#open-tags-in-canonical-check, the reading passed-through: the tag number's head was held to
      // the shortest form above, and its content is held to every rule of jcp §3 as any item is
      _enter(at, depth);
      _item(w, depth + 1);
  }
}

/** jcp §3: "length-first then bytewise" — negative when encoded key `a` sorts before `b`, 0 when they are the same bytes. */
function _keyOrder(a: Uint8Array, b: Uint8Array): number {
  if (a.length !== b.length) return a.length - b.length;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return (a[i] as number) - (b[i] as number);
  return 0;
}
