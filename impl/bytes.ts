// Byte helpers used at every boundary: strict hex, equality, concatenation, asserted lengths.
import { JcpError } from './errors.ts';

const HEX_RE = /^(?:[0-9a-f]{2})*$/;

/** Lowercase hex of `b` (node:buffer's encoder, about three times a loop over the bytes on a 32-byte id). */
export function toHex(b: Uint8Array): string {
  return Buffer.from(b.buffer, b.byteOffset, b.length).toString('hex');
}

/**
 * Bytes of a hex string. Strict: lowercase only, even length, no prefix or spaces.
 * Use {@link fromHexLoose} for third-party vectors that may be upper case.
 */
export function fromHex(s: string, what = 'hex'): Uint8Array {
  if (typeof s !== 'string' || !HEX_RE.test(s)) {
    throw new JcpError('ERR_HEX_MALFORMED', `${what} is not even-length lowercase hex`, { what });
  }
  const out = new Uint8Array(s.length / 2);
  for (let i = 0; i < out.length; i++) out[i] = parseInt(s.slice(2 * i, 2 * i + 2), 16);
  return out;
}

/** Bytes of a hex string of either case (for reading third-party data). */
export function fromHexLoose(s: string, what = 'hex'): Uint8Array {
  return fromHex(typeof s === 'string' ? s.toLowerCase() : s, what);
}

/** True when `a` and `b` hold the same bytes. */
export function bytesEqual(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  let d = 0;
  for (let i = 0; i < a.length; i++) d |= (a[i] as number) ^ (b[i] as number);
  return d === 0;
}

/** The concatenation of `parts`. */
export function concatBytes(...parts: Uint8Array[]): Uint8Array {
  let n = 0;
  for (const p of parts) n += p.length;
  const out = new Uint8Array(n);
  let o = 0;
  for (const p of parts) {
    out.set(p, o);
    o += p.length;
  }
  return out;
}

/** Returns `b` when it is a Uint8Array of exactly `len` bytes; otherwise throws `code`. */
export function abytes<T extends Uint8Array>(
  b: T,
  len: number,
  what: string,
  code: 'ERR_KEY_LENGTH' | 'ERR_SEED_LENGTH' | 'ERR_SIGNATURE_LENGTH' | 'ERR_BAD_ARGUMENT' = 'ERR_BAD_ARGUMENT',
): T {
  if (!(b instanceof Uint8Array)) throw new JcpError(code, `${what} must be a Uint8Array of ${len} bytes`, { what });
  if (b.length !== len) {
    throw new JcpError(code, `${what} must be ${len} bytes, got ${b.length}`, { what, expected: len, actual: b.length });
  }
  return b;
}

const POOLED_MAX = 2048;

/**
 * A fresh, zero-filled Uint8Array of `n` bytes that no one else references. Small ones are carved from Node's Buffer
 * pool: allocating a separate backing store per typed array costs over a microsecond here, which is a large share of
 * a decision. The result is a plain Uint8Array (not a Buffer), so `.slice()` on it copies as usual. With `zero`
 * false the bytes are left as they were (internal callers that overwrite every byte).
 */
export function allocBytes(n: number, zero = true): Uint8Array {
  if (n > POOLED_MAX || typeof Buffer === 'undefined') return new Uint8Array(n);
  const b = zero ? Buffer.allocUnsafe(n).fill(0) : Buffer.allocUnsafe(n);
  return new Uint8Array(b.buffer, b.byteOffset, n);
}
