// Unit tests of the JouleClaw agent identity (impl/jouleclaw/identity.ts, jouleclaw §8): handle = did:key(public_key),
// checked before any signed material is accepted.
import { describe, expect, it } from 'vitest';
import { codeOf, lazyKey } from '../_test-support.ts';
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
});
