// A receipt for every published conformance vector (jouleclaw §6), through the implementation under test
// (suite-defined profile jouleclaw:P-SIDECAR; operation sidecar.run-vector in harness/protocol/profiles/documents.md).
//
// §6: "A conforming runtime MUST produce a Receipt for every published conformance vector in conformance/v1/ that
// matches the canonical receipt's tier, tools_touched[].tool_id, and claims[].content_hash." The published cascade
// vectors this suite ships are vectors/conformance/v1/jouleclaw_receipts.json's CascadeBuild group: each records a walk
// (inputs.walk) and its canonical receipt (expected.receipt). The runtime is given the vector without its expected
// answer and its receipt is matched on exactly the three things §6 names, nothing else (its id, clock and joules are
// the runtime's); tool ids and content hashes as multisets, since §6 says "matches", not "in the same order".
//
// jouleclaw/6#joules-within-drift-band is not tested here: spec-map/allowlist.json says why.
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect } from 'vitest';
import { clauseIt } from '../clause.ts';
import { implementation } from '../driver.ts';

const PER_VECTOR = 'jouleclaw/6#receipt-per-vector';

interface Receipt {
  tier?: unknown;
  tools_touched?: { tool_id?: unknown }[];
  claims?: { content_hash?: unknown }[];
}
interface Vector {
  tcId: number;
  inputs: { walk: unknown };
  expected: { receipt: Receipt };
  [k: string]: unknown;
}

const V1 = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'vectors', 'conformance', 'v1');
const pack = JSON.parse(readFileSync(join(V1, 'jouleclaw_receipts.json'), 'utf8')) as { testGroups: { type: string; tests: Vector[] }[] };
const vectors = pack.testGroups.filter((g) => g.type === 'CascadeBuild').flatMap((g) => g.tests);

const toolIds = (r: Receipt): unknown[] => (r.tools_touched ?? []).map((t) => t.tool_id).sort();
const contentHashes = (r: Receipt): unknown[] => (r.claims ?? []).map((c) => c.content_hash).sort();

describe('jouleclaw §6 a receipt per published conformance vector', () => {
  clauseIt([PER_VECTOR], 'every published cascade vector of conformance/v1 gets a receipt matching its canonical receipt\'s tier, tool ids and content hashes', async () => {
    expect(vectors.length, 'conformance/v1 publishes cascade vectors').toBeGreaterThan(0);
    for (const v of vectors) {
      const canonical = v.expected.receipt;
      // the vector as published, less its answer
      const { expected: _expected, result: _result, ...question } = v;
      const got = JSON.parse((await implementation()._call('sidecar.run-vector', { vector_json: JSON.stringify(question) })).get('receipt_json') as string) as Receipt;
      const what = `vector ${v.tcId}`;
      expect(got.tier, `${what}: tier`).toBe(canonical.tier);
      expect(toolIds(got), `${what}: tools_touched[].tool_id`).toEqual(toolIds(canonical));
      expect(contentHashes(got), `${what}: claims[].content_hash`).toEqual(contentHashes(canonical));
    }
  });
});
