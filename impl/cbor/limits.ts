// jcp §3, §11: the bounds the det-CBOR encoder and decoder share — nesting depth and the checks on their options.
import { JcpError } from '../errors.ts';

/** Nesting depth (arrays, maps and tags inside one another) allowed when no `maxDepth` is given. */
export const DEFAULT_MAX_DEPTH = 64;

/** The largest `maxDepth` either side accepts, so that recursion stays far inside the JS stack. */
export const MAX_MAX_DEPTH = 1000;

/** Returns `maxDepth`, or {@link DEFAULT_MAX_DEPTH} when undefined; throws `ERR_BAD_ARGUMENT` unless 0 … {@link MAX_MAX_DEPTH}. */
export function _depthOption(maxDepth: unknown): number {
  if (maxDepth === undefined) return DEFAULT_MAX_DEPTH;
  if (typeof maxDepth !== 'number' || !Number.isInteger(maxDepth) || maxDepth < 0 || maxDepth > MAX_MAX_DEPTH) {
    throw new JcpError('ERR_BAD_ARGUMENT', `maxDepth must be an integer 0 … ${MAX_MAX_DEPTH}, got ${String(maxDepth)}`, {
      what: 'maxDepth',
    });
  }
  return maxDepth;
}

/** Returns `opts` as an object (`{}` when undefined); throws `ERR_BAD_ARGUMENT` for anything that is not an object. */
export function _optionsObject<T extends object>(opts: T | undefined): Partial<T> {
  if (opts === undefined) return {};
  if (typeof opts !== 'object' || opts === null) {
    throw new JcpError('ERR_BAD_ARGUMENT', 'options must be an object', { what: 'opts' });
  }
  return opts;
}
