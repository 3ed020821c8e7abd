// jcp §4.11 "One writer per record" (C26): the exclusive claim a durable record is opened under. The claim is flock(2)
// LOCK_EX|LOCK_NB on the record's own file descriptor, through koffi into libc, so the operating system releases it
// when the holding process dies ("a crash then leaves nothing to recover"). flock locks belong to the open file
// description, so a second open of the same record is refused even inside the holding process.
// Where exclusivity cannot be had — koffi or libc missing, or flock answering ENOLCK/EINVAL/ENOSYS/EOPNOTSUPP — the
// open fails (ERR_RECORD_NO_EXCLUSIVITY): "the implementation MUST fail to open the record rather than proceed".
import fs from 'node:fs';
import { createRequire } from 'node:module';
import { JcpError } from '../errors.ts';

/** What a claim attempt on a file descriptor came to. */
export type ClaimResult =
  | { readonly ok: true }
  | { readonly ok: false; readonly held: true }
  | { readonly ok: false; readonly held: false; readonly why: string };

/** A way to take an OS-released exclusive claim on an open file; injectable so tests can stand in a platform without one. */
export interface Exclusivity {
  /** What provides the claim, for messages (e.g. "flock(2) via libc.so.6"). */
  readonly mechanism: string;
  /** Tries to claim `fd` exclusively without waiting. */
  claim(fd: number): ClaimResult;
  /**
   * Gives up the claim on `fd` before it is closed; never throws. Where absent, closing the descriptor releases it,
   * once every copy of it is closed (see {@link closeClaimed}).
   */
  release?(fd: number): void;
}

const LOCK_EX = 2;
const LOCK_NB = 4;
const LOCK_UN = 8;

/** The libc names tried, in order, per platform. */
function libcCandidates(): readonly string[] {
  if (process.platform === 'linux') return ['libc.so.6'];
  if (process.platform === 'darwin') return ['libc.dylib', '/usr/lib/libSystem.B.dylib'];
  if (process.platform === 'freebsd' || process.platform === 'openbsd') return ['libc.so.7', 'libc.so'];
  return [];
}

interface Koffi {
  load(path: string): { func(proto: string): (...args: unknown[]) => unknown };
  errno(): number;
  os: { errno: Record<string, number> };
}

let cached: Exclusivity | undefined;

/**
 * The platform's exclusivity: flock(2) through koffi. Never throws; on a platform where it cannot be had, the returned
 * {@link Exclusivity}'s `claim` answers `{ok: false, held: false, why}` so opening the record fails.
 */
export function platformExclusivity(): Exclusivity {
  if (cached) return cached;
  cached = loadFlock();
  return cached;
}

function unavailable(why: string): Exclusivity {
  return Object.freeze({ mechanism: 'none', claim: (): ClaimResult => ({ ok: false, held: false, why }) });
}

function loadFlock(): Exclusivity {
  let koffi: Koffi;
  try {
    koffi = createRequire(import.meta.url)('koffi') as Koffi;
  } catch (e) {
    return unavailable(`koffi could not be loaded (${String(e)})`);
  }
  const names = libcCandidates();
  if (names.length === 0) return unavailable(`no libc with flock(2) is known on platform ${process.platform}`);
  const failures: string[] = [];
  for (const name of names) {
    try {
      const flock = koffi.load(name).func('int flock(int, int)') as (fd: number, op: number) => number;
      const EWOULDBLOCK = koffi.os.errno['EWOULDBLOCK'] ?? koffi.os.errno['EAGAIN'] ?? 11;
      const EINTR = koffi.os.errno['EINTR'] ?? 4;
      return Object.freeze({
        mechanism: `flock(2) via ${name}`,
        claim(fd: number): ClaimResult {
          for (;;) {
            if (flock(fd, LOCK_EX | LOCK_NB) === 0) return { ok: true };
            const errno = koffi.errno();
            if (errno === EINTR) continue;
            if (errno === EWOULDBLOCK) return { ok: false, held: true };
            // ENOLCK, EINVAL, ENOSYS, EOPNOTSUPP, EBADF …: the platform cannot give exclusivity on this file
            return { ok: false, held: false, why: `flock(2) failed with errno ${errno}` };
          }
        },
        release(fd: number): void {
          flock(fd, LOCK_UN);
        },
      });
    } catch (e) {
      failures.push(`${name}: ${String(e)}`);
    }
  }
  return unavailable(`libc could not be loaded (${failures.join('; ')})`);
}

/** Who holds a record: written beside it once the claim is taken, so a refused opener can name the holder. */
export interface HolderInfo {
  readonly holder: string;
  readonly pid: number;
}

/** The sidecar path naming a record's holder. */
export function holderPath(recordPath: string): string {
  return `${recordPath}.holder`;
}

/** Reads the holder sidecar; undefined when absent or unreadable (a holder that died before writing it). */
export function readHolder(recordPath: string): HolderInfo | undefined {
  try {
    const v = JSON.parse(fs.readFileSync(holderPath(recordPath), 'utf8')) as Record<string, unknown>;
    if (typeof v['holder'] !== 'string' || typeof v['pid'] !== 'number') return undefined;
    return { holder: v['holder'], pid: v['pid'] };
  } catch {
    return undefined;
  }
}

/** Writes the holder sidecar of the record at `recordPath` (a temporary file renamed over it). */
export function writeHolder(recordPath: string, holder: string): void {
  const info: HolderInfo = { holder, pid: process.pid };
  const tmp = `${holderPath(recordPath)}.${process.pid}.tmp`;
  fs.writeFileSync(tmp, JSON.stringify(info));
  fs.renameSync(tmp, holderPath(recordPath));
}

/**
 * How long a claim found held is tried again before the open is refused (ms). A record closed a moment ago could still
 * be held for that moment by this very process: a child process forked by another thread (any spawn) holds a copy of
 * every descriptor open at the fork, and with it the open file description the lock belongs to, until it execs and
 * the copies close (measured here: with one worker thread spawning in a loop, about one reopen in five found its own
 * closed record held; on a loaded machine a fork outlasted this wait, 1 reopen in 400). {@link closeClaimed} now
 * releases the claim before closing, which covers a record closed here; the wait stays for a claim closed without it
 * (an exclusivity with no `release`). Another writer holds it for as long as it runs, so it is still refused.
 */
export const CLAIM_SETTLE_MS = 200;

/** Blocks this thread for `ms` milliseconds (the claim is synchronous, as the open is). */
function pause(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

/**
 * Releases the claim on `fd`, then closes it. The claim belongs to the open file description, which a child forked by
 * any thread of this process shares until it execs: closing alone would leave the record held for that moment, and a
 * reopen in it refused as if another writer held it. An explicit unlock releases it for every copy at once.
 */
export function closeClaimed(fd: number, ex: Exclusivity = platformExclusivity()): void {
  try {
    ex.release?.(fd);
  } finally {
    fs.closeSync(fd);
  }
}

/** Claims `fd`, trying again for up to {@link CLAIM_SETTLE_MS} while it is found held. */
function claimSettled(ex: Exclusivity, fd: number): ClaimResult {
  const until = Date.now() + CLAIM_SETTLE_MS;
  for (let wait = 1; ; wait = Math.min(wait * 2, 20)) {
    const r = ex.claim(fd);
    if (r.ok || !r.held || Date.now() >= until) return r;
    pause(Math.min(wait, Math.max(1, until - Date.now())));
  }
}

/**
 * Claims `fd` (the record at `recordPath`) exclusively for `holder`, then (unless `sidecar` is false: a record being
 * created, whose creator writes it once the record is in place) writes the holder sidecar.
 * Throws ERR_RECORD_LOCKED naming the current holder (detail.holder, detail.pid) when another writer holds it (still,
 * after {@link CLAIM_SETTLE_MS}), and ERR_RECORD_NO_EXCLUSIVITY when the platform cannot provide exclusivity. The
 * caller closes `fd` on a throw.
 */
export function claimRecord(fd: number, recordPath: string, holder: string, ex: Exclusivity = platformExclusivity(), sidecar = true): void {
  const r = claimSettled(ex, fd);
  if (!r.ok) {
    if (r.held) {
      // the sidecar is written just after the claim is taken, so in that instant it may still name the previous holder
      const h = readHolder(recordPath);
      const who = h ? `${h.holder} (pid ${h.pid})` : 'an unnamed holder (its holder file is missing)';
      // jcp §4.11: "MUST fail to start rather than proceed where another writer already holds it"
      throw new JcpError('ERR_RECORD_LOCKED', `record ${recordPath} is held by ${who}; one writer per record (jcp §4.11)`, {
        path: recordPath,
        ...(h ? { holder: h.holder, pid: h.pid } : {}),
      });
    }
    // jcp §4.11: "Where a platform cannot provide exclusivity at all, the implementation MUST fail to open the record"
    throw new JcpError('ERR_RECORD_NO_EXCLUSIVITY', `cannot take exclusive access to ${recordPath}: ${r.why}; refusing to open it unlocked (jcp §4.11)`, {
      path: recordPath,
      mechanism: ex.mechanism,
    });
  }
  if (sidecar) writeHolder(recordPath, holder);
}
