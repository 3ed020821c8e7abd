// The testee protocol's operations of the suite-defined profiles jouleclaw:P-MCP, P-VOCAB, P-SHAPES (spec-map/profiles.json;
// harness/protocol/profiles/semantic.md).
import type { OpSpec } from '../shapes.ts';

export const P_SEMANTIC_OPS: Readonly<Record<string, OpSpec>> = {};
