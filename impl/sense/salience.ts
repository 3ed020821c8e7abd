// sense §4: the reference salience observer — salience, novelty and uncertainty of each event from exact integer
// counts, so two runs over the same events project byte-identically.
//
// The suite's readings: a scalar in [0, 1] travels as integer parts per million (SCALE_PPM), rounded down; the recency
// window is the last SALIENCE_WINDOW events including the current one (fewer at the start of the log); novelty counts
// every event seen so far including the current one.
import type { Event, SourceClass, TrustLevel } from './event.ts';

/** The fixed-point scale of every Sense scalar: 1_000_000 = 1.0. */
export const SCALE_PPM = 1_000_000n;
/** The recency window of the reference observer, in events. */
export const SALIENCE_WINDOW = 16;

/** The three scalars of sense §4, in ppm. */
export interface Projection {
  readonly salience: bigint;
  readonly novelty: bigint;
  readonly uncertainty: bigint;
}

const LOW_TRUST: readonly TrustLevel[] = ['Inferred', 'Untrusted'];

/** A bounded-state observer fed one event at a time. */
export interface Observer {
  /** The projection after `e`. */
  observe(e: Pick<Event, 'source' | 'trust'>): Projection;
}

/** A fresh reference observer. */
export function createObserver(): Observer {
  const window: Array<{ source: SourceClass; low: boolean }> = [];
  const seen = new Map<SourceClass, bigint>();
  let total = 0n;
  return Object.freeze({
    observe(e: Pick<Event, 'source' | 'trust'>): Projection {
      window.push({ source: e.source, low: LOW_TRUST.includes(e.trust) });
      if (window.length > SALIENCE_WINDOW) window.shift();
      seen.set(e.source, (seen.get(e.source) ?? 0n) + 1n);
      total += 1n;
      const w = BigInt(window.length);
      // sense §4: salience — "the fraction of a recency window occupied by the current source class"
      const same = BigInt(window.filter((x) => x.source === e.source).length);
      // sense §4: novelty — "one minus its share of all traffic seen"
      const share = seen.get(e.source)!;
      // sense §4: uncertainty — "the fraction of the window at Inferred/Untrusted"
      const low = BigInt(window.filter((x) => x.low).length);
      return Object.freeze({
        salience: (same * SCALE_PPM) / w,
        novelty: SCALE_PPM - (share * SCALE_PPM + total - 1n) / total, // 1 − ⌈share⌉ keeps the result ⌊1 − share⌋
        uncertainty: (low * SCALE_PPM) / w,
      });
    },
  });
}

/** The projection after each of `events`, by a fresh observer. */
export function project(events: ReadonlyArray<Pick<Event, 'source' | 'trust'>>): Projection[] {
  const o = createObserver();
  return events.map((e) => o.observe(e));
}
