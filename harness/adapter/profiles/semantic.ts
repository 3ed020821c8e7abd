// The reference's handlers for the suite-defined profiles jouleclaw:P-MCP, P-VOCAB, P-SHAPES (harness/protocol/profiles/semantic.md).
import type { CborInput, CborMap } from '../../../impl/cbor/index.ts';
import type { EnforcementPoint } from '../../../impl/index.ts';

export function semanticProfileHandlers(_point: (a: CborMap) => EnforcementPoint): Record<string, (a: CborMap) => CborInput> {
  return {};
}
