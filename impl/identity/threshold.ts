// jcp §2.2 threshold actors: a did:key whose private key never exists in one place, split k-of-n with FROST
// (RFC 9591, the FROST(Ed25519, SHA-512) ciphersuite). The FROST protocol itself is @noble/curves' ed25519_FROST
// (abstract/frost.ts, needs @noble/curves ≥ 2.2); this module only fixes the inputs and the shapes around it:
//   - participants are numbered 1..max; identifier i is RFC 9591's scalar i (ed25519_FROST.Identifier.fromNumber(i));
//   - every byte of randomness is an input (ARCHITECTURE.md: "nonces and clocks as inputs"). A seed becomes a byte
//     stream by BLAKE3 derive_key with context FROST_RNG_CONTEXT over seed ‖ utf8(label) ‖ u32be(counter), one call
//     per request of n bytes, counter 0, 1, 2, … (label 'dealer' for the dealer, 'dkg' for a DKG participant's own seed);
//   - a signer's round-one nonce randomness (RFC 9591 §4.1 nonce_generate's random_bytes: 32 bytes for the hiding
//     nonce, then 32 for the binding nonce) is either given explicitly (to replay RFC 9591's vectors) or derived from
//     one nonce seed for the signing session: stream(nonce_seed, 'nonce:' + i), first 32 bytes hiding, next 32 binding.
//     A nonce seed MUST be fresh per signing session: the same seed over two messages reuses nonces and leaks shares.
// The group key is an ordinary Ed25519 verifying key, so its did:key is an ordinary actor (jcp §2.2: "no verifier can
// tell or needs to"): an aggregate verifies under defaultEd25519().verify and as any issuer signature.
import { ed25519, ed25519_FROST } from '@noble/curves/ed25519.js';
import { concatBytes } from '../bytes.ts';
import { JcpError } from '../errors.ts';
import { blake3DeriveKey } from '../hash/blake3.ts';
import { didFromPublicKey } from './did-key.ts';

/** The BLAKE3 derive_key context of the seeded FROST randomness; fixed forever, since changing it changes every share. */
export const FROST_RNG_CONTEXT = 'jcp-conformance 2026 frost rng v1';

/** One participant's secret share: its number (1..max) and its 32-byte little-endian signing-share scalar. */
export interface ThresholdShare {
  readonly identifier: number;
  readonly signing_share: Uint8Array;
}

/** A k-of-n team identity: the thresholds, the group's Ed25519 public key and did:key, and each participant's share. */
export interface ThresholdGroup {
  readonly min: number;
  readonly max: number;
  readonly group_public_key: Uint8Array;
  readonly did: string;
  readonly shares: readonly ThresholdShare[];
}

/** One participant's own result of a DKG: its share and the group key as it computed it. */
export interface DkgParticipant extends ThresholdShare {
  readonly group_public_key: Uint8Array;
}

/** RFC 9591 round-one randomness of one signer: 32 bytes for the hiding nonce, 32 for the binding nonce. */
export interface NonceRandomness {
  readonly identifier: number;
  readonly hiding: Uint8Array;
  readonly binding: Uint8Array;
}

/** What a signing round produced: the aggregate signature and each signer's public round outputs. */
export interface ThresholdSignature {
  readonly signature: Uint8Array;
  readonly shares: readonly { identifier: number; hiding_commitment: Uint8Array; binding_commitment: Uint8Array; sig_share: Uint8Array }[];
}

const _utf8 = new TextEncoder();

/** A deterministic byte stream from `seed` and `label` in the shape @noble/curves takes as an RNG (see the header). */
export function seededRng(seed: Uint8Array, label: string): (n?: number) => Uint8Array {
  if (!(seed instanceof Uint8Array) || seed.length !== 32) throw new JcpError('ERR_SEED_LENGTH', 'a FROST randomness seed must be 32 bytes');
  const s = seed.slice();
  let counter = 0;
  return (n = 32) => {
    const c = new Uint8Array(4);
    new DataView(c.buffer).setUint32(0, counter++);
    return blake3DeriveKey(FROST_RNG_CONTEXT, concatBytes(s, _utf8.encode(label), c), n);
  };
}

function params(min: number, max: number): { min: number; max: number } {
  if (!Number.isSafeInteger(min) || !Number.isSafeInteger(max) || min < 2 || max < min || max > 255) {
    throw new JcpError('ERR_THRESHOLD_PARAMS', `a threshold needs 2 ≤ min ≤ max ≤ 255, got ${String(min)}-of-${String(max)}`, { min, max });
  }
  return { min, max };
}

const idOf = (i: number): string => ed25519_FROST.Identifier.fromNumber(i);

function ashare(s: ThresholdShare, max: number): ThresholdShare {
  if (!Number.isSafeInteger(s.identifier) || s.identifier < 1 || s.identifier > max) {
    throw new JcpError('ERR_THRESHOLD_PARAMS', `participant ${String(s.identifier)} is not one of 1..${max}`);
  }
  if (!(s.signing_share instanceof Uint8Array) || s.signing_share.length !== 32) {
    throw new JcpError('ERR_KEY_LENGTH', `participant ${s.identifier}'s signing share must be 32 bytes`);
  }
  return s;
}

function groupOf(min: number, max: number, group_public_key: Uint8Array, shares: ThresholdShare[]): ThresholdGroup {
  const pk = Uint8Array.from(group_public_key);
  return Object.freeze({ min, max, group_public_key: pk, did: didFromPublicKey(pk), shares: Object.freeze(shares.map((s) => Object.freeze(s))) });
}

/**
 * Trusted-dealer key generation (RFC 9591 Appendix C; jcp §2.2 "one party creates a team identity and hands out
 * shares"): the dealer's secret and polynomial come from `seed` (label 'dealer'). Participants are 1..max.
 * Throws ERR_THRESHOLD_PARAMS unless 2 ≤ min ≤ max ≤ 255, ERR_SEED_LENGTH for a bad seed.
 */
export function dealerShares(min: number, max: number, seed: Uint8Array): ThresholdGroup {
  params(min, max);
  const rng = seededRng(seed, 'dealer');
  const ids = Array.from({ length: max }, (_, i) => idOf(i + 1));
  const deal = ed25519_FROST.trustedDealer({ min, max }, ids, undefined, rng);
  const shares = ids.map((id, i) => ({ identifier: i + 1, signing_share: Uint8Array.from(deal.secretShares[id]!.signingShare) }));
  return groupOf(min, max, deal.public.commitments[0]!, shares);
}

/**
 * Distributed key generation (jcp §2.2: "the group's private key never exists anywhere — not even momentarily at a
 * dealer"), run as `max` separate participants, participant i drawing only on `seeds[i-1]` (label 'dkg'). Each sees
 * only public round-1 packages and the round-2 shares addressed to it. `observe`, when given, is shown each
 * participant's own secret state after round 1 and its own output after round 3 (tests use it to show that no single
 * state holds the group secret). Returns each participant's own view; ERR_THRESHOLD_DKG_FAILED when a round refuses
 * or the participants disagree on the group key.
 */
export function dkg(min: number, max: number, seeds: readonly Uint8Array[], observe?: (identifier: number, state: unknown) => void): DkgParticipant[] {
  params(min, max);
  if (!Array.isArray(seeds) || seeds.length !== max) throw new JcpError('ERR_THRESHOLD_PARAMS', `a ${min}-of-${max} DKG needs ${max} seeds, got ${String(seeds?.length)}`);
  const signers = { min, max };
  try {
    const r1 = seeds.map((seed, i) => ed25519_FROST.DKG.round1(idOf(i + 1), signers, undefined, seededRng(seed, 'dkg')));
    r1.forEach((r, i) => observe?.(i + 1, r.secret));
    const others = (i: number) => r1.filter((_, j) => j !== i).map((r) => r.public);
    const r2 = r1.map((r, i) => ed25519_FROST.DKG.round2(r.secret, others(i)));
    const out = r1.map((r, i) => {
      const me = idOf(i + 1);
      const received = r2.filter((_, j) => j !== i).map((m) => m[me]!);
      const key = ed25519_FROST.DKG.round3(r.secret, others(i), received);
      observe?.(i + 1, key);
      return { identifier: i + 1, signing_share: Uint8Array.from(key.secret.signingShare), group_public_key: Uint8Array.from(key.public.commitments[0]!) };
    });
    const gpk = out[0]!.group_public_key;
    if (!out.every((p) => p.group_public_key.every((b, j) => b === gpk[j]))) throw new Error('the participants computed different group keys');
    return out.map((p) => Object.freeze(p));
  } catch (e) {
    if (e instanceof JcpError) throw e;
    throw new JcpError('ERR_THRESHOLD_DKG_FAILED', `DKG failed: ${(e as Error).message}`, {}, { cause: e });
  }
}

/** The group of a DKG, as its participants jointly hold it (each participant keeps only its own share). */
export function dkgGroup(min: number, max: number, participants: readonly DkgParticipant[]): ThresholdGroup {
  return groupOf(min, max, participants[0]!.group_public_key, participants.map((p) => ({ identifier: p.identifier, signing_share: p.signing_share })));
}

/**
 * One FROST signing session (RFC 9591 §5): each signer commits (round one, with its nonce randomness), signs its share
 * (round two), and the shares aggregate into one 64-byte Ed25519 signature under `group_public_key`.
 * Nonce randomness: `nonces` as a 32-byte seed (derived per signer, see the header) or explicit per-signer randomness.
 * Each signer's verifying share is computed from its own signing share, so a signer holding no true share is caught at
 * aggregation: the aggregate does not verify under the group key.
 * Throws ERR_THRESHOLD_TOO_FEW_SIGNERS with fewer than `min` signers (the refusal is arithmetic: k−1 shares determine
 * nothing about the key), ERR_THRESHOLD_PARAMS for duplicate or out-of-range participants or more than `max`, and
 * ERR_THRESHOLD_SIGNATURE_INVALID when the shares do not combine into a signature valid under the group key.
 */
export function thresholdSign(
  group: { readonly min: number; readonly max: number; readonly group_public_key: Uint8Array },
  signers: readonly ThresholdShare[],
  message: Uint8Array,
  nonces: Uint8Array | readonly NonceRandomness[],
): ThresholdSignature {
  const { min, max } = params(group.min, group.max);
  if (!(group.group_public_key instanceof Uint8Array) || group.group_public_key.length !== 32) throw new JcpError('ERR_KEY_LENGTH', 'the group public key must be 32 bytes');
  if (!(message instanceof Uint8Array)) throw new JcpError('ERR_BAD_ARGUMENT', 'the message must be a byte string');
  if (!Array.isArray(signers) || signers.length < min) {
    throw new JcpError('ERR_THRESHOLD_TOO_FEW_SIGNERS', `a ${min}-of-${max} actor needs at least ${min} signers, got ${String(signers?.length)}`, { min, got: signers?.length });
  }
  if (signers.length > max) throw new JcpError('ERR_THRESHOLD_PARAMS', `a ${min}-of-${max} actor has at most ${max} signers, got ${signers.length}`);
  const list = signers.map((s) => ashare(s, max));
  if (new Set(list.map((s) => s.identifier)).size !== list.length) throw new JcpError('ERR_THRESHOLD_PARAMS', 'a participant is listed twice');
  const rngOf = nonceRngs(list, nonces);
  try {
    const secrets = list.map((s) => ({ identifier: idOf(s.identifier), signingShare: Uint8Array.from(s.signing_share) }));
    const pub = {
      signers: { min, max },
      commitments: [Uint8Array.from(group.group_public_key)],
      verifyingShares: Object.fromEntries(list.map((s, i) => [secrets[i]!.identifier, ed25519.Point.BASE.multiply(scalar(s.signing_share)).toBytes()])),
    };
    const round1 = secrets.map((sec, i) => ed25519_FROST.commit(sec, rngOf[i]!));
    const commitments = round1.map((r) => r.commitments);
    const sigShares = secrets.map((sec, i) => ed25519_FROST.signShare(sec, pub, round1[i]!.nonces, commitments, message));
    const signature = aggregate(pub, commitments, message, Object.fromEntries(secrets.map((sec, i) => [sec.identifier, sigShares[i]!])));
    return Object.freeze({
      signature,
      shares: list.map((s, i) => ({
        identifier: s.identifier,
        hiding_commitment: Uint8Array.from(commitments[i]!.hiding),
        binding_commitment: Uint8Array.from(commitments[i]!.binding),
        sig_share: Uint8Array.from(sigShares[i]!),
      })),
    });
  } catch (e) {
    if (e instanceof JcpError) throw e;
    throw new JcpError('ERR_THRESHOLD_SIGNATURE_INVALID', `the threshold signing round failed: ${(e as Error).message}`, {}, { cause: e });
  }
}

function aggregate(pub: Parameters<typeof ed25519_FROST.aggregate>[0], commitments: Parameters<typeof ed25519_FROST.aggregate>[1], message: Uint8Array, sigShares: Record<string, Uint8Array>): Uint8Array {
  try {
    return Uint8Array.from(ed25519_FROST.aggregate(pub, commitments, message, sigShares));
  } catch (e) {
    throw new JcpError('ERR_THRESHOLD_SIGNATURE_INVALID', 'the signature shares do not combine into a signature valid under the group key', {}, { cause: e });
  }
}

function scalar(le32: Uint8Array): bigint {
  let n = 0n;
  for (let i = 31; i >= 0; i--) n = (n << 8n) | BigInt(le32[i]!);
  if (n === 0n || n >= ed25519.Point.Fn.ORDER) throw new JcpError('ERR_BAD_ARGUMENT', 'a signing share must be a nonzero scalar below the group order');
  return n;
}

function nonceRngs(list: readonly ThresholdShare[], nonces: Uint8Array | readonly NonceRandomness[]): ((n?: number) => Uint8Array)[] {
  if (nonces instanceof Uint8Array) return list.map((s) => seededRng(nonces, `nonce:${s.identifier}`));
  if (!Array.isArray(nonces)) throw new JcpError('ERR_BAD_ARGUMENT', 'nonce randomness must be a 32-byte seed or one entry per signer');
  return list.map((s) => {
    const r = nonces.find((x) => x.identifier === s.identifier);
    if (!r || !(r.hiding instanceof Uint8Array) || r.hiding.length !== 32 || !(r.binding instanceof Uint8Array) || r.binding.length !== 32) {
      throw new JcpError('ERR_BAD_ARGUMENT', `participant ${s.identifier} needs 32 bytes of hiding and 32 of binding nonce randomness`);
    }
    const queue = [r.hiding, r.binding];
    return (n = 32) => {
      const next = queue.shift();
      if (next === undefined || n !== 32) throw new JcpError('ERR_BAD_ARGUMENT', 'a signer draws exactly two 32-byte nonce randomness values');
      return Uint8Array.from(next);
    };
  });
}
