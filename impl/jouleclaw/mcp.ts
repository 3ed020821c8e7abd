// jouleclaw §5 the MCP tool surface and §5.1 the joule-mcp profile, over the official MCP SDK
// (@modelcontextprotocol/sdk, unmodified; run on the worker of semantic/sync.ts because its API is Promise-only).
//  - §5 "Every MCP tool call MUST be wrapped in jouleclaw-mcp::dispatch_metered, which brackets the call with energy
//    counter reads and pushes a ToolTouch entry onto the running receipt's tools_touched ledger": dispatchMetered.
//  - §5.1 "When either side does not advertise, the encoding MUST fall back to standard MCP JSON-RPC": the capability
//    tag x-jouleclaw/joule-mcp@1 is advertised in the SDK's own handshake field for extensions,
//    capabilities.experimental (initialize's clientCapabilities / the result's serverCapabilities); negotiateEncoding.
//
// Readings taken (the suite's choices where §5 / §5.1 are silent):
//  - A ToolTouch's joules_uj is the counter's advance across the call (second read minus first); its provenance is the
//    worse of the two reads'; tool_id is "mcp:<tool name>". A counter that runs backwards is ERR_ENERGY_MALFORMED.
//  - The handshake itself (initialize and its result) is always JSON-RPC; the encoding negotiated there applies to every
//    frame after the initialize result. A CBOR frame is a 4-byte big-endian length, then the message as CBOR (RFC 8949;
//    JSON's true/false/null as simple values, non-integers as float64) — §5.1 says "length-prefixed CBOR" and no more.
import { JcpError } from '../errors.ts';
import type { Provenance } from '../energy/cost.ts';
import { provenanceFloor } from '../energy/energy.ts';
import type { ToolTouch } from './receipt.ts';
import { runSync } from './semantic/sync.ts';

/** jouleclaw §5.1 the capability tag. */
export const JOULE_MCP_TAG = 'x-jouleclaw/joule-mcp@1';
/** The wire encoding of an MCP session. */
export type McpEncoding = 'cbor' | 'json-rpc';

/** Whether MCP capabilities (client or server) advertise the joule-mcp profile. */
export function advertisesJouleMcp(capabilities: unknown): boolean {
  const exp = (capabilities as { experimental?: Record<string, unknown> } | null | undefined)?.experimental;
  return exp !== undefined && exp !== null && typeof exp === 'object' && Object.hasOwn(exp, JOULE_MCP_TAG);
}

/** The capabilities an endpoint offers: tools, and the joule-mcp tag when it advertises. */
export function jouleMcpCapabilities(advertise: boolean): Record<string, unknown> {
  return { tools: {}, ...(advertise ? { experimental: { [JOULE_MCP_TAG]: {} } } : {}) };
}

/** jouleclaw §5.1: CBOR only when both sides advertise; otherwise standard MCP JSON-RPC. */
export function negotiateEncoding(local: boolean, peer: boolean): McpEncoding {
  return local && peer ? 'cbor' : 'json-rpc';
}

// ---- frames ----
const utf8 = new TextEncoder();
const utf8d = new TextDecoder('utf-8', { fatal: true });

function cborHead(major: number, n: number, out: number[]): void {
  if (n < 24) out.push((major << 5) | n);
  else if (n < 0x100) out.push((major << 5) | 24, n);
  else if (n < 0x10000) out.push((major << 5) | 25, n >> 8, n & 0xff);
  else if (n < 0x100000000) out.push((major << 5) | 26, (n >>> 24) & 0xff, (n >>> 16) & 0xff, (n >>> 8) & 0xff, n & 0xff);
  else {
    const b = new DataView(new ArrayBuffer(8));
    b.setBigUint64(0, BigInt(n));
    out.push((major << 5) | 27, ...new Uint8Array(b.buffer));
  }
}

function cborValue(v: unknown, out: number[]): void {
  if (v === null || v === undefined) out.push(0xf6);
  else if (v === true) out.push(0xf5);
  else if (v === false) out.push(0xf4);
  else if (typeof v === 'number' && Number.isSafeInteger(v)) cborHead(v >= 0 ? 0 : 1, v >= 0 ? v : -1 - v, out);
  else if (typeof v === 'number') {
    const b = new DataView(new ArrayBuffer(8));
    b.setFloat64(0, v);
    out.push(0xfb, ...new Uint8Array(b.buffer));
  } else if (typeof v === 'string') {
    const s = utf8.encode(v);
    cborHead(3, s.length, out);
    for (const x of s) out.push(x);
  } else if (Array.isArray(v)) {
    cborHead(4, v.length, out);
    for (const x of v) cborValue(x, out);
  } else if (typeof v === 'object') {
    const e = Object.entries(v as Record<string, unknown>).filter(([, x]) => x !== undefined);
    cborHead(5, e.length, out);
    for (const [k, x] of e) {
      cborValue(k, out);
      cborValue(x, out);
    }
  } else throw new JcpError('ERR_BAD_ARGUMENT', `an MCP message holds a ${typeof v}, which has no CBOR form here`);
}

/** One MCP message as a frame of `encoding`: JSON-RPC text, or a 4-byte big-endian length then CBOR. */
export function encodeMcpFrame(message: unknown, encoding: McpEncoding): Uint8Array {
  if (encoding === 'json-rpc') return utf8.encode(JSON.stringify(message));
  const body: number[] = [];
  cborValue(message, body);
  const out = new Uint8Array(4 + body.length);
  new DataView(out.buffer).setUint32(0, body.length);
  out.set(body, 4);
  return out;
}

/** RFC 8949 Appendix D: the value of a half-precision float's 16 bits. */
function half(h: number): number {
  const exp = (h >> 10) & 0x1f;
  const mant = h & 0x3ff;
  const v = exp === 0 ? mant * 2 ** -24 : exp !== 31 ? (mant + 1024) * 2 ** (exp - 25) : mant === 0 ? Infinity : NaN;
  return h & 0x8000 ? -v : v;
}

/**
 * The body of a CBOR frame (the bytes after its length) read back as the JSON value it carries: the JSON data model in
 * CBOR (RFC 8949 §6.1: unsigned and negative integers, text, arrays, maps with text keys, true, false, null, and
 * floats of 16, 32 or 64 bits), definite lengths only. Anything else — a byte string, a tag, an indefinite length, a
 * key that is not text, a value past the end, bytes after it — is ERR_BAD_ARGUMENT.
 */
export function decodeMcpCborBody(body: Uint8Array): unknown {
  const view = new DataView(body.buffer, body.byteOffset, body.byteLength);
  let at = 0;
  const bad = (what: string): never => {
    throw new JcpError('ERR_BAD_ARGUMENT', `the CBOR frame ${what} at byte ${at}`);
  };
  const need = (n: number): void => {
    if (at + n > body.length) bad('ends early');
  };
  const argument = (info: number): number => {
    if (info < 24) return info;
    const size = info === 24 ? 1 : info === 25 ? 2 : info === 26 ? 4 : info === 27 ? 8 : 0;
    if (size === 0) bad(`has an indefinite or reserved length (${info})`);
    need(size);
    const n = size === 1 ? view.getUint8(at) : size === 2 ? view.getUint16(at) : size === 4 ? view.getUint32(at) : Number(view.getBigUint64(at));
    if (!Number.isSafeInteger(n)) bad('has an integer beyond 2^53');
    at += size;
    return n;
  };
  const item = (depth: number): unknown => {
    if (depth > 64) bad('nests deeper than 64');
    need(1);
    const initial = view.getUint8(at++);
    const major = initial >> 5;
    const info = initial & 0x1f;
    if (major === 7) {
      if (info === 20) return false;
      if (info === 21) return true;
      if (info === 22) return null;
      const size = info === 25 ? 2 : info === 26 ? 4 : info === 27 ? 8 : 0;
      if (size === 0) bad(`holds the simple value ${info}, which JSON has not`);
      need(size);
      const f = size === 2 ? half(view.getUint16(at)) : size === 4 ? view.getFloat32(at) : view.getFloat64(at);
      at += size;
      return f;
    }
    const n = argument(info);
    switch (major) {
      case 0:
        return n;
      case 1:
        return -1 - n;
      case 3: {
        need(n);
        const s = body.subarray(at, at + n);
        at += n;
        try {
          return utf8d.decode(s);
        } catch {
          return bad('holds text that is not UTF-8');
        }
      }
      case 4:
        return Array.from({ length: n }, () => item(depth + 1));
      case 5: {
        const o: Record<string, unknown> = {};
        for (let i = 0; i < n; i++) {
          const k = item(depth + 1);
          if (typeof k !== 'string') bad('has a map key that is not text');
          if (Object.hasOwn(o, k as string)) bad(`repeats the key ${JSON.stringify(k)}`);
          Object.defineProperty(o, k as string, { value: item(depth + 1), enumerable: true, writable: true, configurable: true });
        }
        return o;
      }
      default:
        return bad(major === 2 ? 'holds a byte string' : 'holds a tag');
    }
  };
  const v = item(0);
  if (at !== body.length) bad('has bytes after its value');
  return v;
}

/** A JSON-RPC frame read back; a CBOR frame is not read here (this side only receives JSON-RPC in this suite). */
export function decodeJsonRpcFrame(frame: Uint8Array): Record<string, unknown> {
  let m: unknown;
  try {
    m = JSON.parse(utf8d.decode(frame));
  } catch (e) {
    throw new JcpError('ERR_BAD_ARGUMENT', `the frame is not a JSON-RPC message: ${(e as Error).message}`);
  }
  if (m === null || typeof m !== 'object' || Array.isArray(m) || (m as { jsonrpc?: unknown }).jsonrpc !== '2.0') {
    throw new JcpError('ERR_BAD_ARGUMENT', 'the frame is not a JSON-RPC 2.0 message object');
  }
  return m as Record<string, unknown>;
}

/** jouleclaw §5.1, the serving side: an unmodified SDK Server; frames in, frames out, the encoding negotiated in the handshake. */
export class McpServerSession {
  readonly #session: string;
  readonly #advertise: boolean;
  #encoding: McpEncoding = 'json-rpc';

  constructor(advertise: boolean, tools: readonly string[]) {
    this.#advertise = advertise;
    this.#session = runSync<string>('mcpServerOpen', { tools: [...tools], capabilities: jouleMcpCapabilities(advertise) });
  }

  get encoding(): McpEncoding {
    return this.#encoding;
  }

  /** Delivers one frame from the client; answers the frames the server sent back, in the encoding then in force. */
  frame(bytes: Uint8Array): Uint8Array[] {
    const message = decodeJsonRpcFrame(bytes);
    const r = runSync<{ sent: unknown[]; clientCapabilities: unknown }>('mcpServerMessage', { session: this.#session, message });
    const frames = r.sent.map((m) => encodeMcpFrame(m, this.#encoding));
    // the handshake is JSON-RPC; what it negotiated holds from the next frame on
    if (message['method'] === 'initialize') this.#encoding = negotiateEncoding(this.#advertise, advertisesJouleMcp(r.clientCapabilities));
    return frames;
  }
}

// ---- §5 dispatch_metered ----

/** An energy counter: each read gives its cumulative µJ and the provenance of that reading. */
export interface EnergyCounter {
  read(): { readonly uj: number; readonly provenance: Provenance };
}

/**
 * jouleclaw §5 dispatch_metered: reads the counter, makes the call, reads the counter again and pushes the ToolTouch of
 * the difference onto `ledger` (the running receipt's tools_touched). Answers the call's result.
 */
export function dispatchMetered<T>(ledger: ToolTouch[], counter: EnergyCounter, toolId: string, call: () => T): T {
  const before = counter.read();
  const result = call();
  const after = counter.read();
  if (after.uj < before.uj) throw new JcpError('ERR_ENERGY_MALFORMED', `the energy counter ran backwards across ${toolId} (${before.uj} then ${after.uj})`);
  ledger.push(Object.freeze({ tool_id: toolId, joules_uj: after.uj - before.uj, energy_provenance: provenanceFloor(before.provenance, after.provenance) }));
  return result;
}

/** An SDK Client connected to an echo server offering `tools`: the runtime's side of §5. */
export class McpClientSession {
  readonly #session: string;

  constructor(tools: readonly string[]) {
    this.#session = runSync<string>('mcpClientOpen', { tools: [...tools] });
  }

  /** One tools/call through the SDK Client (not metered: see {@link meteredCall}). */
  callTool(name: string, args: Record<string, unknown>): { isError: boolean; text: string } {
    return runSync('mcpClientCall', { session: this.#session, name, args });
  }

  /** jouleclaw §5: every tool call of the runtime goes through dispatchMetered. */
  meteredCall(ledger: ToolTouch[], counter: EnergyCounter, name: string, args: Record<string, unknown>): { isError: boolean; text: string } {
    return dispatchMetered(ledger, counter, `mcp:${name}`, () => this.callTool(name, args));
  }
}

/** One step of a metered run, in the order it happened: a counter read, or a tool call made. */
export type MeterStep = { readonly read: number } | { readonly call: string };

/**
 * Runs `calls` through an SDK Client against echo tools, each through dispatchMetered, the counter answering `readings`
 * in turn (a read past the last is ERR_BAD_ARGUMENT). Answers the ledger, the tools' outputs and the steps in order.
 */
export function meteredRun(
  tools: readonly string[],
  calls: readonly { readonly tool: string; readonly args: Record<string, unknown> }[],
  readings: readonly number[],
  provenance: Provenance,
): { tools_touched: ToolTouch[]; outputs: string[]; trace: MeterStep[] } {
  const trace: MeterStep[] = [];
  let next = 0;
  const counter: EnergyCounter = {
    read() {
      const uj = readings[next++];
      if (uj === undefined) throw new JcpError('ERR_BAD_ARGUMENT', `the counter was read ${next} times but only ${readings.length} readings were given`);
      trace.push({ read: uj });
      return { uj, provenance };
    },
  };
  const session = new McpClientSession(tools);
  const tools_touched: ToolTouch[] = [];
  const outputs = calls.map((c) =>
    dispatchMetered(tools_touched, counter, `mcp:${c.tool}`, () => {
      trace.push({ call: c.tool });
      return session.callTool(c.tool, c.args).text;
    }),
  );
  return { tools_touched, outputs, trace };
}
