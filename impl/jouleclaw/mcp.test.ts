// jouleclaw §5 dispatch_metered and §5.1 the joule-mcp negotiation, over the unmodified MCP SDK.
import { describe, expect, it } from 'vitest';
import { JOULE_MCP_TAG, McpServerSession, decodeJsonRpcFrame, dispatchMetered, meteredRun, negotiateEncoding } from './mcp.ts';
import type { ToolTouch } from './receipt.ts';

const utf8 = new TextEncoder();
const frame = (m: unknown): Uint8Array => utf8.encode(JSON.stringify(m));
const initialize = (advertise: boolean) => ({
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: advertise ? { experimental: { [JOULE_MCP_TAG]: {} } } : {}, clientInfo: { name: 't', version: '1' } },
});

describe('jouleclaw §5.1 negotiation', () => {
  it('CBOR only when both advertise', () => {
    expect(negotiateEncoding(true, true)).toBe('cbor');
    expect(negotiateEncoding(true, false)).toBe('json-rpc');
    expect(negotiateEncoding(false, true)).toBe('json-rpc');
    expect(negotiateEncoding(false, false)).toBe('json-rpc');
  });

  for (const [client, server, want] of [[true, true, 'cbor'], [true, false, 'json-rpc'], [false, true, 'json-rpc']] as const) {
    it(`client ${client ? 'advertising' : 'silent'}, SDK server ${server ? 'advertising' : 'silent'}: ${want} after the handshake`, () => {
      const s = new McpServerSession(server, ['echo']);
      const [init] = s.frame(frame(initialize(client)));
      expect(decodeJsonRpcFrame(init!)['id']).toBe(1); // the handshake itself is JSON-RPC
      expect(s.encoding).toBe(want);
      s.frame(frame({ jsonrpc: '2.0', method: 'notifications/initialized' }));
      const [list] = s.frame(frame({ jsonrpc: '2.0', id: 2, method: 'tools/list' }));
      if (want === 'json-rpc') expect((decodeJsonRpcFrame(list!)['result'] as { tools: { name: string }[] }).tools[0]!.name).toBe('echo');
      else expect(new DataView(list!.buffer, list!.byteOffset).getUint32(0)).toBe(list!.length - 4);
    });
  }
});

describe('jouleclaw §5 dispatch_metered', () => {
  it('brackets the call with counter reads and pushes the ToolTouch of the advance', () => {
    const steps: string[] = [];
    let uj = 10;
    const ledger: ToolTouch[] = [];
    const counter = { read: () => (steps.push(`read ${uj}`), { uj, provenance: 'HwShunt' as const }) };
    expect(dispatchMetered(ledger, counter, 'mcp:x', () => (steps.push('call'), (uj += 5), 'out'))).toBe('out');
    expect(steps).toEqual(['read 10', 'call', 'read 15']);
    expect(ledger).toEqual([{ tool_id: 'mcp:x', joules_uj: 5, energy_provenance: 'HwShunt' }]);
  });

  it('a counter running backwards is refused', () => {
    const r = [20, 10];
    const counter = { read: () => ({ uj: r.shift()!, provenance: 'Estimator' as const }) };
    expect(() => dispatchMetered([], counter, 'mcp:x', () => 1)).toThrow(expect.objectContaining({ code: 'ERR_ENERGY_MALFORMED' }));
  });

  it('meteredRun calls the SDK client through dispatchMetered for every call', () => {
    const r = meteredRun(['echo'], [{ tool: 'echo', args: { a: 1 } }, { tool: 'echo', args: {} }], [1, 4, 4, 9], 'ModelBased');
    expect(r.trace).toEqual([{ read: 1 }, { call: 'echo' }, { read: 4 }, { read: 4 }, { call: 'echo' }, { read: 9 }]);
    expect(r.tools_touched.map((t) => t.joules_uj)).toEqual([3, 5]);
    expect(r.outputs.map((o) => JSON.parse(o))).toEqual([{ a: 1 }, {}]);
  });
});
