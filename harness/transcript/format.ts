// Re-verifiable transcripts: the byte format of a certification's transcript, its hash chains and
// its root. One module owns the format; the recorder (./recorder.ts) writes streams, certify folds them
// (./certify.ts), reverify (./reverify.ts) reads and re-judges them.
//
// Design (decided here, and the reading every other module of this folder takes):
// - A STREAM is what one client of the implementation under test said and heard, in order. Vitest runs test files in
//   several workers (forks), each with its own client (harness/driver.ts) and, for a testee, its own process, so each
//   client writes its own stream file `<folder>/streams/<name>.jcps`. A testee that is killed after a crash, a timeout
//   or a protocol break is respawned with its state gone: the failing exchange ends its stream and the next request
//   starts a fresh one (the replay starts a fresh reference there too).
// - An ENTRY is the canonical CBOR map {seq, test, op, args, response, prev}: `seq` its index in the stream (from 0),
//   `test` the id of the conformance test that was running (the record's test id, harness/report/record-reporter.ts;
//   "" outside any test, e.g. in a beforeAll), `op` and `args` the request, `response` the response map exactly as
//   the implementation answered ({seq, ok | error | unimplemented}), or {failure: {kind, message}} when it failed as a
//   program (kind: timeout | crash | protocol), and `prev` the blake3 of the previous entry's canonical bytes (32 zero
//   bytes first). A stream's HEAD is the blake3 of its last entry's bytes (32 zero bytes for an empty stream).
// - Every item on disk is a FRAME: a 4-byte big-endian length, then the canonical CBOR bytes (as jcp §11 and
//   harness/PROTOCOL.md frame messages, without their 1 MiB cap: an entry carries a request and its response).
// - The TRANSCRIPT FILE is one header frame, then every stream's entry frames, streams in the header's order (stream
//   names sorted). The header is {format, suite, testee, seed, classes_requested, streams: [{name, entries, head}],
//   tests: [{id, file, classes, level, outcome, expected?, unexpected}]}: the judged test lines of the record, so a
//   transcript can be re-judged alone.
// - The ROOT is the blake3 of the header frame's CBOR bytes. The header names every stream's entry count and head and
//   each head closes a hash chain over its entries, so the root binds every byte of the file: a changed byte breaks a
//   frame, a decode, a link or the root, and the reader names which. (A Merkle tree would allow proving one entry
//   without the rest; nothing here needs that, so the root is the plain hash of the header.)
// - The certificate binds the root as `transcript_root` (hex), optional so certificates without a transcript verify.
import { blake3 } from '../../impl/hash/blake3.ts';
import { toHex } from '../../impl/bytes.ts';
import { decodeCanonical, encodeCanonical, MAX_MAX_DEPTH, type CborInput, type CborMap, type CborValue } from '../../impl/cbor/index.ts';
import { isJcpError } from '../../impl/errors.ts';

/** The header's `format` value. */
export const TRANSCRIPT_FORMAT = 'jcp-conformance-transcript/1';

/** The `prev` of a stream's first entry, and the head of an empty stream. */
export const ZERO_HASH: Uint8Array = new Uint8Array(32);

// requests carry up to the protocol's own nesting; an entry wraps them two levels deeper
const CODEC = { maxDepth: MAX_MAX_DEPTH } as const;

/** One recorded exchange, decoded. */
export interface Entry {
  readonly seq: number;
  readonly test: string;
  readonly op: string;
  readonly args: CborValue;
  /** {seq, ok | error | unimplemented}, or {failure: {kind, message}}. */
  readonly response: CborMap;
  readonly prev: Uint8Array;
}

/** A stream as the header names it. */
export interface StreamRef {
  readonly name: string;
  readonly entries: number;
  /** blake3 of the last entry's bytes, or 32 zero bytes. */
  readonly head: Uint8Array;
}

/** A judged test line as the header carries it (`unexpected` as 0/1: the protocol's CBOR has no booleans). */
export interface TranscriptTest {
  readonly id: string;
  readonly file: string;
  readonly classes: readonly string[];
  readonly level: string;
  readonly outcome: string;
  readonly expected?: string;
  readonly unexpected: 0 | 1;
}

/** The transcript's first frame. */
export interface TranscriptHeader {
  readonly format: typeof TRANSCRIPT_FORMAT;
  readonly suite: string;
  readonly testee: { readonly name: string; readonly version: string; readonly driver: string; readonly claims: readonly string[] };
  readonly seed: number;
  readonly classes_requested: readonly string[] | 'all';
  readonly streams: readonly StreamRef[];
  readonly tests: readonly TranscriptTest[];
}

/** A transcript refused, saying where. */
export class TranscriptError extends Error {
  override readonly name = 'TranscriptError';
  constructor(
    message: string,
    /** Byte offset in the file where the problem was found, when there is one. */
    readonly offset?: number,
  ) {
    super(offset === undefined ? message : `${message} (at byte ${offset})`);
  }
}

/** The frame (length prefix and bytes) of canonical CBOR `body`. */
export function frame(body: Uint8Array): Uint8Array {
  const out = new Uint8Array(4 + body.length);
  new DataView(out.buffer).setUint32(0, body.length, false);
  out.set(body, 4);
  return out;
}

/** The canonical bytes of an entry. */
export function encodeEntry(e: Entry): Uint8Array {
  return encodeCanonical({ seq: e.seq, test: e.test, op: e.op, args: e.args, response: e.response, prev: e.prev } as CborInput, CODEC);
}

/** The canonical bytes of a header (optional test fields omitted, never null). */
export function encodeHeader(h: TranscriptHeader): Uint8Array {
  return encodeCanonical(h as unknown as CborInput, CODEC);
}

/** The transcript root of a header's bytes, hex. */
export function rootOf(headerBytes: Uint8Array): string {
  return toHex(blake3(headerBytes));
}

/** The hash that links an entry to the next, and closes a stream as its head. */
export const linkOf = (entryBytes: Uint8Array): Uint8Array => blake3(entryBytes);

/** One frame read at `offset` of `bytes`: its body and the offset after it. */
export interface ReadFrame {
  readonly body: Uint8Array;
  readonly value: CborValue;
  readonly start: number;
  readonly end: number;
}

/** Reads the frame at `offset`, refusing a short prefix, a length past the end and a body that is not canonical. */
export function readFrame(bytes: Uint8Array, offset: number, what: string): ReadFrame {
  if (offset + 4 > bytes.length) throw new TranscriptError(`${what}: the file ends inside a frame's length prefix`, offset);
  const len = new DataView(bytes.buffer, bytes.byteOffset + offset, 4).getUint32(0, false);
  const end = offset + 4 + len;
  if (end > bytes.length) throw new TranscriptError(`${what}: a frame declares ${len} bytes, past the end of the file`, offset);
  const body = bytes.subarray(offset + 4, end);
  try {
    return { body, value: decodeCanonical(body, CODEC), start: offset, end };
  } catch (e) {
    if (isJcpError(e)) throw new TranscriptError(`${what}: not canonical CBOR (${e.code}: ${e.message})`, offset);
    throw e;
  }
}

const isMap = (v: CborValue | undefined): v is CborMap => v instanceof Map;
const uint = (v: CborValue | undefined): number | undefined => (typeof v === 'number' && Number.isSafeInteger(v) && v >= 0 ? v : typeof v === 'bigint' && v >= 0n && v <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(v) : undefined);

function exactKeys(m: CborMap, required: readonly string[], optional: readonly string[], what: string, at: number): void {
  for (const k of m.keys()) if (typeof k !== 'string' || (!required.includes(k) && !optional.includes(k))) throw new TranscriptError(`${what}: unexpected field ${String(k)}`, at);
  for (const k of required) if (!m.has(k)) throw new TranscriptError(`${what}: field ${k} is missing`, at);
}

/** Reads an entry's decoded value, refusing any shape but {seq, test, op, args, response, prev}. */
export function entryOf(v: CborValue, what: string, at: number): Entry {
  if (!isMap(v)) throw new TranscriptError(`${what}: an entry must be a map`, at);
  exactKeys(v, ['seq', 'test', 'op', 'args', 'response', 'prev'], [], what, at);
  const seq = uint(v.get('seq'));
  const test = v.get('test');
  const op = v.get('op');
  const response = v.get('response');
  const prev = v.get('prev');
  if (seq === undefined) throw new TranscriptError(`${what}: seq must be an unsigned integer`, at);
  if (typeof test !== 'string' || typeof op !== 'string') throw new TranscriptError(`${what}: test and op must be text`, at);
  if (!isMap(response)) throw new TranscriptError(`${what}: response must be a map`, at);
  if (!(prev instanceof Uint8Array) || prev.length !== 32) throw new TranscriptError(`${what}: prev must be 32 bytes`, at);
  return { seq, test, op, args: v.get('args')!, response, prev };
}

const textArray = (v: CborValue | undefined): v is string[] => Array.isArray(v) && v.every((x) => typeof x === 'string');

/** Reads the header's decoded value, refusing an unknown format or a malformed field. */
export function headerOf(v: CborValue): TranscriptHeader {
  const what = 'the transcript header';
  if (!isMap(v)) throw new TranscriptError(`${what} must be a map`, 0);
  exactKeys(v, ['format', 'suite', 'testee', 'seed', 'classes_requested', 'streams', 'tests'], [], what, 0);
  if (v.get('format') !== TRANSCRIPT_FORMAT) throw new TranscriptError(`${what}: unknown format ${String(v.get('format'))}`, 0);
  const testee = v.get('testee');
  if (!isMap(testee) || !['name', 'version', 'driver'].every((k) => typeof testee.get(k) === 'string') || !textArray(testee.get('claims'))) {
    throw new TranscriptError(`${what}: testee must be {name, version, driver, claims}`, 0);
  }
  const cr = v.get('classes_requested');
  if (cr !== 'all' && !textArray(cr)) throw new TranscriptError(`${what}: classes_requested must be "all" or a list of class ids`, 0);
  const seed = uint(v.get('seed'));
  if (seed === undefined || typeof v.get('suite') !== 'string') throw new TranscriptError(`${what}: suite must be text and seed an unsigned integer`, 0);
  const streams = v.get('streams');
  const tests = v.get('tests');
  if (!Array.isArray(streams) || !Array.isArray(tests)) throw new TranscriptError(`${what}: streams and tests must be arrays`, 0);
  return {
    format: TRANSCRIPT_FORMAT,
    suite: v.get('suite') as string,
    testee: { name: testee.get('name') as string, version: testee.get('version') as string, driver: testee.get('driver') as string, claims: testee.get('claims') as string[] },
    seed,
    classes_requested: cr as string[] | 'all',
    streams: streams.map((s, i) => {
      const head = isMap(s) ? s.get('head') : undefined;
      const entries = isMap(s) ? uint(s.get('entries')) : undefined;
      if (!isMap(s) || typeof s.get('name') !== 'string' || entries === undefined || !(head instanceof Uint8Array) || head.length !== 32) {
        throw new TranscriptError(`${what}: streams[${i}] must be {name, entries, head (32 bytes)}`, 0);
      }
      return { name: s.get('name') as string, entries, head };
    }),
    tests: tests.map((t, i) => {
      const ok =
        isMap(t) &&
        ['id', 'file', 'level', 'outcome'].every((k) => typeof t.get(k) === 'string') &&
        textArray(t.get('classes')) &&
        (t.get('unexpected') === 0 || t.get('unexpected') === 1) &&
        (!t.has('expected') || typeof t.get('expected') === 'string');
      if (!ok) throw new TranscriptError(`${what}: tests[${i}] must be {id, file, classes, level, outcome, expected?, unexpected: 0|1}`, 0);
      const m = t as CborMap;
      return {
        id: m.get('id') as string,
        file: m.get('file') as string,
        classes: m.get('classes') as string[],
        level: m.get('level') as string,
        outcome: m.get('outcome') as string,
        ...(m.has('expected') ? { expected: m.get('expected') as string } : {}),
        unexpected: m.get('unexpected') as 0 | 1,
      };
    }),
  };
}

/** A stream read back: its entries and the byte offset each frame starts at. */
export interface ReadStream {
  readonly name: string;
  readonly entries: readonly Entry[];
  readonly offsets: readonly number[];
}

/**
 * Reads `count` entries of a stream from `bytes` at `offset`, checking every link: each entry's seq is its index and
 * its prev the hash of the entry before. Returns the entries, the offset after them and the head they close.
 */
export function readChain(bytes: Uint8Array, offset: number, count: number | undefined, name: string): { stream: ReadStream; end: number; head: Uint8Array } {
  const entries: Entry[] = [];
  const offsets: number[] = [];
  let prev = ZERO_HASH;
  let at = offset;
  while (count === undefined ? at < bytes.length : entries.length < count) {
    const what = `stream ${name}, entry ${entries.length}`;
    const f = readFrame(bytes, at, what);
    const e = entryOf(f.value, what, at);
    if (e.seq !== entries.length) throw new TranscriptError(`${what}: seq is ${e.seq}, expected ${entries.length}`, at);
    // the chain: an entry names the hash of the one before it, so none can be changed, dropped, reordered or inserted
    if (toHex(e.prev) !== toHex(prev)) throw new TranscriptError(`${what}: the chain is broken (prev is not the hash of entry ${entries.length - 1})`, at);
    entries.push(e);
    offsets.push(at);
    prev = linkOf(f.body);
    at = f.end;
  }
  return { stream: { name, entries, offsets }, end: at, head: prev };
}

/** A transcript read and checked: its header, root and streams. */
export interface Transcript {
  readonly header: TranscriptHeader;
  readonly root: string;
  readonly streams: readonly ReadStream[];
}

/**
 * Reads a transcript file and checks every frame, every link and every stream head against the header. With
 * `expectedRoot`, the header must hash to it. Throws TranscriptError naming where on any problem; a file that reads
 * has not had a byte changed since its root was taken.
 */
export function readTranscript(bytes: Uint8Array, expectedRoot?: string): Transcript {
  const h = readFrame(bytes, 0, 'the transcript header');
  const root = rootOf(h.body);
  if (expectedRoot !== undefined && root !== expectedRoot) {
    throw new TranscriptError(`the transcript's root ${root} is not the certificate's transcript_root ${expectedRoot}: the header was changed, or this is another run's transcript`, 0);
  }
  const header = headerOf(h.value);
  const streams: ReadStream[] = [];
  let at = h.end;
  for (const ref of header.streams) {
    const r = readChain(bytes, at, ref.entries, ref.name);
    if (toHex(r.head) !== toHex(ref.head)) throw new TranscriptError(`stream ${ref.name}: its entries do not hash to the head the header names (its last entry was changed)`, r.stream.offsets.at(-1) ?? at);
    streams.push(r.stream);
    at = r.end;
  }
  if (at !== bytes.length) throw new TranscriptError(`${bytes.length - at} byte(s) after the last stream`, at);
  return { header, root, streams };
}
