// jouleclaw §5.1 between an unmodified SDK Client and an unmodified SDK Server over a byte stream each way: CBOR only
// when both advertise x-jouleclaw/joule-mcp@1, standard MCP JSON-RPC otherwise; the frames are read back with cborg, a
// CBOR decoder independent of the one the transport uses.
import { spawn } from 'node:child_process';
import { dirname, join } from 'node:path';
import { PassThrough } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { decode as cborgDecode } from 'cborg';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { JOULE_MCP_TAG, decodeMcpCborBody, encodeMcpFrame, jouleMcpCapabilities } from './mcp.ts';
import { JouleMcpStreamTransport, type McpWireFrame } from './mcp-stream.ts';

const utf8d = new TextDecoder();

/** An SDK Client and an SDK Server joined by two byte pipes, every frame on the wire recorded in order. */
async function session(clientAdvertises: boolean, serverAdvertises: boolean) {
  const up = new PassThrough();
  const down = new PassThrough();
  const wire: McpWireFrame[] = [];
  const ct = new JouleMcpStreamTransport(down, up, 'client', (f) => f.direction === 'sent' && wire.push(f));
  const st = new JouleMcpStreamTransport(up, down, 'server', (f) => f.direction === 'sent' && wire.push(f));
  const server = new Server({ name: 'echo', version: '1.0.0' }, { capabilities: jouleMcpCapabilities(serverAdvertises) });
  server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: [{ name: 'echo', description: 'echoes its arguments', inputSchema: { type: 'object' as const } }] }));
  server.setRequestHandler(CallToolRequestSchema, async (req) => ({ content: [{ type: 'text' as const, text: JSON.stringify(req.params.arguments ?? {}) }] }));
  const client = new Client({ name: 'runtime', version: '1.0.0' }, { capabilities: clientAdvertises ? { experimental: { [JOULE_MCP_TAG]: {} } } : {} });
  await Promise.all([server.connect(st), client.connect(ct)]);
  return { client, server, ct, st, wire, close: () => Promise.all([client.close(), server.close()]) };
}

/** A frame as the message it carries, read without the transport's own decoder. */
function message(f: McpWireFrame): Record<string, unknown> {
  if (f.encoding === 'json-rpc') {
    expect(f.bytes[f.bytes.length - 1]).toBe(0x0a);
    return JSON.parse(utf8d.decode(f.bytes.subarray(0, -1))) as Record<string, unknown>;
  }
  expect(new DataView(f.bytes.buffer, f.bytes.byteOffset).getUint32(0)).toBe(f.bytes.length - 4);
  return cborgDecode(f.bytes.subarray(4)) as Record<string, unknown>;
}

describe('jouleclaw §5.1 joule-mcp between an unmodified SDK Client and Server over byte streams', () => {
  for (const [client, server] of [[true, true], [true, false], [false, true], [false, false]] as const) {
    const want = client && server ? 'cbor' : 'json-rpc';
    it(`client ${client ? 'advertising' : 'silent'}, server ${server ? 'advertising' : 'silent'}: the handshake in JSON-RPC, then ${want} both ways`, async () => {
      const s = await session(client, server);
      try {
        const tools = await s.client.listTools();
        expect(tools.tools.map((t) => t.name)).toEqual(['echo']);
        const r = await s.client.callTool({ name: 'echo', arguments: { a: 1, b: [true, null, 'x'], c: 1.5 } });
        expect(r.content).toEqual([{ type: 'text', text: '{"a":1,"b":[true,null,"x"],"c":1.5}' }]);
        expect([s.ct.encoding, s.st.encoding]).toEqual([want, want]);
        const messages = s.wire.map(message);
        // the first two frames are the handshake: initialize and its result, always JSON-RPC
        expect(messages[0]!['method']).toBe('initialize');
        expect(messages[1]!['id']).toBe(messages[0]!['id']);
        expect(s.wire.slice(0, 2).map((f) => f.encoding)).toEqual(['json-rpc', 'json-rpc']);
        // every frame after it, both ways (initialized, tools/list, its result, tools/call, its result), in the negotiated encoding
        const after = s.wire.slice(2);
        expect(after.length).toBeGreaterThanOrEqual(5);
        expect(after.map((f) => f.encoding)).toEqual(after.map(() => want));
        expect(messages.slice(2).map((m) => m['method'] ?? 'result')).toEqual(['notifications/initialized', 'tools/list', 'result', 'tools/call', 'result']);
        for (const m of messages) expect(m['jsonrpc']).toBe('2.0');
        // the advertisement each side saw is the one the SDK wrote into the handshake
        expect(Object.hasOwn((messages[0]!['params'] as { capabilities: { experimental?: object } }).capabilities.experimental ?? {}, JOULE_MCP_TAG)).toBe(client);
        expect(Object.hasOwn((messages[1]!['result'] as { capabilities: { experimental?: object } }).capabilities.experimental ?? {}, JOULE_MCP_TAG)).toBe(server);
      } finally {
        await s.close();
      }
    });
  }

  it('over stdio: an SDK Client against an SDK Server in a process of its own, both advertising, talks CBOR after the handshake', async () => {
    const child = spawn(process.execPath, ['--import', 'tsx', join(dirname(fileURLToPath(import.meta.url)), '_mcp-stdio-server.ts'), 'advertise'], { stdio: ['pipe', 'pipe', 'inherit'] });
    const wire: McpWireFrame[] = [];
    const t = new JouleMcpStreamTransport(child.stdout, child.stdin, 'client', (f) => wire.push(f));
    const client = new Client({ name: 'runtime', version: '1.0.0' }, { capabilities: { experimental: { [JOULE_MCP_TAG]: {} } } });
    const exited = new Promise<number | null>((r) => child.once('exit', (code) => r(code)));
    try {
      await client.connect(t);
      const r = await client.callTool({ name: 'echo', arguments: { over: 'stdio' } });
      expect(r.content).toEqual([{ type: 'text', text: '{"over":"stdio"}' }]);
      expect(wire.map((f) => `${f.direction} ${f.encoding}`)).toEqual(['sent json-rpc', 'received json-rpc', 'sent cbor', 'sent cbor', 'received cbor']);
      expect(wire.slice(2).map((f) => message(f)['method'] ?? 'result')).toEqual(['notifications/initialized', 'tools/call', 'result']);
    } finally {
      await client.close();
    }
    // the server ends when its stdin does
    expect(await exited).toBe(0);
  }, 60_000);

  it('a CBOR frame that carries no JSON-RPC message, or is no CBOR of the JSON model, is an error of the transport, which closes', async () => {
    for (const body of [
      [0x43, 1, 2, 3], // a byte string
      [0xc1, 0x00], // a tag
      [0x9f, 0xff], // an indefinite-length array
      [0xa1, 0x01, 0x02], // a map key that is not text
      [0x82, 0x01], // an array cut short
      [0x01], // an integer, not a message
      [0xa1, 0x67, ...new TextEncoder().encode('jsonrpc'), 0x63, ...new TextEncoder().encode('1.0')], // another version
    ]) {
      const input = new PassThrough();
      const t = new JouleMcpStreamTransport(input, new PassThrough(), 'server');
      const errors: Error[] = [];
      let closed = false;
      t.onerror = (e) => errors.push(e);
      t.onclose = () => (closed = true);
      t.onmessage = () => errors.push(new Error('a message was delivered'));
      await t.start();
      const frame = new Uint8Array(4 + body.length);
      new DataView(frame.buffer).setUint32(0, body.length);
      frame.set(body, 4);
      // the handshake in JSON-RPC first, advertising on both sides, so the frame is read as CBOR
      input.write(`${JSON.stringify({ jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: { experimental: { [JOULE_MCP_TAG]: {} } }, clientInfo: { name: 'c', version: '1' } } })}\n`);
      await new Promise((r) => setImmediate(r));
      errors.length = 0;
      await t.send({ jsonrpc: '2.0', id: 0, result: { protocolVersion: '2025-06-18', capabilities: jouleMcpCapabilities(true), serverInfo: { name: 's', version: '1' } } });
      expect(t.encoding).toBe('cbor');
      input.write(frame);
      await new Promise((r) => setImmediate(r));
      expect(errors.map((e) => (e as { code?: string }).code)).toEqual(['ERR_BAD_ARGUMENT']);
      expect(closed).toBe(true);
    }
  });
});

describe('jouleclaw §5.1 CBOR frames read back', () => {
  it('every JSON value survives encodeMcpFrame and decodeMcpCborBody, and cborg reads the same value', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (v) => {
        const frame = encodeMcpFrame(v, 'cbor');
        const body = frame.subarray(4);
        expect(JSON.stringify(decodeMcpCborBody(body))).toBe(JSON.stringify(v));
        expect(JSON.stringify(cborgDecode(body))).toBe(JSON.stringify(v));
      }),
      { seed: 5101, numRuns: 300 },
    );
  });

  it("RFC 8949 Appendix A's half, single and double floats", () => {
    const hex = (h: string) => Uint8Array.from(h.match(/../g)!.map((b) => parseInt(b, 16)));
    const table: [string, number][] = [
      ['f90000', 0],
      ['f93c00', 1],
      ['f93e00', 1.5],
      ['f97bff', 65504],
      ['f90001', 5.960464477539063e-8],
      ['f90400', 0.00006103515625],
      ['f9c400', -4],
      ['fa47c35000', 100000],
      ['fa7f7fffff', 3.4028234663852886e38],
      ['fb3ff199999999999a', 1.1],
      ['fb7e37e43c8800759c', 1e300],
      ['f97c00', Infinity],
      ['f9fc00', -Infinity],
    ];
    for (const [h, v] of table) expect(decodeMcpCborBody(hex(h))).toBe(v);
    expect(decodeMcpCborBody(hex('f97e00'))).toBeNaN();
    expect(Object.is(decodeMcpCborBody(hex('f98000')), -0)).toBe(true);
  });

  it('a repeated map key, bytes after the value, deep nesting and an integer past 2^53 are refused with ERR_BAD_ARGUMENT', () => {
    const refusals = [
      Uint8Array.from([0xa2, 0x61, 0x61, 0x01, 0x61, 0x61, 0x02]),
      Uint8Array.from([0x01, 0x02]),
      Uint8Array.from([...Array.from({ length: 70 }, () => 0x81), 0x01]),
      Uint8Array.from([0x1b, 0x00, 0x20, 0, 0, 0, 0, 0, 0]),
      Uint8Array.from([0x62, 0xc3, 0x28]),
      Uint8Array.from([0xf8, 0x20]),
    ];
    for (const b of refusals) expect(() => decodeMcpCborBody(b)).toThrow(expect.objectContaining({ code: 'ERR_BAD_ARGUMENT' }));
  });
});
