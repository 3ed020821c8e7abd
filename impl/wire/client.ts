// jcp §11 a jcp/1 client: signs requests as the caller (key from a seed), keeps one connection, pipelines — requests
// go out as they are made and the answers, which the endpoint writes in request order, are matched first in first out.
import { connect, type Socket } from 'node:net';
import { JcpError } from '../errors.ts';
import { defaultEd25519, keyPairFromSeed, type Ed25519, type KeyPair } from '../identity/ed25519.ts';
import { parseWireEndpoint, type WireAddress } from './address.ts';
import {
  decodeWireReply,
  encodeWireRequest,
  frameMessage,
  signWireRequest,
  WIRE_MAX_MESSAGE_BYTES,
  WireFrameReader,
  type UnsignedWireRequest,
  type WireReply,
  type WireRequest,
  type WireResponse,
} from './codec.ts';

/** Options of {@link connectWire}. */
export interface WireClientOptions {
  /** The largest reply body accepted (default {@link WIRE_MAX_MESSAGE_BYTES}). */
  readonly maxMessageBytes?: number;
  readonly backend?: Ed25519;
}

/** A connection to a jcp/1 endpoint. */
export interface WireClient {
  /** Signs `req` as `caller` (a key pair or its 32-byte seed), sends it, and resolves to the response; a refusal rejects with its code. */
  decide(req: UnsignedWireRequest, caller: KeyPair | Uint8Array): Promise<WireResponse>;
  /** Sends an already-signed request; resolves to the response or rejects with the refusal's code. */
  send(req: WireRequest): Promise<WireResponse>;
  /** Sends one raw body (framed here) and resolves to the endpoint's reply, response or refusal, unjudged. */
  sendBody(body: Uint8Array): Promise<WireReply>;
  /** Writes raw bytes, framing included (for tests of framing), and resolves to the next reply. */
  sendRaw(bytes: Uint8Array): Promise<WireReply>;
  /** Writes raw bytes expecting no reply of their own (the rest of a message begun by {@link WireClient.sendRaw}). */
  writeRaw(bytes: Uint8Array): void;
  /** Resolves when the endpoint has closed the connection. */
  readonly closed: Promise<void>;
  close(): Promise<void>;
}

interface Waiter {
  resolve(r: WireReply): void;
  reject(e: Error): void;
}

/** Opens a connection to `endpoint` (tcp://host:port, unix:/path, or an address). */
export function connectWire(endpoint: string | WireAddress, opts: WireClientOptions = {}): Promise<WireClient> {
  const at = typeof endpoint === 'string' ? parseWireEndpoint(endpoint) : endpoint;
  const cap = opts.maxMessageBytes ?? WIRE_MAX_MESSAGE_BYTES;
  const backend = opts.backend ?? defaultEd25519();
  const keys = new Map<string, KeyPair>();
  return new Promise((resolveConnect, rejectConnect) => {
    const socket: Socket = 'path' in at ? connect(at.path) : connect(at.port, at.host);
    socket.setNoDelay?.(true);
    const reader = new WireFrameReader(cap);
    const waiting: Waiter[] = [];
    let failure: Error | undefined;
    let markClosed: () => void = () => {};
    const closed = new Promise<void>((r) => (markClosed = r));

    const fail = (e: Error) => {
      failure ??= e;
      for (const w of waiting.splice(0)) w.reject(failure);
      socket.destroy();
    };
    socket.on('data', (chunk: Buffer) => {
      let bodies: Uint8Array[];
      try {
        bodies = reader.push(new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength).slice());
      } catch (e) {
        fail(e as Error);
        return;
      }
      for (const b of bodies) {
        const w = waiting.shift();
        if (!w) {
          fail(new JcpError('ERR_WIRE_MALFORMED', 'the endpoint sent a reply to no request'));
          return;
        }
        try {
          w.resolve(decodeWireReply(b, cap));
        } catch (e) {
          w.reject(e as Error);
        }
      }
    });
    socket.once('connect', () => {
      socket.off('error', rejectConnect);
      socket.on('error', (e) => fail(e));
      resolveConnect(client);
    });
    socket.once('error', rejectConnect);
    socket.on('close', () => {
      fail(new JcpError('ERR_WIRE_CLOSED', 'the connection to the endpoint closed'));
      markClosed();
    });

    const write = (bytes: Uint8Array): Promise<WireReply> =>
      new Promise((resolve, reject) => {
        if (failure) return reject(failure);
        waiting.push({ resolve, reject });
        socket.write(bytes);
      });
    const judged = async (p: Promise<WireReply>): Promise<WireResponse> => {
      const r = await p;
      if (r.kind === 'refusal') throw new JcpError(r.refusal.error, `the endpoint refused the request: ${r.refusal.message}`);
      return r.response;
    };
    const keyOf = (k: KeyPair | Uint8Array): KeyPair => {
      if (!(k instanceof Uint8Array)) return k;
      const hex = Buffer.from(k).toString('hex');
      let kp = keys.get(hex);
      if (!kp) keys.set(hex, (kp = keyPairFromSeed(k, backend)));
      return kp;
    };

    const client: WireClient = Object.freeze({
      closed,
      send: (req: WireRequest) => judged(write(frameMessage(encodeWireRequest(req), Number.MAX_SAFE_INTEGER))),
      decide: (req: UnsignedWireRequest, caller: KeyPair | Uint8Array) =>
        judged(write(frameMessage(encodeWireRequest(signWireRequest(req, keyOf(caller), backend)), Number.MAX_SAFE_INTEGER))),
      sendBody: (body: Uint8Array) => write(frameMessage(body, Number.MAX_SAFE_INTEGER)),
      sendRaw: (bytes: Uint8Array) => write(bytes),
      writeRaw: (bytes: Uint8Array) => {
        if (!failure) socket.write(bytes);
      },
      close: () =>
        new Promise<void>((r) => {
          if (socket.destroyed) return r();
          socket.end(() => r());
          setTimeout(() => {
            socket.destroy();
            r();
          }, 1000).unref();
        }),
    });
  });
}
