// Replays RFC 8032 §7.1 (TEST 1, 2, 3, 1024, SHA(abc)) through the implementation under test: key, byte-exact
// signature, verify. The reference's two backends against the same vectors: harness/self/ed25519-backends.test.ts.
import { expect } from 'vitest';
import { clauseIt } from '../clause.ts';
import { implementation } from '../driver.ts';
import { describeWithShared, readVectorJson } from '../external-vectors.ts';
import { bytesEqual, didFromPublicKey, fromHexLoose, toHex } from '../oracle.ts';

interface Rfc8032Vector {
  readonly name: string;
  readonly secretKey: string;
  readonly publicKey: string;
  readonly message: string;
  readonly signature: string;
}

describeWithShared('vectors', 'RFC 8032 §7.1 Ed25519', (dir) => {
  const vectors = readVectorJson<Rfc8032Vector[]>(dir, 'ed25519/rfc8032_ed25519.json');

  clauseIt(
    ['jcp/2#actor-proves-by-signing', 'jcp/2#actor-is-ed25519-did-key'],
    'public key, byte-exact signature and verification of each RFC 8032 §7.1 test',
    async () => {
      const impl = implementation();
      const ran: string[] = [];
      for (const v of vectors) {
        const seed = fromHexLoose(v.secretKey, 'secretKey');
        const msg = fromHexLoose(v.message, 'message');
        const pk = fromHexLoose(v.publicKey, 'publicKey');
        const sig = fromHexLoose(v.signature, 'signature');
        const id = await impl.fromSeed(seed);
        expect(toHex(id.public_key), `TEST ${v.name} public key`).toBe(toHex(pk));
        expect(id.did, `TEST ${v.name} did:key`).toBe(didFromPublicKey(pk));
        expect(toHex(await impl.sign(seed, msg)), `TEST ${v.name} signature`).toBe(toHex(sig));
        expect(await impl.verify(pk, msg, sig), `TEST ${v.name} verifies`).toBe(true);
        // The same signature over a message one bit different is refused.
        const other = msg.length === 0 ? Uint8Array.of(0) : Uint8Array.from(msg, (b, i) => (i === 0 ? b ^ 1 : b));
        expect(bytesEqual(other, msg)).toBe(false);
        expect(await impl.verify(pk, other, sig), `TEST ${v.name} altered message`).toBe(false);
        ran.push(v.name);
      }
      expect(ran).toEqual(['1', '2', '3', '1024', 'SHA(abc)']);
    },
  );
});
