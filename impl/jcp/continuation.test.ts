// Unit tests of jcp §6.1 continuations (impl/jcp/continuation.ts): decided against the first's grant at the moment of
// the later exchange, chained by receipt id, unknown/closed/forgotten handles refused and sealed, outcomes admitted as
// data, one closing record marked Partial unless the meter read the work between exchanges.
import { describe, expect, it } from 'vitest';
import { codeOf, lazy, lazyKey, TOOL_RESOURCE } from '../_test-support.ts';
import { decodeCanonical } from '../cbor/index.ts';
import { verifyReceipt } from '../receipt/verify.ts';
import { contentId, contentIdOfBytes } from './content-id.ts';
import { createContinuationRelay, joinLabels, type LaterExchange } from './continuation.ts';
import { createEnforcementPoint } from './enforcement-point.ts';
import { grantId, mintGrant } from './grant.ts';
import { mintRevocation } from './revocation.ts';
import type { Frame, Label, SignedGrant } from './types.ts';

const k = lazyKey;
const alice = k('alice');
const bob = k('bob');
const mallory = k('mallory');
const steward = k('steward');
const resource = TOOL_RESOURCE;
const grant = lazy(() => mintGrant(alice, { subject: bob.did, resource, actions: ['call'], budget_uj: 100n, expiry: 50n, nonce: new Uint8Array(16).fill(9) }));
const gid = () => grantId(grant.grant);
const frame = (): Frame => ({ kind: 'tool-call', trust: 'control', grant_id: gid(), action: 'call', resource, payload_hash: contentId({ args: 1 }) });
const est = (uj: bigint) => ({ uj, provenance: 'Estimator' as const });

function setup(maxKept?: number) {
  const point = createEnforcementPoint({ steward });
  const relay = createContinuationRelay({ point, steward, ...(maxKept ? { maxKept } : {}) });
  const first = relay.decide({ frame: frame(), chain: [grant], caller: bob.did, cost: est(10n), now_s: 1n });
  expect(first.verdict).toBe('allow');
  relay.bind(first.receipt_id, 'task-1');
  const later = (over: Partial<LaterExchange> = {}): LaterExchange => ({
    handle: 'task-1',
    sent_hash: contentId({ get: 'task-1' }),
    caller: bob.did,
    cost: est(5n),
    now_s: 2n,
    presented: { frame: frame(), chain: [grant] as SignedGrant[] },
    ...over,
  });
  return { point, relay, first, later };
}

describe('jcp §6.1 continuations', () => {
  it('decides a later exchange against the first grant, debits it, and seals over the receipt it continues', () => {
    const { point, relay, first, later } = setup();
    const a = relay.next(later());
    const b = relay.next(later({ sent_hash: contentId({ get: 2 }) }));
    expect([a.verdict, b.verdict]).toEqual(['allow', 'allow']);
    expect(a.core.payload_hash).toBe(contentId({ continues: first.receipt_id, handle: 'task-1', sent: contentId({ get: 'task-1' }) }));
    expect(b.core.payload_hash).toBe(contentId({ continues: a.receipt_id, handle: 'task-1', sent: contentId({ get: 2 }) }));
    expect(a.receipt_id).toBe(contentIdOfBytes(a.receipt));
    expect(point.spent(gid())).toBe(20n);
  });

  it('re-checks at the moment of the later exchange: spent, expired, revoked since; a stranger is wrong-subject', () => {
    let s = setup();
    expect(s.relay.next(s.later({ cost: est(91n) })).deny_reason).toBe('budget-exceeded');
    expect(s.relay.next(s.later({ now_s: 50n })).deny_reason).toBe('expired');
    expect(s.relay.next(s.later({ caller: mallory.did })).deny_reason).toBe('wrong-subject');
    expect(s.point.spent(gid())).toBe(10n);
    s = setup();
    s.point.revoke(mintRevocation(alice, gid(), new Uint8Array(16).fill(1)), grant);
    expect(s.relay.next(s.later()).deny_reason).toBe('revoked');
    expect(codeOf(() => s.relay.admit('task-1', contentId({ out: 1 })))).toBe('ERR_CONTINUATION_UNDECIDED');
  });

  it('refuses and seals a handle never returned, a closed handle and a forgotten one, debiting nothing', () => {
    const s = setup(1);
    const d = s.relay.next(s.later({ handle: 'made-up' }));
    expect([d.verdict, d.deny_reason]).toEqual(['deny', 'chain-broken']);
    expect(verifyReceipt(d.receipt, { steward: steward.did }).core.payload_hash).toBe(contentId({ handle: 'made-up', sent: contentId({ get: 'task-1' }) }));
    // maxKept 1: binding a second work's handle forgets task-1
    const other = s.relay.decide({ frame: { ...frame(), payload_hash: contentId({ args: 2 }) }, chain: [grant], caller: bob.did, cost: est(1n), now_s: 1n });
    s.relay.bind(other.receipt_id, 'task-2');
    expect(s.relay.next(s.later()).deny_reason).toBe('chain-broken');
    s.relay.close('task-2', contentId({ out: 2 }), 3n);
    expect(s.relay.next(s.later({ handle: 'task-2' })).deny_reason).toBe('chain-broken');
    expect(s.point.spent(gid())).toBe(11n);
  });

  it('a host flow check (the AnswersFlowCheck hook) refuses answers with its reason, sealed over the continuation, debiting nothing', () => {
    const point = createEnforcementPoint({ steward });
    const relay = createContinuationRelay({ point, steward, flowCheck: ({ exchange }) => (exchange.sent_hash === contentId({ bad: 1 }) ? 'flow-denied' : undefined) });
    const first = relay.decide({ frame: frame(), chain: [grant], caller: bob.did, cost: est(10n), now_s: 1n });
    relay.bind(first.receipt_id, 'h');
    const x = { handle: 'h', caller: bob.did, cost: est(5n), now_s: 2n, presented: { frame: frame(), chain: [grant] } };
    const d = relay.next({ ...x, sent_hash: contentId({ bad: 1 }) });
    expect([d.verdict, d.deny_reason]).toEqual(['deny', 'flow-denied']);
    expect(verifyReceipt(d.receipt, { steward: steward.did }).core.payload_hash).toBe(contentId({ continues: first.receipt_id, handle: 'h', sent: contentId({ bad: 1 }) }));
    expect(point.spent(gid())).toBe(10n);
    expect(relay.next({ ...x, sent_hash: contentId({ ok: 1 }) }).verdict).toBe('allow');
    expect(codeOf(() => createContinuationRelay({ point, steward: mallory }))).toBe('ERR_BAD_ARGUMENT');
    expect(codeOf(() => relay.next({ ...x, sent_hash: 'nope' }))).toBe('ERR_BAD_ARGUMENT');
  });

  it('refuses junk with a JcpError code, never a TypeError, and changes nothing', () => {
    const s = setup();
    const junkChains = [[{}], [{ grant: {}, signature: new Uint8Array(64) }], [null], []];
    for (const chain of junkChains) expect(codeOf(() => s.relay.next(s.later({ handle: 'x', presented: { frame: frame(), chain: chain as never } })))).toBe('ERR_BAD_ARGUMENT');
    expect(codeOf(() => s.relay.next(s.later({ presented: { frame: { ...frame(), kind: 'bogus' as never }, chain: [grant] } })))).toBe('ERR_FRAME_MALFORMED');
    for (const cost of [undefined, { uj: 1, provenance: 'Estimator' }, { uj: -1n, provenance: 'Estimator' }, { uj: 1n, provenance: 'Guess' }]) {
      expect(codeOf(() => s.relay.next(s.later({ cost: cost as never })))).toBe('ERR_BAD_ARGUMENT');
    }
    expect(codeOf(() => s.relay.next(null as never))).toBe('ERR_BAD_ARGUMENT');
    expect(codeOf(() => s.relay.admit(5 as never, contentId(1)))).toBe('ERR_CONTINUATION_UNDECIDED');
    expect(codeOf(() => s.relay.admit('task-1', 'nope'))).toBe('ERR_BAD_ARGUMENT');
    expect(codeOf(() => s.relay.close('task-1', contentId(1), 3n, { uj: 1 } as never))).toBe('ERR_BAD_ARGUMENT');
    expect(codeOf(() => s.relay.bind(s.first.receipt_id, 7 as never))).toBe('ERR_BAD_ARGUMENT');
    expect(s.point.spent(gid())).toBe(10n);
    expect(s.relay.next(s.later()).verdict).toBe('allow'); // the handle survived every refusal
  });

  it('bind accepts only an allowed request decided here', () => {
    const s = setup();
    const denied = s.relay.decide({ frame: frame(), chain: [grant], caller: mallory.did, cost: est(1n), now_s: 1n });
    expect(codeOf(() => s.relay.bind(denied.receipt_id, 'h'))).toBe('ERR_CONTINUATION_UNDECIDED');
    expect(codeOf(() => s.relay.bind(contentId({ nothing: 1 }), 'h'))).toBe('ERR_CONTINUATION_UNDECIDED');
    expect(codeOf(() => s.relay.bind(s.first.receipt_id, ''))).toBe('ERR_BAD_ARGUMENT');
  });

  it('admits what comes back as data: it can never exercise a capability; its label joins what the client sent', () => {
    const s = setup();
    const admitted = s.relay.admit('task-1', contentId({ out: 1 }));
    expect([admitted.frame.kind, admitted.frame.trust, admitted.frame.action]).toEqual(['tool-result', 'data', 'call']);
    expect(admitted.label).toBeUndefined(); // the first request carried no label: not computed, never clean
    const d = s.point.decide({ frame: admitted.frame, chain: [grant], caller: bob.did, cost: est(1n), now_s: 2n });
    expect(d.deny_reason).toBe('untrusted-control');
    const a: Label = { integrity: 'principal', origins: ['mail'], readers: [alice.did, bob.did].sort() };
    const b: Label = { integrity: 'untrusted', origins: ['web'], readers: [bob.did] };
    expect(joinLabels([a, b])).toEqual({ integrity: 'untrusted', origins: ['mail', 'web'], readers: [bob.did] });
  });

  it('seals one closing record over the content address of its record, Partial unless the meter read between', () => {
    const s = setup();
    const a = s.relay.next(s.later());
    const spent = s.point.spent(gid());
    const c = s.relay.close('task-1', contentId({ out: 'final' }), 3n);
    const rec = decodeCanonical(c.record) as Map<string, unknown>;
    expect(Object.fromEntries(rec)).toEqual({
      first_receipt: s.first.receipt_id,
      continuation_receipts: [a.receipt_id],
      metered_uj: 15,
      outcome_digest: contentId({ out: 'final' }),
      energy_coverage: 'Partial',
    });
    const core = verifyReceipt(c.decision.receipt, { steward: steward.did }).core;
    expect([core.frame_kind, core.trust, core.payload_hash, core.energy_coverage]).toEqual(['tool-result', 'data', c.record_id, 'Partial']);
    expect(c.record_id).toBe(contentIdOfBytes(c.record));
    expect(s.point.spent(gid())).toBe(spent);
    // read between: not Partial
    const t = setup();
    const c2 = t.relay.close('task-1', contentId({ out: 'final' }), 3n, { uj: 7n, provenance: 'HwShunt' });
    expect((decodeCanonical(c2.record) as Map<string, unknown>).has('energy_coverage')).toBe(false);
    expect(c2.decision.core.cost_uj).toBe(17n);
  });
});
