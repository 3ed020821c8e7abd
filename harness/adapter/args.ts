// Reading a request's arguments in the reference's handlers: a missing or mistyped argument is refused with
// ERR_BAD_ARGUMENT naming it (harness/PROTOCOL.md, "Errors"), never a crash.
import type { CborMap, CborValue } from '../../impl/cbor/index.ts';
import { JcpError } from '../../impl/errors.ts';

/** The argument `k`, refused when absent. */
export function arg(args: CborMap, k: string): CborValue {
  const v = args.get(k);
  if (v === undefined) throw new JcpError('ERR_BAD_ARGUMENT', `argument ${k} is missing`);
  return v;
}
export const bytes = (args: CborMap, k: string): Uint8Array => {
  const v = arg(args, k);
  if (!(v instanceof Uint8Array)) throw new JcpError('ERR_BAD_ARGUMENT', `argument ${k} must be a byte string`);
  return v;
};
export const text = (args: CborMap, k: string): string => {
  const v = arg(args, k);
  if (typeof v !== 'string') throw new JcpError('ERR_BAD_ARGUMENT', `argument ${k} must be text`);
  return v;
};
export const uint = (v: CborValue | undefined, k: string): bigint => {
  if (typeof v === 'number' && Number.isSafeInteger(v) && v >= 0) return BigInt(v);
  if (typeof v === 'bigint' && v >= 0n) return v;
  throw new JcpError('ERR_BAD_ARGUMENT', `argument ${k} must be an unsigned integer`);
};
export const map = (v: CborValue | undefined, k: string): CborMap => {
  if (!(v instanceof Map)) throw new JcpError('ERR_BAD_ARGUMENT', `argument ${k} must be a map`);
  return v;
};
export const texts = (v: CborValue | undefined, k: string): string[] => {
  if (!Array.isArray(v) || !v.every((x) => typeof x === 'string')) throw new JcpError('ERR_BAD_ARGUMENT', `argument ${k} must be an array of text`);
  return v as string[];
};
