// jouleclaw:P-VOCAB (suite-defined profile, spec-map/profiles.json): jouleclaw §13 "The canonical signed core of a JCR-1
// envelope MUST NOT include @context — the JSON-LD context is metadata, not payload." Through the implementation under
// test: it seals cascade receipts that carry @context (§13's production default: "Adding "@context": … to a receipt …
// without changing any other field"); the suite decodes the COSE_Sign1 payload itself (§10: the envelope's payload is
// the canonical signed core) and checks that no map in it has an "@context" key, that the signature holds under the
// steward's key, and that the receipt's own fields are there unchanged (a core emptied of everything would hold no
// @context either). The core may carry more than the receipt (§13 leaves a separate field open); that is not judged.
import fc from 'fast-check';
import { describe, expect } from 'vitest';
import { clauseIt } from '../clause.ts';
import { implementation } from '../driver.ts';
import { fcParams } from '../external-vectors.ts';
import { steward } from '../fixtures.ts';
import { assertProperty } from '../refusal.ts';
import { decodeCanonical, decodeSign1, defaultEd25519, verifySign1, type CborValue } from '../oracle.ts';

const NOT_IN_CORE = 'jouleclaw/13#context-not-in-signed-core';
const CONTEXT_URL = 'https://jouleclaw.transaction.science/vocab/v1.jsonld';

/** A decoded CBOR value as plain JSON-like data (integers as numbers, maps as objects). */
function plain(v: CborValue): unknown {
  if (typeof v === 'bigint') return Number(v);
  if (Array.isArray(v)) return v.map(plain);
  if (v instanceof Map) return Object.fromEntries([...v].map(([k, x]) => [String(k), plain(x)]));
  return v;
}

/** Every map key at any depth of `v`. */
function keysDeep(v: unknown): string[] {
  if (Array.isArray(v)) return v.flatMap(keysDeep);
  if (v !== null && typeof v === 'object') return Object.entries(v).flatMap(([k, x]) => [k, ...keysDeep(x)]);
  return [];
}

type Tool = { tool_id: string; joules_uj: number; energy_provenance: string };
const RANK: Record<string, number> = { HwShunt: 0, ModelBased: 1, Estimator: 2 };

function receipt(tier: string, tools: Tool[], context: unknown): Record<string, unknown> {
  // §2: energy_provenance is the worst counter across tools_touched
  const worst = tools.reduce((w, t) => (RANK[t.energy_provenance]! > RANK[w]! ? t.energy_provenance : w), tools[0]?.energy_provenance ?? 'HwShunt');
  return {
    ...(context !== undefined ? { '@context': context } : {}),
    jc_receipt: '1',
    id: '0f8fad5b-d9cb-469f-a165-70867728950e',
    closed_at: '2026-06-08T12:00:00Z',
    input_hash: 'ab'.repeat(32),
    tier,
    joules_uj: tools.reduce((s, t) => s + t.joules_uj, 0),
    energy_provenance: worst,
    tools_touched: tools,
    claims: [{ source: 'https://en.wikipedia.org/wiki/Gemma_(model)', content_hash: 'cd'.repeat(32), fetched_at: '2026-06-08T11:59:00Z', trust_tier: 9 }],
    steward: steward.did,
  };
}

/** Seals `r` through the testee and checks the signed core: no @context anywhere, the receipt's fields unchanged. */
async function checkSealed(r: Record<string, unknown>): Promise<void> {
  const sealed = (await implementation()._call('vocab.seal', { receipt_json: JSON.stringify(r), steward_seed: steward.seed })).get('receipt');
  expect(sealed).toBeInstanceOf(Uint8Array);
  const s = decodeSign1(sealed as Uint8Array);
  expect(verifySign1(s, steward.publicKey, defaultEd25519()), 'the envelope verifies under the steward').toBe(true);
  const core = plain(decodeCanonical(s.payload)) as Record<string, unknown>;
  expect(keysDeep(core), 'the signed core holds no @context').not.toContain('@context');
  for (const [k, v] of Object.entries(r)) if (k !== '@context') expect(core[k], `the core's ${k}`).toEqual(v);
}

describe('the JSON-LD context stays out of the signed core (jouleclaw §13)', () => {
  clauseIt([NOT_IN_CORE], 'a receipt carrying "@context": the v1 URL is sealed with a core that holds no @context', async () => {
    await checkSealed(receipt('L3', [{ tool_id: 'model:gemma4-9b-q5_k_m', joules_uj: 3500000, energy_provenance: 'ModelBased' }], CONTEXT_URL));
  });

  clauseIt([NOT_IN_CORE], 'whatever the receipt and however its @context is written, the signed core never holds one (property)', async () => {
    const tool = fc.record({
      tool_id: fc.stringMatching(/^[a-z]{1,8}:[a-z0-9-]{1,12}$/),
      joules_uj: fc.integer({ min: 0, max: 10_000_000 }),
      energy_provenance: fc.constantFrom('HwShunt', 'ModelBased', 'Estimator'),
    });
    // the URL §13 names, the same in an array, or an inline context: all are JSON-LD @context values
    const context = fc.constantFrom<unknown>(CONTEXT_URL, [CONTEXT_URL], { jc: 'https://jouleclaw.transaction.science/vocab/v1#', tier: 'jc:tier' });
    await assertProperty(
      fc.asyncProperty(fc.constantFrom('L0', 'L1', 'L2', 'L3', 'L4'), fc.array(tool, { minLength: 1, maxLength: 4 }), context, async (tier, tools, ctx) => {
        await checkSealed(receipt(tier, tools, ctx));
      }),
      fcParams(20),
    );
  });
});
