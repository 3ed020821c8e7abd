// Replays the w3c-ccg/did-method-key Ed25519 fixtures through the implementation under test: seed → public key →
// did:key, publicKeyBase58 / JWK, parse round trip; the fixtures' X25519 did:keys are refused.
import { expect } from 'vitest';
import { clauseIt } from '../clause.ts';
import { expectRefusedAs } from '../contract-codes.ts';
import { implementation } from '../driver.ts';
import { describeWithShared, readVectorJson } from '../external-vectors.ts';
import { TesteeError } from '../implementation.ts';
import { fromHexLoose, toHex } from '../oracle.ts';

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

/** base58btc, written here apart from the reference, to compare a key with a fixture's publicKeyBase58. */
function base58(bytes: Uint8Array): string {
  const alphabet = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';
  let n = 0n;
  for (const b of bytes) n = (n << 8n) | BigInt(b);
  let s = '';
  for (; n > 0n; n /= 58n) s = alphabet[Number(n % 58n)] + s;
  for (const b of bytes) {
    if (b !== 0) break;
    s = `1${s}`;
  }
  return s;
}

describeWithShared('vectors', 'did:key Ed25519 fixtures (w3c-ccg/did-method-key)', (dir) => {
  const fixtures = readVectorJson<Record<string, DidKeyFixture>>(dir, 'did-key/ed25519-x25519.json');

  clauseIt(['jcp/2#actor-is-ed25519-did-key'], 'seed → public key → did:key equals each fixture, and parses back', async () => {
    const impl = implementation();
    const counts = { run: 0, base58: 0, jwk: 0 };
    for (const [did, f] of Object.entries(fixtures)) {
      counts.run++;
      const got = await impl.fromSeed(fromHexLoose(f.seed, 'seed'));
      const pk = got.public_key;
      expect(got.did, `seed ${f.seed}`).toBe(did);
      expect(toHex(await impl.parseDid(did)), did).toBe(toHex(pk));
      // The verification method's fragment is the did's own multibase text (entries 1–4 give the id relative).
      const fragment = `#${did.slice('did:key:'.length)}`;
      expect([fragment, did + fragment]).toContain(f.verificationKeyPair.id);
      if (f.verificationKeyPair.publicKeyBase58 !== undefined) {
        expect(base58(pk), did).toBe(f.verificationKeyPair.publicKeyBase58);
        counts.base58++;
      } else {
        expect(f.verificationKeyPair.publicKeyJwk?.crv).toBe('Ed25519');
        expect(Buffer.from(pk).toString('base64url'), did).toBe(f.verificationKeyPair.publicKeyJwk?.x);
        counts.jwk++;
      }
    }
    expect(counts).toEqual({ run: 5, base58: 4, jwk: 1 });
  });

  clauseIt(['jcp/2#actor-is-ed25519-did-key'], 'the fixtures’ X25519 key-agreement did:keys (multicodec 0xec01) are refused', async () => {
    const impl = implementation();
    let refused = 0;
    for (const f of Object.values(fixtures)) {
      const x25519Did = `did:key:${f.keyAgreementKeyPair.id.split('#')[1] ?? ''}`;
      expect(x25519Did.startsWith('did:key:z6LS'), x25519Did).toBe(true); // base58btc of 0xec01 ‖ 32 bytes
      let code = 'accepted';
      try {
        await impl.parseDid(x25519Did);
      } catch (e) {
        if (!(e instanceof TesteeError)) throw e;
        code = e.code;
      }
      expectRefusedAs(code, 'ERR_DID_MALFORMED', x25519Did);
      refused++;
    }
    expect(refused).toBe(5);
  });
});
