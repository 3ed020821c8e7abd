// BLAKE3 (the BLAKE3 specification, 2020): this module's core against @noble/hashes, an independent implementation,
// over random inputs of every length class the tree distinguishes (empty, inside one block, on block and chunk
// boundaries, several chunks with a short last one, subtrees of unequal depth), in all three modes. The BLAKE3 team's
// own vectors run in harness/self/blake3-vectors.test.ts.
import { blake3 as nobleBlake3 } from '@noble/hashes/blake3.js';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { blake3, blake3DeriveKey } from './blake3.ts';
import { blake3Words, IV, KEYED_HASH } from './blake3-core.ts';
import { toHex } from '../bytes.ts';

/** Lengths on and beside each boundary: blocks of 64, chunks of 1024, 2..9 chunks (tree depths 1..4). */
const EDGES = [0, 1, 63, 64, 65, 1023, 1024, 1025, 2047, 2048, 2049, 3072, 3073, 4096, 5121, 8192, 9217];
const lengths = fc.oneof(fc.constantFrom(...EDGES), fc.integer({ min: 0, max: 10_000 }));
const inputs = lengths.chain((n) => fc.uint8Array({ minLength: n, maxLength: n }));

function keyWords(key: Uint8Array): number[] {
  return Array.from({ length: 8 }, (_, i) => (key[4 * i]! | (key[4 * i + 1]! << 8) | (key[4 * i + 2]! << 16) | (key[4 * i + 3]! << 24)) >>> 0);
}

describe('BLAKE3 core', () => {
  it('hash mode equals @noble/hashes on every boundary length and random inputs', () => {
    for (const n of EDGES) {
      const m = Uint8Array.from({ length: n }, (_, i) => (i * 7 + 3) & 0xff);
      expect(toHex(blake3(m)), `length ${n}`).toBe(toHex(nobleBlake3(m)));
    }
    fc.assert(fc.property(inputs, (m) => toHex(blake3(m)) === toHex(nobleBlake3(m))), { numRuns: 200 });
    // an input at every offset from a word boundary (the aligned path reads whole words, the others bytes)
    fc.assert(
      fc.property(inputs, fc.integer({ min: 0, max: 7 }), (m, k) => {
        const inside = new Uint8Array(m.length + 8);
        inside.set(m, k);
        const view = inside.subarray(k, k + m.length);
        return toHex(blake3(view)) === toHex(nobleBlake3(m));
      }),
      { numRuns: 200 },
    );
  });

  it('keyed_hash mode equals @noble/hashes', () => {
    fc.assert(
      fc.property(inputs, fc.uint8Array({ minLength: 32, maxLength: 32 }), (m, key) => toHex(blake3Words(m, keyWords(key), KEYED_HASH)) === toHex(nobleBlake3(m, { key }))),
      { numRuns: 100 },
    );
  });

  it('derive_key mode equals @noble/hashes at 32 bytes, and longer outputs still come out right', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 80 }), inputs, (context, m) => {
        const c = new TextEncoder().encode(context);
        return toHex(blake3DeriveKey(context, m)) === toHex(nobleBlake3(m, { context: c })) && toHex(blake3DeriveKey(context, m, 40)) === toHex(nobleBlake3(m, { context: c, dkLen: 40 }));
      }),
      { numRuns: 100 },
    );
  });

  it('a digest is a fresh array each time and the input is left as it was', () => {
    const m = Uint8Array.from({ length: 2000 }, (_, i) => i & 0xff);
    const copy = m.slice();
    const a = blake3(m);
    const b = blake3(m);
    expect(a).not.toBe(b);
    a[0] = a[0]! ^ 1;
    expect(toHex(blake3(m))).toBe(toHex(b));
    expect(m).toEqual(copy);
    expect(IV.length).toBe(8);
  });

  it('refuses what is not bytes with a typed error', () => {
    expect(() => blake3('abc' as unknown as Uint8Array)).toThrowError(expect.objectContaining({ code: 'ERR_BAD_ARGUMENT' }));
  });
});
