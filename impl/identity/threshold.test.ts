// jcp §2.2 threshold actors over @noble/curves' FROST(Ed25519, SHA-512): dealer and DKG groups, k of n sign, k−1 cannot,
// the DKG group secret is in no single participant's state, and the aggregate is an ordinary Ed25519 signature.
// (RFC 9591's own vectors are replayed in harness/external/frost-rfc9591.test.ts.)
import { ed25519, ed25519_FROST } from '@noble/curves/ed25519.js';
import { describe, expect, it } from 'vitest';
import { codeOf, lazy } from '../_test-support.ts';
import { bytesEqual, toHex } from '../bytes.ts';
import { didFromPublicKey } from './did-key.ts';
import { defaultEd25519, deriveSeed, keyPairFromSeed, nobleEd25519, nodeEd25519 } from './ed25519.ts';
import { contentId } from '../jcp/content-id.ts';
import { createEnforcementPoint } from '../jcp/enforcement-point.ts';
import { grantBytes, grantId, verifyGrantSignature } from '../jcp/grant.ts';
import type { Grant } from '../jcp/types.ts';
import { dealerShares, dkg, dkgGroup, seededRng, thresholdSign, type ThresholdGroup, type ThresholdShare } from './threshold.ts';

const seed = (label: string) => deriveSeed(`threshold-test:${label}`);
const msg = new TextEncoder().encode('transfer 10 units');
const dealt = lazy(() => dealerShares(2, 3, seed('dealer')));
const dkgParts = lazy(() => dkg(2, 3, [1, 2, 3].map((i) => seed(`dkg-${i}`))), []);
const dkgd = lazy(() => dkgGroup(2, 3, dkgParts));

/** The group secret, reconstructed by an auditor from k shares (this test only; no participant ever does this). */
function groupSecret(shares: readonly ThresholdShare[], min: number, max: number): Uint8Array {
  return Uint8Array.from(
    ed25519_FROST.combineSecret(shares.map((s) => ({ identifier: ed25519_FROST.Identifier.fromNumber(s.identifier), signingShare: s.signing_share })), { min, max }),
  );
}
const scalarLE = (b: Uint8Array) => b.reduceRight((n, x) => (n << 8n) | BigInt(x), 0n);

/** Every Uint8Array and bigint reachable from `v`. */
function leaves(v: unknown, out: (Uint8Array | bigint)[] = []): (Uint8Array | bigint)[] {
  if (v instanceof Uint8Array || typeof v === 'bigint') out.push(v);
  else if (Array.isArray(v)) v.forEach((x) => leaves(x, out));
  else if (v && typeof v === 'object') Object.values(v).forEach((x) => leaves(x, out));
  return out;
}

describe.each([
  ['trusted dealer', dealt],
  ['DKG', dkgd],
] as [string, ThresholdGroup][])('jcp §2.2 a 2-of-3 actor from a %s', (_kind, g) => {
  it('its group key is an ordinary did:key; any two of three shares sign, and both backends verify the aggregate', () => {
    expect(g.did).toBe(didFromPublicKey(g.group_public_key));
    for (const pair of [[0, 1], [0, 2], [1, 2]] as const) {
      const s = thresholdSign(g, pair.map((i) => g.shares[i]!), msg, seed(`nonce-${pair.join('')}`));
      expect(s.signature.length).toBe(64);
      expect(nodeEd25519.verify(s.signature, msg, g.group_public_key)).toBe(true);
      expect(nobleEd25519.verify(s.signature, msg, g.group_public_key)).toBe(true);
      expect(nodeEd25519.verify(s.signature, Uint8Array.of(...msg, 0), g.group_public_key)).toBe(false);
    }
    // all three may sign too
    expect(nodeEd25519.verify(thresholdSign(g, g.shares, msg, seed('nonce-all')).signature, msg, g.group_public_key)).toBe(true);
  });

  it('the aggregate is an issuer signature: a grant from the group did:key verifies and is decided allow', () => {
    const bob = keyPairFromSeed(deriveSeed('bob'));
    const resource = contentId({ resource: 'tool:search' });
    const grant: Grant = { issuer: g.did, subject: bob.did, capability: { resource, actions: ['call'] }, budget_uj: 1000n, expiry: 0n, nonce: new Uint8Array(16).fill(7) };
    const signature = thresholdSign(g, [g.shares[1]!, g.shares[2]!], grantBytes(grant), seed('grant')).signature;
    expect(defaultEd25519().verify(signature, grantBytes(grant), g.group_public_key)).toBe(true);
    const sg = { grant, signature };
    expect(verifyGrantSignature(sg)).toBe(true);
    const frame = { kind: 'tool-call', trust: 'control', grant_id: grantId(grant), action: 'call', resource, payload_hash: contentId({ payload: 'args' }) } as const;
    const point = createEnforcementPoint({ steward: keyPairFromSeed(deriveSeed('steward')) });
    expect(point.decide({ frame, chain: [sg], caller: bob.did, cost: { uj: 42n, provenance: 'HwShunt' }, now_s: 1n }).verdict).toBe('allow');
    // the same grant under a signature of other bytes is refused
    const wrong = { grant, signature: thresholdSign(g, g.shares.slice(0, 2), msg, seed('grant-2')).signature };
    expect(verifyGrantSignature(wrong)).toBe(false);
    expect(point.decide({ frame, chain: [wrong], caller: bob.did, cost: { uj: 42n, provenance: 'HwShunt' }, now_s: 1n })).toMatchObject({ verdict: 'deny', deny_reason: 'bad-signature' });
  });

  it('one share cannot sign: refused as too few, and the share used alone as a key signs nothing valid', () => {
    for (const s of g.shares) {
      expect(codeOf(() => thresholdSign(g, [s], msg, seed('n1')))).toBe('ERR_THRESHOLD_TOO_FEW_SIGNERS');
      // a lone share is not the key: a plain Schnorr signature under it does not verify under the group key
      const alone = ed25519_FROST.sign(msg, s.signing_share);
      expect(nodeEd25519.verify(alone, msg, g.group_public_key)).toBe(false);
      // nor is any single share the group secret
      expect(bytesEqual(s.signing_share, groupSecret(g.shares.slice(0, 2), 2, 3))).toBe(false);
    }
    expect(codeOf(() => thresholdSign(g, [], msg, seed('n0')))).toBe('ERR_THRESHOLD_TOO_FEW_SIGNERS');
  });

  it('one true share plus a made-up one does not combine into a valid signature', () => {
    const fake: ThresholdShare = { identifier: g.shares[1]!.identifier, signing_share: seededRng(seed('fake'), 'x')(32).fill(0, 31) };
    expect(codeOf(() => thresholdSign(g, [g.shares[0]!, fake], msg, seed('n2')))).toBe('ERR_THRESHOLD_SIGNATURE_INVALID');
  });

  it('refuses duplicate, out-of-range or too many signers', () => {
    expect(codeOf(() => thresholdSign(g, [g.shares[0]!, g.shares[0]!], msg, seed('n3')))).toBe('ERR_THRESHOLD_PARAMS');
    expect(codeOf(() => thresholdSign(g, [g.shares[0]!, { identifier: 4, signing_share: g.shares[1]!.signing_share }], msg, seed('n3')))).toBe('ERR_THRESHOLD_PARAMS');
    expect(codeOf(() => thresholdSign(g, [...g.shares, g.shares[0]!], msg, seed('n3')))).toBe('ERR_THRESHOLD_PARAMS');
    expect(codeOf(() => thresholdSign(g, [g.shares[0]!, { identifier: 2, signing_share: new Uint8Array(31) }], msg, seed('n3')))).toBe('ERR_KEY_LENGTH');
  });

  it('is deterministic in its inputs: the same nonce seed gives the same signature, another seed another one', () => {
    const a = thresholdSign(g, g.shares.slice(0, 2), msg, seed('same'));
    const b = thresholdSign(g, g.shares.slice(0, 2), msg, seed('same'));
    const c = thresholdSign(g, g.shares.slice(0, 2), msg, seed('other'));
    expect(toHex(a.signature)).toBe(toHex(b.signature));
    expect(toHex(a.signature)).not.toBe(toHex(c.signature));
    expect(nodeEd25519.verify(c.signature, msg, g.group_public_key)).toBe(true);
  });
});

describe('jcp §2.2 key generation', () => {
  it('a dealer group is a function of its seed', () => {
    const again = dealerShares(2, 3, seed('dealer'));
    expect(toHex(again.group_public_key)).toBe(toHex(dealt.group_public_key));
    expect(again.shares.map((s) => toHex(s.signing_share))).toEqual(dealt.shares.map((s) => toHex(s.signing_share)));
    expect(toHex(dealerShares(2, 3, seed('dealer2')).group_public_key)).not.toBe(toHex(dealt.group_public_key));
  });

  it('DKG: every participant computes the same group key, and the group secret is in no single participant\'s state', () => {
    const states = new Map<number, unknown[]>();
    const parts = dkg(2, 3, [1, 2, 3].map((i) => seed(`dkg-${i}`)), (id, st) => states.set(id, [...(states.get(id) ?? []), structuredClone(st)]));
    // the same inputs give the same group (the DKG is a function of its seeds)
    expect(parts.map((p) => toHex(p.group_public_key))).toEqual(dkgParts.map((p) => toHex(p.group_public_key)));
    const gpk = parts[0]!.group_public_key;
    expect(parts.every((p) => bytesEqual(p.group_public_key, gpk))).toBe(true);
    const secret = groupSecret(parts.slice(0, 2), 2, 3);
    // the auditor's reconstruction is right: it is the discrete log of the group key
    expect(bytesEqual(ed25519.Point.BASE.multiply(scalarLE(secret)).toBytes(), gpk)).toBe(true);
    const s = scalarLE(secret);
    for (const [id, seen] of states) {
      const found = leaves(seen).some((x) => (typeof x === 'bigint' ? x === s : bytesEqual(x, secret)));
      expect(found, `participant ${id}'s state holds the group secret`).toBe(false);
      expect(seen.length).toBe(2);
      // the scan does see secrets: the participant's own final share is in its own state
      const own = parts[id - 1]!.signing_share;
      expect(leaves(seen).some((x) => x instanceof Uint8Array && bytesEqual(x, own))).toBe(true);
    }
    for (const p of parts) expect(bytesEqual(p.signing_share, secret)).toBe(false);
  });

  it('refuses bad thresholds and seed counts', () => {
    expect(codeOf(() => dealerShares(1, 3, seed('x')))).toBe('ERR_THRESHOLD_PARAMS');
    expect(codeOf(() => dealerShares(4, 3, seed('x')))).toBe('ERR_THRESHOLD_PARAMS');
    expect(codeOf(() => dealerShares(2, 3, new Uint8Array(31)))).toBe('ERR_SEED_LENGTH');
    expect(codeOf(() => dkg(2, 3, [seed('a'), seed('b')]))).toBe('ERR_THRESHOLD_PARAMS');
  });
});
