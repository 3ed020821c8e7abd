// Unit tests of the transparency log's Merkle tree (jouleclaw §22.1; RFC 9162 §2.1.3 and §2.1.4): the tree keeps every
// complete aligned subtree's hash (a root or proof over complete subtrees costs no hashing), bounds on sizes and indexes
// refused with their messages, and each refusal of inclusion (RFC 9162 §2.1.3.2) and consistency (§2.1.4.2)
// verification with its own reason. Roots and proofs for every small size are checked in tlog.test.ts.
import { describe, expect, it } from 'vitest';
import { lazy, thrown } from '../_test-support.ts';
import { toHex } from '../bytes.ts';
import { blake3 } from '../hash/blake3.ts';
import {
  createMerkleTree,
  merkleEmptyRoot,
  merkleLeafHash,
  merkleNodeHash,
  merkleRoot,
  merkleRootFromInclusion,
  merkleVerifyConsistency,
  merkleVerifyInclusion,
  MERKLE_BLAKE3,
  type MerkleHash,
} from './tlog-merkle.ts';

const H = MERKLE_BLAKE3;
const data = (i: number) => Uint8Array.of(i, 0xa5);

/** BLAKE3 that counts its calls (§22.1's hash, observed). */
function counting(): MerkleHash & { calls: number } {
  const c = { name: 'blake3' as const, calls: 0, hash: (b: Uint8Array) => (c.calls++, blake3(b)) };
  return c;
}

/** A tree of `n` leaves over `h`. */
function treeOf(n: number, h: MerkleHash = H) {
  const t = createMerkleTree(h);
  for (let i = 0; i < n; i++) t.append(data(i));
  return t;
}

const t5 = lazy(() => treeOf(5));
const t8 = lazy(() => treeOf(8));

describe('tlog-merkle: leaves and the cached tree (§22.1)', () => {
  it('refuses a leaf that is not bytes', () => {
    const e = thrown(() => merkleLeafHash(H, 'x' as never));
    expect(e.code).toBe('ERR_BAD_ARGUMENT');
    expect(e.message).toBe('ERR_BAD_ARGUMENT: a Merkle leaf must be a Uint8Array');
  });

  it('merkleRoot is the tree\'s root over the same leaves, and the empty root for none', () => {
    const leaves = Array.from({ length: 5 }, (_, i) => data(i));
    const l = leaves.map((d) => merkleLeafHash(H, d));
    const n = (a: Uint8Array, b: Uint8Array) => merkleNodeHash(H, a, b);
    // RFC 6962 §2.1: MTH of 5 = node(MTH(0..4), MTH(4..5))
    expect(toHex(merkleRoot(H, leaves))).toBe(toHex(n(n(n(l[0]!, l[1]!), n(l[2]!, l[3]!)), l[4]!)));
    expect(toHex(merkleRoot(H, []))).toBe(toHex(merkleEmptyRoot(H)));
  });

  it('hashes each append once for the leaf and once for every subtree it completes', () => {
    const h = counting();
    const t = createMerkleTree(h);
    const costs = Array.from({ length: 8 }, (_, i) => {
      const before = h.calls;
      expect(t.append(data(i))).toBe(i);
      return h.calls - before;
    });
    // index i completes as many subtrees as it has trailing one bits
    expect(costs).toEqual([1, 2, 1, 3, 1, 2, 1, 4]);
  });

  it('keeps every complete aligned subtree: roots at powers of two and their proofs cost no hashing', () => {
    const h = counting();
    const t = treeOf(8, h);
    const ref = treeOf(8);
    h.calls = 0;
    for (const s of [1, 2, 4, 8]) expect(toHex(t.root(s)), `root(${s})`).toBe(toHex(ref.root(s)));
    for (let i = 0; i < 8; i++) expect(t.inclusionProof(i, 8).map(toHex)).toEqual(ref.inclusionProof(i, 8).map(toHex));
    expect(t.consistencyProof(4, 8).map(toHex)).toEqual(ref.consistencyProof(4, 8).map(toHex));
    expect(h.calls).toBe(0);
    // a size that is not a power of two hashes only the nodes that join its complete parts: 7 = 4 + 2 + 1
    expect(toHex(t.root(7))).toBe(toHex(ref.root(7)));
    expect(h.calls).toBe(2);
  });
});

describe('tlog-merkle: sizes and indexes a tree refuses', () => {
  it('leafHash: an index in 0 … size−1 only', () => {
    expect(toHex(t5.leafHash(4))).toBe(toHex(merkleLeafHash(H, data(4))));
    expect(toHex(t5.leafHash(0))).toBe(toHex(merkleLeafHash(H, data(0))));
    for (const i of [5, -1, 1.5, 99]) {
      const e = thrown(() => t5.leafHash(i));
      expect(e.code).toBe('ERR_BAD_ARGUMENT');
      expect(e.message).toBe(`ERR_BAD_ARGUMENT: no leaf ${i} in a tree of 5`);
    }
  });

  it('root: a size in 0 … size only', () => {
    expect(toHex(t5.root(5))).toBe(toHex(t5.root()));
    for (const s of [6, -1, 1.5, 99]) {
      const e = thrown(() => t5.root(s));
      expect(e.code).toBe('ERR_BAD_ARGUMENT');
      expect(e.message).toBe(`ERR_BAD_ARGUMENT: tree size must be an integer in 0 … 5, got ${s}`);
    }
  });

  it('inclusionProof: a size within the tree and an index below it', () => {
    expect(thrown(() => t5.inclusionProof(0, 6)).message).toBe('ERR_BAD_ARGUMENT: tree size must be an integer in 0 … 5, got 6');
    // RFC 9162 §2.1.3.1: PATH(2, D[0:3]) = PATH(0, D[2:3]) : MTH(D[0:2]), one hash
    expect(t5.inclusionProof(2, 3).map(toHex)).toEqual([toHex(t5.root(2))]);
    for (const [i, s] of [[3, 3], [-1, 3], [1.5, 3], [5, 5], [0, 0]] as const) {
      const e = thrown(() => t5.inclusionProof(i, s));
      expect(e.code).toBe('ERR_BAD_ARGUMENT');
      expect(e.message).toBe(`ERR_BAD_ARGUMENT: leaf index must be in 0 … ${s - 1}, got ${i}`);
    }
  });

  it('consistencyProof: sizes within the tree with 0 < size1 ≤ size2', () => {
    expect(thrown(() => t5.consistencyProof(1, 6)).message).toBe('ERR_BAD_ARGUMENT: size2 must be an integer in 0 … 5, got 6');
    expect(thrown(() => t5.consistencyProof(6)).message).toBe('ERR_BAD_ARGUMENT: size1 must be an integer in 0 … 5, got 6');
    expect(thrown(() => t5.consistencyProof(0, 3)).message).toBe('ERR_BAD_ARGUMENT: a consistency proof needs 0 < size1 ≤ size2, got 0 and 3');
    expect(thrown(() => t5.consistencyProof(4, 3)).message).toBe('ERR_BAD_ARGUMENT: a consistency proof needs 0 < size1 ≤ size2, got 4 and 3');
    expect(t5.consistencyProof(3, 3)).toEqual([]);
  });
});

describe('tlog-merkle: inclusion verification (RFC 9162 §2.1.3.2)', () => {
  const root = () => t5.root(5);
  const leaf = () => t5.leafHash(2);
  const proof = () => t5.inclusionProof(2, 5);
  const invalid = (fn: () => unknown, why: string, index = 2n, size = 5n) => {
    const e = thrown(fn);
    expect(e.code).toBe('ERR_TLOG_INCLUSION_INVALID');
    expect(e.message).toBe(`ERR_TLOG_INCLUSION_INVALID: inclusion proof of leaf ${index} in a tree of ${size}: ${why}`);
  };

  it('verifies a good proof against the tree\'s root', () => {
    expect(merkleVerifyInclusion(H, 2n, 5n, leaf(), proof(), root())).toBeUndefined();
    expect(toHex(merkleRootFromInclusion(H, 4n, 5n, t5.leafHash(4), t5.inclusionProof(4, 5)))).toBe(toHex(root()));
  });

  it('refuses an index or size outside u64 as a bad argument', () => {
    for (const [i, s, what] of [[-1n, 5n, 'leaf index'], [1n << 64n, 5n, 'leaf index'], [0n, -1n, 'tree size'], [0n, 1n << 64n, 'tree size'], [0, 5n, 'leaf index']] as const) {
      const e = thrown(() => merkleRootFromInclusion(H, i as bigint, s, leaf(), proof()));
      expect(e.code).toBe('ERR_BAD_ARGUMENT');
      expect(e.message).toBe(`ERR_BAD_ARGUMENT: ${what} must be a bigint in 0 … 2^64−1`);
    }
  });

  it('refuses a proof that is not a list of 32-byte hashes', () => {
    expect(thrown(() => merkleRootFromInclusion(H, 2n, 5n, leaf(), 'x' as never)).message).toBe('ERR_BAD_ARGUMENT: a proof must be an array of hashes');
    const notBytes = thrown(() => merkleRootFromInclusion(H, 2n, 5n, leaf(), [proof()[0]!, 'x'.repeat(32) as never, proof()[2]!]));
    expect(notBytes.code).toBe('ERR_BAD_ARGUMENT');
    expect(notBytes.message).toBe('ERR_BAD_ARGUMENT: proof[1] must be a Uint8Array');
    const short = thrown(() => merkleRootFromInclusion(H, 2n, 5n, leaf(), [proof()[0]!, new Uint8Array(31), proof()[2]!]));
    expect(short.code).toBe('ERR_TLOG_INCLUSION_INVALID');
    expect(short.message).toBe('ERR_TLOG_INCLUSION_INVALID: proof[1] is 31 bytes, not a 32-byte hash');
  });

  it('fails an index not below the size (step 1), a leaf hash not 32 bytes, and a proof of the wrong length', () => {
    invalid(() => merkleRootFromInclusion(H, 5n, 5n, leaf(), proof()), 'the index is not below the tree size', 5n);
    invalid(() => merkleRootFromInclusion(H, 0n, 0n, leaf(), []), 'the index is not below the tree size', 0n, 0n);
    invalid(() => merkleRootFromInclusion(H, 2n, 5n, leaf().slice(1), proof()), 'the leaf hash is not 32 bytes');
    invalid(() => merkleRootFromInclusion(H, 2n, 5n, toHex(leaf()) as never, proof()), 'the leaf hash is not 32 bytes');
    invalid(() => merkleRootFromInclusion(H, 2n, 5n, leaf(), [...proof(), root()]), 'the proof has more hashes than the path');
    invalid(() => merkleRootFromInclusion(H, 0n, 1n, t5.leafHash(0), [root()]), 'the proof has more hashes than the path', 0n, 1n);
    invalid(() => merkleRootFromInclusion(H, 2n, 5n, leaf(), proof().slice(0, 2)), 'the proof has fewer hashes than the path');
  });

  it('refuses a root that differs or is not bytes', () => {
    for (const r of [t5.root(4), toHex(root()) as never, null as never]) {
      const e = thrown(() => merkleVerifyInclusion(H, 2n, 5n, leaf(), proof(), r));
      expect(e.code).toBe('ERR_TLOG_INCLUSION_INVALID');
      expect(e.message).toBe('ERR_TLOG_INCLUSION_INVALID: inclusion proof of leaf 2 in a tree of 5 closes to a different root');
    }
  });
});

describe('tlog-merkle: consistency verification (RFC 9162 §2.1.4.2)', () => {
  const r = (n: number) => t8.root(n);
  const invalid = (fn: () => unknown, why: string, s1: bigint, s2: bigint) => {
    const e = thrown(fn);
    expect(e.code).toBe('ERR_TLOG_CONSISTENCY_INVALID');
    expect(e.message).toBe(`ERR_TLOG_CONSISTENCY_INVALID: consistency proof from ${s1} to ${s2}: ${why}`);
  };
  const bad = (fn: () => unknown, msg: string) => {
    const e = thrown(fn);
    expect(e.code).toBe('ERR_BAD_ARGUMENT');
    expect(e.message).toBe(`ERR_BAD_ARGUMENT: ${msg}`);
  };

  it('verifies good proofs, a power-of-two first size and equal sizes included', () => {
    for (const [m, n] of [[1, 2], [2, 8], [3, 7], [5, 8], [4, 4]] as const) {
      expect(merkleVerifyConsistency(H, BigInt(m), BigInt(n), t8.consistencyProof(m, n), r(m), r(n))).toBeUndefined();
    }
  });

  it('refuses sizes outside u64, roots that are not bytes and a proof that is not a list, as bad arguments', () => {
    bad(() => merkleVerifyConsistency(H, -1n, 8n, [], r(1), r(8)), 'size1 must be a bigint in 0 … 2^64−1');
    bad(() => merkleVerifyConsistency(H, 1n, 1n << 64n, [], r(1), r(8)), 'size2 must be a bigint in 0 … 2^64−1');
    for (const [a, b] of [[toHex(r(2)), r(2)], [r(2), toHex(r(2))], [null, null]] as const) {
      bad(() => merkleVerifyConsistency(H, 2n, 2n, [], a as never, b as never), 'roots must be Uint8Arrays');
    }
    bad(() => merkleVerifyConsistency(H, 2n, 2n, 'x' as never, r(2), r(2)), 'a proof must be an array of hashes');
    bad(() => merkleVerifyConsistency(H, 3n, 2n, 'x' as never, r(3), r(2)), 'a proof must be an array of hashes');
    bad(() => merkleVerifyConsistency(H, 2n, 8n, ['x'.repeat(32) as never], r(2), r(8)), 'proof[0] must be a Uint8Array');
    const long = thrown(() => merkleVerifyConsistency(H, 2n, 8n, [new Uint8Array(33)], r(2), r(8)));
    expect(long.code).toBe('ERR_TLOG_CONSISTENCY_INVALID');
    expect(long.message).toBe('ERR_TLOG_CONSISTENCY_INVALID: proof[0] is 33 bytes, not a 32-byte hash');
  });

  it('fails size1 > size2, size1 = 0, and equal sizes unless the proof is empty and the roots are equal', () => {
    invalid(() => merkleVerifyConsistency(H, 3n, 2n, [], r(3), r(2)), 'size1 is greater than size2', 3n, 2n);
    invalid(() => merkleVerifyConsistency(H, 0n, 2n, [], r(0), r(2)), 'a consistency proof from the empty tree is meaningless', 0n, 2n);
    invalid(() => merkleVerifyConsistency(H, 4n, 4n, [r(4)], r(4), r(4)), 'equal sizes need an empty proof', 4n, 4n);
    invalid(() => merkleVerifyConsistency(H, 4n, 4n, [], r(4), r(3)), 'equal sizes with different roots', 4n, 4n);
  });

  it('fails an empty proof (step 1), a proof too long or too short, and one that closes to neither root', () => {
    invalid(() => merkleVerifyConsistency(H, 1n, 2n, [], r(1), r(2)), 'the proof is empty', 1n, 2n);
    invalid(() => merkleVerifyConsistency(H, 3n, 8n, [], r(3), r(8)), 'the proof is empty', 3n, 8n);
    const p = t8.consistencyProof(2, 8);
    invalid(() => merkleVerifyConsistency(H, 2n, 8n, [...p, r(1)], r(2), r(8)), 'the proof has more hashes than the paths', 2n, 8n);
    invalid(() => merkleVerifyConsistency(H, 2n, 8n, p.slice(0, -1), r(2), r(8)), 'the proof has fewer hashes than the paths', 2n, 8n);
    const q = t8.consistencyProof(3, 7);
    invalid(() => merkleVerifyConsistency(H, 3n, 7n, q, r(2), r(7)), 'the proof does not close to the first root', 3n, 7n);
    invalid(() => merkleVerifyConsistency(H, 3n, 7n, q, r(3), r(8)), 'the proof does not close to the second root', 3n, 7n);
  });
});
