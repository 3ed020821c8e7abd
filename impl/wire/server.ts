// jcp §11 the enforcement endpoint of the jcp/1 wire binding over node:net (TCP and Unix sockets): framing with a
// declared cap, strict canonical bodies, the caller's signature verified before deciding, the endpoint's own clock
// with a freshness window, and each request decided once (a repeat gets its first response byte for byte).
import { createServer, type Server, type Socket } from 'node:net';
import { toHex } from '../bytes.ts';
import { JcpError, isJcpError } from '../errors.ts';
import { defaultEd25519, type Ed25519, type KeyPair } from '../identity/ed25519.ts';
import type { DecisionRequest } from '../jcp/decide.ts';
import { createEnforcementPoint, decisionCore, type Decision, type EnforcementPoint, type EnforcementPointOptions } from '../jcp/enforcement-point.ts';
import { grantId } from '../jcp/grant.ts';
import type { Did, Grant } from '../jcp/types.ts';
import { sealReceipt } from '../receipt/seal.ts';
import { formatWireEndpoint, type WireAddress } from './address.ts';
import { createResponseMemo } from './response-memo.ts';
import {
  decodeWireRequest,
  encodeWireRefusal,
  encodeWireResponse,
  frameMessage,
  verifyWireBodySignature,
  WIRE_FRESHNESS_WINDOW_S,
  WIRE_MAX_MESSAGE_BYTES,
  WireFrameReader,
  wireRequestKey,
  type WireRequest,
} from './codec.ts';

/** The three refusals the wire itself seals, beside the decision's own reasons (jcp §11). */
export type WireDenyReason = 'bad-signature' | 'stale-request' | 'unrecorded';

/**
 * What the server needs of the enforcement point behind it. `decideOnce` decides and seals a request the first time its
 * key is presented, stores `encode(decision)`, and returns exactly those bytes for every later presentation without
 * deciding, debiting or recording again (jcp §11 "A request is decided once"). It throws JcpError ERR_WIRE_UNRECORDED,
 * having decided and debited nothing, when it cannot record the request (jcp §11 "A request it cannot record is
 * denied unrecorded"). `sealRefusal` seals a deny the wire decides before the gate (no debit, not remembered). A durable
 * gate (one that survives restart) implements the same interface; {@link createMemoryWireGate} is the in-memory one.
 * The key is blake3 of the request body (32 bytes). The server calls a gate one request at a time per connection;
 * a gate shared by connections must be safe for that. impl/wire/durable-gate.ts adapts impl/durable's point.
 */
export interface WireGate {
  /** The steward that seals this gate's receipts. */
  readonly steward: Did;
  decideOnce(key: Uint8Array, req: DecisionRequest, encode: (d: Decision) => Uint8Array): { readonly response: Uint8Array } | Promise<{ readonly response: Uint8Array }>;
  sealRefusal(req: DecisionRequest, reason: WireDenyReason): Uint8Array | Promise<Uint8Array>;
}

/**
 * Seals a deny decided by the wire (bad-signature, stale-request, unrecorded) over the request's leaf grant, in the
 * same jcp/2 core an enforcement point seals (impl/jcp/enforcement-point.ts), with the leaf's remaining budget.
 */
export function sealWireRefusal(
  req: DecisionRequest,
  reason: WireDenyReason,
  steward: KeyPair,
  remaining: (g: Grant) => bigint,
  backend: Ed25519 = defaultEd25519(),
): Uint8Array {
  const leaf = req.chain[req.chain.length - 1]!.grant;
  const ids = req.chain.map((sg) => grantId(sg.grant));
  const core = decisionCore(req, ids, reason, remaining(leaf), steward.did);
  return sealReceipt(core, steward, backend);
}

/** Options of {@link createMemoryWireGate}. */
export interface MemoryWireGateOptions extends EnforcementPointOptions {
  /** The endpoint's freshness window (default {@link WIRE_FRESHNESS_WINDOW_S}); bounds how long a response is kept. */
  readonly window_s?: bigint;
  /** Records a request before it is decided (jcp §11 "record each request it admits before deciding it"); a throw makes it unrecorded. */
  readonly record?: (key: Uint8Array, req: DecisionRequest) => void;
}

/** An in-memory gate over an enforcement point, for tests and benches: nothing survives the process. */
export interface MemoryWireGate extends WireGate {
  readonly point: EnforcementPoint;
  /** How many responses are remembered now. */
  remembered(): number;
}

/** Creates an in-memory {@link WireGate} over {@link createEnforcementPoint}. */
export function createMemoryWireGate(opts: MemoryWireGateOptions): MemoryWireGate {
  const point = createEnforcementPoint(opts);
  const backend = opts.backend ?? defaultEd25519();
  const window = opts.window_s ?? WIRE_FRESHNESS_WINDOW_S;
  const memo = createResponseMemo();

  return Object.freeze({
    steward: point.steward,
    point,
    remembered: () => memo.size,
    decideOnce(key: Uint8Array, req: DecisionRequest, encode: (d: Decision) => Uint8Array) {
      // A request decided at t carried a stamp no earlier than t − window, so its stamp has left the window by
      // t + 2·window at the latest; any repeat after that is stale at the server before it reaches the gate.
      memo.prune(req.now_s, 2n * window);
      const hex = toHex(key);
      const hit = memo.get(hex);
      // jcp §11: "A request presented again MUST get that same response … and MUST NOT be decided, debited or recorded a second time."
      if (hit) return { response: hit };
      try {
        opts.record?.(key, req);
      } catch (e) {
        // jcp §11: "A request it cannot record is denied unrecorded."
        throw new JcpError('ERR_WIRE_UNRECORDED', `the request could not be recorded: ${e instanceof Error ? e.message : String(e)}`, undefined, { cause: e });
      }
      const response = encode(point.decide(req));
      // jcp §11: "The endpoint MUST remember every request it decided while that request's stamp is inside the window, together with its response."
      memo.set(hex, response, req.now_s);
      return { response };
    },
    sealRefusal: (req: DecisionRequest, reason: WireDenyReason) => sealWireRefusal(req, reason, opts.steward, point.remaining, backend),
  });
}

/**
 * What one connection, and all of them, may hold of the endpoint (WIRE.md "Limits"). None of these is in jcp §11; they
 * keep one client from stalling the rest: work per connection is bounded and taken in turns, and a connection that
 * holds a partial frame or nothing at all is closed after a while.
 */
export interface WireLimits {
  /** Connections held at once; one more is closed as soon as it is accepted. */
  readonly maxConnections: number;
  /** Bodies read and not yet answered on one connection; at this many its socket is paused until half are answered. */
  readonly maxInFlight: number;
  /** Bodies answered on one connection before the others get a turn (the endpoint yields to its event loop). */
  readonly turn: number;
  /** A connection with no bytes either way and nothing in flight for this long is closed (ms). */
  readonly idleMs: number;
  /** A frame begun must be whole within this long, header and body, or the connection is closed (ms). */
  readonly frameDeadlineMs: number;
}

/** The reference's limits. */
export const DEFAULT_WIRE_LIMITS: WireLimits = Object.freeze({ maxConnections: 256, maxInFlight: 64, turn: 16, idleMs: 60_000, frameDeadlineMs: 10_000 });

/** Options of {@link createWireServer}. */
export interface WireServerOptions {
  readonly gate: WireGate;
  /** The endpoint's clock in unix seconds (default: the system clock). jcp §11: "Time is the enforcement point's." */
  readonly now_s?: () => bigint;
  /** The freshness window in seconds (default {@link WIRE_FRESHNESS_WINDOW_S}). */
  readonly window_s?: bigint;
  /** The declared cap on a message body (default {@link WIRE_MAX_MESSAGE_BYTES}). */
  readonly maxMessageBytes?: number;
  /** Limits on connections (default {@link DEFAULT_WIRE_LIMITS}; any left out keeps its default). */
  readonly limits?: Partial<WireLimits>;
  readonly backend?: Ed25519;
}

/** A jcp/1 endpoint: answer one message body, or listen on sockets. */
export interface WireServer {
  /** The declared cap on a message body, in bytes. */
  readonly maxMessageBytes: number;
  readonly window_s: bigint;
  readonly limits: WireLimits;
  /** Connections open now. */
  readonly connections: number;
  /** Answers one request body with one response (or refusal) body. */
  handle(body: Uint8Array): Promise<Uint8Array>;
  /** Listens on a TCP address (port 0 picks one) or a Unix socket path; resolves to the bound address. */
  listen(at: WireAddress): Promise<WireAddress>;
  /** Stops listening and ends every open connection. */
  close(): Promise<void>;
}

const EMPTY = new Uint8Array(0);
const systemClock = (): bigint => BigInt(Math.floor(Date.now() / 1000));

/** How the message of a refusal begins when the endpoint met an error it did not type (a bug, never a verdict). */
export const UNTYPED_REFUSAL_PREFIX = 'the endpoint could not decide the request: ';

/**
 * {@link frameMessage} for an answer about to be written: the same bytes, in memory from node's pool of small buffers
 * (an answer is written once and dropped, so it needs no ArrayBuffer of its own).
 */
function framed(body: Uint8Array): Uint8Array {
  const out = Buffer.allocUnsafe(4 + body.length);
  out.writeUInt32BE(body.length, 0);
  out.set(body, 4);
  return out;
}

function refusal(e: unknown): Uint8Array {
  if (isJcpError(e)) return encodeWireRefusal({ error: e.code, message: e.message });
  return encodeWireRefusal({ error: 'ERR_BAD_ARGUMENT', message: `${UNTYPED_REFUSAL_PREFIX}${e instanceof Error ? e.message : String(e)}` });
}

/** Creates a jcp/1 endpoint over a gate. */
export function createWireServer(opts: WireServerOptions): WireServer {
  const gate = opts.gate;
  const clock = opts.now_s ?? systemClock;
  const window = opts.window_s ?? WIRE_FRESHNESS_WINDOW_S;
  const cap = opts.maxMessageBytes ?? WIRE_MAX_MESSAGE_BYTES;
  const backend = opts.backend ?? defaultEd25519();
  const limits: WireLimits = Object.freeze({ ...DEFAULT_WIRE_LIMITS, ...opts.limits });
  const servers: Server[] = [];
  const sockets = new Set<Socket>();

  const respond = (d: Decision): Uint8Array =>
    encodeWireResponse({ decision: d.verdict === 'deny' ? { verdict: 'deny', deny_reason: d.deny_reason! } : { verdict: 'allow' }, receipt: d.receipt });
  const response = (receipt: Uint8Array, reason: WireDenyReason): Uint8Array => encodeWireResponse({ decision: { verdict: 'deny', deny_reason: reason }, receipt });
  /** A deny the wire seals itself; a gate that fails to seal it gets a refusal instead. */
  function denied(req: DecisionRequest, reason: WireDenyReason): Uint8Array | Promise<Uint8Array> {
    try {
      const sealed = gate.sealRefusal(req, reason);
      return sealed instanceof Promise ? sealed.then((r) => response(r, reason), refusal) : response(sealed, reason);
    } catch (e) {
      return refusal(e);
    }
  }
  /** After the gate threw: jcp §11 "A request it cannot record is denied unrecorded"; anything else is refused. */
  const gateFailed = (req: DecisionRequest, e: unknown): Uint8Array | Promise<Uint8Array> => (isJcpError(e, 'ERR_WIRE_UNRECORDED') ? denied(req, 'unrecorded') : refusal(e));

  /**
   * One request body's answer: a response or a refusal, never a throw. Synchronous where the gate is (the memory
   * gate), so a connection's loop does not wait on a promise for work that is already done.
   */
  function answer(body: Uint8Array): Uint8Array | Promise<Uint8Array> {
    let w: WireRequest;
    try {
      // jcp §11: "MUST reject a non-canonical body" (ERR_WIRE_NON_CANONICAL), and a body that is no WireRequest
      w = decodeWireRequest(body, cap);
    } catch (e) {
      return refusal(e);
    }
    const now = clock();
    // jcp §11: "The endpoint MUST decide at its own clock." / "MUST NOT decide any request as of the time it names"
    const req: DecisionRequest = { frame: w.frame, chain: w.chain, caller: w.caller, cost: w.cost, now_s: now };
    try {
      // jcp §11: "MUST deny a request whose now differs from its clock by more than its freshness window as stale-request"
      const skew = w.now > now ? w.now - now : now - w.now;
      if (skew > window) return denied(req, 'stale-request');
      // jcp §11: "The endpoint MUST verify it before deciding; a request that fails is denied bad-signature and sealed"
      if (!verifyWireBodySignature(body, w, backend)) return denied(req, 'bad-signature');
      const decided = gate.decideOnce(wireRequestKey(body), req, respond);
      if (decided instanceof Promise) return decided.then((d) => d.response, (e: unknown) => gateFailed(req, e));
      return decided.response;
    } catch (e) {
      return gateFailed(req, e);
    }
  }

  const handle = async (body: Uint8Array): Promise<Uint8Array> => answer(body);

  /**
   * One connection. Bodies wait in a queue drained by one loop (answers leave in the order the requests came, so a
   * client may pipeline); at `maxInFlight` queued the socket is paused, which back-pressures the client through TCP;
   * every `turn` answers the loop yields so other connections are served; an answer the client does not read waits
   * for the socket to drain. Idle and partial-frame deadlines close the connection; closing drops what it held.
   */
  function serve(socket: Socket): void {
    sockets.add(socket);
    const reader = new WireFrameReader(cap);
    const queue: Uint8Array[] = [];
    let head = 0;
    let draining = false;
    let paused = false;
    /** A refusal to send, then close: the stream is out of step with its framing. */
    let last: Uint8Array | undefined;
    let frameTimer: NodeJS.Timeout | undefined;
    const clearFrameTimer = () => {
      if (frameTimer) clearTimeout(frameTimer);
      frameTimer = undefined;
    };
    // A frame's deadline runs only while the endpoint is reading: paused for back-pressure, a partial frame waiting in
    // the socket is the endpoint's delay, not the client's, so the clock stops and starts again, whole, on resume.
    const armFrameTimer = () => {
      clearFrameTimer();
      frameTimer = setTimeout(() => socket.destroy(), limits.frameDeadlineMs);
      frameTimer.unref();
    };
    const writable = () =>
      new Promise<void>((resolve) => {
        const done = () => {
          socket.off('drain', done);
          socket.off('close', done);
          resolve();
        };
        socket.on('drain', done);
        socket.on('close', done);
      });
    // Answers made while the loop runs without waiting leave in one write: the socket is corked at the first and
    // uncorked once the current run of work (this tick and the promise jobs it queued) is done, which is before the
    // loop waits on anything (a durable gate's I/O, a drain, its turn), so no answer is held back by waiting.
    let corked = false;
    const flush = (): void => {
      if (!corked) return;
      corked = false;
      socket.uncork();
    };
    const send = (frame: Uint8Array): boolean => {
      if (!corked) {
        corked = true;
        socket.cork();
        process.nextTick(flush);
      }
      return socket.write(frame);
    };
    const drain = async (): Promise<void> => {
      if (draining) return;
      draining = true;
      try {
        let served = 0;
        while (head < queue.length && !socket.destroyed) {
          const body = queue[head]!;
          queue[head++] = EMPTY;
          if (head > 1024 && head * 2 > queue.length) {
            queue.splice(0, head);
            head = 0;
          }
          let out = answer(body);
          if (out instanceof Promise) out = await out;
          if (socket.destroyed) break;
          if (!send(framed(out))) {
            flush();
            await writable();
          }
          if (paused && queue.length - head <= limits.maxInFlight / 2) {
            paused = false;
            socket.resume();
            if (reader.pending > 0) armFrameTimer();
          }
          if (++served % limits.turn === 0) await new Promise<void>((r) => setImmediate(r));
        }
        if (head === queue.length) {
          queue.length = 0;
          head = 0;
        }
        if (last && head === queue.length && !socket.destroyed) socket.end(frameMessage(last, Number.MAX_SAFE_INTEGER));
      } catch {
        socket.destroy();
      } finally {
        draining = false;
      }
    };
    socket.setTimeout(limits.idleMs, () => {
      // idle both ways; a connection whose answers are still being made is not idle
      if (!draining && head === queue.length) socket.destroy();
    });
    socket.on('data', (chunk: Buffer) => {
      if (last) return;
      let bodies: Uint8Array[];
      try {
        bodies = reader.push(new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength));
      } catch (e) {
        // jcp §11: "A receiver MUST reject a message longer than its declared cap" — refused, and the stream, now out
        // of step with its framing, is closed once the answers before it are written
        clearFrameTimer();
        last = refusal(e);
        socket.pause();
        void drain();
        return;
      }
      // the deadline runs from the first byte of a frame to its last: restarted when a new frame begins
      if (reader.pending === 0) clearFrameTimer();
      else if (!paused && (bodies.length > 0 || !frameTimer)) armFrameTimer();
      if (bodies.length === 0) return;
      queue.push(...bodies);
      if (!paused && queue.length - head >= limits.maxInFlight) {
        paused = true;
        socket.pause();
        clearFrameTimer();
      }
      void drain();
    });
    socket.on('error', () => socket.destroy());
    socket.on('close', () => {
      clearFrameTimer();
      queue.length = 0;
      head = 0;
      sockets.delete(socket);
    });
  }

  return Object.freeze({
    maxMessageBytes: cap,
    window_s: window,
    limits,
    get connections() {
      return sockets.size;
    },
    handle,
    listen(at: WireAddress): Promise<WireAddress> {
      return new Promise((resolve, reject) => {
        const s = createServer(serve);
        // one more connection than the cap is closed by node:net as soon as it is accepted
        s.maxConnections = limits.maxConnections;
        s.once('error', reject);
        const done = () => {
          servers.push(s);
          const a = s.address();
          if (typeof a === 'string') resolve({ path: a });
          else if (a) resolve({ host: a.address, port: a.port });
          else reject(new JcpError('ERR_BAD_ARGUMENT', `the server at ${formatWireEndpoint(at)} has no address`));
        };
        if ('path' in at) s.listen(at.path, done);
        else s.listen(at.port, at.host, done);
      });
    },
    async close(): Promise<void> {
      for (const so of sockets) so.destroy();
      await Promise.all(servers.splice(0).map((s) => new Promise<void>((r) => s.close(() => r()))));
    },
  });
}
