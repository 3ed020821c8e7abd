// jcp §3: the map key order of canonical det-CBOR — "length-first then bytewise key order" over the encoded keys.
// This is RFC 7049 §3.9 canonical order; RFC 8949 §4.2.1 (plain bytewise) differs only between keys of different major
// types, e.g. int 24 (18 18) against int −1 (20). The reference takes the words of §3 (clause jcp/3#open-key-order).

/**
 * The order of two encoded map keys: negative when `a` sorts first, positive when `b` does, 0 when they are the same bytes.
 * The shorter encoding sorts first; encodings of equal length compare bytewise.
 */
export function compareEncodedKeys(a: Uint8Array, b: Uint8Array): number {
  return _compareKeyRanges(a, 0, a.length, b, 0, b.length);
}

/** {@link compareEncodedKeys} over `a[aStart, aEnd)` and `b[bStart, bEnd)`, without copying. */
export function _compareKeyRanges(
  a: Uint8Array,
  aStart: number,
  aEnd: number,
  b: Uint8Array,
  bStart: number,
  bEnd: number,
): number {
  const n = aEnd - aStart;
  // jcp §3: "length-first"
  if (n !== bEnd - bStart) return n - (bEnd - bStart);
  // jcp §3: "then bytewise key order"
  for (let i = 0; i < n; i++) {
    const d = (a[aStart + i] as number) - (b[bStart + i] as number);
    if (d !== 0) return d;
  }
  return 0;
}
