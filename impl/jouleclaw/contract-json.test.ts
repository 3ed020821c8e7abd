// Unit tests of the canonical JSON and the boundary field reader (contract-json.ts; jouleclaw §16.1 "BLAKE3 over the
// canonical JSON serialisation", RFC 8785 reading): each refusal's code, the path it names and its detail. The
// accepted canonical forms are covered in contract.test.ts.
import { blake3 as nobleBlake3 } from '@noble/hashes/blake3.js';
import { describe, expect, it } from 'vitest';
import { thrown } from '../_test-support.ts';
import { canonicalJson, canonicalJsonHash, jsonFields } from './contract-json.ts';

const nested = (levels: number): unknown => (levels === 0 ? 0 : [nested(levels - 1)]);

describe('canonicalJson refusals (RFC 8785 reading of jouleclaw §16.1)', () => {
  it('takes a value nested 64 levels deep and refuses 65, naming the path', () => {
    expect(canonicalJson(nested(64))).toBe(`${'['.repeat(64)}0${']'.repeat(64)}`);
    const e = thrown(() => canonicalJson(nested(65)));
    expect(e.code).toBe('ERR_BAD_ARGUMENT');
    expect(e.message).toContain(`: $${'[0]'.repeat(65)}: JSON nested deeper than 64 levels`);
  });

  it('names the array index and the member path of a number with no JSON form', () => {
    expect(thrown(() => canonicalJson([1, Number.NaN])).message).toContain(': $[1]: NaN has no JSON form');
    expect(thrown(() => canonicalJson({ a: { b: Number.POSITIVE_INFINITY } })).message).toContain(': $.a.b: Infinity has no JSON form');
  });

  it('refuses a lone surrogate, saying so', () => {
    expect(thrown(() => canonicalJson('\uDC00')).message).toContain(': $: a string holds a lone surrogate, which RFC 8785 refuses');
  });

  it('refuses an object that is not a plain object and a value of no JSON type, naming its type', () => {
    for (const v of [new Map([['a', 1]]), new Date(0), new Uint8Array(1)]) {
      const e = thrown(() => canonicalJson(v));
      expect(e.code).toBe('ERR_BAD_ARGUMENT');
      expect(e.message).toContain(': $: object is not a JSON value');
    }
    expect(thrown(() => canonicalJson({ n: 1n })).message).toContain(': $.n: bigint is not a JSON value');
  });

  it('canonicalJsonHash is hex BLAKE3 of the canonical text, and refuses with ERR_BAD_ARGUMENT by default', () => {
    const hex = Buffer.from(nobleBlake3(new TextEncoder().encode('{"a":1,"b":[2]}'))).toString('hex');
    expect(canonicalJsonHash({ b: [2], a: 1 })).toBe(hex);
    expect(thrown(() => canonicalJsonHash(Number.NaN)).code).toBe('ERR_BAD_ARGUMENT');
    expect(thrown(() => canonicalJsonHash(Number.NaN, 'ERR_CONTRACT_MALFORMED')).code).toBe('ERR_CONTRACT_MALFORMED');
  });
});

describe('jsonFields, the boundary field reader', () => {
  const M = 'ERR_JC_RECEIPT_MALFORMED' as const;
  const f = (obj: object) => jsonFields(obj, M, 'r');

  it('a missing field, or one holding undefined, names its path with detail.field', () => {
    for (const obj of [{}, { x: undefined }]) {
      const e = thrown(() => f(obj).text('x'));
      expect(e.code).toBe(M);
      expect(e.message).toContain(': r.x is missing');
      expect(e.detail).toEqual({ field: 'x' });
    }
    expect(f({ x: undefined }).optText('x')).toBeUndefined();
  });

  it('an inherited property is not a field', () => {
    expect(thrown(() => f({}).text('toString')).message).toContain(': r.toString is missing');
  });

  it('a field of the wrong type names its path, what it must be, and detail.field', () => {
    const e = thrown(() => f({ x: 1 }).text('x'));
    expect(e.code).toBe(M);
    expect(e.message).toContain(': r.x must be a string');
    expect(e.detail).toEqual({ field: 'x' });
  });

  it('uint takes a non-negative safe integer only', () => {
    expect(f({ n: 0 }).uint('n')).toBe(0);
    for (const n of ['1', 1.5, -1]) expect(thrown(() => f({ n }).uint('n')).message, String(n)).toContain(': r.n must be a non-negative integer');
  });

  it('optUint reads a present field and is undefined for an absent one', () => {
    expect(f({ n: 3 }).optUint('n')).toBe(3);
    expect(f({}).optUint('n')).toBeUndefined();
  });

  it('int takes a negative safe integer and refuses text or a fraction', () => {
    expect(f({ n: -2 }).int('n')).toBe(-2);
    for (const n of ['1', 1.5]) expect(thrown(() => f({ n }).int('n')).message, String(n)).toContain(': r.n must be an integer');
  });

  it('texts takes an array of strings only', () => {
    expect(f({ t: ['a', 'b'] }).texts('t')).toEqual(['a', 'b']);
    for (const t of ['ab', ['a', 1]]) {
      const e = thrown(() => f({ t }).texts('t'));
      expect(e.code).toBe(M);
      expect(e.message).toContain(': r.t must be an array of strings');
    }
  });

  it('array, optArray and object read their type and name it when refused', () => {
    expect(f({ a: [1] }).optArray('a')).toEqual([1]);
    expect(f({}).optArray('a')).toBeUndefined();
    expect(thrown(() => f({ a: {} }).array('a')).message).toContain(': r.a must be an array');
    expect(thrown(() => f({ o: [] }).object('o')).message).toContain(': r.o must be an object');
  });
});
