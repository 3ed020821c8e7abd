// C-TLOG, the JouleClaw transparency log (jouleclaw §22), through the implementation under test: heads signed by the
// receipts' sealer over exactly 0x02 ‖ size ‖ root ‖ timestamp; a head with a malformed root, an unsigned head and a
// head signed by another key each refused with its own code; an inclusion proof that closes against the signed root
// for every entry, allow and deny alike; a decision the log cannot record refused rather than performed unrecorded.
//
// Expected roots and proofs come from the spec's own recursive definitions (§22.1 "the RFC 6962 method"; RFC 9162
// §2.1.1 MTH, §2.1.3.1 PATH, §2.1.4.1 SUBPROOF), written out below independently of the reference's tree code, and
// signatures are checked with plain Ed25519 over bytes this file lays out from §22.2. Heads a conforming log never
// serves (unsigned, malformed, re-signed) are crafted with the oracle. The head's wire form is the suite's
// (harness/PROTOCOL.md, impl/jouleclaw/tlog-head.ts): { root: 64 lowercase hex, size, steward, signature, timestamp }.
import fc from 'fast-check';
import { describe, expect } from 'vitest';
import { clauseIt } from '../clause.ts';
import { implementation } from '../driver.ts';
import { fcParams } from '../external-vectors.ts';
import { bob, cost, frameFor, mallory, nonce, point, rootGrant, steward } from '../fixtures.ts';
import type { DecideFields, LogEntryResult, Minted } from '../implementation.ts';
import { assertProperty, expectCode } from '../refusal.ts';
import { blake3, decodeCanonical, encodeCanonical, nodeEd25519, toHex, type CborValue, type KeyPair } from '../oracle.ts';

const SIGNED = 'jouleclaw/22.2#head-signed-across-boundary';
const COVERS = 'jouleclaw/22.2#signature-covers-three-fields';
const SEALER = 'jouleclaw/22.2#head-key-is-receipt-sealer';
const UNSIGNED = 'jouleclaw/22.2#unsigned-root-not-used';
const ROOT = 'jouleclaw/22.2#reject-malformed-root';
const MAY = 'jouleclaw/22#may-publish-log';
const ON_PATH = 'jouleclaw/22.3#append-on-decision-path';
const UNRECORDABLE = 'jouleclaw/22.3#refuse-unrecordable-action';

// ---- the tree by the spec's definitions (independent of impl/jouleclaw/tlog-merkle.ts) ----
const cat = (...parts: Uint8Array[]): Uint8Array => Uint8Array.from(parts.flatMap((p) => [...p]));
/** §22.1 "leaf hash: BLAKE3(0x00 || receipt_bytes)" */
const leafHash = (d: Uint8Array): Uint8Array => blake3(cat(Uint8Array.of(0), d));
/** §22.1 "internal node: BLAKE3(0x01 || left || right)" */
const nodeHash = (l: Uint8Array, r: Uint8Array): Uint8Array => blake3(cat(Uint8Array.of(1), l, r));
/** RFC 6962: k, the largest power of two smaller than n. */
const split = (n: number): number => {
  let k = 1;
  while (k * 2 < n) k *= 2;
  return k;
};
/** §22.1 "the root is the node hash of the largest power-of-two subtree on the left and the recursive tree of the remainder on the right" */
function mth(d: readonly Uint8Array[]): Uint8Array {
  if (d.length === 0) return blake3(new Uint8Array(0));
  if (d.length === 1) return leafHash(d[0]!);
  const k = split(d.length);
  return nodeHash(mth(d.slice(0, k)), mth(d.slice(k)));
}
/** RFC 9162 §2.1.3.1 PATH(m, D[n]). */
function specPath(m: number, d: readonly Uint8Array[]): Uint8Array[] {
  if (d.length <= 1) return [];
  const k = split(d.length);
  return m < k ? [...specPath(m, d.slice(0, k)), mth(d.slice(k))] : [...specPath(m - k, d.slice(k)), mth(d.slice(0, k))];
}
/** RFC 9162 §2.1.4.1 SUBPROOF(m, D[n], b); PROOF(m, D[n]) = SUBPROOF(m, D[n], true). */
function specSubproof(m: number, d: readonly Uint8Array[], b: boolean): Uint8Array[] {
  if (m === d.length) return b ? [] : [mth(d)];
  const k = split(d.length);
  return m <= k ? [...specSubproof(m, d.slice(0, k), b), mth(d.slice(k))] : [...specSubproof(m - k, d.slice(k), false), mth(d.slice(0, k))];
}

// ---- heads ----
/** §22.2 "0x02 || size (8 bytes, big-endian) || root (32 raw bytes) || timestamp (8 bytes, big-endian)" */
function headPreimage(size: bigint, root: Uint8Array, timestamp: bigint): Uint8Array {
  const out = new Uint8Array(49);
  const v = new DataView(out.buffer);
  out[0] = 0x02;
  v.setBigUint64(1, size); // DataView is big-endian unless told otherwise
  out.set(root, 9);
  v.setBigUint64(41, timestamp);
  return out;
}

type HeadMap = Map<string, CborValue>;
const readHead = (b: Uint8Array): HeadMap => decodeCanonical(b) as HeadMap;
const u = (v: CborValue | undefined): bigint => (typeof v === 'bigint' ? v : BigInt(v as number));
const rootOf = (h: HeadMap): Uint8Array => Uint8Array.from(Buffer.from(h.get('root') as string, 'hex'));
/** `h` with field `k` set to `v` (removed when undefined), encoded by the oracle. */
function withField(h: HeadMap, k: string, v: CborValue | undefined): Uint8Array {
  const m = new Map(h);
  if (v === undefined) m.delete(k);
  else m.set(k, v);
  return encodeCanonical(m);
}
/** A head crafted and signed by `signer` over `preimage` (default: the right bytes), naming `named` as its steward. */
function craftHead(size: bigint, root: Uint8Array, timestamp: bigint, signer: KeyPair, named = signer.did, preimage = headPreimage(size, root, timestamp)): Uint8Array {
  return encodeCanonical(
    new Map<string, CborValue>([
      ['root', toHex(root)],
      ['size', size],
      ['steward', named],
      ['signature', nodeEd25519.sign(signer.seed, preimage)],
      ['timestamp', timestamp],
    ]),
  );
}

// ---- decisions ----
function allowReq(g: Minted, now_s: bigint): DecideFields {
  return { frame: frameFor(g), chain: [g.signed_grant], caller: bob.did, cost: cost(10n), now_s };
}
function denyReq(g: Minted, now_s: bigint): DecideFields {
  return { frame: frameFor(g, { action: 'write' }), chain: [g.signed_grant], caller: bob.did, cost: cost(10n), now_s }; // 'write' is not granted
}

/** Decisions made through a fresh log in front of a fresh point, in the order of `verdicts`, each at now_s = 100 + i. */
async function loggedRun(verdicts: ReadonlyArray<'allow' | 'deny'>) {
  const impl = implementation();
  const g = await rootGrant({ nonce: nonce('tlog') });
  const p = await point();
  const log = await impl.newLog(steward.seed);
  const receipts: Uint8Array[] = [];
  const entries: LogEntryResult[] = [];
  for (const [i, want] of verdicts.entries()) {
    const d = await log.decide(p, want === 'allow' ? allowReq(g, 100n + BigInt(i)) : denyReq(g, 100n + BigInt(i)));
    expect(d.verdict).toBe(want);
    expect(d.receipt, 'a recorded decision carries its receipt').toBeInstanceOf(Uint8Array);
    expect(d.entry, 'a recorded decision carries its log entry').toBeDefined();
    receipts.push(d.receipt!);
    entries.push(d.entry!);
  }
  return { impl, g, p, log, receipts, entries };
}

const MIX = ['allow', 'deny', 'allow', 'deny', 'deny', 'allow', 'allow'] as const;

describe('jouleclaw §22 transparency log (C-TLOG)', () => {
  clauseIt([SIGNED, COVERS, SEALER], 'every head the log serves is signed by the receipts\' sealer over exactly 0x02 ‖ size ‖ root ‖ timestamp', async () => {
    const { impl, log, receipts, entries } = await loggedRun(MIX);
    const check = (headBytes: Uint8Array, size: number, timestamp: bigint) => {
      const h = readHead(headBytes);
      expect([...h.keys()].sort()).toEqual(['root', 'signature', 'size', 'steward', 'timestamp']);
      expect(u(h.get('size'))).toBe(BigInt(size));
      expect(u(h.get('timestamp'))).toBe(timestamp);
      expect(h.get('root')).toBe(toHex(mth(receipts.slice(0, size))));
      // §22.2 "The key MUST be the same principal that seals the receipts"
      expect(h.get('steward')).toBe(steward.did);
      // §22.2 "the signature MUST cover all three fields over exactly these bytes"
      expect(nodeEd25519.verify(h.get('signature') as Uint8Array, headPreimage(BigInt(size), rootOf(h), timestamp), steward.publicKey)).toBe(true);
    };
    for (const [i, e] of entries.entries()) {
      expect(e.index).toBe(BigInt(i));
      check(e.head, i + 1, 100n + BigInt(i));
      // the receipts the heads commit to are sealed by the same key
      expect((await impl.verifyReceipt(receipts[i]!, steward.did))['verdict']).toBe(MIX[i]);
    }
    check(await log.head(555n), receipts.length, 555n);
    expect(await impl.verifyTreeHead(await log.head(556n), steward.did)).toEqual({ size: BigInt(receipts.length), root: mth(receipts), timestamp: 556n });
  });

  clauseIt([COVERS], 'a head whose size, root or timestamp changed after signing is refused; one signed over other bytes is refused', async () => {
    const { impl, receipts } = await loggedRun(['allow', 'deny', 'allow']);
    const root = mth(receipts);
    const good = craftHead(3n, root, 7n, steward);
    expect(await impl.verifyTreeHead(good, steward.did)).toEqual({ size: 3n, root, timestamp: 7n });
    const h = readHead(good);
    const flipped = root.slice();
    flipped[31]! ^= 1;
    for (const bad of [withField(h, 'size', 4n), withField(h, 'root', toHex(flipped)), withField(h, 'timestamp', 8n)]) {
      await expectCode(impl.verifyTreeHead(bad, steward.did), 'ERR_TLOG_HEAD_SIGNATURE_INVALID');
    }
    // signatures by the right key over bytes other than §22.2's: no separator, the leaf separator, no timestamp,
    // little-endian widths, the root alone
    const le = headPreimage(3n, root, 7n);
    new DataView(le.buffer).setBigUint64(1, 3n, true);
    new DataView(le.buffer).setBigUint64(41, 7n, true);
    const others = [
      headPreimage(3n, root, 7n).slice(1),
      cat(Uint8Array.of(0), headPreimage(3n, root, 7n).slice(1)),
      headPreimage(3n, root, 7n).slice(0, 41),
      le,
      root,
    ];
    for (const pre of others) {
      await expectCode(impl.verifyTreeHead(craftHead(3n, root, 7n, steward, steward.did, pre), steward.did), 'ERR_TLOG_HEAD_SIGNATURE_INVALID');
    }
  });

  clauseIt([SEALER], 'a head signed by a key other than the receipts\' sealer is refused, and the log takes no one else\'s receipts', async () => {
    const { impl, g, receipts, entries } = await loggedRun(['allow', 'deny']);
    const root = mth(receipts);
    // signed honestly by mallory, naming mallory: attributable, but to a party that did not make the decisions
    const byMallory = craftHead(2n, root, 9n, mallory);
    expect(await impl.verifyTreeHead(byMallory, mallory.did)).toEqual({ size: 2n, root, timestamp: 9n }); // a well-formed head…
    await expectCode(impl.verifyTreeHead(byMallory, steward.did), 'ERR_TLOG_HEAD_WRONG_KEY'); // …of the wrong key
    await expectCode(impl.verifyLogInclusion(byMallory, steward.did, receipts[1]!, 1n, specPath(1, receipts)), 'ERR_TLOG_HEAD_WRONG_KEY');
    // signed by mallory while naming the steward
    await expectCode(impl.verifyTreeHead(craftHead(2n, root, 9n, mallory, steward.did), steward.did), 'ERR_TLOG_HEAD_SIGNATURE_INVALID');
    // the steward's heads, checked against another expected sealer
    await expectCode(impl.verifyTreeHead(entries[1]!.head, mallory.did), 'ERR_TLOG_HEAD_WRONG_KEY');
    // reading taken (impl/jouleclaw/tlog.ts): a log refuses receipts sealed by any key but its own, so its heads never
    // commit another party's decisions
    const other = await implementation().newPoint(mallory.seed);
    const foreign = await other.decide(allowReq(g, 1n));
    const log = await impl.newLog(steward.seed);
    await expectCode(log.append(foreign.receipt, 1n), 'ERR_TLOG_ENTRY_FOREIGN');
    expect((await log.append(receipts[0]!, 2n)).index).toBe(0n); // the log was left as it was
  });

  clauseIt([UNSIGNED], 'an unsigned head never verifies a proof, however right the proof', async () => {
    const { impl, log, receipts, entries } = await loggedRun(MIX);
    const n = receipts.length;
    const final = await log.head(900n);
    const h = readHead(final);
    const unsigned = [withField(h, 'signature', undefined), withField(readHead(withField(h, 'signature', undefined)), 'steward', undefined), withField(h, 'signature', new Uint8Array(0))];
    for (const [i, r] of receipts.entries()) {
      const proof = specPath(i, receipts);
      await impl.verifyLogInclusion(final, steward.did, r, BigInt(i), proof); // the signed head: the proof closes
      for (const head of unsigned) {
        await expectCode(impl.verifyLogInclusion(head, steward.did, r, BigInt(i), proof), 'ERR_TLOG_HEAD_UNSIGNED');
      }
    }
    for (const head of unsigned) await expectCode(impl.verifyTreeHead(head, steward.did), 'ERR_TLOG_HEAD_UNSIGNED');
    const first = entries[2]!.head;
    const cproof = specSubproof(3, receipts, true);
    await impl.verifyLogConsistency(first, final, steward.did, cproof);
    await expectCode(impl.verifyLogConsistency(withField(readHead(first), 'signature', undefined), final, steward.did, cproof), 'ERR_TLOG_HEAD_UNSIGNED');
    await expectCode(impl.verifyLogConsistency(first, unsigned[0]!, steward.did, cproof), 'ERR_TLOG_HEAD_UNSIGNED');
    expect(n).toBe(MIX.length);
  });

  clauseIt([ROOT], 'a head whose root is not 32 bytes of hex is refused, not read as absent or empty', async () => {
    const { impl, receipts, entries } = await loggedRun(['allow', 'deny']);
    const h = readHead(entries[1]!.head);
    const hex = h.get('root') as string;
    const roots: Array<[string, CborValue | undefined]> = [
      ['absent', undefined],
      ['empty', ''],
      ['31 bytes', hex.slice(2)],
      ['33 bytes', `${hex}00`],
      ['odd length', hex.slice(1)],
      ['not hex', `zz${hex.slice(2)}`],
      ['raw bytes, not hex', rootOf(h)],
      ['a number', 0],
    ];
    for (const [why, root] of roots) {
      const bad = withField(h, 'root', root);
      await expectCode(impl.verifyTreeHead(bad, steward.did), 'ERR_TLOG_ROOT_MALFORMED', why);
      await expectCode(impl.verifyLogInclusion(bad, steward.did, receipts[1]!, 1n, specPath(1, receipts)), 'ERR_TLOG_ROOT_MALFORMED', why);
    }
  });

  clauseIt([MAY, ON_PATH, SIGNED], 'every entry, allow and deny alike, has an inclusion proof that closes against the signed root', async () => {
    const { impl, log, receipts, entries } = await loggedRun(MIX);
    const n = receipts.length;
    // at its append: the proof served with the verdict, against the head served with it
    for (const [i, e] of entries.entries()) {
      expect(e.proof.map(toHex)).toEqual(specPath(i, receipts.slice(0, i + 1)).map(toHex));
      await impl.verifyLogInclusion(e.head, steward.did, receipts[i]!, BigInt(i), e.proof);
    }
    // later: against the latest signed head, for every entry
    const final = await log.head(1000n);
    expect(readHead(final).get('root')).toBe(toHex(mth(receipts)));
    for (let i = 0; i < n; i++) {
      const proof = await log.inclusion(BigInt(i), BigInt(n));
      expect(proof.map(toHex)).toEqual(specPath(i, receipts).map(toHex));
      await impl.verifyLogInclusion(final, steward.did, receipts[i]!, BigInt(i), proof);
      // the same proof does not close for a receipt with other bytes (two like denials seal identical receipts, and
      // identical leaves share proofs, so "another" means other bytes), nor at another index
      const other = receipts.find((r) => toHex(r) !== toHex(receipts[i]!))!;
      await expectCode(impl.verifyLogInclusion(final, steward.did, other, BigInt(i), proof), 'ERR_TLOG_INCLUSION_INVALID');
      await expectCode(impl.verifyLogInclusion(final, steward.did, receipts[i]!, BigInt((i + 1) % n), proof), 'ERR_TLOG_INCLUSION_INVALID');
    }
    const verdicts = await Promise.all(receipts.map(async (r) => (await impl.verifyReceipt(r, steward.did))['verdict']));
    expect(verdicts).toEqual([...MIX]);
  });

  clauseIt([UNRECORDABLE, ON_PATH, MAY], 'a decision the log cannot record is refused, not performed unrecorded', async () => {
    const impl = implementation();
    const g = await rootGrant({ nonce: nonce('tlog-full') });
    const p = await point();
    const full = await impl.newLog(steward.seed, 2n);
    expect((await full.decide(p, allowReq(g, 1n))).entry?.index).toBe(0n);
    expect((await full.decide(p, denyReq(g, 2n))).entry?.index).toBe(1n);
    const spent = await p.spent(g.grant_id);
    expect(spent).toBe(10n);
    // the third would be allowed, but cannot be recorded: refused, nothing sealed, nothing debited
    const refused = await full.decide(p, allowReq(g, 3n));
    expect(refused).toEqual({ verdict: 'deny', deny_reason: 'unrecorded' });
    expect(await p.spent(g.grant_id)).toBe(spent);
    // a log signing with a key other than the point's steward cannot record its decisions either
    const elsewhere = await impl.newLog(mallory.seed);
    expect(await elsewhere.decide(p, allowReq(g, 4n))).toEqual({ verdict: 'deny', deny_reason: 'unrecorded' });
    expect(await p.spent(g.grant_id)).toBe(spent);
    // the log in front of the point still records what it has room for
    const roomy = await impl.newLog(steward.seed);
    const ok = await roomy.decide(p, allowReq(g, 5n));
    expect([ok.verdict, ok.entry?.index]).toEqual(['allow', 0n]);
    expect(await p.spent(g.grant_id)).toBe(spent + 10n);
  });

  clauseIt([SIGNED, UNSIGNED], 'property: for random sizes and entries, every inclusion and consistency proof verifies against signed heads and a flipped byte is refused', async () => {
    const impl = implementation();
    const g = await rootGrant({ nonce: nonce('tlog-property') });
    // the entries are receipts of random decisions (random cost and action: allow and deny, a budget running out)
    const decision = fc.record({ uj: fc.bigInt({ min: 0n, max: 400n }), grantedAction: fc.boolean() });
    await assertProperty(
      fc.asyncProperty(
        fc.array(decision, { minLength: 1, maxLength: 17 }),
        fc.nat(),
        fc.nat(),
        fc.nat(),
        async (decisions, iSeed, mSeed, flipSeed) => {
          const p = await point();
          const entries: Uint8Array[] = [];
          for (const [j, x] of decisions.entries()) {
            const req = x.grantedAction ? allowReq(g, BigInt(j)) : denyReq(g, BigInt(j));
            entries.push((await p.decide({ ...req, cost: cost(x.uj) })).receipt);
          }
          const n = entries.length;
          const log = await impl.newLog(steward.seed);
          const heads: Uint8Array[] = [];
          for (const [j, e] of entries.entries()) heads.push((await log.append(e, BigInt(j))).head);
          const final = await log.head(BigInt(n));
          // inclusion of a random entry
          const i = iSeed % n;
          const ip = await log.inclusion(BigInt(i), BigInt(n));
          expect(ip.map(toHex)).toEqual(specPath(i, entries).map(toHex));
          await impl.verifyLogInclusion(final, steward.did, entries[i]!, BigInt(i), ip);
          if (ip.length > 0) {
            const bad = ip.map((x) => x.slice());
            bad[flipSeed % bad.length]![(flipSeed >> 5) % 32]! ^= 1 << (flipSeed % 8);
            await expectCode(impl.verifyLogInclusion(final, steward.did, entries[i]!, BigInt(i), bad), 'ERR_TLOG_INCLUSION_INVALID');
          }
          const badEntry = entries[i]!.slice();
          badEntry[flipSeed % badEntry.length]! ^= 1;
          await expectCode(impl.verifyLogInclusion(final, steward.did, badEntry, BigInt(i), ip), 'ERR_TLOG_INCLUSION_INVALID');
          // consistency from a random earlier head
          const m = 1 + (mSeed % n);
          const cp = await log.consistency(BigInt(m), BigInt(n));
          expect(cp.map(toHex)).toEqual(specSubproof(m, entries, true).map(toHex));
          await impl.verifyLogConsistency(heads[m - 1]!, final, steward.did, cp);
          if (cp.length > 0) {
            const bad = cp.map((x) => x.slice());
            bad[flipSeed % bad.length]![(flipSeed >> 5) % 32]! ^= 1 << (flipSeed % 8);
            await expectCode(impl.verifyLogConsistency(heads[m - 1]!, final, steward.did, bad), 'ERR_TLOG_CONSISTENCY_INVALID');
          }
        },
      ),
      fcParams(40),
    );
  });
});
