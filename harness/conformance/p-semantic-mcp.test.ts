// jouleclaw:P-MCP (suite-defined profile, spec-map/profiles.json): jouleclaw §5 "Every MCP tool call MUST be wrapped in
// jouleclaw-mcp::dispatch_metered, which brackets the call with energy counter reads and pushes a ToolTouch entry onto
// the running receipt's tools_touched ledger", and §5.1 "When either side does not advertise, the encoding MUST fall
// back to standard MCP JSON-RPC."
//
// §5: the testee's runtime calls echo tools through its MCP client while its energy counter answers readings the suite
// scripts; it reports every read and call in order. The suite checks, from the readings it chose alone: each call sits
// between two reads with nothing else between them, the reads are the counter's readings taken in turn, one ToolTouch
// per call whose joules_uj is the counter's advance across that call, and each output is the echo of its arguments.
// §5.1: the testee serves MCP; the suite's client is the official SDK's Client, unmodified, speaking through a transport
// that hands each message to the testee (mcp.serve-frame) and parses each frame back as JSON-RPC text. Where either side
// does not advertise x-jouleclaw/joule-mcp@1 (the SDK's capabilities.experimental field carries it), every frame must
// be a JSON-RPC 2.0 message and the whole session (initialize, tools/list, tools/call) must work. Both sides advertising
// is §5.1's MAY: not tested here.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import fc from 'fast-check';
import { describe, expect } from 'vitest';
import { clauseIt } from '../clause.ts';
import { implementation } from '../driver.ts';
import { fcParams } from '../external-vectors.ts';
import { assertProperty } from '../refusal.ts';

const METERED = 'jouleclaw/5#mcp-call-metered';
const FALLBACK = 'jouleclaw/5.1#fallback-to-json-rpc';
const TAG = 'x-jouleclaw/joule-mcp@1';
const utf8 = new TextEncoder();
const utf8d = new TextDecoder('utf-8', { fatal: true });

type Step = { read?: number; call?: string };
const num = (v: unknown): number => (typeof v === 'bigint' ? Number(v) : (v as number));

/** Checks one mcp.dispatch answer against the calls made and the counter's readings. */
function checkMetered(r: Map<unknown, unknown>, calls: { tool: string; args: Record<string, unknown> }[], readings: number[]): void {
  const trace = (r.get('trace') as Map<string, unknown>[]).map((m): Step => (m.has('read') ? { read: num(m.get('read')) } : { call: m.get('call') as string }));
  const touched = (r.get('tools_touched') as Map<string, unknown>[]).map((m) => ({ tool_id: m.get('tool_id') as string, joules_uj: num(m.get('joules_uj')) }));
  const outputs = r.get('outputs') as string[];
  // the reads are the counter's readings, taken in turn
  const reads = trace.filter((s) => s.read !== undefined).map((s) => s.read);
  expect(reads, 'the counter reads are its readings in turn').toEqual(readings.slice(0, reads.length));
  // the calls, in the order made
  const callAt = trace.flatMap((s, i) => (s.call !== undefined ? [i] : []));
  expect(callAt.map((i) => trace[i]!.call), 'every tool call, once, in order').toEqual(calls.map((c) => c.tool));
  expect(touched, 'one ToolTouch per tool call on tools_touched').toHaveLength(calls.length);
  callAt.forEach((at, k) => {
    const before = trace[at - 1];
    const after = trace[at + 1];
    expect(before?.read, `call ${k} (${calls[k]!.tool}) is preceded by a counter read`).toBeDefined();
    expect(after?.read, `call ${k} (${calls[k]!.tool}) is followed by a counter read`).toBeDefined();
    expect(touched[k]!.joules_uj, `call ${k}'s ToolTouch is the counter's advance across it`).toBe(after!.read! - before!.read!);
    expect(touched[k]!.tool_id.length, `call ${k}'s ToolTouch names a tool`).toBeGreaterThan(0);
    expect(JSON.parse(outputs[k]!), `call ${k} really reached the tool`).toEqual(calls[k]!.args);
  });
}

describe('every MCP tool call is metered (jouleclaw §5)', () => {
  clauseIt([METERED], 'three calls, each bracketed by counter reads, each a ToolTouch of the counter\'s advance', async () => {
    const calls = [
      { tool: 'echo', args: { q: 'a' } },
      { tool: 'lookup', args: { n: 2 } },
      { tool: 'echo', args: { q: 'b', deep: { x: [1, 2] } } },
    ];
    const readings = [1000, 1500, 1500, 4200, 5000, 5001, 9000, 9000];
    const r = await implementation()._call('mcp.dispatch', {
      tools: ['echo', 'lookup'],
      calls: calls.map((c) => ({ tool: c.tool, arguments_json: JSON.stringify(c.args) })),
      counter: readings,
      provenance: 'HwShunt',
    });
    checkMetered(r, calls, readings);
  });

  clauseIt([METERED], 'whatever the calls and the counter\'s readings, each call is bracketed and metered (property)', async () => {
    const call = fc.record({ tool: fc.constantFrom('echo', 'lookup', 'fetch'), args: fc.dictionary(fc.stringMatching(/^[a-z]{1,6}$/), fc.oneof(fc.integer(), fc.string({ maxLength: 8 })), { maxKeys: 3 }) });
    const input = fc.tuple(fc.array(call, { minLength: 1, maxLength: 4 }), fc.array(fc.integer({ min: 0, max: 1_000_000 }), { minLength: 12, maxLength: 12 }));
    await assertProperty(
      fc.asyncProperty(input, async ([calls, steps]) => {
        // a cumulative counter: it never runs backwards; enough readings for two per call and more
        const readings = steps.reduce<number[]>((acc, d) => [...acc, (acc.at(-1) ?? 0) + d], []);
        const r = await implementation()._call('mcp.dispatch', {
          tools: ['echo', 'lookup', 'fetch'],
          calls: calls.map((c) => ({ tool: c.tool, arguments_json: JSON.stringify(c.args) })),
          counter: readings,
          provenance: 'ModelBased',
        });
        checkMetered(r, calls, readings);
      }),
      fcParams(10),
    );
  });
});

/** An SDK transport that hands each message to the testee's MCP server and reads every frame back as JSON-RPC text. */
class TesteeTransport implements Transport {
  onmessage?: (m: JSONRPCMessage) => void;
  onclose?: () => void;
  onerror?: (e: Error) => void;
  readonly frames: Uint8Array[] = [];
  constructor(private readonly session: string) {}
  async start(): Promise<void> {}
  async send(message: JSONRPCMessage): Promise<void> {
    const r = await implementation()._call('mcp.serve-frame', { session: this.session, frame: utf8.encode(JSON.stringify(message)) });
    for (const f of r.get('frames') as Uint8Array[]) {
      this.frames.push(f);
      let m: unknown;
      try {
        m = JSON.parse(utf8d.decode(f));
      } catch {
        throw new Error(`the testee sent a frame that is not JSON-RPC text (${f.length} bytes, first ${f[0]})`);
      }
      expect((m as { jsonrpc?: unknown }).jsonrpc, 'every frame is a JSON-RPC 2.0 message').toBe('2.0');
      this.onmessage?.(m as JSONRPCMessage);
    }
  }
  async close(): Promise<void> {
    this.onclose?.();
  }
}

describe('without both sides advertising joule-mcp, MCP stays JSON-RPC (jouleclaw §5.1)', () => {
  const cases: [string, boolean, 'yes' | 'no'][] = [
    ['a plain SDK client, the testee advertising', false, 'yes'],
    ['a plain SDK client, the testee not advertising', false, 'no'],
    ['an SDK client advertising, the testee not', true, 'no'],
  ];
  for (const [what, clientAdvertises, serverAdvertises] of cases) {
    clauseIt([FALLBACK], `${what}: initialize, tools/list and tools/call all travel as JSON-RPC`, async () => {
      const session = (await implementation()._call('mcp.serve-open', { advertise: serverAdvertises, tools: ['echo'] })).get('session') as string;
      const transport = new TesteeTransport(session);
      const client = new Client({ name: 'jcp-conformance', version: '1.0.0' }, { capabilities: clientAdvertises ? { experimental: { [TAG]: {} } } : {} });
      await client.connect(transport);
      const advertised = client.getServerCapabilities()?.experimental?.[TAG] !== undefined;
      expect(advertised, 'the testee advertises as it was told').toBe(serverAdvertises === 'yes');
      expect((await client.listTools()).tools.map((t) => t.name)).toContain('echo');
      const res = await client.callTool({ name: 'echo', arguments: { q: 'ping', n: 7 } });
      const text = (res.content as { type: string; text?: string }[]).filter((c) => c.type === 'text').map((c) => c.text).join('');
      expect(JSON.parse(text), 'the echo came back over JSON-RPC').toEqual({ q: 'ping', n: 7 });
      expect(transport.frames.length, 'the session exchanged frames after the handshake').toBeGreaterThanOrEqual(3);
      await client.close();
    });
  }
});
