// impl/durable/record.ts: framing and the chain, torn tails of every length, damage anywhere refused, fsync'd and
// anchored appends and their failure, reporting a torn tail before truncating it, paths that cannot hold a record
// (jcp §4.11 durable record). Every way of damaging a whole record is ./corruption.test.ts.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { codeOf, lazy, thrown } from '../_test-support.ts';
import { concatBytes } from '../bytes.ts';
import { blake3 } from '../hash/blake3.ts';
import { decodeCanonical, encodeCanonical, type CborInput, type CborValue } from '../cbor/index.ts';
import { isJcpError } from '../errors.ts';
import {
  anchorPath,
  anchorRecord,
  ANCHOR_BYTES,
  CHAIN_START,
  checkAnchor,
  encodeAnchor,
  encodeAnchorSlot,
  ENTRY_OVERHEAD,
  entryHash,
  frameEntry,
  MAX_ENTRY_BYTES,
  openRecord,
  readAnchor,
  readRecordFile,
  recordHead,
  RECORD_MAGIC,
  scanRecord,
  type Anchor,
  type RecordIo,
  type TornTail,
} from './record.ts';

const dirs: string[] = [];
function tmpRecord(): string {
  const d = fs.mkdtempSync(path.join(os.tmpdir(), 'jcp-record-'));
  dirs.push(d);
  return path.join(d, 'decisions.rec');
}
afterEach(() => {
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});

const bodies = [{ n: 1n, what: 'first' }, { n: 2n, what: 'second', blob: new Uint8Array(40).fill(7) }, { n: 3n, what: 'third' }];
// the header, base and lastEntry are made on first use, inside the test that first reads them: built at import, the
// record code they reach would count as static to Stryker (tested only by reloading every test file)
let _header: Uint8Array | undefined;
const header = (): Uint8Array => (_header ??= recordHead({ id: new Uint8Array(16).fill(1), createdBy: 'test' }));
/** Frames `list` as a chain after the header: the bytes and the chain hash of the last. */
function chain(list: readonly CborInput[], from = header()): { bytes: Uint8Array; head: Uint8Array } {
  let head = entryHash(from.subarray(RECORD_MAGIC.length));
  const frames = list.map((b) => {
    const f = frameEntry(b, head);
    head = entryHash(f);
    return f;
  });
  return { bytes: concatBytes(from, ...frames), head };
}
const base = lazy(() => chain(bodies));
let _last: Uint8Array | undefined;
/** A whole entry after base, the one a crash interrupts in the torn-tail cases. */
const lastEntry = (): Uint8Array => (_last ??= frameEntry({ n: 4n, what: 'the entry a crash interrupts', pad: new Uint8Array(25).fill(1) }, base.head));

describe('scanRecord', () => {
  it('reads back the header and every whole entry in order', () => {
    const s = scanRecord(concatBytes(base.bytes, lastEntry()));
    expect(s.header).toEqual({ id: new Uint8Array(16).fill(1), createdBy: 'test' });
    expect(s.entries.length).toBe(4);
    expect(s.torn).toBeUndefined();
    expect((s.entries[1] as Map<unknown, unknown>).get('what')).toBe('second');
    expect(s.validLength).toBe(base.bytes.length + lastEntry().length);
    expect(s.head).toEqual(entryHash(lastEntry()));
  });

  it('reports a final entry torn by length, of every length 1 … len−1, and keeps every entry before it', () => {
    for (let k = 1; k < lastEntry().length; k++) {
      const s = scanRecord(concatBytes(base.bytes, lastEntry().subarray(0, k)));
      expect(s.entries.length, `k=${k}`).toBe(3);
      expect(s.torn, `k=${k}`).toMatchObject({ offset: base.bytes.length, length: k, why: expect.any(String) });
      expect(s.validLength).toBe(base.bytes.length);
    }
  });

  it('refuses a file with no whole header (headerless), a wrong magic and a format-1 magic', () => {
    for (let k = 0; k < header().length; k++) {
      let err: unknown;
      try {
        scanRecord(header().subarray(0, k));
      } catch (e) {
        err = e;
      }
      expect(isJcpError(err, 'ERR_RECORD_CORRUPT'), `k=${k}`).toBe(true);
      expect((err as { detail: { headerless?: boolean } }).detail.headerless, `k=${k}`).toBe(true);
    }
    const wrong = base.bytes.slice();
    wrong[0] = 0x58;
    expect(codeOf(() => scanRecord(wrong))).toBe('ERR_RECORD_CORRUPT');
    expect(codeOf(() => scanRecord(Uint8Array.of(0x4a, 0x43, 0x51)))).toBe('ERR_RECORD_CORRUPT');
    const v1 = base.bytes.slice();
    v1[7] = 1;
    expect(() => scanRecord(v1)).toThrow(/format-1/);
  });

  it('takes a last entry whole by length that fails its checksum for damage, not a torn write', () => {
    for (const at of [10, 45, lastEntry().length - 3]) {
      const garbled = lastEntry().slice();
      garbled[at]! ^= 0x40;
      expect(codeOf(() => scanRecord(concatBytes(base.bytes, garbled))), `byte ${at}`).toBe('ERR_RECORD_CORRUPT');
    }
    // zeros were never written: a torn tail (the anchor decides whether they may be, ./corruption.test.ts)
    const z = scanRecord(concatBytes(base.bytes, new Uint8Array(lastEntry().length)));
    expect(z.torn).toMatchObject({ offset: base.bytes.length, length: lastEntry().length, why: expect.stringContaining('zero') });
  });

  it('refuses (ERR_RECORD_CORRUPT) a flip of any byte of an entry that is not the last', () => {
    const file = concatBytes(base.bytes, lastEntry());
    const start = header().length + frameEntry(bodies[0]!, new Uint8Array(32)).length; // the second entry
    const len = frameEntry(bodies[1]!, new Uint8Array(32)).length;
    for (let i = start; i < start + len; i++) {
      const bad = file.slice();
      bad[i]! ^= 0x01;
      expect(codeOf(() => scanRecord(bad)), `byte ${i}`).toBe('ERR_RECORD_CORRUPT');
    }
  });

  it('refuses an entry that does not chain to the one before it, an over-cap length and a verified body that is not canonical CBOR', () => {
    expect(codeOf(() => scanRecord(concatBytes(base.bytes, frameEntry({ x: 1n }, new Uint8Array(32)))))).toBe('ERR_RECORD_CORRUPT');
    // a body of 0x18 0x01 (1 in a non-shortest form) framed with correct checks and chain
    const body = Uint8Array.of(0x18, 0x01);
    const len4 = Uint8Array.of(0, 0, 0, 2);
    const framed = concatBytes(len4, blake3(len4).subarray(0, 4), base.head, blake3(concatBytes(len4, base.head, body)), body);
    expect(codeOf(() => scanRecord(concatBytes(base.bytes, framed)))).toBe('ERR_RECORD_CORRUPT');
    const big = Uint8Array.of(0x7f, 0, 0, 0);
    expect(codeOf(() => scanRecord(concatBytes(base.bytes, big, blake3(big).subarray(0, 4), new Uint8Array(80))))).toBe('ERR_RECORD_CORRUPT');
  });
});

// FORMAT.md: the header entry's body names the record thus, and a length header is len (u32 BE) ‖ blake3(len)[0..4]
const HEADER_NAME = 'jcp durable decision record';
function lenHeader(len: number): Uint8Array {
  const len4 = Uint8Array.of(len >>> 24, (len >>> 16) & 0xff, (len >>> 8) & 0xff, len & 0xff);
  return concatBytes(len4, blake3(len4).subarray(0, 4));
}
/** The code, message and detail of the ERR_RECORD_CORRUPT that scanning `bytes` throws. */
function refusal(bytes: Uint8Array): { code: string; message: string; detail: unknown } {
  const e = thrown(() => scanRecord(bytes));
  return { code: e.code, message: e.message, detail: e.detail };
}
const corruptAt = (offset: number, why: string, detail: Record<string, unknown> = {}) => ({
  code: 'ERR_RECORD_CORRUPT',
  message: `ERR_RECORD_CORRUPT: record corrupt at byte ${offset}: ${why}`,
  detail: { offset, ...detail },
});
const LOST = 'a record that lost its content is not a fresh record';

describe('frameEntry and recordHead refuse what cannot be framed', () => {
  it('chains an entry only to a 32-byte chain hash (ERR_BAD_ARGUMENT)', () => {
    for (const prev of [new Uint8Array(31), new Uint8Array(33), Array.from({ length: 32 }, () => 0)]) {
      const e = thrown(() => frameEntry({ a: 1n }, prev as Uint8Array));
      expect([e.code, e.message]).toEqual(['ERR_BAD_ARGUMENT', 'ERR_BAD_ARGUMENT: an entry is chained to a 32-byte chain hash']);
    }
    expect(frameEntry({ a: 1n }, new Uint8Array(32)).subarray(8, 40)).toEqual(new Uint8Array(32));
  });

  it('frames a body of exactly the 16 MiB cap and refuses one byte more (ERR_RECORD_IO)', () => {
    // a byte string of L ≥ 65536 bytes encodes as 5 + L bytes
    expect(frameEntry(new Uint8Array(MAX_ENTRY_BYTES - 5), CHAIN_START).length).toBe(ENTRY_OVERHEAD + MAX_ENTRY_BYTES);
    const e = thrown(() => frameEntry(new Uint8Array(MAX_ENTRY_BYTES - 4), CHAIN_START));
    expect([e.code, e.message]).toEqual(['ERR_RECORD_IO', `ERR_RECORD_IO: an entry of ${MAX_ENTRY_BYTES + 1} bytes exceeds the ${MAX_ENTRY_BYTES}-byte cap`]);
  });

  it('names a record only by a 16-byte id (ERR_BAD_ARGUMENT)', () => {
    for (const id of [new Uint8Array(15), new Uint8Array(17), Array.from({ length: 16 }, () => 1)]) {
      const e = thrown(() => recordHead({ id: id as Uint8Array, createdBy: 'test' }));
      expect([e.code, e.message]).toEqual(['ERR_BAD_ARGUMENT', 'ERR_BAD_ARGUMENT: a record id is 16 bytes']);
    }
  });
});

describe('scanRecord: where and why a record is refused', () => {
  it('names a file cut below its magic, at its magic and inside its length header as headerless, with how much is left', () => {
    for (const k of [0, 3, 7]) expect(refusal(header().subarray(0, k)), `k=${k}`).toEqual(corruptAt(0, `the file holds ${k} byte(s) and no record header: ${LOST}`, { headerless: true }));
    for (const k of [0, 5, 7]) {
      expect(refusal(header().subarray(0, 8 + k)), `k=${k}`).toEqual(corruptAt(8, `the record header is cut after ${k} of its length bytes: ${LOST}`, { headerless: true }));
    }
    // the length header whole (8 bytes past the magic) and more: cut inside the header entry, which declares its size
    const whole = header().length - RECORD_MAGIC.length;
    for (const k of [8, 9, whole - 1]) {
      expect(refusal(header().subarray(0, 8 + k)), `k=${k}`).toEqual(corruptAt(8, `the record header is cut after ${k} of its ${whole} bytes: ${LOST}`, { headerless: true }));
    }
  });

  it('tells a wrong magic from a format-1 record, at any length', () => {
    const v1 = Uint8Array.of(0x4a, 0x43, 0x50, 0x52, 0x45, 0x43, 0x00, 0x01);
    expect(refusal(v1)).toEqual(corruptAt(0, 'a format-1 decision record; this reader reads format 2'));
    expect(refusal(concatBytes(v1, header().subarray(8)))).toEqual(corruptAt(0, 'a format-1 decision record; this reader reads format 2'));
    const wrong = header().slice();
    wrong[0] = 0x58;
    for (const b of [wrong, wrong.subarray(0, 8), Uint8Array.of(0x4a, 0x43, 0x51), Uint8Array.of(0x4a, 0x43, 0x50, 0x52, 0x45, 0x43, 0x4a)]) {
      expect(refusal(b), `${b.length} bytes`).toEqual(corruptAt(0, 'not a decision record (wrong magic)'));
    }
  });

  it('takes a header never written (zeros) for headerless, and a damaged length header or checksum for damage', () => {
    for (const k of [8, 9, 200]) {
      expect(refusal(concatBytes(RECORD_MAGIC, new Uint8Array(k))), `${k} zeros`).toEqual(corruptAt(8, `the record header was never written (all zero): ${LOST}`, { headerless: true }));
    }
    const lenBad = header().slice();
    lenBad[11]! ^= 1;
    expect(refusal(lenBad)).toEqual(corruptAt(8, 'the record header fails its length check'));
    // nothing but one non-zero byte after a zero length header: not all zero, so damage
    expect(refusal(concatBytes(RECORD_MAGIC, new Uint8Array(20), Uint8Array.of(1)))).toEqual(corruptAt(8, 'the record header fails its length check'));
    for (const at of [8 + 8, 8 + 40, header().length - 1]) {
      const bad = header().slice();
      bad[at]! ^= 0x20;
      expect(refusal(bad), `byte ${at}`).toEqual(corruptAt(8, 'the record header fails its checksum'));
    }
  });

  it('refuses a header claiming more than the entry cap, and reads one claiming exactly the cap as cut', () => {
    expect(refusal(concatBytes(RECORD_MAGIC, lenHeader(MAX_ENTRY_BYTES + 1), new Uint8Array(64)))).toEqual(corruptAt(8, 'the record header claims more than the entry cap'));
    expect(refusal(concatBytes(RECORD_MAGIC, lenHeader(MAX_ENTRY_BYTES), new Uint8Array(64)))).toEqual(
      corruptAt(8, `the record header is cut after 72 of its ${ENTRY_OVERHEAD + MAX_ENTRY_BYTES} bytes: ${LOST}`, { headerless: true }),
    );
  });

  it('refuses an entry header that fails its length check, or claims more than the cap, at the entry', () => {
    const at = base.bytes.length;
    const garbled = lastEntry().slice();
    garbled[2]! ^= 4;
    expect(refusal(concatBytes(base.bytes, garbled))).toEqual(corruptAt(at, 'an entry header fails its length check'));
    expect(refusal(concatBytes(base.bytes, lenHeader(MAX_ENTRY_BYTES + 1), new Uint8Array(80)))).toEqual(corruptAt(at, `an entry claims ${MAX_ENTRY_BYTES + 1} bytes, over the ${MAX_ENTRY_BYTES}-byte cap`));
    // exactly the cap: a verified length header, the entry not all there: torn
    expect(scanRecord(concatBytes(base.bytes, lenHeader(MAX_ENTRY_BYTES), new Uint8Array(80))).torn).toMatchObject({ offset: at, declared: ENTRY_OVERHEAD + MAX_ENTRY_BYTES });
  });

  it('says whether the entry failing its checksum is the last one (damaged, not torn) or one before it', () => {
    const file = concatBytes(base.bytes, lastEntry());
    const last = base.bytes.length;
    const bad = file.slice();
    bad[file.length - 2]! ^= 1;
    expect(refusal(bad)).toEqual(corruptAt(last, 'the last entry is whole by length but fails its checksum (damaged, not torn)'));
    const second = header().length + frameEntry(bodies[0]!, CHAIN_START).length;
    const mid = file.slice();
    mid[second + ENTRY_OVERHEAD]! ^= 1;
    expect(refusal(mid)).toEqual(corruptAt(second, 'an entry fails its checksum'));
  });

  it("names the CBOR error of a verified body that is not canonical", () => {
    const body = Uint8Array.of(0x18, 0x01); // 1 in a non-shortest form
    const len4 = Uint8Array.of(0, 0, 0, 2);
    const framed = concatBytes(len4, blake3(len4).subarray(0, 4), base.head, blake3(concatBytes(len4, base.head, body)), body);
    expect(refusal(concatBytes(base.bytes, framed))).toEqual(corruptAt(base.bytes.length, "an entry's checksum verifies but its body is not canonical CBOR (ERR_CBOR_NOT_SHORTEST)"));
  });

  it('reports a torn tail with exactly its offset, length, reason and fields, and its declared length only once the length header is whole', () => {
    const at = base.bytes.length;
    for (const k of [1, 7]) {
      expect(scanRecord(concatBytes(base.bytes, lastEntry().subarray(0, k))).torn, `k=${k}`).toStrictEqual({
        offset: at,
        length: k,
        why: `only ${k} of the 8 length-header bytes of the last entry were written`,
        fields: new Map(),
      });
    }
    const whole = lastEntry().length;
    for (const k of [8, 30, whole - 1]) {
      expect(scanRecord(concatBytes(base.bytes, lastEntry().subarray(0, k))).torn, `k=${k}`).toMatchObject({
        offset: at,
        length: k,
        why: `the last entry has ${k} of the ${whole} bytes its length header declares`,
        declared: whole,
      });
    }
  });
});

describe('scanRecord: the record header', () => {
  const id = new Uint8Array(16).fill(1);
  const good = { record: HEADER_NAME, format: 2n, id, created_by: 'test' };
  const withHeader = (body: CborInput): Uint8Array => concatBytes(RECORD_MAGIC, frameEntry(body, CHAIN_START));

  it('reads a format-2 header: the record id and its creator', () => {
    expect(scanRecord(withHeader(good)).header).toEqual({ id, createdBy: 'test' });
  });

  it('refuses a header entry that verifies but is not a format-2 record header, field by field', () => {
    const cases: [string, CborInput][] = [
      ['not a map', [HEADER_NAME, 2n, id, 'test']],
      ['a fifth field', { ...good, extra: 1n }],
      ['three fields', { record: HEADER_NAME, format: 2n, id }],
      ['another name', { ...good, record: 'jcp durable decision records' }],
      ['an id as text', { ...good, id: 'sixteen-chars-id' }],
      ['a 15-byte id', { ...good, id: new Uint8Array(15) }],
      ['a 17-byte id', { ...good, id: new Uint8Array(17) }],
      ['a creator that is not text', { ...good, created_by: 7n }],
      ['format 1', { ...good, format: 1n }],
      ['format 3', { ...good, format: 3n }],
      ['a format as text', { ...good, format: '2' }],
    ];
    for (const [what, body] of cases) expect(refusal(withHeader(body)), what).toEqual(corruptAt(8, 'the record header verifies but is not a format-2 record header'));
  });
});

describe("a torn tail's readable fields (the top-level fields of its body written whole)", () => {
  /** The fields scanRecord reads from a torn last entry whose body bytes on disk are `prefix` (its length header declares more). */
  function tornFields(prefix: Uint8Array): ReadonlyMap<string, CborValue> {
    const s = scanRecord(concatBytes(base.bytes, lenHeader(prefix.length + 1), new Uint8Array(64), prefix));
    expect(s.torn).toMatchObject({ offset: base.bytes.length, length: ENTRY_OVERHEAD + prefix.length, declared: ENTRY_OVERHEAD + prefix.length + 1 });
    return s.torn!.fields;
  }
  const text = (s: string): number[] => [0x60 + s.length, ...new TextEncoder().encode(s)];

  it('reads every field whose key and value are whole, of every kind, at every cut', () => {
    const fields: [string, CborInput][] = [
      ['a', 5n], // an integer in the initial byte
      ['b', [1n, [2n, 3n]]], // nested arrays
      ['c', { x: 1n, y: 'z' }], // a map
      ['d', new Uint8Array(300).fill(4)], // a byte string with a 2-byte length
      ['e', 2n ** 40n], // an integer with an 8-byte argument
      ['f', -500n], // a negative integer with a 2-byte argument
      ['g', 'text'],
      ['h', 24n], // an integer with a 1-byte argument
      ['i', -1n],
    ];
    const body = encodeCanonical(Object.fromEntries(fields));
    const ends: number[] = [];
    let at = 1; // the map's own header
    for (const [k, v] of fields) ends.push((at += encodeCanonical(k).length + encodeCanonical(v).length));
    expect(at).toBe(body.length);
    for (let k = 0; k <= body.length; k++) {
      const whole = fields.filter((_, i) => ends[i]! <= k);
      const got = tornFields(body.subarray(0, k));
      expect([...got.keys()], `cut at ${k}`).toEqual(whole.map(([name]) => name));
      expect(got, `cut at ${k}`).toEqual(new Map(whole.map(([name, v]) => [name, decodeCanonical(encodeCanonical(v))])));
    }
  });

  it('reads as many pairs as the map header declares (in the header byte, or in 1 or 2 bytes after it), not the bytes after them', () => {
    for (const n of [1, 25, 256]) {
      const keys = Array.from({ length: n + 1 }, (_, i) => `k${String(i).padStart(3, '0')}`);
      const map = encodeCanonical(Object.fromEntries(keys.slice(0, n).map((k, i) => [k, BigInt(i)])));
      const got = tornFields(concatBytes(map, encodeCanonical(keys[n]!), encodeCanonical(BigInt(n))));
      expect([...got.keys()], `${n} pairs`).toEqual(keys.slice(0, n));
      expect(got.get(keys[n - 1]!), `${n} pairs`).toBe(n - 1);
    }
  });

  it('reads nothing from a body that is not a text-keyed map, and stops at the first field that is not canonical', () => {
    expect(tornFields(new Uint8Array(0))).toEqual(new Map());
    expect(tornFields(encodeCanonical(['a', 1n, 'b', 2n]))).toEqual(new Map()); // an array of what would read as pairs
    expect(tornFields(Uint8Array.of(0xa2, 0x01, ...text('x'), ...text('a'), 0x02))).toEqual(new Map()); // {1: 'x', 'a': 2}
    expect(tornFields(Uint8Array.of(0xa3, ...text('a'), 0x01, ...text('b'), 0x18, 0x01, ...text('c'), 0x02))).toEqual(new Map([['a', 1]])); // 'b': 1 not shortest
    expect(tornFields(Uint8Array.of(0xa2, ...text('a'), 0xd8, 0x20, 0x01, ...text('b'), 0x02))).toEqual(new Map()); // a tag (jcp §3: none)
    // an indefinite-length map, and the reserved additional information 28 (read as a 16-byte count it would hold one pair)
    expect(tornFields(Uint8Array.of(0xbf, ...text('a'), 0x01, 0xff))).toEqual(new Map());
    expect(tornFields(Uint8Array.of(0xbc, ...new Uint8Array(15), 1, ...text('a'), 0x01))).toEqual(new Map());
  });

  it('reads a value nested 64 deep and not one nested deeper, however deep (jcp §3: the decoder stops at depth 64)', () => {
    const nested = (depth: number, open: number): number[] => [...new Array<number>(depth).fill(open), 0x01];
    const deep64 = tornFields(Uint8Array.of(0xa2, ...text('a'), ...nested(64, 0x81), ...text('b'), 0x02));
    expect([...deep64.keys()]).toEqual(['a', 'b']);
    let v = deep64.get('a');
    for (let i = 0; i < 64; i++) v = (v as CborValue[])[0];
    expect(v).toBe(1);
    expect(tornFields(Uint8Array.of(0xa2, ...text('a'), ...nested(65, 0x81), ...text('b'), 0x02))).toEqual(new Map());
    // far deeper than any stack: no field, and no throw
    expect(tornFields(Uint8Array.of(0xa1, ...text('a'), ...nested(100_000, 0x81)))).toEqual(new Map());
    expect(tornFields(Uint8Array.of(0xa1, ...text('a'), ...nested(100_000, 0xc1)))).toEqual(new Map());
    // an array claiming 2^64 − 1 items, one of them there: not whole
    expect(tornFields(Uint8Array.of(0xa1, ...text('a'), 0x9b, ...new Array<number>(8).fill(0xff), 0x01))).toEqual(new Map());
  });
});

describe('anchors: readAnchor and checkAnchor', () => {
  const id = new Uint8Array(16).fill(1);
  const withEntries = lazy(() => scanRecord(concatBytes(base.bytes, lastEntry()))); // the header and 4 entries
  const at = (s: { offsets: readonly number[] }, i: number): number => s.offsets[i]!;

  it('reads a slot whose count and end are at most 2^53 − 1, and takes one above for damaged', () => {
    const head = new Uint8Array(32).fill(9);
    const max = Number.MAX_SAFE_INTEGER;
    expect(readAnchor(encodeAnchor({ recordId: id, count: max, end: max, head })).best).toEqual({ recordId: id, count: max, end: max, head });
    for (const a of [{ count: max + 1, end: 10 }, { count: 1, end: max + 1 }]) {
      expect(readAnchor(encodeAnchor({ recordId: id, head, ...a })), JSON.stringify(a)).toEqual({ slots: [undefined, undefined], best: undefined });
    }
  });

  it('takes a slot without the anchor magic for damaged, even with its check recomputed', () => {
    const newer: Anchor = { recordId: id, count: 5, end: 500, head: new Uint8Array(32).fill(5) };
    const older: Anchor = { ...newer, count: 4, end: 400 };
    const bad = encodeAnchorSlot(newer);
    bad[7] = 0x01; // the format-1 anchor magic
    bad.set(blake3(bad.subarray(0, 72)).subarray(0, 16), 72);
    const file = new Uint8Array(ANCHOR_BYTES);
    file.set(bad, 0);
    file.set(encodeAnchorSlot(older), 512);
    expect(readAnchor(file)).toEqual({ slots: [undefined, older], best: older });
  });

  it('lets a record with nothing past its header go without an anchor, and refuses one holding more', () => {
    expect(() => checkAnchor(scanRecord(header()), undefined)).not.toThrow();
    const missing = (ap: string) => `the record holds bytes past its header but its anchor ${ap} is missing, so what was acknowledged cannot be checked (anchorRecord accepts the record as it stands, after inspection)`;
    const headerEnd = header().length;
    for (const bytes of [base.bytes, concatBytes(header(), lastEntry().subarray(0, 3))]) {
      expect(thrown(() => checkAnchor(scanRecord(bytes), undefined))).toMatchObject({ message: `ERR_RECORD_CORRUPT: record corrupt at byte ${headerEnd}: ${missing('the record.anchor')}`, detail: { offset: headerEnd, anchor: 'the record.anchor' } });
    }
    expect(thrown(() => checkAnchor(scanRecord(base.bytes), undefined, 'x.rec')).detail).toEqual({ offset: headerEnd, anchor: 'x.rec.anchor' });
  });

  it('refuses an anchor with both slots damaged, or naming another record, with the anchor in its detail', () => {
    const s = scanRecord(base.bytes);
    expect(thrown(() => checkAnchor(s, { best: undefined }, 'x.rec'))).toMatchObject({
      code: 'ERR_RECORD_CORRUPT',
      message: 'ERR_RECORD_CORRUPT: record corrupt at byte 0: both slots of the anchor x.rec.anchor are damaged',
      detail: { offset: 0, anchor: 'x.rec.anchor' },
    });
    const other = { recordId: new Uint8Array(16).fill(7), count: 3, end: s.validLength, head: s.head };
    const e = thrown(() => checkAnchor(s, { best: other }, 'x.rec'));
    expect([e.message, e.detail]).toEqual([`ERR_RECORD_CORRUPT: record corrupt at byte 0: the anchor x.rec.anchor belongs to record ${'07'.repeat(16)}, not to this record ${'01'.repeat(16)}`, { offset: 0, anchor: 'x.rec.anchor' }]);
  });

  it('refuses a record holding fewer entries than its anchor acknowledged, saying how many of each', () => {
    const s = scanRecord(base.bytes);
    const e = thrown(() => checkAnchor(s, { best: { recordId: id, count: 4, end: s.validLength + 99, head: s.head } }, 'x.rec'));
    expect([e.message, e.detail]).toEqual([
      `ERR_RECORD_CORRUPT: record corrupt at byte ${s.validLength}: the record holds 3 whole entries but its anchor acknowledged 4 (through byte ${s.validLength + 99}): acknowledged entries are missing or damaged`,
      { offset: s.validLength, anchor: 'x.rec.anchor', acknowledged: 4, found: 3 },
    ]);
  });

  it("accepts an anchor naming the record's entry at its count, and refuses one naming another hash or end at the entry it names", () => {
    const s = withEntries;
    const two: Anchor = { recordId: id, count: 2, end: at(s, 2), head: s.hashes[1]! };
    const zero: Anchor = { recordId: id, count: 0, end: s.headerEnd, head: s.headerHash };
    for (const a of [two, zero, { recordId: id, count: 4, end: s.validLength, head: s.head }]) expect(() => checkAnchor(s, { best: a }, 'x.rec'), `count ${a.count}`).not.toThrow();
    const rewritten = (what: string) => `${what} is not the one the anchor x.rec.anchor acknowledged: the record was rewritten`;
    for (const a of [{ ...two, head: s.hashes[2]! }, { ...two, end: at(s, 2) + 1 }]) {
      const e = thrown(() => checkAnchor(s, { best: a }, 'x.rec'));
      expect([e.message, e.detail]).toEqual([`ERR_RECORD_CORRUPT: record corrupt at byte ${at(s, 1)}: ${rewritten('entry #1')}`, { offset: at(s, 1), anchor: 'x.rec.anchor' }]);
    }
    for (const a of [{ ...zero, head: s.hashes[0]! }, { ...zero, end: s.headerEnd - 1 }]) {
      const e = thrown(() => checkAnchor(s, { best: a }, 'x.rec'));
      expect([e.message, e.detail]).toEqual([`ERR_RECORD_CORRUPT: record corrupt at byte 8: ${rewritten('the header')}`, { offset: 8, anchor: 'x.rec.anchor' }]);
    }
  });
});

describe('openRecord', () => {
  it('appends durably: entries survive close and reopen, with ids in order', () => {
    const p = tmpRecord();
    const r = openRecord({ path: p, holder: 'test' });
    expect(r.append({ a: 1n })).toBe(0);
    expect(r.append({ a: 2n })).toBe(1);
    r.close();
    const r2 = openRecord({ path: p, holder: 'test' });
    expect(r2.entries.length).toBe(2);
    expect(r2.tornTail).toBeUndefined();
    expect(r2.append({ a: 3n })).toBe(2);
    r2.close();
    expect(readRecordFile(p).entries.length).toBe(3);
    expect(codeOf(() => r2.append({ a: 4n }))).toBe('ERR_RECORD_CLOSED');
  });

  it('reports a torn tail BEFORE truncating it, then truncates it', () => {
    const p = tmpRecord();
    const w = openRecord({ path: p, holder: 'test' });
    for (const b of bodies) w.append(b);
    w.close();
    const acknowledged = fs.statSync(p).size;
    const head = readRecordFile(p).head;
    fs.appendFileSync(p, frameEntry({ n: 4n }, head).subarray(0, 17));
    const seen: { t: TornTail; size: number }[] = [];
    const r = openRecord({ path: p, holder: 'test', onTornTail: (t) => seen.push({ t, size: fs.statSync(p).size }) });
    expect(seen).toEqual([{ t: expect.objectContaining({ offset: acknowledged, length: 17 }), size: acknowledged + 17 }]);
    expect(r.tornTail).toEqual(seen[0]!.t);
    expect(r.entries.length).toBe(3);
    expect(fs.statSync(p).size).toBe(acknowledged);
    r.append({ after: 1n });
    r.close();
    const s = readRecordFile(p);
    expect(s.torn).toBeUndefined();
    expect(s.entries.length).toBe(4);
  });

  it('refuses to open a damaged record, truncates nothing, and releases it', () => {
    const p = tmpRecord();
    const w = openRecord({ path: p, holder: 'test' });
    for (const b of bodies) w.append(b);
    w.close();
    const good = new Uint8Array(fs.readFileSync(p));
    const bad = good.slice();
    bad[good.length - 5]! ^= 0xff; // the last entry's body
    fs.writeFileSync(p, bad);
    expect(codeOf(() => openRecord({ path: p, holder: 'test' }))).toBe('ERR_RECORD_CORRUPT');
    expect(fs.statSync(p).size).toBe(bad.length); // nothing truncated
    fs.writeFileSync(p, good);
    openRecord({ path: p, holder: 'test' }).close(); // the failed open left no claim behind
  });

  it('creates a record whole: header and anchor in place, no temporary file left', () => {
    const p = tmpRecord();
    const r = openRecord({ path: p, holder: 'creator', recordId: new Uint8Array(16).fill(5) });
    expect(r.created).toBe(true);
    expect(r.header).toEqual({ id: new Uint8Array(16).fill(5), createdBy: 'creator' });
    r.close();
    expect(fs.readdirSync(path.dirname(p)).sort()).toEqual(['decisions.rec', 'decisions.rec.anchor', 'decisions.rec.holder']);
    const again = openRecord({ path: p, holder: 'other' });
    expect(again.created).toBe(false);
    expect(again.header.createdBy).toBe('creator');
    again.close();
    expect(fs.existsSync(anchorPath(p))).toBe(true);
  });

  it('refuses a record whose anchor is lost until an operator anchors it as it stands (anchorRecord), under its claim', () => {
    const p = tmpRecord();
    const w = openRecord({ path: p, holder: 'test' });
    for (const b of bodies) w.append(b);
    w.close();
    fs.rmSync(anchorPath(p));
    expect(codeOf(() => openRecord({ path: p, holder: 'test' }))).toBe('ERR_RECORD_CORRUPT');
    expect(anchorRecord(p, 'operator')).toMatchObject({ count: 3, end: fs.statSync(p).size });
    const r = openRecord({ path: p, holder: 'test' });
    expect(r.entries.length).toBe(3);
    // while it is held, anchoring is refused like any second writer
    expect(codeOf(() => anchorRecord(p, 'operator'))).toBe('ERR_RECORD_LOCKED');
    r.close();
  });

  it('answers ERR_RECORD_IO naming the path and what is wrong for a path that cannot hold a record', () => {
    const d = path.dirname(tmpRecord());
    const cases: [string, RegExp][] = [
      [d, /is a directory/],
      [path.join(d, 'no-such-folder', 'decisions.rec'), /does not exist/],
      [path.join(tmpRecord(), 'below-a-file'), /not a folder|does not exist/],
    ];
    if (fs.existsSync('/dev/null')) cases.push(['/dev/null', /character device/]);
    for (const [p, why] of cases) {
      let err: unknown;
      try {
        openRecord({ path: p, holder: 'test' });
      } catch (e) {
        err = e;
      }
      expect(isJcpError(err, 'ERR_RECORD_IO'), `${p}: ${String(err)}`).toBe(true);
      expect((err as Error).message, p).toContain(p);
      expect((err as Error).message, p).toMatch(why);
    }
    expect(codeOf(() => openRecord({ path: 'a\0b', holder: 'test' }))).toBe('ERR_BAD_ARGUMENT');
  });

  it('cuts a failed append back (a short write, a failing fsync, a failing anchor write): ERR_RECORD_IO and nothing recorded', () => {
    const p = tmpRecord();
    let fail: 'write' | 'fsync' | 'anchor' | 'anchor-fsync' | undefined;
    let anchorWrite = false;
    const io: RecordIo = {
      writeSync(fd, b, off, len, position) {
        anchorWrite = position !== null; // the record's descriptor appends; the anchor's slots are written in place
        if (fail === 'write' || (fail === 'anchor' && position !== null)) {
          fs.writeSync(fd, b, off, Math.max(1, len >> 1), position);
          throw new Error('EIO: disk gone');
        }
        return fs.writeSync(fd, b, off, len, position);
      },
      fsyncSync(fd) {
        if (fail === 'fsync' || (fail === 'anchor-fsync' && anchorWrite)) throw new Error('EIO: fsync failed');
        fs.fsyncSync(fd);
      },
    };
    const r = openRecord({ path: p, holder: 'test', io });
    r.append({ ok: 1n });
    for (const f of ['write', 'fsync', 'anchor', 'anchor-fsync'] as const) {
      fail = f;
      expect(codeOf(() => r.append({ lost: 1n })), f).toBe('ERR_RECORD_IO');
      expect(r.entries.length).toBe(1);
      // the record and its anchor agree again: the entry cut back, the anchor slot it used restored
      expect(readRecordFile(p).entries.length, f).toBe(1);
      fail = undefined;
    }
    expect(r.append({ ok: 2n })).toBe(1);
    r.close();
    const s = readRecordFile(p);
    expect(s.torn).toBeUndefined();
    expect(s.entries.map((e) => (e as Map<unknown, unknown>).get('ok'))).toEqual([1, 2]);
  });
});
