// jcp §4, §4.3, §4.8, §4.9, §4.10, §6: the objects of the protocol, as plain frozen data. Integers are bigint (uint up to 2^64−1).

/** A did:key string (jcp §2). */
export type Did = string;
/** A content id: lowercase hex of a 32-byte blake3 digest (jcp §3). */
export type ContentId = string;

/** jcp §4.9 caveats, each a single-variant object; the CBOR form is a one-entry map {Variant: parameter}. */
export type Caveat =
  | { readonly ActionIn: readonly string[] }
  | { readonly PayloadIs: ContentId }
  | { readonly CallerIs: Did }
  | { readonly NotBefore: bigint }
  | { readonly NotAfter: bigint }
  | { readonly MaxCostUj: bigint }
  | { readonly ModelIn: readonly ContentId[] }
  | { readonly FlowBelow: FlowCeiling };

/**
 * The names of the caveat variants this implementation supports: the seven of jcp §4.9 ("A conforming implementation
 * MUST support") and FlowBelow of §4.10.
 */
export const CAVEAT_VARIANTS = ['ActionIn', 'PayloadIs', 'CallerIs', 'NotBefore', 'NotAfter', 'MaxCostUj', 'ModelIn', 'FlowBelow'] as const;

/**
 * jcp §4.9 "The metered path": the variants whose predicate ranges over the invocation's cost. In the two-phase
 * metered path they wait for the measured cost and are enforced at the debit point.
 */
export const COST_DEPENDENT_CAVEATS = ['MaxCostUj'] as const;

// ---- jcp §4.10 flow labels ------------------------------------------------------------------------------------------
// The spec names the three components and says the label order is their product, ⊥ being "a principal-authored value
// from no channel, readable by all" and ⊤ "untrusted, from anywhere, readable by nobody". It does not fix their values;
// the reading taken here (and fixed once in the CBOR shape, codec.ts):
//   integrity: 'principal' ≤ 'untrusted' (two points);
//   origins:   a set of channel names ordered by inclusion, [] = no channel (⊥), 'any' = from anywhere (⊤);
//   readers:   a set of principals ordered by reverse inclusion (fewer readers is higher), 'all' = readable by all (⊥),
//              [] = readable by nobody (⊤).
// Sets are carried sorted and without duplicates, so a label has exactly one encoding and caveats compare by identity.

/** jcp §4.10 integrity: who authored the value. */
export type Integrity = 'principal' | 'untrusted';
/** jcp §4.10 origins: the channels a value came from (sorted, unique), or 'any'. */
export type Origins = readonly string[] | 'any';
/** jcp §4.10 readers: who may read the value (sorted, unique dids), or 'all'. */
export type Readers = readonly Did[] | 'all';

// (type aliases, not interfaces, so that a caveat stays assignable to a plain CBOR value)
/** jcp §4.10 Label { integrity, origins, readers }. */
export type Label = {
  readonly integrity: Integrity;
  readonly origins: Origins;
  readonly readers: Readers;
};

/** jcp §4.10 FlowCeiling: the ceiling label and an optional separate joule allowance for calls whose argument is not ⊥. */
export type FlowCeiling = {
  readonly ceiling: Label;
  readonly tainted_budget_uj?: bigint;
};

/** jcp §4 capability: a content-addressed resource and the actions granted on it. */
export interface Capability {
  readonly resource: ContentId;
  readonly actions: readonly string[];
}

/** jcp §4.8 money ceiling. */
export interface Funds {
  readonly currency: string;
  readonly minor: bigint;
}

/** jcp §4 Grant. Optional fields are absent (never undefined-as-value on the wire, never null). */
export interface Grant {
  readonly issuer: Did;
  readonly subject: Did;
  readonly capability: Capability;
  readonly budget_uj: bigint;
  readonly budget_funds?: Funds;
  /** Omitted when empty (jcp §4.9). */
  readonly caveats?: readonly Caveat[];
  /** Unix seconds; 0 = no expiry. */
  readonly expiry: bigint;
  readonly parent?: ContentId;
  /** Absent = unlimited; 0 = leaf-only (jcp §4.4). */
  readonly delegate_depth?: bigint;
  /** 16 bytes. */
  readonly nonce: Uint8Array;
}

/** A grant with its issuer's Ed25519 signature over the grant's canonical bytes. */
export interface SignedGrant {
  readonly grant: Grant;
  readonly signature: Uint8Array;
}

/** jcp §6 frame kinds. */
export const FRAME_KINDS = ['tool-call', 'tool-result', 'agent-task', 'agent-reply'] as const;
export type FrameKind = (typeof FRAME_KINDS)[number];
export type Trust = 'control' | 'data';

/** jcp §6 Frame. */
export interface Frame {
  readonly kind: FrameKind;
  readonly trust: Trust;
  readonly grant_id: ContentId;
  readonly action: string;
  readonly resource: ContentId;
  readonly payload_hash: ContentId;
  readonly model?: ContentId;
}

/** jcp §4.3 Revocation. */
export interface Revocation {
  readonly grant_id: ContentId;
  readonly revoked_by: Did;
  readonly nonce: Uint8Array;
}

/** A revocation with revoked_by's signature over its canonical bytes. */
export interface SignedRevocation {
  readonly revocation: Revocation;
  readonly signature: Uint8Array;
}

/** jcp §7 deny reasons, exactly as the spec spells them (plus chain and caveat reasons of §4.2 and §4.9). */
export const DENY_REASONS = [
  'untrusted-control',
  'revoked',
  'untrusted-root',
  'wrong-resource',
  'wrong-subject',
  'bad-signature',
  'expired',
  'action-not-granted',
  'budget-exceeded',
  'chain-broken',
  'attenuation-violation',
  'caveat-unsatisfied',
  // jcp §4.8, exactly as the spec spells them
  'funds-exceeded',
  'currency-mismatch',
  // jcp §4.10 names no deny reason for a flow denial; the reference's reading (an open point): one reason, flow-denied
  'flow-denied',
] as const;
export type DenyReason = (typeof DENY_REASONS)[number];
