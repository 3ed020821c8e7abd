// The policy/1 receipt (jouleclaw §10): one policy decision as canonical det-CBOR in a COSE_Sign1 signed by the steward.
//
// Readings taken where §10 leaves a shape open (the suite's choices):
//  - A deny decision is {kind: "deny", reason: "no_matching_allow"} or {kind: "deny", reason: "explicit_deny",
//    rule}; §10 shows only the allow form {kind: "allow", rule}.
//  - Actions travel as {kind: "filesystem", path, mode}, {kind: "network", host, port, method},
//    {kind: "process", binary, argv}; §10 shows only the filesystem form.
//  - steward and agent must be Ed25519 did:key handles (§10 writes both as "<did:key handle>"), id a lower-case UUID v4,
//    closed_at an RFC 3339 date-time, policy_digest (when present) 64 lower-case hex digits.
//  - The kid is the UTF-8 bytes of the steward's did:key, as the jcp receipts of this suite (impl/receipt/seal.ts).
//  - jc_receipt is read as the rest of impl/jouleclaw reads schema tags (versioning.ts): "policy/1" or
//    "policy/1.<minor>" is read as policy/1, fields it does not know are ignored (§7 "Unknown minor → accept by
//    ignoring unknown fields"), another major ("policy/2") or namespace ("1") is ERR_JC_SCHEMA_UNKNOWN.
import { decodeCanonical, encodeCanonical, type CborInput, type CborMap, type CborValue } from '../cbor/index.ts';
import { COSE_ALG_EDDSA, decodeSign1, signSign1, verifySign1 } from '../cose/sign1.ts';
import { JcpError, isJcpError } from '../errors.ts';
import { didPublicKey, isDidKey } from '../identity/did-key.ts';
import { defaultEd25519, type Ed25519, type KeyPair } from '../identity/ed25519.ts';
import { stewardKid } from '../receipt/seal.ts';
import { expectSchema } from './versioning.ts';
import { actionToPlain, decisionToPlain, parsePolicyAction, type PolicyAction, type PolicyAuditEvent, type PolicyDecision } from './policy.ts';

/** The schema id of the policy receipt (jouleclaw §7, §10). */
export const POLICY_RECEIPT_SCHEMA = 'policy/1';

/** The fields a producer chooses; jc_receipt and steward come from the schema and the signing key. */
export interface PolicyReceiptFields {
  /** A UUID v4, lower-case (jouleclaw §10 "<uuid v4>"). */
  readonly id: string;
  /** An RFC 3339 date-time (jouleclaw §10 "<rfc 3339>"): an input, never read from a clock here. */
  readonly closed_at: string;
  readonly engine_id: string;
  readonly audit_sequence: bigint;
  readonly policy_version: bigint;
  /** Lower-case hex BLAKE3 of the rules (§10.1); absent = omitted from the signed core entirely. */
  readonly policy_digest?: string;
  /** The agent's did:key handle. */
  readonly agent: string;
  readonly action: PolicyAction;
  readonly decision: PolicyDecision;
}

/** A policy/1 signed core. */
export interface PolicyReceiptCore extends PolicyReceiptFields {
  /** "policy/1" when sealed here; as written ("policy/1.<minor>" too) when read by a verifier. */
  readonly jc_receipt: string;
  /** The steward's did:key handle (jouleclaw §8), also the COSE kid. */
  readonly steward: string;
}

const _UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const _RFC3339 = /^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])T([01]\d|2[0-3]):[0-5]\d:([0-5]\d|60)(\.\d{1,9})?(Z|[+-]([01]\d|2[0-3]):[0-5]\d)$/;
const _HEX32 = /^[0-9a-f]{64}$/;
const _U64_MAX = (1n << 64n) - 1n;

function _bad(message: string, what: string): never {
  throw new JcpError('ERR_JC_RECEIPT_MALFORMED', `policy/1 ${what}: ${message}`, { what });
}

function _u64(v: unknown, what: string): bigint {
  const n = typeof v === 'bigint' ? v : typeof v === 'number' && Number.isSafeInteger(v) ? BigInt(v) : undefined;
  if (n === undefined || n < 0n || n > _U64_MAX) _bad('must be an unsigned 64-bit integer', what);
  return n;
}

function _text(v: unknown, what: string): string {
  if (typeof v !== 'string' || v.length === 0) _bad('must be non-empty text', what);
  return v;
}

function _did(v: unknown, what: string): string {
  if (!isDidKey(v)) _bad('must be an Ed25519 did:key handle', what);
  return v as string;
}

/** A decision from its plain form (the reading in this file's header). */
export function parsePolicyDecision(v: unknown): PolicyDecision {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) _bad('must be an object', 'decision');
  const o = v as Record<string, unknown>;
  const keys = Object.keys(o).sort().join(',');
  if (o['kind'] === 'allow' && keys === 'kind,rule') return Object.freeze({ kind: 'allow', rule: _text(o['rule'], 'decision.rule') });
  if (o['kind'] === 'deny' && o['reason'] === 'no_matching_allow' && keys === 'kind,reason') return Object.freeze({ kind: 'deny', reason: 'no_matching_allow' });
  if (o['kind'] === 'deny' && o['reason'] === 'explicit_deny' && keys === 'kind,reason,rule') {
    return Object.freeze({ kind: 'deny', reason: 'explicit_deny', rule: _text(o['rule'], 'decision.rule') });
  }
  return _bad('must be {kind: "allow", rule}, {kind: "deny", reason: "no_matching_allow"} or {kind: "deny", reason: "explicit_deny", rule}', 'decision');
}

/** Checks a producer's fields; returns them frozen. Throws ERR_JC_RECEIPT_MALFORMED saying which field is wrong. */
export function checkPolicyReceiptFields(f: PolicyReceiptFields): PolicyReceiptFields {
  if (typeof f !== 'object' || f === null) _bad('fields must be an object', 'receipt');
  if (typeof f.id !== 'string' || !_UUID_V4.test(f.id)) _bad('must be a lower-case UUID v4', 'id');
  if (typeof f.closed_at !== 'string' || !_RFC3339.test(f.closed_at)) _bad('must be an RFC 3339 date-time', 'closed_at');
  // jouleclaw §10.1: "not emitted as a null or an empty string" — present means a 64-hex-digit BLAKE3 digest
  if (f.policy_digest !== undefined && (typeof f.policy_digest !== 'string' || !_HEX32.test(f.policy_digest))) {
    _bad('must be 64 lower-case hex digits when present (absent = omitted, never null or empty)', 'policy_digest');
  }
  let action: PolicyAction;
  try {
    action = parsePolicyAction(f.action);
  } catch (e) {
    if (isJcpError(e)) _bad(e.message, 'action');
    throw e;
  }
  return Object.freeze({
    id: f.id,
    closed_at: f.closed_at,
    engine_id: _text(f.engine_id, 'engine_id'),
    audit_sequence: _u64(f.audit_sequence, 'audit_sequence'),
    policy_version: _u64(f.policy_version, 'policy_version'),
    ...(f.policy_digest !== undefined ? { policy_digest: f.policy_digest } : {}),
    agent: _did(f.agent, 'agent'),
    action,
    decision: parsePolicyDecision(f.decision),
  });
}

/**
 * The receipt fields for one audit event of `engine_id` (jouleclaw §10.1: "The digest MUST be the one in force when
 * the decision was made"): the event's own version and digest, never the engine's current ones. With `bind` false
 * the digest is left out.
 */
export function policyReceiptFieldsFromEvent(engine_id: string, event: PolicyAuditEvent, opts: { id: string; closed_at: string; bind: boolean }): PolicyReceiptFields {
  return checkPolicyReceiptFields({
    id: opts.id,
    closed_at: opts.closed_at,
    engine_id,
    audit_sequence: event.sequence,
    policy_version: event.policy_version,
    ...(opts.bind ? { policy_digest: event.policy_digest } : {}),
    agent: event.agent,
    action: event.action,
    decision: event.decision,
  });
}

/** The core as the plain map that is encoded ("the det-CBOR … of the receipt as JSON"); policy_digest only when present. */
function _coreInput(core: PolicyReceiptCore): CborInput {
  return {
    jc_receipt: core.jc_receipt,
    id: core.id,
    closed_at: core.closed_at,
    steward: core.steward,
    engine_id: core.engine_id,
    audit_sequence: core.audit_sequence,
    policy_version: core.policy_version,
    // jouleclaw §10.1: "When absent, the field MUST be omitted from the signed core entirely" (undefined is omitted)
    policy_digest: core.policy_digest,
    agent: core.agent,
    action: actionToPlain(core.action) as CborInput,
    decision: decisionToPlain(core.decision),
  };
}

/** The canonical signed core: det-CBOR (RFC 8949 §4.2.1 length-first key order) of the receipt (jouleclaw §10). */
export function policyReceiptCoreBytes(core: PolicyReceiptCore): Uint8Array {
  return encodeCanonical(_coreInput(core));
}

/** The signed core of `fields` sealed by `steward`. */
export function policyReceiptCore(fields: PolicyReceiptFields, steward: string): PolicyReceiptCore {
  const f = checkPolicyReceiptFields(fields);
  return Object.freeze({ jc_receipt: POLICY_RECEIPT_SCHEMA, ...f, steward: _did(steward, 'steward') });
}

/**
 * Seals a policy/1 receipt: COSE_Sign1 tagged, protected {1: −8, 4: steward}, unprotected {}, payload the canonical
 * signed core, signed by the steward's key (jouleclaw §10).
 */
export function sealPolicyReceipt(fields: PolicyReceiptFields, steward: KeyPair, backend: Ed25519 = defaultEd25519()): Uint8Array {
  const core = policyReceiptCore(fields, steward.did);
  return signSign1(policyReceiptCoreBytes(core), stewardKid(steward.did), steward.seed, backend);
}

/** Reads a decoded signed core: the §10 fields checked, jc_receipt "policy/1[.<minor>]", unknown fields ignored. */
export function parsePolicyReceiptCore(v: CborValue): PolicyReceiptCore {
  if (!(v instanceof Map)) _bad('the signed core must be a map', 'core');
  const schema = v.get('jc_receipt');
  // jouleclaw §7: "Unknown major → reject. Unknown minor → accept by ignoring unknown fields."
  expectSchema(schema, 'policy', 1);
  const plain = (x: CborValue | undefined): unknown =>
    x instanceof Map ? Object.fromEntries([...x].map(([k, y]) => [String(k), plain(y)])) : Array.isArray(x) ? x.map(plain) : typeof x === 'bigint' && x <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(x) : x;
  const digest = v.get('policy_digest');
  const fields = checkPolicyReceiptFields({
    id: v.get('id') as string,
    closed_at: v.get('closed_at') as string,
    engine_id: v.get('engine_id') as string,
    audit_sequence: _u64(v.get('audit_sequence'), 'audit_sequence'),
    policy_version: _u64(v.get('policy_version'), 'policy_version'),
    ...(v.has('policy_digest') ? { policy_digest: digest as string } : {}),
    agent: v.get('agent') as string,
    action: plain(v.get('action')) as PolicyAction,
    decision: plain(v.get('decision')) as PolicyDecision,
  });
  return Object.freeze({ jc_receipt: schema as string, ...fields, steward: _did(v.get('steward'), 'steward') });
}

/** Options of {@link verifyPolicyReceipt}. */
export interface VerifyPolicyReceiptOptions {
  /** The steward the caller expects; a receipt sealed by another is ERR_RECEIPT_STEWARD_MISMATCH. */
  readonly steward?: string;
  /** A consumer that requires the binding: a receipt without policy_digest is ERR_POLICY_DIGEST_ABSENT. */
  readonly requireDigest?: boolean;
  readonly backend?: Ed25519;
}

/** A verified policy receipt: its core and the signed payload bytes. */
export interface VerifiedPolicyReceipt {
  readonly core: PolicyReceiptCore;
  readonly payload: Uint8Array;
}

const _utf8 = new TextDecoder('utf-8', { fatal: true });

/**
 * Verifies a policy/1 receipt: strict COSE_Sign1 (alg −8, protected {1, 4} only, unprotected empty), a canonical
 * core with the §10 fields (fields it does not know ignored, per §7), kid = steward, the steward's signature. Throws ERR_COSE_*, ERR_JC_RECEIPT_MALFORMED,
 * ERR_JC_SCHEMA_UNKNOWN, ERR_RECEIPT_STEWARD_MISMATCH, ERR_RECEIPT_SIGNATURE_INVALID, ERR_POLICY_DIGEST_ABSENT.
 */
export function verifyPolicyReceipt(bytes: Uint8Array, opts: VerifyPolicyReceiptOptions = {}): VerifiedPolicyReceipt {
  const s = decodeSign1(bytes);
  const h: CborMap = s.protectedHeader;
  for (const k of h.keys()) if (k !== 1 && k !== 4) throw new JcpError('ERR_COSE_MALFORMED', `the protected header carries unsupported label ${String(k)}`);
  // jouleclaw §10: "same COSE_Sign1 envelope (alg = -8 EdDSA over canonical det-CBOR)"
  if (h.get(1) !== COSE_ALG_EDDSA) throw new JcpError('ERR_COSE_UNSUPPORTED_ALG', `alg is ${String(h.get(1))}, a policy receipt is EdDSA (-8)`);
  const kid = h.get(4);
  if (!(kid instanceof Uint8Array)) throw new JcpError('ERR_COSE_MALFORMED', 'the protected header lacks kid (label 4) as a byte string');
  if (s.unprotected.size !== 0) throw new JcpError('ERR_COSE_MALFORMED', 'the unprotected header of a policy receipt must be empty');
  let coreValue: CborValue;
  try {
    coreValue = decodeCanonical(s.payload, { maxDepth: 8 });
  } catch (e) {
    if (isJcpError(e)) throw new JcpError('ERR_JC_RECEIPT_MALFORMED', `the signed core is not canonical det-CBOR (${e.code}): ${e.message}`, { cause_code: e.code }, { cause: e });
    throw e;
  }
  const core = parsePolicyReceiptCore(coreValue);
  let kidText: string;
  try {
    kidText = _utf8.decode(kid);
  } catch {
    throw new JcpError('ERR_RECEIPT_STEWARD_MISMATCH', 'the kid is not the UTF-8 of a did:key handle');
  }
  // jouleclaw §10: "Verifiers reject envelopes whose kid (in the protected header) disagrees with the embedded steward."
  if (kidText !== core.steward) throw new JcpError('ERR_RECEIPT_STEWARD_MISMATCH', `kid ${kidText} disagrees with the embedded steward ${core.steward}`);
  if (opts.steward !== undefined && core.steward !== opts.steward) {
    throw new JcpError('ERR_RECEIPT_STEWARD_MISMATCH', `receipt sealed by ${core.steward}, expected ${opts.steward}`, { expected: opts.steward, actual: core.steward });
  }
  // jouleclaw §8: the steward's key is the one its handle names, so handle == did:key(public_key) holds by construction
  if (!verifySign1(s, didPublicKey(core.steward), opts.backend ?? defaultEd25519())) {
    throw new JcpError('ERR_RECEIPT_SIGNATURE_INVALID', `the policy receipt's signature does not verify under steward ${core.steward}`);
  }
  // jouleclaw §10.1: "A consumer that requires the binding MUST check for the field's presence rather than defaulting it."
  if (opts.requireDigest === true && core.policy_digest === undefined) {
    throw new JcpError('ERR_POLICY_DIGEST_ABSENT', 'the receipt carries no policy_digest and this consumer requires the binding');
  }
  return Object.freeze({ core, payload: s.payload });
}
