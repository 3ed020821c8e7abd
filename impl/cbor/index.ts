// jcp §3, §11: canonical det-CBOR (RFC 8949 §4.2.1, length-first key order) — the encoder, the strict decoder, the data model.
export { encodeCanonical, type EncodeOptions } from './encode.ts';
export { decodeCanonical, type DecodeOptions } from './decode.ts';
export { compareEncodedKeys } from './key-order.ts';
export { DEFAULT_MAX_DEPTH, MAX_MAX_DEPTH } from './limits.ts';
export {
  cborEquals,
  cborTag,
  isCborTagged,
  type CborInput,
  type CborMap,
  type CborTagged,
  type CborValue,
} from './value.ts';
