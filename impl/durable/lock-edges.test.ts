// impl/durable/lock.ts at its edges (jcp §4.11 "One writer per record", C26): where exclusivity cannot be had (no libc
// known or loadable, koffi missing, flock answering an error other than "held") the claim answers "not available" and
// the open is refused (ERR_RECORD_NO_EXCLUSIVITY) naming why; an interrupted flock is tried again; a held claim is
// tried again for CLAIM_SETTLE_MS and no longer, then refused (ERR_RECORD_LOCKED) naming the holder from a well-formed
// holder sidecar only. Platforms, koffi and the clock are stood in, so every case runs the same on any machine.
import fs from 'node:fs';
import Module from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { thrown } from '../_test-support.ts';
import { CLAIM_SETTLE_MS, claimRecord, closeClaimed, holderPath, platformExclusivity, readHolder, writeHolder, type ClaimResult, type Exclusivity } from './lock.ts';

type LockModule = typeof import('./lock.ts');

const dirs: string[] = [];
function tmpRecord(): string {
  const d = fs.mkdtempSync(path.join(os.tmpdir(), 'jcp-lock-edges-'));
  dirs.push(d);
  return path.join(d, 'decisions.rec');
}

const realPlatform = Object.getOwnPropertyDescriptor(process, 'platform')!;
const ModuleInternals = Module as unknown as { _load: (request: string, ...rest: unknown[]) => unknown };
const realLoad = ModuleInternals._load;

afterEach(() => {
  Object.defineProperty(process, 'platform', realPlatform);
  ModuleInternals._load = realLoad;
  vi.restoreAllMocks();
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});

let fresh = 0;
/** A fresh instance of lock.ts (its cached exclusivity not yet loaded), as if on a process just started. */
async function freshLock(): Promise<LockModule> {
  return (await import(/* @vite-ignore */ `./lock.ts?edges=${++fresh}`)) as LockModule;
}

function onPlatform(platform: string): void {
  Object.defineProperty(process, 'platform', { value: platform, configurable: true, enumerable: true, writable: false });
}

/** A stand-in for koffi: `flock` answers the scripted results in turn (a number: -1 with that errno; 0: taken). */
interface FakeKoffi {
  loaded: string[];
  calls: Array<[number, number]>;
}
function standInKoffi(opts: { errnos: Record<string, number>; script: number[]; loadable?: (name: string) => boolean }): FakeKoffi {
  const fake: FakeKoffi = { loaded: [], calls: [] };
  let errno = 0;
  const koffi = {
    load(name: string) {
      fake.loaded.push(name);
      if (opts.loadable && !opts.loadable(name)) throw new Error(`cannot open ${name}`);
      return {
        func: (proto: string) => {
          expect(proto).toBe('int flock(int, int)');
          return (fd: number, op: number): number => {
            fake.calls.push([fd, op]);
            const next = opts.script.shift();
            if (next === undefined) throw new Error('flock called more often than scripted');
            if (next === 0) return 0;
            errno = next;
            return -1;
          };
        },
      };
    },
    errno: () => errno,
    os: { errno: opts.errnos },
  };
  ModuleInternals._load = function (request: string, ...rest: unknown[]) {
    if (request === 'koffi') return koffi;
    return realLoad.call(this, request, ...rest);
  };
  return fake;
}

const LINUX_ERRNOS = { EAGAIN: 11, EWOULDBLOCK: 11, EINTR: 4, ENOLCK: 37 };
const LOCK_EX_NB = 2 | 4;

describe('which libc gives flock(2), per platform (jcp §4.11)', () => {
  it('on linux it is flock(2) via libc.so.6, loaded once and kept', () => {
    if (process.platform !== 'linux') return;
    const ex = platformExclusivity();
    expect(ex.mechanism).toBe('flock(2) via libc.so.6');
    expect(platformExclusivity()).toBe(ex);
  });

  it('a platform with no known libc gets an exclusivity that never claims, saying why', async () => {
    onPlatform('aix');
    const lock = await freshLock();
    const ex = lock.platformExclusivity();
    expect(ex.mechanism).toBe('none');
    expect(Object.isFrozen(ex)).toBe(true);
    expect(ex.claim(0)).toEqual({ ok: false, held: false, why: 'no libc with flock(2) is known on platform aix' });
  });

  it('darwin tries libc.dylib then libSystem; where neither loads, the claim is unavailable naming each failure', async () => {
    const fake = standInKoffi({ errnos: LINUX_ERRNOS, script: [], loadable: () => false });
    onPlatform('darwin');
    const ex = (await freshLock()).platformExclusivity();
    expect(fake.loaded).toEqual(['libc.dylib', '/usr/lib/libSystem.B.dylib']);
    expect(ex.mechanism).toBe('none');
    expect(ex.claim(3)).toEqual({
      ok: false,
      held: false,
      why: 'libc could not be loaded (libc.dylib: Error: cannot open libc.dylib; /usr/lib/libSystem.B.dylib: Error: cannot open /usr/lib/libSystem.B.dylib)',
    });
  });

  it('darwin falls back to libSystem when libc.dylib will not load', async () => {
    const fake = standInKoffi({ errnos: LINUX_ERRNOS, script: [0], loadable: (n) => n !== 'libc.dylib' });
    onPlatform('darwin');
    const ex = (await freshLock()).platformExclusivity();
    expect(ex.mechanism).toBe('flock(2) via /usr/lib/libSystem.B.dylib');
    expect(ex.claim(7)).toEqual({ ok: true });
    expect(fake.calls).toEqual([[7, LOCK_EX_NB]]);
  });

  for (const platform of ['freebsd', 'openbsd']) {
    it(`${platform} tries libc.so.7 then libc.so`, async () => {
      const fake = standInKoffi({ errnos: LINUX_ERRNOS, script: [0], loadable: (n) => n === 'libc.so' });
      onPlatform(platform);
      const ex = (await freshLock()).platformExclusivity();
      expect(fake.loaded).toEqual(['libc.so.7', 'libc.so']);
      expect(ex.mechanism).toBe('flock(2) via libc.so');
    });
  }

  it('linux uses libc.so.6 first', async () => {
    const fake = standInKoffi({ errnos: LINUX_ERRNOS, script: [0] });
    onPlatform('linux');
    const ex = (await freshLock()).platformExclusivity();
    expect(fake.loaded).toEqual(['libc.so.6']);
    expect(ex.mechanism).toBe('flock(2) via libc.so.6');
  });

  it('without koffi the claim is unavailable, saying koffi could not be loaded', async () => {
    ModuleInternals._load = function (request: string, ...rest: unknown[]) {
      if (request === 'koffi') throw new Error('no koffi here');
      return realLoad.call(this, request, ...rest);
    };
    const ex = (await freshLock()).platformExclusivity();
    expect(ex.mechanism).toBe('none');
    expect(ex.claim(3)).toEqual({ ok: false, held: false, why: 'koffi could not be loaded (Error: no koffi here)' });
  });
});

describe('what a flock(2) answer means (jcp §4.11)', () => {
  async function flockAnswering(errnos: Record<string, number>, script: number[]): Promise<{ ex: Exclusivity; fake: FakeKoffi }> {
    const fake = standInKoffi({ errnos, script });
    onPlatform('linux');
    return { ex: (await freshLock()).platformExclusivity(), fake };
  }

  it('EWOULDBLOCK means held by another', async () => {
    const { ex } = await flockAnswering({ EWOULDBLOCK: 35, EAGAIN: 35, EINTR: 4 }, [35]);
    expect(ex.claim(3)).toEqual({ ok: false, held: true });
  });

  it('where the platform names only EWOULDBLOCK, that errno means held', async () => {
    const { ex } = await flockAnswering({ EWOULDBLOCK: 35, EINTR: 4 }, [35]);
    expect(ex.claim(3)).toEqual({ ok: false, held: true });
  });

  it('where the platform names only EAGAIN, that errno means held', async () => {
    const { ex } = await flockAnswering({ EAGAIN: 35, EINTR: 4 }, [35]);
    expect(ex.claim(3)).toEqual({ ok: false, held: true });
  });

  it('where the platform names neither, errno 11 means held', async () => {
    const { ex } = await flockAnswering({ EINTR: 4 }, [11]);
    expect(ex.claim(3)).toEqual({ ok: false, held: true });
  });

  it('an interrupted flock (EINTR) is tried again', async () => {
    const { ex, fake } = await flockAnswering(LINUX_ERRNOS, [4, 4, 0]);
    expect(ex.claim(9)).toEqual({ ok: true });
    expect(fake.calls).toEqual([[9, LOCK_EX_NB], [9, LOCK_EX_NB], [9, LOCK_EX_NB]]);
  });

  it("EINTR is the platform's own number for it", async () => {
    const { ex, fake } = await flockAnswering({ EWOULDBLOCK: 35, EINTR: 99 }, [99, 0]);
    expect(ex.claim(9)).toEqual({ ok: true });
    expect(fake.calls.length).toBe(2);
  });

  it('any other errno (ENOLCK) means no exclusivity, naming the errno', async () => {
    const { ex } = await flockAnswering(LINUX_ERRNOS, [37]);
    expect(ex.claim(3)).toEqual({ ok: false, held: false, why: 'flock(2) failed with errno 37' });
  });
});

describe('the holder sidecar (jcp §4.11: a refused opener names the holder)', () => {
  it('names the holder written beside the record', () => {
    const p = tmpRecord();
    writeHolder(p, 'worker-A');
    expect(readHolder(p)).toEqual({ holder: 'worker-A', pid: process.pid });
  });

  const malformed: Array<[string, string]> = [
    ['a holder that is not a string', JSON.stringify({ holder: 5, pid: 12 })],
    ['a pid that is not a number', JSON.stringify({ holder: 'worker-A', pid: '12' })],
    ['no pid', JSON.stringify({ holder: 'worker-A' })],
    ['no holder', JSON.stringify({ pid: 12 })],
    ['bytes that are not JSON', '{"holder": "worker-A", "pid'],
  ];
  for (const [what, text] of malformed) {
    it(`reads as no holder: ${what}`, () => {
      const p = tmpRecord();
      fs.writeFileSync(holderPath(p), text);
      expect(readHolder(p)).toBeUndefined();
    });
  }

  it('reads as no holder when there is no sidecar', () => {
    expect(readHolder(tmpRecord())).toBeUndefined();
  });
});

/** The clock claimSettled reads, and its pauses, stood in: each pause moves the clock by exactly its length. */
function standInClock(): { pauses: number[] } {
  let now = 1_000_000;
  const pauses: number[] = [];
  vi.spyOn(Date, 'now').mockImplementation(() => now);
  vi.spyOn(Atomics, 'wait').mockImplementation((_a, _i, _v, ms) => {
    pauses.push(ms as number);
    now += ms as number;
    return 'timed-out';
  });
  return { pauses };
}

function countingHeld(): Exclusivity & { claims: number } {
  const ex = {
    mechanism: 'test: held',
    claims: 0,
    claim(): ClaimResult {
      ex.claims++;
      return { ok: false, held: true };
    },
  };
  return ex;
}

describe('claimRecord (jcp §4.11)', () => {
  it('a held claim is tried again with pauses doubling from 1 ms up to 20 ms, for exactly CLAIM_SETTLE_MS, then refused', () => {
    const { pauses } = standInClock();
    const ex = countingHeld();
    const p = tmpRecord();
    const e = thrown(() => claimRecord(3, p, 'worker-B', ex));
    expect(e.code).toBe('ERR_RECORD_LOCKED');
    // 1+2+4+8+16 = 31, eight pauses of 20 reach 191, and the last pause stops exactly at the deadline
    expect(CLAIM_SETTLE_MS).toBe(200);
    expect(pauses).toEqual([1, 2, 4, 8, 16, 20, 20, 20, 20, 20, 20, 20, 20, 9]);
    expect(pauses.reduce((a, b) => a + b, 0)).toBe(CLAIM_SETTLE_MS);
    expect(ex.claims).toBe(pauses.length + 1);
  });

  it('a claim taken after being found held is not refused, and writes the sidecar', () => {
    const { pauses } = standInClock();
    let left = 3;
    const ex: Exclusivity = { mechanism: 'test', claim: () => (left-- > 0 ? { ok: false, held: true } : { ok: true }) };
    const p = tmpRecord();
    claimRecord(3, p, 'worker-B', ex);
    expect(pauses).toEqual([1, 2, 4]);
    expect(readHolder(p)).toEqual({ holder: 'worker-B', pid: process.pid });
  });

  it('refused as held names the holder from the sidecar, in the message and the detail', () => {
    standInClock();
    const p = tmpRecord();
    writeHolder(p, 'worker-A');
    const e = thrown(() => claimRecord(3, p, 'worker-B', countingHeld()));
    expect(e.code).toBe('ERR_RECORD_LOCKED');
    expect(e.message).toBe(`ERR_RECORD_LOCKED: record ${p} is held by worker-A (pid ${process.pid}); one writer per record (jcp §4.11)`);
    expect(e.detail).toEqual({ path: p, holder: 'worker-A', pid: process.pid });
  });

  it('refused as held with no sidecar says the holder is unnamed', () => {
    standInClock();
    const p = tmpRecord();
    const e = thrown(() => claimRecord(3, p, 'worker-B', countingHeld()));
    expect(e.code).toBe('ERR_RECORD_LOCKED');
    expect(e.message).toBe(`ERR_RECORD_LOCKED: record ${p} is held by an unnamed holder (its holder file is missing); one writer per record (jcp §4.11)`);
    expect(e.detail).toEqual({ path: p });
  });

  it('no exclusivity is refused at once, naming why and the mechanism, writing no sidecar', () => {
    const { pauses } = standInClock();
    const p = tmpRecord();
    const none: Exclusivity = { mechanism: 'test: ENOLCK', claim: () => ({ ok: false, held: false, why: 'flock(2) failed with errno 37' }) };
    const e = thrown(() => claimRecord(3, p, 'worker-A', none));
    expect(e.code).toBe('ERR_RECORD_NO_EXCLUSIVITY');
    expect(e.message).toBe(
      `ERR_RECORD_NO_EXCLUSIVITY: cannot take exclusive access to ${p}: flock(2) failed with errno 37; refusing to open it unlocked (jcp §4.11)`,
    );
    expect(e.detail).toEqual({ path: p, mechanism: 'test: ENOLCK' });
    expect(pauses).toEqual([]);
    expect(fs.existsSync(holderPath(p))).toBe(false);
  });

  it('with sidecar false the claim is taken and no sidecar is written (the creator writes it later)', () => {
    const p = tmpRecord();
    const ok: Exclusivity = { mechanism: 'test', claim: () => ({ ok: true }) };
    claimRecord(3, p, 'worker-A', ok, false);
    expect(fs.existsSync(holderPath(p))).toBe(false);
    claimRecord(3, p, 'worker-A', ok);
    expect(readHolder(p)).toEqual({ holder: 'worker-A', pid: process.pid });
  });
});

describe('closeClaimed (jcp §4.11: a record closed here is not held by a child forked meanwhile)', () => {
  it('the platform release is flock(2) LOCK_UN on the descriptor', async () => {
    const fake = standInKoffi({ errnos: LINUX_ERRNOS, script: [0, 0] });
    onPlatform('linux');
    const ex = (await freshLock()).platformExclusivity();
    expect(ex.claim(7)).toEqual({ ok: true });
    ex.release!(7);
    expect(fake.calls).toEqual([
      [7, LOCK_EX_NB],
      [7, 8],
    ]);
  });

  it('releases, then closes; closes even where the release throws; and only closes where there is no release', () => {
    const events: string[] = [];
    const fd = fs.openSync(tmpRecord(), 'w');
    const real = fs.closeSync;
    vi.spyOn(fs, 'closeSync').mockImplementation((f: number) => {
      events.push(`close ${f}`);
      real(f);
    });
    closeClaimed(fd, { mechanism: 'test', claim: () => ({ ok: true }), release: (f) => void events.push(`release ${f}`) });
    expect(events).toEqual([`release ${fd}`, `close ${fd}`]);

    events.length = 0;
    const fd2 = fs.openSync(tmpRecord(), 'w');
    const throwing: Exclusivity = {
      mechanism: 'test',
      claim: () => ({ ok: true }),
      release: () => {
        throw new Error('unlock failed');
      },
    };
    expect(() => closeClaimed(fd2, throwing)).toThrow('unlock failed');
    expect(events).toEqual([`close ${fd2}`]);

    events.length = 0;
    const fd3 = fs.openSync(tmpRecord(), 'w');
    closeClaimed(fd3, { mechanism: 'test', claim: () => ({ ok: true }) });
    expect(events).toEqual([`close ${fd3}`]);
  });
});
