// jcp §2.2 threshold actors over @noble/curves' FROST(Ed25519, SHA-512): dealer and DKG groups, k of n sign, k−1 cannot,
// the DKG group secret is in no single participant's state, and the aggregate is an ordinary Ed25519 signature.
// (RFC 9591's own vectors are replayed in harness/external/frost-rfc9591.test.ts.)
import { ed25519, ed25519_FROST } from '@noble/curves/ed25519.js';
import { describe, expect, it } from 'vitest';
import { codeOf, lazy, thrown } from '../_test-support.ts';
import { bytesEqual, concatBytes, toHex } from '../bytes.ts';
import { blake3DeriveKey } from '../hash/blake3.ts';
import { didFromPublicKey } from './did-key.ts';
import { defaultEd25519, deriveSeed, keyPairFromSeed, nobleEd25519, nodeEd25519 } from './ed25519.ts';
import { contentId } from '../jcp/content-id.ts';
import { createEnforcementPoint } from '../jcp/enforcement-point.ts';
import { grantBytes, grantId, verifyGrantSignature } from '../jcp/grant.ts';
import type { Grant } from '../jcp/types.ts';
import {
  dealerShares,
  dkg,
  dkgGroup,
  FROST_RNG_CONTEXT,
  seededRng,
  thresholdSign,
  type NonceRandomness,
  type ThresholdGroup,
  type ThresholdShare,
} from './threshold.ts';

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

const idOf = (i: number) => ed25519_FROST.Identifier.fromNumber(i);
/** `n` as 32 little-endian bytes (RFC 9591 §3.1 SerializeScalar for the Ed25519 ciphersuite), unreduced. */
const toLE32 = (n: bigint) => Uint8Array.from({ length: 32 }, (_, i) => Number((n >> BigInt(8 * i)) & 0xffn));
/** The explicit round-one randomness the header derives from a nonce seed: stream(seed, 'nonce:' + i), hiding then binding. */
function derivedNonces(nonceSeed: Uint8Array, ids: readonly number[]): NonceRandomness[] {
  return ids.map((identifier) => {
    const rng = seededRng(nonceSeed, `nonce:${identifier}`);
    return { identifier, hiding: rng(32), binding: rng(32) };
  });
}
const asBytes = (v: unknown) => v as Uint8Array;

describe('jcp §2.2 seeded FROST randomness (the stream the module header fixes)', () => {
  it('draw k of n bytes is BLAKE3 derive_key(FROST_RNG_CONTEXT, seed ‖ utf8(label) ‖ u32be(k), n), on a copy of the seed', () => {
    const s = seed('stream');
    const want = (k: number, n: number) => blake3DeriveKey(FROST_RNG_CONTEXT, concatBytes(s, new TextEncoder().encode('lbl'), Uint8Array.of(0, 0, 0, k)), n);
    const given = Uint8Array.from(s);
    const rng = seededRng(given, 'lbl');
    given.fill(0); // the stream is fixed when it is made
    expect([rng(), rng(64), rng(32)].map(toHex)).toEqual([want(0, 32), want(1, 64), want(2, 32)].map(toHex));
  });

  it('refuses a seed that is not 32 bytes', () => {
    for (const bad of [new Uint8Array(31), new Uint8Array(33), asBytes(Array.from({ length: 32 }, () => 0))]) {
      const e = thrown(() => seededRng(bad, 'x'));
      expect([e.code, e.message]).toEqual(['ERR_SEED_LENGTH', 'ERR_SEED_LENGTH: a FROST randomness seed must be 32 bytes']);
    }
  });
});

describe('jcp §2.2 key generation draws on the labelled streams (RFC 9591 Appendix C)', () => {
  it("the dealer's polynomial comes from stream(seed, 'dealer')", () => {
    const ref = ed25519_FROST.trustedDealer({ min: 2, max: 3 }, [1, 2, 3].map(idOf), undefined, seededRng(seed('dealer'), 'dealer'));
    expect(toHex(dealt.group_public_key)).toBe(toHex(ref.public.commitments[0]!));
    expect(dealt.shares.map((s) => toHex(s.signing_share))).toEqual([1, 2, 3].map((i) => toHex(ref.secretShares[idOf(i)]!.signingShare)));
  });

  it("participant i's DKG polynomial comes from stream(seeds[i-1], 'dkg'): the group key is the sum of their constant-term commitments", () => {
    const sum = [1, 2, 3]
      .map((i) => ed25519.Point.fromBytes(ed25519_FROST.DKG.round1(idOf(i), { min: 2, max: 3 }, undefined, seededRng(seed(`dkg-${i}`), 'dkg')).public.commitment[0]!))
      .reduce((a, b) => a.add(b));
    for (const p of dkgParts) expect(toHex(p.group_public_key)).toBe(toHex(sum.toBytes()));
  });

  it('thresholds: 2 ≤ min ≤ max ≤ 255, at and beyond each bound', () => {
    const refusal = (min: number, max: number) => {
      const e = thrown(() => dealerShares(min, max, seed('bounds')));
      return [e.code, e.message, e.detail];
    };
    for (const [min, max] of [[1, 3], [2.5, 3], [2, 3.5], [4, 3], [2, 256]] as const) {
      expect(refusal(min, max)).toEqual(['ERR_THRESHOLD_PARAMS', `ERR_THRESHOLD_PARAMS: a threshold needs 2 ≤ min ≤ max ≤ 255, got ${min}-of-${max}`, { min, max }]);
    }
    // min = max and max = 255 are thresholds: every share is needed / the largest team signs with any two
    const all = dealerShares(3, 3, seed('3-of-3'));
    expect(nodeEd25519.verify(thresholdSign(all, all.shares, msg, seed('n33')).signature, msg, all.group_public_key)).toBe(true);
    expect(codeOf(() => thresholdSign(all, all.shares.slice(0, 2), msg, seed('n33')))).toBe('ERR_THRESHOLD_TOO_FEW_SIGNERS');
    const big = dealerShares(2, 255, seed('2-of-255'));
    expect(big.shares.map((s) => s.identifier)).toEqual(Array.from({ length: 255 }, (_, i) => i + 1));
    const s = thresholdSign(big, [big.shares[0]!, big.shares[254]!], msg, seed('n255'));
    expect(nodeEd25519.verify(s.signature, msg, big.group_public_key)).toBe(true);
  });

  it('DKG: refuses a wrong seed count or a bad seed as such', () => {
    const e = thrown(() => dkg(2, 3, [seed('a'), seed('b')]));
    expect([e.code, e.message]).toEqual(['ERR_THRESHOLD_PARAMS', 'ERR_THRESHOLD_PARAMS: a 2-of-3 DKG needs 3 seeds, got 2']);
    const none = thrown(() => dkg(2, 3, undefined as unknown as Uint8Array[]));
    expect([none.code, none.message]).toEqual(['ERR_THRESHOLD_PARAMS', 'ERR_THRESHOLD_PARAMS: a 2-of-3 DKG needs 3 seeds, got undefined']);
    const short = thrown(() => dkg(2, 3, [seed('a'), seed('b'), new Uint8Array(31)]));
    expect([short.code, short.message]).toEqual(['ERR_SEED_LENGTH', 'ERR_SEED_LENGTH: a FROST randomness seed must be 32 bytes']);
  });

  it('DKG: a participant that deviates from its round-1 commitment makes a round refuse (RFC 9591 Appendix C.2 vss_verify)', () => {
    const e = thrown(() =>
      dkg(2, 3, [1, 2, 3].map((i) => seed(`dkg-${i}`)), (id, st) => {
        const coefficients = (st as { coefficients?: bigint[] }).coefficients;
        if (id === 1 && coefficients) coefficients[1] = coefficients[1]! + 1n; // its polynomial no longer matches what it committed to
      }),
    );
    expect(e.code).toBe('ERR_THRESHOLD_DKG_FAILED');
    expect(e.message).toMatch(/^ERR_THRESHOLD_DKG_FAILED: DKG failed: \S/);
    expect(e.detail).toEqual({});
    expect(e.cause).toBeInstanceOf(Error);
  });
});

describe('jcp §2.2 thresholdSign: its inputs and refusals (RFC 9591 §5)', () => {
  const two = lazy(() => dealt.shares.slice(0, 2), []);
  const refusal = (fn: () => unknown) => {
    const e = thrown(fn);
    return [e.code, e.message];
  };

  it('a nonce seed is stream(seed, "nonce:" + i) per signer: explicit randomness drawn so signs the same bytes', () => {
    const bySeed = thresholdSign(dealt, two, msg, seed('nonce-eq'));
    const explicit = thresholdSign(dealt, two, msg, derivedNonces(seed('nonce-eq'), [1, 2]));
    expect(toHex(explicit.signature)).toBe(toHex(bySeed.signature));
    expect(explicit.shares.map((s) => [s.identifier, toHex(s.hiding_commitment), toHex(s.binding_commitment), toHex(s.sig_share)])).toEqual(
      bySeed.shares.map((s) => [s.identifier, toHex(s.hiding_commitment), toHex(s.binding_commitment), toHex(s.sig_share)]),
    );
    expect(nodeEd25519.verify(explicit.signature, msg, dealt.group_public_key)).toBe(true);
  });

  it('explicit nonce randomness: 32 bytes of hiding and 32 of binding for every signer, else ERR_BAD_ARGUMENT', () => {
    const good = derivedNonces(seed('nonce-x'), [1, 2]);
    const with2 = (r: Partial<NonceRandomness>) => [good[0]!, { ...good[1]!, ...r }];
    const want = ['ERR_BAD_ARGUMENT', 'ERR_BAD_ARGUMENT: participant 2 needs 32 bytes of hiding and 32 of binding nonce randomness'];
    expect(refusal(() => thresholdSign(dealt, two, msg, [good[0]!]))).toEqual(want);
    for (const bad of [new Uint8Array(31), new Uint8Array(33), asBytes(Array.from(good[1]!.hiding))]) {
      expect(refusal(() => thresholdSign(dealt, two, msg, with2({ hiding: bad })))).toEqual(want);
      expect(refusal(() => thresholdSign(dealt, two, msg, with2({ binding: bad })))).toEqual(want);
    }
    expect(refusal(() => thresholdSign(dealt, two, msg, 'seed' as unknown as Uint8Array))).toEqual([
      'ERR_BAD_ARGUMENT',
      'ERR_BAD_ARGUMENT: nonce randomness must be a 32-byte seed or one entry per signer',
    ]);
    expect(codeOf(() => thresholdSign(dealt, two, msg, new Uint8Array(31)))).toBe('ERR_SEED_LENGTH');
  });

  it('the group key must be 32 bytes and the message a byte string', () => {
    const key = ['ERR_KEY_LENGTH', 'ERR_KEY_LENGTH: the group public key must be 32 bytes'];
    for (const k of [dealt.group_public_key.slice(0, 31), Uint8Array.of(...dealt.group_public_key, 0), asBytes(toHex(dealt.group_public_key))]) {
      expect(refusal(() => thresholdSign({ ...dealt, group_public_key: k }, two, msg, seed('n4')))).toEqual(key);
    }
    expect(refusal(() => thresholdSign(dealt, two, asBytes('transfer 10 units'), seed('n4')))).toEqual(['ERR_BAD_ARGUMENT', 'ERR_BAD_ARGUMENT: the message must be a byte string']);
  });

  it('signer counts: too few (with min and the count as detail), too many, twice listed', () => {
    const one = thrown(() => thresholdSign(dealt, [dealt.shares[0]!], msg, seed('n5')));
    expect([one.code, one.message, one.detail]).toEqual(['ERR_THRESHOLD_TOO_FEW_SIGNERS', 'ERR_THRESHOLD_TOO_FEW_SIGNERS: a 2-of-3 actor needs at least 2 signers, got 1', { min: 2, got: 1 }]);
    const none = thrown(() => thresholdSign(dealt, undefined as unknown as ThresholdShare[], msg, seed('n5')));
    expect([none.code, none.message, none.detail]).toEqual(['ERR_THRESHOLD_TOO_FEW_SIGNERS', 'ERR_THRESHOLD_TOO_FEW_SIGNERS: a 2-of-3 actor needs at least 2 signers, got undefined', { min: 2, got: undefined }]);
    expect(refusal(() => thresholdSign(dealt, [...dealt.shares, { identifier: 4, signing_share: dealt.shares[0]!.signing_share }], msg, seed('n5')))).toEqual([
      'ERR_THRESHOLD_PARAMS',
      'ERR_THRESHOLD_PARAMS: a 2-of-3 actor has at most 3 signers, got 4',
    ]);
    expect(refusal(() => thresholdSign(dealt, [dealt.shares[1]!, dealt.shares[1]!], msg, seed('n5')))).toEqual(['ERR_THRESHOLD_PARAMS', 'ERR_THRESHOLD_PARAMS: a participant is listed twice']);
  });

  it('participants are numbered 1..max and hold 32-byte shares', () => {
    for (const identifier of [0, 1.5, 4]) {
      expect(refusal(() => thresholdSign(dealt, [dealt.shares[0]!, { identifier, signing_share: dealt.shares[1]!.signing_share }], msg, seed('n6')))).toEqual([
        'ERR_THRESHOLD_PARAMS',
        `ERR_THRESHOLD_PARAMS: participant ${identifier} is not one of 1..3`,
      ]);
    }
    for (const signing_share of [new Uint8Array(31), new Uint8Array(33), asBytes(Array.from(dealt.shares[1]!.signing_share))]) {
      expect(refusal(() => thresholdSign(dealt, [dealt.shares[0]!, { identifier: 2, signing_share }], msg, seed('n6')))).toEqual([
        'ERR_KEY_LENGTH',
        "ERR_KEY_LENGTH: participant 2's signing share must be 32 bytes",
      ]);
    }
  });

  it('a signing share is a scalar in 1..order−1; any such share that is not the true one is caught at aggregation', () => {
    const order = ed25519.Point.Fn.ORDER;
    const sign2 = (share: Uint8Array) => () => thresholdSign(dealt, [dealt.shares[0]!, { identifier: 2, signing_share: share }], msg, seed('n7'));
    for (const n of [0n, order, order + 1n]) {
      expect(refusal(sign2(toLE32(n)))).toEqual(['ERR_BAD_ARGUMENT', 'ERR_BAD_ARGUMENT: a signing share must be a nonzero scalar below the group order']);
    }
    for (const n of [1n, 256n, order - 1n]) {
      const e = thrown(sign2(toLE32(n)));
      expect([e.code, e.message, e.detail]).toEqual([
        'ERR_THRESHOLD_SIGNATURE_INVALID',
        'ERR_THRESHOLD_SIGNATURE_INVALID: the signature shares do not combine into a signature valid under the group key',
        {},
      ]);
      expect(e.cause).toBeInstanceOf(Error);
    }
  });

  it('a group key that is no valid group element (RFC 9591 §3.1 DeserializeElement: the identity) fails the signing round', () => {
    const identity = Uint8Array.of(1, ...new Uint8Array(31));
    const e = thrown(() => thresholdSign({ ...dealt, group_public_key: identity }, two, msg, seed('n8')));
    expect(e.code).toBe('ERR_THRESHOLD_SIGNATURE_INVALID');
    expect(e.message).toMatch(/^ERR_THRESHOLD_SIGNATURE_INVALID: the threshold signing round failed: \S/);
    expect(e.detail).toEqual({});
    expect(e.cause).toBeInstanceOf(Error);
  });
});
