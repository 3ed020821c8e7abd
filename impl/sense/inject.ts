// sense §11: surfacing into a running agent — the injected observation. A distinctly-kinded frame occupying one
// position in the recipient's order, stating the surfacing link it carries out (by the content address of the link's
// signed core), the observed event's content id and declared trust level (taken from the link, never restated), its
// destination, the authority under which a parked recipient was woken, and the joules the delivery charged. Four
// conditions are refused (§11.2): a hold, a recipient authoring its own observation, a wake with no authority, and a
// delivery priced at zero. The frame's address binds the destination and the presence of a wake (conformance C6).
//
// Byte shape (the suite's reading; sense §11 fixes what a frame states, not its encoding):
//   frame = { kind: "injected_observation", link: cid, event_id: cid, trust: TrustLevel, author: did, recipient: did,
//             position: uint, destination: "own" / "derived", recipient_state: "running" / "woken",
//             ? wake_authority: cid (present exactly when recipient_state is "woken"),
//             delivery: { uj: uint, provenance: Provenance, ? coverage: "Partial" } }
//   frame address = blake3(canonical(frame)), lowercase hex.
// "running" and "woken" are two values of one required field, so an already-running recipient (no authority needed)
// and a wake nobody permitted (refused, no frame) never share a shape (§11.2 item 3).
// The wake authority is the child grant a standing grant's firing minted for the recipient (jcp §4.6); the reference
// checks it is a signed child grant (it has a parent), validly signed, whose subject is the recipient.
import { encodeCanonical, type CborInput } from '../cbor/index.ts';
import { isProvenance, type Cost } from '../energy/cost.ts';
import { JcpError } from '../errors.ts';
import { isDidKey } from '../identity/did-key.ts';
import { defaultEd25519, type Ed25519 } from '../identity/ed25519.ts';
import { contentIdOfBytes } from '../jcp/content-id.ts';
import { grantId, verifyGrantSignature } from '../jcp/grant.ts';
import type { SignedGrant } from '../jcp/types.ts';
import { _oneOf, _uint } from './_read.ts';
import { linkId, linkSignatureValid, type SignedLink } from './chain.ts';
import type { TrustLevel } from './event.ts';

/** sense §11: the injected kind — distinct from every kind an agent or its principal authors. */
export const INJECTED_KIND = 'injected_observation';

/**
 * The kinds a recipient agent may author in its own record (the suite's reading, after jcp §6's frame kinds): calls it
 * makes and replies it gives. sense §11: "The injected kind MUST NOT be offered to the agent as something it may author".
 */
export const AGENT_AUTHORABLE_KINDS = Object.freeze(['tool-call', 'agent-reply'] as const);

/** sense §11.1: where a delivery landed. */
export const DESTINATIONS = ['own', 'derived'] as const;
/** A destination. */
export type Destination = (typeof DESTINATIONS)[number];

/** Whether the recipient was running or parked when the delivery came. */
export type RunState = 'running' | 'parked';

/** A delivery request. */
export interface InjectionFields {
  readonly link: SignedLink;
  readonly recipient: string;
  /** The recipient's record position the frame occupies (its record's length at delivery). */
  readonly position: bigint;
  readonly destination: Destination;
  readonly run_state: RunState;
  /** The firing's child grant that permitted waking a parked recipient. */
  readonly wake_authority?: SignedGrant;
  /** sense §11: "the joules the delivery charged — the cost of the recipient reading the frame". */
  readonly delivery: Cost;
}

/** An injected observation: the frame and its address. */
export interface InjectedObservation {
  readonly frame: CborInput;
  readonly frame_id: string;
  readonly bytes: Uint8Array;
}

const BAD = 'ERR_SENSE_INJECTION_MALFORMED' as const;

/** sense §11: a recipient may never author the injected kind; ERR_SENSE_SELF_AUTHORED for it, ERR_BAD_ARGUMENT for an unknown kind. */
export function assertAgentMayAuthor(kind: string): void {
  // sense §11: "a host MUST refuse an attempt by the recipient to author one"
  if (kind === INJECTED_KIND) throw new JcpError('ERR_SENSE_SELF_AUTHORED', 'a recipient cannot author an injected observation: it would manufacture a record of being told');
  if (!(AGENT_AUTHORABLE_KINDS as readonly string[]).includes(kind)) throw new JcpError('ERR_BAD_ARGUMENT', `an agent may author only ${AGENT_AUTHORABLE_KINDS.join(', ')}, not ${kind}`);
}

function wakeAuthority(f: InjectionFields, backend: Ed25519): string | undefined {
  if (f.run_state === 'running') {
    // sense §11.2: "An already-running recipient names none"
    if (f.wake_authority !== undefined) throw new JcpError(BAD, 'a running recipient was not woken, so the delivery names no wake authority');
    return undefined;
  }
  const g = f.wake_authority;
  // sense §11.2: "delivery MUST be refused where none is held"
  if (g === undefined) throw new JcpError('ERR_SENSE_WAKE_UNAUTHORIZED', 'waking a parked recipient needs the authority that permitted it (a standing grant firing)');
  if (g.grant.parent === undefined) throw new JcpError('ERR_SENSE_WAKE_UNAUTHORIZED', 'the wake authority is a root grant, not the child of a standing grant firing');
  if (g.grant.subject !== f.recipient) throw new JcpError('ERR_SENSE_WAKE_UNAUTHORIZED', 'the wake authority was minted for another principal than the recipient');
  if (!verifyGrantSignature(g, backend)) throw new JcpError('ERR_SENSE_WAKE_UNAUTHORIZED', 'the wake authority is not validly signed');
  return grantId(g.grant);
}

/**
 * sense §11: delivers a sealed surfacing into a recipient agent's record. Refuses, in this order:
 * ERR_SENSE_LINK_SIGNATURE_INVALID (the link is not its host's), ERR_SENSE_HOLD_UNDELIVERABLE (§11.2 item 1),
 * ERR_SENSE_SELF_AUTHORED (item 2), ERR_SENSE_WAKE_UNAUTHORIZED (item 3), ERR_SENSE_DELIVERY_UNPRICED (item 4),
 * ERR_SENSE_INJECTION_MALFORMED for a malformed request.
 */
export function injectObservation(f: InjectionFields, backend: Ed25519 = defaultEd25519()): InjectedObservation {
  if (typeof f !== 'object' || f === null || typeof f.link !== 'object' || f.link === null) throw new JcpError(BAD, 'a delivery needs a sealed link');
  if (typeof f.recipient !== 'string' || !isDidKey(f.recipient)) throw new JcpError(BAD, 'recipient must be an Ed25519 did:key');
  const destination = _oneOf(f.destination, DESTINATIONS, 'destination', BAD);
  _oneOf(f.run_state, ['running', 'parked'], 'run_state', BAD);
  const position = _uint(f.position, 'position', BAD);
  const core = f.link.core;
  if (!linkSignatureValid(f.link, backend)) throw new JcpError('ERR_SENSE_LINK_SIGNATURE_INVALID', 'the surfacing link is not signed by its host');
  // sense §11.2: "A hold is not deliverable (...) MUST be refused."
  if (core.decision !== 'surface') throw new JcpError('ERR_SENSE_HOLD_UNDELIVERABLE', `the link records ${core.decision}; a hold is not deliverable`);
  // sense §11.2: "Author and recipient MUST be distinct principals"
  if (core.host === f.recipient) throw new JcpError('ERR_SENSE_SELF_AUTHORED', 'the recipient cannot be the author of an observation delivered to it');
  const authority = wakeAuthority(f, backend);
  const d = f.delivery;
  if (typeof d !== 'object' || d === null || !isProvenance(d.provenance)) throw new JcpError(BAD, 'delivery must be a cost {uj, provenance}');
  const uj = _uint(d.uj, 'delivery.uj', BAD);
  // sense §11.2: "a delivery priced at zero MUST be refused"
  if (uj === 0n) throw new JcpError('ERR_SENSE_DELIVERY_UNPRICED', 'a delivery that happened is not free: price it (estimate and label if it cannot be measured)');
  if (d.coverage !== undefined && d.coverage !== 'Partial') throw new JcpError(BAD, 'delivery.coverage is Partial or absent');
  const frame: CborInput = {
    kind: INJECTED_KIND,
    // sense §11: "by the content address of that link's signed core"
    link: linkId(core),
    // sense §11: "the observed event's content id and its declared trust level (§2), bound in"
    event_id: core.event_id,
    trust: core.trust satisfies TrustLevel,
    author: core.host,
    recipient: f.recipient,
    position,
    // sense §11.1: "The destination MUST be stated rather than inferred from shape."
    destination,
    recipient_state: authority === undefined ? 'running' : 'woken',
    ...(authority !== undefined ? { wake_authority: authority } : {}),
    delivery: { uj, provenance: d.provenance, ...(d.coverage !== undefined ? { coverage: d.coverage } : {}) },
  };
  const bytes = encodeCanonical(frame);
  return Object.freeze({ frame, frame_id: contentIdOfBytes(bytes), bytes });
}
