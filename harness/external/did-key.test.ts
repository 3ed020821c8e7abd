// Replays the w3c-ccg/did-method-key Ed25519 fixtures: seed → public key → did:key, publicKeyBase58, parse round trip.
import { expect } from 'vitest';
import { fromHexLoose, toHex } from '../../impl/bytes.ts';
import { isJcpError } from '../../impl/errors.ts';
import { base58btcEncode } from '../../impl/identity/base58.ts';
import { didFromPublicKey, publicKeyFromDid } from '../../impl/identity/did-key.ts';
import { nobleEd25519, nodeEd25519 } from '../../impl/identity/ed25519.ts';
import { clauseIt } from '../clause.ts';
import { describeWithShared, readVectorJson } from '../external-vectors.ts';

interface KeyPairFixture {
  readonly id: string;
  readonly type: string;
  readonly publicKeyBase58?: string;
  readonly publicKeyJwk?: { readonly kty: string; readonly crv: string; readonly x: string };
}
interface DidKeyFixture {
  readonly seed: string;
  readonly verificationKeyPair: KeyPairFixture;
  readonly keyAgreementKeyPair: KeyPairFixture;
}

describeWithShared('vectors', 'did:key Ed25519 fixtures (w3c-ccg/did-method-key)', (dir) => {
  const fixtures = readVectorJson<Record<string, DidKeyFixture>>(dir, 'did-key/ed25519-x25519.json');

  clauseIt(['jcp/2#actor-is-ed25519-did-key'], 'seed → public key → did:key equals each fixture, and parses back', () => {
    const counts = { run: 0, base58: 0, jwk: 0 };
    for (const [did, f] of Object.entries(fixtures)) {
      counts.run++;
      const seed = fromHexLoose(f.seed, 'seed');
      const pk = nodeEd25519.publicKeyFromSeed(seed);
      expect(toHex(nobleEd25519.publicKeyFromSeed(seed)), did).toBe(toHex(pk));
      expect(didFromPublicKey(pk)).toBe(did);
      expect(toHex(publicKeyFromDid(did))).toBe(toHex(pk));
      // The verification method's fragment is the did's own multibase text (entries 1–4 give the id relative).
      const fragment = `#${did.slice('did:key:'.length)}`;
      expect([fragment, did + fragment]).toContain(f.verificationKeyPair.id);
      if (f.verificationKeyPair.publicKeyBase58 !== undefined) {
        expect(base58btcEncode(pk)).toBe(f.verificationKeyPair.publicKeyBase58);
        counts.base58++;
      } else {
        expect(f.verificationKeyPair.publicKeyJwk?.crv).toBe('Ed25519');
        expect(Buffer.from(pk).toString('base64url')).toBe(f.verificationKeyPair.publicKeyJwk?.x);
        counts.jwk++;
      }
    }
    expect(counts).toEqual({ run: 5, base58: 4, jwk: 1 });
  });

  clauseIt(['jcp/2#actor-is-ed25519-did-key'], 'the fixtures’ X25519 key-agreement did:keys (multicodec 0xec01) are refused', () => {
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
