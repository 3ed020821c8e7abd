// Conformance properties over random inputs (fast-check, fixed seed; FC_SEED/FC_RUNS replay a failure), run against
// the implementation under test: attenuation never amplifies (C2), siblings never spend past their root (C7), a
// denied call never debits (C3), flipping any byte of a signed grant fails verification (C1). Each run makes several
// protocol calls, so the run counts are modest; the seed is fixed.
import fc from 'fast-check';
import { describe, expect } from 'vitest';
import { clauseIt, contract } from '../clause.ts';
import { assertProperty } from '../refusal.ts';
import { implementation } from '../driver.ts';
import { fcParams } from '../external-vectors.ts';
import { alice, bob, carol, cost, dave, frameFor, grantOf, idOf, key, mallory, nonce, payload, point, rootGrant } from '../fixtures.ts';
import { TesteeError, type Minted } from '../implementation.ts';
import { attenuate, grantId, type CborInput, type Grant, type KeyPair } from '../oracle.ts';

const ACTIONS = ['call', 'read', 'write', 'delete'];
const holders = [bob, carol, dave, key('erin'), key('frank')];

/** The refusals an attempted attenuation may meet: amplification, a non-holder, a leaf-only parent. */
const ATTENUATION_REFUSALS = ['ERR_ATTENUATION_VIOLATION', 'ERR_NOT_HOLDER', 'ERR_DELEGATION_FORBIDDEN'];

/** The value `p` resolves to, or the code of the TesteeError it rejects with; anything else propagates. */
async function settle<T>(p: Promise<T>): Promise<{ ok: T } | { code: string }> {
  try {
    return { ok: await p };
  } catch (e) {
    if (e instanceof TesteeError) return { code: e.code };
    throw e;
  }
}

/** fc.assert for async properties; a TesteeFailure or UnimplementedError inside a run surfaces as itself. */
/** A caveat's identity for comparison: its variant and parameter as text. */
const caveatKey = (c: unknown): string => JSON.stringify(c, (_, x: unknown) => (typeof x === 'bigint' ? `${x}n` : x instanceof Uint8Array ? [...x] : x));

/** A boolean that is true one time in `n` (faults and attacks are the minority, so that enough steps succeed). */
const oneIn = (n: number): fc.Arbitrary<boolean> =>
  fc.oneof({ weight: 1, arbitrary: fc.constant(true) }, { weight: n - 1, arbitrary: fc.constant(false) });

/**
 * One attempted attenuation step: who tries, which actions, budget, expiry and depth. Three in four action sets and
 * budgets are drawn within the parent's (a subset of its actions, a percentage of its budget), so that chains grow;
 * the rest are drawn anywhere, so that amplifications are tried at every depth.
 */
const stepArb = fc.record({
  byHolder: oneIn(4).map((mallory) => !mallory),
  actions: fc.oneof(
    { weight: 3, arbitrary: fc.array(fc.boolean(), { minLength: ACTIONS.length, maxLength: ACTIONS.length }).map((keep) => ({ keep })) },
    { weight: 1, arbitrary: fc.subarray(ACTIONS, { minLength: 1 }).map((list) => ({ list })) },
  ),
  budget: fc.oneof(
    { weight: 3, arbitrary: fc.integer({ min: 0, max: 100 }).map((pct) => ({ pct })) },
    { weight: 1, arbitrary: fc.bigInt({ min: 0n, max: 3000n }).map((uj) => ({ uj })) },
  ),
  expiry: fc.constantFrom(0n, 500n, 1000n, 2000n, 4000n),
  depth: fc.option(fc.bigInt({ min: 0n, max: 4n }), { nil: undefined, freq: 2 }),
  addCaveat: fc.boolean(),
});

describe('properties', () => {
  clauseIt(['jcp/4.1#refuse-amplification', 'jcp/4.1#child-strictly-weaker', 'jcp/4.9#child-carries-parent-caveats', 'jcp/7#debit-on-allow'], 'attenuation never amplifies over random chains', async () => {
    const impl = implementation();
    // a testee that refused every attenuation would pass the per-step checks vacuously: count what was accepted
    let accepted = 0;
    await assertProperty(
      fc.asyncProperty(
        fc.array(stepArb, { minLength: 1, maxLength: 6 }),
        fc.constantFrom(0n, 2000n),
        fc.option(fc.bigInt({ min: 0n, max: 5n }), { nil: undefined, freq: 2 }),
        async (steps, rootExpiry, rootDepth) => {
          const root = await rootGrant({ expiry: rootExpiry, nonce: nonce('prop-root'), ...(rootDepth !== undefined ? { delegate_depth: rootDepth } : {}) });
          const chain: Minted[] = [root];
          for (const [i, s] of steps.entries()) {
            const parent = chain[chain.length - 1]!;
            const p: Grant = grantOf(parent).grant;
            const holderIdx = holders.findIndex((h) => h.did === p.subject);
            const who = s.byHolder ? holders[holderIdx]! : mallory;
            const subject = holders[(holderIdx + 1) % holders.length]!.did;
            const a = s.actions;
            const kept = 'keep' in a ? p.capability.actions.filter((_, j) => a.keep[j]) : [];
            const actions = 'list' in a ? a.list : kept.length > 0 ? kept : p.capability.actions.slice(0, 1);
            const budget = 'uj' in s.budget ? s.budget.uj : (p.budget_uj * BigInt(s.budget.pct)) / 100n;
            const extra: CborInput[] = s.addCaveat ? [{ MaxCostUj: budget }] : [];
            const r = await settle(
              impl.attenuate(parent.signed_grant, who.seed, {
                subject,
                actions,
                budget_uj: budget,
                expiry: s.expiry,
                ...(s.depth !== undefined ? { delegate_depth: s.depth } : {}),
                add_caveats: extra,
                nonce: nonce(`prop-${i}`),
              }),
            );
            if ('code' in r) {
              expect(ATTENUATION_REFUSALS, `step ${i} was refused with ${r.code}`).toContain(r.code);
              continue;
            }
            // whatever was accepted narrows the parent on every axis, read from the returned bytes by the oracle
            const child = r.ok;
            const c: Grant = grantOf(child).grant;
            expect(who.did).toBe(p.subject);
            expect(c.issuer).toBe(who.did);
            expect(c.subject).toBe(subject);
            expect(c.parent).toBe(parent.grant_id);
            contract(child.grant_id === grantId(c), `the child's content id ${child.grant_id} is not blake3 of its grant in the published layout`);
            expect(c.capability.resource).toBe(p.capability.resource);
            expect(c.capability.actions.every((a) => p.capability.actions.includes(a))).toBe(true);
            expect(c.budget_uj <= p.budget_uj).toBe(true);
            if (p.expiry !== 0n) expect(c.expiry !== 0n && c.expiry <= p.expiry).toBe(true);
            if (p.delegate_depth !== undefined) {
              expect(p.delegate_depth > 0n).toBe(true);
              expect(c.delegate_depth !== undefined && c.delegate_depth < p.delegate_depth).toBe(true);
            }
            expect((c.caveats ?? []).length >= (p.caveats ?? []).length).toBe(true);
            const childCaveats = new Set((c.caveats ?? []).map(caveatKey));
            for (const pc of p.caveats ?? []) expect(childCaveats.has(caveatKey(pc)), `parent caveat ${caveatKey(pc)} carried`).toBe(true);
            chain.push(child);
            accepted++;
          }
          // the chain that was built holds together, and can never spend more than its leaf (nor, so, its root)
          const leaf = chain[chain.length - 1]!;
          const lg = grantOf(leaf).grant;
          const ep = await point();
          const d = await ep.decide({
            frame: frameFor(leaf, { action: lg.capability.actions[0]! }),
            chain: chain.map((m) => m.signed_grant),
            caller: lg.subject,
            cost: cost(lg.budget_uj + 1n),
            now_s: 1n,
          });
          expect(d.verdict).toBe('deny');
          // only the cost can fail: the budget, or a cost caveat (MaxCostUj) checked before it
          expect(['budget-exceeded', 'caveat-unsatisfied']).toContain(d.deny_reason);
          expect(await ep.spent(root.grant_id)).toBe(0n);
        },
      ),
      fcParams(60),
    );
    expect(accepted, 'attenuations the implementation accepted across all runs').toBeGreaterThan(0);
  });

  clauseIt(['jcp/4.2#sibling-conservation', 'jcp/7#budget-exceeded'], 'siblings never spend past their root', async () => {
    const impl = implementation();
    const ROOT_BUDGET = 1000n;
    const root = await rootGrant({ budget_uj: ROOT_BUDGET, nonce: nonce('sib-root') });
    await assertProperty(
      fc.asyncProperty(
        fc.array(fc.bigInt({ min: 1n, max: 1000n }), { minLength: 2, maxLength: 4 }),
        fc.array(fc.record({ who: fc.nat(3), uj: fc.bigInt({ min: 0n, max: 700n }) }), { minLength: 1, maxLength: 25 }),
        async (budgets, spends) => {
          const kids: Minted[] = [];
          for (const [i, b] of budgets.entries()) {
            kids.push(await impl.attenuate(root.signed_grant, bob.seed, { subject: holders[1 + (i % 4)]!.did, budget_uj: b, nonce: nonce(`sib-${i}`) }));
          }
          const kidGrants = kids.map((k) => grantOf(k).grant);
          kidGrants.forEach((g, i) => expect(g.budget_uj).toBe(budgets[i]));
          const ep = await point();
          let allowed = 0n;
          const perKid = kids.map(() => 0n);
          for (const s of spends) {
            const i = s.who % kids.length;
            const k = kids[i]!;
            const d = await ep.decide({ frame: frameFor(k), chain: [root.signed_grant, k.signed_grant], caller: kidGrants[i]!.subject, cost: cost(s.uj), now_s: 1n });
            // nothing but the budgets can fail: allowed exactly when the cost fits both the kid and the root
            const fits = perKid[i]! + s.uj <= kidGrants[i]!.budget_uj && allowed + s.uj <= ROOT_BUDGET;
            expect(d.verdict, `spend ${s.uj} by kid ${i}`).toBe(fits ? 'allow' : 'deny');
            if (d.verdict === 'allow') {
              allowed += s.uj;
              perKid[i]! += s.uj;
            } else expect(d.deny_reason).toBe('budget-exceeded');
          }
          const rootSpent = await ep.spent(root.grant_id);
          expect(rootSpent).toBe(allowed);
          expect(rootSpent <= ROOT_BUDGET).toBe(true);
          for (const [i, k] of kids.entries()) {
            expect(await ep.spent(k.grant_id)).toBe(perKid[i]);
            expect(perKid[i]! <= kidGrants[i]!.budget_uj).toBe(true);
          }
        },
      ),
      fcParams(40),
    );
  });

  clauseIt(['jcp/7#budget-exceeded', 'jcp/7#debit-on-allow', 'jcp/5#debit-coupling'], 'a denied call never debits, whatever made it fail', async () => {
    const root = await rootGrant({ budget_uj: 500n, expiry: 100n, caveats: [{ MaxCostUj: 300n }], nonce: nonce('deny-root') });
    // the child's fields are the reference's attenuation, signed exactly as given by the implementation (grant.forge):
    // this property is about decisions, so its fixture must not depend on the implementation's own attenuation
    // (which the attenuation property checks)
    const kidSg = attenuate(grantOf(root), bob, { subject: carol.did, budget_uj: 400n, nonce: nonce('deny-kid') });
    const kid = await implementation().forgeGrant(bob.seed, { ...kidSg.grant, parent: idOf(root) });
    const rootG = grantOf(root).grant;
    const kidG = grantOf(kid).grant;
    /** The same grant with a bit of its signature flipped (signed exactly as given, then spoiled): same grant_id. */
    const spoiled = (m: Minted, signer: KeyPair): Promise<Minted> => implementation().forgeGrant(signer.seed, grantOf(m).grant, 'signature');
    const badRoot = await spoiled(root, alice);
    const badKid = await spoiled(kid, bob);
    const faultArb = fc.record({
      data: oneIn(4),
      wrongCaller: oneIn(4),
      action: fc.constantFrom('call', 'read', 'nope'),
      uj: fc.oneof(fc.bigInt({ min: 0n, max: 300n }), fc.bigInt({ min: 0n, max: 600n })),
      now: fc.constantFrom(1n, 99n, 100n, 200n),
      chained: fc.boolean(),
      badSig: oneIn(4),
    });
    await assertProperty(
      fc.asyncProperty(fc.array(faultArb, { minLength: 1, maxLength: 15 }), async (reqs) => {
        const ep = await point();
        const spent = async () => [await ep.spent(root.grant_id), await ep.spent(kid.grant_id)];
        let before = await spent();
        expect(before).toEqual([0n, 0n]);
        for (const r of reqs) {
          const chain = r.chained ? [root, r.badSig ? badKid : kid] : [r.badSig ? badRoot : root];
          const leaf = chain[chain.length - 1]!;
          const leafG = r.chained ? kidG : rootG;
          const d = await ep.decide({
            frame: frameFor(leaf, { action: r.action, ...(r.data ? { trust: 'data' } : {}) }),
            chain: chain.map((m) => m.signed_grant),
            caller: r.wrongCaller ? mallory.did : leafG.subject,
            cost: cost(r.uj),
            now_s: r.now,
          });
          const after = await spent();
          if (d.verdict === 'deny') expect(after).toEqual(before);
          else {
            // an allow debits exactly the cost from every link of its chain, and nothing else
            expect(after[0]).toBe(before[0]! + r.uj);
            expect(after[1]).toBe(before[1]! + (r.chained ? r.uj : 0n));
            expect(r.data || r.wrongCaller || r.badSig || r.action === 'nope' || r.now > 100n || r.uj > 300n).toBe(false);
          }
          // and the verdict is exactly what the faults and the budgets say, but at now = expiry, which the spec leaves
          // open (jcp/7#open-expiry-boundary: the reference counts the grant expired, now_s > expiry is acceptable too)
          const fits = before[0]! + r.uj <= rootG.budget_uj && (!r.chained || before[1]! + r.uj <= kidG.budget_uj);
          const faultless = !r.data && !r.wrongCaller && !r.badSig && r.action !== 'nope' && r.uj <= 300n;
          const expiry = r.chained && kidG.expiry < rootG.expiry ? kidG.expiry : rootG.expiry;
          if (r.now !== expiry) {
            const why = JSON.stringify(r, (_, x: unknown) => (typeof x === 'bigint' ? String(x) : x));
            expect(d.verdict, why).toBe(faultless && r.now < expiry && fits ? 'allow' : 'deny');
          }
          before = after;
        }
      }),
      fcParams(50),
    );
  });

  clauseIt(['jcp/4#grant-id-and-signature', 'jcp/7#bad-signature'], 'flipping any byte of a signed grant fails decoding or verification', async () => {
    const impl = implementation();
    const m = await rootGrant({ caveats: [{ PayloadIs: payload('p') }], delegate_depth: 2n, expiry: 77n, nonce: nonce('flip') });
    const bytes = m.signed_grant;
    // the untouched grant verifies, so a refusal below is the flip's doing
    expect(await impl.verifyGrant(bytes)).toEqual({ valid: true, grant_id: m.grant_id });
    await assertProperty(
      fc.asyncProperty(fc.nat(bytes.length - 1), fc.integer({ min: 1, max: 255 }), async (i, x) => {
        const t = bytes.slice();
        t[i]! ^= x;
        const r = await settle(impl.verifyGrant(t));
        const outcome = 'code' in r ? 'refused' : r.ok.valid ? 'verified' : 'refused';
        expect(outcome, `byte ${i} ^ ${x}`).toBe('refused');
      }),
      fcParams(200),
    );
  });
});
