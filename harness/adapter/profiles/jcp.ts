// The reference's handlers for the suite-defined profiles jcp:P-PROPAGATION, jcp:P-DYNAMISM, jcp:P-METERER (harness/protocol/profiles/jcp.md).
import type { CborInput, CborMap } from '../../../impl/cbor/index.ts';
import type { EnforcementPoint } from '../../../impl/index.ts';

export function jcpProfileHandlers(_point: (a: CborMap) => EnforcementPoint): Record<string, (a: CborMap) => CborInput> {
  return {};
}
