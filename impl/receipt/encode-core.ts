// jcp §3 and §8: the canonical det-CBOR of a receipt core, written directly for speed (a decision seals one each).
// It must equal the generic encoder's bytes exactly; impl/receipt/encode-core.test.ts checks that over random cores.
import { compareEncodedKeys, encodeCanonical } from '../cbor/index.ts';
import { coreToCbor, type ReceiptCore } from './core.ts';

const FIELDS = [
  'jcp_receipt', 'grant_id', 'issuer', 'subject', 'resource', 'action', 'payload_hash', 'frame_kind', 'trust', 'verdict',
  'deny_reason', 'cost_uj', 'energy_provenance', 'energy_coverage', 'budget_remaining_uj', 'budget_uj', 'steward', 'chain_ids',
] as const;
type Field = (typeof FIELDS)[number];

// jcp §3: "length-first then bytewise key order" — the order is computed once from the encoded keys
const ORDER: ReadonlyArray<{ readonly name: Field; readonly key: Uint8Array }> = FIELDS.map((name) => ({ name, key: encodeCanonical(name) })).sort(
  (a, b) => compareEncodedKeys(a.key, b.key),
);

const U64_MAX = (1n << 64n) - 1n;

// One reused output buffer; the result is copied out, so no caller ever sees it.
// Node's Buffer writes UTF-8 natively into it (one call per string instead of a loop per character).
let buf = Buffer.alloc(2048);
let pos = 0;

function ensure(n: number): void {
  if (pos + n <= buf.length) return;
  const next = Buffer.alloc(Math.max(buf.length * 2, pos + n));
  buf.copy(next, 0, 0, pos);
  buf = next;
}

function head(major: number, n: number): void {
  ensure(9);
  const m = major << 5;
  if (n < 24) buf[pos++] = m | n;
  else if (n < 0x100) {
    buf[pos++] = m | 24;
    buf[pos++] = n;
  } else if (n < 0x10000) {
    buf[pos++] = m | 25;
    buf[pos++] = n >> 8;
    buf[pos++] = n & 0xff;
  } else {
    buf[pos++] = m | 26;
    buf[pos++] = (n >>> 24) & 0xff;
    buf[pos++] = (n >>> 16) & 0xff;
    buf[pos++] = (n >>> 8) & 0xff;
    buf[pos++] = n & 0xff;
  }
}

function uint(n: bigint): void {
  if (n < 0x100000000n) return head(0, Number(n));
  ensure(9);
  buf[pos++] = 27;
  const hi = Number(n >> 32n);
  const lo = Number(n & 0xffffffffn);
  buf[pos++] = (hi >>> 24) & 0xff;
  buf[pos++] = (hi >>> 16) & 0xff;
  buf[pos++] = (hi >>> 8) & 0xff;
  buf[pos++] = hi & 0xff;
  buf[pos++] = (lo >>> 24) & 0xff;
  buf[pos++] = (lo >>> 16) & 0xff;
  buf[pos++] = (lo >>> 8) & 0xff;
  buf[pos++] = lo & 0xff;
}

// Encoded text of the long strings a point seals again and again (DIDs, content ids), keyed by the string itself.
const TEXT_CACHE_MAX = 4096;
const textCache = new Map<string, Uint8Array>();

/**
 * Writes `s` as a canonical text string when it is ASCII (UTF-8 length = string length); returns false, the buffer
 * then holding junk past `pos` that the caller discards, when it is not.
 */
function ascii(s: string): boolean {
  const n = s.length;
  if (n >= 40) {
    const hit = textCache.get(s);
    if (hit !== undefined) {
      ensure(hit.length);
      buf.set(hit, pos);
      pos += hit.length;
      return true;
    }
    const at = pos;
    if (!asciiUncached(s)) return false;
    if (textCache.size >= TEXT_CACHE_MAX) textCache.clear();
    // a copy (Buffer's slice would be a view of the scratch buffer, overwritten by the next core)
    textCache.set(s, new Uint8Array(buf.subarray(at, pos)));
    return true;
  }
  return asciiUncached(s);
}

function asciiUncached(s: string): boolean {
  const n = s.length;
  head(3, n);
  ensure(3 * n);
  const written = buf.write(s, pos, 'utf8');
  pos += written;
  return written === n;
}

/**
 * The canonical bytes of a receipt core: the same bytes as `encodeCanonical(coreToCbor(core))`, written without the
 * generic encoder's sorting. Falls back to the generic encoder for anything unusual (non-ASCII text, out-of-range
 * integers), so its refusals are the generic encoder's.
 */
export function encodeReceiptCore(core: ReceiptCore): Uint8Array {
  const v = writeReceiptCore(core);
  // a copy into a plain Uint8Array: the scratch buffer is a Buffer, whose slice() would be a view of it
  return v.buffer === buf.buffer ? new Uint8Array(v) : v;
}

/**
 * Like {@link encodeReceiptCore}, but returns a view into an internal buffer that the next call overwrites: for a
 * caller that copies the bytes out before encoding another core (sealing does).
 */
export function writeReceiptCore(core: ReceiptCore): Uint8Array {
  const c = core as unknown as Record<string, unknown>;
  let count = 0;
  for (let i = 0; i < ORDER.length; i++) if (c[ORDER[i]!.name] !== undefined) count++;
  pos = 0;
  head(5, count);
  for (let i = 0; i < ORDER.length; i++) {
    const f = ORDER[i]!;
    const v = c[f.name];
    if (v === undefined) continue;
    ensure(f.key.length);
    buf.set(f.key, pos);
    pos += f.key.length;
    if (typeof v === 'string') {
      if (!ascii(v)) return encodeCanonical(coreToCbor(core));
    } else if (typeof v === 'bigint') {
      if (v < 0n || v > U64_MAX) return encodeCanonical(coreToCbor(core));
      uint(v);
    } else if (Array.isArray(v)) {
      head(4, v.length);
      for (const x of v) if (typeof x !== 'string' || !ascii(x)) return encodeCanonical(coreToCbor(core));
    } else return encodeCanonical(coreToCbor(core));
  }
  return buf.subarray(0, pos);
}
