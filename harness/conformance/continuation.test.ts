// Conformance: jcp §6.1 continuations — work that answers later (classes C8, C25, C9 in the spec map). A relay of the
// implementation under test decides a first request, a handle is bound to it, and later exchanges naming the handle
// are decided against the first's grant at their own moment. Byte shapes the spec leaves open are the suite's, fixed
// in harness/protocol/testee.cddl: a receipt id is the content id of the receipt bytes; a continuation's payload_hash
// is the content id of {continues, handle, sent}; the closing record is {first_receipt, continuation_receipts,
// metered_uj, outcome_digest, energy_coverage?}. §6.1 names no deny reason for an unknown handle, so none is asserted.
import { describe, expect } from 'vitest';
import { clauseIt } from '../clause.ts';
import { implementation } from '../driver.ts';
import { alice, bob, cost, frameFor, mallory, nonce, payload, point, rootGrant, steward } from '../fixtures.ts';
import type { DecideFields, LabelFields, Minted, Point, Relay } from '../implementation.ts';
import { expectCode } from '../refusal.ts';
import { contentId, contentIdOfBytes, decodeCanonical } from '../oracle.ts';

const impl = () => implementation();
const BOTTOM: LabelFields = { integrity: 'principal', origins: [], readers: 'all' };
const TAINTED: LabelFields = { integrity: 'untrusted', origins: ['web'], readers: 'all' };

interface Work {
  readonly p: Point;
  readonly relay: Relay;
  readonly grant: Minted;
  readonly first: { receipt_id: string; receipt: Uint8Array };
  later(over?: Partial<Parameters<Relay['next']>[0]>): Parameters<Relay['next']>[0];
}

/** A relay over a fresh point; a first request allowed under a 100 µJ grant expiring at 50, bound to handle task-1. */
async function work(grantOver: Parameters<typeof rootGrant>[0] = {}, firstOver: Partial<DecideFields> = {}): Promise<Work> {
  const grant = await rootGrant({ budget_uj: 100n, expiry: 50n, nonce: nonce(`cont-${JSON.stringify(Object.keys(grantOver))}`), ...grantOver });
  const p = await point();
  const relay = await impl().newRelay(p, steward.seed);
  const first = await relay.first({ frame: frameFor(grant), chain: [grant.signed_grant], caller: bob.did, cost: cost(10n), now_s: 1n, ...firstOver });
  expect(first.verdict).toBe('allow');
  expect(first.receipt_id).toBe(contentIdOfBytes(first.receipt));
  await relay.bind(first.receipt_id, 'task-1');
  const later = (over = {}) => ({
    handle: 'task-1',
    sent_hash: payload('tasks/get task-1'),
    frame: frameFor(grant),
    chain: [grant.signed_grant],
    caller: bob.did,
    cost: cost(5n),
    now_s: 2n,
    ...over,
  });
  return { p, relay, grant, first, later };
}

describe('jcp §6.1 continuations', () => {
  clauseIt(['jcp/6.1#continuation-decided-against-first-grant', 'jcp/6.1#continuation-receipt-chain', 'jcp/6.1#continuation-metered'], 'later exchanges are decided under the first grant, debited, and sealed over the receipt each continues', async () => {
    const w = await work();
    const a = await w.relay.next(w.later());
    const b = await w.relay.next(w.later({ sent_hash: payload('tasks/get again') }));
    expect([a.verdict, b.verdict]).toEqual(['allow', 'allow']);
    const [ca, cb] = [await impl().verifyReceipt(a.receipt, steward.did), await impl().verifyReceipt(b.receipt, steward.did)];
    expect(ca['payload_hash']).toBe(contentId({ continues: w.first.receipt_id, handle: 'task-1', sent: payload('tasks/get task-1') }));
    expect(cb['payload_hash']).toBe(contentId({ continues: a.receipt_id, handle: 'task-1', sent: payload('tasks/get again') }));
    expect([ca['grant_id'], ca['action'], ca['cost_uj']]).toEqual([w.grant.grant_id, 'call', 5n]);
    expect(await w.p.spent(w.grant.grant_id)).toBe(20n);
  });

  clauseIt(['jcp/6.1#continuation-decided-against-first-grant'], 'a grant spent, expired or revoked since the first refuses the later exchange, and a stranger cannot fetch it', async () => {
    const w = await work();
    for (const [over, reason] of [
      [{ cost: cost(91n) }, 'budget-exceeded'],
      [{ now_s: 51n }, 'expired'], // past the expiry under either reading of jcp/7#open-expiry-boundary
      [{ caller: mallory.did }, 'wrong-subject'],
    ] as const) {
      const d = await w.relay.next(w.later(over));
      expect([d.verdict, d.deny_reason]).toEqual(['deny', reason]);
    }
    // a stranger presenting a grant of her own is still decided against the first's grant, not the one she presents
    const hers = await rootGrant({ subject: mallory.did, budget_uj: 100n, nonce: nonce('cont-mallory') });
    const stolen = await w.relay.next(w.later({ caller: mallory.did, frame: frameFor(hers), chain: [hers.signed_grant] }));
    expect([stolen.verdict, stolen.deny_reason]).toEqual(['deny', 'wrong-subject']);
    expect(await w.p.spent(hers.grant_id)).toBe(0n);
    expect(await w.p.spent(w.grant.grant_id)).toBe(10n);
    await w.p.revoke(await impl().mintRevocation(alice.seed, w.grant.grant_id, nonce('cont-revoke')), w.grant.signed_grant);
    const r = await w.relay.next(w.later());
    expect([r.verdict, r.deny_reason]).toEqual(['deny', 'revoked']);
    // "the outcome of work the grant no longer covers is not fetched under it"
    await expectCode(w.relay.admit('task-1', payload('outcome')), 'ERR_CONTINUATION_UNDECIDED');
  });

  clauseIt(['jcp/6.1#unknown-handle-refused'], 'a handle never returned, one bound to nothing decided, and a closed one are refused and the refusal sealed', async () => {
    const w = await work();
    const made = await w.relay.next(w.later({ handle: 'task-made-up' }));
    expect(made.verdict).toBe('deny');
    const core = await impl().verifyReceipt(made.receipt, steward.did);
    expect([core['verdict'], core['grant_id']]).toEqual(['deny', w.grant.grant_id]);
    // no handle can be bound to a request that was not allowed here
    const denied = await w.relay.first({ frame: frameFor(w.grant), chain: [w.grant.signed_grant], caller: mallory.did, cost: cost(1n), now_s: 1n });
    await expectCode(w.relay.bind(denied.receipt_id, 'task-2'), 'ERR_CONTINUATION_UNDECIDED');
    expect((await w.relay.next(w.later({ handle: 'task-2' }))).verdict).toBe('deny');
    await w.relay.close('task-1', payload('final'), 3n);
    const closed = await w.relay.next(w.later());
    expect(closed.verdict).toBe('deny');
    expect((await impl().verifyReceipt(closed.receipt, steward.did))['verdict']).toBe('deny');
    expect(await w.p.spent(w.grant.grant_id)).toBe(10n);
  });

  clauseIt(['jcp/6.1#outcome-admitted-as-data'], 'what comes back is admitted as data output of the first action and can never exercise a capability', async () => {
    const w = await work();
    await w.relay.next(w.later());
    const admitted = await w.relay.admit('task-1', payload('outcome'));
    expect(admitted.frame).toEqual({ ...frameFor(w.grant), kind: 'tool-result', trust: 'data', payload_hash: payload('outcome') });
    const d = await w.p.decide({ frame: admitted.frame, chain: [w.grant.signed_grant], caller: bob.did, cost: cost(1n), now_s: 2n });
    expect([d.verdict, d.deny_reason]).toEqual(['deny', 'untrusted-control']);
  });

  clauseIt(['jcp/6.1#outcome-admitted-as-data'], "the admitted outcome's label joins the output's label with everything the client sent", async () => {
    const w = await work({}, { label: BOTTOM });
    await w.relay.next(w.later({ label: { integrity: 'principal', origins: ['mail'], readers: 'all' } }));
    const admitted = await w.relay.admit('task-1', payload('outcome'), TAINTED);
    expect(admitted.label).toEqual({ integrity: 'untrusted', origins: ['mail', 'web'], readers: 'all' });
  });

  clauseIt(['jcp/6.1#flow-check-answers', 'jcp/6.1#client-text-checked'], "the client's answers are flow-checked as the first request's arguments: tainted or unlabelled answers, and a made-up handle, are refused, debiting nothing", async () => {
    const ceiling = { FlowBelow: { ceiling: { integrity: 'principal', origins: [], readers: 'all' } } };
    const w = await work({ caveats: [ceiling] }, { label: BOTTOM });
    for (const label of [TAINTED, undefined]) {
      const d = await w.relay.next(w.later(label === undefined ? {} : { label }));
      expect(d.verdict).toBe('deny');
    }
    // a handle the client made up is client text too: even clean-labelled, it is refused, never forwarded
    expect((await w.relay.next(w.later({ handle: 'task-1 ', label: BOTTOM }))).verdict).toBe('deny');
    expect(await w.p.spent(w.grant.grant_id)).toBe(10n);
    expect((await w.relay.next(w.later({ label: BOTTOM }))).verdict).toBe('allow');
    expect(await w.p.spent(w.grant.grant_id)).toBe(15n);
  });

  clauseIt(['jcp/6.1#closing-record-sealed', 'jcp/6.1#closing-sum-partial'], 'one closing record: a data result frame over the content address of its record, debiting nothing, its sum Partial', async () => {
    const w = await work();
    const a = await w.relay.next(w.later());
    const c = await w.relay.close('task-1', payload('final'), 3n);
    const core = await impl().verifyReceipt(c.receipt, steward.did);
    expect([core['frame_kind'], core['trust'], core['payload_hash'], core['energy_coverage']]).toEqual(['tool-result', 'data', contentIdOfBytes(c.record), 'Partial']);
    const record = Object.fromEntries(decodeCanonical(c.record) as Map<string, unknown>);
    expect(record).toEqual({ first_receipt: w.first.receipt_id, continuation_receipts: [a.receipt_id], metered_uj: 15, outcome_digest: payload('final'), energy_coverage: 'Partial' });
    expect(await w.p.spent(w.grant.grant_id)).toBe(15n);
  });

  clauseIt(['jcp/6.1#closing-sum-partial'], 'a sum whose work between exchanges the meter read is not marked Partial', async () => {
    const w = await work();
    const c = await w.relay.close('task-1', payload('final'), 3n, cost(7n, 'HwShunt'));
    const record = decodeCanonical(c.record) as Map<string, unknown>;
    expect([record.get('metered_uj'), record.has('energy_coverage')]).toEqual([17, false]);
    expect((await impl().verifyReceipt(c.receipt, steward.did))['energy_coverage']).toBeUndefined();
  });
});
