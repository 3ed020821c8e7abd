// A receipt for a published conformance vector (jouleclaw §6): "A conforming runtime MUST produce a Receipt for every
// published conformance vector in conformance/v1/ that matches the canonical receipt's tier, tools_touched[].tool_id,
// and claims[].content_hash."
//
// The vectors this reads are this suite's published cascade vectors (vectors/conformance/v1/jouleclaw_receipts.json,
// group CascadeBuild): each holds the cascade walk it records under inputs.walk and its canonical receipt under
// expected.receipt. The reference has no model cascade to run a query through, so it produces its receipt from the
// recorded walk (jouleclaw §2), as a runtime replaying the vector does.
import { JcpError } from '../errors.ts';
import { isJsonObject, readJson, type JsonObject } from './contract-json.ts';
import { buildCascadeReceipt, cascadeReceiptJson } from './receipt.ts';

/** The "1" receipt (JSON) this runtime produces for one conformance vector (JSON text or parsed). */
export function receiptForVector(vector: unknown): JsonObject {
  const v = readJson(vector, 'ERR_BAD_ARGUMENT', 'vector');
  if (!isJsonObject(v) || !isJsonObject(v['inputs']) || !isJsonObject(v['inputs']['walk'])) {
    throw new JcpError('ERR_BAD_ARGUMENT', 'a conformance vector must hold its cascade walk under inputs.walk');
  }
  const walk = v['inputs']['walk'];
  return cascadeReceiptJson(buildCascadeReceipt(walk));
}
