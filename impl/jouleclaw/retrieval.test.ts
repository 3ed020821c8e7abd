// Unit tests of the jouleclaw §1.2 retrieval stage and §4 ClaimProvenance (impl/jouleclaw/retrieval.ts).
import { describe, expect, it } from 'vitest';
import { thrown } from '../_test-support.ts';
import { toHex } from '../bytes.ts';
import { blake3 } from '../hash/blake3.ts';
import { resolveWithRetrieval, type RetrievalSource } from './retrieval.ts';

const NOW = '2026-06-08T12:00:00Z';
const src = (source: string, trust_tier: number, cost_uj: bigint, closes: boolean): RetrievalSource => ({ source, content: new TextEncoder().encode(`bytes of ${source}`), trust_tier, cost_uj, closes });
const q = (sources: RetrievalSource[]) => ({ now: NOW, threshold: 5, inference_cost_uj: 1000n, sources });

describe('fresh retrieval and ClaimProvenance (jouleclaw §1.2, §4)', () => {
  it('a cheap trusted source that closes the query resolves it, with its envelope as the claim', () => {
    const s = src('https://a.example/x', 9, 10n, true);
    const r = resolveWithRetrieval(q([s]));
    expect(r.tier).toBe('L2');
    expect(r.claims).toEqual([{ source: s.source, content_hash: toHex(blake3(s.content)), fetched_at: NOW, trust_tier: 9 }]);
  });
  it('falls back to the model with no claims when no preferred retrieval closes the query', () => {
    const r = resolveWithRetrieval(q([src('https://a.example/x', 9, 10n, false), src('https://b.example/y', 5, 10n, true), src('https://c.example/z', 9, 1000n, true)]));
    expect(r.tier).toBe('L3');
    expect(r.claims).toEqual([]);
    expect(r.fetched.map((f) => f.source)).toEqual(['https://a.example/x']);
  });
  // jouleclaw §4: "trust_tier is 0..10."
  it('refuses a trust tier outside 0..10, naming the source', () => {
    expect(thrown(() => resolveWithRetrieval(q([src('s', 11, 1n, true)]))).message).toBe('ERR_BAD_ARGUMENT: sources[0].trust_tier must be 0..10 (jouleclaw §4), got 11');
    expect(thrown(() => resolveWithRetrieval(q([src('s', 1, 1n, true), src('t', -1, 1n, true)]))).message).toBe('ERR_BAD_ARGUMENT: sources[1].trust_tier must be 0..10 (jouleclaw §4), got -1');
  });
  it('refuses a threshold outside 0..10, naming the threshold', () => {
    const e = thrown(() => resolveWithRetrieval({ ...q([]), threshold: -1 }));
    expect(e.code).toBe('ERR_BAD_ARGUMENT');
    expect(e.message).toBe('ERR_BAD_ARGUMENT: threshold must be 0..10 (jouleclaw §4), got -1');
  });
  it('refuses a source with no name, and a source offered twice', () => {
    expect(thrown(() => resolveWithRetrieval(q([src('s', 9, 1n, false), src('', 9, 1n, true)]))).message).toBe('ERR_BAD_ARGUMENT: sources[1].source must be non-empty');
    expect(thrown(() => resolveWithRetrieval(q([src('s', 1, 1n, true), src('s', 2, 1n, true)]))).message).toBe('ERR_BAD_ARGUMENT: source s is offered twice');
  });
  it('refuses a clock that is not RFC 3339 text, even one that reads as it', () => {
    const msg = 'ERR_BAD_ARGUMENT: now must be an RFC 3339 date-time (fetched_at, jouleclaw §4)';
    expect(thrown(() => resolveWithRetrieval({ ...q([]), now: 'yesterday' })).message).toBe(msg);
    // jouleclaw §4: fetched_at is "<rfc 3339>" text; an array holding that text stringifies to it but is not text
    expect(thrown(() => resolveWithRetrieval({ ...q([]), now: [NOW] as never })).message).toBe(msg);
  });
});
