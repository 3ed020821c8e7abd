// Edge cases of the jcp §7 enforcement point (impl/jcp/enforcement-point.ts): each refusal at its entry points with its
// code and message (the frame of §6, the cost of §5, the money of §4.8, the label of §4.10, revocations of §4.3), the
// unsigned range of jcp §3 (exactly 2^64−1, one past it), the §8 receipt core it seals (chain_ids of §8.1, coverage of
// §5.2, the remaining budget never below zero), the debit of §7 and §4.2 on every link, the two-phase metered path of
// §4.9 (tickets, pending caveats, the debit point), taint floors (§4.10), trust roots (§7) and restored spend (§8.1).
import { describe, expect, it } from 'vitest';
import { lazyKey, thrown, TOOL_RESOURCE } from '../_test-support.ts';
import { defaultEd25519, type Ed25519 } from '../identity/ed25519.ts';
import { verifyReceipt } from '../receipt/verify.ts';
import { attenuate } from './attenuate.ts';
import { contentId } from './content-id.ts';
import { BOTTOM_LABEL } from './decide.ts';
import { createEnforcementPoint, type EnforcementPoint } from './enforcement-point.ts';
import { grantId, mintGrant } from './grant.ts';
import { mintRevocation } from './revocation.ts';
import type { Caveat, Label, SignedGrant } from './types.ts';

const alice = lazyKey('alice'); // the root issuer
const bob = lazyKey('bob'); // the agent, alice's subject
const carol = lazyKey('carol'); // bob's delegate
const mallory = lazyKey('mallory');
const steward = lazyKey('steward');
const TOOL = TOOL_RESOURCE;
const OTHER = '00'.repeat(32); // a resource nobody was granted
const U64_MAX = (1n << 64n) - 1n;
const nonce = (n: number) => new Uint8Array(16).fill(n);
const TAINTED: Label = { integrity: 'untrusted', origins: ['web'], readers: 'all' };

/** alice grants bob `call` on the tool: 100 µJ unless `extra` says otherwise. */
const root = (n: number, extra: object = {}): SignedGrant =>
  mintGrant(alice, { subject: bob.did, resource: TOOL, actions: ['call'], budget_uj: 100n, nonce: nonce(n), ...extra });
/** bob delegates `parent` to carol, 60 µJ unless `extra` says otherwise. */
const child = (parent: SignedGrant, n: number, extra: object = {}): SignedGrant => attenuate(parent, bob, { subject: carol.did, budget_uj: 60n, nonce: nonce(n), ...extra });

/** A request over `chain` (root first) by the leaf's subject, `uj` µJ by Estimator at t = 1; `extra` overrides. */
function request(chain: readonly SignedGrant[], uj = 10n, extra: Record<string, unknown> = {}) {
  const leaf = chain[chain.length - 1]!.grant;
  const frame = { kind: 'tool-call', trust: 'control', grant_id: grantId(leaf), action: 'call', resource: TOOL, payload_hash: contentId({ payload: 'args' }) } as const;
  return { frame, chain, caller: leaf.subject, cost: { uj, provenance: 'Estimator' as const }, now_s: 1n, ...extra };
}
/** The same request with some frame fields replaced (any value, as an untyped caller could pass). */
const withFrame = (chain: readonly SignedGrant[], over: Record<string, unknown>) => {
  const r = request(chain);
  return { ...r, frame: { ...r.frame, ...over } } as never;
};
const point = (): EnforcementPoint => createEnforcementPoint({ steward });
/** The code and message of what `fn` throws (the message begins with the code). */
const said = (fn: () => unknown) => {
  const e = thrown(fn);
  return [e.code, e.message];
};
const bad = (message: string) => ['ERR_BAD_ARGUMENT', `ERR_BAD_ARGUMENT: ${message}`];
const malformed = (message: string) => ['ERR_FRAME_MALFORMED', `ERR_FRAME_MALFORMED: ${message}`];

describe('jcp §6 the frame: refused before deciding, each field by name', () => {
  it('a field that is not text is refused ERR_BAD_ARGUMENT naming it', () => {
    const g = root(1);
    const p = point();
    for (const k of ['kind', 'trust', 'grant_id', 'action', 'resource', 'payload_hash']) {
      expect(said(() => p.decide(withFrame([g], { [k]: 7 })))).toEqual(bad(`frame.${k} must be a string`));
    }
    expect(said(() => p.decide(withFrame([g], { model: 7 })))).toEqual(bad('frame.model must be a content id when present'));
    expect(said(() => p.decide({ ...request([g]), frame: 'tool-call' } as never))).toEqual(bad('frame must be an object (jcp §6)'));
    expect(said(() => p.decide({ ...request([g]), frame: null } as never))).toEqual(bad('frame must be an object (jcp §6)'));
    expect(p.spent(grantId(g.grant))).toBe(0n);
  });

  it('text the wire parser would refuse is refused ERR_FRAME_MALFORMED naming the field', () => {
    const g = root(2);
    const p = point();
    expect(said(() => p.decide(withFrame([g], { kind: 'tool-calls' })))).toEqual(malformed('frame.kind must be one of tool-call, tool-result, agent-task, agent-reply'));
    expect(said(() => p.decide(withFrame([g], { trust: 'Control' })))).toEqual(malformed('frame.trust must be control or data'));
    expect(said(() => p.decide(withFrame([g], { action: '' })))).toEqual(malformed('frame.action must not be empty'));
    for (const k of ['grant_id', 'resource', 'payload_hash', 'model']) {
      expect(said(() => p.decide(withFrame([g], { [k]: 'AB'.repeat(32) })))).toEqual(malformed(`frame.${k} must be a content id (64 lowercase hex digits)`));
    }
    expect(p.spent(grantId(g.grant))).toBe(0n);
  });

  it('every frame kind, both trusts, a one-character action and a model id are decided, not refused', () => {
    const g = root(3);
    const p = point();
    for (const kind of ['tool-call', 'tool-result', 'agent-task', 'agent-reply']) {
      const d = p.decide(withFrame([g], { kind, model: contentId({ model: 'm' }) }));
      expect([d.verdict, d.core.frame_kind]).toEqual(['allow', kind]);
    }
    const data = p.decide(withFrame([g], { trust: 'data' }));
    expect([data.verdict, data.deny_reason, data.core.trust]).toEqual(['deny', 'untrusted-control', 'data']);
    const x = p.decide(withFrame([g], { action: 'x' }));
    expect([x.verdict, x.deny_reason, x.core.action]).toEqual(['deny', 'action-not-granted', 'x']);
  });
});

describe('jcp §7 the request: chain, caller, cost and clock are checked before deciding', () => {
  it('a request without a non-empty chain is refused', () => {
    const p = point();
    const msg = bad('a decision request needs a frame and a non-empty chain of signed grants');
    expect(said(() => p.decide(null as never))).toEqual(msg);
    expect(said(() => p.decide('request' as never))).toEqual(msg);
    expect(said(() => p.decide({ ...request([root(4)]), chain: [] } as never))).toEqual(msg);
    expect(said(() => p.decide({ ...request([root(4)]), chain: { 0: root(4), length: 1 } } as never))).toEqual(msg);
  });

  it('a link that is not a signed grant is refused naming its index', () => {
    const g = root(5);
    const c = child(g, 6);
    const p = point();
    const r = request([g, c]);
    expect(said(() => p.decide({ ...r, chain: [g, null] } as never))).toEqual(bad('chain[1] must be a signed grant {grant, signature}'));
    expect(said(() => p.decide({ ...r, chain: [g, { grant: null, signature: c.signature }] } as never))).toEqual(bad('chain[1] must be a signed grant {grant, signature}'));
    expect(said(() => p.decide({ ...r, chain: [g, { grant: 'grant', signature: c.signature }] } as never))).toEqual(bad('chain[1] must be a signed grant {grant, signature}'));
    expect(said(() => p.decide({ ...r, chain: [g, { grant: c.grant, signature: [...c.signature] }] } as never))).toEqual(bad('chain[1] must be a signed grant {grant, signature}'));
    const notGrant = bad('chain[1].grant is not a grant (parse wire input with parseSignedGrant first)');
    const cap = c.grant.capability;
    for (const over of [
      { issuer: 1 },
      { subject: null },
      { budget_uj: 60 },
      { expiry: 0 },
      { capability: undefined },
      { capability: null },
      { capability: { ...cap, actions: 'call' } },
    ]) {
      expect([over, said(() => p.decide({ ...r, chain: [g, { grant: { ...c.grant, ...over }, signature: c.signature }] } as never))]).toEqual([over, notGrant]);
    }
    expect([p.spent(grantId(g.grant)), p.spent(grantId(c.grant))]).toEqual([0n, 0n]);
    expect(p.decide(r).verdict).toBe('allow');
  });

  it('a caller that is not text and a clock that is not a bigint are refused', () => {
    const g = root(7);
    const p = point();
    expect(said(() => p.decide({ ...request([g]), caller: undefined } as never))).toEqual(bad('caller must be a did:key string'));
    expect(said(() => p.decide({ ...request([g]), now_s: 1 } as never))).toEqual(bad('now_s must be a bigint (unix seconds)'));
    expect(p.spent(grantId(g.grant))).toBe(0n);
  });

  it('a cost must be integer microjoules in 0 … 2^64−1 with a known provenance; 2^64−1 is decided, 2^64 refused', () => {
    const g = root(8);
    const p = point();
    const cost = (c: unknown) => () => p.decide({ ...request([g]), cost: c } as never);
    expect(said(cost(null))).toEqual(bad('cost must be an object {uj, provenance}'));
    expect(said(cost(5n))).toEqual(bad('cost must be an object {uj, provenance}'));
    const range = bad('cost.uj must be a bigint in 0 … 2^64−1 (integer microjoules)');
    expect(said(cost({ uj: 1n << 64n, provenance: 'HwShunt' }))).toEqual(range);
    expect(said(cost({ uj: -1n, provenance: 'HwShunt' }))).toEqual(range);
    expect(said(cost({ uj: 5, provenance: 'HwShunt' }))).toEqual(range);
    expect(said(cost({ uj: 5n, provenance: 'hwshunt' }))).toEqual(bad('cost.provenance must be HwShunt, ModelBased or Estimator'));
    expect(said(cost({ uj: 5n, provenance: 'HwShunt', coverage: 'Whole' }))).toEqual(bad('cost.coverage is either absent (Whole) or "Partial"'));
    expect(p.spent(grantId(g.grant))).toBe(0n);
    const top = p.decide({ ...request([g]), cost: { uj: U64_MAX, provenance: 'HwShunt' } });
    expect([top.verdict, top.deny_reason, top.core.cost_uj]).toEqual(['deny', 'budget-exceeded', U64_MAX]);
    const zero = p.decide({ ...request([g]), cost: { uj: 0n, provenance: 'ModelBased' } });
    expect([zero.verdict, zero.core.cost_uj, zero.core.energy_provenance]).toEqual(['allow', 0n, 'ModelBased']);
  });

  it('a money cost must be {currency: text, minor: 0 … 2^64−1}; 2^64−1 is decided, 2^64 refused (§4.8)', () => {
    const g = root(9, { budget_funds: { currency: 'USD', minor: 10n } });
    const p = point();
    const price = (f: unknown) => () => p.decide(request([g], 1n, { cost_funds: f }));
    const msg = bad('cost_funds must be {currency: string, minor: bigint in 0 … 2^64−1} (jcp §4.8)');
    for (const f of [null, 'USD', { currency: 1, minor: 1n }, { currency: 'USD', minor: 1 }, { currency: 'USD', minor: -1n }, { currency: 'USD', minor: 1n << 64n }]) {
      expect([f, said(price(f))]).toEqual([f, msg]);
    }
    expect([p.spent(grantId(g.grant)), p.spentFunds(grantId(g.grant))]).toEqual([0n, 0n]);
    const top = p.decide(request([g], 1n, { cost_funds: { currency: 'USD', minor: U64_MAX } }));
    expect([top.verdict, top.deny_reason]).toEqual(['deny', 'funds-exceeded']);
    expect(p.decide(request([g], 1n, { cost_funds: { currency: 'USD', minor: 0n } })).verdict).toBe('allow');
  });

  it('a label is parsed as the wire parses it; a refusal names the field, a non-label is refused whole (§4.10)', () => {
    const g = root(10);
    const p = point();
    const e = thrown(() => p.decide(request([g], 1n, { label: { integrity: 'clean', origins: [], readers: 'all' } })));
    expect(e.code).toBe('ERR_BAD_ARGUMENT');
    expect(e.message.startsWith('ERR_BAD_ARGUMENT: label: ')).toBe(true);
    expect(e.message.endsWith('$label.integrity: integrity must be principal or untrusted')).toBe(true);
    const whole = bad('label must be {integrity, origins, readers} (jcp §4.10)');
    expect(said(() => p.decide(request([g], 1n, { label: null })))).toEqual(whole);
    expect(said(() => p.decide(request([g], 1n, { label: { integrity: 'principal', origins: 5, readers: 'all' } })))).toEqual(whole);
    expect(p.spent(grantId(g.grant))).toBe(0n);
    expect(p.decide(request([g], 1n, { label: TAINTED })).verdict).toBe('allow');
  });

  it('authorize refuses what decide refuses, and changes nothing', () => {
    const g = root(11);
    const p = point();
    expect(said(() => p.authorize(withFrame([g], { action: '' })))).toEqual(malformed('frame.action must not be empty'));
    expect(said(() => p.authorize({ ...request([g]), now_s: 1 } as never))).toEqual(bad('now_s must be a bigint (unix seconds)'));
    expect(p.spent(grantId(g.grant))).toBe(0n);
  });
});

describe('jcp §8 the sealed decision', () => {
  it('an allow over one grant seals the jcp/2 core of the frame, the cost and the remaining budget, without chain_ids', () => {
    const g = root(12);
    const p = point();
    const r = request([g], 40n);
    const d = p.decide(r);
    // strictly: no deny_reason (§8 "omitted on allow"), no energy_coverage (Whole), no chain_ids (one grant)
    expect(d.core).toStrictEqual({
      jcp_receipt: 'jcp/2',
      grant_id: grantId(g.grant),
      issuer: alice.did,
      subject: bob.did,
      resource: TOOL,
      action: 'call',
      payload_hash: r.frame.payload_hash,
      frame_kind: 'tool-call',
      trust: 'control',
      verdict: 'allow',
      cost_uj: 40n,
      energy_provenance: 'Estimator',
      budget_remaining_uj: 60n,
      budget_uj: 100n,
      steward: steward.did,
    });
    expect(Object.keys(d).sort()).toEqual(['core', 'debited', 'receipt', 'verdict']);
    expect(d.debited).toEqual([grantId(g.grant)]);
    expect(verifyReceipt(d.receipt).core).toEqual(d.core);
    expect(p.steward).toBe(steward.did);
    expect(Object.isFrozen(d)).toBe(true);
  });

  it('a deny seals its reason and why, debits nothing, and the remaining budget is the unspent one', () => {
    const g = root(13);
    const p = point();
    const d = p.decide(request([g], 101n));
    expect([d.verdict, d.deny_reason, d.debited, d.core.verdict, d.core.deny_reason]).toEqual(['deny', 'budget-exceeded', [], 'deny', 'budget-exceeded']);
    expect(d.why).toMatch(/./);
    expect(Object.keys(d).sort()).toEqual(['core', 'debited', 'deny_reason', 'receipt', 'verdict', 'why']);
    expect([d.core.cost_uj, d.core.budget_remaining_uj]).toEqual([101n, 100n]);
    expect(p.spent(grantId(g.grant))).toBe(0n);
    expect(verifyReceipt(d.receipt).core).toEqual(d.core);
    expect(Object.isFrozen(d)).toBe(true);
  });

  it('a Partial cost seals energy_coverage Partial; a Whole one omits it (§5.2)', () => {
    const g = root(14);
    const p = point();
    const partial = p.decide({ ...request([g]), cost: { uj: 3n, provenance: 'HwShunt', coverage: 'Partial' } });
    expect([partial.verdict, partial.core.energy_coverage]).toEqual(['allow', 'Partial']);
    expect(verifyReceipt(partial.receipt).core.energy_coverage).toBe('Partial');
    expect('energy_coverage' in p.decide(request([g], 3n)).core).toBe(false);
  });

  it('a multi-hop decision seals chain_ids root first and the leaf as the grant (§8.1)', () => {
    const g = root(15);
    const c = child(g, 16);
    const p = point();
    const d = p.decide(request([g, c], 25n));
    expect([d.verdict, d.core.grant_id, d.core.issuer, d.core.subject, d.core.budget_uj, d.core.budget_remaining_uj]).toEqual(['allow', grantId(c.grant), bob.did, carol.did, 60n, 35n]);
    expect(d.core.chain_ids).toEqual([grantId(g.grant), grantId(c.grant)]);
    expect(d.debited).toEqual([grantId(g.grant), grantId(c.grant)]);
    const denied = p.decide(request([g, c], 36n));
    expect([denied.deny_reason, denied.core.chain_ids, denied.debited]).toEqual(['budget-exceeded', [grantId(g.grant), grantId(c.grant)], []]);
  });

  it('the remaining budget is exactly zero when the budget is used up, and never below zero', () => {
    const g = root(17);
    const id = grantId(g.grant);
    const p = point();
    const d = p.decide(request([g], 100n));
    expect([d.verdict, d.core.budget_remaining_uj]).toEqual(['allow', 0n]);
    expect(p.remaining(g.grant)).toBe(0n);
    p.restoreSpend(id, 50n);
    expect(p.spent(id)).toBe(150n);
    expect(p.remaining(g.grant)).toBe(0n);
    expect(p.decide(request([g], 0n)).core.budget_remaining_uj).toBe(0n);
  });

  it('the receipts are sealed by the configured backend', () => {
    let signs = 0;
    const ed = defaultEd25519();
    const counting: Ed25519 = { ...ed, sign: (seed, message) => (signs++, ed.sign(seed, message)) };
    const p = createEnforcementPoint({ steward, backend: counting });
    p.decide(request([root(18)], 1n));
    expect(signs).toBe(1);
  });
});

describe('jcp §7, §4.2 the debit: on allow, from every link', () => {
  it('an allow debits the joules from every link; a deny debits none', () => {
    const g = root(19);
    const c = child(g, 20);
    const p = point();
    p.decide(request([g, c], 20n));
    p.decide(request([g], 30n));
    expect([p.spent(grantId(g.grant)), p.spent(grantId(c.grant))]).toEqual([50n, 20n]);
    expect(p.decide(request([g, c], 41n)).deny_reason).toBe('budget-exceeded');
    expect([p.spent(grantId(g.grant)), p.spent(grantId(c.grant))]).toEqual([50n, 20n]);
    expect([p.remaining(g.grant), p.remaining(c.grant)]).toEqual([50n, 40n]);
  });

  it('the tainted spend counts calls whose label is not ⊥, an absent label included (§4.10)', () => {
    const g = root(21);
    const id = grantId(g.grant);
    const p = point();
    p.decide(request([g], 3n, { label: BOTTOM_LABEL }));
    expect([p.spent(id), p.taintedSpent(id)]).toEqual([3n, 0n]);
    p.decide(request([g], 4n, { label: TAINTED }));
    p.decide(request([g], 5n));
    expect([p.spent(id), p.taintedSpent(id)]).toEqual([12n, 9n]);
  });

  it('a priced allow debits the money of the links that have a money ceiling, and only theirs (§4.8)', () => {
    const g = root(22);
    const c = child(g, 23, { budget_funds: { currency: 'EUR', minor: 30n } });
    const p = point();
    expect(p.decide(request([g, c], 1n, { cost_funds: { currency: 'EUR', minor: 12n } })).verdict).toBe('allow');
    expect([p.spentFunds(grantId(g.grant)), p.spentFunds(grantId(c.grant))]).toEqual([0n, 12n]);
    expect(p.decide(request([g, c], 1n, { cost_funds: { currency: 'EUR', minor: 18n } })).verdict).toBe('allow');
    expect(p.spentFunds(grantId(c.grant))).toBe(30n);
    expect(p.decide(request([g, c], 1n, { cost_funds: { currency: 'EUR', minor: 1n } })).deny_reason).toBe('funds-exceeded');
    expect([p.spentFunds(grantId(c.grant)), p.spent(grantId(c.grant))]).toEqual([30n, 2n]);
  });
});

describe('jcp §4.9 the two-phase metered path', () => {
  it('authorize debits nothing and names the cost-dependent caveats of every link, in chain order', () => {
    const g = root(24, { caveats: [{ MaxCostUj: 50n }] });
    const c = child(g, 25, { add_caveats: [{ MaxCostUj: 30n }] });
    const p = point();
    const a = p.authorize(request([g, c], 45n, { label: TAINTED }));
    expect(a.verdict).toBe('authorized');
    if (a.verdict !== 'authorized') return;
    // the child carries the root's caveat and its own (§4.9 "a caveat-adding attenuation appends")
    expect(a.pending).toEqual([{ MaxCostUj: 50n }, { MaxCostUj: 50n }, { MaxCostUj: 30n }] satisfies Caveat[]);
    expect(typeof a.ticket).toBe('string');
    expect(Object.isFrozen(a)).toBe(true);
    expect(Object.isFrozen(a.pending)).toBe(true);
    expect([p.spent(grantId(g.grant)), p.spent(grantId(c.grant)), p.taintedSpent(grantId(c.grant))]).toEqual([0n, 0n, 0n]);
    const none = p.authorize(request([root(26)], 1n));
    expect(none.verdict === 'authorized' ? [none.pending, none.ticket === a.ticket] : none).toEqual([[], false]);
  });

  it('a denial at authorize is sealed like any other and debits nothing', () => {
    const g = root(27);
    const p = point();
    const d = p.authorize(withFrame([g], { trust: 'data' }));
    expect(d.verdict).toBe('deny');
    if (d.verdict !== 'deny') return;
    expect([d.deny_reason, d.debited, d.core.verdict]).toEqual(['untrusted-control', [], 'deny']);
    expect(verifyReceipt(d.receipt).core).toEqual(d.core);
    expect(p.spent(grantId(g.grant))).toBe(0n);
  });

  it('settle seals the measured cost at the given time and debits every link; a ticket settles once', () => {
    const g = root(28, { budget_funds: { currency: 'USD', minor: 9n } });
    const c = child(g, 29);
    const p = point();
    const a = p.authorize(request([g, c], 50n, { cost_funds: { currency: 'USD', minor: 4n } }));
    if (a.verdict !== 'authorized') throw new Error('not authorized');
    const d = p.settle(a.ticket, { uj: 7n, provenance: 'HwShunt', coverage: 'Partial' }, 2n);
    expect([d.verdict, d.debited, d.core.cost_uj, d.core.energy_provenance, d.core.energy_coverage, d.core.budget_remaining_uj]).toEqual([
      'allow',
      [grantId(g.grant), grantId(c.grant)],
      7n,
      'HwShunt',
      'Partial',
      53n,
    ]);
    expect([p.spent(grantId(g.grant)), p.spent(grantId(c.grant)), p.spentFunds(grantId(g.grant)), p.spentFunds(grantId(c.grant))]).toEqual([7n, 7n, 4n, 4n]);
    expect(verifyReceipt(d.receipt).core).toEqual(d.core);
    expect(said(() => p.settle(a.ticket, { uj: 7n, provenance: 'HwShunt' }, 2n))).toEqual(bad(`no authorization ${a.ticket} waits at this point (unknown, or already settled)`));
    expect(p.spent(grantId(c.grant))).toBe(7n);
  });

  it('settle decides again at its own clock: a grant expired since authorize is denied there, its joules accounted', () => {
    const g = root(30, { expiry: 10n });
    const id = grantId(g.grant);
    const p = point();
    const a = p.authorize(request([g], 5n, { now_s: 9n }));
    if (a.verdict !== 'authorized') throw new Error('not authorized');
    const d = p.settle(a.ticket, { uj: 6n, provenance: 'Estimator' }, 11n);
    expect([d.verdict, d.deny_reason, d.debited, d.core.cost_uj]).toEqual(['deny', 'expired', [id], 6n]);
    expect(p.spent(id)).toBe(6n);
  });

  it('an unknown ticket, a bad measured cost and a bad clock are refused, and the ticket still waits', () => {
    const g = root(31);
    const p = point();
    expect(said(() => p.settle('t404', { uj: 1n, provenance: 'HwShunt' }, 1n))).toEqual(bad('no authorization t404 waits at this point (unknown, or already settled)'));
    expect(said(() => p.settle(7 as never, { uj: 1n, provenance: 'HwShunt' }, 1n))).toEqual(bad('no authorization 7 waits at this point (unknown, or already settled)'));
    const a = p.authorize(request([g], 5n));
    if (a.verdict !== 'authorized') throw new Error('not authorized');
    expect(said(() => p.settle(a.ticket, { uj: -1n, provenance: 'HwShunt' }, 1n))).toEqual(bad('cost.uj must be a bigint in 0 … 2^64−1 (integer microjoules)'));
    expect(said(() => p.settle(a.ticket, { uj: 1n, provenance: 'HwShunt' }, 1 as never))).toEqual(bad('now_s must be a bigint (unix seconds)'));
    expect(p.spent(grantId(g.grant))).toBe(0n);
    expect(p.settle(a.ticket, { uj: 5n, provenance: 'HwShunt' }, 1n).verdict).toBe('allow');
    expect(p.spent(grantId(g.grant))).toBe(5n);
  });
});

describe('jcp §4.10 taint floors', () => {
  it('a floor admits the origins it lists; an empty floor refuses every non-⊥ argument; other resources stay open', () => {
    const g = root(32);
    const p = point();
    p.setTaintFloor(TOOL, ['web']);
    expect(p.decide(request([g], 1n, { label: TAINTED })).verdict).toBe('allow');
    expect(p.decide(request([g], 1n, { label: { ...TAINTED, origins: ['mail'] } })).deny_reason).toBe('flow-denied');
    p.setTaintFloor(OTHER, []);
    expect(p.decide(request([g], 1n, { label: { ...TAINTED, origins: ['mail'] } })).deny_reason).toBe('flow-denied');
    p.setTaintFloor(TOOL, []);
    expect(p.decide(request([g], 1n, { label: TAINTED })).deny_reason).toBe('flow-denied');
    expect(p.decide(request([g], 1n, { label: BOTTOM_LABEL })).verdict).toBe('allow');
    expect(p.spent(grantId(g.grant))).toBe(2n);
  });

  it('a floor over a resource that is not a content id, or origins that are not a list of text, is refused', () => {
    const g = root(33);
    const p = point();
    expect(said(() => p.setTaintFloor('AB'.repeat(32), ['web']))).toEqual(bad('setTaintFloor: resource must be a content id (64 lowercase hex digits)'));
    const origins = bad('setTaintFloor: origins must be an array of text');
    expect(said(() => p.setTaintFloor(TOOL, 'web' as never))).toEqual(origins);
    expect(said(() => p.setTaintFloor(TOOL, ['web', 1] as never))).toEqual(origins);
    // nothing was configured: the resource is still open to a tainted argument
    expect(p.decide(request([g], 1n, { label: { ...TAINTED, origins: ['mail'] } })).verdict).toBe('allow');
  });
});

describe('jcp §4.3 revocation at the point', () => {
  it('a revocation by the issuer is honoured; the grant and every chain through it are denied revoked', () => {
    const g = root(34);
    const c = child(g, 35);
    const p = point();
    p.revoke(mintRevocation(alice, grantId(g.grant), nonce(36)), g);
    expect([p.isRevoked(grantId(g.grant)), p.isRevoked(grantId(c.grant))]).toEqual([true, false]);
    expect(p.decide(request([g, c], 1n)).deny_reason).toBe('revoked');
  });

  it('a revocation by anyone else is refused ERR_REVOCATION_UNAUTHORIZED and nothing is revoked', () => {
    const g = root(37);
    const p = point();
    expect(thrown(() => p.revoke(mintRevocation(mallory, grantId(g.grant), nonce(38)), g)).code).toBe('ERR_REVOCATION_UNAUTHORIZED');
    expect(p.isRevoked(grantId(g.grant))).toBe(false);
    expect(p.decide(request([g], 1n)).verdict).toBe('allow');
  });

  it('a revocation or a grant that is not well formed is refused ERR_BAD_ARGUMENT', () => {
    const g = root(39);
    const p = point();
    const r = mintRevocation(alice, grantId(g.grant), nonce(40));
    const msg = bad('revocation must be a signed revocation {revocation: {grant_id, revoked_by, nonce}, signature}');
    for (const over of [{ grant_id: 5 }, { revoked_by: undefined }, { nonce: [...r.revocation.nonce] }]) {
      expect([over, said(() => p.revoke({ revocation: { ...r.revocation, ...over }, signature: r.signature } as never, g))]).toEqual([over, msg]);
    }
    expect(said(() => p.revoke({ revocation: r.revocation, signature: 'sig' } as never, g))).toEqual(msg);
    expect(said(() => p.revoke({ revocation: null, signature: r.signature } as never, g))).toEqual(msg);
    expect(said(() => p.revoke(null as never, g))).toEqual(msg);
    expect(said(() => p.revoke(r, { grant: { ...g.grant, budget_uj: 1 }, signature: g.signature } as never))).toEqual(bad('revoke: the grant.grant is not a grant (parse wire input with parseSignedGrant first)'));
    expect(said(() => p.revoke(r, g.grant as never))).toEqual(bad('revoke: the grant must be a signed grant {grant, signature}'));
    expect(p.isRevoked(grantId(g.grant))).toBe(false);
  });
});

describe('jcp §7 trust roots', () => {
  it('roots given at creation anchor their resource only; a root not listed is denied untrusted-root', () => {
    const g = root(41);
    const closed = createEnforcementPoint({ steward, trustRoots: { [TOOL]: [carol.did] } });
    const d = closed.decide(request([g], 1n));
    expect([d.deny_reason, d.debited]).toEqual(['untrusted-root', []]);
    expect(closed.spent(grantId(g.grant))).toBe(0n);
    expect(createEnforcementPoint({ steward, trustRoots: { [TOOL]: [carol.did, alice.did] } }).decide(request([g], 1n)).verdict).toBe('allow');
    expect(createEnforcementPoint({ steward, trustRoots: { [OTHER]: [carol.did] } }).decide(request([g], 1n)).verdict).toBe('allow');
  });

  it('setTrustRoots opens a resource to the roots it lists; an empty list closes it to every root', () => {
    const g = root(42);
    const p = point();
    p.setTrustRoots(TOOL, []);
    expect(p.decide(request([g], 1n)).deny_reason).toBe('untrusted-root');
    p.setTrustRoots(TOOL, [alice.did]);
    expect(p.decide(request([g], 1n)).verdict).toBe('allow');
  });

  it('roots that are not an array of did:key, or a resource that is not a content id, are refused and change nothing', () => {
    const g = root(43);
    const p = point();
    p.setTrustRoots(TOOL, [alice.did]);
    const rootsOf = (where: string) => bad(`${where}: the roots of ${TOOL} must be an array of did:key`);
    expect(said(() => p.setTrustRoots(TOOL, 'abc' as never))).toEqual(rootsOf('setTrustRoots'));
    expect(said(() => p.setTrustRoots(TOOL, [alice.did, 'did:key:nope'] as never))).toEqual(rootsOf('setTrustRoots'));
    expect(said(() => p.setTrustRoots(TOOL, [5] as never))).toEqual(rootsOf('setTrustRoots'));
    expect(said(() => p.setTrustRoots('tool' as never, [alice.did]))).toEqual(bad('setTrustRoots: resource must be a content id (64 lowercase hex digits)'));
    expect(p.decide(request([g], 1n)).verdict).toBe('allow');
    expect(said(() => createEnforcementPoint({ steward, trustRoots: { [TOOL]: 'abc' } as never }))).toEqual(rootsOf('trustRoots'));
    expect(said(() => createEnforcementPoint({ steward, trustRoots: { tool: [alice.did] } as never }))).toEqual(bad('trustRoots: resource must be a content id (64 lowercase hex digits)'));
    expect(said(() => createEnforcementPoint({ steward, trustRoots: 'x' as never }))).toEqual(bad('trustRoots must be an object from resource content id to an array of did:key'));
    // null is no map of roots either: refused, not read as no roots given
    expect(said(() => createEnforcementPoint({ steward, trustRoots: null as never }))).toEqual(bad('trustRoots must be an object from resource content id to an array of did:key'));
  });
});

describe('jcp §8.1 restored spend', () => {
  it('restoreSpend adds to the spend held, 0 included, and the budget test sees it', () => {
    const g = root(43);
    const id = grantId(g.grant);
    const p = point();
    p.restoreSpend(id, 0n);
    expect(p.spent(id)).toBe(0n);
    p.restoreSpend(id, 60n);
    p.restoreSpend(id, 30n);
    expect([p.spent(id), p.remaining(g.grant)]).toEqual([90n, 10n]);
    expect(p.decide(request([g], 11n)).deny_reason).toBe('budget-exceeded');
    expect(p.decide(request([g], 10n)).core.budget_remaining_uj).toBe(0n);
  });

  it('an id that is not a content id or an amount that is not a non-negative bigint is refused, spend unchanged', () => {
    const id = grantId(root(44).grant);
    const p = point();
    expect(said(() => p.restoreSpend('x', 1n))).toEqual(bad('restoreSpend: id must be a content id (64 lowercase hex digits)'));
    const amount = bad('restoreSpend: uj must be a non-negative bigint (microjoules)');
    expect(said(() => p.restoreSpend(id, -1n))).toEqual(amount);
    expect(said(() => p.restoreSpend(id, 1 as never))).toEqual(amount);
    expect(p.spent(id)).toBe(0n);
  });
});
