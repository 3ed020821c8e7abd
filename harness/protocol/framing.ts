// The testee protocol's framing, as jcp §11 frames the wire: a 4-byte big-endian length, then that many bytes of
// canonical det-CBOR. A reader refuses a frame over its cap and a body that is not canonical.
import { decodeCanonical, encodeCanonical, type CborInput, type CborValue } from '../../impl/cbor/index.ts';
import { JcpError, isJcpError } from '../../impl/errors.ts';

/** The largest frame either side accepts (1 MiB): a grant chain or receipt is a few KiB. */
export const MAX_FRAME_BYTES = 1 << 20;

/** One frame: the length prefix and the canonical encoding of `value`. */
export function encodeFrame(value: CborInput): Uint8Array {
  const body = encodeCanonical(value);
  if (body.length > MAX_FRAME_BYTES) throw new JcpError('ERR_CBOR_TOO_LARGE', `a frame of ${body.length} bytes exceeds the ${MAX_FRAME_BYTES}-byte cap`);
  const out = new Uint8Array(4 + body.length);
  new DataView(out.buffer).setUint32(0, body.length, false);
  out.set(body, 4);
  return out;
}

/** Why a stream of frames stopped making sense. */
export class FramingError extends Error {
  override readonly name = 'FramingError';
  constructor(
    readonly kind: 'oversize' | 'non-canonical',
    message: string,
    readonly cause_code?: string,
  ) {
    super(message);
  }
}

/**
 * Accumulates bytes from a stream and yields whole frames. Throws FramingError on a declared length over `cap` (before
 * buffering it) or on a body that is not canonical CBOR; after that the stream is unusable.
 */
export class FrameReader {
  private buf = new Uint8Array(0);
  constructor(private readonly cap = MAX_FRAME_BYTES) {}

  /** Bytes buffered but not yet a whole frame. */
  get pending(): number {
    return this.buf.length;
  }

  /** Appends `chunk` and returns every frame now complete, decoded. */
  push(chunk: Uint8Array): CborValue[] {
    const merged = new Uint8Array(this.buf.length + chunk.length);
    merged.set(this.buf, 0);
    merged.set(chunk, this.buf.length);
    this.buf = merged;
    const out: CborValue[] = [];
    for (;;) {
      if (this.buf.length < 4) break;
      const len = new DataView(this.buf.buffer, this.buf.byteOffset, 4).getUint32(0, false);
      // jcp §11: "A receiver MUST reject a message longer than its declared cap"
      if (len > this.cap) throw new FramingError('oversize', `a frame declares ${len} bytes, over the ${this.cap}-byte cap`);
      if (this.buf.length < 4 + len) break;
      const body = this.buf.subarray(4, 4 + len);
      try {
        // jcp §11: "MUST reject a non-canonical body"
        out.push(decodeCanonical(body));
      } catch (e) {
        if (isJcpError(e)) throw new FramingError('non-canonical', `a frame body is not canonical det-CBOR: ${e.message}`, e.code);
        throw e;
      }
      this.buf = this.buf.slice(4 + len);
    }
    return out;
  }
}
