// Edge cases of impl/cbor's data model and encoder (jcp §3; RFC 8949 §4.2.1): cborTag's argument check, isCborTagged
// and cborEquals on each branch, and the encoder's shortest heads, length fields, key order and refusal paths at the
// boundaries where a head or a buffer changes size. Expected bytes are RFC 8949 encodings worked out by hand.
import { describe, expect, it } from 'vitest';
import { messageOf, thrown } from '../_test-support.ts';
import { toHex } from '../bytes.ts';
import { cborEquals, cborTag, encodeCanonical, isCborTagged, type CborInput, type CborMap, type CborValue } from './index.ts';

const hexOf = (v: CborInput, allowTags = false): string => toHex(encodeCanonical(v, { allowTags }));
const mapOf = (...es: [CborValue, CborValue][]): CborMap => new Map<CborValue, CborValue>(es);

// ---- the data model (value.ts) ----

describe('cborTag and isCborTagged', () => {
  it('tag number 0 is a non-negative safe integer and is accepted (RFC 8949 §3.4: c0)', () => {
    const t = cborTag(0, 1);
    expect(t.tag).toBe(0);
    expect(hexOf(t, true)).toBe('c001');
  });

  it('a refused tag number says why, names the argument and shows the value', () => {
    const e = thrown(() => cborTag(-1, 1));
    expect(e.code).toBe('ERR_BAD_ARGUMENT');
    expect(e.detail).toEqual({ what: 'tag' });
    expect(messageOf(() => cborTag(-1, 1))).toContain('a CBOR tag number must be a non-negative safe integer, got -1');
    expect(messageOf(() => cborTag(1.5, 1))).toContain('got 1.5');
  });

  it('only what cborTag made is a tag: not null, undefined, primitives or a look-alike object', () => {
    expect(isCborTagged(cborTag(18, 1))).toBe(true);
    expect(isCborTagged(null)).toBe(false);
    expect(isCborTagged(undefined)).toBe(false);
    expect(isCborTagged(18)).toBe(false);
    expect(isCborTagged('tag')).toBe(false);
    expect(isCborTagged({ tag: 18, value: 1 })).toBe(false);
    expect(isCborTagged(Object.create(null))).toBe(false);
  });
});

describe('cborEquals on each branch', () => {
  it('text compares by content', () => {
    expect(cborEquals('a', 'a')).toBe(true);
    expect(cborEquals('a', 'b')).toBe(false);
    expect(cborEquals('1', 1)).toBe(false);
  });

  it('arrays of different lengths differ, even when one is a prefix of the other', () => {
    expect(cborEquals([1], [1, 2])).toBe(false);
    expect(cborEquals([1, 2], [1])).toBe(false);
    expect(cborEquals([], [])).toBe(true);
  });

  it('maps of different sizes differ, even when one holds all of the other', () => {
    expect(cborEquals(mapOf([1, 'a']), mapOf([1, 'a'], [2, 'b']))).toBe(false);
    expect(cborEquals(mapOf([1, 'a'], [2, 'b']), mapOf([1, 'a']))).toBe(false);
  });

  it('maps with the same keys differ when a value differs', () => {
    expect(cborEquals(mapOf([1, 'a']), mapOf([1, 'b']))).toBe(false);
    expect(cborEquals(mapOf(['k', [1]]), mapOf(['k', [2]]))).toBe(false);
    expect(cborEquals(mapOf(['k', [1]]), mapOf(['k', [1]]))).toBe(true);
  });

  it('a bigint key finds the same integer held as a number key, and only that one', () => {
    expect(cborEquals(mapOf([1n, 'a']), mapOf([1, 'a']))).toBe(true);
    expect(cborEquals(mapOf([-7n, 'a']), mapOf([-7, 'a']))).toBe(true);
    expect(cborEquals(mapOf([1n, 'a']), mapOf([2, 'a']))).toBe(false);
    expect(cborEquals(mapOf([2n ** 60n, 'a']), mapOf([2n ** 60n, 'a']))).toBe(true);
  });

  it('a look-alike plain object is not a tag, and equals nothing (it is outside the data model)', () => {
    const lookAlike = { tag: 1, value: 2 } as unknown as CborValue;
    expect(cborEquals(lookAlike, cborTag(1, 2))).toBe(false);
    expect(cborEquals(cborTag(1, 2), lookAlike)).toBe(false);
    expect(cborEquals(lookAlike, lookAlike)).toBe(false);
  });
});

// ---- the encoder (encode.ts) ----

const enc = (v: unknown, opts?: { allowTags?: boolean; maxDepth?: number }): Uint8Array => encodeCanonical(v as CborInput, opts);
const hexOpts = (v: unknown, opts: { allowTags?: boolean; maxDepth?: number }): string => toHex(enc(v, opts));
const refusal = (v: unknown, opts?: { allowTags?: boolean; maxDepth?: number }) => thrown(() => enc(v, opts));

describe('encoding: heads at each width boundary (jcp §3 "shortest integer form")', () => {
  it('0n and −1n take the one-byte head', () => {
    expect(hexOf(0n)).toBe('00');
    expect(hexOf(-1n)).toBe('20');
    expect(hexOf(-65536)).toBe('39ffff');
    expect(hexOf(-65537)).toBe('3a00010000');
  });

  it('tag numbers take the shortest head, up to 8 bytes (RFC 8949 §3.4)', () => {
    expect(hexOf(cborTag(23, 0), true)).toBe('d700');
    expect(hexOf(cborTag(24, 0), true)).toBe('d81800');
    expect(hexOf(cborTag(256, 0), true)).toBe('d9010000');
    expect(hexOf(cborTag(65536, 0), true)).toBe('da0001000000');
    expect(hexOf(cborTag(2 ** 32, 0), true)).toBe('db000000010000000000');
    expect(hexOf(cborTag(Number.MAX_SAFE_INTEGER, 0), true)).toBe('db001fffffffffffff00');
  });

  it('byte string lengths at 255, 256 and 65536, with the bytes intact', () => {
    const b = (n: number): Uint8Array => Uint8Array.from({ length: n }, (_, i) => (i * 7) & 0xff);
    expect(hexOf(b(255))).toBe('58ff' + toHex(b(255)));
    expect(hexOf(b(256))).toBe('590100' + toHex(b(256)));
    expect(hexOf(b(65536))).toBe('5a00010000' + toHex(b(65536)));
  });

  it('allowTags must be exactly true', () => {
    expect(thrown(() => encodeCanonical(cborTag(1, 1), { allowTags: 1 as unknown as boolean })).code).toBe('ERR_CBOR_TAG');
    expect(hexOpts(cborTag(1, 1), { allowTags: true })).toBe('c101');
  });
});

describe('encoding: text as UTF-8 (RFC 3629 boundaries)', () => {
  it('each UTF-8 width boundary, alone and after ASCII', () => {
    const cases: [string, string][] = [
      ['\u007f', '617f'],
      ['\u0080', '62c280'],
      ['\u07ff', '62dfbf'],
      ['\u0800', '63e0a080'],
      ['\ud7ff', '63ed9fbf'],
      ['\ue000', '63ee8080'],
      ['\uffff', '63efbfbf'],
      ['\u{10000}', '64f0908080'],
      ['\u{10ffff}', '64f48fbfbf'],
      ['a\u00e9b', '6461c3a962'],
    ];
    for (const [s, hex] of cases) expect(hexOf(s), hex).toBe(hex);
  });

  it('long text (over 96 UTF-16 units) gets the shortest head and the exact bytes', () => {
    expect(hexOf('x'.repeat(97))).toBe('7861' + '78'.repeat(97));
    expect(hexOf('\u00e9'.repeat(97))).toBe('78c2' + 'c3a9'.repeat(97));
    expect(hexOf('x'.repeat(65535)).slice(0, 8)).toBe('79ffff78');
    const big = enc('x'.repeat(65536));
    expect(toHex(big.subarray(0, 6))).toBe('7a0001000078');
    expect(big.length).toBe(5 + 65536);
  });

  it('a lone surrogate is refused with its UTF-16 index, short or long', () => {
    expect(messageOf(() => enc('ab\udc00'))).toContain('text with a lone surrogate at UTF-16 index 2 (not valid Unicode, no UTF-8 form) at $');
    expect(messageOf(() => enc('\ud800\ud800'))).toContain('lone surrogate at UTF-16 index 0');
    expect(messageOf(() => enc('\u00e9\ud800'))).toContain('lone surrogate at UTF-16 index 1');
    expect(messageOf(() => enc('x'.repeat(100) + '\ud800'))).toContain('lone surrogate at UTF-16 index 100');
    expect(refusal('\ud800a').code).toBe('ERR_CBOR_UNENCODABLE');
    expect(refusal('\udfff').code).toBe('ERR_CBOR_UNENCODABLE');
    expect(hexOf('\udbff\udfff')).toBe('64f48fbfbf');
  });
});

describe('encoding: each refusal says what and where', () => {
  it('the message names the value, and detail holds exactly the path', () => {
    const cases: [unknown, string][] = [
      [null, 'null (no nulls in a signed core) at $'],
      [true, 'true (no bools in a signed core) at $'],
      [1.5, '1.5 is not a safe integer (no floats; use a bigint beyond 2^53) at $'],
      [undefined, 'undefined (only a plain-object property may be undefined, and is then omitted) at $'],
      [() => 1, 'a function has no det-CBOR encoding at $'],
      [Symbol('s'), 'a symbol has no det-CBOR encoding at $'],
      [2n ** 64n, '18446744073709551616 is outside −2^64 … 2^64−1 at $'],
      [new Date(0), 'a Date has no det-CBOR encoding (only plain objects and Maps are maps) at $'],
      [{ [Symbol('k')]: 1 }, 'an object with symbol keys (map keys of a plain object are text) at $'],
      [cborTag(18, 1), 'tag 18 (tags are encoded only with allowTags) at $'],
    ];
    for (const [v, msg] of cases) {
      const e = refusal(v);
      expect(e.message, msg).toContain(msg);
      expect(e.detail, msg).toEqual({ path: '$' });
    }
    expect(refusal(cborTag(18, 1)).code).toBe('ERR_CBOR_TAG');
  });

  it('a thrown non-JcpError (from a getter) passes through unchanged, and the next encoding is unharmed', () => {
    const boom = new TypeError('boom');
    const o = {
      a: 1,
      get b(): number {
        throw boom;
      },
    };
    let caught: unknown;
    try {
      enc(o);
    } catch (x) {
      caught = x;
    }
    expect(caught).toBe(boom);
    expect(hexOf([1, 'a'])).toBe('82016161');
  });

  it('text-key path segments: identifiers with a dot, anything else quoted', () => {
    expect(refusal({ a: { _b$: { c1: null } } }).detail).toEqual({ path: '$.a._b$.c1' });
    expect(refusal({ '1a': null }).detail).toEqual({ path: '$["1a"]' });
    expect(refusal({ '': null }).detail).toEqual({ path: '$[""]' });
    expect(refusal({ 'a-b': [0, null] }).detail).toEqual({ path: '$["a-b"][1]' });
  });

  it('Map path segments: text, integers, and key numbers for other keys', () => {
    expect(refusal(new Map([['k', null]])).detail).toEqual({ path: '$.k' });
    expect(refusal(new Map([['a b', null]])).detail).toEqual({ path: '$["a b"]' });
    expect(refusal(new Map([[5n, null]])).detail).toEqual({ path: '$[5]' });
    expect(refusal(new Map([[-3, null]])).detail).toEqual({ path: '$[-3]' });
    expect(refusal(new Map<unknown, unknown>([[1, 1], [new Uint8Array([1]), null]])).detail).toEqual({ path: '$[<key #1>]' });
    // the key itself has no encoding
    expect(refusal(new Map<unknown, unknown>([[1, 1], [null, 2]])).detail).toEqual({ path: '$[<key #1>]' });
    expect(refusal(new Map<unknown, unknown>([[1, 1], [[0.5], 2]])).detail).toEqual({ path: '$[<key #1>][0]' });
  });

  it('duplicate keys are refused at the map, naming the key', () => {
    const adjacent = refusal(new Map<unknown, unknown>([[1, 0], [1n, 0]]));
    expect(adjacent.code).toBe('ERR_CBOR_DUPLICATE_KEY');
    expect(adjacent.message).toContain('duplicate map key 1 at $');
    expect(adjacent.detail).toEqual({ path: '$' });
    expect(refusal({ m: new Map<unknown, unknown>([[1, 0], [1n, 0]]) }).detail).toEqual({ path: '$.m' });
    // found only once the entries are sorted
    const sorted = refusal(new Map<unknown, unknown>([[2, 0], [1, 0], [2n, 0]]));
    expect(sorted.code).toBe('ERR_CBOR_DUPLICATE_KEY');
    expect(sorted.message).toContain('duplicate map key 2 at $');
    expect(sorted.detail).toEqual({ path: '$' });
    const bytes = refusal(new Map<unknown, unknown>([[new Uint8Array([1]), 0], [new Uint8Array([1]), 1]]));
    expect(bytes.message).toContain('duplicate map key <key #1> at $');
    // found once sorted: the later of the two in insertion order is named
    const later = refusal(new Map<unknown, unknown>([[new Uint8Array([2]), 0], [new Uint8Array([1]), 0], [new Uint8Array([2]), 1]]));
    expect(later.message).toContain('duplicate map key <key #2> at $');
    const text = refusal(new Map<unknown, unknown>([['b', 0], [1, 0], ['a', 0], [1n, 0]]));
    expect(text.message).toContain('duplicate map key 1 at $');
  });
});

describe('encoding: maxDepth and cycles', () => {
  it('maxDepth 0 allows only scalars; 1 allows one level; a tag counts as a level', () => {
    expect(hexOpts(1, { maxDepth: 0 })).toBe('01');
    expect(hexOpts('a', { maxDepth: 0 })).toBe('6161');
    expect(hexOpts(new Uint8Array([1]), { maxDepth: 0 })).toBe('4101');
    for (const v of [[], {}, new Map()]) {
      const e = refusal(v, { maxDepth: 0 });
      expect(e.code).toBe('ERR_CBOR_TOO_DEEP');
      expect(e.message).toContain('nesting deeper than maxDepth 0 at $');
      expect(e.detail).toEqual({ path: '$' });
    }
    expect(refusal(cborTag(1, 1), { allowTags: true, maxDepth: 0 }).code).toBe('ERR_CBOR_TOO_DEEP');
    expect(hexOpts([], { maxDepth: 1 })).toBe('80');
    expect(hexOpts(cborTag(1, 1), { allowTags: true, maxDepth: 1 })).toBe('c101');
    expect(refusal([[]], { maxDepth: 1 }).detail).toEqual({ path: '$[0]' });
    expect(refusal({ a: new Map() }, { maxDepth: 1 }).detail).toEqual({ path: '$.a' });
    expect(refusal(cborTag(1, []), { allowTags: true, maxDepth: 1 }).detail).toEqual({ path: '$<tag 1>' });
    expect(hexOpts([[[]]], { maxDepth: 3 })).toBe('818180');
    const e = refusal([[[]]], { maxDepth: 2 });
    expect(e.message).toContain('nesting deeper than maxDepth 2 at $[0][0]');
  });

  it('a cycle is reported as a cyclic reference at the path where it was caught', () => {
    const a: unknown[] = [1];
    a.push(a);
    const ea = refusal(a, { maxDepth: 3 });
    expect(ea.code).toBe('ERR_CBOR_UNENCODABLE');
    expect(ea.message).toContain('a cyclic reference at $[1][1][1] has no encoding');
    expect(ea.detail).toEqual({ path: '$[1][1][1]' });
    const m = new Map<unknown, unknown>();
    m.set('self', m);
    expect(refusal(m, { maxDepth: 2 }).message).toContain('a cyclic reference at $.self.self has no encoding');
    const o: Record<string, unknown> = {};
    o['self'] = o;
    expect(refusal(o, { maxDepth: 2 }).detail).toEqual({ path: '$.self.self' });
    // deep but not cyclic: plain too-deep
    expect(refusal([[[1]]], { maxDepth: 2 }).code).toBe('ERR_CBOR_TOO_DEEP');
  });
});

describe('encoding: buffers and plain-object map heads', () => {
  it('a value several times the working buffer comes out whole, before and after other items', () => {
    const big = Uint8Array.from({ length: 5000 }, (_, i) => (i * 13) & 0xff);
    expect(hexOf(['abc', big, 7])).toBe('83' + '63616263' + '591388' + toHex(big) + '07');
    // the same from inside a getter, which encodes on a buffer of its own
    const o = {
      get a(): string {
        return toHex(encodeCanonical(big)).slice(-8);
      },
      b: 2,
    };
    expect(hexOf(o)).toBe(hexOf({ a: toHex(big).slice(-8), b: 2 }));
  });

  it('the map head counts the properties left after undefined ones are omitted', () => {
    const none: Record<string, undefined> = {};
    for (let i = 0; i < 24; i++) none[`k${i}`] = undefined;
    expect(hexOf(none)).toBe('a0');
    const with256: Record<string, number | undefined> = {};
    const with255: Record<string, number> = {};
    for (let i = 0; i < 256; i++) {
      const k = `k${String(i).padStart(3, '0')}`;
      with256[k] = i;
      if (i !== 7) with255[k] = i;
    }
    expect(hexOf(with256).slice(0, 6)).toBe('b90100');
    with256['k007'] = undefined;
    expect(hexOf(with255).slice(0, 4)).toBe('b8ff');
    expect(hexOf(with256)).toBe(hexOf(with255));
  });
});

describe('encoding: key order at the edges (jcp §3 "length-first then bytewise")', () => {
  it('text keys of equal UTF-8 length compare by code point, across the surrogate range', () => {
    expect(hexOf({ '\u{10400}': 2, '\u{10000}': 1 })).toBe('a2' + '64f090808001' + '64f090908002');
    expect(hexOf({ '\uffff': 1, '\ue000': 2 })).toBe('a2' + '63ee808002' + '63efbfbf01');
    expect(hexOf({ '\ue000': 1, '\ud7ff': 2 })).toBe('a2' + '63ed9fbf02' + '63ee808001');
    expect(hexOf({ '\uffff': 1, '\ud7ff': 2 })).toBe('a2' + '63ed9fbf02' + '63efbfbf01');
    expect(hexOf({ '\u{10000}': 1, '\ue000a': 2 })).toBe('a2' + '64ee80806102' + '64f090808001');
    expect(hexOf({ '\ue000a': 2, '\u{10000}': 1 })).toBe('a2' + '64ee80806102' + '64f090808001');
    expect(hexOf({ '\u{10000}': 1, '\uffffa': 2 })).toBe('a2' + '64efbfbf6102' + '64f090808001');
    expect(hexOf({ '\uffffa': 2, '\u{10000}': 1 })).toBe('a2' + '64efbfbf6102' + '64f090808001');
    // UTF-8 length first: é (2 bytes) after z (1 byte) though both are one UTF-16 unit
    expect(hexOf({ '\u00e9': 1, z: 2 })).toBe('a2' + '617a02' + '62c3a901');
  });

  it('a remembered key order is never reused for a shorter shape that shares its first keys', () => {
    expect(hexOf({ c: 1, b: 2, a: 3 })).toBe('a3' + '616103' + '616202' + '616301');
    expect(hexOf({ c: 1, b: 2 })).toBe('a2' + '616202' + '616301');
    expect(hexOf({ c: 1, b: 2, a: 3 })).toBe('a3' + '616103' + '616202' + '616301');
    expect(hexOf({ c: 1, b: 2, d: 3 })).toBe('a3' + '616202' + '616301' + '616403');
  });

  it('more than 32 unsorted keys, and many shapes in a row, each sort correctly', () => {
    for (let shape = 0; shape < 20; shape++) {
      const o: Record<string, number> = {};
      for (let i = 33 + shape; i > 0; i--) o[`k${i}`] = i;
      const keys = Object.keys(o).sort((x, y) => x.length - y.length || (x < y ? -1 : 1));
      const sorted: Record<string, number> = {};
      for (const k of keys) sorted[k] = o[k]!;
      expect(hexOf(o), String(shape)).toBe(hexOf(sorted));
      expect(hexOf({ z: shape, [`y${shape}`]: 0, x: 1 })).toBe(hexOf({ x: 1, z: shape, [`y${shape}`]: 0 }));
    }
  });

  it('Map entries are reordered with their values, whatever their sizes', () => {
    const m = new Map<unknown, unknown>([
      [3, [1, 2, 3]],
      ['a', 'xyz'],
      [1, new Map([[2, 'q']])],
    ]);
    expect(hexOf(m as CborInput)).toBe('a3' + '01' + 'a1026171' + '03' + '83010203' + '6161' + '6378797a');
    expect(hexOf(new Map([[1, 0], [3, 0], [2, 0]]))).toBe('a3' + '0100' + '0200' + '0300');
  });
});
