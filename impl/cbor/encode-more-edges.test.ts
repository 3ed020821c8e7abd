// More edge cases of the canonical det-CBOR encoder (impl/cbor/encode.ts; jcp §3, RFC 8949 §4.2.1): plain-object map
// heads at the 24 and 256 entry boundaries, long text at the 256-byte head boundary and in three-byte characters, a high
// surrogate before U+E000 … U+FFFF as a lone surrogate, encodings made inside a getter, every item at every offset
// across a buffer boundary, and text-key order on each sorting path (first seen, seen again, over 32 and over 64 keys,
// with a key named "undefined"), and a plain object whose count is written back after its entries, near a buffer's
// end, with its entries intact. Expected bytes are RFC 8949 encodings worked out by hand.
import { describe, expect, it } from 'vitest';
import { thrown } from '../_test-support.ts';
import { toHex } from '../bytes.ts';
import { encodeCanonical, type CborInput } from './index.ts';

const hexOf = (v: unknown): string => toHex(encodeCanonical(v as CborInput));
/** One byte as two hex digits. */
const h2 = (n: number): string => n.toString(16).padStart(2, '0');
/** The hex of ASCII `s`, one byte a character. */
const ascii = (s: string): string => [...s].map((c) => h2(c.charCodeAt(0))).join('');
/** The head of a byte string of length n < 65536 (RFC 8949 §3.1: 0x40 | n, 58 n, 59 n n). */
const bstrHead = (n: number): string => (n < 24 ? h2(0x40 | n) : n < 256 ? '58' + h2(n) : '59' + h2(n >> 8) + h2(n & 0xff));

describe('encoding: plain-object map heads at 24 and 256 entries (jcp §3 "shortest integer form")', () => {
  /** The keys 'a', 'b', … (one letter each, in code point order) with values 0, 1, … */
  const letters = (n: number): Record<string, number> => {
    const o: Record<string, number> = {};
    for (let i = 0; i < n; i++) o[String.fromCharCode(0x61 + i)] = i;
    return o;
  };
  const letterEntries = (n: number): string => Array.from({ length: n }, (_, i) => '61' + h2(0x61 + i) + h2(i)).join('');

  it('23 entries take the initial byte (b7), 24 take one more byte (b8 18), the entries intact after it', () => {
    expect(hexOf(letters(23))).toBe('b7' + letterEntries(23));
    expect(hexOf(letters(24))).toBe('b818' + letterEntries(24));
  });

  it('256 entries take a two-byte argument (b9 01 00), the first entry intact after it', () => {
    const o: Record<string, number> = {};
    let entries = '';
    for (let i = 0; i < 256; i++) {
      const k = `k${String(i).padStart(3, '0')}`;
      o[k] = i;
      entries += '64' + ascii(k) + (i < 24 ? h2(i) : '18' + h2(i));
    }
    expect(hexOf(o)).toBe('b90100' + entries);
  });
});

describe('encoding: long text (RFC 8949 §3.1 length heads, RFC 3629 UTF-8)', () => {
  it('255 bytes of text take a one-byte length (78 ff), 256 a two-byte length (79 01 00)', () => {
    expect(hexOf('x'.repeat(255))).toBe('78ff' + '78'.repeat(255));
    expect(hexOf('x'.repeat(256))).toBe('790100' + '78'.repeat(256));
  });

  it('97 three-byte characters are 291 bytes (79 01 23), every one written', () => {
    expect(hexOf('\u20ac'.repeat(97))).toBe('790123' + 'e282ac'.repeat(97));
  });

  it('long text after 200 other bytes: its shorter head and its bytes are in place', () => {
    const zeros = new Uint8Array(200);
    expect(hexOf([zeros, 'x'.repeat(97)])).toBe('82' + '58c8' + '00'.repeat(200) + '7861' + '78'.repeat(97));
    expect(hexOf([zeros, '\u00e9'.repeat(100)])).toBe('82' + '58c8' + '00'.repeat(200) + '78c8' + 'c3a9'.repeat(100));
  });
});

describe('encoding: a high surrogate not followed by a low one is lone (jcp §3; RFC 3629 §3)', () => {
  it('before U+E000 … U+FFFF it is refused with its UTF-16 index, short text or as a key', () => {
    const cases: [string, number][] = [
      ['\ud800\ue000', 0],
      ['\udbff\uffff', 0],
      ['a\ud800\ue000', 1],
    ];
    for (const [s, i] of cases) {
      const e = thrown(() => encodeCanonical(s));
      expect(e.code).toBe('ERR_CBOR_UNENCODABLE');
      expect(e.message).toBe(`ERR_CBOR_UNENCODABLE: text with a lone surrogate at UTF-16 index ${i} (not valid Unicode, no UTF-8 form) at $`);
      expect(e.detail).toEqual({ path: '$' });
    }
    expect(thrown(() => encodeCanonical({ b: 1, '\ud800\ue000': 2 })).message).toBe(
      'ERR_CBOR_UNENCODABLE: text with a lone surrogate at UTF-16 index 0 (not valid Unicode, no UTF-8 form) at $["\\ud800\ue000"]',
    );
  });
});

describe('encoding: a getter may itself encode (the outer bytes are unchanged)', () => {
  it('an encoding inside a getter read after earlier items', () => {
    let inner = '';
    const o = {
      get a(): number {
        inner = hexOf('q');
        return 3;
      },
    };
    expect(hexOf([1, 2, o])).toBe('83' + '01' + '02' + 'a1' + '6161' + '03');
    expect(inner).toBe('6171');
  });

  it('a getter encoding over 64 KiB, then a later getter encoding a little', () => {
    let big = 0;
    let small = '';
    const first = {
      get a(): number {
        big = encodeCanonical(new Uint8Array(70000)).length;
        return big;
      },
    };
    const second = {
      get b(): string {
        small = hexOf('q');
        return 'ok';
      },
    };
    // 70000 = 0x11170 bytes take a four-byte length: 5 + 70000 = 70005 = 0x11175
    expect(hexOf([1, 2, first, second])).toBe('84' + '01' + '02' + 'a1' + '6161' + '1a00011175' + 'a1' + '6162' + '626f6b');
    expect(big).toBe(70005);
    expect(small).toBe('6171');
  });
});

describe('encoding: each item at every offset across a buffer boundary', () => {
  /** The encoding of `v`, made inside a getter (an encoding there starts on a small buffer of its own). */
  const insideGetter = (v: unknown): string => {
    let out = '';
    hexOf({
      get g(): number {
        out = hexOf(v);
        return 0;
      },
    });
    return out;
  };

  it('short ASCII text, short non-ASCII text, bytes, a 64-bit integer, long text and an unsorted Map after 0 … 300 bytes', () => {
    const items: [unknown, string][] = [
      ['abcdefghij', '6a' + ascii('abcdefghij')],
      ['\u00e9\u20ac', '65' + 'c3a9' + 'e282ac'],
      [new Uint8Array([1, 2, 3]), '43010203'],
      [2 ** 40, '1b0000010000000000'],
      ['y'.repeat(100), '7864' + '79'.repeat(100)],
      [new Map<unknown, unknown>([[2, 'b'], [1, 'a']]), 'a2' + '01' + '6161' + '02' + '6162'],
      [{ k: 'v' }, 'a1' + '616b' + '6176'],
    ];
    for (const [v, hex] of items) {
      for (let k = 0; k <= 300; k++) {
        expect(insideGetter([new Uint8Array(k), v]), `${hex} after ${k}`).toBe('82' + bstrHead(k) + '00'.repeat(k) + hex);
      }
    }
  });

  it('a plain object whose count is written back near the end of the shared buffer keeps its entries', () => {
    // the object's head is written after its entries, into room reserved before them: at each size the shared
    // buffer may have (1 KiB doubling up to 64 KiB), the head lands within a few bytes of its end
    for (let size = 1024; size <= 65536; size *= 2) {
      for (let k = size - 24; k < Math.min(size + 4, 65536); k++) {
        expect(hexOf([new Uint8Array(k), { k: 'v' }]).slice(-10), `after ${k}`).toBe('a1' + '616b' + '6176');
      }
    }
  });
});

describe('encoding: text-key order whatever the path that sorts it (jcp §3 "length-first then bytewise")', () => {
  /** 'undefined' (9 bytes of text: 69 75 6e 64 65 66 69 6e 65 64) as an encoded key. */
  const UNDEFINED_KEY = '69' + ascii('undefined');

  it('a key named "undefined" is one entry, in an unsorted shape seen once and again', () => {
    // a2, then 'a' (61 61) → 2, then 'undefined' → 1: the one-byte key first
    const want = 'a2' + '6161' + '02' + UNDEFINED_KEY + '01';
    expect(hexOf({ undefined: 1, a: 2 })).toBe(want);
    expect(hexOf({ undefined: 1, a: 2 })).toBe(want);
  });

  it('65 unsorted keys with one named "undefined", then a small unsorted shape', () => {
    const o: Record<string, number> = { undefined: 0 };
    for (let i = 64; i >= 1; i--) o[`k${i}`] = i;
    // 65 entries: b8 41; k1 … k9 (62 …), k10 … k64 (63 …), then 'undefined' (69 …)
    let want = 'b841';
    for (let i = 1; i <= 64; i++) want += h2(0x60 + `k${i}`.length) + ascii(`k${i}`) + (i < 24 ? h2(i) : '18' + h2(i));
    want += UNDEFINED_KEY + '00';
    expect(hexOf(o)).toBe(want);
    expect(hexOf({ zq: 1, zp: 2 })).toBe('a2' + '627a7002' + '627a7101');
  });
});
