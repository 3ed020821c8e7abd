// jcp §4.6 standing grants (OPTIONAL, conformance class C20): an ordinary grant plus a signed mint policy that turns
// an event of one class into a fresh, strictly weaker child through the ordinary attenuation path (§4.1), under a
// mint ledger (firing count and cumulative spend) that holds the rate limit and the grant's budget by arithmetic.
//
// Byte shapes fixed here (the spec names the bounds, not their CBOR layout):
//   MintPolicy       = { grant_id: tstr (content id), issuer: tstr (did:key), event_class: tstr (content id),
//                        per_firing_uj: uint, max_firings: uint }
//   SignedMintPolicy = { policy: MintPolicy, signature: bstr .size 64 }
//     the signature is Ed25519 by `issuer` over canonical_cbor(MintPolicy); issuer MUST be the standing grant's issuer
//     (jcp §4.6 "bound to one grant by id, signed by that grant's issuer"). A policy's id is blake3 of those bytes.
//   An event class is a content id (jcp §4.6 "content-addressed"): {@link eventClassId} of whatever names the source.
//
// Readings taken where the spec leaves the meaning open:
//   - "cumulative spend" is the sum of the budgets the ledger has minted to children (the minter cannot know what a
//     child will spend; what it hands out is what the standing grant is exposed to). It is kept per standing grant,
//     across every policy bound to it, so two policies cannot together mint past the grant.
//   - The firing count is kept per policy (by policy id); an identical policy is the same policy.
//   - Each child carries exactly per_firing_uj, inherits every other axis from the standing grant (actions, expiry,
//     caveats, money ceiling; depth − 1), and is signed by the standing grant's subject (the holder, §4.1).
//   - Amplification refused at author time (and again at firing time, for a policy crafted past the author): a
//     per-firing budget above the grant's budget_uj, and a policy over a leaf-only grant (delegate_depth 0), whose
//     firings would be delegations the grant forbids (§4.4).
import { decodeCanonical, encodeCanonical, type CborInput, type CborValue } from '../cbor/index.ts';
import { JcpError } from '../errors.ts';
import { didPublicKey, isDidKey } from '../identity/did-key.ts';
import { defaultEd25519, type Ed25519, type KeyPair } from '../identity/ed25519.ts';
import { attenuate } from './attenuate.ts';
import { _keyPairArg, _signedGrantArg } from './channel.ts';
import { contentId, contentIdOfBytes, isContentId } from './content-id.ts';
import { grantId, verifyGrantSignature } from './grant.ts';
import type { ContentId, Did, Grant, SignedGrant } from './types.ts';

const U64_MAX = (1n << 64n) - 1n;

/** jcp §4.6 mint policy: how a trigger may turn a standing grant into work. */
export interface MintPolicy {
  /** The standing grant's id. */
  readonly grant_id: ContentId;
  /** The standing grant's issuer, who signs the policy. */
  readonly issuer: Did;
  /** The content id of the one event class permitted to fire it. */
  readonly event_class: ContentId;
  /** The budget of each child. */
  readonly per_firing_uj: bigint;
  /** How many children the policy may ever mint. */
  readonly max_firings: bigint;
}

/** A mint policy with its issuer's signature over the policy's canonical bytes. */
export interface SignedMintPolicy {
  readonly policy: MintPolicy;
  readonly signature: Uint8Array;
}

/** The content id of an event class, from whatever value names it (e.g. { source: 'github', event: 'push' }). */
export function eventClassId(descriptor: CborInput): ContentId {
  return contentId({ event_class: descriptor });
}

// ---- encoding ------------------------------------------------------------------------------------------------------

/** The CBOR value of a mint policy. */
export function mintPolicyToCbor(p: MintPolicy): CborInput {
  return { grant_id: p.grant_id, issuer: p.issuer, event_class: p.event_class, per_firing_uj: p.per_firing_uj, max_firings: p.max_firings };
}

/** The CBOR value of a signed mint policy. */
export function signedMintPolicyToCbor(sp: SignedMintPolicy): CborInput {
  return { policy: mintPolicyToCbor(sp.policy), signature: sp.signature };
}

/** The canonical bytes the issuer signs. */
export function mintPolicyBytes(p: MintPolicy): Uint8Array {
  return encodeCanonical(mintPolicyToCbor(p));
}

/** A policy's id: blake3 of its canonical bytes, lowercase hex. */
export function mintPolicyId(p: MintPolicy): ContentId {
  return contentIdOfBytes(mintPolicyBytes(p));
}

function malformed(msg: string, at: string): never {
  throw new JcpError('ERR_MINT_POLICY_MALFORMED', `${at}: ${msg}`, { path: at });
}

function _fields(v: CborValue | undefined, names: readonly string[], at: string): Map<CborValue, CborValue> {
  if (!(v instanceof Map)) malformed('must be a map', at);
  for (const k of v.keys()) if (typeof k !== 'string' || !names.includes(k)) malformed(`unknown field ${String(k)}`, at);
  for (const k of names) if (!v.has(k)) malformed(`${k} is missing`, at);
  return v;
}

function _uint(v: CborValue | undefined, at: string): bigint {
  if (typeof v === 'number' && Number.isSafeInteger(v) && v >= 0) return BigInt(v);
  if (typeof v === 'bigint' && v >= 0n && v <= U64_MAX) return v;
  return malformed('must be an unsigned integer', at);
}

function _cid(v: CborValue | undefined, at: string): string {
  if (!isContentId(v)) malformed('must be a content id (64 lowercase hex digits)', at);
  return v as string;
}

/** A MintPolicy from its CBOR value; throws ERR_MINT_POLICY_MALFORMED naming the field. */
export function parseMintPolicy(v: CborValue | undefined, at = '$policy'): MintPolicy {
  const m = _fields(v, ['grant_id', 'issuer', 'event_class', 'per_firing_uj', 'max_firings'], at);
  const issuer = m.get('issuer');
  if (typeof issuer !== 'string' || !isDidKey(issuer)) malformed('must be an Ed25519 did:key', `${at}.issuer`);
  return Object.freeze({
    grant_id: _cid(m.get('grant_id'), `${at}.grant_id`),
    issuer,
    event_class: _cid(m.get('event_class'), `${at}.event_class`),
    per_firing_uj: _uint(m.get('per_firing_uj'), `${at}.per_firing_uj`),
    max_firings: _uint(m.get('max_firings'), `${at}.max_firings`),
  });
}

/** A SignedMintPolicy from its CBOR value; throws ERR_MINT_POLICY_MALFORMED naming the field. */
export function parseSignedMintPolicy(v: CborValue, at = '$signed_policy'): SignedMintPolicy {
  const m = _fields(v, ['policy', 'signature'], at);
  const policy = parseMintPolicy(m.get('policy'), `${at}.policy`);
  const signature = m.get('signature');
  if (!(signature instanceof Uint8Array) || signature.length !== 64) malformed('must be a byte string of 64 bytes', `${at}.signature`);
  return Object.freeze({ policy, signature });
}

/** A signed mint policy from its canonical bytes. */
export function decodeSignedMintPolicy(bytes: Uint8Array): SignedMintPolicy {
  return parseSignedMintPolicy(decodeCanonical(bytes));
}

/** A signed policy read again as the wire reads it: a look-alike object is refused (ERR_MINT_POLICY_MALFORMED), never trusted. */
function _snapshotPolicy(sp: SignedMintPolicy): SignedMintPolicy {
  const o = sp as unknown as { policy?: unknown; signature?: unknown } | null;
  if (typeof o !== 'object' || o === null || typeof o.policy !== 'object' || o.policy === null || !(o.signature instanceof Uint8Array)) {
    throw new JcpError('ERR_MINT_POLICY_MALFORMED', 'a signed mint policy is {policy, signature}');
  }
  return parseSignedMintPolicy(decodeCanonical(encodeCanonical(signedMintPolicyToCbor(sp))));
}

// ---- authority and amplification -----------------------------------------------------------------------------------

/** The axis on which a policy would amplify its grant, with why; undefined when it does not. */
export function policyAmplification(p: MintPolicy, g: Grant): { readonly axis: 'budget' | 'depth'; readonly message: string } | undefined {
  // jcp §4.6: "the per-firing budget (a slice no larger than the grant's budget)"
  if (p.per_firing_uj > g.budget_uj) return { axis: 'budget', message: `per_firing_uj ${p.per_firing_uj} exceeds the grant's budget_uj ${g.budget_uj}` };
  // jcp §4.4: a leaf-only grant may not be delegated, so no firing of it may mint a child
  if (g.delegate_depth === 0n) return { axis: 'depth', message: 'the grant is leaf-only (delegate_depth 0): a firing would delegate it' };
  return undefined;
}

function unauthorized(fault: string, msg: string): never {
  throw new JcpError('ERR_MINT_POLICY_UNAUTHORIZED', msg, { fault });
}

/**
 * jcp §4.6: is this policy bound to this standing grant, signed by its issuer, over a grant whose own signature
 * verifies, and does it not amplify the grant? Throws ERR_MINT_POLICY_UNAUTHORIZED (detail.fault 'grant-id' |
 * 'not-issuer' | 'signature' | 'grant-signature') or ERR_MINT_POLICY_AMPLIFIES (detail.axis).
 */
export function verifyMintPolicy(sp: SignedMintPolicy, standing: SignedGrant, backend: Ed25519 = defaultEd25519()): void {
  const snap = _snapshotPolicy(sp);
  const p = snap.policy;
  const g = _signedGrantArg(standing, 'standing').grant;
  const gid = grantId(g);
  // jcp §4.6: "The policy is bound to one grant by id, signed by that grant's issuer"
  if (p.grant_id !== gid) unauthorized('grant-id', `the policy is bound to grant ${p.grant_id}, not ${gid}`);
  if (p.issuer !== g.issuer) unauthorized('not-issuer', `the policy's issuer ${p.issuer} is not the grant's issuer ${g.issuer}`);
  let ok = false;
  try {
    ok = backend.verify(snap.signature, mintPolicyBytes(p), didPublicKey(p.issuer));
  } catch {
    ok = false;
  }
  if (!ok) unauthorized('signature', "the policy's signature does not verify under the grant's issuer");
  if (!verifyGrantSignature(standing, backend)) unauthorized('grant-signature', "the standing grant's signature does not verify");
  // jcp §4.6: "and MUST NOT amplify it"
  const amp = policyAmplification(p, g);
  if (amp) throw new JcpError('ERR_MINT_POLICY_AMPLIFIES', amp.message, { axis: amp.axis });
}

/** What the issuer chooses when authoring a policy. */
export interface MintPolicyFields {
  readonly event_class: ContentId;
  readonly per_firing_uj: bigint;
  readonly max_firings: bigint;
}

/**
 * jcp §4.6: the standing grant's issuer authors and signs a mint policy. Refuses a signer who is not the grant's issuer
 * and a grant whose signature does not verify (ERR_MINT_POLICY_UNAUTHORIZED), a policy that would amplify the grant
 * (ERR_MINT_POLICY_AMPLIFIES, detail.axis), and malformed fields (ERR_MINT_POLICY_MALFORMED).
 */
export function authorMintPolicy(standing: SignedGrant, issuer: KeyPair, f: MintPolicyFields, backend: Ed25519 = defaultEd25519()): SignedMintPolicy {
  const g = _signedGrantArg(standing, 'standing').grant;
  if (typeof f !== 'object' || f === null) throw new JcpError('ERR_BAD_ARGUMENT', 'policy fields are {event_class, per_firing_uj, max_firings}');
  if (_keyPairArg(issuer, 'issuer').did !== g.issuer) unauthorized('not-issuer', `${issuer.did} is not the standing grant's issuer ${g.issuer}`);
  // validated exactly as the wire would read it, so nothing authored here is refused by a parser
  const policy = parseMintPolicy(
    decodeCanonical(encodeCanonical(mintPolicyToCbor({ grant_id: grantId(g), issuer: issuer.did, event_class: f.event_class, per_firing_uj: f.per_firing_uj, max_firings: f.max_firings }))),
  );
  const sp = Object.freeze({ policy, signature: backend.sign(issuer.seed, mintPolicyBytes(policy)) });
  verifyMintPolicy(sp, standing, backend);
  return sp;
}

// ---- firing under the mint ledger ----------------------------------------------------------------------------------

/** One trigger asking a standing grant for work. */
export interface Firing {
  readonly policy: SignedMintPolicy;
  readonly standing: SignedGrant;
  /** The standing grant's subject: it signs the child (jcp §4.1 "MUST refuse delegation by anyone other than the parent's subject"). */
  readonly holder: KeyPair;
  /** The content id of the event's class. */
  readonly event_class: ContentId;
  /** Who the child goes to. */
  readonly subject: Did;
  /** The child's nonce (16 bytes). */
  readonly nonce: Uint8Array;
}

/** The mint ledger an enforcement point carries (jcp §4.6). */
export interface MintLedger {
  /**
   * Fires a policy: verifies it against the standing grant, checks the event class, the firing count and the
   * cumulative spend, then mints the child through {@link attenuate} and advances the ledger. Every refusal leaves
   * the ledger unchanged: ERR_MINT_POLICY_UNAUTHORIZED / ERR_MINT_POLICY_AMPLIFIES (the policy), ERR_FIRING_WRONG_EVENT_CLASS,
   * ERR_FIRINGS_EXHAUSTED, ERR_FIRING_OVER_BUDGET, and attenuation's own refusals (ERR_NOT_HOLDER, …).
   */
  fire(f: Firing): SignedGrant;
  /** How many children a policy has minted. */
  firings(policy_id: ContentId): bigint;
  /** The budget minted to children of a standing grant, across all its policies. */
  cumulative(grant_id: ContentId): bigint;
}

/** A fresh, empty mint ledger. */
export function createMintLedger(backend: Ed25519 = defaultEd25519()): MintLedger {
  const counts = new Map<ContentId, bigint>();
  const spent = new Map<ContentId, bigint>();
  const firings = (id: ContentId): bigint => counts.get(id) ?? 0n;
  const cumulative = (id: ContentId): bigint => spent.get(id) ?? 0n;
  return Object.freeze({
    fire(f: Firing): SignedGrant {
      if (typeof f !== 'object' || f === null) throw new JcpError('ERR_BAD_ARGUMENT', 'a firing is {policy, standing, holder, event_class, subject, nonce}');
      const sp = _snapshotPolicy(f.policy);
      verifyMintPolicy(sp, f.standing, backend);
      _keyPairArg(f.holder, 'holder');
      const p = sp.policy;
      const pid = mintPolicyId(p);
      const gid = p.grant_id;
      // jcp §4.6: refused "when the event is of the wrong class"
      if (f.event_class !== p.event_class) {
        throw new JcpError('ERR_FIRING_WRONG_EVENT_CLASS', `event class ${String(f.event_class)} is not the policy's ${p.event_class}`);
      }
      // jcp §4.6: refused when "the firing count is exhausted"
      if (firings(pid) >= p.max_firings) throw new JcpError('ERR_FIRINGS_EXHAUSTED', `the policy has fired ${firings(pid)} of ${p.max_firings} times`);
      // jcp §4.6: refused when "the next firing would push cumulative spend past the grant"
      const budget = f.standing.grant.budget_uj;
      if (cumulative(gid) + p.per_firing_uj > budget) {
        throw new JcpError('ERR_FIRING_OVER_BUDGET', `cumulative ${cumulative(gid)} + per_firing_uj ${p.per_firing_uj} > budget_uj ${budget}`);
      }
      // jcp §4.6: "Each firing mints one fresh child through the ordinary attenuation path (§4.1)"
      const child = attenuate(f.standing, f.holder, { subject: f.subject, budget_uj: p.per_firing_uj, nonce: f.nonce }, backend);
      counts.set(pid, firings(pid) + 1n);
      spent.set(gid, cumulative(gid) + p.per_firing_uj);
      return child;
    },
    firings,
    cumulative,
  });
}
