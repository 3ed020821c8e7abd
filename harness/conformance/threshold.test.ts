// C13 (threshold part) and C18 — threshold actors (jcp §2.2), through the implementation under test: a 2-of-3 FROST
// (RFC 9591, Ed25519) actor minted by a trusted dealer or by DKG; one share cannot sign, two can; the aggregate is an
// ordinary Ed25519 signature, so a grant whose issuer is the group's did:key verifies and is decided allow like any
// other (jcp §2.2: "no verifier can tell or needs to"). The wire part of C13 (a caller signature on a request) is in
// harness/conformance/wire.test.ts. RFC 9591's own vectors: harness/external/frost-rfc9591.test.ts.
// Every test names jcp/2.2#shares-by-dealer-or-dkg, the one clause of §2.2 in the spec map (a MAY, of C13 and C18):
// §2.2 and §9 state the k-of-n rule ("a signature exists only when at least k shareholders cooperate"; C13 "one share
// of a 2-of-3 actor cannot sign; two can"; C18 "a dealer-free k-of-n actor signs a standard Ed25519 signature ... one
// share cannot") without a MUST. The tests that decide the class line (two shares sign, one cannot) name it too.
import { ed25519, ed25519_FROST } from '@noble/curves/ed25519.js';
import fc from 'fast-check';
import { describe, expect } from 'vitest';
import { clauseIt } from '../clause.ts';
import { implementation } from '../driver.ts';
import { fcParams } from '../external-vectors.ts';
import { bob, cost, frameFor, nonce, once, point, TOOL } from '../fixtures.ts';
import type { ThresholdShareFields } from '../implementation.ts';
import { assertProperty, expectCode } from '../refusal.ts';
import {
  blake3,
  deriveSeed,
  didFromPublicKey,
  encodeCanonical,
  grantBytes,
  grantId,
  nodeEd25519,
  signedGrantToCbor,
  thresholdSign as referenceSign,
  toHex,
  type Grant,
} from '../oracle.ts';

const SHARES = 'jcp/2.2#shares-by-dealer-or-dkg';
const seed = (label: string) => deriveSeed(`threshold:${label}`);
const utf8 = new TextEncoder();
const msg = utf8.encode('wire the funds');
const NOW = 1_000_000n;

type Group = { min: number; max: number; group_public_key: Uint8Array; did: string; shares: readonly ThresholdShareFields[] };

const dealerGroup = once(async (): Promise<Group> => {
  const g = await implementation().thresholdDealer(2, 3, seed('dealer'));
  return { min: 2, max: 3, ...g };
});

const dkgGroup = once(async (): Promise<Group> => {
  const parts = await implementation().thresholdDkg(2, 3, [1, 2, 3].map((i) => seed(`dkg-${i}`)));
  const gpk = parts[0]!.group_public_key;
  return { min: 2, max: 3, group_public_key: gpk, did: didFromPublicKey(gpk), shares: parts.map((p) => ({ identifier: p.identifier, signing_share: p.signing_share })) };
});

const PAIRS = [[0, 1], [0, 2], [1, 2]] as const;

/** The secret interpolated from shares (RFC 9591 Appendix C's secret recovery, by @noble/curves: an auditor's tool). */
function combine(shares: readonly ThresholdShareFields[]): Uint8Array {
  const frost = shares.map((s) => ({ identifier: ed25519_FROST.Identifier.fromNumber(s.identifier), signingShare: s.signing_share }));
  return Uint8Array.from(ed25519_FROST.combineSecret(frost, { min: 2, max: 3 }));
}
const scalarLE = (b: Uint8Array): bigint => b.reduceRight((n, x) => (n << 8n) | BigInt(x), 0n);

describe.each([
  // §9's class line for each: C13 "one share of a 2-of-3 actor cannot sign; two can", C18 "a dealer-free k-of-n
  // actor signs a standard Ed25519 signature"
  ['trusted dealer (C13)', dealerGroup, 'jcp/9#c13-threshold'],
  ['DKG (C18)', dkgGroup, 'jcp/9#c18-dkg'],
] as const)('jcp §2.2 a 2-of-3 actor from a %s', (_kind, make, classLine) => {
  clauseIt([SHARES, classLine], 'two of three shares sign a standard Ed25519 signature under the group key; one share cannot', async () => {
    const impl = implementation();
    const g = await make();
    expect(g.shares.map((s) => s.identifier)).toEqual([1, 2, 3]);
    expect(new Set(g.shares.map((s) => toHex(s.signing_share))).size).toBe(3);
    for (const pair of PAIRS) {
      const r = await impl.thresholdSign(g, pair.map((i) => g.shares[i]!), msg, seed(`nonce-${pair.join('')}`));
      expect(r.signature.length).toBe(64);
      expect(await impl.verify(g.group_public_key, msg, r.signature), `pair ${pair.join('+')}`).toBe(true);
      expect(nodeEd25519.verify(r.signature, msg, g.group_public_key), `pair ${pair.join('+')} (reference)`).toBe(true);
      expect(await impl.verify(g.group_public_key, utf8.encode('wire the fund$'), r.signature)).toBe(false);
    }
    for (const s of g.shares) {
      await expectCode(impl.thresholdSign(g, [s], msg, seed('alone')), 'ERR_THRESHOLD_TOO_FEW_SIGNERS');
    }
  });

  clauseIt([SHARES, classLine], 'one true share with a made-up second share yields no signature', async () => {
    const impl = implementation();
    const g = await make();
    for (const [a, b] of PAIRS) {
      const fake = { identifier: g.shares[b]!.identifier, signing_share: blake3(utf8.encode(`fake share ${b}`)).fill(0, 31) };
      await expectCode(impl.thresholdSign(g, [g.shares[a]!, fake], msg, seed('fake')), 'ERR_THRESHOLD_SIGNATURE_INVALID');
    }
  });

  clauseIt([SHARES], 'the aggregate signs a grant issued by the group did:key: it verifies as the issuer signature and is decided allow', async () => {
    const impl = implementation();
    const g = await make();
    const grant: Grant = { issuer: g.did, subject: bob.did, capability: { resource: TOOL, actions: ['call'] }, budget_uj: 1000n, expiry: 0n, nonce: nonce('team-grant') };
    const signedBy = async (signature: Uint8Array) => encodeCanonical(signedGrantToCbor({ grant, signature }));
    const r = await impl.thresholdSign(g, [g.shares[0]!, g.shares[2]!], grantBytes(grant), seed('grant-nonce'));
    const signed = await signedBy(r.signature);
    expect(await impl.verifyGrant(signed)).toEqual({ valid: true, grant_id: grantId(grant) });
    const minted = { signed_grant: signed, grant_id: grantId(grant) };
    const p = await point();
    const d = await p.decide({ frame: frameFor(minted), chain: [signed], caller: bob.did, cost: cost(10n), now_s: NOW });
    expect(d.verdict).toBe('allow');
    expect(await p.spent(grantId(grant))).toBe(10n);
    // a signature over other bytes (the grant with another nonce) is no issuer signature for it
    const other = await impl.thresholdSign(g, [g.shares[0]!, g.shares[1]!], grantBytes({ ...grant, nonce: nonce('other') }), seed('grant-nonce-2'));
    const forged = await signedBy(other.signature);
    expect((await impl.verifyGrant(forged)).valid).toBe(false);
    const denied = await (await point()).decide({ frame: frameFor(minted), chain: [forged], caller: bob.did, cost: cost(10n), now_s: NOW });
    expect(denied).toMatchObject({ verdict: 'deny', deny_reason: 'bad-signature' });
  });

  clauseIt([SHARES], 'signing is reproducible from its inputs: the same nonce seed gives the reference\'s bytes', async () => {
    const impl = implementation();
    const g = await make();
    const signers = [g.shares[1]!, g.shares[2]!];
    const r = await impl.thresholdSign(g, signers, msg, seed('repro'));
    const ref = referenceSign(g, signers, msg, seed('repro'));
    expect(toHex(r.signature)).toBe(toHex(ref.signature));
    expect(r.shares.map((s) => [s.identifier, toHex(s.hiding_commitment), toHex(s.binding_commitment), toHex(s.sig_share)])).toEqual(
      ref.shares.map((s) => [s.identifier, toHex(s.hiding_commitment), toHex(s.binding_commitment), toHex(s.sig_share)]),
    );
    const again = await impl.thresholdSign(g, signers, msg, seed('repro-2'));
    expect(toHex(again.signature)).not.toBe(toHex(r.signature));
    expect(await impl.verify(g.group_public_key, msg, again.signature)).toBe(true);
  });

  clauseIt([SHARES, classLine], 'property: any two shares sign any message; any one share is refused', async () => {
    const impl = implementation();
    const g = await make();
    await assertProperty(
      fc.asyncProperty(fc.uint8Array({ maxLength: 200 }), fc.constantFrom(...PAIRS), fc.uint8Array({ minLength: 32, maxLength: 32 }), async (m, pair, nonceSeed) => {
        const r = await impl.thresholdSign(g, pair.map((i) => g.shares[i]!), m, nonceSeed);
        expect(await impl.verify(g.group_public_key, m, r.signature)).toBe(true);
        await expectCode(impl.thresholdSign(g, [g.shares[pair[0]]!], m, nonceSeed), 'ERR_THRESHOLD_TOO_FEW_SIGNERS');
      }),
      fcParams(8),
    );
  });
});

describe('jcp §2.2 distributed key generation (C18)', () => {
  clauseIt([SHARES, 'jcp/9#c18-dkg'], 'every participant computes the same group key; any two shares reconstruct its secret, and no single share is it', async () => {
    const impl = implementation();
    const parts = await impl.thresholdDkg(2, 3, [1, 2, 3].map((i) => seed(`dkg-${i}`)));
    expect(parts.map((p) => p.identifier)).toEqual([1, 2, 3]);
    const gpk = toHex(parts[0]!.group_public_key);
    expect(parts.map((p) => toHex(p.group_public_key))).toEqual([gpk, gpk, gpk]);
    // an auditor's check with @noble/curves (not the testee): the shares are a 2-of-3 sharing of the group key's
    // secret — every pair interpolates to the same scalar x with [x]B = the group key — and no share is x itself
    const secrets = PAIRS.map((pair) => combine(pair.map((i) => parts[i]!)));
    expect(new Set(secrets.map(toHex)).size).toBe(1);
    expect(toHex(ed25519.Point.BASE.multiply(scalarLE(secrets[0]!)).toBytes())).toBe(gpk);
    for (const p of parts) {
      expect(toHex(p.signing_share)).not.toBe(toHex(secrets[0]!));
      expect(toHex(ed25519.Point.BASE.multiply(scalarLE(p.signing_share)).toBytes())).not.toBe(gpk);
    }
    // the group is a function of the participants' seeds, and another seed gives another group
    const again = await impl.thresholdDkg(2, 3, [1, 2, 3].map((i) => seed(`dkg-${i}`)));
    expect(toHex(again[0]!.group_public_key)).toBe(gpk);
    const other = await impl.thresholdDkg(2, 3, [1, 2, 4].map((i) => seed(`dkg-${i}`)));
    expect(toHex(other[0]!.group_public_key)).not.toBe(gpk);
  });

  clauseIt([SHARES], 'bad thresholds and seed counts are refused', async () => {
    const impl = implementation();
    await expectCode(impl.thresholdDkg(1, 3, [1, 2, 3].map((i) => seed(`dkg-${i}`))), 'ERR_THRESHOLD_PARAMS');
    await expectCode(impl.thresholdDkg(2, 3, [1, 2].map((i) => seed(`dkg-${i}`))), 'ERR_THRESHOLD_PARAMS');
    await expectCode(impl.thresholdDealer(4, 3, seed('dealer')), 'ERR_THRESHOLD_PARAMS');
  });
});
