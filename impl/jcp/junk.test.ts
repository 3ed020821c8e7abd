// Unit tests of the reference's TypeScript entry points against junk (STYLE.md): wrong types, look-alike objects, huge
// numbers. Each is refused with a JcpError and a stable code — never a TypeError, never a silent accept — and no state
// changes. Most of these values cannot cross the testee protocol at all (undefined, functions, symbols, a number where
// a bigint is due); the protocol-level junk checks are in harness/conformance/junk.test.ts.
import { describe, expect, it } from 'vitest';
import { allowedDecision, codeOf, lazyKey, TOOL_RESOURCE } from '../_test-support.ts';
import { blake3 } from '../hash/blake3.ts';
import { deriveSeed, keyPairFromSeed } from '../identity/ed25519.ts';
import { verifyReceipt } from '../receipt/verify.ts';
import { attenuate } from './attenuate.ts';
import { parseSignedGrant, parseSignedRevocation } from './codec.ts';
import { contentId } from './content-id.ts';
import { createEnforcementPoint, type EnforcementPoint } from './enforcement-point.ts';
import { grantId, mintGrant, signGrant, verifyGrantSignature } from './grant.ts';
import { mintRevocation } from './revocation.ts';
import type { Frame, SignedGrant } from './types.ts';

const key = lazyKey;
const nonce = (label: string): Uint8Array => blake3(new TextEncoder().encode(`nonce:${label}`)).slice(0, 16);
const alice = key('alice');
const bob = key('bob');
const carol = key('carol');
const steward = key('steward');
const TOOL = TOOL_RESOURCE;

function rootGrant(): SignedGrant {
  return mintGrant(alice, { subject: bob.did, resource: TOOL, actions: ['call', 'read'], budget_uj: 1000n, nonce: nonce('junk') });
}

function frameFor(sg: SignedGrant, over: Partial<Frame> = {}): Frame {
  return {
    kind: 'tool-call',
    trust: 'control',
    grant_id: grantId(sg.grant),
    action: 'call',
    resource: sg.grant.capability.resource,
    payload_hash: contentId({ payload: 'args' }),
    ...over,
  };
}

const point = (): EnforcementPoint => createEnforcementPoint({ steward });

const JUNK: unknown[] = [undefined, null, 0, -1, NaN, Infinity, 2 ** 64, 1n << 70n, '', 'x', {}, [], [[]], new Uint8Array(3), { grant: {} }, () => 1, Symbol('s'), new Map(), new Date(0)];

describe('junk at the boundary', () => {
  const g = rootGrant();
  const good = { frame: frameFor(g), chain: [g], caller: bob.did, cost: { uj: 1n, provenance: 'Estimator' as const }, now_s: 1n };

  it('decide refuses junk requests with ERR_BAD_ARGUMENT and debits nothing', () => {
    const p = point();
    const variants: unknown[] = [
      ...JUNK,
      { ...good, chain: [] },
      { ...good, chain: [null] },
      { ...good, chain: [{ grant: null, signature: new Uint8Array(64) }] },
      { ...good, frame: null },
      { ...good, frame: { ...good.frame, trust: 1 } },
      { ...good, caller: 5 },
      { ...good, cost: { uj: 1, provenance: 'Estimator' } },
      { ...good, cost: { uj: -1n, provenance: 'Estimator' } },
      { ...good, cost: { uj: 1n << 64n, provenance: 'Estimator' } },
      { ...good, cost: { uj: 1n, provenance: 'Guess' } },
      { ...good, cost: { uj: 1n, provenance: 'HwShunt', coverage: 'Whole' } },
      { ...good, now_s: 1 },
    ];
    for (const v of variants) expect(codeOf(() => p.decide(v as never))).toBe('ERR_BAD_ARGUMENT');
    expect(p.spent(grantId(g.grant))).toBe(0n);
    expect(p.decide(good).verdict).toBe('allow');
  });

  it('parsers refuse junk values with their malformed codes', () => {
    for (const v of JUNK) {
      expect(codeOf(() => parseSignedGrant(v as never))).toBe('ERR_GRANT_MALFORMED');
      expect(codeOf(() => parseSignedRevocation(v as never))).toBe('ERR_REVOCATION_MALFORMED');
      expect(['ERR_COSE_MALFORMED', 'ERR_COSE_TOO_LARGE']).toContain(codeOf(() => verifyReceipt(v as never)));
    }
  });

  it('revoke and attenuate refuse junk without changing state', () => {
    const p = point();
    const r = mintRevocation(alice, grantId(g.grant), nonce('junk-rev'));
    for (const v of [null, {}, { revocation: null, signature: new Uint8Array(64) }]) {
      expect(codeOf(() => p.revoke(v as never, g))).toBe('ERR_BAD_ARGUMENT');
    }
    expect(codeOf(() => p.revoke(r, { grant: {} } as never))).toBe('ERR_BAD_ARGUMENT');
    expect(p.isRevoked(grantId(g.grant))).toBe(false);
    expect(codeOf(() => attenuate(g, bob, { subject: 'not a did', nonce: nonce('j1') }))).toBe('ERR_GRANT_MALFORMED');
    expect(codeOf(() => attenuate(g, bob, { subject: carol.did, budget_uj: 5.5 as never, nonce: nonce('j2') }))).toBe('ERR_CBOR_UNENCODABLE');
    expect(codeOf(() => attenuate(g, bob, { subject: carol.did, nonce: new Uint8Array(2) }))).toBe('ERR_GRANT_MALFORMED');
    expect(verifyGrantSignature({ grant: g.grant, signature: new Uint8Array(3) })).toBe(false);
  });
});

describe('what the point seals, its verifier accepts; what mint signs, the parser accepts', () => {
  it('a frame the wire parser would refuse is refused before deciding, so no unverifiable receipt is sealed', () => {
    const d = allowedDecision(9);
    expect(verifyReceipt(d.receipt).core.verdict).toBe('allow');
    const p = createEnforcementPoint({ steward: keyPairFromSeed(deriveSeed('steward')) });
    const sg = mintGrant(alice, { subject: bob.did, resource: contentId({ resource: 'tool:search' }), actions: ['call'], budget_uj: 100n, nonce: nonce('seal-verify') });
    const frame = { kind: 'tool-call', trust: 'control', grant_id: grantId(sg.grant), action: 'call', resource: sg.grant.capability.resource, payload_hash: contentId({ p: 1 }) } as const;
    for (const bad of [{ payload_hash: 'not-a-cid' }, { kind: 'bogus' }, { action: '' }, { trust: 'maybe' }, { resource: 'ABC' }, { model: 'x' }]) {
      expect([bad, codeOf(() => p.decide({ frame: { ...frame, ...bad } as never, chain: [sg], caller: bob.did, cost: { uj: 1n, provenance: 'Estimator' }, now_s: 1n }))]).toEqual([bad, 'ERR_FRAME_MALFORMED']);
    }
    expect(p.spent(grantId(sg.grant))).toBe(0n);
    expect(verifyReceipt(p.decide({ frame, chain: [sg], caller: bob.did, cost: { uj: 1n, provenance: 'Estimator' }, now_s: 1n }).receipt).core.verdict).toBe('allow');
  });

  it('signGrant and mintRevocation refuse what the parsers would refuse', () => {
    const sg = mintGrant(alice, { subject: bob.did, resource: contentId({ resource: 'r' }), actions: ['call'], budget_uj: 1n, nonce: nonce('sign-validate') });
    expect(codeOf(() => signGrant({ ...sg.grant, nonce: new Uint8Array(3) }, alice))).toBe('ERR_GRANT_MALFORMED');
    expect(codeOf(() => signGrant({ ...sg.grant, subject: 'nobody' }, alice))).toBe('ERR_GRANT_MALFORMED');
    expect(codeOf(() => mintRevocation(alice, 'xyz', nonce('r1')))).toBe('ERR_REVOCATION_MALFORMED');
    expect(codeOf(() => mintRevocation(alice, grantId(sg.grant), new Uint8Array(3)))).toBe('ERR_REVOCATION_MALFORMED');
  });
});
