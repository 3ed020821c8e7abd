// Unit tests of sense §2/§3 events, the HLC and the log (impl/sense/{event,hlc,log}.ts): the content id's byte layout,
// that it binds source and trust, the clock's strict order across a restart, and replay determinism.
import fc from 'fast-check';
import { blake3 as nobleBlake3 } from '@noble/hashes/blake3.js';
import { describe, expect, it } from 'vitest';
import { codeOf, thrown } from '../_test-support.ts';
import { concatBytes, fromHex, toHex } from '../bytes.ts';
import { eventId, eventIdPreimage, makeEvent, payloadCid, SOURCE_CLASSES, TRUST_LEVELS, type Event } from './event.ts';
import { compareHlc, createHlcClock, HLC_LOGICAL_MAX, HLC_ZERO, hlcBytes, makeHlc } from './hlc.ts';
import { createEventLog, replayDigest } from './log.ts';

const utf8 = new TextEncoder();
const FC = { seed: 0x5e115e, numRuns: 100 } as const;

const ev = (physical: bigint, over: Partial<Parameters<typeof makeEvent>[0]> = {}): Event =>
  makeEvent({ hlc: makeHlc(physical, 0n), source: 'shell', trust: 'FirstParty', payload: payloadCid(utf8.encode(`p${physical}`)), line: `ran make ${physical}`, ...over });

/** The preimage built independently, field by field, from the layout in event.ts's header. */
function handPreimage(e: Event): Uint8Array {
  const lp = (b: Uint8Array) => concatBytes(Uint8Array.of(b.length >>> 24, (b.length >>> 16) & 255, (b.length >>> 8) & 255, b.length & 255), b);
  const hlc = new Uint8Array(12);
  new DataView(hlc.buffer).setBigUint64(0, e.hlc.physical_ns);
  new DataView(hlc.buffer).setUint32(8, Number(e.hlc.logical));
  const vt = new Uint8Array(e.valid_time_ns === undefined ? 0 : 8);
  if (e.valid_time_ns !== undefined) new DataView(vt.buffer).setBigUint64(0, e.valid_time_ns);
  return concatBytes(lp(hlc), lp(utf8.encode(e.source)), lp(vt), lp(utf8.encode(e.trust)), lp(fromHex(e.payload)), lp(utf8.encode(e.line)));
}

const arbEvent = fc.record({
  physical: fc.bigInt({ min: 1n, max: (1n << 64n) - 1n }),
  logical: fc.bigInt({ min: 0n, max: HLC_LOGICAL_MAX }),
  source: fc.constantFrom(...SOURCE_CLASSES, 'vendor:1024', 'vendor:99999'),
  trust: fc.constantFrom(...TRUST_LEVELS),
  payload: fc.uint8Array({ maxLength: 64 }),
  line: fc.string({ maxLength: 40 }),
  valid: fc.option(fc.bigInt({ min: 0n, max: (1n << 64n) - 1n }), { nil: undefined }),
}).map((r) => makeEvent({ hlc: makeHlc(r.physical, r.logical), source: r.source, trust: r.trust, payload: payloadCid(r.payload), line: r.line, ...(r.valid !== undefined ? { valid_time_ns: r.valid } : {}) }));

describe('sense §2 event content id', () => {
  it('a Cid is blake3 of the payload bytes, lowercase hex', () => {
    expect(payloadCid(utf8.encode('abc'))).toBe(toHex(nobleBlake3(utf8.encode('abc'))));
    expect(payloadCid(new Uint8Array(0))).toMatch(/^[0-9a-f]{64}$/);
  });

  it('the id is blake3 over the fixed-order, u32-length-prefixed concatenation of the fields', () => {
    fc.assert(
      fc.property(arbEvent, (e) => {
        expect(eventIdPreimage(e)).toEqual(handPreimage(e));
        expect(eventId(e)).toBe(toHex(nobleBlake3(handPreimage(e))));
      }),
      FC,
    );
  });

  it('re-tagging the source class or the trust level changes the id (C2)', () => {
    fc.assert(
      fc.property(arbEvent, fc.constantFrom(...SOURCE_CLASSES), fc.constantFrom(...TRUST_LEVELS), (e, source, trust) => {
        if (source !== e.source) expect(eventId({ ...e, source })).not.toBe(eventId(e));
        if (trust !== e.trust) expect(eventId({ ...e, trust })).not.toBe(eventId(e));
      }),
      FC,
    );
  });

  it('an absent valid_time_ns and a valid_time_ns of 0 give different ids', () => {
    const e = ev(5n);
    expect(eventId(makeEvent({ ...e, valid_time_ns: 0n }))).not.toBe(eventId(e));
  });

  it('defaults trust to Untrusted', () => {
    const { trust: _t, ...rest } = ev(5n);
    expect(makeEvent(rest).trust).toBe('Untrusted');
  });

  it('refuses malformed events with ERR_SENSE_EVENT_MALFORMED', () => {
    const e = ev(5n);
    for (const bad of [
      { ...e, source: 'inotify' },
      { ...e, source: 'vendor:1023' },
      { ...e, source: 'vendor:01024' },
      { ...e, trust: 'Trusted' },
      { ...e, payload: e.payload.toUpperCase() },
      { ...e, payload: 'ab' },
      { ...e, line: 7 as never },
      { ...e, line: '\uD800' },
      { ...e, hlc: { physical_ns: -1n, logical: 0n } },
      { ...e, hlc: { physical_ns: 1n, logical: HLC_LOGICAL_MAX + 1n } },
      { ...e, valid_time_ns: -3n },
    ]) {
      expect(codeOf(() => makeEvent(bad as never)), JSON.stringify(bad, (_k, v) => (typeof v === 'bigint' ? String(v) : v))).toBe('ERR_SENSE_EVENT_MALFORMED');
    }
  });
});

describe('sense §3 the hybrid logical clock', () => {
  it('stamps are big-endian: byte order agrees with the total order', () => {
    fc.assert(
      fc.property(arbEvent, arbEvent, (a, b) => {
        const c = compareHlc(a.hlc, b.hlc);
        const x = toHex(hlcBytes(a.hlc));
        const y = toHex(hlcBytes(b.hlc));
        expect(Math.sign(c)).toBe(x < y ? -1 : x > y ? 1 : 0);
      }),
      FC,
    );
  });

  it('a clock seeded past the stored maximum issues stamps strictly above it and strictly increasing, whatever the anchor does', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: 0n, max: 1n << 40n }), fc.bigInt({ min: 0n, max: HLC_LOGICAL_MAX }), fc.array(fc.bigInt({ min: 0n, max: 1n << 41n }), { maxLength: 30 }), (p, l, anchors) => {
        const seed = makeHlc(p, l);
        const clock = createHlcClock(seed);
        let last = seed;
        for (const a of anchors) {
          const s = clock.tick(a);
          expect(compareHlc(s, last)).toBe(1);
          last = s;
        }
      }),
      FC,
    );
  });

  it('the anchor moving forward resets the counter; standing still bumps it', () => {
    const c = createHlcClock(makeHlc(100n, 7n));
    expect(c.tick(50n)).toEqual({ physical_ns: 100n, logical: 8n });
    expect(c.tick(100n)).toEqual({ physical_ns: 100n, logical: 9n });
    expect(c.tick(101n)).toEqual({ physical_ns: 101n, logical: 0n });
    const full = createHlcClock(makeHlc(5n, HLC_LOGICAL_MAX));
    expect(full.tick(5n)).toEqual({ physical_ns: 6n, logical: 0n });
  });
});

describe('sense §3 the log and the replay digest', () => {
  it('events_since(ZERO) is the whole log in clock order, whatever the append order (C1)', () => {
    fc.assert(
      fc.property(fc.uniqueArray(fc.bigInt({ min: 1n, max: 1000n }), { minLength: 1, maxLength: 20 }), (stamps) => {
        const events = stamps.map((s) => ev(s));
        const sorted = [...events].sort((a, b) => compareHlc(a.hlc, b.hlc));
        const log = createEventLog();
        for (const e of events) log.append(e);
        expect(log.eventsSince(HLC_ZERO)).toEqual(sorted);
        expect(replayDigest(log.eventsSince(HLC_ZERO))).toBe(toHex(nobleBlake3(concatBytes(...sorted.map((e) => fromHex(eventId(e)))))));
        expect(log.maxStamp()).toEqual(sorted.at(-1)!.hlc);
      }),
      FC,
    );
  });

  it('events_since is strictly after its cursor', () => {
    const log = createEventLog();
    for (const s of [3n, 1n, 2n]) log.append(ev(s));
    expect(log.eventsSince(makeHlc(2n, 0n)).map((e) => e.hlc.physical_ns)).toEqual([3n]);
  });

  it('refuses an event stamped ZERO or a stamp already on the log, saying which', () => {
    const log = createEventLog();
    log.append(ev(4n));
    // sense §3: "Events are keyed by an Hlc"; log.ts's reading: no event carries Hlc::ZERO, so events_since(ZERO) is all
    for (const [e, message] of [
      [ev(4n, { line: 'other' }), /already stamped \(4, 0\)/],
      [ev(0n), /stamp must exceed Hlc::ZERO/],
    ] as const) {
      const err = thrown(() => log.append(e));
      expect(err.code).toBe('ERR_SENSE_EVENT_MALFORMED');
      expect(err.message).toMatch(message);
    }
    expect(log.eventsSince(HLC_ZERO)).toEqual([ev(4n)]);
  });

  it('the largest stamp of an empty log is HLC_ZERO', () => {
    expect(createEventLog().maxStamp()).toEqual(HLC_ZERO);
  });

  it('the digest of the empty log is blake3 of nothing; it changes when any event changes', () => {
    expect(replayDigest([])).toBe(toHex(nobleBlake3(new Uint8Array(0))));
    expect(replayDigest([ev(1n), ev(2n)])).not.toBe(replayDigest([ev(1n), ev(2n, { trust: 'Inferred' })]));
  });
});
