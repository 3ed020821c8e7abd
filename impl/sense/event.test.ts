// Unit tests of sense §2/§3 events, the HLC and the log (impl/sense/{event,hlc,log}.ts): the content id's byte layout,
// that it binds source and trust, the clock's strict order across a restart, and replay determinism.
import fc from 'fast-check';
import { blake3 as nobleBlake3 } from '@noble/hashes/blake3.js';
import { describe, expect, it } from 'vitest';
import { codeOf, thrown } from '../_test-support.ts';
import { concatBytes, fromHex, toHex } from '../bytes.ts';
import { eventId, eventIdPreimage, makeEvent, payloadCid, SOURCE_CLASSES, TRUST_LEVELS, type Event } from './event.ts';
import { compareHlc, createHlcClock, HLC_LOGICAL_MAX, HLC_PHYSICAL_MAX, HLC_ZERO, hlcBytes, makeHlc } from './hlc.ts';
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

  it('an event observed with no valid time has no valid_time_ns field', () => {
    // sense §2: valid_time_ns is optional; the Event type (exactOptionalPropertyTypes) has it absent, never undefined
    expect('valid_time_ns' in ev(5n)).toBe(false);
    expect(ev(5n, { valid_time_ns: 0n }).valid_time_ns).toBe(0n);
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

  it('a refused event names the field that was wrong', () => {
    const e = ev(5n);
    for (const [bad, what, message] of [
      [{ ...e, hlc: undefined }, 'hlc.physical_ns', 'hlc.physical_ns must be an unsigned integer'],
      [{ ...e, hlc: { physical_ns: 1n, logical: -1n } }, 'hlc.logical', 'hlc.logical must be an unsigned integer ≤ 4294967295'],
      [{ ...e, payload: 7 }, 'payload', 'payload must be text'],
      [{ ...e, line: 7 }, 'line', 'line must be text'],
      [{ ...e, valid_time_ns: -3n }, 'valid_time_ns', 'valid_time_ns must be an unsigned integer'],
      [{ ...e, source: 7 }, 'source', 'source must be text'],
      [{ ...e, trust: 'Trusted' }, 'trust', 'trust must be one of Attested, FirstParty, Inferred, Untrusted, got Trusted'],
    ] as const) {
      const err = thrown(() => makeEvent(bad as never));
      expect(err.code).toBe('ERR_SENSE_EVENT_MALFORMED');
      expect(err.detail).toEqual({ what });
      expect(err.message).toContain(message);
    }
  });

  it('says why a source class, a payload or a line is refused', () => {
    const e = ev(5n);
    for (const [bad, message] of [
      [{ ...e, source: 'vendor:1023' }, 'source must be a standard class or vendor:<code> with code ≥ 1024, got "vendor:1023"'],
      [{ ...e, payload: 'ab' }, 'payload must be a Cid: 64 lowercase hex digits'],
      [{ ...e, line: '\uDC00' }, 'line must be well-formed Unicode'],
    ] as const) {
      const err = thrown(() => makeEvent(bad));
      expect(err.code).toBe('ERR_SENSE_EVENT_MALFORMED');
      expect(err.message).toContain(message);
    }
  });

  it('refuses an event that is no object', () => {
    for (const bad of [null, 7]) {
      const err = thrown(() => makeEvent(bad as never));
      expect(err.code).toBe('ERR_SENSE_EVENT_MALFORMED');
      expect(err.message).toContain('an event must be an object');
    }
  });

  it('refuses payload bytes that are no byte string', () => {
    const err = thrown(() => payloadCid('abc' as never));
    expect(err.code).toBe('ERR_SENSE_EVENT_MALFORMED');
    expect(err.message).toContain('payload bytes must be a byte string');
  });

  it('the id of an event whose payload is no hex names the payload', () => {
    // sense §3: the payload is a Cid, lowercase hex on the wire; the id hashes its raw bytes
    const err = thrown(() => eventId({ ...ev(5n), payload: 'zz' }));
    expect(err.code).toBe('ERR_HEX_MALFORMED');
    expect(err.detail).toEqual({ what: 'payload' });
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

  it('issues no stamp past the greatest one, and keeps that one as its last', () => {
    // sense §3: "new stamps strictly exceed all stored ones"; past (2^64 − 1, 2^32 − 1) a stamp would need a 13th byte
    const top = createHlcClock(makeHlc(HLC_PHYSICAL_MAX, HLC_LOGICAL_MAX - 1n));
    expect(top.tick(0n)).toEqual({ physical_ns: HLC_PHYSICAL_MAX, logical: HLC_LOGICAL_MAX });
    const err = thrown(() => top.tick(HLC_PHYSICAL_MAX));
    expect(err.code).toBe('ERR_SENSE_EVENT_MALFORMED');
    expect(err.message).toContain('cannot issue a stamp past its last one (18446744073709551615, 4294967295)');
    expect(top.last()).toEqual({ physical_ns: HLC_PHYSICAL_MAX, logical: HLC_LOGICAL_MAX });
    expect(hlcBytes(top.last())).toEqual(new Uint8Array(12).fill(0xff));
  });

  it('the clock reports its seed, then the last stamp it issued', () => {
    const c = createHlcClock(makeHlc(100n, 7n));
    expect(c.last()).toEqual({ physical_ns: 100n, logical: 7n });
    const s = c.tick(200n);
    expect(c.last()).toBe(s);
    expect(createHlcClock().last()).toEqual(HLC_ZERO);
  });

  it('refuses an anchor reading that is no u64, naming it', () => {
    const err = thrown(() => createHlcClock().tick(-1n));
    expect(err.code).toBe('ERR_BAD_ARGUMENT');
    expect(err.detail).toEqual({ what: 'now_ns' });
    expect(err.message).toContain('now_ns must be an unsigned integer');
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
