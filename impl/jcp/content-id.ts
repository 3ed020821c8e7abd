// jcp §3: "A content id is blake3(canonical_cbor(value)), lowercase-hex on the wire".
import { toHex } from '../bytes.ts';
import { encodeCanonical, type CborInput } from '../cbor/index.ts';
import { blake3 } from '../hash/blake3.ts';

const CONTENT_ID_RE = /^[0-9a-f]{64}$/;

/** The content id of already-canonical bytes. */
export function contentIdOfBytes(canonical: Uint8Array): string {
  return toHex(blake3(canonical));
}

/** The content id of a value: blake3 over its canonical det-CBOR, lowercase hex. */
export function contentId(value: CborInput): string {
  return contentIdOfBytes(encodeCanonical(value));
}

/** True when `s` has the form of a content id (64 lowercase hex digits). */
export function isContentId(s: unknown): s is string {
  return typeof s === 'string' && CONTENT_ID_RE.test(s);
}

