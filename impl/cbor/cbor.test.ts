// Unit tests of impl/cbor: the TypeScript encoder and decoder API of the reference's canonical det-CBOR (jcp §3, §11).
// What any implementation must do with bytes (canonical bytes come back unchanged, each non-canonical form is refused
// with its code) is checked through the testee protocol in harness/conformance/cbor.test.ts; here are the reference's
// own API and its exact behaviour: encode refusals of JS values (null, floats, cycles, getters, class instances),
// key-order caching, options (allowTags, maxDepth, maxBytes), refusal details (offsets, paths), the values decode
// returns, and a cross-check against cborg.
import fc from 'fast-check';
import { decode as cborgDecode } from 'cborg';
import { describe, expect, it } from 'vitest';
import { thrown } from '../_test-support.ts';
import { fromHex, toHex } from '../bytes.ts';
import { JcpError } from '../errors.ts';
import {
  cborEquals,
  cborTag,
  compareEncodedKeys,
  decodeCanonical,
  encodeCanonical,
  isCborTagged,
  type CborInput,
  type CborMap,
  type CborValue,
  type DecodeOptions,
} from './index.ts';

/** The fixed fast-check seed of the suite ("JCP"), overridable with FC_SEED / FC_RUNS to replay a failure. */
const fcParams = (runs = 200) => ({
  seed: process.env['FC_SEED'] !== undefined ? Number(process.env['FC_SEED']) : 0x4a4350,
  numRuns: process.env['FC_RUNS'] !== undefined ? Number(process.env['FC_RUNS']) : runs,
});

// ---- helpers ----

/** What `f` did: 'ok', the JcpError's code, or a description of any other throw (always a failure). */
function outcome(f: () => unknown): string {
  try {
    f();
    return 'ok';
  } catch (e) {
    if (e instanceof JcpError) return e.code;
    return `not a JcpError: ${String(e)}`;
  }
}

const hexOf = (v: CborInput, allowTags = false): string => toHex(encodeCanonical(v, { allowTags }));
const dec = (hex: string, opts?: DecodeOptions): CborValue => decodeCanonical(fromHex(hex), opts);
const decCode = (hex: string, opts?: DecodeOptions): string => outcome(() => dec(hex, opts));
const encCode = (v: unknown, allowTags = false): string => outcome(() => encodeCanonical(v as CborInput, { allowTags }));

// ---- encoding ----

describe('encoding: shortest forms and exact integer range', () => {
  it('encode({a:1}) is a1 61 61 01 (a one-byte map head)', () => {
    expect(hexOf({ a: 1 })).toBe('a1616101');
  });

  it('each integer takes the shortest head, number and bigint alike', () => {
    const cases: [number | bigint, string][] = [
      [0, '00'],
      [23, '17'],
      [24, '1818'],
      [255, '18ff'],
      [256, '190100'],
      [65535, '19ffff'],
      [65536, '1a00010000'],
      [2 ** 32 - 1, '1affffffff'],
      [2 ** 32, '1b0000000100000000'],
      [2 ** 40, '1b0000010000000000'],
      [2n ** 40n, '1b0000010000000000'],
      [Number.MAX_SAFE_INTEGER, '1b001fffffffffffff'],
      [2n ** 53n, '1b0020000000000000'],
      [2n ** 64n - 1n, '1bffffffffffffffff'],
      [-1, '20'],
      [-24, '37'],
      [-25, '3818'],
      [-256, '38ff'],
      [-257, '390100'],
      [-(2 ** 32), '3affffffff'],
      [-(2 ** 32) - 1, '3b0000000100000000'],
      [-Number.MAX_SAFE_INTEGER, '3b001ffffffffffffe'],
      [-(2n ** 53n), '3b001fffffffffffff'],
      [-(2n ** 64n), '3bffffffffffffffff'],
      [5n, '05'],
      [-0, '00'],
    ];
    for (const [v, hex] of cases) {
      expect(hexOf(v), String(v)).toBe(hex);
      expect(cborEquals(dec(hex), v), hex).toBe(true);
    }
  });

  it('integers outside −2^64 … 2^64−1 are unencodable', () => {
    expect(encCode(2n ** 64n)).toBe('ERR_CBOR_UNENCODABLE');
    expect(encCode(-(2n ** 64n) - 1n)).toBe('ERR_CBOR_UNENCODABLE');
    expect(encCode(2 ** 64)).toBe('ERR_CBOR_UNENCODABLE'); // a number, not a safe integer
    expect(encCode(Number.MAX_SAFE_INTEGER + 1)).toBe('ERR_CBOR_UNENCODABLE');
  });

  it('decoded integers are numbers when safe and bigints beyond', () => {
    expect(dec('1b001fffffffffffff')).toBe(Number.MAX_SAFE_INTEGER);
    expect(dec('1b0020000000000000')).toBe(2n ** 53n);
    expect(dec('3b001ffffffffffffe')).toBe(-Number.MAX_SAFE_INTEGER);
    expect(dec('3b001fffffffffffff')).toBe(-(2n ** 53n));
    expect(dec('1bffffffffffffffff')).toBe(2n ** 64n - 1n);
    expect(dec('3bffffffffffffffff')).toBe(-(2n ** 64n));
  });

  it('strings and containers take the shortest length head', () => {
    expect(hexOf('')).toBe('60');
    expect(hexOf('x'.repeat(23))).toBe('77' + '78'.repeat(23));
    expect(hexOf('x'.repeat(24))).toBe('7818' + '78'.repeat(24));
    expect(hexOf('x'.repeat(255)).slice(0, 4)).toBe('78ff');
    expect(hexOf('x'.repeat(256)).slice(0, 6)).toBe('790100');
    expect(hexOf('é'.repeat(12)).slice(0, 4)).toBe('7818'); // 24 UTF-8 bytes from 12 UTF-16 units
    expect(hexOf('é'.repeat(128)).slice(0, 6)).toBe('790100'); // the long-text path, 256 bytes
    expect(hexOf('😀'.repeat(40)).slice(0, 4)).toBe('78a0'); // 80 UTF-16 units, 160 UTF-8 bytes
    expect(hexOf('x'.repeat(100)).slice(0, 4)).toBe('7864'); // long text: head guessed for 300 bytes, then shrunk
    expect(hexOf('x'.repeat(30000)).slice(0, 6)).toBe('797530');
    expect(hexOf('x'.repeat(99) + 'é').slice(0, 4)).toBe('7865');
    expect(hexOf(new Uint8Array(0))).toBe('40');
    expect(hexOf(new Uint8Array(24)).slice(0, 4)).toBe('5818');
    expect(hexOf(new Array<number>(24).fill(0)).slice(0, 4)).toBe('9818');
    expect(hexOf(new Map(Array.from({ length: 24 }, (_, i) => [i, 0] as const))).slice(0, 4)).toBe('b818');
    expect(hexOf('ü水𐅑')).toBe('69c3bce6b0b4f0908591');
  });
});

describe('encoding: key order', () => {
  it('text keys: shorter first, then bytewise, whatever the insertion order', () => {
    expect(hexOf({ bb: 1, a: 2, ccc: 3, b: 4 })).toBe('a4' + '616102' + '616204' + '62626201' + '6363636303');
    expect(hexOf({ b: 1, a: 2 })).toBe(hexOf({ a: 2, b: 1 }));
    // UTF-8 byte order, not UTF-16 order: U+FF5E (ef bd 9e) sorts before U+1F600 (f0 9f 98 80) by length alone,
    // and U+E000 (ee 80 80) before U+FFFF (ef bf bf); "\uD83D\uDE00" is above both in UTF-8 though below in UTF-16
    expect(hexOf({ '😀': 1, '～': 2 })).toBe('a2' + '63efbd9e02' + '64f09f988001');
    expect(hexOf({ '\u{10000}': 1, '\u{ffff}a': 2 })).toBe('a2' + '64efbfbf6102' + '64f090808001');
  });

  it('mixed int and text keys: length of the encoded key first, then bytewise', () => {
    const m = new Map<CborValue, CborValue>([
      ['a', 1],
      [256, 5],
      [24, 2],
      [-1, 3],
      [1, 4],
    ]);
    // 01, 20 (1 byte) < 1818, 6161 (2 bytes) < 190100 (3 bytes)
    expect(hexOf(m)).toBe('a5' + '0104' + '2003' + '181802' + '616101' + '19010005');
    expect(cborEquals(dec('a50104200318180261610119010005'), m)).toBe(true);
  });

  it('RFC 8949 bytewise order that length-first refuses: 24 before −1 is unsorted', () => {
    // bytewise over encoded keys, 18 18 < 20; length-first, 20 (1 byte) < 18 18 (2 bytes)
    expect(decCode('a2181801' + '2002')).toBe('ERR_CBOR_UNSORTED_KEYS');
    expect(decCode('a22002' + '181801')).toBe('ok');
    expect(hexOf(new Map<CborValue, CborValue>([[24, 1], [-1, 2]]))).toBe('a22002181801');
    // and a short text key before a longer byte-string key, though 0x41.. < 0x61..
    expect(decCode('a2' + '42000001' + '616102')).toBe('ERR_CBOR_UNSORTED_KEYS');
  });

  it('compareEncodedKeys: length first, then bytewise, 0 for the same bytes', () => {
    const k = (h: string): Uint8Array => fromHex(h);
    expect(compareEncodedKeys(k('01'), k('20'))).toBeLessThan(0);
    expect(compareEncodedKeys(k('20'), k('1818'))).toBeLessThan(0);
    expect(compareEncodedKeys(k('1818'), k('20'))).toBeGreaterThan(0);
    expect(compareEncodedKeys(k('6161'), k('6162'))).toBeLessThan(0);
    expect(compareEncodedKeys(k('626161'), k('6162'))).toBeGreaterThan(0);
    expect(compareEncodedKeys(k('6161'), k('6161'))).toBe(0);
    expect(compareEncodedKeys(k(''), k('00'))).toBeLessThan(0);
  });

  it('duplicate keys: refused on encode (a Map holding 1 and 1n) and on decode', () => {
    expect(encCode(new Map<CborValue, CborValue>([[1, 'a'], [1n, 'b']]))).toBe('ERR_CBOR_DUPLICATE_KEY');
    expect(encCode(new Map<CborValue, CborValue>([[1, 'a'], [2, 'b'], [1n, 'c']]))).toBe('ERR_CBOR_DUPLICATE_KEY');
    expect(encCode(new Map<CborValue, CborValue>([[new Uint8Array([1]), 0], [new Uint8Array([1]), 1]]))).toBe(
      'ERR_CBOR_DUPLICATE_KEY',
    );
    const e = thrown(() => dec('a2616101616102'));
    expect(e.code).toBe('ERR_CBOR_DUPLICATE_KEY');
    expect(e.detail?.['offset']).toBe(4);
    expect(e.message).toContain('at byte 4');
  });

  it('key order is re-derived for each shape, including a shape seen before', () => {
    // the encoder remembers recent key orders of plain objects; a different shape must never reuse one
    for (let round = 0; round < 3; round++) {
      expect(hexOf({ zz: 1, a: 2 })).toBe('a2616102627a7a01');
      expect(hexOf({ zz: 1, b: 2 })).toBe('a2616202627a7a01');
      expect(hexOf({ zz: 1, a: 2, c: 3 })).toBe('a3616102616303627a7a01');
      expect(hexOf({ a: 2, zz: 1 })).toBe('a2616102627a7a01');
    }
    const big = Object.fromEntries(Array.from({ length: 40 }, (_, i) => [`k${39 - i}`, i]));
    const keys = [...(dec(hexOf(big)) as CborMap).keys()];
    expect(keys).toEqual(Array.from({ length: 40 }, (_, i) => `k${i}`).sort((x, y) => x.length - y.length || (x < y ? -1 : 1)));
  });
});

describe('encoding: what has no encoding', () => {
  it('an undefined property is omitted; the map head counts what is left', () => {
    expect(hexOf({ a: 1, b: undefined })).toBe('a1616101');
    expect(hexOf({ b: undefined })).toBe('a0');
    const o: Record<string, number | undefined> = {};
    for (let i = 0; i < 24; i++) o[`k${i}`] = i;
    o['k5'] = undefined; // 23 entries left: the head shrinks from b8 18 to b7
    const bytes = encodeCanonical(o);
    expect(bytes[0]).toBe(0xb7);
    const back = decodeCanonical(bytes) as CborMap;
    expect(back.size).toBe(23);
    expect(back.has('k5')).toBe(false);
    expect(toHex(encodeCanonical(back))).toBe(toHex(bytes));
  });

  it('null, booleans and non-integers are refused on encode', () => {
    for (const v of [null, true, false, 1.5, -0.5, NaN, Infinity, -Infinity, 2 ** 53]) {
      expect(encCode(v), String(v)).toBe('ERR_CBOR_UNENCODABLE');
      expect(encCode([v]), `[${String(v)}]`).toBe('ERR_CBOR_UNENCODABLE');
      expect(encCode({ x: v }), `{x: ${String(v)}}`).toBe('ERR_CBOR_UNENCODABLE');
      expect(encCode(new Map([[v, 1]])), `a ${String(v)} key`).toBe('ERR_CBOR_UNENCODABLE');
    }
  });

  it('the refusal names the path of the offending value', () => {
    const e = thrown(() => encodeCanonical({ capability: { actions: ['read', 'write', null] } } as unknown as CborInput));
    expect(e.code).toBe('ERR_CBOR_UNENCODABLE');
    expect(e.message).toContain('$.capability.actions[2]');
    expect(e.detail?.['path']).toBe('$.capability.actions[2]');
    const m = thrown(() => encodeCanonical(new Map<CborInput, CborInput>([[7, { 'a b': [1, 0.5] }]])));
    expect(m.detail?.['path']).toBe('$[7]["a b"][1]');
    const t = thrown(() => encodeCanonical(cborTag(18, [1, 2.5] as CborValue[]), { allowTags: true }));
    expect(t.detail?.['path']).toBe('$<tag 18>[1]');
  });

  it('undefined outside a property, functions, symbols and class instances are refused', () => {
    const junk: unknown[] = [
      undefined,
      [undefined],
      [1, , 3], // a hole reads as undefined
      new Map([['a', undefined]]),
      () => 1,
      Symbol('s'),
      new Date(0),
      /re/,
      new String('boxed'),
      new Int8Array(2),
      new Uint8ClampedArray(2),
      new Uint16Array(2),
      new ArrayBuffer(2),
      new DataView(new ArrayBuffer(2)),
      new Set([1]),
      new (class Point {
        x = 1;
      })(),
      { [Symbol('k')]: 1 },
      { a: { get b(): unknown { return null; } } },
      Promise.resolve(1),
    ];
    for (const v of junk) expect(encCode(v), String(v)).toBe('ERR_CBOR_UNENCODABLE');
    // an object without a prototype is still a plain object
    const bare = Object.create(null) as Record<string, number>;
    bare['a'] = 1;
    expect(hexOf(bare)).toBe('a1616101');
    // a Buffer is a Uint8Array
    expect(hexOf(Buffer.from([1, 2]))).toBe('420102');
  });

  it('text with a lone surrogate is unencodable, short or long', () => {
    for (const s of ['\ud800', 'a\udc00b', '\udc00\ud800', 'x'.repeat(200) + '\ud83d', '\ud83d' + 'y'.repeat(200)]) {
      expect(encCode(s), JSON.stringify(s.slice(0, 4))).toBe('ERR_CBOR_UNENCODABLE');
      expect(encCode({ [s]: 1 }), 'as a key').toBe('ERR_CBOR_UNENCODABLE');
    }
    expect(hexOf('\ud83d\ude00')).toBe('64f09f9880');
  });

  it('a cycle is unencodable, not a stack overflow', () => {
    const a: unknown[] = [1];
    a.push(a);
    const e = thrown(() => encodeCanonical(a as CborInput));
    expect(e.code).toBe('ERR_CBOR_UNENCODABLE');
    expect(e.message).toContain('cyclic');
    const o: Record<string, unknown> = { a: 1 };
    o['self'] = { again: o };
    expect(encCode(o)).toBe('ERR_CBOR_UNENCODABLE');
  });

  it('a getter is read once, and what it returned is encoded', () => {
    let reads = 0;
    const o = {
      get a(): number {
        reads++;
        return reads;
      },
    };
    expect(hexOf(o)).toBe('a1616101');
    expect(reads).toBe(1);
    // a getter that encodes re-entrantly neither breaks nor is broken by the outer encoding
    const inner = {
      get a(): string {
        return toHex(encodeCanonical({ z: [1, 2, 3] }));
      },
      b: 'x'.repeat(40),
    };
    expect(hexOf(inner)).toBe(hexOf({ a: 'a1617a83010203', b: 'x'.repeat(40) }));
  });

  it('encodeCanonical returns a fresh array each time', () => {
    const x = encodeCanonical([1, 2]);
    const y = encodeCanonical([1, 2]);
    expect(x).not.toBe(y);
    expect(x.buffer).not.toBe(y.buffer);
    x[0] = 0;
    expect(toHex(y)).toBe('820102');
  });
});

describe('tags (only where allowed: the COSE envelope is tag 18)', () => {
  const sign1 = cborTag(18, [fromHex('a10127'), new Map(), fromHex('00'), new Uint8Array(2)]);

  it('tag 18 encodes only with allowTags and decodes only with allowTags [18]', () => {
    expect(encCode(sign1)).toBe('ERR_CBOR_TAG');
    expect(encCode([sign1])).toBe('ERR_CBOR_TAG');
    const hex = hexOf(sign1, true);
    expect(hex).toBe('d28443a10127a041004200' + '00');
    expect(decCode(hex)).toBe('ERR_CBOR_TAG');
    expect(decCode(hex, { allowTags: [17] })).toBe('ERR_CBOR_TAG');
    const back = dec(hex, { allowTags: [18] });
    expect(isCborTagged(back)).toBe(true);
    expect(cborEquals(back, sign1)).toBe(true);
    expect(Object.isFrozen(back)).toBe(true);
  });

  it('an allowed tag’s number and contents obey the same rules', () => {
    expect(decCode('d81201', { allowTags: [18] })).toBe('ERR_CBOR_NOT_SHORTEST');
    expect(decCode('d2f6', { allowTags: [18] })).toBe('ERR_CBOR_SIMPLE_VALUE');
    expect(decCode('d21800', { allowTags: [18] })).toBe('ERR_CBOR_NOT_SHORTEST');
    expect(decCode('d2', { allowTags: [18] })).toBe('ERR_CBOR_TRUNCATED');
    expect(decCode('d2d201', { allowTags: [18] })).toBe('ok');
    expect(decCode('d2c101', { allowTags: [18] })).toBe('ERR_CBOR_TAG');
    expect(decCode('d81801', { allowTags: [24] })).toBe('ok');
    expect(decCode('1bffffffffffffffff')).toBe('ok');
    expect(decCode('dbffffffffffffffff01', { allowTags: [18] })).toBe('ERR_CBOR_TAG');
  });

  it('cborTag refuses a tag number that is not a non-negative safe integer', () => {
    for (const t of [-1, 1.5, NaN, 2 ** 53, '18' as unknown as number]) {
      expect(outcome(() => cborTag(t, 1)), String(t)).toBe('ERR_BAD_ARGUMENT');
    }
    // a look-alike object is a plain map, not a tag
    expect(hexOf({ tag: 18, value: 1 } as CborInput, true)).toBe('a263746167126576616c756501');
  });
});

// ---- decoding: each refusal, with its code and where ----

describe('decoding: strict refusals', () => {
  it('truncation, including empty input and declared lengths beyond the input', () => {
    for (const hex of ['', '18', '19ff', '1a0001', '1b00000001', '62c3', '8301', 'a16161', 'a1', '5818', '9b0000000100000000']) {
      expect(decCode(hex), hex).toBe('ERR_CBOR_TRUNCATED');
    }
    // huge declared lengths are refused before anything is allocated
    for (const hex of ['5bffffffffffffffff', '7bffffffffffffffff', '9bffffffffffffffff', 'bbffffffffffffffff', '5affffffff', 'baffffffff']) {
      expect(decCode(hex + '00'), hex).toBe('ERR_CBOR_TRUNCATED');
    }
    // a map needs two items per entry
    expect(decCode('a20102')).toBe('ERR_CBOR_TRUNCATED');
  });

  it('trailing bytes after the one item', () => {
    const e = thrown(() => dec('0000'));
    expect(e.code).toBe('ERR_CBOR_TRAILING_BYTES');
    expect(e.detail?.['offset']).toBe(1);
    expect(decCode('a0ff')).toBe('ERR_CBOR_TRAILING_BYTES');
  });

  it('arguments, lengths and tag numbers not in the shortest form', () => {
    for (const hex of ['1800', '1817', '190017', '1900ff', '1a0000ffff', '1b00000000ffffffff', '3817', '5800', '780161', '9800', 'b800', 'd80100']) {
      expect(decCode(hex, { allowTags: [1] }), hex).toBe('ERR_CBOR_NOT_SHORTEST');
    }
    for (const hex of ['1818', '190100', '1a00010000', '1b0000000100000000']) expect(decCode(hex), hex).toBe('ok');
  });

  it('indefinite lengths in every major type, and a lone break byte', () => {
    for (const hex of ['1f', '3f', '5f40ff', '7f60ff', '9fff', 'bfff', 'df00', 'ff', '81ff', '9f']) {
      expect(decCode(hex), hex).toBe('ERR_CBOR_INDEFINITE_LENGTH');
    }
  });

  it('reserved additional information 28 … 30', () => {
    for (let major = 0; major < 8; major++) {
      for (const ai of [28, 29, 30]) {
        const hex = ((major << 5) | ai).toString(16).padStart(2, '0');
        expect(decCode(hex + '00'), hex).toBe('ERR_CBOR_RESERVED_ADDITIONAL_INFO');
      }
    }
  });

  it('every float and every simple value, wherever it sits', () => {
    for (const hex of ['f90000', 'f93c00', 'fa47c35000', 'fb3ff199999999999a', 'f9', 'fb00']) {
      expect(decCode(hex), hex).toBe('ERR_CBOR_FLOAT');
      expect(decCode('81' + hex), `[${hex}]`).toBe('ERR_CBOR_FLOAT');
    }
    for (let ai = 0; ai < 24; ai++) {
      const hex = (0xe0 | ai).toString(16);
      expect(decCode(hex), hex).toBe('ERR_CBOR_SIMPLE_VALUE');
    }
    for (const hex of ['f820', 'f8ff', 'f800', 'a1f401', 'a101f5', '8201f6']) expect(decCode(hex), hex).toBe('ERR_CBOR_SIMPLE_VALUE');
    expect(thrown(() => dec('8201f6')).detail?.['offset']).toBe(2);
  });

  it('text must be valid UTF-8; a byte order mark is valid and kept', () => {
    for (const hex of ['61ff', '61c0', '62c080', '62c328', '63eda080', '64f4908080', '64f8888080', '6180', '7818' + '61'.repeat(23) + 'c3']) {
      expect(decCode(hex), hex).toBe('ERR_CBOR_INVALID_UTF8');
    }
    expect(dec('63efbbbf')).toBe('\ufeff');
    expect(dec('64efbbbf61')).toBe('\ufeffa');
    expect(decCode('a161ff01')).toBe('ERR_CBOR_INVALID_UTF8'); // in a key
  });

  it('nesting beyond maxDepth (default 64), on both sides', () => {
    const nest = (n: number): string => '81'.repeat(n) + '00';
    expect(decCode(nest(64))).toBe('ok');
    expect(decCode(nest(65))).toBe('ERR_CBOR_TOO_DEEP');
    expect(decCode(nest(3), { maxDepth: 2 })).toBe('ERR_CBOR_TOO_DEEP');
    expect(decCode(nest(2), { maxDepth: 2 })).toBe('ok');
    expect(decCode('00', { maxDepth: 0 })).toBe('ok');
    expect(decCode('80', { maxDepth: 0 })).toBe('ERR_CBOR_TOO_DEEP');
    expect(decCode('a1' + '00'.repeat(1) + nest(64))).toBe('ERR_CBOR_TOO_DEEP');
    expect(decCode('81'.repeat(100_000))).toBe('ERR_CBOR_TOO_DEEP');
    let deep: CborValue = 0;
    for (let i = 0; i < 64; i++) deep = [deep];
    expect(hexOf(deep)).toBe(nest(64));
    expect(encCode([deep])).toBe('ERR_CBOR_TOO_DEEP');
    expect(outcome(() => encodeCanonical([deep], { maxDepth: 65 }))).toBe('ok');
  });

  it('input longer than maxBytes is refused before it is read', () => {
    expect(decCode('00', { maxBytes: 1 })).toBe('ok');
    expect(decCode('0000', { maxBytes: 1 })).toBe('ERR_CBOR_TOO_LARGE');
    expect(decCode('f6f6', { maxBytes: 1 })).toBe('ERR_CBOR_TOO_LARGE');
    expect(decCode('', { maxBytes: 0 })).toBe('ERR_CBOR_TRUNCATED');
  });

  it('bad arguments are ERR_BAD_ARGUMENT, never a TypeError', () => {
    for (const b of ['00', null, undefined, [0], new ArrayBuffer(1), new Uint16Array(1), { length: 1, 0: 0 }]) {
      expect(outcome(() => decodeCanonical(b as unknown as Uint8Array)), String(b)).toBe('ERR_BAD_ARGUMENT');
    }
    const one = fromHex('00');
    for (const o of [{ maxDepth: -1 }, { maxDepth: 1.5 }, { maxDepth: 10_000 }, { maxBytes: -1 }, { maxBytes: NaN }, { allowTags: [-1] }, { allowTags: '18' }, null, 5]) {
      expect(outcome(() => decodeCanonical(one, o as DecodeOptions)), JSON.stringify(o)).toBe('ERR_BAD_ARGUMENT');
    }
    for (const o of [{ maxDepth: -1 }, null, 'x']) {
      expect(outcome(() => encodeCanonical(1, o as { maxDepth: number })), JSON.stringify(o)).toBe('ERR_BAD_ARGUMENT');
    }
  });
});

describe('decoding: the values it returns', () => {
  it('text and integer keys are found with Map.get', () => {
    const m = dec(hexOf(new Map<CborValue, CborValue>([[1, 'one'], ['grant_id', 'g'], [-5, 'neg']]))) as CborMap;
    expect(m.get('grant_id')).toBe('g');
    expect(m.get(1)).toBe('one');
    expect(m.get(-5)).toBe('neg');
    // any key the encoder can write decodes too; a byte-string or array key is found by iterating, not by Map.get
    const hex = 'a3' + '4101' + '00' + '8101' + '01' + 'a10102' + '02';
    const general = dec(hex) as CborMap;
    expect([...general.keys()].map((k) => toHex(encodeCanonical(k)))).toEqual(['4101', '8101', 'a10102']);
    expect(toHex(encodeCanonical(general))).toBe(hex);
  });

  it('byte strings are fresh copies, not views of the input', () => {
    const input = fromHex('8243010203420405');
    const out = decodeCanonical(input) as Uint8Array[];
    expect(out[0]?.buffer).not.toBe(input.buffer);
    input[2] = 0xff;
    expect(toHex(out[0]!)).toBe('010203');
    expect(out[0]?.byteOffset).toBe(0);
  });

  it('a view into a larger or shared buffer decodes the same', () => {
    const whole = fromHex('ff82016161ff');
    expect(cborEquals(decodeCanonical(whole.subarray(1, 5)), [1, 'a'])).toBe(true);
    const shared = new Uint8Array(new SharedArrayBuffer(4));
    shared.set([0x63, 0x61, 0x62, 0x63]);
    expect(decodeCanonical(shared)).toBe('abc');
  });

  it('cborEquals: integers by value, maps unordered, bytes by content', () => {
    expect(cborEquals(5, 5n)).toBe(true);
    expect(cborEquals(5n, 5)).toBe(true);
    expect(cborEquals(5, '5')).toBe(false);
    expect(cborEquals(new Uint8Array([1]), new Uint8Array([1]))).toBe(true);
    expect(cborEquals(new Uint8Array([1]), [1])).toBe(false);
    expect(cborEquals(new Map<CborValue, CborValue>([[1, 'a'], ['b', 2]]), new Map<CborValue, CborValue>([['b', 2n], [1n, 'a']]))).toBe(true);
    expect(cborEquals(new Map<CborValue, CborValue>([[1, 'a']]), new Map<CborValue, CborValue>([[2, 'a']]))).toBe(false);
    expect(cborEquals(new Map([[new Uint8Array([1]), 1]]), new Map([[new Uint8Array([1]), 1]]))).toBe(true);
    expect(cborEquals(new Map([[new Uint8Array([1]), 1]]), new Map([[new Uint8Array([2]), 1]]))).toBe(false);
    expect(cborEquals(cborTag(1, 2), cborTag(1, 2n))).toBe(true);
    expect(cborEquals(cborTag(1, 2), cborTag(2, 2))).toBe(false);
    expect(cborEquals([1, [2]], [1, [2]])).toBe(true);
    expect(cborEquals([1, [2]], [1, [3]])).toBe(false);
    expect(cborEquals([], new Map())).toBe(false);
  });
});

// ---- properties ----

const U64 = 1n << 64n;
const BOUNDARY_INTS: (number | bigint)[] = [
  0, 23, 24, 255, 256, 65535, 65536, 2 ** 32 - 1, 2 ** 32, Number.MAX_SAFE_INTEGER, -Number.MAX_SAFE_INTEGER,
  -1, -24, -25, -256, -257, -65536, -65537, -(2 ** 32), -(2 ** 32) - 1, 2n ** 53n, -(2n ** 53n), U64 - 1n, -U64,
];

const intArb: fc.Arbitrary<number | bigint> = fc.oneof(
  fc.integer({ min: -30, max: 300 }),
  fc.constantFrom(...BOUNDARY_INTS),
  fc.integer(),
  fc.maxSafeInteger(),
  fc.bigInt({ min: -U64, max: U64 - 1n }),
);
const textArb: fc.Arbitrary<string> = fc.oneof(
  fc.string({ maxLength: 6 }),
  fc.string({ unit: 'binary', maxLength: 6 }),
  fc.string({ unit: 'grapheme', maxLength: 3 }),
  fc.string({ minLength: 20, maxLength: 30 }),
  fc.string({ unit: 'binary', minLength: 90, maxLength: 140 }),
);
const bytesArb: fc.Arbitrary<Uint8Array> = fc.oneof(fc.uint8Array({ maxLength: 8 }), fc.uint8Array({ minLength: 20, maxLength: 300 }));
const keyId = (k: number | bigint | string): string => (typeof k === 'string' ? `s${k}` : `i${BigInt(k)}`);

/** Trees of CborValue: integers (bigints optional), text, bytes, arrays, and maps with text (and optionally int) keys. */
function treeArb(opts: { bigints: boolean; intKeys: boolean }): fc.Arbitrary<CborValue> {
  const ints = opts.bigints ? intArb : fc.oneof(fc.integer({ min: -30, max: 300 }), fc.integer(), fc.maxSafeInteger());
  const text = textArb;
  const bytes = bytesArb;
  const keys: fc.Arbitrary<number | bigint | string> = opts.intKeys ? fc.oneof(ints, text) : text;
  return fc.letrec<{ value: CborValue; array: CborValue[]; map: CborMap }>((tie) => ({
    value: fc.oneof({ depthSize: 'small', maxDepth: 4 }, ints, text, bytes, tie('array'), tie('map')),
    array: fc.array(tie('value'), { maxLength: 5 }),
    map: fc
      .uniqueArray(fc.tuple(keys, tie('value')), { maxLength: 6, selector: ([k]) => keyId(k) })
      .map((es) => new Map<CborValue, CborValue>(es)),
  })).value;
}

const anyTree = treeArb({ bigints: true, intKeys: true });

describe('properties (fast-check, fixed seed)', () => {
  it('(a) decode(encode(x)) equals x for arbitrary trees', () => {
    fc.assert(
      fc.property(anyTree, (x) => {
        expect(cborEquals(decodeCanonical(encodeCanonical(x)), x)).toBe(true);
      }),
      fcParams(300),
    );
  });

  it('(d) junk either decodes to something that re-encodes to the same bytes, or is a JcpError', () => {
    const check = (b: Uint8Array, allowTags?: readonly number[]): void => {
      let v: CborValue;
      try {
        v = decodeCanonical(b, allowTags === undefined ? undefined : { allowTags });
      } catch (e) {
        expect(e, toHex(b)).toBeInstanceOf(JcpError);
        return;
      }
      expect(toHex(encodeCanonical(v, { allowTags: true })), toHex(b)).toBe(toHex(b));
    };
    const headByte = fc.oneof(fc.integer({ min: 0, max: 255 }), fc.constantFrom(0x18, 0x19, 0x1a, 0x1b, 0x5b, 0x7b, 0x9b, 0xbb, 0xa1, 0x81, 0x61, 0xd2, 0xf6, 0xff));
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 40 }), (b) => check(b)),
      fcParams(400),
    );
    fc.assert(
      fc.property(fc.array(headByte, { maxLength: 24 }), fc.boolean(), (xs, tags) => check(Uint8Array.from(xs), tags ? [1, 18, 24] : undefined)),
      fcParams(400),
    );
    fc.assert(
      fc.property(anyTree, fc.nat(), fc.integer({ min: 0, max: 255 }), (x, at, byte) => {
        const b = encodeCanonical(x);
        const m = b.slice();
        m[at % m.length] = byte;
        check(m);
        check(m.subarray(0, at % (m.length + 1)));
      }),
      fcParams(300),
    );
  });

  it('(f) plain-object keys come out in the order an independent sort of their UTF-8 gives', () => {
    const utf8 = new TextEncoder();
    const reference = (a: string, b: string): number => {
      const x = utf8.encode(a);
      const y = utf8.encode(b);
      return x.length - y.length || Buffer.compare(Buffer.from(x), Buffer.from(y));
    };
    const key = fc.oneof(fc.string({ maxLength: 4 }), fc.string({ unit: 'binary', maxLength: 3 }), fc.constantFrom('\uffff', '\ue000', '\u{10000}', '\ud7ff', 'a'));
    fc.assert(
      fc.property(fc.uniqueArray(key, { maxLength: 40 }), (keys) => {
        const o = Object.fromEntries(keys.map((k, i) => [k, i]));
        const expected = Object.keys(o).sort(reference);
        // twice: the second time the encoder may answer from its remembered orders
        for (let round = 0; round < 2; round++) {
          expect([...(decodeCanonical(encodeCanonical(o)) as CborMap).keys()]).toEqual(expected);
        }
      }),
      fcParams(300),
    );
  });

  it('(e) cborg, an independent decoder, reads our encodings to the same values', () => {
    /** One comparable form for our values and cborg's: ints as decimal, bytes as hex, maps as sorted entries. */
    const norm = (v: unknown): unknown => {
      if (typeof v === 'number' || typeof v === 'bigint') return `int:${BigInt(v)}`;
      if (typeof v === 'string') return v;
      if (v instanceof Uint8Array) return { bytes: toHex(v) };
      if (Array.isArray(v)) return v.map(norm);
      const entries = v instanceof Map ? [...(v as Map<unknown, unknown>).entries()] : Object.entries(v as object);
      return { map: entries.map(([k, x]) => [norm(k), norm(x)]).sort((p, q) => (JSON.stringify(p[0]) < JSON.stringify(q[0]) ? -1 : 1)) };
    };
    const tree = treeArb({ bigints: true, intKeys: false });
    fc.assert(
      fc.property(tree, (x) => {
        const b = encodeCanonical(x);
        expect(norm(cborgDecode(b, { useMaps: true, strict: true, allowUndefined: false }))).toEqual(norm(x));
      }),
      fcParams(200),
    );
  });
});
