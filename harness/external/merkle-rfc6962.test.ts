// Replays transparency-dev/merkle's RFC 6962 test data (SHA-256, 0x00 leaf and 0x01 node prefixes) through the SAME
// tree and proof code the JouleClaw log (jouleclaw §22.1) runs over BLAKE3: impl/jouleclaw/tlog-merkle.ts with its hash
// swapped for SHA-256. Every happy-path proof verifies and is the proof the tree itself makes; every corrupted one is
// refused with the proof's own code. Read from vectors/external/merkle/.
//
// These check the reference's code directly (the testee protocol's tlog ops are BLAKE3 only, as §22.1 requires), and
// §22.1 carries no MUST clause in the spec map, so they are plain tests rather than clause tests.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { expect, it } from 'vitest';
import { describeWithShared } from '../external-vectors.ts';
import { createMerkleTree, fromHex, isJcpError, merkleLeafHash, merkleVerifyConsistency, merkleVerifyInclusion, MERKLE_SHA256, toHex } from '../oracle.ts';

interface InclusionCase {
  readonly leafIdx: string;
  readonly treeSize: string;
  readonly root: string;
  readonly leafHash: string;
  readonly proof: readonly string[] | null;
  readonly desc: string;
  readonly wantErr: boolean;
}
interface ConsistencyCase {
  readonly size1: string;
  readonly size2: string;
  readonly root1: string;
  readonly root2: string;
  readonly proof: readonly string[] | null;
  readonly desc: string;
  readonly wantErr: boolean;
}

/**
 * A vector file, its sizes and indexes kept as decimal text: they are u64 (a "leafIdx - 1" case is 2^64 − 1), which a
 * JSON number cannot carry exactly.
 */
function readCase<T>(dir: string, rel: string): T {
  const text = readFileSync(join(dir, rel), 'utf8').replace(/"(leafIdx|treeSize|size1|size2)": (\d+)/g, '"$1": "$2"');
  return JSON.parse(text) as T;
}

const b64 = (s: string): Uint8Array => new Uint8Array(Buffer.from(s, 'base64'));

/** Every .json file under `dir`, as paths relative to `root`, sorted. */
function jsonFiles(root: string, dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) out.push(...jsonFiles(root, p));
    else if (name.endsWith('.json')) out.push(relative(root, p));
  }
  return out.sort();
}

/** The code `fn` throws, or 'accepted'. */
function codeOf(fn: () => void): string {
  try {
    fn();
    return 'accepted';
  } catch (e) {
    return isJcpError(e) ? e.code : `not a JcpError: ${String(e)}`;
  }
}

/** The classic CT test tree of the data (README: merkle/): 8 leaves, root 5dc9da79…4328. */
const CT_LEAVES = ['', '00', '10', '2021', '3031', '40414243', '5051525354555657', '606162636465666768696a6b6c6d6e6f'].map((h) => fromHex(h));
const CT_ROOT8 = '5dc9da79a70659a9ad559cb701ded9a2ab9d823aad2f4960cfe370eff4604328';

describeWithShared('vectors', 'RFC 6962 Merkle proofs (transparency-dev/merkle test data, SHA-256)', (dir) => {
  const tree = createMerkleTree(MERKLE_SHA256);
  for (const l of CT_LEAVES) tree.append(l);

  it('the CT test tree of 8 leaves has the published root, and the empty tree the hash of the empty string', () => {
    expect(toHex(tree.root())).toBe(CT_ROOT8);
    expect(toHex(tree.root(0))).toBe('e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855');
  });

  it('inclusion: every happy path verifies and is the proof the tree makes; every corrupted proof is refused', () => {
    const files = jsonFiles(dir, join(dir, 'merkle', 'inclusion'));
    const ran = { valid: 0, refused: 0, made: 0 };
    const wrong: string[] = [];
    for (const f of files) {
      const c = readCase<InclusionCase>(dir, f);
      const proof = (c.proof ?? []).map(b64);
      const got = codeOf(() => merkleVerifyInclusion(MERKLE_SHA256, BigInt(c.leafIdx), BigInt(c.treeSize), b64(c.leafHash), proof, b64(c.root)));
      const want = c.wantErr ? 'ERR_TLOG_INCLUSION_INVALID' : 'accepted';
      if (got !== want) wrong.push(`${f} (${c.desc}): ${got}, expected ${want}`);
      if (c.wantErr) ran.refused++;
      else ran.valid++;
      // a happy path over the CT tree: the proof, root and leaf hash are the ones this tree makes
      if (!c.wantErr && Number(c.treeSize) <= CT_LEAVES.length && f.includes('happy-path')) {
        expect(toHex(merkleLeafHash(MERKLE_SHA256, CT_LEAVES[Number(c.leafIdx)]!)), f).toBe(toHex(b64(c.leafHash)));
        expect(toHex(tree.root(Number(c.treeSize))), f).toBe(toHex(b64(c.root)));
        expect(tree.inclusionProof(Number(c.leafIdx), Number(c.treeSize)).map(toHex), f).toEqual(proof.map(toHex));
        ran.made++;
      }
    }
    expect(wrong).toEqual([]);
    // the README's count: 98 files; a group that silently vanished would show here
    expect(files.length).toBe(98);
    expect(ran.valid).toBeGreaterThan(0);
    expect(ran.refused).toBeGreaterThan(ran.valid);
    expect(ran.made).toBeGreaterThanOrEqual(5);
    console.info(`merkle inclusion: ${ran.valid} verified, ${ran.refused} refused, ${ran.made} proofs remade byte-exact`);
  });

  it('consistency: every happy path verifies and is the proof the tree makes; every corrupted proof is refused', () => {
    const files = jsonFiles(dir, join(dir, 'merkle', 'consistency'));
    const ran = { valid: 0, refused: 0, made: 0 };
    const wrong: string[] = [];
    for (const f of files) {
      const c = readCase<ConsistencyCase>(dir, f);
      const proof = (c.proof ?? []).map(b64);
      const got = codeOf(() => merkleVerifyConsistency(MERKLE_SHA256, BigInt(c.size1), BigInt(c.size2), proof, b64(c.root1), b64(c.root2)));
      const want = c.wantErr ? 'ERR_TLOG_CONSISTENCY_INVALID' : 'accepted';
      if (got !== want) wrong.push(`${f} (${c.desc}): ${got}, expected ${want}`);
      if (c.wantErr) ran.refused++;
      else ran.valid++;
      if (!c.wantErr && Number(c.size2) <= CT_LEAVES.length && Number(c.size1) > 0 && f.includes('happy-path')) {
        expect(toHex(tree.root(Number(c.size1))), f).toBe(toHex(b64(c.root1)));
        expect(toHex(tree.root(Number(c.size2))), f).toBe(toHex(b64(c.root2)));
        expect(tree.consistencyProof(Number(c.size1), Number(c.size2)).map(toHex), f).toEqual(proof.map(toHex));
        ran.made++;
      }
    }
    expect(wrong).toEqual([]);
    expect(files.length).toBe(98);
    expect(ran.valid).toBeGreaterThan(0);
    expect(ran.refused).toBeGreaterThan(ran.valid);
    expect(ran.made).toBeGreaterThanOrEqual(5);
    console.info(`merkle consistency: ${ran.valid} verified, ${ran.refused} refused, ${ran.made} proofs remade byte-exact`);
  });
});
