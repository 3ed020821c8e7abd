// jcp §4.11 and §8.1: the durable decision record — an append-only file of canonical-CBOR entries, each carrying the
// chain hash of the entry before it, fsync'd and anchored before append() returns, opened under the exclusive claim of
// lock.ts (C26). The byte layout and what is detected, cut away or refused are in ./FORMAT.md (the spec leaves the
// record's format to the implementation); in short:
//   file   = MAGIC (8 bytes "JCPREC\0\x02") header-entry entry*
//   entry  = len (u32 BE) ‖ lencheck (blake3(len)[0..4]) ‖ prev (32) ‖ sum (32: blake3(len ‖ prev ‖ body)) ‖ body
//   prev   = the sum of the entry before (32 zero bytes for the header entry); an entry's sum is its chain hash
//   anchor = <record>.anchor: two 512-byte slots, each naming the record id, the entry count, the end offset and the
//            chain hash of the last acknowledged entry; written and fsync'd after the entry, before append() returns
// Only bytes past the anchored end can be a torn tail, and only when they are incomplete BY LENGTH (fewer than the 8
// length-header bytes, or fewer than the verified length header says) or were never written at all (all zero). A
// whole entry that fails its checksum or its chain, anything short of the anchored end, a missing or foreign anchor,
// and a file with no whole record header are refused (ERR_RECORD_CORRUPT, with the byte offset), never cut away.
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { bytesEqual, concatBytes, toHex } from '../bytes.ts';
import { decodeCanonical, encodeCanonical, type CborInput, type CborValue } from '../cbor/index.ts';
import { JcpError, isJcpError } from '../errors.ts';
import { blake3 } from '../hash/blake3.ts';
import { claimRecord, closeClaimed, writeHolder, type Exclusivity } from './lock.ts';

/** The 8 bytes every record file starts with: "JCPREC", 0, the format version. */
export const RECORD_MAGIC: Uint8Array = Uint8Array.of(0x4a, 0x43, 0x50, 0x52, 0x45, 0x43, 0x00, 0x02);
/** The format version this reader reads and writes. */
export const RECORD_FORMAT = 2;
/** The largest body one entry may hold. */
export const MAX_ENTRY_BYTES = 16 * 1024 * 1024;
/** The bytes an entry's frame adds to its body: len ‖ lencheck ‖ prev ‖ sum. */
export const ENTRY_OVERHEAD = 72;
/** The prev of the header entry: the start of the chain. */
export const CHAIN_START: Uint8Array = new Uint8Array(32);
/** The 8 bytes every anchor slot starts with. */
export const ANCHOR_MAGIC: Uint8Array = Uint8Array.of(0x4a, 0x43, 0x50, 0x41, 0x4e, 0x43, 0x00, 0x02);
/** Where the two anchor slots start in the anchor file, and its size. */
export const ANCHOR_SLOTS: readonly number[] = [0, 512];
export const ANCHOR_BYTES = 1024;
const LENHDR = 8; // len ‖ lencheck
const SLOT_BYTES = 88; // magic 8 ‖ record id 16 ‖ count u64 ‖ end u64 ‖ head 32 ‖ check 16
const HEADER_NAME = 'jcp durable decision record';
const V1_MAGIC = Uint8Array.of(0x4a, 0x43, 0x50, 0x52, 0x45, 0x43, 0x00, 0x01);

/** What the record header (the first entry) says: the record's id and the holder that created it. */
export interface RecordHeader {
  readonly id: Uint8Array;
  readonly createdBy: string;
}

/** A torn final entry found on open: where it starts, how many of its bytes are on disk, and why it is torn. */
export interface TornTail {
  readonly offset: number;
  readonly length: number;
  readonly why: string;
  /** The frame length its length header declares, where that header was written whole and verifies. */
  readonly declared?: number;
  /**
   * The top-level fields of the entry's body (a text-keyed map) whose encoding was written whole, in canonical order;
   * empty when none could be read (the body is cut before its first field, or the bytes were never written).
   */
  readonly fields: ReadonlyMap<string, CborValue>;
}

/** What a scan of a record's bytes found. */
export interface RecordScan {
  readonly header: RecordHeader;
  /** The decoded body of every whole, verified entry after the header, in order; an entry's id is its index. */
  readonly entries: readonly CborValue[];
  /** The byte offset where each entry starts. */
  readonly offsets: readonly number[];
  /** The chain hash (sum) of each entry. */
  readonly hashes: readonly Uint8Array[];
  /** The chain hash of the header entry. */
  readonly headerHash: Uint8Array;
  /** The chain hash of the last whole entry (the header's when there is none). */
  readonly head: Uint8Array;
  /** Where the header entry ends (the first entry starts). */
  readonly headerEnd: number;
  /** The length of the valid prefix (magic, header and whole entries). */
  readonly validLength: number;
  /** Present when the file ends in a torn entry. */
  readonly torn?: TornTail;
}

/** What an anchor slot says: the acknowledged extent of the record with id `recordId`. */
export interface Anchor {
  readonly recordId: Uint8Array;
  /** How many entries after the header were acknowledged. */
  readonly count: number;
  /** The byte offset where the last acknowledged entry ends. */
  readonly end: number;
  /** The chain hash of the last acknowledged entry (the header's when count is 0). */
  readonly head: Uint8Array;
}

function u32be(n: number): Uint8Array {
  return Uint8Array.of((n >>> 24) & 0xff, (n >>> 16) & 0xff, (n >>> 8) & 0xff, n & 0xff);
}

function lenCheck(len4: Uint8Array): Uint8Array {
  return blake3(len4).subarray(0, 4);
}

function chainSum(len4: Uint8Array, prev: Uint8Array, body: Uint8Array): Uint8Array {
  return blake3(concatBytes(len4, prev, body));
}

/**
 * The framed bytes of one entry whose body is the canonical CBOR of `body`, chained to the entry whose chain hash is
 * `prev`. Its chain hash is bytes 40…72 of the frame. Throws ERR_RECORD_IO when the body is too large.
 */
export function frameEntry(body: CborInput, prev: Uint8Array): Uint8Array {
  if (!(prev instanceof Uint8Array) || prev.length !== 32) throw new JcpError('ERR_BAD_ARGUMENT', 'an entry is chained to a 32-byte chain hash');
  const b = encodeCanonical(body);
  if (b.length > MAX_ENTRY_BYTES) throw new JcpError('ERR_RECORD_IO', `an entry of ${b.length} bytes exceeds the ${MAX_ENTRY_BYTES}-byte cap`);
  const len4 = u32be(b.length);
  const out = new Uint8Array(ENTRY_OVERHEAD + b.length);
  out.set(len4, 0);
  out.set(lenCheck(len4), 4);
  out.set(prev, 8);
  out.set(chainSum(len4, prev, b), 40);
  out.set(b, ENTRY_OVERHEAD);
  return out;
}

/** The chain hash of a framed entry. */
export function entryHash(frame: Uint8Array): Uint8Array {
  return frame.subarray(40, 72);
}

/** The magic and the header entry of a new record: the start of its chain. */
export function recordHead(header: RecordHeader): Uint8Array {
  if (!(header.id instanceof Uint8Array) || header.id.length !== 16) throw new JcpError('ERR_BAD_ARGUMENT', 'a record id is 16 bytes');
  return concatBytes(RECORD_MAGIC, frameEntry({ record: HEADER_NAME, format: BigInt(RECORD_FORMAT), id: header.id, created_by: header.createdBy }, CHAIN_START));
}

function allZero(b: Uint8Array): boolean {
  for (const x of b) if (x !== 0) return false;
  return true;
}

function corrupt(offset: number, why: string, extra: Record<string, unknown> = {}): JcpError {
  return new JcpError('ERR_RECORD_CORRUPT', `record corrupt at byte ${offset}: ${why}`, { offset, ...extra });
}

/** The end of the canonical CBOR item starting at `p`, or undefined when `b` ends inside it. */
function itemEnd(b: Uint8Array, p: number, depth = 0): number | undefined {
  if (p >= b.length || depth > 64) return undefined;
  const major = b[p]! >> 5;
  const info = b[p]! & 0x1f;
  let q = p + 1;
  let arg: number;
  if (info < 24) arg = info;
  else if (info <= 27) {
    const n = 1 << (info - 24);
    if (q + n > b.length) return undefined;
    arg = 0;
    for (let i = 0; i < n; i++) arg = arg * 256 + b[q + i]!;
    q += n;
  } else return undefined; // indefinite lengths are not canonical: unreadable
  if (major === 2 || major === 3) return q + arg <= b.length ? q + arg : undefined;
  if (major === 4 || major === 5) {
    for (let i = 0; i < arg * (major === 5 ? 2 : 1); i++) {
      const e = itemEnd(b, q, depth + 1);
      if (e === undefined) return undefined;
      q = e;
    }
    return q;
  }
  if (major === 6) return itemEnd(b, q, depth + 1);
  return q;
}

/** The fields of a text-keyed map whose key and value are both written whole in the prefix `body`, in order. */
function readableFields(body: Uint8Array): Map<string, CborValue> {
  const out = new Map<string, CborValue>();
  if (body.length === 0 || body[0]! >> 5 !== 5) return out;
  const info = body[0]! & 0x1f;
  if (info > 27) return out;
  const width = info < 24 ? 0 : 1 << (info - 24);
  let pairs = info;
  if (width > 0) for (let i = 0, x = 0; i < width; i++) pairs = x = x * 256 + (body[1 + i] ?? 0);
  let p = 1 + width; // past the map's own header
  for (let i = 0; i < pairs; i++) {
    const k = itemEnd(body, p);
    if (k === undefined) return out;
    const v = itemEnd(body, k);
    if (v === undefined) return out;
    try {
      const key = decodeCanonical(body.subarray(p, k));
      if (typeof key !== 'string') return out;
      out.set(key, decodeCanonical(body.subarray(k, v)));
    } catch {
      return out;
    }
    p = v;
  }
  return out;
}

function parseHeader(v: CborValue): RecordHeader | undefined {
  if (!(v instanceof Map) || v.size !== 4) return undefined;
  const id = v.get('id');
  const by = v.get('created_by');
  const format = v.get('format');
  if (v.get('record') !== HEADER_NAME || !(id instanceof Uint8Array) || id.length !== 16 || typeof by !== 'string') return undefined;
  if (format !== RECORD_FORMAT && format !== BigInt(RECORD_FORMAT)) return undefined;
  return { id, createdBy: by };
}

/**
 * Scans a record's bytes: the header, then every whole entry verified (checksum, chain, canonical CBOR) and decoded,
 * and a torn tail (incomplete by length, or never written) reported, not decoded. The anchor is not consulted here:
 * {@link checkAnchor} holds a scan to it. Throws ERR_RECORD_CORRUPT (detail: offset; headerless: true when the file
 * holds no whole record header) for anything that is not a torn tail.
 */
export function scanRecord(bytes: Uint8Array): RecordScan {
  const n = bytes.length;
  if (n < RECORD_MAGIC.length || !bytesEqual(bytes.subarray(0, RECORD_MAGIC.length), RECORD_MAGIC)) {
    if (bytesEqual(bytes, RECORD_MAGIC.subarray(0, Math.min(n, RECORD_MAGIC.length)))) {
      // a record cut below its magic (or to nothing) lost everything it held: never a fresh budget (FORMAT.md)
      throw corrupt(0, `the file holds ${n} byte(s) and no record header: a record that lost its content is not a fresh record`, { headerless: true });
    }
    if (n >= V1_MAGIC.length && bytesEqual(bytes.subarray(0, V1_MAGIC.length), V1_MAGIC)) throw corrupt(0, `a format-1 decision record; this reader reads format ${RECORD_FORMAT}`);
    throw corrupt(0, 'not a decision record (wrong magic)');
  }
  // the header entry
  const h = RECORD_MAGIC.length;
  const headerless = (why: string) => corrupt(h, `${why}: a record that lost its content is not a fresh record`, { headerless: true });
  if (n - h < LENHDR) throw headerless(`the record header is cut after ${n - h} of its length bytes`);
  const hlen4 = bytes.subarray(h, h + 4);
  if (!bytesEqual(lenCheck(hlen4), bytes.subarray(h + 4, h + 8))) {
    if (allZero(bytes.subarray(h))) throw headerless('the record header was never written (all zero)');
    throw corrupt(h, 'the record header fails its length check');
  }
  const hlen = new DataView(hlen4.buffer, hlen4.byteOffset, 4).getUint32(0, false);
  if (hlen > MAX_ENTRY_BYTES) throw corrupt(h, 'the record header claims more than the entry cap');
  const headerEnd = h + ENTRY_OVERHEAD + hlen;
  if (headerEnd > n) throw headerless(`the record header is cut after ${n - h} of its ${ENTRY_OVERHEAD + hlen} bytes`);
  const hbody = bytes.subarray(h + ENTRY_OVERHEAD, headerEnd);
  if (!bytesEqual(bytes.subarray(h + 8, h + 40), CHAIN_START) || !bytesEqual(chainSum(hlen4, CHAIN_START, hbody), bytes.subarray(h + 40, h + 72))) {
    throw corrupt(h, 'the record header fails its checksum');
  }
  let header: RecordHeader | undefined;
  try {
    header = parseHeader(decodeCanonical(hbody));
  } catch {
    header = undefined;
  }
  if (!header) throw corrupt(h, 'the record header verifies but is not a format-2 record header');
  const entries: CborValue[] = [];
  const offsets: number[] = [];
  const hashes: Uint8Array[] = [];
  const headerHash = bytes.slice(h + 40, h + 72);
  let prev: Uint8Array = headerHash;
  let p = headerEnd;
  const scan = (torn?: TornTail): RecordScan => ({ header: header!, entries, offsets, hashes, headerHash, head: prev, headerEnd, validLength: p, ...(torn ? { torn } : {}) });
  const tornAt = (why: string, declared?: number): RecordScan =>
    scan({ offset: p, length: n - p, why, ...(declared === undefined ? {} : { declared }), fields: readableFields(bytes.subarray(Math.min(n, p + ENTRY_OVERHEAD))) });
  while (p < n) {
    const rest = n - p;
    // a torn write by length: fewer bytes than the length header itself
    if (rest < LENHDR) return tornAt(`only ${rest} of the ${LENHDR} length-header bytes of the last entry were written`);
    const len4 = bytes.subarray(p, p + 4);
    if (!bytesEqual(lenCheck(len4), bytes.subarray(p + 4, p + 8))) {
      // an append the file system allocated but never wrote; checkAnchor refuses it short of the anchored end
      if (allZero(bytes.subarray(p))) return scan({ offset: p, length: rest, why: `the last ${rest} bytes were allocated but never written (all zero)`, fields: new Map() });
      throw corrupt(p, 'an entry header fails its length check');
    }
    const len = new DataView(len4.buffer, len4.byteOffset, 4).getUint32(0, false);
    if (len > MAX_ENTRY_BYTES) throw corrupt(p, `an entry claims ${len} bytes, over the ${MAX_ENTRY_BYTES}-byte cap`);
    const end = p + ENTRY_OVERHEAD + len;
    // a torn write by length: fewer bytes than the verified length header says
    if (end > n) return tornAt(`the last entry has ${rest} of the ${ENTRY_OVERHEAD + len} bytes its length header declares`, ENTRY_OVERHEAD + len);
    const body = bytes.subarray(p + ENTRY_OVERHEAD, end);
    const link = bytes.subarray(p + 8, p + 40);
    const sum = bytes.subarray(p + 40, p + 72);
    // whole by length: a failed checksum is damage, never a torn write, even in the last entry
    if (!bytesEqual(chainSum(len4, link, body), sum)) {
      throw corrupt(p, end === n ? 'the last entry is whole by length but fails its checksum (damaged, not torn)' : 'an entry fails its checksum');
    }
    if (!bytesEqual(link, prev)) throw corrupt(p, 'an entry does not follow the entry before it (its chain hash names another): an entry was removed, reordered or inserted');
    let v: CborValue;
    try {
      v = decodeCanonical(body);
    } catch (e) {
      throw corrupt(p, `an entry's checksum verifies but its body is not canonical CBOR (${isJcpError(e) ? e.code : String(e)})`);
    }
    entries.push(v);
    offsets.push(p);
    hashes.push(bytes.slice(p + 40, p + 72));
    prev = hashes[hashes.length - 1]!;
    p = end;
  }
  return scan();
}

/** The bytes of one anchor slot. */
export function encodeAnchorSlot(a: Anchor): Uint8Array {
  const out = new Uint8Array(SLOT_BYTES);
  const dv = new DataView(out.buffer);
  out.set(ANCHOR_MAGIC, 0);
  out.set(a.recordId, 8);
  dv.setBigUint64(24, BigInt(a.count), false);
  dv.setBigUint64(32, BigInt(a.end), false);
  out.set(a.head, 40);
  out.set(blake3(out.subarray(0, 72)).subarray(0, 16), 72);
  return out;
}

function decodeAnchorSlot(b: Uint8Array): Anchor | undefined {
  if (b.length < SLOT_BYTES || !bytesEqual(b.subarray(0, 8), ANCHOR_MAGIC)) return undefined;
  if (!bytesEqual(blake3(b.subarray(0, 72)).subarray(0, 16), b.subarray(72, 88))) return undefined;
  const dv = new DataView(b.buffer, b.byteOffset, SLOT_BYTES);
  const count = dv.getBigUint64(24, false);
  const end = dv.getBigUint64(32, false);
  if (count > BigInt(Number.MAX_SAFE_INTEGER) || end > BigInt(Number.MAX_SAFE_INTEGER)) return undefined;
  return { recordId: b.slice(8, 24), count: Number(count), end: Number(end), head: b.slice(40, 72) };
}

/** The anchor file's bytes with both slots holding `a`. */
export function encodeAnchor(a: Anchor): Uint8Array {
  const out = new Uint8Array(ANCHOR_BYTES);
  for (const at of ANCHOR_SLOTS) out.set(encodeAnchorSlot(a), at);
  return out;
}

/** What an anchor file's bytes say: each slot (undefined when damaged or never written) and the newest valid one. */
export function readAnchor(bytes: Uint8Array): { readonly slots: readonly (Anchor | undefined)[]; readonly best: Anchor | undefined } {
  const slots = ANCHOR_SLOTS.map((at) => decodeAnchorSlot(bytes.subarray(at, at + SLOT_BYTES)));
  let best: Anchor | undefined;
  for (const s of slots) if (s && (!best || s.count > best.count)) best = s;
  return { slots, best };
}

/** The anchor file of a record. */
export function anchorPath(recordPath: string): string {
  return `${recordPath}.anchor`;
}

/**
 * Holds a scan to its anchor: the anchor names this record, and the record holds every entry it acknowledged, the
 * last of them the one it names at the offset it names. Entries after the anchored end are never acknowledged (an
 * append is anchored before it returns), so only they may be torn. Throws ERR_RECORD_CORRUPT. `anchor` undefined: no
 * anchor file, which only a record with no entries may lack (it is written before the first entry is).
 */
export function checkAnchor(scan: RecordScan, anchor: { readonly best: Anchor | undefined } | undefined, file = 'the record'): void {
  const ap = anchorPath(file);
  if (!anchor) {
    if (scan.validLength > scan.headerEnd || scan.torn) {
      throw corrupt(scan.headerEnd, `the record holds bytes past its header but its anchor ${ap} is missing, so what was acknowledged cannot be checked (anchorRecord accepts the record as it stands, after inspection)`, { anchor: ap });
    }
    return;
  }
  const a = anchor.best;
  if (!a) throw corrupt(0, `both slots of the anchor ${ap} are damaged`, { anchor: ap });
  if (!bytesEqual(a.recordId, scan.header.id)) throw corrupt(0, `the anchor ${ap} belongs to record ${toHex(a.recordId)}, not to this record ${toHex(scan.header.id)}`, { anchor: ap });
  const have = scan.entries.length;
  if (have < a.count) {
    throw corrupt(scan.validLength, `the record holds ${have} whole entries but its anchor acknowledged ${a.count} (through byte ${a.end}): acknowledged entries are missing or damaged`, { anchor: ap, acknowledged: a.count, found: have });
  }
  const head = a.count === 0 ? scan.headerHash : scan.hashes[a.count - 1]!;
  const end = a.count === 0 ? scan.headerEnd : (scan.offsets[a.count] ?? scan.validLength);
  if (!bytesEqual(head, a.head) || end !== a.end) {
    const at = a.count === 0 ? RECORD_MAGIC.length : scan.offsets[a.count - 1]!;
    throw corrupt(at, `${a.count === 0 ? 'the header' : `entry #${a.count - 1}`} is not the one the anchor ${ap} acknowledged: the record was rewritten`, { anchor: ap });
  }
}

function readIfExists(file: string): Uint8Array | undefined {
  try {
    return new Uint8Array(fs.readFileSync(file));
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw e;
  }
}

/**
 * Reads and scans a record file and holds it to its anchor, without claiming it or changing it (audit, tests). Throws
 * ERR_RECORD_CORRUPT as opening it would; a torn tail is in the scan, not cut away.
 */
export function readRecordFile(file: string): RecordScan {
  try {
    const scan = scanRecord(new Uint8Array(fs.readFileSync(file)));
    const a = readIfExists(anchorPath(file));
    checkAnchor(scan, a ? readAnchor(a) : undefined, file);
    return scan;
  } catch (e) {
    throw named(e, file, 'reading it');
  }
}

/** The file operations a record performs on append; injectable so tests can make a write or an fsync fail. */
export interface RecordIo {
  /** Writes at `position` (null: at the descriptor's position; the record's descriptor appends). */
  writeSync(fd: number, b: Uint8Array, off: number, len: number, position: number | null): number;
  fsyncSync(fd: number): void;
}

const nodeIo: RecordIo = {
  writeSync: (fd, b, off, len, position) => fs.writeSync(fd, b, off, len, position),
  fsyncSync: (fd) => fs.fsyncSync(fd),
};

/** How to open a record. */
export interface OpenRecordOptions {
  readonly path: string;
  /** Who is opening it; written beside the record so a refused second opener can name it, and into a new record's header. */
  readonly holder: string;
  /**
   * Start a new record where the file holds no record header (it is empty, or cut below its header), or where the
   * record file is gone but its anchor is left. Without it such a file is refused (ERR_RECORD_CORRUPT): a record that
   * lost its content is not a fresh budget. A path where nothing exists is created as a new record either way.
   */
  readonly newRecord?: boolean;
  /** Called with a torn tail found on open, BEFORE it is truncated away. */
  readonly onTornTail?: (t: TornTail) => void;
  /** The exclusive claim (default: flock(2) through koffi). */
  readonly exclusivity?: Exclusivity;
  readonly io?: RecordIo;
  /** The id of a record this open creates (default 16 random bytes). */
  readonly recordId?: Uint8Array;
}

/** An open, exclusively held record. */
export interface DurableRecord {
  readonly path: string;
  readonly holder: string;
  readonly header: RecordHeader;
  /** The entries found on open, then each appended one, in order; an entry's id is its index here. */
  readonly entries: readonly CborValue[];
  /** The torn tail found (and, after reporting it, removed) on open, if any. */
  readonly tornTail: TornTail | undefined;
  /** Whether this open created the record. */
  readonly created: boolean;
  /**
   * Appends one entry, fsyncs it and anchors it before returning its id. On any failure the file is cut back to where
   * it was (and the anchor with it) and ERR_RECORD_IO is thrown: the entry is not in the record. If even the cut
   * fails, the record refuses every later append (reopening it reports or refuses what is left).
   */
  append(body: CborInput): number;
  /** Releases the claim. Later appends throw ERR_RECORD_CLOSED. */
  close(): void;
  readonly closed: boolean;
}

function readAll(fd: number): Uint8Array {
  const size = fs.fstatSync(fd).size;
  const out = new Uint8Array(size);
  let got = 0;
  while (got < size) {
    const n = fs.readSync(fd, out, got, size - got, got);
    if (n === 0) break;
    got += n;
  }
  return out.subarray(0, got);
}

function syncDir(file: string): void {
  try {
    const d = fs.openSync(path.dirname(path.resolve(file)), 'r');
    try {
      fs.fsyncSync(d);
    } finally {
      fs.closeSync(d);
    }
  } catch {
    // a platform that cannot fsync a directory still has the file's own fsync
  }
}

const ERRNO_WHY: Readonly<Record<string, string>> = {
  EISDIR: 'it is a directory, not a record file',
  ENOENT: 'a folder on its path does not exist',
  ENOTDIR: 'a component of its path is not a folder',
  EACCES: 'permission denied',
  EPERM: 'the operation is not permitted',
  EROFS: 'the file system is read-only',
  ENOSPC: 'no space left on the device',
  ELOOP: 'too many symbolic links on its path',
  ENAMETOOLONG: 'its path is too long',
};

function ioError(e: unknown, file: string, what: string): JcpError {
  const code = (e as NodeJS.ErrnoException | undefined)?.code;
  const why = (code && ERRNO_WHY[code]) ?? (e instanceof Error ? e.message : String(e));
  return new JcpError('ERR_RECORD_IO', `record ${file}: ${what} failed: ${why}${code && ERRNO_WHY[code] ? ` (${code})` : ''}`, { path: file, ...(code ? { errno: code } : {}) }, { cause: e });
}

function fileKind(st: fs.Stats): string {
  if (st.isDirectory()) return 'a directory';
  if (st.isCharacterDevice()) return 'a character device';
  if (st.isBlockDevice()) return 'a block device';
  if (st.isFIFO()) return 'a named pipe';
  if (st.isSocket()) return 'a socket';
  return 'not a regular file';
}

function writeFully(io: RecordIo, fd: number, b: Uint8Array, position: number | null): void {
  let off = 0;
  while (off < b.length) off += io.writeSync(fd, b, off, b.length - off, position === null ? null : position + off);
}

/** Writes a whole anchor file beside the record (a temporary file renamed over it), fsync'd with its folder. */
function writeAnchorFile(file: string, a: Anchor): void {
  const tmp = `${anchorPath(file)}.${process.pid}.tmp`;
  const fd = fs.openSync(tmp, 'w', 0o644);
  try {
    fs.writeSync(fd, encodeAnchor(a), 0, ANCHOR_BYTES, 0);
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
  fs.renameSync(tmp, anchorPath(file));
  syncDir(file);
}

/** Unlinks `file`, ignoring its absence. */
function unlinkQuiet(file: string): void {
  try {
    fs.unlinkSync(file);
  } catch {
    // absent already, or a temporary file another cleanup took
  }
}

/** Removes temporary files of record creations whose process is gone (a creation killed before it could clean up). */
function sweepCreations(file: string): void {
  const dir = path.dirname(path.resolve(file));
  const stem = `${path.basename(file)}.creating-`;
  let names: string[];
  try {
    names = fs.readdirSync(dir).filter((n) => n.startsWith(stem));
  } catch {
    return;
  }
  for (const n of names) {
    const pid = Number(n.slice(stem.length).split('-')[0]);
    if (!Number.isInteger(pid) || pid <= 0 || pid === process.pid) continue;
    try {
      process.kill(pid, 0);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'ESRCH') unlinkQuiet(path.join(dir, n));
    }
  }
}

const O_OPEN = fs.constants.O_RDWR | fs.constants.O_APPEND;

/**
 * Creates the record at `file` whole or not at all: magic and header are written and fsync'd to a temporary file that
 * is claimed first and then hard-linked into place (which fails if `file` appeared meanwhile: undefined, open it
 * instead), then the anchor is written. A crash leaves no record, or a record with its whole header.
 */
function createRecord(opts: OpenRecordOptions, id: Uint8Array): { fd: number; bytes: Uint8Array } | undefined {
  const file = opts.path;
  sweepCreations(file);
  const tmp = `${file}.creating-${process.pid}-${toHex(randomBytes(4))}`;
  const fd = fs.openSync(tmp, O_OPEN | fs.constants.O_CREAT | fs.constants.O_EXCL, 0o644);
  try {
    claimRecord(fd, file, opts.holder, opts.exclusivity, false);
    const bytes = recordHead({ id, createdBy: opts.holder });
    fs.writeSync(fd, bytes, 0, bytes.length, null);
    fs.fsyncSync(fd);
    try {
      fs.linkSync(tmp, file);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
      closeClaimed(fd, opts.exclusivity);
      unlinkQuiet(tmp);
      return undefined;
    }
    unlinkQuiet(tmp);
    syncDir(file);
    writeHolder(file, opts.holder);
    const scan = scanRecord(bytes);
    writeAnchorFile(file, { recordId: id, count: 0, end: scan.headerEnd, head: scan.head });
    return { fd, bytes };
  } catch (e) {
    try {
      closeClaimed(fd, opts.exclusivity);
    } catch {
      // closed already (the link race)
    }
    unlinkQuiet(tmp);
    throw e;
  }
}

/**
 * Opens the record at `path` under an exclusive claim, creating it when nothing exists there: ERR_RECORD_LOCKED naming
 * the holder when another writer holds it, ERR_RECORD_NO_EXCLUSIVITY when the platform cannot give exclusivity (jcp
 * §4.11; nothing is created then). Scans it and holds it to its anchor; a torn tail past the anchored end is reported
 * through `onTornTail` and `tornTail`, then truncated; corruption throws ERR_RECORD_CORRUPT; a path that cannot hold a
 * record (a directory, a device, a missing folder, no permission) throws ERR_RECORD_IO naming it. On a throw the claim
 * is released.
 */
export function openRecord(opts: OpenRecordOptions): DurableRecord {
  if (typeof opts.path !== 'string' || opts.path.length === 0 || opts.path.includes('\0')) throw new JcpError('ERR_BAD_ARGUMENT', 'a record needs a path (non-empty text without NUL)');
  if (typeof opts.holder !== 'string' || opts.holder.length === 0) throw new JcpError('ERR_BAD_ARGUMENT', 'a record needs a holder name');
  if (opts.recordId !== undefined && (!(opts.recordId instanceof Uint8Array) || opts.recordId.length !== 16)) throw new JcpError('ERR_BAD_ARGUMENT', 'a record id is 16 bytes');
  try {
    return openClaimed(opts);
  } catch (e) {
    throw named(e, opts.path, 'opening it');
  }
}

/** `e` as a typed error that names the record: corruption found by the (path-less) scan gets the path; an fs error becomes ERR_RECORD_IO. */
function named(e: unknown, file: string, what: string): JcpError {
  if (!isJcpError(e)) return ioError(e, file, what);
  if (e.code !== 'ERR_RECORD_CORRUPT' || e.message.includes(`record ${file}`)) return e;
  const why = e.message.slice(`${e.code}: `.length).replace(/^record /, '');
  return new JcpError(e.code, `record ${file}: ${why}`, { path: file, ...e.detail }, { cause: e });
}

function openClaimed(opts: OpenRecordOptions): DurableRecord {
  const file = opts.path;
  const io = opts.io ?? nodeIo;
  const id = opts.recordId ?? new Uint8Array(randomBytes(16));
  let fd: number | undefined;
  let bytes: Uint8Array | undefined;
  let created = false;
  for (let tries = 0; fd === undefined; tries++) {
    let st: fs.Stats | undefined;
    try {
      st = fs.statSync(file);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw ioError(e, file, 'looking it up');
      const dir = path.dirname(path.resolve(file));
      if (!fs.existsSync(dir)) throw new JcpError('ERR_RECORD_IO', `record ${file}: its folder ${dir} does not exist`, { path: file });
    }
    if (st && !st.isFile()) throw new JcpError('ERR_RECORD_IO', `record ${file}: it is ${fileKind(st)}, not a record file`, { path: file });
    if (!st) {
      const left = readIfExists(anchorPath(file));
      const anchored = left ? readAnchor(left).best : undefined;
      if (anchored && anchored.count > 0 && !opts.newRecord) {
        throw corrupt(0, `the record file is gone but its anchor ${anchorPath(file)} acknowledged ${anchored.count} entries: a lost record is not a fresh budget (newRecord starts one)`, { anchor: anchorPath(file) });
      }
      const made = createRecord(opts, id);
      if (made) {
        ({ fd, bytes } = made);
        created = true;
      } else if (tries > 3) throw new JcpError('ERR_RECORD_IO', `record ${file}: it keeps appearing and disappearing while being created`, { path: file });
      continue;
    }
    let f: number;
    try {
      f = fs.openSync(file, O_OPEN);
    } catch (e) {
      // removed between the look-up and the open: look again
      if ((e as NodeJS.ErrnoException).code === 'ENOENT' && tries < 3) continue;
      throw e;
    }
    try {
      claimRecord(f, file, opts.holder, opts.exclusivity);
      const fst = fs.fstatSync(f);
      if (!fst.isFile()) throw new JcpError('ERR_RECORD_IO', `record ${file}: it is ${fileKind(fst)}, not a record file`, { path: file });
      bytes = readAll(f);
    } catch (e) {
      closeClaimed(f, opts.exclusivity);
      throw e;
    }
    fd = f;
  }
  let scan: RecordScan;
  let anchorFd: number;
  try {
    let anchorBytes = readIfExists(anchorPath(file));
    try {
      scan = scanRecord(bytes!);
    } catch (e) {
      if (!(opts.newRecord && isJcpError(e, 'ERR_RECORD_CORRUPT') && (e.detail as { headerless?: boolean } | undefined)?.headerless)) throw e;
      // newRecord over a file with no record header: started over in place, its stale anchor removed first
      unlinkQuiet(anchorPath(file));
      syncDir(file);
      fs.ftruncateSync(fd, 0);
      const head = recordHead({ id, createdBy: opts.holder });
      fs.writeSync(fd, head, 0, head.length, null);
      fs.fsyncSync(fd);
      scan = scanRecord(head);
      writeAnchorFile(file, { recordId: id, count: 0, end: scan.headerEnd, head: scan.head });
      anchorBytes = readIfExists(anchorPath(file));
      created = true;
    }
    const anchor = anchorBytes ? readAnchor(anchorBytes) : undefined;
    checkAnchor(scan, anchor, file);
    if (scan.torn) {
      // reported first, then removed: a torn entry is never taken for a decision, and it was never acknowledged
      opts.onTornTail?.(scan.torn);
      fs.ftruncateSync(fd, scan.validLength);
      fs.fsyncSync(fd);
    }
    const state: Anchor = { recordId: scan.header.id, count: scan.entries.length, end: scan.validLength, head: scan.head };
    // entries past the anchor (appended, then a crash before the anchor) are whole and chained: anchored now
    if (!anchor || !anchor.slots.every((s) => s && s.count === state.count)) writeAnchorFile(file, state);
    anchorFd = fs.openSync(anchorPath(file), 'r+');
  } catch (e) {
    closeClaimed(fd, opts.exclusivity);
    throw e;
  }
  const entries: CborValue[] = [...scan.entries];
  let size = scan.validLength;
  let head = scan.head;
  let closed = false;
  let poisoned: string | undefined;

  /** Writes `a` into the anchor slot of entry count `slotOf` (count n goes to slot n mod 2), then fsyncs it. */
  function anchorSlot(a: Anchor, slotOf: number, via: RecordIo): void {
    writeFully(via, anchorFd, encodeAnchorSlot(a), ANCHOR_SLOTS[slotOf % 2]!);
    via.fsyncSync(anchorFd);
  }

  return {
    path: file,
    holder: opts.holder,
    header: scan.header,
    entries,
    tornTail: scan.torn,
    created,
    get closed() {
      return closed;
    },
    append(body: CborInput): number {
      if (closed) throw new JcpError('ERR_RECORD_CLOSED', `record ${file} is closed`);
      if (poisoned) throw new JcpError('ERR_RECORD_IO', `record ${file} refuses appends until it is reopened: ${poisoned}`);
      const framed = frameEntry(body, head);
      const decoded = decodeCanonical(framed.subarray(ENTRY_OVERHEAD));
      const next: Anchor = { recordId: scan.header.id, count: entries.length + 1, end: size + framed.length, head: entryHash(framed).slice() };
      try {
        writeFully(io, fd, framed, null);
        io.fsyncSync(fd);
        anchorSlot(next, next.count, io);
      } catch (e) {
        try {
          fs.ftruncateSync(fd, size);
          fs.fsyncSync(fd);
          // the slot the failed anchor write used held the state before the last; it now holds the current one
          anchorSlot({ recordId: scan.header.id, count: entries.length, end: size, head }, next.count, nodeIo);
        } catch (e2) {
          poisoned = `a failed append could not be cut back (${String(e2)})`;
        }
        throw new JcpError('ERR_RECORD_IO', `appending to ${file} failed; the entry is not recorded (${String(e)})`, { path: file }, { cause: e });
      }
      size = next.end;
      head = next.head;
      entries.push(decoded);
      return entries.length - 1;
    },
    close(): void {
      if (closed) return;
      closed = true;
      fs.closeSync(anchorFd);
      closeClaimed(fd, opts.exclusivity);
    },
  };
}

/**
 * Operator recovery: anchors the record at `file` as it stands now (after inspecting a record refused for a missing,
 * foreign or damaged anchor, or one moved without its anchor), under the record's claim. Whatever the record lost
 * before this is accepted as lost; a torn tail is cut away (reported through `onTornTail`). Throws as openRecord does
 * for a record that does not scan.
 */
export function anchorRecord(file: string, holder: string, opts: { exclusivity?: Exclusivity; onTornTail?: (t: TornTail) => void } = {}): Anchor {
  try {
    const fd = fs.openSync(file, O_OPEN);
    try {
      claimRecord(fd, file, holder, opts.exclusivity);
      const scan = scanRecord(readAll(fd));
      if (scan.torn) {
        opts.onTornTail?.(scan.torn);
        fs.ftruncateSync(fd, scan.validLength);
        fs.fsyncSync(fd);
      }
      const a: Anchor = { recordId: scan.header.id, count: scan.entries.length, end: scan.validLength, head: scan.head };
      writeAnchorFile(file, a);
      return a;
    } finally {
      closeClaimed(fd, opts.exclusivity);
    }
  } catch (e) {
    throw named(e, file, 'anchoring it');
  }
}
