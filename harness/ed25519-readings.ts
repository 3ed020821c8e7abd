// The verdict of each reading of jcp/2#open-ed25519-verification-rule (harness/protocol/readings.ts
// `ed25519-verification`; jcp §2 names Ed25519 but fixes no verification rule), computed test-side from their
// definitions, apart from the reference, so that a test of a verdict the readings disagree on can grade a testee
// against the reading it declared, and read "acceptable" any verdict some reading gives where it declared none:
//   rfc8032-strict  RFC 8032 §5.1.7: S < L, A and R decoded per §5.1.3 (canonical), the cofactorless [S]B = R + [k]A;
//   cofactored      the same decoding, the cofactored [8][S]B = [8]R + [8][k]A;
//   zip215          ZIP-215: S < L, A and R decoded with y < 2^255 unreduced and x = 0 with the sign bit accepted, the
//                   cofactored equation.
// Every reading takes k = SHA-512(R ‖ A ‖ M) mod L over the bytes as given, never re-encoded.
// Also each reading's verdict on a C2SP/CCTV edge-case vector, read off its flags. harness/self/ed25519-readings.test.ts
// holds the computed verdicts to the reference (rfc8032-strict), to @noble/curves' ZIP-215 verify, and to the flags.
import { Point } from '@noble/ed25519';
import { sha512 } from '@noble/hashes/sha2.js';
import { OPEN_POINTS } from './protocol/readings.ts';

/** A reading of the open point `ed25519-verification`. */
export type Ed25519Reading = 'rfc8032-strict' | 'cofactored' | 'zip215';

/** The readings, as harness/protocol/readings.ts lists them (the reference's first). */
export const ED25519_READINGS = Object.keys(OPEN_POINTS['ed25519-verification']!.readings) as readonly Ed25519Reading[];

/** L, the order of the base point. */
const L = 2n ** 252n + 27742317777372353535851937790883648493n;

const _numberLE = (b: Uint8Array): bigint => {
  let n = 0n;
  for (let i = b.length - 1; i >= 0; i--) n = (n << 8n) | BigInt(b[i] as number);
  return n;
};

/**
 * Whether `signature` verifies `message` under `publicKey` by `reading`. A key that is not 32 bytes or a signature
 * that is not 64 is another open point (jcp/2#open-wrong-length-key-or-signature): this throws on one.
 */
export function verifiesUnder(reading: Ed25519Reading, publicKey: Uint8Array, message: Uint8Array, signature: Uint8Array): boolean {
  if (publicKey.length !== 32 || signature.length !== 64) throw new Error('ed25519 readings: a 32-byte key and a 64-byte signature');
  const S = _numberLE(signature.subarray(32, 64));
  // RFC 8032 §5.1.7 step 1, and ZIP-215 alike: "S MUST represent an integer less than ℓ"
  if (S >= L) return false;
  const rBytes = signature.subarray(0, 32);
  const unreduced = reading === 'zip215';
  let A: Point;
  let R: Point;
  try {
    A = Point.fromBytes(publicKey, unreduced);
    R = Point.fromBytes(rBytes, unreduced);
  } catch {
    return false; // not a curve point, or (but for zip215) not its canonical encoding
  }
  const msgBytes = new Uint8Array(64 + message.length);
  msgBytes.set(rBytes, 0);
  msgBytes.set(publicKey, 32);
  msgBytes.set(message, 64);
  const k = _numberLE(sha512(msgBytes)) % L;
  // R + [k]A − [S]B: the identity (cofactorless), or of small order (cofactored: [8] of it is the identity)
  const residue = R.add(A.multiply(k, false)).add(Point.BASE.multiply(S, false).negate());
  return reading === 'rfc8032-strict' ? residue.is0() : residue.clearCofactor().is0();
}

/** Each reading's verdict. */
export function verdictsByReading(publicKey: Uint8Array, message: Uint8Array, signature: Uint8Array): Record<Ed25519Reading, boolean> {
  return Object.fromEntries(ED25519_READINGS.map((r) => [r, verifiesUnder(r, publicKey, message, signature)])) as Record<Ed25519Reading, boolean>;
}

/**
 * Each reading's verdict on a C2SP/CCTV Ed25519 vector (vectors/external/ed25519/cctv_ed25519vectors.json), read off
 * its flags. A non-canonical A or R is refused by RFC 8032 decoding (rfc8032-strict, cofactored) and decoded by
 * ZIP-215. A low-order residue means only the cofactored equation holds (cofactored and zip215 accept it). A k computed
 * over re-encoded A and R (reencoded_k: each such vector carries a non-canonical A or R) fails the equation over the
 * bytes as given, except under zip215 with a low-order A, where [8][k]A vanishes whatever k is. Every other CCTV vector
 * satisfies the cofactorless equation, small-order A and R included.
 */
export function cctvVerdict(flags: readonly string[], reading: Ed25519Reading): boolean {
  const has = (f: string): boolean => flags.includes(f);
  if (reading === 'rfc8032-strict') return !has('non_canonical_A') && !has('non_canonical_R') && !has('low_order_residue');
  if (reading === 'cofactored') return !has('non_canonical_A') && !has('non_canonical_R') && !has('reencoded_k');
  return !has('reencoded_k') || has('low_order_A');
}

/** One vector of C2SP/CCTV ed25519vectors.json (vectors/external/ed25519/cctv_ed25519vectors.json). */
export interface CctvVector {
  readonly number: number;
  readonly key: string;
  readonly sig: string;
  readonly msg: string;
  readonly flags: readonly string[] | null;
}

/** C2SP/CCTV ed25519vectors.json: per reading, per flag group, [vectors, of which verify] (rfc8032-strict as documented in impl/identity/ed25519.ts). */
export const CCTV_GROUP_OUTCOMES: Readonly<Record<Ed25519Reading, Readonly<Record<string, readonly [number, number]>>>> = {
  'rfc8032-strict': {
    '(none)': [1, 1],
    low_order_A: [526, 86],
    low_order_R: [586, 86],
    low_order_component_A: [774, 168],
    low_order_component_R: [665, 140],
    low_order_residue: [583, 0],
    non_canonical_A: [226, 0],
    non_canonical_R: [316, 0],
    reencoded_k: [146, 0],
  },
  cofactored: {
    '(none)': [1, 1],
    low_order_A: [526, 212],
    low_order_R: [586, 212],
    low_order_component_A: [774, 392],
    low_order_component_R: [665, 364],
    low_order_residue: [583, 252],
    non_canonical_A: [226, 0],
    non_canonical_R: [316, 0],
    reencoded_k: [146, 0],
  },
  zip215: {
    '(none)': [1, 1],
    low_order_A: [526, 526],
    low_order_R: [586, 498],
    low_order_component_A: [774, 692],
    low_order_component_R: [665, 622],
    low_order_residue: [583, 507],
    non_canonical_A: [226, 226],
    non_canonical_R: [316, 228],
    reencoded_k: [146, 58],
  },
};
