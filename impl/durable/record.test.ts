// impl/durable/record.ts: framing, torn tails of every length, corruption before the last entry, fsync'd appends and
// their failure, reporting a torn tail before truncating it (jcp §4.11 durable record).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { codeOf } from '../_test-support.ts';
import { concatBytes } from '../bytes.ts';
import { blake3 } from '../hash/blake3.ts';
import { frameEntry, openRecord, readRecordFile, RECORD_MAGIC, scanRecord, type RecordIo, type TornTail } from './record.ts';

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
const base = concatBytes(RECORD_MAGIC, ...bodies.map(frameEntry));
const last = frameEntry({ n: 4n, what: 'the entry a crash interrupts', pad: new Uint8Array(25).fill(1) });

describe('scanRecord', () => {
  it('reads back every whole entry in order', () => {
    const s = scanRecord(concatBytes(base, last));
    expect(s.entries.length).toBe(4);
    expect(s.torn).toBeUndefined();
    expect((s.entries[1] as Map<unknown, unknown>).get('what')).toBe('second');
    expect(s.validLength).toBe(base.length + last.length);
  });

  it('reports a torn final entry of every length 1 … len−1 and keeps every entry before it', () => {
    for (let k = 1; k < last.length; k++) {
      const s = scanRecord(concatBytes(base, last.subarray(0, k)));
      expect(s.entries.length, `k=${k}`).toBe(3);
      expect(s.torn, `k=${k}`).toEqual({ offset: base.length, length: k, why: expect.any(String) });
      expect(s.validLength).toBe(base.length);
    }
  });

  it('reports a torn file header of every length', () => {
    for (let k = 1; k < RECORD_MAGIC.length; k++) {
      const s = scanRecord(RECORD_MAGIC.subarray(0, k));
      expect(s.torn).toEqual({ offset: 0, length: k, why: expect.any(String) });
      expect(s.entries).toEqual([]);
    }
    expect(scanRecord(new Uint8Array(0)).torn).toBeUndefined();
  });

  it('treats a garbled or zero-filled last entry as torn, never as an entry', () => {
    const garbled = last.slice();
    garbled[last.length - 3]! ^= 0x40; // the body
    expect(scanRecord(concatBytes(base, garbled)).torn?.offset).toBe(base.length);
    const sumHit = last.slice();
    sumHit[10]! ^= 1; // the checksum
    expect(scanRecord(concatBytes(base, sumHit)).torn?.offset).toBe(base.length);
    const zeros = new Uint8Array(last.length);
    const z = scanRecord(concatBytes(base, zeros));
    expect(z.torn).toEqual({ offset: base.length, length: zeros.length, why: expect.stringContaining('zero') });
    expect(z.entries.length).toBe(3);
  });

  it('refuses (ERR_RECORD_CORRUPT) a flip of any byte of an entry that is not the last', () => {
    const file = concatBytes(base, last);
    const start = RECORD_MAGIC.length + frameEntry(bodies[0]!).length; // the second entry
    const len = frameEntry(bodies[1]!).length;
    for (let i = start; i < start + len; i++) {
      const bad = file.slice();
      bad[i]! ^= 0x01;
      expect(codeOf(() => scanRecord(bad)), `byte ${i}`).toBe('ERR_RECORD_CORRUPT');
    }
  });

  it('refuses a wrong magic, an over-cap length and a verified body that is not canonical CBOR', () => {
    const wrong = base.slice();
    wrong[0] = 0x58;
    expect(codeOf(() => scanRecord(wrong))).toBe('ERR_RECORD_CORRUPT');
    expect(codeOf(() => scanRecord(Uint8Array.of(0x4a, 0x43, 0x51)))).toBe('ERR_RECORD_CORRUPT');
    // a body of 0x18 0x01 (1 in a non-shortest form) framed with correct checks
    const body = Uint8Array.of(0x18, 0x01);
    const len4 = Uint8Array.of(0, 0, 0, 2);
    const framed = concatBytes(len4, blake3(len4).subarray(0, 4), blake3(body), body);
    expect(codeOf(() => scanRecord(concatBytes(RECORD_MAGIC, framed)))).toBe('ERR_RECORD_CORRUPT');
    const big = Uint8Array.of(0x7f, 0, 0, 0);
    expect(codeOf(() => scanRecord(concatBytes(RECORD_MAGIC, big, blake3(big).subarray(0, 4), new Uint8Array(40))))).toBe('ERR_RECORD_CORRUPT');
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
    fs.writeFileSync(p, concatBytes(base, last.subarray(0, 17)));
    const seen: { t: TornTail; size: number }[] = [];
    const r = openRecord({ path: p, holder: 'test', onTornTail: (t) => seen.push({ t, size: fs.statSync(p).size }) });
    expect(seen).toEqual([{ t: { offset: base.length, length: 17, why: expect.any(String) }, size: base.length + 17 }]);
    expect(r.tornTail).toEqual(seen[0]!.t);
    expect(r.entries.length).toBe(3);
    expect(fs.statSync(p).size).toBe(base.length);
    r.append({ after: 1n });
    r.close();
    const s = readRecordFile(p);
    expect(s.torn).toBeUndefined();
    expect(s.entries.length).toBe(4);
  });

  it('refuses to open a record corrupt before its last entry, and releases it', () => {
    const p = tmpRecord();
    const bad = concatBytes(base, last);
    bad[RECORD_MAGIC.length + 12]! ^= 0xff;
    fs.writeFileSync(p, bad);
    expect(codeOf(() => openRecord({ path: p, holder: 'test' }))).toBe('ERR_RECORD_CORRUPT');
    expect(fs.statSync(p).size).toBe(bad.length); // nothing truncated
    fs.writeFileSync(p, base);
    openRecord({ path: p, holder: 'test' }).close(); // the failed open left no claim behind
  });

  it('cuts a failed append back (a short write, a failing fsync): ERR_RECORD_IO and nothing recorded', () => {
    const p = tmpRecord();
    let fail: 'write' | 'fsync' | undefined;
    const io: RecordIo = {
      writeSync(fd, b, off, len) {
        if (fail === 'write') {
          fs.writeSync(fd, b, off, Math.max(1, len >> 1));
          throw new Error('EIO: disk gone');
        }
        return fs.writeSync(fd, b, off, len);
      },
      fsyncSync(fd) {
        if (fail === 'fsync') throw new Error('EIO: fsync failed');
        fs.fsyncSync(fd);
      },
    };
    const r = openRecord({ path: p, holder: 'test', io });
    r.append({ ok: 1n });
    for (const f of ['write', 'fsync'] as const) {
      fail = f;
      expect(codeOf(() => r.append({ lost: 1n }))).toBe('ERR_RECORD_IO');
      expect(r.entries.length).toBe(1);
      fail = undefined;
    }
    expect(r.append({ ok: 2n })).toBe(1);
    r.close();
    const s = readRecordFile(p);
    expect(s.torn).toBeUndefined();
    expect(s.entries.map((e) => (e as Map<unknown, unknown>).get('ok'))).toEqual([1, 2]);
  });
});
