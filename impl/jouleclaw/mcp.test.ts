// jouleclaw §5 dispatch_metered and §5.1 the joule-mcp negotiation, over the unmodified MCP SDK.
import { describe, expect, it } from 'vitest';
import { thrown } from '../_test-support.ts';
import {
  JOULE_MCP_TAG,
  McpClientSession,
  McpServerSession,
  advertisesJouleMcp,
  decodeJsonRpcFrame,
  decodeMcpCborBody,
  dispatchMetered,
  encodeMcpFrame,
  meteredRun,
  negotiateEncoding,
} from './mcp.ts';
import type { ToolTouch } from './receipt.ts';

const utf8 = new TextEncoder();
const hex = (b: Uint8Array): string => Buffer.from(b).toString('hex');
const unhex = (h: string): Uint8Array => Uint8Array.from(Buffer.from(h, 'hex'));
const frame = (m: unknown): Uint8Array => utf8.encode(JSON.stringify(m));
const initialize = (advertise: boolean) => ({
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: advertise ? { experimental: { [JOULE_MCP_TAG]: {} } } : {}, clientInfo: { name: 't', version: '1' } },
});

describe('jouleclaw §5.1 negotiation', () => {
  it('the joule-mcp tag is advertised only as an own member of capabilities.experimental', () => {
    expect(advertisesJouleMcp({ experimental: { [JOULE_MCP_TAG]: {} } })).toBe(true);
    for (const c of [null, undefined, {}, { experimental: null }, { experimental: {} }, { experimental: JOULE_MCP_TAG }, { [JOULE_MCP_TAG]: {} }]) {
      expect(advertisesJouleMcp(c), JSON.stringify(c)).toBe(false);
    }
  });

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

  it('the backwards refusal names the tool and both readings, and pushes no ToolTouch', () => {
    const r = [20, 10];
    const ledger: ToolTouch[] = [];
    const counter = { read: () => ({ uj: r.shift()!, provenance: 'Estimator' as const }) };
    expect(thrown(() => dispatchMetered(ledger, counter, 'mcp:x', () => 1)).message).toContain(': the energy counter ran backwards across mcp:x (20 then 10)');
    expect(ledger).toEqual([]);
  });

  it('McpClientSession.meteredCall goes through dispatchMetered under the tool id "mcp:<name>"', () => {
    let uj = 100;
    const ledger: ToolTouch[] = [];
    const counter = { read: () => ({ uj: (uj += 7), provenance: 'HwShunt' as const }) };
    expect(new McpClientSession(['echo']).meteredCall(ledger, counter, 'echo', { a: 1 })).toEqual({ isError: false, text: '{"a":1}' });
    expect(ledger).toEqual([{ tool_id: 'mcp:echo', joules_uj: 7, energy_provenance: 'HwShunt' }]);
  });

  it('meteredRun calls the SDK client through dispatchMetered for every call', () => {
    const r = meteredRun(['echo'], [{ tool: 'echo', args: { a: 1 } }, { tool: 'echo', args: {} }], [1, 4, 4, 9], 'ModelBased');
    expect(r.trace).toEqual([{ read: 1 }, { call: 'echo' }, { read: 4 }, { read: 4 }, { call: 'echo' }, { read: 9 }]);
    expect(r.tools_touched.map((t) => t.joules_uj)).toEqual([3, 5]);
    expect(r.outputs.map((o) => JSON.parse(o))).toEqual([{ a: 1 }, {}]);
  });

  it('meteredRun refuses a read past the readings given, saying how many were given', () => {
    const e = thrown(() => meteredRun(['echo'], [{ tool: 'echo', args: {} }], [1], 'ModelBased'));
    expect(e.code).toBe('ERR_BAD_ARGUMENT');
    expect(e.message).toContain(': the counter was read 2 times but only 1 readings were given');
  });
});

describe('jouleclaw §5.1 CBOR frames (RFC 8949)', () => {
  // RFC 8949 Appendix A, with the boundaries of each argument width (preferred serialisation, §4.2.1) added; the
  // encoder writes every non-integer as float64, so only Appendix A's float64 rows are here
  const vectors: [unknown, string][] = [
    [0, '00'], [1, '01'], [10, '0a'], [23, '17'], [24, '1818'], [25, '1819'], [100, '1864'], [255, '18ff'], [256, '190100'],
    [1000, '1903e8'], [65535, '19ffff'], [65536, '1a00010000'], [1000000, '1a000f4240'], [4294967295, '1affffffff'],
    [4294967296, '1b0000000100000000'], [1000000000000, '1b000000e8d4a51000'], [Number.MAX_SAFE_INTEGER, '1b001fffffffffffff'],
    [-1, '20'], [-10, '29'], [-24, '37'], [-25, '3818'], [-100, '3863'], [-1000, '3903e7'],
    [1.1, 'fb3ff199999999999a'], [1.0e300, 'fb7e37e43c8800759c'], [-4.1, 'fbc010666666666666'],
    [false, 'f4'], [true, 'f5'], [null, 'f6'],
    ['', '60'], ['a', '6161'], ['IETF', '6449455446'], ['\u00fc', '62c3bc'],
    [[], '80'], [[1, 2, 3], '83010203'], [[1, [2, 3], [4, 5]], '8301820203820405'],
    [{}, 'a0'], [{ a: 1, b: [2, 3] }, 'a26161016162820203'], [['a', { b: 'c' }], '826161a161626163'],
  ];

  it('encodeMcpFrame writes the RFC 8949 Appendix A bytes after a 4-byte big-endian length', () => {
    for (const [v, h] of vectors) expect(hex(encodeMcpFrame(v, 'cbor')), JSON.stringify(v)).toBe(`${(h.length / 2).toString(16).padStart(8, '0')}${h}`);
  });

  it('decodeMcpCborBody reads each Appendix A vector back to its value', () => {
    for (const [v, h] of vectors) expect(decodeMcpCborBody(unhex(h)), h).toEqual(v);
  });

  it('encodes undefined as JSON.stringify does: null in an array, left out of a map', () => {
    expect(hex(encodeMcpFrame([undefined], 'cbor').subarray(4))).toBe('81f6');
    expect(hex(encodeMcpFrame({ a: undefined, b: 1 }, 'cbor').subarray(4))).toBe('a1616201');
  });

  it('refuses to encode a value with no JSON form, naming its type', () => {
    for (const [v, type] of [[1n, 'bigint'], [() => 1, 'function']] as const) {
      const e = thrown(() => encodeMcpFrame({ v }, 'cbor'));
      expect(e.code).toBe('ERR_BAD_ARGUMENT');
      expect(e.message).toContain(`: an MCP message holds a ${type}, which has no CBOR form here`);
    }
  });

  it('a decoded map is a plain object as JSON.parse makes it, even for the key "__proto__"', () => {
    const o = decodeMcpCborBody(unhex('a1695f5f70726f746f5f5f01')) as object;
    expect(Object.getPrototypeOf(o)).toBe(Object.prototype);
    expect(Object.getOwnPropertyDescriptor(o, '__proto__')).toEqual(Object.getOwnPropertyDescriptor(JSON.parse('{"__proto__":1}'), '__proto__'));
  });

  it('takes 64 levels of nesting and refuses 65, in arrays, map values and map keys', () => {
    const arrays = (n: number, inner: number[]) => [...Array.from({ length: n }, () => 0x81), ...inner];
    expect(decodeMcpCborBody(Uint8Array.from(arrays(64, [0x01])))).toEqual(JSON.parse(`${'['.repeat(64)}1${']'.repeat(64)}`));
    const deep = [
      Uint8Array.from(arrays(65, [0x01])),
      Uint8Array.from([...Array.from({ length: 65 }, () => [0xa1, 0x61, 0x61]).flat(), 0x01]),
      Uint8Array.from([0xa1, ...arrays(64, [0x01]), 0x01]),
    ];
    for (const b of deep) expect(thrown(() => decodeMcpCborBody(b)).message).toMatch(/: the CBOR frame nests deeper than 64 at byte \d+$/);
  });

  it('each refusal says what is wrong and at which byte', () => {
    const refusals: [string, string][] = [
      ['6261', 'ends early at byte 1'],
      ['1c', 'has an indefinite or reserved length (28) at byte 1'],
      ['9f01ff', 'has an indefinite or reserved length (31) at byte 1'],
      ['1b0020000000000000', 'has an integer beyond 2^53 at byte 1'],
      ['f7', 'holds the simple value 23, which JSON has not at byte 1'],
      ['62c328', 'holds text that is not UTF-8 at byte 3'],
      ['a10102', 'has a map key that is not text at byte 2'],
      ['a2616101616102', 'repeats the key "a" at byte 6'],
      ['4100', 'holds a byte string at byte 1'],
      ['c100', 'holds a tag at byte 1'],
      ['0102', 'has bytes after its value at byte 1'],
    ];
    for (const [h, says] of refusals) {
      const e = thrown(() => decodeMcpCborBody(unhex(h)));
      expect(e.code, h).toBe('ERR_BAD_ARGUMENT');
      expect(e.message, h).toContain(`: the CBOR frame ${says}`);
    }
  });
});

describe('JSON-RPC frames read back', () => {
  it('reads a JSON-RPC 2.0 message object', () => {
    expect(decodeJsonRpcFrame(frame({ jsonrpc: '2.0', id: 1, method: 'ping' }))).toEqual({ jsonrpc: '2.0', id: 1, method: 'ping' });
  });

  it('refuses a frame that is not UTF-8 JSON', () => {
    for (const b of [utf8.encode('{'), Uint8Array.from([0xff])]) {
      const e = thrown(() => decodeJsonRpcFrame(b));
      expect(e.code).toBe('ERR_BAD_ARGUMENT');
      expect(e.message).toContain(': the frame is not a JSON-RPC message: ');
    }
  });

  it('refuses JSON that is not an object with jsonrpc "2.0"', () => {
    for (const t of ['null', '5', '[]', '{}', '{"jsonrpc":"1.0","id":1}']) {
      const e = thrown(() => decodeJsonRpcFrame(utf8.encode(t)));
      expect(e.code, t).toBe('ERR_BAD_ARGUMENT');
      expect(e.message, t).toContain(': the frame is not a JSON-RPC 2.0 message object');
    }
  });
});
