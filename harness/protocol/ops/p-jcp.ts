// The testee protocol's operations of the suite-defined profiles jcp:P-PROPAGATION, jcp:P-DYNAMISM, jcp:P-METERER (spec-map/profiles.json;
// harness/protocol/profiles/jcp.md).
import type { OpSpec } from '../shapes.ts';

export const P_JCP_OPS: Readonly<Record<string, OpSpec>> = {};
