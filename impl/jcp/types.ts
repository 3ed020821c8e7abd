// jcp §4, §4.3, §4.9, §6: the objects of the protocol, as plain frozen data. Integers are bigint (uint up to 2^64−1).

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
  | { readonly ModelIn: readonly ContentId[] };

/** The names of the caveat variants this implementation supports (jcp §4.9 "A conforming implementation MUST support"). */
export const CAVEAT_VARIANTS = ['ActionIn', 'PayloadIs', 'CallerIs', 'NotBefore', 'NotAfter', 'MaxCostUj', 'ModelIn'] as const;

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
] as const;
export type DenyReason = (typeof DENY_REASONS)[number];
