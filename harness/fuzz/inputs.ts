// Fuzz inputs: every input is a function of (seed, target, index) alone, so any finding replays from three numbers.
// An input is a corpus entry changed by one to four mutations (bit flips, interesting bytes, CBOR heads in a longer
// form than canonical, inserted, deleted, duplicated and spliced ranges, cuts), or random CBOR, or random bytes.
import { concatBytes } from '../../impl/bytes.ts';

/** A small, fast generator (mulberry32) over 32-bit state. */
export class Rng {
  private s: number;
  constructor(seed: number) {
    this.s = seed >>> 0;
  }
  /** A uniform 32-bit unsigned integer. */
  u32(): number {
    this.s = (this.s + 0x6d2b79f5) >>> 0;
    let t = this.s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return (t ^ (t >>> 14)) >>> 0;
  }
  /** A uniform integer in [0, n). */
  below(n: number): number {
    return n <= 1 ? 0 : this.u32() % n;
  }
  pick<T>(xs: readonly T[]): T {
    return xs[this.below(xs.length)]!;
  }
  bytes(n: number): Uint8Array {
    const out = new Uint8Array(n);
    for (let i = 0; i < n; i++) out[i] = this.u32() & 0xff;
    return out;
  }
}

/** murmur3's 32-bit finaliser: every input bit reaches every output bit. */
function fmix(h: number): number {
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  return (h ^ (h >>> 16)) >>> 0;
}

/** The generator for input `index` of `target` under `seed`: independent of every other input. */
export function rngFor(seed: number, target: string, index: number): Rng {
  let h = fmix(seed ^ 0x811c9dc5);
  for (let i = 0; i < target.length; i++) h = fmix(h ^ target.charCodeAt(i));
  return new Rng(fmix(h ^ fmix(index + 0x9e3779b9)));
}

const INTERESTING = [0x00, 0x01, 0x17, 0x18, 0x19, 0x1a, 0x1b, 0x1f, 0x3f, 0x40, 0x5f, 0x60, 0x7f, 0x80, 0x9f, 0xa0, 0xbf, 0xc0, 0xd8, 0xf4, 0xf5, 0xf6, 0xf7, 0xf9, 0xfa, 0xfb, 0xff];

/** The same CBOR head written one size longer than canonical (a non-canonical integer or length form). */
function lengthenHead(b: Uint8Array, at: number): Uint8Array {
  const ib = b[at]!;
  const major = ib & 0xe0;
  const info = ib & 0x1f;
  if (major === 0xe0 || info > 0x1a) return b;
  let value: number;
  let width: number;
  if (info < 24) [value, width] = [info, 0];
  else if (info === 24) [value, width] = [b[at + 1] ?? 0, 1];
  else if (info === 25) [value, width] = [((b[at + 1] ?? 0) << 8) | (b[at + 2] ?? 0), 2];
  else [value, width] = [(((b[at + 1] ?? 0) << 24) >>> 0) + ((b[at + 2] ?? 0) << 16) + ((b[at + 3] ?? 0) << 8) + (b[at + 4] ?? 0), 4];
  const nextWidth = width === 0 ? 1 : width * 2;
  const head = new Uint8Array(1 + nextWidth);
  head[0] = major | (nextWidth === 1 ? 24 : nextWidth === 2 ? 25 : nextWidth === 4 ? 26 : 27);
  for (let i = 0; i < nextWidth; i++) head[nextWidth - i] = i < 4 ? Math.floor(value / 2 ** (8 * i)) & 0xff : 0;
  return concatBytes(b.subarray(0, at), head, b.subarray(Math.min(b.length, at + 1 + width)));
}

/** One mutation of `b` (another corpus entry `other` for splicing). */
export function mutate(r: Rng, b: Uint8Array, other: Uint8Array): Uint8Array {
  const at = r.below(b.length + 1);
  switch (r.below(9)) {
    case 0: {
      if (b.length === 0) return r.bytes(1);
      const c = b.slice();
      c[r.below(c.length)]! ^= 1 << r.below(8);
      return c;
    }
    case 1: {
      if (b.length === 0) return Uint8Array.of(r.pick(INTERESTING));
      const c = b.slice();
      c[r.below(c.length)] = r.pick(INTERESTING);
      return c;
    }
    case 2:
      return b.length ? lengthenHead(b, r.below(b.length)) : b;
    case 3:
      return concatBytes(b.subarray(0, at), r.bytes(1 + r.below(8)), b.subarray(at));
    case 4:
      return concatBytes(b.subarray(0, at), b.subarray(Math.min(b.length, at + 1 + r.below(16))));
    case 5: {
      const n = 1 + r.below(Math.max(1, b.length - at));
      return concatBytes(b.subarray(0, at + n), b.subarray(at, at + n), b.subarray(at + n));
    }
    case 6: {
      const from = r.below(other.length + 1);
      return concatBytes(b.subarray(0, at), other.subarray(from, from + 1 + r.below(64)), b.subarray(at));
    }
    case 7:
      return b.subarray(0, at);
    default:
      return concatBytes(b, r.bytes(1 + r.below(4)));
  }
}

/** Random CBOR of depth at most `depth`: heads of every major type, canonical or not, with random lengths. */
export function randomCbor(r: Rng, depth = 3): Uint8Array {
  const major = r.below(8);
  const small = r.below(30);
  const head = (m: number, n: number): Uint8Array => {
    if (n < 24 && r.below(4)) return Uint8Array.of((m << 5) | n);
    return Uint8Array.of((m << 5) | 24, n & 0xff);
  };
  switch (major) {
    case 0:
    case 1:
      return r.below(5) ? head(major, small) : concatBytes(Uint8Array.of((major << 5) | (24 + r.below(4))), r.bytes(8));
    case 2:
    case 3: {
      const n = r.below(12);
      return concatBytes(head(major, n), major === 3 ? new TextEncoder().encode('abcdefghijklmnop'.slice(0, n)) : r.bytes(n));
    }
    case 4:
    case 5: {
      const n = depth > 0 ? r.below(4) : 0;
      const items: Uint8Array[] = [head(major, n)];
      for (let i = 0; i < n * (major === 5 ? 2 : 1); i++) items.push(randomCbor(r, depth - 1));
      return concatBytes(...items);
    }
    case 6:
      return concatBytes(head(6, r.pick([0, 1, 2, 18, 24, 42, 55799])), depth > 0 ? randomCbor(r, depth - 1) : Uint8Array.of(0));
    default:
      return r.below(3) ? Uint8Array.of(r.pick([0xf4, 0xf5, 0xf6, 0xf7, 0xff])) : concatBytes(Uint8Array.of(r.pick([0xf9, 0xfa, 0xfb])), r.bytes(8));
  }
}

/** Input `index` of `target` from `corpus` (non-empty). */
export function inputAt(seed: number, target: string, index: number, corpus: readonly Uint8Array[]): Uint8Array {
  const r = rngFor(seed, target, index);
  const kind = r.below(20);
  if (kind === 0) return r.bytes(r.below(64));
  if (kind === 1) return randomCbor(r, 4);
  let b = r.pick(corpus);
  const n = 1 + r.below(4);
  for (let i = 0; i < n; i++) b = mutate(r, b, r.pick(corpus));
  return b;
}
