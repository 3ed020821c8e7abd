// BLAKE3 (the BLAKE3 specification, 2020), the one hash of jcp §3 content ids; every caller imports it from here.
import { blake3 as _nobleBlake3 } from '@noble/hashes/blake3.js';
import { JcpError } from '../errors.ts';

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
  return _nobleBlake3(_abytesAny(bytes, 'blake3 input'));
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
  return _nobleBlake3(_abytesAny(material, 'blake3 key material'), { context: _utf8.encode(context), dkLen });
}
