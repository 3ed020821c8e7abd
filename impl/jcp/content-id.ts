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

// Strings already seen to have the form, so that the ids a decision checks again and again (grant, resource, payload)
// cost a set lookup rather than a regular-expression match; only strings that passed the match are ever added.
const SEEN_MAX = 4096;
const seen = new Set<string>();

/** True when `s` has the form of a content id (64 lowercase hex digits). */
export function isContentId(s: unknown): s is string {
  if (typeof s !== 'string' || s.length !== 64) return false;
  if (seen.has(s)) return true;
  if (!CONTENT_ID_RE.test(s)) return false;
  if (seen.size >= SEEN_MAX) seen.clear();
  seen.add(s);
  return true;
}

