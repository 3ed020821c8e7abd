// Unit tests of jcp §8.2 group accounting (impl/receipt/accounting.ts): a team works under shards of one root; the
// per-worker ledger computed from the receipts matches the point's own spend, and a receipt that fails verification
// is counted, never dropped.
import { describe, expect, it } from 'vitest';
import { lazy, lazyKey, thrown, TOOL_RESOURCE } from '../_test-support.ts';
import { defaultEd25519, type Ed25519 } from '../identity/ed25519.ts';
import { shard } from '../jcp/attenuate.ts';
import { contentId } from '../jcp/content-id.ts';
import { createEnforcementPoint } from '../jcp/enforcement-point.ts';
import { grantId, mintGrant } from '../jcp/grant.ts';
import type { SignedGrant } from '../jcp/types.ts';
import { aggregateReceipts } from './accounting.ts';

const k = lazyKey;
const [alice, bob, carol, dave, steward] = ['alice', 'bob', 'carol', 'dave', 'steward'].map(k) as [ReturnType<typeof k>, ReturnType<typeof k>, ReturnType<typeof k>, ReturnType<typeof k>, ReturnType<typeof k>];
const resource = TOOL_RESOURCE;
const root = lazy(() => mintGrant(alice, { subject: bob.did, resource, actions: ['call'], budget_uj: 1000n, nonce: new Uint8Array(16).fill(1) }));
const shards = lazy(() => shard(root, bob, [
  { subject: carol.did, budget_uj: 300n, nonce: new Uint8Array(16).fill(2) },
  { subject: dave.did, budget_uj: 200n, nonce: new Uint8Array(16).fill(3) },
]) as [SignedGrant, SignedGrant], []);
const c = lazy(() => shards[0]);
const d = lazy(() => shards[1]);

/** Two allowed calls on carol's shard, sealed by the steward. */
function twoAllows(): Uint8Array[] {
  const p = createEnforcementPoint({ steward });
  return [1n, 2n].map((uj) =>
    p.decide({
      frame: { kind: 'tool-call', trust: 'control', grant_id: grantId(c.grant), action: 'call', resource, payload_hash: contentId({ p: String(uj) }) },
      chain: [root, c],
      caller: carol.did,
      cost: { uj, provenance: 'Estimator' },
      now_s: 1n,
    }).receipt,
  );
}

describe('jcp §8.2 group accounting', () => {
  it('attributes allowed, refused and joules per (grant_id, subject), matching the point ledger; a bad receipt is counted', () => {
    const p = createEnforcementPoint({ steward });
    const run = (sg: SignedGrant, caller: string, uj: bigint) =>
      p.decide({
        frame: { kind: 'tool-call', trust: 'control', grant_id: grantId(sg.grant), action: 'call', resource, payload_hash: contentId({ p: String(uj) }) },
        chain: [root, sg],
        caller,
        cost: { uj, provenance: 'Estimator' },
        now_s: 1n,
      }).receipt;
    const s = [run(c, carol.did, 100n), run(d, dave.did, 150n), run(c, carol.did, 250n), run(d, dave.did, 50n), run(c, dave.did, 1n)];
    const bad = s[1]!.slice();
    bad[bad.length - 3]! ^= 0x40;
    const ledger = aggregateReceipts([...s, bad], { steward: steward.did });
    expect([ledger.verified, ledger.unverified]).toEqual([5, 1]);
    expect(ledger.failures.map((f) => [f.index, f.code])).toEqual([[5, 'ERR_RECEIPT_SIGNATURE_INVALID']]);
    // carol: 100 allowed, 250 denied (budget), dave's call on carol's shard denied (wrong-subject); dave: 150, 50 allowed
    expect(ledger.rows).toEqual([
      { grant_id: grantId(c.grant), subject: carol.did, allowed: 1, refused: 2, spent_uj: 100n },
      { grant_id: grantId(d.grant), subject: dave.did, allowed: 2, refused: 0, spent_uj: 200n },
    ]);
    for (const row of ledger.rows) expect(row.spent_uj).toBe(p.spent(row.grant_id));
    expect(p.spent(grantId(root.grant))).toBe(300n);
  });

  it('verifies under the backend it is given: under one that verifies nothing every receipt is counted unverified', () => {
    const s = twoAllows();
    expect(aggregateReceipts(s, { steward: steward.did }).verified).toBe(2);
    const rejecting: Ed25519 = { ...defaultEd25519(), verify: () => false };
    const ledger = aggregateReceipts(s, { steward: steward.did, backend: rejecting });
    expect([ledger.verified, ledger.unverified, ledger.rows]).toEqual([0, 2, []]);
    expect(ledger.failures.map((f) => [f.index, f.code])).toEqual([[0, 'ERR_RECEIPT_SIGNATURE_INVALID'], [1, 'ERR_RECEIPT_SIGNATURE_INVALID']]);
  });

  it('a verifier that fails is not an unverified receipt: its error reaches the caller', () => {
    // jcp §8.2 counts receipts that fail verification; a backend that cannot verify says nothing about the receipt
    const failing: Ed25519 = { ...defaultEd25519(), verify: () => { throw new Error('backend failure'); } };
    expect(() => aggregateReceipts(twoAllows(), { steward: steward.did, backend: failing })).toThrow('backend failure');
  });

  it('refuses a stream that is not an array, or no steward, with ERR_BAD_ARGUMENT saying what is needed', () => {
    const cases: [() => unknown, RegExp][] = [
      [() => aggregateReceipts(undefined as never, { steward: steward.did }), /receipt stream must be an array/],
      [() => aggregateReceipts([], undefined as never), /needs the steward/],
      [() => aggregateReceipts([], {} as never), /needs the steward/],
    ];
    for (const [fn, message] of cases) {
      const e = thrown(fn);
      expect(e.code).toBe('ERR_BAD_ARGUMENT');
      expect(e.message).toMatch(message);
    }
  });
});
