// jouleclaw §2, §10, §16.7: the COSE_Sign1 envelope every JouleClaw sibling receipt shares — protected {1: −8, 4: steward},
// unprotected {}, payload = the canonical det-CBOR signed core — and the reader that dispatches on jc_receipt (§7).
// The kid is the UTF-8 of the steward's did:key, the byte shape impl/receipt/seal.ts fixes for JCR-1.
import { decodeCanonical, encodeCanonical, type CborInput, type CborValue } from '../cbor/index.ts';
import { COSE_ALG_EDDSA, decodeSign1, protectedHeaderBytes, signSign1WithHeader, verifySign1 } from '../cose/sign1.ts';
import { JcpError, isJcpError } from '../errors.ts';
import { didPublicKey } from '../identity/did-key.ts';
import { defaultEd25519, type Ed25519, type KeyPair } from '../identity/ed25519.ts';
import { stewardKid } from '../receipt/seal.ts';
import type { JsonObject, JsonValue } from './contract-json.ts';
import { receiptKindOf, type ReceiptKind } from './versioning.ts';

const utf8d = new TextDecoder('utf-8', { fatal: true });

/** A signed core: text keys, values of the JCR-1 canonical subset (text, integers, arrays and maps of them). */
export type JcCore = { readonly [k: string]: CborInput | undefined };

/**
 * Seals `core` as a tagged COSE_Sign1 under `steward`. The core must name the signer as its `steward`
 * (jouleclaw §10: "Verifiers reject envelopes whose kid … disagrees with the embedded steward"); a value outside the
 * canonical subset (a boolean, null, a float) is refused by the encoder (ERR_CBOR_UNENCODABLE / ERR_CBOR_FLOAT).
 */
export function sealJcCore(core: JcCore, steward: KeyPair, backend: Ed25519 = defaultEd25519()): Uint8Array {
  if (core['steward'] !== steward.did) {
    throw new JcpError('ERR_BAD_ARGUMENT', `the core names steward ${String(core['steward'])} but is signed by ${steward.did}`);
  }
  return signSign1WithHeader(encodeCanonical(core as CborInput), protectedHeaderBytes(stewardKid(steward.did)), steward.seed, backend);
}

/** What {@link openJcReceipt} yields. `core` is absent for a namespace this implementation does not know. */
export interface OpenedJcReceipt {
  readonly kind: ReceiptKind;
  readonly jc_receipt: string;
  readonly core?: JsonObject;
  readonly payload: Uint8Array;
}

/** A decoded det-CBOR value as JSON (integers as numbers when safe, else refused; byte strings refused). */
export function cborToJson(v: CborValue, path = '$'): JsonValue {
  if (typeof v === 'string') return v;
  if (typeof v === 'number') return v;
  if (typeof v === 'bigint') {
    if (v > BigInt(Number.MAX_SAFE_INTEGER) || v < BigInt(Number.MIN_SAFE_INTEGER)) {
      throw new JcpError('ERR_JC_RECEIPT_MALFORMED', `${path}: integer ${v} is outside the JSON-safe range`);
    }
    return Number(v);
  }
  if (Array.isArray(v)) return v.map((x, i) => cborToJson(x, `${path}[${i}]`));
  if (v instanceof Map) {
    const o: JsonObject = {};
    for (const [k, x] of v) {
      if (typeof k !== 'string') throw new JcpError('ERR_JC_RECEIPT_MALFORMED', `${path}: a map key is not text`);
      o[k] = cborToJson(x, `${path}.${k}`);
    }
    return o;
  }
  throw new JcpError('ERR_JC_RECEIPT_MALFORMED', `${path}: a byte string or tag has no place in a JouleClaw receipt core`);
}

/**
 * Opens a sealed JouleClaw receipt: strict COSE_Sign1 (alg −8, kid, empty unprotected), canonical core, then the
 * jc_receipt dispatch of §7 (unknown major of a known namespace: ERR_JC_SCHEMA_UNKNOWN; an unknown namespace comes back
 * as kind 'unknown' with no core, for the reader to skip). For a known kind: kid = steward, signature under the steward.
 */
export function openJcReceipt(bytes: Uint8Array, backend: Ed25519 = defaultEd25519()): OpenedJcReceipt {
  const s = decodeSign1(bytes);
  for (const k of s.protectedHeader.keys()) if (k !== 1 && k !== 4) throw new JcpError('ERR_COSE_MALFORMED', `protected header carries unsupported label ${String(k)}`);
  const alg = s.protectedHeader.get(1);
  if (alg !== COSE_ALG_EDDSA) throw new JcpError('ERR_COSE_UNSUPPORTED_ALG', `receipt alg is ${String(alg)}, only EdDSA (-8) is implemented`);
  const kid = s.protectedHeader.get(4);
  if (!(kid instanceof Uint8Array)) throw new JcpError('ERR_COSE_MALFORMED', 'protected header lacks kid (label 4) as a byte string');
  if (s.unprotected.size !== 0) throw new JcpError('ERR_COSE_MALFORMED', 'the unprotected header of a JouleClaw receipt must be empty');
  let decoded: CborValue;
  try {
    decoded = decodeCanonical(s.payload, { maxDepth: 16 });
  } catch (e) {
    if (isJcpError(e)) throw new JcpError('ERR_JC_RECEIPT_MALFORMED', `the signed core is not canonical det-CBOR (${e.code}): ${e.message}`, undefined, { cause: e });
    throw e;
  }
  if (!(decoded instanceof Map)) throw new JcpError('ERR_JC_RECEIPT_MALFORMED', 'the signed core must be a map');
  const tag = decoded.get('jc_receipt');
  // jouleclaw §10: readers "dispatch on the jc_receipt schema tag … unknown → forward-compat skip"
  const kind = receiptKindOf(tag);
  if (kind === 'unknown') return Object.freeze({ kind, jc_receipt: tag as string, payload: s.payload });
  const core = cborToJson(decoded) as JsonObject;
  const steward = core['steward'];
  if (typeof steward !== 'string') throw new JcpError('ERR_JC_RECEIPT_MALFORMED', 'a sealed receipt core must name its steward');
  let kidText: string;
  try {
    kidText = utf8d.decode(kid);
  } catch {
    throw new JcpError('ERR_RECEIPT_STEWARD_MISMATCH', 'the kid is not the UTF-8 of a did:key');
  }
  // jouleclaw §10 / §16.7: "verifiers reject envelopes whose kid disagrees with the embedded steward"
  if (kidText !== steward) throw new JcpError('ERR_RECEIPT_STEWARD_MISMATCH', `kid ${kidText} differs from the core's steward ${steward}`);
  if (!verifySign1(s, didPublicKey(steward), backend)) {
    throw new JcpError('ERR_RECEIPT_SIGNATURE_INVALID', `the receipt's signature does not verify under steward ${steward}`);
  }
  return Object.freeze({ kind, jc_receipt: tag as string, core, payload: s.payload });
}
