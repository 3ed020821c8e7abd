// jcp §4.1 attenuation, §4.4 delegation control, §4.8/§4.9 money and caveat inheritance: a child is never stronger.
// The same narrowing rules are checked when a child is minted and again, hop by hop, when a chain is verified (§4.2).
import { bytesEqual } from '../bytes.ts';
import { encodeCanonical } from '../cbor/index.ts';
import { JcpError } from '../errors.ts';
import { defaultEd25519, type Ed25519, type KeyPair } from '../identity/ed25519.ts';
import { caveatToCbor } from './codec.ts';
import { grantId, signGrant, validateGrant } from './grant.ts';
import type { Caveat, ContentId, Did, Funds, Grant, SignedGrant } from './types.ts';

/** Which axis a child amplifies its parent on. */
export type NarrowingAxis = 'resource' | 'actions' | 'budget' | 'expiry' | 'depth' | 'caveats' | 'funds';

/** A reason a child does not narrow its parent. */
export interface NarrowingFault {
  readonly axis: NarrowingAxis;
  readonly message: string;
}

function caveatKey(c: Caveat): Uint8Array {
  return encodeCanonical(caveatToCbor(c));
}

/**
 * The first axis on which `child` is not at most `parent` (jcp §4.1, §4.4, §4.8, §4.9), or undefined when it narrows.
 * Structure (parent link, issuer = parent's subject, leaf-only parent) is checked separately by {@link structuralFault}.
 */
export function narrowingFault(parent: Grant, child: Grant): NarrowingFault | undefined {
  // jcp §4.1: "child.capability⊆parent.capability(same resource; actions a subset)"
  if (child.capability.resource !== parent.capability.resource) {
    return { axis: 'resource', message: 'the child names a different resource than its parent' };
  }
  for (const a of child.capability.actions) {
    if (!parent.capability.actions.includes(a)) {
      return { axis: 'actions', message: `the child grants action ${JSON.stringify(a)} its parent does not` };
    }
  }
  // jcp §4.1: "child.budget_uj≤parent.budget_uj"
  if (child.budget_uj > parent.budget_uj) {
    return { axis: 'budget', message: `child budget_uj ${child.budget_uj} exceeds parent budget_uj ${parent.budget_uj}` };
  }
  // jcp §4.1: "the child's expiry MUST NOT outlive the parent's (0= never expires)"
  if (parent.expiry !== 0n && (child.expiry === 0n || child.expiry > parent.expiry)) {
    return { axis: 'expiry', message: `child expiry ${child.expiry} outlives parent expiry ${parent.expiry}` };
  }
  // jcp §4.4: "a child minted from a depth-d parent carries at most d−1"
  if (parent.delegate_depth !== undefined && parent.delegate_depth > 0n) {
    if (child.delegate_depth === undefined || child.delegate_depth > parent.delegate_depth - 1n) {
      const got = child.delegate_depth === undefined ? 'unlimited' : String(child.delegate_depth);
      return { axis: 'depth', message: `child delegate_depth ${got} exceeds its parent's ${parent.delegate_depth} − 1` };
    }
  }
  // jcp §4.9: "A child MUST carry every caveat of its parent" — compared by exact identity
  if (parent.caveats !== undefined) {
    const have = (child.caveats ?? []).map(caveatKey);
    for (const pc of parent.caveats) {
      const k = caveatKey(pc);
      if (!have.some((h) => bytesEqual(h, k))) {
        return { axis: 'caveats', message: `the child drops its parent's caveat ${Object.keys(pc)[0]}` };
      }
    }
  }
  // jcp §4.8: dropping, raising or re-denominating a bounded parent's money ceiling is refused
  if (parent.budget_funds !== undefined) {
    const cf = child.budget_funds;
    if (cf === undefined) return { axis: 'funds', message: "the child drops its parent's money ceiling" };
    if (cf.currency !== parent.budget_funds.currency) {
      return { axis: 'funds', message: `the child re-denominates the money ceiling from ${parent.budget_funds.currency} to ${cf.currency}` };
    }
    if (cf.minor > parent.budget_funds.minor) {
      return { axis: 'funds', message: `child money ceiling ${cf.minor} exceeds parent's ${parent.budget_funds.minor}` };
    }
  }
  return undefined;
}

/** Why `child` is not structurally the next hop after `parent` (jcp §4.2, §4.4), or undefined. */
export function structuralFault(parent: SignedGrant, child: SignedGrant): string | undefined {
  // jcp §4.2: "every later grant's parent equals the id of the grant before it"
  if (child.grant.parent !== grantId(parent.grant)) return "the child's parent is not the id of the grant before it";
  // jcp §4.2: "each hop is issued by the previous grant's subject"
  if (child.grant.issuer !== parent.grant.subject) return "the child is not issued by the previous grant's subject";
  // jcp §4.4: "MUST refuse a hop under a leaf-only parent (delegation-forbidden semantics map to chain-broken on the wire)"
  if (parent.grant.delegate_depth === 0n) return 'the parent is leaf-only (delegate_depth 0) and may not be delegated';
  return undefined;
}

/** What the holder chooses when attenuating; every omitted axis is inherited unchanged from the parent. */
export interface AttenuationFields {
  readonly subject: Did;
  readonly actions?: readonly string[];
  readonly budget_uj?: bigint;
  readonly expiry?: bigint;
  /** Defaults to the parent's depth − 1 (or unlimited under an unlimited parent). */
  readonly delegate_depth?: bigint;
  /** Caveats appended after every inherited one (jcp §4.9: "a caveat-adding attenuation appends"). */
  readonly add_caveats?: readonly Caveat[];
  /** Defaults to the parent's money ceiling (jcp §4.8: "A plain attenuation … inherits the parent's unchanged"). */
  readonly budget_funds?: Funds;
  /** 16 bytes. */
  readonly nonce: Uint8Array;
}

/**
 * jcp §4.1: the parent's subject mints a strictly weaker child. Refuses a non-holder (ERR_NOT_HOLDER), a leaf-only
 * parent (ERR_DELEGATION_FORBIDDEN) and any amplification (ERR_ATTENUATION_VIOLATION, detail.axis naming it).
 */
export function attenuate(parent: SignedGrant, holder: KeyPair, f: AttenuationFields, backend: Ed25519 = defaultEd25519()): SignedGrant {
  const p = parent.grant;
  // jcp §4.1: "MUST refuse delegation by anyone other than the parent's subject"
  if (holder.did !== p.subject) {
    throw new JcpError('ERR_NOT_HOLDER', `${holder.did} does not hold the parent grant (its subject is ${p.subject})`, {
      holder: holder.did,
      subject: p.subject,
    });
  }
  // jcp §4.4: "0 = leaf-only — the holder may act but never re-delegate"
  if (p.delegate_depth === 0n) {
    throw new JcpError('ERR_DELEGATION_FORBIDDEN', 'the parent grant is leaf-only (delegate_depth 0)', { parent: grantId(p) });
  }
  const depth = f.delegate_depth ?? (p.delegate_depth === undefined ? undefined : p.delegate_depth - 1n);
  const caveats = [...(p.caveats ?? []), ...(f.add_caveats ?? [])];
  const funds = f.budget_funds ?? p.budget_funds;
  const child: Grant = validateGrant({
    issuer: holder.did,
    subject: f.subject,
    capability: { resource: p.capability.resource, actions: [...(f.actions ?? p.capability.actions)] },
    budget_uj: f.budget_uj ?? p.budget_uj,
    expiry: f.expiry ?? p.expiry,
    parent: grantId(p) as ContentId,
    nonce: f.nonce,
    ...(depth !== undefined ? { delegate_depth: depth } : {}),
    ...(caveats.length > 0 ? { caveats } : {}),
    ...(funds !== undefined ? { budget_funds: funds } : {}),
  });
  // jcp §4.1: "A conforming implementation MUST refuse any amplification"
  const fault = narrowingFault(p, child);
  if (fault) throw new JcpError('ERR_ATTENUATION_VIOLATION', fault.message, { axis: fault.axis });
  return signGrant(child, holder, backend);
}

/** One slice of a shard: who holds it and how much of the parent's budget it carries. */
export interface ShardSlice {
  readonly subject: Did;
  readonly budget_uj: bigint;
  readonly nonce: Uint8Array;
}

/**
 * jcp §4.5: mint N sibling children whose budgets sum to no more than the parent's. Refuses slices that sum past the
 * parent (ERR_SHARD_OVERSPEND) before minting any of them.
 */
export function shard(parent: SignedGrant, holder: KeyPair, slices: readonly ShardSlice[], backend: Ed25519 = defaultEd25519()): SignedGrant[] {
  if (slices.length === 0) throw new JcpError('ERR_BAD_ARGUMENT', 'a shard needs at least one slice');
  let sum = 0n;
  for (const s of slices) sum += s.budget_uj;
  // jcp §4.5: "A conforming sharding operation MUST refuse slices that sum past the parent."
  if (sum > parent.grant.budget_uj) {
    throw new JcpError('ERR_SHARD_OVERSPEND', `shard slices sum to ${sum} µJ, past the parent's budget_uj ${parent.grant.budget_uj}`, {
      sum: String(sum),
      budget_uj: String(parent.grant.budget_uj),
    });
  }
  return slices.map((s) => attenuate(parent, holder, { subject: s.subject, budget_uj: s.budget_uj, nonce: s.nonce }, backend));
}
