// The testee protocol's operations of the suite-defined profiles sense:P-ENERGY, sense:P-OBSERVER, jouleclaw:P-ENERGY (spec-map/profiles.json;
// harness/protocol/profiles/energy.md).
import type { OpSpec } from '../shapes.ts';

export const P_ENERGY_OPS: Readonly<Record<string, OpSpec>> = {};
