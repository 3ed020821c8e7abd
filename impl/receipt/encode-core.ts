// jcp §3 and §8: the canonical det-CBOR of a receipt core, written directly for speed (a decision seals one each).
// It must equal the generic encoder's bytes exactly; impl/receipt/encode-core.test.ts checks that over random cores.
import { encodeCanonical } from '../cbor/index.ts';
import { coreToCbor, type ReceiptCore } from './core.ts';

// jcp §3: "length-first then bytewise key order": the fields in that order, written out rather than sorted at load
// through the generic encoder (impl/receipt/encode-core.test.ts holds every core's bytes to the generic encoder's, so
// a field out of order fails there)
const FIELDS = [
  'trust', 'action', 'issuer', 'cost_uj', 'steward', 'subject', 'verdict', 'grant_id', 'resource', 'budget_uj', 'chain_ids',
  'frame_kind', 'deny_reason', 'jcp_receipt', 'payload_hash', 'energy_coverage', 'energy_provenance', 'budget_remaining_uj',
] as const;
type Field = (typeof FIELDS)[number];
const NAMES: readonly Field[] = FIELDS;
// each key's det-CBOR: a text head of one byte (major type 3; every name is shorter than 24 bytes), then its ASCII
const KEYS: readonly Uint8Array[] = NAMES.map((name) => Uint8Array.from([0x60 + name.length, ...Array.from(name, (c) => c.charCodeAt(0))]));

const U64_MAX = (1n << 64n) - 1n;

// One reused output array; every result handed to a caller is copied out of it (or is a view the caller was told is
// overwritten by the next call). A plain Uint8Array, written byte by byte: for the short strings of a core a loop is
// cheaper than a native UTF-8 write.
// The array is in two halves: cores are written in [0, half); [half, 2·half) keeps the previous core's body (below),
// so its runs are copied in with copyWithin, without a view per copy.
let half = 2048;
let buf = new Uint8Array(2 * half);
let view = new DataView(buf.buffer);
let pos = 0;
/** The previous core's body (its bytes after the map head) is buf[half, half + prevLen); none when prevLen is -1. */
let prevLen = -1;

function ensure(n: number): void {
  if (pos + n <= half) return;
  const nextHalf = Math.max(half * 2, pos + n);
  const next = new Uint8Array(2 * nextHalf);
  next.set(buf.subarray(0, pos));
  if (prevLen > 0) next.set(buf.subarray(half, half + prevLen), nextHalf);
  half = nextHalf;
  buf = next;
  view = new DataView(buf.buffer);
}

function head(major: number, n: number): void {
  ensure(9);
  const m = major << 5;
  if (n < 24) buf[pos++] = m | n;
  else if (n < 0x100) {
    buf[pos++] = m | 24;
    buf[pos++] = n;
  } else if (n < 0x10000) {
    buf[pos++] = m | 25;
    buf[pos++] = n >> 8;
    buf[pos++] = n & 0xff;
  } else {
    buf[pos++] = m | 26;
    buf[pos++] = (n >>> 24) & 0xff;
    buf[pos++] = (n >>> 16) & 0xff;
    buf[pos++] = (n >>> 8) & 0xff;
    buf[pos++] = n & 0xff;
  }
}

function uint(n: bigint): void {
  if (n < 0x100000000n) return head(0, Number(n));
  ensure(9);
  buf[pos++] = 27;
  view.setBigUint64(pos, n); // big-endian, the caller having checked n ≤ 2^64 − 1
  pos += 8;
}

// Encoded text of the long strings a point seals again and again (DIDs, content ids), keyed by the string itself:
// a map hit and one block copy cost less than writing 56–64 characters one by one.
const TEXT_CACHE_MAX = 4096;
const textCache = new Map<string, Uint8Array>();

/**
 * Writes `s` as a canonical text string when it is ASCII (UTF-8 length = string length); returns false, the buffer
 * then holding junk past `pos` that the caller discards, when it is not.
 */
function ascii(s: string): boolean {
  if (s.length < 40) return asciiUncached(s);
  const hit = textCache.get(s);
  if (hit !== undefined) {
    ensure(hit.length);
    buf.set(hit, pos);
    pos += hit.length;
    return true;
  }
  const at = pos;
  if (!asciiUncached(s)) return false;
  if (textCache.size >= TEXT_CACHE_MAX) textCache.clear();
  textCache.set(s, buf.slice(at, pos));
  return true;
}

function asciiUncached(s: string): boolean {
  const n = s.length;
  head(3, n);
  ensure(n);
  const b = buf;
  const at = pos;
  for (let i = 0; i < n; i++) {
    const ch = s.charCodeAt(i);
    if (ch > 0x7f) return false;
    b[at + i] = ch;
  }
  pos = at + n;
  return true;
}

/** Copies a (short) encoded key in. */
function key(k: Uint8Array): void {
  const n = k.length;
  ensure(n);
  const b = buf;
  const at = pos;
  for (let i = 0; i < n; i++) b[at + i] = k[i]!;
  pos = at + n;
}

/**
 * The canonical bytes of a receipt core: the same bytes as `encodeCanonical(coreToCbor(core))`, written without the
 * generic encoder's sorting. Falls back to the generic encoder for anything unusual (non-ASCII text, out-of-range
 * integers), so its refusals are the generic encoder's.
 */
export function encodeReceiptCore(core: ReceiptCore): Uint8Array {
  const v = writeReceiptCore(core);
  // a copy into an array of its own: the scratch array is overwritten by the next core
  return v.buffer === buf.buffer ? v.slice() : v;
}

/**
 * Like {@link encodeReceiptCore}, but returns a view into an internal buffer that the next call overwrites: for a
 * caller that copies the bytes out before encoding another core (sealing does).
 */
export function writeReceiptCore(core: ReceiptCore): Uint8Array {
  const w = writeReceiptCoreAt(core, 0);
  return w.bytes.subarray(w.at, w.end);
}

/** Where {@link writeReceiptCoreAt} left a core: `bytes[at, end)`. */
export interface WrittenCore {
  readonly bytes: Uint8Array;
  readonly at: number;
  readonly end: number;
  /** bytes[end, limit) are free for the caller's use too (until the next call). */
  readonly limit: number;
}

/**
 * Writes the canonical core at offset `headroom` of the internal array and returns it with that array: the caller may
 * fill `bytes[0, at)` (e.g. with a COSE Sig_structure's prefix, so the signed bytes need no copy) and must be done
 * with all of it before the next call; bytes[end, limit), at least `tailroom` of them, are free for its use as well.
 * When the core takes the generic encoder's path, `bytes` is a fresh array of its own with `at` 0, and nothing lies
 * before or after it.
 */
export function writeReceiptCoreAt(core: ReceiptCore, headroom: number, tailroom = 0): WrittenCore {
  pos = 0;
  ensure(headroom + 1);
  pos = headroom + 1; // the map head, one byte: a core has at most 18 fields (< 24), so it is patched in at the end
  // The fields in NAMES' order (UNROLLED, checked at load), each read by name: a keyed read per field costs more than the rest of the
  // field's encoding. A field that is absent adds 0 to the count, one written adds 1, one the writer cannot take -1.
  const c = core;
  body = headroom + 1;
  runFrom = -1;
  let n = 0;
  let r: number;
  if ((r = put(0, c.trust)) < 0) return generic(core);
  n += r;
  if ((r = put(1, c.action)) < 0) return generic(core);
  n += r;
  if ((r = put(2, c.issuer)) < 0) return generic(core);
  n += r;
  if ((r = put(3, c.cost_uj)) < 0) return generic(core);
  n += r;
  if ((r = put(4, c.steward)) < 0) return generic(core);
  n += r;
  if ((r = put(5, c.subject)) < 0) return generic(core);
  n += r;
  if ((r = put(6, c.verdict)) < 0) return generic(core);
  n += r;
  if ((r = put(7, c.grant_id)) < 0) return generic(core);
  n += r;
  if ((r = put(8, c.resource)) < 0) return generic(core);
  n += r;
  if ((r = put(9, c.budget_uj)) < 0) return generic(core);
  n += r;
  if ((r = put(10, c.chain_ids)) < 0) return generic(core);
  n += r;
  if ((r = put(11, c.frame_kind)) < 0) return generic(core);
  n += r;
  if ((r = put(12, c.deny_reason)) < 0) return generic(core);
  n += r;
  if ((r = put(13, c.jcp_receipt)) < 0) return generic(core);
  n += r;
  if ((r = put(14, c.payload_hash)) < 0) return generic(core);
  n += r;
  if ((r = put(15, c.energy_coverage)) < 0) return generic(core);
  n += r;
  if ((r = put(16, c.energy_provenance)) < 0) return generic(core);
  n += r;
  if ((r = put(17, c.budget_remaining_uj)) < 0) return generic(core);
  n += r;
  if (runFrom >= 0) flush();
  buf[headroom] = 0xa0 | n; // major type 5 (map), n pairs
  remember();
  ensure(tailroom);
  return { bytes: buf, at: headroom, end: pos, limit: half };
}

// ---- Reuse of the previous core's bytes ----------------------------------------------------------------------------
// A point seals the same issuer, subject, steward, resource, action, … decision after decision. Each field whose value
// equals the previous core's (===: text and integers by value) has the same canonical bytes, so runs of such fields
// are copied from the previous core's encoding in one block. Arrays (chain_ids) are never reused: they could have been
// changed in place since; nor is payload_hash, which is written afresh like every call's own arguments. Anything else takes the field-by-field path below, so the bytes are the same either way.

/** Field i of the previous body spans buf[half + prevAt[i], half + prevAt[i + 1]) (absent fields span nothing). */
let prevAt = new Int32Array(NAMES.length + 1);
let nextAt = new Int32Array(NAMES.length + 1);
/**
 * The previous core's values per field, and the current one's as it is written; NOT_REUSED for an array and for a
 * field never taken from an earlier core (payload_hash: see UNCACHED below).
 */
let prevVal: unknown[] = NAMES.map(() => undefined);
let nextVal: unknown[] = NAMES.map(() => undefined);
const NOT_REUSED = Symbol('not reused');
/** Where the current body starts in `buf`, and the pending run of the previous body to copy (runFrom -1: none). */
let body = 0;
let runFrom = -1;
let runTo = -1;

/**
 * Field i with value v: taken from the previous body when equal, else written. 0 absent, 1 present, -1 generic only
 * (the previous body then stays what it was: only a body written to its end is remembered).
 */
function put(i: number, v: unknown): number {
  if (prevLen >= 0 && v === prevVal[i]) {
    if (runFrom < 0) runFrom = prevAt[i]!;
    runTo = prevAt[i + 1]!;
    nextAt[i] = pos - body + (prevAt[i]! - runFrom);
    nextVal[i] = v;
    return v === undefined ? 0 : 1;
  }
  if (runFrom >= 0) flush();
  nextAt[i] = pos - body;
  nextVal[i] = typeof v === 'object' || !REUSABLE[i] ? NOT_REUSED : v;
  return field(i, v);
}

/** Copies the pending run of the previous body in at `pos`. */
function flush(): void {
  const n = runTo - runFrom;
  ensure(n);
  buf.copyWithin(pos, half + runFrom, half + runTo);
  pos += n;
  runFrom = -1;
}

/** Keeps the body just written as the previous one. */
function remember(): void {
  const n = pos - body;
  nextAt[NAMES.length] = n;
  buf.copyWithin(half, body, pos); // pos ≤ half, so the body fits the other half
  prevLen = n;
  const at = prevAt;
  prevAt = nextAt;
  nextAt = at;
  const val = prevVal;
  prevVal = nextVal;
  nextVal = val;
}

// The order the unrolled reads above follow; a mismatch with NAMES (the canonical order) is a programming error.
const UNROLLED: readonly Field[] = [
  'trust', 'action', 'issuer', 'cost_uj', 'steward', 'subject', 'verdict', 'grant_id', 'resource', 'budget_uj', 'chain_ids',
  'frame_kind', 'deny_reason', 'jcp_receipt', 'payload_hash', 'energy_coverage', 'energy_provenance', 'budget_remaining_uj',
];
if (UNROLLED.join() !== NAMES.join()) throw new Error(`encode-core: unrolled field order ${UNROLLED.join()} is not the canonical ${NAMES.join()}`);

// The encoded key ‖ value of the text fields that repeat from one decision to the next (dids, ids, the frame's kind,
// the verdict, …), per field and keyed by the value: one map hit and one copy per field. payload_hash is written
// afresh each time: it names each call's own arguments, so a cache of it would only flatter a benchmark.
const PAIR_CACHE_MAX = 1024;
const UNCACHED: ReadonlySet<Field> = new Set<Field>(['payload_hash']);
const pairs: ReadonlyArray<Map<string, Uint8Array> | undefined> = NAMES.map((name) => (UNCACHED.has(name) ? undefined : new Map()));
/** Per field: may its bytes be taken from the previous core (put)? Not for UNCACHED fields, for the same reason. */
const REUSABLE: readonly boolean[] = NAMES.map((name) => !UNCACHED.has(name));

/** Copies `b` in at `pos`. */
function copy(b: Uint8Array): void {
  const n = b.length;
  ensure(n);
  if (n > 24) buf.set(b, pos);
  else for (let i = 0; i < n; i++) buf[pos + i] = b[i]!;
  pos += n;
}

/** Writes field `i` of NAMES with value `v`: 0 when absent, 1 when written, -1 when only the generic encoder can. */
function field(i: number, v: unknown): number {
  if (v === undefined) return 0;
  if (typeof v === 'string') {
    const cache = pairs[i];
    if (cache === undefined) {
      key(KEYS[i]!);
      return asciiUncached(v) ? 1 : -1;
    }
    const hit = cache.get(v);
    if (hit !== undefined) {
      copy(hit);
      return 1;
    }
    const at = pos;
    key(KEYS[i]!);
    if (!asciiUncached(v)) return -1;
    if (cache.size >= PAIR_CACHE_MAX) cache.clear();
    cache.set(v, buf.slice(at, pos));
    return 1;
  }
  key(KEYS[i]!);
  if (typeof v === 'bigint') {
    if (v < 0n || v > U64_MAX) return -1;
    uint(v);
    return 1;
  }
  if (Array.isArray(v)) {
    head(4, v.length);
    for (const x of v) if (typeof x !== 'string' || !ascii(x)) return -1;
    return 1;
  }
  return -1;
}

/** The generic encoder's bytes of `core` (or its refusal), for what the direct writer does not handle. */
function generic(core: ReceiptCore): WrittenCore {
  const bytes = encodeCanonical(coreToCbor(core));
  return { bytes, at: 0, end: bytes.length, limit: bytes.length };
}
