// jcp §3, §11: the strict det-CBOR decoder — "MUST reject a non-canonical body", so every byte string has one reading.
import { JcpError, type JcpErrorCode } from '../errors.ts';
import { _compareKeyRanges } from './key-order.ts';
import { _depthOption, _optionsObject } from './limits.ts';
import { cborTag, type CborMap, type CborValue } from './value.ts';

/** Options of {@link decodeCanonical}. */
export interface DecodeOptions {
  /** Tag numbers accepted (major type 6), e.g. `[18]` for a COSE_Sign1 envelope; their contents obey the same rules. Default none. */
  readonly allowTags?: readonly number[];
  /** Arrays, maps and tags nested deeper than this are `ERR_CBOR_TOO_DEEP` (default 64, at most 1000). */
  readonly maxDepth?: number;
  /** Input longer than this many bytes is `ERR_CBOR_TOO_LARGE` before any of it is read. Default: no cap. */
  readonly maxBytes?: number;
}

/**
 * The one det-CBOR data item that is all of `bytes`, refusing every encoding that is not the canonical one (jcp §3, §11).
 *
 * Throws only {@link JcpError}; its code names the fault and its message the byte offset (also `detail.offset`):
 * `ERR_CBOR_TRUNCATED` (input ends inside an item, or is empty; a declared length beyond the input is this too, and is
 * never allocated), `ERR_CBOR_TRAILING_BYTES`, `ERR_CBOR_NOT_SHORTEST` (an argument, length or tag number with a longer
 * head than it needs), `ERR_CBOR_INDEFINITE_LENGTH` (additional info 31, the lone break byte 0xff included),
 * `ERR_CBOR_UNSORTED_KEYS` and `ERR_CBOR_DUPLICATE_KEY` (keys must rise strictly in length-first-then-bytewise order of
 * their encodings), `ERR_CBOR_FLOAT`, `ERR_CBOR_SIMPLE_VALUE` (false, true, null, undefined and every other simple value),
 * `ERR_CBOR_TAG` (a tag not in `allowTags`), `ERR_CBOR_INVALID_UTF8`, `ERR_CBOR_RESERVED_ADDITIONAL_INFO` (28 … 30),
 * `ERR_CBOR_TOO_DEEP`, `ERR_CBOR_TOO_LARGE`; and `ERR_BAD_ARGUMENT` when `bytes` is not a Uint8Array or an option is malformed.
 *
 * Integers come back as `number` when safe and `bigint` beyond, so `map.get('grant_id')` and `map.get(1)` find text and
 * integer keys. Byte strings are fresh copies, never views of `bytes`. A UTF-8 byte order mark is text like any other.
 * Map keys of any type are accepted as the encoder writes them; see {@link CborMap} on looking up non-primitive keys.
 */
export function decodeCanonical(bytes: Uint8Array, opts?: DecodeOptions): CborValue {
  if (!(bytes instanceof Uint8Array)) {
    throw new JcpError('ERR_BAD_ARGUMENT', 'det-CBOR input must be a Uint8Array', { what: 'bytes' });
  }
  const o = _optionsObject(opts);
  const maxDepth = _depthOption(o.maxDepth);
  const tags = _tagsOption(o.allowTags);
  if (o.maxBytes !== undefined) {
    const max = o.maxBytes;
    if (typeof max !== 'number' || !Number.isSafeInteger(max) || max < 0) {
      throw new JcpError('ERR_BAD_ARGUMENT', `maxBytes must be a non-negative safe integer, got ${String(max)}`, { what: 'maxBytes' });
    }
    // jcp §11: "A receiver MUST reject a message longer than its declared cap"
    if (bytes.length > max) {
      throw new JcpError('ERR_CBOR_TOO_LARGE', `input of ${bytes.length} bytes exceeds maxBytes ${max}`, {
        offset: 0,
        length: bytes.length,
        maxBytes: max,
      });
    }
  }
  // a view of shared memory could change while it is read: read a snapshot
  const b = bytes.buffer instanceof ArrayBuffer ? bytes : bytes.slice();
  const d: _Dec = { b, p: 0, maxDepth, tags };
  let v: CborValue;
  try {
    v = _item(d, 0);
  } catch (x) {
    // recursion is bounded by maxDepth; a caller already deep in its own stack could still overflow it
    if (x instanceof RangeError) throw _err('ERR_CBOR_TOO_DEEP', d.p, 'the JS stack ran out while decoding', x);
    throw x;
  }
  // jcp §11: "a message has exactly one wire form" — one item, nothing after it
  if (d.p !== b.length) _fail('ERR_CBOR_TRAILING_BYTES', d.p, `${b.length - d.p} byte(s) after the one top-level item`);
  return v;
}

function _tagsOption(t: unknown): readonly number[] | undefined {
  if (t === undefined) return undefined;
  if (!Array.isArray(t) || !t.every((x) => typeof x === 'number' && Number.isSafeInteger(x) && x >= 0)) {
    throw new JcpError('ERR_BAD_ARGUMENT', 'allowTags must be an array of non-negative safe integers', { what: 'allowTags' });
  }
  return t.slice() as number[];
}

interface _Dec {
  readonly b: Uint8Array;
  p: number;
  readonly maxDepth: number;
  readonly tags: readonly number[] | undefined;
}

function _err(code: JcpErrorCode, offset: number, what: string, cause?: unknown): JcpError {
  return new JcpError(code, `at byte ${offset}: ${what}`, { offset }, cause === undefined ? undefined : { cause });
}

function _fail(code: JcpErrorCode, offset: number, what: string): never {
  throw _err(code, offset, what);
}

const _MAJOR_NAMES = ['unsigned integer', 'negative integer', 'byte string', 'text string', 'array', 'map', 'tag', 'simple/float'];
/** A major type's name after its indefinite article, for messages ("an array", "a map"). */
const _aMajor = (major: number, name = _MAJOR_NAMES[major] ?? ''): string => `${/^[aeiou]/.test(name) ? 'an' : 'a'} ${name}`;
const _SIMPLE_NAMES: Readonly<Record<number, string>> = { 20: 'false', 21: 'true', 22: 'null', 23: 'undefined' };
/** A JS Map holds at most 2^24 entries; a bigger one is refused as too large rather than crashing. */
const _MAP_MAX = 1 << 24;
/** V8's longest string, in UTF-16 code units; UTF-8 is never shorter, so a text string longer in bytes is refused. */
const _TEXT_MAX = 0x1fffffe8;

function _need(d: _Dec, at: number, n: number, what: string): void {
  if (d.b.length - at < n) _fail('ERR_CBOR_TRUNCATED', at, `input ends inside ${what}`);
}

function _item(d: _Dec, depth: number): CborValue {
  const b = d.b;
  const start = d.p;
  if (start >= b.length) _fail('ERR_CBOR_TRUNCATED', start, 'input ends where a data item was expected');
  const ib = b[start] as number;
  const major = ib >> 5;
  const ai = ib & 31;
  if (major === 7) _major7(start, ai);
  // the argument, in its shortest form
  let arg: number | bigint;
  let p = start + 1;
  if (ai < 24) {
    arg = ai;
  } else if (ai === 24) {
    _need(d, p, 1, `the 1-byte argument of ${_aMajor(major)}`);
    arg = b[p] as number;
    p += 1;
    // jcp §3: "shortest integer form"
    if (arg < 24) _fail('ERR_CBOR_NOT_SHORTEST', start, `${arg} in a 1-byte argument (${_MAJOR_NAMES[major]}); it fits the initial byte`);
  } else if (ai === 25) {
    _need(d, p, 2, `the 2-byte argument of ${_aMajor(major)}`);
    arg = ((b[p] as number) << 8) | (b[p + 1] as number);
    p += 2;
    // jcp §3: "shortest integer form"
    if (arg < 0x100) _fail('ERR_CBOR_NOT_SHORTEST', start, `${arg} in a 2-byte argument (${_MAJOR_NAMES[major]}); it fits 1 byte`);
  } else if (ai === 26) {
    _need(d, p, 4, `the 4-byte argument of ${_aMajor(major)}`);
    arg = _u32(b, p);
    p += 4;
    // jcp §3: "shortest integer form"
    if (arg < 0x10000) _fail('ERR_CBOR_NOT_SHORTEST', start, `${arg} in a 4-byte argument (${_MAJOR_NAMES[major]}); it fits 2 bytes`);
  } else if (ai === 27) {
    _need(d, p, 8, `the 8-byte argument of ${_aMajor(major)}`);
    const hi = _u32(b, p);
    const lo = _u32(b, p + 4);
    p += 8;
    // jcp §3: "shortest integer form"
    if (hi === 0) _fail('ERR_CBOR_NOT_SHORTEST', start, `${lo} in an 8-byte argument (${_MAJOR_NAMES[major]}); it fits 4 bytes`);
    arg = hi < 0x200000 ? hi * 0x100000000 + lo : (BigInt(hi) << 32n) | BigInt(lo);
  } else if (ai === 31) {
    // RFC 8949 §4.2.1: "Indefinite-length items MUST NOT appear"
    _fail('ERR_CBOR_INDEFINITE_LENGTH', start, `indefinite length (additional info 31) in ${_aMajor(major)}`);
  } else {
    // RFC 8949 §3: additional information 28 … 30 is reserved, not well-formed
    _fail('ERR_CBOR_RESERVED_ADDITIONAL_INFO', start, `reserved additional information ${ai} in ${_aMajor(major)}`);
  }
  d.p = p;
  switch (major) {
    case 0:
      return arg;
    case 1:
      // −1 − arg stays a safe integer only up to arg = 2^53 − 2
      return typeof arg === 'number' && arg < Number.MAX_SAFE_INTEGER ? -1 - arg : -1n - BigInt(arg);
    case 2: {
      const len = _length(d, start, arg, 1, major);
      d.p = p + len;
      return b.slice(p, p + len);
    }
    case 3: {
      const len = _length(d, start, arg, 1, major);
      if (len > _TEXT_MAX) _fail('ERR_CBOR_TOO_LARGE', start, `a text string of ${len} bytes is longer than a JS string can be`);
      d.p = p + len;
      return _utf8(b, p, len);
    }
    case 4: {
      _enter(d, start, depth);
      const n = _length(d, start, arg, 1, major);
      const out: CborValue[] = [];
      for (let i = 0; i < n; i++) out.push(_item(d, depth + 1));
      return out;
    }
    case 5:
      _enter(d, start, depth);
      return _map(d, start, _length(d, start, arg, 2, major), depth + 1);
    default: {
      // major 6
      // jcp §3: a signed core carries no tags; an envelope names the few it allows (COSE_Sign1 is tag 18)
      if (typeof arg !== 'number' || d.tags === undefined || !d.tags.includes(arg)) {
        _fail('ERR_CBOR_TAG', start, `tag ${arg} is not allowed here`);
      }
      _enter(d, start, depth);
      return cborTag(arg, _item(d, depth + 1));
    }
  }
}

function _u32(b: Uint8Array, p: number): number {
  return (b[p] as number) * 0x1000000 + (((b[p + 1] as number) << 16) | ((b[p + 2] as number) << 8) | (b[p + 3] as number));
}

/** Major type 7 is never accepted: it holds only floats and simple values (and the break code). */
function _major7(at: number, ai: number): never {
  // jcp §3: "no floats, bools, or nulls in a signed core"
  if (ai >= 25 && ai <= 27) _fail('ERR_CBOR_FLOAT', at, `a ${ai === 25 ? 'half' : ai === 26 ? 'single' : 'double'}-precision float`);
  if (ai === 31) _fail('ERR_CBOR_INDEFINITE_LENGTH', at, 'a break code (0xff) outside any indefinite-length item');
  if (ai >= 28) _fail('ERR_CBOR_RESERVED_ADDITIONAL_INFO', at, `reserved additional information ${ai} in major type 7`);
  // jcp §3: "no floats, bools, or nulls in a signed core"
  _fail('ERR_CBOR_SIMPLE_VALUE', at, `simple value ${_SIMPLE_NAMES[ai] ?? (ai === 24 ? '(1-byte simple value)' : String(ai))}`);
}

/** Checks the nesting depth before a container is entered. */
function _enter(d: _Dec, at: number, depth: number): void {
  if (depth >= d.maxDepth) _fail('ERR_CBOR_TOO_DEEP', at, `nesting deeper than maxDepth ${d.maxDepth}`);
}

/**
 * A declared length checked against what is left: every item takes at least `perItem` bytes, so a length the input
 * cannot hold is truncation, found before anything is allocated.
 */
function _length(d: _Dec, at: number, arg: number | bigint, perItem: number, major: number): number {
  const left = d.b.length - d.p;
  if (typeof arg === 'bigint' || arg * perItem > left) {
    _fail('ERR_CBOR_TRUNCATED', at, `${_aMajor(major)} of declared length ${arg} but only ${left} byte(s) remain`);
  }
  return arg;
}

function _map(d: _Dec, at: number, n: number, depth: number): CborMap {
  if (n > _MAP_MAX) _fail('ERR_CBOR_TOO_LARGE', at, `a map of ${n} entries is more than a JS Map holds`);
  const out: CborMap = new Map();
  const b = d.b;
  let prevStart = 0;
  let prevEnd = 0;
  for (let i = 0; i < n; i++) {
    const ks = d.p;
    const k = _item(d, depth);
    const ke = d.p;
    if (i > 0) {
      const c = _compareKeyRanges(b, prevStart, prevEnd, b, ks, ke);
      // jcp §3: "length-first then bytewise key order", strictly rising
      if (c === 0) _fail('ERR_CBOR_DUPLICATE_KEY', ks, `map key #${i} repeats the key before it`);
      if (c > 0) _fail('ERR_CBOR_UNSORTED_KEYS', ks, `map key #${i} sorts before the key before it (length-first, then bytewise)`);
    }
    prevStart = ks;
    prevEnd = ke;
    out.set(k, _item(d, depth));
  }
  return out;
}

const _decoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/** Text from UTF-8, refusing malformed sequences (overlongs, surrogates, truncation) rather than replacing them. */
function _utf8(b: Uint8Array, p: number, len: number): string {
  if (len <= 24) {
    let s = '';
    let i = 0;
    for (; i < len; i++) {
      const c = b[p + i] as number;
      if (c >= 0x80) break;
      s += String.fromCharCode(c);
    }
    if (i === len) return s;
  }
  try {
    return _decoder.decode(b.subarray(p, p + len));
  } catch (x) {
    // RFC 8949 §3.1: a text string is valid UTF-8 (RFC 3629)
    throw _err('ERR_CBOR_INVALID_UTF8', p, `a text string of ${len} bytes that is not valid UTF-8`, x);
  }
}
