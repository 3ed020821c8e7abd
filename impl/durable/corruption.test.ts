// impl/durable/record.ts under corruption (jcp §4.11 "a restart is not a fresh budget", §8.1; C26): a small record of
// acknowledged entries is damaged every way a file can be — cut at every byte offset, a bit flipped at every byte of
// the record and of its anchor, garbage or zeros appended, a middle entry deleted, two entries swapped, cut to 0 bytes,
// to its magic, to its header, its anchor lost or swapped for another record's — and each is held to its expected
// outcome (refused with a given code, or opened with what was cut away reported) and to the one rule under all of
// them: no acknowledged entry is lost silently. Either the open throws a typed code, or every acknowledged entry is
// there; a reported torn tail starts past the last acknowledged entry (./FORMAT.md).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { bytesEqual, concatBytes } from '../bytes.ts';
import { encodeCanonical, type CborValue } from '../cbor/index.ts';
import { isJcpError } from '../errors.ts';
import { describeTornTail } from './point.ts';
import { anchorPath, ANCHOR_BYTES, ENTRY_OVERHEAD, entryHash, frameEntry, openRecord, readAnchor, RECORD_MAGIC, type TornTail } from './record.ts';

let dir: string;
beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'jcp-corrupt-'));
});
afterAll(() => {
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

const RECORD_ID = new Uint8Array(16).fill(0x26);
const KEY = new Uint8Array(32).fill(0xab);
/** Entry bodies shaped as the point's entries are (a decision carries its request key first, in canonical order). */
const BODIES = [
  { kind: 'decision', key: new Uint8Array(32).fill(1), verdict: 'allow', note: 'first' },
  { kind: 'outcome', entry: 0n, outcome: 'completed' },
  { kind: 'decision', key: new Uint8Array(32).fill(3), verdict: 'deny', pad: new Uint8Array(20).fill(9) },
];
const NEXT = { kind: 'decision', key: KEY, verdict: 'allow', note: 'the append a crash interrupts' };

/**
 * The acknowledged record: every body appended (fsync'd and anchored) through openRecord; its bytes and its anchor's.
 * Made before the first test that needs it, not in beforeAll: run outside every test, the record code it reaches would
 * count as static to Stryker (tested only by reloading every test file).
 */
let good: Uint8Array;
let anchor: Uint8Array;
let offsets: number[];
let headerEnd: number;
let acknowledged: Uint8Array[];
let made = false;
beforeEach(() => {
  if (made) return;
  const p = path.join(dir, 'source.rec');
  const r = openRecord({ path: p, holder: 'writer', recordId: RECORD_ID });
  for (const b of BODIES) r.append(b);
  r.close();
  good = new Uint8Array(fs.readFileSync(p));
  anchor = new Uint8Array(fs.readFileSync(anchorPath(p)));
  const again = openRecord({ path: p, holder: 'reader' });
  offsets = [];
  // the offsets, from the frames themselves: each entry is its body's length plus the frame overhead
  headerEnd = good.length - BODIES.reduce((n, b) => n + ENTRY_OVERHEAD + encodeCanonical(b).length, 0);
  let at = headerEnd;
  for (const b of BODIES) {
    offsets.push(at);
    at += ENTRY_OVERHEAD + encodeCanonical(b).length;
  }
  acknowledged = again.entries.map((e) => encodeCanonical(e));
  again.close();
  made = true;
});

type Outcome = { readonly refused: string; readonly offset?: number; readonly message: string } | { readonly opened: readonly CborValue[]; readonly torn: TornTail | undefined; readonly sizeAfter: number };

let n = 0;
/** Opens `record` (none: no record file) with `anc` as its anchor file (null: none), in a fresh folder. */
function attempt(record: Uint8Array | undefined, anc: Uint8Array | null = anchor, opts: { newRecord?: boolean } = {}): Outcome {
  const d = path.join(dir, `case-${n++}`);
  fs.mkdirSync(d);
  const p = path.join(d, 'decisions.rec');
  if (record) fs.writeFileSync(p, record);
  if (anc) fs.writeFileSync(anchorPath(p), anc);
  const seen: TornTail[] = [];
  try {
    const r = openRecord({ path: p, holder: 'reopener', onTornTail: (t) => seen.push(t), ...opts });
    r.close();
    expect(seen).toEqual(r.tornTail ? [r.tornTail] : []);
    return { opened: r.entries, torn: r.tornTail, sizeAfter: fs.statSync(p).size };
  } catch (e) {
    if (!isJcpError(e)) throw e;
    const offset = (e.detail as { offset?: number } | undefined)?.offset;
    return { refused: e.code, ...(offset === undefined ? {} : { offset }), message: e.message };
  } finally {
    fs.rmSync(d, { recursive: true, force: true });
  }
}

/** The rule under every case: refused with a typed code, or every acknowledged entry there and any torn tail past them. */
function noSilentLoss(o: Outcome, what: string): void {
  if ('refused' in o) {
    expect(o.refused, what).toMatch(/^ERR_RECORD_/);
    return;
  }
  const got = o.opened.map((e) => encodeCanonical(e));
  expect(got.length, `${what}: every acknowledged entry is there`).toBeGreaterThanOrEqual(acknowledged.length);
  acknowledged.forEach((a, i) => expect(bytesEqual(got[i]!, a), `${what}: acknowledged entry #${i} unchanged`).toBe(true));
  if (o.torn) expect(o.torn.offset, `${what}: the torn tail starts past the acknowledged entries`).toBeGreaterThanOrEqual(good.length);
}

const refused = (o: Outcome): string => ('refused' in o ? o.refused : 'opened');

describe('a record cut short', () => {
  it('refuses a cut at every byte offset (every byte was acknowledged), and loses nothing silently', () => {
    const offsetsSeen = new Set<number>();
    for (let k = 0; k < good.length; k++) {
      const o = attempt(good.subarray(0, k));
      noSilentLoss(o, `cut to ${k} bytes`);
      expect(refused(o), `cut to ${k} bytes`).toBe('ERR_RECORD_CORRUPT');
      if ('refused' in o && o.offset !== undefined) offsetsSeen.add(o.offset);
    }
    // a cut inside an entry is named at the entry it cut (or the header), never at the end of the file
    expect([...offsetsSeen].every((at) => at === 0 || at === RECORD_MAGIC.length || at === headerEnd || offsets.includes(at))).toBe(true);
  });

  it('refuses a record cut to 0 bytes, to its 8-byte magic and to its header alone; newRecord starts over only below the header', () => {
    for (const [what, k] of [['0 bytes', 0], ['its magic', 8], ['its header', headerEnd]] as const) {
      const o = attempt(good.subarray(0, k));
      expect(refused(o), what).toBe('ERR_RECORD_CORRUPT');
      noSilentLoss(o, what);
    }
    // with no anchor left either, an existing empty or header-less file is still not a fresh budget
    for (const k of [0, 5, 8, 20]) expect(refused(attempt(good.subarray(0, k), null)), `cut to ${k}, no anchor`).toBe('ERR_RECORD_CORRUPT');
    // the operator's explicit new record, where the file holds no header: a new, empty record
    for (const k of [0, 8, 20]) {
      const o = attempt(good.subarray(0, k), anchor, { newRecord: true });
      expect('opened' in o && o.opened.length, `newRecord over ${k} bytes`).toBe(0);
    }
    // newRecord never discards a record that has its header: its lost entries are still refused
    expect(refused(attempt(good.subarray(0, headerEnd), anchor, { newRecord: true }))).toBe('ERR_RECORD_CORRUPT');
  });

  it('refuses a record file that is gone while its anchor is left; newRecord starts a new one there', () => {
    expect(refused(attempt(undefined))).toBe('ERR_RECORD_CORRUPT');
    const o = attempt(undefined, anchor, { newRecord: true });
    expect('opened' in o && o.opened.length).toBe(0);
    // nothing at all there: a new record
    const fresh = attempt(undefined, null);
    expect('opened' in fresh && fresh.opened.length).toBe(0);
  });
});

describe('a record with a bit flipped', () => {
  it('refuses a flip of any bit pattern at every byte of the record (each byte is under a checksum or the chain)', () => {
    for (let i = 0; i < good.length; i++) {
      for (const bit of [0x01, 0x80]) {
        const bad = good.slice();
        bad[i]! ^= bit;
        const o = attempt(bad);
        noSilentLoss(o, `byte ${i} ^ ${bit}`);
        expect(refused(o), `byte ${i} ^ ${bit}`).toBe('ERR_RECORD_CORRUPT');
      }
    }
  });

  it('a flip in the last entry is damage, never a torn write: refused, nothing truncated', () => {
    const last = offsets.at(-1)!;
    for (let i = last; i < good.length; i++) {
      const bad = good.slice();
      bad[i]! ^= 0x10;
      const o = attempt(bad);
      expect(o, `byte ${i}`).toMatchObject({ refused: 'ERR_RECORD_CORRUPT', offset: last });
    }
  });

  it('refuses zeros over an acknowledged entry (zeros are taken for an unwritten append only past the anchored end)', () => {
    for (const i of [0, 1, 2]) {
      const bad = good.slice();
      bad.fill(0, offsets[i]!, i === 2 ? good.length : offsets[i + 1]!);
      const o = attempt(bad);
      noSilentLoss(o, `entry #${i} zeroed`);
      expect(refused(o), `entry #${i} zeroed`).toBe('ERR_RECORD_CORRUPT');
    }
  });

  it('opens with every entry when one bit of the anchor flips (its other slot holds the state before), and refuses a lost anchor', () => {
    for (let i = 0; i < ANCHOR_BYTES; i++) {
      const bad = anchor.slice();
      bad[i]! ^= 0x04;
      const o = attempt(good, bad);
      noSilentLoss(o, `anchor byte ${i}`);
      expect('opened' in o && o.opened.length, `anchor byte ${i}`).toBe(BODIES.length);
    }
    // both slots damaged, the anchor cut to nothing, or gone: what was acknowledged cannot be checked, so refused
    const both = anchor.slice();
    both[10]! ^= 1;
    both[520]! ^= 1;
    for (const [what, anc] of [['both slots damaged', both], ['cut to 0 bytes', new Uint8Array(0)], ['missing', null]] as const) {
      expect(refused(attempt(good, anc)), what).toBe('ERR_RECORD_CORRUPT');
    }
  });

  it("refuses another record's anchor", () => {
    const p = path.join(dir, 'other.rec');
    const r = openRecord({ path: p, holder: 'other', recordId: new Uint8Array(16).fill(7) });
    for (const b of BODIES) r.append(b);
    r.close();
    expect(attempt(good, new Uint8Array(fs.readFileSync(anchorPath(p))))).toMatchObject({ refused: 'ERR_RECORD_CORRUPT', message: expect.stringContaining('belongs to record') });
  });
});

describe('a record with entries removed, reordered or added', () => {
  const slice = (i: number) => good.subarray(offsets[i]!, offsets[i + 1] ?? good.length);

  it('refuses a deleted middle entry at the entry that no longer follows the one before it', () => {
    const bad = concatBytes(good.subarray(0, offsets[1]!), slice(2));
    expect(attempt(bad)).toMatchObject({ refused: 'ERR_RECORD_CORRUPT', offset: offsets[1], message: expect.stringContaining('does not follow') });
    // the same without the anchor: the chain alone catches it
    expect(attempt(bad, null)).toMatchObject({ refused: 'ERR_RECORD_CORRUPT', offset: offsets[1] });
  });

  it('refuses two entries swapped', () => {
    const bad = concatBytes(good.subarray(0, offsets[0]!), slice(1), slice(0), slice(2));
    expect(attempt(bad)).toMatchObject({ refused: 'ERR_RECORD_CORRUPT', offset: offsets[0], message: expect.stringContaining('does not follow') });
  });

  it('refuses a removed last entry: the newest anchor slot acknowledged it', () => {
    expect(refused(attempt(good.subarray(0, offsets[2]!)))).toBe('ERR_RECORD_CORRUPT');
  });

  it('opens an entry appended whole and chained but not yet anchored (a crash between the fsync and the anchor)', () => {
    const more = frameEntry(NEXT, entryHash(good.subarray(offsets[2]!)));
    const o = attempt(concatBytes(good, more));
    noSilentLoss(o, 'an unanchored whole entry');
    expect('opened' in o && o.opened.length).toBe(BODIES.length + 1);
    expect('opened' in o && o.torn).toBeUndefined();
    // an appended whole entry that does not chain to the last is refused, not taken
    expect(attempt(concatBytes(good, frameEntry(NEXT, new Uint8Array(32))))).toMatchObject({ refused: 'ERR_RECORD_CORRUPT', offset: good.length });
  });
});

describe('bytes appended past the acknowledged entries', () => {
  const next = (): Uint8Array => frameEntry(NEXT, entryHash(good.subarray(offsets[2]!)));

  it('reports and cuts away a torn append of every length 1 … len−1, never an acknowledged entry', () => {
    const frame = next();
    for (let k = 1; k < frame.length; k++) {
      const o = attempt(concatBytes(good, frame.subarray(0, k)));
      noSilentLoss(o, `torn at ${k}`);
      if (!('opened' in o)) throw new Error(`torn at ${k}: refused ${o.refused} (${o.message})`);
      expect(o.torn, `torn at ${k}`).toMatchObject({ offset: good.length, length: k });
      // the declared length is known once the length header is whole, and the bytes are cut away
      expect(o.torn!.declared, `torn at ${k}`).toBe(k >= 8 ? frame.length : undefined);
      expect(o.sizeAfter).toBe(good.length);
      // the request key is read from the torn bytes once its encoding is whole (the first field, in canonical order)
      const keyEnd = ENTRY_OVERHEAD + 1 + 4 + 2 + 32;
      const t = describeTornTail(o.torn!);
      if (k >= keyEnd) expect(t.requestKey, `torn at ${k}`).toEqual(KEY);
      else {
        expect(t.requestKey, `torn at ${k}`).toBeUndefined();
        expect(t.summary, `torn at ${k}`).toContain('cannot be decoded');
      }
    }
  });

  it('reports and cuts away zeros an append left allocated but unwritten, of any length', () => {
    for (const k of [1, 7, 8, 72, 73, 200, next().length]) {
      const o = attempt(concatBytes(good, new Uint8Array(k)));
      noSilentLoss(o, `${k} zeros`);
      expect(o, `${k} zeros`).toMatchObject({ torn: { offset: good.length, length: k }, sizeAfter: good.length });
    }
  });

  it('reports fewer than 8 garbage bytes as a torn length header, and refuses 8 or more that do not form an entry', () => {
    const garbage = Uint8Array.from({ length: 100 }, (_, i) => (i * 37 + 11) & 0xff || 1);
    for (let k = 1; k < garbage.length; k++) {
      const o = attempt(concatBytes(good, garbage.subarray(0, k)));
      noSilentLoss(o, `${k} garbage bytes`);
      if (k < 8) expect(o, `${k} garbage bytes`).toMatchObject({ torn: { offset: good.length, length: k } });
      else expect(o, `${k} garbage bytes`).toMatchObject({ refused: 'ERR_RECORD_CORRUPT', offset: good.length });
    }
  });

  it('a torn tail is reported before it is cut away, and a reopen finds none', () => {
    const d = path.join(dir, 'report-first');
    fs.mkdirSync(d);
    const p = path.join(d, 'decisions.rec');
    const frame = next();
    fs.writeFileSync(p, concatBytes(good, frame.subarray(0, 60)));
    fs.writeFileSync(anchorPath(p), anchor);
    const sizes: number[] = [];
    openRecord({ path: p, holder: 'x', onTornTail: () => sizes.push(fs.statSync(p).size) }).close();
    expect(sizes).toEqual([good.length + 60]);
    const again = openRecord({ path: p, holder: 'x' });
    expect(again.tornTail).toBeUndefined();
    expect(again.entries.length).toBe(BODIES.length);
    again.close();
    // and the anchor now names the record as it stands: both slots, the last entry
    expect(readAnchor(new Uint8Array(fs.readFileSync(anchorPath(p)))).slots.map((s) => s?.count)).toEqual([BODIES.length, BODIES.length]);
  });
});
