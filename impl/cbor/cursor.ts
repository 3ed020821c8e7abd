// jcp §3: the cursor of the one-pass shape readers (impl/receipt/read-receipt.ts, impl/wire/read-request.ts). Each of
// them reads canonical det-CBOR in its one expected shape and accepts only what the strict path (the decoder, then the
// parser) accepts, with the same value. Anything else — a longer head than needed, non-ASCII text, a key out of place,
// a byte past the end — is off the shape: the cursor throws OFF_SHAPE, the reader answers undefined and its caller
// runs the strict path, which names the fault. So no refusal is ever the cursor's.
import { isDidKey } from '../identity/did-key.ts';

/** Thrown by the cursor when the bytes leave the shape being read; the readers catch it and defer to the strict path. */
export const OFF_SHAPE = Symbol('off-shape');

function off(): never {
  throw OFF_SHAPE;
}

/** A text value of a closed set, with its ASCII bytes. */
export interface ShapeText {
  readonly s: string;
  readonly b: Uint8Array;
}

export const asciiBytes = (s: string): Uint8Array => Uint8Array.from(s, (c) => c.charCodeAt(0));

/** The entries of a closed set of ASCII texts, for {@link ShapeCursor.oneOf}. */
export const shapeTexts = (values: readonly string[]): readonly ShapeText[] => Object.freeze(values.map((s) => Object.freeze({ s, b: asciiBytes(s) })));

// Node's native one-byte string maker (a Buffer method that takes any Uint8Array); elsewhere, a TextDecoder. Only
// ever given bytes already checked to be ASCII, for which both give the same text as a UTF-8 decoder.
const nativeAscii = (globalThis as { Buffer?: { prototype: { asciiSlice?: unknown } } }).Buffer?.prototype.asciiSlice as
  | ((this: Uint8Array, start: number, end: number) => string)
  | undefined;
const decoder = new TextDecoder();

// Interned strings of values that repeat across messages, by their bytes: a hit costs a comparison instead of a new
// string, and gives the same string object (whose hash is already known to the caches keyed by it). One table per kind,
// each holding only strings that passed that kind's check.
const SLOTS = 256;

interface Interned {
  readonly bytes: (DataView | undefined)[];
  readonly text: string[];
}

const table = (): Interned => ({ bytes: new Array<DataView | undefined>(SLOTS).fill(undefined), text: new Array<string>(SLOTS).fill('') });
const internedDids = table();
const internedCids = table();
const internedTexts = table();

const EMPTY = new Uint8Array(0);
const EMPTY_VIEW = new DataView(new ArrayBuffer(0));

/**
 * A read position over one input. Not re-entrant: a reader sets it with {@link ShapeCursor.begin}, reads, and calls
 * {@link ShapeCursor.release} before it returns (so the cursor holds no input after).
 */
export class ShapeCursor {
  b: Uint8Array = EMPTY;
  /** A DataView of `b`, for comparing four bytes at a time. */
  dv: DataView = EMPTY_VIEW;
  p = 0;
  /** End of the region being read. */
  end = 0;

  begin(bytes: Uint8Array): void {
    this.b = bytes;
    this.dv = new DataView(bytes.buffer, bytes.byteOffset, bytes.length);
    this.p = 0;
    this.end = bytes.length;
  }

  release(): void {
    this.b = EMPTY;
    this.dv = EMPTY_VIEW;
  }

  /** A text head (major 3) in its shortest form, lengths below 256; returns the length, `p` at the text. */
  textHead(): number {
    if (this.p >= this.end) off();
    const ib = this.b[this.p]!;
    if (ib >= 0x60 && ib < 0x78) {
      this.p++;
      return ib - 0x60;
    }
    if (ib !== 0x78 || this.p + 1 >= this.end) off();
    const n = this.b[this.p + 1]!;
    if (n < 24) off(); // jcp §3 "shortest … length forms"; the strict path names it
    this.p += 2;
    return n;
  }

  /** A byte-string head in its shortest form at `p` (lengths below 2^16); returns the length, `p` at the bytes. */
  bstrHead(): number {
    const b = this.b;
    const p = this.p;
    if (p >= this.end) off();
    const ib = b[p]!;
    if (ib >= 0x40 && ib < 0x58) {
      this.p = p + 1;
      return ib - 0x40;
    }
    if (ib === 0x58 && p + 1 < this.end && b[p + 1]! >= 24) {
      this.p = p + 2;
      return b[p + 1]!;
    }
    if (ib === 0x59 && p + 2 < this.end) {
      const n = (b[p + 1]! << 8) | b[p + 2]!;
      if (n >= 0x100) {
        this.p = p + 3;
        return n;
      }
    }
    return off();
  }

  /** Are `b[at, at + n)` the bytes of `k`? (Short `k`: keys and enumerated values.) */
  same(at: number, n: number, k: Uint8Array): boolean {
    if (n !== k.length) return false;
    const b = this.b;
    for (let i = 0; i < n; i++) if (b[at + i] !== k[i]) return false;
    return true;
  }

  /** Reads the text key `k` (its head and bytes) at `p`, or is off the shape. */
  key(k: Uint8Array): void {
    const n = this.textHead();
    if (this.p + n > this.end || !this.same(this.p, n, k)) off();
    this.p += n;
  }

  /** Are `b[at, at + n)` the bytes `kd` views? Four at a time. */
  sameView(at: number, n: number, kd: DataView): boolean {
    if (n !== kd.byteLength) return false;
    const dv = this.dv;
    let i = 0;
    for (; i + 4 <= n; i += 4) if (dv.getInt32(at + i) !== kd.getInt32(i)) return false;
    for (; i < n; i++) if (dv.getUint8(at + i) !== kd.getUint8(i)) return false;
    return true;
  }

  /** Are `b[a, a + n)` and `b[c, c + n)` the same bytes? Four at a time. */
  sameRanges(a: number, c: number, n: number): boolean {
    const dv = this.dv;
    let i = 0;
    for (; i + 4 <= n; i += 4) if (dv.getInt32(a + i) !== dv.getInt32(c + i)) return false;
    for (; i < n; i++) if (dv.getUint8(a + i) !== dv.getUint8(c + i)) return false;
    return true;
  }

  /** The text of `n` ASCII bytes at `p` (off shape when any byte is not ASCII: the strict path decodes UTF-8). */
  asciiText(n: number): string {
    const at = this.p;
    if (at + n > this.end) off();
    const b = this.b;
    for (let i = 0; i < n; i++) if (b[at + i]! >= 0x80) off();
    this.p = at + n;
    if (n < 16) {
      let s = '';
      for (let i = 0; i < n; i++) s += String.fromCharCode(b[at + i]!);
      return s;
    }
    return nativeAscii !== undefined ? nativeAscii.call(b, at, at + n) : decoder.decode(b.subarray(at, at + n));
  }

  private slot(at: number, n: number): number {
    let h = n;
    const b = this.b;
    // the last bytes differ most between dids (their prefix is shared) and are as good as any in a content id
    for (let i = n > 12 ? n - 12 : 0; i < n; i++) h = (Math.imul(h, 31) + b[at + i]!) | 0;
    return (h ^ (h >>> 9)) & (SLOTS - 1);
  }

  /** The interned string of `b[at, at + n)` in `t`, or undefined. */
  private interned(t: Interned, slot: number, at: number, n: number): string | undefined {
    const hit = t.bytes[slot];
    return hit !== undefined && this.sameView(at, n, hit) ? t.text[slot] : undefined;
  }

  private intern(t: Interned, slot: number, at: number, n: number, s: string): void {
    const copy = this.b.slice(at, at + n);
    t.bytes[slot] = new DataView(copy.buffer);
    t.text[slot] = s;
  }

  /** A content id (a text of 64 lowercase hex digits), as `isContentId` reads it. */
  cid(intern: boolean): string {
    const b = this.b;
    if (this.p + 2 + 64 > this.end || b[this.p] !== 0x78 || b[this.p + 1] !== 64) off();
    this.p += 2;
    const at = this.p;
    const slot = intern ? this.slot(at, 64) : -1;
    if (intern) {
      const hit = this.interned(internedCids, slot, at, 64);
      if (hit !== undefined) {
        this.p += 64;
        return hit;
      }
    }
    for (let i = 0; i < 64; i++) {
      const c = b[at + i]!;
      // jcp §3: "lowercase-hex on the wire"
      if (!((c >= 0x30 && c <= 0x39) || (c >= 0x61 && c <= 0x66))) off();
    }
    const s = this.asciiText(64);
    if (intern) this.intern(internedCids, slot, at, 64, s);
    return s;
  }

  /**
   * The `n`-byte ASCII text at the cursor through table `t`: a hit costs a comparison; a miss is decoded, checked by
   * `accept` (a refusal is left to the strict path) and interned.
   */
  private internedAscii(t: Interned, n: number, accept?: (s: string) => boolean): string {
    const at = this.p;
    if (at + n > this.end) off();
    const slot = this.slot(at, n);
    const hit = this.interned(t, slot, at, n);
    if (hit !== undefined) {
      this.p += n;
      return hit;
    }
    const s = this.asciiText(n);
    if (accept !== undefined && !accept(s)) off();
    this.intern(t, slot, at, n, s);
    return s;
  }

  /** An Ed25519 did:key, as `isDidKey` reads it (a did that is not one is left to the strict path). */
  did(): string {
    return this.internedAscii(internedDids, this.textHead(), isDidKey);
  }

  /** Non-empty ASCII text (other text is left to the strict path's UTF-8 decoding). */
  text(intern: boolean): string {
    const n = this.textHead();
    if (n === 0) off();
    return intern ? this.internedAscii(internedTexts, n) : this.asciiText(n);
  }

  /** One of a closed set of texts: the set's own string. */
  oneOf(set: readonly ShapeText[]): string {
    const n = this.textHead();
    const at = this.p;
    if (at + n > this.end) off();
    for (let i = 0; i < set.length; i++) {
      const e = set[i]!;
      if (this.same(at, n, e.b)) {
        this.p += n;
        return e.s;
      }
    }
    return off();
  }

  private u32(at: number): number {
    const b = this.b;
    return b[at]! * 0x1000000 + ((b[at + 1]! << 16) | (b[at + 2]! << 8) | b[at + 3]!);
  }

  /** An unsigned integer (major 0) in its shortest form, as a bigint. */
  uint(): bigint {
    const b = this.b;
    const end = this.end;
    if (this.p >= end) off();
    const ib = b[this.p]!;
    if (ib < 24) {
      this.p++;
      return BigInt(ib);
    }
    const p = this.p + 1;
    // jcp §3: "shortest integer form" — a longer head than needed is the strict path's ERR_CBOR_NOT_SHORTEST
    if (ib === 24 && p + 1 <= end && b[p]! >= 24) {
      this.p = p + 1;
      return BigInt(b[p]!);
    }
    if (ib === 25 && p + 2 <= end) {
      const v = (b[p]! << 8) | b[p + 1]!;
      if (v >= 0x100) {
        this.p = p + 2;
        return BigInt(v);
      }
    }
    if (ib === 26 && p + 4 <= end) {
      const v = this.u32(p);
      if (v >= 0x10000) {
        this.p = p + 4;
        return BigInt(v);
      }
    }
    if (ib === 27 && p + 8 <= end) {
      const hi = this.u32(p);
      if (hi !== 0) {
        this.p = p + 8;
        return (BigInt(hi) << 32n) | BigInt(this.u32(p + 4));
      }
    }
    return off();
  }
}
