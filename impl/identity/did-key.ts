// did:key for Ed25519 (W3C CCG did:key method; jcp §2): "did:key:z" + base58btc(0xed 0x01 ‖ the 32-byte public key).
import { abytes, bytesEqual } from '../bytes.ts';
import { JcpError } from '../errors.ts';
import { BASE58BTC_RE, base58btcDecode, base58btcEncode } from './base58.ts';

/** Why a did:key was refused: the stable `detail.fault` of its ERR_DID_MALFORMED. */
export type DidKeyFault = 'type' | 'whitespace' | 'prefix' | 'multibase' | 'base58' | 'multicodec' | 'length';

const _DID_KEY_PREFIX = 'did:key:';
/** The multibase prefix of base58btc. */
const _MULTIBASE_BASE58BTC = 'z';
/** The unsigned-varint multicodec of ed25519-pub (0xed), as it leads the decoded bytes. */
const _ED25519_PUB_MULTICODEC = Uint8Array.of(0xed, 0x01);
const _PAYLOAD_LENGTH = 2 + 32;
/** base58btc of 34 bytes is at most 47 characters; anything far longer is refused before the quadratic decode. */
const _MAX_BASE58_CHARS = 64;

function _malformed(fault: DidKeyFault, message: string, extra?: Record<string, unknown>): JcpError {
  return new JcpError('ERR_DID_MALFORMED', message, { fault, ...extra });
}

/**
 * The did:key of an Ed25519 public key (jcp §2: "expressed as a W3C did:key (multibase base58btc of the 0xed01
 * multicodec ‖ the public key)"). Throws ERR_KEY_LENGTH unless `publicKey` is a Uint8Array of 32 bytes.
 * The bytes are not checked to be a curve point: an unusable key fails at verification, never here.
 */
export function didFromPublicKey(publicKey: Uint8Array): string {
  abytes(publicKey, 32, 'public key', 'ERR_KEY_LENGTH');
  const payload = new Uint8Array(_PAYLOAD_LENGTH);
  payload.set(_ED25519_PUB_MULTICODEC, 0);
  payload.set(publicKey, 2);
  return _DID_KEY_PREFIX + _MULTIBASE_BASE58BTC + base58btcEncode(payload);
}

/**
 * The 32-byte Ed25519 public key named by a did:key. Strict: the exact prefix `did:key:`, the multibase prefix `z`
 * only, base58btc characters only and in their one canonical form, no surrounding whitespace, and decoded bytes of
 * exactly 0xed 0x01 ‖ 32 bytes. Anything else throws ERR_DID_MALFORMED whose `detail.fault` is a {@link DidKeyFault}.
 * Returns a fresh array the caller may keep.
 */
export function publicKeyFromDid(did: string): Uint8Array {
  if (typeof did !== 'string') throw _malformed('type', `a did:key must be a string, got ${typeof did}`);
  if (did.trim() !== did) throw _malformed('whitespace', 'a did:key must not have leading or trailing whitespace');
  // jcp §2: "expressed as a W3C did:key"
  if (!did.startsWith(_DID_KEY_PREFIX)) throw _malformed('prefix', 'a did:key must begin with "did:key:"');
  const mb = did.slice(_DID_KEY_PREFIX.length);
  // jcp §2: "multibase base58btc" — the multibase prefix of base58btc is `z`, and no other base is accepted
  if (mb[0] !== _MULTIBASE_BASE58BTC) {
    throw _malformed('multibase', `the multibase prefix must be "z" (base58btc), got ${JSON.stringify(mb.slice(0, 1))}`);
  }
  const text = mb.slice(1);
  if (text.length === 0 || !BASE58BTC_RE.test(text)) {
    const at = text.length === 0 ? -1 : [...text].findIndex((c) => !BASE58BTC_RE.test(c));
    throw _malformed('base58', text.length === 0 ? 'the base58btc part is empty' : 'the base58btc part has a character outside the alphabet', { index: at });
  }
  if (text.length > _MAX_BASE58_CHARS) {
    throw _malformed('length', `the base58btc part has ${text.length} characters, far more than an Ed25519 did:key`);
  }
  const bytes = base58btcDecode(text);
  // One did per key: the text must be the canonical encoding of its bytes, so that two strings never name one key.
  // base58btcDecode never yields a non-canonical reading (each leading `1` is one zero byte), so this only guards it.
  if (base58btcEncode(bytes) !== text) throw _malformed('base58', 'the base58btc part is not in canonical form');
  // jcp §2: "the 0xed01 multicodec ‖ the public key"
  if (bytes.length >= 2 && !bytesEqual(bytes.subarray(0, 2), _ED25519_PUB_MULTICODEC)) {
    throw _malformed('multicodec', `the multicodec must be 0xed01 (ed25519-pub), got 0x${bytes[0]!.toString(16).padStart(2, '0')}${bytes[1]!.toString(16).padStart(2, '0')}`);
  }
  if (bytes.length !== _PAYLOAD_LENGTH) {
    throw _malformed('length', `the decoded did:key must be ${_PAYLOAD_LENGTH} bytes (0xed01 ‖ 32-byte key), got ${bytes.length}`, { actual: bytes.length });
  }
  return bytes.slice(2);
}

const _KEYS_MAX = 4096;
const _keys = new Map<string, Uint8Array>();

/**
 * {@link publicKeyFromDid}, memoised (bounded): grants and receipts name the same few actors again and again. The
 * returned array is shared: callers must not change it.
 */
export function didPublicKey(did: string): Uint8Array {
  let pk = _keys.get(did);
  if (pk === undefined) {
    pk = publicKeyFromDid(did);
    if (_keys.size >= _KEYS_MAX) _keys.delete(_keys.keys().next().value as string);
    _keys.set(did, pk);
  }
  return pk;
}

/**
 * True when `s` is a well-formed Ed25519 did:key in the sense of {@link publicKeyFromDid}; false for any other value.
 * Syntactic only: whether the 32 bytes are a usable curve point is left to verification.
 */
export function isDidKey(s: unknown): boolean {
  if (typeof s !== 'string') return false;
  try {
    didPublicKey(s);
    return true;
  } catch (e) {
    if (e instanceof JcpError) return false;
    throw e;
  }
}
