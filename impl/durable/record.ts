// jcp §4.11 and §8.1: the durable decision record — an append-only file of canonical-CBOR entries, each framed with its
// length and checksums and fsync'd before append() returns, opened under the exclusive claim of lock.ts (C26).
//
// Byte layout (fixed here once; the spec leaves the record's format to the implementation):
//   file   = MAGIC (8 bytes "JCPREC\0\x01") entry*
//   entry  = len (u32 big-endian) ‖ lencheck (4 bytes: blake3(len)[0..4]) ‖ sum (32 bytes: blake3(body)) ‖ body
//   body   = canonical det-CBOR (jcp §3), at most MAX_ENTRY_BYTES
// A crash mid-append leaves a strict prefix of one entry, or (on a file system that allocates before it writes) a
// zero-filled or garbled final entry. Reading taken: the bytes after the last whole, verified entry are a TORN TAIL when
//   - fewer than the 8 header bytes remain, or
//   - the header's lencheck fails and every remaining byte is zero (allocated, never written), or
//   - the header verifies but the body runs past the end of the file, or
//   - the body's checksum fails and the entry ends exactly at the end of the file (the last entry).
// A torn tail is reported (never decoded, never accepted as a decision) and only then truncated away. Anything else
// that fails — a lencheck that fails over non-zero bytes, a checksum failure with bytes after it, a verified body that
// is not canonical CBOR, a wrong magic — is corruption before the last entry: ERR_RECORD_CORRUPT, never skipped.
import fs from 'node:fs';
import path from 'node:path';
import { bytesEqual } from '../bytes.ts';
import { decodeCanonical, encodeCanonical, type CborInput, type CborValue } from '../cbor/index.ts';
import { JcpError, isJcpError } from '../errors.ts';
import { blake3 } from '../hash/blake3.ts';
import { claimRecord, type Exclusivity } from './lock.ts';

/** The 8 bytes every record file starts with. */
export const RECORD_MAGIC: Uint8Array = Uint8Array.of(0x4a, 0x43, 0x50, 0x52, 0x45, 0x43, 0x00, 0x01);
/** The largest body one entry may hold. */
export const MAX_ENTRY_BYTES = 16 * 1024 * 1024;
const HEADER = 8; // len ‖ lencheck
const SUM = 32;

/** A torn final entry found on open: where it starts, how many bytes it has, and why it is not an entry. */
export interface TornTail {
  readonly offset: number;
  readonly length: number;
  readonly why: string;
}

/** What a scan of a record's bytes found. */
export interface RecordScan {
  /** The decoded body of every whole, verified entry, in order. */
  readonly entries: readonly CborValue[];
  /** The byte offset where each entry starts. */
  readonly offsets: readonly number[];
  /** The length of the valid prefix (magic and whole entries). */
  readonly validLength: number;
  /** Present when the file ends in a torn entry (or a torn magic). */
  readonly torn?: TornTail;
}

function u32be(n: number): Uint8Array {
  return Uint8Array.of((n >>> 24) & 0xff, (n >>> 16) & 0xff, (n >>> 8) & 0xff, n & 0xff);
}

function lenCheck(len4: Uint8Array): Uint8Array {
  return blake3(len4).subarray(0, 4);
}

/** The framed bytes of one entry whose body is the canonical CBOR of `body`. Throws ERR_RECORD_IO when it is too large. */
export function frameEntry(body: CborInput): Uint8Array {
  const b = encodeCanonical(body);
  if (b.length > MAX_ENTRY_BYTES) throw new JcpError('ERR_RECORD_IO', `an entry of ${b.length} bytes exceeds the ${MAX_ENTRY_BYTES}-byte cap`);
  const len4 = u32be(b.length);
  const out = new Uint8Array(HEADER + SUM + b.length);
  out.set(len4, 0);
  out.set(lenCheck(len4), 4);
  out.set(blake3(b), HEADER);
  out.set(b, HEADER + SUM);
  return out;
}

function allZero(b: Uint8Array): boolean {
  for (const x of b) if (x !== 0) return false;
  return true;
}

function corrupt(offset: number, why: string): JcpError {
  return new JcpError('ERR_RECORD_CORRUPT', `record corrupt at byte ${offset}: ${why}`, { offset });
}

/**
 * Scans a record's bytes: every whole entry verified and decoded, and a torn tail (see the file header) reported, not
 * decoded. An empty input is an empty record. Throws ERR_RECORD_CORRUPT for anything that is not a torn tail.
 */
export function scanRecord(bytes: Uint8Array): RecordScan {
  if (bytes.length < RECORD_MAGIC.length) {
    if (!bytesEqual(bytes, RECORD_MAGIC.subarray(0, bytes.length))) throw corrupt(0, 'not a decision record (wrong magic)');
    const torn = bytes.length === 0 ? undefined : { offset: 0, length: bytes.length, why: 'the file header is incomplete' };
    return { entries: [], offsets: [], validLength: 0, ...(torn ? { torn } : {}) };
  }
  if (!bytesEqual(bytes.subarray(0, RECORD_MAGIC.length), RECORD_MAGIC)) throw corrupt(0, 'not a decision record (wrong magic)');
  const entries: CborValue[] = [];
  const offsets: number[] = [];
  let p = RECORD_MAGIC.length;
  const tornAt = (why: string): RecordScan => ({ entries, offsets, validLength: p, torn: { offset: p, length: bytes.length - p, why } });
  while (p < bytes.length) {
    const rest = bytes.length - p;
    if (rest < HEADER) return tornAt(`only ${rest} of the ${HEADER} header bytes of the last entry were written`);
    const len4 = bytes.subarray(p, p + 4);
    if (!bytesEqual(lenCheck(len4), bytes.subarray(p + 4, p + 8))) {
      if (allZero(bytes.subarray(p))) return tornAt('the last entry was allocated but never written (all zero)');
      throw corrupt(p, 'an entry header fails its check');
    }
    const len = ((len4[0]! << 24) >>> 0) + (len4[1]! << 16) + (len4[2]! << 8) + len4[3]!;
    if (len > MAX_ENTRY_BYTES) throw corrupt(p, `an entry claims ${len} bytes, over the ${MAX_ENTRY_BYTES}-byte cap`);
    const end = p + HEADER + SUM + len;
    if (end > bytes.length) return tornAt(`the last entry has ${rest} of its ${HEADER + SUM + len} bytes`);
    const body = bytes.subarray(p + HEADER + SUM, end);
    if (!bytesEqual(blake3(body), bytes.subarray(p + HEADER, p + HEADER + SUM))) {
      if (end === bytes.length) return tornAt('the last entry fails its checksum');
      throw corrupt(p, 'an entry fails its checksum and is not the last');
    }
    let v: CborValue;
    try {
      v = decodeCanonical(body);
    } catch (e) {
      throw corrupt(p, `an entry's checksum verifies but its body is not canonical CBOR (${isJcpError(e) ? e.code : String(e)})`);
    }
    entries.push(v);
    offsets.push(p);
    p = end;
  }
  return { entries, offsets, validLength: p };
}

/** Reads and scans a record file without claiming it or changing it (audit, tests). */
export function readRecordFile(file: string): RecordScan {
  return scanRecord(new Uint8Array(fs.readFileSync(file)));
}

/** The file operations a record performs on append; injectable so tests can make a write or an fsync fail. */
export interface RecordIo {
  writeSync(fd: number, b: Uint8Array, off: number, len: number): number;
  fsyncSync(fd: number): void;
}

const nodeIo: RecordIo = {
  writeSync: (fd, b, off, len) => fs.writeSync(fd, b, off, len),
  fsyncSync: (fd) => fs.fsyncSync(fd),
};

/** How to open a record. */
export interface OpenRecordOptions {
  readonly path: string;
  /** Who is opening it; written beside the record so a refused second opener can name it. */
  readonly holder: string;
  /** Called with a torn tail found on open, BEFORE it is truncated away. */
  readonly onTornTail?: (t: TornTail) => void;
  /** The exclusive claim (default: flock(2) through koffi). */
  readonly exclusivity?: Exclusivity;
  readonly io?: RecordIo;
}

/** An open, exclusively held record. */
export interface DurableRecord {
  readonly path: string;
  readonly holder: string;
  /** The entries found on open, then each appended one, in order; an entry's id is its index here. */
  readonly entries: readonly CborValue[];
  /** The torn tail found (and, after reporting it, removed) on open, if any. */
  readonly tornTail: TornTail | undefined;
  /**
   * Appends one entry and fsyncs it before returning its id. On any failure the file is cut back to where it was and
   * ERR_RECORD_IO is thrown: the entry is not in the record. If even the cut fails, the record refuses every later
   * append (reopening it reports the torn tail).
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

/**
 * Opens (creating if absent) the record at `path` under an exclusive claim: ERR_RECORD_LOCKED naming the holder when
 * another writer holds it, ERR_RECORD_NO_EXCLUSIVITY when the platform cannot give exclusivity (jcp §4.11). Scans it;
 * a torn tail is reported through `onTornTail` and `tornTail`, then truncated; corruption throws ERR_RECORD_CORRUPT
 * (and releases the claim).
 */
export function openRecord(opts: OpenRecordOptions): DurableRecord {
  if (typeof opts.path !== 'string' || opts.path.length === 0) throw new JcpError('ERR_BAD_ARGUMENT', 'a record needs a path');
  if (typeof opts.holder !== 'string' || opts.holder.length === 0) throw new JcpError('ERR_BAD_ARGUMENT', 'a record needs a holder name');
  const io = opts.io ?? nodeIo;
  const fd = fs.openSync(opts.path, 'a+');
  let size: number;
  let scan: RecordScan;
  try {
    claimRecord(fd, opts.path, opts.holder, opts.exclusivity);
    scan = scanRecord(readAll(fd));
    if (scan.torn) {
      // reported first, then removed: a torn entry is never taken for a decision
      opts.onTornTail?.(scan.torn);
      fs.ftruncateSync(fd, scan.validLength);
      fs.fsyncSync(fd);
    }
    size = scan.validLength;
    if (size === 0) {
      fs.writeSync(fd, RECORD_MAGIC, 0, RECORD_MAGIC.length);
      fs.fsyncSync(fd);
      syncDir(opts.path);
      size = RECORD_MAGIC.length;
    }
  } catch (e) {
    fs.closeSync(fd); // closing the descriptor releases the claim
    throw e;
  }
  const entries: CborValue[] = [...scan.entries];
  let closed = false;
  let poisoned: string | undefined;

  function writeFully(b: Uint8Array): void {
    let off = 0;
    while (off < b.length) off += io.writeSync(fd, b, off, b.length - off);
  }

  return {
    path: opts.path,
    holder: opts.holder,
    entries,
    tornTail: scan.torn,
    get closed() {
      return closed;
    },
    append(body: CborInput): number {
      if (closed) throw new JcpError('ERR_RECORD_CLOSED', `record ${opts.path} is closed`);
      if (poisoned) throw new JcpError('ERR_RECORD_IO', `record ${opts.path} refuses appends until it is reopened: ${poisoned}`);
      const framed = frameEntry(body);
      const decoded = decodeCanonical(framed.subarray(HEADER + SUM));
      try {
        writeFully(framed);
        io.fsyncSync(fd);
      } catch (e) {
        try {
          fs.ftruncateSync(fd, size);
          fs.fsyncSync(fd);
        } catch (e2) {
          poisoned = `a failed append could not be cut back (${String(e2)})`;
        }
        throw new JcpError('ERR_RECORD_IO', `appending to ${opts.path} failed; the entry is not recorded (${String(e)})`, undefined, { cause: e });
      }
      size += framed.length;
      entries.push(decoded);
      return entries.length - 1;
    },
    close(): void {
      if (closed) return;
      closed = true;
      fs.closeSync(fd);
    },
  };
}
