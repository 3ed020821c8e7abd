// Edge cases of the strict det-CBOR decoder (impl/cbor/decode.ts) and of the one-pass shape cursor (impl/cbor/cursor.ts):
// boundary values of each head width, refusal codes, messages and offsets (jcp §3, §11; RFC 8949 §3, §4.2.1), and the
// cursor reading exactly what the strict decoder reads, or stepping off the shape (jcp §3).
import { describe, expect, it } from 'vitest';
import { thrown } from '../_test-support.ts';
import { fromHex } from '../bytes.ts';
import { JcpError } from '../errors.ts';
import { didFromPublicKey, isDidKey } from '../identity/did-key.ts';
import { asciiBytes, OFF_SHAPE, ShapeCursor, shapeTexts } from './cursor.ts';
import { decodeCanonical, type CborTagged, type DecodeOptions } from './index.ts';

const dec = (hex: string, opts?: DecodeOptions) => decodeCanonical(fromHex(hex), opts);

describe('decodeCanonical: bad arguments name what is wrong', () => {
  it('bytes that are not a Uint8Array', () => {
    const e = thrown(() => decodeCanonical([0] as unknown as Uint8Array));
    expect(e.message).toBe('ERR_BAD_ARGUMENT: det-CBOR input must be a Uint8Array');
    expect(e.detail).toEqual({ what: 'bytes' });
  });

  it('maxBytes that is not a non-negative safe integer; the largest safe integer is taken', () => {
    const e = thrown(() => dec('00', { maxBytes: -1 }));
    expect(e.message).toBe('ERR_BAD_ARGUMENT: maxBytes must be a non-negative safe integer, got -1');
    expect(e.detail).toEqual({ what: 'maxBytes' });
    expect(thrown(() => dec('00', { maxBytes: '5' as unknown as number })).detail).toEqual({ what: 'maxBytes' });
    expect(dec('00', { maxBytes: Number.MAX_SAFE_INTEGER })).toBe(0);
  });

  it('allowTags: every entry must be a non-negative safe integer; 0 is one', () => {
    for (const t of [[18, -1], [-1, 18], [1.5], ['18'], [2 ** 53], [18, null]]) {
      const e = thrown(() => dec('00', { allowTags: t as number[] }));
      expect(e.message, JSON.stringify(t)).toBe('ERR_BAD_ARGUMENT: allowTags must be an array of non-negative safe integers');
      expect(e.detail, JSON.stringify(t)).toEqual({ what: 'allowTags' });
    }
    // tag 0 around the integer 1 (RFC 8949 §3.4: c0 01)
    const v = dec('c001', { allowTags: [0] }) as CborTagged;
    expect([v.tag, v.value]).toEqual([0, 1]);
  });

  it('input longer than maxBytes: its length and the cap, at offset 0; exactly at the cap is read', () => {
    const e = thrown(() => dec('000000', { maxBytes: 2 }));
    expect(e.message).toBe('ERR_CBOR_TOO_LARGE: input of 3 bytes exceeds maxBytes 2');
    expect(e.detail).toEqual({ offset: 0, length: 3, maxBytes: 2 });
    expect(dec('820000', { maxBytes: 3 })).toEqual([0, 0]);
  });
});

/** The message and offset of the refusal of `hex`. */
function refusal(hex: string, opts?: DecodeOptions): [string, unknown] {
  const e = thrown(() => dec(hex, opts));
  return [e.message, e.detail?.['offset']];
}

describe('decodeCanonical: each refusal names its fault and its byte offset (jcp §3, §11; RFC 8949 §3, §4.2.1)', () => {
  it('truncation: of the input, of each argument width, of each declared length', () => {
    expect(refusal('')).toEqual(['ERR_CBOR_TRUNCATED: at byte 0: input ends where a data item was expected', 0]);
    expect(refusal('8200')).toEqual(['ERR_CBOR_TRUNCATED: at byte 0: an array of declared length 2 but only 1 byte(s) remain', 0]);
    expect(refusal('818200')).toEqual(['ERR_CBOR_TRUNCATED: at byte 1: an array of declared length 2 but only 1 byte(s) remain', 1]);
    expect(refusal('8118')).toEqual(['ERR_CBOR_TRUNCATED: at byte 2: input ends inside the 1-byte argument of an unsigned integer', 2]);
    expect(refusal('3901')).toEqual(['ERR_CBOR_TRUNCATED: at byte 1: input ends inside the 2-byte argument of a negative integer', 1]);
    expect(refusal('5a000100')).toEqual(['ERR_CBOR_TRUNCATED: at byte 1: input ends inside the 4-byte argument of a byte string', 1]);
    expect(refusal('7b00000001000000')).toEqual(['ERR_CBOR_TRUNCATED: at byte 1: input ends inside the 8-byte argument of a text string', 1]);
    expect(refusal('5a00010000')).toEqual(['ERR_CBOR_TRUNCATED: at byte 0: a byte string of declared length 65536 but only 0 byte(s) remain', 0]);
    expect(refusal('64616263')).toEqual(['ERR_CBOR_TRUNCATED: at byte 0: a text string of declared length 4 but only 3 byte(s) remain', 0]);
    // a map needs two items per entry: 2 entries cannot fit in 2 bytes (RFC 8949 §3: a map of n pairs holds 2n items)
    expect(refusal('a20102')).toEqual(['ERR_CBOR_TRUNCATED: at byte 0: a map of declared length 2 but only 2 byte(s) remain', 0]);
    expect(refusal('828100')).toEqual(['ERR_CBOR_TRUNCATED: at byte 3: input ends where a data item was expected', 3]);
  });

  it('a longer head than needed: the value and the width it fits', () => {
    expect(refusal('1817')).toEqual(['ERR_CBOR_NOT_SHORTEST: at byte 0: 23 in a 1-byte argument (unsigned integer); it fits the initial byte', 0]);
    expect(refusal('813900ff')).toEqual(['ERR_CBOR_NOT_SHORTEST: at byte 1: 255 in a 2-byte argument (negative integer); it fits 1 byte', 1]);
    expect(refusal('5a0000ffff')).toEqual(['ERR_CBOR_NOT_SHORTEST: at byte 0: 65535 in a 4-byte argument (byte string); it fits 2 bytes', 0]);
    expect(refusal('7b00000000ffffffff')).toEqual(['ERR_CBOR_NOT_SHORTEST: at byte 0: 4294967295 in an 8-byte argument (text string); it fits 4 bytes', 0]);
    expect(refusal('9800')).toEqual(['ERR_CBOR_NOT_SHORTEST: at byte 0: 0 in a 1-byte argument (array); it fits the initial byte', 0]);
    expect(refusal('b90001')).toEqual(['ERR_CBOR_NOT_SHORTEST: at byte 0: 1 in a 2-byte argument (map); it fits 1 byte', 0]);
    expect(refusal('d81200', { allowTags: [18] })).toEqual(['ERR_CBOR_NOT_SHORTEST: at byte 0: 18 in a 1-byte argument (tag); it fits the initial byte', 0]);
  });

  it('indefinite lengths, reserved additional information, and the lone break code', () => {
    expect(refusal('9f')).toEqual(['ERR_CBOR_INDEFINITE_LENGTH: at byte 0: indefinite length (additional info 31) in an array', 0]);
    expect(refusal('815f')).toEqual(['ERR_CBOR_INDEFINITE_LENGTH: at byte 1: indefinite length (additional info 31) in a byte string', 1]);
    expect(refusal('1c00')).toEqual(['ERR_CBOR_RESERVED_ADDITIONAL_INFO: at byte 0: reserved additional information 28 in an unsigned integer', 0]);
    expect(refusal('811e')).toEqual(['ERR_CBOR_RESERVED_ADDITIONAL_INFO: at byte 1: reserved additional information 30 in an unsigned integer', 1]);
    expect(refusal('ff')).toEqual(['ERR_CBOR_INDEFINITE_LENGTH: at byte 0: a break code (0xff) outside any indefinite-length item', 0]);
    expect(refusal('fc')).toEqual(['ERR_CBOR_RESERVED_ADDITIONAL_INFO: at byte 0: reserved additional information 28 in major type 7', 0]);
    expect(refusal('fe')).toEqual(['ERR_CBOR_RESERVED_ADDITIONAL_INFO: at byte 0: reserved additional information 30 in major type 7', 0]);
  });

  it('floats by precision, and simple values by name (jcp §3: "no floats, bools, or nulls")', () => {
    expect(refusal('f93c00')).toEqual(['ERR_CBOR_FLOAT: at byte 0: a half-precision float', 0]);
    expect(refusal('fa47c35000')).toEqual(['ERR_CBOR_FLOAT: at byte 0: a single-precision float', 0]);
    expect(refusal('82fb3ff199999999999a')).toEqual(['ERR_CBOR_FLOAT: at byte 1: a double-precision float', 1]);
    const simple: [string, string][] = [
      ['f4', 'false'],
      ['f5', 'true'],
      ['f6', 'null'],
      ['f7', 'undefined'],
      ['f820', '(1-byte simple value)'],
      ['e0', '0'],
      ['f3', '19'],
    ];
    for (const [hex, name] of simple) expect(refusal(hex), hex).toEqual([`ERR_CBOR_SIMPLE_VALUE: at byte 0: simple value ${name}`, 0]);
  });

  it('trailing bytes: how many, after the item', () => {
    expect(refusal('000000')).toEqual(['ERR_CBOR_TRAILING_BYTES: at byte 1: 2 byte(s) after the one top-level item', 1]);
    expect(refusal('8100ff')).toEqual(['ERR_CBOR_TRAILING_BYTES: at byte 2: 1 byte(s) after the one top-level item', 2]);
  });

  it('tags: a tag not allowed names its number; the contents of an allowed tag count one level deeper', () => {
    expect(refusal('d24100')).toEqual(['ERR_CBOR_TAG: at byte 0: tag 18 is not allowed here', 0]);
    expect(refusal('81d24100', { allowTags: [17] })).toEqual(['ERR_CBOR_TAG: at byte 1: tag 18 is not allowed here', 1]);
    expect(refusal('d28100', { allowTags: [18], maxDepth: 1 })).toEqual(['ERR_CBOR_TOO_DEEP: at byte 1: nesting deeper than maxDepth 1', 1]);
    expect(refusal('d2d200', { allowTags: [18], maxDepth: 1 })).toEqual(['ERR_CBOR_TOO_DEEP: at byte 1: nesting deeper than maxDepth 1', 1]);
    const v = dec('d28100', { allowTags: [18], maxDepth: 2 }) as CborTagged;
    expect([v.tag, v.value]).toEqual([18, [0]]);
  });

  it('map keys: a repeat and a step down, named by their index, at the key', () => {
    expect(refusal('a2616101616101')).toEqual(['ERR_CBOR_DUPLICATE_KEY: at byte 4: map key #1 repeats the key before it', 4]);
    expect(refusal('a3000101020102')).toEqual(['ERR_CBOR_DUPLICATE_KEY: at byte 5: map key #2 repeats the key before it', 5]);
    expect(refusal('a2616201616101')).toEqual([
      'ERR_CBOR_UNSORTED_KEYS: at byte 4: map key #1 sorts before the key before it (length-first, then bytewise)',
      4,
    ]);
    // length first: the one-byte key 0 sorts before the two-byte key "a"
    expect(refusal('a2616101000102')).toEqual([
      'ERR_CBOR_UNSORTED_KEYS: at byte 4: map key #1 sorts before the key before it (length-first, then bytewise)',
      4,
    ]);
  });

  it('invalid UTF-8: at the text, after its head, with the decoder’s error as the cause', () => {
    const e = thrown(() => dec('8162c328'));
    expect(e.message).toBe('ERR_CBOR_INVALID_UTF8: at byte 2: a text string of 2 bytes that is not valid UTF-8');
    expect(e.detail).toEqual({ offset: 2 });
    expect(e.cause).toBeInstanceOf(TypeError);
    // a refusal with no underlying error carries no cause
    expect(Object.hasOwn(thrown(() => dec('f6')), 'cause')).toBe(false);
  });

  it('the JS stack running out inside the decoder is ERR_CBOR_TOO_DEEP, with the RangeError as the cause', () => {
    const input = fromHex('81'.repeat(200) + '00');
    const outcomes: unknown[] = [];
    // recurse to the bottom of the stack, then decode in each frame on the way back until a decode succeeds
    let done = false;
    const down = (): void => {
      try {
        down();
      } catch (e) {
        if (!(e instanceof RangeError)) throw e;
      }
      if (done) return;
      try {
        decodeCanonical(input, { maxDepth: 200 });
        done = true;
      } catch (e) {
        outcomes.push(e);
      }
    };
    down();
    expect(done).toBe(true);
    const tooDeep = outcomes.filter((e): e is JcpError => e instanceof JcpError);
    expect(tooDeep.length).toBeGreaterThan(0);
    for (const e of tooDeep) {
      expect(e.code).toBe('ERR_CBOR_TOO_DEEP');
      expect(e.message).toMatch(/^ERR_CBOR_TOO_DEEP: at byte \d+: the JS stack ran out while decoding$/);
      expect(e.cause).toBeInstanceOf(RangeError);
    }
  });
});

describe('decodeCanonical: values at the bounds', () => {
  it('negative integers: a number down to −(2^53 − 1), a bigint from −2^53 on (RFC 8949 §3.1: −1 − n)', () => {
    expect(dec('3b001ffffffffffffd')).toBe(-(2 ** 53 - 2));
    expect(dec('3b001ffffffffffffe')).toBe(-Number.MAX_SAFE_INTEGER);
    expect(dec('3b001fffffffffffff')).toBe(-(2n ** 53n));
    expect(dec('3b0020000000000000')).toBe(-(2n ** 53n) - 1n);
    expect(dec('3bffffffffffffffff')).toBe(-(2n ** 64n));
    expect(dec('3affffffff')).toBe(-(2 ** 32));
  });

  it('a map of 2^24 + 1 entries is more than a JS Map holds; 2^24 entries are read (here to a repeated key)', () => {
    const map = (n: number): Uint8Array => {
      const b = new Uint8Array(5 + 2 * n); // every key and value the integer 0
      b.set([0xba, n >>> 24, (n >>> 16) & 0xff, (n >>> 8) & 0xff, n & 0xff]);
      return b;
    };
    const e = thrown(() => decodeCanonical(map(2 ** 24 + 1)));
    expect(e.message).toBe('ERR_CBOR_TOO_LARGE: at byte 0: a map of 16777217 entries is more than a JS Map holds');
    expect(e.detail).toEqual({ offset: 0 });
    expect(thrown(() => decodeCanonical(map(2 ** 24))).message).toBe('ERR_CBOR_DUPLICATE_KEY: at byte 7: map key #1 repeats the key before it');
  });
});

// ---- the shape cursor ----

const cur = new ShapeCursor();

/** What `f` read from `hex` (the region ending at `end`, default the whole input) and where the cursor stopped; 'off' when off the shape. */
function shape<T>(hex: string, f: (c: ShapeCursor) => T, end?: number): { v: T; p: number } | 'off' {
  cur.begin(fromHex(hex));
  if (end !== undefined) cur.end = end;
  try {
    const v = f(cur);
    return { v, p: cur.p };
  } catch (e) {
    if (e === OFF_SHAPE) return 'off';
    throw e;
  } finally {
    cur.release();
  }
}

describe('ShapeCursor: heads in their shortest form, as the strict decoder reads them (jcp §3)', () => {
  it('uint reads each head width at its bounds, exactly to the end of the region', () => {
    const ok: [string, bigint][] = [
      ['00', 0n],
      ['17', 23n],
      ['1818', 24n],
      ['18ff', 255n],
      ['190100', 256n],
      ['19ffff', 65535n],
      ['1a00010000', 65536n],
      ['1affffffff', 2n ** 32n - 1n],
      ['1b0000000100000000', 2n ** 32n],
      ['1b0000000100000001', 2n ** 32n + 1n],
      ['1b001fffffffffffff', 2n ** 53n - 1n],
      ['1bffffffffffffffff', 2n ** 64n - 1n],
      ['1b8000000080000000', 2n ** 63n + 2n ** 31n],
    ];
    for (const [hex, v] of ok) {
      expect(shape(hex, (c) => c.uint()), hex).toEqual({ v, p: hex.length / 2 });
      expect(BigInt(dec(hex) as number | bigint), hex).toBe(v);
    }
  });

  it('uint is off the shape for a longer head than needed, a truncated head, and every other major type', () => {
    for (const hex of ['1817', '1800', '1900ff', '190000', '1a0000ffff', '1a00000000', '1b00000000ffffffff', '1b0000000000000000', '18', '19ff', '1a000100', '1b00000001000000', '1c', '1f', '20', '40', '60', 'f5', '']) {
      expect(shape(hex, (c) => c.uint()), hex).toBe('off');
    }
    // the region ends before the bytes do: what lies past `end` is not read
    expect(shape('1818', (c) => c.uint(), 1)).toBe('off');
    expect(shape('190100', (c) => c.uint(), 2)).toBe('off');
    expect(shape('19010000', (c) => c.uint(), 2)).toBe('off');
    expect(shape('1a00010000', (c) => c.uint(), 4)).toBe('off');
    expect(shape('1b0000000100000000', (c) => c.uint(), 8)).toBe('off');
    expect(shape('00', (c) => c.uint(), 0)).toBe('off');
    // a head that is not 1b, with eight more bytes after it, is not read as an 8-byte argument
    for (const hex of ['18170102030405060708', '1c0000000100000000', '3b0000000100000000', '5b0000000100000000']) {
      expect(shape(hex, (c) => c.uint()), hex).toBe('off');
    }
    // an item followed by more bytes: `p` stops after the head
    expect(shape('19010000', (c) => c.uint())).toEqual({ v: 256n, p: 3 });
  });

  it('textHead: 0 … 23 in the initial byte, 24 … 255 in one more byte; anything else is off', () => {
    expect(shape('60', (c) => c.textHead())).toEqual({ v: 0, p: 1 });
    expect(shape('77', (c) => c.textHead())).toEqual({ v: 23, p: 1 });
    expect(shape('7818', (c) => c.textHead())).toEqual({ v: 24, p: 2 });
    expect(shape('78ff', (c) => c.textHead())).toEqual({ v: 255, p: 2 });
    for (const hex of ['7817', '7800', '78', '790100', '791800', '5f', '40', '4061', '5818', '80', '']) expect(shape(hex, (c) => c.textHead()), hex).toBe('off');
    expect(shape('6161', (c) => c.textHead(), 0)).toBe('off');
    expect(shape('7818', (c) => c.textHead(), 1)).toBe('off');
  });

  it('bstrHead: 0 … 23, 24 … 255 and 256 … 65535 in their shortest heads; anything else is off', () => {
    expect(shape('40', (c) => c.bstrHead())).toEqual({ v: 0, p: 1 });
    expect(shape('57', (c) => c.bstrHead())).toEqual({ v: 23, p: 1 });
    expect(shape('5818', (c) => c.bstrHead())).toEqual({ v: 24, p: 2 });
    expect(shape('58ff', (c) => c.bstrHead())).toEqual({ v: 255, p: 2 });
    expect(shape('590100', (c) => c.bstrHead())).toEqual({ v: 256, p: 3 });
    expect(shape('59ffff', (c) => c.bstrHead())).toEqual({ v: 65535, p: 3 });
    expect(shape('591234', (c) => c.bstrHead())).toEqual({ v: 0x1234, p: 3 });
    for (const hex of ['5817', '5800', '58', '5900ff', '590000', '5901', '5a00010000', '5a01000000', '790100', '190100', '3f', '60', '']) {
      expect(shape(hex, (c) => c.bstrHead()), hex).toBe('off');
    }
    expect(shape('4101', (c) => c.bstrHead(), 0)).toBe('off');
    expect(shape('5818', (c) => c.bstrHead(), 1)).toBe('off');
    expect(shape('590100', (c) => c.bstrHead(), 2)).toBe('off');
  });
});

describe('ShapeCursor: texts, keys and byte comparisons', () => {
  it('asciiText reads ASCII of every length up to the end of the region; any byte ≥ 0x80 is off', () => {
    for (const n of [0, 1, 15, 16, 17, 40]) {
      const s = 'abcdefghijklmnopqrstuvwxyz0123456789ABCDEF'.slice(0, n);
      const hex = [...s].map((ch) => ch.charCodeAt(0).toString(16)).join('');
      expect(shape(hex + 'ff', (c) => c.asciiText(n)), `${n}`).toEqual({ v: s, p: n });
      expect(shape(hex, (c) => c.asciiText(n + 1)), `${n} + 1`).toBe('off');
    }
    expect(shape('007f', (c) => c.asciiText(2))).toEqual({ v: '\u0000\u007f', p: 2 });
    for (const n of [1, 15, 16, 20]) {
      // the non-ASCII byte last: every byte is checked
      expect(shape('61'.repeat(n - 1) + '80', (c) => c.asciiText(n)), `${n}`).toBe('off');
    }
    expect(shape('616161', (c) => c.asciiText(3), 2)).toBe('off');
  });

  it('text is non-empty ASCII after a text head, interned or not, and agrees with the strict decoder', () => {
    for (const intern of [false, true]) {
      for (const hex of ['6161', '6378797a', '7818' + '41'.repeat(24), '6f' + '42'.repeat(15), '70' + '43'.repeat(16)]) {
        expect(shape(hex, (c) => c.text(intern)), hex).toEqual({ v: dec(hex), p: hex.length / 2 });
      }
      for (const hex of ['60', '61c3', '62c3a9', '6261', '4161', '7817' + '41'.repeat(23)]) expect(shape(hex, (c) => c.text(intern)), hex).toBe('off');
    }
  });

  it('interned texts: many distinct texts, more than the table has slots, each read back as itself, twice', () => {
    const texts = Array.from({ length: 600 }, (_, i) => `t${i.toString(36)}-${(i * 7919) % 1000}`);
    for (let round = 0; round < 2; round++) {
      for (const s of texts) {
        const hex = (0x60 + s.length).toString(16) + [...s].map((ch) => ch.charCodeAt(0).toString(16)).join('');
        expect(shape(hex, (c) => c.text(true)), s).toEqual({ v: s, p: 1 + s.length });
      }
    }
    // a text read (and remembered) just before, that now ends past the region, is still off
    expect(shape('6378797a', (c) => c.text(true))).toEqual({ v: 'xyz', p: 4 });
    expect(shape('6378797a', (c) => c.text(true), 3)).toBe('off');
  });

  it('key reads exactly the key given, head and bytes', () => {
    const k = asciiBytes('kind');
    expect(shape('646b696e6400', (c) => c.key(k))).toEqual({ v: undefined, p: 5 });
    expect(shape('646b696e64', (c) => c.key(k))).toEqual({ v: undefined, p: 5 });
    for (const hex of ['646b696e65', '636b696e', '656b696e6473', '446b696e64', '646b696e']) expect(shape(hex, (c) => c.key(k)), hex).toBe('off');
    expect(shape('646b696e64', (c) => c.key(k), 4)).toBe('off');
  });

  it('same, sameView and sameRanges compare every byte, whatever the length', () => {
    for (let n = 0; n <= 9; n++) {
      const a = Array.from({ length: n }, (_, i) => i + 1);
      cur.begin(new Uint8Array([...a, ...a]));
      try {
        const k = new Uint8Array(a);
        expect(cur.same(0, n, k), `same ${n}`).toBe(true);
        expect(cur.sameView(0, n, new DataView(k.buffer)), `sameView ${n}`).toBe(true);
        expect(cur.sameRanges(0, n, n), `sameRanges ${n}`).toBe(true);
        expect(cur.same(0, n, new Uint8Array(n + 1)), `same length ${n}`).toBe(false);
        expect(cur.sameView(0, n, new DataView(new ArrayBuffer(n + 1))), `sameView length ${n}`).toBe(false);
        for (let i = 0; i < n; i++) {
          const d = new Uint8Array(a);
          d[i] = 0xee;
          expect(cur.same(0, n, d), `same ${n} @${i}`).toBe(false);
          expect(cur.sameView(0, n, new DataView(d.buffer)), `sameView ${n} @${i}`).toBe(false);
          expect(cur.sameView(n, n, new DataView(d.buffer)), `sameView ${n} @${i} (second copy)`).toBe(false);
        }
      } finally {
        cur.release();
      }
      for (let i = 0; i < n; i++) {
        const bytes = new Uint8Array([...a, ...a]);
        bytes[n + i] = 0xee;
        cur.begin(bytes);
        try {
          expect(cur.sameRanges(0, n, n), `sameRanges ${n} @${i}`).toBe(false);
          expect(cur.sameRanges(n, 0, n), `sameRanges ${n} @${i} (swapped)`).toBe(false);
        } finally {
          cur.release();
        }
      }
    }
  });

  it('oneOf answers the set’s own string, or is off', () => {
    const set = shapeTexts(['call', 'read', 'callx']);
    expect(shape('6463616c6c', (c) => c.oneOf(set))).toEqual({ v: 'call', p: 5 });
    expect(shape('6472656164', (c) => c.oneOf(set))).toEqual({ v: 'read', p: 5 });
    expect(shape('6563616c6c78', (c) => c.oneOf(set))).toEqual({ v: 'callx', p: 6 });
    expect(Object.isFrozen(set) && Object.isFrozen(set[0])).toBe(true);
    expect([...set[2]!.b]).toEqual([0x63, 0x61, 0x6c, 0x6c, 0x78]);
    for (const hex of ['6463616c6d', '6363616c', '6577726974', '4463616c6c']) expect(shape(hex, (c) => c.oneOf(set)), hex).toBe('off');
    expect(shape('6463616c6c', (c) => c.oneOf(set), 4)).toBe('off');
  });
});

describe('ShapeCursor: content ids and dids, as isContentId and isDidKey read them', () => {
  const hexText = (s: string): string => [...s].map((ch) => ch.charCodeAt(0).toString(16).padStart(2, '0')).join('');
  const cidHead = (s: string): string => '7840' + hexText(s);
  /** A content-id-shaped text of 64 lowercase hex digits, from `i`. */
  const cidOf = (i: number): string => Array.from({ length: 8 }, (_, j) => ((i * 2654435761 + j * 40503) >>> 0).toString(16).padStart(8, '0')).join('');

  it('cid reads 64 lowercase hex digits after the head 78 40; the digit bounds 0, 9, a, f are in', () => {
    for (const intern of [false, true]) {
      for (const s of ['0'.repeat(64), '9'.repeat(64), 'a'.repeat(64), 'f'.repeat(64), '0123456789abcdef'.repeat(4), cidOf(1)]) {
        expect(shape(cidHead(s) + '00', (c) => c.cid(intern)), s).toEqual({ v: s, p: 66 });
        expect(dec(cidHead(s)), s).toBe(s);
      }
    }
  });

  it('cid is off for a neighbour of a hex digit anywhere, uppercase, another length or head, or a short region', () => {
    for (const intern of [false, true]) {
      const good = cidOf(2);
      for (const bad of ['/', ':', '`', 'g', 'A', 'F', ' ']) {
        for (const at of [0, 31, 63]) {
          const s = good.slice(0, at) + bad + good.slice(at + 1);
          expect(shape(cidHead(s), (c) => c.cid(intern)), `${bad}@${at}`).toBe('off');
        }
      }
      expect(shape('783f' + hexText(good.slice(1)), (c) => c.cid(intern))).toBe('off');
      expect(shape('7841' + hexText(good) + '30', (c) => c.cid(intern))).toBe('off');
      expect(shape('6a' + hexText(good.slice(0, 10)), (c) => c.cid(intern))).toBe('off');
      expect(shape('790040' + hexText(good), (c) => c.cid(intern))).toBe('off');
      expect(shape('5840' + hexText(good), (c) => c.cid(intern))).toBe('off');
      expect(shape(cidHead(good), (c) => c.cid(intern), 66)).toEqual({ v: good, p: 66 });
      // read (and, interned, remembered) just before: a region one byte short is still off
      expect(shape(cidHead(good), (c) => c.cid(intern), 65)).toBe('off');
      expect(shape(cidHead(good), (c) => c.cid(intern), 2)).toBe('off');
    }
  });

  it('interned content ids: more than the table has slots, each read back as itself; an uppercase twin is still off', () => {
    const ids = Array.from({ length: 600 }, (_, i) => cidOf(i + 10));
    for (let round = 0; round < 2; round++) {
      for (const s of ids) expect(shape(cidHead(s), (c) => c.cid(true)), s).toEqual({ v: s, p: 66 });
    }
    const s = 'abcdef0123456789'.repeat(4);
    expect(shape(cidHead(s), (c) => c.cid(true))).toEqual({ v: s, p: 66 });
    expect(shape(cidHead(s.toUpperCase()), (c) => c.cid(true))).toBe('off');
  });

  it('did reads an Ed25519 did:key; any other text is off, and is never remembered as one', () => {
    const dids = Array.from({ length: 1024 }, (_, i) => didFromPublicKey(new Uint8Array(32).fill(i % 256).map((x, j) => (j === 0 ? i >> 8 : x))));
    const head = (s: string): string => (s.length < 24 ? (0x60 + s.length).toString(16) : '78' + s.length.toString(16).padStart(2, '0')) + hexText(s);
    for (let round = 0; round < 2; round++) {
      for (const d of dids) {
        expect(isDidKey(d)).toBe(true);
        expect(shape(head(d), (c) => c.did()), d).toEqual({ v: d, p: head(d).length / 2 });
      }
    }
    const notDid = dids[5]!.slice(0, -1) + '0'; // '0' is outside base58btc
    expect(isDidKey(notDid)).toBe(false);
    for (let round = 0; round < 2; round++) expect(shape(head(notDid), (c) => c.did())).toBe('off');
    expect(shape(head('did:key:z6Mk'), (c) => c.did())).toBe('off');
    // texts that are a did's first bytes, or none of them, are not dids
    for (const s of ['', 'd', 'di', 'did', 'did:key:']) expect(shape(head(s), (c) => c.did()), s).toBe('off');
    expect(shape(head(dids[0]!), (c) => c.did(), head(dids[0]!).length / 2 - 1)).toBe('off');
  });
});

describe('ShapeCursor: holding and decoding', () => {
  it('release lets go of the input: the cursor holds no bytes after', () => {
    const c = new ShapeCursor();
    c.begin(fromHex('6161'));
    expect([c.b.length, c.dv.byteLength, c.end]).toEqual([2, 2, 2]);
    c.release();
    expect([c.b.length, c.dv.byteLength]).toEqual([0, 0]);
  });

  it('without Node’s one-byte string maker, a fresh cursor module reads the same texts (through a TextDecoder)', async () => {
    const proto = Buffer.prototype as unknown as { asciiSlice?: unknown };
    const saved = Object.getOwnPropertyDescriptor(proto, 'asciiSlice');
    // a module instance of its own (the query makes a new module id), loaded while the Buffer method is absent
    const path = './cursor.ts?without-ascii-slice';
    let fresh: typeof import('./cursor.ts');
    delete proto.asciiSlice;
    try {
      fresh = (await import(/* @vite-ignore */ path)) as typeof import('./cursor.ts');
    } finally {
      if (saved !== undefined) Object.defineProperty(proto, 'asciiSlice', saved);
    }
    const c = new fresh.ShapeCursor();
    const read = <T>(bytes: Uint8Array, f: (c: ShapeCursor) => T): T => {
      c.begin(bytes);
      try {
        return f(c);
      } finally {
        c.release();
      }
    };
    for (const n of [1, 15, 16, 40]) {
      const s = 'abcdefghijklmnopqrstuvwxyz0123456789ABCDEF'.slice(0, n);
      const text = Uint8Array.from(`x${s}y`, (ch) => ch.charCodeAt(0));
      expect(read(text, (cc) => ((cc.p = 1), [cc.asciiText(n), cc.p])), `${n}`).toEqual([s, 1 + n]);
      text[0] = 0x60 + n <= 0x77 ? 0x60 + n : 0x78;
      const withHead = n < 24 ? text : Uint8Array.from([0x78, n, ...text.subarray(1)]);
      for (let round = 0; round < 2; round++) expect(read(withHead, (cc) => cc.text(true)), `${n} interned`).toBe(s);
    }
    // the fresh module's own helpers: the ASCII bytes of a key, a closed set of texts
    expect([...fresh.asciiBytes('kind')]).toEqual([0x6b, 0x69, 0x6e, 0x64]);
    expect(read(fromHex('646b696e64'), (cc) => (cc.key(fresh.asciiBytes('kind')), cc.p))).toBe(5);
    expect(read(fromHex('6472656164'), (cc) => cc.oneOf(fresh.shapeTexts(['call', 'read'])))).toBe('read');
  });
});
