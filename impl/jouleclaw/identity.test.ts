// Unit tests of the JouleClaw agent identity (impl/jouleclaw/identity.ts, jouleclaw §8): handle = did:key(public_key),
// checked before any signed material is accepted.
import { describe, expect, it } from 'vitest';
import { codeOf, lazyKey, thrown } from '../_test-support.ts';
import type { JcpErrorCode } from '../errors.ts';
import { publicKeyFromDid } from '../identity/did-key.ts';
import { defaultEd25519 } from '../identity/ed25519.ts';
import { agentHandle, checkAgentIdentity, verifyAgentSignature } from './identity.ts';

const alice = lazyKey('alice');
const bob = lazyKey('bob');
const msg = new TextEncoder().encode('policy decision');
const sig = () => defaultEd25519().sign(alice.seed, msg);


describe('agent identity (jouleclaw §8)', () => {
  it('derives the handle as "did:key:z" + base58btc(0xed01 || key)', () => {
    // every Ed25519 did:key begins z6Mk (base58btc of a leading 0xed 0x01); the key comes back out of the handle
    expect(agentHandle(alice.publicKey).startsWith('did:key:z6Mk')).toBe(true);
    expect(publicKeyFromDid(agentHandle(alice.publicKey))).toEqual(alice.publicKey);
    expect(agentHandle(alice.publicKey)).toBe(alice.did);
  });

  it('accepts an identity whose handle is its key\'s did:key and refuses any other pairing', () => {
    expect(checkAgentIdentity({ handle: alice.did, public_key: alice.publicKey }).handle).toBe(alice.did);
    expect(codeOf(() => checkAgentIdentity({ handle: bob.did, public_key: alice.publicKey }))).toBe('ERR_AGENT_HANDLE_MISMATCH');
    expect(codeOf(() => checkAgentIdentity({ handle: `${alice.did} `, public_key: alice.publicKey }))).toBe('ERR_AGENT_HANDLE_MISMATCH');
    expect(codeOf(() => checkAgentIdentity({ handle: alice.did, public_key: alice.publicKey.subarray(1) }))).toBe('ERR_KEY_LENGTH');
    expect(codeOf(() => checkAgentIdentity({ handle: 7 as never, public_key: alice.publicKey }))).toBe('ERR_BAD_ARGUMENT');
    expect(codeOf(() => checkAgentIdentity(null as never))).toBe('ERR_BAD_ARGUMENT');
  });

  it('checks the handle before the signature: a valid signature under a mismatched handle is refused', () => {
    expect(verifyAgentSignature({ handle: alice.did, public_key: alice.publicKey }, msg, sig())).toBe(true);
    expect(verifyAgentSignature({ handle: alice.did, public_key: alice.publicKey }, new Uint8Array([1]), sig())).toBe(false);
    expect(codeOf(() => verifyAgentSignature({ handle: bob.did, public_key: alice.publicKey }, msg, sig()))).toBe('ERR_AGENT_HANDLE_MISMATCH');
    expect(codeOf(() => verifyAgentSignature({ handle: alice.did, public_key: alice.publicKey }, msg, sig().subarray(2)))).toBe('ERR_SIGNATURE_LENGTH');
    expect(codeOf(() => verifyAgentSignature({ handle: alice.did, public_key: alice.publicKey }, 'x' as never, sig()))).toBe('ERR_BAD_ARGUMENT');
  });

  it('says what was wrong with a refused identity, message or signature', () => {
    const id = () => ({ handle: alice.did, public_key: alice.publicKey });
    const cases: [() => unknown, JcpErrorCode, object | undefined, string][] = [
      [() => checkAgentIdentity(undefined as never), 'ERR_BAD_ARGUMENT', undefined, 'an agent identity must be an object'],
      [() => checkAgentIdentity({ handle: 7 as never, public_key: alice.publicKey }), 'ERR_BAD_ARGUMENT', { what: 'handle' }, 'handle must be text'],
      [() => checkAgentIdentity({ handle: alice.did, public_key: alice.publicKey.subarray(1) }), 'ERR_KEY_LENGTH', { what: 'agent public key', expected: 32, actual: 31 }, 'agent public key must be 32 bytes, got 31'],
      // jouleclaw §8: "A verifier MUST confirm that handle == did:key_handle(public_key)": the refusal names both
      [() => checkAgentIdentity({ handle: bob.did, public_key: alice.publicKey }), 'ERR_AGENT_HANDLE_MISMATCH', { handle: bob.did, expected: alice.did }, `handle ${bob.did} is not the did:key of its public key (${alice.did})`],
      // the message is checked before the signature: a short signature beside it does not change the answer
      [() => verifyAgentSignature(id(), 'x' as never, sig().subarray(2)), 'ERR_BAD_ARGUMENT', { what: 'message' }, 'the signed message must be bytes'],
      [() => verifyAgentSignature(id(), msg, sig().subarray(2)), 'ERR_SIGNATURE_LENGTH', { what: 'Ed25519 signature', expected: 64, actual: 62 }, 'Ed25519 signature must be 64 bytes, got 62'],
    ];
    for (const [fn, code, detail, says] of cases) {
      const e = thrown(fn);
      expect([e.code, e.detail]).toEqual([code, detail]);
      expect(e.message).toContain(says);
    }
  });
});
