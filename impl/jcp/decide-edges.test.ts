// Edge cases of the jcp §7 decision (impl/jcp/decide.ts judge, with §4.2 chains, §4.3 revocation, §4.8 money, §4.9
// caveats and the two-phase metered path, §4.10 the flow gate): each deny reason with its message and the ids it names,
// the order of the checks (each one against the next, the first failure naming the reason), every boundary (exactly at
// a limit allowed, one past it denied), the link or hop each chained denial names, and the label order's components.
import { describe, expect, it } from 'vitest';
import { lazyKey, TOOL_RESOURCE } from '../_test-support.ts';
import { attenuate } from './attenuate.ts';
import { contentId } from './content-id.ts';
import {
  BOTTOM_LABEL,
  caveatHolds,
  flowCeilings,
  flowFault,
  isBottom,
  isCostDependent,
  isExpired,
  isTainted,
  judge,
  labelLeq,
  type DecisionRequest,
  type DecisionState,
  type Phase,
} from './decide.ts';
import { grantId, mintGrant, signGrant, type RootGrantFields } from './grant.ts';
import type { Caveat, ContentId, Funds, Grant, Label, SignedGrant } from './types.ts';

const alice = lazyKey('alice'); // the root issuer
const bob = lazyKey('bob'); // the root's subject, the first delegate's issuer
const carol = lazyKey('carol'); // the first delegate's subject
const dave = lazyKey('dave');
const TOOL = TOOL_RESOURCE;
const OTHER = 'ab'.repeat(32);
const n16 = (i: number): Uint8Array => new Uint8Array(16).fill(i);
const L = (integrity: Label['integrity'], origins: Label['origins'], readers: Label['readers']): Label => ({ integrity, origins, readers });
const WEB = L('untrusted', ['web'], 'all');

/** A root grant alice → bob, call+read on the tool, 100 µJ, no expiry, unless `f` says otherwise. */
const root = (f: Partial<RootGrantFields> = {}): SignedGrant => mintGrant(alice, { subject: bob.did, resource: TOOL, actions: ['call', 'read'], budget_uj: 100n, nonce: n16(1), ...f });
/** bob delegates `parent` to carol, narrowing as `f` says. */
const hop = (parent: SignedGrant, f: Partial<Parameters<typeof attenuate>[2]> = {}): SignedGrant => attenuate(parent, bob, { subject: carol.did, nonce: n16(2), ...f });
/** A grant signed as given, no rule applied (as whoever minted a bad hop could). */
const raw = (g: Grant, k = bob): SignedGrant => signGrant(g, k);
/** The same grant with its signature's first byte flipped. */
const forged = (sg: SignedGrant): SignedGrant => {
  const signature = new Uint8Array(sg.signature);
  signature[0]! ^= 1;
  return { grant: sg.grant, signature };
};

/** What a test changes in a request: any field, and any field of its frame. */
type RequestFields = Partial<Omit<DecisionRequest, 'frame'>> & { frame?: Partial<DecisionRequest['frame']> };

/** The request that exercises the chain's leaf as its subject, `call` on the tool, 10 µJ at t=10, unless `x` says otherwise. */
function request(chain: readonly SignedGrant[], x: RequestFields = {}): DecisionRequest {
  const leaf = chain[chain.length - 1]?.grant;
  const frame = { kind: 'tool-call', trust: 'control', grant_id: leaf ? grantId(leaf) : OTHER, action: 'call', resource: TOOL, payload_hash: contentId({ payload: 'args' }), ...x.frame } as const;
  return { chain, caller: leaf?.subject ?? bob.did, cost: { uj: 10n, provenance: 'HwShunt' }, now_s: 10n, ...x, frame };
}

/** An enforcement point's state: nothing revoked, no roots, no floor, no spend, unless `s` says otherwise. */
interface StateFields {
  revoked?: readonly ContentId[];
  roots?: readonly string[];
  spent?: Record<ContentId, bigint>;
  spentFunds?: Record<ContentId, bigint>;
  taintedSpent?: Record<ContentId, bigint>;
  floor?: readonly string[];
}
function state(s: StateFields = {}): DecisionState {
  return {
    isRevoked: (id) => (s.revoked ?? []).includes(asked(id)),
    trustRoots: (r) => (asked(r) === TOOL && s.roots !== undefined ? new Set(s.roots) : undefined),
    spent: (id) => (s.spent ?? {})[asked(id)] ?? 0n,
    ...(s.spentFunds ? { spentFunds: (id: ContentId) => s.spentFunds![asked(id)] ?? 0n } : {}),
    ...(s.taintedSpent ? { taintedSpent: (id: ContentId) => s.taintedSpent![asked(id)] ?? 0n } : {}),
    ...(s.floor ? { taintFloor: (r: ContentId) => (asked(r) === TOOL ? new Set(s.floor) : undefined) } : {}),
  };
}
/** A state is asked about content ids only (the DecisionState contract); anything else fails the test. */
function asked(id: ContentId): ContentId {
  if (typeof id !== 'string' || !/^[0-9a-f]{64}$/.test(id)) throw new Error(`the state was asked about ${String(id)}, not a content id`);
  return id;
}

/** The decision in one phase, read as [verdict, deny_reason, why] (allow as ['allow']). */
function verdict(req: DecisionRequest, s: DecisionState = state(), phase: Phase = 'single'): string[] {
  const j = judge(req, s, undefined, phase);
  return j.verdict === 'allow' ? ['allow'] : ['deny', j.deny_reason, j.why];
}
const ids = (chain: readonly SignedGrant[]) => chain.map((sg) => grantId(sg.grant));

describe('jcp §7 a single grant: each reason and its message', () => {
  it('no grant at all is chain-broken, naming no id', () => {
    expect(judge(request([]), state())).toEqual({ verdict: 'deny', deny_reason: 'chain-broken', why: 'no grant was presented', ids: [] });
  });

  it('a data frame is untrusted-control, naming the grant', () => {
    const g = root();
    expect(judge(request([g], { frame: { trust: 'data' } }), state())).toEqual({
      verdict: 'deny',
      deny_reason: 'untrusted-control',
      why: 'a data frame can never exercise a capability',
      ids: ids([g]),
    });
  });

  it('a delegated grant alone is chain-broken (jcp §4.2)', () => {
    const child = hop(root());
    expect(verdict(request([child]))).toEqual(['deny', 'chain-broken', 'a delegated grant cannot be decided without its chain']);
  });

  it('revoked, untrusted-root, wrong-resource, wrong-subject, bad-signature, wrong-resource, action-not-granted', () => {
    const g = root();
    const id = grantId(g.grant);
    expect(verdict(request([g]), state({ revoked: [id] }))).toEqual(['deny', 'revoked', 'the grant is revoked']);
    expect(verdict(request([g]), state({ roots: [dave.did] }))).toEqual(['deny', 'untrusted-root', `${alice.did} is not a configured trust root for resource ${TOOL}`]);
    expect(verdict(request([g], { frame: { grant_id: OTHER } }))).toEqual(['deny', 'wrong-resource', `the frame exercises grant ${OTHER}, not the presented ${id}`]);
    expect(verdict(request([g], { caller: dave.did }))).toEqual(['deny', 'wrong-subject', `caller ${dave.did} is not the grant's subject ${bob.did}`]);
    expect(verdict(request([forged(g)]))).toEqual(['deny', 'bad-signature', "the issuer's signature does not verify"]);
    expect(verdict(request([g], { frame: { resource: OTHER } }))).toEqual(['deny', 'wrong-resource', `the frame names resource ${OTHER}, the grant ${TOOL}`]);
    expect(verdict(request([g], { frame: { action: 'write' } }))).toEqual(['deny', 'action-not-granted', 'action "write" is not granted']);
  });

  it('a configured root that lists the issuer allows; an unconfigured resource is open', () => {
    const g = root();
    expect(verdict(request([g]), state({ roots: [dave.did, alice.did] }))).toEqual(['allow']);
    expect(verdict(request([g]), state({ roots: [] }))[1]).toBe('untrusted-root');
    expect(verdict(request([g]), state())).toEqual(['allow']);
  });

  it('expiry: allowed one second before, expired exactly at it; 0 never expires', () => {
    const g = root({ expiry: 50n });
    expect(verdict(request([g], { now_s: 49n }))).toEqual(['allow']);
    expect(verdict(request([g], { now_s: 50n }))).toEqual(['deny', 'expired', 'the grant expired at 50']);
    expect(verdict(request([root()], { now_s: (1n << 64n) - 1n }))).toEqual(['allow']);
    expect(isExpired(g.grant, 49n)).toBe(false);
    expect(isExpired(g.grant, 50n)).toBe(true);
    expect(isExpired(root().grant, 0n)).toBe(false);
  });

  it('budget: prior spend + cost exactly at budget_uj allows, one µJ past denies naming the sums', () => {
    const g = root();
    const id = grantId(g.grant);
    expect(verdict(request([g]), state({ spent: { [id]: 90n } }))).toEqual(['allow']);
    expect(verdict(request([g]), state({ spent: { [id]: 91n } }))).toEqual(['deny', 'budget-exceeded', 'link 0: spent 91 + cost 10 > budget_uj 100']);
    expect(verdict(request([g], { cost: { uj: 101n, provenance: 'HwShunt' } }))).toEqual(['deny', 'budget-exceeded', 'link 0: spent 0 + cost 101 > budget_uj 100']);
  });

  it('an allow names the grant and, outside the authorize phase, carries no pending caveats', () => {
    const g = root();
    expect(judge(request([g]), state())).toEqual({ verdict: 'allow', ids: ids([g]) });
    expect(judge(request([g]), state(), undefined, 'settle')).toEqual({ verdict: 'allow', ids: ids([g]) });
    expect(judge(request([g]), state(), undefined, 'authorize')).toEqual({ verdict: 'allow', ids: ids([g]), pending: [] });
  });
});

describe('jcp §7 the order of the checks: the first failure names the reason', () => {
  // each case fails its own check and the next one; the earlier must win
  it('each check is made before the next', () => {
    const g = root({ expiry: 5n });
    const id = grantId(g.grant);
    expect(verdict(request([g], { frame: { trust: 'data' } }), state({ revoked: [id] }))[1]).toBe('untrusted-control');
    expect(verdict(request([g]), state({ revoked: [id], roots: [dave.did] }))[1]).toBe('revoked');
    expect(verdict(request([g], { frame: { grant_id: OTHER } }), state({ roots: [dave.did] }))[1]).toBe('untrusted-root');
    expect(verdict(request([g], { frame: { grant_id: OTHER }, caller: dave.did }))[2]).toMatch(/^the frame exercises grant/);
    expect(verdict(request([forged(g)], { caller: dave.did }))[1]).toBe('wrong-subject');
    expect(verdict(request([forged(g)], { now_s: 5n }))[1]).toBe('bad-signature');
    expect(verdict(request([g], { now_s: 5n, frame: { resource: OTHER } }))[1]).toBe('expired');
    expect(verdict(request([g], { now_s: 1n, frame: { resource: OTHER, action: 'write' } }))[2]).toMatch(/^the frame names resource/);
  });

  it('action-not-granted before flow-denied, flow before caveats, caveats before the budget (jcp §4.10)', () => {
    const g = root({ caveats: [{ FlowBelow: { ceiling: BOTTOM_LABEL } }, { NotBefore: 20n }] });
    const id = grantId(g.grant);
    expect(verdict(request([g], { frame: { action: 'write' } }))[1]).toBe('action-not-granted');
    expect(verdict(request([g], { label: WEB }))[1]).toBe('flow-denied');
    expect(verdict(request([g], { label: BOTTOM_LABEL }), state({ spent: { [id]: 100n } }))).toEqual(['deny', 'caveat-unsatisfied', 'link 0: caveat NotBefore does not hold']);
    expect(verdict(request([g], { label: BOTTOM_LABEL, now_s: 20n }), state({ spent: { [id]: 100n } }))[1]).toBe('budget-exceeded');
  });
});

describe('jcp §4.2 a chain: structure, narrowing and signatures of every hop', () => {
  it('a chain whose first grant has a parent is chain-broken', () => {
    const r = root();
    const c = hop(r);
    const d = attenuate(c, carol, { subject: dave.did, nonce: n16(3) });
    expect(verdict(request([c, d]))).toEqual(['deny', 'chain-broken', 'the first grant of the chain has a parent: it is not a root']);
  });

  it('a structural fault names its hop', () => {
    const r = root();
    const c = hop(r);
    const stranger = raw({ ...c.grant, parent: OTHER });
    expect(verdict(request([r, stranger]))).toEqual(['deny', 'chain-broken', "hop 1: the child's parent is not the id of the grant before it"]);
    const d = attenuate(c, carol, { subject: dave.did, nonce: n16(3) });
    const wrongIssuer = raw({ ...d.grant, issuer: bob.did });
    expect(verdict(request([r, c, wrongIssuer]))).toEqual(['deny', 'chain-broken', "hop 2: the child is not issued by the previous grant's subject"]);
  });

  it('an amplifying hop is attenuation-violation naming its hop; structure is judged on every hop first', () => {
    const r = root();
    const c = hop(r);
    const wide = raw({ ...c.grant, budget_uj: 101n });
    expect(verdict(request([r, wide]))).toEqual(['deny', 'attenuation-violation', 'hop 1: child budget_uj 101 exceeds parent budget_uj 100']);
    const d = attenuate(c, carol, { subject: dave.did, nonce: n16(3) });
    const d2 = raw({ ...d.grant, budget_uj: 101n }, carol);
    expect(verdict(request([r, c, d2]))[2]).toBe('hop 2: child budget_uj 101 exceeds parent budget_uj 100');
    // hop 1 amplifies, hop 2 is broken: the broken structure is named
    const e = raw({ ...d.grant, parent: OTHER }, carol);
    expect(verdict(request([r, wide, e]))[1]).toBe('chain-broken');
  });

  it('a forged signature on any link is bad-signature naming the link, after narrowing', () => {
    const r = root();
    const c = hop(r);
    expect(verdict(request([forged(r), c]))).toEqual(['deny', 'bad-signature', "link 0: the issuer's signature does not verify"]);
    expect(verdict(request([r, forged(c)]))).toEqual(['deny', 'bad-signature', "link 1: the issuer's signature does not verify"]);
    const wide = forged(raw({ ...c.grant, budget_uj: 101n }));
    expect(verdict(request([r, wide]))[1]).toBe('attenuation-violation');
  });

  it('a well-formed chain is allowed and names every link, root first', () => {
    const r = root();
    const c = hop(r, { budget_uj: 50n });
    const d = attenuate(c, carol, { subject: dave.did, nonce: n16(3) });
    expect(judge(request([r, c, d]), state())).toEqual({ verdict: 'allow', ids: ids([r, c, d]) });
  });
});

describe('jcp §4.2, §4.3, §7 a chain: revocation, roots, expiry and budget of every link', () => {
  it('a revoked link names its index, root or leaf', () => {
    const r = root();
    const c = hop(r);
    expect(verdict(request([r, c]), state({ revoked: [grantId(r.grant)] }))).toEqual(['deny', 'revoked', 'link 0 is revoked']);
    expect(verdict(request([r, c]), state({ revoked: [grantId(c.grant)] }))).toEqual(['deny', 'revoked', 'link 1 is revoked']);
  });

  it('the root issuer, not the leaf issuer, must be a trust root', () => {
    const r = root();
    const c = hop(r);
    expect(verdict(request([r, c]), state({ roots: [bob.did] }))).toEqual(['deny', 'untrusted-root', `${alice.did} is not a configured trust root for resource ${TOOL}`]);
    expect(verdict(request([r, c]), state({ roots: [alice.did] }))).toEqual(['allow']);
  });

  it('an expired link names its index and expiry; one second before, the chain is allowed', () => {
    const r = root({ expiry: 100n });
    const c = hop(r, { expiry: 50n });
    expect(verdict(request([r, c], { now_s: 49n }))).toEqual(['allow']);
    expect(verdict(request([r, c], { now_s: 50n }))).toEqual(['deny', 'expired', 'link 1 expired at 50']);
    expect(verdict(request([r, hop(r)], { now_s: 100n }))).toEqual(['deny', 'expired', 'link 0 expired at 100']);
  });

  it('the leaf checks apply to the leaf: its id, subject, resource and actions', () => {
    const r = root();
    const c = hop(r, { actions: ['read'] });
    expect(verdict(request([r, c], { frame: { grant_id: grantId(r.grant) } }))[1]).toBe('wrong-resource');
    expect(verdict(request([r, c], { caller: bob.did }))).toEqual(['deny', 'wrong-subject', `caller ${bob.did} is not the grant's subject ${carol.did}`]);
    expect(verdict(request([r, c]))).toEqual(['deny', 'action-not-granted', 'action "call" is not granted']);
    expect(verdict(request([r, c], { frame: { action: 'read' } }))).toEqual(['allow']);
  });

  it('the cost must fit every link: a spent root denies a leaf with room, naming the root', () => {
    const r = root();
    const c = hop(r, { budget_uj: 50n });
    expect(verdict(request([r, c]), state({ spent: { [grantId(r.grant)]: 91n } }))).toEqual(['deny', 'budget-exceeded', 'link 0: spent 91 + cost 10 > budget_uj 100']);
    expect(verdict(request([r, c]), state({ spent: { [grantId(r.grant)]: 90n, [grantId(c.grant)]: 40n } }))).toEqual(['allow']);
    expect(verdict(request([r, c]), state({ spent: { [grantId(c.grant)]: 41n } }))).toEqual(['deny', 'budget-exceeded', 'link 1: spent 41 + cost 10 > budget_uj 50']);
  });
});

describe('jcp §4.9 caveats: each variant at its boundary', () => {
  const at = (c: Caveat, x: RequestFields = {}) => caveatHolds(c, request([root()], x));
  const M1 = contentId({ model: 1 });
  const M2 = contentId({ model: 2 });

  it('ActionIn, PayloadIs, CallerIs', () => {
    expect(at({ ActionIn: ['call'] })).toBe(true);
    expect(at({ ActionIn: ['read'] })).toBe(false);
    expect(at({ PayloadIs: contentId({ payload: 'args' }) })).toBe(true);
    expect(at({ PayloadIs: OTHER })).toBe(false);
    expect(at({ CallerIs: bob.did })).toBe(true);
    expect(at({ CallerIs: dave.did })).toBe(false);
  });

  it('NotBefore holds from its second on, NotAfter up to and including its second', () => {
    expect(at({ NotBefore: 10n }, { now_s: 9n })).toBe(false);
    expect(at({ NotBefore: 10n }, { now_s: 10n })).toBe(true);
    expect(at({ NotAfter: 10n }, { now_s: 10n })).toBe(true);
    expect(at({ NotAfter: 10n }, { now_s: 11n })).toBe(false);
  });

  it('MaxCostUj holds at its ceiling and not one µJ past', () => {
    expect(at({ MaxCostUj: 10n }, { cost: { uj: 10n, provenance: 'HwShunt' } })).toBe(true);
    expect(at({ MaxCostUj: 10n }, { cost: { uj: 11n, provenance: 'HwShunt' } })).toBe(false);
  });

  it('ModelIn fails closed on a frame that names no model', () => {
    expect(at({ ModelIn: [M1] })).toBe(false);
    expect(at({ ModelIn: [M1] }, { frame: { model: M1 } })).toBe(true);
    expect(at({ ModelIn: [M1] }, { frame: { model: M2 } })).toBe(false);
  });

  it('FlowBelow is no condition here (the flow gate judges it); an unknown variant never holds', () => {
    expect(at({ FlowBelow: { ceiling: BOTTOM_LABEL } }, { label: WEB })).toBe(true);
    expect(at({ Unheard: 1 } as unknown as Caveat)).toBe(false);
  });

  it('an unsatisfied caveat is caveat-unsatisfied naming the link that carries it', () => {
    const r = root({ caveats: [{ ActionIn: ['call'] }] });
    expect(verdict(request([r], { frame: { action: 'read' } }))).toEqual(['deny', 'caveat-unsatisfied', 'link 0: caveat ActionIn does not hold']);
    const c = hop(r, { add_caveats: [{ NotAfter: 5n }] });
    expect(verdict(request([r, c]))).toEqual(['deny', 'caveat-unsatisfied', 'link 1: caveat NotAfter does not hold']);
    expect(verdict(request([r, c], { now_s: 5n }))).toEqual(['allow']);
  });
});

describe('jcp §4.9 the two-phase metered path', () => {
  it('MaxCostUj is the cost-dependent caveat; the others are not', () => {
    expect(isCostDependent({ MaxCostUj: 1n })).toBe(true);
    expect(isCostDependent({ NotAfter: 1n })).toBe(false);
    expect(isCostDependent({ ActionIn: ['call'] })).toBe(false);
  });

  it('authorize lets a cost-dependent caveat wait, returned pending from every link; settle enforces it', () => {
    const r = root({ caveats: [{ MaxCostUj: 5n }] });
    const c = hop(r, { add_caveats: [{ MaxCostUj: 4n }] });
    const req = request([r, c]);
    expect(judge(req, state(), undefined, 'authorize')).toEqual({ verdict: 'allow', ids: ids([r, c]), pending: [{ MaxCostUj: 5n }, { MaxCostUj: 5n }, { MaxCostUj: 4n }] });
    expect(verdict(req, state(), 'settle')).toEqual(['deny', 'caveat-unsatisfied', 'link 0: caveat MaxCostUj does not hold']);
    expect(verdict(req, state(), 'single')).toEqual(['deny', 'caveat-unsatisfied', 'link 0: caveat MaxCostUj does not hold']);
  });

  it('a cost-independent caveat is enforced in the authorize phase too', () => {
    const r = root({ caveats: [{ MaxCostUj: 50n }, { NotBefore: 20n }] });
    expect(verdict(request([r]), state(), 'authorize')).toEqual(['deny', 'caveat-unsatisfied', 'link 0: caveat NotBefore does not hold']);
  });
});

describe('jcp §4.10 the label order and ⊥', () => {
  it('⊥ is principal, from no channel, readable by all: any other component is not ⊥', () => {
    expect(isBottom(L('principal', [], 'all'))).toBe(true);
    expect(isBottom(L('untrusted', [], 'all'))).toBe(false);
    expect(isBottom(L('principal', 'any', 'all'))).toBe(false);
    expect(isBottom(L('principal', ['web'], 'all'))).toBe(false);
    expect(isBottom(L('principal', [], []))).toBe(false);
    expect(isBottom(L('principal', [], [bob.did]))).toBe(false);
    expect(Object.isFrozen(BOTTOM_LABEL) && isBottom(BOTTOM_LABEL)).toBe(true);
  });

  it('an absent label and any label that is not ⊥ is tainted', () => {
    expect(isTainted(undefined)).toBe(true);
    expect(isTainted(BOTTOM_LABEL)).toBe(false);
    expect(isTainted(L('principal', [], [bob.did]))).toBe(true);
  });

  it('integrity: untrusted sits below untrusted only', () => {
    expect(labelLeq(L('untrusted', [], 'all'), L('untrusted', [], 'all'))).toBe(true);
    expect(labelLeq(L('principal', [], 'all'), L('untrusted', [], 'all'))).toBe(true);
    expect(labelLeq(L('untrusted', [], 'all'), L('principal', [], 'all'))).toBe(false);
  });

  it("origins: 'any' sits below 'any' only; every listed origin must be in the ceiling", () => {
    expect(labelLeq(L('principal', 'any', 'all'), L('principal', 'any', 'all'))).toBe(true);
    expect(labelLeq(L('principal', 'any', 'all'), L('principal', ['web'], 'all'))).toBe(false);
    expect(labelLeq(L('principal', ['mail', 'web'], 'all'), L('principal', 'any', 'all'))).toBe(true);
    expect(labelLeq(L('principal', ['mail', 'web'], 'all'), L('principal', ['web'], 'all'))).toBe(false);
  });

  it("readers: 'all' sits below everything; a reader set sits below 'all' never, below a subset of itself", () => {
    expect(labelLeq(L('principal', [], 'all'), L('principal', [], []))).toBe(true);
    expect(labelLeq(L('principal', [], [bob.did]), L('principal', [], 'all'))).toBe(false);
    expect(labelLeq(L('principal', [], [bob.did]), L('principal', [], []))).toBe(true);
    expect(labelLeq(L('principal', [], [bob.did]), L('principal', [], [carol.did]))).toBe(false);
  });
});

describe('jcp §4.10 the flow gate', () => {
  const ceiling = (c: Label, tainted_budget_uj?: bigint): Caveat => ({ FlowBelow: { ceiling: c, ...(tainted_budget_uj !== undefined ? { tainted_budget_uj } : {}) } });

  it('flowCeilings lists every FlowBelow with its link, and nothing for a chain without one', () => {
    const r = root({ caveats: [{ NotAfter: 99n }, ceiling(WEB)] });
    const c = hop(r, { add_caveats: [ceiling(BOTTOM_LABEL, 3n)] });
    expect(flowCeilings([root()])).toEqual([]);
    expect(flowCeilings([root({ caveats: [{ NotAfter: 99n }] })])).toEqual([]);
    expect(flowCeilings([r, c])).toEqual([
      { link: 0, flow: { ceiling: WEB } },
      { link: 1, flow: { ceiling: WEB } },
      { link: 1, flow: { ceiling: BOTTOM_LABEL, tainted_budget_uj: 3n } },
    ]);
  });

  it('an absent label fails closed against a ceiling (naming its first link) or a floor', () => {
    const r = root();
    const c = hop(r, { add_caveats: [ceiling(WEB)] });
    expect(flowFault(undefined, [r, c], undefined)).toBe("link 1 carries a flow ceiling and the argument's provenance was not computed");
    expect(flowFault(undefined, [r, c], new Set(['web']))).toBe("link 1 carries a flow ceiling and the argument's provenance was not computed");
    expect(flowFault(undefined, [r], new Set(['web']))).toBe("the resource has a taint floor and the argument's provenance was not computed");
    expect(flowFault(undefined, [r], undefined)).toBeUndefined();
  });

  it('⊥ passes any ceiling and any floor', () => {
    const r = root({ caveats: [ceiling(L('principal', [], []))] });
    expect(flowFault(BOTTOM_LABEL, [r], new Set())).toBeUndefined();
  });

  it('a tainted label must sit below every ceiling: the strictest governs, naming its link', () => {
    const r = root({ caveats: [ceiling(L('untrusted', 'any', 'all'))] });
    const c = hop(r, { add_caveats: [ceiling(L('untrusted', ['mail'], 'all'))] });
    expect(flowFault(WEB, [r], undefined)).toBeUndefined();
    expect(flowFault(WEB, [r, c], undefined)).toBe("link 1: the argument's label does not sit at or below the grant's flow ceiling");
    expect(flowFault(L('untrusted', ['mail'], 'all'), [r, c], undefined)).toBeUndefined();
  });

  it("the taint floor refuses origins 'any' and each origin it does not list, naming it", () => {
    const r = root();
    expect(flowFault(L('untrusted', 'any', 'all'), [r], new Set(['web']))).toBe("the resource's taint floor refuses origins 'any'");
    expect(flowFault(L('untrusted', ['mail', 'web'], 'all'), [r], new Set(['web']))).toBe('the resource\'s taint floor refuses origin "mail"');
    expect(flowFault(L('untrusted', ['mail', 'web'], 'all'), [r], new Set(['mail', 'web']))).toBeUndefined();
    expect(flowFault(L('untrusted', [], [bob.did]), [r], new Set())).toBeUndefined();
  });

  it('the decision denies flow-denied with the gate’s reason, reading the floor of the frame’s resource', () => {
    const r = root({ caveats: [ceiling(BOTTOM_LABEL)] });
    expect(verdict(request([r], { label: WEB }))).toEqual(['deny', 'flow-denied', "link 0: the argument's label does not sit at or below the grant's flow ceiling"]);
    expect(verdict(request([r]))).toEqual(['deny', 'flow-denied', "link 0 carries a flow ceiling and the argument's provenance was not computed"]);
    expect(verdict(request([r], { label: BOTTOM_LABEL }))).toEqual(['allow']);
    expect(verdict(request([root()], { label: WEB }), state({ floor: ['mail'] }))).toEqual(['deny', 'flow-denied', 'the resource\'s taint floor refuses origin "web"']);
    expect(verdict(request([root()], { label: WEB }), state({ floor: ['web'] }))).toEqual(['allow']);
    expect(verdict(request([root()], { label: WEB }))).toEqual(['allow']);
  });
});

describe('jcp §4.10 tainted_budget_uj: the separate joule allowance of a tainted call', () => {
  const r = () => root({ caveats: [{ FlowBelow: { ceiling: WEB, tainted_budget_uj: 20n } }] });

  it('a tainted call fits the allowance exactly and is denied one µJ past, budget-exceeded naming the sums', () => {
    const g = r();
    const id = grantId(g.grant);
    expect(verdict(request([g], { label: WEB }), state({ taintedSpent: { [id]: 10n } }))).toEqual(['allow']);
    expect(verdict(request([g], { label: WEB }), state({ taintedSpent: { [id]: 11n } }))).toEqual(['deny', 'budget-exceeded', 'link 0: tainted spend 11 + cost 10 > tainted_budget_uj 20']);
    expect(verdict(request([g], { label: WEB, cost: { uj: 21n, provenance: 'HwShunt' } }))).toEqual(['deny', 'budget-exceeded', 'link 0: tainted spend 0 + cost 21 > tainted_budget_uj 20']);
  });

  it('a ⊥ call is bound by the joule budget alone', () => {
    const g = r();
    expect(verdict(request([g], { label: BOTTOM_LABEL, cost: { uj: 100n, provenance: 'HwShunt' } }), state({ taintedSpent: { [grantId(g.grant)]: 20n } }))).toEqual(['allow']);
  });

  it('the allowance is checked against the link that carries it, after the joule budget of every link', () => {
    const p = root();
    const c = hop(p, { add_caveats: [{ FlowBelow: { ceiling: WEB, tainted_budget_uj: 5n } }, { FlowBelow: { ceiling: WEB } }] });
    expect(verdict(request([p, c], { label: WEB }), state({ taintedSpent: { [grantId(p.grant)]: 0n } }))).toEqual([
      'deny',
      'budget-exceeded',
      'link 1: tainted spend 0 + cost 10 > tainted_budget_uj 5',
    ]);
    expect(verdict(request([p, c], { label: WEB, cost: { uj: 5n, provenance: 'HwShunt' } }))).toEqual(['allow']);
    expect(verdict(request([p, c], { label: WEB }), state({ spent: { [grantId(p.grant)]: 95n } }))[2]).toBe('link 0: spent 95 + cost 10 > budget_uj 100');
  });
});

describe('jcp §4.8 the money ceiling on a priced decision', () => {
  const usd = (minor: bigint): Funds => ({ currency: 'USD', minor });

  it('funds: the price exactly at the remaining ceiling allows, one minor unit past is funds-exceeded', () => {
    const g = root({ budget_funds: usd(50n) });
    const id = grantId(g.grant);
    expect(verdict(request([g], { cost_funds: usd(20n) }), state({ spentFunds: { [id]: 30n } }))).toEqual(['allow']);
    expect(verdict(request([g], { cost_funds: usd(20n) }), state({ spentFunds: { [id]: 31n } }))).toEqual(['deny', 'funds-exceeded', 'link 0: money spent 31 + cost 20 > budget_funds.minor 50 USD']);
    expect(verdict(request([g], { cost_funds: usd(51n) }))).toEqual(['deny', 'funds-exceeded', 'link 0: money spent 0 + cost 51 > budget_funds.minor 50 USD']);
  });

  it('a cost in another currency is currency-mismatch, never compared by amount', () => {
    const g = root({ budget_funds: usd(50n) });
    expect(verdict(request([g], { cost_funds: { currency: 'EUR', minor: 1n } }))).toEqual(['deny', 'currency-mismatch', 'link 0: the cost is in EUR, the money ceiling in USD']);
    expect(verdict(request([g], { cost_funds: { currency: 'EUR', minor: 99n } }))[1]).toBe('currency-mismatch');
  });

  it('an unpriced decision and a link without budget_funds are bound by joules alone', () => {
    const g = root({ budget_funds: usd(0n) });
    expect(verdict(request([g]), state({ spentFunds: { [grantId(g.grant)]: 99n } }))).toEqual(['allow']);
    expect(verdict(request([root()], { cost_funds: { currency: 'EUR', minor: 10n ** 9n } }))).toEqual(['allow']);
  });

  it('every link with a ceiling is checked, naming it; an unbounded root is skipped', () => {
    const p = root();
    const c = hop(p, { budget_funds: usd(10n) });
    expect(verdict(request([p, c], { cost_funds: usd(11n) }))).toEqual(['deny', 'funds-exceeded', 'link 1: money spent 0 + cost 11 > budget_funds.minor 10 USD']);
    expect(verdict(request([p, c], { cost_funds: usd(10n) }))).toEqual(['allow']);
    const q = root({ budget_funds: usd(30n) });
    const d = hop(q, { budget_funds: usd(10n) });
    expect(verdict(request([q, d], { cost_funds: usd(5n) }), state({ spentFunds: { [grantId(q.grant)]: 26n } }))[2]).toBe('link 0: money spent 26 + cost 5 > budget_funds.minor 30 USD');
  });

  it('the joule ceilings first: a call past both is budget-exceeded (jcp §4.2)', () => {
    const g = root({ budget_funds: usd(5n), caveats: [{ FlowBelow: { ceiling: WEB, tainted_budget_uj: 1n } }] });
    expect(verdict(request([g], { cost_funds: usd(6n), cost: { uj: 101n, provenance: 'HwShunt' }, label: BOTTOM_LABEL }))[1]).toBe('budget-exceeded');
    expect(verdict(request([g], { cost_funds: usd(6n), label: WEB }))[2]).toBe('link 0: tainted spend 0 + cost 10 > tainted_budget_uj 1');
  });
});
