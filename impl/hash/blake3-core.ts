// BLAKE3 (the BLAKE3 specification, 2020, §2): the compression function, the chunk chain and the binary tree, for a
// 32-byte output in the three modes (hash, keyed_hash, derive_key). Written for the hot path of content ids and
// request keys: no allocation per block, the state in locals, the message schedule of each round precomputed.
// Checked against the BLAKE3 team's test_vectors.json (harness/self/blake3-vectors.test.ts) and against
// @noble/hashes over random inputs (impl/hash/blake3.test.ts).

/** The IV (§2.2: the first 32 bits of the fractional parts of the square roots of the first 8 primes). */
export const IV: readonly number[] = Object.freeze([0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19]);

/** Domain flags (§2.1, Table 3). */
export const CHUNK_START = 1;
export const CHUNK_END = 2;
export const PARENT = 4;
export const ROOT = 8;
export const KEYED_HASH = 16;
export const DERIVE_KEY_CONTEXT = 32;
export const DERIVE_KEY_MATERIAL = 64;

const CHUNK_LEN = 1024;
const BLOCK_LEN = 64;
/** §2.2 Table 2: the message word permutation applied between rounds. */
const PERMUTATION = [2, 6, 3, 10, 7, 0, 4, 13, 1, 11, 12, 5, 9, 14, 15, 8];

/** Which message word each of the 16 slots of each of the 7 rounds reads: the permutation applied r times. */
const SCHEDULE: Uint8Array = (() => {
  const s = new Uint8Array(7 * 16);
  let order = Array.from({ length: 16 }, (_, i) => i);
  for (let r = 0; r < 7; r++) {
    s.set(order, r * 16);
    order = PERMUTATION.map((p) => order[p]!);
  }
  return s;
})();

/** Scratch: the 16 message words of the block being compressed. */
const M = new Uint32Array(16);

/** True where a Uint32Array reads words little-endian, as BLAKE3 does (§2.1). */
const LITTLE_ENDIAN = new Uint8Array(new Uint32Array([1]).buffer)[0] === 1;

/**
 * Loads the 64-byte block at `at` of `bytes` (zero past `end`) into M, little-endian; `words`, where given, is the
 * input seen as 32-bit words (its offset 4-aligned, the platform little-endian), read without assembling bytes.
 */
function loadBlock(bytes: Uint8Array, words: Uint32Array | undefined, at: number, end: number): void {
  if (at + BLOCK_LEN <= end) {
    if (words !== undefined) {
      for (let i = 0, w = at >> 2; i < 16; i++, w++) M[i] = words[w]!;
      return;
    }
    for (let i = 0; i < 16; i++, at += 4) M[i] = bytes[at]! | (bytes[at + 1]! << 8) | (bytes[at + 2]! << 16) | (bytes[at + 3]! << 24);
    return;
  }
  M.fill(0);
  for (let i = 0; at < end; i++, at++) M[i >> 2] = M[i >> 2]! | (bytes[at]! << ((i & 3) * 8));
}

/**
 * The compression function (§2.2) over M: updates `cv` (8 words) in place to the first 8 words of the output, the
 * chaining value. The upper 8 output words (only an extended output reads them) are not computed.
 */
function compress(cv: Uint32Array, counter: number, blockLen: number, flags: number): void {
  let v0 = cv[0]!, v1 = cv[1]!, v2 = cv[2]!, v3 = cv[3]!, v4 = cv[4]!, v5 = cv[5]!, v6 = cv[6]!, v7 = cv[7]!;
  let v8 = 0x6a09e667, v9 = 0xbb67ae85, v10 = 0x3c6ef372, v11 = 0xa54ff53a;
  // the 64-bit counter, low word then high word (a counter here is below 2^53: a chunk index)
  let v12 = counter >>> 0;
  let v13 = Math.floor(counter / 0x1_0000_0000) >>> 0;
  let v14 = blockLen;
  let v15 = flags;
  const s = SCHEDULE;
  const m = M;
  for (let r = 0; r < 112; r += 16) {
    // the column step: G(0,4,8,12), G(1,5,9,13), G(2,6,10,14), G(3,7,11,15)
    v0 = (v0 + v4 + m[s[r]!]!) | 0; v12 ^= v0; v12 = (v12 >>> 16) | (v12 << 16);
    v8 = (v8 + v12) | 0; v4 ^= v8; v4 = (v4 >>> 12) | (v4 << 20);
    v0 = (v0 + v4 + m[s[r + 1]!]!) | 0; v12 ^= v0; v12 = (v12 >>> 8) | (v12 << 24);
    v8 = (v8 + v12) | 0; v4 ^= v8; v4 = (v4 >>> 7) | (v4 << 25);
    v1 = (v1 + v5 + m[s[r + 2]!]!) | 0; v13 ^= v1; v13 = (v13 >>> 16) | (v13 << 16);
    v9 = (v9 + v13) | 0; v5 ^= v9; v5 = (v5 >>> 12) | (v5 << 20);
    v1 = (v1 + v5 + m[s[r + 3]!]!) | 0; v13 ^= v1; v13 = (v13 >>> 8) | (v13 << 24);
    v9 = (v9 + v13) | 0; v5 ^= v9; v5 = (v5 >>> 7) | (v5 << 25);
    v2 = (v2 + v6 + m[s[r + 4]!]!) | 0; v14 ^= v2; v14 = (v14 >>> 16) | (v14 << 16);
    v10 = (v10 + v14) | 0; v6 ^= v10; v6 = (v6 >>> 12) | (v6 << 20);
    v2 = (v2 + v6 + m[s[r + 5]!]!) | 0; v14 ^= v2; v14 = (v14 >>> 8) | (v14 << 24);
    v10 = (v10 + v14) | 0; v6 ^= v10; v6 = (v6 >>> 7) | (v6 << 25);
    v3 = (v3 + v7 + m[s[r + 6]!]!) | 0; v15 ^= v3; v15 = (v15 >>> 16) | (v15 << 16);
    v11 = (v11 + v15) | 0; v7 ^= v11; v7 = (v7 >>> 12) | (v7 << 20);
    v3 = (v3 + v7 + m[s[r + 7]!]!) | 0; v15 ^= v3; v15 = (v15 >>> 8) | (v15 << 24);
    v11 = (v11 + v15) | 0; v7 ^= v11; v7 = (v7 >>> 7) | (v7 << 25);
    // the diagonal step: G(0,5,10,15), G(1,6,11,12), G(2,7,8,13), G(3,4,9,14)
    v0 = (v0 + v5 + m[s[r + 8]!]!) | 0; v15 ^= v0; v15 = (v15 >>> 16) | (v15 << 16);
    v10 = (v10 + v15) | 0; v5 ^= v10; v5 = (v5 >>> 12) | (v5 << 20);
    v0 = (v0 + v5 + m[s[r + 9]!]!) | 0; v15 ^= v0; v15 = (v15 >>> 8) | (v15 << 24);
    v10 = (v10 + v15) | 0; v5 ^= v10; v5 = (v5 >>> 7) | (v5 << 25);
    v1 = (v1 + v6 + m[s[r + 10]!]!) | 0; v12 ^= v1; v12 = (v12 >>> 16) | (v12 << 16);
    v11 = (v11 + v12) | 0; v6 ^= v11; v6 = (v6 >>> 12) | (v6 << 20);
    v1 = (v1 + v6 + m[s[r + 11]!]!) | 0; v12 ^= v1; v12 = (v12 >>> 8) | (v12 << 24);
    v11 = (v11 + v12) | 0; v6 ^= v11; v6 = (v6 >>> 7) | (v6 << 25);
    v2 = (v2 + v7 + m[s[r + 12]!]!) | 0; v13 ^= v2; v13 = (v13 >>> 16) | (v13 << 16);
    v8 = (v8 + v13) | 0; v7 ^= v8; v7 = (v7 >>> 12) | (v7 << 20);
    v2 = (v2 + v7 + m[s[r + 13]!]!) | 0; v13 ^= v2; v13 = (v13 >>> 8) | (v13 << 24);
    v8 = (v8 + v13) | 0; v7 ^= v8; v7 = (v7 >>> 7) | (v7 << 25);
    v3 = (v3 + v4 + m[s[r + 14]!]!) | 0; v14 ^= v3; v14 = (v14 >>> 16) | (v14 << 16);
    v9 = (v9 + v14) | 0; v4 ^= v9; v4 = (v4 >>> 12) | (v4 << 20);
    v3 = (v3 + v4 + m[s[r + 15]!]!) | 0; v14 ^= v3; v14 = (v14 >>> 8) | (v14 << 24);
    v9 = (v9 + v14) | 0; v4 ^= v9; v4 = (v4 >>> 7) | (v4 << 25);
  }
  cv[0] = v0 ^ v8;
  cv[1] = v1 ^ v9;
  cv[2] = v2 ^ v10;
  cv[3] = v3 ^ v11;
  cv[4] = v4 ^ v12;
  cv[5] = v5 ^ v13;
  cv[6] = v6 ^ v14;
  cv[7] = v7 ^ v15;
}

/**
 * The chaining value of one chunk (§2.3), `bytes[at, end)` with `end − at` at most 1024, chunk index `counter`,
 * written into `cv`; `root` sets ROOT on its last block (the input is this one chunk). `key` is the key words.
 */
function chunkCv(cv: Uint32Array, key: ArrayLike<number>, bytes: Uint8Array, words: Uint32Array | undefined, at: number, end: number, counter: number, flags: number, root: boolean): void {
  for (let i = 0; i < 8; i++) cv[i] = key[i]!;
  let block = 0;
  // a chunk has at least one block, even when empty (the empty input is one empty block)
  do {
    const len = Math.min(BLOCK_LEN, end - at);
    const last = at + len >= end;
    loadBlock(bytes, words, at, end);
    const f = flags | (block === 0 ? CHUNK_START : 0) | (last ? CHUNK_END | (root ? ROOT : 0) : 0);
    compress(cv, counter, len, f);
    at += len;
    block++;
  } while (at < end);
}

/** The parent node's chaining value (§2.5) of two child values, as the root when `root`; written into `out`. */
function parentCv(out: Uint32Array, key: ArrayLike<number>, left: Uint32Array, right: Uint32Array, flags: number, root: boolean): void {
  for (let i = 0; i < 8; i++) {
    M[i] = left[i]!;
    M[i + 8] = right[i]!;
  }
  for (let i = 0; i < 8; i++) out[i] = key[i]!;
  compress(out, 0, BLOCK_LEN, flags | PARENT | (root ? ROOT : 0));
}

function toBytes(words: Uint32Array): Uint8Array {
  const out = new Uint8Array(32);
  for (let i = 0, o = 0; i < 8; i++, o += 4) {
    const w = words[i]!;
    out[o] = w;
    out[o + 1] = w >>> 8;
    out[o + 2] = w >>> 16;
    out[o + 3] = w >>> 24;
  }
  return out;
}

/**
 * The 32-byte BLAKE3 output of `bytes` under the 8 key words `key` and the mode's flags (0 for hash, KEYED_HASH,
 * DERIVE_KEY_CONTEXT or DERIVE_KEY_MATERIAL), following §2.4–§2.6: chunks of 1024 bytes, the last (or only) chunk
 * possibly short; the tree as a stack of subtree values merged by the count of chunks so far (§5.1.2).
 */
export function blake3Words(bytes: Uint8Array, key: ArrayLike<number>, flags: number): Uint8Array {
  const n = bytes.length;
  const cv = new Uint32Array(8);
  const words = LITTLE_ENDIAN && (bytes.byteOffset & 3) === 0 && n >= BLOCK_LEN ? new Uint32Array(bytes.buffer, bytes.byteOffset, n >> 2) : undefined;
  if (n <= CHUNK_LEN) {
    chunkCv(cv, key, bytes, words, 0, n, 0, flags, true);
    return toBytes(cv);
  }
  // every chunk but the last is complete; the last holds 1..1024 bytes
  const chunks = Math.ceil(n / CHUNK_LEN);
  const stack: Uint32Array[] = [];
  for (let c = 0; c < chunks - 1; c++) {
    let node = new Uint32Array(8);
    chunkCv(node, key, bytes, words, c * CHUNK_LEN, (c + 1) * CHUNK_LEN, c, flags, false);
    // merge completed subtrees: one merge per trailing zero bit of the count of chunks done
    for (let done = c + 1; (done & 1) === 0; done >>= 1) {
      const merged = new Uint32Array(8);
      parentCv(merged, key, stack.pop()!, node, flags, false);
      node = merged;
    }
    stack.push(node);
  }
  chunkCv(cv, key, bytes, words, (chunks - 1) * CHUNK_LEN, n, chunks - 1, flags, false);
  // fold the stack right to left; the last parent is the root
  while (stack.length > 0) {
    const left = stack.pop()!;
    parentCv(cv, key, left, cv.slice(), flags, stack.length === 0);
  }
  return toBytes(cv);
}
