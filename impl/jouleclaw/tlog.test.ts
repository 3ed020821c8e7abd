// Unit tests of the JouleClaw transparency log (jouleclaw §22): the tree against the RFC's recursive definitions for
// every size and every proof of small trees, the signed head's wire form and the order of its refusals, the log's
// append (sealed entries only, bounded), and decideAndLog's append before the verdict. The RFC's own SHA-256 test
// data is replayed in harness/external/merkle-rfc6962.test.ts; the black-box rules in harness/conformance/tlog.test.ts.
import { describe, expect, it } from 'vitest';
import { allowedDecision, codeOf, lazy, lazyKey } from '../_test-support.ts';
import { encodeCanonical } from '../cbor/index.ts';
import { signSign1 } from '../cose/sign1.ts';
import { defaultEd25519, deriveSeed, keyPairFromSeed } from '../identity/ed25519.ts';
import { contentId } from '../jcp/content-id.ts';
import { createEnforcementPoint } from '../jcp/enforcement-point.ts';
import { grantId, mintGrant } from '../jcp/grant.ts';
import { stewardKid } from '../receipt/seal.ts';
import { toHex } from '../bytes.ts';
import { encodeTreeHead, isEquivocation, parseTreeHead, signTreeHead, treeHeadSigningBytes, verifyTreeHead } from './tlog-head.ts';
import {
  createMerkleTree,
  merkleEmptyRoot,
  merkleLeafHash,
  merkleNodeHash,
  merkleRootFromInclusion,
  merkleVerifyConsistency,
  merkleVerifyInclusion,
  MERKLE_BLAKE3,
  MERKLE_SHA256,
} from './tlog-merkle.ts';
import { createTransparencyLog, decideAndLog, verifyLogConsistency, verifyLogInclusion } from './tlog.ts';

const steward = lazyKey('steward');
const mallory = lazyKey('mallory');
const H = MERKLE_BLAKE3;
const leaves = Array.from({ length: 33 }, (_, i) => Uint8Array.of(i, i * 7));

/** RFC 6962 §2.1 MTH by its recursive definition. */
function mth(d: readonly Uint8Array[]): Uint8Array {
  if (d.length === 0) return merkleEmptyRoot(H);
  if (d.length === 1) return merkleLeafHash(H, d[0]!);
  let k = 1;
  while (k * 2 < d.length) k *= 2;
  return merkleNodeHash(H, mth(d.slice(0, k)), mth(d.slice(k)));
}

const sealed = (payload: Uint8Array, key = steward) => signSign1(payload, stewardKid(key.did), key.seed, defaultEd25519());

describe('tlog-merkle: the RFC 6962 tree', () => {
  const tree = lazy(() => {
    const t = createMerkleTree(H);
    for (const l of leaves) t.append(l);
    return t;
  });

  it('has the recursive definition\'s root at every size, and each leaf is BLAKE3(0x00 ‖ data)', () => {
    for (let n = 0; n <= leaves.length; n++) expect(toHex(tree.root(n)), `size ${n}`).toBe(toHex(mth(leaves.slice(0, n))));
    expect(toHex(tree.leafHash(3))).toBe(toHex(H.hash(Uint8Array.of(0, 3, 21))));
    expect(toHex(merkleNodeHash(H, tree.leafHash(0), tree.leafHash(1)))).toBe(toHex(tree.root(2)));
    expect(toHex(merkleEmptyRoot(MERKLE_SHA256))).toBe('e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855');
  });

  it('makes inclusion proofs that verify for every index of every size up to 33, and close to nothing else', () => {
    for (let n = 1; n <= leaves.length; n++) {
      const root = tree.root(n);
      for (let i = 0; i < n; i++) {
        const p = tree.inclusionProof(i, n);
        expect(toHex(merkleRootFromInclusion(H, BigInt(i), BigInt(n), tree.leafHash(i), p))).toBe(toHex(root));
        if (n > 1) expect(codeOf(() => merkleVerifyInclusion(H, BigInt((i + 1) % n), BigInt(n), tree.leafHash(i), p, root))).toBe('ERR_TLOG_INCLUSION_INVALID');
      }
    }
  });

  it('makes consistency proofs that verify for every pair of sizes up to 33, and refuse a wrong first root', () => {
    for (let n = 1; n <= leaves.length; n++) {
      for (let m = 1; m <= n; m++) {
        const p = tree.consistencyProof(m, n);
        merkleVerifyConsistency(H, BigInt(m), BigInt(n), p, tree.root(m), tree.root(n));
        if (m < n) expect(codeOf(() => merkleVerifyConsistency(H, BigInt(m), BigInt(n), p, tree.root(m - 1 || 1).map((b) => b ^ 1), tree.root(n)))).toBe('ERR_TLOG_CONSISTENCY_INVALID');
      }
    }
  });

  it('refuses proofs it cannot make and junk it is given, with typed errors', () => {
    expect(codeOf(() => tree.consistencyProof(0, 3))).toBe('ERR_BAD_ARGUMENT');
    expect(codeOf(() => tree.consistencyProof(4, 3))).toBe('ERR_BAD_ARGUMENT');
    expect(codeOf(() => tree.inclusionProof(3, 3))).toBe('ERR_BAD_ARGUMENT');
    expect(codeOf(() => tree.root(99))).toBe('ERR_BAD_ARGUMENT');
    expect(codeOf(() => tree.root(1.5))).toBe('ERR_BAD_ARGUMENT');
    expect(codeOf(() => merkleVerifyInclusion(H, -1n, 3n, tree.leafHash(0), [], tree.root(3)))).toBe('ERR_BAD_ARGUMENT');
    expect(codeOf(() => merkleVerifyInclusion(H, 0n, 1n << 64n, tree.leafHash(0), [], tree.root(3)))).toBe('ERR_BAD_ARGUMENT');
    expect(codeOf(() => merkleVerifyInclusion(H, 0n, 2n, tree.leafHash(0), [new Uint8Array(31)], tree.root(2)))).toBe('ERR_TLOG_INCLUSION_INVALID');
    expect(codeOf(() => merkleVerifyInclusion(H, 0n, 2n, tree.leafHash(0), 'x' as never, tree.root(2)))).toBe('ERR_BAD_ARGUMENT');
    expect(codeOf(() => merkleVerifyConsistency(H, 0n, 0n, [], tree.root(0), tree.root(0)))).toBe('ERR_TLOG_CONSISTENCY_INVALID');
    expect(codeOf(() => merkleLeafHash(H, 'x' as never))).toBe('ERR_BAD_ARGUMENT');
  });
});

describe('tlog-head: the signed tree head', () => {
  const head = lazy(() => signTreeHead({ size: 5n, root: mth(leaves.slice(0, 5)), timestamp: 1_700_000_000n }, steward));
  const bytes = () => encodeTreeHead(head);

  it('signs exactly 0x02 ‖ size (8, BE) ‖ root ‖ timestamp (8, BE), and verifies under the sealer', () => {
    const pre = treeHeadSigningBytes(head);
    expect(pre.length).toBe(49);
    expect(toHex(pre)).toBe(`02${'0000000000000005'}${toHex(head.root)}${(1_700_000_000).toString(16).padStart(16, '0')}`);
    expect(defaultEd25519().verify(head.signature, pre, steward.publicKey)).toBe(true);
    expect(verifyTreeHead(bytes(), steward.did)).toEqual(head);
    expect(parseTreeHead(bytes()).steward).toBe(steward.did);
  });

  it('refuses in the documented order: malformed, root, unsigned, wrong key, bad signature', () => {
    const m = (over: Record<string, unknown>, drop: string[] = []) => {
      const o: Record<string, unknown> = { root: toHex(head.root), size: head.size, timestamp: head.timestamp, steward: head.steward, signature: head.signature, ...over };
      for (const k of drop) delete o[k];
      return encodeCanonical(o as never);
    };
    expect(codeOf(() => verifyTreeHead(Uint8Array.of(0xff), steward.did))).toBe('ERR_TLOG_HEAD_MALFORMED');
    expect(codeOf(() => verifyTreeHead(encodeCanonical([1, 2]), steward.did))).toBe('ERR_TLOG_HEAD_MALFORMED');
    expect(codeOf(() => verifyTreeHead(m({ extra: 1 }), steward.did))).toBe('ERR_TLOG_HEAD_MALFORMED');
    expect(codeOf(() => verifyTreeHead(m({ size: 'five' }), steward.did))).toBe('ERR_TLOG_HEAD_MALFORMED');
    expect(codeOf(() => verifyTreeHead(m({ size: -1n }), steward.did))).toBe('ERR_TLOG_HEAD_MALFORMED');
    expect(codeOf(() => verifyTreeHead(m({ signature: new Uint8Array(63) }), steward.did))).toBe('ERR_TLOG_HEAD_MALFORMED');
    expect(codeOf(() => verifyTreeHead(m({ steward: 'did:key:nope' }), steward.did))).toBe('ERR_TLOG_HEAD_MALFORMED');
    expect(codeOf(() => verifyTreeHead(m({}, ['steward']), steward.did))).toBe('ERR_TLOG_HEAD_MALFORMED');
    // the suite's hex is lowercase (bytes.ts); a root in upper case is refused like any other non-canonical root
    expect(codeOf(() => verifyTreeHead(m({ root: toHex(head.root).toUpperCase() }), steward.did))).toBe('ERR_TLOG_ROOT_MALFORMED');
    expect(codeOf(() => verifyTreeHead(m({ root: '' }, ['signature']), steward.did))).toBe('ERR_TLOG_ROOT_MALFORMED'); // root before signature
    expect(codeOf(() => verifyTreeHead(m({}, ['signature']), steward.did))).toBe('ERR_TLOG_HEAD_UNSIGNED');
    expect(codeOf(() => verifyTreeHead(m({ signature: new Uint8Array(0) }), steward.did))).toBe('ERR_TLOG_HEAD_UNSIGNED');
    expect(codeOf(() => verifyTreeHead(m({}, ['signature']), mallory.did))).toBe('ERR_TLOG_HEAD_UNSIGNED'); // unsigned before key
    expect(codeOf(() => verifyTreeHead(bytes(), mallory.did))).toBe('ERR_TLOG_HEAD_WRONG_KEY');
    expect(codeOf(() => verifyTreeHead(m({ timestamp: 1n }), steward.did))).toBe('ERR_TLOG_HEAD_SIGNATURE_INVALID');
    expect(codeOf(() => verifyTreeHead(bytes(), 'not a did'))).toBe('ERR_DID_MALFORMED');
    expect(codeOf(() => verifyTreeHead('x' as never, steward.did))).toBe('ERR_TLOG_HEAD_MALFORMED');
  });

  it('refuses to sign a head whose fields do not fit their widths', () => {
    expect(codeOf(() => signTreeHead({ size: -1n, root: head.root, timestamp: 0n }, steward))).toBe('ERR_BAD_ARGUMENT');
    expect(codeOf(() => signTreeHead({ size: 0n, root: head.root, timestamp: 1n << 64n }, steward))).toBe('ERR_BAD_ARGUMENT');
    expect(codeOf(() => signTreeHead({ size: 0n, root: new Uint8Array(31), timestamp: 0n }, steward))).toBe('ERR_TLOG_ROOT_MALFORMED');
    expect(codeOf(() => treeHeadSigningBytes(null as never))).toBe('ERR_BAD_ARGUMENT');
  });

  it('tells equivocation: two heads of one key at one size with different roots', () => {
    const other = signTreeHead({ size: 5n, root: mth(leaves.slice(1, 6)), timestamp: 1n }, steward);
    expect(isEquivocation(head, other)).toBe(true);
    expect(isEquivocation(head, signTreeHead({ ...head, timestamp: 2n }, steward))).toBe(false);
    expect(isEquivocation(head, signTreeHead({ ...other }, mallory))).toBe(false);
  });
});

describe('tlog: the log and the append on the verdict\'s path', () => {
  it('appends sealed receipts, answering each with a head and a proof that verify; consistency between its heads', () => {
    const log = createTransparencyLog({ sealer: steward });
    const entries = Array.from({ length: 6 }, (_, i) => sealed(Uint8Array.of(i)));
    const got = entries.map((e, i) => log.append(e, BigInt(i)));
    got.forEach((g, i) => {
      expect(g.index).toBe(i);
      expect(g.head.size).toBe(BigInt(i + 1));
      expect(verifyLogInclusion(g.headBytes, steward.did, entries[i]!, BigInt(i), g.proof).size).toBe(BigInt(i + 1));
    });
    const final = encodeTreeHead(log.head(10n));
    verifyLogConsistency(got[1]!.headBytes, final, steward.did, log.consistencyProof(2));
    expect(codeOf(() => verifyLogConsistency(got[1]!.headBytes, final, steward.did, log.consistencyProof(3)))).toBe('ERR_TLOG_CONSISTENCY_INVALID');
    expect(toHex(log.entry(4))).toBe(toHex(entries[4]!));
    expect(codeOf(() => log.entry(6))).toBe('ERR_BAD_ARGUMENT');
  });

  it('refuses an entry not sealed by its key, and one past its capacity, leaving itself unchanged', () => {
    const log = createTransparencyLog({ sealer: steward, capacity: 1 });
    expect(codeOf(() => log.append(sealed(Uint8Array.of(1), mallory), 1n))).toBe('ERR_TLOG_ENTRY_FOREIGN');
    expect(codeOf(() => log.append(Uint8Array.of(1, 2, 3), 1n))).toBe('ERR_TLOG_ENTRY_FOREIGN');
    expect(log.size).toBe(0);
    log.append(sealed(Uint8Array.of(1)), 1n);
    expect(codeOf(() => log.append(sealed(Uint8Array.of(2)), 2n))).toBe('ERR_TLOG_UNRECORDED');
    expect(log.size).toBe(1);
    expect(codeOf(() => createTransparencyLog({ sealer: steward, capacity: -1 }))).toBe('ERR_BAD_ARGUMENT');
    expect(codeOf(() => createTransparencyLog({ sealer: null as never }))).toBe('ERR_BAD_ARGUMENT');
    expect(codeOf(() => log.head(-1n))).toBe('ERR_BAD_ARGUMENT');
  });

  it('decideAndLog records allow and deny alike before answering; refuses unrecorded what it cannot record, debiting nothing', () => {
    const alice = keyPairFromSeed(deriveSeed('alice'));
    const bob = keyPairFromSeed(deriveSeed('bob'));
    const resource = contentId({ resource: 'tool:search' });
    const sg = mintGrant(alice, { subject: bob.did, resource, actions: ['call'], budget_uj: 1000n, nonce: new Uint8Array(16).fill(9) });
    const frame = (action: string) => ({ kind: 'tool-call', trust: 'control', grant_id: grantId(sg.grant), action, resource, payload_hash: contentId({ payload: 'args' }) }) as const;
    const req = (action: string, now_s: bigint) => ({ frame: frame(action), chain: [sg], caller: bob.did, cost: { uj: 42n, provenance: 'HwShunt' as const }, now_s });
    const point = createEnforcementPoint({ steward });
    const log = createTransparencyLog({ sealer: steward, capacity: 2 });
    const a = decideAndLog(point, log, req('call', 1n));
    const d = decideAndLog(point, log, req('write', 2n));
    expect([a.verdict, d.verdict]).toEqual(['allow', 'deny']);
    if (!a.recorded || !d.recorded) throw new Error('both must be recorded');
    expect(verifyLogInclusion(d.entry.headBytes, steward.did, d.receipt, 1n, d.entry.proof).size).toBe(2n);
    expect(decideAndLog(point, log, req('call', 3n))).toMatchObject({ recorded: false, verdict: 'deny', deny_reason: 'unrecorded' });
    expect(point.spent(grantId(sg.grant))).toBe(42n);
    const foreign = createTransparencyLog({ sealer: mallory });
    expect(decideAndLog(point, foreign, req('call', 4n))).toMatchObject({ recorded: false, deny_reason: 'unrecorded' });
    expect(foreign.size).toBe(0);
    expect(point.spent(grantId(sg.grant))).toBe(42n);
  });

  it('takes a jcp receipt sealed by its steward as an entry', () => {
    const dec = allowedDecision();
    const log = createTransparencyLog({ sealer: steward });
    const e = log.append(dec.receipt, 1n);
    expect(verifyLogInclusion(e.headBytes, steward.did, dec.receipt, 0n, e.proof).root).toEqual(merkleLeafHash(H, dec.receipt));
  });
});
