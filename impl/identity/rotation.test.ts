// jcp §2.1 pre-committed rotation: minting, the byte shape, and every refusal of the log verifier.
import { describe, expect, it } from 'vitest';
import { codeOf, lazy, lazyKey } from '../_test-support.ts';
import { toHex } from '../bytes.ts';
import { decodeCanonical, encodeCanonical, type CborInput } from '../cbor/index.ts';
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
