// The reference's handlers for the suite-defined profiles jouleclaw:P-CASCADE, P-CLAIMS, P-ORCHESTRATOR (harness/protocol/profiles/runtime.md).
import type { CborInput, CborMap } from '../../../impl/cbor/index.ts';
import type { EnforcementPoint } from '../../../impl/index.ts';

export function runtimeProfileHandlers(_point: (a: CborMap) => EnforcementPoint): Record<string, (a: CborMap) => CborInput> {
  return {};
}
