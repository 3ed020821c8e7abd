// jcp §3: the canonical det-CBOR encoder (RFC 8949 §4.2.1 as §3 states it: length-first key order, shortest forms).
import { JcpError, type JcpErrorCode } from '../errors.ts';
import { _compareKeyRanges } from './key-order.ts';
import { _depthOption, _optionsObject } from './limits.ts';
import { isCborTagged, type CborInput } from './value.ts';

/** Options of {@link encodeCanonical}. */
export interface EncodeOptions {
  /** Encode {@link CborTagged} values (major type 6), e.g. the COSE envelope's tag 18. Default false: a tag is `ERR_CBOR_TAG`. */
  readonly allowTags?: boolean;
  /** Arrays, maps and tags nested deeper than this are `ERR_CBOR_TOO_DEEP` (default 64, as the decoder). */
  readonly maxDepth?: number;
}

/**
 * The canonical det-CBOR bytes of `value` (jcp §3): integers, byte strings, text, arrays and maps with definite lengths
 * in their shortest form, map keys in length-first-then-bytewise order of their encodings.
 *
 * Accepts a `Map` (any keys) or a plain object (text keys) for a map; a plain-object property whose value is `undefined`
 * is omitted. Everything else — floats, NaN, ±Infinity, booleans, `null`, `undefined` elsewhere, functions, symbols,
 * class instances such as `Date`, lone surrogates in text, integers outside −2^64 … 2^64−1, cycles — is
 * `ERR_CBOR_UNENCODABLE`, with the path of the offending value (e.g. `$.capability.actions[2]`) in the message and in
 * `detail.path`. Two keys of one map with the same encoding (a `Map` holding `1` and `1n`) are `ERR_CBOR_DUPLICATE_KEY`.
 * `-0` encodes as 0. The result is a fresh array the caller owns.
 */
export function encodeCanonical(value: CborInput, opts?: EncodeOptions): Uint8Array {
  const o = _optionsObject(opts);
  const maxDepth = _depthOption(o.maxDepth);
  const reuse = !_busy;
  const e: _Enc = { buf: reuse ? _shared : new Uint8Array(256), pos: 0, allowTags: o.allowTags === true, maxDepth };
  if (reuse) _busy = true;
  try {
    _item(e, value, 0);
    return e.buf.slice(0, e.pos);
  } catch (x) {
    throw x instanceof _Fault ? _toJcpError(x) : x;
  } finally {
    if (reuse) {
      _busy = false;
      if (e.buf.length <= _KEEP_AT_MOST) _shared = e.buf;
    }
  }
}

// ---- the writer: one growable buffer, reused across calls (a getter that encodes re-entrantly gets its own) ----

interface _Enc {
  buf: Uint8Array;
  pos: number;
  readonly allowTags: boolean;
  readonly maxDepth: number;
}

const _KEEP_AT_MOST = 1 << 16;
let _shared: Uint8Array = new Uint8Array(1024);
let _busy = false;

function _ensure(e: _Enc, n: number): void {
  if (e.pos + n > e.buf.length) {
    const nb = new Uint8Array(Math.max(e.buf.length * 2, e.pos + n));
    nb.set(e.buf.subarray(0, e.pos));
    e.buf = nb;
  }
}

/** Size of the head (initial byte plus argument) that encodes `arg` in the shortest form. */
function _headSize(arg: number): number {
  return arg < 24 ? 1 : arg < 0x100 ? 2 : arg < 0x10000 ? 3 : arg < 0x100000000 ? 5 : 9;
}

/**
 * Writes the head of `major` with argument `arg` (0 ≤ arg ≤ 2^53−1) in its shortest form. It makes room for this head
 * only: a head written back into room reserved before a body (a plain object's count, long text's length) must not grow
 * the buffer, since growing keeps only the bytes before the write position and the body after it would be lost.
 */
function _head(e: _Enc, major: number, arg: number): void {
  _ensure(e, _headSize(arg));
  const b = e.buf;
  let p = e.pos;
  const mt = major << 5;
  // jcp §3: "shortest integer form" (RFC 8949 §4.2.1: arguments, lengths and tags alike)
  if (arg < 24) {
    b[p++] = mt | arg;
  } else if (arg < 0x100) {
    b[p++] = mt | 24;
    b[p++] = arg;
  } else if (arg < 0x10000) {
    b[p++] = mt | 25;
    b[p++] = arg >>> 8;
    b[p++] = arg & 0xff;
  } else if (arg < 0x100000000) {
    b[p++] = mt | 26;
    b[p++] = arg >>> 24;
    b[p++] = (arg >>> 16) & 0xff;
    b[p++] = (arg >>> 8) & 0xff;
    b[p++] = arg & 0xff;
  } else {
    e.pos = p;
    _head64(e, major, Math.floor(arg / 0x100000000), arg >>> 0);
    return;
  }
  e.pos = p;
}

/** Writes a head with the 8-byte argument `hi·2^32 + lo`. */
function _head64(e: _Enc, major: number, hi: number, lo: number): void {
  _ensure(e, 9);
  const b = e.buf;
  const p = e.pos;
  b[p] = (major << 5) | 27;
  b[p + 1] = hi >>> 24;
  b[p + 2] = (hi >>> 16) & 0xff;
  b[p + 3] = (hi >>> 8) & 0xff;
  b[p + 4] = hi & 0xff;
  b[p + 5] = lo >>> 24;
  b[p + 6] = (lo >>> 16) & 0xff;
  b[p + 7] = (lo >>> 8) & 0xff;
  b[p + 8] = lo & 0xff;
  e.pos = p + 9;
}

// ---- faults carry the path outward; each container adds its segment on the way out ----

class _Fault {
  readonly segs: string[] = [];
  cyclic = false;
  constructor(
    readonly code: JcpErrorCode,
    readonly what: string,
    readonly obj?: object,
  ) {}
}

function _toJcpError(f: _Fault): JcpError {
  const path = '$' + f.segs.reverse().join('');
  if (f.cyclic) {
    return new JcpError('ERR_CBOR_UNENCODABLE', `a cyclic reference at ${path} has no encoding`, { path });
  }
  return new JcpError(f.code, `${f.what} at ${path}`, { path });
}

function _annotate(x: unknown, seg: string, container: object): unknown {
  if (x instanceof _Fault) {
    x.segs.push(seg);
    if (x.obj === container) x.cyclic = true;
  }
  return x;
}

const _IDENT = /^[A-Za-z_$][\w$]*$/;

function _textSeg(k: string): string {
  return _IDENT.test(k) ? `.${k}` : `[${JSON.stringify(k)}]`;
}

function _keyRepr(k: unknown, i: number): string {
  if (typeof k === 'string') return JSON.stringify(k);
  if (typeof k === 'number' || typeof k === 'bigint') return String(k);
  return `<key #${i}>`;
}

function _keySeg(k: unknown, i: number): string {
  return typeof k === 'string' ? _textSeg(k) : `[${_keyRepr(k, i)}]`;
}

function _describe(v: unknown): string {
  if (v === null) return 'null';
  if (typeof v === 'object') return Object.prototype.toString.call(v).slice(8, -1);
  return typeof v;
}

// ---- items ----

function _item(e: _Enc, v: unknown, depth: number): void {
  switch (typeof v) {
    case 'string':
      _text(e, v);
      return;
    case 'number':
      // jcp §3: "no floats" — an integer is a safe integer; fractions, NaN and ±Infinity have no encoding here
      if (!Number.isSafeInteger(v)) {
        throw new _Fault('ERR_CBOR_UNENCODABLE', `${String(v)} is not a safe integer (no floats; use a bigint beyond 2^53)`);
      }
      if (v >= 0) _head(e, 0, v);
      else _head(e, 1, -1 - v);
      return;
    case 'bigint':
      _bigint(e, v);
      return;
    case 'object':
      if (v === null) throw new _Fault('ERR_CBOR_UNENCODABLE', 'null (no nulls in a signed core)');
      if (v instanceof Uint8Array) {
        _head(e, 2, v.length);
        _ensure(e, v.length);
        e.buf.set(v, e.pos);
        e.pos += v.length;
        return;
      }
      return _container(e, v, depth);
    case 'boolean':
      // jcp §3: "no floats, bools, or nulls in a signed core"
      throw new _Fault('ERR_CBOR_UNENCODABLE', `${String(v)} (no bools in a signed core)`);
    case 'undefined':
      throw new _Fault('ERR_CBOR_UNENCODABLE', 'undefined (only a plain-object property may be undefined, and is then omitted)');
    default:
      throw new _Fault('ERR_CBOR_UNENCODABLE', `a ${typeof v} has no det-CBOR encoding`);
  }
}

const _MIN_SAFE = BigInt(Number.MIN_SAFE_INTEGER);
const _MAX_SAFE = BigInt(Number.MAX_SAFE_INTEGER);
const _U64_MAX = (1n << 64n) - 1n;
const _U32_MASK = 0xffffffffn;

function _bigint(e: _Enc, v: bigint): void {
  if (v >= _MIN_SAFE && v <= _MAX_SAFE) {
    const n = Number(v);
    if (n >= 0) _head(e, 0, n);
    else _head(e, 1, -1 - n);
    return;
  }
  const neg = v < 0n;
  const arg = neg ? -1n - v : v;
  // RFC 8949 §3.1: major types 0 and 1 carry −2^64 … 2^64−1; anything wider would need a bignum tag
  if (arg > _U64_MAX) throw new _Fault('ERR_CBOR_UNENCODABLE', `${v} is outside −2^64 … 2^64−1`);
  _head64(e, neg ? 1 : 0, Number(arg >> 32n), Number(arg & _U32_MASK));
}

/** Text as UTF-8 (major 3); a lone surrogate has no UTF-8 form and is refused rather than replaced. */
function _text(e: _Enc, s: string): void {
  const n = s.length;
  if (n <= _SHORT_TEXT) {
    // most text is short ASCII: write it in one pass, and start over only if a character is not ASCII
    _ensure(e, n + 2);
    const b = e.buf;
    const at = e.pos;
    let p = at;
    // jcp §3: "shortest integer form" — the length in the initial byte below 24, else in one byte (n < 256 here)
    if (n < 24) b[p++] = 0x60 | n;
    else {
      b[p++] = 0x78;
      b[p++] = n;
    }
    for (let i = 0; i < n; i++) {
      const c = s.charCodeAt(i);
      if (c >= 0x80) {
        e.pos = at;
        return _textShort(e, s);
      }
      b[p++] = c;
    }
    e.pos = p;
    return;
  }
  // long text: TextEncoder writes it, after a native check for what it would silently replace
  if (_LONE_SURROGATE.test(s)) throw _loneSurrogate(s);
  const at = e.pos;
  const most = 3 * n;
  const guess = _headSize(most);
  _ensure(e, guess + most);
  const written = _encoder.encodeInto(s, e.buf.subarray(at + guess, at + guess + most)).written;
  const size = _headSize(written);
  if (size < guess) e.buf.copyWithin(at + size, at + guess, at + guess + written);
  _head(e, 3, written);
  e.pos = at + size + written;
}

/** The short non-ASCII case of {@link _text}: measure (refusing lone surrogates), then write. */
function _textShort(e: _Enc, s: string): void {
  const n = s.length;
  const len = _utf8Length(s);
  if (len < 0) throw _loneSurrogate(s);
  _head(e, 3, len);
  _ensure(e, len);
  const b = e.buf;
  let p = e.pos;
  for (let i = 0; i < n; i++) {
    let c = s.charCodeAt(i);
    if (c < 0x80) b[p++] = c;
    else if (c < 0x800) {
      b[p++] = 0xc0 | (c >> 6);
      b[p++] = 0x80 | (c & 0x3f);
    } else if (c >= 0xd800 && c <= 0xdbff) {
      c = 0x10000 + ((c - 0xd800) << 10) + (s.charCodeAt(++i) - 0xdc00);
      b[p++] = 0xf0 | (c >> 18);
      b[p++] = 0x80 | ((c >> 12) & 0x3f);
      b[p++] = 0x80 | ((c >> 6) & 0x3f);
      b[p++] = 0x80 | (c & 0x3f);
    } else {
      b[p++] = 0xe0 | (c >> 12);
      b[p++] = 0x80 | ((c >> 6) & 0x3f);
      b[p++] = 0x80 | (c & 0x3f);
    }
  }
  e.pos = p;
}

/** Length of `s` in UTF-8, or −1 when it holds a lone surrogate (no UTF-8 form). */
function _utf8Length(s: string): number {
  const n = s.length;
  let len = n;
  for (let i = 0; i < n; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x80) continue;
    if (c < 0x800) len += 1;
    else if (c >= 0xd800 && c <= 0xdbff) {
      const d = s.charCodeAt(i + 1);
      if (!(d >= 0xdc00 && d <= 0xdfff)) return -1;
      len += 2; // 4 bytes for 2 code units
      i++;
    } else if (c >= 0xdc00 && c <= 0xdfff) return -1;
    else len += 2;
  }
  return len;
}

const _SHORT_TEXT = 96;
/** In a `u` regular expression a surrogate pair is one code point, so this matches lone surrogates only. */
const _LONE_SURROGATE = /[\uD800-\uDFFF]/u;
const _encoder = new TextEncoder();

function _loneSurrogate(s: string): _Fault {
  const i = s.search(_LONE_SURROGATE);
  return new _Fault('ERR_CBOR_UNENCODABLE', `text with a lone surrogate at UTF-16 index ${i} (not valid Unicode, no UTF-8 form)`);
}

function _container(e: _Enc, v: object, depth: number): void {
  if (depth >= e.maxDepth) {
    throw new _Fault('ERR_CBOR_TOO_DEEP', `nesting deeper than maxDepth ${e.maxDepth}`, v);
  }
  if (Array.isArray(v)) return _array(e, v, depth + 1);
  if (v instanceof Map) return _map(e, v as ReadonlyMap<unknown, unknown>, depth + 1);
  if (isCborTagged(v)) {
    // jcp §3: "no … tags" in a signed core unless the caller encodes an envelope (COSE tag 18) on purpose
    if (!e.allowTags) throw new _Fault('ERR_CBOR_TAG', `tag ${v.tag} (tags are encoded only with allowTags)`);
    _head(e, 6, v.tag);
    try {
      _item(e, v.value, depth + 1);
    } catch (x) {
      throw _annotate(x, `<tag ${v.tag}>`, v);
    }
    return;
  }
  const proto = Object.getPrototypeOf(v) as unknown;
  if (proto !== Object.prototype && proto !== null) {
    throw new _Fault('ERR_CBOR_UNENCODABLE', `a ${_describe(v)} has no det-CBOR encoding (only plain objects and Maps are maps)`);
  }
  _object(e, v as Record<string, unknown>, depth + 1);
}

function _array(e: _Enc, a: readonly unknown[], depth: number): void {
  const n = a.length;
  _head(e, 4, n);
  let i = 0;
  try {
    for (; i < n; i++) _item(e, a[i], depth);
  } catch (x) {
    throw _annotate(x, `[${i}]`, a);
  }
}

function _object(e: _Enc, o: Record<string, unknown>, depth: number): void {
  if (Object.getOwnPropertySymbols(o).length > 0) {
    throw new _Fault('ERR_CBOR_UNENCODABLE', 'an object with symbol keys (map keys of a plain object are text)');
  }
  const keys = Object.keys(o);
  // jcp §3: "length-first then bytewise key order" — for text keys, UTF-8 length first, then UTF-8 bytes
  _sortTextKeys(keys);
  // the count is known only once undefined properties are skipped: reserve the widest head it could need
  const headAt = e.pos;
  const reserved = _headSize(keys.length);
  _ensure(e, reserved);
  e.pos += reserved;
  const bodyAt = e.pos;
  let n = 0;
  let k = '';
  try {
    for (k of keys) {
      // each property is read once: a getter runs once and what it returned is what is encoded
      const val = o[k];
      // jcp §4: "an absent OPTIONAL field is omitted from the canonical encoding entirely"
      if (val === undefined) continue;
      _text(e, k);
      _item(e, val, depth);
      n++;
    }
  } catch (x) {
    throw _annotate(x, _textSeg(k), o);
  }
  // distinct JS strings have distinct UTF-8 (lone surrogates are refused), so a plain object has no duplicate key
  const size = _headSize(n);
  if (size < reserved) {
    e.buf.copyWithin(headAt + size, bodyAt, e.pos);
    e.pos -= reserved - size;
  }
  const end = e.pos;
  e.pos = headAt;
  _head(e, 5, n);
  e.pos = end;
}

/**
 * Sorts text keys into the order of their encodings: shorter UTF-8 first, then by UTF-8 bytes, which is code point
 * order. Already-sorted keys (the usual case) cost one pass; small sets are insertion-sorted in place.
 */
function _sortTextKeys(keys: string[]): void {
  const n = keys.length;
  if (n < 2) return;
  if (n <= _CACHE_KEYS_AT_MOST) {
    const hit = _cachedOrder(keys);
    if (hit !== undefined) {
      for (let i = 0; i < n; i++) keys[i] = hit[i]!;
      return;
    }
  }
  const lens: number[] = new Array<number>(n);
  let sorted = true;
  for (let i = 0; i < n; i++) {
    const k = keys[i]!;
    lens[i] = _utf8Length(k);
    if (sorted && i > 0 && _compareText(keys[i - 1]!, lens[i - 1]!, k, lens[i]!) > 0) sorted = false;
  }
  if (sorted) return;
  const input = n <= _CACHE_KEYS_AT_MOST ? keys.slice() : undefined;
  if (n > 32) {
    const idx = Array.from({ length: n }, (_, i) => i);
    idx.sort((i, j) => _compareText(keys[i]!, lens[i]!, keys[j]!, lens[j]!));
    const copy = keys.slice();
    for (let i = 0; i < n; i++) keys[i] = copy[idx[i]!]!;
  } else {
    _insertionSort(keys, lens);
  }
  if (input !== undefined) _remember(input, keys.slice());
}

function _insertionSort(keys: string[], lens: number[]): void {
  const n = keys.length;
  for (let i = 1; i < n; i++) {
    const k = keys[i]!;
    const l = lens[i]!;
    let j = i - 1;
    while (j >= 0 && _compareText(keys[j]!, lens[j]!, k, l) > 0) {
      keys[j + 1] = keys[j]!;
      lens[j + 1] = lens[j]!;
      j--;
    }
    keys[j + 1] = k;
    lens[j + 1] = l;
  }
}

// Objects of one shape (a receipt core, a grant) come back again and again with their keys in the same unsorted order.
// A few recent (input order → sorted order) pairs spare re-sorting them; a hit needs every key identical, in place.
const _CACHE_KEYS_AT_MOST = 64;
const _CACHE_SIZE = 16;
const _orderCache: { readonly input: readonly string[]; readonly sorted: readonly string[] }[] = [];
let _orderNext = 0;

function _cachedOrder(keys: readonly string[]): readonly string[] | undefined {
  const n = keys.length;
  search: for (const c of _orderCache) {
    if (c.input.length !== n) continue;
    for (let i = 0; i < n; i++) if (c.input[i] !== keys[i]) continue search;
    return c.sorted;
  }
  return undefined;
}

function _remember(input: readonly string[], sorted: readonly string[]): void {
  _orderCache[_orderNext] = { input, sorted };
  _orderNext = (_orderNext + 1) % _CACHE_SIZE;
}

/** The order of two text keys' encodings given their UTF-8 lengths (a lone surrogate, length −1, is refused later). */
function _compareText(a: string, la: number, b: string, lb: number): number {
  if (la !== lb) return la - lb;
  // UTF-16 order is code point order except where a surrogate meets U+E000 … U+FFFF
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    let x = a.charCodeAt(i);
    let y = b.charCodeAt(i);
    if (x !== y) {
      if (x >= 0xd800 && y >= 0xd800) {
        x = x >= 0xe000 ? x - 0x800 : x + 0x2000;
        y = y >= 0xe000 ? y - 0x800 : y + 0x2000;
      }
      return x - y;
    }
  }
  return a.length - b.length;
}

function _map(e: _Enc, m: ReadonlyMap<unknown, unknown>, depth: number): void {
  _head(e, 5, m.size);
  const bodyAt = e.pos;
  const offs: number[] = [];
  const keys: unknown[] = [];
  let n = 0;
  let sorted = true;
  let seg = '';
  try {
    for (const [k, val] of m) {
      seg = `[<key #${n}>]`;
      const ks = e.pos;
      _item(e, k, depth);
      const ke = e.pos;
      if (n > 0) {
        const c = _compareKeyRanges(e.buf, offs[2 * n - 2]!, offs[2 * n - 1]!, e.buf, ks, ke);
        // jcp §3: keys are unique — a map has one entry per encoded key
        if (c === 0) {
          seg = '';
          throw new _Fault('ERR_CBOR_DUPLICATE_KEY', `duplicate map key ${_keyRepr(k, n)}`);
        }
        if (c > 0) sorted = false;
      }
      offs.push(ks, ke);
      keys.push(k);
      seg = _keySeg(k, n);
      n++;
      _item(e, val, depth);
    }
  } catch (x) {
    throw _annotate(x, seg, m);
  }
  if (!sorted) _sortEntries(e, bodyAt, offs, n, (i) => _keyRepr(keys[i], i));
}

/**
 * Reorders the `n` entries written from `bodyAt` (key i spans offs[2i] … offs[2i+1], its value runs to the next key)
 * into length-first-then-bytewise order of their encoded keys; equal neighbours are duplicate keys.
 */
function _sortEntries(e: _Enc, bodyAt: number, offs: readonly number[], n: number, repr: (i: number) => string): void {
  const end = e.pos;
  const b = e.buf;
  const idx = Array.from({ length: n }, (_, i) => i);
  // jcp §3: "length-first then bytewise key order"
  idx.sort((i, j) => _compareKeyRanges(b, offs[2 * i]!, offs[2 * i + 1]!, b, offs[2 * j]!, offs[2 * j + 1]!));
  for (let r = 1; r < n; r++) {
    const i = idx[r - 1]!;
    const j = idx[r]!;
    if (_compareKeyRanges(b, offs[2 * i]!, offs[2 * i + 1]!, b, offs[2 * j]!, offs[2 * j + 1]!) === 0) {
      throw new _Fault('ERR_CBOR_DUPLICATE_KEY', `duplicate map key ${repr(j)}`);
    }
  }
  const body = b.slice(bodyAt, end);
  let p = bodyAt;
  for (const i of idx) {
    const from = offs[2 * i]! - bodyAt;
    const to = (i + 1 < n ? offs[2 * i + 2]! : end) - bodyAt;
    b.set(body.subarray(from, to), p);
    p += to - from;
  }
}
