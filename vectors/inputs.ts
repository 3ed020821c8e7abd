// The readers of a vector's JSON inputs, shared by the executors (vectors/execute.ts, jc-execute.ts, p-execute.ts and
// the groups of vectors/profiles/): each returns the value in the form the Implementation client takes, or throws naming
// the input that is not what a pack must hold; and `text`, the reader of an answer the implementation gave as text.
import { fromHex } from '../impl/bytes.ts';
import type { Json, JsonObject } from './model.ts';

/** A hex string's bytes. */
export const hex = (v: Json | undefined, what: string): Uint8Array => {
  if (typeof v !== 'string') throw new Error(`vector input ${what} must be a hex string`);
  return fromHex(v, what);
};
/** A string. */
export const str = (v: Json | undefined, what: string): string => {
  if (typeof v !== 'string') throw new Error(`vector input ${what} must be a string`);
  return v;
};
/** A non-negative safe integer, as bigint. */
export const uint = (v: Json | undefined, what: string): bigint => {
  if (typeof v !== 'number' || !Number.isSafeInteger(v) || v < 0) throw new Error(`vector input ${what} must be a non-negative safe integer`);
  return BigInt(v);
};
/** A JSON object. */
export const obj = (v: Json | undefined, what: string): JsonObject => {
  if (v === null || typeof v !== 'object' || Array.isArray(v)) throw new Error(`vector input ${what} must be an object`);
  return v;
};
/** A JSON array. */
export const arr = (v: Json | undefined, what: string): Json[] => {
  if (!Array.isArray(v)) throw new Error(`vector input ${what} must be an array`);
  return v;
};
/** An answer the implementation gave, which must be text. */
export const text = (v: unknown, what: string): string => {
  if (typeof v !== 'string') throw new Error(`the implementation answered ${what} that is not text`);
  return v;
};
