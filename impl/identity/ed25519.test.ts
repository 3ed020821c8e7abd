// Unit tests of impl/identity/ed25519.ts: the reference's two Ed25519 backends (node:crypto and @noble) agree byte for
// byte and verdict for verdict, the node backend's key caches are sound, bad arguments are refused with their codes,
// and seeds derive deterministically from labels. What an implementation under test must do is checked through the
// protocol in harness/conformance/identity.test.ts; the backends against the published vectors in
// harness/self/ed25519-backends.test.ts.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { thrown } from '../_test-support.ts';
import { toHex } from '../bytes.ts';
import type { JcpErrorCode } from '../errors.ts';
import { blake3DeriveKey } from '../hash/blake3.ts';
import { didFromPublicKey, publicKeyFromDid } from './did-key.ts';
import { SEED_CONTEXT, defaultEd25519, deriveSeed, keyPairFromSeed, nobleEd25519, nodeEd25519, type Ed25519 } from './ed25519.ts';

const BACKENDS: readonly Ed25519[] = [nodeEd25519, nobleEd25519];
/** The fixed fast-check seed of the suite ("JCP"), overridable with FC_SEED / FC_RUNS to replay a failure. */
const fcParams = (runs: number) => ({
  seed: process.env['FC_SEED'] !== undefined ? Number(process.env['FC_SEED']) : 0x4a4350,
  numRuns: process.env['FC_RUNS'] !== undefined ? Number(process.env['FC_RUNS']) : runs,
});

const seedArb = fc.uint8Array({ minLength: 32, maxLength: 32 });
const messageArb = fc.uint8Array({ maxLength: 300 });

function flipBit(b: Uint8Array, bit: number): Uint8Array {
  const out = b.slice();
  out[bit >> 3] = (out[bit >> 3] as number) ^ (1 << (bit & 7));
  return out;
}

describe('Ed25519 backends agree', () => {
  it('node and noble derive the same public key and byte-identical signatures that both verify', () => {
    fc.assert(
      fc.property(seedArb, messageArb, (seed, msg) => {
        const pk = nodeEd25519.publicKeyFromSeed(seed);
        expect(toHex(nobleEd25519.publicKeyFromSeed(seed))).toBe(toHex(pk));
        const sig = nodeEd25519.sign(seed, msg);
        expect(sig.length).toBe(64);
        expect(toHex(nobleEd25519.sign(seed, msg))).toBe(toHex(sig));
        expect(toHex(nodeEd25519.sign(seed, msg))).toBe(toHex(sig)); // deterministic, and the cached key is not stale
        expect(nodeEd25519.verify(sig, msg, pk)).toBe(true);
        expect(nobleEd25519.verify(sig, msg, pk)).toBe(true);
      }),
      fcParams(100),
    );
  });

  it('a single flipped bit of signature, message or key: both backends give the same verdict', () => {
    const flipped = { signature: 0, message: 0, key: 0 };
    fc.assert(
      fc.property(
        seedArb,
        fc.uint8Array({ minLength: 1, maxLength: 200 }),
        fc.constantFrom('signature', 'message', 'key'),
        fc.nat(),
        (seed, msg, where, n) => {
          const pk = nodeEd25519.publicKeyFromSeed(seed);
          let sig = nodeEd25519.sign(seed, msg);
          let m: Uint8Array = msg;
          let k = pk;
          if (where === 'signature') sig = flipBit(sig, n % 512);
          else if (where === 'message') m = flipBit(msg, n % (msg.length * 8));
          else k = flipBit(pk, n % 256);
          flipped[where]++;
          const a = nodeEd25519.verify(sig, m, k);
          const b = nobleEd25519.verify(sig, m, k);
          expect(b).toBe(a);
          // An honest signature survives no single bit flip.
          expect(a).toBe(false);
        },
      ),
      fcParams(150),
    );
    expect(flipped.signature + flipped.message + flipped.key).toBeGreaterThan(0);
  });

  it('arbitrary 64-byte signatures on arbitrary 32-byte keys: same verdict, never a throw', () => {
    // Keys and R drawn partly from the small-order points and their non-canonical encodings, where rules differ.
    const special = [
      '0100000000000000000000000000000000000000000000000000000000000000', // identity
      '0100000000000000000000000000000000000000000000000000000000000080', // identity, sign bit set (non-canonical)
      'ecffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f', // order 2
      'ecffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff', // order 2, sign bit set (non-canonical)
      '0000000000000000000000000000000000000000000000000000000000000000', // order 4
      '0000000000000000000000000000000000000000000000000000000000000080', // order 4
      'c7176a703d4dd84fba3c0b760d10670f2a2053fa2c39ccc64ec7fd7792ac037a', // order 8
      'c7176a703d4dd84fba3c0b760d10670f2a2053fa2c39ccc64ec7fd7792ac03fa', // order 8
      'eeffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f', // y = p + 1 (non-canonical identity)
      'edffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f', // y = p (non-canonical 0)
    ].map((h) => Uint8Array.from(Buffer.from(h, 'hex')));
    const pointArb = fc.oneof(fc.constantFrom(...special), fc.uint8Array({ minLength: 32, maxLength: 32 }));
    const scalarArb = fc.oneof(
      fc.constant(new Uint8Array(32)),
      fc.uint8Array({ minLength: 32, maxLength: 32 }).map((s) => {
        const out = s.slice();
        out[31] = (out[31] as number) & 0x0f; // < 2^252 < L
        return out;
      }),
      fc.uint8Array({ minLength: 32, maxLength: 32 }),
    );
    fc.assert(
      fc.property(pointArb, pointArb, scalarArb, messageArb, (pk, r, s, msg) => {
        const sig = new Uint8Array(64);
        sig.set(r, 0);
        sig.set(s, 32);
        expect(nobleEd25519.verify(sig, msg, pk)).toBe(nodeEd25519.verify(sig, msg, pk));
      }),
      fcParams(300),
    );
  });

  it('S + L (same scalar mod L) and S = L are refused by both; a non-canonical key encoding is refused by both', () => {
    const seed = deriveSeed('malleability');
    const msg = new TextEncoder().encode('jcp');
    const pk = nodeEd25519.publicKeyFromSeed(seed);
    const sig = nodeEd25519.sign(seed, msg);
    const L = 2n ** 252n + 27742317777372353535851937790883648493n;
    let s = 0n;
    for (let i = 63; i >= 32; i--) s = (s << 8n) | BigInt(sig[i] as number);
    const forged = sig.slice();
    let t = s + L;
    for (let i = 32; i < 64; i++, t >>= 8n) forged[i] = Number(t & 0xffn);
    for (const b of BACKENDS) expect(b.verify(forged, msg, pk), b.name).toBe(false);
    // S = L exactly and S = 2^256 − 1 are out of range too: false, never a throw.
    const atL = sig.slice();
    t = L;
    for (let i = 32; i < 64; i++, t >>= 8n) atL[i] = Number(t & 0xffn);
    const allOnes = sig.slice();
    allOnes.fill(0xff, 32);
    for (const b of BACKENDS) {
      expect(b.verify(atL, msg, pk), `${b.name}: S = L`).toBe(false);
      expect(b.verify(allOnes, msg, pk), `${b.name}: S = 2^256 - 1`).toBe(false);
    }
    // The identity point (0, 1) with the sign bit set is a non-canonical A; S = 0, R = identity holds the equation.
    const identity = Uint8Array.from(Buffer.from('01'.padEnd(64, '0'), 'hex'));
    const negZero = identity.slice();
    negZero[31] = 0x80;
    const trivial = new Uint8Array(64);
    trivial.set(identity, 0);
    for (const b of BACKENDS) {
      expect(b.verify(trivial, msg, identity), `${b.name}: small-order A accepted by the cofactorless rule`).toBe(true);
      expect(b.verify(trivial, msg, negZero), `${b.name}: non-canonical A refused`).toBe(false);
    }
  });

  it('node’s key caches follow the bytes, not the array: in-place changes and evictions give fresh answers', () => {
    const msg = Uint8Array.of(9, 9, 9);
    const seed = deriveSeed('cache-a').slice();
    const pkA = nodeEd25519.publicKeyFromSeed(seed);
    const sigA = nodeEd25519.sign(seed, msg);
    seed.set(deriveSeed('cache-b')); // the same array now holds another seed
    expect(toHex(nodeEd25519.publicKeyFromSeed(seed))).toBe(toHex(nobleEd25519.publicKeyFromSeed(seed)));
    expect(toHex(nodeEd25519.sign(seed, msg))).toBe(toHex(nobleEd25519.sign(seed, msg)));
    const pk = pkA.slice();
    expect(nodeEd25519.verify(sigA, msg, pk)).toBe(true);
    pk.set(nodeEd25519.publicKeyFromSeed(seed)); // the same key array now names B, which did not sign
    expect(nodeEd25519.verify(sigA, msg, pk)).toBe(false);
    // Returned keys are copies: changing one does not change the next answer.
    const again = nodeEd25519.publicKeyFromSeed(deriveSeed('cache-a'));
    again.fill(0);
    expect(toHex(nodeEd25519.publicKeyFromSeed(deriveSeed('cache-a')))).toBe(toHex(pkA));
    // Past the cache bound (4096) the oldest entries are evicted and rebuilt, still correct.
    const filler = new Uint8Array(32);
    for (let i = 0; i < 4200; i++) {
      new DataView(filler.buffer).setUint32(0, i + 1);
      nodeEd25519.publicKeyFromSeed(filler);
      expect(nodeEd25519.verify(sigA, msg, filler)).toBe(false); // some are curve points, most are not
    }
    expect(toHex(nodeEd25519.publicKeyFromSeed(deriveSeed('cache-a')))).toBe(toHex(pkA));
    expect(nodeEd25519.verify(sigA, msg, pkA)).toBe(true);
  });
});

describe('boundaries', () => {
  const notBytes: readonly unknown[] = [undefined, null, 0, 'ab', [1, 2, 3], new ArrayBuffer(32), new Uint8ClampedArray(32), new Uint16Array(16), { length: 32 }];
  const lengths = (n: number): Uint8Array[] => [0, 1, n - 1, n + 1, 2 * n].map((l) => new Uint8Array(l));

  it('wrong seed, key and signature lengths and types are refused with their codes, on both backends', () => {
    const seed = deriveSeed('boundaries');
    const msg = Uint8Array.of(1, 2, 3);
    const pk = nodeEd25519.publicKeyFromSeed(seed);
    const sig = nodeEd25519.sign(seed, msg);
    const seen: Partial<Record<JcpErrorCode, number>> = {};
    const refuse = (code: JcpErrorCode, fn: () => unknown): void => {
      expect(thrown(fn).code).toBe(code);
      seen[code] = (seen[code] ?? 0) + 1;
    };
    for (const b of BACKENDS) {
      for (const bad of [...lengths(32), ...notBytes]) {
        refuse('ERR_SEED_LENGTH', () => b.publicKeyFromSeed(bad as Uint8Array));
        refuse('ERR_SEED_LENGTH', () => b.sign(bad as Uint8Array, msg));
        refuse('ERR_KEY_LENGTH', () => b.verify(sig, msg, bad as Uint8Array));
      }
      for (const bad of [...lengths(64), ...notBytes]) refuse('ERR_SIGNATURE_LENGTH', () => b.verify(bad as Uint8Array, msg, pk));
      for (const bad of notBytes) {
        refuse('ERR_BAD_ARGUMENT', () => b.sign(seed, bad as Uint8Array));
        refuse('ERR_BAD_ARGUMENT', () => b.verify(sig, bad as Uint8Array, pk));
      }
      expect(b.verify(sig, msg, pk)).toBe(true);
    }
    for (const bad of [...lengths(32), ...notBytes]) {
      refuse('ERR_KEY_LENGTH', () => didFromPublicKey(bad as Uint8Array));
      refuse('ERR_SEED_LENGTH', () => keyPairFromSeed(bad as Uint8Array));
    }
    expect(seen).toEqual({ ERR_SEED_LENGTH: 56 + 14, ERR_KEY_LENGTH: 28 + 14, ERR_SIGNATURE_LENGTH: 28, ERR_BAD_ARGUMENT: 36 });
  });
});

describe('deterministic keys', () => {
  it('deriveSeed is BLAKE3 derive_key under the suite context: 32 bytes, the same for a label, distinct across labels', () => {
    expect(SEED_CONTEXT).toBe('jcp-conformance 2026 seed v1');
    expect(toHex(deriveSeed('alice'))).toBe(toHex(blake3DeriveKey('jcp-conformance 2026 seed v1', new TextEncoder().encode('alice'))));
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme', maxLength: 40 }), fc.string({ unit: 'grapheme', maxLength: 40 }), (a, b) => {
        const sa = deriveSeed(a);
        expect(sa.length).toBe(32);
        expect(toHex(deriveSeed(a))).toBe(toHex(sa));
        if (a !== b) expect(toHex(deriveSeed(b))).not.toBe(toHex(sa));
      }),
      fcParams(200),
    );
    expect(thrown(() => deriveSeed(42 as unknown as string)).code).toBe('ERR_BAD_ARGUMENT');
    expect(thrown(() => deriveSeed('a\uD800b')).code).toBe('ERR_BAD_ARGUMENT');
  });

  it('keyPairFromSeed: frozen, the same with either backend, its did names its key, and it signs', () => {
    const seed = deriveSeed('alice');
    const a = keyPairFromSeed(seed);
    const b = keyPairFromSeed(seed, nobleEd25519);
    expect(defaultEd25519()).toBe(nodeEd25519);
    expect(Object.isFrozen(a)).toBe(true);
    expect(toHex(b.publicKey)).toBe(toHex(a.publicKey));
    expect(b.did).toBe(a.did);
    expect(toHex(publicKeyFromDid(a.did))).toBe(toHex(a.publicKey));
    seed.fill(0); // the pair holds its own copy
    expect(toHex(a.seed)).toBe(toHex(deriveSeed('alice')));
    const msg = new TextEncoder().encode('hello');
    for (const backend of BACKENDS) expect(backend.verify(backend.sign(a.seed, msg), msg, a.publicKey)).toBe(true);
  });
});
