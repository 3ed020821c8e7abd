// sense: the small boundary checks every Sense module shares (validate once at the boundary, then trust inside).
// Each returns its input, so a call reads as the value it checks (STYLE.md: `abytes(x, 32, 'seed')`).
import { JcpError, type JcpErrorCode } from '../errors.ts';

const U64_MAX = (1n << 64n) - 1n;

/** `v` as an unsigned integer of at most 64 bits (a bigint, or a safe non-negative number), else `code`. */
export function _uint(v: unknown, what: string, code: JcpErrorCode, max: bigint = U64_MAX): bigint {
  const n = typeof v === 'number' && Number.isSafeInteger(v) && v >= 0 ? BigInt(v) : v;
  if (typeof n !== 'bigint' || n < 0n || n > max) throw new JcpError(code, `${what} must be an unsigned integer ≤ ${max}, got ${String(v)}`, { what });
  return n;
}

/** `v` as text, else `code`. */
export function _text(v: unknown, what: string, code: JcpErrorCode): string {
  if (typeof v !== 'string') throw new JcpError(code, `${what} must be text, got ${typeof v}`, { what });
  return v;
}

/** `v` as one of `allowed`, else `code` naming them. */
export function _oneOf<T extends string>(v: unknown, allowed: readonly T[], what: string, code: JcpErrorCode): T {
  if (typeof v !== 'string' || !(allowed as readonly string[]).includes(v)) {
    throw new JcpError(code, `${what} must be one of ${allowed.join(', ')}, got ${String(v)}`, { what });
  }
  return v as T;
}

/** `v` as a byte string, else `code`. */
export function _bytes(v: unknown, what: string, code: JcpErrorCode): Uint8Array {
  if (!(v instanceof Uint8Array)) throw new JcpError(code, `${what} must be a byte string`, { what });
  return v;
}
