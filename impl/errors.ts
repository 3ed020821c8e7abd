// The one closed set of error codes of the reference implementation (ARCHITECTURE.md: "Errors are typed, with a stable code").
// Codes are API and never change meaning; messages are for people and may be reworded.

/** Every stable error code the reference implementation can raise. */
export const ERROR_CODES = [
  // canonical det-CBOR (jcp §3, §11)
  'ERR_CBOR_TRUNCATED',
  'ERR_CBOR_TRAILING_BYTES',
  'ERR_CBOR_NOT_SHORTEST',
  'ERR_CBOR_INDEFINITE_LENGTH',
  'ERR_CBOR_UNSORTED_KEYS',
  'ERR_CBOR_DUPLICATE_KEY',
  'ERR_CBOR_FLOAT',
  'ERR_CBOR_SIMPLE_VALUE',
  'ERR_CBOR_TAG',
  'ERR_CBOR_INVALID_UTF8',
  'ERR_CBOR_RESERVED_ADDITIONAL_INFO',
  'ERR_CBOR_TOO_DEEP',
  'ERR_CBOR_TOO_LARGE',
  'ERR_CBOR_UNENCODABLE',
  // bytes and text at the boundary
  'ERR_HEX_MALFORMED',
  'ERR_BAD_ARGUMENT',
  // identity (jcp §2)
  'ERR_DID_MALFORMED',
  'ERR_KEY_LENGTH',
  'ERR_SEED_LENGTH',
  'ERR_SIGNATURE_LENGTH',
  // JCP objects (jcp §4, §6)
  'ERR_GRANT_MALFORMED',
  'ERR_FRAME_MALFORMED',
  'ERR_REVOCATION_MALFORMED',
  'ERR_ATTENUATION_VIOLATION',
  'ERR_NOT_HOLDER',
  'ERR_DELEGATION_FORBIDDEN',
  'ERR_SHARD_OVERSPEND',
  'ERR_REVOCATION_UNAUTHORIZED',
  'ERR_CHAIN_BROKEN',
  // budget channels (jcp §4.5, C17) and standing grants (jcp §4.6, C20)
  'ERR_STATEMENT_MALFORMED',
  'ERR_STATEMENT_WRONG_GRANT',
  'ERR_STATEMENT_NOT_MEMBER',
  'ERR_STATEMENT_FORGED',
  'ERR_STATEMENT_STALE',
  'ERR_STATEMENT_REGRESSING',
  'ERR_OVERDRAFT_PROOF_INVALID',
  'ERR_MINT_POLICY_MALFORMED',
  'ERR_MINT_POLICY_UNAUTHORIZED',
  'ERR_MINT_POLICY_AMPLIFIES',
  'ERR_FIRING_WRONG_EVENT_CLASS',
  'ERR_FIRINGS_EXHAUSTED',
  'ERR_FIRING_OVER_BUDGET',
  // checkpoints and amendments (jcp §4.7, C21; impl/jcp/checkpoint.ts)
  'ERR_CHECKPOINT_MALFORMED',
  'ERR_AMENDMENT_MALFORMED',
  'ERR_STEERED_GRANT_INVALID',
  'ERR_CHECKPOINT_WRONG_GRANT',
  'ERR_CHECKPOINT_NOT_AGENT',
  'ERR_CHECKPOINT_SIGNATURE_INVALID',
  'ERR_CHECKPOINT_RUN_BROKEN',
  'ERR_CHECKPOINT_SPEND_DECREASED',
  'ERR_CHECKPOINT_SPEND_OMITTED',
  'ERR_AMENDMENT_WRONG_CHECKPOINT',
  'ERR_AMENDMENT_SELF_STEER',
  'ERR_AMENDMENT_NOT_ISSUER',
  'ERR_AMENDMENT_SIGNATURE_INVALID',
  'ERR_AMENDMENT_WIDENS',
  'ERR_AMENDMENT_ABOVE_REMAINDER',
  'ERR_CONTINUATION_UNLINKED',
  'ERR_CONTINUATION_MISMATCH',
  // COSE and receipts (jcp §8)
  'ERR_COSE_MALFORMED',
  'ERR_COSE_TOO_LARGE',
  'ERR_COSE_UNSUPPORTED_ALG',
  'ERR_RECEIPT_MALFORMED',
  'ERR_RECEIPT_PROFILE_UNKNOWN',
  'ERR_RECEIPT_STEWARD_MISMATCH',
  'ERR_RECEIPT_SIGNATURE_INVALID',
  // identity rotation (jcp §2.1, C12) and threshold actors (jcp §2.2, C13/C18)
  'ERR_KEY_EVENT_MALFORMED',
  'ERR_KEY_EVENT_IDENTITY_MISMATCH',
  'ERR_KEY_EVENT_SEQ_GAP',
  'ERR_KEY_EVENT_PARENT_MISMATCH',
  'ERR_KEY_EVENT_HASH_MISMATCH',
  'ERR_KEY_EVENT_BAD_SIGNATURE',
  'ERR_THRESHOLD_PARAMS',
  'ERR_THRESHOLD_TOO_FEW_SIGNERS',
  'ERR_THRESHOLD_SIGNATURE_INVALID',
  'ERR_THRESHOLD_DKG_FAILED',
  // energy honesty (jcp §5, §5.1–§5.3; impl/energy)
  'ERR_ENERGY_MALFORMED',
  'ERR_ENERGY_HWSHUNT_UNMEASURED',
  'ERR_ENERGY_ESTIMATOR_MEASURED',
  'ERR_ENERGY_PROVENANCE_OVERCLAIMED',
  'ERR_ENERGY_COVERAGE_OVERCLAIMED',
  'ERR_ENERGY_PARTIAL_NOT_TOTAL',
  'ERR_ENERGY_COVERAGE_VALUE',
  'ERR_EFFICIENCY_PARTIAL_HEADLINE',
  'ERR_TRACE_UNTRACEABLE',
  'ERR_TRACE_UNRESOLVED',
  'ERR_TRACE_ACTIVITY_BOUND_TWICE',
  // durable decision record and durable enforcement point (jcp §4.11, §8.1, C26; impl/durable)
  'ERR_RECORD_LOCKED',
  'ERR_RECORD_NO_EXCLUSIVITY',
  'ERR_RECORD_CORRUPT',
  'ERR_RECORD_REPLAY_MISMATCH',
  'ERR_RECORD_IO',
  'ERR_RECORD_CLOSED',
  'ERR_RECORD_NOT_PENDING',
  // the jcp/1 wire binding (jcp §11; impl/wire)
  'ERR_WIRE_OVERSIZE',
  'ERR_WIRE_NON_CANONICAL',
  'ERR_WIRE_MALFORMED',
  'ERR_WIRE_UNRECORDED',
  'ERR_WIRE_CLOSED',
  // continuations (jcp §6.1; impl/jcp/continuation.ts): no allowed request decided here answers to that receipt or handle
  'ERR_CONTINUATION_UNDECIDED',
  // ---- sense (sense-SPEC.md §2–§11; impl/sense) ----
  'ERR_SENSE_EVENT_MALFORMED',
  'ERR_SENSE_SIGNAL_MALFORMED',
  'ERR_SENSE_LINK_MALFORMED',
  'ERR_SENSE_LINK_SIGNATURE_INVALID',
  'ERR_SENSE_INJECTION_MALFORMED',
  'ERR_SENSE_HOLD_UNDELIVERABLE',
  'ERR_SENSE_SELF_AUTHORED',
  'ERR_SENSE_WAKE_UNAUTHORIZED',
  'ERR_SENSE_DELIVERY_UNPRICED',
  // ---- JouleClaw cascade/verdict receipts, contracts, handoffs and the run journal (jouleclaw §2, §7, §16, §17; impl/jouleclaw) ----
  'ERR_JC_RECEIPT_MALFORMED',
  'ERR_JC_SCHEMA_UNKNOWN',
  'ERR_JC_PROVENANCE_NOT_WORST',
  'ERR_CONTRACT_MALFORMED',
  'ERR_CONTRACT_DUPLICATE_ID',
  'ERR_CONTRACT_UNKNOWN_CLAIM',
  'ERR_EVIDENCE_MALFORMED',
  'ERR_VERDICT_HASH_MISMATCH',
  'ERR_VERDICT_CONTRACT_MISMATCH',
  'ERR_HANDOFF_MALFORMED',
  'ERR_HANDOFF_COMMAND_HASH',
  'ERR_JOURNAL_MALFORMED',
  'ERR_JOURNAL_CHAIN_BROKEN',
  'ERR_RUN_NOT_RECOVERED',
  'ERR_NODE_IN_FLIGHT',
  'ERR_NODE_HELD',
  'ERR_NODE_NOT_DISPATCHABLE',
  // ---- JouleClaw agent identity, policy engine, policy/1 receipt (jouleclaw §8, §9, §10; impl/jouleclaw/{identity,policy*,ldjson}.ts) ----
  'ERR_AGENT_HANDLE_MISMATCH',
  'ERR_POLICY_MALFORMED',
  'ERR_POLICY_ACTION_MALFORMED',
  'ERR_POLICY_VERSION_NOT_INCREASING',
  'ERR_POLICY_REQUEST_MALFORMED',
  'ERR_POLICY_DIGEST_ABSENT',
  'ERR_SHAPE_VIOLATION', // jouleclaw §15: a tool input that fails SHACL validation, refused before the tool is called
  // ---- JouleClaw transparency log (jouleclaw §22, C-TLOG; impl/jouleclaw/tlog*.ts) ----
  'ERR_TLOG_HEAD_MALFORMED', // a tree head that is not {root, size, steward, timestamp, signature} as tlog-head.ts fixes it
  'ERR_TLOG_ROOT_MALFORMED', // §22.2: a head whose root is not 32 bytes of hex (absent and empty included)
  'ERR_TLOG_HEAD_UNSIGNED', // §22.2: an unsigned root never verifies a proof
  'ERR_TLOG_HEAD_WRONG_KEY', // §22.2: a head signed by a key other than the receipts' sealer
  'ERR_TLOG_HEAD_SIGNATURE_INVALID', // the signature does not cover these three fields under the named key
  'ERR_TLOG_INCLUSION_INVALID',
  'ERR_TLOG_CONSISTENCY_INVALID',
  'ERR_TLOG_ENTRY_FOREIGN', // an entry not sealed by the log's own key
  'ERR_TLOG_UNRECORDED', // §22.3: the log cannot record the entry
] as const;

/** A stable error code; see {@link ERROR_CODES}. */
export type JcpErrorCode = (typeof ERROR_CODES)[number];

/**
 * The only error type the reference implementation throws on bad input.
 * `code` is stable API; `message` says what was wrong; `detail` carries machine-readable context.
 */
export class JcpError extends Error {
  override readonly name = 'JcpError';
  readonly code: JcpErrorCode;
  readonly detail: Readonly<Record<string, unknown>> | undefined;

  constructor(code: JcpErrorCode, message: string, detail?: Record<string, unknown>, options?: { cause?: unknown }) {
    super(`${code}: ${message}`, options);
    this.code = code;
    this.detail = detail === undefined ? undefined : Object.freeze({ ...detail });
  }
}

/** True when `e` is a {@link JcpError}, optionally with the given code. */
export function isJcpError(e: unknown, code?: JcpErrorCode): e is JcpError {
  return e instanceof JcpError && (code === undefined || e.code === code);
}
