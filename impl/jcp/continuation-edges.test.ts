// Edge cases of jcp §6.1 continuations (impl/jcp/continuation.ts): the relay's options, the typed refusals of every
// entry point (each code with its message), the sealed refusal of a handle never returned, closed or forgotten (what
// its receipt says, a handle forgotten past the bound on what the relay keeps), each later exchange metered only when
// allowed and chained either way, what the flow check and the gate are shown, the label of what comes back, and the
// closing record's coverage (§5.2) and provenance (the weakest of the figures summed, as the module header reads it).
import { describe, expect, it } from 'vitest';
import { lazy, lazyKey, thrown, TOOL_RESOURCE } from '../_test-support.ts';
import { decodeCanonical } from '../cbor/index.ts';
import type { Cost } from '../energy/cost.ts';
import { nodeEd25519, type Ed25519 } from '../identity/ed25519.ts';
import { verifyReceipt } from '../receipt/verify.ts';
import { contentId } from './content-id.ts';
import { createContinuationRelay, joinLabels, type ContinuationRelayOptions, type LaterExchange, type WorkView } from './continuation.ts';
import { createEnforcementPoint } from './enforcement-point.ts';
import { grantId, mintGrant } from './grant.ts';
import type { Frame, Label, SignedGrant } from './types.ts';

const alice = lazyKey('alice'); // issues the grant
const bob = lazyKey('bob'); // its subject, the client of the work
const mallory = lazyKey('mallory');
const steward = lazyKey('steward'); // the point's own key
const resource = TOOL_RESOURCE;
const U64_MAX = (1n << 64n) - 1n;
/** alice grants bob `call` on the tool, 100 µJ, expiring at 50 (as impl/jcp/continuation.test.ts). */
const grant: SignedGrant = lazy(() => mintGrant(alice, { subject: bob.did, resource, actions: ['call'], budget_uj: 100n, expiry: 50n, nonce: new Uint8Array(16).fill(9) }));
const gid = () => grantId(grant.grant);
const frame = (args: unknown = 1): Frame => ({ kind: 'tool-call', trust: 'control', grant_id: gid(), action: 'call', resource, payload_hash: contentId({ args } as never) });
const cost = (uj: bigint, provenance: Cost['provenance'] = 'Estimator', partial = false): Cost => ({ uj, provenance, ...(partial ? { coverage: 'Partial' as const } : {}) });
const label = (integrity: Label['integrity'], origins: Label['origins'], readers: Label['readers'] = 'all'): Label => ({ integrity, origins, readers });
const BOTTOM = label('principal', []);
const COST_RULE = '{uj: bigint microjoules, provenance: HwShunt | ModelBased | Estimator, coverage?: "Partial"}';
const SIGNED_GRANT_RULE = 'must be a signed grant {grant, signature}';

/** A relay over a fresh point, its first request (10 µJ, `first` overriding) allowed and bound to 'task-1'. */
function setup(o: { maxKept?: number; first?: Partial<Parameters<ReturnType<typeof createContinuationRelay>['decide']>[0]>; relay?: Partial<ContinuationRelayOptions> } = {}) {
  const point = createEnforcementPoint({ steward });
  const relay = createContinuationRelay({ point, steward, ...(o.maxKept !== undefined ? { maxKept: o.maxKept } : {}), ...o.relay });
  const first = relay.decide({ frame: frame(), chain: [grant], caller: bob.did, cost: cost(10n), now_s: 1n, ...o.first });
  expect(first.verdict).toBe('allow');
  relay.bind(first.receipt_id, 'task-1');
  const later = (over: Partial<LaterExchange> = {}): LaterExchange => ({
    handle: 'task-1',
    sent_hash: contentId({ get: 'task-1' }),
    caller: bob.did,
    cost: cost(5n),
    now_s: 2n,
    presented: { frame: frame(), chain: [grant] },
    ...over,
  });
  return { point, relay, first, later };
}

/** The closing record's fields, by name. */
const recordOf = (bytes: Uint8Array) => Object.fromEntries(decodeCanonical(bytes) as Map<string, unknown>);

describe('jcp §6.1 createContinuationRelay: its options', () => {
  it("refuses a steward key that is not the point's own, or either one missing, with a JcpError", () => {
    const point = createEnforcementPoint({ steward });
    const msg = "ERR_BAD_ARGUMENT: the relay's steward key must be the point's own steward";
    expect(thrown(() => createContinuationRelay({ point, steward: mallory })).message).toBe(msg);
    expect(thrown(() => createContinuationRelay({ point, steward: undefined as never })).message).toBe(msg);
    expect(thrown(() => createContinuationRelay({ point: undefined as never, steward })).message).toBe(msg);
  });

  it('maxKept is a positive safe integer: 1 is accepted, 0, negatives, fractions and unsafe integers are refused', () => {
    const point = createEnforcementPoint({ steward });
    for (const maxKept of [0, -1, 1.5, Number.NaN, 2 ** 53]) {
      expect(thrown(() => createContinuationRelay({ point, steward, maxKept })).message).toBe('ERR_BAD_ARGUMENT: maxKept must be a positive integer');
    }
    expect(() => createContinuationRelay({ point, steward, maxKept: 1 })).not.toThrow();
  });

  it('seals its own refusals with the backend it was given', () => {
    let signed = 0;
    const backend: Ed25519 = { ...nodeEd25519, sign: (seed, message) => (signed++, nodeEd25519.sign(seed, message)) };
    const s = setup({ relay: { backend } });
    const d = s.relay.next(s.later({ handle: 'made-up' }));
    expect(d.deny_reason).toBe('chain-broken');
    expect(signed).toBe(1);
    expect(verifyReceipt(d.receipt, { steward: steward.did }).core.deny_reason).toBe('chain-broken');
  });
});

describe('jcp §6.1 a later exchange is refused as junk before anything is decided', () => {
  it('names what is wrong with the exchange itself', () => {
    const s = setup();
    expect(thrown(() => s.relay.next(5 as never)).message).toBe('ERR_BAD_ARGUMENT: a later exchange must be an object');
    expect(thrown(() => s.relay.next(null as never)).message).toBe('ERR_BAD_ARGUMENT: a later exchange must be an object');
    expect(thrown(() => s.relay.next(s.later({ handle: 7 as never }))).message).toBe('ERR_BAD_ARGUMENT: a later exchange must name its handle (text)');
    expect(thrown(() => s.relay.next(s.later({ sent_hash: 'nope' }))).message).toBe('ERR_BAD_ARGUMENT: sent_hash must be a content id');
  });

  it("refuses a cost outside jcp §5's rules with one message, debiting nothing", () => {
    const s = setup();
    const junk = [null, 5, { uj: 1, provenance: 'Estimator' }, { uj: -1n, provenance: 'Estimator' }, { uj: U64_MAX + 1n, provenance: 'Estimator' }, { uj: 1n, provenance: 'Guess' }, { uj: 1n, provenance: 'Estimator', coverage: 'Whole' }];
    for (const c of junk) {
      expect(thrown(() => s.relay.next(s.later({ cost: c as never }))).message).toBe(`ERR_BAD_ARGUMENT: the exchange's cost must be ${COST_RULE}`);
    }
    expect(s.point.spent(gid())).toBe(10n);
  });

  it('accepts a cost exactly at the edges of the rules: zero, 2^64−1 (decided, not refused as junk), Partial', () => {
    const s = setup();
    expect(s.relay.next(s.later({ cost: cost(0n) })).verdict).toBe('allow');
    expect(s.relay.next(s.later({ cost: cost(U64_MAX) })).deny_reason).toBe('budget-exceeded');
    expect(s.relay.next(s.later({ cost: cost(1n, 'Estimator', true) })).verdict).toBe('allow');
    expect(s.point.spent(gid())).toBe(11n);
  });

  it('needs a presented frame and a non-empty chain, as any request does', () => {
    const s = setup();
    const msg = 'ERR_BAD_ARGUMENT: a later exchange presents a frame and a non-empty chain, as any request does';
    const presented = [undefined, null, { frame: frame(), chain: {} }, { frame: frame(), chain: [] }, { chain: [grant] }, { frame: null, chain: [grant] }];
    for (const p of presented) expect(thrown(() => s.relay.next(s.later({ handle: 'x', presented: p as never }))).message).toBe(msg);
  });

  it('reads each presented link as the wire does, naming its index', () => {
    const s = setup();
    const fn = Object.assign(() => undefined, { capability: { resource, actions: ['call'] } });
    const links = [null, {}, { grant: null }, { grant: fn, signature: new Uint8Array(64) }, { grant: { capability: null } }, { grant: { capability: { actions: 'call' } } }];
    for (const link of links) {
      expect(thrown(() => s.relay.next(s.later({ handle: 'x', presented: { frame: frame(), chain: [grant, link as never] } }))).message).toBe(`ERR_BAD_ARGUMENT: presented.chain[1] ${SIGNED_GRANT_RULE}`);
    }
    const e = thrown(() => s.relay.next(s.later({ handle: 'x', presented: { frame: frame(), chain: [{ grant: grant.grant, signature: new Uint8Array(63) }] } })));
    expect([e.code, e.detail]).toEqual(['ERR_GRANT_MALFORMED', { path: '$presented.chain[0].signature' }]);
  });
});

describe('jcp §6.1 item 2: a handle it did not see returned, closed or forgotten is refused and sealed', () => {
  it('seals the refusal as the point seals a deny: over the presented grant, what is left of it, nothing debited', () => {
    const s = setup();
    const d = s.relay.next(s.later({ handle: 'made-up', cost: cost(7n, 'ModelBased') }));
    expect([d.verdict, d.deny_reason, d.why, d.debited]).toEqual(['deny', 'chain-broken', 'the handle was never returned to a request decided here (or was closed or forgotten)', []]);
    const core = verifyReceipt(d.receipt, { steward: steward.did }).core;
    expect([core.grant_id, core.cost_uj, core.energy_provenance, core.budget_uj, core.budget_remaining_uj]).toEqual([gid(), 7n, 'ModelBased', 100n, 90n]);
    expect(s.point.spent(gid())).toBe(10n);
  });

  it('what is left of the presented grant is never below zero', () => {
    const s = setup();
    s.point.restoreSpend(gid(), 500n);
    const core = s.relay.next(s.later({ handle: 'made-up' })).core;
    expect([core.deny_reason, core.budget_remaining_uj]).toEqual(['chain-broken', 0n]);
  });

  it('a handle forgotten past the bound leaves its work: closing that work does not close the handle bound anew elsewhere', () => {
    const s = setup({ maxKept: 2 });
    s.relay.bind(s.first.receipt_id, 'task-2');
    s.relay.bind(s.first.receipt_id, 'task-3'); // forgets task-1
    expect(s.relay.next(s.later()).deny_reason).toBe('chain-broken');
    const other = s.relay.decide({ frame: frame(2), chain: [grant], caller: bob.did, cost: cost(1n), now_s: 1n });
    s.relay.bind(other.receipt_id, 'task-1'); // task-1 now names the other work (and task-2 is forgotten)
    s.relay.close('task-3', contentId({ out: 1 }), 3n);
    expect(s.relay.next(s.later({ handle: 'task-3' })).deny_reason).toBe('chain-broken');
    const d = s.relay.next(s.later());
    expect(d.verdict).toBe('allow');
    expect(d.core.payload_hash).toBe(contentId({ continues: other.receipt_id, handle: 'task-1', sent: contentId({ get: 'task-1' }) }));
  });

  it('past the bound on requests the handles stay bound (a separate bound), and closing the work closes them all, whatever their text', () => {
    const s = setup({ maxKept: 1 });
    // a handle is any text the endpoint minted: here, one spelled like the first receipt's id
    s.relay.bind(s.first.receipt_id, s.first.receipt_id);
    s.relay.decide({ frame: frame(2), chain: [grant], caller: bob.did, cost: cost(1n), now_s: 1n }); // forgets the first request
    expect(thrown(() => s.relay.bind(s.first.receipt_id, 'task-9')).code).toBe('ERR_CONTINUATION_UNDECIDED');
    s.relay.close(s.first.receipt_id, contentId({ out: 1 }), 3n);
    expect(s.relay.next(s.later({ handle: s.first.receipt_id })).deny_reason).toBe('chain-broken');
  });
});

describe('jcp §6.1 bind: only to an allowed request decided here, one work per handle', () => {
  it('refuses an empty handle, an unknown receipt, and a handle bound to other work, each with its message', () => {
    const s = setup();
    expect(thrown(() => s.relay.bind(s.first.receipt_id, '')).message).toBe('ERR_BAD_ARGUMENT: a handle must be non-empty text');
    const nothing = contentId({ nothing: 1 });
    expect(thrown(() => s.relay.bind(nothing, 'h')).message).toBe(`ERR_CONTINUATION_UNDECIDED: no allowed request with receipt ${nothing} was decided here (or it was closed or forgotten)`);
    const other = s.relay.decide({ frame: frame(2), chain: [grant], caller: bob.did, cost: cost(1n), now_s: 1n });
    expect(thrown(() => s.relay.bind(other.receipt_id, 'task-1')).message).toBe('ERR_BAD_ARGUMENT: the handle is already bound to other work');
    expect(s.relay.next(s.later()).core.payload_hash).toBe(contentId({ continues: s.first.receipt_id, handle: 'task-1', sent: contentId({ get: 'task-1' }) }));
    s.relay.bind(s.first.receipt_id, 'task-1'); // the same work again: accepted
  });

  it("binds to an allowed continuation's receipt, never to a refused one's", () => {
    const s = setup();
    const refused = s.relay.next(s.later({ cost: cost(91n) }));
    expect(refused.deny_reason).toBe('budget-exceeded');
    expect(thrown(() => s.relay.bind(refused.receipt_id, 'h')).code).toBe('ERR_CONTINUATION_UNDECIDED');
    const allowed = s.relay.next(s.later());
    s.relay.bind(allowed.receipt_id, 'task-1b');
    expect(s.relay.next(s.later({ handle: 'task-1b' })).core.payload_hash).toBe(contentId({ continues: allowed.receipt_id, handle: 'task-1b', sent: contentId({ get: 'task-1' }) }));
  });

  it("closing a work forgets its receipts, and only its own: another work's stay bindable", () => {
    const s = setup();
    const other = s.relay.decide({ frame: frame(2), chain: [grant], caller: bob.did, cost: cost(1n), now_s: 1n });
    s.relay.close('task-1', contentId({ out: 1 }), 3n);
    expect(thrown(() => s.relay.bind(s.first.receipt_id, 'again')).code).toBe('ERR_CONTINUATION_UNDECIDED');
    s.relay.bind(other.receipt_id, 'task-2');
    expect(s.relay.next(s.later({ handle: 'task-2' })).verdict).toBe('allow');
  });
});

describe('jcp §6.1 item 1: each later exchange decided at its moment, metered only when allowed, chained either way', () => {
  it('the flow check is shown the work as it stands: first receipt, continuations so far, metered sum, first frame', () => {
    const seen: WorkView[] = [];
    const s = setup({ relay: { flowCheck: ({ work }) => (seen.push(work), undefined) } });
    const a = s.relay.next(s.later({ cost: cost(4n) }));
    s.relay.next(s.later());
    expect(seen).toEqual([
      { first_receipt: s.first.receipt_id, continuations: [], metered_uj: 10n, frame: frame() },
      { first_receipt: s.first.receipt_id, continuations: [a.receipt_id], metered_uj: 14n, frame: frame() },
    ]);
  });

  it("a host flow check's refusal is sealed with its reason and why, and nothing comes back until an exchange is allowed", () => {
    let refuse = true;
    const s = setup({ relay: { flowCheck: () => (refuse ? 'flow-denied' : undefined) } });
    const d = s.relay.next(s.later());
    expect([d.verdict, d.deny_reason, d.why, d.debited]).toEqual(['deny', 'flow-denied', 'the answers failed the host flow check', []]);
    expect(thrown(() => s.relay.admit('task-1', contentId({ out: 1 }))).message).toBe(
      'ERR_CONTINUATION_UNDECIDED: the latest exchange on that handle was refused, so nothing was forwarded to come back',
    );
    refuse = false;
    const a = s.relay.next(s.later());
    expect(a.verdict).toBe('allow');
    expect(a.core.payload_hash).toBe(contentId({ continues: d.receipt_id, handle: 'task-1', sent: contentId({ get: 'task-1' }) }));
    expect(s.relay.admit('task-1', contentId({ out: 1 })).frame.payload_hash).toBe(contentId({ out: 1 }));
  });

  it("the answers' label goes to the gate: a taint floor admits the origin it accepts and refuses another", () => {
    const s = setup({ first: { label: BOTTOM } });
    s.point.setTaintFloor(resource, ['mail']);
    expect(s.relay.next(s.later({ label: label('untrusted', ['mail']) })).verdict).toBe('allow');
    const d = s.relay.next(s.later({ label: label('untrusted', ['web']) }));
    expect([d.deny_reason, d.why]).toEqual(['flow-denied', 'the resource\'s taint floor refuses origin "web"']);
    expect(s.point.spent(gid())).toBe(15n);
  });

  it('the closing record names the first receipt and every continuation receipt, a refused one included', () => {
    const s = setup({ first: { cost: cost(10n, 'HwShunt') } });
    const refused = s.relay.next(s.later({ caller: mallory.did, cost: cost(0n, 'HwShunt') }));
    expect(refused.deny_reason).toBe('wrong-subject');
    const a = s.relay.next(s.later({ cost: cost(5n, 'HwShunt') }));
    const c = s.relay.close('task-1', contentId({ out: 1 }), 3n, cost(2n, 'HwShunt'));
    expect(recordOf(c.record)).toEqual({ first_receipt: s.first.receipt_id, continuation_receipts: [refused.receipt_id, a.receipt_id], metered_uj: 17, outcome_digest: contentId({ out: 1 }) });
    expect([c.decision.core.cost_uj, c.decision.core.energy_provenance, c.decision.core.energy_coverage]).toEqual([17n, 'HwShunt', undefined]);
  });
});

describe('jcp §6.1 item 3: what comes back is admitted as data, labelled with everything the client sent', () => {
  it('refuses an unknown handle and a digest that is not a content id, each with its message', () => {
    const s = setup();
    expect(thrown(() => s.relay.admit('made-up', contentId({ out: 1 }))).message).toBe('ERR_CONTINUATION_UNDECIDED: no work is bound to that handle here');
    expect(thrown(() => s.relay.admit('task-1', 'nope')).message).toBe('ERR_BAD_ARGUMENT: outcome_digest must be a content id');
  });

  it("joins the output's label with the first request's and every allowed exchange's", () => {
    const s = setup({ first: { label: label('principal', ['mail']) } });
    s.relay.next(s.later({ label: label('principal', ['chat'], [alice.did, bob.did].sort()) }));
    const admitted = s.relay.admit('task-1', contentId({ out: 1 }), label('untrusted', ['web'], [bob.did]));
    expect(admitted.label).toEqual({ integrity: 'untrusted', origins: ['chat', 'mail', 'web'], readers: [bob.did] });
    expect(admitted.frame).toEqual({ ...frame(), kind: 'tool-result', trust: 'data', payload_hash: contentId({ out: 1 }) });
  });

  it('the label is absent when the output, the first request or any allowed exchange carried none', () => {
    const labelled = setup({ first: { label: BOTTOM } });
    expect('label' in labelled.relay.admit('task-1', contentId({ out: 1 }))).toBe(false);
    expect(labelled.relay.admit('task-1', contentId({ out: 1 }), BOTTOM).label).toEqual(BOTTOM);
    labelled.relay.next(labelled.later());
    expect('label' in labelled.relay.admit('task-1', contentId({ out: 1 }), BOTTOM)).toBe(false);
    const unlabelled = setup();
    expect('label' in unlabelled.relay.admit('task-1', contentId({ out: 1 }), BOTTOM)).toBe(false);
    unlabelled.relay.next(unlabelled.later({ label: BOTTOM }));
    expect('label' in unlabelled.relay.admit('task-1', contentId({ out: 1 }), BOTTOM)).toBe(false);
  });

  it("joinLabels: 'any' origins absorb, readers intersect whatever order the lists come in, none is ⊥", () => {
    expect(joinLabels([])).toEqual(BOTTOM);
    expect(joinLabels([label('principal', ['mail']), label('principal', 'any'), label('principal', ['web'])])).toEqual(label('principal', 'any'));
    const [a, b] = [alice.did, bob.did].sort() as [string, string];
    expect(joinLabels([label('principal', [], [a]), label('principal', [], [a, b])])).toEqual(label('principal', [], [a]));
    expect(joinLabels([label('principal', [], [a, b]), label('principal', [], 'all'), label('principal', [], [b])])).toEqual(label('principal', [], [b]));
  });
});

describe('jcp §6.1 item 4: one closing record, Partial unless the meter read the work between exchanges', () => {
  it('refuses an unknown handle, a bad digest and a bad reading between, each with its message, closing nothing', () => {
    const s = setup();
    expect(thrown(() => s.relay.close('made-up', contentId({ out: 1 }), 3n)).message).toBe('ERR_CONTINUATION_UNDECIDED: no work is bound to that handle here');
    expect(thrown(() => s.relay.close('task-1', 'nope', 3n)).message).toBe('ERR_BAD_ARGUMENT: outcome_digest must be a content id');
    for (const between of [{ uj: -1n, provenance: 'HwShunt' }, { uj: 1n, provenance: 'HwShunt', coverage: 'Whole' }]) {
      expect(thrown(() => s.relay.close('task-1', contentId({ out: 1 }), 3n, between as never)).message).toBe(`ERR_BAD_ARGUMENT: between (the meter's reading between exchanges) must be ${COST_RULE}`);
    }
    expect(s.relay.next(s.later()).verdict).toBe('allow');
  });

  it('a reading between with every figure Whole leaves the sum Whole; any Partial figure makes it Partial', () => {
    const whole = setup();
    whole.relay.next(whole.later());
    expect(recordOf(whole.relay.close('task-1', contentId({ out: 1 }), 3n, cost(1n)).record).energy_coverage).toBeUndefined();
    const firstPartial = setup({ first: { cost: cost(10n, 'Estimator', true) } });
    expect(recordOf(firstPartial.relay.close('task-1', contentId({ out: 1 }), 3n, cost(1n)).record).energy_coverage).toBe('Partial');
    const laterPartial = setup();
    laterPartial.relay.next(laterPartial.later({ cost: cost(5n, 'Estimator', true) }));
    laterPartial.relay.next(laterPartial.later());
    expect(recordOf(laterPartial.relay.close('task-1', contentId({ out: 1 }), 3n, cost(1n)).record).energy_coverage).toBe('Partial');
    const betweenPartial = setup();
    const c = betweenPartial.relay.close('task-1', contentId({ out: 1 }), 3n, cost(1n, 'Estimator', true));
    expect([recordOf(c.record).energy_coverage, c.decision.core.energy_coverage]).toEqual(['Partial', 'Partial']);
  });

  it("the closing figure's provenance is the weakest of the figures summed, the reading between included", () => {
    const weakerLater = setup({ first: { cost: cost(10n, 'HwShunt') } });
    weakerLater.relay.next(weakerLater.later({ cost: cost(5n, 'ModelBased') }));
    expect(weakerLater.relay.close('task-1', contentId({ out: 1 }), 3n).decision.core.energy_provenance).toBe('ModelBased');
    const strongerLater = setup({ first: { cost: cost(10n, 'ModelBased') } });
    strongerLater.relay.next(strongerLater.later({ cost: cost(5n, 'HwShunt') }));
    expect(strongerLater.relay.close('task-1', contentId({ out: 1 }), 3n, cost(1n, 'HwShunt')).decision.core.energy_provenance).toBe('ModelBased');
    const weakerBetween = setup({ first: { cost: cost(10n, 'HwShunt') } });
    expect(weakerBetween.relay.close('task-1', contentId({ out: 1 }), 3n, cost(1n, 'Estimator')).decision.core.energy_provenance).toBe('Estimator');
  });
});
