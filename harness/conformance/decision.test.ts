// Conformance: jcp §7 the decision — every deny reason, in the spec's order — with §6 data/control (C4), §5/§7 debit
// on allow only (C3), trust roots (C15), and every decision sealed (C5).
import { describe, expect } from 'vitest';
import {
  grantId,
  mintGrant,
  verifyReceipt,
  type DecisionRequest,
  type Frame,
  type SignedGrant,
} from '../../impl/index.ts';
import { mintRevocation } from '../../impl/jcp/revocation.ts';
import { clauseIt } from '../clause.ts';
import { alice, bob, carol, cost, frameFor, mallory, nonce, payload, point, resource, rootGrant, steward, TOOL } from '../fixtures.ts';

const NOW = 1_000n;

function req(sg: SignedGrant, over: Partial<DecisionRequest> = {}, frame: Partial<Frame> = {}): DecisionRequest {
  return { frame: frameFor(sg, frame), chain: [sg], caller: bob.did, cost: cost(10n), now_s: NOW, ...over };
}

/** Decides on a fresh point and checks the sealed receipt says the same; returns the reason (or 'allow'). */
function outcome(r: DecisionRequest, setup?: (p: ReturnType<typeof point>) => void): string {
  const p = point();
  setup?.(p);
  const d = p.decide(r);
  const v = verifyReceipt(d.receipt, { steward: steward.did });
  expect(v.core.verdict).toBe(d.verdict);
  expect(v.core.deny_reason).toBe(d.deny_reason);
  const leafId = grantId(r.chain[r.chain.length - 1]!.grant);
  if (d.verdict === 'deny') expect(p.spent(leafId)).toBe(0n);
  return d.verdict === 'allow' ? 'allow' : d.deny_reason!;
}

describe('jcp §7 deny reasons, each reached and named exactly', () => {
  const g = rootGrant({ expiry: 2000n });

  clauseIt(['jcp/7#debit-on-allow', 'jcp/5#debit-coupling'], 'a well-formed request is allowed and debits its cost', () => {
    const p = point();
    const d = p.decide(req(g));
    expect(d.verdict).toBe('allow');
    expect(p.spent(grantId(g.grant))).toBe(10n);
    expect(d.core.budget_remaining_uj).toBe(990n);
  });

  clauseIt(['jcp/7#untrusted-control', 'jcp/6#data-frame-refused'], 'a data frame is denied untrusted-control, whatever it carries', () => {
    expect(outcome(req(g, {}, { trust: 'data' }))).toBe('untrusted-control');
    for (const kind of ['tool-call', 'tool-result', 'agent-task', 'agent-reply'] as const) {
      expect(outcome(req(g, {}, { trust: 'data', kind }))).toBe('untrusted-control');
    }
  });

  clauseIt(['jcp/7#revoked', 'jcp/4.3#both-decision-paths'], 'a revoked grant is denied revoked (direct path)', () => {
    const rev = mintRevocation(alice, grantId(g.grant), nonce('rev'));
    expect(outcome(req(g), (p) => p.revoke(rev, g))).toBe('revoked');
  });

  clauseIt(['jcp/7#untrusted-root', 'jcp/7#unlisted-root-denied', 'jcp/7#unconfigured-resource-open'], 'trust roots: open when unconfigured; once configured, only listed roots', () => {
    expect(outcome(req(g))).toBe('allow');
    expect(outcome(req(g), (p) => p.setTrustRoots(TOOL, [carol.did]))).toBe('untrusted-root');
    expect(outcome(req(g), (p) => p.setTrustRoots(TOOL, [carol.did, alice.did]))).toBe('allow');
    expect(outcome(req(g), (p) => p.setTrustRoots(TOOL, []))).toBe('untrusted-root');
    // roots of another resource do not close this one
    expect(outcome(req(g), (p) => p.setTrustRoots(resource('other'), [carol.did]))).toBe('allow');
  });

  clauseIt(['jcp/7#grant-id-mismatch'], "a frame naming another grant's id is denied wrong-resource", () => {
    const other = rootGrant({ nonce: nonce('other') });
    expect(outcome(req(g, {}, { grant_id: grantId(other.grant) }))).toBe('wrong-resource');
  });

  clauseIt(['jcp/7#wrong-subject'], "a caller other than the grant's subject is denied wrong-subject", () => {
    expect(outcome(req(g, { caller: mallory.did }))).toBe('wrong-subject');
    expect(outcome(req(g, { caller: alice.did }))).toBe('wrong-subject'); // not even the issuer
  });

  clauseIt(['jcp/7#bad-signature'], 'a grant whose issuer signature does not verify is denied bad-signature', () => {
    const sig = g.signature.slice();
    sig[7]! ^= 1;
    const tampered = { grant: g.grant, signature: sig };
    expect(outcome(req(tampered))).toBe('bad-signature');
    // mallory mints a grant naming alice as issuer: signed by the wrong key
    const forged = { grant: g.grant, signature: mintGrant(mallory, { subject: bob.did, resource: TOOL, actions: ['call'], budget_uj: 1n, nonce: nonce('f') }).signature };
    expect(outcome(req(forged))).toBe('bad-signature');
  });

  clauseIt(['jcp/7#expired', 'jcp/7#open-expiry-boundary'], 'an expired grant is denied expired; expiry 0 never expires', () => {
    expect(outcome(req(g, { now_s: 1999n }))).toBe('allow');
    expect(outcome(req(g, { now_s: 2000n }))).toBe('expired');
    expect(outcome(req(g, { now_s: 5000n }))).toBe('expired');
    const forever = rootGrant({ expiry: 0n, nonce: nonce('forever') });
    expect(outcome(req(forever, { now_s: (1n << 63n) }))).toBe('allow');
  });

  clauseIt(['jcp/7#wrong-resource'], "a frame for another resource than the capability's is denied wrong-resource", () => {
    expect(outcome(req(g, {}, { resource: resource('tool:delete-everything') }))).toBe('wrong-resource');
  });

  clauseIt(['jcp/7#action-not-granted'], 'an action outside the capability is denied action-not-granted', () => {
    expect(outcome(req(g, {}, { action: 'delete' }))).toBe('action-not-granted');
    expect(outcome(req(g, {}, { action: 'read' }))).toBe('allow');
  });

  clauseIt(['jcp/7#budget-exceeded', 'jcp/5#debit-coupling'], 'prior spend + cost > budget_uj is denied budget-exceeded and not debited', () => {
    const p = point();
    const id = grantId(g.grant);
    expect(p.decide(req(g, { cost: cost(600n) })).verdict).toBe('allow');
    const d = p.decide(req(g, { cost: cost(401n) }));
    expect(d.verdict).toBe('deny');
    expect(d.deny_reason).toBe('budget-exceeded');
    expect(p.spent(id)).toBe(600n);
    // exactly filling the budget is allowed (the test is >, not ≥)
    expect(p.decide(req(g, { cost: cost(400n) })).verdict).toBe('allow');
    expect(p.spent(id)).toBe(1000n);
    expect(p.decide(req(g, { cost: cost(1n) })).deny_reason).toBe('budget-exceeded');
    expect(p.decide(req(g, { cost: cost(0n) })).verdict).toBe('allow');
  });

  clauseIt(['jcp/4.2#delegated-alone-chain-broken'], 'a delegated grant decided on its own is denied chain-broken', async () => {
    const { attenuate } = await import('../../impl/index.ts');
    const child = attenuate(g, bob, { subject: carol.did, budget_uj: 100n, nonce: nonce('alone') });
    expect(outcome(req(child, { caller: carol.did }))).toBe('chain-broken');
  });
});

describe('jcp §7 the checks run in order, the first failure naming the reason', () => {
  // Each row breaks two rules; the earlier check in §7's list must be the one named.
  const g = rootGrant({ expiry: 2000n, nonce: nonce('order') });
  const badSig = (() => {
    const s = g.signature.slice();
    s[0]! ^= 0x80;
    return { grant: g.grant, signature: s };
  })();
  const rev = mintRevocation(alice, grantId(g.grant), nonce('order-rev'));
  const other = rootGrant({ nonce: nonce('order-other') });
  const rows: Array<[string, () => string]> = [
    ['untrusted-control before revoked', () => outcome(req(g, {}, { trust: 'data' }), (p) => p.revoke(rev, g))],
    ['revoked before untrusted-root', () => outcome(req(g), (p) => { p.revoke(rev, g); p.setTrustRoots(TOOL, [carol.did]); })],
    ['untrusted-root before wrong-resource (grant id)', () => outcome(req(g, {}, { grant_id: grantId(other.grant) }), (p) => p.setTrustRoots(TOOL, [carol.did]))],
    ['wrong-resource (grant id) before wrong-subject', () => outcome(req(g, { caller: mallory.did }, { grant_id: grantId(other.grant) }))],
    ['wrong-subject before bad-signature', () => outcome(req(badSig, { caller: mallory.did }))],
    ['bad-signature before expired', () => outcome(req(badSig, { now_s: 3000n }))],
    ['expired before wrong-resource', () => outcome(req(g, { now_s: 3000n }, { resource: resource('elsewhere') }))],
    ['wrong-resource before action-not-granted', () => outcome(req(g, {}, { resource: resource('elsewhere'), action: 'delete' }))],
    ['action-not-granted before budget-exceeded', () => outcome(req(g, { cost: cost(5000n) }, { action: 'delete' }))],
  ];
  const expected = ['untrusted-control', 'revoked', 'untrusted-root', 'wrong-resource', 'wrong-subject', 'bad-signature', 'expired', 'wrong-resource', 'action-not-granted'];
  rows.forEach(([title, run], i) => {
    clauseIt(['jcp/7#checks-in-order'], title, () => {
      expect(run()).toBe(expected[i]);
    });
  });
});

describe('jcp §8 every decision is sealed', () => {
  clauseIt(['jcp/8#every-decision-sealed', 'jcp/8#payload-hash-included'], 'allow and deny alike seal a verifiable jcp/2 receipt over the frame', () => {
    const g = rootGrant({ nonce: nonce('sealed') });
    const p = point();
    for (const r of [req(g), req(g, {}, { trust: 'data' }), req(g, { caller: mallory.did })]) {
      const d = p.decide(r);
      const { core } = verifyReceipt(d.receipt, { steward: steward.did });
      expect(core.jcp_receipt).toBe('jcp/2');
      expect(core.payload_hash).toBe(payload('args'));
      expect(core.grant_id).toBe(grantId(g.grant));
      expect(core.action).toBe('call');
      expect(core.verdict).toBe(d.verdict);
      if (d.verdict === 'deny') expect(core.deny_reason).toBe(d.deny_reason);
      else expect(core).not.toHaveProperty('deny_reason');
    }
  });

  clauseIt(['jcp/7#decision-deterministic'], 'the same inputs give the same decision and the same receipt bytes', () => {
    const g = rootGrant({ nonce: nonce('det') });
    const a = point().decide(req(g));
    const b = point().decide(req(g));
    expect(Buffer.from(a.receipt).toString('hex')).toBe(Buffer.from(b.receipt).toString('hex'));
  });
});
