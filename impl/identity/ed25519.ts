// Ed25519 (RFC 8032 §5.1) behind one interface with two backends, node:crypto and @noble/ed25519; jcp §2: "Every actor … is an Ed25519 key".
//
// THE VERIFICATION RULE (spec-map jcp/2#open-ed25519-verification-rule; jcp §2 names Ed25519 but fixes no rule).
// Both backends implement exactly this, and the suite's tests hold them to identical verdicts:
//   verify(sig = R ‖ S, M, A) is true iff all of
//   1. S, read little-endian, is < L = 2^252 + 27742317777372353535851937790883648493   (RFC 8032 §5.1.7 step 1);
//   2. A decodes per RFC 8032 §5.1.3: its y (the low 255 bits) is < p = 2^255 − 19, it is on the curve, and it is
//      not x = 0 with the sign bit set — a non-canonical A is refused, even when it names a curve point;
//   3. R decodes by the same rule — a non-canonical R is refused;
//   4. with k = SHA-512(R ‖ A ‖ M) mod L over the bytes as given (canonical, by 2 and 3), the COFACTORLESS
//      equation [S]B = R + [k]A holds.
//   Nothing else is refused: a small-order A or R (and a mixed-order one) is accepted when the cofactorless equation
//   holds. A signature that holds only under the cofactored equation [8][S]B = [8]R + [8][k]A is refused.
//   This is "strict" RFC 8032 as Wycheproof expects (all 151 ed25519_test.json verdicts match), not ZIP-215.
//
// Where each backend needs help (measured on Wycheproof and the 914 C2SP/CCTV edge-case vectors, OpenSSL 3.0.x):
//   - node:crypto (OpenSSL) enforces 1, 3 (it re-encodes [S]B − [k]A and compares bytes with R) and 4, but accepts a
//     non-canonical A (y ≥ p, or x = 0 with the sign bit), so 2 is checked here first (_isCanonicalPoint); 1 is also
//     checked here so that the rule does not rest on an OpenSSL version.
//   - @noble/ed25519 v3's verify() is cofactored and, in strict mode, also refuses every small-order A, so it cannot
//     express this rule; the noble backend checks 1 here and builds 2–4 from noble's own Point arithmetic
//     (Point.fromBytes(…, zip215 = false) is exactly RFC 8032 §5.1.3 decoding).
//
// CCTV outcomes under this rule (a vector counts in each of its flag groups; 172 of the 914 verify, and a vector
// verifies exactly when it carries none of non_canonical_A, non_canonical_R, low_order_residue):
//   refused, every one: non_canonical_A (226; OpenSSL alone would accept 36 of them), non_canonical_R (316),
//                       low_order_residue (583: the low-order parts of R and [k]A do not cancel, so only the
//                       cofactored equation holds), reencoded_k (146: each also carries a non-canonical A or R).
//   accepted when free of those three flags, which is every time the cofactorless equation holds:
//                       low_order_A 86/526, low_order_R 86/586, low_order_component_A 168/774,
//                       low_order_component_R 140/665, and the one unflagged vector (1/1).
//
// Keys come from seeds (ARCHITECTURE.md: "every key comes from a seed"): the 32-byte seed is RFC 8032's secret key.
import { createPrivateKey, createPublicKey, sign as _cryptoSign, verify as _cryptoVerify, type KeyObject } from 'node:crypto';
import * as _noble from '@noble/ed25519';
import { sha512 as _sha512 } from '@noble/hashes/sha2.js';
import { abytes, bytesEqual, concatBytes } from '../bytes.ts';
import { JcpError } from '../errors.ts';
import { blake3DeriveKey } from '../hash/blake3.ts';
import { didFromPublicKey } from './did-key.ts';

// @noble/ed25519 v3 needs a synchronous SHA-512 for its sync sign/getPublicKey.
_noble.hashes.sha512 = _sha512;

/** One Ed25519 implementation. All three operations are deterministic and follow the rule in this file's header. */
export interface Ed25519 {
  /** Which backend this is. */
  readonly name: 'node' | 'noble';
  /**
   * The 32-byte public key of a 32-byte seed (RFC 8032 §5.1.5; the seed is the RFC's secret key).
   * Throws ERR_SEED_LENGTH unless `seed` is a Uint8Array of 32 bytes.
   */
  publicKeyFromSeed(seed: Uint8Array): Uint8Array;
  /**
   * The 64-byte signature R ‖ S of `message` under the key of `seed` (RFC 8032 §5.1.6; deterministic).
   * Throws ERR_SEED_LENGTH for a bad seed, ERR_BAD_ARGUMENT when `message` is not a Uint8Array.
   */
  sign(seed: Uint8Array, message: Uint8Array): Uint8Array;
  /**
   * Whether `signature` is valid for `message` under `publicKey`, by the rule of this file's header. A signature or
   * key of the right length that fails the rule (S ≥ L, a non-canonical or off-curve A or R, a failed equation)
   * gives false. Throws only JcpError: ERR_SIGNATURE_LENGTH (not 64 bytes), ERR_KEY_LENGTH (not 32 bytes),
   * ERR_BAD_ARGUMENT (a message that is not a Uint8Array). Synchronous, and keeps no reference to its arguments: a
   * caller may pass scratch memory it reuses (impl/wire/codec.ts does).
   */
  verify(signature: Uint8Array, message: Uint8Array, publicKey: Uint8Array): boolean;
}

// ---------------------------------------------------------------------------------------------------------------
// The rule's byte-level checks, shared by both backends.

/** L, the order of the base point, as 32 little-endian bytes. */
const _L_LE = Uint8Array.from([
  0xed, 0xd3, 0xf5, 0x5c, 0x1a, 0x63, 0x12, 0x58, 0xd6, 0x9c, 0xf7, 0xa2, 0xde, 0xf9, 0xde, 0x14,
  0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x10,
]);

/** True when the 32 little-endian bytes of `sig` at offset 32 (S) are < L. */
function _isCanonicalScalar(sig: Uint8Array): boolean {
  for (let i = 31; i >= 0; i--) {
    const s = sig[32 + i] as number;
    const l = _L_LE[i] as number;
    if (s !== l) return s < l;
  }
  return false; // S = L
}

/**
 * True when the 32-byte point encoding `b` is canonical per RFC 8032 §5.1.3: y < p, and not x = 0 with the sign bit
 * set (x = 0 exactly when y = 1 or y = p − 1). Whether y is on the curve is left to the backend.
 */
function _isCanonicalPoint(b: Uint8Array): boolean {
  const top = (b[31] as number) & 0x7f;
  const sign = (b[31] as number) >> 7;
  // y ≥ p = 2^255 − 19 only when bytes 1..30 are 0xff, the top byte is 0x7f and the low byte is ≥ 0xed.
  let allFF = top === 0x7f;
  for (let i = 1; allFF && i < 31; i++) allFF = b[i] === 0xff;
  if (allFF && (b[0] as number) >= 0xed) return false;
  if (sign === 1) {
    // y = 1: bytes 01 00 … 00; y = p − 1: bytes ec ff … ff 7f.
    let isOne = top === 0 && b[0] === 1;
    for (let i = 1; isOne && i < 31; i++) isOne = b[i] === 0;
    if (isOne) return false;
    if (allFF && b[0] === 0xec) return false;
  }
  return true;
}

function _amessage(message: Uint8Array): Uint8Array {
  if (!(message instanceof Uint8Array)) throw new JcpError('ERR_BAD_ARGUMENT', 'message must be a Uint8Array', { what: 'message' });
  return message;
}

function _aseed(seed: Uint8Array): Uint8Array {
  return abytes(seed, 32, 'seed', 'ERR_SEED_LENGTH');
}

function _averify(signature: Uint8Array, message: Uint8Array, publicKey: Uint8Array): void {
  abytes(signature, 64, 'signature', 'ERR_SIGNATURE_LENGTH');
  _amessage(message);
  abytes(publicKey, 32, 'public key', 'ERR_KEY_LENGTH');
}

// ---------------------------------------------------------------------------------------------------------------
// node:crypto backend, with bounded caches of KeyObjects (building one costs more than a signature).
//
// Keys are imported as RFC 8037 JWKs, which node hands straight to OpenSSL's raw-key constructor: about 7× faster
// than DER through OpenSSL's decoder framework (measured on node 20: private ~95 µs vs ~690 µs, public ~33 µs vs
// ~200 µs). Node requires `x` in a private JWK but derives the public key from `d` and ignores `x`; should a later
// node check `x`, the import falls back to PKCS#8 DER.

/** Most entries each KeyObject cache holds; the oldest insertion is evicted first. */
const _CACHE_CAP = 4096;
const _PKCS8_PREFIX = Buffer.from('302e020100300506032b657004220420', 'hex');

/** A cached private key: its KeyObject and, once asked for, its public key bytes. */
interface _PrivateEntry {
  readonly key: KeyObject;
  publicKey: Uint8Array | undefined;
}

const _privateKeys = new Map<string, _PrivateEntry>();
/** Public KeyObjects by key bytes; null marks bytes refused by the rule before OpenSSL sees them. */
const _publicKeys = new Map<string, KeyObject | null>();

function _view(b: Uint8Array): Buffer {
  return Buffer.from(b.buffer, b.byteOffset, b.byteLength);
}

/** A cache key holding exactly the bytes of `b` (latin1: one char per byte, built natively). */
function _cacheKey(b: Uint8Array): string {
  return _view(b).toString('latin1');
}

function _remember<V>(map: Map<string, V>, k: string, v: V): V {
  if (map.size >= _CACHE_CAP) map.delete(map.keys().next().value as string);
  map.set(k, v);
  return v;
}

function _importSeed(seed: Uint8Array): KeyObject {
  try {
    return createPrivateKey({ key: { kty: 'OKP', crv: 'Ed25519', d: _view(seed).toString('base64url'), x: '' }, format: 'jwk' });
  } catch {
    return createPrivateKey({ key: Buffer.concat([_PKCS8_PREFIX, seed]), format: 'der', type: 'pkcs8' });
  }
}

// A first-level cache by array object (a KeyPair's seed is one array for its whole life), checked against a copy of
// the bytes, so a seed changed in place is looked up again by its bytes rather than trusted.
const _bySeedObject = new WeakMap<Uint8Array, { readonly bytes: Uint8Array; readonly entry: _PrivateEntry }>();

function _privateEntry(seed: Uint8Array): _PrivateEntry {
  const hit0 = _bySeedObject.get(seed);
  if (hit0 !== undefined && bytesEqual(hit0.bytes, seed)) return hit0.entry;
  const entry = _privateEntryByBytes(seed);
  _bySeedObject.set(seed, { bytes: seed.slice(), entry });
  return entry;
}

function _privateEntryByBytes(seed: Uint8Array): _PrivateEntry {
  const k = _cacheKey(seed);
  const hit = _privateKeys.get(k);
  if (hit !== undefined) return hit;
  return _remember(_privateKeys, k, { key: _importSeed(seed), publicKey: undefined });
}

// A first-level cache by array object, as for seeds: a verifier passes the same key array again and again (didPublicKey
// hands out one array per did); checked against a copy of the bytes, so a key changed in place is looked up again.
const _byPublicKeyObject = new WeakMap<Uint8Array, { readonly bytes: Uint8Array; readonly key: KeyObject | null }>();

function _publicKeyObject(publicKey: Uint8Array): KeyObject | null {
  const hit0 = _byPublicKeyObject.get(publicKey);
  if (hit0 !== undefined && bytesEqual(hit0.bytes, publicKey)) return hit0.key;
  const key = _publicKeyObjectByBytes(publicKey);
  _byPublicKeyObject.set(publicKey, { bytes: publicKey.slice(), key });
  return key;
}

function _publicKeyObjectByBytes(publicKey: Uint8Array): KeyObject | null {
  const k = _cacheKey(publicKey);
  const hit = _publicKeys.get(k);
  if (hit !== undefined) return hit;
  let key: KeyObject | null = null;
  // Rule step 2: OpenSSL alone accepts a non-canonical A, so it is refused here.
  if (_isCanonicalPoint(publicKey)) {
    try {
      key = createPublicKey({ key: { kty: 'OKP', crv: 'Ed25519', x: _view(publicKey).toString('base64url') }, format: 'jwk' });
    } catch {
      key = null;
    }
  }
  return _remember(_publicKeys, k, key);
}

/** Ed25519 through node:crypto (OpenSSL): the fast default. */
export const nodeEd25519: Ed25519 = Object.freeze({
  name: 'node' as const,
  publicKeyFromSeed(seed: Uint8Array): Uint8Array {
    const e = _privateEntry(_aseed(seed));
    if (e.publicKey === undefined) {
      const x = e.key.export({ format: 'jwk' }).x;
      const pk = typeof x === 'string' ? Buffer.from(x, 'base64url') : undefined;
      if (pk?.length !== 32) throw new Error('node:crypto exported no 32-byte Ed25519 public key');
      e.publicKey = new Uint8Array(pk);
    }
    return e.publicKey.slice();
  },
  sign(seed: Uint8Array, message: Uint8Array): Uint8Array {
    const e = _privateEntry(_aseed(seed));
    const sig = _cryptoSign(null, _amessage(message), e.key);
    // node hands back a Buffer on an ArrayBuffer of its own: a plain Uint8Array over that buffer is what a copy would
    // be, without the copy; anything else (a pooled or offset Buffer) is copied
    return sig.byteOffset === 0 && sig.buffer.byteLength === sig.length ? new Uint8Array(sig.buffer, 0, sig.length) : new Uint8Array(sig);
  },
  verify(signature: Uint8Array, message: Uint8Array, publicKey: Uint8Array): boolean {
    _averify(signature, message, publicKey);
    // Rule step 1 (RFC 8032 §5.1.7): "If … S is not in the range 0 <= s < L, the signature is invalid."
    if (!_isCanonicalScalar(signature)) return false;
    const key = _publicKeyObject(publicKey);
    if (key === null) return false;
    try {
      return _cryptoVerify(null, message, key, signature);
    } catch {
      return false;
    }
  },
});

// ---------------------------------------------------------------------------------------------------------------
// @noble/ed25519 backend: noble's sign and key derivation, and the rule built from noble's Point arithmetic.

const _Point = _noble.Point;
const _L = 2n ** 252n + 27742317777372353535851937790883648493n;

function _numberLE(b: Uint8Array): bigint {
  let n = 0n;
  for (let i = b.length - 1; i >= 0; i--) n = (n << 8n) | BigInt(b[i] as number);
  return n;
}

/** Ed25519 through @noble/ed25519 v3 (pure JavaScript): portable, slower. */
export const nobleEd25519: Ed25519 = Object.freeze({
  name: 'noble' as const,
  publicKeyFromSeed(seed: Uint8Array): Uint8Array {
    return _noble.getPublicKey(_aseed(seed));
  },
  sign(seed: Uint8Array, message: Uint8Array): Uint8Array {
    _aseed(seed);
    return _noble.sign(_amessage(message), seed);
  },
  verify(signature: Uint8Array, message: Uint8Array, publicKey: Uint8Array): boolean {
    _averify(signature, message, publicKey);
    // Rule step 1 (RFC 8032 §5.1.7): "If … S is not in the range 0 <= s < L, the signature is invalid."
    if (!_isCanonicalScalar(signature)) return false;
    const rBytes = signature.subarray(0, 32);
    let A: _noble.Point;
    let R: _noble.Point;
    try {
      // Rule steps 2 and 3 (RFC 8032 §5.1.3): strict decoding refuses y ≥ p, off-curve y, and x = 0 with the sign bit.
      A = _Point.fromBytes(publicKey, false);
      R = _Point.fromBytes(rBytes, false);
    } catch {
      return false;
    }
    const k = _numberLE(_sha512(concatBytes(rBytes, publicKey, message))) % _L;
    const S = _numberLE(signature.subarray(32, 64));
    // Rule step 4, cofactorless: [S]B = R + [k]A.
    const SB = _Point.BASE.multiply(S, false);
    return SB.equals(R.add(A.multiply(k, false)));
  },
});

/** The backend used when none is named: {@link nodeEd25519}. */
export function defaultEd25519(): Ed25519 {
  return nodeEd25519;
}

// ---------------------------------------------------------------------------------------------------------------
// Deterministic keys.

/** The BLAKE3 derive_key context of {@link deriveSeed}; fixed forever, since changing it changes every key. */
export const SEED_CONTEXT = 'jcp-conformance 2026 seed v1';

const _utf8 = new TextEncoder();
const _LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/**
 * A 32-byte seed named by `label`: BLAKE3 derive_key with context {@link SEED_CONTEXT} over the UTF-8 of `label`.
 * The same label gives the same seed on every machine. Throws ERR_BAD_ARGUMENT when `label` is not a string or holds
 * a lone surrogate (which UTF-8 cannot carry, so two labels would share a seed).
 */
export function deriveSeed(label: string): Uint8Array {
  if (typeof label !== 'string') throw new JcpError('ERR_BAD_ARGUMENT', 'a seed label must be a string', { what: 'label' });
  if (_LONE_SURROGATE.test(label)) {
    throw new JcpError('ERR_BAD_ARGUMENT', 'a seed label must be well-formed Unicode (it has a lone surrogate)', { what: 'label' });
  }
  return blake3DeriveKey(SEED_CONTEXT, _utf8.encode(label), 32);
}

/** An actor's key material: the seed, its Ed25519 public key and its did:key (jcp §2). */
export interface KeyPair {
  readonly seed: Uint8Array;
  readonly publicKey: Uint8Array;
  readonly did: string;
}

/**
 * The frozen key pair of `seed` (copied), its public key computed by `backend` (default {@link defaultEd25519}).
 * Throws ERR_SEED_LENGTH unless `seed` is a Uint8Array of 32 bytes.
 */
export function keyPairFromSeed(seed: Uint8Array, backend: Ed25519 = defaultEd25519()): KeyPair {
  const s = _aseed(seed).slice();
  const publicKey = backend.publicKeyFromSeed(s);
  return Object.freeze({ seed: s, publicKey, did: didFromPublicKey(publicKey) });
}
