// jcp §7 the decision: checks in the spec's order, the first failure naming the reason; §4.2 the chained path;
// §4.9 caveats on every link; debit on allow only, from every link. Pure: state is read through `DecisionState`.
import type { Cost } from '../energy/cost.ts';
import { defaultEd25519, type Ed25519 } from '../identity/ed25519.ts';
import { narrowingFault, structuralFault } from './attenuate.ts';
import { grantId, verifyGrantSignature } from './grant.ts';
import type { Caveat, ContentId, DenyReason, Did, Frame, Grant, SignedGrant } from './types.ts';

/** What a decision is asked (jcp §7): the frame, the full chain root first (one link for an undelegated grant), the caller, the metered cost, the time. */
export interface DecisionRequest {
  readonly frame: Frame;
  readonly chain: readonly SignedGrant[];
  readonly caller: Did;
  readonly cost: Cost;
  readonly now_s: bigint;
}

/** What the decision reads of the enforcement point's state. */
export interface DecisionState {
  isRevoked(id: ContentId): boolean;
  /** The trust roots configured for a resource, or undefined when none are (an unconfigured resource is open). */
  trustRoots(resource: ContentId): ReadonlySet<Did> | undefined;
  spent(id: ContentId): bigint;
}

/** The outcome of the checks, before sealing. */
export type Judgement =
  | { readonly verdict: 'allow'; readonly ids: readonly ContentId[] }
  | { readonly verdict: 'deny'; readonly deny_reason: DenyReason; readonly why: string; readonly ids: readonly ContentId[] };

function deny(deny_reason: DenyReason, why: string, ids: readonly ContentId[]): Judgement {
  return { verdict: 'deny', deny_reason, why, ids };
}

/** jcp §7 open point: expired when now_s >= expiry (fail closed); expiry 0 never expires. */
export function isExpired(g: Grant, now_s: bigint): boolean {
  return g.expiry !== 0n && now_s >= g.expiry;
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
  return false; // an unknown variant never holds
}

/**
 * Runs the checks of jcp §7 in order and returns the first failure, or allow. Never throws on well-typed input.
 * Single grant: untrusted-control, (a delegated grant alone) chain-broken, revoked, untrusted-root, wrong-resource
 * (grant id), wrong-subject, bad-signature, expired, wrong-resource, action-not-granted, caveat-unsatisfied,
 * budget-exceeded. Chain: untrusted-control; structure (chain-broken), narrowing (attenuation-violation) and
 * signatures (bad-signature) of every link; revoked (any link); untrusted-root (root issuer); expired (any link);
 * the leaf checks; caveats of every link; budget of every link.
 */
export function judge(req: DecisionRequest, state: DecisionState, backend: Ed25519 = defaultEd25519()): Judgement {
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
  // jcp §4.2: "A chained decision MUST evaluate the caveats of every grant in the chain"
  for (let i = 0; i < chain.length; i++) {
    for (const c of chain[i]!.grant.caveats ?? []) {
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
  return { verdict: 'allow', ids };
}
