// sense §3 "Total order": the hybrid logical clock Hlc = (physical_ns, logical), its total order, its big-endian
// bytes, and the restart rule "on restart a host seeds it past the maximum stored stamp so new stamps strictly exceed
// all stored ones". The physical anchor is an input (ARCHITECTURE.md: clocks as inputs), never read here.
import { JcpError } from '../errors.ts';
import { _uint } from './_read.ts';

/** A hybrid logical clock stamp: a monotonic anchor in nanoseconds and a tie-breaking counter. */
export interface Hlc {
  readonly physical_ns: bigint;
  readonly logical: bigint;
}

/** The suite's reading of the stamp's width: physical_ns is a u64, logical a u32 (12 big-endian bytes in all). */
export const HLC_LOGICAL_MAX = 0xffff_ffffn;
export const HLC_PHYSICAL_MAX = 0xffff_ffff_ffff_ffffn;

/** sense §3: Hlc::ZERO, the stamp below every issued one; events_since(HLC_ZERO) replays the whole log. */
export const HLC_ZERO: Hlc = Object.freeze({ physical_ns: 0n, logical: 0n });

/** A checked stamp: ERR_SENSE_EVENT_MALFORMED unless physical_ns is a u64 and logical a u32. */
export function makeHlc(physical_ns: unknown, logical: unknown): Hlc {
  return Object.freeze({
    physical_ns: _uint(physical_ns, 'hlc.physical_ns', 'ERR_SENSE_EVENT_MALFORMED', HLC_PHYSICAL_MAX),
    logical: _uint(logical, 'hlc.logical', 'ERR_SENSE_EVENT_MALFORMED', HLC_LOGICAL_MAX),
  });
}

/** The total order of stamps: physical first, then logical. Negative, zero or positive. */
export function compareHlc(a: Hlc, b: Hlc): number {
  if (a.physical_ns !== b.physical_ns) return a.physical_ns < b.physical_ns ? -1 : 1;
  if (a.logical !== b.logical) return a.logical < b.logical ? -1 : 1;
  return 0;
}

/** sense §3: "keyed by the HLC big-endian bytes" — physical_ns as 8 bytes then logical as 4, both big-endian. */
export function hlcBytes(h: Hlc): Uint8Array {
  const out = new Uint8Array(12);
  const dv = new DataView(out.buffer);
  dv.setBigUint64(0, h.physical_ns);
  dv.setUint32(8, Number(h.logical));
  return out;
}

/** A clock issuing strictly increasing stamps from the anchor readings it is given. */
export interface HlcClock {
  /** The next stamp at anchor reading `now_ns`: (now_ns, 0) when the anchor moved past the last stamp, else the last stamp's physical with logical + 1. */
  tick(now_ns: bigint): Hlc;
  /** The last stamp issued (or the seed). */
  last(): Hlc;
}

/**
 * A clock seeded past `maxStored` (sense §3: on restart "new stamps strictly exceed all stored ones"); a fresh log
 * seeds at HLC_ZERO. Every stamp it issues strictly exceeds the seed and every earlier stamp, whatever the anchor does.
 */
export function createHlcClock(maxStored: Hlc = HLC_ZERO): HlcClock {
  let last = makeHlc(maxStored.physical_ns, maxStored.logical);
  return Object.freeze({
    tick(now_ns: bigint): Hlc {
      const now = _uint(now_ns, 'now_ns', 'ERR_BAD_ARGUMENT');
      let next: Hlc;
      // sense §3: "new stamps strictly exceed all stored ones" — each way below issues a greater stamp, or none
      if (now > last.physical_ns) next = { physical_ns: now, logical: 0n };
      else if (last.logical < HLC_LOGICAL_MAX) next = { physical_ns: last.physical_ns, logical: last.logical + 1n };
      // the counter is exhausted at this instant: step the anchor by one nanosecond rather than repeat a stamp
      else if (last.physical_ns < HLC_PHYSICAL_MAX) next = { physical_ns: last.physical_ns + 1n, logical: 0n };
      // past the greatest stamp there is none: 2^64 would be written as Hlc::ZERO's bytes and sort before every other
      else throw new JcpError('ERR_SENSE_EVENT_MALFORMED', `the clock cannot issue a stamp past its last one (${HLC_PHYSICAL_MAX}, ${HLC_LOGICAL_MAX}), the greatest there is`);
      last = Object.freeze(next);
      return last;
    },
    last: () => last,
  });
}
