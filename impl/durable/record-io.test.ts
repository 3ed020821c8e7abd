// impl/durable/record.ts at the file system (jcp §4.11 durable record, C26 one writer per record; ./FORMAT.md):
// reading and writing the record file, the errors that name the path (ERR_RECORD_IO with its errno, corruption with
// its offset), paths that cannot hold a record, the creation sweep of dead creators' temporary files, creation races,
// open retries, failed and poisoned appends, short writes, and operator recovery (anchorRecord).
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { thrown } from '../_test-support.ts';
import type { JcpError } from '../errors.ts';
import { anchorPath, anchorRecord, ANCHOR_SLOTS, frameEntry, openRecord, readAnchor, readRecordFile, type RecordIo, type TornTail } from './record.ts';
import { platformExclusivity, type Exclusivity } from './lock.ts';

const dirs: string[] = [];
function tmpDir(): string {
  const d = fs.mkdtempSync(path.join(os.tmpdir(), 'jcp-record-io-'));
  dirs.push(d);
  return d;
}
function tmpRecord(): string {
  return path.join(tmpDir(), 'decisions.rec');
}
afterEach(() => {
  vi.restoreAllMocks();
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});

const ID_A = new Uint8Array(16).fill(0xa1);
const ID_B = new Uint8Array(16).fill(0xb2);

/** A record at `p` holding `n` entries, closed. */
function written(p: string, n: number, recordId = ID_A): void {
  const r = openRecord({ path: p, holder: 'writer', recordId });
  for (let i = 0; i < n; i++) r.append({ n: BigInt(i), what: `entry ${i}` });
  r.close();
}

/** The platform's claim, with `before` run on each claim attempt (a stand-in for what another process does meanwhile). */
function claimWith(before: (fd: number, call: number) => void): Exclusivity {
  const real = platformExclusivity();
  let call = 0;
  return { mechanism: real.mechanism, claim: (fd) => (before(fd, call++), real.claim(fd)) };
}

/**
 * The descriptors this process holds on files under `dir` (Linux): by their targets, so that descriptors the rest of
 * the process opens or closes meanwhile (other tests' sockets, a test runner's own) do not count.
 */
const fdsUnder = (dir: string): string[] =>
  fs.readdirSync('/proc/self/fd').flatMap((fd) => {
    try {
      const target = fs.readlinkSync(`/proc/self/fd/${fd}`);
      return target.startsWith(`${dir}${path.sep}`) ? [target] : [];
    } catch {
      return []; // closed since the listing
    }
  });
const hasProcFd = fs.existsSync('/proc/self/fd');

describe('errors name the record (jcp §4.11: a path that cannot hold a record, corruption found on reading it)', () => {
  it('reading a missing record: ERR_RECORD_IO with the path, what failed and the errno', () => {
    const p = tmpRecord();
    const e = thrown(() => readRecordFile(p));
    expect(e.code).toBe('ERR_RECORD_IO');
    expect(e.message).toBe(`ERR_RECORD_IO: record ${p}: reading it failed: a folder on its path does not exist (ENOENT)`);
    expect(e.detail).toEqual({ path: p, errno: 'ENOENT' });
    expect((e.cause as NodeJS.ErrnoException).code).toBe('ENOENT');
  });

  it('corruption found on open, on read and on anchoring names the path and keeps the offset', () => {
    const p = tmpRecord();
    written(p, 3);
    const last = readRecordFile(p).offsets[2]!;
    const bytes = new Uint8Array(fs.readFileSync(p));
    bytes[bytes.length - 2]! ^= 0x10; // the last entry's body: whole by length, failing its checksum
    fs.writeFileSync(p, bytes);
    const want = `ERR_RECORD_CORRUPT: record ${p}: corrupt at byte ${last}: the last entry is whole by length but fails its checksum (damaged, not torn)`;
    for (const [what, fn] of [
      ['open', () => openRecord({ path: p, holder: 'reader' })],
      ['read', () => readRecordFile(p)],
      ['anchor', () => anchorRecord(p, 'operator')],
    ] as const) {
      const e = thrown(fn);
      expect(e.message, what).toBe(want);
      expect(e.detail, what).toEqual({ path: p, offset: last });
      // the scan's own error, which could not name the path, is kept as the cause
      expect((e.cause as JcpError).message, what).toBe(`ERR_RECORD_CORRUPT: record corrupt at byte ${last}: the last entry is whole by length but fails its checksum (damaged, not torn)`);
    }
  });

  it('a directory, a missing folder and a path below a file: ERR_RECORD_IO saying which', () => {
    const d = tmpDir();
    const dirErr = thrown(() => openRecord({ path: d, holder: 'test' }));
    expect(dirErr.message).toBe(`ERR_RECORD_IO: record ${d}: it is a directory, not a record file`);
    expect(dirErr.detail).toEqual({ path: d });
    const missing = path.join(d, 'no-such-folder', 'decisions.rec');
    const missErr = thrown(() => openRecord({ path: missing, holder: 'test' }));
    expect(missErr.message).toBe(`ERR_RECORD_IO: record ${missing}: its folder ${path.dirname(missing)} does not exist`);
    expect(missErr.detail).toEqual({ path: missing });
    const file = path.join(d, 'a-file');
    fs.writeFileSync(file, 'x');
    const below = path.join(file, 'decisions.rec');
    const belowErr = thrown(() => openRecord({ path: below, holder: 'test' }));
    expect(belowErr.message).toBe(`ERR_RECORD_IO: record ${below}: looking it up failed: a component of its path is not a folder (ENOTDIR)`);
    expect(belowErr.detail).toEqual({ path: below, errno: 'ENOTDIR' });
    expect(fs.readdirSync(d).sort()).toEqual(['a-file']); // nothing created anywhere
  });

  it('a named pipe, a socket and a block device are not record files, each named for what it is', async () => {
    const d = tmpDir();
    const fifo = path.join(d, 'pipe.rec');
    execFileSync('mkfifo', [fifo]);
    const sock = path.join(d, 'sock.rec');
    const server = net.createServer();
    await new Promise<void>((ok) => server.listen(sock, ok));
    try {
      const cases: [string, string][] = [
        [fifo, 'a named pipe'],
        [sock, 'a socket'],
      ];
      const block = fs.readdirSync('/dev').map((n) => path.join('/dev', n)).find((n) => {
        try {
          return fs.statSync(n).isBlockDevice();
        } catch {
          return false;
        }
      });
      if (block) cases.push([block, 'a block device']);
      for (const [p, kind] of cases) {
        const e = thrown(() => openRecord({ path: p, holder: 'test' }));
        expect(e.message, p).toBe(`ERR_RECORD_IO: record ${p}: it is ${kind}, not a record file`);
        expect(e.detail, p).toEqual({ path: p });
      }
    } finally {
      await new Promise((ok) => server.close(ok));
    }
  });

  it('whatever the claim throws untyped becomes ERR_RECORD_IO: its errno named where the code is not one it explains', () => {
    const busy = Object.assign(new Error('device busy'), { code: 'EBUSY' });
    const cases: [unknown, string, Record<string, unknown>][] = [
      [busy, 'device busy', { errno: 'EBUSY' }],
      ['flock exploded', 'flock exploded', {}],
      [undefined, 'undefined', {}],
    ];
    for (const [thrownByClaim, why, extra] of cases) {
      const d = tmpDir();
      const p = path.join(d, 'decisions.rec');
      const ex: Exclusivity = {
        mechanism: 'scripted',
        claim: () => {
          throw thrownByClaim;
        },
      };
      const e = thrown(() => openRecord({ path: p, holder: 'test', exclusivity: ex }));
      expect(e.message, why).toBe(`ERR_RECORD_IO: record ${p}: opening it failed: ${why}`);
      expect(e.detail, why).toEqual({ path: p, ...extra });
      expect(e.cause, why).toBe(thrownByClaim);
      expect(fs.readdirSync(d), why).toEqual([]); // the creation left nothing
    }
  });

  it('a platform without exclusivity: ERR_RECORD_NO_EXCLUSIVITY as the claim gave it, and nothing is created (jcp §4.11)', () => {
    const d = tmpDir();
    const p = path.join(d, 'decisions.rec');
    const none: Exclusivity = { mechanism: 'none here', claim: () => ({ ok: false, held: false, why: 'no locks on this platform' }) };
    const e = thrown(() => openRecord({ path: p, holder: 'test', exclusivity: none }));
    expect(e.message).toBe(`ERR_RECORD_NO_EXCLUSIVITY: cannot take exclusive access to ${p}: no locks on this platform; refusing to open it unlocked (jcp §4.11)`);
    expect(e.detail).toEqual({ path: p, mechanism: 'none here' });
    expect(fs.readdirSync(d)).toEqual([]);
  });
});

describe('openRecord arguments', () => {
  it('refuses an empty path, a path with NUL and an empty holder, saying what a record needs', () => {
    const p = tmpRecord();
    for (const bad of ['', 'a\0b']) expect(thrown(() => openRecord({ path: bad, holder: 'test' })).message).toBe('ERR_BAD_ARGUMENT: a record needs a path (non-empty text without NUL)');
    expect(thrown(() => openRecord({ path: p, holder: '' })).message).toBe('ERR_BAD_ARGUMENT: a record needs a holder name');
    expect(fs.existsSync(p)).toBe(false);
  });

  it('refuses a record id that is not 16 bytes (15, 17, a plain array), even for a record that exists; takes 16', () => {
    const p = tmpRecord();
    written(p, 1);
    for (const id of [new Uint8Array(15), new Uint8Array(17), Array.from({ length: 16 }, () => 1) as unknown as Uint8Array]) {
      const e = thrown(() => openRecord({ path: p, holder: 'test', recordId: id }));
      expect(e.code).toBe('ERR_BAD_ARGUMENT');
      expect(e.message).toBe('ERR_BAD_ARGUMENT: a record id is 16 bytes');
    }
    // 16 bytes: accepted; the id names only a record this open creates, so the existing record keeps its own
    const r = openRecord({ path: p, holder: 'test', recordId: ID_B });
    expect(r.header.id).toEqual(ID_A);
    expect(r.created).toBe(false);
    r.close();
  });
});

describe('creating a record (./FORMAT.md "Create")', () => {
  it('removes temporary files of creations whose process is gone, and only those', () => {
    const d = tmpDir();
    const p = path.join(d, 'decisions.rec');
    const stem = 'decisions.rec.creating-';
    const dead = `${stem}19999999-0a0b0c0d`; // above any pid_max: no such process (ESRCH)
    const kept = [
      `${stem}1-0a0b0c0d`, // a live process (init)
      `${stem}${process.pid}-0a0b0c0d`, // this process: a creation under way here
      `${stem}4294967296-0a0b0c0d`, // not a process id at all: it cannot be checked, so it is left
      `${stem}abc-0a0b0c0d`, // no pid
      `${'x'.repeat(stem.length)}19999999-0a0b0c0d`, // not a creation file of this record
      `other.rec.creating-19999999-0a0b0c0d`, // another record's
    ];
    for (const n of [dead, ...kept]) fs.writeFileSync(path.join(d, n), 'partial');
    const r = openRecord({ path: p, holder: 'creator', recordId: ID_A });
    expect(r.created).toBe(true);
    r.close();
    expect(fs.readdirSync(d).sort()).toEqual(['decisions.rec', 'decisions.rec.anchor', 'decisions.rec.holder', ...kept].sort());
  });

  it('a record that appears while it is being created is opened instead (the link race), leaving no temporary file', () => {
    const d = tmpDir();
    const p = path.join(d, 'decisions.rec');
    const other = path.join(d, 'other.rec');
    written(other, 2, ID_B);
    // the other creator links its record into place after this creation claimed its temporary file
    const ex = claimWith((_fd, call) => {
      if (call === 0) {
        fs.copyFileSync(other, p);
        fs.copyFileSync(anchorPath(other), anchorPath(p));
      }
    });
    const r = openRecord({ path: p, holder: 'second', recordId: ID_A, exclusivity: ex });
    expect(r.created).toBe(false);
    expect(r.header).toEqual({ id: ID_B, createdBy: 'writer' });
    expect(r.entries.length).toBe(2);
    r.close();
    expect(fs.readdirSync(d).filter((n) => n.includes('.creating-'))).toEqual([]);
  });

  it('a creation whose link fails for another reason is refused (ERR_RECORD_IO) and leaves nothing, no descriptor either', () => {
    const d = tmpDir();
    const p = path.join(d, 'decisions.rec');
    // the temporary file vanishes after it was claimed: the link into place fails (ENOENT), not because p exists
    const ex = claimWith(() => {
      for (const n of fs.readdirSync(d)) if (n.includes('.creating-')) fs.unlinkSync(path.join(d, n));
    });
    const e = thrown(() => openRecord({ path: p, holder: 'test', exclusivity: ex }));
    if (hasProcFd) expect(fdsUnder(d)).toEqual([]);
    expect(e.message).toBe(`ERR_RECORD_IO: record ${p}: opening it failed: a folder on its path does not exist (ENOENT)`);
    expect(e.detail).toEqual({ path: p, errno: 'ENOENT' });
    expect(fs.readdirSync(d)).toEqual([]); // no record, no anchor, no holder file
  });

  it('gives up (ERR_RECORD_IO) on a path that is there to the link but gone to the look-up (a dangling symbolic link)', () => {
    const d = tmpDir();
    const p = path.join(d, 'decisions.rec');
    fs.symlinkSync(path.join(d, 'nowhere'), p);
    const e = thrown(() => openRecord({ path: p, holder: 'test' }));
    expect(e.message).toBe(`ERR_RECORD_IO: record ${p}: it keeps appearing and disappearing while being created`);
    expect(e.detail).toEqual({ path: p });
    expect(fs.readdirSync(d)).toEqual(['decisions.rec']);
  });

  it('a record file gone with its anchor left: a new record where the anchor acknowledged nothing, refused where it acknowledged one', () => {
    const p = tmpRecord();
    written(p, 0);
    fs.rmSync(p);
    const fresh = openRecord({ path: p, holder: 'again', recordId: ID_B });
    expect(fresh.created).toBe(true);
    expect(fresh.header.id).toEqual(ID_B);
    fresh.append({ n: 0n });
    fresh.close();
    fs.rmSync(p);
    const ap = anchorPath(p);
    const e = thrown(() => openRecord({ path: p, holder: 'again' }));
    expect(e.message).toBe(`ERR_RECORD_CORRUPT: record ${p}: corrupt at byte 0: the record file is gone but its anchor ${ap} acknowledged 1 entries: a lost record is not a fresh budget (newRecord starts one)`);
    expect(e.detail).toEqual({ path: p, offset: 0, anchor: ap });
    expect(fs.existsSync(p)).toBe(false);
    const started = openRecord({ path: p, holder: 'again', newRecord: true, recordId: ID_A });
    expect(started.created).toBe(true);
    expect(started.entries).toEqual([]);
    started.close();
  });

  it('newRecord over an empty file starts the record in place, and says it created it', () => {
    const p = tmpRecord();
    fs.writeFileSync(p, new Uint8Array(0));
    const r = openRecord({ path: p, holder: 'starter', newRecord: true, recordId: ID_A });
    expect(r.created).toBe(true);
    expect(r.header).toEqual({ id: ID_A, createdBy: 'starter' });
    r.close();
    expect(readRecordFile(p).entries).toEqual([]);
  });

  it('a header-only record that lost its anchor (a crash before the anchor) opens, and its anchor is written', () => {
    const p = tmpRecord();
    written(p, 0);
    const headerEnd = fs.statSync(p).size;
    fs.rmSync(anchorPath(p));
    const r = openRecord({ path: p, holder: 'test' });
    expect(r.created).toBe(false);
    r.close();
    const a = readAnchor(new Uint8Array(fs.readFileSync(anchorPath(p))));
    expect(a.slots.map((s) => s && { count: s.count, end: s.end })).toEqual([
      { count: 0, end: headerEnd },
      { count: 0, end: headerEnd },
    ]);
  });

  it.skipIf(!hasProcFd)('create, reopen, close and anchorRecord leave no descriptor open', () => {
    const p = tmpRecord();
    written(p, 2);
    const r = openRecord({ path: p, holder: 'test' });
    expect(fdsUnder(path.dirname(p)).length).toBeGreaterThan(0); // the check sees a held record
    r.close();
    anchorRecord(p, 'operator');
    expect(fdsUnder(path.dirname(p))).toEqual([]);
  });
});

describe('opening: the look-up and the open disagree (a record removed or replaced in between)', () => {
  /** fs.statSync answering for `p` with the stats of `as`, `times` times (Infinity: always). */
  function lookUpSays(p: string, as: string, times = Infinity): void {
    const real = fs.statSync.bind(fs);
    const fake = real(as);
    let left = times;
    vi.spyOn(fs, 'statSync').mockImplementation(((f: fs.PathLike, ...rest: unknown[]) => {
      if (f === p && left > 0) {
        left--;
        return fake;
      }
      return (real as (...a: unknown[]) => unknown)(f, ...rest);
    }) as typeof fs.statSync);
  }

  it('a record removed between the look-up and the open is looked up again, and created', () => {
    const d = tmpDir();
    const p = path.join(d, 'decisions.rec');
    const plain = path.join(d, 'plain');
    fs.writeFileSync(plain, 'x');
    lookUpSays(p, plain, 1);
    const r = openRecord({ path: p, holder: 'test', recordId: ID_A });
    expect(r.created).toBe(true);
    expect(r.header.id).toEqual(ID_A);
    r.close();
  });

  it('a record that is found on every look-up and never opens: given up with ERR_RECORD_IO (ENOENT)', () => {
    const d = tmpDir();
    const p = path.join(d, 'decisions.rec');
    const plain = path.join(d, 'plain');
    fs.writeFileSync(plain, 'x');
    lookUpSays(p, plain);
    const e = thrown(() => openRecord({ path: p, holder: 'test' }));
    expect(e.message).toBe(`ERR_RECORD_IO: record ${p}: opening it failed: a folder on its path does not exist (ENOENT)`);
    expect(e.detail).toEqual({ path: p, errno: 'ENOENT' });
  });

  it('an open that fails otherwise (a directory by then) is not retried: ERR_RECORD_IO (EISDIR) from the open', () => {
    const d = tmpDir();
    const p = path.join(d, 'decisions.rec');
    fs.mkdirSync(p);
    const plain = path.join(d, 'plain');
    fs.writeFileSync(plain, 'x');
    lookUpSays(p, plain, 1); // looked up again, it would be refused as a directory without an open
    const e = thrown(() => openRecord({ path: p, holder: 'test' }));
    expect(e.message).toBe(`ERR_RECORD_IO: record ${p}: opening it failed: it is a directory, not a record file (EISDIR)`);
    expect(e.detail).toEqual({ path: p, errno: 'EISDIR' });
  });

  it('a file that is a named pipe once opened is refused after the open, and its claim released', () => {
    const d = tmpDir();
    const p = path.join(d, 'decisions.rec');
    execFileSync('mkfifo', [p]);
    const plain = path.join(d, 'plain');
    fs.writeFileSync(plain, 'x');
    lookUpSays(p, plain);
    const ok: Exclusivity = { mechanism: 'scripted', claim: () => ({ ok: true }) };
    const e = thrown(() => openRecord({ path: p, holder: 'test', exclusivity: ok }));
    if (hasProcFd) expect(fdsUnder(d)).toEqual([]);
    expect(e.message).toBe(`ERR_RECORD_IO: record ${p}: it is a named pipe, not a record file`);
    expect(e.detail).toEqual({ path: p });
  });
});

describe('appending', () => {
  it('a closed record says so; closing twice is harmless', () => {
    const p = tmpRecord();
    const r = openRecord({ path: p, holder: 'test' });
    r.close();
    r.close();
    expect(r.closed).toBe(true);
    expect(thrown(() => r.append({ late: 1n })).message).toBe(`ERR_RECORD_CLOSED: record ${p} is closed`);
  });

  it('a failed append names the record and carries the failure as its cause', () => {
    const p = tmpRecord();
    const failure = new Error('EIO: disk gone');
    let fail = false;
    const io: RecordIo = {
      writeSync: (fd, b, off, len, position) => {
        if (fail) throw failure;
        return fs.writeSync(fd, b, off, len, position);
      },
      fsyncSync: (fd) => fs.fsyncSync(fd),
    };
    const r = openRecord({ path: p, holder: 'test', io });
    fail = true;
    const e = thrown(() => r.append({ lost: 1n }));
    expect(e.message).toBe(`ERR_RECORD_IO: appending to ${p} failed; the entry is not recorded (Error: EIO: disk gone)`);
    expect(e.detail).toEqual({ path: p });
    expect(e.cause).toBe(failure);
    r.close();
  });

  it('an append whose cut-back fails too refuses every later append until reopened; the record keeps what was acknowledged', () => {
    const p = tmpRecord();
    let sabotage = false;
    const io: RecordIo = {
      writeSync: (fd, b, off, len, position) => {
        if (sabotage) {
          fs.closeSync(fd); // the record's descriptor is gone: cutting the record back fails as well
          throw new Error('EIO: disk gone');
        }
        return fs.writeSync(fd, b, off, len, position);
      },
      fsyncSync: (fd) => fs.fsyncSync(fd),
    };
    const r = openRecord({ path: p, holder: 'test', io });
    expect(r.append({ kept: 1n })).toBe(0);
    sabotage = true;
    expect(thrown(() => r.append({ lost: 1n })).message).toBe(`ERR_RECORD_IO: appending to ${p} failed; the entry is not recorded (Error: EIO: disk gone)`);
    sabotage = false;
    const e = thrown(() => r.append({ later: 1n }));
    expect(e.code).toBe('ERR_RECORD_IO');
    expect(e.message.startsWith(`ERR_RECORD_IO: record ${p} refuses appends until it is reopened: a failed append could not be cut back (`)).toBe(true);
    expect(r.entries.length).toBe(1);
    try {
      r.close(); // its record descriptor is already closed
    } catch {
      // EBADF closing the descriptor the sabotage closed
    }
    const again = openRecord({ path: p, holder: 'test' });
    expect(again.entries.map((x) => (x as Map<string, unknown>).get('kept'))).toEqual([1]);
    again.close();
  });

  it('short writes are continued until the entry and its anchor slot are whole: appends to the record, slots in place', () => {
    const p = tmpRecord();
    const writes: { target: string | undefined; position: number | null; off: number; len: number; size: number }[] = [];
    const io: RecordIo = {
      writeSync: (fd, b, off, len, position) => {
        writes.push({ target: hasProcFd ? fs.readlinkSync(`/proc/self/fd/${fd}`) : undefined, position, off, len, size: b.length });
        return fs.writeSync(fd, b, off, Math.min(len, 5), position); // at most 5 bytes a call
      },
      fsyncSync: (fd) => fs.fsyncSync(fd),
    };
    written(p, 0); // created first: a created record's descriptor is that of its (unlinked) temporary file
    const r = openRecord({ path: p, holder: 'test', io });
    for (const b of [{ n: 1n, what: 'first' }, { n: 2n, pad: new Uint8Array(23).fill(4) }, { n: 3n, what: 'third, the last' }]) r.append(b);
    r.close();
    const s = readRecordFile(p); // the record and its anchor agree
    expect(s.entries.length).toBe(3);
    expect(s.torn).toBeUndefined();
    const a = readAnchor(new Uint8Array(fs.readFileSync(anchorPath(p)))).best!;
    expect({ count: a.count, end: a.end }).toEqual({ count: 3, end: fs.statSync(p).size });
    // the io is never asked to write past the bytes it is given
    expect(writes.every((w) => w.off + w.len <= w.size)).toBe(true);
    if (hasProcFd) {
      // the record's writes append (position null); each anchor write lands inside its slot (./FORMAT.md)
      const record = fs.realpathSync(p);
      expect(writes.filter((w) => w.target === record).every((w) => w.position === null)).toBe(true);
      const slotWrites = writes.filter((w) => w.target === fs.realpathSync(anchorPath(p)));
      expect(slotWrites.length).toBeGreaterThan(3);
      for (const w of slotWrites) expect(ANCHOR_SLOTS.some((at) => w.position !== null && w.position === at + w.off)).toBe(true);
    }
  });
});

describe('anchorRecord (operator recovery)', () => {
  it('reports a torn tail, cuts it and anchors what is whole; without a callback it still cuts it', () => {
    for (const withCallback of [true, false]) {
      const p = tmpRecord();
      written(p, 2);
      const whole = fs.statSync(p).size;
      fs.appendFileSync(p, frameEntry({ n: 9n }, readRecordFile(p).head).subarray(0, 30));
      fs.rmSync(anchorPath(p));
      const seen: TornTail[] = [];
      const a = anchorRecord(p, 'operator', withCallback ? { onTornTail: (t) => seen.push(t) } : {});
      expect(a).toMatchObject({ count: 2, end: whole });
      expect(fs.statSync(p).size).toBe(whole);
      if (withCallback) expect(seen).toEqual([expect.objectContaining({ offset: whole, length: 30 })]);
      const r = openRecord({ path: p, holder: 'test' });
      expect(r.tornTail).toBeUndefined();
      expect(r.entries.length).toBe(2);
      r.close();
    }
  });

  it('reports nothing for a record with no torn tail', () => {
    const p = tmpRecord();
    written(p, 1);
    const seen: unknown[] = [];
    expect(anchorRecord(p, 'operator', { onTornTail: (t) => seen.push(t) })).toMatchObject({ count: 1, end: fs.statSync(p).size });
    expect(seen).toEqual([]);
  });

  it('a missing record: ERR_RECORD_IO naming it and what failed', () => {
    const p = tmpRecord();
    const e = thrown(() => anchorRecord(p, 'operator'));
    expect(e.message).toBe(`ERR_RECORD_IO: record ${p}: anchoring it failed: a folder on its path does not exist (ENOENT)`);
    expect(e.detail).toEqual({ path: p, errno: 'ENOENT' });
  });
});
