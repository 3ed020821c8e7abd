// The testee protocol's operations of the suite-defined profiles jouleclaw:P-CASCADE, P-CLAIMS, P-ORCHESTRATOR (spec-map/profiles.json;
// harness/protocol/profiles/runtime.md).
import type { OpSpec } from '../shapes.ts';

export const P_RUNTIME_OPS: Readonly<Record<string, OpSpec>> = {};
