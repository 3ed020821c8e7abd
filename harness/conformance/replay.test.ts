// Conformance: jcp §8.1 the receipt stream is the write-ahead log (C14 replay, C16 chained replay) with §4.11's
// re-establish-before-deciding, and §8.2 group accounting (C14). A stream is decided at one point of the
// implementation under test; a fresh point of the same steward replays it (point.replay), and the two are compared
// link by link and decision by decision. Tampered and foreign receipts are crafted by flipping bytes of real ones.
import fc from 'fast-check';
import { describe, expect } from 'vitest';
import { clauseIt, contract } from '../clause.ts';
import { implementation } from '../driver.ts';
import { fcParams } from '../external-vectors.ts';
import { alice, bob, carol, cost, dave, frameFor, key, mallory, nonce, payload, point, rootGrant, steward } from '../fixtures.ts';
import type { DecideFields, Minted, Point } from '../implementation.ts';
import { assertProperty } from '../refusal.ts';

const NOW = 1_000n;
const impl = () => implementation();

/** A decision request over `chain` (root first) framed for its leaf, by `caller`, costing `uj`. */
function req(chain: readonly Minted[], caller: string, uj: bigint, label = 'args'): DecideFields {
  const leaf = chain[chain.length - 1]!;
  return { frame: frameFor(leaf, { payload_hash: payload(label) }), chain: chain.map((m) => m.signed_grant), caller, cost: cost(uj), now_s: NOW };
}

/** A three-link chain alice → bob → carol → dave, budgets 1000 / 600 / 300, minted by the implementation under test. */
let chainP: Promise<readonly [Minted, Minted, Minted]> | undefined;
const threeLinks = () =>
  (chainP ??= (async () => {
    const root = await rootGrant({ budget_uj: 1000n, nonce: nonce('replay-root') });
    const mid = await impl().attenuate(root.signed_grant, bob.seed, { subject: carol.did, budget_uj: 600n, nonce: nonce('replay-mid') });
    const leaf = await impl().attenuate(mid.signed_grant, carol.seed, { subject: dave.did, budget_uj: 300n, nonce: nonce('replay-leaf') });
    return [root, mid, leaf] as const;
  })());

/** The receipts of a mixed stream at `p`: single-grant and chained, allows and denies (budget, wrong subject). */
async function mixedStream(p: Point): Promise<Uint8Array[]> {
  const [root, mid, leaf] = await threeLinks();
  const rs = [
    req([root], bob.did, 100n, 'a'),
    req([root, mid], carol.did, 50n, 'b'),
    req([root, mid, leaf], dave.did, 30n, 'c'),
    req([root, mid, leaf], dave.did, 400n, 'd'), // deny: budget-exceeded at the leaf (300)
    req([root, mid, leaf], mallory.did, 5n, 'e'), // deny: wrong-subject
    req([root, mid, leaf], dave.did, 20n, 'f'),
  ];
  const out: Uint8Array[] = [];
  for (const r of rs) out.push((await p.decide(r)).receipt);
  return out;
}

/** A copy of `receipt` with one bit of its last byte (inside the signature) flipped. */
function tamper(receipt: Uint8Array): Uint8Array {
  const t = receipt.slice();
  t[t.length - 1]! ^= 0x01;
  return t;
}

describe('jcp §8.1 replay (C14, C16)', () => {
  clauseIt(['jcp/8.1#rebuild-by-replay', 'jcp/8.1#chain-ids', 'jcp/4.11#in-flight-stays-debited', 'jcp/9#c14-replay', 'jcp/9#c16-chained-replay', 'jcp/7#debit-on-allow'], 'a fresh point rebuilds every link\'s spend, ancestors included, exactly as the original debited', async () => {
    const ids = (await threeLinks()).map((m) => m.grant_id);
    const original = await point();
    const stream = await mixedStream(original);
    const fresh = await point();
    const r = await impl().replay(fresh, stream);
    expect([r.verified, r.allowed, r.refused]).toEqual([6n, 4n, 0n]);
    // root: 100 + 50 + 30 + 20; mid: 50 + 30 + 20; leaf: 30 + 20 — the last allow has no recorded outcome and stays debited
    expect(await Promise.all(ids.map((id) => fresh.spent(id)))).toEqual([200n, 100n, 50n]);
    expect(await Promise.all(ids.map((id) => original.spent(id)))).toEqual([200n, 100n, 50n]);
    expect(r.spend).toEqual(new Map([[ids[0]!, 200n], [ids[1]!, 100n], [ids[2]!, 50n]]));
  });

  clauseIt(['jcp/8.1#rebuild-by-replay', 'jcp/8.2#count-failed-receipts', 'jcp/9#c14-replay'], 'a tampered receipt and a foreign steward\'s contribute nothing and are counted with their codes', async () => {
    const [root] = await threeLinks();
    const stream = await mixedStream(await point());
    const foreignPoint = await impl().newPoint(key('other-steward').seed);
    const foreign = (await foreignPoint.decide(req([root], bob.did, 7n, 'foreign'))).receipt;
    const fresh = await point();
    const r = await impl().replay(fresh, [tamper(stream[0]!), ...stream.slice(1), foreign]);
    expect([r.verified, r.refused]).toEqual([5n, 2n]);
    expect(r.refusals.map((x) => [x.index, x.code])).toEqual([
      [0n, 'ERR_RECEIPT_SIGNATURE_INVALID'],
      [6n, 'ERR_RECEIPT_STEWARD_MISMATCH'],
    ]);
    // the tampered 100 µJ single-grant allow is not re-applied; the chained ones still reach the root
    expect(await fresh.spent(root.grant_id)).toBe(100n);
  });

  clauseIt(['jcp/8.1#rebuild-by-replay', 'jcp/8.2#count-failed-receipts'], 'junk entries in a stream are counted refusals, never a crash and never a debit', async () => {
    const [root] = await threeLinks();
    const good = (await (await point()).decide(req([root], bob.did, 9n, 'junk-good'))).receipt;
    const junk = [new Uint8Array(), new Uint8Array([0xa0]), new Uint8Array([0xd2, 0x84]), good.slice(0, good.length - 1)];
    const fresh = await point();
    const r = await impl().replay(fresh, [...junk, good]);
    expect([r.verified, r.refused]).toEqual([1n, 4n]);
    expect(r.refusals.map((x) => x.index)).toEqual([0n, 1n, 2n, 3n]);
    for (const x of r.refusals) expect(x.code).toMatch(/^ERR_(COSE|CBOR|RECEIPT)_/);
    expect(await fresh.spent(root.grant_id)).toBe(9n);
  });

  clauseIt(['jcp/8.1#rebuild-by-replay', 'jcp/4.11#re-establish-before-deciding', 'jcp/7#budget-exceeded'], 'after replay the point keeps conserving: it denies budget-exceeded exactly where the original does', async () => {
    const [root, mid, leaf] = await threeLinks();
    const original = await point();
    const fresh = await point();
    await impl().replay(fresh, await mixedStream(original));
    // leaf left 300 − 50 = 250: 251 is denied at both points and debits nothing, 250 is allowed at both
    for (const p of [original, fresh]) {
      const over = await p.decide(req([root, mid, leaf], dave.did, 251n, 'over'));
      expect([over.verdict, over.deny_reason]).toEqual(['deny', 'budget-exceeded']);
      expect((await p.decide(req([root, mid, leaf], dave.did, 250n, 'fits'))).verdict).toBe('allow');
      expect(await p.spent(leaf.grant_id)).toBe(300n);
    }
    // a point that did not replay would have allowed the 251 µJ call: the replay is what denies it
    const amnesiac = await point();
    expect((await amnesiac.decide(req([root, mid, leaf], dave.did, 251n, 'over'))).verdict).toBe('allow');
  });

  clauseIt(['jcp/8.1#rebuild-by-replay', 'jcp/8.1#chain-ids', 'jcp/4.11#re-establish-before-deciding', 'jcp/9#c16-chained-replay', 'jcp/7#debit-on-allow'], 'property: for any stream of single and chained decisions, replay reproduces every link and the next verdict', async () => {
    const links = await threeLinks();
    const callers = [bob.did, carol.did, dave.did, mallory.did];
    let allowed = 0;
    await assertProperty(
      fc.asyncProperty(
        fc.array(fc.record({ depth: fc.integer({ min: 1, max: 3 }), who: fc.nat(3), uj: fc.bigInt({ min: 0n, max: 250n }) }), { minLength: 1, maxLength: 10 }),
        fc.bigInt({ min: 0n, max: 400n }),
        async (steps, probe) => {
          const original = await point();
          const stream: Uint8Array[] = [];
          for (const [i, s] of steps.entries()) {
            const d = await original.decide(req(links.slice(0, s.depth), callers[s.who]!, s.uj, `p${i}`));
            if (d.verdict === 'allow') allowed++;
            stream.push(d.receipt);
          }
          const fresh = await point();
          await impl().replay(fresh, stream);
          for (const m of links) expect(await fresh.spent(m.grant_id)).toBe(await original.spent(m.grant_id));
          const next = req(links, dave.did, probe, 'probe');
          const [a, b] = [await original.decide(next), await fresh.decide(next)];
          expect([b.verdict, b.deny_reason]).toEqual([a.verdict, a.deny_reason]);
        },
      ),
      fcParams(25),
    );
    expect(allowed).toBeGreaterThan(0); // not vacuous: some decisions debited
  });
});

describe('jcp §8.2 group accounting (C14)', () => {
  clauseIt(['jcp/8.2#count-failed-receipts', 'jcp/9#c14-replay', 'jcp/7#debit-on-allow'], 'per-worker attribution from receipts matches the point ledger; a receipt that fails verification is counted, not dropped', async () => {
    const root = await rootGrant({ budget_uj: 1000n, nonce: nonce('team-root') });
    const [c, d] = await impl().shard(root.signed_grant, bob.seed, [
      { subject: carol.did, budget_uj: 300n, nonce: nonce('team-carol') },
      { subject: dave.did, budget_uj: 200n, nonce: nonce('team-dave') },
    ]);
    const p = await point();
    const stream: Uint8Array[] = [];
    for (const [w, caller, uj, l] of [
      [c!, carol.did, 100n, 'c1'],
      [d!, dave.did, 150n, 'd1'],
      [c!, carol.did, 250n, 'c2'], // deny: budget
      [d!, dave.did, 50n, 'd2'],
      [c!, dave.did, 1n, 'c3'], // deny: wrong-subject
      [c!, carol.did, 200n, 'c4'],
    ] as const) {
      stream.push((await p.decide(req([root, w], caller, uj, l))).receipt);
    }
    const ledger = await impl().groupAccounting(steward.did, [...stream, tamper(stream[1]!)]);
    expect([ledger.verified, ledger.unverified]).toEqual([6n, 1n]);
    expect(ledger.failures.map((f) => f.index)).toEqual([6n]);
    contract(ledger.failures[0]?.code === 'ERR_RECEIPT_SIGNATURE_INVALID', `the tampered receipt's failure is ${ledger.failures[0]?.code}; the suite's code is ERR_RECEIPT_SIGNATURE_INVALID`);
    const rows = [...ledger.rows].sort((x, y) => (x.subject < y.subject ? -1 : 1));
    const expected = [
      { grant_id: c!.grant_id, subject: carol.did, allowed: 2n, refused: 2n, spent_uj: 300n },
      { grant_id: d!.grant_id, subject: dave.did, allowed: 2n, refused: 0n, spent_uj: 200n },
    ].sort((x, y) => (x.subject < y.subject ? -1 : 1));
    expect(rows).toEqual(expected);
    // the ledger the point kept agrees worker by worker, and the root carries their sum
    for (const row of ledger.rows) expect(await p.spent(row.grant_id)).toBe(row.spent_uj);
    expect(await p.spent(root.grant_id)).toBe(500n);
  });

  clauseIt(['jcp/8.2#count-failed-receipts'], 'a stream sealed by another steward is all unverified, none of it attributed', async () => {
    const root = await rootGrant({ budget_uj: 100n, nonce: nonce('acct-foreign') });
    const p = await point();
    const stream = [(await p.decide(req([root], bob.did, 10n, 'x'))).receipt, (await p.decide(req([root], bob.did, 10n, 'y'))).receipt];
    const ledger = await impl().groupAccounting(alice.did, stream);
    expect([ledger.verified, ledger.unverified, ledger.rows.length]).toEqual([0n, 2n, 0]);
    expect(ledger.failures).toHaveLength(2);
    contract(ledger.failures.every((f) => f.code === 'ERR_RECEIPT_STEWARD_MISMATCH'), `the foreign receipts' failures are ${ledger.failures.map((f) => f.code).join(', ')}; the suite's code is ERR_RECEIPT_STEWARD_MISMATCH`);
  });
});
