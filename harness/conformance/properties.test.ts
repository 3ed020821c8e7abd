// Conformance properties over random inputs (fast-check, fixed seed; FC_SEED/FC_RUNS replay a failure):
// attenuation never amplifies (C2), siblings never spend past their root (C7), a denied call never debits (C3),
// flipping any byte of a signed grant fails verification (C1).
import fc from 'fast-check';
import { describe, expect } from 'vitest';
import {
  attenuate,
  decodeSignedGrant,
  encodeCanonical,
  grantId,
  isJcpError,
  signedGrantToCbor,
  verifyGrantSignature,
  type Caveat,
  type DecisionRequest,
  type SignedGrant,
} from '../../impl/index.ts';
import { clauseIt } from '../clause.ts';
import { fcParams } from '../external-vectors.ts';
import { bob, carol, cost, dave, frameFor, key, mallory, nonce, payload, point, rootGrant } from '../fixtures.ts';

const ACTIONS = ['call', 'read', 'write', 'delete'];
const holders = [bob, carol, dave, key('erin'), key('frank')];

/** One attempted attenuation step: who tries, which actions, budget, expiry and depth. */
const stepArb = fc.record({
  byHolder: fc.boolean(),
  actions: fc.subarray(ACTIONS, { minLength: 1 }),
  budget: fc.bigInt({ min: 0n, max: 3000n }),
  expiry: fc.constantFrom(0n, 500n, 1000n, 2000n, 4000n),
  depth: fc.option(fc.bigInt({ min: 0n, max: 4n }), { nil: undefined }),
  addCaveat: fc.boolean(),
});

describe('properties', () => {
  clauseIt(['jcp/4.1#refuse-amplification', 'jcp/4.1#child-strictly-weaker'], 'attenuation never amplifies over random chains', () => {
    fc.assert(
      fc.property(fc.array(stepArb, { minLength: 1, maxLength: 6 }), fc.constantFrom(0n, 2000n), fc.option(fc.bigInt({ min: 0n, max: 5n }), { nil: undefined }), (steps, rootExpiry, rootDepth) => {
        let chain: SignedGrant[] = [rootGrant({ expiry: rootExpiry, nonce: nonce('prop-root'), ...(rootDepth !== undefined ? { delegate_depth: rootDepth } : {}) })];
        steps.forEach((s, i) => {
          const parent = chain[chain.length - 1]!;
          const holderIdx = holders.findIndex((h) => h.did === parent.grant.subject);
          const who = s.byHolder ? holders[holderIdx]! : mallory;
          const extra: Caveat[] = s.addCaveat ? [{ MaxCostUj: s.budget }] : [];
          try {
            const child = attenuate(parent, who, {
              subject: holders[(holderIdx + 1) % holders.length]!.did,
              actions: s.actions,
              budget_uj: s.budget,
              expiry: s.expiry,
              ...(s.depth !== undefined ? { delegate_depth: s.depth } : {}),
              add_caveats: extra,
              nonce: nonce(`prop-${i}`),
            });
            // whatever was accepted narrows the parent on every axis, checked here independently of the implementation
            const p = parent.grant;
            const c = child.grant;
            expect(who.did).toBe(p.subject);
            expect(c.capability.actions.every((a) => p.capability.actions.includes(a))).toBe(true);
            expect(c.budget_uj <= p.budget_uj).toBe(true);
            if (p.expiry !== 0n) expect(c.expiry !== 0n && c.expiry <= p.expiry).toBe(true);
            if (p.delegate_depth !== undefined) {
              expect(p.delegate_depth > 0n).toBe(true);
              expect(c.delegate_depth !== undefined && c.delegate_depth < p.delegate_depth).toBe(true);
            }
            expect((c.caveats ?? []).length >= (p.caveats ?? []).length).toBe(true);
            chain = [...chain, child];
          } catch (e) {
            expect(isJcpError(e)).toBe(true);
            const code = (e as { code: string }).code;
            expect(['ERR_ATTENUATION_VIOLATION', 'ERR_NOT_HOLDER', 'ERR_DELEGATION_FORBIDDEN']).toContain(code);
          }
        });
        // the chain that was built verifies, and can never spend more than its root
        const leaf = chain[chain.length - 1]!;
        const ep = point();
        const d = ep.decide({ frame: frameFor(leaf, { action: leaf.grant.capability.actions[0]! }), chain, caller: leaf.grant.subject, cost: cost(leaf.grant.budget_uj + 1n), now_s: 1n });
        expect(d.verdict).toBe('deny');
        expect(ep.spent(grantId(chain[0]!.grant))).toBe(0n);
      }),
      fcParams(150),
    );
  });

  clauseIt(['jcp/4.2#sibling-conservation', 'jcp/7#budget-exceeded'], 'siblings never spend past their root', () => {
    fc.assert(
      fc.property(
        fc.array(fc.bigInt({ min: 1n, max: 1000n }), { minLength: 2, maxLength: 4 }),
        fc.array(fc.record({ who: fc.nat(3), uj: fc.bigInt({ min: 0n, max: 700n }) }), { minLength: 1, maxLength: 25 }),
        (budgets, spends) => {
          const root = rootGrant({ budget_uj: 1000n, nonce: nonce('sib-root') });
          const kids = budgets.map((b, i) => attenuate(root, bob, { subject: holders[1 + (i % 4)]!.did, budget_uj: b, nonce: nonce(`sib-${i}`) }));
          const ep = point();
          let allowed = 0n;
          const perKid = kids.map(() => 0n);
          for (const s of spends) {
            const i = s.who % kids.length;
            const k = kids[i]!;
            const d = ep.decide({ frame: frameFor(k), chain: [root, k], caller: k.grant.subject, cost: cost(s.uj), now_s: 1n });
            if (d.verdict === 'allow') {
              allowed += s.uj;
              perKid[i]! += s.uj;
            }
          }
          const rootSpent = ep.spent(grantId(root.grant));
          expect(rootSpent).toBe(allowed);
          expect(rootSpent <= 1000n).toBe(true);
          kids.forEach((k, i) => {
            expect(ep.spent(grantId(k.grant))).toBe(perKid[i]);
            expect(perKid[i]! <= k.grant.budget_uj).toBe(true);
          });
        },
      ),
      fcParams(200),
    );
  });

  clauseIt(['jcp/7#budget-exceeded', 'jcp/7#debit-on-allow', 'jcp/5#debit-coupling'], 'a denied call never debits, whatever made it fail', () => {
    const root = rootGrant({ budget_uj: 500n, expiry: 100n, caveats: [{ MaxCostUj: 300n }], nonce: nonce('deny-root') });
    const kid = attenuate(root, bob, { subject: carol.did, budget_uj: 400n, nonce: nonce('deny-kid') });
    const faultArb = fc.record({
      data: fc.boolean(),
      wrongCaller: fc.boolean(),
      action: fc.constantFrom('call', 'read', 'nope'),
      uj: fc.bigInt({ min: 0n, max: 600n }),
      now: fc.constantFrom(1n, 99n, 100n, 200n),
      chained: fc.boolean(),
      badSig: fc.boolean(),
    });
    fc.assert(
      fc.property(fc.array(faultArb, { minLength: 1, maxLength: 15 }), (reqs) => {
        const ep = point();
        for (const r of reqs) {
          const chain = r.chained ? [root, kid] : [root];
          if (r.badSig) {
            const last = chain[chain.length - 1]!;
            const sig = last.signature.slice();
            sig[10]! ^= 2;
            chain[chain.length - 1] = { grant: last.grant, signature: sig };
          }
          const leaf = chain[chain.length - 1]!;
          const req: DecisionRequest = {
            frame: frameFor(leaf, { action: r.action, ...(r.data ? { trust: 'data' } : {}) }),
            chain,
            caller: r.wrongCaller ? mallory.did : leaf.grant.subject,
            cost: cost(r.uj),
            now_s: r.now,
          };
          const before = [root, kid].map((g) => ep.spent(grantId(g.grant)));
          const d = ep.decide(req);
          const after = [root, kid].map((g) => ep.spent(grantId(g.grant)));
          if (d.verdict === 'deny') expect(after).toEqual(before);
          else {
            // an allow debits exactly the cost from every link of its chain, and nothing else
            expect(after[0]).toBe(before[0]! + r.uj);
            expect(after[1]).toBe(before[1]! + (r.chained ? r.uj : 0n));
            expect(r.data || r.wrongCaller || r.badSig || r.action === 'nope' || r.now >= 100n || r.uj > 300n).toBe(false);
          }
        }
      }),
      fcParams(200),
    );
  });

  clauseIt(['jcp/4#grant-id-and-signature', 'jcp/7#bad-signature'], 'flipping any byte of a signed grant fails decoding or verification', () => {
    const sg = rootGrant({ caveats: [{ PayloadIs: payload('p') }], delegate_depth: 2n, expiry: 77n, nonce: nonce('flip') });
    const bytes = encodeCanonical(signedGrantToCbor(sg));
    fc.assert(
      fc.property(fc.nat(bytes.length - 1), fc.integer({ min: 1, max: 255 }), (i, x) => {
        const t = bytes.slice();
        t[i]! ^= x;
        let outcome: string;
        try {
          const parsed = decodeSignedGrant(t);
          outcome = verifyGrantSignature(parsed) ? 'verified' : 'refused';
        } catch (e) {
          outcome = isJcpError(e) ? 'refused' : `crash: ${String(e)}`;
        }
        expect(outcome).toBe('refused');
      }),
      fcParams(400),
    );
  });
});
