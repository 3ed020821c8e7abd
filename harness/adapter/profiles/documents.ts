// The reference's handlers for the suite-defined profiles jouleclaw:P-VALUE, P-WORKSPACE, P-SKILL, P-SIDECAR (harness/protocol/profiles/documents.md).
import type { CborInput, CborMap } from '../../../impl/cbor/index.ts';
import type { EnforcementPoint } from '../../../impl/index.ts';

export function documentsProfileHandlers(_point: (a: CborMap) => EnforcementPoint): Record<string, (a: CborMap) => CborInput> {
  return {};
}
