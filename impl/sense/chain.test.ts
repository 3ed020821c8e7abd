// Unit tests of sense §8 (impl/sense/chain.ts): the sealed surfacing log's core, links and verify_chain — every
// decision chained, prev and seq, and any excision, reordering or edit breaking the chain at that link.
import fc from 'fast-check';
import { blake3 as nobleBlake3 } from '@noble/hashes/blake3.js';
import { describe, expect, it } from 'vitest';
import { codeOf, lazyKey, thrown } from '../_test-support.ts';
import { toHex } from '../bytes.ts';
import { decodeCanonical, encodeCanonical, type CborMap } from '../cbor/index.ts';
import { defaultEd25519 } from '../identity/ed25519.ts';
import { gateAll } from './attention.ts';
import { createSurfacingLog, linkCoreBytes, linkCoreToCbor, linkId, parseSignedLink, signedLinkBytes, verifyChain, type LinkFields } from './chain.ts';

const host = lazyKey('sense-host');
const mallory = lazyKey('mallory');
const FC = { seed: 0xc4a1, numRuns: 60 } as const;
const EV = (i: number) => toHex(nobleBlake3(Uint8Array.of(i)));

/** n decisions from the real gate (worthy highlights, a budget for two surfacings), so holds and surfaces both occur. */
function decisions(n: number): LinkFields[] {
  const hs = Array.from({ length: n }, (_, i) => ({ probe: 'salience' as const, index: i, score: 900_000n + BigInt(i) }));
  const ds = gateAll(hs, { engagement_ppm: 600_000n, active_modality: 'visual', surface_modality: 'visual' }, 150n, 60n);
  return ds.map((d, i) => ({ event_id: EV(i), trust: 'FirstParty', highlight: { probe: d.highlight.probe, score: d.highlight.score }, value: d.value, cost: d.cost, decision: d.outcome, charged_uj: d.charged_uj, budget_uj: d.budget_uj }));
}

function sealed(n: number, key = host): Uint8Array[] {
  const log = createSurfacingLog(key);
  for (const f of decisions(n)) log.seal(f);
  return log.links().map(signedLinkBytes);
}

/** The bytes of the second sealed link (seq 1) with `over` laid on its core (a field set to undefined is left out), and `sig`. */
function relinked(over: Record<string, unknown>, sig: unknown = new Uint8Array(64)): Uint8Array {
  const core = linkCoreToCbor(parseSignedLink(sealed(2)[1]!).core) as Record<string, unknown>;
  return encodeCanonical({ core: { ...core, ...over }, sig } as never);
}

describe('sense §8 the surfacing chain', () => {
  it('links carry seq from 0 and prev = blake3 of the previous canonical core; holds are chained too', () => {
    const links = sealed(4).map(parseSignedLink);
    expect(links.map((l) => l.core.decision)).toEqual(['surface', 'surface', 'hold:budget', 'hold:budget']);
    links.forEach((l, i) => {
      expect(l.core.seq).toBe(BigInt(i));
      if (i === 0) expect(l.core.prev).toBeUndefined();
      else expect(l.core.prev).toBe(toHex(nobleBlake3(linkCoreBytes(links[i - 1]!.core))));
      expect(defaultEd25519().verify(l.sig, linkCoreBytes(l.core), host.publicKey)).toBe(true);
    });
    expect(linkId(links[0]!.core)).toBe(toHex(nobleBlake3(encodeCanonical((decodeCanonical(signedLinkBytes(links[0]!)) as CborMap).get('core')!))));
  });

  it('the core at seq 0 has no prev field', () => {
    // the LinkCore type (exactOptionalPropertyTypes) has prev absent at seq 0, never undefined
    expect('prev' in createSurfacingLog(host).seal(decisions(1)[0]!).core).toBe(false);
    expect('prev' in parseSignedLink(sealed(1)[0]!).core).toBe(false);
  });

  it('the core commits to the event, its trust, the highlight, value/cost, decision, charge and budget left', () => {
    const core = (decodeCanonical(sealed(1)[0]!) as CborMap).get('core') as CborMap;
    expect([...core.keys()].sort()).toEqual(['budget_uj', 'charged_uj', 'cost', 'decision', 'event_id', 'highlight', 'host', 'seq', 'trust', 'value']);
  });

  it('verify_chain of an intact chain is n', () => {
    expect(verifyChain(sealed(5), host.did)).toEqual({ n: 5 });
    expect(verifyChain([], host.did)).toEqual({ n: 0 });
  });

  it('excising any link breaks the chain at that index', () => {
    fc.assert(
      fc.property(fc.integer({ min: 2, max: 6 }), fc.nat(), (n, k) => {
        const links = sealed(n);
        const i = k % (n - 1); // the last link's removal leaves a valid shorter chain: a truncation, not an excision
        const cut = [...links.slice(0, i), ...links.slice(i + 1)];
        expect(verifyChain(cut, host.did)).toEqual({ n: i, break: { index: i, reason: 'seq' } });
      }),
      FC,
    );
  });

  it('reordering two links breaks at the first moved one; editing a core breaks at it', () => {
    const links = sealed(4);
    expect(verifyChain([links[0]!, links[2]!, links[1]!, links[3]!], host.did).break).toEqual({ index: 1, reason: 'seq' });
    const l = parseSignedLink(links[2]!);
    const edited = signedLinkBytes({ core: { ...l.core, decision: 'surface', charged_uj: 60n }, sig: l.sig });
    expect(verifyChain([links[0]!, links[1]!, edited, links[3]!], host.did).break).toEqual({ index: 2, reason: 'signature' });
    // re-signed by the host itself (a host rewriting its own history): the next link's prev no longer matches
    const resigned = signedLinkBytes({ core: { ...l.core, budget_uj: 999n }, sig: defaultEd25519().sign(host.seed, linkCoreBytes({ ...l.core, budget_uj: 999n })) });
    expect(verifyChain([links[0]!, links[1]!, resigned, links[3]!], host.did).break).toEqual({ index: 3, reason: 'prev' });
  });

  it('a link of another host, or bytes that are no link, break the chain there', () => {
    const links = sealed(3);
    expect(verifyChain([links[0]!, sealed(3, mallory)[1]!, links[2]!], host.did).break).toEqual({ index: 1, reason: 'host' });
    expect(verifyChain([links[0]!, Uint8Array.of(0xa0)], host.did).break).toEqual({ index: 1, reason: 'malformed' });
    expect(verifyChain(links, mallory.did).break).toEqual({ index: 0, reason: 'host' });
  });

  it('refuses to seal a hold that charges, or a malformed decision', () => {
    const f = decisions(3)[2]!;
    expect(f.decision).toBe('hold:budget');
    expect(codeOf(() => createSurfacingLog(host).seal({ ...f, charged_uj: 1n }))).toBe('ERR_SENSE_LINK_MALFORMED');
    expect(codeOf(() => createSurfacingLog(host).seal({ ...f, event_id: 'x' }))).toBe('ERR_SENSE_LINK_MALFORMED');
    expect(codeOf(() => createSurfacingLog(host).seal({ ...f, trust: 'Trusted' as never }))).toBe('ERR_SENSE_LINK_MALFORMED');
    expect(codeOf(() => createSurfacingLog(host).seal({ ...f, decision: 'allow' as never }))).toBe('ERR_SENSE_LINK_MALFORMED');
    expect(codeOf(() => createSurfacingLog(host).seal({ ...f, value: undefined as never }))).toBe('ERR_SENSE_LINK_MALFORMED');
  });

  it('a hold that charges is refused, saying what it charges', () => {
    // sense §5: "a hold spends nothing"
    const err = thrown(() => createSurfacingLog(host).seal({ ...decisions(3)[2]!, charged_uj: 1n }));
    expect(err.code).toBe('ERR_SENSE_LINK_MALFORMED');
    expect(err.message).toContain('a hold:budget link must charge 0 µJ, charges 1');
  });

  it('refuses to seal what is no gate decision, or a decision whose highlight is no map', () => {
    const f = decisions(1)[0]!;
    for (const [bad, message] of [
      [null, 'a link needs the fields of a gate decision'],
      [7, 'a link needs the fields of a gate decision'],
      [{ ...f, highlight: 5 }, 'core.highlight must be a map'],
      [{ ...f, highlight: null }, 'core.highlight must be a map'],
      [{ ...f, highlight: undefined }, 'core.highlight must be a map'],
    ] as const) {
      const err = thrown(() => createSurfacingLog(host).seal(bad as never));
      expect(err.code).toBe('ERR_SENSE_LINK_MALFORMED');
      expect(err.message).toContain(message);
    }
  });

  it('a malformed link names the field that is wrong', () => {
    for (const [bytes, what] of [
      ['link' as unknown as Uint8Array, 'link'],
      [relinked({}, 'sig'), 'link.sig'],
      [relinked({ host: 5 }), 'core.host'],
      [relinked({ seq: 'one' }), 'core.seq'],
      [relinked({ trust: 'Trusted' }), 'core.trust'],
      [relinked({ highlight: { probe: 'hunch', score: 1 } }), 'core.highlight.probe'],
      [relinked({ highlight: { probe: 'salience', score: -1 } }), 'core.highlight.score'],
      [relinked({ value: -1 }), 'core.value'],
      [relinked({ cost: -1 }), 'core.cost'],
      [relinked({ decision: 'allow' }), 'core.decision'],
      [relinked({ charged_uj: -1 }), 'core.charged_uj'],
      [relinked({ budget_uj: -1 }), 'core.budget_uj'],
    ] as const) {
      const err = thrown(() => parseSignedLink(bytes));
      expect(err.code).toBe('ERR_SENSE_LINK_MALFORMED');
      expect(err.detail).toEqual({ what });
    }
  });

  it('a malformed link is refused, saying why', () => {
    for (const [bytes, message] of [
      [encodeCanonical(5), 'link must be a map'],
      [relinked({ extra: 1 }), 'core has an unknown field extra'],
      [relinked({ highlight: 5 }), 'core.highlight must be a map'],
      [relinked({ event_id: 'x' }), 'core.event_id must be a content id'],
      [relinked({ host: 'alice' }), 'core.host must be an Ed25519 did:key'],
      // sense §8: prev is the previous core's id, so it is there from seq 1 on
      [relinked({ prev: undefined }), 'core.prev must be absent exactly at seq 0'],
      [relinked({}, new Uint8Array(63)), 'link.sig must be 64 bytes, got 63'],
    ] as const) {
      const err = thrown(() => parseSignedLink(bytes));
      expect(err.code).toBe('ERR_SENSE_LINK_MALFORMED');
      expect(err.message).toContain(message);
    }
  });

  it('verify_chain refuses a host that is no did:key', () => {
    const err = thrown(() => verifyChain([], 'alice'));
    expect(err.code).toBe('ERR_DID_MALFORMED');
    expect(err.message).toContain('verify_chain needs the host as an Ed25519 did:key');
  });

  it('verify_chain throws a fault that is no refusal of a link instead of reporting a break', () => {
    // a typed-array look-alike: reading it throws a TypeError, a fault of the caller, not a verdict on the host's chain
    expect(() => verifyChain([Object.create(Uint8Array.prototype) as Uint8Array], host.did)).toThrow(TypeError);
  });
});
