// BLAKE3 (the BLAKE3 specification, 2020), the one hash of jcp §3 content ids; every caller imports it from here.
import { blake3 as _nobleBlake3 } from '@noble/hashes/blake3.js';
import { JcpError } from '../errors.ts';
import { blake3Words, DERIVE_KEY_CONTEXT, DERIVE_KEY_MATERIAL, IV } from './blake3-core.ts';

const _utf8 = new TextEncoder();

function _abytesAny(b: Uint8Array, what: string): Uint8Array {
  if (!(b instanceof Uint8Array)) throw new JcpError('ERR_BAD_ARGUMENT', `${what} must be a Uint8Array`, { what });
  return b;
}

/**
 * The 32-byte BLAKE3 digest of `bytes` (jcp §3: "A content id is blake3(canonical_cbor(value))").
 * Throws ERR_BAD_ARGUMENT when `bytes` is not a Uint8Array.
 */
export function blake3(bytes: Uint8Array): Uint8Array {
  return blake3Words(_abytesAny(bytes, 'blake3 input'), IV, 0);
}

/** The 8 little-endian words of a 32-byte value (a derived context key). */
function _words(b: Uint8Array): Uint32Array {
  const w = new Uint32Array(8);
  for (let i = 0; i < 8; i++) w[i] = b[4 * i]! | (b[4 * i + 1]! << 8) | (b[4 * i + 2]! << 16) | (b[4 * i + 3]! << 24);
  return w;
}

/**
 * BLAKE3 in derive_key mode: `dkLen` bytes (default 32) derived from `material` under the context string `context`.
 * The context must be a hard-coded, globally unique string naming the application and purpose.
 * Throws ERR_BAD_ARGUMENT on a non-string context, non-Uint8Array material or a dkLen that is not a positive integer.
 */
export function blake3DeriveKey(context: string, material: Uint8Array, dkLen = 32): Uint8Array {
  if (typeof context !== 'string') throw new JcpError('ERR_BAD_ARGUMENT', 'blake3 context must be a string', { what: 'context' });
  if (!Number.isSafeInteger(dkLen) || dkLen < 1) {
    throw new JcpError('ERR_BAD_ARGUMENT', `blake3 dkLen must be a positive integer, got ${String(dkLen)}`, { what: 'dkLen' });
  }
  _abytesAny(material, 'blake3 key material');
  // a 32-byte key is the one output this module's own core computes; a longer XOF output is read through the library
  if (dkLen !== 32) return _nobleBlake3(material, { context: _utf8.encode(context), dkLen });
  // BLAKE3 §2.6: the context hashed under DERIVE_KEY_CONTEXT is the key of the material hashed under DERIVE_KEY_MATERIAL
  const contextKey = blake3Words(_utf8.encode(context), IV, DERIVE_KEY_CONTEXT);
  return blake3Words(material, _words(contextKey), DERIVE_KEY_MATERIAL);
}
