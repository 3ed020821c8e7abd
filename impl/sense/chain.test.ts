// Unit tests of sense §8 (impl/sense/chain.ts): the sealed surfacing log's core, links and verify_chain — every
// decision chained, prev and seq, and any excision, reordering or edit breaking the chain at that link.
import fc from 'fast-check';
import { blake3 as nobleBlake3 } from '@noble/hashes/blake3.js';
import { describe, expect, it } from 'vitest';
import { codeOf, lazyKey } from '../_test-support.ts';
import { toHex } from '../bytes.ts';
import { decodeCanonical, encodeCanonical, type CborMap } from '../cbor/index.ts';
import { defaultEd25519 } from '../identity/ed25519.ts';
import { gateAll } from './attention.ts';
import { createSurfacingLog, linkCoreBytes, linkId, parseSignedLink, signedLinkBytes, verifyChain, type LinkFields } from './chain.ts';

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
});
