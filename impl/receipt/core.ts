// jcp §8 the receipt core: the jcp/2 profile (payload_hash always; energy_coverage only when Partial; chain_ids for a
// chain, §8.1) and the superseded jcp/1 profile (no payload_hash), which is verified but never minted.
import type { CborInput, CborMap, CborValue } from '../cbor/index.ts';
import { PROVENANCES, type Provenance } from '../energy/cost.ts';
import { JcpError } from '../errors.ts';
import { isDidKey } from '../identity/did-key.ts';
import { isContentId } from '../jcp/content-id.ts';
import { FRAME_KINDS, type ContentId, type Did, type FrameKind, type Trust } from '../jcp/types.ts';

/** The receipt profiles this implementation verifies; it mints only jcp/2. */
export const RECEIPT_PROFILES = ['jcp/1', 'jcp/2'] as const;
export type ReceiptProfile = (typeof RECEIPT_PROFILES)[number];

/** A receipt core, either profile. `payload_hash` is present exactly under jcp/2. */
export interface ReceiptCore {
  readonly jcp_receipt: ReceiptProfile;
  readonly grant_id: ContentId;
  readonly issuer: Did;
  readonly subject: Did;
  readonly resource: ContentId;
  readonly action: string;
  readonly payload_hash?: ContentId;
  readonly frame_kind: FrameKind;
  readonly trust: Trust;
  readonly verdict: 'allow' | 'deny';
  /** Present exactly when verdict is deny. */
  readonly deny_reason?: string;
  readonly cost_uj: bigint;
  readonly energy_provenance: Provenance;
  /** jcp/2 only; present exactly when the figure is Partial. */
  readonly energy_coverage?: 'Partial';
  readonly budget_remaining_uj: bigint;
  readonly budget_uj: bigint;
  readonly steward: Did;
  /** §8.1: every grant id the decision debited (for a chained decision, every link), root first. */
  readonly chain_ids?: readonly ContentId[];
}

/** The jcp/2 core, the only one this implementation mints. */
export interface ReceiptCoreV2 extends ReceiptCore {
  readonly jcp_receipt: 'jcp/2';
  readonly payload_hash: ContentId;
}

type FieldKind = 'cid' | 'did' | 'text' | 'uint' | 'frame_kind' | 'trust' | 'verdict' | 'provenance' | 'partial' | 'cids' | 'profile';
interface FieldSpec {
  readonly kind: FieldKind;
  readonly required: boolean;
}

const COMMON: Record<string, FieldSpec> = {
  jcp_receipt: { kind: 'profile', required: true },
  grant_id: { kind: 'cid', required: true },
  issuer: { kind: 'did', required: true },
  subject: { kind: 'did', required: true },
  resource: { kind: 'cid', required: true },
  action: { kind: 'text', required: true },
  frame_kind: { kind: 'frame_kind', required: true },
  trust: { kind: 'trust', required: true },
  verdict: { kind: 'verdict', required: true },
  deny_reason: { kind: 'text', required: false },
  cost_uj: { kind: 'uint', required: true },
  energy_provenance: { kind: 'provenance', required: true },
  budget_remaining_uj: { kind: 'uint', required: true },
  budget_uj: { kind: 'uint', required: true },
  steward: { kind: 'did', required: true },
  chain_ids: { kind: 'cids', required: false },
};

/** The field list of each profile: the preimage a verifier recomputes (jcp §8 "Profile versioning"). */
export const PROFILE_FIELDS: Readonly<Record<ReceiptProfile, Readonly<Record<string, FieldSpec>>>> = {
  // earlier revision §8: the jcp/1 core has no payload_hash and no energy_coverage
  'jcp/1': COMMON,
  'jcp/2': { ...COMMON, payload_hash: { kind: 'cid', required: true }, energy_coverage: { kind: 'partial', required: false } },
};

const REQUIRED: Readonly<Record<ReceiptProfile, readonly string[]>> = {
  'jcp/1': Object.keys(PROFILE_FIELDS['jcp/1']).filter((k) => PROFILE_FIELDS['jcp/1'][k]!.required),
  'jcp/2': Object.keys(PROFILE_FIELDS['jcp/2']).filter((k) => PROFILE_FIELDS['jcp/2'][k]!.required),
};

/** The CBOR value of a core; absent optional fields are omitted. */
export function coreToCbor(c: ReceiptCore): CborInput {
  return {
    jcp_receipt: c.jcp_receipt,
    grant_id: c.grant_id,
    issuer: c.issuer,
    subject: c.subject,
    resource: c.resource,
    action: c.action,
    payload_hash: c.payload_hash,
    frame_kind: c.frame_kind,
    trust: c.trust,
    verdict: c.verdict,
    deny_reason: c.deny_reason,
    cost_uj: c.cost_uj,
    energy_provenance: c.energy_provenance,
    energy_coverage: c.energy_coverage,
    budget_remaining_uj: c.budget_remaining_uj,
    budget_uj: c.budget_uj,
    steward: c.steward,
    chain_ids: c.chain_ids === undefined ? undefined : [...c.chain_ids],
  };
}

function bad(msg: string, field?: string): never {
  throw new JcpError('ERR_RECEIPT_MALFORMED', msg, field === undefined ? undefined : { field });
}

function readField(kind: FieldKind, v: CborValue, name: string): unknown {
  switch (kind) {
    case 'cid':
      return isContentId(v) ? v : bad(`${name} must be a content id`, name);
    case 'did':
      return typeof v === 'string' && isDidKey(v) ? v : bad(`${name} must be an Ed25519 did:key`, name);
    case 'text':
      return typeof v === 'string' && v.length > 0 ? v : bad(`${name} must be non-empty text`, name);
    case 'uint':
      if (typeof v === 'number' && Number.isSafeInteger(v) && v >= 0) return BigInt(v);
      // jcp §3: a uint is 0 … 2^64−1 (the decoder never gives more; a core built in memory might)
      if (typeof v === 'bigint' && v >= 0n && v < 1n << 64n) return v;
      return bad(`${name} must be an unsigned integer`, name);
    case 'frame_kind':
      return typeof v === 'string' && (FRAME_KINDS as readonly string[]).includes(v) ? v : bad(`${name} must be a frame kind`, name);
    case 'trust':
      return v === 'control' || v === 'data' ? v : bad(`${name} must be control or data`, name);
    case 'verdict':
      return v === 'allow' || v === 'deny' ? v : bad(`${name} must be allow or deny`, name);
    case 'provenance':
      return typeof v === 'string' && (PROVENANCES as readonly string[]).includes(v) ? v : bad(`${name} must be HwShunt, ModelBased or Estimator`, name);
    case 'partial':
      // jcp §5.2: "the field, when present, has exactly one value, "Partial""
      return v === 'Partial' ? v : bad(`${name} may only be "Partial" (absent means Whole)`, name);
    case 'cids':
      if (!Array.isArray(v) || v.length === 0) return bad(`${name} must be a non-empty array of content ids`, name);
      return Object.freeze(v.map((x, i) => (isContentId(x) ? x : bad(`${name}[${i}] must be a content id`, name))));
    case 'profile':
      return v;
  }
}

/**
 * Reads a decoded core under the profile its jcp_receipt tag names (jcp §8): refuses an unknown tag
 * (ERR_RECEIPT_PROFILE_UNKNOWN), a field the profile does not have, a missing required field, or a wrong type
 * (ERR_RECEIPT_MALFORMED).
 */
export function parseReceiptCore(v: CborValue): ReceiptCore {
  if (!(v instanceof Map)) bad('a receipt core must be a map');
  const m = v as CborMap;
  const tag = m.get('jcp_receipt');
  // jcp §8: "it MUST refuse a tag it does not implement rather than assume a profile"
  if (typeof tag !== 'string' || !(RECEIPT_PROFILES as readonly string[]).includes(tag)) {
    throw new JcpError('ERR_RECEIPT_PROFILE_UNKNOWN', `receipt profile ${JSON.stringify(typeof tag === 'bigint' ? String(tag) : tag)} is not implemented (known: ${RECEIPT_PROFILES.join(', ')})`, {
      profile: typeof tag === 'string' ? tag : null,
    });
  }
  const profile = tag as ReceiptProfile;
  const spec = PROFILE_FIELDS[profile];
  const out: Record<string, unknown> = {};
  let required = 0;
  for (const [k, val] of m) {
    const f = typeof k === 'string' && Object.hasOwn(spec, k) ? spec[k]! : undefined;
    if (f === undefined) bad(`field ${JSON.stringify(String(k))} is not part of the ${tag} profile`, String(k));
    if (f.required) required++;
    out[k as string] = readField(f.kind, val, k as string);
  }
  // every field was read once (a map has no duplicate keys), so a count short of the profile's means one is missing
  if (required !== REQUIRED[profile].length) {
    const missing = REQUIRED[profile].find((k) => !(k in out))!;
    bad(`${tag} receipt lacks required field ${missing}`, missing);
  }
  // jcp §8: "deny_reason = string ; omitted on allow"
  if (out['verdict'] === 'allow' && 'deny_reason' in out) bad('an allow receipt carries no deny_reason', 'deny_reason');
  if (out['verdict'] === 'deny' && !('deny_reason' in out)) bad('a deny receipt must name its deny_reason', 'deny_reason');
  // §8.1: chain_ids name every grant id debited, root first, so the leaf — the receipt's own grant — is last. §8.1
  // requires them of a multi-hop chain only; a single grant's, [grant_id], says the same and is read, not refused.
  const chain = out['chain_ids'] as readonly string[] | undefined;
  if (chain !== undefined && chain[chain.length - 1] !== out['grant_id']) {
    bad('chain_ids must list the grant ids debited, root first, ending with the receipt\'s grant_id', 'chain_ids');
  }
  return Object.freeze(out) as unknown as ReceiptCore;
}
