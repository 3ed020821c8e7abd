// jcp §7 and §8: an enforcement point decides, debits on allow only (from every link), and seals every decision.
// It holds the spend per grant, the verified revocations (§4.3) and the trust roots per resource (§7, C15); the money
// spend per grant (§4.8), the tainted spend and the taint floors per resource (§4.10), and the authorizations of the
// two-phase metered path waiting for their measured cost (§4.9).
import { isProvenance, type Cost } from '../energy/cost.ts';
import { JcpError } from '../errors.ts';
import { defaultEd25519, type Ed25519, type KeyPair } from '../identity/ed25519.ts';
import type { ReceiptCoreV2 } from '../receipt/core.ts';
import { sealReceipt } from '../receipt/seal.ts';
import { isTainted, judge, type DecisionRequest, type Judgement } from './decide.ts';
import { grantId } from './grant.ts';
import { verifyRevocationAuthority } from './revocation.ts';
import { isContentId } from './content-id.ts';
import { _notAGrant, _signedGrantShape } from './channel.ts';
import { isDidKey } from '../identity/did-key.ts';
import { FRAME_KINDS, type Caveat, type ContentId, type DenyReason, type Did, type Grant, type Label, type SignedGrant, type SignedRevocation } from './types.ts';
import { labelToCbor, parseLabel } from './codec.ts';
import { decodeCanonical, encodeCanonical } from '../cbor/index.ts';

const U64_MAX = (1n << 64n) - 1n;

/** A sealed decision. */
export interface Decision {
  readonly verdict: 'allow' | 'deny';
  readonly deny_reason?: DenyReason;
  /** Why, for people; not part of the receipt. */
  readonly why?: string;
  /** The ids debited (every link on allow; none on deny). */
  readonly debited: readonly ContentId[];
  readonly core: ReceiptCoreV2;
  /** The COSE_Sign1 receipt bytes. */
  readonly receipt: Uint8Array;
}

/**
 * jcp §4.9 the first phase of the two-phase metered path passed: the chain is authorized without debit. It is not an
 * allow — `pending` names the cost-dependent caveats that have not been evaluated, and the decision is sealed only at
 * the debit point ({@link EnforcementPoint.settle}).
 */
export interface Authorized {
  readonly verdict: 'authorized';
  /** Names this authorization at its settle; usable once. */
  readonly ticket: string;
  /** The cost-dependent caveats (every link's, in chain order) waiting for the measured cost. */
  readonly pending: readonly Caveat[];
}

/** The first phase's answer: authorized, or a sealed denial (nothing debited). */
export type Authorization = Authorized | (Decision & { readonly verdict: 'deny' });

/** An enforcement point's configuration. */
export interface EnforcementPointOptions {
  /** The key that seals receipts; its did is the receipts' steward. */
  readonly steward: KeyPair;
  /** Root-issuer keys honoured per resource (jcp §7 trust roots). Resources absent here are open. */
  readonly trustRoots?: Readonly<Record<ContentId, readonly Did[]>>;
  readonly backend?: Ed25519;
}

/** An enforcement point (jcp §7): decide, revoke, configure trust roots, read spend. */
export interface EnforcementPoint {
  readonly steward: Did;
  /** Decides and seals. Allow debits the cost (joules, and money when priced) from every link; deny debits nothing. */
  decide(req: DecisionRequest): Decision;
  /**
   * jcp §4.9 the metered path, first phase: the checks of a decision over an estimated cost, cost-dependent caveats
   * waiting. Debits nothing; a denial is sealed like any other.
   */
  authorize(req: DecisionRequest): Authorization;
  /**
   * jcp §4.9 the metered path, the debit point: decides the authorized request again with the measured cost, every
   * caveat enforced, and seals. The measured joules are debited from every link whatever the verdict — the work has
   * run and "energy that was spent is always accounted" — and a breach is recorded in the verdict (deny, with the
   * first failing reason, e.g. caveat-unsatisfied). Money is debited only on allow (§4.8: "on any deny, debit
   * neither"; the money of a breached call is not measured). ERR_BAD_ARGUMENT for an unknown or settled ticket.
   */
  settle(ticket: string, measured: DecisionRequest['cost'], now_s: bigint): Decision;
  /** jcp §4.10: configures the origins a resource's taint floor accepts; an empty list refuses every non-⊥ argument. */
  setTaintFloor(resource: ContentId, origins: readonly string[]): void;
  /** jcp §4.8: the money spent against a grant's money ceiling. */
  spentFunds(id: ContentId): bigint;
  /** jcp §4.10: the joules spent against a grant by calls whose argument was not ⊥. */
  taintedSpent(id: ContentId): bigint;
  /** Verifies a revocation's authority against the grant it names, then honours it (ERR_REVOCATION_UNAUTHORIZED otherwise; state unchanged). */
  revoke(revocation: SignedRevocation, grant: SignedGrant): void;
  /** Configures the trust roots of a resource; an empty list closes it to every root. */
  setTrustRoots(resource: ContentId, roots: readonly Did[]): void;
  isRevoked(id: ContentId): boolean;
  spent(id: ContentId): bigint;
  /** budget_uj less spend, never below zero. */
  remaining(g: Grant): bigint;
  // ---- jcp §8.1 replay (impl/receipt/replay.ts) ----
  /** Adds `uj` restored from a verified receipt stream to the spend held against `id`; never lowers it (ERR_BAD_ARGUMENT on bad input). */
  restoreSpend(id: ContentId, uj: bigint): void;
}

function checkCost(cost: Cost): void {
  if (typeof cost !== 'object' || cost === null) throw new JcpError('ERR_BAD_ARGUMENT', 'cost must be an object {uj, provenance}');
  if (typeof cost.uj !== 'bigint' || cost.uj < 0n || cost.uj > U64_MAX) {
    throw new JcpError('ERR_BAD_ARGUMENT', 'cost.uj must be a bigint in 0 … 2^64−1 (integer microjoules)');
  }
  if (!isProvenance(cost.provenance)) throw new JcpError('ERR_BAD_ARGUMENT', 'cost.provenance must be HwShunt, ModelBased or Estimator');
  if (cost.coverage !== undefined && cost.coverage !== 'Partial') {
    throw new JcpError('ERR_BAD_ARGUMENT', 'cost.coverage is either absent (Whole) or "Partial"');
  }
}

function checkFunds(f: unknown): void {
  const o = f as { currency?: unknown; minor?: unknown } | null;
  if (typeof o !== 'object' || o === null || typeof o.currency !== 'string' || typeof o.minor !== 'bigint' || o.minor < 0n || o.minor > U64_MAX) {
    throw new JcpError('ERR_BAD_ARGUMENT', 'cost_funds must be {currency: string, minor: bigint in 0 … 2^64−1} (jcp §4.8)');
  }
}

/** Throws ERR_BAD_ARGUMENT naming `what` unless `v` is a content id (jcp §3). */
function contentIdArg(v: unknown, what: string): void {
  if (!isContentId(v)) throw new JcpError('ERR_BAD_ARGUMENT', `${what} must be a content id (64 lowercase hex digits)`);
}

/** A resource's trusted root issuers (jcp §4.2): a content id and an array of did:key, possibly empty (no root trusted). */
function checkRoots(resource: unknown, dids: unknown, where: string): ReadonlySet<Did> {
  contentIdArg(resource, `${where}: resource`);
  if (!Array.isArray(dids) || !dids.every((d) => isDidKey(d))) throw new JcpError('ERR_BAD_ARGUMENT', `${where}: the roots of ${resource} must be an array of did:key`);
  return new Set(dids as Did[]);
}

function checkLabel(l: unknown): void {
  // the same rules as on the wire: the label's CBOR form parsed strictly (jcp §4.10)
  try {
    parseLabel(decodeCanonical(encodeCanonical(labelToCbor(l as Label))), '$label');
  } catch (e) {
    if (e instanceof JcpError) throw new JcpError('ERR_BAD_ARGUMENT', `label: ${e.message}`);
    throw new JcpError('ERR_BAD_ARGUMENT', 'label must be {integrity, origins, readers} (jcp §4.10)');
  }
}

function notText(k: string): never {
  throw new JcpError('ERR_BAD_ARGUMENT', `frame.${k} must be a string`);
}

function notId(k: string): never {
  throw new JcpError('ERR_FRAME_MALFORMED', `frame.${k} must be a content id (64 lowercase hex digits)`);
}

function checkFrame(f: unknown): void {
  if (typeof f !== 'object' || f === null) throw new JcpError('ERR_BAD_ARGUMENT', 'frame must be an object (jcp §6)');
  // each field read once, by name (a keyed read in a loop costs more than the checks themselves, on every decision)
  const { kind, trust, grant_id, action, resource, payload_hash, model } = f as Record<string, unknown>;
  if (typeof kind !== 'string') notText('kind');
  if (typeof trust !== 'string') notText('trust');
  if (typeof grant_id !== 'string') notText('grant_id');
  if (typeof action !== 'string') notText('action');
  if (typeof resource !== 'string') notText('resource');
  if (typeof payload_hash !== 'string') notText('payload_hash');
  if (model !== undefined && typeof model !== 'string') throw new JcpError('ERR_BAD_ARGUMENT', 'frame.model must be a content id when present');
  // the same rules parseFrame applies on the wire, so a decision never seals a receipt its verifier would refuse
  if (!(FRAME_KINDS as readonly string[]).includes(kind as string)) throw new JcpError('ERR_FRAME_MALFORMED', `frame.kind must be one of ${FRAME_KINDS.join(', ')}`);
  if (trust !== 'control' && trust !== 'data') throw new JcpError('ERR_FRAME_MALFORMED', 'frame.trust must be control or data');
  if ((action as string).length === 0) throw new JcpError('ERR_FRAME_MALFORMED', 'frame.action must not be empty');
  if (!isContentId(grant_id)) notId('grant_id');
  if (!isContentId(resource)) notId('resource');
  if (!isContentId(payload_hash)) notId('payload_hash');
  if (model !== undefined && !isContentId(model)) notId('model');
}

/** A link of a request or a revocation's grant: a signed grant whose grant has the fields a decision reads, by type. */
function checkSignedGrant(sg: unknown, what: string): void {
  _signedGrantShape(sg, what);
  const g = sg.grant;
  const cap = g['capability'] as Record<string, unknown> | undefined;
  if (typeof g['issuer'] !== 'string' || typeof g['subject'] !== 'string' || typeof g['budget_uj'] !== 'bigint' || typeof g['expiry'] !== 'bigint' || typeof cap !== 'object' || cap === null || !Array.isArray(cap['actions'])) {
    throw _notAGrant(what);
  }
}

/**
 * The jcp/2 receipt core of a decision over `req` (jcp §8): the leaf of the chain (`ids` are the chain's content ids,
 * root first), the frame's fields, the cost and its provenance, the verdict (a deny when `deny_reason` is given), the
 * leaf's remaining budget, and chain_ids for a multi-hop chain. Every receipt the reference seals is built here.
 */
export function decisionCore(
  req: Pick<DecisionRequest, 'frame' | 'chain' | 'cost'>,
  ids: readonly ContentId[],
  deny_reason: DenyReason | 'stale-request' | 'unrecorded' | undefined, // the last two are the wire's (jcp §11)
  budget_remaining_uj: bigint,
  steward: Did,
): ReceiptCoreV2 {
  const leaf = req.chain[req.chain.length - 1]!.grant;
  // Built field by field rather than with spreads (no temporary objects per decision); the fields keep this order.
  const core: { -readonly [K in keyof ReceiptCoreV2]: ReceiptCoreV2[K] } = {
    jcp_receipt: 'jcp/2',
    grant_id: ids[ids.length - 1]!,
    issuer: leaf.issuer,
    subject: leaf.subject,
    resource: req.frame.resource,
    action: req.frame.action,
    payload_hash: req.frame.payload_hash,
    frame_kind: req.frame.kind,
    trust: req.frame.trust,
    verdict: deny_reason === undefined ? 'allow' : 'deny',
  } as ReceiptCoreV2;
  if (deny_reason !== undefined) core.deny_reason = deny_reason;
  core.cost_uj = req.cost.uj;
  core.energy_provenance = req.cost.provenance;
  if (req.cost.coverage === 'Partial') core.energy_coverage = 'Partial';
  core.budget_remaining_uj = budget_remaining_uj;
  core.budget_uj = leaf.budget_uj;
  core.steward = steward;
  // jcp §8.1: "A receipt sealed for a multi-hop chain MUST additionally record chain_ids"
  if (ids.length > 1) core.chain_ids = ids;
  return core;
}

/** Creates an enforcement point with empty spend and no revocations. */
export function createEnforcementPoint(opts: EnforcementPointOptions): EnforcementPoint {
  const backend = opts.backend ?? defaultEd25519();
  const steward = opts.steward;
  const spend = new Map<ContentId, bigint>();
  const revoked = new Set<ContentId>();
  const roots = new Map<ContentId, ReadonlySet<Did>>();
  if (opts.trustRoots !== undefined && (typeof opts.trustRoots !== 'object' || opts.trustRoots === null)) {
    throw new JcpError('ERR_BAD_ARGUMENT', 'trustRoots must be an object from resource content id to an array of did:key');
  }
  for (const [res, dids] of Object.entries(opts.trustRoots ?? {})) roots.set(res, checkRoots(res, dids, 'trustRoots'));
  // jcp §4.8 money spend, §4.10 tainted spend and taint floors, §4.9 authorizations waiting for their debit point
  const fundsSpend = new Map<ContentId, bigint>();
  const taintedSpend = new Map<ContentId, bigint>();
  const floors = new Map<ContentId, ReadonlySet<string>>();
  const tickets = new Map<string, DecisionRequest>();
  let nextTicket = 1;

  const state = {
    isRevoked: (id: ContentId) => revoked.has(id),
    trustRoots: (resource: ContentId) => roots.get(resource),
    spent: (id: ContentId) => spend.get(id) ?? 0n,
    spentFunds: (id: ContentId) => fundsSpend.get(id) ?? 0n,
    taintedSpent: (id: ContentId) => taintedSpend.get(id) ?? 0n,
    taintFloor: (resource: ContentId) => floors.get(resource),
  };

  /** Debits the joules of `req` from every link (and the tainted spend of a tainted call); money only when `money`. */
  function debit(req: DecisionRequest, ids: readonly ContentId[], money: boolean): void {
    const uj = req.cost.uj;
    for (const id of ids) spend.set(id, (spend.get(id) ?? 0n) + uj);
    // jcp §4.10: the tainted allowance counts the joules of calls whose argument is not ⊥
    if (isTainted(req.label)) for (const id of ids) taintedSpend.set(id, (taintedSpend.get(id) ?? 0n) + uj);
    // jcp §4.8: "on allow, debit both the joule and the money spend" — of every link that has a money ceiling
    const price = req.cost_funds;
    if (money && price !== undefined) {
      req.chain.forEach((sg, i) => {
        if (sg.grant.budget_funds !== undefined) fundsSpend.set(ids[i]!, state.spentFunds(ids[i]!) + price.minor);
      });
    }
  }

  function checkRequest(req: DecisionRequest): void {
    if (typeof req !== 'object' || req === null || !Array.isArray(req.chain) || req.chain.length === 0) {
      throw new JcpError('ERR_BAD_ARGUMENT', 'a decision request needs a frame and a non-empty chain of signed grants');
    }
    checkFrame(req.frame);
    req.chain.forEach((sg, i) => checkSignedGrant(sg, `chain[${i}]`));
    if (typeof req.caller !== 'string') throw new JcpError('ERR_BAD_ARGUMENT', 'caller must be a did:key string');
    checkCost(req.cost);
    if (typeof req.now_s !== 'bigint') throw new JcpError('ERR_BAD_ARGUMENT', 'now_s must be a bigint (unix seconds)');
    if (req.cost_funds !== undefined) checkFunds(req.cost_funds);
    if (req.label !== undefined) checkLabel(req.label);
  }

  function seal(req: DecisionRequest, j: Judgement, debited: readonly ContentId[] = j.verdict === 'allow' ? j.ids : []): Decision {
    const leaf = req.chain.length > 0 ? req.chain[req.chain.length - 1]!.grant : undefined;
    if (!leaf) throw new JcpError('ERR_BAD_ARGUMENT', 'a decision needs at least one grant to seal a receipt over');
    const leafId = j.ids[j.ids.length - 1]!;
    const left = leaf.budget_uj - state.spent(leafId);
    const core = decisionCore(req, j.ids, j.verdict === 'deny' ? j.deny_reason : undefined, left > 0n ? left : 0n, steward.did);
    const receipt = sealReceipt(core, steward, backend);
    // two literals rather than a spread: the same keys in the same order, without a copy per decision
    return Object.freeze(
      j.verdict === 'deny' ? { verdict: j.verdict, deny_reason: j.deny_reason, why: j.why, debited, core, receipt } : { verdict: j.verdict, debited, core, receipt },
    );
  }

  return Object.freeze({
    steward: steward.did,
    decide(req: DecisionRequest): Decision {
      checkRequest(req);
      const j = judge(req, state, backend);
      if (j.verdict === 'allow') {
        // jcp §7: "On Allow, the runtime debits cost from the grant's remaining budget." — from every link (§4.2)
        debit(req, j.ids, true);
      }
      return seal(req, j);
    },
    authorize(req: DecisionRequest): Authorization {
      checkRequest(req);
      // jcp §4.2: "In the two-phase metered path a chain is authorized without debit, cost-dependent caveats waiting"
      const j = judge(req, state, backend, 'authorize');
      if (j.verdict === 'deny') return seal(req, j) as Decision & { verdict: 'deny' };
      const ticket = `t${nextTicket++}`;
      tickets.set(ticket, req);
      return Object.freeze({ verdict: 'authorized' as const, ticket, pending: Object.freeze([...(j.pending ?? [])]) });
    },
    settle(ticket: string, measured: DecisionRequest['cost'], now_s: bigint): Decision {
      const authorized = typeof ticket === 'string' ? tickets.get(ticket) : undefined;
      if (authorized === undefined) throw new JcpError('ERR_BAD_ARGUMENT', `no authorization ${String(ticket)} waits at this point (unknown, or already settled)`);
      checkCost(measured);
      if (typeof now_s !== 'bigint') throw new JcpError('ERR_BAD_ARGUMENT', 'now_s must be a bigint (unix seconds)');
      tickets.delete(ticket);
      const req: DecisionRequest = { ...authorized, cost: measured, now_s };
      // jcp §4.9: cost-dependent caveats are "enforced at the debit point"; "Every cost-independent caveat MUST be
      // enforced in both phases" — so the debit point runs every check again, with the measured cost
      const j = judge(req, state, backend, 'settle');
      // jcp §4.9: "the implementation MUST still debit them — energy that was spent is always accounted — and MUST
      // record the breach in the verdict". Reading taken: the same holds for any failure found at the debit point
      // (the work has run whatever the reason); money moves only on allow (§4.8 "on any deny, debit neither").
      debit(req, j.ids, j.verdict === 'allow');
      return seal(req, j, j.ids);
    },
    setTaintFloor(resource: ContentId, origins: readonly string[]): void {
      contentIdArg(resource, 'setTaintFloor: resource');
      if (!Array.isArray(origins) || !origins.every((o) => typeof o === 'string')) throw new JcpError('ERR_BAD_ARGUMENT', 'setTaintFloor: origins must be an array of text');
      floors.set(resource, new Set(origins));
    },
    spentFunds: state.spentFunds,
    taintedSpent: state.taintedSpent,
    revoke(revocation: SignedRevocation, grant: SignedGrant): void {
      const r = (revocation as unknown as { revocation?: Record<string, unknown> } | null)?.revocation;
      if (typeof r !== 'object' || r === null || typeof r['grant_id'] !== 'string' || typeof r['revoked_by'] !== 'string' || !(r['nonce'] instanceof Uint8Array) || !(revocation.signature instanceof Uint8Array)) {
        throw new JcpError('ERR_BAD_ARGUMENT', 'revocation must be a signed revocation {revocation: {grant_id, revoked_by, nonce}, signature}');
      }
      checkSignedGrant(grant, 'revoke: the grant');
      // jcp §4.3: "MUST verify authority before honoring one"
      verifyRevocationAuthority(revocation, grant.grant, backend);
      revoked.add(grantId(grant.grant));
    },
    setTrustRoots(resource: ContentId, dids: readonly Did[]): void {
      roots.set(resource, checkRoots(resource, dids, 'setTrustRoots'));
    },
    isRevoked: state.isRevoked,
    spent: state.spent,
    // ---- jcp §8.1 replay: "rebuild its budget state by replaying its own verified receipt stream" (impl/receipt/replay.ts
    // verifies and sums; this only adds). Adding, never setting, means a restore can only tighten the budget. ----
    restoreSpend(id: ContentId, uj: bigint): void {
      contentIdArg(id, 'restoreSpend: id');
      if (typeof uj !== 'bigint' || uj < 0n) throw new JcpError('ERR_BAD_ARGUMENT', 'restoreSpend: uj must be a non-negative bigint (microjoules)');
      spend.set(id, state.spent(id) + uj);
    },
    remaining(g: Grant): bigint {
      const left = g.budget_uj - state.spent(grantId(g));
      return left > 0n ? left : 0n;
    },
  });
}
