// The named cases of the JouleClaw and Sense packs: jouleclaw_tlog.json (§22 tree heads,
// inclusion and consistency proofs over the RFC 6962 test leaves hashed with BLAKE3, a log of decisions, refused
// heads and proofs), jouleclaw_policy.json (§10.1 policy_digest, §10 policy/1 receipts), jouleclaw_receipts.json (§2
// cascade receipts, §7 versioning, §16 contracts, verdicts and verdict receipts, §17 command_hash and the journal) and
// sense.json (sense §2 event ids, §3 replay digests, §5 the attention gate, §8 surfacing chains and their first break).
// Inputs are built from fixed seeds, clocks and ids; where the spec fixes the bytes, the expected value is recomputed
// here independently of impl/ (@noble/hashes BLAKE3 over the layout the spec writes) and stated in the case's intent,
// so the generator refuses to publish a reference that disagrees.
import { blake3 as nobleBlake3 } from '@noble/hashes/blake3.js';
import { fromHex, toHex } from '../impl/bytes.ts';
import { decodeCanonical, encodeCanonical, type CborValue } from '../impl/cbor/index.ts';
import { signSign1 } from '../impl/cose/sign1.ts';
import { defaultEd25519, deriveSeed, keyPairFromSeed, type KeyPair } from '../impl/identity/ed25519.ts';
import { contentId } from '../impl/jcp/content-id.ts';
import { signedGrantToCbor } from '../impl/jcp/codec.ts';
import { grantId, mintGrant } from '../impl/jcp/grant.ts';
import { encodeTreeHead, signTreeHead, type TreeHead } from '../impl/jouleclaw/tlog-head.ts';
import { createMerkleTree, MERKLE_BLAKE3 } from '../impl/jouleclaw/tlog-merkle.ts';
import { sealJcCore } from '../impl/jouleclaw/receipt-envelope.ts';
import { stewardKid } from '../impl/receipt/seal.ts';
import type { Case, Intent } from './cases.ts';
import { createReferenceAdapter } from '../harness/adapter/reference.ts';
import type { Json, JsonObject } from './model.ts';

const utf8 = new TextEncoder();
const key = (label: string): KeyPair => keyPairFromSeed(deriveSeed(`jcp-vectors/v1:${label}`));
const nonce = (label: string): Uint8Array => nobleBlake3(utf8.encode(`jcp-vectors/v1 nonce:${label}`)).slice(0, 16);
const H = (b: Uint8Array): string => toHex(nobleBlake3(b));
const cat = (...bs: Uint8Array[]): Uint8Array => {
  const out = new Uint8Array(bs.reduce((n, b) => n + b.length, 0));
  let at = 0;
  for (const b of bs) (out.set(b, at), (at += b.length));
  return out;
};

const alice = key('alice');
const bob = key('bob');
const mallory = key('mallory');
const steward = key('steward');
const ok = (outputs: Record<string, Json>, absent?: string[]): Intent => ({ outputs, ...(absent ? { absent } : {}) });
const err = (error: string): Intent => ({ error });
/** Each top-level field of `o` as an output at `at.<field>` (key order is not part of a JSON value). */
const fieldsAt = (at: string, o: Record<string, unknown>): Record<string, Json> => Object.fromEntries(Object.entries(o).map(([k, v]) => [`${at}.${k}`, v as Json]));

// ---- jouleclaw §22: the tree, written from RFC 9162 §2.1 with BLAKE3 (independent of impl/jouleclaw/tlog-merkle.ts) --

/** RFC 6962 §2.1.3 / Certificate Transparency's test leaves. */
const CT_LEAVES = ['', '00', '10', '2021', '3031', '40414243', '5051525354555657', '606162636465666768696a6b6c6d6e6f'].map((h) => fromHex(h));
const leafHash = (d: Uint8Array): Uint8Array => nobleBlake3(cat(Uint8Array.of(0), d));
const nodeHash = (l: Uint8Array, r: Uint8Array): Uint8Array => nobleBlake3(cat(Uint8Array.of(1), l, r));
/** The largest power of two smaller than n (RFC 9162 §2.1.1). */
const split = (n: number): number => {
  let k = 1;
  while (k * 2 < n) k *= 2;
  return k;
};
/** MTH(D[n]) of RFC 9162 §2.1.1 with BLAKE3. */
function mth(d: readonly Uint8Array[]): Uint8Array {
  if (d.length === 0) return nobleBlake3(new Uint8Array(0));
  if (d.length === 1) return leafHash(d[0]!);
  const k = split(d.length);
  return nodeHash(mth(d.slice(0, k)), mth(d.slice(k)));
}
/** RFC 9162 §2.1.3.2: the root an inclusion proof closes to, or undefined when the proof has the wrong shape. */
function rootFromInclusion(index: number, size: number, leaf: Uint8Array, proof: readonly Uint8Array[]): Uint8Array | undefined {
  if (index >= size) return undefined;
  let fn = index;
  let sn = size - 1;
  let r = leaf;
  for (const p of proof) {
    if (sn === 0) return undefined;
    if (fn % 2 === 1 || fn === sn) {
      r = nodeHash(p, r);
      if (fn % 2 === 0) while (fn % 2 === 0 && fn !== 0) ((fn >>= 1), (sn >>= 1));
    } else r = nodeHash(r, p);
    fn >>= 1;
    sn >>= 1;
  }
  return sn === 0 ? r : undefined;
}
/** RFC 9162 §2.1.4.2: does `proof` take the tree of size m (root1) to the tree of size n (root2)? */
function consistencyHolds(m: number, n: number, proof: readonly Uint8Array[], root1: Uint8Array, root2: Uint8Array): boolean {
  if (m === n) return proof.length === 0 && toHex(root1) === toHex(root2);
  if (m === 0 || m > n || proof.length === 0) return false;
  const path = (m & (m - 1)) === 0 ? [root1, ...proof] : [...proof];
  let fn = m - 1;
  let sn = n - 1;
  while (fn % 2 === 1) ((fn >>= 1), (sn >>= 1));
  let fr = path[0]!;
  let sr = path[0]!;
  for (const c of path.slice(1)) {
    if (sn === 0) return false;
    if (fn % 2 === 1 || fn === sn) {
      fr = nodeHash(c, fr);
      sr = nodeHash(c, sr);
      if (fn % 2 === 0) while (fn % 2 === 0 && fn !== 0) ((fn >>= 1), (sn >>= 1));
    } else sr = nodeHash(sr, c);
    fn >>= 1;
    sn >>= 1;
  }
  return toHex(fr) === toHex(root1) && toHex(sr) === toHex(root2) && sn === 0;
}
/** The roots hand-traced by the helper who built the log (vectors8-notes.md): checked before anything is published. */
const EMPTY_ROOT = 'af1349b9f5f9a1a6a0404dea36dcc9499bcb25c9adc112b7cc9a93cae41f3262';
const CT8_ROOT = 'eed80dc82a14685b1a6607764e4c253418c4279033e89c0c6ddd7fd1717bede7';
const TS = 1_700_000_000n;

/** A head signed by `k` over the CT tree of `size`; its wire form (impl/jouleclaw/tlog-head.ts). */
const ctHead = (size: number, k: KeyPair = steward): Uint8Array => encodeTreeHead(signTreeHead({ size: BigInt(size), root: fromHex(toHex(mth(CT_LEAVES.slice(0, size)))), timestamp: TS }, k));
/** A head map laid out field by field (for heads the producer never writes). */
const rawHead = (m: Record<string, unknown>): Uint8Array => encodeCanonical(m as never);
/** §22.2 the signed bytes 0x02 ‖ size ‖ root ‖ timestamp, written here from the spec. */
function signingBytes(h: TreeHead): Uint8Array {
  const b = new Uint8Array(49);
  const v = new DataView(b.buffer);
  b[0] = 2;
  v.setBigUint64(1, h.size);
  b.set(h.root, 9);
  v.setBigUint64(41, h.timestamp);
  return b;
}

function tlogCases(): Case[] {
  if (toHex(mth([])) !== EMPTY_ROOT || toHex(mth(CT_LEAVES)) !== CT8_ROOT) throw new Error('jc-cases: the independent BLAKE3 tree disagrees with the hand-traced roots');
  const tree = createMerkleTree(MERKLE_BLAKE3);
  for (const l of CT_LEAVES) tree.append(l);
  const HEAD_CLAUSES = ['jouleclaw/22.2#head-signed-across-boundary', 'jouleclaw/22.2#signature-covers-three-fields', 'jouleclaw/22.2#head-key-is-receipt-sealer'];
  const PROOF_CLAUSES = ['jouleclaw/22#may-publish-log', 'jouleclaw/22.2#unsigned-root-not-used'];
  const out: Case[] = [];
  const T = (name: string, comment: string, flags: string[], clauses: string[], head: Uint8Array, intent: Intent, who = steward.did): Case => ({ pack: 'jouleclaw_tlog', name, type: 'TreeHeadVerify', comment, flags, clauses, inputs: { head: toHex(head), steward: who }, intent });
  for (let n = 0; n <= 8; n++) {
    out.push(T(`head-ct-${n}`, `the head signed over the BLAKE3 tree of the first ${n} CT leaves at timestamp ${TS}`, ['Canonical'], HEAD_CLAUSES, ctHead(n), ok({ size: n, root: toHex(mth(CT_LEAVES.slice(0, n))), timestamp: Number(TS) })));
  }
  // the signed bytes of the 8-leaf head as the notes trace them: the signature verifies over exactly these
  const sb = signingBytes({ size: 8n, root: fromHex(CT8_ROOT), timestamp: TS });
  if (toHex(sb) !== `020000000000000008${CT8_ROOT}000000006553f100`) throw new Error('jc-cases: the §22.2 signed bytes disagree with the notes');
  const ct8 = decodeCanonical(ctHead(8)) as Map<string, CborValue>;
  if (!defaultEd25519().verify(ct8.get('signature') as Uint8Array, sb, steward.publicKey)) throw new Error('jc-cases: the 8-leaf head is not signed over 0x02 ‖ size ‖ root ‖ timestamp');
  // inclusion of every leaf in every tree, and consistency of every pair of trees
  for (let n = 1; n <= 8; n++) {
    for (let i = 0; i < n; i++) {
      const proof = tree.inclusionProof(i, n);
      const r = rootFromInclusion(i, n, leafHash(CT_LEAVES[i]!), proof);
      if (!r || toHex(r) !== toHex(mth(CT_LEAVES.slice(0, n)))) throw new Error(`jc-cases: inclusion proof (${i}, ${n}) does not close to MTH by RFC 9162 §2.1.3.2`);
      out.push({ pack: 'jouleclaw_tlog', name: `inclusion-ct-${i}-of-${n}`, type: 'LogInclusion', comment: `CT leaf ${i} is entry ${i} of the signed ${n}-leaf head`, flags: [], clauses: PROOF_CLAUSES, inputs: { head: toHex(ctHead(n)), steward: steward.did, receipt: toHex(CT_LEAVES[i]!), index: i, proof: proof.map(toHex) }, intent: ok({ verdict: 'valid' }) });
    }
  }
  for (let n = 1; n <= 8; n++) {
    for (let m = 1; m <= n; m++) {
      const proof = tree.consistencyProof(m, n);
      if (!consistencyHolds(m, n, proof, mth(CT_LEAVES.slice(0, m)), mth(CT_LEAVES.slice(0, n)))) throw new Error(`jc-cases: consistency proof (${m}, ${n}) fails RFC 9162 §2.1.4.2`);
      out.push({ pack: 'jouleclaw_tlog', name: `consistency-ct-${m}-to-${n}`, type: 'LogConsistency', comment: `the signed ${m}-leaf head grew into the signed ${n}-leaf head`, flags: [], clauses: PROOF_CLAUSES, inputs: { head1: toHex(ctHead(m)), head2: toHex(ctHead(n)), steward: steward.did, proof: proof.map(toHex) }, intent: ok({ verdict: 'valid' }) });
    }
  }
  // refused proofs
  const p36 = tree.inclusionProof(3, 6);
  const flipped = p36.map((h, j) => (j === 0 ? Uint8Array.from(h, (b, x) => (x === 0 ? b ^ 1 : b)) : h));
  const unsigned6 = rawHead({ root: toHex(mth(CT_LEAVES.slice(0, 6))), size: 6n, timestamp: TS });
  const I = (name: string, comment: string, flags: string[], clauses: string[], head: Uint8Array, index: number, proof: Uint8Array[], intent: Intent, leaf = CT_LEAVES[index]!): Case => ({ pack: 'jouleclaw_tlog', name, type: 'LogInclusion', comment, flags, clauses, inputs: { head: toHex(head), steward: steward.did, receipt: toHex(leaf), index, proof: proof.map(toHex) }, intent });
  out.push(
    I('inclusion-wrong-index', 'leaf 3 with its proof, claimed as entry 2', ['ModifiedProof', 'SuiteErrorCode'], PROOF_CLAUSES, ctHead(6), 2, p36, err('ERR_TLOG_INCLUSION_INVALID'), CT_LEAVES[3]!),
    I('inclusion-wrong-leaf', 'leaf 4 under the proof of leaf 3', ['ModifiedProof', 'SuiteErrorCode'], PROOF_CLAUSES, ctHead(6), 3, p36, err('ERR_TLOG_INCLUSION_INVALID'), CT_LEAVES[4]!),
    I('inclusion-flipped-proof', 'one bit of the proof flipped', ['ModifiedProof', 'SuiteErrorCode'], PROOF_CLAUSES, ctHead(6), 3, flipped, err('ERR_TLOG_INCLUSION_INVALID')),
    I('inclusion-short-proof', 'the proof missing its last hash', ['ModifiedProof', 'SuiteErrorCode'], PROOF_CLAUSES, ctHead(6), 3, p36.slice(0, -1), err('ERR_TLOG_INCLUSION_INVALID')),
    I('inclusion-unsigned-head', 'a correct proof against an unsigned head of the right root: an unsigned root never verifies a proof', ['UnsignedHead', 'SuiteErrorCode'], ['jouleclaw/22.2#unsigned-root-not-used'], unsigned6, 3, p36, err('ERR_TLOG_HEAD_UNSIGNED')),
    I('inclusion-foreign-head', "a correct proof against mallory's head of the right root", ['WrongKey', 'SuiteErrorCode'], ['jouleclaw/22.2#head-key-is-receipt-sealer', 'jouleclaw/22.2#unsigned-root-not-used'], ctHead(6, mallory), 3, p36, err('ERR_TLOG_HEAD_WRONG_KEY')),
  );
  const C = (name: string, comment: string, flags: string[], clauses: string[], h1: Uint8Array, h2: Uint8Array, proof: Uint8Array[], intent: Intent): Case => ({ pack: 'jouleclaw_tlog', name, type: 'LogConsistency', comment, flags, clauses, inputs: { head1: toHex(h1), head2: toHex(h2), steward: steward.did, proof: proof.map(toHex) }, intent });
  const c37 = tree.consistencyProof(3, 7);
  out.push(
    C('consistency-reversed', 'the 7-leaf head first, the 3-leaf head second: a log never shrinks', ['ModifiedProof', 'SuiteErrorCode'], PROOF_CLAUSES, ctHead(7), ctHead(3), c37, err('ERR_TLOG_CONSISTENCY_INVALID')),
    C('consistency-flipped-proof', 'one bit of the 3→7 proof flipped', ['ModifiedProof', 'SuiteErrorCode'], PROOF_CLAUSES, ctHead(3), ctHead(7), c37.map((h, j) => (j === 1 ? Uint8Array.from(h, (b, x) => (x === 31 ? b ^ 0x80 : b)) : h)), err('ERR_TLOG_CONSISTENCY_INVALID')),
    C('consistency-wrong-sizes', 'the 3→7 proof offered for 4→7', ['ModifiedProof', 'SuiteErrorCode'], PROOF_CLAUSES, ctHead(4), ctHead(7), c37, err('ERR_TLOG_CONSISTENCY_INVALID')),
    C('consistency-unsigned-head', 'the 3→7 proof from an unsigned 3-leaf head', ['UnsignedHead', 'SuiteErrorCode'], ['jouleclaw/22.2#unsigned-root-not-used'], rawHead({ root: toHex(mth(CT_LEAVES.slice(0, 3))), size: 3n, timestamp: TS }), ctHead(7), c37, err('ERR_TLOG_HEAD_UNSIGNED')),
    C('consistency-foreign-head', "the 3→7 proof to mallory's 7-leaf head", ['WrongKey', 'SuiteErrorCode'], ['jouleclaw/22.2#head-key-is-receipt-sealer'], ctHead(3), ctHead(7, mallory), c37, err('ERR_TLOG_HEAD_WRONG_KEY')),
  );
  // refused heads (vectors8-notes.md item 4)
  const good = decodeCanonical(ctHead(8)) as Map<string, CborValue>;
  const field = (k: string, v: unknown): Uint8Array => {
    const m = new Map(good);
    if (v === undefined) m.delete(k);
    else m.set(k, v as CborValue);
    return encodeCanonical(m);
  };
  const MALFORMED_ROOT = ['jouleclaw/22.2#reject-malformed-root'];
  const rootCases: Array<[string, string, unknown]> = [
    ['head-root-absent', 'no root', undefined],
    ['head-root-empty', 'root ""', ''],
    ['head-root-31-bytes', 'root of 31 bytes of hex', CT8_ROOT.slice(0, 62)],
    ['head-root-33-bytes', 'root of 33 bytes of hex', `${CT8_ROOT}00`],
    ['head-root-odd-length', 'root of 63 hex digits', CT8_ROOT.slice(0, 63)],
    ['head-root-non-hex', 'root with a "g"', `g${CT8_ROOT.slice(1)}`],
    ['head-root-raw-bytes', 'root as 32 raw bytes, not hex text', fromHex(CT8_ROOT)],
    ['head-root-number', 'root as a number', 8],
  ];
  for (const [name, what, v] of rootCases) out.push(T(name, `a signed head whose ${what}: refused, never read as absent or empty`, ['MalformedRoot', 'SuiteErrorCode'], MALFORMED_ROOT, field('root', v), err('ERR_TLOG_ROOT_MALFORMED')));
  const resigned = (over: Partial<TreeHead>): Uint8Array => {
    // the head's fields changed after signing: the old signature kept
    const h = { size: 8n, root: fromHex(CT8_ROOT), timestamp: TS, ...over };
    return rawHead({ root: toHex(h.root), size: h.size, timestamp: h.timestamp, steward: steward.did, signature: good.get('signature') });
  };
  out.push(
    T('head-signature-missing', 'a head with no signature', ['UnsignedHead', 'SuiteErrorCode'], ['jouleclaw/22.2#unsigned-root-not-used', 'jouleclaw/22.2#head-signed-across-boundary'], field('signature', undefined), err('ERR_TLOG_HEAD_UNSIGNED')),
    T('head-signature-empty', 'a head whose signature is empty', ['UnsignedHead', 'SuiteErrorCode'], ['jouleclaw/22.2#unsigned-root-not-used', 'jouleclaw/22.2#head-signed-across-boundary'], field('signature', new Uint8Array(0)), err('ERR_TLOG_HEAD_UNSIGNED')),
    T('head-unsigned-bare', 'a bare {root, size, timestamp}', ['UnsignedHead', 'SuiteErrorCode'], ['jouleclaw/22.2#unsigned-root-not-used'], rawHead({ root: CT8_ROOT, size: 8n, timestamp: TS }), err('ERR_TLOG_HEAD_UNSIGNED')),
    T('head-wrong-key', "mallory's head of the same tree, checked against the steward", ['WrongKey', 'SuiteErrorCode'], ['jouleclaw/22.2#head-key-is-receipt-sealer'], ctHead(8, mallory), err('ERR_TLOG_HEAD_WRONG_KEY')),
    T('head-size-changed', 'size 7 under the signature over size 8', ['ModifiedSignature', 'SuiteErrorCode'], ['jouleclaw/22.2#signature-covers-three-fields'], resigned({ size: 7n }), err('ERR_TLOG_HEAD_SIGNATURE_INVALID')),
    T('head-root-changed', 'the 7-leaf root under the signature over the 8-leaf root', ['ModifiedSignature', 'SuiteErrorCode'], ['jouleclaw/22.2#signature-covers-three-fields'], resigned({ root: mth(CT_LEAVES.slice(0, 7)) }), err('ERR_TLOG_HEAD_SIGNATURE_INVALID')),
    T('head-timestamp-changed', 'timestamp + 1 under the signature', ['ModifiedSignature', 'SuiteErrorCode'], ['jouleclaw/22.2#signature-covers-three-fields'], resigned({ timestamp: TS + 1n }), err('ERR_TLOG_HEAD_SIGNATURE_INVALID')),
    T('head-signature-other-bytes', 'a signature by the steward over the bytes without the 0x02 prefix', ['ModifiedSignature', 'SuiteErrorCode'], ['jouleclaw/22.2#signature-covers-three-fields'], field('signature', defaultEd25519().sign(steward.seed, sb.slice(1))), err('ERR_TLOG_HEAD_SIGNATURE_INVALID')),
  );
  // a log of decisions (§22.3): alice's root grant to bob, call allowed and write denied, each appended before it is answered
  const TOOL = contentId({ resource: 'tool:search' });
  const sg = mintGrant(alice, { subject: bob.did, resource: TOOL, actions: ['call'], budget_uj: 1000n, expiry: 0n, nonce: nonce('tlog') });
  const chain = [toHex(encodeCanonical(signedGrantToCbor(sg)))];
  const pattern = ['allow', 'deny', 'allow', 'deny', 'deny', 'allow', 'allow'] as const;
  const steps: Json[] = pattern.map((v, i) => ({
    frame: { kind: 'tool-call', trust: 'control', grant_id: grantId(sg.grant), action: v === 'allow' ? 'call' : 'write', resource: TOOL, payload_hash: contentId({ payload: 'args' }) },
    chain,
    caller: bob.did,
    cost: { uj: 42, provenance: 'HwShunt' },
    now_s: 100 + i,
  }));
  const verdicts: Record<string, Json> = Object.fromEntries(pattern.flatMap((v, i) => [[`entries.${i}.verdict`, v], [`entries.${i}.index`, i], ...(v === 'deny' ? [[`entries.${i}.deny_reason`, 'action-not-granted'] as [string, Json]] : [])]));
  out.push({
    pack: 'jouleclaw_tlog',
    name: 'log-decisions-7',
    type: 'LogDecisions',
    comment: 'seven decisions (allow, deny, allow, deny, deny, allow, allow) through a log sealed by the steward: each entry index, head and proof; the head at 1000; every inclusion and consistency proof against it',
    flags: ['Canonical', 'DenyLogged'],
    clauses: ['jouleclaw/22.3#append-on-decision-path', 'jouleclaw/22.2#head-key-is-receipt-sealer', 'jouleclaw/22#may-publish-log'],
    inputs: { steward_seed: toHex(steward.seed), steps, head_now_s: 1000 },
    intent: ok({ ...verdicts, 'head_fields.size': 7, 'head_fields.timestamp': 1000 }),
  });
  return out;
}

/** Cross-checks a LogDecisions observation against the tree written here (generator hook). */
export function crossCheckLog(c: Case, observed: JsonObject): void {
  if (c.type !== 'LogDecisions') return;
  const entries = observed['entries'] as JsonObject[];
  const leaves = entries.map((e) => fromHex(e['receipt'] as string));
  const root = toHex(mth(leaves));
  if ((observed['head_fields'] as JsonObject)['root'] !== root) throw new Error(`case ${c.name}: the head's root is not MTH over the receipts (RFC 9162 with BLAKE3)`);
  (observed['inclusion'] as string[][]).forEach((p, i) => {
    const r = rootFromInclusion(i, leaves.length, leafHash(leaves[i]!), p.map((h) => fromHex(h)));
    if (!r || toHex(r) !== root) throw new Error(`case ${c.name}: inclusion proof ${i} does not close to the head's root`);
  });
  (observed['consistency'] as string[][]).forEach((p, j) => {
    const m = j + 1;
    if (!consistencyHolds(m, leaves.length, p.map((h) => fromHex(h)), mth(leaves.slice(0, m)), fromHex(root))) throw new Error(`case ${c.name}: consistency proof ${m}→${leaves.length} fails`);
  });
  entries.forEach((e, i) => {
    const r = rootFromInclusion(i, i + 1, leafHash(leaves[i]!), (e['proof'] as string[]).map((h) => fromHex(h)));
    if (!r || toHex(r) !== toHex(mth(leaves.slice(0, i + 1)))) throw new Error(`case ${c.name}: entry ${i}'s own proof does not close to its head`);
  });
}

// ---- jouleclaw §10.1 policy_digest, written from the spec (independent of impl/jouleclaw/policy-digest.ts) ---------

type Rule = { name: string; effect: 'allow' | 'deny'; agents: 'any' | string[]; action: Record<string, Json> };
const u64 = (n: number): Uint8Array => {
  const b = new Uint8Array(8);
  new DataView(b.buffer).setBigUint64(0, BigInt(n));
  return b;
};
const u16 = (n: number): Uint8Array => Uint8Array.of(n >> 8, n & 255);
const lp = (s: string): Uint8Array => cat(u64(utf8.encode(s).length), utf8.encode(s));
const lpList = (xs: readonly string[]): Uint8Array => cat(u64(xs.length), ...xs.map(lp));
const cmpBytes = (a: string, b: string): number => {
  const x = utf8.encode(a);
  const y = utf8.encode(b);
  for (let i = 0; i < Math.min(x.length, y.length); i++) if (x[i] !== y[i]) return x[i]! - y[i]!;
  return x.length - y.length;
};
/** §10.1: "jouleclaw.policy/1" ‖ u64 rules, per rule lp(name) ‖ effect ‖ agents ‖ action; agents sorted by UTF-8 bytes. */
function specDigest(rules: readonly Rule[]): string {
  const parts: Uint8Array[] = [utf8.encode('jouleclaw.policy/1'), u64(rules.length)];
  for (const r of rules) {
    parts.push(lp(r.name), utf8.encode(r.effect));
    parts.push(r.agents === 'any' ? utf8.encode('agents:any') : cat(utf8.encode('agents:one_of'), lpList([...r.agents].sort(cmpBytes))));
    const a = r.action;
    if (a['kind'] === 'filesystem') parts.push(utf8.encode('action:filesystem'), lp(a['path_glob'] as string), lpList(a['modes'] as string[]));
    else if (a['kind'] === 'network') parts.push(utf8.encode('action:network'), lp(a['host_glob'] as string), u16(a['from'] as number), u16(a['to'] as number), lpList(a['methods'] as string[]));
    else parts.push(utf8.encode('action:process'), lp(a['binary_glob'] as string));
  }
  return H(cat(...parts));
}
const A_DIGEST = 'd29dcb77323cc3783a3064ecc39af41a1328b1917bf71905f2cfcaa560c97a8e';
const B_DIGEST = '2a7610b128256c39b5a4000d7826446ec841708d474a445294542611a57fbf44';

function policyCases(): Case[] {
  const A: Rule[] = [{ name: 'read-workspace', effect: 'allow', agents: 'any', action: { kind: 'filesystem', path_glob: '/workspace/**', modes: ['read'] } }];
  const ssh = (agents: string[], from = 22, to = 22): Rule => ({ name: 'no-ssh', effect: 'deny', agents, action: { kind: 'network', host_glob: '*.example.com', from, to, methods: ['connect'] } });
  const git: Rule = { name: 'run-git', effect: 'allow', agents: 'any', action: { kind: 'process', binary_glob: '/usr/bin/git' } };
  const B = [ssh(['agent-b', 'agent-a']), git];
  if (specDigest(A) !== A_DIGEST || specDigest(B) !== B_DIGEST) throw new Error('jc-cases: the independent §10.1 digest disagrees with the hand-traced A and B');
  const COMPUTED = 'jouleclaw/10.1#digest-computed-as-specified';
  const BYTES = 'jouleclaw/10.1#byte-match-policy-vectors';
  const D = (name: string, comment: string, flags: string[], clauses: string[], version: number, rules: Rule[]): Case => ({ pack: 'jouleclaw_policy', name, type: 'PolicyDigest', comment, flags: ['Canonical', ...flags], clauses: [COMPUTED, BYTES, ...clauses], inputs: { policy: { version, rules } as unknown as Json }, intent: ok({ digest: specDigest(rules) }) });
  const swapped = [git, B[0]!];
  const reversed = [ssh(['agent-b', 'agent-a'], 23, 22), git];
  const forward = [ssh(['agent-b', 'agent-a'], 22, 23), git];
  if (specDigest(swapped) === B_DIGEST || specDigest(reversed) === specDigest(forward)) throw new Error('jc-cases: the order-sensitivity cases do not differ');
  const cases: Case[] = [
    D('digest-a', 'policy A: one allow rule, any agent, /workspace/** read (hand-traced d29dcb77…)', [], [], 1, A),
    D('digest-b', 'policy B: deny no-ssh for [agent-b, agent-a] on *.example.com 22–22 connect, then allow run-git (hand-traced 2a7610b1…)', [], [], 9, B),
    D('digest-b-agents-sorted', 'policy B with its agents written [agent-a, agent-b]: the same digest as B', ['AgentOrder'], ['jouleclaw/10.1#agent-order-same-digest'], 9, [ssh(['agent-a', 'agent-b']), git]),
    D('digest-b-other-version', 'policy B at version 1: the version is not in the preimage, the digest is B\'s', [], [], 1, B),
    D('digest-b-rules-swapped', 'policy B with its two rules swapped: rule order is kept, so the digest differs from B', ['RuleOrder'], [], 9, swapped),
    D('digest-b-ports-forward', 'policy B with ports 22–23', ['PortRange'], [], 9, forward),
    D('digest-b-ports-reversed', 'policy B with ports 23–22 as written: not normalised, so it hashes differently from 22–23', ['PortRange'], [], 9, reversed),
  ];
  // the digest in force at decision time (§10.1): A decides, v2 is installed, then both decisions are sealed
  const GIT_ONLY = [git];
  const read = { kind: 'filesystem', path: '/workspace/x', mode: 'read' };
  const sealStep = (step: number, bind: 'digest' | 'none', id: string) => ({ seal: { step, id, closed_at: '2026-11-30T06:00:00Z', bind } });
  cases.push({
    pack: 'jouleclaw_policy',
    name: 'evaluate-digest-in-force',
    type: 'PolicyEvaluate',
    comment: 'policy A (v1) allows bob\'s read; v2 (run-git only) is installed; the same read is denied no_matching_allow; a reinstall of v2 is refused; then the three seals: the allow binds A\'s digest and version 1, though v2 is in force when it is sealed; the deny binds v2\'s; bind none omits the digest',
    flags: ['Canonical', 'ReceiptBytes'],
    clauses: ['jouleclaw/10.1#digest-in-force-at-decision', 'jouleclaw/10.1#record-digest-on-audit-event', 'jouleclaw/10.1#refuse-non-increasing-install', 'jouleclaw/10.1#absent-digest-omitted', 'jouleclaw/9#engine-deny-by-default', 'jouleclaw/9#audit-event-per-evaluation'],
    inputs: {
      engine_id: 'engine-A',
      policy: { version: 1, rules: A as unknown as Json },
      steward_seed: toHex(steward.seed),
      steps: [{ evaluate: { agent: bob.did, action: read } }, { install: { version: 2, rules: GIT_ONLY as unknown as Json } }, { evaluate: { agent: bob.did, action: read } }, { install: { version: 2, rules: GIT_ONLY as unknown as Json } }, sealStep(0, 'digest', '5a1e0000-0000-4000-8000-000000000000'), sealStep(2, 'digest', '5a1e0000-0000-4000-8000-000000000002'), sealStep(0, 'none', '5a1e0000-0000-4000-8000-000000000004')],
    },
    intent: ok(
      {
        'results.0.event.decision.kind': 'allow',
        'results.0.event.policy_digest': A_DIGEST,
        'results.1.installed': 2,
        'results.2.event.decision.reason': 'no_matching_allow',
        'results.2.event.policy_digest': specDigest(GIT_ONLY),
        'results.3.refused': 'ERR_POLICY_VERSION_NOT_INCREASING',
        'sealed.0.policy_digest': A_DIGEST,
        'sealed.0.policy_version': 1,
        'sealed.1.policy_digest': specDigest(GIT_ONLY),
        'sealed.1.policy_version': 2,
      },
      ['sealed.2.policy_digest'],
    ),
  });
  // policy/1 receipts (vectors8-notes.md: v1–v4), sealed by the steward, agent = bob
  const base = { closed_at: '2026-11-30T06:00:00Z', engine_id: 'engine-A', policy_version: 2, agent: bob.did };
  const receipts: Array<[string, string, JsonObject, string[]]> = [
    ['receipt-v1-allow', 'allow, filesystem read, audit_sequence 7, no digest', { ...base, id: '0f8fad5b-d9cb-469f-a165-70867728950e', audit_sequence: 7, action: { kind: 'filesystem', path: '/workspace/x', mode: 'read' }, decision: { kind: 'allow', rule: 'read-workspace' } }, ['jouleclaw/10.1#absent-digest-omitted']],
    ['receipt-v2-no-matching-allow', 'no_matching_allow, network api.example.com:443 get, audit_sequence 8', { ...base, id: '1c9c0b2e-5d7a-4b0e-9f21-8d3e6a7b4c10', audit_sequence: 8, action: { kind: 'network', host: 'api.example.com', port: 443, method: 'get' }, decision: { kind: 'deny', reason: 'no_matching_allow' } }, ['jouleclaw/10.1#absent-digest-omitted']],
    ['receipt-v3-explicit-deny', 'explicit_deny no-ssh, process /usr/bin/ssh, audit_sequence 9', { ...base, id: '2d0d1c3f-6e8b-4c1f-8a32-9e4f7b8c5d21', audit_sequence: 9, action: { kind: 'process', binary: '/usr/bin/ssh', argv: ['ssh', 'host'] }, decision: { kind: 'deny', reason: 'explicit_deny', rule: 'no-ssh' } }, ['jouleclaw/10.1#absent-digest-omitted']],
    ['receipt-v4-with-digest', 'v1 plus policy_digest = A: the binding sealed in the core', { ...base, id: '0f8fad5b-d9cb-469f-a165-70867728950e', audit_sequence: 7, policy_digest: A_DIGEST, action: { kind: 'filesystem', path: '/workspace/x', mode: 'read' }, decision: { kind: 'allow', rule: 'read-workspace' } }, ['jouleclaw/10.1#may-carry-policy-digest']],
  ];
  for (const [name, comment, fields, clauses] of receipts) {
    cases.push({ pack: 'jouleclaw_policy', name, type: 'PolicyReceiptSeal', comment: `policy/1 receipt: ${comment}; exact COSE_Sign1 bytes`, flags: ['Canonical', 'ReceiptBytes'], clauses, inputs: { steward_seed: toHex(steward.seed), fields }, intent: ok({ 'core.jc_receipt': 'policy/1', 'core.steward': steward.did, 'core.audit_sequence': fields['audit_sequence']! }, fields['policy_digest'] ? [] : ['core.policy_digest']) });
  }
  // verification: the consumer's checks, on receipts laid out here
  const core = (f: JsonObject): Map<string, CborValue> => {
    const toCbor = (v: Json): CborValue => (typeof v === 'number' ? BigInt(v) : Array.isArray(v) ? v.map(toCbor) : v !== null && typeof v === 'object' ? new Map(Object.entries(v).map(([k, x]) => [k, toCbor(x)])) : (v as CborValue));
    return new Map([['jc_receipt', 'policy/1'], ['steward', steward.did], ...Object.entries(f).map(([k, v]) => [k, toCbor(v)] as [string, CborValue])]);
  };
  const seal = (m: Map<string, CborValue>, signer = steward, kid = steward.did): string => toHex(signSign1(encodeCanonical(m), stewardKid(kid), signer.seed, defaultEd25519()));
  const v1 = core(receipts[0]![2]);
  const v4 = core(receipts[3]![2]);
  // §8: signed material is accepted only under the key its handle derives to; §10: a kid that disagrees with the steward
  const SIGNED_BY_HANDLE = 'jouleclaw/8#verify-handle-matches-key';
  const KID_IS_STEWARD = 'jouleclaw/10.1#reject-kid-not-steward';
  const V = (name: string, comment: string, flags: string[], clauses: string[], receipt: string, intent: Intent, opts: JsonObject = {}): Case => ({ pack: 'jouleclaw_policy', name, type: 'PolicyReceiptVerify', comment, flags, clauses, inputs: { receipt, ...opts }, intent });
  const withDigest = new Map(v1);
  withDigest.set('policy_digest', A_DIGEST);
  cases.push(
    V('verify-v4-binding-required', 'a receipt carrying the digest, read by a consumer that requires it', [], ['jouleclaw/10.1#consumer-checks-digest-presence'], seal(v4), ok({ 'core.policy_digest': A_DIGEST }), { steward: steward.did, binding: 'required' }),
    V('verify-v1-binding-required', 'a receipt without policy_digest, read by a consumer that requires the binding: refused', ['SuiteErrorCode'], ['jouleclaw/10.1#consumer-checks-digest-presence'], seal(v1), err('ERR_POLICY_DIGEST_ABSENT'), { binding: 'required' }),
    V('verify-kid-not-steward', "the core names the steward but mallory signs with kid = mallory", ['WrongKey', 'SuiteErrorCode'], [KID_IS_STEWARD, SIGNED_BY_HANDLE], seal(v1, mallory, mallory.did), err('ERR_RECEIPT_STEWARD_MISMATCH')),
    V('verify-forged', "mallory's signature under kid = steward", ['ModifiedSignature', 'SuiteErrorCode'], [SIGNED_BY_HANDLE], seal(v1, mallory), err('ERR_RECEIPT_SIGNATURE_INVALID')),
    V('verify-other-steward', 'a good receipt checked against another steward', ['WrongKey', 'SuiteErrorCode'], [SIGNED_BY_HANDLE], seal(v1), err('ERR_RECEIPT_STEWARD_MISMATCH'), { steward: mallory.did }),
    V('verify-digest-edited', 'the digest edited after sealing, the signature kept', ['ModifiedSignature', 'SuiteErrorCode'], [SIGNED_BY_HANDLE], (() => {
      // the digest is text in the payload: its ASCII swapped for B's, same length, so only the signed bytes change
      const s = seal(v4);
      const at = toHex(utf8.encode(A_DIGEST));
      if (!s.includes(at)) throw new Error('jc-cases: the sealed v4 receipt does not carry digest A as text');
      return s.replace(at, toHex(utf8.encode(B_DIGEST)));
    })(), err('ERR_RECEIPT_SIGNATURE_INVALID')),
    V('verify-schema-policy-2', 'jc_receipt "policy/2", an unknown major', ['SuiteErrorCode'], ['jouleclaw/7#unknown-major-rejected'], seal(new Map(v1).set('jc_receipt', 'policy/2')), err('ERR_JC_SCHEMA_UNKNOWN')),
  );
  return cases;
}

// ---- jouleclaw §2, §7, §16, §17 --------------------------------------------------------------------------------

const HX = (c: string): string => c.repeat(64);
const WALK: JsonObject = {
  id: '7c9e6679-7425-40de-944b-e07fc1f90ae7',
  closed_at: '2026-11-30T05:00:00Z',
  input_hash: HX('a'),
  tier: 'L3',
  joules_uj: 3_500_000,
  tools_touched: [
    { tool_id: 'model:gemma4-9b-q5_k_m', joules_uj: 3_000_000, energy_provenance: 'HwShunt' },
    { tool_id: 'fetch:wikipedia', joules_uj: 400_000, energy_provenance: 'Estimator' },
    { tool_id: 'rerank', joules_uj: 100_000, energy_provenance: 'ModelBased' },
  ],
  claims: [{ source: 'https://en.wikipedia.org/wiki/Gemma_(model)', content_hash: HX('b'), fetched_at: '2026-11-30T04:59:00Z', trust_tier: 9 }],
};
const CONTRACT: JsonObject = {
  jc_contract: 'contract/1',
  title: 'ship the parser',
  authored_by: key('jc:orchestrator').did,
  assertions: [
    { id: 'A-001', title: 'assertion A-001', priority: 'must_have', check: { kind: 'tool', tool_id: 'lint' } },
    { id: 'A-002', title: 'assertion A-002', priority: 'should_have', check: { kind: 'artifact', path: 'dist/parser.js', expected_hash: 'aa' } },
    { id: 'A-003', title: 'assertion A-003', priority: 'must_have', check: { kind: 'command', command_hash: 'c0', expected_exit: 0 } },
    { id: 'A-004', title: 'assertion A-004', priority: 'nice_to_have', check: { kind: 'checker', checker_id: 'docs' } },
  ],
  features: [
    { id: 'F-001', title: 'parser', claims: ['A-001', 'A-002'] },
    { id: 'F-002', title: 'tests', claims: ['A-003'] },
  ],
};
const ALL_PASS: Json[] = [
  { kind: 'tool_result', tool_id: 'lint', passed: true },
  { kind: 'artifact_present', path: 'dist/parser.js', hash: 'aa' },
  { kind: 'command_run', command_hash: 'c0', exit_code: 0 },
  { kind: 'checker_result', checker_id: 'docs', passed: true },
];

/** RFC 8785 (JCS) over plain JSON: the suite's reading of §16 "canonical JSON" (as harness/conformance/jc-contract.test.ts). */
function jcs(v: Json): string {
  if (Array.isArray(v)) return `[${v.map(jcs).join(',')}]`;
  if (v !== null && typeof v === 'object') return `{${Object.keys(v).sort().map((k) => `${JSON.stringify(k)}:${jcs(v[k]!)}`).join(',')}}`;
  return JSON.stringify(v);
}

/** Cases whose inputs need the reference's answers (verdict json) are built lazily in receiptCases. */
function receiptCases(verdictJsonOf: (evidence: Json[], contract?: JsonObject) => string): Case[] {
  const R = 'jouleclaw_receipts' as const;
  const cases: Case[] = [];
  const receipt1 = { jc_receipt: '1', ...WALK, energy_provenance: 'Estimator' };
  cases.push(
    { pack: R, name: 'cascade-build-section-2', type: 'CascadeBuild', comment: 'the §2 walk over three tools (HwShunt, Estimator, ModelBased): one "1" receipt, energy_provenance the worst, Estimator', flags: ['WorstProvenance'], clauses: ['jouleclaw/2#one-receipt-per-walk', 'jouleclaw/2#receipt-provenance-is-worst'], inputs: { walk: WALK }, intent: ok(fieldsAt('receipt', receipt1)) },
    { pack: R, name: 'cascade-check-ok', type: 'CascadeCheck', comment: 'the §2 receipt read back as it is', flags: [], clauses: ['jouleclaw/2#receipt-provenance-is-worst'], inputs: { receipt: receipt1 as Json }, intent: ok(fieldsAt('receipt', receipt1)) },
    { pack: R, name: 'cascade-check-better-than-worst', type: 'CascadeCheck', comment: 'the §2 receipt stating HwShunt, better than its worst tool: refused', flags: ['WorstProvenance', 'SuiteErrorCode'], clauses: ['jouleclaw/2#receipt-provenance-is-worst'], inputs: { receipt: { ...receipt1, energy_provenance: 'HwShunt' } as Json }, intent: err('ERR_JC_PROVENANCE_NOT_WORST') },
    { pack: R, name: 'cascade-check-major-2', type: 'CascadeCheck', comment: 'jc_receipt "2": an unknown major is rejected', flags: ['SuiteErrorCode'], clauses: ['jouleclaw/7#unknown-major-rejected'], inputs: { receipt: { ...receipt1, jc_receipt: '2' } as Json }, intent: err('ERR_JC_SCHEMA_UNKNOWN') },
    { pack: R, name: 'cascade-check-minor-ignored', type: 'CascadeCheck', comment: 'jc_receipt "1.1" with a field this reader does not know: read, the field ignored', flags: [], clauses: ['jouleclaw/7#unknown-minor-ignored'], inputs: { receipt: { ...receipt1, jc_receipt: '1.1', later_field: 'x' } as Json }, intent: ok({ 'receipt.energy_provenance': 'Estimator' }, ['receipt.later_field']) },
  );
  // sealed siblings dispatched on jc_receipt (§7 prefixed namespaces)
  const sealed = (core: JsonObject): string => toHex(sealJcCore(core as never, steward));
  const O = (name: string, comment: string, flags: string[], clauses: string[], receipt: string, intent: Intent): Case => ({ pack: R, name, type: 'JcReceiptOpen', comment, flags, clauses, inputs: { receipt }, intent });
  cases.push(
    O('open-cascade', 'the §2 receipt sealed by the steward: kind cascade', ['Canonical'], ['jouleclaw/7#prefixed-namespace'], sealed({ ...receipt1, steward: steward.did }), ok({ kind: 'cascade', jc_receipt: '1', 'core.energy_provenance': 'Estimator' })),
    O('open-policy-2', 'a sealed core with jc_receipt "policy/2": an unknown major of a known namespace', ['SuiteErrorCode'], ['jouleclaw/7#unknown-major-rejected', 'jouleclaw/7#prefixed-namespace'], sealed({ jc_receipt: 'policy/2', steward: steward.did, id: 'x' }), err('ERR_JC_SCHEMA_UNKNOWN')),
    O('open-unknown-namespace', 'a sealed core of a namespace this reader does not know: skipped, no core read', [], ['jouleclaw/7#prefixed-namespace'], sealed({ jc_receipt: 'mission-report/1', steward: steward.did, anything: 'at all' }), ok({ kind: 'unknown', jc_receipt: 'mission-report/1' }, ['core'])),
    O('open-tag-not-a-schema', 'jc_receipt "one": a bare tag that is not a number is no schema at all', ['Malformed', 'SuiteErrorCode'], ['jouleclaw/7#prefixed-namespace'], sealed({ ...receipt1, steward: steward.did, jc_receipt: 'one' }), err('ERR_JC_RECEIPT_MALFORMED')),
  );
  // contracts (§16.1, §16.6)
  const contractHash = H(utf8.encode(jcs(CONTRACT)));
  const K = (name: string, comment: string, flags: string[], clauses: string[], contract: JsonObject, intent: Intent): Case => ({ pack: R, name, type: 'ContractCheck', comment, flags, clauses, inputs: { contract }, intent });
  const dupA = { ...CONTRACT, assertions: [...(CONTRACT['assertions'] as Json[]), (CONTRACT['assertions'] as Json[])[0]!] };
  const dupF = { ...CONTRACT, features: [...(CONTRACT['features'] as Json[]), (CONTRACT['features'] as Json[])[0]!] };
  const unknown = { ...CONTRACT, features: [{ id: 'F-001', title: 'parser', claims: ['A-001', 'A-999'] }] };
  cases.push(
    K('contract-hash', 'the contract of jc-contract.test.ts: its hash is hex BLAKE3 of its RFC 8785 canonical JSON', ['Canonical'], ['jouleclaw/16.6#producer-sets-contract-version', 'jouleclaw/16.7#contract-hash-equals'], CONTRACT, ok({ contract_hash: contractHash })),
    K('contract-duplicate-assertion', 'assertion A-001 twice', ['SuiteErrorCode'], ['jouleclaw/16.1#assertion-ids-unique', 'jouleclaw/16.6#producer-rejects-duplicate-ids'], dupA, err('ERR_CONTRACT_DUPLICATE_ID')),
    K('contract-duplicate-feature', 'feature F-001 twice', ['SuiteErrorCode'], ['jouleclaw/16.1#feature-ids-unique', 'jouleclaw/16.6#producer-rejects-duplicate-ids'], dupF, err('ERR_CONTRACT_DUPLICATE_ID')),
    K('contract-unknown-claim', 'a feature claiming A-999, which no assertion has', ['SuiteErrorCode'], ['jouleclaw/16.1#feature-claims-exist', 'jouleclaw/16.6#producer-rejects-unknown-claims'], unknown, err('ERR_CONTRACT_UNKNOWN_CLAIM')),
  );
  // verdicts (§16.4–§16.6) over four evidence bags
  const late: Json[] = [...ALL_PASS, { kind: 'tool_result', tool_id: 'lint', passed: false }];
  const gap: Json[] = ALL_PASS.filter((e) => (e as JsonObject)['kind'] !== 'artifact_present');
  const block = { ...CONTRACT, acceptance: { block_on_should_have: true } };
  const W = (name: string, comment: string, clauses: string[], contract: JsonObject, evidence: Json[], passed: boolean): Case => ({ pack: R, name, type: 'ContractVerify', comment, flags: ['Canonical'], clauses: ['jouleclaw/16.6#verifier-rollup-rules', ...clauses], inputs: { contract, evidence }, intent: ok({ 'verdict.passed': passed }) });
  cases.push(
    W('verdict-all-pass', 'every check passed: verified, ship', ['jouleclaw/16.6#verifier-blocks-must-have'], CONTRACT, ALL_PASS, true),
    W('verdict-late-failure', 'a lint failure after its pass: any matching failure makes A-001 failed; a must_have blocks ship', ['jouleclaw/16.2#must-have-blocks-ship', 'jouleclaw/16.6#verifier-blocks-must-have'], CONTRACT, late, false),
    W('verdict-should-gap-not-blocking', 'the should_have artifact missing, block_on_should_have absent: ship', ['jouleclaw/16.2#should-have-not-blocking', 'jouleclaw/16.6#verifier-should-have-iff-flag'], CONTRACT, gap, true),
    W('verdict-should-gap-blocking', 'the should_have artifact missing, block_on_should_have true: blocked', ['jouleclaw/16.6#verifier-should-have-iff-flag'], block, gap, false),
    W('verdict-empty', 'no evidence: every assertion a gap, the must_haves block', ['jouleclaw/16.6#verifier-blocks-must-have'], CONTRACT, [], false),
  );
  // verdict receipts (§16.7)
  const vj = verdictJsonOf(ALL_PASS, CONTRACT);
  const fields = { id: '3f2b8c1e-9a4d-4c6e-8f1a-2b3c4d5e6f70', closed_at: '2026-11-30T06:00:00Z', engine_id: 'validator-1', audit_sequence: 7 };
  cases.push({ pack: R, name: 'verdict-receipt-seal', type: 'VerdictSeal', comment: 'verdict-receipt/1 over the all-pass verdict, sealed by the steward: verdict_json and its hash and the contract hash in the signed core; exact COSE bytes', flags: ['Canonical', 'ReceiptBytes'], clauses: ['jouleclaw/16.7#verdict-json-in-signed-core', 'jouleclaw/16.7#contract-hash-equals'], inputs: { steward_seed: toHex(steward.seed), ...fields, verdict_json: vj, contract: CONTRACT }, intent: ok({ 'wire.jc_receipt': 'verdict-receipt/1', 'wire.contract_hash': contractHash, 'wire.verdict.passed': true, 'wire.verdict.contract_hash': contractHash }) });
  const vcore = (over: JsonObject): string => toHex(sealJcCore({ jc_receipt: 'verdict-receipt/1', steward: steward.did, ...fields, verdict_json: vj, verdict_hash: H(utf8.encode(vj)), contract_hash: contractHash, ...over } as never, steward));
  const VO = (name: string, comment: string, clauses: string[], receipt: string, intent: Intent): Case => ({ pack: R, name, type: 'VerdictOpen', comment, flags: ['SuiteErrorCode'], clauses, inputs: { receipt, contract: CONTRACT }, intent });
  cases.push(
    VO('verdict-open-wrong-verdict-hash', 'verdict_hash not the hash of verdict_json, re-sealed by the steward', ['jouleclaw/16.7#verdict-json-in-signed-core'], vcore({ verdict_hash: HX('0') }), err('ERR_VERDICT_HASH_MISMATCH')),
    VO('verdict-open-wrong-contract-hash', 'contract_hash not the contract\'s, re-sealed by the steward', ['jouleclaw/16.7#contract-hash-equals'], vcore({ contract_hash: HX('0') }), err('ERR_VERDICT_CONTRACT_MISMATCH')),
  );
  // command_hash (§17.1): hex BLAKE3 over argv joined by NUL, computed here
  const argvs = [['ls'], ['a', 'b'], ['a b'], ['git', 'commit', '-m', 'x y']];
  cases.push({ pack: R, name: 'command-hashes', type: 'HandoffCommands', comment: "command_hash of ['ls'], ['a','b'], ['a b'], ['git','commit','-m','x y']: ['a','b'] and ['a b'] differ", flags: ['Canonical'], clauses: ['jouleclaw/17.1#command-hash-over-argv', 'jouleclaw/17.2#producer-computes-command-hash'], inputs: { run_id: 'vec-cmd', worker: key('jc:worker').did, closed_at: 1_700_000_000, argvs }, intent: ok({ command_hashes: argvs.map((a) => H(utf8.encode(a.join('\0')))) }) });
  return cases;
}

const JOURNAL_SCRIPT: JsonObject = {
  run_id: 'vec',
  nodes: [{ node_id: 'read', replay: 'safe' }, { node_id: 'pay' }],
  ops: [{ dispatch: 'read' }, { dispatch: 'pay' }, { handoff: { worker: key('jc:worker').did, node_id: 'read', closed_at: 1_700_000_000, completed: ['read the file'], commands: [{ argv: ['cat', 'x'], exit_code: 0 }] } }],
  observed_uj: { read: 10, pay: 20 },
};

/** The journal cases: the script, then an edited entry (inputs need the reference's journal bytes). */
function journalCases(entriesOf: () => string[]): Case[] {
  const R = 'jouleclaw_receipts' as const;
  const script = JOURNAL_SCRIPT;
  const entries = entriesOf();
  const edited = [...entries];
  // the entry dispatching pay, its node_id edited to read, its hash kept
  const at = entries.findIndex((h) => ((decodeCanonical(fromHex(h)) as Map<string, CborValue>).get('event') as Map<string, CborValue>).get('node_id') === 'pay');
  if (at < 1) throw new Error('jc-cases: the journal has no entry dispatching pay after its first');
  const e1 = decodeCanonical(fromHex(edited[at]!)) as Map<string, CborValue>;
  const ev = new Map(e1.get('event') as Map<string, CborValue>);
  ev.set('node_id', 'read');
  e1.set('event', ev);
  edited[at] = toHex(encodeCanonical(e1));
  return [
    { pack: R, name: 'journal-run', type: 'JournalScript', comment: "a run over read (replay safe) and pay (never): both dispatched, a handoff recorded; reopened after a restart, both in flight, pay held; recover marks them interrupted", flags: ['Canonical'], clauses: ['jouleclaw/17.2#consumer-verifies-chain', 'jouleclaw/17.3#mark-interrupted-on-restart', 'jouleclaw/17.3#never-node-held-until-settled', 'jouleclaw/17.2#discriminator-present'], inputs: script, intent: ok({ 'reopened.in_flight': ['read', 'pay'], interrupted: ['read', 'pay'], 'recovered.held': ['pay'], 'recovered.in_flight': [] }) },
    { pack: R, name: 'journal-edited-entry', type: 'JournalOpen', comment: 'the same journal with the entry dispatching pay edited to read, its hash kept: the chain is broken', flags: ['SuiteErrorCode'], clauses: ['jouleclaw/17.2#consumer-verifies-chain'], inputs: { entries: edited }, intent: err('ERR_JOURNAL_CHAIN_BROKEN') },
  ];
}

// ---- sense §2, §3, §5, §8 ----------------------------------------------------------------------------------------

type SenseEv = { physical_ns: number; logical: number; source: string; trust: string; payload: string; line: string; valid_time_ns?: number };
const sev = (physical_ns: number, source: string, line: string, trust = 'FirstParty', logical = 0): SenseEv => ({ physical_ns, logical, source, trust, payload: toHex(utf8.encode(`raw:${source}:${line}`)), line });
const SESSION: SenseEv[] = [
  sev(1_000, 'file_change', 'modified src/main.ts'),
  sev(1_000, 'shell', 'npm test', 'FirstParty', 1),
  sev(2_000, 'app_focus', 'focused editor'),
  sev(3_000, 'system_log', 'disk nearly full', 'Inferred'),
  sev(4_000, 'file_change', 'modified README.md'),
  sev(5_000, 'shell', 'git status'),
  sev(6_000, 'salience', 'surfaced: build failing', 'Attested'),
];
/** sense §2: blake3 over the fixed-order, length-prefixed fields (the suite's layout, impl/sense/event.ts header). */
function senseEventId(e: SenseEv): string {
  const u32 = (n: number) => Uint8Array.of(n >>> 24, (n >>> 16) & 255, (n >>> 8) & 255, n & 255);
  const lpb = (b: Uint8Array) => cat(u32(b.length), b);
  const hlc = new Uint8Array(12);
  new DataView(hlc.buffer).setBigUint64(0, BigInt(e.physical_ns));
  new DataView(hlc.buffer).setUint32(8, e.logical);
  const vt = new Uint8Array(e.valid_time_ns === undefined ? 0 : 8);
  if (e.valid_time_ns !== undefined) new DataView(vt.buffer).setBigUint64(0, BigInt(e.valid_time_ns));
  return H(cat(lpb(hlc), lpb(utf8.encode(e.source)), lpb(vt), lpb(utf8.encode(e.trust)), lpb(nobleBlake3(fromHex(e.payload))), lpb(utf8.encode(e.line))));
}

/** sense §8: gate decisions as sense.gate reports them (as harness/conformance/sense-chain.test.ts): surfaces, then holds of both kinds. */
const SENSE_EV = (i: number): string => H(Uint8Array.of(0x5e, i));
const SENSE_HL = { probe: 'salience', score: 900_000 };
const SENSE_DECISIONS: Json[] = [
  { event_id: SENSE_EV(0), trust: 'FirstParty', highlight: SENSE_HL, value: 900_000, cost: 550_000, decision: 'surface', charged_uj: 60, budget_uj: 90 },
  { event_id: SENSE_EV(1), trust: 'Inferred', highlight: { probe: 'uncertainty', score: 800_000 }, value: 400_000, cost: 550_000, decision: 'hold:value', charged_uj: 0, budget_uj: 90 },
  { event_id: SENSE_EV(2), trust: 'Attested', highlight: SENSE_HL, value: 900_000, cost: 550_000, decision: 'surface', charged_uj: 60, budget_uj: 30 },
  { event_id: SENSE_EV(3), trust: 'Untrusted', highlight: { probe: 'novelty', score: 1_000_000 }, value: 1_000_000, cost: 550_000, decision: 'hold:budget', charged_uj: 0, budget_uj: 30 },
  { event_id: SENSE_EV(4), trust: 'FirstParty', highlight: SENSE_HL, value: 900_000, cost: 0, decision: 'hold:budget', charged_uj: 0, budget_uj: 30 },
];

function senseCases(linksOf: () => string[]): Case[] {
  const S = 'sense' as const;
  const cases: Case[] = [];
  const E = (name: string, comment: string, clauses: string[], e: SenseEv): Case => ({ pack: S, name, type: 'SenseEventId', comment, flags: ['Canonical'], clauses: ['sense/2#event-id-fixed-concatenation', 'sense/3#cid-blake3-hex', ...clauses], inputs: { event: e as unknown as Json }, intent: ok({ event_id: senseEventId(e), payload: H(fromHex(e.payload)) }) });
  SESSION.forEach((e, i) => cases.push(E(`event-id-session-${i}`, `session event ${i}: ${e.source} "${e.line}" (${e.trust})`, [], e)));
  cases.push(
    E('event-id-valid-time-0', 'session event 0 with valid time 0: not the same id as no valid time', [], { ...SESSION[0]!, valid_time_ns: 0 }),
    E('event-id-retagged-source', 'session event 0 re-tagged shell: another id', ['sense/2#event-id-binds-source-trust'], { ...SESSION[0]!, source: 'shell' }),
    E('event-id-retagged-trust', 'session event 0 re-tagged Untrusted: another id', ['sense/2#event-id-binds-source-trust'], { ...SESSION[0]!, trust: 'Untrusted' }),
  );
  // sense §3: "blake3 over each event's content id in order" — the suite's reading: the ids' 32 raw bytes concatenated
  // (not their hex text), as impl/sense/log.ts; events_since(h) is every event stamped strictly after h
  const replayOf = (evs: SenseEv[]): Record<string, Json> => ({ event_ids: evs.map(senseEventId), replay_digest: H(cat(...evs.map((e) => fromHex(senseEventId(e))))) });
  const RP = (name: string, comment: string, events: SenseEv[], want: SenseEv[], since?: { physical_ns: number; logical: number }): Case => ({ pack: S, name, type: 'SenseReplay', comment, flags: ['Canonical'], clauses: ['sense/3#replay-digest', 'sense/3#cid-blake3-hex'], inputs: { events: events as unknown as Json, ...(since ? { since } : {}) }, intent: ok(replayOf(want)) });
  cases.push(
    RP('replay-session', 'the seven-event session in order: the ids in HLC order and the replay digest', SESSION, SESSION),
    RP('replay-session-shuffled', 'the same session fed in another order: the same ids and digest (HLC total order)', [SESSION[6]!, SESSION[2]!, SESSION[0]!, SESSION[5]!, SESSION[1]!, SESSION[4]!, SESSION[3]!], SESSION),
    RP('replay-since', 'events_since (3000, 0): the events stamped after it and their digest', SESSION, SESSION.slice(4), { physical_ns: 3_000, logical: 0 }),
  );
  const IDLE = { engagement_ppm: 0, active_modality: 'audio', surface_modality: 'visual' };
  const BUSY = { engagement_ppm: 900_000, active_modality: 'visual', surface_modality: 'visual' };
  const G = (name: string, comment: string, clauses: string[], highlights: Json[], user: JsonObject, budget_uj: number, price_uj: number, outcomes: string[]): Case => ({
    pack: S,
    name,
    type: 'SenseGate',
    comment,
    flags: ['AttentionOrder'],
    clauses: ['sense/5#surface-condition', 'sense/5#decision-deterministic', ...clauses],
    inputs: { highlights, user, budget_uj, price_uj },
    intent: ok(Object.fromEntries(outcomes.map((o, i) => [`decisions.${i}.outcome`, o]))),
  });
  cases.push(
    G('gate-idle-sequence', 'an idle user, budget 25 µJ at 10 µJ a surfacing: surface, hold:value (unworthy), surface, hold:budget (the budget spent)', ['sense/5#value-test-first', 'sense/5#surfacing-debits-hold-free'], [{ probe: 'salience', score: 900_000 }, { probe: 'novelty', score: 10 }, { probe: 'salience', score: 800_000 }, { probe: 'salience', score: 900_000 }], IDLE, 25, 10, ['surface', 'hold:value', 'surface', 'hold:budget']),
    G('gate-busy-user', 'a busy user on the same modality: uncertainty held for value, salience surfaced', ['sense/5#value-test-first'], [{ probe: 'uncertainty', score: 1_000_000 }, { probe: 'salience', score: 1_000_000 }], BUSY, 100, 10, ['hold:value', 'surface']),
    G('gate-unworthy-empty-budget', 'an unworthy highlight with the budget empty: hold:value, never hold:budget (the value test first)', ['sense/5#value-test-first'], [{ probe: 'novelty', score: 10 }], IDLE, 0, 10, ['hold:value']),
  );
  // surfacing chains (§8)
  const host = key('sense-host');
  const DECISIONS = SENSE_DECISIONS;
  cases.push({ pack: S, name: 'chain-seal-5', type: 'SenseSeal', comment: 'five gate decisions, surfaces and holds, sealed by the host as a chain: exact link bytes and ids; verify_chain reads all five', flags: ['Canonical'], clauses: ['sense/8#every-decision-chained', 'sense/8#holds-chained', 'sense/8#signed-core-commits', 'sense/8#prev-and-seq', 'sense/3#receipt-core-det-cbor'], inputs: { host_seed: toHex(host.seed), decisions: DECISIONS }, intent: ok({ 'verified.n': 5 }, ['verified.break']) });
  const links = linksOf();
  const coreOf = (l: string) => (decodeCanonical(fromHex(l)) as Map<string, CborValue>).get('core') as Map<string, CborValue>;
  const resign = (core: Map<string, CborValue>, signer = host): string => toHex(encodeCanonical(new Map<string, CborValue>([['core', core], ['sig', defaultEd25519().sign(signer.seed, encodeCanonical(core))]])));
  const V = (name: string, comment: string, ls: string[], n: number, brk?: { index: number; reason: string }): Case => ({ pack: S, name, type: 'SenseVerifyChain', comment, flags: brk ? ['ChainBreak'] : [], clauses: ['sense/8#verify-chain-first-break', ...(brk ? ['sense/8#tamper-breaks-chain'] : [])], inputs: { host: host.did, links: ls }, intent: brk ? ok({ n, 'break.index': brk.index, 'break.reason': brk.reason }) : ok({ n }, ['break']) });
  const c2 = new Map(coreOf(links[2]!));
  c2.set('charged_uj', 0n);
  const edited = [...links.slice(0, 2), resign(c2), ...links.slice(3)];
  cases.push(
    V('chain-verify-whole', 'the five links as sealed', links, 5),
    V('chain-verify-excised', 'the middle link excised: the break at index 2 (seq)', [...links.slice(0, 2), ...links.slice(3)], 2, { index: 2, reason: 'seq' }),
    V('chain-verify-swapped', 'links 1 and 2 swapped: the break at index 1', [links[0]!, links[2]!, links[1]!, ...links.slice(3)], 1, { index: 1, reason: 'seq' }),
    V('chain-verify-forged', "link 3 re-signed by mallory: the break at 3 (signature)", [...links.slice(0, 3), resign(coreOf(links[3]!), key('mallory')), links[4]!], 3, { index: 3, reason: 'signature' }),
    V('chain-verify-host-edit', "link 2's charge edited and re-signed by the host itself: the next link's prev breaks at 3", edited, 3, { index: 3, reason: 'prev' }),
  );
  return cases;
}

// ---- the reference's answers an input is built from (a verdict's JSON, journal and chain bytes) ------------------

let adapter: ReturnType<typeof createReferenceAdapter> | undefined;
/** Calls the in-process reference's testee op synchronously: `args` as plain values (integers as bigint), a map back. */
function ref(op: string, args: Record<string, unknown>): Map<string, CborValue> {
  adapter ??= createReferenceAdapter();
  const r = adapter.handle(op, decodeCanonical(encodeCanonical(args as never)) as Map<CborValue, CborValue>);
  return decodeCanonical(encodeCanonical(r)) as Map<string, CborValue>;
}
const toCborInput = (v: Json): unknown => (typeof v === 'number' ? BigInt(v) : Array.isArray(v) ? v.map(toCborInput) : v !== null && typeof v === 'object' ? Object.fromEntries(Object.entries(v).map(([k, x]) => [k, toCborInput(x)])) : v);

const reference = {
  verdictJson: (evidence: Json[], contract: JsonObject = CONTRACT): string => ref('jc.contract.verify', { contract_json: JSON.stringify(contract), evidence_json: JSON.stringify(evidence) }).get('verdict_json') as string,
  /** The journal of JOURNAL_SCRIPT's run as the reference writes it (the same ops JournalScript replays). */
  journalEntries: (): string[] => {
    const run = ref('jc.run.start', { run_id: JOURNAL_SCRIPT['run_id'], nodes: JOURNAL_SCRIPT['nodes'] }).get('run') as string;
    for (const o of JOURNAL_SCRIPT['ops'] as JsonObject[]) {
      if (o['dispatch'] !== undefined) ref('jc.run.dispatch', { run, node_id: o['dispatch'] });
      else ref('jc.run.handoff', { run, handoff: toCborInput(o['handoff']!) });
    }
    return (ref('jc.run.state', { run }).get('entries') as Uint8Array[]).map(toHex);
  },
  senseLinks: (): string[] => (ref('sense.seal', { host_seed: key('sense-host').seed, decisions: toCborInput(SENSE_DECISIONS) }).get('links') as Uint8Array[]).map(toHex),
};

/** Every JouleClaw and Sense case, pack by pack, in a stable order. */
export function jcCases(): Case[] {
  return [...tlogCases(), ...policyCases(), ...receiptCases(reference.verdictJson), ...journalCases(reference.journalEntries), ...senseCases(reference.senseLinks)];
}
