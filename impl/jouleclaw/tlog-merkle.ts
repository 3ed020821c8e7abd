// jouleclaw §22.1 the transparency log's tree: an RFC 6962 / RFC 9162 Merkle tree (leaf prefix 0x00, node prefix 0x01)
// parameterised by its hash — BLAKE3 as §22.1 requires, SHA-256 to replay the RFC's own test data with the same code.
// Proofs are made by the RFC 9162 §2.1.3.1 PATH and §2.1.4.1 SUBPROOF definitions and verified by the §2.1.3.2 and
// §2.1.4.2 algorithms.
//
// Edges the RFC leaves to the caller, read as transparency-dev/merkle's test data fixes them (the vectors replayed by
// harness/external/merkle-rfc6962.test.ts): a leaf hash of the wrong length is refused; a consistency proof from the
// empty tree (size1 = 0) is refused; equal sizes verify only with an empty proof and byte-equal roots. This layer
// compares roots as bytes; the 32-byte-hex rule of §22.2 is the signed head's (tlog-head.ts).
import { sha256 as _sha256 } from '@noble/hashes/sha2.js';
import { bytesEqual, concatBytes } from '../bytes.ts';
import { JcpError } from '../errors.ts';
import { blake3 } from '../hash/blake3.ts';

/** The hash a tree is built with: 32-byte output. */
export interface MerkleHash {
  readonly name: 'blake3' | 'sha256';
  /** The digest of `bytes` (32 bytes). */
  hash(bytes: Uint8Array): Uint8Array;
}

/** BLAKE3, the hash of the JouleClaw log (§22.1: "BLAKE3 in place of SHA-256"). */
export const MERKLE_BLAKE3: MerkleHash = Object.freeze({ name: 'blake3', hash: blake3 });
/** SHA-256, the hash of RFC 6962 itself (used to replay its published test data). */
export const MERKLE_SHA256: MerkleHash = Object.freeze({ name: 'sha256', hash: (b: Uint8Array) => _sha256(b) });

/** Bytes of every hash in a tree (both hashes above). */
export const MERKLE_HASH_BYTES = 32;

const LEAF = Uint8Array.of(0x00);
const NODE = Uint8Array.of(0x01);

/** §22.1 "leaf hash: BLAKE3(0x00 || receipt_bytes)" — RFC 6962 §2.1 MTH({d(0)}) = HASH(0x00 || d(0)). */
export function merkleLeafHash(h: MerkleHash, data: Uint8Array): Uint8Array {
  if (!(data instanceof Uint8Array)) throw new JcpError('ERR_BAD_ARGUMENT', 'a Merkle leaf must be a Uint8Array');
  return h.hash(concatBytes(LEAF, data));
}

/** §22.1 "internal node: BLAKE3(0x01 || left || right)". */
export function merkleNodeHash(h: MerkleHash, left: Uint8Array, right: Uint8Array): Uint8Array {
  return h.hash(concatBytes(NODE, left, right));
}

/** RFC 6962 §2.1: the hash of the empty tree is the hash of the empty string. */
export function merkleEmptyRoot(h: MerkleHash): Uint8Array {
  return h.hash(new Uint8Array(0));
}

/** The largest power of two strictly less than `n` (n ≥ 2): RFC 6962's split point k. */
function _split(n: number): number {
  let k = 1;
  while (k * 2 < n) k *= 2;
  return k;
}

function _isPow2(n: number): boolean {
  return n > 0 && (n & (n - 1)) === 0;
}

/** An append-only Merkle tree held in memory, with every complete aligned subtree's hash kept. */
export interface MerkleTree {
  readonly hash: MerkleHash;
  /** How many leaves it holds. */
  readonly size: number;
  /** Appends a leaf's data; returns its index. */
  append(data: Uint8Array): number;
  /** The leaf hash at `index`. */
  leafHash(index: number): Uint8Array;
  /** MTH(D[0:size]) for any size ≤ the tree's (default: all of it). */
  root(size?: number): Uint8Array;
  /** RFC 9162 §2.1.3.1 PATH(index, D[0:size]), lowest level first. */
  inclusionProof(index: number, size?: number): Uint8Array[];
  /** RFC 9162 §2.1.4.1 PROOF(size1, D[0:size2]); refused for size1 = 0 or size1 > size2. */
  consistencyProof(size1: number, size2?: number): Uint8Array[];
}

/** A fresh, empty tree over `h` (the log uses {@link MERKLE_BLAKE3}). */
export function createMerkleTree(h: MerkleHash): MerkleTree {
  // levels[k][i] = MTH of the 2^k leaves starting at i·2^k (complete subtrees only)
  const levels: Uint8Array[][] = [[]];

  const sizeArg = (size: number | undefined, what: string): number => {
    const n = levels[0]!.length;
    const s = size ?? n;
    if (!Number.isSafeInteger(s) || s < 0 || s > n) throw new JcpError('ERR_BAD_ARGUMENT', `${what} must be an integer in 0 … ${n}, got ${String(size)}`);
    return s;
  };

  /** MTH(D[a:b]); every range this is called with starts on a multiple of its left part's size (RFC recursion). */
  const subtree = (a: number, b: number): Uint8Array => {
    const n = b - a;
    if (n === 0) return merkleEmptyRoot(h);
    if (_isPow2(n) && a % n === 0) {
      const k = Math.log2(n);
      const cached = levels[k]?.[a / n];
      if (cached) return cached;
    }
    const k = _split(n);
    return merkleNodeHash(h, subtree(a, a + k), subtree(a + k, b));
  };

  // RFC 9162 §2.1.3.1: PATH(m, D[a:b]) = PATH(m, D[a:a+k]) : MTH(D[a+k:b]) for m < k, else PATH(m-k, D[a+k:b]) : MTH(D[a:a+k])
  const path = (m: number, a: number, b: number): Uint8Array[] => {
    const n = b - a;
    if (n <= 1) return [];
    const k = _split(n);
    return m < k ? [...path(m, a, a + k), subtree(a + k, b)] : [...path(m - k, a + k, b), subtree(a, a + k)];
  };

  // RFC 9162 §2.1.4.1: SUBPROOF(m, D[a:b], first)
  const subproof = (m: number, a: number, b: number, first: boolean): Uint8Array[] => {
    const n = b - a;
    if (m === n) return first ? [] : [subtree(a, b)];
    const k = _split(n);
    return m <= k ? [...subproof(m, a, a + k, first), subtree(a + k, b)] : [...subproof(m - k, a + k, b, false), subtree(a, a + k)];
  };

  const tree: MerkleTree = {
    hash: h,
    get size() {
      return levels[0]!.length;
    },
    append(data) {
      const leaf = merkleLeafHash(h, data);
      const index = levels[0]!.length;
      levels[0]!.push(leaf);
      // complete every subtree this leaf closes
      let node = leaf;
      for (let k = 0, i = index; i % 2 === 1; k++, i = (i - 1) / 2) {
        node = merkleNodeHash(h, levels[k]![i - 1]!, node);
        (levels[k + 1] ??= []).push(node);
      }
      return index;
    },
    leafHash(index) {
      const n = levels[0]!.length;
      if (!Number.isSafeInteger(index) || index < 0 || index >= n) throw new JcpError('ERR_BAD_ARGUMENT', `no leaf ${String(index)} in a tree of ${n}`);
      return levels[0]![index]!;
    },
    root(size) {
      return subtree(0, sizeArg(size, 'tree size'));
    },
    inclusionProof(index, size) {
      const s = sizeArg(size, 'tree size');
      if (!Number.isSafeInteger(index) || index < 0 || index >= s) throw new JcpError('ERR_BAD_ARGUMENT', `leaf index must be in 0 … ${s - 1}, got ${String(index)}`);
      return path(index, 0, s);
    },
    consistencyProof(size1, size2) {
      const s2 = sizeArg(size2, 'size2');
      const s1 = sizeArg(size1, 'size1');
      if (s1 === 0 || s1 > s2) throw new JcpError('ERR_BAD_ARGUMENT', `a consistency proof needs 0 < size1 ≤ size2, got ${s1} and ${s2}`);
      return subproof(s1, 0, s2, true);
    },
  };
  return Object.freeze(tree);
}

/** The root of a tree over `leaves` (each leaf's data), by the RFC 6962 §2.1 definition. */
export function merkleRoot(h: MerkleHash, leaves: readonly Uint8Array[]): Uint8Array {
  const t = createMerkleTree(h);
  for (const l of leaves) t.append(l);
  return t.root();
}

// ---------------------------------------------------------------------------------------------------------------
// Verification (RFC 9162 §2.1.3.2 and §2.1.4.2). Sizes and indexes are bigint: a head's size is a u64.

const U64_MAX = (1n << 64n) - 1n;

function _u64(v: bigint, what: string): bigint {
  if (typeof v !== 'bigint' || v < 0n || v > U64_MAX) throw new JcpError('ERR_BAD_ARGUMENT', `${what} must be a bigint in 0 … 2^64−1`);
  return v;
}

function _proofList(proof: readonly Uint8Array[], code: 'ERR_TLOG_INCLUSION_INVALID' | 'ERR_TLOG_CONSISTENCY_INVALID'): readonly Uint8Array[] {
  if (!Array.isArray(proof)) throw new JcpError('ERR_BAD_ARGUMENT', 'a proof must be an array of hashes');
  proof.forEach((p, i) => {
    if (!(p instanceof Uint8Array)) throw new JcpError('ERR_BAD_ARGUMENT', `proof[${i}] must be a Uint8Array`);
    if (p.length !== MERKLE_HASH_BYTES) throw new JcpError(code, `proof[${i}] is ${p.length} bytes, not a ${MERKLE_HASH_BYTES}-byte hash`);
  });
  return proof;
}

/**
 * RFC 9162 §2.1.3.2: the root that an inclusion proof of `leafHash` at `index` in a tree of `size` closes to.
 * Throws ERR_TLOG_INCLUSION_INVALID when the index is not below the size, the leaf hash is not 32 bytes, or the proof
 * has the wrong number of hashes for that index and size.
 */
export function merkleRootFromInclusion(h: MerkleHash, index: bigint, size: bigint, leafHash: Uint8Array, proof: readonly Uint8Array[]): Uint8Array {
  _u64(index, 'leaf index');
  _u64(size, 'tree size');
  _proofList(proof, 'ERR_TLOG_INCLUSION_INVALID');
  const fail = (why: string): never => {
    throw new JcpError('ERR_TLOG_INCLUSION_INVALID', `inclusion proof of leaf ${index} in a tree of ${size}: ${why}`);
  };
  // step 1: "If leaf_index is greater than or equal to tree_size, then stop and fail the proof verification."
  if (index >= size) fail('the index is not below the tree size');
  if (!(leafHash instanceof Uint8Array) || leafHash.length !== MERKLE_HASH_BYTES) fail(`the leaf hash is not ${MERKLE_HASH_BYTES} bytes`);
  let fn = index;
  let sn = size - 1n;
  let r = leafHash;
  for (const p of proof) {
    // step 4a: "If sn is 0, then stop the iteration and fail the proof verification."
    if (sn === 0n) fail('the proof has more hashes than the path');
    if ((fn & 1n) === 1n || fn === sn) {
      r = merkleNodeHash(h, p, r);
      if ((fn & 1n) === 0n) {
        while ((fn & 1n) === 0n && fn !== 0n) {
          fn >>= 1n;
          sn >>= 1n;
        }
      }
    } else {
      r = merkleNodeHash(h, r, p);
    }
    fn >>= 1n;
    sn >>= 1n;
  }
  // step 5: "Compare sn to 0."
  if (sn !== 0n) fail('the proof has fewer hashes than the path');
  return r;
}

/**
 * RFC 9162 §2.1.3.2: verifies that `leafHash` is the leaf at `index` of the tree of `size` whose root is `root`.
 * Throws ERR_TLOG_INCLUSION_INVALID, saying why, when it is not.
 */
export function merkleVerifyInclusion(h: MerkleHash, index: bigint, size: bigint, leafHash: Uint8Array, proof: readonly Uint8Array[], root: Uint8Array): void {
  const r = merkleRootFromInclusion(h, index, size, leafHash, proof);
  // step 5: "Compare r against the root_hash. If they are equal, then the log has proven the inclusion of hash."
  if (!(root instanceof Uint8Array) || !bytesEqual(r, root)) {
    throw new JcpError('ERR_TLOG_INCLUSION_INVALID', `inclusion proof of leaf ${index} in a tree of ${size} closes to a different root`);
  }
}

/**
 * RFC 9162 §2.1.4.2: verifies that the tree of `size2` with root `root2` extends the tree of `size1` with root `root1`.
 * Throws ERR_TLOG_CONSISTENCY_INVALID, saying why, when it does not (size1 = 0 and size1 > size2 included).
 */
export function merkleVerifyConsistency(h: MerkleHash, size1: bigint, size2: bigint, proof: readonly Uint8Array[], root1: Uint8Array, root2: Uint8Array): void {
  _u64(size1, 'size1');
  _u64(size2, 'size2');
  const fail = (why: string): never => {
    throw new JcpError('ERR_TLOG_CONSISTENCY_INVALID', `consistency proof from ${size1} to ${size2}: ${why}`);
  };
  if (!(root1 instanceof Uint8Array) || !(root2 instanceof Uint8Array)) throw new JcpError('ERR_BAD_ARGUMENT', 'roots must be Uint8Arrays');
  if (!Array.isArray(proof)) throw new JcpError('ERR_BAD_ARGUMENT', 'a proof must be an array of hashes');
  if (size1 > size2) fail('size1 is greater than size2');
  // the RFC defines proofs for 0 < first; "consistent with the empty tree" proves nothing and is refused
  if (size1 === 0n) fail('a consistency proof from the empty tree is meaningless');
  if (size1 === size2) {
    if (proof.length !== 0) fail('equal sizes need an empty proof');
    if (!bytesEqual(root1, root2)) fail('equal sizes with different roots');
    return;
  }
  _proofList(proof, 'ERR_TLOG_CONSISTENCY_INVALID');
  // step 1: "If consistency_path is an empty array, then stop and fail the proof verification."
  if (proof.length === 0) fail('the proof is empty');
  // step 2: "If first is an exact power of 2, then prepend first_hash to the consistency_path array."
  const path = (size1 & (size1 - 1n)) === 0n ? [root1, ...proof] : [...proof];
  // step 3
  let fn = size1 - 1n;
  let sn = size2 - 1n;
  // step 4: "If LSB(fn) is set, then right-shift both fn and sn equally until LSB(fn) is not set."
  while ((fn & 1n) === 1n) {
    fn >>= 1n;
    sn >>= 1n;
  }
  // step 5
  let fr = path[0]!;
  let sr = path[0]!;
  // step 6
  for (const c of path.slice(1)) {
    if (sn === 0n) fail('the proof has more hashes than the paths');
    if ((fn & 1n) === 1n || fn === sn) {
      fr = merkleNodeHash(h, c, fr);
      sr = merkleNodeHash(h, c, sr);
      if ((fn & 1n) === 0n) {
        while ((fn & 1n) === 0n && fn !== 0n) {
          fn >>= 1n;
          sn >>= 1n;
        }
      }
    } else {
      sr = merkleNodeHash(h, sr, c);
    }
    fn >>= 1n;
    sn >>= 1n;
  }
  // step 7: "verify that the fr calculated is equal to the first_hash supplied, that the sr calculated is equal to the
  // second_hash supplied, and that sn is 0."
  if (sn !== 0n) fail('the proof has fewer hashes than the paths');
  if (!bytesEqual(fr, root1)) fail('the proof does not close to the first root');
  if (!bytesEqual(sr, root2)) fail('the proof does not close to the second root');
}
