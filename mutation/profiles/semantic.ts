// Clause mutants of the suite-defined profiles jouleclaw:P-MCP, P-VOCAB, P-SHAPES: source patches of copies of impl/ modules
// (mutation/testees/patches.ts), filed under each profile in the kill matrix.
import type { Mutant, Unbroken } from '../catalog.ts';
import type { SourcePatch } from '../testees/patches.ts';
import { P } from './applied.ts';

const VOC = 'impl/jouleclaw/vocab.ts';
const SHP = 'impl/jouleclaw/shapes.ts';
const MCP = 'impl/jouleclaw/mcp.ts';

export const SEMANTIC_PROFILE_MUTANTS: readonly Mutant[] = [
  // ---- jouleclaw:P-MCP (jouleclaw §5, §5.1) ----
  { id: 'mcp-touch-not-pushed', clauses: ['jouleclaw/5#mcp-call-metered'], class: 'jouleclaw:P-MCP', description: 'the call is bracketed by counter reads but no ToolTouch goes onto tools_touched', applied: `${P(MCP)} dispatchMetered skips ledger.push` },
  { id: 'mcp-call-not-bracketed', clauses: ['jouleclaw/5#mcp-call-metered'], class: 'jouleclaw:P-MCP', description: 'both counter reads are taken before the call: the call is not bracketed and its ToolTouch meters nothing of it', applied: `${P(MCP)} dispatchMetered reads the counter a second time ahead of the call` },
  { id: 'mcp-call-unmetered', clauses: ['jouleclaw/5#mcp-call-metered'], class: 'jouleclaw:P-MCP', description: 'the tool call is made directly through the SDK client, not wrapped in dispatchMetered', applied: `${P(MCP)} meteredRun calls the session without dispatchMetered` },
  { id: 'mcp-cbor-when-one-side-advertises', clauses: ['jouleclaw/5.1#fallback-to-json-rpc'], class: 'jouleclaw:P-MCP', description: 'the encoding switches to CBOR when either side advertises joule-mcp, not only when both do', applied: `${P(MCP)} negotiateEncoding takes local || peer` },
  { id: 'mcp-advertisement-unread', clauses: ['jouleclaw/5.1#fallback-to-json-rpc'], class: 'jouleclaw:P-MCP', description: 'the server switches to CBOR on its own advertisement, without reading whether the client advertised', applied: `${P(MCP)} the client's capabilities are taken to advertise joule-mcp` },
  // ---- jouleclaw:P-VOCAB (jouleclaw §13) ----
  { id: 'vocab-context-in-signed-core', clauses: ['jouleclaw/13#context-not-in-signed-core'], class: 'jouleclaw:P-VOCAB', description: 'the JSON-LD form, @context and all, is sealed as the signed core', applied: `${P(VOC)} signedCoreOf keeps @context` },
  // ---- jouleclaw:P-SHAPES (jouleclaw §15) ----
  { id: 'shapes-invalid-input-sent', clauses: ['jouleclaw/15#invalid-input-not-sent'], class: 'jouleclaw:P-SHAPES', description: 'the SHACL report is computed but ignored: a non-conforming input is sent to the tool', applied: `${P(SHP)} sendIfValid never refuses` },
  { id: 'shapes-sent-before-validation', clauses: ['jouleclaw/15#invalid-input-not-sent'], class: 'jouleclaw:P-SHAPES', description: 'the input is sent to the tool before it is validated; a non-conforming one is refused only afterwards', applied: `${P(SHP)} sendIfValid calls the tool ahead of validateToolInput` },
];

export const SEMANTIC_PROFILE_PATCHES: Readonly<Record<string, readonly SourcePatch[]>> = {
  'mcp-touch-not-pushed': [{ file: MCP, find: 'ledger.push(Object.freeze(', replace: 'void (Object.freeze(' }],
  'mcp-call-not-bracketed': [{ file: MCP, find: '  const result = call();\n  const after = counter.read();', replace: '  const after = counter.read();\n  const result = call();' }],
  'mcp-call-unmetered': [{ file: MCP, find: 'dispatchMetered(tools_touched, counter, `mcp:${c.tool}`, () => {', replace: '((_l: unknown, _c: unknown, _t: unknown, f: () => string) => f())(tools_touched, counter, `mcp:${c.tool}`, () => {' }],
  'mcp-cbor-when-one-side-advertises': [{ file: MCP, find: "return local && peer ? 'cbor' : 'json-rpc';", replace: "return local || peer ? 'cbor' : 'json-rpc';" }],
  'mcp-advertisement-unread': [{ file: MCP, find: 'negotiateEncoding(this.#advertise, advertisesJouleMcp(r.clientCapabilities))', replace: 'negotiateEncoding(this.#advertise, true)' }],
  'vocab-context-in-signed-core': [{ file: VOC, find: "delete core['@context'];", replace: '' }],
  'shapes-invalid-input-sent': [{ file: SHP, find: 'if (!report.conforms) {', replace: 'if (false && !report.conforms) {' }],
  'shapes-sent-before-validation': [{ file: SHP, find: 'const report = validateToolInput(shapesTurtle, input);', replace: 'tool(input);\n  const report = validateToolInput(shapesTurtle, input);' }],
};

export const SEMANTIC_PROFILE_UNBROKEN: readonly Unbroken[] = [];
