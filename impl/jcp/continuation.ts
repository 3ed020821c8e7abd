// jcp §6.1 continuations: work that answers later. A relay in front of an enforcement point decides the first request,
// binds the handles the endpoint returns to it, decides each later exchange as a continuation of the first (against
// the first's grant, at the moment it is made, sealed over a payload committing to the receipt it continues), refuses
// and seals a handle it never saw returned, admits what comes back as data, and seals one closing record.
//
// Readings taken where §6.1 leaves a shape open (each also noted where it is applied):
// - A receipt's id is the content id (§3) of its COSE_Sign1 bytes: blake3 over the canonical envelope, lowercase hex.
// - A continuation's payload_hash is the content id of { continues: <receipt id>, handle, sent: <content id of what
//   the client sent in the exchange> }; a refused unknown handle's is the content id of { handle, sent }.
// - §6.1 names no deny reason for a handle the relay never saw returned; the reference seals it 'chain-broken': the
//   exchange continues no receipt, so it cannot join a work's receipt chain. Conformance tests assert only the deny.
// - The closing record is decided through the gate like any frame: a data frame is Deny(untrusted-control) by §7's
//   first check, so it debits nothing. Its cost_uj is the metered sum, its energy_coverage Partial unless the meter
//   read the work between exchanges, its provenance the weakest of the figures summed.
// - "The joules metered across them" are the joules debited: the first request's and each allowed exchange's. A refused
//   exchange debits nothing (§7) and adds nothing to the sum, though the record names its receipt.
import { isProvenance, PROVENANCES, type Cost, type Provenance } from '../energy/cost.ts';
import { JcpError } from '../errors.ts';
import { defaultEd25519, type Ed25519, type KeyPair } from '../identity/ed25519.ts';
import { decodeCanonical, encodeCanonical, type CborInput } from '../cbor/index.ts';
import { sealReceipt } from '../receipt/seal.ts';
import { frameToCbor, parseFrame, parseSignedGrant, signedGrantToCbor } from './codec.ts';
import { contentId, contentIdOfBytes, isContentId } from './content-id.ts';
import { decisionCore, type Decision, type EnforcementPoint } from './enforcement-point.ts';
import { grantId } from './grant.ts';
import type { ContentId, DenyReason, Did, Frame, FrameKind, Label, SignedGrant } from './types.ts';

/** A sealed decision of the relay, with its receipt's id (the content id of the receipt bytes). */
export interface RelayedDecision extends Decision {
  readonly receipt_id: ContentId;
}

/** The first request of a piece of work: an ordinary decision request, with the argument's label when computed (§4.10). */
export interface FirstRequest {
  readonly frame: Frame;
  readonly chain: readonly SignedGrant[];
  readonly caller: Did;
  readonly cost: Cost;
  readonly now_s: bigint;
  readonly label?: Label;
}

/** A later exchange naming a handle (MCP tasks/get, tasks/update, a retry carrying inputResponses, an A2A task poll). */
export interface LaterExchange {
  readonly handle: string;
  /** The content id of what the client authored in this exchange (its answers; for a fetch, the request it sent). */
  readonly sent_hash: ContentId;
  /** The label of what the client sent (§4.10), when the host computed one; absent = not computed, never clean. */
  readonly label?: Label;
  readonly caller: Did;
  /** The metered cost of this exchange (§6.1 "MUST meter and debit each later exchange"). */
  readonly cost: Cost;
  readonly now_s: bigint;
  /**
   * The grant the client presents with the exchange, as with any request (frame and chain). A known handle is decided
   * against the first's grant whatever is presented; this is read only to seal the refusal of an unknown handle.
   */
  readonly presented: { readonly frame: Frame; readonly chain: readonly SignedGrant[] };
}

/** What comes back from the endpoint, admitted as data (§6.1). */
export interface Admitted {
  /** A tool-result (or agent-reply) frame tagged data over the outcome's digest: it can never exercise a capability. */
  readonly frame: Frame;
  /**
   * The outcome's label: the host's label of the first action's output joined with the label of everything the client
   * sent the work; absent when any of them was not computed (an uncomputed label is not a clean one, §4.10).
   */
  readonly label?: Label;
}

/** The closing record (§6.1) and the receipt sealed over its content address. */
export interface Closing {
  readonly decision: RelayedDecision;
  /** Canonical CBOR of { first_receipt, continuation_receipts, metered_uj, outcome_digest, energy_coverage? }. */
  readonly record: Uint8Array;
  readonly record_id: ContentId;
}

/**
 * Hook for a flow check of the client's answers beyond the gate's own (§6.1 "MUST flow-check what the client authored
 * in a later exchange"). The gate already checks `label` against the grant's ceiling and the resource's floor (§4.10);
 * a host with more to say (a field-by-field check of what it forwards) returns a deny reason here, or undefined.
 */
export type AnswersFlowCheck = (x: { readonly work: WorkView; readonly exchange: LaterExchange }) => DenyReason | undefined;

/** A read-only view of a piece of work the relay holds. */
export interface WorkView {
  readonly first_receipt: ContentId;
  readonly continuations: readonly ContentId[];
  readonly metered_uj: bigint;
  readonly frame: Frame;
}

/** Options of {@link createContinuationRelay}. */
export interface ContinuationRelayOptions {
  readonly point: EnforcementPoint;
  /** The point's own steward key: it seals the refusals that never reach the gate (an unknown handle). */
  readonly steward: KeyPair;
  /** How many decided requests and handles the relay keeps (default 4096); past it the oldest is forgotten, fail closed. */
  readonly maxKept?: number;
  readonly flowCheck?: AnswersFlowCheck;
  readonly backend?: Ed25519;
}

/** A continuation relay (jcp §6.1). */
export interface ContinuationRelay {
  /** Decides the first request of a piece of work through the point; an allowed one may then have handles bound to it. */
  decide(req: FirstRequest): RelayedDecision;
  /**
   * Binds a handle (or interim state) the endpoint returned in answer to the allowed request whose receipt is
   * `receipt_id` (the first's or a continuation's). ERR_CONTINUATION_UNDECIDED when no such allowed request was decided
   * here (or it was forgotten or closed); ERR_BAD_ARGUMENT for an empty handle or one already bound to other work.
   */
  bind(receipt_id: ContentId, handle: string): void;
  /** Decides a later exchange (§6.1 items 1–4); an unknown handle is refused and the refusal sealed. */
  next(x: LaterExchange): RelayedDecision;
  /** Admits what came back for a handle as data (§6.1 item 3). ERR_CONTINUATION_UNDECIDED for an unknown handle. */
  admit(handle: string, outcome_digest: ContentId, output_label?: Label): Admitted;
  /**
   * Seals the one closing record once the outcome is final (§6.1 item 4) and forgets the work's handles.
   * `between` is the meter's reading of the work between exchanges, when it read it; without it the sum is Partial.
   */
  close(handle: string, outcome_digest: ContentId, now_s: bigint, between?: Cost): Closing;
}

interface Work {
  readonly first_receipt: ContentId;
  readonly frame: Frame;
  readonly chain: readonly SignedGrant[];
  readonly caller: Did;
  readonly continuations: ContentId[];
  /** The receipt the next continuation continues. */
  last: ContentId;
  metered_uj: bigint;
  partial: boolean;
  provenance: Provenance;
  /** The labels of everything the client sent the work; undefined once one was not computed. */
  sent: Label[] | undefined;
  /** Whether the latest exchange was allowed (and so forwarded): only then can anything come back. */
  forwarded: boolean;
  readonly handles: Set<string>;
}

/** jcp §6 frame kinds: the kind of what answers a request of `kind`. */
const RESULT_KIND: Readonly<Record<FrameKind, FrameKind>> = {
  'tool-call': 'tool-result',
  'tool-result': 'tool-result',
  'agent-task': 'agent-reply',
  'agent-reply': 'agent-reply',
};

/** The weaker of two provenance grades (PROVENANCES is best first). */
function weaker(a: Provenance, b: Provenance): Provenance {
  return PROVENANCES.indexOf(a) >= PROVENANCES.indexOf(b) ? a : b;
}

/**
 * The join of labels in §4.10's product order: integrity the higher, origins the union ('any' absorbs), readers the
 * intersection ('all' is the identity). Propagation is the host's job (§4.10); the relay is the host of the work here.
 */
export function joinLabels(labels: readonly Label[]): Label {
  let integrity: Label['integrity'] = 'principal';
  let origins: Set<string> | 'any' = new Set();
  let readers: Set<string> | 'all' = 'all';
  for (const l of labels) {
    if (l.integrity === 'untrusted') integrity = 'untrusted';
    if (l.origins === 'any') origins = 'any';
    else if (origins !== 'any') for (const o of l.origins) origins.add(o);
    if (l.readers !== 'all') {
      const these: readonly string[] = l.readers;
      const prior: Set<string> | 'all' = readers;
      readers = prior === 'all' ? new Set<string>(these) : new Set<string>([...prior].filter((r: string) => these.includes(r)));
    }
  }
  return Object.freeze({
    integrity,
    origins: origins === 'any' ? 'any' : Object.freeze([...origins].sort()),
    readers: readers === 'all' ? 'all' : Object.freeze([...readers].sort()),
  });
}

const U64_MAX = (1n << 64n) - 1n;

/** The cost rules the point applies (jcp §5): integer microjoules, a known provenance, coverage absent or Partial. */
function checkCost(c: Cost | undefined, what: string): void {
  const ok =
    typeof c === 'object' && c !== null && typeof c.uj === 'bigint' && c.uj >= 0n && c.uj <= U64_MAX && isProvenance(c.provenance) && (c.coverage === undefined || c.coverage === 'Partial');
  if (!ok) throw new JcpError('ERR_BAD_ARGUMENT', `${what} must be {uj: bigint microjoules, provenance: HwShunt | ModelBased | Estimator, coverage?: "Partial"}`);
}

function undecided(msg: string): never {
  throw new JcpError('ERR_CONTINUATION_UNDECIDED', msg);
}

/** Creates a continuation relay over an enforcement point. */
export function createContinuationRelay(opts: ContinuationRelayOptions): ContinuationRelay {
  const { point, steward } = opts;
  const backend = opts.backend ?? defaultEd25519();
  if (steward?.did !== point?.steward) throw new JcpError('ERR_BAD_ARGUMENT', "the relay's steward key must be the point's own steward");
  const maxKept = opts.maxKept ?? 4096;
  if (!Number.isSafeInteger(maxKept) || maxKept < 1) throw new JcpError('ERR_BAD_ARGUMENT', 'maxKept must be a positive integer');
  /** Allowed requests decided here, by receipt id: the ones a handle may be bound to. */
  const decided = new Map<ContentId, Work>();
  const handles = new Map<string, Work>();

  /** §6.1 item 2: "a bound on what it keeps" — past it the oldest entry is forgotten, and refused like an unknown one. */
  function keep<K>(m: Map<K, Work>, k: K, w: Work): void {
    m.delete(k);
    m.set(k, w);
    if (m.size > maxKept) {
      const [oldK, oldW] = m.entries().next().value as [K, Work];
      m.delete(oldK);
      if (m === (handles as Map<unknown, Work>)) oldW.handles.delete(oldK as string);
    }
  }

  function relayed(d: Decision): RelayedDecision {
    // reading: a receipt's id is the content id of its COSE_Sign1 bytes
    return Object.freeze({ ...d, receipt_id: contentIdOfBytes(d.receipt) });
  }

  /** Seals a refusal the gate never saw, exactly as the point seals a deny (no debit), over `frame` and `chain`. */
  function sealRefusal(frame: Frame, chain: readonly SignedGrant[], reason: DenyReason, why: string, cost: Cost): RelayedDecision {
    const ids = chain.map((sg) => grantId(sg.grant));
    const leaf = chain[chain.length - 1]!.grant;
    const leafId = ids[ids.length - 1]!;
    const left = leaf.budget_uj - point.spent(leafId);
    const core = decisionCore({ frame, chain, cost }, ids, reason, left > 0n ? left : 0n, steward.did);
    return relayed({ verdict: 'deny', deny_reason: reason, why, debited: [], core, receipt: sealReceipt(core, steward, backend) });
  }

  function checkExchange(x: LaterExchange): void {
    if (typeof x !== 'object' || x === null) throw new JcpError('ERR_BAD_ARGUMENT', 'a later exchange must be an object');
    if (typeof x.handle !== 'string') throw new JcpError('ERR_BAD_ARGUMENT', 'a later exchange must name its handle (text)');
    if (!isContentId(x.sent_hash)) throw new JcpError('ERR_BAD_ARGUMENT', 'sent_hash must be a content id');
    checkCost(x.cost, 'the exchange\'s cost');
    const p = x.presented;
    if (typeof p !== 'object' || p === null || !Array.isArray(p.chain) || p.chain.length === 0 || typeof p.frame !== 'object' || p.frame === null) {
      throw new JcpError('ERR_BAD_ARGUMENT', 'a later exchange presents a frame and a non-empty chain, as any request does');
    }
    parseFrame(decodeCanonical(encodeCanonical(frameToCbor(p.frame)))); // ERR_FRAME_MALFORMED, as the point refuses one
    // each presented link is read as the wire reads it (ERR_GRANT_MALFORMED), so a refusal never seals over a look-alike
    p.chain.forEach((sg, i) => {
      const g = (sg as { grant?: unknown } | null)?.grant as Record<string, unknown> | undefined;
      const cap = g?.['capability'] as Record<string, unknown> | undefined;
      if (typeof g !== 'object' || g === null || typeof cap !== 'object' || cap === null || !Array.isArray(cap['actions'])) {
        throw new JcpError('ERR_BAD_ARGUMENT', `presented.chain[${i}] must be a signed grant {grant, signature}`);
      }
      parseSignedGrant(decodeCanonical(encodeCanonical(signedGrantToCbor(sg))), `$presented.chain[${i}]`);
    });
  }

  return Object.freeze({
    decide(req: FirstRequest): RelayedDecision {
      const d = relayed(point.decide(req));
      if (d.verdict === 'allow') {
        const w: Work = {
          first_receipt: d.receipt_id,
          frame: req.frame,
          chain: [...req.chain],
          caller: req.caller,
          continuations: [],
          last: d.receipt_id,
          metered_uj: req.cost.uj,
          partial: req.cost.coverage === 'Partial',
          provenance: req.cost.provenance,
          sent: req.label === undefined ? undefined : [req.label],
          forwarded: true,
          handles: new Set(),
        };
        keep(decided, d.receipt_id, w);
      }
      return d;
    },

    bind(receipt_id: ContentId, handle: string): void {
      if (typeof handle !== 'string' || handle.length === 0) throw new JcpError('ERR_BAD_ARGUMENT', 'a handle must be non-empty text');
      const w = decided.get(receipt_id) ?? undecided(`no allowed request with receipt ${String(receipt_id)} was decided here (or it was closed or forgotten)`);
      const bound = handles.get(handle);
      if (bound !== undefined && bound !== w) throw new JcpError('ERR_BAD_ARGUMENT', 'the handle is already bound to other work');
      w.handles.add(handle);
      keep(handles, handle, w);
    },

    next(x: LaterExchange): RelayedDecision {
      checkExchange(x);
      const w = handles.get(x.handle);
      if (w === undefined) {
        // jcp §6.1: "MUST refuse, and seal the refusal of, a later exchange naming a handle it did not see returned to a
        // request it decided" — and "A handle it has closed … or forgotten … is refused the same way: fail closed."
        const frame: Frame = { ...x.presented.frame, payload_hash: contentId({ handle: x.handle, sent: x.sent_hash }) };
        return sealRefusal(frame, x.presented.chain, 'chain-broken', 'the handle was never returned to a request decided here (or was closed or forgotten)', x.cost);
      }
      // jcp §6.1: "seal each continuation's decision (§8) over a payload that commits to the id of the receipt it continues"
      const frame: Frame = { ...w.frame, payload_hash: contentId({ continues: w.last, handle: x.handle, sent: x.sent_hash }) };
      const view: WorkView = { first_receipt: w.first_receipt, continuations: [...w.continuations], metered_uj: w.metered_uj, frame: w.frame };
      const flowReason = opts.flowCheck?.({ work: view, exchange: x });
      // jcp §6.1: "decide each later exchange as a continuation of the first: against the grant the first was decided on,
      // at the moment the later exchange is made"; the answers' label goes to the gate as the first request's argument did
      const d =
        flowReason !== undefined
          ? sealRefusal(frame, w.chain, flowReason, 'the answers failed the host flow check', x.cost)
          : relayed(point.decide({ frame, chain: w.chain, caller: x.caller, cost: x.cost, now_s: x.now_s, ...(x.label !== undefined ? { label: x.label } : {}) }));
      w.continuations.push(d.receipt_id);
      w.last = d.receipt_id;
      w.forwarded = d.verdict === 'allow';
      if (d.verdict === 'allow') {
        // jcp §6.1: "MUST meter and debit each later exchange" — the point debited it; the work's sum follows (a refused
        // exchange is named in the record but adds nothing: see the readings above)
        w.metered_uj += x.cost.uj;
        w.partial ||= x.cost.coverage === 'Partial';
        w.provenance = weaker(w.provenance, x.cost.provenance);
        w.sent = w.sent === undefined || x.label === undefined ? undefined : [...w.sent, x.label];
        keep(decided, d.receipt_id, w);
      }
      return d;
    },

    admit(handle: string, outcome_digest: ContentId, output_label?: Label): Admitted {
      const w = handles.get(handle) ?? undecided('no work is bound to that handle here');
      if (!isContentId(outcome_digest)) throw new JcpError('ERR_BAD_ARGUMENT', 'outcome_digest must be a content id');
      // jcp §6.1: "the outcome of work the grant no longer covers is not fetched under it"
      if (!w.forwarded) undecided('the latest exchange on that handle was refused, so nothing was forwarded to come back');
      // jcp §6.1: "MUST admit what comes back — status text and the outcome alike — as data, labelled as the output of
      // the first request's action and joined with the label of everything the client has sent the work"
      const frame: Frame = Object.freeze({ ...w.frame, kind: RESULT_KIND[w.frame.kind], trust: 'data', payload_hash: outcome_digest });
      const label = output_label === undefined || w.sent === undefined ? undefined : joinLabels([output_label, ...w.sent]);
      return Object.freeze({ frame, ...(label !== undefined ? { label } : {}) });
    },

    close(handle: string, outcome_digest: ContentId, now_s: bigint, between?: Cost): Closing {
      const w = handles.get(handle) ?? undecided('no work is bound to that handle here');
      if (!isContentId(outcome_digest)) throw new JcpError('ERR_BAD_ARGUMENT', 'outcome_digest must be a content id');
      if (between !== undefined) checkCost(between, 'between (the meter\'s reading between exchanges)');
      const metered_uj = w.metered_uj + (between?.uj ?? 0n);
      // jcp §6.1: "the record MUST mark that sum Partial (§5.2) unless the meter read the work between them"
      const partial = between === undefined || w.partial || between.coverage === 'Partial';
      const provenance = between === undefined ? w.provenance : weaker(w.provenance, between.provenance);
      const recordValue: CborInput = {
        first_receipt: w.first_receipt,
        continuation_receipts: [...w.continuations],
        metered_uj,
        outcome_digest,
        ...(partial ? { energy_coverage: 'Partial' } : {}),
      };
      const record = encodeCanonical(recordValue);
      const record_id = contentIdOfBytes(record);
      // jcp §6.1: "seal one closing record: a tool-result (or agent-reply) frame tagged data, debiting nothing, whose
      // payload is the content address (§3) of a record"
      const frame: Frame = { ...w.frame, kind: RESULT_KIND[w.frame.kind], trust: 'data', payload_hash: record_id };
      const cost: Cost = { uj: metered_uj, provenance, ...(partial ? { coverage: 'Partial' as const } : {}) };
      const decision = relayed(point.decide({ frame, chain: w.chain, caller: w.caller, cost, now_s }));
      // a closed handle is refused like an unknown one (§6.1 item 2)
      for (const h of w.handles) handles.delete(h);
      for (const [id, x] of decided) if (x === w) decided.delete(id);
      return Object.freeze({ decision, record, record_id });
    },
  });
}

