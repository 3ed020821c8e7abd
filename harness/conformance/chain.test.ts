// Conformance: jcp §4.2 chains (C7), §4.3 revocation on both paths (C6), §4.4 depth in chain verification (C10),
// §8.1 chain_ids (C16), trust roots on the chained path (C15).
import { describe, expect } from 'vitest';
import {
  attenuate,
  grantId,
  isJcpError,
  signGrant,
  verifyReceipt,
  type Caveat,
  type DecisionRequest,
  type Grant,
  type SignedGrant,
} from '../../impl/index.ts';
import { mintRevocation } from '../../impl/jcp/revocation.ts';
import { clauseIt } from '../clause.ts';
import { alice, bob, carol, cost, dave, frameFor, mallory, nonce, payload, point, rootGrant, steward, TOOL } from '../fixtures.ts';

const NOW = 1_000n;

function chainReq(chain: SignedGrant[], caller: string, over: Partial<DecisionRequest> = {}, action = 'call'): DecisionRequest {
  const leaf = chain[chain.length - 1]!;
  return { frame: frameFor(leaf, { action }), chain, caller, cost: cost(10n), now_s: NOW, ...over };
}

/** Signs a child exactly as given, bypassing attenuate's checks: how an attacker presents an amplifying chain. */
function rawChild(parent: SignedGrant, signer: typeof bob, over: Partial<Grant>): SignedGrant {
  const g: Grant = {
    issuer: signer.did,
    subject: carol.did,
    capability: parent.grant.capability,
    budget_uj: parent.grant.budget_uj,
    expiry: parent.grant.expiry,
    parent: grantId(parent.grant),
    nonce: nonce(`raw-${JSON.stringify(Object.keys(over))}`),
    ...(parent.grant.caveats ? { caveats: parent.grant.caveats } : {}),
    ...over,
  };
  return signGrant(g, signer);
}

const root = rootGrant({ budget_uj: 1000n, expiry: 5000n, nonce: nonce('chain-root') });
const mid = attenuate(root, bob, { subject: carol.did, budget_uj: 800n, nonce: nonce('mid') });
const leaf = attenuate(mid, carol, { subject: dave.did, budget_uj: 500n, nonce: nonce('leaf') });

describe('jcp §4.2 chain verification', () => {
  clauseIt(['jcp/4.2#verify-hop-by-hop', 'jcp/4.2#sibling-conservation', 'jcp/8.1#chain-ids'], 'a valid three-link chain is allowed, debits every link, and names them root first', () => {
    const p = point();
    const d = p.decide(chainReq([root, mid, leaf], dave.did, { cost: cost(100n) }));
    expect(d.verdict).toBe('allow');
    const ids = [root, mid, leaf].map((s) => grantId(s.grant));
    for (const id of ids) expect(p.spent(id)).toBe(100n);
    const { core } = verifyReceipt(d.receipt, { steward: steward.did });
    expect(core.chain_ids).toEqual(ids);
    expect(core.grant_id).toBe(ids[2]);
    expect(core.budget_remaining_uj).toBe(400n);
  });

  clauseIt(['jcp/8.1#chain-ids'], 'a single-grant receipt carries no chain_ids', () => {
    const d = point().decide({ frame: frameFor(root), chain: [root], caller: bob.did, cost: cost(1n), now_s: NOW });
    expect(d.core).not.toHaveProperty('chain_ids');
  });

  clauseIt(['jcp/4.2#broken-or-amplifying-denied', 'jcp/4.2#verify-hop-by-hop'], 'a spliced chain is denied chain-broken', () => {
    const otherRoot = rootGrant({ nonce: nonce('other-root') });
    const foreign = attenuate(otherRoot, bob, { subject: carol.did, budget_uj: 10n, nonce: nonce('foreign') });
    // foreign's parent is otherRoot, presented after root
    expect(point().decide(chainReq([root, foreign], carol.did)).deny_reason).toBe('chain-broken');
    // leaf presented without its middle link
    expect(point().decide(chainReq([root, leaf], dave.did)).deny_reason).toBe('chain-broken');
    // links out of order
    expect(point().decide(chainReq([mid, root, leaf], dave.did)).deny_reason).toBe('chain-broken');
    // a hop issued by someone other than the previous subject
    const byMallory = rawChild(root, mallory, {});
    expect(point().decide(chainReq([root, byMallory], carol.did)).deny_reason).toBe('chain-broken');
  });

  clauseIt(['jcp/4.2#broken-or-amplifying-denied', 'jcp/4.1#refuse-amplification'], 'an amplifying chain is denied attenuation-violation, on every axis', () => {
    const cases: Array<Partial<Grant>> = [
      { budget_uj: 1001n },
      { capability: { resource: TOOL, actions: ['call', 'delete'] } },
      { expiry: 5001n },
      { expiry: 0n },
    ];
    for (const over of cases) {
      const amp = rawChild(root, bob, over);
      const d = point().decide(chainReq([root, amp], carol.did));
      expect(d.deny_reason, JSON.stringify(Object.keys(over))).toBe('attenuation-violation');
    }
  });

  clauseIt(['jcp/4.2#broken-or-amplifying-denied'], 'a chain with a bad signature on any link is denied bad-signature', () => {
    for (const i of [0, 1, 2]) {
      const chain = [root, mid, leaf].map((s, j) => {
        if (j !== i) return s;
        const sig = s.signature.slice();
        sig[63]! ^= 0x01;
        return { grant: s.grant, signature: sig };
      });
      expect(point().decide(chainReq(chain, dave.did)).deny_reason).toBe('bad-signature');
    }
  });

  clauseIt(['jcp/4.2#sibling-conservation'], "siblings share their root's budget: delegation never mints joules", () => {
    const p = point();
    const s1 = attenuate(root, bob, { subject: carol.did, budget_uj: 800n, nonce: nonce('sib1') });
    const s2 = attenuate(root, bob, { subject: dave.did, budget_uj: 800n, nonce: nonce('sib2') });
    expect(p.decide(chainReq([root, s1], carol.did, { cost: cost(600n) })).verdict).toBe('allow');
    const d = p.decide(chainReq([root, s2], dave.did, { cost: cost(600n) }));
    expect(d.deny_reason).toBe('budget-exceeded');
    expect(p.spent(grantId(s2.grant))).toBe(0n);
    expect(p.spent(grantId(root.grant))).toBe(600n);
    expect(p.decide(chainReq([root, s2], dave.did, { cost: cost(400n) })).verdict).toBe('allow');
    expect(p.spent(grantId(root.grant))).toBe(1000n);
  });

  clauseIt(['jcp/7#chained-order', 'jcp/7#checks-in-order'], 'the chained path checks structure before revocation, revocation before expiry, expiry before the leaf', () => {
    const p = point();
    p.revoke(mintRevocation(alice, grantId(root.grant), nonce('co-rev')), root);
    const spliced = [root, leaf];
    expect(p.decide(chainReq(spliced, dave.did)).deny_reason).toBe('chain-broken');
    expect(p.decide(chainReq([root, mid, leaf], dave.did, { now_s: 9999n })).deny_reason).toBe('revoked');
    const q = point();
    expect(q.decide(chainReq([root, mid, leaf], mallory.did, { now_s: 9999n })).deny_reason).toBe('expired');
    expect(q.decide(chainReq([root, mid, leaf], mallory.did)).deny_reason).toBe('wrong-subject');
  });
});

describe('jcp §4.9 caveats bind on every link', () => {
  const onlyRead: Caveat = { ActionIn: ['read'] };
  const cRoot = rootGrant({ caveats: [onlyRead], nonce: nonce('cav-root') });
  const cChild = attenuate(cRoot, bob, { subject: carol.did, nonce: nonce('cav-child') });

  clauseIt(['jcp/4.2#caveats-every-link', 'jcp/4.9#caveats-all-hold'], "a chained decision enforces the root's inherited caveat", () => {
    expect(cChild.grant.caveats).toEqual([onlyRead]);
    expect(point().decide(chainReq([cRoot, cChild], carol.did, {}, 'call')).deny_reason).toBe('caveat-unsatisfied');
    expect(point().decide(chainReq([cRoot, cChild], carol.did, {}, 'read')).verdict).toBe('allow');
  });

  clauseIt(['jcp/4.9#child-carries-parent-caveats', 'jcp/4.9#drop-caveat-refused', 'jcp/4.2#broken-or-amplifying-denied'], 'a chain whose child dropped a caveat does not verify', () => {
    const dropped = rawChild(cRoot, bob, { caveats: undefined as never });
    const g = { ...dropped.grant } as Record<string, unknown>;
    delete g['caveats'];
    const stripped = signGrant(g as unknown as Grant, bob);
    expect(point().decide(chainReq([cRoot, stripped], carol.did, {}, 'call')).deny_reason).toBe('attenuation-violation');
    // and attenuate refuses to mint one: an added caveat appends, the inherited one stays
    const narrowed = attenuate(cRoot, bob, { subject: carol.did, add_caveats: [{ PayloadIs: payload('args') }], nonce: nonce('cav-add') });
    expect(narrowed.grant.caveats).toEqual([onlyRead, { PayloadIs: payload('args') }]);
  });

  clauseIt(['jcp/4.9#caveats-all-hold', 'jcp/7#open-caveat-position'], 'each caveat variant is enforced on the single-grant path', () => {
    const cases: Array<[Caveat, Partial<DecisionRequest>, boolean]> = [
      [{ PayloadIs: payload('args') }, {}, true],
      [{ PayloadIs: payload('other') }, {}, false],
      [{ CallerIs: bob.did }, {}, true],
      [{ CallerIs: carol.did }, {}, false],
      [{ NotBefore: NOW }, {}, true],
      [{ NotBefore: NOW + 1n }, {}, false],
      [{ NotAfter: NOW }, {}, true],
      [{ NotAfter: NOW - 1n }, {}, false],
      [{ MaxCostUj: 10n }, {}, true],
      [{ MaxCostUj: 9n }, {}, false],
      [{ ModelIn: [payload('model-a')] }, {}, false], // the frame names no model: fails closed
      [{ ActionIn: ['call'] }, {}, true],
    ];
    cases.forEach(([cav, over, allowed], i) => {
      const g = rootGrant({ caveats: [cav], nonce: nonce(`variant-${i}`) });
      const d = point().decide({ frame: frameFor(g), chain: [g], caller: bob.did, cost: cost(10n), now_s: NOW, ...over });
      expect(d.verdict, JSON.stringify(cav, (_k, v) => (typeof v === 'bigint' ? String(v) : v))).toBe(allowed ? 'allow' : 'deny');
      if (!allowed) expect(d.deny_reason).toBe('caveat-unsatisfied');
    });
    const m = rootGrant({ caveats: [{ ModelIn: [payload('model-a')] }], nonce: nonce('model') });
    const ok = point().decide({ frame: frameFor(m, { model: payload('model-a') }), chain: [m], caller: bob.did, cost: cost(1n), now_s: NOW });
    expect(ok.verdict).toBe('allow');
  });
});

describe('jcp §4.4 depth in chain verification', () => {
  clauseIt(['jcp/4.4#leaf-only-refused', 'jcp/4.2#broken-or-amplifying-denied'], 'a hop under a leaf-only parent is denied chain-broken', () => {
    const leafOnly = rootGrant({ delegate_depth: 0n, nonce: nonce('leaf-only') });
    const under = rawChild(leafOnly, bob, { delegate_depth: 0n });
    expect(point().decide(chainReq([leafOnly, under], carol.did)).deny_reason).toBe('chain-broken');
  });

  clauseIt(['jcp/4.4#depth-narrows'], "a child whose depth exceeds its parent's bound is denied attenuation-violation", () => {
    const d2 = rootGrant({ delegate_depth: 2n, nonce: nonce('d2') });
    for (const over of [{ delegate_depth: 2n }, { delegate_depth: 9n }]) {
      expect(point().decide(chainReq([d2, rawChild(d2, bob, over)], carol.did)).deny_reason).toBe('attenuation-violation');
    }
    const unlimitedChild = rawChild(d2, bob, {});
    const g = { ...unlimitedChild.grant } as Record<string, unknown>;
    delete g['delegate_depth'];
    expect(point().decide(chainReq([d2, signGrant(g as unknown as Grant, bob)], carol.did)).deny_reason).toBe('attenuation-violation');
  });
});

describe('jcp §4.3 revocation', () => {
  clauseIt(['jcp/4.3#subtree-dies', 'jcp/4.3#both-decision-paths', 'jcp/7#revoked'], 'a revoked ancestor kills the whole delegation subtree', () => {
    for (const [target, by] of [
      [root, alice],
      [mid, bob],
      [leaf, carol],
    ] as const) {
      const p = point();
      p.revoke(mintRevocation(by, grantId(target.grant), nonce('sub')), target);
      expect(p.decide(chainReq([root, mid, leaf], dave.did)).deny_reason).toBe('revoked');
      expect(p.spent(grantId(root.grant))).toBe(0n);
    }
  });

  clauseIt(['jcp/4.3#verify-revocation-authority', 'jcp/4.3#revoked-by-equals-issuer'], 'a forged revocation is never admitted, and the point is unchanged', () => {
    const p = point();
    const forged = [
      mintRevocation(mallory, grantId(root.grant), nonce('forge1')), // not the issuer
      mintRevocation(bob, grantId(root.grant), nonce('forge2')), // the holder is not the issuer either
      (() => {
        const r = mintRevocation(alice, grantId(root.grant), nonce('forge3'));
        const sig = r.signature.slice();
        sig[5]! ^= 4;
        return { revocation: r.revocation, signature: sig };
      })(),
      mintRevocation(alice, grantId(mid.grant), nonce('forge4')), // names another grant than the one presented
    ];
    const faults = forged.map((r) => {
      try {
        p.revoke(r, root);
        return 'admitted';
      } catch (e) {
        return isJcpError(e, 'ERR_REVOCATION_UNAUTHORIZED') ? String(e.detail?.['fault']) : 'other';
      }
    });
    expect(faults).toEqual(['not-issuer', 'not-issuer', 'signature', 'grant-id']);
    expect(p.isRevoked(grantId(root.grant))).toBe(false);
    expect(p.decide(chainReq([root, mid, leaf], dave.did)).verdict).toBe('allow');
  });
});

describe('jcp §7 trust roots on the chained path', () => {
  clauseIt(['jcp/7#unlisted-root-denied', 'jcp/7#untrusted-root'], "a chain whose root issuer is not configured for the frame's resource is denied", () => {
    expect(point({ [TOOL]: [carol.did] }).decide(chainReq([root, mid, leaf], dave.did)).deny_reason).toBe('untrusted-root');
    // a listed intermediate does not anchor authority: only the root issuer counts
    expect(point({ [TOOL]: [bob.did] }).decide(chainReq([root, mid, leaf], dave.did)).deny_reason).toBe('untrusted-root');
    expect(point({ [TOOL]: [alice.did] }).decide(chainReq([root, mid, leaf], dave.did)).verdict).toBe('allow');
  });
});
