// sense §3 "Replay determinism": an in-memory event log keyed by its HLC, events_since in clock order, and the replay
// digest — blake3 over each event's content id in order (conformance C1).
//
// The suite's readings: events_since(h) yields the events whose stamp is strictly after h (a cursor), so
// events_since(HLC_ZERO) is the whole log because no event may carry HLC_ZERO; the digest hashes each content id's
// 32 raw bytes (not its hex), concatenated in clock order; the digest is lowercase hex on the wire like every Cid.
import { concatBytes, toHex } from '../bytes.ts';
import { JcpError } from '../errors.ts';
import { blake3 } from '../hash/blake3.ts';
import { eventIdBytes, type Event } from './event.ts';
import { compareHlc, HLC_ZERO, type Hlc } from './hlc.ts';

/** An event log: append in any order, read back in clock order. */
export interface EventLog {
  /** Adds an event; ERR_SENSE_EVENT_MALFORMED for a stamp of HLC_ZERO or one already on the log (the HLC is the key). */
  append(e: Event): void;
  /** sense §3: the events stamped strictly after `since`, in clock order. */
  eventsSince(since: Hlc): Event[];
  /** The largest stamp on the log (HLC_ZERO when empty): the seed of a restarted clock. */
  maxStamp(): Hlc;
}

/** A fresh, empty {@link EventLog}. */
export function createEventLog(): EventLog {
  const events: Event[] = [];
  return Object.freeze({
    append(e: Event): void {
      if (compareHlc(e.hlc, HLC_ZERO) <= 0) throw new JcpError('ERR_SENSE_EVENT_MALFORMED', 'an event stamp must exceed Hlc::ZERO');
      // sense §3: "Events are keyed by an Hlc" — a key names one event
      let i = events.length;
      while (i > 0 && compareHlc(events[i - 1]!.hlc, e.hlc) > 0) i--;
      if (i > 0 && compareHlc(events[i - 1]!.hlc, e.hlc) === 0) {
        throw new JcpError('ERR_SENSE_EVENT_MALFORMED', `an event is already stamped (${e.hlc.physical_ns}, ${e.hlc.logical})`);
      }
      events.splice(i, 0, e);
    },
    eventsSince: (since: Hlc) => events.filter((e) => compareHlc(e.hlc, since) > 0),
    maxStamp: () => events.at(-1)?.hlc ?? HLC_ZERO,
  });
}

/** sense §3: "blake3 over each event's content id in order", lowercase hex. */
export function replayDigest(events: readonly Event[]): string {
  return toHex(blake3(concatBytes(...events.map(eventIdBytes))));
}
