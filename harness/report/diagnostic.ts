// CBOR diagnostic notation (RFC 8949 §8) of raw bytes, for the transcripts of a report. It reads any well-formed CBOR,
// not only det-CBOR: a testee's answer is evidence whatever it holds (floats, simple values, indefinite lengths), and
// bytes that are not well-formed print as far as they go, then a comment saying where and why they stop.

/** Nesting deeper than this is printed as a comment, not followed (a hostile answer must not exhaust the stack). */
const MAX_DEPTH = 256;

class Malformed extends Error {
  constructor(
    readonly at: number,
    why: string,
  ) {
    super(why);
  }
}

const utf8 = new TextDecoder('utf-8', { fatal: true });

function hex(b: Uint8Array): string {
  let s = '';
  for (const x of b) s += x.toString(16).padStart(2, '0');
  return s;
}

/** A float as RFC 8949 §8 writes it: always with a decimal point or exponent, NaN and Infinity by name. */
function float(x: number): string {
  if (Number.isNaN(x)) return 'NaN';
  if (!Number.isFinite(x)) return x > 0 ? 'Infinity' : '-Infinity';
  if (Object.is(x, -0)) return '-0.0';
  const s = String(x);
  if (s.includes('.')) return s;
  const e = s.indexOf('e');
  return e < 0 ? `${s}.0` : `${s.slice(0, e)}.0${s.slice(e)}`;
}

function half(bits: number): number {
  const exp = (bits >> 10) & 0x1f;
  const mant = bits & 0x3ff;
  const v = exp === 0 ? mant * 2 ** -24 : exp === 31 ? (mant === 0 ? Infinity : NaN) : (mant + 1024) * 2 ** (exp - 25);
  return bits & 0x8000 ? -v : v;
}

class Reader {
  private pos = 0;
  constructor(private readonly b: Uint8Array) {}

  get done(): boolean {
    return this.pos >= this.b.length;
  }
  get offset(): number {
    return this.pos;
  }

  private take(n: number): Uint8Array {
    if (this.pos + n > this.b.length) throw new Malformed(this.pos, `truncated: ${n} byte(s) wanted, ${this.b.length - this.pos} left`);
    const out = this.b.subarray(this.pos, this.pos + n);
    this.pos += n;
    return out;
  }

  private uint(n: number): bigint {
    let v = 0n;
    for (const x of this.take(n)) v = (v << 8n) | BigInt(x);
    return v;
  }

  /** The argument of an initial byte; undefined for an indefinite length (info 31). */
  private argument(info: number, start: number): bigint | undefined {
    if (info < 24) return BigInt(info);
    if (info === 24) return this.uint(1);
    if (info === 25) return this.uint(2);
    if (info === 26) return this.uint(4);
    if (info === 27) return this.uint(8);
    if (info === 31) return undefined;
    throw new Malformed(start, `reserved additional information ${info}`);
  }

  private length(v: bigint, start: number): number {
    if (v > BigInt(this.b.length - this.pos)) throw new Malformed(start, `a length of ${v} runs past the end (${this.b.length - this.pos} byte(s) left)`);
    return Number(v);
  }

  /** One data item; `out` collects the text so far, so a malformed item still shows what came before it. */
  item(out: string[], depth: number): void {
    if (depth > MAX_DEPTH) throw new Malformed(this.pos, `nested deeper than ${MAX_DEPTH}`);
    const start = this.pos;
    const ib = this.take(1)[0]!;
    const major = ib >> 5;
    const info = ib & 0x1f;
    if (major === 7) return this.simple(out, info, start);
    const arg = this.argument(info, start);
    switch (major) {
      case 0:
      case 1:
        if (arg === undefined) throw new Malformed(start, 'an integer cannot have an indefinite length');
        out.push(String(major === 0 ? arg : -1n - arg));
        return;
      case 2:
      case 3:
        if (arg !== undefined) return void out.push(this.string(major, this.take(this.length(arg, start))));
        out.push('(_ ');
        for (let first = true; ; first = false) {
          if (this.peekBreak()) break;
          const cs = this.pos;
          const cb = this.take(1)[0]!;
          if (cb >> 5 !== major || (cb & 0x1f) === 31) throw new Malformed(cs, 'an indefinite-length string chunk of another type');
          const n = this.argument(cb & 0x1f, cs)!;
          out.push(`${first ? '' : ', '}${this.string(major, this.take(this.length(n, cs)))}`);
        }
        out.push(')');
        return;
      case 4:
      case 5: {
        const [open, close] = major === 4 ? ['[', ']'] : ['{', '}'];
        out.push(arg === undefined ? `${open}_ ` : open);
        const n = arg === undefined ? Infinity : this.length(arg, start);
        for (let i = 0; i < n; i++) {
          if (arg === undefined && this.peekBreak()) break;
          if (i > 0) out.push(', ');
          this.item(out, depth + 1);
          if (major === 5) {
            out.push(': ');
            this.item(out, depth + 1);
          }
        }
        out.push(close);
        return;
      }
      case 6:
        if (arg === undefined) throw new Malformed(start, 'a tag cannot have an indefinite length');
        out.push(`${arg}(`);
        this.item(out, depth + 1);
        out.push(')');
        return;
    }
  }

  private peekBreak(): boolean {
    if (this.done) throw new Malformed(this.pos, 'truncated: an indefinite-length item has no break');
    if (this.b[this.pos] !== 0xff) return false;
    this.pos++;
    return true;
  }

  private string(major: number, bytes: Uint8Array): string {
    if (major === 2) return `h'${hex(bytes)}'`;
    try {
      return JSON.stringify(utf8.decode(bytes));
    } catch {
      return `h'${hex(bytes)}' / text string that is not UTF-8 /`;
    }
  }

  private simple(out: string[], info: number, start: number): void {
    if (info < 20) return void out.push(`simple(${info})`);
    if (info <= 23) return void out.push(['false', 'true', 'null', 'undefined'][info - 20]!);
    if (info === 24) return void out.push(`simple(${this.take(1)[0]!})`);
    const view = (n: number) => new DataView(this.take(n).slice().buffer);
    if (info === 25) return void out.push(float(half(view(2).getUint16(0))));
    if (info === 26) return void out.push(float(view(4).getFloat32(0)));
    if (info === 27) return void out.push(float(view(8).getFloat64(0)));
    throw new Malformed(start, info === 31 ? 'a break outside an indefinite-length item' : `reserved additional information ${info}`);
  }
}

/**
 * The diagnostic notation of `bytes`: one data item, or several separated by commas when more follow (a CBOR
 * sequence, RFC 8742), as RFC 8949 Appendix A writes them (no encoding indicators: the hex beside it has the bytes).
 * Bytes that are not well-formed CBOR end in a comment `/ not well-formed at byte N: why /` after what could be read.
 */
export function diagnostic(bytes: Uint8Array): string {
  if (bytes.length === 0) return '/ no bytes /';
  const r = new Reader(bytes);
  const items: string[] = [];
  while (!r.done) {
    const out: string[] = [];
    try {
      r.item(out, 0);
      items.push(out.join(''));
    } catch (e) {
      if (!(e instanceof Malformed)) throw e;
      const before = out.join('').trimEnd();
      items.push(`${before}${before ? ' ' : ''}/ not well-formed at byte ${e.at}: ${e.message} /`);
      break;
    }
  }
  return items.join(', ');
}

/** The diagnostic notation of hex text; text that is not hex says so. */
export function diagnosticOfHex(h: string): string {
  if (h.length % 2 !== 0 || !/^[0-9a-fA-F]*$/.test(h)) return '/ not hex /';
  const b = new Uint8Array(h.length / 2);
  for (let i = 0; i < b.length; i++) b[i] = parseInt(h.slice(2 * i, 2 * i + 2), 16);
  return diagnostic(b);
}
