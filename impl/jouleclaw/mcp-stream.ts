// jouleclaw §5.1 on a byte stream: a Transport of the official MCP SDK (its own interface, the SDK unmodified) that
// carries standard MCP JSON-RPC until the handshake is done and then the encoding it negotiated. "When both sides
// advertise x-jouleclaw/joule-mcp@1, the wire encoding is length-prefixed CBOR. When either side does not advertise,
// the encoding MUST fall back to standard MCP JSON-RPC."
//
// Readings taken (as in mcp.ts): the tag rides in capabilities.experimental of initialize (the client's) and of its
// result (the server's); the handshake itself is JSON-RPC, and the negotiated encoding holds for every frame after the
// initialize result, both ways. A JSON-RPC frame is one message of JSON text and a newline (the MCP stdio transport's
// framing); a CBOR frame is a 4-byte big-endian length, then the message as CBOR (encodeMcpFrame). Each side learns its
// own advertisement from the capabilities the SDK writes into the handshake, never from an option of its own, so the
// transport negotiates exactly what the SDK Client and Server above it offered.
import type { Readable, Writable } from 'node:stream';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { JcpError } from '../errors.ts';
import { advertisesJouleMcp, decodeJsonRpcFrame, decodeMcpCborBody, encodeMcpFrame, negotiateEncoding, type McpEncoding } from './mcp.ts';

/** Which end of the session the transport serves: the one that sends initialize, or the one that answers it. */
export type McpSide = 'client' | 'server';

/** A frame as it crossed the stream, for a caller that watches the wire (tests, logs). */
export interface McpWireFrame {
  readonly direction: 'sent' | 'received';
  readonly encoding: McpEncoding;
  readonly bytes: Uint8Array;
}

/** The largest CBOR frame body or JSON-RPC line accepted (a longer one is an error, and the transport closes). */
export const MCP_MAX_FRAME_BYTES = 16 * 1024 * 1024;

const NEWLINE = 0x0a;

export class JouleMcpStreamTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: <T extends JSONRPCMessage>(message: T) => void;

  readonly #in: Readable;
  readonly #out: Writable;
  readonly #side: McpSide;
  readonly #watch: ((f: McpWireFrame) => void) | undefined;
  /** The encoding of frames in each direction; both start as JSON-RPC (the handshake). */
  #sendEncoding: McpEncoding = 'json-rpc';
  #receiveEncoding: McpEncoding = 'json-rpc';
  /** Whether this side advertised, once the initialize it sent (client) or the result it sent (server) showed it. */
  #ownAdvert: boolean | undefined;
  /** What the client advertised in initialize, as the server read it. */
  #peerAdvert: boolean | undefined;
  /** The id of the initialize request, while its result is awaited. */
  #initializeId: string | number | undefined;
  #buffer = new Uint8Array(0);
  #closed = false;

  constructor(input: Readable, output: Writable, side: McpSide, watch?: (f: McpWireFrame) => void) {
    this.#in = input;
    this.#out = output;
    this.#side = side;
    this.#watch = watch;
  }

  /** The encoding in force for the frames this side sends now. */
  get encoding(): McpEncoding {
    return this.#sendEncoding;
  }

  async start(): Promise<void> {
    this.#in.on('data', this.#onData);
    this.#in.on('end', this.#onEnd);
    this.#in.on('error', this.#onStreamError);
  }

  async send(message: JSONRPCMessage): Promise<void> {
    if (this.#closed) throw new JcpError('ERR_BAD_ARGUMENT', 'the MCP transport is closed');
    const m = message as Record<string, unknown>;
    const encoding = this.#sendEncoding;
    const frame = encodeMcpFrame(message, encoding);
    const bytes = encoding === 'json-rpc' ? withNewline(frame) : frame;
    // what the handshake decides is settled before the frame leaves, so no answer to it can arrive first
    if (this.#side === 'client' && m['method'] === 'initialize') {
      this.#ownAdvert = advertisesJouleMcp((m['params'] as { capabilities?: unknown } | undefined)?.capabilities);
      this.#initializeId = m['id'] as string | number;
    } else if (this.#side === 'server' && this.#initializeId !== undefined && m['id'] === this.#initializeId && m['method'] === undefined) {
      // the server's side of the handshake ends with the result it sends (itself JSON-RPC): what it and the client
      // offered decides every frame after it
      const ownAdvert = advertisesJouleMcp((m['result'] as { capabilities?: unknown } | undefined)?.capabilities);
      this.#settle(negotiateEncoding(ownAdvert, this.#peerAdvert ?? false));
    }
    this.#watch?.({ direction: 'sent', encoding, bytes });
    await new Promise<void>((resolve, reject) => this.#out.write(bytes, (e) => (e ? reject(e) : resolve())));
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    this.#in.off('data', this.#onData);
    this.#in.off('end', this.#onEnd);
    this.#in.off('error', this.#onStreamError);
    this.#out.end();
    this.onclose?.();
  }

  #settle(encoding: McpEncoding): void {
    this.#sendEncoding = encoding;
    this.#receiveEncoding = encoding;
    this.#initializeId = undefined;
  }

  readonly #onEnd = (): void => void this.close();
  readonly #onStreamError = (e: Error): void => this.onerror?.(e);

  readonly #onData = (chunk: Buffer | string): void => {
    const add = typeof chunk === 'string' ? new TextEncoder().encode(chunk) : new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength);
    const joined = new Uint8Array(this.#buffer.length + add.length);
    joined.set(this.#buffer);
    joined.set(add, this.#buffer.length);
    this.#buffer = joined;
    try {
      for (let frame = this.#nextFrame(); frame !== undefined && !this.#closed; frame = this.#nextFrame()) this.#deliver(frame);
    } catch (e) {
      // a stream out of step with its framing cannot be read further
      this.onerror?.(e instanceof Error ? e : new Error(String(e)));
      void this.close();
    }
  };

  /** The next whole frame of the buffer in the encoding in force for received frames, or undefined. */
  #nextFrame(): { readonly encoding: McpEncoding; readonly bytes: Uint8Array; readonly body: Uint8Array } | undefined {
    const b = this.#buffer;
    if (this.#receiveEncoding === 'json-rpc') {
      const nl = b.indexOf(NEWLINE);
      if (nl < 0) {
        if (b.length > MCP_MAX_FRAME_BYTES) throw new JcpError('ERR_BAD_ARGUMENT', `a JSON-RPC line is longer than ${MCP_MAX_FRAME_BYTES} bytes`);
        return undefined;
      }
      this.#buffer = b.slice(nl + 1);
      return { encoding: 'json-rpc', bytes: b.slice(0, nl + 1), body: b.subarray(0, nl) };
    }
    if (b.length < 4) return undefined;
    const n = new DataView(b.buffer, b.byteOffset, 4).getUint32(0);
    if (n > MCP_MAX_FRAME_BYTES) throw new JcpError('ERR_BAD_ARGUMENT', `a CBOR frame declares ${n} bytes, more than ${MCP_MAX_FRAME_BYTES}`);
    if (b.length < 4 + n) return undefined;
    this.#buffer = b.slice(4 + n);
    return { encoding: 'cbor', bytes: b.slice(0, 4 + n), body: b.subarray(4, 4 + n) };
  }

  #deliver(frame: { readonly encoding: McpEncoding; readonly bytes: Uint8Array; readonly body: Uint8Array }): void {
    const m = frame.encoding === 'json-rpc' ? decodeJsonRpcFrame(frame.body) : (decodeMcpCborBody(frame.body) as Record<string, unknown>);
    if (frame.encoding === 'cbor' && (m === null || typeof m !== 'object' || Array.isArray(m) || m['jsonrpc'] !== '2.0')) {
      throw new JcpError('ERR_BAD_ARGUMENT', 'a CBOR frame does not carry a JSON-RPC 2.0 message object');
    }
    this.#watch?.({ direction: 'received', encoding: frame.encoding, bytes: frame.bytes });
    if (this.#side === 'server' && m['method'] === 'initialize') {
      this.#peerAdvert = advertisesJouleMcp((m['params'] as { capabilities?: unknown } | undefined)?.capabilities);
      this.#initializeId = m['id'] as string | number;
    } else if (this.#side === 'client' && this.#initializeId !== undefined && m['id'] === this.#initializeId && m['method'] === undefined) {
      // the client's side of the handshake ends with the result it received: every frame after it, both ways, is in
      // the negotiated encoding
      this.#settle(negotiateEncoding(this.#ownAdvert ?? false, advertisesJouleMcp((m['result'] as { capabilities?: unknown } | undefined)?.capabilities)));
    }
    this.onmessage?.(m as unknown as JSONRPCMessage);
  }
}

function withNewline(frame: Uint8Array): Uint8Array {
  const out = new Uint8Array(frame.length + 1);
  out.set(frame);
  out[frame.length] = NEWLINE;
  return out;
}
