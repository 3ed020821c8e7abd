// Conformance: sense §8 (sense:C5) and §11 (sense:C6). The sealed, hash-chained surfacing log — every decision,
// surface or hold, chained; the core's fields, canonical bytes, signature, seq and prev; verify_chain's count and
// first break under excision, reordering and edits — and the injected observation a surfacing delivers into a running
// agent: the link's own facts by its address, the destination and wake stated and bound into the frame's address,
// and the four refusals. The chains are sealed by the implementation under test; the oracle crafts the tampering and
// the wake authority (a standing grant's firing, jcp §4.6) and recomputes every expected hash and signature.
import fc from 'fast-check';
import { describe, expect } from 'vitest';
import { implementation } from '../driver.ts';
import { clauseIt } from '../clause.ts';
import { assertProperty, codeOf, expectCode } from '../refusal.ts';
import { fcParams } from '../external-vectors.ts';
import {
  authorMintPolicy,
  blake3,
  contentId,
  createMintLedger,
  decodeCanonical,
  defaultEd25519,
  encodeCanonical,
  eventClassId,
  grantId,
  lazy,
  mintGrant,
  signedGrantToCbor,
  toHex,
  type CborMap,
  type CborValue,
} from '../oracle.ts';
import { alice, bob, carol, key, mallory } from '../fixtures.ts';

const host = key('sense-host');
const EV = (i: number) => toHex(blake3(Uint8Array.of(0x5e, i)));
const HL = { probe: 'salience', score: 900_000n };

/** Gate decisions as sense.gate reports them: two surfaces, then holds of both kinds. */
const DECISIONS = [
  { event_id: EV(0), trust: 'FirstParty', highlight: HL, value: 900_000n, cost: 550_000n, decision: 'surface', charged_uj: 60n, budget_uj: 90n },
  { event_id: EV(1), trust: 'Inferred', highlight: { probe: 'uncertainty', score: 800_000n }, value: 400_000n, cost: 550_000n, decision: 'hold:value', charged_uj: 0n, budget_uj: 90n },
  { event_id: EV(2), trust: 'Attested', highlight: HL, value: 900_000n, cost: 550_000n, decision: 'surface', charged_uj: 60n, budget_uj: 30n },
  { event_id: EV(3), trust: 'Untrusted', highlight: { probe: 'novelty', score: 1_000_000n }, value: 1_000_000n, cost: 550_000n, decision: 'hold:budget', charged_uj: 0n, budget_uj: 30n },
  { event_id: EV(4), trust: 'FirstParty', highlight: HL, value: 900_000n, cost: 0n, decision: 'hold:budget', charged_uj: 0n, budget_uj: 30n },
];
const seal = (seed = host.seed, ds = DECISIONS) => implementation().senseSeal(seed, ds as never);
const coreOf = (link: Uint8Array): CborMap => (decodeCanonical(link) as CborMap).get('core') as CborMap;
const sigOf = (link: Uint8Array): Uint8Array => (decodeCanonical(link) as CborMap).get('sig') as Uint8Array;
const idOfCore = (core: CborValue): string => toHex(blake3(encodeCanonical(core as never)));
/** A link rebuilt with `core`, signed by `signer` (the host itself, or an attacker). */
const resign = (core: CborMap, signer = host): Uint8Array => encodeCanonical({ core, sig: defaultEd25519().sign(signer.seed, encodeCanonical(core)) } as never);
const n = (v: CborValue | undefined): bigint => BigInt(v as number | bigint);

describe('sense §8 the sealed, hash-chained surfacing log (C5)', () => {
  clauseIt(['sense/8#every-decision-chained', 'sense/8#holds-chained'], 'every gate decision, surface and hold alike, seals as the next link', async () => {
    const { links, link_ids } = await seal();
    expect(links).toHaveLength(DECISIONS.length);
    expect(links.map((l) => coreOf(l).get('decision'))).toEqual(['surface', 'hold:value', 'surface', 'hold:budget', 'hold:budget']);
    expect(link_ids).toEqual(links.map((l) => idOfCore(coreOf(l))));
  });

  clauseIt(['sense/8#signed-core-commits'], "the signed core commits to the event id, its trust, the highlight, value/cost, decision, charge and budget left", async () => {
    const { links } = await seal();
    links.forEach((l, i) => {
      const c = coreOf(l);
      const d = DECISIONS[i]!;
      expect(c.get('event_id')).toBe(d.event_id);
      expect(c.get('trust')).toBe(d.trust);
      const h = c.get('highlight') as CborMap;
      expect([h.get('probe'), n(h.get('score'))]).toEqual([d.highlight.probe, d.highlight.score]);
      expect([n(c.get('value')), n(c.get('cost')), c.get('decision'), n(c.get('charged_uj')), n(c.get('budget_uj'))]).toEqual([d.value, d.cost, d.decision, d.charged_uj, d.budget_uj]);
      expect(c.get('host')).toBe(host.did);
      // the core signs with the host's Ed25519 key, over its canonical bytes
      expect(defaultEd25519().verify(sigOf(l), encodeCanonical(c as never), host.publicKey)).toBe(true);
    });
  });

  clauseIt(['sense/3#receipt-core-det-cbor'], 'each link and its core are canonical det-CBOR with no optional field written as null', async () => {
    const { links } = await seal();
    for (const l of links) {
      expect(encodeCanonical(decodeCanonical(l) as never)).toEqual(l);
      const c = coreOf(l);
      for (const v of c.values()) expect(v === null || v === undefined || typeof v === 'boolean' || typeof v === 'number' && !Number.isInteger(v)).toBe(false);
    }
    expect(coreOf(links[0]!).has('prev')).toBe(false);
  });

  clauseIt(['sense/8#prev-and-seq'], "seq increments from zero and each prev is the BLAKE3 content id of the previous link's canonical core", async () => {
    const { links } = await seal();
    links.forEach((l, i) => {
      const c = coreOf(l);
      expect(n(c.get('seq'))).toBe(BigInt(i));
      if (i > 0) expect(c.get('prev')).toBe(idOfCore(coreOf(links[i - 1]!)));
    });
    expect(await implementation().senseVerifyChain(host.did, links)).toEqual({ n: 5n });
  });

  clauseIt(['sense/8#tamper-breaks-chain'], 'excising the middle link breaks the chain at its index; so does excising any link but the last', async () => {
    const { links } = await seal();
    // the published shape of C5: excise the middle link (index 2) of five
    expect(await implementation().senseVerifyChain(host.did, [...links.slice(0, 2), ...links.slice(3)])).toEqual({ n: 2n, break: { index: 2n, reason: 'seq' } });
    await assertProperty(
      fc.asyncProperty(fc.integer({ min: 0, max: links.length - 2 }), async (i) => {
        const v = await implementation().senseVerifyChain(host.did, [...links.slice(0, i), ...links.slice(i + 1)]);
        expect(v.n).toBe(BigInt(i));
        expect(v.break?.index).toBe(BigInt(i));
      }),
      fcParams(8),
    );
  });

  clauseIt(['sense/8#tamper-breaks-chain'], 'reordering or editing a link breaks the chain at that point, even when the host re-signs its edit', async () => {
    const { links } = await seal();
    const swapped = [links[0]!, links[2]!, links[1]!, links[3]!, links[4]!];
    expect((await implementation().senseVerifyChain(host.did, swapped)).break?.index).toBe(1n);
    // a hold quietly turned into a surface, the signature left as it was
    const c1 = new Map(coreOf(links[1]!));
    c1.set('decision', 'surface');
    const edited = encodeCanonical({ core: c1, sig: sigOf(links[1]!) } as never);
    expect(await implementation().senseVerifyChain(host.did, [links[0]!, edited, ...links.slice(2)])).toEqual({ n: 1n, break: { index: 1n, reason: 'signature' } });
    // the host re-signs a changed budget: that link verifies alone, but the next one's prev no longer matches
    const c2 = new Map(coreOf(links[2]!));
    c2.set('budget_uj', 500n);
    expect(await implementation().senseVerifyChain(host.did, [links[0]!, links[1]!, resign(c2), ...links.slice(3)])).toEqual({ n: 3n, break: { index: 3n, reason: 'prev' } });
  });

  clauseIt(['sense/8#verify-chain-first-break'], 'verify_chain checks every signature, the sequence and every prev link, and reports the first break', async () => {
    const { links } = await seal();
    // an attacker's signature over an unchanged core
    const c3 = coreOf(links[3]!);
    const forged = resign(c3, mallory);
    expect(await implementation().senseVerifyChain(host.did, [...links.slice(0, 3), forged, links[4]!])).toEqual({ n: 3n, break: { index: 3n, reason: 'signature' } });
    // a sequence number rewritten and re-signed by the host
    const c4 = new Map(coreOf(links[4]!));
    c4.set('seq', 7n);
    expect(await implementation().senseVerifyChain(host.did, [...links.slice(0, 4), resign(c4)])).toEqual({ n: 4n, break: { index: 4n, reason: 'seq' } });
    // a prev pointing elsewhere, re-signed by the host
    const c2 = new Map(coreOf(links[2]!));
    c2.set('prev', EV(9));
    expect(await implementation().senseVerifyChain(host.did, [links[0]!, links[1]!, resign(c2), links[3]!, links[4]!])).toEqual({ n: 2n, break: { index: 2n, reason: 'prev' } });
    // two faults: the first is reported
    expect(await implementation().senseVerifyChain(host.did, [links[0]!, links[1]!, resign(c2), forged, links[4]!])).toEqual({ n: 2n, break: { index: 2n, reason: 'prev' } });
  });
});

// ---- sense §11: injected observations (C6) ----

/** The wake authority: a child that a firing of alice's standing grant (held by bob) minted for the recipient (jcp §4.6). */
const WAKE_CLASS = () => eventClassId({ source: 'sense', event: 'surfacing' });
const standing = lazy(() => mintGrant(alice, { subject: bob.did, resource: contentId({ resource: 'agent:carol' }), actions: ['wake'], budget_uj: 1000n, nonce: new Uint8Array(16).fill(1) }));
const policy = lazy(() => authorMintPolicy(standing, alice, { event_class: WAKE_CLASS(), per_firing_uj: 100n, max_firings: 5n }));
const fired = lazy(() => createMintLedger().fire({ policy, standing, holder: bob, event_class: WAKE_CLASS(), subject: carol.did, nonce: new Uint8Array(16).fill(2) }));
const WAKE = () => encodeCanonical(signedGrantToCbor(fired));

const RUNNING = lazy(() => ({ recipient: carol.did, position: 4n, destination: 'own', run_state: 'running' as const, delivery: { uj: 12n, provenance: 'Estimator' } }));
const frameMap = (b: Uint8Array): CborMap => decodeCanonical(b) as CborMap;

describe('sense §11 surfacing into a running agent (C6)', () => {
  clauseIt(
    ['sense/11#injected-frame-states', 'sense/11#frame-cites-link', 'sense/11#frame-binds-event-trust', 'sense/11#frame-states-delivery-joules', 'sense/11.1#destination-stated'],
    "a sealed surfacing delivers as a frame carrying the link's own facts, its destination and its price",
    async () => {
      const { links, link_ids } = await seal();
      const out = await implementation().senseInject({ ...RUNNING, link: links[2]! });
      const f = frameMap(out.frame);
      expect(out.frame_id).toBe(toHex(blake3(out.frame)));
      expect(f.get('kind')).toBe('injected_observation');
      // cites the sealed decision by the content address of its signed core
      expect(f.get('link')).toBe(link_ids[2]);
      expect(f.get('link')).toBe(idOfCore(coreOf(links[2]!)));
      // the event's id and its declared trust, as the link sealed them
      expect(f.get('event_id')).toBe(DECISIONS[2]!.event_id);
      expect(f.get('trust')).toBe('Attested');
      expect(f.get('destination')).toBe('own');
      expect(f.get('author')).toBe(host.did);
      expect(f.get('recipient')).toBe(carol.did);
      // the delivery's own joules, not the 60 µJ §5 charged for deciding to surface
      expect(f.get('delivery')).toEqual(new Map<string, unknown>([['uj', 12], ['provenance', 'Estimator']]));
      const derived = frameMap((await implementation().senseInject({ ...RUNNING, destination: 'derived', link: links[2]! })).frame);
      expect(derived.get('destination')).toBe('derived');
      // another surfacing, of another trust level: the frame carries that one's facts
      const first = frameMap((await implementation().senseInject({ ...RUNNING, link: links[0]! })).frame);
      expect([first.get('link'), first.get('event_id'), first.get('trust')]).toEqual([link_ids[0], DECISIONS[0]!.event_id, 'FirstParty']);
    },
  );

  clauseIt(['sense/11#not-result-words-or-out-of-order'], 'the frame is its own kind — no result, no principal’s words — and states its position in the order', async () => {
    const { links } = await seal();
    const a = await implementation().senseInject({ ...RUNNING, link: links[0]! });
    const f = frameMap(a.frame);
    // jcp §6's kinds: a result is tool-result, the principal's words agent-task
    expect(['tool-call', 'tool-result', 'agent-task', 'agent-reply']).not.toContain(f.get('kind'));
    expect(f.get('position')).toBe(4);
    const later = await implementation().senseInject({ ...RUNNING, position: 5n, link: links[0]! });
    expect(frameMap(later.frame).get('position')).toBe(5);
    expect(later.frame_id).not.toBe(a.frame_id);
  });

  clauseIt(['sense/11#frame-states-wake-authority', 'sense/11.2#wake-names-authority'], 'a delivery that wakes a parked run names the standing grant firing that permitted it', async () => {
    const { links } = await seal();
    const f = frameMap((await implementation().senseInject({ ...RUNNING, run_state: 'parked', wake_authority: WAKE(), link: links[0]! })).frame);
    expect(f.get('recipient_state')).toBe('woken');
    expect(f.get('wake_authority')).toBe(grantId(fired.grant));
  });

  clauseIt(['sense/11.2#wake-refused-without-authority'], 'waking a parked run with no authority, or with one that is not a firing for the recipient, is refused', async () => {
    const { links } = await seal();
    const parked = { ...RUNNING, run_state: 'parked' as const, link: links[0]! };
    await expectCode(implementation().senseInject(parked), 'ERR_SENSE_WAKE_UNAUTHORIZED');
    // the standing grant itself is no firing; a firing minted for someone else is not the recipient's
    await expectCode(implementation().senseInject({ ...parked, wake_authority: encodeCanonical(signedGrantToCbor(standing)) }), 'ERR_SENSE_WAKE_UNAUTHORIZED');
    const forBob = createMintLedger().fire({ policy, standing, holder: bob, event_class: WAKE_CLASS(), subject: bob.did, nonce: new Uint8Array(16).fill(3) });
    await expectCode(implementation().senseInject({ ...parked, wake_authority: encodeCanonical(signedGrantToCbor(forBob)) }), 'ERR_SENSE_WAKE_UNAUTHORIZED');
  });

  clauseIt(['sense/11.2#running-and-unpermitted-distinct'], 'an already-running recipient names no authority, in a shape no unpermitted wake can take', async () => {
    const { links } = await seal();
    const running = frameMap((await implementation().senseInject({ ...RUNNING, link: links[0]! })).frame);
    expect(running.get('recipient_state')).toBe('running');
    expect(running.has('wake_authority')).toBe(false);
    // a wake nobody permitted never becomes that frame: it is refused
    await expectCode(implementation().senseInject({ ...RUNNING, run_state: 'parked', link: links[0]! }), 'ERR_SENSE_WAKE_UNAUTHORIZED');
    const woken = frameMap((await implementation().senseInject({ ...RUNNING, run_state: 'parked', wake_authority: WAKE(), link: links[0]! })).frame);
    expect(woken.get('recipient_state')).not.toBe(running.get('recipient_state'));
  });

  clauseIt(['sense/11.2#hold-refused'], 'a hold is not deliverable', async () => {
    const { links } = await seal();
    await expectCode(implementation().senseInject({ ...RUNNING, link: links[1]! }), 'ERR_SENSE_HOLD_UNDELIVERABLE');
    await expectCode(implementation().senseInject({ ...RUNNING, link: links[3]! }), 'ERR_SENSE_HOLD_UNDELIVERABLE');
  });

  clauseIt(['sense/11.2#author-not-recipient', 'sense/11#refuse-recipient-authoring'], 'the recipient cannot be the author of an observation delivered to it', async () => {
    // carol seals her own "surfacing" and tries to deliver it to herself
    const own = await seal(carol.seed);
    await expectCode(implementation().senseInject({ ...RUNNING, link: own.links[0]! }), 'ERR_SENSE_SELF_AUTHORED');
    // and authoring the injected kind directly is refused
    await expectCode(implementation().senseAgentAuthor('injected_observation'), 'ERR_SENSE_SELF_AUTHORED');
  });

  clauseIt(['sense/11#kind-not-offered-for-authoring'], 'the injected kind is not offered to the agent as something it may author', async () => {
    const kinds = await implementation().senseAgentKinds();
    expect(kinds).not.toContain('injected_observation');
    for (const k of kinds) expect(await codeOf(implementation().senseAgentAuthor(k))).toBe('accepted');
  });

  clauseIt(['sense/11.2#zero-priced-refused'], 'a delivery priced at zero is refused, whatever its provenance', async () => {
    const { links } = await seal();
    for (const provenance of ['Estimator', 'ModelBased', 'HwShunt']) {
      await expectCode(implementation().senseInject({ ...RUNNING, link: links[0]!, delivery: { uj: 0n, provenance } }), 'ERR_SENSE_DELIVERY_UNPRICED');
    }
    expect(await codeOf(implementation().senseInject({ ...RUNNING, link: links[0]!, delivery: { uj: 1n, provenance: 'Estimator' } }))).toBe('accepted');
  });

  clauseIt(['sense/11.2#frame-address-binds-destination-wake'], 'neither the destination nor the presence of a wake changes without changing the frame address', async () => {
    const { links } = await seal();
    const link = links[2]!;
    await assertProperty(
      fc.asyncProperty(fc.bigInt({ min: 0n, max: 1n << 32n }), fc.bigInt({ min: 1n, max: 1n << 32n }), async (position, uj) => {
        const at = (over: object) => implementation().senseInject({ ...RUNNING, link, position, delivery: { uj, provenance: 'Estimator' }, ...over });
        const ids = await Promise.all([
          at({}),
          at({ destination: 'derived' }),
          at({ run_state: 'parked', wake_authority: WAKE() }),
          at({ destination: 'derived', run_state: 'parked', wake_authority: WAKE() }),
        ]);
        expect(new Set(ids.map((x) => x.frame_id)).size).toBe(4);
        for (const x of ids) expect(x.frame_id).toBe(toHex(blake3(x.frame)));
      }),
      fcParams(10),
    );
  });

  clauseIt(['sense/11#frame-binds-event-trust'], 'a link whose trust or event was re-tagged after sealing is refused, not delivered', async () => {
    const { links } = await seal();
    const c = new Map(coreOf(links[0]!));
    c.set('trust', 'Attested');
    const retagged = encodeCanonical({ core: c, sig: sigOf(links[0]!) } as never);
    await expectCode(implementation().senseInject({ ...RUNNING, link: retagged }), 'ERR_SENSE_LINK_SIGNATURE_INVALID');
  });
});
