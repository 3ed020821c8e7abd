// Unit tests of jcp §4.3 revocation authority in impl/jcp/revocation.ts: each refusal carries its code, the fault it
// names in its detail, and a message saying what was wrong (the conformance tests in harness/conformance/chain.test.ts
// check the codes through the testee protocol; what an operator reads is checked here). Found missing by a Stryker run
// over this file (68.9%: the messages, the detail faults, and a verifier that throws were never asserted).
import { describe, expect, it } from 'vitest';
import { lazy, lazyKey, thrown, TOOL_RESOURCE } from '../_test-support.ts';
import { defaultEd25519, type Ed25519 } from '../identity/ed25519.ts';
import { grantId, mintGrant } from './grant.ts';
import { mintRevocation, verifyRevocationAuthority } from './revocation.ts';

const alice = lazyKey('alice');
const bob = lazyKey('bob');
const mallory = lazyKey('mallory');
const grant = lazy(() => mintGrant(alice, { subject: bob.did, resource: TOOL_RESOURCE, actions: ['call'], budget_uj: 10n, nonce: new Uint8Array(16).fill(4) }).grant);
const other = lazy(() => mintGrant(alice, { subject: bob.did, resource: TOOL_RESOURCE, actions: ['call'], budget_uj: 11n, nonce: new Uint8Array(16).fill(5) }).grant);
const NONCE = new Uint8Array(16).fill(9);

describe('verifyRevocationAuthority (jcp §4.3: ids match, revoker = issuer, signature verifies)', () => {
  it('honours the issuer’s own revocation of that grant', () => {
    expect(() => verifyRevocationAuthority(mintRevocation(alice, grantId(grant), NONCE), grant)).not.toThrow();
  });

  it('a revocation naming another grant: fault grant-id, both ids named', () => {
    const e = thrown(() => verifyRevocationAuthority(mintRevocation(alice, grantId(other), NONCE), grant));
    expect(e.code).toBe('ERR_REVOCATION_UNAUTHORIZED');
    expect(e.detail).toEqual({ fault: 'grant-id' });
    expect(e.message).toContain(grantId(other));
    expect(e.message).toContain(grantId(grant));
  });

  it('a revocation by anyone but the issuer: fault not-issuer, revoker and issuer named', () => {
    const e = thrown(() => verifyRevocationAuthority(mintRevocation(mallory, grantId(grant), NONCE), grant));
    expect(e.code).toBe('ERR_REVOCATION_UNAUTHORIZED');
    expect(e.detail).toEqual({ fault: 'not-issuer' });
    expect(e.message).toContain(mallory.did);
    expect(e.message).toContain(alice.did);
  });

  it('a signature that does not verify: fault signature', () => {
    const sr = mintRevocation(alice, grantId(grant), NONCE);
    const flipped = sr.signature.slice();
    flipped[0] = flipped[0]! ^ 1;
    const e = thrown(() => verifyRevocationAuthority({ revocation: sr.revocation, signature: flipped }, grant));
    expect(e.code).toBe('ERR_REVOCATION_UNAUTHORIZED');
    expect(e.detail).toEqual({ fault: 'signature' });
    expect(e.message).toMatch(/signature does not verify/);
  });

  it('a verifier that throws counts as a signature that does not verify, never as one that does', () => {
    const throwing: Ed25519 = { ...defaultEd25519(), verify: () => { throw new Error('backend failure'); } };
    const e = thrown(() => verifyRevocationAuthority(mintRevocation(alice, grantId(grant), NONCE), grant, throwing));
    expect(e.code).toBe('ERR_REVOCATION_UNAUTHORIZED');
    expect(e.detail).toEqual({ fault: 'signature' });
  });
});

describe('mintRevocation refuses what the wire would refuse, saying which field', () => {
  it('a grant_id that is not a content id', () => {
    const e = thrown(() => mintRevocation(alice, grantId(grant).toUpperCase(), NONCE));
    expect(e.code).toBe('ERR_REVOCATION_MALFORMED');
    expect(e.message).toMatch(/grant_id must be a content id/);
  });

  it('a nonce of other than 16 bytes', () => {
    const e = thrown(() => mintRevocation(alice, grantId(grant), new Uint8Array(15)));
    expect(e.code).toBe('ERR_REVOCATION_MALFORMED');
    expect(e.message).toMatch(/nonce must be 16 bytes/);
  });
});
