// Unit tests of the JouleClaw transparency log (jouleclaw §22): the tree against the RFC's recursive definitions for
// every size and every proof of small trees, the signed head's wire form and the order of its refusals, the log's
// append (sealed entries only, bounded), and decideAndLog's append before the verdict. The RFC's own SHA-256 test
// data is replayed in harness/external/merkle-rfc6962.test.ts; the black-box rules in harness/conformance/tlog.test.ts.
import { describe, expect, it } from 'vitest';
import { allowedDecision, codeOf, lazy, lazyKey, thrown, TOOL_RESOURCE } from '../_test-support.ts';
import { encodeCanonical } from '../cbor/index.ts';
import { decodeSign1, signSign1 } from '../cose/sign1.ts';
import type { JcpError } from '../errors.ts';
import { defaultEd25519 } from '../identity/ed25519.ts';
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
const alice = lazyKey('alice');
const bob = lazyKey('bob');
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

/** alice's grant to bob of `call` on the tool, 1000 µJ (deterministic: the same grant at every call). */
function aliceGrant() {
  return mintGrant(alice, { subject: bob.did, resource: TOOL_RESOURCE, actions: ['call'], budget_uj: 1000n, nonce: new Uint8Array(16).fill(9) });
}

/** bob's request for `action` on the tool under {@link aliceGrant}, costing 42 µJ, at `now_s`. */
function grantRequest(action: string, now_s: bigint) {
  const sg = aliceGrant();
  const frame = { kind: 'tool-call', trust: 'control', grant_id: grantId(sg.grant), action, resource: sg.grant.capability.resource, payload_hash: contentId({ payload: 'args' }) } as const;
  return { frame, chain: [sg], caller: sg.grant.subject, cost: { uj: 42n, provenance: 'HwShunt' as const }, now_s };
}

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
    const [h1, h2] = verifyLogConsistency(got[1]!.headBytes, final, steward.did, log.consistencyProof(2));
    expect([h1.size, h2.size, h2.timestamp]).toEqual([2n, 6n, 10n]);
    expect(codeOf(() => verifyLogConsistency(got[1]!.headBytes, final, steward.did, log.consistencyProof(3)))).toBe('ERR_TLOG_CONSISTENCY_INVALID');
    expect(toHex(log.entry(4))).toBe(toHex(entries[4]!));
    expect(codeOf(() => log.entry(6))).toBe('ERR_BAD_ARGUMENT');
    expect(thrown(() => log.entry(6)).message).toMatch(/no entry 6 in a log of 6/);
  });

  it('keeps its own copy of each entry: the bytes given or handed out can change, the log does not', () => {
    const log = createTransparencyLog({ sealer: steward });
    const r = sealed(Uint8Array.of(7));
    const before = toHex(r);
    log.append(r, 1n);
    r.fill(0);
    log.entry(0).fill(0);
    expect(toHex(log.entry(0))).toBe(before);
  });

  it('refuses a head timestamp outside 0 … 2^64−1 before the entry goes in', () => {
    const log = createTransparencyLog({ sealer: steward });
    for (const t of [-1n, 1n << 64n, 5 as unknown as bigint]) {
      const e = thrown(() => log.append(sealed(Uint8Array.of(1)), t));
      expect(e.code).toBe('ERR_BAD_ARGUMENT');
      expect(e.message).toMatch(/: a head timestamp must be a bigint in 0 … 2\^64−1/);
      expect(log.size, String(t)).toBe(0);
      expect(thrown(() => log.head(t)).message).toMatch(/: a head timestamp must be a bigint/);
    }
    expect(log.append(sealed(Uint8Array.of(1)), (1n << 64n) - 1n).head.timestamp).toBe((1n << 64n) - 1n);
  });

  it('refuses a missing sealer key pair, or a capacity that is not a non-negative integer', () => {
    for (const sealer of [undefined, null, 'steward', { seed: 'x' }]) {
      const e = thrown(() => createTransparencyLog({ sealer: sealer as never }));
      expect(e.code).toBe('ERR_BAD_ARGUMENT');
      expect(e.message).toMatch(/needs the sealer key pair/);
    }
    for (const capacity of [-1, 1.5, Number.NaN]) {
      const e = thrown(() => createTransparencyLog({ sealer: steward, capacity }));
      expect(e.code).toBe('ERR_BAD_ARGUMENT');
      expect(e.message).toMatch(new RegExp(`log capacity must be a non-negative integer, got ${String(capacity)}`));
    }
  });

  it('takes capacity 0: a log that records nothing and says it is full', () => {
    const log = createTransparencyLog({ sealer: steward, capacity: 0 });
    expect(log.canRecord()).toBe(false);
    const e = thrown(() => log.append(sealed(Uint8Array.of(1)), 1n));
    expect(e.code).toBe('ERR_TLOG_UNRECORDED');
    expect(e.message).toMatch(/the log is full \(0 entries\)/);
  });

  it('says why an entry is foreign: not COSE_Sign1 (the decoder\'s code as cause), or another key\'s', () => {
    const log = createTransparencyLog({ sealer: steward });
    const junk = Uint8Array.of(1, 2, 3);
    const cause = thrown(() => decodeSign1(junk));
    const e = thrown(() => log.append(junk, 1n));
    expect([e.code, e.detail, (e.cause as JcpError).code]).toEqual(['ERR_TLOG_ENTRY_FOREIGN', { cause_code: cause.code }, cause.code]);
    expect(e.message).toMatch(`a log entry must be a receipt sealed as COSE_Sign1 (${cause.code})`);
    const f = thrown(() => log.append(sealed(Uint8Array.of(1), mallory), 1n));
    expect(f.code).toBe('ERR_TLOG_ENTRY_FOREIGN');
    expect(f.message).toMatch(`the receipt is not sealed by this log's key ${steward.did}`);
  });

  it('lets a failure that is not a refusal (a crashing backend) through as itself', () => {
    const crashing = { ...defaultEd25519(), verify: (): boolean => { throw new RangeError('backend down'); } };
    const log = createTransparencyLog({ sealer: steward, backend: crashing });
    expect(() => log.append(sealed(Uint8Array.of(1)), 1n)).toThrow(RangeError);
    expect(() => decideAndLog(createEnforcementPoint({ steward }), log, grantRequest('call', 1n))).toThrow(RangeError);
    expect(log.size).toBe(0);
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
    const sg = aliceGrant();
    const point = createEnforcementPoint({ steward });
    const log = createTransparencyLog({ sealer: steward, capacity: 2 });
    const a = decideAndLog(point, log, grantRequest('call', 1n));
    const d = decideAndLog(point, log, grantRequest('write', 2n));
    expect([a.verdict, d.verdict]).toEqual(['allow', 'deny']);
    if (!a.recorded || !d.recorded) throw new Error('both must be recorded');
    expect(verifyLogInclusion(d.entry.headBytes, steward.did, d.receipt, 1n, d.entry.proof).size).toBe(2n);
    expect(decideAndLog(point, log, grantRequest('call', 3n))).toMatchObject({ recorded: false, verdict: 'deny', deny_reason: 'unrecorded' });
    expect(point.spent(grantId(sg.grant))).toBe(42n);
    const foreign = createTransparencyLog({ sealer: mallory });
    expect(decideAndLog(point, foreign, grantRequest('call', 4n))).toMatchObject({ recorded: false, deny_reason: 'unrecorded' });
    expect(foreign.size).toBe(0);
    expect(point.spent(grantId(sg.grant))).toBe(42n);
  });

  it('decideAndLog says why it refused unrecorded: the log is full, or signs with another key', () => {
    const point = createEnforcementPoint({ steward });
    const full = createTransparencyLog({ sealer: steward, capacity: 0 });
    expect(decideAndLog(point, full, grantRequest('call', 1n))).toMatchObject({ recorded: false, why: expect.stringMatching(/the log is full \(0 entries\)/) });
    const foreign = createTransparencyLog({ sealer: mallory });
    const why = `the log signs with ${mallory.did}, not with the point's steward ${steward.did}`;
    expect(decideAndLog(point, foreign, grantRequest('call', 1n))).toMatchObject({ recorded: false, why: expect.stringContaining(why) });
  });

  it('decideAndLog throws ERR_TLOG_UNRECORDED when the append fails after the decision (§22.3)', () => {
    // the point decides at now_s = 2^64, but no head can be signed at that timestamp: the entry cannot go in
    const log = createTransparencyLog({ sealer: steward });
    const e = thrown(() => decideAndLog(createEnforcementPoint({ steward }), log, grantRequest('call', 1n << 64n)));
    expect([e.code, e.detail, (e.cause as JcpError).code]).toEqual(['ERR_TLOG_UNRECORDED', { cause_code: 'ERR_BAD_ARGUMENT' }, 'ERR_BAD_ARGUMENT']);
    expect(e.message).toMatch(/the allow decision could not be recorded \(ERR_BAD_ARGUMENT\)/);
    expect(log.size).toBe(0);
  });

  it('takes a jcp receipt sealed by its steward as an entry', () => {
    const dec = allowedDecision();
    const log = createTransparencyLog({ sealer: steward });
    const e = log.append(dec.receipt, 1n);
    expect(verifyLogInclusion(e.headBytes, steward.did, dec.receipt, 0n, e.proof).root).toEqual(merkleLeafHash(H, dec.receipt));
  });
});
