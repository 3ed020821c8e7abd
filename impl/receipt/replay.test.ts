// Unit tests of jcp §8.1 replay (impl/receipt/replay.ts) and the point's restoreSpend: a fresh point rebuilt from the
// stream holds exactly the original spend on every link, a tampered or foreign receipt contributes nothing and is
// counted, and the rebuilt point keeps conserving.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { codeOf, lazy, lazyKey, thrown, TOOL_RESOURCE } from '../_test-support.ts';
import { defaultEd25519, type Ed25519 } from '../identity/ed25519.ts';
import { attenuate } from '../jcp/attenuate.ts';
import { contentId } from '../jcp/content-id.ts';
import { createEnforcementPoint, type EnforcementPoint } from '../jcp/enforcement-point.ts';
import { grantId, mintGrant } from '../jcp/grant.ts';
import type { SignedGrant } from '../jcp/types.ts';
import { debitedIds, replayInto, replayReceipts } from './replay.ts';

const k = lazyKey;
const alice = k('alice');
const bob = k('bob');
const carol = k('carol');
const dave = k('dave');
const steward = k('steward');
const other = k('other-steward');
const resource = TOOL_RESOURCE;
const n = (b: number) => new Uint8Array(16).fill(b);

const root = lazy(() => mintGrant(alice, { subject: bob.did, resource, actions: ['call'], budget_uj: 1000n, nonce: n(1) }));
const mid = lazy(() => attenuate(root, bob, { subject: carol.did, budget_uj: 700n, nonce: n(2) }));
const leaf = lazy(() => attenuate(mid, carol, { subject: dave.did, budget_uj: 400n, nonce: n(3) }));
const ids = lazy(() => [root, mid, leaf].map((sg) => grantId(sg.grant)), []);

function decide(p: EnforcementPoint, chain: readonly SignedGrant[], caller: string, uj: bigint) {
  const last = chain[chain.length - 1]!;
  const frame = { kind: 'tool-call', trust: 'control', grant_id: grantId(last.grant), action: 'call', resource, payload_hash: contentId({ payload: String(uj) }) } as const;
  return p.decide({ frame, chain, caller, cost: { uj, provenance: 'HwShunt' }, now_s: 10n });
}

/** A mixed stream: single-grant and chained decisions, allows and denies. */
function stream(p: EnforcementPoint): Uint8Array[] {
  return [
    decide(p, [root], bob.did, 100n),
    decide(p, [root, mid], carol.did, 50n),
    decide(p, [root, mid, leaf], dave.did, 30n),
    decide(p, [root, mid, leaf], dave.did, 500n), // deny: budget-exceeded at the leaf
    decide(p, [root, mid, leaf], mallory(), 5n), // deny: wrong-subject
    decide(p, [root, mid, leaf], dave.did, 20n),
  ].map((d) => d.receipt);
}
function mallory() {
  return k('mallory').did;
}

describe('jcp §8.1 replay', () => {
  it('rebuilds the spend of every link, ancestors included, exactly as the original point debited', () => {
    const p = createEnforcementPoint({ steward });
    const s = stream(p);
    const q = createEnforcementPoint({ steward });
    const r = replayInto(q, s);
    expect([r.verified, r.allowed, r.refused]).toEqual([6, 4, 0]);
    for (const id of ids) expect(q.spent(id)).toBe(p.spent(id));
    expect(ids.map((id) => q.spent(id))).toEqual([200n, 100n, 50n]);
  });

  it('a tampered receipt contributes nothing and is counted with its code; a foreign steward likewise', () => {
    const p = createEnforcementPoint({ steward });
    const s = stream(p);
    const tampered = s[0]!.slice();
    tampered[tampered.length - 1]! ^= 1; // the signature's last byte
    const foreign = decide(createEnforcementPoint({ steward: other }), [root], bob.did, 7n).receipt;
    const r = replayReceipts([tampered, ...s.slice(1), foreign], { steward: steward.did });
    expect([r.verified, r.refused]).toEqual([5, 2]);
    expect(r.refusals.map((x) => [x.index, x.code])).toEqual([
      [0, 'ERR_RECEIPT_SIGNATURE_INVALID'],
      [6, 'ERR_RECEIPT_STEWARD_MISMATCH'],
    ]);
    expect(r.spend.get(ids[0]!)).toBe(100n); // the tampered 100 µJ allow is not re-applied
  });

  it('after replay the point keeps conserving: the next decision sees the restored spend', () => {
    const p = createEnforcementPoint({ steward });
    const s = stream(p);
    const q = createEnforcementPoint({ steward });
    replayInto(q, s);
    // the leaf has 400 − 50 = 350 left: 351 is denied at both points, 350 allowed at both
    expect([decide(p, [root, mid, leaf], dave.did, 351n).deny_reason, decide(q, [root, mid, leaf], dave.did, 351n).deny_reason]).toEqual(['budget-exceeded', 'budget-exceeded']);
    expect([decide(p, [root, mid, leaf], dave.did, 350n).verdict, decide(q, [root, mid, leaf], dave.did, 350n).verdict]).toEqual(['allow', 'allow']);
  });

  it('property: for any sequence of decisions, replay reproduces every link\'s spend', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.integer({ min: 0, max: 2 }), fc.bigInt({ min: 0n, max: 300n })), { maxLength: 12 }), (ops) => {
        const p = createEnforcementPoint({ steward });
        const chains = [[root], [root, mid], [root, mid, leaf]] as const;
        const callers = [bob.did, carol.did, dave.did];
        const s = ops.map(([i, uj]) => decide(p, chains[i]!, callers[i]!, uj).receipt);
        const q = createEnforcementPoint({ steward });
        replayInto(q, s);
        for (const id of ids) expect(q.spent(id)).toBe(p.spent(id));
      }),
      { seed: 8101, numRuns: 40 },
    );
  });

  it('the ids a receipt debited: none for a deny; chain_ids, root first, for a chained allow; else its grant_id', () => {
    const p = createEnforcementPoint({ steward });
    const deny = decide(p, [root, mid, leaf], dave.did, 500n).core;
    expect(deny.verdict).toBe('deny');
    // jcp §9 C3: "the denied call is never debited"
    expect(debitedIds(deny)).toEqual([]);
    // jcp §8.1: "allow-receipts re-apply their debits to every grant they name, ancestors included"
    expect(debitedIds(decide(p, [root, mid, leaf], dave.did, 1n).core)).toEqual(ids);
    expect(debitedIds(decide(p, [root], bob.did, 1n).core)).toEqual([ids[0]]);
  });

  it('verifies under the backend it is given: one that verifies nothing refuses every receipt and restores nothing', () => {
    const s = stream(createEnforcementPoint({ steward }));
    const rejecting: Ed25519 = { ...defaultEd25519(), verify: () => false };
    const q = createEnforcementPoint({ steward });
    for (const r of [replayReceipts(s, { steward: steward.did, backend: rejecting }), replayInto(q, s, rejecting)]) {
      expect([r.verified, r.refused, r.spend.size]).toEqual([0, s.length, 0]);
      expect(new Set(r.refusals.map((x) => x.code))).toEqual(new Set(['ERR_RECEIPT_SIGNATURE_INVALID']));
    }
    for (const id of ids) expect(q.spent(id)).toBe(0n);
  });

  it('a verifier that fails is not a refused receipt: its error reaches the caller', () => {
    // jcp §8.2 counts receipts that fail verification; a backend that cannot verify says nothing about the receipt
    const s = stream(createEnforcementPoint({ steward }));
    const failing: Ed25519 = { ...defaultEd25519(), verify: () => { throw new Error('backend failure'); } };
    expect(() => replayReceipts(s, { steward: steward.did, backend: failing })).toThrow('backend failure');
    const q = createEnforcementPoint({ steward });
    expect(() => replayInto(q, s, failing)).toThrow('backend failure');
    for (const id of ids) expect(q.spent(id)).toBe(0n);
  });

  it('refuses a stream that is not an array, or no steward, with ERR_BAD_ARGUMENT saying what is needed', () => {
    const cases: [() => unknown, RegExp][] = [
      [() => replayReceipts('x' as never, { steward: steward.did }), /receipt stream must be an array/],
      [() => replayReceipts([], {} as never), /needs the steward/],
      [() => replayReceipts([], undefined as never), /needs the steward/],
    ];
    for (const [fn, message] of cases) {
      const e = thrown(fn);
      expect(e.code).toBe('ERR_BAD_ARGUMENT');
      expect(e.message).toMatch(message);
    }
  });

  it('a junk entry is a counted refusal, not a crash; restoreSpend refuses junk with ERR_BAD_ARGUMENT', () => {
    const r = replayReceipts([new Uint8Array([1, 2, 3]), 'nope' as never], { steward: steward.did });
    expect(r.refusals.map((x) => x.code)).toEqual(['ERR_COSE_MALFORMED', 'ERR_COSE_MALFORMED']);
    const p = createEnforcementPoint({ steward });
    expect(codeOf(() => p.restoreSpend('nope', 1n))).toBe('ERR_BAD_ARGUMENT');
    expect(codeOf(() => p.restoreSpend(ids[0]!, -1n))).toBe('ERR_BAD_ARGUMENT');
    expect(codeOf(() => p.restoreSpend(ids[0]!, 1 as never))).toBe('ERR_BAD_ARGUMENT');
  });
});
