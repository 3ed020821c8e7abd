// Unit tests of sense §11 (impl/sense/inject.ts): an injected observation states the link it carries out, the event's
// id and trust, its destination, its wake authority and its price; the four refusals; the frame address binding
// destination and the presence of a wake.
import fc from 'fast-check';
import { blake3 as nobleBlake3 } from '@noble/hashes/blake3.js';
import { describe, expect, it } from 'vitest';
import { codeOf, lazy, lazyKey, thrown } from '../_test-support.ts';
import { toHex } from '../bytes.ts';
import { decodeCanonical, type CborMap } from '../cbor/index.ts';
import { contentId } from '../jcp/content-id.ts';
import { grantId, mintGrant } from '../jcp/grant.ts';
import { authorMintPolicy, createMintLedger, eventClassId } from '../jcp/standing.ts';
import { FRAME_KINDS } from '../jcp/types.ts';
import { createSurfacingLog, linkCoreBytes, type SignedLink } from './chain.ts';
import { AGENT_AUTHORABLE_KINDS, assertAgentMayAuthor, INJECTED_KIND, injectObservation, type InjectionFields } from './inject.ts';

const host = lazyKey('sense-host');
const alice = lazyKey('alice');
const bob = lazyKey('bob');
const carol = lazyKey('carol'); // the recipient agent
const n16 = (i: number): Uint8Array => new Uint8Array(16).fill(i);
const EV = () => toHex(nobleBlake3(Uint8Array.of(7)));

const PUSH = () => eventClassId({ source: 'sense', event: 'surfacing' });
const standing = lazy(() => mintGrant(alice, { subject: bob.did, resource: contentId({ resource: 'agent:carol' }), actions: ['wake'], budget_uj: 1000n, nonce: n16(1) }));
const policy = lazy(() => authorMintPolicy(standing, alice, { event_class: PUSH(), per_firing_uj: 100n, max_firings: 5n }));
const wake = lazy(() => createMintLedger().fire({ policy, standing, holder: bob, event_class: PUSH(), subject: carol.did, nonce: n16(2) }));

function links(author = host): SignedLink[] {
  const log = createSurfacingLog(author);
  const base = { event_id: EV(), trust: 'Inferred' as const, highlight: { probe: 'salience' as const, score: 900_000n }, value: 900_000n, cost: 100_000n };
  log.seal({ ...base, decision: 'surface', charged_uj: 60n, budget_uj: 40n });
  log.seal({ ...base, decision: 'hold:budget', charged_uj: 0n, budget_uj: 40n });
  log.seal({ ...base, decision: 'hold:value', charged_uj: 0n, budget_uj: 40n, value: 10n });
  return [...log.links()];
}
const linked = lazy(() => links(), []);
const [SURFACE, HOLD_BUDGET, HOLD_VALUE] = [0, 1, 2].map((i) => lazy(() => linked[i]!));
const base: InjectionFields = lazy(() => ({ link: SURFACE!, recipient: carol.did, position: 3n, destination: 'own', run_state: 'running', delivery: { uj: 12n, provenance: 'Estimator' } }));
const frameOf = (f: InjectionFields): CborMap => decodeCanonical(injectObservation(f).bytes) as CborMap;

describe('sense §11 injected observations', () => {
  it("the frame is its own kind and carries the link's own facts, by the link's address", () => {
    const out = injectObservation(base);
    const m = frameOf(base);
    expect(m.get('kind')).toBe(INJECTED_KIND);
    expect(m.get('link')).toBe(toHex(nobleBlake3(linkCoreBytes(SURFACE!.core))));
    expect(m.get('event_id')).toBe(EV());
    expect(m.get('trust')).toBe('Inferred');
    expect(m.get('author')).toBe(host.did);
    expect(m.get('recipient')).toBe(carol.did);
    expect(m.get('position')).toBe(3);
    expect(m.get('destination')).toBe('own');
    expect(m.get('recipient_state')).toBe('running');
    expect(m.has('wake_authority')).toBe(false);
    expect((m.get('delivery') as CborMap).get('uj')).toBe(12);
    expect(out.frame_id).toBe(toHex(nobleBlake3(out.bytes)));
  });

  it('a woken recipient names the firing that permitted the wake', () => {
    const m = frameOf({ ...base, run_state: 'parked', wake_authority: wake });
    expect(m.get('recipient_state')).toBe('woken');
    expect(m.get('wake_authority')).toBe(grantId(wake.grant));
  });

  it('the injected kind is no result, no principal task, and not something the agent may author', () => {
    expect((FRAME_KINDS as readonly string[]).includes(INJECTED_KIND)).toBe(false);
    expect((AGENT_AUTHORABLE_KINDS as readonly string[]).includes(INJECTED_KIND)).toBe(false);
    expect(codeOf(() => assertAgentMayAuthor(INJECTED_KIND))).toBe('ERR_SENSE_SELF_AUTHORED');
    expect(codeOf(() => assertAgentMayAuthor('tool-call'))).toBe('accepted');
    expect(codeOf(() => assertAgentMayAuthor('tool-result'))).toBe('ERR_BAD_ARGUMENT');
  });

  it('says why the agent may not author a kind', () => {
    expect(thrown(() => assertAgentMayAuthor(INJECTED_KIND)).message).toContain('a recipient cannot author an injected observation');
    expect(thrown(() => assertAgentMayAuthor('tool-result')).message).toContain('an agent may author only tool-call, agent-reply, not tool-result');
  });

  it('refuses a hold, a self-authored observation, a wake with no authority, and a zero price', () => {
    expect(codeOf(() => injectObservation({ ...base, link: HOLD_BUDGET! }))).toBe('ERR_SENSE_HOLD_UNDELIVERABLE');
    expect(codeOf(() => injectObservation({ ...base, link: HOLD_VALUE! }))).toBe('ERR_SENSE_HOLD_UNDELIVERABLE');
    expect(codeOf(() => injectObservation({ ...base, link: links(carol)[0]! }))).toBe('ERR_SENSE_SELF_AUTHORED');
    expect(codeOf(() => injectObservation({ ...base, run_state: 'parked' }))).toBe('ERR_SENSE_WAKE_UNAUTHORIZED');
    expect(codeOf(() => injectObservation({ ...base, run_state: 'parked', wake_authority: standing }))).toBe('ERR_SENSE_WAKE_UNAUTHORIZED');
    const forBob = createMintLedger().fire({ policy, standing, holder: bob, event_class: PUSH(), subject: bob.did, nonce: n16(3) });
    expect(codeOf(() => injectObservation({ ...base, run_state: 'parked', wake_authority: forBob }))).toBe('ERR_SENSE_WAKE_UNAUTHORIZED');
    expect(codeOf(() => injectObservation({ ...base, run_state: 'parked', wake_authority: { ...wake, signature: new Uint8Array(64) } }))).toBe('ERR_SENSE_WAKE_UNAUTHORIZED');
    expect(codeOf(() => injectObservation({ ...base, delivery: { uj: 0n, provenance: 'Estimator' } }))).toBe('ERR_SENSE_DELIVERY_UNPRICED');
    expect(codeOf(() => injectObservation({ ...base, delivery: { uj: 0n, provenance: 'HwShunt' } }))).toBe('ERR_SENSE_DELIVERY_UNPRICED');
  });

  it('says why it refuses, for each refusal', () => {
    const rootForCarol = mintGrant(alice, { subject: carol.did, resource: contentId({ resource: 'agent:carol' }), actions: ['wake'], budget_uj: 100n, nonce: n16(4) });
    const forBob = createMintLedger().fire({ policy, standing, holder: bob, event_class: PUSH(), subject: bob.did, nonce: n16(3) });
    for (const [f, code, message] of [
      [{ ...base, link: { core: { ...SURFACE!.core, trust: 'Attested' }, sig: SURFACE!.sig } }, 'ERR_SENSE_LINK_SIGNATURE_INVALID', 'the surfacing link is not signed by its host'],
      [{ ...base, link: HOLD_BUDGET! }, 'ERR_SENSE_HOLD_UNDELIVERABLE', 'the link records hold:budget; a hold is not deliverable'],
      [{ ...base, link: links(carol)[0]! }, 'ERR_SENSE_SELF_AUTHORED', 'the recipient cannot be the author of an observation delivered to it'],
      [{ ...base, run_state: 'parked' }, 'ERR_SENSE_WAKE_UNAUTHORIZED', 'waking a parked recipient needs the authority that permitted it'],
      // sense §11.2: the authority is "the fire of a standing grant", so a root grant, even one for the recipient, is none
      [{ ...base, run_state: 'parked', wake_authority: rootForCarol }, 'ERR_SENSE_WAKE_UNAUTHORIZED', 'the wake authority is a root grant'],
      [{ ...base, run_state: 'parked', wake_authority: forBob }, 'ERR_SENSE_WAKE_UNAUTHORIZED', 'the wake authority was minted for another principal than the recipient'],
      [{ ...base, run_state: 'parked', wake_authority: { ...wake, signature: new Uint8Array(64) } }, 'ERR_SENSE_WAKE_UNAUTHORIZED', 'the wake authority is not validly signed'],
      [{ ...base, delivery: { uj: 0n, provenance: 'Estimator' } }, 'ERR_SENSE_DELIVERY_UNPRICED', 'a delivery that happened is not free'],
      [{ ...base, wake_authority: wake }, 'ERR_SENSE_INJECTION_MALFORMED', 'a running recipient was not woken, so the delivery names no wake authority'],
    ] as const) {
      const err = thrown(() => injectObservation(f as InjectionFields));
      expect(err.code).toBe(code);
      expect(err.message).toContain(message);
    }
  });

  it('refuses a request that is no object, or a malformed link, recipient or delivery, saying which', () => {
    for (const [f, message] of [
      [undefined, 'a delivery needs a sealed link'],
      [null, 'a delivery needs a sealed link'],
      [{ ...base, link: undefined }, 'a delivery needs a sealed link'],
      [{ ...base, link: null }, 'a delivery needs a sealed link'],
      [{ ...base, recipient: 'carol' }, 'recipient must be an Ed25519 did:key'],
      [{ ...base, delivery: undefined }, 'delivery must be a cost {uj, provenance}'],
      [{ ...base, delivery: null }, 'delivery must be a cost {uj, provenance}'],
      [{ ...base, delivery: { uj: 5n, provenance: 'Estimator', coverage: 'Whole' } }, 'delivery.coverage is Partial or absent'],
    ] as const) {
      const err = thrown(() => injectObservation(f as never));
      expect(err.code).toBe('ERR_SENSE_INJECTION_MALFORMED');
      expect(err.message).toContain(message);
    }
  });

  it('a malformed request names the field that is wrong', () => {
    for (const [f, what] of [
      [{ ...base, destination: 'elsewhere' }, 'destination'],
      [{ ...base, run_state: 'asleep' }, 'run_state'],
      [{ ...base, position: -1n }, 'position'],
      [{ ...base, delivery: { uj: -1n, provenance: 'Estimator' } }, 'delivery.uj'],
    ] as const) {
      const err = thrown(() => injectObservation(f as never));
      expect(err.code).toBe('ERR_SENSE_INJECTION_MALFORMED');
      expect(err.detail).toEqual({ what });
    }
  });

  it('a delivery priced with Partial coverage carries it into the frame', () => {
    // sense §7: "a figure MUST NOT claim coverage of a domain its counter does not read"; such a figure is Partial
    const delivery = frameOf({ ...base, delivery: { uj: 12n, provenance: 'ModelBased', coverage: 'Partial' } }).get('delivery') as CborMap;
    expect(Object.fromEntries(delivery)).toEqual({ uj: 12, provenance: 'ModelBased', coverage: 'Partial' });
  });

  it('refuses a forged link and malformed requests', () => {
    expect(codeOf(() => injectObservation({ ...base, link: { core: { ...SURFACE!.core, trust: 'Attested' }, sig: SURFACE!.sig } }))).toBe('ERR_SENSE_LINK_SIGNATURE_INVALID');
    expect(codeOf(() => injectObservation({ ...base, destination: 'elsewhere' as never }))).toBe('ERR_SENSE_INJECTION_MALFORMED');
    expect(codeOf(() => injectObservation({ ...base, recipient: 'carol' }))).toBe('ERR_SENSE_INJECTION_MALFORMED');
    expect(codeOf(() => injectObservation({ ...base, wake_authority: wake }))).toBe('ERR_SENSE_INJECTION_MALFORMED');
    expect(codeOf(() => injectObservation({ ...base, delivery: { uj: 5n, provenance: 'Guess' as never } }))).toBe('ERR_SENSE_INJECTION_MALFORMED');
  });

  it('neither the destination nor the presence of a wake changes without changing the address', () => {
    const variants: InjectionFields[] = [
      base,
      { ...base, destination: 'derived' },
      { ...base, run_state: 'parked', wake_authority: wake },
      { ...base, destination: 'derived', run_state: 'parked', wake_authority: wake },
    ];
    const ids = variants.map((v) => injectObservation(v).frame_id);
    expect(new Set(ids).size).toBe(4);
    fc.assert(
      fc.property(fc.bigInt({ min: 0n, max: 1000n }), fc.bigInt({ min: 1n, max: 1000n }), (position, uj) => {
        const a = injectObservation({ ...base, position, delivery: { uj, provenance: 'Estimator' } }).frame_id;
        expect(injectObservation({ ...base, position, delivery: { uj, provenance: 'Estimator' }, destination: 'derived' }).frame_id).not.toBe(a);
        expect(injectObservation({ ...base, position, delivery: { uj, provenance: 'Estimator' }, run_state: 'parked', wake_authority: wake }).frame_id).not.toBe(a);
      }),
      { seed: 0x11, numRuns: 50 },
    );
  });
});
