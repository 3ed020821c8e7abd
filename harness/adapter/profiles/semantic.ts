// The reference's handlers for the suite-defined profiles jouleclaw:P-MCP, P-VOCAB, P-SHAPES (harness/protocol/profiles/semantic.md).
import type { CborInput, CborMap } from '../../../impl/cbor/index.ts';
import { JcpError } from '../../../impl/errors.ts';
import type { EnforcementPoint } from '../../../impl/index.ts';
import { keyPairFromSeed } from '../../../impl/identity/ed25519.ts';
import { McpServerSession, meteredRun } from '../../../impl/jouleclaw/mcp.ts';
import { sendIfValid } from '../../../impl/jouleclaw/shapes.ts';
import { isProvenance } from '../../../impl/energy/cost.ts';
import type { CborValue } from '../../../impl/cbor/index.ts';
import { sealCascadeReceiptLd } from '../../../impl/jouleclaw/vocab.ts';
import { arg, bytes, map, text, texts, uint } from '../args.ts';

export function semanticProfileHandlers(_point: (a: CborMap) => EnforcementPoint): Record<string, (a: CborMap) => CborInput> {
  // jouleclaw §15: the fake tools of this adapter, each the list of inputs it was sent
  const tools = new Map<string, string[]>();
  const tool = (a: CborMap): string[] => {
    const id = text(a, 'tool');
    const t = tools.get(id);
    if (t === undefined) throw new JcpError('ERR_BAD_ARGUMENT', `no fake tool ${id} (shapes.tool makes one)`);
    return t;
  };
  // jouleclaw §5.1: the MCP server sessions of this adapter
  const servers = new Map<string, McpServerSession>();
  return {
    // jouleclaw §5: every tool call through dispatch_metered
    'mcp.dispatch': (a) => {
      const provenance = text(a, 'provenance');
      if (!isProvenance(provenance)) throw new JcpError('ERR_BAD_ARGUMENT', 'provenance must be HwShunt, ModelBased or Estimator');
      const callsV = arg(a, 'calls');
      if (!Array.isArray(callsV)) throw new JcpError('ERR_BAD_ARGUMENT', 'argument calls must be an array');
      const calls = callsV.map((c: CborValue, i) => {
        const m = map(c, `calls[${i}]`);
        let args: unknown;
        try {
          args = JSON.parse(text(m, 'arguments_json'));
        } catch {
          throw new JcpError('ERR_BAD_ARGUMENT', `calls[${i}].arguments_json is not JSON`);
        }
        if (args === null || typeof args !== 'object' || Array.isArray(args)) throw new JcpError('ERR_BAD_ARGUMENT', `calls[${i}].arguments_json must be a JSON object`);
        return { tool: text(m, 'tool'), args: args as Record<string, unknown> };
      });
      const counterV = arg(a, 'counter');
      if (!Array.isArray(counterV)) throw new JcpError('ERR_BAD_ARGUMENT', 'argument counter must be an array');
      const readings = counterV.map((v: CborValue, i) => {
        const n = uint(v, `counter[${i}]`);
        if (n > BigInt(Number.MAX_SAFE_INTEGER)) throw new JcpError('ERR_BAD_ARGUMENT', `counter[${i}] is too large`);
        return Number(n);
      });
      const r = meteredRun(texts(arg(a, 'tools'), 'tools'), calls, readings, provenance);
      return { trace: r.trace.map((s) => ({ ...s })), tools_touched: r.tools_touched.map((t) => ({ ...t })), outputs: r.outputs };
    },
    'mcp.serve-open': (a) => {
      const advertise = text(a, 'advertise');
      if (advertise !== 'yes' && advertise !== 'no') throw new JcpError('ERR_BAD_ARGUMENT', 'advertise must be "yes" or "no"');
      const id = `mcp-server-${servers.size + 1}`;
      servers.set(id, new McpServerSession(advertise === 'yes', texts(arg(a, 'tools'), 'tools')));
      return { session: id };
    },
    'mcp.serve-frame': (a) => {
      const s = servers.get(text(a, 'session'));
      if (s === undefined) throw new JcpError('ERR_BAD_ARGUMENT', 'no such MCP server session (mcp.serve-open makes one)');
      return { frames: s.frame(bytes(a, 'frame')) };
    },
    // jouleclaw §13: the receipt's JSON-LD form carries @context, the signed core does not
    'vocab.seal': (a) => ({ receipt: sealCascadeReceiptLd(text(a, 'receipt_json'), keyPairFromSeed(bytes(a, 'steward_seed'))).receipt }),
    'shapes.tool': () => {
      const id = `tool-${tools.size + 1}`;
      tools.set(id, []);
      return { tool: id };
    },
    // jouleclaw §15: the input reaches the tool only when it conforms to the shapes
    'shapes.call': (a) => {
      const inputs = tool(a);
      const output = sendIfValid(text(a, 'shapes_ttl'), text(a, 'input_json'), (input) => {
        const sent = JSON.stringify(input);
        inputs.push(sent);
        return sent;
      });
      return { output_json: output };
    },
    'shapes.calls': (a) => ({ inputs: [...tool(a)] }),
  };
}
