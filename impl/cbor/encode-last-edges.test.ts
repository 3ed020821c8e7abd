// Last edge cases of the canonical det-CBOR encoder (impl/cbor/encode.ts; jcp §3 "length-first then bytewise key
// order", RFC 8949 §4.2.1): text keys and Map keys in every insertion order of a small mixed set (keys whose UTF-8 and
// UTF-16 lengths differ, so a sort that mixes up a key's length with its neighbour's is seen), each order seen twice;
// and a refusal of a key with a lone surrogate that does not depend on the insertion order. Expected bytes are worked
// out here by hand (RFC 8949 §3.1 heads, RFC 3629 UTF-8) and by an independent sort, never by the encoder.
import { describe, expect, it } from 'vitest';
import { thrown } from '../_test-support.ts';
import { toHex } from '../bytes.ts';
import { encodeCanonical, type CborInput } from './index.ts';

const hexOf = (v: unknown): string => toHex(encodeCanonical(v as CborInput));
/** One byte as two hex digits. */
const h2 = (n: number): string => n.toString(16).padStart(2, '0');
/** The UTF-8 bytes of `s` in hex, by Node's Buffer (not the encoder under test). */
const utf8Hex = (s: string): string => Buffer.from(s, 'utf8').toString('hex');
/** A text key of under 24 UTF-8 bytes as encoded: 0x60 | length, then its UTF-8 (RFC 8949 §3.1, major type 3). */
const textKey = (s: string): string => h2(0x60 | (utf8Hex(s).length / 2)) + utf8Hex(s);
/** Length-first then bytewise over encoded keys in hex (equal-length lowercase hex compares as the bytes do). */
const byEncodedKey = (a: string, b: string): number => a.length - b.length || (a < b ? -1 : a > b ? 1 : 0);

/** Every ordering of `xs`. */
function permutations<T>(xs: readonly T[]): T[][] {
  if (xs.length <= 1) return [xs.slice()];
  const out: T[][] = [];
  xs.forEach((x, i) => {
    for (const rest of permutations([...xs.slice(0, i), ...xs.slice(i + 1)])) out.push([x, ...rest]);
  });
  return out;
}

describe('encoding: text keys in every insertion order (jcp §3 "length-first then bytewise")', () => {
  it('five keys of 1 … 4 UTF-8 bytes, some of them fewer UTF-16 units, in all 120 orders, each twice', () => {
    // two bytes: 'bb' < 'zz' < 'é' (c3 a9, one UTF-16 unit); three: 'ccc' < '€' (e2 82 ac, one unit); then 𐀀
    // (f0 90 80 80, two units), and 'a' before them all
    const keys = ['ccc', 'bb', '\u00e9', 'zz', '\u20ac', 'a', '\u{10000}'];
    const entry = (k: string): string => textKey(k) + h2(keys.indexOf(k));
    for (const order of permutations(keys.slice(0, 5))) {
      const o: Record<string, number> = {};
      for (const k of order) o[k] = keys.indexOf(k);
      const want = h2(0xa0 | order.length) + order.map(entry).sort(byEncodedKey).join('');
      expect(hexOf(o), order.join(',')).toBe(want);
      expect(hexOf(o), `${order.join(',')} again`).toBe(want);
    }
    for (const order of permutations(['ccc', 'a', '\u{10000}', '\u20ac', 'bb'])) {
      const o: Record<string, number> = {};
      for (const k of order) o[k] = keys.indexOf(k);
      expect(hexOf(o), order.join(',')).toBe(h2(0xa0 | order.length) + order.map(entry).sort(byEncodedKey).join(''));
    }
  });

  it('a key passes over a longer key and stops at a shorter one bytewise above it: {ccc, bb, dd} is bb, dd, ccc', () => {
    expect(hexOf({ ccc: 1, bb: 2, dd: 3 })).toBe('a3' + '62626202' + '62646403' + '6363636301');
    expect(hexOf({ ccc: 1, dd: 3, bb: 2 })).toBe('a3' + '62626202' + '62646403' + '6363636301');
    expect(hexOf({ dd: 3, ccc: 1, bb: 2 })).toBe('a3' + '62626202' + '62646403' + '6363636301');
  });
});

describe('encoding: Map keys of several major types in every insertion order', () => {
  it('integers, a negative, text and bytes as keys with values of different sizes, in all 120 orders', () => {
    // key → its encoding by hand (RFC 8949 §3.1): 1 → 01, −1 → 20, 24 → 18 18, 'a' → 61 61, h'00' → 41 00, 256 → 19 01 00
    const entries: [unknown, string, unknown, string][] = [
      [24, '1818', 'x'.repeat(30), '781e' + '78'.repeat(30)],
      [-1, '20', [1, 2], '820102'],
      ['a', '6161', 0, '00'],
      [new Uint8Array([0]), '4100', new Uint8Array(0), '40'],
      [256, '190100', -300, '39012b'],
    ];
    for (const order of permutations(entries)) {
      const m = new Map<unknown, unknown>(order.map(([k, , v]) => [k, v]));
      const sorted = order.slice().sort(([, x], [, y]) => byEncodedKey(x, y));
      const want = 'a5' + sorted.map(([, kh, , vh]) => kh + vh).join('');
      expect(hexOf(m), order.map(([, kh]) => kh).join(',')).toBe(want);
    }
  });
});

describe('encoding: a refused key does not depend on the insertion order', () => {
  it('of two keys with a lone surrogate, one a prefix of the other, the shorter is named in either order', () => {
    const msg = 'ERR_CBOR_UNENCODABLE: text with a lone surrogate at UTF-16 index 0 (not valid Unicode, no UTF-8 form) at $["\\ud800"]';
    for (const o of [{ '\ud800': 1, '\ud800x': 2 }, { '\ud800x': 2, '\ud800': 1 }]) {
      const e = thrown(() => encodeCanonical(o));
      expect(e.code).toBe('ERR_CBOR_UNENCODABLE');
      expect(e.message).toBe(msg);
      expect(e.detail).toEqual({ path: '$["\\ud800"]' });
    }
  });
});
