// The byte helpers (impl/bytes.ts) as their doc comments state them, and JcpError as impl/errors.ts states it: the only error type thrown on bad input, with a stable code, a message naming what was wrong and a machine-readable detail.
import { describe, expect, it } from 'vitest';
import { abytes, allocBytes, bytesEqual, fromHex, fromHexLoose } from './bytes.ts';
import { JcpError } from './errors.ts';
import { thrown } from './_test-support.ts';

describe('fromHex', () => {
  it('reads even-length lowercase hex into its bytes', () => {
    expect(fromHex('00ff10a5')).toEqual(new Uint8Array([0x00, 0xff, 0x10, 0xa5]));
    expect(fromHex('')).toEqual(new Uint8Array(0));
  });

  it('refuses anything else with ERR_HEX_MALFORMED, naming the value as "hex" by default', () => {
    for (const bad of ['zz', 'abc', 'AB', '0x00', ' 00', '00 ', 42 as unknown as string, undefined as unknown as string]) {
      const e = thrown(() => fromHex(bad));
      expect(e).toBeInstanceOf(JcpError);
      expect(e.code).toBe('ERR_HEX_MALFORMED');
      expect(e.message).toBe('ERR_HEX_MALFORMED: hex is not even-length lowercase hex');
      expect(e.detail).toEqual({ what: 'hex' });
    }
  });

  it('names the value by the label it is given', () => {
    const e = thrown(() => fromHex('0g', 'kid'));
    expect(e.message).toBe('ERR_HEX_MALFORMED: kid is not even-length lowercase hex');
    expect(e.detail).toEqual({ what: 'kid' });
  });
});

describe('fromHexLoose', () => {
  it('reads hex of either case', () => {
    expect(fromHexLoose('00FFa5Bc')).toEqual(new Uint8Array([0x00, 0xff, 0xa5, 0xbc]));
  });

  it('refuses malformed hex and non-strings with ERR_HEX_MALFORMED (a JcpError, not a TypeError), labelled "hex" by default', () => {
    for (const bad of ['ABC', 'XY', 42 as unknown as string, null as unknown as string]) {
      const e = thrown(() => fromHexLoose(bad));
      expect(e.code).toBe('ERR_HEX_MALFORMED');
      expect(e.message).toBe('ERR_HEX_MALFORMED: hex is not even-length lowercase hex');
      expect(e.detail).toEqual({ what: 'hex' });
    }
    expect(thrown(() => fromHexLoose('Q0', 'vector')).detail).toEqual({ what: 'vector' });
  });
});

describe('bytesEqual', () => {
  it('is true on the same bytes and false on a different byte or length', () => {
    expect(bytesEqual(fromHex('0102'), fromHex('0102'))).toBe(true);
    expect(bytesEqual(fromHex('0102'), fromHex('0103'))).toBe(false);
    expect(bytesEqual(fromHex('0102'), fromHex('010200'))).toBe(false);
  });
});

describe('abytes', () => {
  it('returns the array itself when it has the length asked for', () => {
    const b = new Uint8Array(32);
    expect(abytes(b, 32, 'seed')).toBe(b);
  });

  it('refuses a non-Uint8Array with ERR_BAD_ARGUMENT by default, naming the value and the length wanted', () => {
    const e = thrown(() => abytes([1, 2, 3] as unknown as Uint8Array, 32, 'seed'));
    expect(e.code).toBe('ERR_BAD_ARGUMENT');
    expect(e.message).toBe('ERR_BAD_ARGUMENT: seed must be a Uint8Array of 32 bytes');
    expect(e.detail).toEqual({ what: 'seed' });
  });

  it('refuses a wrong length with the code given, or ERR_BAD_ARGUMENT, saying what it got', () => {
    const e = thrown(() => abytes(new Uint8Array(31), 32, 'public key'));
    expect(e.code).toBe('ERR_BAD_ARGUMENT');
    expect(e.message).toBe('ERR_BAD_ARGUMENT: public key must be 32 bytes, got 31');
    expect(e.detail).toEqual({ what: 'public key', expected: 32, actual: 31 });
    expect(thrown(() => abytes(new Uint8Array(63), 64, 'signature', 'ERR_SIGNATURE_LENGTH')).code).toBe('ERR_SIGNATURE_LENGTH');
    expect(thrown(() => abytes('x' as unknown as Uint8Array, 32, 'seed', 'ERR_SEED_LENGTH')).code).toBe('ERR_SEED_LENGTH');
  });
});

describe('allocBytes', () => {
  /**
   * allocBytes(n) taken right after the not-yet-allocated tail of the Buffer pool was filled with 0xa5 (memory no
   * live array uses): a pooled result that were not zeroed would show it. `dirtied` says whether the result was carved
   * from that pool (a full pool starts a new one, so it tries again).
   */
  function allocOverDirtyPool(n: number): { b: Uint8Array; dirtied: boolean } {
    let b = allocBytes(n);
    for (let i = 0; i < 4; i++) {
      const probe = allocBytes(1);
      new Uint8Array(probe.buffer, probe.byteOffset + 1).fill(0xa5);
      b = allocBytes(n);
      if (b.buffer === probe.buffer) return { b, dirtied: true };
    }
    return { b, dirtied: false };
  }

  it('is n zero bytes at every size, even where the shared pool held other bytes', () => {
    for (const n of [1, 7, 64, 2047, 2048, 2049, 4096, 10_000]) {
      const { b, dirtied } = allocOverDirtyPool(n);
      expect(b).toBeInstanceOf(Uint8Array);
      expect(b.length).toBe(n);
      expect(b.every((x) => x === 0)).toBe(true);
      if (n <= 64) expect(dirtied).toBe(true); // a small one came from the pool that was dirtied
    }
  });

  it('carves a small array from a shared pool, as a plain Uint8Array that overlaps no other', () => {
    const a = allocBytes(32);
    const b = allocBytes(32);
    expect(a.buffer.byteLength).toBeGreaterThan(32);
    expect(Buffer.isBuffer(a)).toBe(false);
    a.fill(1);
    expect(b.every((x) => x === 0)).toBe(true);
    const c = a.slice();
    c[0] = 9;
    expect(a[0]).toBe(1);
  });

  it('still allocates where there is no Buffer: zeroed bytes on an ArrayBuffer of their own', () => {
    const g = globalThis as { Buffer?: unknown };
    const desc = Object.getOwnPropertyDescriptor(globalThis, 'Buffer');
    if (desc === undefined) throw new Error('this test expects Node, which has a global Buffer');
    delete g.Buffer;
    let small: Uint8Array;
    let large: Uint8Array;
    try {
      small = allocBytes(16);
      large = allocBytes(3000);
    } finally {
      Object.defineProperty(globalThis, 'Buffer', desc);
    }
    for (const [b, n] of [[small, 16], [large, 3000]] as const) {
      expect(b.length).toBe(n);
      expect(b.buffer.byteLength).toBe(n);
      expect(b.every((x) => x === 0)).toBe(true);
    }
  });
});

describe('JcpError', () => {
  it('is named JcpError, its message begins with its code, and its detail is a frozen copy', () => {
    const detail = { what: 'x' };
    const e = new JcpError('ERR_BAD_ARGUMENT', 'bad x', detail);
    expect(e).toBeInstanceOf(Error);
    expect(e.name).toBe('JcpError');
    expect(String(e)).toBe('JcpError: ERR_BAD_ARGUMENT: bad x');
    expect(e.code).toBe('ERR_BAD_ARGUMENT');
    expect(e.detail).toEqual({ what: 'x' });
    expect(e.detail).not.toBe(detail);
    expect(Object.isFrozen(e.detail)).toBe(true);
    expect(new JcpError('ERR_BAD_ARGUMENT', 'no detail').detail).toBeUndefined();
  });
});
