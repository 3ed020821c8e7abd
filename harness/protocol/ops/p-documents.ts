// The testee protocol's operations of the suite-defined profiles jouleclaw:P-VALUE, P-WORKSPACE, P-SKILL, P-SIDECAR (spec-map/profiles.json;
// harness/protocol/profiles/documents.md).
import type { OpSpec } from '../shapes.ts';

export const P_DOCUMENTS_OPS: Readonly<Record<string, OpSpec>> = {};
