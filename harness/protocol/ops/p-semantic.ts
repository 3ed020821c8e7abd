// The testee protocol's operations of the suite-defined profiles jouleclaw:P-MCP, P-VOCAB, P-SHAPES (spec-map/profiles.json;
// harness/protocol/profiles/semantic.md).
import { PROVENANCE, type OpSpec } from '../shapes.ts';

export const P_SEMANTIC_OPS: Readonly<Record<string, OpSpec>> = {
  // jouleclaw §13: seal a cascade receipt (JSON text, with or without "@context") under the steward's seed
  'vocab.seal': { about: 'jouleclaw:P-VOCAB (jouleclaw §13)', args: { map: { receipt_json: 'text', steward_seed: 'bytes32' } }, result: { map: { receipt: 'bytes' } } },
  // jouleclaw §15: a fake tool that records every input it is sent; a call validated against SHACL shapes first
  'shapes.tool': { about: 'jouleclaw:P-SHAPES (jouleclaw §15)', args: { map: {} }, result: { map: { tool: 'text' } } },
  'shapes.call': { about: 'jouleclaw:P-SHAPES (jouleclaw §15)', args: { map: { tool: 'text', shapes_ttl: 'text', input_json: 'text' } }, result: { map: { output_json: 'text' } } },
  'shapes.calls': { about: 'jouleclaw:P-SHAPES (jouleclaw §15)', args: { map: { tool: 'text' } }, result: { map: { inputs: { array: 'text' } } } },
  // jouleclaw §5: the runtime's MCP tool calls against echo tools, the energy counter answering the readings given in turn
  'mcp.dispatch': {
    about: 'jouleclaw:P-MCP (jouleclaw §5)',
    args: { map: { tools: { array: 'text', min: 1 }, calls: { array: { map: { tool: 'text', arguments_json: 'text' } }, min: 1 }, counter: { array: 'uint' }, provenance: PROVENANCE } },
    result: {
      map: {
        trace: { array: { map: { read: 'uint', call: 'text' }, optional: ['read', 'call'] } },
        tools_touched: { array: { map: { tool_id: 'text', joules_uj: 'uint', energy_provenance: PROVENANCE } } },
        outputs: { array: 'text' },
      },
    },
  },
  // jouleclaw §5.1: the testee serves MCP (echo tools); the suite's SDK Client speaks to it frame by frame
  'mcp.serve-open': { about: 'jouleclaw:P-MCP (jouleclaw §5.1)', args: { map: { advertise: { enum: ['yes', 'no'] }, tools: { array: 'text' } } }, result: { map: { session: 'text' } } },
  'mcp.serve-frame': { about: 'jouleclaw:P-MCP (jouleclaw §5.1)', args: { map: { session: 'text', frame: 'bytes' } }, result: { map: { frames: { array: 'bytes' } } } },
};
