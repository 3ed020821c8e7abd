// How a receipt core is read where a test compares it whole with the reference's (./core-compare.ts, jcp §8.1): a
// single grant's chain_ids of exactly its own id reads as absent; a chain_ids naming anything else is kept, so it still
// differs from a reference core without one.
import { describe, expect, it } from 'vitest';
import { comparableCore } from './core-compare.ts';

const G = 'a'.repeat(64);
const R = 'b'.repeat(64);

describe('comparableCore (jcp §8.1 chain_ids)', () => {
  it('reads chain_ids of exactly [grant_id] as absent, the other fields kept', () => {
    expect(comparableCore({ grant_id: G, verdict: 'allow', chain_ids: [G] })).toEqual({ grant_id: G, verdict: 'allow' });
  });

  it('keeps every other chain_ids: a multi-hop list, one other id, an empty list, a non-list', () => {
    for (const chain_ids of [[R, G], [R], [], G, [G, G]]) {
      expect(comparableCore({ grant_id: G, chain_ids })).toEqual({ grant_id: G, chain_ids });
    }
  });

  it('answers a core without chain_ids as it is, the same object', () => {
    const core = { grant_id: G, verdict: 'deny' };
    expect(comparableCore(core)).toBe(core);
  });

  it('a core with [grant_id] and one without compare equal; one naming another grant does not', () => {
    const ref = { grant_id: G, cost_uj: 5 };
    expect(comparableCore({ ...ref, chain_ids: [G] })).toEqual(comparableCore(ref));
    expect(comparableCore({ ...ref, chain_ids: [R] })).not.toEqual(comparableCore(ref));
  });
});
