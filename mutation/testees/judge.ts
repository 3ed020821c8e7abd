// Clause mutants: a copy of the reference's jcp §7 decision (impl/jcp/decide.ts `judge`) and of the
// §4.1/§4.2/§4.4 narrowing and structure checks (impl/jcp/attenuate.ts), each check behind a switch, so that a mutant
// testee can turn exactly ONE rule off. With no switch set the copy answers exactly as the reference does (the
// matrix's control mutant checks that). impl/ itself is never edited for a mutant.
import {
  caveatHolds,
  flowCeilings,
  flowFault,
  isTainted,
  grantId,
  verifyGrantSignature,
  bytesEqual,
  caveatToCbor,
  encodeCanonical,
  type Caveat,
  type ContentId,
  type DecisionRequest,
  type DecisionState,
  type DenyReason,
  type Grant,
  type Judgement,
  type NarrowingAxis,
  type NarrowingFault,
  type SignedGrant,
} from '../../impl/index.ts';

/** One rule of the decision a mutant turns off or gets wrong. */
export type JudgeFault =
  | 'data-frame-allowed' // jcp §6/§7 untrusted-control skipped
  | 'delegated-alone-accepted' // §4.2 a single delegated grant decided on its own
  | 'structure-parent-unchecked' // §4.2 a hop's parent link not compared
  | 'structure-issuer-unchecked' // §4.2 a hop not required to be issued by the previous subject
  | 'structure-leaf-only-unchecked' // §4.4 a hop under a leaf-only parent accepted (chain and attenuation)
  | 'chain-signatures-unchecked' // §4.2 links' signatures not verified on the chained path
  | 'amplifying-denied-chain-broken' // §4.2 an amplifying chain denied with the wrong reason
  | 'revocation-unchecked-direct' // §4.3 the direct path ignores revocation
  | 'revocation-unchecked-chained' // §4.3 the chained path ignores revocation
  | 'revocation-leaf-only' // §4.3 ancestors' revocation ignored
  | 'roots-unchecked' // §7 C15 untrusted root allowed
  | 'roots-closed-when-unconfigured' // §7 C15 an unconfigured resource closed
  | 'roots-leaf-issuer' // §7 C15 the leaf's issuer compared instead of the root's
  | 'expiry-boundary-open' // §7 expired only when now > expiry (now == expiry accepted)
  | 'expiry-wall-clock' // §7 expiry judged against the wall clock, not the request's now_s
  | 'chained-expiry-leaf-only' // §4.2 expiry of the leaf only on the chained path
  | 'chained-expiry-before-revocation' // §7 chained order: expiry before revocation
  | 'grant-id-unchecked' // §7 frame grant_id ≠ grant id not denied
  | 'subject-unchecked' // §7 wrong-subject skipped
  | 'signature-unchecked' // §7 bad-signature skipped (single grant)
  | 'expired-before-signature' // §7 order: expired checked before bad-signature
  | 'subject-after-resource' // §7 order: wrong-subject checked after wrong-resource
  | 'resource-unchecked' // §7 wrong-resource (capability) skipped
  | 'action-unchecked' // §7 action-not-granted skipped
  | 'caveats-leaf-only' // §4.2 caveats of the leaf only
  | 'caveats-first-only' // §4.9 only the first caveat of each grant evaluated
  | 'budget-leaf-only' // §4.2 only the leaf's budget checked
  | 'budget-ignores-prior' // §7 prior spend not counted
  | 'budget-exact-fit-denied'; // §7 prior + cost == budget denied

/** The switches of one mutant: decision faults and narrowing axes left unchecked. */
export interface JudgeFaults {
  readonly judge: ReadonlySet<JudgeFault>;
  readonly unchecked: ReadonlySet<NarrowingAxis>;
}

export const NO_FAULTS: JudgeFaults = { judge: new Set(), unchecked: new Set() };

const caveatKey = (c: Caveat): Uint8Array => encodeCanonical(caveatToCbor(c));

/** impl/jcp/attenuate.ts narrowingFault with the axes in `unchecked` not checked. */
export function mutantNarrowingFault(parent: Grant, child: Grant, unchecked: ReadonlySet<NarrowingAxis>): NarrowingFault | undefined {
  if (!unchecked.has('resource') && child.capability.resource !== parent.capability.resource) {
    return { axis: 'resource', message: 'the child names a different resource than its parent' };
  }
  if (!unchecked.has('actions')) {
    for (const a of child.capability.actions) {
      if (!parent.capability.actions.includes(a)) return { axis: 'actions', message: `the child grants action ${JSON.stringify(a)} its parent does not` };
    }
  }
  if (!unchecked.has('budget') && child.budget_uj > parent.budget_uj) {
    return { axis: 'budget', message: `child budget_uj ${child.budget_uj} exceeds parent budget_uj ${parent.budget_uj}` };
  }
  if (!unchecked.has('expiry') && parent.expiry !== 0n && (child.expiry === 0n || child.expiry > parent.expiry)) {
    return { axis: 'expiry', message: `child expiry ${child.expiry} outlives parent expiry ${parent.expiry}` };
  }
  if (!unchecked.has('depth') && parent.delegate_depth !== undefined && parent.delegate_depth > 0n) {
    if (child.delegate_depth === undefined || child.delegate_depth > parent.delegate_depth - 1n) {
      return { axis: 'depth', message: `child delegate_depth exceeds its parent's ${parent.delegate_depth} − 1` };
    }
  }
  if (!unchecked.has('caveats') && parent.caveats !== undefined) {
    const have = (child.caveats ?? []).map(caveatKey);
    for (const pc of parent.caveats) {
      const k = caveatKey(pc);
      if (!have.some((h) => bytesEqual(h, k))) return { axis: 'caveats', message: `the child drops its parent's caveat ${Object.keys(pc)[0]}` };
    }
  }
  if (!unchecked.has('funds') && parent.budget_funds !== undefined) {
    const cf = child.budget_funds;
    if (cf === undefined) return { axis: 'funds', message: "the child drops its parent's money ceiling" };
    if (cf.currency !== parent.budget_funds.currency) return { axis: 'funds', message: 'the child re-denominates the money ceiling' };
    if (cf.minor > parent.budget_funds.minor) return { axis: 'funds', message: "the child's money ceiling exceeds its parent's" };
  }
  return undefined;
}

/** impl/jcp/attenuate.ts structuralFault with the mutant's structure switches. */
export function mutantStructuralFault(parent: SignedGrant, child: SignedGrant, f: ReadonlySet<JudgeFault>): string | undefined {
  if (!f.has('structure-parent-unchecked') && child.grant.parent !== grantId(parent.grant)) return "the child's parent is not the id of the grant before it";
  if (!f.has('structure-issuer-unchecked') && child.grant.issuer !== parent.grant.subject) return "the child is not issued by the previous grant's subject";
  if (!f.has('structure-leaf-only-unchecked') && parent.grant.delegate_depth === 0n) return 'the parent is leaf-only (delegate_depth 0) and may not be delegated';
  return undefined;
}

function deny(deny_reason: DenyReason, why: string, ids: readonly ContentId[]): Judgement {
  return { verdict: 'deny', deny_reason, why, ids };
}

function expired(g: Grant, now_s: bigint, f: ReadonlySet<JudgeFault>): boolean {
  if (g.expiry === 0n) return false;
  const now = f.has('expiry-wall-clock') ? BigInt(Math.floor(Date.now() / 1000)) : now_s;
  return f.has('expiry-boundary-open') ? now > g.expiry : now >= g.expiry;
}

/**
 * impl/jcp/decide.ts `judge` (phase 'single'), with the mutant's switches; the money (§4.8) and tainted-allowance
 * (§4.10) checks copied unchanged.
 */
export function mutantJudge(req: DecisionRequest, state: DecisionState, faults: JudgeFaults): Judgement {
  const f = faults.judge;
  const { frame, chain, caller, cost, now_s } = req;
  if (chain.length === 0) return deny('chain-broken', 'no grant was presented', []);
  const ids = chain.map((sg) => grantId(sg.grant));
  const root = chain[0]!.grant;
  const leafSg = chain[chain.length - 1]!;
  const leaf = leafSg.grant;
  const leafId = ids[ids.length - 1]!;
  const chained = chain.length > 1;

  if (!f.has('data-frame-allowed') && frame.trust !== 'control') return deny('untrusted-control', 'a data frame', ids);
  if (root.parent !== undefined && !(f.has('delegated-alone-accepted') && !chained)) return deny('chain-broken', 'the first grant has a parent', ids);
  if (chained) {
    for (let i = 1; i < chain.length; i++) {
      const s = mutantStructuralFault(chain[i - 1]!, chain[i]!, f);
      if (s) return deny('chain-broken', `hop ${i}: ${s}`, ids);
    }
    for (let i = 1; i < chain.length; i++) {
      const n = mutantNarrowingFault(chain[i - 1]!.grant, chain[i]!.grant, faults.unchecked);
      if (n) return deny(f.has('amplifying-denied-chain-broken') ? 'chain-broken' : 'attenuation-violation', `hop ${i}: ${n.message}`, ids);
    }
    if (!f.has('chain-signatures-unchecked')) {
      for (let i = 0; i < chain.length; i++) if (!verifyGrantSignature(chain[i]!)) return deny('bad-signature', `link ${i}`, ids);
    }
  }
  const chainedExpiry = (): Judgement | undefined => {
    const from = f.has('chained-expiry-leaf-only') ? chain.length - 1 : 0;
    for (let i = from; i < chain.length; i++) if (expired(chain[i]!.grant, now_s, f)) return deny('expired', `link ${i} expired`, ids);
    return undefined;
  };
  if (chained && f.has('chained-expiry-before-revocation')) {
    const e = chainedExpiry();
    if (e) return e;
  }
  const checkRevocation = chained ? !f.has('revocation-unchecked-chained') : !f.has('revocation-unchecked-direct');
  if (checkRevocation) {
    const from = f.has('revocation-leaf-only') ? ids.length - 1 : 0;
    for (let i = from; i < ids.length; i++) if (state.isRevoked(ids[i]!)) return deny('revoked', `link ${i} is revoked`, ids);
  }
  const roots = state.trustRoots(frame.resource);
  const anchor = f.has('roots-leaf-issuer') ? leaf.issuer : root.issuer;
  if (!f.has('roots-unchecked')) {
    if (roots === undefined ? f.has('roots-closed-when-unconfigured') : !roots.has(anchor)) return deny('untrusted-root', `${anchor} is not a trust root`, ids);
  }
  if (chained && !f.has('chained-expiry-before-revocation')) {
    const e = chainedExpiry();
    if (e) return e;
  }
  if (!f.has('grant-id-unchecked') && frame.grant_id !== leafId) return deny('wrong-resource', 'the frame names another grant', ids);
  const subjectFault = (): Judgement | undefined => (!f.has('subject-unchecked') && caller !== leaf.subject ? deny('wrong-subject', 'caller is not the subject', ids) : undefined);
  if (!f.has('subject-after-resource')) {
    const s = subjectFault();
    if (s) return s;
  }
  if (!chained) {
    const sig = (): Judgement | undefined => (!f.has('signature-unchecked') && !verifyGrantSignature(leafSg) ? deny('bad-signature', 'bad signature', ids) : undefined);
    const exp = (): Judgement | undefined => (expired(leaf, now_s, f) ? deny('expired', `the grant expired at ${leaf.expiry}`, ids) : undefined);
    const order = f.has('expired-before-signature') ? [exp, sig] : [sig, exp];
    for (const check of order) {
      const r = check();
      if (r) return r;
    }
  }
  if (!f.has('resource-unchecked') && frame.resource !== leaf.capability.resource) return deny('wrong-resource', 'another resource', ids);
  if (f.has('subject-after-resource')) {
    const s = subjectFault();
    if (s) return s;
  }
  if (!f.has('action-unchecked') && !leaf.capability.actions.includes(frame.action)) return deny('action-not-granted', 'action not granted', ids);
  const flow = flowFault(req.label, chain, state.taintFloor?.(frame.resource));
  if (flow !== undefined) return deny('flow-denied', flow, ids);
  const firstLink = f.has('caveats-leaf-only') ? chain.length - 1 : 0;
  for (let i = firstLink; i < chain.length; i++) {
    const cs = chain[i]!.grant.caveats ?? [];
    for (const c of f.has('caveats-first-only') ? cs.slice(0, 1) : cs) {
      if (!caveatHolds(c, req)) return deny('caveat-unsatisfied', `link ${i}: caveat ${Object.keys(c)[0]}`, ids);
    }
  }
  const firstBudget = f.has('budget-leaf-only') ? chain.length - 1 : 0;
  for (let i = firstBudget; i < chain.length; i++) {
    const g = chain[i]!.grant;
    const prior = f.has('budget-ignores-prior') ? 0n : state.spent(ids[i]!);
    const over = f.has('budget-exact-fit-denied') ? prior + cost.uj >= g.budget_uj : prior + cost.uj > g.budget_uj;
    if (over) return deny('budget-exceeded', `link ${i}: over budget`, ids);
  }
  // impl/jcp/decide.ts taintedBudgetFault (§4.10) and moneyFault (§4.8), unchanged
  if (isTainted(req.label)) {
    for (const { link, flow } of flowCeilings(chain)) {
      if (flow.tainted_budget_uj === undefined) continue;
      if ((state.taintedSpent?.(ids[link]!) ?? 0n) + cost.uj > flow.tainted_budget_uj) return deny('budget-exceeded', `link ${link}: tainted allowance`, ids);
    }
  }
  const price = req.cost_funds;
  if (price !== undefined) {
    for (let i = 0; i < chain.length; i++) {
      const ceiling = chain[i]!.grant.budget_funds;
      if (ceiling === undefined) continue;
      if (price.currency !== ceiling.currency) return deny('currency-mismatch', `link ${i}: another currency`, ids);
      if ((state.spentFunds?.(ids[i]!) ?? 0n) + price.minor > ceiling.minor) return deny('funds-exceeded', `link ${i}: over the money ceiling`, ids);
    }
  }
  return { verdict: 'allow', ids };
}

/** Whether two judgements give the same verdict and reason (the part a receipt and the wire carry). */
export function sameOutcome(a: Judgement, b: Judgement): boolean {
  return a.verdict === b.verdict && (a.verdict === 'allow' || (b.verdict === 'deny' && a.deny_reason === b.deny_reason));
}
