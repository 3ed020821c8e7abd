// Replays RFC 8032 §7.1 (TEST 1, 2, 3, 1024, SHA(abc)) against both Ed25519 backends: key, byte-exact signature, verify.
import { expect } from 'vitest';
import { bytesEqual, fromHexLoose, toHex } from '../../impl/bytes.ts';
import { nobleEd25519, nodeEd25519, type Ed25519 } from '../../impl/identity/ed25519.ts';
import { clauseIt } from '../clause.ts';
import { describeWithShared, readVectorJson } from '../external-vectors.ts';

interface Rfc8032Vector {
  readonly name: string;
  readonly secretKey: string;
  readonly publicKey: string;
  readonly message: string;
  readonly signature: string;
}

const BACKENDS: readonly Ed25519[] = [nodeEd25519, nobleEd25519];

describeWithShared('vectors', 'RFC 8032 §7.1 Ed25519', (dir) => {
  const vectors = readVectorJson<Rfc8032Vector[]>(dir, 'ed25519/rfc8032_ed25519.json');

  for (const backend of BACKENDS) {
    clauseIt(
      ['jcp/2#actor-proves-by-signing', 'jcp/2#actor-is-ed25519-did-key'],
      `${backend.name}: public key, byte-exact signature and verification of each RFC 8032 §7.1 test`,
      () => {
        const ran: string[] = [];
        for (const v of vectors) {
          const seed = fromHexLoose(v.secretKey, 'secretKey');
          const msg = fromHexLoose(v.message, 'message');
          const pk = fromHexLoose(v.publicKey, 'publicKey');
          const sig = fromHexLoose(v.signature, 'signature');
          expect(toHex(backend.publicKeyFromSeed(seed)), `TEST ${v.name} public key`).toBe(toHex(pk));
          expect(toHex(backend.sign(seed, msg)), `TEST ${v.name} signature`).toBe(toHex(sig));
          expect(backend.verify(sig, msg, pk), `TEST ${v.name} verifies`).toBe(true);
          // The same signature over a message one bit different is refused.
          const other = msg.length === 0 ? Uint8Array.of(0) : Uint8Array.from(msg, (b, i) => (i === 0 ? b ^ 1 : b));
          expect(bytesEqual(other, msg)).toBe(false);
          expect(backend.verify(sig, other, pk), `TEST ${v.name} altered message`).toBe(false);
          ran.push(v.name);
        }
        expect(ran).toEqual(['1', '2', '3', '1024', 'SHA(abc)']);
      },
    );
  }
});
