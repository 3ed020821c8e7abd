// Conformance: jouleclaw §1.2 recent knowledge over frozen weights and §4 ClaimProvenance (suite-defined profile
// jouleclaw:P-CLAIMS). The test hands the testee a query no tier below retrieval closed, the operator's trust threshold,
// the cost of the model's inference and a script of sources (the bytes as fetched, trust tier, fetch + extract cost,
// whether the content closes the query); the model tier always closes. What is judged is the resolution's tier wire tag
// and its claims array, against §1.2's and §4's words only:
//   - §1.2's preference is required exactly "whenever" both listed conditions hold — a source whose fetch + extract
//     costs less than the inference AND whose trust tier is above the threshold, and whose content closes the query:
//     then the resolution is by retrieval (not L3 Model or L4 Wire) and carries a claim of a closing source. Where
//     neither such source exists the testee may resolve either way;
//   - every claim is a full envelope (source, content_hash = hex BLAKE3 of the bytes as fetched, an RFC 3339
//     fetched_at, trust_tier 0..10) of a source the test offered, its hash and trust tier that source's — a claim of
//     anything else is a fact the retriever did not fetch, presented as retrieved;
//   - where no offered source closes the query, the runtime falls back to the model: tier "L3", claims empty.
// BLAKE3 comes from the suite's oracle; which preferred source a testee fetches first, and in what order, is its own.
import fc from 'fast-check';
import { describe, expect } from 'vitest';
import { clauseIt } from '../clause.ts';
import { implementation } from '../driver.ts';
import { fcParams } from '../external-vectors.ts';
import { blake3, toHex } from '../oracle.ts';
import { assertProperty } from '../refusal.ts';

const PREFER = 'jouleclaw/1.2#prefer-fresh-retrieval';
const EMITS = 'jouleclaw/1.2#retriever-emits-claim-provenance';
const CARRIES = 'jouleclaw/4#claim-carries-provenance';
const NO_SYNTH = 'jouleclaw/4#no-synthesised-as-retrieved';
const EMPTY = 'jouleclaw/4#claims-empty-on-model-fallback';

const NOW = '2026-06-08T12:00:00Z';
const RFC3339 = /^\d{4}-\d{2}-\d{2}[Tt ]\d{2}:\d{2}:\d{2}(\.\d+)?([Zz]|[+-]\d{2}:\d{2})$/;
const HEX64 = /^[0-9a-f]{64}$/;
const utf8 = new TextEncoder();

interface Source {
  readonly source: string;
  readonly content: Uint8Array;
  readonly trust_tier: number;
  readonly cost_uj: number;
  readonly outcome: 'closes' | 'unresolvable';
}
interface Query {
  readonly threshold: number;
  readonly inference_cost_uj: number;
  readonly sources: readonly Source[];
}
interface Claim {
  readonly source: unknown;
  readonly content_hash: unknown;
  readonly fetched_at: unknown;
  readonly trust_tier: unknown;
}
interface Resolution {
  readonly tier: string;
  readonly claims: Claim[];
}

async function resolve(q: Query): Promise<Resolution> {
  const r = await (await implementation())._call('claims.resolve', {
    now: NOW,
    threshold: q.threshold,
    inference_cost_uj: q.inference_cost_uj,
    sources: q.sources.map((s) => ({ ...s })),
  });
  const claims = r.get('claims');
  expect(Array.isArray(claims), 'claims.resolve answers its claims as an array').toBe(true);
  const field = (m: unknown, k: string): unknown => (m instanceof Map ? m.get(k) : undefined);
  return {
    tier: r.get('tier') as string,
    claims: (claims as unknown[]).map((c) => ({ source: field(c, 'source'), content_hash: field(c, 'content_hash'), fetched_at: field(c, 'fetched_at'), trust_tier: field(c, 'trust_tier') })),
  };
}

const src = (name: string, trust_tier: number, cost_uj: number, outcome: Source['outcome']): Source => ({ source: name, content: utf8.encode(`<html>${name} as fetched</html>`), trust_tier, cost_uj, outcome });
/** §1.2's two conditions, strictly: fetch + extract below the inference, trust tier above the threshold. */
const preferred = (s: Source, q: Query): boolean => s.cost_uj < q.inference_cost_uj && s.trust_tier > q.threshold;
const hashOf = (s: Source): string => toHex(blake3(s.content));
const num = (v: unknown): number | undefined => (typeof v === 'number' ? v : typeof v === 'bigint' ? Number(v) : undefined);
const MODEL_TIERS = ['L3', 'L4'];

/** §1.2: whenever a source meeting both conditions closes the query, the resolution is by retrieval and cites a closing source. */
function preferViolations(q: Query, r: Resolution): string[] {
  if (!q.sources.some((s) => preferred(s, q) && s.outcome === 'closes')) return [];
  const out: string[] = [];
  if (MODEL_TIERS.includes(r.tier)) out.push(`a source cheaper than the inference and trusted above the threshold closes the query, yet it was resolved by ${r.tier}`);
  const closing = new Set(q.sources.filter((s) => s.outcome === 'closes').map((s) => s.source));
  if (!r.claims.some((c) => closing.has(c.source as string))) out.push('the resolution by retrieval carries no claim of a source that closes the query');
  return out;
}

/** §1.2: a resolution by retrieval emits an envelope for what contributed (at least the closing source's). */
function emitsViolations(q: Query, r: Resolution): string[] {
  if (!q.sources.some((s) => preferred(s, q) && s.outcome === 'closes') || MODEL_TIERS.includes(r.tier)) return [];
  return r.claims.length === 0 ? [`resolved by retrieval (${r.tier}) with an empty claims array`] : [];
}

/** §4: each claim is a whole ClaimProvenance envelope, its content_hash BLAKE3 of the named source's bytes as fetched. */
function envelopeViolations(q: Query, r: Resolution): string[] {
  const out: string[] = [];
  r.claims.forEach((c, i) => {
    const s = q.sources.find((x) => x.source === c.source);
    if (typeof c.source !== 'string' || c.source === '') out.push(`claims[${i}].source is missing`);
    if (typeof c.content_hash !== 'string' || !HEX64.test(c.content_hash)) out.push(`claims[${i}].content_hash is not 64 lowercase hex digits`);
    else if (s !== undefined && c.content_hash !== hashOf(s)) out.push(`claims[${i}].content_hash is not BLAKE3 of ${s.source}'s bytes as fetched`);
    if (typeof c.fetched_at !== 'string' || !RFC3339.test(c.fetched_at)) out.push(`claims[${i}].fetched_at is not an RFC 3339 date-time`);
    const t = num(c.trust_tier);
    if (t === undefined || t < 0 || t > 10) out.push(`claims[${i}].trust_tier is not 0..10`);
    else if (s !== undefined && t !== s.trust_tier) out.push(`claims[${i}].trust_tier is ${t}, but ${s.source}'s is ${s.trust_tier}`);
  });
  return out;
}

/** §4: a claim must be of a source the retriever was offered and fetched, bearing that source's bytes' hash. */
function synthesisedViolations(q: Query, r: Resolution): string[] {
  return r.claims.flatMap((c, i) => {
    const s = q.sources.find((x) => x.source === c.source);
    if (s === undefined) return [`claims[${i}] names ${String(c.source)}, no source the retriever was offered`];
    return c.content_hash === hashOf(s) ? [] : [`claims[${i}] names ${s.source} but not the bytes fetched from it`];
  });
}

/** §4: no source closes the query, so the model resolves it: claims empty, tier L3 (Model), not L2 (Embed). */
function fallbackViolations(q: Query, r: Resolution): string[] {
  if (q.sources.some((s) => s.outcome === 'closes')) return [];
  const out: string[] = [];
  if (r.tier !== 'L3') out.push(`no retrieval closed the query, so the model resolves it (L3:Model); the resolution is tagged ${r.tier}`);
  if (r.claims.length > 0) out.push(`the model's resolution carries ${r.claims.length} claim(s); the claims array must remain empty`);
  return out;
}

const TRUSTED = src('https://en.wikipedia.org/wiki/Gemma_(model)', 9, 40, 'closes');
const BASE: Query = { threshold: 6, inference_cost_uj: 3_500_000, sources: [TRUSTED] };

/** Random queries: 0..4 sources with distinct names and random content, trust, cost and outcome. */
const queries = fc
  .record({
    threshold: fc.integer({ min: 0, max: 9 }),
    inference_cost_uj: fc.integer({ min: 1, max: 5000 }),
    sources: fc.uniqueArray(
      fc.record({
        name: fc.stringMatching(/^[a-z]{1,8}$/),
        content: fc.uint8Array({ minLength: 0, maxLength: 48 }),
        trust_tier: fc.integer({ min: 0, max: 10 }),
        cost_uj: fc.integer({ min: 0, max: 8000 }),
        outcome: fc.constantFrom<Source['outcome']>('closes', 'unresolvable'),
      }),
      { maxLength: 4, selector: (s) => s.name },
    ),
  })
  .map((q): Query => ({ ...q, sources: q.sources.map((s) => ({ source: `https://${s.name}.example/page`, content: s.content, trust_tier: s.trust_tier, cost_uj: s.cost_uj, outcome: s.outcome })) }));

describe('fresh retrieval over frozen weights, and ClaimProvenance (jouleclaw §1.2, §4)', () => {
  clauseIt([PREFER], 'a source cheaper than the inference and trusted above the threshold that closes the query is preferred to the model', async () => {
    expect(preferViolations(BASE, await resolve(BASE))).toEqual([]);
    // among sources failing one condition or the other, the one meeting both is still to be preferred to synthesis
    const mixed: Query = { ...BASE, sources: [src('https://a.example/cheap-untrusted', 2, 10, 'closes'), src('https://b.example/dear', 9, 4_000_000, 'closes'), TRUSTED] };
    expect(preferViolations(mixed, await resolve(mixed))).toEqual([]);
  });

  clauseIt([EMITS], 'a resolution by retrieval emits a ClaimProvenance envelope for the fact that closed it', async () => {
    const r = await resolve(BASE);
    expect(emitsViolations(BASE, r)).toEqual([]);
    expect(r.claims.some((c) => c.source === TRUSTED.source)).toBe(true);
  });

  clauseIt([CARRIES], 'each retrieved claim carries source, content_hash (BLAKE3 of the bytes as fetched), fetched_at and trust_tier', async () => {
    const r = await resolve(BASE);
    expect(r.claims.length).toBeGreaterThan(0);
    expect(envelopeViolations(BASE, r)).toEqual([]);
    expect(r.claims.find((c) => c.source === TRUSTED.source)?.content_hash).toBe(hashOf(TRUSTED));
  });

  clauseIt([NO_SYNTH], 'no claim is of anything but a source the retriever fetched', async () => {
    for (const q of [BASE, { ...BASE, sources: [src('https://a.example/stale', 9, 40, 'unresolvable'), TRUSTED] }, { ...BASE, sources: [] }]) {
      expect(synthesisedViolations(q, await resolve(q))).toEqual([]);
    }
  });

  clauseIt([EMPTY], 'when no retrieval closes the query the model resolves it: claims empty, tagged L3 not L2', async () => {
    const fetchedButOpen: Query = { ...BASE, sources: [src('https://a.example/stale', 9, 40, 'unresolvable'), src('https://b.example/other', 10, 1, 'unresolvable')] };
    for (const q of [fetchedButOpen, { ...BASE, sources: [] }]) {
      const r = await resolve(q);
      expect(fallbackViolations(q, r)).toEqual([]);
      expect(r).toEqual({ tier: 'L3', claims: [] });
    }
  });

  clauseIt([PREFER, EMITS, CARRIES, NO_SYNTH, EMPTY], 'every resolution over a random source script keeps §1.2 and §4 (property)', async () => {
    await assertProperty(
      fc.asyncProperty(queries, async (q) => {
        const r = await resolve(q);
        expect(preferViolations(q, r), PREFER).toEqual([]);
        expect(emitsViolations(q, r), EMITS).toEqual([]);
        expect(envelopeViolations(q, r), CARRIES).toEqual([]);
        expect(synthesisedViolations(q, r), NO_SYNTH).toEqual([]);
        expect(fallbackViolations(q, r), EMPTY).toEqual([]);
      }),
      fcParams(80),
    );
  });
});
