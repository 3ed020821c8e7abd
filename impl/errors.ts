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
  // COSE and receipts (jcp §8)
  'ERR_COSE_MALFORMED',
  'ERR_COSE_TOO_LARGE',
  'ERR_COSE_UNSUPPORTED_ALG',
  'ERR_RECEIPT_MALFORMED',
  'ERR_RECEIPT_PROFILE_UNKNOWN',
  'ERR_RECEIPT_STEWARD_MISMATCH',
  'ERR_RECEIPT_SIGNATURE_INVALID',
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
