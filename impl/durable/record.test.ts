// impl/durable/record.ts: framing and the chain, torn tails of every length, damage anywhere refused, fsync'd and
// anchored appends and their failure, reporting a torn tail before truncating it, paths that cannot hold a record
// (jcp §4.11 durable record). Every way of damaging a whole record is ./corruption.test.ts.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { codeOf, lazy } from '../_test-support.ts';
import { concatBytes } from '../bytes.ts';
import { blake3 } from '../hash/blake3.ts';
import type { CborInput } from '../cbor/index.ts';
import { isJcpError } from '../errors.ts';
import { anchorPath, anchorRecord, entryHash, frameEntry, openRecord, readRecordFile, recordHead, RECORD_MAGIC, scanRecord, type RecordIo, type TornTail } from './record.ts';

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
