// jcp §11 strict parsing, done once per signed grant: the signed grants (chain links) whose exact bytes a request
// body carried and the strict path accepted, with what the parser made of them. Requests under one grant repeat its
// bytes, and decoding and parsing a link are functions of those bytes alone, so a later body carrying the same bytes
// gets the same (frozen, shared) value. A link is found by its first bytes — a signed grant's map begins with its
// grant's nonce, which jcp §4 requires — and taken only when every one of its bytes matches.
import type { SignedGrant } from '../jcp/types.ts';

const MEMO_ENTRIES = 1024;
/** A link shorter than this (less than a signature) or longer than MEMO_MAX_BYTES is not kept. */
const MEMO_MIN_BYTES = 64;
const MEMO_MAX_BYTES = 4096;
/** How many of a link's first bytes find it. */
const KEY_BYTES = 40;

interface Entry {
  readonly bytes: Uint8Array;
  readonly sg: SignedGrant;
}

/** By a hash of the link's first bytes (a collision only costs a miss: every byte is compared); oldest dropped first. */
const memo = new Map<number, Entry>();

function keyAt(body: Uint8Array, at: number): number {
  let h = 0x811c9dc5;
  const end = Math.min(at + KEY_BYTES, body.length);
  for (let i = at; i < end; i++) h = Math.imul(h ^ body[i]!, 0x01000193);
  return h >>> 0;
}

/**
 * The link accepted before whose bytes begin at `body[start]` and lie wholly before `limit`: its value and where it
 * ends. A whole det-CBOR item is never a prefix of another, so bytes equal to an accepted link are that link.
 */
export function knownLinkAt(body: Uint8Array, start: number, limit: number): { readonly sg: SignedGrant; readonly end: number } | undefined {
  const hit = memo.get(keyAt(body, start));
  if (hit === undefined) return undefined;
  const end = start + hit.bytes.length;
  if (end > limit || Buffer.compare(hit.bytes, body.subarray(start, end)) !== 0) return undefined;
  return { sg: hit.sg, end };
}

/** The link accepted before whose bytes are exactly `body[start, end)`, or undefined. */
export function knownLink(body: Uint8Array, start: number, end: number): SignedGrant | undefined {
  const known = knownLinkAt(body, start, end);
  return known?.end === end ? known.sg : undefined;
}

/** How many links are kept now (for tests of the bound). */
export function _memoSize(): number {
  return memo.size;
}

/** Keeps `body[start, end)` as the bytes of the accepted link `sg`; returns `sg`. */
export function rememberLink(body: Uint8Array, start: number, end: number, sg: SignedGrant): SignedGrant {
  if (end - start < MEMO_MIN_BYTES || end - start > MEMO_MAX_BYTES) return sg;
  const key = keyAt(body, start);
  if (!memo.has(key) && memo.size >= MEMO_ENTRIES) memo.delete(memo.keys().next().value as number);
  memo.set(key, { bytes: body.slice(start, end), sg });
  return sg;
}
