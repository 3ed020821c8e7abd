// Self-tests of the suite's own tooling: the reference's did:key code and both Ed25519 backends, reached through the
// oracle, against the w3c-ccg/did-method-key fixtures, including the fault it names for the X25519 did:keys. What an
// implementation under test must do with the same fixtures is in harness/external/did-key.test.ts.
import { expect, it } from 'vitest';
import { describeWithShared, readVectorJson } from '../external-vectors.ts';
import { didFromPublicKey, fromHexLoose, isJcpError, nobleEd25519, nodeEd25519, publicKeyFromDid, toHex } from '../oracle.ts';

interface DidKeyFixture {
  readonly seed: string;
  readonly keyAgreementKeyPair: { readonly id: string };
}

describeWithShared('vectors', 'did:key Ed25519 fixtures (w3c-ccg/did-method-key), the reference', (dir) => {
  const fixtures = readVectorJson<Record<string, DidKeyFixture>>(dir, 'did-key/ed25519-x25519.json');

  it('both backends give each fixture’s key; didFromPublicKey gives its did and publicKeyFromDid reads it back', () => {
    let run = 0;
    for (const [did, f] of Object.entries(fixtures)) {
      const seed = fromHexLoose(f.seed, 'seed');
      const pk = nodeEd25519.publicKeyFromSeed(seed);
      expect(toHex(nobleEd25519.publicKeyFromSeed(seed)), did).toBe(toHex(pk));
      expect(didFromPublicKey(pk)).toBe(did);
      expect(toHex(publicKeyFromDid(did))).toBe(toHex(pk));
      run++;
    }
    expect(run).toBe(5);
  });

  it('the fixtures’ X25519 key-agreement did:keys are refused with the fault multicodec', () => {
    let refused = 0;
    for (const f of Object.values(fixtures)) {
      const x25519Did = `did:key:${f.keyAgreementKeyPair.id.split('#')[1] ?? ''}`;
      let fault: unknown;
      try {
        publicKeyFromDid(x25519Did);
      } catch (e) {
        if (!isJcpError(e, 'ERR_DID_MALFORMED')) throw e;
        fault = e.detail?.['fault'];
      }
      expect(fault, x25519Did).toBe('multicodec');
      refused++;
    }
    expect(refused).toBe(5);
  });
});
