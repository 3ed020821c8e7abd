// Conformance: jcp §4.8 dual ceilings (C22) — a money ceiling (budget_funds) beside the joule ceiling, enforced
// independently on priced decisions, attenuated on its own axis, and absent = byte-identical to a joules-only grant.
// Grants and decisions go through the implementation under test; the oracle only crafts what no honest attenuation
// produces (a child that drops, raises or re-denominates its parent's money ceiling) and builds expected bytes.
// Tests name only C22 clauses (and §4 absent-optional, whose check needs no money support), so a testee that claims
// C3 or C7 without money is not asked about money.
import fc from 'fast-check';
import { describe, expect } from 'vitest';
import { implementation } from '../driver.ts';
import type { DecideFields, DecisionResult, Minted, Point } from '../implementation.ts';
import { decodeCanonical, defaultEd25519, encodeCanonical, toHex, type Grant, type KeyPair } from '../oracle.ts';
import { clauseIt } from '../clause.ts';
import { assertProperty, expectCode } from '../refusal.ts';
import { fcParams } from '../external-vectors.ts';
import { alice, bob, carol, cost, dave, frameFor, grantOf, idOf, key, nonce, point, rootGrant, steward, TOOL } from '../fixtures.ts';

const NOW = 1_000n;
const usd = (minor: bigint) => ({ currency: 'USD', minor });
const eur = (minor: bigint) => ({ currency: 'EUR', minor });

/** A priced request over `chain` (root first) framed for its leaf, its caller the leaf's subject. */
function priced(chain: readonly Minted[], uj: bigint, funds?: { currency: string; minor: bigint }): DecideFields {
  const leaf = chain[chain.length - 1]!;
  return {
    frame: frameFor(leaf),
    chain: chain.map((m) => m.signed_grant),
    caller: grantOf(leaf).grant.subject,
    cost: cost(uj),
    now_s: NOW,
    ...(funds ? { cost_funds: funds } : {}),
  };
}

/** Joule and money spend of every link. */
async function spends(p: Point, chain: readonly Minted[]): Promise<Array<[bigint, bigint]>> {
  return Promise.all(chain.map(async (m) => [await p.spent(m.grant_id), await p.spentFunds(m.grant_id)] as [bigint, bigint]));
}

/**
 * Decides and checks what every decision owes: the receipt verifies under the steward and says the same verdict and
 * reason; a deny moves neither the joule nor the money spend of any link (jcp §4.8 "on any deny, debit neither").
 */
async function decideChecked(p: Point, chain: readonly Minted[], r: DecideFields): Promise<DecisionResult> {
  const before = await spends(p, chain);
  const d = await p.decide(r);
  const core = await implementation().verifyReceipt(d.receipt, steward.did);
  expect([core['verdict'], core['deny_reason']]).toEqual([d.verdict, d.deny_reason]);
  if (d.verdict === 'deny') expect(await spends(p, chain)).toEqual(before);
  return d;
}

/** A child of `parent` signed by `signer` exactly as given: how an attacker presents an amplifying money ceiling. */
function rawChild(parent: Minted, signer: KeyPair, funds: Grant['budget_funds'] | 'drop', label: string): Promise<Minted> {
  const p = grantOf(parent).grant;
  const g: Grant = {
    issuer: signer.did,
    subject: carol.did,
    capability: p.capability,
    budget_uj: p.budget_uj,
    expiry: p.expiry,
    parent: idOf(parent),
    nonce: nonce(`money-raw-${label}`),
    ...(funds !== 'drop' && funds !== undefined ? { budget_funds: funds } : {}),
  };
  // signed exactly as given, by the implementation under test in its own layout (grant.forge)
  return implementation().forgeGrant(signer.seed, g);
}

describe('jcp §4.8 absent money ceiling', () => {
  clauseIt(['jcp/4#absent-optional-omitted'], 'a grant with no money ceiling is byte-identical to a joules-only grant built from the baseline fields', async () => {
    const m = await rootGrant({ nonce: nonce('joules-only') });
    // the grant as it was before §4.8 existed: the six baseline fields, canonical CBOR, alice's Ed25519 signature
    // (deterministic, RFC 8032) over those bytes — built here field by field, not by the implementation's encoder
    const baseline = encodeCanonical({
      issuer: alice.did,
      subject: bob.did,
      capability: { resource: TOOL, actions: ['call', 'read'] },
      budget_uj: 1000n,
      expiry: 0n,
      nonce: nonce('joules-only'),
    });
    const expected = encodeCanonical({ grant: decodeCanonical(baseline), signature: defaultEd25519().sign(alice.seed, baseline) });
    expect(toHex(m.signed_grant)).toBe(toHex(expected));
    // a plain attenuation of it names no money ceiling either: nothing is invented for the child
    const child = await implementation().attenuate(m.signed_grant, bob.seed, { subject: carol.did, nonce: nonce('joules-only-child') });
    expect(grantOf(child).grant).not.toHaveProperty('budget_funds');
  });
});

describe('jcp §4.8 priced decisions', () => {
  clauseIt(['jcp/4.8#grant-may-carry-money-ceiling', 'jcp/4.8#priced-decision-both-ceilings', 'jcp/9#c22-dual-ceilings', 'jcp/7#debit-on-allow'], 'a money ceiling is signed into the grant and bounds priced spend; allow debits both, deny neither', async () => {
    const g = await rootGrant({ budget_uj: 1000n, budget_funds: usd(100n), nonce: nonce('money-single') });
    expect(grantOf(g).grant.budget_funds).toEqual(usd(100n));
    // the ceiling is part of the signed bytes: a grant without it has another id
    expect(g.grant_id).not.toBe((await rootGrant({ budget_uj: 1000n, nonce: nonce('money-single') })).grant_id);
    const p = await point();
    expect((await decideChecked(p, [g], priced([g], 10n, usd(60n)))).verdict).toBe('allow');
    expect(await spends(p, [g])).toEqual([[10n, 60n]]);
    // 60 + 50 > 100: funds-exceeded, and nothing moves
    expect((await decideChecked(p, [g], priced([g], 10n, usd(50n)))).deny_reason).toBe('funds-exceeded');
    expect(await spends(p, [g])).toEqual([[10n, 60n]]);
    // 60 + 40 = 100: exactly at the ceiling is within it
    expect((await decideChecked(p, [g], priced([g], 10n, usd(40n)))).verdict).toBe('allow');
    expect(await spends(p, [g])).toEqual([[20n, 100n]]);
    // the money is spent; the joules still have room, but a priced call of any positive amount is refused
    expect((await decideChecked(p, [g], priced([g], 1n, usd(1n)))).deny_reason).toBe('funds-exceeded');
    expect(await spends(p, [g])).toEqual([[20n, 100n]]);
  });

  // For the kill matrix: the two-phase metered path (§4.9) — a priced request authorized, then denied at the debit
  // point (a measured cost past MaxCostUj). §9 C22: "a deny debits neither"; §4.9 still debits the breach's joules
  // ("energy that was spent is always accounted"), so the reading taken is that only the money stays put, and only the
  // money is asserted here (the joule side is caveats.test.ts's).
  clauseIt(['jcp/9#c22-dual-ceilings', 'jcp/4.8#priced-decision-both-ceilings'], 'a priced request denied at the debit point (settle) moves no money; one allowed there debits its price', async () => {
    const g = await rootGrant({ budget_uj: 1000n, budget_funds: usd(100n), caveats: [{ MaxCostUj: 10n }], nonce: nonce('money-settle') });
    const p = await point();
    // within MaxCostUj at settle: allowed, and the price is debited then
    const a1 = await p.authorize(priced([g], 5n, usd(30n)));
    if (a1.verdict !== 'authorized') throw new Error(`not authorized: ${a1.deny_reason}`);
    expect(await p.spentFunds(g.grant_id)).toBe(0n); // authorization debits nothing
    expect((await p.settle(a1.ticket, cost(8n), NOW)).verdict).toBe('allow');
    expect(await p.spentFunds(g.grant_id)).toBe(30n);
    // past MaxCostUj at settle: denied there, and not one minor unit more is spent
    const a2 = await p.authorize(priced([g], 5n, usd(30n)));
    if (a2.verdict !== 'authorized') throw new Error(`not authorized: ${a2.deny_reason}`);
    const denied = await p.settle(a2.ticket, cost(25n), NOW);
    expect([denied.verdict, denied.deny_reason]).toEqual(['deny', 'caveat-unsatisfied']);
    expect(await p.spentFunds(g.grant_id)).toBe(30n);
  });

  clauseIt(['jcp/4.8#priced-decision-both-ceilings', 'jcp/4.8#may-deny-on-one-ceiling', 'jcp/7#debit-on-allow'], 'the ceilings are independent: each binds while the other has room, and the receipt names which', async () => {
    // joule ceiling binds, money has room
    const j = await rootGrant({ budget_uj: 100n, budget_funds: usd(1000n), nonce: nonce('joule-binds') });
    const p = await point();
    const dj = await decideChecked(p, [j], priced([j], 150n, usd(1n)));
    expect((await implementation().verifyReceipt(dj.receipt, steward.did))['deny_reason']).toBe('budget-exceeded');
    // money ceiling binds, joules have room
    const f = await rootGrant({ budget_uj: 1_000_000n, budget_funds: usd(5n), nonce: nonce('money-binds') });
    const df = await decideChecked(p, [f], priced([f], 1n, usd(6n)));
    expect((await implementation().verifyReceipt(df.receipt, steward.did))['deny_reason']).toBe('funds-exceeded');
    // an absent money ceiling is "joules alone bound this grant", not a zero ceiling: a priced call is allowed
    const none = await rootGrant({ budget_uj: 100n, nonce: nonce('no-money') });
    expect((await decideChecked(p, [none], priced([none], 10n, usd(1_000_000n)))).verdict).toBe('allow');
    expect(await p.spent(none.grant_id)).toBe(10n);
    expect((await decideChecked(p, [none], priced([none], 91n, usd(0n)))).deny_reason).toBe('budget-exceeded');
  });

  clauseIt(['jcp/4.8#no-exchange-rate', 'jcp/4.8#priced-decision-both-ceilings', 'jcp/7#debit-on-allow'], 'a cost in another currency is refused currency-mismatch, never converted, whatever its amount', async () => {
    const g = await rootGrant({ budget_funds: usd(100n), nonce: nonce('currency') });
    const p = await point();
    // any rate would let 1 EUR cent fit under 100 US cents; none may be assumed
    for (const minor of [0n, 1n, 99n, 1000n]) {
      expect((await decideChecked(p, [g], priced([g], 1n, eur(minor)))).deny_reason, `EUR ${minor}`).toBe('currency-mismatch');
    }
    // currency codes are compared exactly: 'usd' is not 'USD'
    expect((await decideChecked(p, [g], priced([g], 1n, { currency: 'usd', minor: 1n }))).deny_reason).toBe('currency-mismatch');
    expect(await spends(p, [g])).toEqual([[0n, 0n]]);
    expect((await decideChecked(p, [g], priced([g], 1n, usd(1n)))).verdict).toBe('allow');
  });
});

describe('jcp §4.8 money across a chain', () => {
  clauseIt(['jcp/4.8#priced-decision-both-ceilings', 'jcp/4.8#child-money-not-amplify', 'jcp/9#c22-dual-ceilings', 'jcp/7#debit-on-allow'], "siblings share their parent's money as they share its joules; the parent's ceiling bounds the child's spend", async () => {
    const root = await rootGrant({ budget_uj: 1000n, budget_funds: usd(100n), nonce: nonce('money-chain-root') });
    // plain attenuations: each child inherits USD 100 unchanged
    const c1 = await implementation().attenuate(root.signed_grant, bob.seed, { subject: carol.did, nonce: nonce('money-c1') });
    const c2 = await implementation().attenuate(root.signed_grant, bob.seed, { subject: dave.did, nonce: nonce('money-c2') });
    expect(grantOf(c1).grant.budget_funds).toEqual(usd(100n));
    const p = await point();
    expect((await decideChecked(p, [root, c1], priced([root, c1], 10n, usd(70n)))).verdict).toBe('allow');
    expect(await spends(p, [root, c1])).toEqual([[10n, 70n], [10n, 70n]]);
    // c2's own ceiling has room for 40, the root's does not: denied, and no link of the chain moves
    expect((await decideChecked(p, [root, c2], priced([root, c2], 10n, usd(40n)))).deny_reason).toBe('funds-exceeded');
    expect(await spends(p, [root, c1, c2])).toEqual([[10n, 70n], [10n, 70n], [0n, 0n]]);
    expect((await decideChecked(p, [root, c2], priced([root, c2], 10n, usd(30n)))).verdict).toBe('allow');
    expect(await spends(p, [root, c1, c2])).toEqual([[20n, 100n], [10n, 70n], [10n, 30n]]);
    // a child narrowed in money is bound by its own ceiling before the parent's runs out
    const narrow = await implementation().attenuate(root.signed_grant, bob.seed, { subject: carol.did, budget_funds: usd(20n), nonce: nonce('money-narrow') });
    const q = await point();
    expect((await decideChecked(q, [root, narrow], priced([root, narrow], 1n, usd(21n)))).deny_reason).toBe('funds-exceeded');
    expect((await decideChecked(q, [root, narrow], priced([root, narrow], 1n, usd(20n)))).verdict).toBe('allow');
  });

  clauseIt(['jcp/4.8#priced-decision-both-ceilings', 'jcp/7#debit-on-allow'], 'a priced chained decision applies the joule ceilings first, then the money ceiling of each link', async () => {
    // jcp §4.2: "the joule ceilings first, then the money ceiling of each link that has one"
    const root = await rootGrant({ budget_uj: 100n, budget_funds: usd(10n), nonce: nonce('order-root') });
    const child = await implementation().attenuate(root.signed_grant, bob.seed, { subject: carol.did, nonce: nonce('order-child') });
    const p = await point();
    // both ceilings exceeded: the joule one is named
    expect((await decideChecked(p, [root, child], priced([root, child], 101n, usd(11n)))).deny_reason).toBe('budget-exceeded');
    // joules exceeded and the currency foreign: still the joule ceiling first
    expect((await decideChecked(p, [root, child], priced([root, child], 101n, eur(1n)))).deny_reason).toBe('budget-exceeded');
    expect((await decideChecked(p, [root, child], priced([root, child], 100n, usd(11n)))).deny_reason).toBe('funds-exceeded');
  });
});

describe('jcp §4.8 attenuation of the money ceiling', () => {
  clauseIt(['jcp/4.8#child-money-not-amplify', 'jcp/4.8#drop-raise-redenominate-refused'], "attenuation refuses to raise or re-denominate a bounded parent's money ceiling; narrowing and inheriting are allowed", async () => {
    const root = await rootGrant({ budget_funds: usd(100n), nonce: nonce('att-money') });
    const att = (funds: { currency: string; minor: bigint } | undefined, label: string) =>
      implementation().attenuate(root.signed_grant, bob.seed, { subject: carol.did, nonce: nonce(`att-money-${label}`), ...(funds ? { budget_funds: funds } : {}) });
    await expectCode(att(usd(101n), 'raise'), 'ERR_ATTENUATION_VIOLATION');
    await expectCode(att(eur(50n), 'eur'), 'ERR_ATTENUATION_VIOLATION');
    await expectCode(att({ currency: 'usd', minor: 50n }, 'lower-case'), 'ERR_ATTENUATION_VIOLATION');
    expect(grantOf(await att(usd(100n), 'equal')).grant.budget_funds).toEqual(usd(100n));
    expect(grantOf(await att(usd(40n), 'narrow')).grant.budget_funds).toEqual(usd(40n));
    // a plain attenuation inherits the ceiling unchanged — never silently dropped
    expect(grantOf(await att(undefined, 'plain')).grant.budget_funds).toEqual(usd(100n));
    // an unbounded parent may have a money-bounded child: it only adds a constraint
    const unbounded = await rootGrant({ nonce: nonce('att-unbounded') });
    const bounded = await implementation().attenuate(unbounded.signed_grant, bob.seed, { subject: carol.did, budget_funds: eur(7n), nonce: nonce('att-bounded') });
    expect(grantOf(bounded).grant.budget_funds).toEqual(eur(7n));
  });

  clauseIt(['jcp/4.8#child-money-not-amplify', 'jcp/4.8#drop-raise-redenominate-refused', 'jcp/7#debit-on-allow'], 'a chain whose child dropped, raised or re-denominated the money ceiling is denied attenuation-violation', async () => {
    const root = await rootGrant({ budget_uj: 1000n, budget_funds: usd(100n), nonce: nonce('raw-money-root') });
    const p = await point();
    for (const [label, funds] of [['drop', 'drop'], ['raise', usd(101n)], ['redenominate', eur(100n)]] as const) {
      const child = await rawChild(root, bob, funds, label);
      if (funds === 'drop') expect(grantOf(child).grant).not.toHaveProperty('budget_funds');
      // unpriced and priced alike: the chain itself does not verify
      expect((await decideChecked(p, [root, child], priced([root, child], 1n))).deny_reason, label).toBe('attenuation-violation');
      expect((await decideChecked(p, [root, child], priced([root, child], 1n, usd(1n)))).deny_reason, label).toBe('attenuation-violation');
    }
    // the same hop, narrowing honestly, is allowed
    const honest = await rawChild(root, bob, usd(100n), 'honest');
    expect((await decideChecked(p, [root, honest], priced([root, honest], 1n, usd(1n)))).verdict).toBe('allow');
  });
});

const holders = [bob, carol, dave, key('erin'), key('frank'), key('grace')];

/** One attempted attenuation: which node to extend, the child's joule budget and its money ceiling. */
const stepArb = fc.record({
  parent: fc.nat(),
  budget: fc.oneof({ weight: 3, arbitrary: fc.integer({ min: 0, max: 100 }).map((pct) => ({ pct })) }, { weight: 1, arbitrary: fc.bigInt({ min: 0n, max: 3000n }).map((uj) => ({ uj })) }),
  funds: fc.oneof(
    { weight: 2, arbitrary: fc.constant({ inherit: true as const }) },
    { weight: 2, arbitrary: fc.integer({ min: 0, max: 100 }).map((pct) => ({ pct })) },
    { weight: 1, arbitrary: fc.bigInt({ min: 0n, max: 500n }).map((minor) => ({ minor })) },
    { weight: 1, arbitrary: fc.constant({ foreign: true as const }) },
  ),
});
const spendArb = fc.record({ node: fc.nat(), uj: fc.bigInt({ min: 0n, max: 400n }), minor: fc.bigInt({ min: 0n, max: 60n }) });

describe('jcp §4.8 properties', () => {
  clauseIt(['jcp/4.8#child-money-not-amplify', 'jcp/4.8#priced-decision-both-ceilings', 'jcp/7#debit-on-allow'], 'no sequence of attenuations lets the total allowed spend exceed the root budget, in joules and in money', async () => {
    const ROOT_UJ = 1000n;
    const ROOT_MINOR = 200n;
    let allowed = 0;
    let minted = 0;
    await assertProperty(
      fc.asyncProperty(fc.array(stepArb, { minLength: 1, maxLength: 6 }), fc.array(spendArb, { minLength: 1, maxLength: 10 }), async (steps, spendsDrawn) => {
        const root = await rootGrant({ budget_uj: ROOT_UJ, budget_funds: usd(ROOT_MINOR), nonce: nonce('money-prop-root') });
        // every node is a chain, root first; children are attenuated from any node so far (a tree, siblings included)
        const nodes: Minted[][] = [[root]];
        for (const [i, s] of steps.entries()) {
          const chain = nodes[s.parent % nodes.length]!;
          const parent = chain[chain.length - 1]!;
          const pg = grantOf(parent).grant;
          const holder = holders.find((h) => h.did === pg.subject)!;
          const next = holders[(holders.indexOf(holder) + 1) % holders.length]!;
          const budget_uj = 'uj' in s.budget ? s.budget.uj : (pg.budget_uj * BigInt(s.budget.pct)) / 100n;
          const pf = pg.budget_funds!;
          const f = s.funds;
          const budget_funds = 'inherit' in f ? undefined : 'foreign' in f ? eur(1n) : 'minor' in f ? usd(f.minor) : usd((pf.minor * BigInt(f.pct)) / 100n);
          try {
            const child = await implementation().attenuate(parent.signed_grant, holder.seed, {
              subject: next.did,
              budget_uj,
              nonce: nonce(`money-prop-${i}`),
              ...(budget_funds ? { budget_funds } : {}),
            });
            const cg = grantOf(child).grant;
            // whatever was accepted narrows on both axes, read from the returned bytes
            expect(cg.budget_uj <= pg.budget_uj).toBe(true);
            expect(cg.budget_funds?.currency).toBe('USD');
            expect(cg.budget_funds!.minor <= pf.minor).toBe(true);
            nodes.push([...chain, child]);
            minted++;
          } catch (e) {
            // the only refusal an honest holder meets is an amplification, on joules or money
            await expectCode(Promise.reject(e), 'ERR_ATTENUATION_VIOLATION');
            expect(budget_uj > pg.budget_uj || (budget_funds !== undefined && (budget_funds.currency !== 'USD' || budget_funds.minor > pf.minor))).toBe(true);
          }
        }
        const p = await point();
        let uj = 0n;
        let minor = 0n;
        for (const sp of spendsDrawn) {
          const chain = nodes[sp.node % nodes.length]!;
          const d = await p.decide(priced(chain, sp.uj, usd(sp.minor)));
          if (d.verdict === 'allow') {
            uj += sp.uj;
            minor += sp.minor;
            allowed++;
          } else expect(['budget-exceeded', 'funds-exceeded']).toContain(d.deny_reason);
        }
        // total allowed spend never passes the root, on either axis, and the root's ledger holds exactly that total
        expect(uj <= ROOT_UJ && minor <= ROOT_MINOR, `allowed ${uj} µJ and ${minor} minor`).toBe(true);
        expect(await p.spent(root.grant_id)).toBe(uj);
        expect(await p.spentFunds(root.grant_id)).toBe(minor);
      }),
      fcParams(40),
    );
    // not vacuous: children were minted and spends allowed
    expect(minted).toBeGreaterThan(0);
    expect(allowed).toBeGreaterThan(0);
  });
});
