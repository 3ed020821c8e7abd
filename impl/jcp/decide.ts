// jcp §7 the decision: checks in the spec's order, the first failure naming the reason; §4.2 the chained path;
// §4.9 caveats on every link (cost-dependent ones waiting in the two-phase metered path); §4.8 the money ceiling beside
// the joule ceiling; §4.10 the flow gate. Debit on allow only, from every link. Pure: state is read through `DecisionState`.
import type { Cost } from '../energy/cost.ts';
import { defaultEd25519, type Ed25519 } from '../identity/ed25519.ts';
import { narrowingFault, structuralFault } from './attenuate.ts';
import { grantId, verifyGrantSignature } from './grant.ts';
import { COST_DEPENDENT_CAVEATS, type Caveat, type ContentId, type DenyReason, type Did, type FlowCeiling, type Frame, type Funds, type Grant, type Label, type SignedGrant } from './types.ts';

/** What a decision is asked (jcp §7): the frame, the full chain root first (one link for an undelegated grant), the caller, the metered cost, the time. */
export interface DecisionRequest {
  readonly frame: Frame;
  readonly chain: readonly SignedGrant[];
  readonly caller: Did;
  readonly cost: Cost;
  readonly now_s: bigint;
  /** jcp §4.8: the action's money cost. Present = a priced decision; absent = joules alone are asked. */
  readonly cost_funds?: Funds;
  /** jcp §4.10: the argument's label. Absent = its provenance was not computed (never read as clean). */
  readonly label?: Label;
}

/** What the decision reads of the enforcement point's state. */
export interface DecisionState {
  isRevoked(id: ContentId): boolean;
  /** The trust roots configured for a resource, or undefined when none are (an unconfigured resource is open). */
  trustRoots(resource: ContentId): ReadonlySet<Did> | undefined;
  spent(id: ContentId): bigint;
  /** jcp §4.8: the money spent against a grant's budget_funds (in its currency); absent = none tracked. */
  spentFunds?(id: ContentId): bigint;
  /** jcp §4.10: the joules spent against a grant by calls whose argument was not ⊥; absent = none tracked. */
  taintedSpent?(id: ContentId): bigint;
  /** jcp §4.10: the origins a resource's taint floor accepts, or undefined when none is configured (default-open). */
  taintFloor?(resource: ContentId): ReadonlySet<string> | undefined;
}

/**
 * Which phase a judgement serves. 'single': the one-phase decision, the cost known (jcp §7). 'authorize': the first
 * phase of the two-phase metered path (§4.9): the cost is an estimate and cost-dependent caveats wait. 'settle': the
 * debit point, with the measured cost, where every caveat is enforced.
 */
export type Phase = 'single' | 'authorize' | 'settle';

/** The outcome of the checks, before sealing. */
export type Judgement =
  | {
      readonly verdict: 'allow';
      readonly ids: readonly ContentId[];
      /** Phase 'authorize' only: the cost-dependent caveats not yet evaluated, waiting for the debit point (§4.9). */
      readonly pending?: readonly Caveat[];
    }
  | { readonly verdict: 'deny'; readonly deny_reason: DenyReason; readonly why: string; readonly ids: readonly ContentId[] };

function deny(deny_reason: DenyReason, why: string, ids: readonly ContentId[]): Judgement {
  return { verdict: 'deny', deny_reason, why, ids };
}

/** jcp §7 open point: expired when now_s >= expiry (fail closed); expiry 0 never expires. */
export function isExpired(g: Grant, now_s: bigint): boolean {
  return g.expiry !== 0n && now_s >= g.expiry;
}

/** jcp §4.9: is the caveat's predicate over the invocation's cost (enforced at the debit point in the metered path)? */
export function isCostDependent(c: Caveat): boolean {
  return (COST_DEPENDENT_CAVEATS as readonly string[]).includes(Object.keys(c)[0]!);
}

// ---- jcp §4.10 flow ---------------------------------------------------------------------------------------------------

/** jcp §4.10 ⊥: "a principal-authored value from no channel, readable by all". */
export const BOTTOM_LABEL: Label = Object.freeze({ integrity: 'principal', origins: Object.freeze([]), readers: 'all' });

/** Is `l` ⊥ (computed, and clean)? */
export function isBottom(l: Label): boolean {
  return l.integrity === 'principal' && l.origins !== 'any' && l.origins.length === 0 && l.readers === 'all';
}

/** jcp §4.10: a ≤ b in the product order of integrity, origins (inclusion) and readers (reverse inclusion). */
export function labelLeq(a: Label, b: Label): boolean {
  const integrity = a.integrity === 'principal' || b.integrity === 'untrusted';
  const origins = b.origins === 'any' || (a.origins !== 'any' && a.origins.every((o) => (b.origins as readonly string[]).includes(o)));
  const readers = a.readers === 'all' || (b.readers !== 'all' && b.readers.every((r) => (a.readers as readonly string[]).includes(r)));
  return integrity && origins && readers;
}

const NO_CEILINGS: ReadonlyArray<{ readonly link: number; readonly flow: FlowCeiling }> = Object.freeze([]);

/** Every FlowBelow ceiling the chain carries, with the index of its link (jcp §4.10: they compose to the strictest). */
export function flowCeilings(chain: readonly SignedGrant[]): ReadonlyArray<{ readonly link: number; readonly flow: FlowCeiling }> {
  let out: Array<{ link: number; flow: FlowCeiling }> | undefined;
  for (let link = 0; link < chain.length; link++) {
    const caveats = chain[link]!.grant.caveats;
    if (caveats === undefined) continue; // a grant without caveats (the common case) allocates nothing here
    for (const c of caveats) if ('FlowBelow' in c) (out ??= []).push({ link, flow: c.FlowBelow });
  }
  return out ?? NO_CEILINGS;
}

/**
 * jcp §4.10 the gate: why the argument's label may not exercise this chain on this resource, or undefined when it may.
 * Absent (not computed) fails closed against a ceiling; ⊥ passes any ceiling and floor; a tainted label must sit at or
 * below every ceiling — the strictest governs — and its origins must be accepted by the resource's taint floor.
 * Reading taken where the spec is silent: an absent label also fails closed against a configured taint floor, since
 * the floor cannot see origins that were never computed ("Not computed MUST NOT be read as clean").
 */
export function flowFault(label: Label | undefined, chain: readonly SignedGrant[], floor: ReadonlySet<string> | undefined): string | undefined {
  const ceilings = flowCeilings(chain);
  if (ceilings.length === 0 && floor === undefined) return undefined; // ceiling-free, no floor: unaffected
  if (label === undefined) {
    return ceilings.length > 0
      ? `link ${ceilings[0]!.link} carries a flow ceiling and the argument's provenance was not computed`
      : "the resource has a taint floor and the argument's provenance was not computed";
  }
  if (isBottom(label)) return undefined;
  for (const { link, flow } of ceilings) {
    if (!labelLeq(label, flow.ceiling)) return `link ${link}: the argument's label does not sit at or below the grant's flow ceiling`;
  }
  if (floor !== undefined) {
    if (label.origins === 'any') return "the resource's taint floor refuses origins 'any'";
    const refused = label.origins.find((o) => !floor.has(o));
    if (refused !== undefined) return `the resource's taint floor refuses origin ${JSON.stringify(refused)}`;
  }
  return undefined;
}

/** Is the call tainted (jcp §4.10: an argument that is not ⊥ — absent included, which never reaches a debit under a ceiling)? */
export function isTainted(label: Label | undefined): boolean {
  return label === undefined || !isBottom(label);
}

/** jcp §4.9: does one caveat hold for this frame, caller, clock and cost? */
export function caveatHolds(c: Caveat, req: DecisionRequest): boolean {
  if ('ActionIn' in c) return c.ActionIn.includes(req.frame.action);
  if ('PayloadIs' in c) return req.frame.payload_hash === c.PayloadIs;
  if ('CallerIs' in c) return req.caller === c.CallerIs;
  if ('NotBefore' in c) return req.now_s >= c.NotBefore;
  if ('NotAfter' in c) return req.now_s <= c.NotAfter;
  if ('MaxCostUj' in c) return req.cost.uj <= c.MaxCostUj;
  // jcp §4.9: ModelIn "fails closed: a frame that names no model does not satisfy it"
  if ('ModelIn' in c) return req.frame.model !== undefined && c.ModelIn.includes(req.frame.model);
  // jcp §4.10: FlowBelow is judged by the flow gate (flowFault), which runs before the caveats; here it is no condition
  if ('FlowBelow' in c) return true;
  return false; // an unknown variant never holds
}

/**
 * Runs the checks of jcp §7 in order and returns the first failure, or allow. Never throws on well-typed input.
 * Single grant: untrusted-control, (a delegated grant alone) chain-broken, revoked, untrusted-root, wrong-resource
 * (grant id), wrong-subject, bad-signature, expired, wrong-resource, action-not-granted, flow-denied (§4.10),
 * caveat-unsatisfied, budget-exceeded, then for a priced decision currency-mismatch / funds-exceeded (§4.8).
 * Chain: untrusted-control; structure (chain-broken), narrowing (attenuation-violation) and signatures
 * (bad-signature) of every link; revoked (any link); untrusted-root (root issuer); expired (any link); the leaf checks;
 * the flow gate over every link's ceiling; caveats of every link; joule budget of every link; the money ceiling of
 * every link that has one (§4.2: "the joule ceilings first, then the money ceiling of each link that has one").
 * In phase 'authorize' cost-dependent caveats are not evaluated; they are returned as `pending` (§4.9).
 */
export function judge(req: DecisionRequest, state: DecisionState, backend: Ed25519 = defaultEd25519(), phase: Phase = 'single'): Judgement {
  const { frame, chain, caller, cost, now_s } = req;
  if (chain.length === 0) return deny('chain-broken', 'no grant was presented', []);
  const ids = chain.map((sg) => grantId(sg.grant));
  const root = chain[0]!.grant;
  const leafSg = chain[chain.length - 1]!;
  const leaf = leafSg.grant;
  const leafId = ids[ids.length - 1]!;
  const chained = chain.length > 1;

  // jcp §7: "data-tagged frame → Deny(untrusted-control)."
  if (frame.trust !== 'control') return deny('untrusted-control', 'a data frame can never exercise a capability', ids);

  // jcp §4.2: "A single-grant decision over a delegated grant is denied chain-broken."
  if (root.parent !== undefined) {
    return deny('chain-broken', chained ? 'the first grant of the chain has a parent: it is not a root' : 'a delegated grant cannot be decided without its chain', ids);
  }
  if (chained) {
    // jcp §7: "structure and signatures first (chain-broken / attenuation-violation / bad-signature)"
    for (let i = 1; i < chain.length; i++) {
      const f = structuralFault(chain[i - 1]!, chain[i]!);
      if (f) return deny('chain-broken', `hop ${i}: ${f}`, ids);
    }
    for (let i = 1; i < chain.length; i++) {
      const f = narrowingFault(chain[i - 1]!.grant, chain[i]!.grant);
      if (f) return deny('attenuation-violation', `hop ${i}: ${f.message}`, ids);
    }
    for (let i = 0; i < chain.length; i++) {
      if (!verifyGrantSignature(chain[i]!, backend)) return deny('bad-signature', `link ${i}: the issuer's signature does not verify`, ids);
    }
  }

  // jcp §4.3: "MUST then deny (revoked) any decision against the revoked grant or any chain containing it"
  for (let i = 0; i < ids.length; i++) {
    if (state.isRevoked(ids[i]!)) return deny('revoked', chained ? `link ${i} is revoked` : 'the grant is revoked', ids);
  }

  // jcp §7: "the issuer (for a chain: the root issuer) is not a configured trust root for the frame's resource → Deny(untrusted-root)"
  const roots = state.trustRoots(frame.resource);
  if (roots !== undefined && !roots.has(root.issuer)) {
    return deny('untrusted-root', `${root.issuer} is not a configured trust root for resource ${frame.resource}`, ids);
  }

  if (chained) {
    // jcp §7: "then revocation against every link (revoked), expiry of every link"
    for (let i = 0; i < chain.length; i++) {
      if (isExpired(chain[i]!.grant, now_s)) return deny('expired', `link ${i} expired at ${chain[i]!.grant.expiry}`, ids);
    }
  }

  // jcp §7: "frame's grant_id ≠ the grant's id → Deny(wrong-resource)."
  if (frame.grant_id !== leafId) return deny('wrong-resource', `the frame exercises grant ${frame.grant_id}, not the presented ${leafId}`, ids);
  // jcp §7: "caller ≠ grant's subject → Deny(wrong-subject)."
  if (caller !== leaf.subject) return deny('wrong-subject', `caller ${caller} is not the grant's subject ${leaf.subject}`, ids);
  if (!chained) {
    // jcp §7: "issuer signature invalid → Deny(bad-signature)."
    if (!verifyGrantSignature(leafSg, backend)) return deny('bad-signature', "the issuer's signature does not verify", ids);
    // jcp §7: "expired → Deny(expired)."
    if (isExpired(leaf, now_s)) return deny('expired', `the grant expired at ${leaf.expiry}`, ids);
  }
  // jcp §7: "frame's resource ≠ capability's resource → Deny(wrong-resource)"
  if (frame.resource !== leaf.capability.resource) {
    return deny('wrong-resource', `the frame names resource ${frame.resource}, the grant ${leaf.capability.resource}`, ids);
  }
  // jcp §7: "action ∉ capability → Deny(action-not-granted)."
  if (!leaf.capability.actions.includes(frame.action)) {
    return deny('action-not-granted', `action ${JSON.stringify(frame.action)} is not granted`, ids);
  }
  // jcp §4.10: "It MUST run after capability and signature verification … and before caveats and the budget test"
  const flow = flowFault(req.label, chain, state.taintFloor?.(frame.resource));
  if (flow !== undefined) return deny('flow-denied', flow, ids);
  // jcp §4.2: "A chained decision MUST evaluate the caveats of every grant in the chain"
  const pending: Caveat[] = [];
  for (let i = 0; i < chain.length; i++) {
    for (const c of chain[i]!.grant.caveats ?? []) {
      // jcp §4.9: a cost-dependent caveat "cannot be evaluated … at authorization time"; it waits for the debit point
      if (phase === 'authorize' && isCostDependent(c)) {
        pending.push(c);
        continue;
      }
      if (!caveatHolds(c, req)) return deny('caveat-unsatisfied', `link ${i}: caveat ${Object.keys(c)[0]} does not hold`, ids);
    }
  }
  // jcp §7: "prior spend + cost > budget_uj → Deny(budget-exceeded)."; §4.2: it "MUST fit the remaining budget of every grant in the chain"
  for (let i = 0; i < chain.length; i++) {
    const g = chain[i]!.grant;
    const prior = state.spent(ids[i]!);
    if (prior + cost.uj > g.budget_uj) {
      return deny('budget-exceeded', `link ${i}: spent ${prior} + cost ${cost.uj} > budget_uj ${g.budget_uj}`, ids);
    }
  }
  const tainted = taintedBudgetFault(req, state, ids);
  if (tainted !== undefined) return deny('budget-exceeded', tainted, ids);
  const money = moneyFault(req, state, ids);
  if (money !== undefined) return deny(money.reason, money.why, ids);
  return phase === 'authorize' ? { verdict: 'allow', ids, pending } : { verdict: 'allow', ids };
}

/**
 * jcp §4.10 tainted_budget_uj: "a separate, smaller joule allowance for calls whose argument is not ⊥". A tainted call
 * must also fit each ceiling's allowance against the tainted spend of the link carrying it; denied budget-exceeded,
 * the joule reason, since the allowance is a joule ceiling (the spec names no other reason).
 */
function taintedBudgetFault(req: DecisionRequest, state: DecisionState, ids: readonly ContentId[]): string | undefined {
  if (!isTainted(req.label)) return undefined;
  for (const { link, flow } of flowCeilings(req.chain)) {
    if (flow.tainted_budget_uj === undefined) continue;
    const prior = state.taintedSpent?.(ids[link]!) ?? 0n;
    if (prior + req.cost.uj > flow.tainted_budget_uj) {
      return `link ${link}: tainted spend ${prior} + cost ${req.cost.uj} > tainted_budget_uj ${flow.tainted_budget_uj}`;
    }
  }
  return undefined;
}

/**
 * jcp §4.8 on a priced decision, for every link that has a money ceiling: a cost in another currency is refused
 * (currency-mismatch), never converted; a cost that would carry the link's money spend past budget_funds.minor is
 * refused (funds-exceeded). An absent budget_funds is "joules alone bound this grant", not a zero ceiling.
 * Reading taken: per link the currency is checked before the amount, because comparing amounts across currencies
 * would be the invented exchange rate §4.8 forbids (1:1).
 */
function moneyFault(req: DecisionRequest, state: DecisionState, ids: readonly ContentId[]): { reason: DenyReason; why: string } | undefined {
  const price = req.cost_funds;
  if (price === undefined) return undefined;
  for (let i = 0; i < req.chain.length; i++) {
    const ceiling = req.chain[i]!.grant.budget_funds;
    if (ceiling === undefined) continue;
    if (price.currency !== ceiling.currency) {
      return { reason: 'currency-mismatch', why: `link ${i}: the cost is in ${price.currency}, the money ceiling in ${ceiling.currency}` };
    }
    const prior = state.spentFunds?.(ids[i]!) ?? 0n;
    if (prior + price.minor > ceiling.minor) {
      return { reason: 'funds-exceeded', why: `link ${i}: money spent ${prior} + cost ${price.minor} > budget_funds.minor ${ceiling.minor} ${ceiling.currency}` };
    }
  }
  return undefined;
}
