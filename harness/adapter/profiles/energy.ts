// The reference's handlers for the suite-defined profiles sense:P-ENERGY, sense:P-OBSERVER, jouleclaw:P-ENERGY (harness/protocol/profiles/energy.md).
import type { CborInput, CborMap } from '../../../impl/cbor/index.ts';
import type { EnforcementPoint } from '../../../impl/index.ts';

export function energyProfileHandlers(_point: (a: CborMap) => EnforcementPoint): Record<string, (a: CborMap) => CborInput> {
  return {};
}
