// jcp §2.1 pre-committed rotation: minting, the byte shape, and every refusal of the log verifier.
// The edges: the refusals' codes, messages and details; the 16-byte nonce (jcp §2.1 "nonce: bytes(16)") and the
// uint seq at their boundaries; strict parsing of every field (jcp §2.1 KeyEvent, jcp §3 canonical CBOR); a log whose
// current is no did:key; and that minted and parsed events copy their byte strings.
import { describe, expect, it } from 'vitest';
import { codeOf, lazy, lazyKey, messageOf, thrown } from '../_test-support.ts';
import { toHex } from '../bytes.ts';
import { decodeCanonical, encodeCanonical, type CborInput, type CborMap, type CborValue } from '../cbor/index.ts';
import { blake3 } from '../hash/blake3.ts';
import { defaultEd25519 } from './ed25519.ts';
import {
  inceptIdentity,
  keyEventBytes,
  keyEventId,
  nextKeyHash,
  parseSignedKeyEvent,
  rotateIdentity,
  signedKeyEventFromBytes,
  signedKeyEventToCbor,
  verifyKeyLog,
  type KeyEvent,
  type SignedKeyEvent,
} from './rotation.ts';

const k0 = lazyKey('rot-k0');
const k1 = lazyKey('rot-k1');
const k2 = lazyKey('rot-k2');
const k3 = lazyKey('rot-k3');
const thief = lazyKey('rot-thief');
const n = (b: number) => new Uint8Array(16).fill(b);

const e0 = lazy(() => inceptIdentity(k0, k1.publicKey, n(0)));
const e1 = lazy(() => rotateIdentity(e0, k1, k2.publicKey, n(1)));
const e2 = lazy(() => rotateIdentity(e1, k2, k3.publicKey, n(2)));

/** Re-signs `event` with `key` exactly as given (to craft logs a honest minter would refuse to make). */
function forge(event: KeyEvent, key = k0): SignedKeyEvent {
  return { event, signature: defaultEd25519().sign(key.seed, keyEventBytes(event)) };
}

describe('jcp §2.1 key events', () => {
  it('next_hash is blake3 of the next key\'s 32 raw public bytes, hex', () => {
    expect(e0.event.next_hash).toBe(toHex(blake3(k1.publicKey)));
    expect(nextKeyHash(k2.publicKey)).toBe(toHex(blake3(k2.publicKey)));
    expect(codeOf(() => nextKeyHash(k2.publicKey.subarray(1)))).toBe('ERR_KEY_LENGTH');
  });

  it('inception: seq 0, current = identity, no parent (omitted from the bytes, not null), signed by the identity key', () => {
    expect(e0.event).toMatchObject({ identity: k0.did, seq: 0n, current: k0.did });
    expect(e0.event.parent).toBeUndefined();
    const m = decodeCanonical(keyEventBytes(e0.event)) as Map<string, unknown>;
    expect([...m.keys()].sort()).toEqual(['current', 'identity', 'next_hash', 'nonce', 'seq']);
    expect(defaultEd25519().verify(e0.signature, keyEventBytes(e0.event), k0.publicKey)).toBe(true);
  });

  it('rotation: signed by the pre-committed key, parent = previous id, identity unchanged', () => {
    expect(e1.event).toMatchObject({ identity: k0.did, seq: 1n, current: k1.did, parent: keyEventId(e0.event), next_hash: nextKeyHash(k2.publicKey) });
    expect(defaultEd25519().verify(e1.signature, keyEventBytes(e1.event), k1.publicKey)).toBe(true);
  });

  it('an un-pre-committed key cannot rotate (refused at mint)', () => {
    expect(codeOf(() => rotateIdentity(e0, thief, k2.publicKey, n(9)))).toBe('ERR_KEY_EVENT_HASH_MISMATCH');
    // the stolen current key is not the pre-committed one either
    expect(codeOf(() => rotateIdentity(e0, k0, k2.publicKey, n(9)))).toBe('ERR_KEY_EVENT_HASH_MISMATCH');
  });

  it('the verifier names the identity (stable) and the current key at the end of the log', () => {
    expect(verifyKeyLog([e0])).toEqual({ identity: k0.did, current: k0.did, seq: 0n, next_hash: nextKeyHash(k1.publicKey), head: keyEventId(e0.event) });
    expect(verifyKeyLog([e0, e1, e2])).toEqual({ identity: k0.did, current: k2.did, seq: 2n, next_hash: nextKeyHash(k3.publicKey), head: keyEventId(e2.event) });
  });

  it('round-trips its canonical bytes', () => {
    const b = encodeCanonical(signedKeyEventToCbor(e1));
    const back = signedKeyEventFromBytes(b);
    expect(toHex(encodeCanonical(signedKeyEventToCbor(back)))).toBe(toHex(b));
    expect(verifyKeyLog([e0, back]).current).toBe(k1.did);
  });

  it('refuses malformed events', () => {
    const good = signedKeyEventToCbor(e1) as { event: Record<string, unknown>; signature: Uint8Array };
    const with_ = (over: Record<string, unknown>) => decodeCanonical(encodeCanonical({ ...good, event: { ...good.event, ...over } } as unknown as CborInput));
    expect(codeOf(() => parseSignedKeyEvent(with_({ extra: 1 })))).toBe('ERR_KEY_EVENT_MALFORMED');
    expect(codeOf(() => parseSignedKeyEvent(with_({ nonce: new Uint8Array(15) })))).toBe('ERR_KEY_EVENT_MALFORMED');
    expect(codeOf(() => parseSignedKeyEvent(with_({ current: 'did:key:nope' })))).toBe('ERR_KEY_EVENT_MALFORMED');
    expect(codeOf(() => parseSignedKeyEvent(with_({ next_hash: 'AB' })))).toBe('ERR_KEY_EVENT_MALFORMED');
    expect(codeOf(() => parseSignedKeyEvent(with_({ seq: 'one' })))).toBe('ERR_KEY_EVENT_MALFORMED');
    expect(codeOf(() => parseSignedKeyEvent(decodeCanonical(encodeCanonical({ ...good, signature: new Uint8Array(63) } as unknown as CborInput))))).toBe('ERR_KEY_EVENT_MALFORMED');
    expect(codeOf(() => verifyKeyLog([]))).toBe('ERR_KEY_EVENT_MALFORMED');
  });
});

describe('jcp §2.1 the verifier rejects sequence gaps, parent-link mismatches, hash mismatches and bad signatures', () => {
  it('a sequence gap (an event skipped, or a seq out of place)', () => {
    expect(codeOf(() => verifyKeyLog([e0, e2]))).toBe('ERR_KEY_EVENT_SEQ_GAP');
    expect(codeOf(() => verifyKeyLog([e1]))).toBe('ERR_KEY_EVENT_SEQ_GAP');
    expect(codeOf(() => verifyKeyLog([e0, forge({ ...e1.event, seq: 2n }, k1)]))).toBe('ERR_KEY_EVENT_SEQ_GAP');
  });

  it('a parent-link mismatch (wrong parent, no parent, a parent at inception)', () => {
    expect(codeOf(() => verifyKeyLog([e0, forge({ ...e1.event, parent: keyEventId(e1.event) }, k1)]))).toBe('ERR_KEY_EVENT_PARENT_MISMATCH');
    const { parent: _drop, ...noParent } = e1.event;
    expect(codeOf(() => verifyKeyLog([e0, forge(noParent, k1)]))).toBe('ERR_KEY_EVENT_PARENT_MISMATCH');
    expect(codeOf(() => verifyKeyLog([forge({ ...e0.event, parent: keyEventId(e2.event) })]))).toBe('ERR_KEY_EVENT_PARENT_MISMATCH');
  });

  it('a hash mismatch: a thief holding the current key signs a rotation to its own key', () => {
    const stolen = forge({ identity: k0.did, seq: 1n, current: thief.did, next_hash: nextKeyHash(thief.publicKey), parent: keyEventId(e0.event), nonce: n(7) }, thief);
    expect(codeOf(() => verifyKeyLog([e0, stolen]))).toBe('ERR_KEY_EVENT_HASH_MISMATCH');
    // signed by the stolen current key k0 instead: still not the pre-committed key
    const byCurrent = forge({ ...stolen.event, current: k0.did }, k0);
    expect(codeOf(() => verifyKeyLog([e0, byCurrent]))).toBe('ERR_KEY_EVENT_HASH_MISMATCH');
  });

  it('a bad signature (another key, or a byte flipped)', () => {
    expect(codeOf(() => verifyKeyLog([forge(e0.event, k1)]))).toBe('ERR_KEY_EVENT_BAD_SIGNATURE');
    expect(codeOf(() => verifyKeyLog([e0, forge(e1.event, k0)]))).toBe('ERR_KEY_EVENT_BAD_SIGNATURE');
    const flipped = Uint8Array.from(e2.signature, (b, i) => (i === 5 ? b ^ 1 : b));
    expect(codeOf(() => verifyKeyLog([e0, e1, { event: e2.event, signature: flipped }]))).toBe('ERR_KEY_EVENT_BAD_SIGNATURE');
    // a changed field under the original signature
    expect(codeOf(() => verifyKeyLog([{ event: { ...e0.event, nonce: n(42) }, signature: e0.signature }]))).toBe('ERR_KEY_EVENT_BAD_SIGNATURE');
  });

  it('inception whose current is not its identity, and a later event naming another identity', () => {
    expect(codeOf(() => verifyKeyLog([forge({ ...e0.event, current: k1.did }, k1)]))).toBe('ERR_KEY_EVENT_IDENTITY_MISMATCH');
    expect(codeOf(() => verifyKeyLog([e0, forge({ ...e1.event, identity: k1.did }, k1)]))).toBe('ERR_KEY_EVENT_IDENTITY_MISMATCH');
  });
});

const U64_MAX = (1n << 64n) - 1n;

/** e1 as a decoded CBOR map (outer), with event fields overridden (undefined deletes) and outer fields overridden. */
function e1Map(over: Record<string, CborValue | undefined> = {}, outerOver: Record<string, CborValue | undefined> = {}): CborMap {
  const outer = decodeCanonical(encodeCanonical(signedKeyEventToCbor(e1))) as CborMap;
  const ev = new Map(outer.get('event') as CborMap);
  for (const [k, v] of Object.entries(over)) if (v === undefined) ev.delete(k); else ev.set(k, v);
  const o: CborMap = new Map(outer);
  o.set('event', ev);
  for (const [k, v] of Object.entries(outerOver)) if (v === undefined) o.delete(k); else o.set(k, v);
  return o;
}

describe('jcp §2.1 minting: key lengths and the 16-byte nonce', () => {
  it('a pre-committed key of other than 32 bytes is refused ERR_KEY_LENGTH with its reason', () => {
    expect(messageOf(() => nextKeyHash(new Uint8Array(31)))).toBe('ERR_KEY_LENGTH: a pre-committed key must be 32 public-key bytes');
    expect(messageOf(() => nextKeyHash(new Uint8Array(33)))).toBe('ERR_KEY_LENGTH: a pre-committed key must be 32 public-key bytes');
  });

  it('a nonce of 15 or 17 bytes is refused at inception and at rotation; exactly 16 is minted', () => {
    for (const len of [0, 15, 17]) {
      const err = thrown(() => inceptIdentity(k0, k1.publicKey, new Uint8Array(len)));
      expect(err.code).toBe('ERR_KEY_EVENT_MALFORMED');
      expect(err.message).toBe('ERR_KEY_EVENT_MALFORMED: nonce must be 16 bytes');
      expect(messageOf(() => rotateIdentity(e0, k1, k2.publicKey, new Uint8Array(len)))).toBe('ERR_KEY_EVENT_MALFORMED: nonce must be 16 bytes');
    }
    expect(inceptIdentity(k0, k1.publicKey, n(5)).event.nonce).toEqual(n(5));
  });

  it('a nonce that is not a Uint8Array is refused even when it has 16 elements', () => {
    const arr = Array.from({ length: 16 }, () => 0) as unknown as Uint8Array;
    expect(messageOf(() => inceptIdentity(k0, k1.publicKey, arr))).toBe('ERR_KEY_EVENT_MALFORMED: nonce must be 16 bytes');
  });

  it('the minted event keeps its own copy of the nonce: changing the caller\'s buffer afterwards changes nothing', () => {
    const buf = n(3);
    const inc = inceptIdentity(k0, k1.publicKey, buf);
    buf.fill(9);
    expect(inc.event.nonce).toEqual(n(3));
    expect(verifyKeyLog([inc]).current).toBe(k0.did);
  });

  it('an un-pre-committed key is refused at mint, naming the key, the prior event and the seq it would have had', () => {
    const err = thrown(() => rotateIdentity(e0, thief, k2.publicKey, n(9)));
    expect(err.code).toBe('ERR_KEY_EVENT_HASH_MISMATCH');
    expect(err.message).toBe(`ERR_KEY_EVENT_HASH_MISMATCH: ${thief.did} is not the key event 0 pre-committed to (next_hash ${e0.event.next_hash})`);
    expect(err.detail).toEqual({ seq: '1' });
    expect(thrown(() => rotateIdentity(e1, thief, k3.publicKey, n(9))).detail).toEqual({ seq: '2' });
  });
});

describe('jcp §2.1 strict parsing of a signed KeyEvent', () => {
  it('a value that is not a map, outer or event, is refused ERR_KEY_EVENT_MALFORMED with its path', () => {
    for (const v of [5, 'x', [1]] as CborValue[]) {
      const err = thrown(() => parseSignedKeyEvent(v));
      expect(err.code).toBe('ERR_KEY_EVENT_MALFORMED');
      expect(err.message).toBe('ERR_KEY_EVENT_MALFORMED: $key_event: must be a map');
      expect(err.detail).toEqual({ path: '$key_event' });
    }
    const noEvent = thrown(() => parseSignedKeyEvent(e1Map({}, { event: undefined })));
    expect(noEvent.message).toBe('ERR_KEY_EVENT_MALFORMED: $key_event.event: must be a map');
    expect(noEvent.detail).toEqual({ path: '$key_event.event' });
    expect(messageOf(() => parseSignedKeyEvent(7, '$log[3]'))).toBe('ERR_KEY_EVENT_MALFORMED: $log[3]: must be a map');
  });

  it('an unknown field, outer or in the event, is refused naming it and its path', () => {
    const inner = thrown(() => parseSignedKeyEvent(e1Map({ extra: 1 })));
    expect(inner.code).toBe('ERR_KEY_EVENT_MALFORMED');
    expect(inner.message).toBe('ERR_KEY_EVENT_MALFORMED: $key_event.event: unknown field extra');
    expect(inner.detail).toEqual({ path: '$key_event.event' });
    const outer = thrown(() => parseSignedKeyEvent(e1Map({}, { extra: 1 })));
    expect(outer.message).toBe('ERR_KEY_EVENT_MALFORMED: $key_event: unknown field extra');
    expect(outer.detail).toEqual({ path: '$key_event' });
    const intKey = e1Map();
    (intKey.get('event') as CborMap).set(1, 1);
    expect(messageOf(() => parseSignedKeyEvent(intKey))).toBe('ERR_KEY_EVENT_MALFORMED: $key_event.event: unknown field 1');
  });

  it('each ill-typed or missing field is refused naming its path and what it must be', () => {
    const cases: [Record<string, CborValue | undefined>, string, string][] = [
      [{ identity: 'did:key:nope' }, 'identity', 'an Ed25519 did:key'],
      [{ identity: 5 }, 'identity', 'an Ed25519 did:key'],
      [{ seq: 'one' }, 'seq', 'an unsigned integer'],
      [{ current: 'did:key:nope' }, 'current', 'an Ed25519 did:key'],
      [{ next_hash: 'AB' }, 'next_hash', 'a content id (64 lowercase hex digits)'],
      [{ next_hash: undefined }, 'next_hash', 'a content id (64 lowercase hex digits)'],
      [{ parent: 'ab' }, 'parent', 'a content id (64 lowercase hex digits)'],
      [{ nonce: new Uint8Array(15) }, 'nonce', 'a byte string of 16 bytes'],
      [{ nonce: new Uint8Array(17) }, 'nonce', 'a byte string of 16 bytes'],
    ];
    for (const [over, k, what] of cases) {
      const err = thrown(() => parseSignedKeyEvent(e1Map(over)));
      expect(err.code).toBe('ERR_KEY_EVENT_MALFORMED');
      expect(err.message).toBe(`ERR_KEY_EVENT_MALFORMED: $key_event.event.${k}: must be ${what}`);
      expect(err.detail).toEqual({ path: `$key_event.event.${k}` });
    }
    for (const sig of [new Uint8Array(63), new Uint8Array(65)]) {
      const err = thrown(() => parseSignedKeyEvent(e1Map({}, { signature: sig })));
      expect(err.message).toBe('ERR_KEY_EVENT_MALFORMED: $key_event.signature: must be a byte string of 64 bytes');
      expect(err.detail).toEqual({ path: '$key_event.signature' });
    }
  });

  it('seq is a uint: 0 and 2^64−1 parse (as number or bigint); negatives, fractions, unsafe numbers and 2^64 are refused', () => {
    const seqOf = (seq: CborValue) => parseSignedKeyEvent(e1Map({ seq })).event.seq;
    expect(seqOf(0)).toBe(0n);
    expect(seqOf(1)).toBe(1n);
    expect(seqOf(Number.MAX_SAFE_INTEGER)).toBe(BigInt(Number.MAX_SAFE_INTEGER));
    expect(seqOf(0n)).toBe(0n);
    expect(seqOf(1n)).toBe(1n);
    expect(seqOf(U64_MAX)).toBe(U64_MAX);
    for (const bad of [-1, 1.5, 2 ** 53, -1n, U64_MAX + 1n, 'one'] as CborValue[]) {
      const err = thrown(() => seqOf(bad));
      expect(err.code).toBe('ERR_KEY_EVENT_MALFORMED');
      expect(err.message).toBe('ERR_KEY_EVENT_MALFORMED: $key_event.event.seq: must be an unsigned integer');
    }
  });

  it('the parsed event owns copies of the nonce and the signature', () => {
    const m = e1Map();
    const nonce = (m.get('event') as CborMap).get('nonce') as Uint8Array;
    const sig = m.get('signature') as Uint8Array;
    const se = parseSignedKeyEvent(m);
    nonce.fill(0xee);
    sig.fill(0xee);
    expect(se.event.nonce).toEqual(n(1));
    expect(se.signature).toEqual(e1.signature);
    expect(verifyKeyLog([e0, se]).current).toBe(k1.did);
  });
});

describe('jcp §2.1 verifier refusals: codes, messages and details', () => {
  it('an empty log', () => {
    expect(messageOf(() => verifyKeyLog([]))).toBe('ERR_KEY_EVENT_MALFORMED: a key event log needs at least its inception event');
  });

  it('a sequence gap names the position, the seq found and the seq expected', () => {
    const err = thrown(() => verifyKeyLog([e0, e2]));
    expect(err.code).toBe('ERR_KEY_EVENT_SEQ_GAP');
    expect(err.message).toBe('ERR_KEY_EVENT_SEQ_GAP: event 1 of the log has seq 2; expected 1');
    expect(err.detail).toEqual({ seq: '2', position: 1 });
  });

  it('a later event naming another identity', () => {
    const err = thrown(() => verifyKeyLog([e0, forge({ ...e1.event, identity: k1.did }, k1)]));
    expect(err.code).toBe('ERR_KEY_EVENT_IDENTITY_MISMATCH');
    expect(err.message).toBe(`ERR_KEY_EVENT_IDENTITY_MISMATCH: event 1 names identity ${k1.did}, not the inception's ${k0.did}`);
    expect(err.detail).toEqual({ seq: '1' });
  });

  it('an inception whose current is not its identity', () => {
    const err = thrown(() => verifyKeyLog([forge({ ...e0.event, current: k1.did }, k1)]));
    expect(err.code).toBe('ERR_KEY_EVENT_IDENTITY_MISMATCH');
    expect(err.message).toBe(`ERR_KEY_EVENT_IDENTITY_MISMATCH: inception's current ${k1.did} must equal its identity ${k0.did}`);
    expect(err.detail).toEqual({ seq: '0' });
  });

  it('an inception with a parent', () => {
    const err = thrown(() => verifyKeyLog([forge({ ...e0.event, parent: keyEventId(e1.event) })]));
    expect(err.code).toBe('ERR_KEY_EVENT_PARENT_MISMATCH');
    expect(err.message).toBe('ERR_KEY_EVENT_PARENT_MISMATCH: inception must have no parent');
    expect(err.detail).toEqual({ seq: '0' });
  });

  it('a rotation with a wrong parent, or none, names the parent found and the one wanted', () => {
    const want = keyEventId(e0.event);
    const wrong = keyEventId(e2.event);
    const err = thrown(() => verifyKeyLog([e0, forge({ ...e1.event, parent: wrong }, k1)]));
    expect(err.code).toBe('ERR_KEY_EVENT_PARENT_MISMATCH');
    expect(err.message).toBe(`ERR_KEY_EVENT_PARENT_MISMATCH: event 1's parent ${wrong} is not event 0's id ${want}`);
    expect(err.detail).toEqual({ seq: '1' });
    const { parent: _drop, ...noParent } = e1.event;
    expect(messageOf(() => verifyKeyLog([e0, forge(noParent, k1)]))).toBe(`ERR_KEY_EVENT_PARENT_MISMATCH: event 1's parent (absent) is not event 0's id ${want}`);
  });

  it('a rotation whose current is no Ed25519 did:key is malformed', () => {
    const bad: SignedKeyEvent = { event: { ...e1.event, current: 'did:key:nope' }, signature: e1.signature };
    const err = thrown(() => verifyKeyLog([e0, bad]));
    expect(err.code).toBe('ERR_KEY_EVENT_MALFORMED');
    expect(err.message).toBe("ERR_KEY_EVENT_MALFORMED: event 1's current is not an Ed25519 did:key");
    expect(err.detail).toEqual({ seq: '1' });
  });

  it('an inception whose identity and current are no did:key fails its signature check', () => {
    const bad: SignedKeyEvent = { event: { ...e0.event, identity: 'did:key:nope', current: 'did:key:nope' }, signature: e0.signature };
    const err = thrown(() => verifyKeyLog([bad]));
    expect(err.code).toBe('ERR_KEY_EVENT_BAD_SIGNATURE');
    expect(err.message).toBe("ERR_KEY_EVENT_BAD_SIGNATURE: event 0's signature does not verify under its current key did:key:nope");
  });

  it('a hash mismatch names the key and the prior next_hash', () => {
    const stolen = forge({ identity: k0.did, seq: 1n, current: thief.did, next_hash: nextKeyHash(thief.publicKey), parent: keyEventId(e0.event), nonce: n(7) }, thief);
    const err = thrown(() => verifyKeyLog([e0, stolen]));
    expect(err.code).toBe('ERR_KEY_EVENT_HASH_MISMATCH');
    expect(err.message).toBe(`ERR_KEY_EVENT_HASH_MISMATCH: event 1's key ${thief.did} does not hash to event 0's next_hash ${e0.event.next_hash}`);
    expect(err.detail).toEqual({ seq: '1' });
  });

  it('a bad signature names the event and its current key', () => {
    const err = thrown(() => verifyKeyLog([e0, forge(e1.event, k0)]));
    expect(err.code).toBe('ERR_KEY_EVENT_BAD_SIGNATURE');
    expect(err.message).toBe(`ERR_KEY_EVENT_BAD_SIGNATURE: event 1's signature does not verify under its current key ${k1.did}`);
    expect(err.detail).toEqual({ seq: '1' });
    expect(codeOf(() => verifyKeyLog([e0, e1, e2]))).toBe('accepted');
  });
});
