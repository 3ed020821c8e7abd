// C12 identity rotation (jcp §2.1), through the implementation under test: an un-pre-committed key cannot rotate an
// identity, the pre-committed key can, and the identity DID is stable across rotations; the log verifier rejects
// sequence gaps, parent-link mismatches, hash mismatches and bad signatures, each with its own code.
// Logs a conforming minter refuses to make are crafted with the reference (harness/oracle.ts) and signed as given.
import fc from 'fast-check';
import { describe, expect } from 'vitest';
import { clauseIt } from '../clause.ts';
import { implementation } from '../driver.ts';
import { fcParams } from '../external-vectors.ts';
import { key, nonce } from '../fixtures.ts';
import { assertProperty, codeOf, expectCode } from '../refusal.ts';
import { refusalJudge } from '../contract-codes.ts';
import {
  blake3,
  decodeCanonical,
  encodeCanonical,
  keyEventBytes,
  keyEventId,
  nodeEd25519,
  signedKeyEventFromBytes,
  signedKeyEventToCbor,
  toHex,
  type KeyEvent,
  type KeyPair,
} from '../oracle.ts';

const INCEPTION = 'jcp/2.1#inception-current-is-identity';
const PRECOMMIT = 'jcp/2.1#rotation-key-precommitted';
const REJECT = 'jcp/2.1#reject-broken-event-log';

const k0 = key('rotation:k0'); // the identity (inception) key
const k1 = key('rotation:k1');
const k2 = key('rotation:k2');
const k3 = key('rotation:k3');
const thief = key('rotation:thief');

/** A three-event log minted by the implementation under test: k0 → k1 → k2, pre-committing to k3 at the end. */
async function log3(): Promise<Uint8Array[]> {
  const impl = implementation();
  const e0 = await impl.incept(k0.seed, k1.publicKey, nonce('rot-0'));
  const e1 = await impl.rotate(e0.key_event, k1.seed, k2.publicKey, nonce('rot-1'));
  const e2 = await impl.rotate(e1.key_event, k2.seed, k3.publicKey, nonce('rot-2'));
  return [e0.key_event, e1.key_event, e2.key_event];
}

/** The event inside signed event bytes, read by the reference. */
const eventOf = (b: Uint8Array): KeyEvent => signedKeyEventFromBytes(b).event;

/** Signed event bytes of `event` signed by `signer` exactly as given (a log a conforming minter would not make). */
function craft(event: KeyEvent, signer: KeyPair): Uint8Array {
  return encodeCanonical(signedKeyEventToCbor({ event, signature: nodeEd25519.sign(signer.seed, keyEventBytes(event)) }));
}

describe('C12 pre-committed rotation (jcp §2.1)', () => {
  clauseIt([INCEPTION], 'inception: current equals identity, seq 0, no parent, next_hash = blake3(next key), signed by the identity key', async () => {
    const impl = implementation();
    const e0 = await impl.incept(k0.seed, k1.publicKey, nonce('rot-0'));
    const se = signedKeyEventFromBytes(e0.key_event);
    expect(se.event.identity).toBe(k0.did);
    expect(se.event.current).toBe(k0.did);
    expect(se.event.seq).toBe(0n);
    expect(se.event.parent).toBeUndefined();
    expect([...(decodeCanonical(keyEventBytes(se.event)) as Map<string, unknown>).keys()].sort()).toEqual(['current', 'identity', 'next_hash', 'nonce', 'seq']);
    expect(se.event.next_hash).toBe(toHex(blake3(k1.publicKey)));
    expect(toHex(se.event.nonce)).toBe(toHex(nonce('rot-0')));
    expect(nodeEd25519.verify(se.signature, keyEventBytes(se.event), k0.publicKey)).toBe(true);
    expect(e0.event_id).toBe(keyEventId(se.event));
    // the bytes are canonical: the implementation's own check hands them back unchanged
    expect(toHex(await impl.cborCheck(e0.key_event))).toBe(toHex(e0.key_event));
    expect(await impl.verifyKeyLog([e0.key_event])).toEqual({ identity: k0.did, current: k0.did, seq: 0n, next_hash: toHex(blake3(k1.publicKey)), head: e0.event_id });
  });

  clauseIt([INCEPTION], 'an inception whose current is not its identity is refused, however it is signed', async () => {
    const impl = implementation();
    const e0 = eventOf((await impl.incept(k0.seed, k1.publicKey, nonce('rot-0'))).key_event);
    const wrong: KeyEvent = { ...e0, current: k1.did };
    await expectCode(impl.verifyKeyLog([craft(wrong, k1)]), 'ERR_KEY_EVENT_IDENTITY_MISMATCH');
    await expectCode(impl.verifyKeyLog([craft(wrong, k0)]), 'ERR_KEY_EVENT_IDENTITY_MISMATCH');
  });

  clauseIt([PRECOMMIT, 'jcp/9#c12-rotation'], 'the pre-committed key rotates (without the current key), and the identity DID is stable across rotations', async () => {
    const impl = implementation();
    const [b0, b1, b2] = await log3();
    // rotate() was handed only the new key's seed: an owner who lost the current key still rotates
    const e1 = eventOf(b1!);
    const e2 = eventOf(b2!);
    expect(e1).toMatchObject({ identity: k0.did, seq: 1n, current: k1.did, parent: keyEventId(eventOf(b0!)), next_hash: toHex(blake3(k2.publicKey)) });
    expect(e2).toMatchObject({ identity: k0.did, seq: 2n, current: k2.did, parent: keyEventId(e1), next_hash: toHex(blake3(k3.publicKey)) });
    expect(nodeEd25519.verify(signedKeyEventFromBytes(b1!).signature, keyEventBytes(e1), k1.publicKey)).toBe(true);
    expect(await impl.verifyKeyLog([b0!])).toMatchObject({ identity: k0.did, current: k0.did, seq: 0n });
    expect(await impl.verifyKeyLog([b0!, b1!])).toMatchObject({ identity: k0.did, current: k1.did, seq: 1n });
    expect(await impl.verifyKeyLog([b0!, b1!, b2!])).toEqual({ identity: k0.did, current: k2.did, seq: 2n, next_hash: toHex(blake3(k3.publicKey)), head: keyEventId(e2) });
  });

  clauseIt([PRECOMMIT, 'jcp/9#c12-rotation'], 'an un-pre-committed key cannot rotate: refused at mint, and a crafted rotation is refused by the verifier', async () => {
    const impl = implementation();
    const [b0] = await log3();
    // a thief (or the stolen current key k0) asks the implementation to rotate: refused
    await expectCode(impl.rotate(b0!, thief.seed, thief.publicKey, nonce('steal')), 'ERR_KEY_EVENT_HASH_MISMATCH');
    await expectCode(impl.rotate(b0!, k0.seed, thief.publicKey, nonce('steal')), 'ERR_KEY_EVENT_HASH_MISMATCH');
    // the thief crafts the event itself, well formed and validly signed by its own key, or by the stolen current key
    const e0 = eventOf(b0!);
    const stolen: KeyEvent = { identity: k0.did, seq: 1n, current: thief.did, next_hash: toHex(blake3(thief.publicKey)), parent: keyEventId(e0), nonce: nonce('steal') };
    await expectCode(impl.verifyKeyLog([b0!, craft(stolen, thief)]), 'ERR_KEY_EVENT_HASH_MISMATCH');
    await expectCode(impl.verifyKeyLog([b0!, craft({ ...stolen, current: k0.did }, k0)]), 'ERR_KEY_EVENT_HASH_MISMATCH');
  });
});

describe('C12 the log verifier (jcp §2.1)', () => {
  clauseIt([REJECT], 'a sequence gap is refused ERR_KEY_EVENT_SEQ_GAP', async () => {
    const impl = implementation();
    const [b0, b1, b2] = await log3();
    await expectCode(impl.verifyKeyLog([b0!, b2!]), 'ERR_KEY_EVENT_SEQ_GAP');
    await expectCode(impl.verifyKeyLog([b1!, b2!]), 'ERR_KEY_EVENT_SEQ_GAP');
    await expectCode(impl.verifyKeyLog([b0!, b2!, b1!]), 'ERR_KEY_EVENT_SEQ_GAP');
    // seq 2 directly after inception, though parent, key and signature are right
    await expectCode(impl.verifyKeyLog([b0!, craft({ ...eventOf(b1!), seq: 2n }, k1)]), 'ERR_KEY_EVENT_SEQ_GAP');
  });

  clauseIt([REJECT], 'a parent-link mismatch is refused ERR_KEY_EVENT_PARENT_MISMATCH', async () => {
    const impl = implementation();
    const [b0, b1] = await log3();
    const e1 = eventOf(b1!);
    await expectCode(impl.verifyKeyLog([b0!, craft({ ...e1, parent: keyEventId(e1) }, k1)]), 'ERR_KEY_EVENT_PARENT_MISMATCH');
    const { parent: _p, ...orphan } = e1;
    await expectCode(impl.verifyKeyLog([b0!, craft(orphan, k1)]), 'ERR_KEY_EVENT_PARENT_MISMATCH');
  });

  clauseIt([REJECT], 'a hash mismatch is refused ERR_KEY_EVENT_HASH_MISMATCH', async () => {
    const impl = implementation();
    const [b0, b1] = await log3();
    // a well-formed rotation signed by k2, which inception did not pre-commit to (it committed to k1)
    await expectCode(impl.verifyKeyLog([b0!, craft({ ...eventOf(b1!), current: k2.did }, k2)]), 'ERR_KEY_EVENT_HASH_MISMATCH');
  });

  clauseIt([REJECT], 'a bad signature is refused ERR_KEY_EVENT_BAD_SIGNATURE', async () => {
    const impl = implementation();
    const [b0, b1, b2] = await log3();
    await expectCode(impl.verifyKeyLog([craft(eventOf(b0!), k1)]), 'ERR_KEY_EVENT_BAD_SIGNATURE');
    await expectCode(impl.verifyKeyLog([b0!, craft(eventOf(b1!), k0)]), 'ERR_KEY_EVENT_BAD_SIGNATURE');
    const se = signedKeyEventFromBytes(b2!);
    const flipped = Uint8Array.from(se.signature, (b, i) => (i === 0 ? b ^ 1 : b));
    await expectCode(impl.verifyKeyLog([b0!, b1!, encodeCanonical(signedKeyEventToCbor({ event: se.event, signature: flipped }))]), 'ERR_KEY_EVENT_BAD_SIGNATURE');
    // a field changed under the original signature
    const e0 = signedKeyEventFromBytes(b0!);
    await expectCode(impl.verifyKeyLog([encodeCanonical(signedKeyEventToCbor({ event: { ...e0.event, nonce: nonce('other') }, signature: e0.signature }))]), 'ERR_KEY_EVENT_BAD_SIGNATURE');
  });

  clauseIt([REJECT], 'property: any one byte of a valid log changed, or any event dropped or moved, is refused', async () => {
    const impl = implementation();
    const log = await log3();
    expect((await impl.verifyKeyLog(log)).current).toBe(k2.did);
    await assertProperty(
      fc.asyncProperty(fc.nat(2), fc.nat(), fc.integer({ min: 1, max: 255 }), async (which, at, xor) => {
        const b = log[which]!.slice();
        const i = at % b.length;
        b[i] = b[i]! ^ xor;
        const mutated = log.map((x, i) => (i === which ? b : x));
        expect(await codeOf(impl.verifyKeyLog(mutated))).not.toBe('accepted');
      }),
      fcParams(60),
    );
    const gap = refusalJudge();
    await assertProperty(
      fc.asyncProperty(fc.shuffledSubarray([0, 1, 2], { minLength: 1 }), async (order) => {
        const verdict = await codeOf(impl.verifyKeyLog(order.map((i) => log[i]!)));
        // a prefix of the log in order is itself a valid log (accepted); anything else is a gap (refused, and the
        // suite's code for it ERR_KEY_EVENT_SEQ_GAP)
        const isPrefix = order.every((i, p) => i === p);
        if (isPrefix) expect(verdict, `events ${order.join(', ')}`).toBe('accepted');
        else gap(verdict, 'ERR_KEY_EVENT_SEQ_GAP', `events ${order.join(', ')}`);
      }),
      fcParams(30),
    );
  });
});
