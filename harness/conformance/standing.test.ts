// Conformance: jcp §4.6 standing grants (C20). A mint policy signed by the grant's issuer never amplifies its grant;
// each firing mints a strictly weaker child that chain-verifies to the standing grant; the wrong event class, an
// exhausted firing count and a firing past the cumulative budget are refused without advancing the mint ledger.
// Grants, policies and children are made by the implementation under test; the oracle checks byte shapes and
// signatures (impl/jcp/standing.ts's header fixes the policy's shape) and crafts the policies no honest author signs.
import fc from 'fast-check';
import { describe, expect } from 'vitest';
import { implementation } from '../driver.ts';
import type { Minted, Point } from '../implementation.ts';
import {
  decodeCanonical,
  decodeSignedMintPolicy,
  defaultEd25519,
  encodeCanonical,
  eventClassId,
  grantId,
  mintPolicyBytes,
  mintPolicyId,
  narrowingFault,
  publicKeyFromDid,
  signedMintPolicyToCbor,
  type MintPolicy,
} from '../oracle.ts';
import { clauseIt } from '../clause.ts';
import { refusalJudge } from '../contract-codes.ts';
import { assertProperty, codeOf, expectCode } from '../refusal.ts';
import { fcParams } from '../external-vectors.ts';
import { alice, bob, carol, cost, frameFor, grantOf, mallory, nonce, point, rootGrant, steward } from '../fixtures.ts';

const NOT_AMPLIFY = 'jcp/4.6#policy-not-amplify';
const C20 = 'jcp/9#c20-standing'; // §9: firing mints a strictly weaker child; wrong class, exhausted, past budget refused, ledger unchanged
const PUSH = () => eventClassId({ source: 'github', event: 'push' });
const ISSUE = () => eventClassId({ source: 'github', event: 'issue' });
const NOW = 100n;

/** alice's 1000 µJ standing grant held by bob, the automation that fires it. */
const standingGrant = (label: string): Promise<Minted> => rootGrant({ budget_uj: 1000n, expiry: 5000n, nonce: nonce(`standing-${label}`) });
const author = (g: Minted, per_firing_uj: bigint, max_firings: bigint, issuer = alice) =>
  implementation().authorPolicy(issuer.seed, g.signed_grant, { event_class: PUSH(), per_firing_uj, max_firings });
/** A policy signed by the oracle exactly as given, past any author-time check. */
const rawPolicy = (p: MintPolicy, signer = alice): Uint8Array =>
  encodeCanonical(signedMintPolicyToCbor({ policy: p, signature: defaultEd25519().sign(signer.seed, mintPolicyBytes(p)) }));
const fire = (p: Point, g: Minted, policy: Uint8Array, i: number, event_class = PUSH()) =>
  implementation().fire(p, { policy, grant: g.signed_grant, holder_seed: bob.seed, event_class, child: { subject: carol.did, nonce: nonce(`firing-${i}`) } });
const ledger = (p: Point, policy: Uint8Array, g: Minted) => implementation().mintLedger(p, mintPolicyId(decodeSignedMintPolicy(policy).policy), g.grant_id);

describe('jcp §4.6 standing grants', () => {
  clauseIt([NOT_AMPLIFY], 'a policy is bound to its grant by id, signed by its issuer, over the named bounds', async () => {
    const g = await standingGrant('shape');
    const { signed_policy, policy_id } = await author(g, 300n, 5n);
    const sp = decodeSignedMintPolicy(signed_policy);
    expect(sp.policy).toEqual({ grant_id: g.grant_id, issuer: alice.did, event_class: PUSH(), per_firing_uj: 300n, max_firings: 5n });
    expect(policy_id).toBe(mintPolicyId(sp.policy));
    const raw = (decodeCanonical(signed_policy) as Map<string, unknown>).get('policy');
    expect(defaultEd25519().verify(sp.signature, encodeCanonical(raw as never), publicKeyFromDid(alice.did))).toBe(true);
    // only the grant's issuer may author one
    await expectCode(author(g, 300n, 5n, bob), 'ERR_MINT_POLICY_UNAUTHORIZED');
  });

  clauseIt([NOT_AMPLIFY], 'a policy that would amplify its grant is refused at author time, and at firing time when crafted', async () => {
    const g = await standingGrant('amplify');
    // jcp §4.6: "the per-firing budget (a slice no larger than the grant's budget)"
    await expectCode(author(g, 1001n, 1n), 'ERR_MINT_POLICY_AMPLIFIES');
    expect(await codeOf(author(g, 1000n, 1n))).toBe('accepted');
    // a policy over a leaf-only grant would mint children its grant forbids (jcp §4.4)
    const leaf = await rootGrant({ budget_uj: 1000n, delegate_depth: 0n, nonce: nonce('standing-leaf') });
    await expectCode(author(leaf, 10n, 1n), 'ERR_MINT_POLICY_AMPLIFIES');
    // an amplifying policy signed past the author, presented to a mint ledger, mints nothing
    const p = await point();
    const crafted = rawPolicy({ grant_id: g.grant_id, issuer: alice.did, event_class: PUSH(), per_firing_uj: 1001n, max_firings: 1n });
    await expectCode(fire(p, g, crafted, 1), 'ERR_MINT_POLICY_AMPLIFIES');
    expect(await ledger(p, crafted, g)).toEqual({ firings: 0n, cumulative_uj: 0n });
    // and so does one signed by someone other than the grant's issuer
    const foreign = rawPolicy({ grant_id: g.grant_id, issuer: mallory.did, event_class: PUSH(), per_firing_uj: 10n, max_firings: 1n }, mallory);
    await expectCode(fire(p, g, foreign, 2), 'ERR_MINT_POLICY_UNAUTHORIZED');
    expect(await ledger(p, foreign, g)).toEqual({ firings: 0n, cumulative_uj: 0n });
  });

  clauseIt([C20], 'a firing mints a strictly weaker child that chain-verifies to the standing grant and is allowed', async () => {
    const g = await standingGrant('fire');
    const { signed_policy } = await author(g, 300n, 5n);
    const p = await point();
    const child = await fire(p, g, signed_policy, 1);
    const c = grantOf(child).grant;
    expect(child.grant_id).toBe(grantId(c));
    expect([c.parent, c.issuer, c.subject, c.budget_uj, c.expiry]).toEqual([g.grant_id, bob.did, carol.did, 300n, 5000n]);
    expect(narrowingFault(grantOf(g).grant, c)).toBeUndefined();
    expect(await ledger(p, signed_policy, g)).toEqual({ firings: 1n, cumulative_uj: 300n });
    // the child decides allow at an enforcement point with the chain [standing, child], and its receipt traces back
    const d = await p.decide({ frame: frameFor(child), chain: [g.signed_grant, child.signed_grant], caller: carol.did, cost: cost(300n), now_s: NOW });
    expect(d.verdict).toBe('allow');
    const core = await implementation().verifyReceipt(d.receipt, steward.did);
    expect(core['chain_ids']).toEqual([g.grant_id, child.grant_id]);
    // and, being a delegated grant, never alone
    const alone = await p.decide({ frame: frameFor(child), chain: [child.signed_grant], caller: carol.did, cost: cost(1n), now_s: NOW });
    expect(alone.deny_reason).toBe('chain-broken');
  });

  clauseIt([C20], 'the wrong event class, an exhausted count and a firing past the budget are refused, the ledger unchanged', async () => {
    const g = await standingGrant('refusals');
    const { signed_policy } = await author(g, 300n, 5n);
    const p = await point();
    await expectCode(fire(p, g, signed_policy, 1, ISSUE()), 'ERR_FIRING_WRONG_EVENT_CLASS');
    expect(await ledger(p, signed_policy, g)).toEqual({ firings: 0n, cumulative_uj: 0n });
    for (let i = 2; i <= 4; i++) await fire(p, g, signed_policy, i);
    expect(await ledger(p, signed_policy, g)).toEqual({ firings: 3n, cumulative_uj: 900n });
    // a fourth 300 µJ child would take a 1000 µJ grant to 1200, though the policy allows five firings
    await expectCode(fire(p, g, signed_policy, 5), 'ERR_FIRING_OVER_BUDGET');
    expect(await ledger(p, signed_policy, g)).toEqual({ firings: 3n, cumulative_uj: 900n });

    const g2 = await standingGrant('exhausted');
    const two = (await author(g2, 100n, 2n)).signed_policy;
    await fire(p, g2, two, 6);
    await fire(p, g2, two, 7);
    await expectCode(fire(p, g2, two, 8), 'ERR_FIRINGS_EXHAUSTED');
    expect(await ledger(p, two, g2)).toEqual({ firings: 2n, cumulative_uj: 200n });
  });

  clauseIt([NOT_AMPLIFY, C20], 'property: no sequence of firings mints past the standing grant or its firing count', async () => {
    const events = fc.array(fc.boolean(), { maxLength: 10 });
    let run = 0;
    const judge = refusalJudge();
    await assertProperty(
      fc.asyncProperty(fc.bigInt(0n, 1000n), fc.bigInt(0n, 6n), events, async (per_firing_uj, max_firings, rights) => {
        const g = await standingGrant(`property-${run++}`);
        const { signed_policy } = await author(g, per_firing_uj, max_firings);
        const p = await point();
        let minted = 0n;
        let firings = 0n;
        for (const [i, right] of rights.entries()) {
          const before = await ledger(p, signed_policy, g);
          const code = await codeOf(
            fire(p, g, signed_policy, i, right ? PUSH() : ISSUE()).then((m) => {
              minted += grantOf(m).grant.budget_uj;
              firings += 1n;
            }),
          );
          // each refusal (spec) with the suite's code for why (byte contract)
          if (!right) judge(code, 'ERR_FIRING_WRONG_EVENT_CLASS', `firing ${i} on the wrong event class`);
          else if (firings === before.firings) {
            // refused: exactly because the count or the budget would be passed
            const exhausted = before.firings >= max_firings;
            const over = before.cumulative_uj + per_firing_uj > 1000n;
            const what = `firing ${i} after ${before.firings} of ${max_firings}, ${before.cumulative_uj} + ${per_firing_uj} of 1000 µJ`;
            if (exhausted || over) judge(code, exhausted ? 'ERR_FIRINGS_EXHAUSTED' : 'ERR_FIRING_OVER_BUDGET', what);
            else expect(code, what).toBe('accepted');
            expect(exhausted || over, `${what}: refused only when the count or the budget would be passed`).toBe(true);
          }
          if (code !== 'accepted') expect(await ledger(p, signed_policy, g)).toEqual(before);
          expect(await ledger(p, signed_policy, g)).toEqual({ firings, cumulative_uj: minted });
        }
        expect(minted).toBeLessThanOrEqual(1000n);
        expect(firings).toBeLessThanOrEqual(max_firings);
      }),
      fcParams(30),
    );
  }, 60_000);
});
