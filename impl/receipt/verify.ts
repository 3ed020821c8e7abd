// jcp §8 receipt verification: strict COSE_Sign1, the core read under the profile it names, steward = kid, signature.
import { decodeCanonical } from '../cbor/index.ts';
import { COSE_ALG_EDDSA, _ownBytesUnfilled, decodeSign1, verifySign1, verifySign1Layout } from '../cose/sign1.ts';
import { JcpError, isJcpError } from '../errors.ts';
import { defaultEd25519, type Ed25519 } from '../identity/ed25519.ts';
import { didPublicKey } from '../identity/did-key.ts';
import type { Did } from '../jcp/types.ts';
import { parseReceiptCore, type ReceiptCore } from './core.ts';
import { _readReceipt } from './read-receipt.ts';

const utf8 = new TextDecoder('utf-8', { fatal: true });

/** What a verified receipt yields. */
export interface VerifiedReceipt {
  readonly core: ReceiptCore;
  /** The signed payload bytes (the canonical core). */
  readonly payload: Uint8Array;
}

/** Options of {@link verifyReceipt}. */
export interface VerifyReceiptOptions {
  /** The steward the caller expects; a receipt sealed by any other key is refused (jcp §9 C5 "a wrong steward fails"). */
  readonly steward?: Did;
  /** Cap on the envelope size (default 64 KiB). */
  readonly maxBytes?: number;
  readonly backend?: Ed25519;
}

function malformed(msg: string): never {
  throw new JcpError('ERR_COSE_MALFORMED', msg);
}

/**
 * Verifies a sealed receipt and returns its core. Throws a JcpError with a stable code: ERR_COSE_TOO_LARGE,
 * ERR_COSE_MALFORMED, ERR_COSE_UNSUPPORTED_ALG, ERR_SIGNATURE_LENGTH, ERR_RECEIPT_PROFILE_UNKNOWN,
 * ERR_RECEIPT_MALFORMED, ERR_RECEIPT_STEWARD_MISMATCH, ERR_RECEIPT_SIGNATURE_INVALID.
 */
export function verifyReceipt(bytes: Uint8Array, opts: VerifyReceiptOptions = {}): VerifiedReceipt {
  // The one-pass reader takes a receipt in its one expected shape, accepting only what the strict path below accepts
  // (with the same core); anything else, every refusal included, is left to the strict path, which names the fault.
  const r = _readReceipt(bytes, opts.maxBytes);
  if (r !== undefined && (opts.steward === undefined || r.core.steward === opts.steward)) {
    const backend = opts.backend ?? defaultEd25519();
    if (!verifySign1Layout(bytes, r.protEnd, r.payloadEnd, r.sigAt, didPublicKey(r.core.steward), backend)) {
      throw new JcpError('ERR_RECEIPT_SIGNATURE_INVALID', `the receipt's signature does not verify under steward ${r.core.steward}`);
    }
    // the payload copied out, on an ArrayBuffer of its own as the strict decoder gives it
    const payload = _ownBytesUnfilled(r.payloadEnd - r.payloadAt);
    payload.set(bytes.subarray(r.payloadAt, r.payloadEnd));
    return Object.freeze({ core: r.core, payload });
  }
  return _verifyReceiptStrict(bytes, opts);
}

/**
 * {@link verifyReceipt} by the general path alone: the strict COSE and CBOR decoders, then the profile's field reader.
 * Exported for the tests that check the one-pass reader against it.
 */
export function _verifyReceiptStrict(bytes: Uint8Array, opts: VerifyReceiptOptions = {}): VerifiedReceipt {
  const backend = opts.backend ?? defaultEd25519();
  const s = decodeSign1(bytes, opts.maxBytes === undefined ? {} : { maxBytes: opts.maxBytes });
  const h = s.protectedHeader;
  for (const k of h.keys()) if (k !== 1 && k !== 4) malformed(`protected header carries unsupported label ${String(k)}`);
  const alg = h.get(1);
  // jcp §8: "COSE_Sign1 envelope (RFC 9052, EdDSA/Ed25519, alg = -8)"
  if (alg !== COSE_ALG_EDDSA) {
    throw new JcpError('ERR_COSE_UNSUPPORTED_ALG', `receipt alg is ${String(alg)}, only EdDSA (-8) is implemented`);
  }
  const kid = h.get(4);
  if (!(kid instanceof Uint8Array)) malformed('protected header lacks kid (label 4) as a byte string');
  if (s.unprotected.size !== 0) malformed('the unprotected header of a JCP receipt must be empty');
  if (s.signature.length !== 64) throw new JcpError('ERR_SIGNATURE_LENGTH', `signature is ${s.signature.length} bytes, not 64`);

  let coreValue;
  try {
    coreValue = decodeCanonical(s.payload, { maxDepth: 8 });
  } catch (e) {
    if (isJcpError(e)) throw new JcpError('ERR_RECEIPT_MALFORMED', `the receipt core is not canonical det-CBOR (${e.code}): ${e.message}`, { cause_code: e.code }, { cause: e });
    throw e;
  }
  // jcp §8: "A verifier MUST read the jcp_receipt tag from the signed core and recompute the preimage under that profile"
  // The strict decoder admits only the one canonical encoding of a value (encode(decode(b)) = b, property-tested in
  // harness/conformance/cbor.test.ts) and the profile admits only its own fields, so the signed payload is exactly the
  // profile's preimage of the fields read here: re-encoding it would only produce the same bytes again.
  const core = parseReceiptCore(coreValue);
  let kidText: string;
  try {
    kidText = utf8.decode(kid);
  } catch {
    throw new JcpError('ERR_RECEIPT_STEWARD_MISMATCH', 'the kid is not the UTF-8 of a did:key');
  }
  // jcp §8: "steward = the signer's id (the COSE kid)"
  if (kidText !== core.steward) {
    throw new JcpError('ERR_RECEIPT_STEWARD_MISMATCH', `kid ${kidText} differs from the core's steward ${core.steward}`);
  }
  if (opts.steward !== undefined && core.steward !== opts.steward) {
    throw new JcpError('ERR_RECEIPT_STEWARD_MISMATCH', `receipt sealed by ${core.steward}, expected ${opts.steward}`, {
      expected: opts.steward,
      actual: core.steward,
    });
  }
  if (!verifySign1(s, didPublicKey(core.steward), backend)) {
    throw new JcpError('ERR_RECEIPT_SIGNATURE_INVALID', `the receipt's signature does not verify under steward ${core.steward}`);
  }
  return Object.freeze({ core, payload: s.payload });
}
