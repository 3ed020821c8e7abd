// jcp §4.7 checkpoints and amendments (C21): the agent commits to its own state, the grant's issuer steers it, only to
// tighten, and only up to what the grant has left; the run resumes under a continuation grant linked to the steered one.
//
// Byte shapes (the spec fixes none of them; fixed here once, ARCHITECTURE.md). Text-keyed canonical det-CBOR maps named
// as in jcp §4.7; content ids and DIDs as text; absent optional fields omitted, never null:
//
//   Checkpoint { grant_id: cid,          ; the active grant the run is under
//                agent: did,             ; the grant's subject, who signs it
//                state: cid,             ; the content-addressed state commitment
//                ? spent: { uj: uint, provenance: "HwShunt" / "ModelBased" / "Estimator" }
//                                        ; cumulative µJ spent under grant_id, with its §5 grade; omitted when not stated
//                ? prev: cid }           ; the id of the run's previous checkpoint; absent for the run's first
//   Amendment  { checkpoint: cid,        ; the id of the checkpoint it steers (binds grant, agent, state and spend)
//                amender: did,           ; the grant's issuer, who signs it
//                budget_uj: uint,        ; the amended budget: what the run may spend from the checkpoint on
//                ? actions: [* tstr],    ; the amended action set; absent = unchanged
//                ? expiry: uint,         ; the amended expiry (unix s, 0 = none); absent = unchanged
//                ? instructions: cid }   ; a new instruction-set commitment for the agent (the spec's MAY)
//   Signed*    { checkpoint | amendment: map, signature: bstr .size 64 }   ; Ed25519 over the inner map's canonical bytes
//   id         = blake3(canonical_cbor(inner map)), lowercase hex (jcp §3), as for a grant.
//
// The continuation grant (jcp §4.7 "linked back to the steered grant"): an ordinary grant by the steered grant's issuer
// to the same subject, in the steered grant's place in its chain (same parent, or none), with every field of the
// steered grant except budget_uj = the amendment's budget_uj, and actions / expiry as the amendment sets them. The link
// is carried in its nonce, the one field a grant leaves free:
//   nonce = blake3(canonical_cbor({ continues: <steered grant id>, amendment: <amendment id> }))[0..16]
// so the continuation is decided by any enforcement point as it stands (no new grant field; an issuer re-binding, not a
// holder delegation, so no parent link to the steered grant), and an auditor holding the checkpoint+amendment pair
// recomputes the nonce and finds the continuation fully determined: anything else is refused.
//
// Readings taken where the spec is open (candidates for the spec map's open points):
// - "spent" is cumulative under the grant the checkpoint cites. A continuation is a new grant whose ledger starts at
//   zero at every enforcement point, so its checkpoints declare spend under it. One run is the prev-linked checkpoints
//   under a grant and its continuations: within one grant a declared spend never decreases; across the step into a
//   continuation (a prev under the steered grant, shown by the amendment that steered it, `via`) the figure restarts
//   with the new ledger, but a spend once stated must still be stated — going quiet under the continuation would
//   otherwise recover its full issued ceiling. A prev under another grant without that link is refused.
// - The run rules bind a checkpoint to the predecessor the verifier is shown. A verifier that holds the run (the
//   issuer, who received every checkpoint) is to present the last checkpoint it holds as `prev` (this module's usage,
//   not a MUST of the spec, which says nothing of how the rules are checked): a checkpoint that does
//   not extend it — a quiet restart with no prev, or a fork — is then refused (ERR_CHECKPOINT_RUN_BROKEN). A verifier
//   shown a checkpoint with no prev and holding nothing earlier has nothing to hold it to.
// - An amendment MUST only tighten: budget_uj ≤ the steered budget_uj; actions ⊆ the steered actions; expiry no later
//   (0 = never, as §4.1). A budget past the issued budget is a widening (ERR_AMENDMENT_WIDENS); one within it but past
//   the remainder of a checkpoint that stated its spend is ERR_AMENDMENT_ABOVE_REMAINDER.
// - An issuer who is also the grant's subject cannot amend: the amender "MUST differ from the agent" wins.
import { bytesEqual } from '../bytes.ts';
import { decodeCanonical, encodeCanonical, type CborInput, type CborMap, type CborValue } from '../cbor/index.ts';
import { isProvenance, type Provenance } from '../energy/cost.ts';
import { isJcpError, JcpError, type JcpErrorCode } from '../errors.ts';
import { blake3 } from '../hash/blake3.ts';
import { didPublicKey, isDidKey } from '../identity/did-key.ts';
import { defaultEd25519, type Ed25519, type KeyPair } from '../identity/ed25519.ts';
import { contentIdOfBytes, isContentId } from './content-id.ts';
import { grantToCbor, parseSignedGrant, signedGrantToCbor } from './codec.ts';
import { grantId, signGrant, verifyGrantSignature } from './grant.ts';
import type { ContentId, Did, Grant, SignedGrant } from './types.ts';

const U64_MAX = (1n << 64n) - 1n;

/** A declared cumulative spend: integer microjoules with its jcp §5 provenance grade. */
export interface SpendClaim {
  readonly uj: bigint;
  readonly provenance: Provenance;
}

/** jcp §4.7 Checkpoint: the agent's commitment to its own state under the active grant. */
export interface Checkpoint {
  readonly grant_id: ContentId;
  readonly agent: Did;
  readonly state: ContentId;
  /** Omitted when the checkpoint states no spend (never read as zero). */
  readonly spent?: SpendClaim;
  /** The id of the run's previous checkpoint; absent for the run's first. */
  readonly prev?: ContentId;
}

/** A checkpoint with the agent's Ed25519 signature over its canonical bytes. */
export interface SignedCheckpoint {
  readonly checkpoint: Checkpoint;
  readonly signature: Uint8Array;
}

/** jcp §4.7 Amendment: the issuer re-bounds the run at one checkpoint. */
export interface Amendment {
  readonly checkpoint: ContentId;
  readonly amender: Did;
  readonly budget_uj: bigint;
  readonly actions?: readonly string[];
  readonly expiry?: bigint;
  readonly instructions?: ContentId;
}

/** An amendment with the amender's Ed25519 signature over its canonical bytes. */
export interface SignedAmendment {
  readonly amendment: Amendment;
  readonly signature: Uint8Array;
}

/** What is left of the steered grant at a checkpoint: a figure when the checkpoint stated its spend, else unknown. */
export type Remainder = { readonly known: true; readonly uj: bigint } | { readonly known: false };

const fail = (code: JcpErrorCode, msg: string, detail?: Record<string, unknown>): never => {
  throw new JcpError(code, msg, detail);
};

/**
 * Validates at the boundary by round-trip (encode, strict-decode, strict-parse), on a snapshot of the input, so every
 * rule below works on a well-formed frozen value. Anything that is not even shaped like the object (undefined, a
 * number, a look-alike missing its fields) is refused with `code` rather than crashing.
 */
function _snapshot<T>(code: JcpErrorCode, what: string, x: unknown, roundTrip: () => T): T {
  if (typeof x !== 'object' || x === null) return fail(code, `${what} must be an object`);
  try {
    return roundTrip();
  } catch (e) {
    if (isJcpError(e)) throw e;
    return fail(code, `${what} is not well-formed: ${String(e)}`);
  }
}

const _grant = (sg: unknown): SignedGrant =>
  _snapshot('ERR_GRANT_MALFORMED', 'the grant', sg, () => parseSignedGrant(decodeCanonical(encodeCanonical(signedGrantToCbor(sg as SignedGrant)))));
const _checkpoint = (sc: unknown, what = 'the checkpoint'): SignedCheckpoint =>
  _snapshot('ERR_CHECKPOINT_MALFORMED', what, sc, () => parseSignedCheckpoint(decodeCanonical(encodeCanonical(signedCheckpointToCbor(sc as SignedCheckpoint)))));
const _amendment = (sa: unknown): SignedAmendment =>
  _snapshot('ERR_AMENDMENT_MALFORMED', 'the amendment', sa, () => parseSignedAmendment(decodeCanonical(encodeCanonical(signedAmendmentToCbor(sa as SignedAmendment)))));
const _signer = (k: unknown): KeyPair => {
  const kp = k as KeyPair;
  if (typeof k !== 'object' || k === null || typeof kp.did !== 'string' || !(kp.seed instanceof Uint8Array)) return fail('ERR_BAD_ARGUMENT', 'the signing key must be a KeyPair {seed, publicKey, did}');
  return kp;
};

// ---- canonical CBOR ------------------------------------------------------------------------------------------------

/** The CBOR value of a checkpoint; absent spent / prev omitted. */
export function checkpointToCbor(c: Checkpoint): CborInput {
  return {
    grant_id: c.grant_id,
    agent: c.agent,
    state: c.state,
    spent: c.spent === undefined || c.spent === null ? c.spent : { uj: c.spent.uj, provenance: c.spent.provenance },
    prev: c.prev,
  };
}

/** The CBOR value of an amendment; absent optional fields omitted. */
export function amendmentToCbor(a: Amendment): CborInput {
  return {
    checkpoint: a.checkpoint,
    amender: a.amender,
    budget_uj: a.budget_uj,
    actions: Array.isArray(a.actions) ? [...(a.actions as readonly string[])] : (a.actions as undefined),
    expiry: a.expiry,
    instructions: a.instructions,
  };
}

/** The CBOR value of a signed checkpoint. */
export function signedCheckpointToCbor(s: SignedCheckpoint): CborInput {
  return { checkpoint: checkpointToCbor(s.checkpoint), signature: s.signature };
}

/** The CBOR value of a signed amendment. */
export function signedAmendmentToCbor(s: SignedAmendment): CborInput {
  return { amendment: amendmentToCbor(s.amendment), signature: s.signature };
}

/** The canonical bytes the agent signs. */
export function checkpointBytes(c: Checkpoint): Uint8Array {
  return encodeCanonical(checkpointToCbor(c));
}

/** The canonical bytes the amender signs. */
export function amendmentBytes(a: Amendment): Uint8Array {
  return encodeCanonical(amendmentToCbor(a));
}

/** A checkpoint's content id: blake3 of its canonical bytes (jcp §3). */
export function checkpointId(c: Checkpoint): ContentId {
  return contentIdOfBytes(checkpointBytes(c));
}

/** An amendment's content id: blake3 of its canonical bytes (jcp §3). */
export function amendmentId(a: Amendment): ContentId {
  return contentIdOfBytes(amendmentBytes(a));
}

// ---- strict parsing at the boundary --------------------------------------------------------------------------------

function _fields(code: JcpErrorCode, v: CborValue | undefined, allowed: readonly string[], at: string): CborMap {
  if (!(v instanceof Map)) return fail(code, `${at}: must be a map`, { path: at });
  for (const k of v.keys()) {
    if (typeof k !== 'string' || !allowed.includes(k)) fail(code, `${at}: unknown field ${JSON.stringify(String(k))}`, { path: at });
  }
  return v;
}

function _uint(code: JcpErrorCode, v: CborValue | undefined, at: string): bigint {
  if (typeof v === 'number' && Number.isSafeInteger(v) && v >= 0) return BigInt(v);
  if (typeof v === 'bigint' && v >= 0n && v <= U64_MAX) return v;
  return fail(code, `${at}: must be an unsigned integer`, { path: at });
}

function _cid(code: JcpErrorCode, v: CborValue | undefined, at: string): ContentId {
  return isContentId(v) ? v : fail(code, `${at}: must be a content id (64 lowercase hex digits)`, { path: at });
}

function _did(code: JcpErrorCode, v: CborValue | undefined, at: string): Did {
  return typeof v === 'string' && isDidKey(v) ? v : fail(code, `${at}: must be an Ed25519 did:key`, { path: at });
}

function _sig(code: JcpErrorCode, v: CborValue | undefined, at: string): Uint8Array {
  return v instanceof Uint8Array && v.length === 64 ? v : fail(code, `${at}: must be a byte string of 64 bytes`, { path: at });
}

/** A Checkpoint from its CBOR value, validated field by field; throws ERR_CHECKPOINT_MALFORMED naming the field. */
export function parseCheckpoint(v: CborValue | undefined, at = '$checkpoint'): Checkpoint {
  const E = 'ERR_CHECKPOINT_MALFORMED';
  const m = _fields(E, v, ['grant_id', 'agent', 'state', 'spent', 'prev'], at);
  const c: { -readonly [K in keyof Checkpoint]: Checkpoint[K] } = {
    grant_id: _cid(E, m.get('grant_id'), `${at}.grant_id`),
    agent: _did(E, m.get('agent'), `${at}.agent`),
    state: _cid(E, m.get('state'), `${at}.state`),
  };
  if (m.has('spent')) {
    const s = _fields(E, m.get('spent'), ['uj', 'provenance'], `${at}.spent`);
    const provenance = s.get('provenance');
    if (!isProvenance(provenance)) fail(E, `${at}.spent.provenance: must be HwShunt, ModelBased or Estimator`, { path: `${at}.spent.provenance` });
    c.spent = Object.freeze({ uj: _uint(E, s.get('uj'), `${at}.spent.uj`), provenance: provenance as Provenance });
  }
  if (m.has('prev')) c.prev = _cid(E, m.get('prev'), `${at}.prev`);
  return Object.freeze(c);
}

/** An Amendment from its CBOR value, validated field by field; throws ERR_AMENDMENT_MALFORMED naming the field. */
export function parseAmendment(v: CborValue | undefined, at = '$amendment'): Amendment {
  const E = 'ERR_AMENDMENT_MALFORMED';
  const m = _fields(E, v, ['checkpoint', 'amender', 'budget_uj', 'actions', 'expiry', 'instructions'], at);
  const a: { -readonly [K in keyof Amendment]: Amendment[K] } = {
    checkpoint: _cid(E, m.get('checkpoint'), `${at}.checkpoint`),
    amender: _did(E, m.get('amender'), `${at}.amender`),
    budget_uj: _uint(E, m.get('budget_uj'), `${at}.budget_uj`),
  };
  if (m.has('actions')) {
    const xs = m.get('actions');
    if (!Array.isArray(xs) || !xs.every((x) => typeof x === 'string')) fail(E, `${at}.actions: must be an array of text`, { path: `${at}.actions` });
    a.actions = Object.freeze([...(xs as string[])]);
  }
  if (m.has('expiry')) a.expiry = _uint(E, m.get('expiry'), `${at}.expiry`);
  if (m.has('instructions')) a.instructions = _cid(E, m.get('instructions'), `${at}.instructions`);
  return Object.freeze(a);
}

/** A SignedCheckpoint from its CBOR value; throws ERR_CHECKPOINT_MALFORMED. */
export function parseSignedCheckpoint(v: CborValue | undefined, at = '$signed_checkpoint'): SignedCheckpoint {
  const m = _fields('ERR_CHECKPOINT_MALFORMED', v, ['checkpoint', 'signature'], at);
  return Object.freeze({ checkpoint: parseCheckpoint(m.get('checkpoint'), `${at}.checkpoint`), signature: _sig('ERR_CHECKPOINT_MALFORMED', m.get('signature'), `${at}.signature`) });
}

/** A SignedAmendment from its CBOR value; throws ERR_AMENDMENT_MALFORMED. */
export function parseSignedAmendment(v: CborValue | undefined, at = '$signed_amendment'): SignedAmendment {
  const m = _fields('ERR_AMENDMENT_MALFORMED', v, ['amendment', 'signature'], at);
  return Object.freeze({ amendment: parseAmendment(m.get('amendment'), `${at}.amendment`), signature: _sig('ERR_AMENDMENT_MALFORMED', m.get('signature'), `${at}.signature`) });
}

// ---- the rules -----------------------------------------------------------------------------------------------------

/**
 * jcp §4.7: what the grant has left at a checkpoint. Where the checkpoint states its spend, budget_uj − spent.uj,
 * saturating at zero; where it states none, unknown — never the full budget ("MUST NOT read an absent spend as zero").
 */
export function remainderAt(grant: Grant, c: Checkpoint): Remainder {
  // jcp §4.7: "implementations MUST NOT read an absent spend as zero spend, and SHOULD report the remainder as unknown"
  if (c.spent === undefined) return { known: false };
  // jcp §4.7: "grant.budget_uj − spent.uj, saturating at zero"
  return { known: true, uj: c.spent.uj >= grant.budget_uj ? 0n : grant.budget_uj - c.spent.uj };
}

/**
 * jcp §4.7 the run rules between two successive checkpoints: `next` names `prev` as its predecessor, by the same agent,
 * under the same grant or under `link.grant` when that is the continuation `link.via` (the amendment bound to `prev`)
 * determines (ERR_CHECKPOINT_RUN_BROKEN otherwise); a stated spend is never omitted later
 * (ERR_CHECKPOINT_SPEND_OMITTED) and, under one grant, never decreases (ERR_CHECKPOINT_SPEND_DECREASED).
 */
export function checkRunStep(prev: Checkpoint, next: Checkpoint, link?: { readonly grant: Grant; readonly via?: Amendment }): void {
  if (next.prev !== checkpointId(prev)) fail('ERR_CHECKPOINT_RUN_BROKEN', `the checkpoint's prev ${next.prev ?? '(none)'} is not the id of the checkpoint presented before it`);
  if (next.agent !== prev.agent) fail('ERR_CHECKPOINT_RUN_BROKEN', `the checkpoint's agent ${next.agent} is not its predecessor's ${prev.agent}`);
  const crosses = next.grant_id !== prev.grant_id;
  if (crosses) {
    // the run continues under a continuation only: the amendment bound to prev, whose link the active grant carries
    const via = link?.via;
    if (via === undefined || link === undefined) fail('ERR_CHECKPOINT_RUN_BROKEN', `the checkpoint cites grant ${next.grant_id}, its predecessor ${prev.grant_id}, and no amendment links them`);
    if (via!.checkpoint !== checkpointId(prev)) fail('ERR_CHECKPOINT_RUN_BROKEN', `the amendment presented steers checkpoint ${via!.checkpoint}, not the predecessor ${checkpointId(prev)}`);
    if (via!.amender !== link!.grant.issuer || !bytesEqual(link!.grant.nonce, continuationNonce(prev.grant_id, amendmentId(via!)))) {
      fail('ERR_CHECKPOINT_RUN_BROKEN', `grant ${next.grant_id} is not the continuation that amendment ${amendmentId(via!)} determines for grant ${prev.grant_id}`);
    }
  }
  if (prev.spent === undefined) return;
  // jcp §4.7: "a checkpoint that once stated a spend MUST NOT later omit it"
  if (next.spent === undefined) fail('ERR_CHECKPOINT_SPEND_OMITTED', `the previous checkpoint stated ${prev.spent.uj} µJ spent; this one omits its spend`);
  // jcp §4.7: "A declared spend is cumulative, so across one run it MUST NOT decrease"
  // (a continuation's ledger starts at zero, so its first figure is not compared with the steered grant's)
  if (!crosses && next.spent!.uj < prev.spent.uj) {
    fail('ERR_CHECKPOINT_SPEND_DECREASED', `declared spend ${next.spent!.uj} µJ is below the previous checkpoint's ${prev.spent.uj} µJ`, {
      spent_uj: String(next.spent!.uj),
      previous_uj: String(prev.spent.uj),
    });
  }
}

function _verifies(backend: Ed25519, sig: Uint8Array, msg: Uint8Array, did: Did): boolean {
  try {
    return backend.verify(sig, msg, didPublicKey(did));
  } catch {
    return false;
  }
}

/** What the agent chooses when checkpointing. */
export interface CheckpointFields {
  readonly state: ContentId;
  readonly spent?: SpendClaim;
  /** The run's previous checkpoint (signed), whose rules this one must keep; absent for the run's first. */
  readonly prev?: SignedCheckpoint;
  /** When `prev` is under the steered grant and this checkpoint under its continuation: the amendment that steered it. */
  readonly via?: SignedAmendment;
}

/**
 * jcp §4.7: the agent (the grant's subject) checkpoints its own state under `grant`. Refuses another signer
 * (ERR_CHECKPOINT_NOT_AGENT), a malformed field (ERR_CHECKPOINT_MALFORMED) and a step breaking the run rules
 * ({@link checkRunStep}).
 */
export function signCheckpoint(grantIn: SignedGrant, agentIn: KeyPair, fIn: CheckpointFields, backend: Ed25519 = defaultEd25519()): SignedCheckpoint {
  const grant = _grant(grantIn);
  const agent = _signer(agentIn);
  if (typeof fIn !== 'object' || fIn === null) fail('ERR_CHECKPOINT_MALFORMED', 'the checkpoint fields must be an object {state, spent?, prev?}');
  const f: CheckpointFields = {
    ...fIn,
    ...(fIn.prev !== undefined ? { prev: _checkpoint(fIn.prev, 'the previous checkpoint') } : {}),
    ...(fIn.via !== undefined ? { via: _amendment(fIn.via) } : {}),
  };
  const g = grant.grant;
  // jcp §4.7: "the checkpoint's author is the agent (the grant's subject), which commits to its own state"
  if (agent.did !== g.subject) fail('ERR_CHECKPOINT_NOT_AGENT', `${agent.did} is not the grant's subject ${g.subject}: only the agent checkpoints its run`);
  const raw: Checkpoint = {
    grant_id: grantId(g),
    agent: agent.did,
    state: f.state,
    ...(f.spent !== undefined ? { spent: f.spent } : {}),
    ...(f.prev !== undefined ? { prev: checkpointId(f.prev.checkpoint) } : {}),
  };
  // validated exactly as the wire would read it, so nothing signed here is refused by a parser
  const c = parseCheckpoint(decodeCanonical(encodeCanonical(checkpointToCbor(raw))));
  if (f.prev !== undefined) checkRunStep(f.prev.checkpoint, c, { grant: g, ...(f.via !== undefined ? { via: f.via.amendment } : {}) });
  return Object.freeze({ checkpoint: c, signature: backend.sign(agent.seed, checkpointBytes(c)) });
}

/**
 * jcp §4.7: verifies a signed checkpoint against the grant it cites — the grant's own signature
 * (ERR_STEERED_GRANT_INVALID), the citation (ERR_CHECKPOINT_WRONG_GRANT), the author is the grant's subject
 * (ERR_CHECKPOINT_NOT_AGENT), the signature (ERR_CHECKPOINT_SIGNATURE_INVALID) — and, when it names a predecessor, the
 * run rules against that predecessor, which must then be presented (ERR_CHECKPOINT_RUN_BROKEN otherwise), with `via`
 * the amendment that steered it when the run crossed into this continuation ({@link checkRunStep}). A verifier that
 * holds the run presents the last checkpoint it holds as `prev`, so a checkpoint that does not extend it is refused.
 */
export function verifyCheckpoint(
  grantIn: SignedGrant,
  scIn: SignedCheckpoint,
  prevIn?: SignedCheckpoint,
  viaIn?: SignedAmendment,
  backend: Ed25519 = defaultEd25519(),
): void {
  const grant = _grant(grantIn);
  const sc = _checkpoint(scIn);
  const prev = prevIn === undefined ? undefined : _checkpoint(prevIn, 'the previous checkpoint');
  const via = viaIn === undefined ? undefined : _amendment(viaIn);
  const g = grant.grant;
  const c = sc.checkpoint;
  if (!verifyGrantSignature(grant, backend)) fail('ERR_STEERED_GRANT_INVALID', "the grant's issuer signature does not verify");
  if (c.grant_id !== grantId(g)) fail('ERR_CHECKPOINT_WRONG_GRANT', `the checkpoint cites grant ${c.grant_id}, not the grant presented ${grantId(g)}`);
  // jcp §4.7: "the checkpoint's author is the agent (the grant's subject)"
  if (c.agent !== g.subject) fail('ERR_CHECKPOINT_NOT_AGENT', `the checkpoint's author ${c.agent} is not the grant's subject ${g.subject}`);
  // jcp §4.7: "signed by the agent"
  if (!_verifies(backend, sc.signature, checkpointBytes(c), c.agent)) fail('ERR_CHECKPOINT_SIGNATURE_INVALID', "the checkpoint's signature does not verify under its agent's key");
  if (c.prev !== undefined && prev === undefined) fail('ERR_CHECKPOINT_RUN_BROKEN', `the checkpoint follows ${c.prev}; the run rules need that checkpoint presented`);
  if (prev !== undefined) {
    if (!_verifies(backend, prev.signature, checkpointBytes(prev.checkpoint), prev.checkpoint.agent)) {
      fail('ERR_CHECKPOINT_SIGNATURE_INVALID', "the previous checkpoint's signature does not verify under its agent's key");
    }
    if (via !== undefined && !_verifies(backend, via.signature, amendmentBytes(via.amendment), via.amendment.amender)) {
      fail('ERR_AMENDMENT_SIGNATURE_INVALID', "the amendment linking the run into this continuation does not verify under its amender's key");
    }
    checkRunStep(prev.checkpoint, c, { grant: g, ...(via !== undefined ? { via: via.amendment } : {}) });
  }
}

/**
 * The first rule of jcp §4.7 an amendment breaks against the grant and the checkpoint it steers (the checkpoint
 * itself already verified), as [code, message]; undefined when it keeps them all. The one check both sides run.
 */
function _amendmentFault(g: Grant, c: Checkpoint, a: Amendment): [JcpErrorCode, string, Record<string, unknown>?] | undefined {
  if (a.checkpoint !== checkpointId(c)) return ['ERR_AMENDMENT_WRONG_CHECKPOINT', `the amendment is bound to checkpoint ${a.checkpoint}, not ${checkpointId(c)}`];
  // jcp §4.7: "the checkpoint's author is the agent … and cannot steer itself"; the amender "MUST differ from the agent"
  if (a.amender === g.subject) return ['ERR_AMENDMENT_SELF_STEER', `the amender ${a.amender} is the agent itself (the grant's subject): an agent cannot steer its own run`];
  // jcp §4.7: "the amender is the grant's issuer"; "An amendment … is signed by the grant's issuer"
  if (a.amender !== g.issuer) return ['ERR_AMENDMENT_NOT_ISSUER', `the amender ${a.amender} is not the grant's issuer ${g.issuer}`];
  // jcp §4.7: "MUST only tighten" — each axis, against the steered grant
  if (a.budget_uj > g.budget_uj) return ['ERR_AMENDMENT_WIDENS', `amended budget_uj ${a.budget_uj} is above the grant's ${g.budget_uj}`, { axis: 'budget' }];
  if (a.actions !== undefined) {
    const extra = a.actions.find((x) => !g.capability.actions.includes(x));
    if (extra !== undefined) return ['ERR_AMENDMENT_WIDENS', `the amendment grants action ${JSON.stringify(extra)} the grant does not`, { axis: 'actions' }];
  }
  if (a.expiry !== undefined && g.expiry !== 0n && (a.expiry === 0n || a.expiry > g.expiry)) {
    return ['ERR_AMENDMENT_WIDENS', `amended expiry ${a.expiry} outlives the grant's ${g.expiry}`, { axis: 'expiry' }];
  }
  // jcp §4.7: "Where the checkpoint states its spend, an amendment MUST NOT set a budget above grant.budget_uj − spent.uj"
  const rem = remainderAt(g, c);
  if (rem.known && a.budget_uj > rem.uj) {
    return ['ERR_AMENDMENT_ABOVE_REMAINDER', `amended budget_uj ${a.budget_uj} is above the ${rem.uj} µJ the grant has left at the checkpoint (budget ${g.budget_uj} − spent ${c.spent!.uj})`, { remainder_uj: String(rem.uj) }];
  }
  return undefined;
}

/** What the issuer chooses when amending; every omitted axis stays as the steered grant has it. */
export interface AmendmentFields {
  readonly budget_uj: bigint;
  readonly actions?: readonly string[];
  readonly expiry?: bigint;
  readonly instructions?: ContentId;
}

/**
 * jcp §4.7 the amending side: the grant's issuer steers the run at `checkpoint`. Verifies the checkpoint
 * ({@link verifyCheckpoint}, with its predecessor when it names one), then refuses an amender who is the agent
 * (ERR_AMENDMENT_SELF_STEER) or not the issuer (ERR_AMENDMENT_NOT_ISSUER), any widening (ERR_AMENDMENT_WIDENS,
 * detail.axis) and a budget above the remainder (ERR_AMENDMENT_ABOVE_REMAINDER).
 */
export function amend(
  grantIn: SignedGrant,
  checkpointIn: SignedCheckpoint,
  amenderIn: KeyPair,
  f: AmendmentFields,
  prev?: SignedCheckpoint,
  via?: SignedAmendment,
  backend: Ed25519 = defaultEd25519(),
): SignedAmendment {
  const grant = _grant(grantIn);
  const checkpoint = _checkpoint(checkpointIn);
  const amender = _signer(amenderIn);
  if (typeof f !== 'object' || f === null) fail('ERR_AMENDMENT_MALFORMED', 'the amendment fields must be an object {budget_uj, actions?, expiry?, instructions?}');
  verifyCheckpoint(grant, checkpoint, prev, via, backend);
  const raw: Amendment = {
    checkpoint: checkpointId(checkpoint.checkpoint),
    amender: amender.did,
    budget_uj: f.budget_uj,
    ...(f.actions !== undefined ? { actions: f.actions } : {}),
    ...(f.expiry !== undefined ? { expiry: f.expiry } : {}),
    ...(f.instructions !== undefined ? { instructions: f.instructions } : {}),
  };
  const a = parseAmendment(decodeCanonical(encodeCanonical(amendmentToCbor(raw))));
  const fault = _amendmentFault(grant.grant, checkpoint.checkpoint, a);
  if (fault) fail(...fault);
  return Object.freeze({ amendment: a, signature: backend.sign(amender.seed, amendmentBytes(a)) });
}

/**
 * jcp §4.7 the verifying side, for an auditor or an enforcement point handed a signed pair: the checkpoint as
 * {@link verifyCheckpoint}, then every rule {@link amend} applies, then the amender's signature
 * (ERR_AMENDMENT_SIGNATURE_INVALID). Returns the remainder at the checkpoint (unknown when it stated no spend).
 */
export function verifyAmendment(
  grant: SignedGrant,
  checkpoint: SignedCheckpoint,
  amendment: SignedAmendment,
  prev?: SignedCheckpoint,
  via?: SignedAmendment,
  backend: Ed25519 = defaultEd25519(),
): Remainder {
  verifyCheckpoint(grant, checkpoint, prev, via, backend);
  const sa = _amendment(amendment);
  const a = sa.amendment;
  // jcp §4.7: "Both the amending side and the verifying side MUST enforce this"
  const fault = _amendmentFault(_grant(grant).grant, _checkpoint(checkpoint).checkpoint, a);
  if (fault) fail(...fault);
  if (!_verifies(backend, sa.signature, amendmentBytes(a), a.amender)) fail('ERR_AMENDMENT_SIGNATURE_INVALID', "the amendment's signature does not verify under its amender's key");
  return remainderAt(grant.grant, checkpoint.checkpoint);
}

/** The 16-byte nonce that links a continuation to the grant it continues and the amendment that steered it. */
export function continuationNonce(steered_grant_id: ContentId, amendment_id: ContentId): Uint8Array {
  return blake3(encodeCanonical({ continues: steered_grant_id, amendment: amendment_id })).slice(0, 16);
}

/** The continuation grant (unsigned) an amendment determines for the steered grant (see the module header). */
export function continuationOf(steered: Grant, a: Amendment): Grant {
  const { nonce: _n, budget_uj: _b, capability, expiry, ...rest } = steered;
  return {
    ...rest,
    capability: { resource: capability.resource, actions: [...(a.actions ?? capability.actions)] },
    budget_uj: a.budget_uj,
    expiry: a.expiry ?? expiry,
    nonce: continuationNonce(grantId(steered), amendmentId(a)),
  };
}

/**
 * jcp §4.7: the issuer re-issues the grant to the same agent with the amended budget, linked back to the steered grant.
 * Verifies the pair first ({@link verifyAmendment}); throws ERR_BAD_ARGUMENT when `issuer` is not the steered grant's issuer.
 */
export function issueContinuation(
  steered: SignedGrant,
  checkpoint: SignedCheckpoint,
  amendment: SignedAmendment,
  issuer: KeyPair,
  prev?: SignedCheckpoint,
  via?: SignedAmendment,
  backend: Ed25519 = defaultEd25519(),
): SignedGrant {
  verifyAmendment(steered, checkpoint, amendment, prev, via, backend);
  return signGrant(continuationOf(_grant(steered).grant, _amendment(amendment).amendment), _signer(issuer), backend);
}

/**
 * jcp §4.7 "an auditor verifies it alongside the signed checkpoint+amendment pair": the pair as {@link verifyAmendment},
 * then the continuation — its nonce links the steered grant and this amendment (ERR_CONTINUATION_UNLINKED), its
 * signature verifies and every field is the one the amendment determines (ERR_CONTINUATION_MISMATCH, detail.field).
 */
export function verifyContinuation(
  steered: SignedGrant,
  checkpoint: SignedCheckpoint,
  amendment: SignedAmendment,
  continuation: SignedGrant,
  prev?: SignedCheckpoint,
  via?: SignedAmendment,
  backend: Ed25519 = defaultEd25519(),
): Remainder {
  const rem = verifyAmendment(steered, checkpoint, amendment, prev, via, backend);
  const want = continuationOf(_grant(steered).grant, _amendment(amendment).amendment);
  const got = _grant(continuation).grant;
  if (!bytesEqual(got.nonce, want.nonce)) {
    fail('ERR_CONTINUATION_UNLINKED', "the continuation's nonce does not link it to the steered grant and this amendment");
  }
  if (grantId(got) !== grantId(want)) {
    const g = grantToCbor(got) as Record<string, CborInput>;
    const w = grantToCbor(want) as Record<string, CborInput>;
    // an absent field encodes as the empty map {}, so a field present on one side only differs too
    const field = Object.keys(w).find((k) => !bytesEqual(encodeCanonical({ v: g[k] }), encodeCanonical({ v: w[k] })));
    fail('ERR_CONTINUATION_MISMATCH', `the continuation's ${String(field ?? 'bytes')} is not what the amendment determines`, { field: String(field ?? 'bytes') });
  }
  if (!verifyGrantSignature(_grant(continuation), backend)) fail('ERR_CONTINUATION_MISMATCH', "the continuation's issuer signature does not verify", { field: 'signature' });
  return rem;
}
