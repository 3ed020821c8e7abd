// jcp §7 and §8: an enforcement point decides, debits on allow only (from every link), and seals every decision.
// It holds the spend per grant, the verified revocations (§4.3) and the trust roots per resource (§7, C15).
import { isProvenance, type Cost } from '../energy/cost.ts';
import { JcpError } from '../errors.ts';
import { defaultEd25519, type Ed25519, type KeyPair } from '../identity/ed25519.ts';
import type { ReceiptCoreV2 } from '../receipt/core.ts';
import { sealReceipt } from '../receipt/seal.ts';
import { judge, type DecisionRequest, type Judgement } from './decide.ts';
import { grantId } from './grant.ts';
import { verifyRevocationAuthority } from './revocation.ts';
import { isContentId } from './content-id.ts';
import { FRAME_KINDS, type ContentId, type DenyReason, type Did, type Grant, type SignedGrant, type SignedRevocation } from './types.ts';

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
  /** Decides and seals. Allow debits the cost from every link; deny debits nothing. */
  decide(req: DecisionRequest): Decision;
  /** Verifies a revocation's authority against the grant it names, then honours it (ERR_REVOCATION_UNAUTHORIZED otherwise; state unchanged). */
  revoke(revocation: SignedRevocation, grant: SignedGrant): void;
  /** Configures the trust roots of a resource; an empty list closes it to every root. */
  setTrustRoots(resource: ContentId, roots: readonly Did[]): void;
  isRevoked(id: ContentId): boolean;
  spent(id: ContentId): bigint;
  /** budget_uj less spend, never below zero. */
  remaining(g: Grant): bigint;
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

const FRAME_TEXT = ['kind', 'trust', 'grant_id', 'action', 'resource', 'payload_hash'] as const;

function checkFrame(f: unknown): void {
  if (typeof f !== 'object' || f === null) throw new JcpError('ERR_BAD_ARGUMENT', 'frame must be an object (jcp §6)');
  const r = f as Record<string, unknown>;
  for (const k of FRAME_TEXT) if (typeof r[k] !== 'string') throw new JcpError('ERR_BAD_ARGUMENT', `frame.${k} must be a string`);
  if (r['model'] !== undefined && typeof r['model'] !== 'string') throw new JcpError('ERR_BAD_ARGUMENT', 'frame.model must be a content id when present');
  // the same rules parseFrame applies on the wire, so a decision never seals a receipt its verifier would refuse
  if (!(FRAME_KINDS as readonly string[]).includes(r['kind'] as string)) throw new JcpError('ERR_FRAME_MALFORMED', `frame.kind must be one of ${FRAME_KINDS.join(', ')}`);
  if (r['trust'] !== 'control' && r['trust'] !== 'data') throw new JcpError('ERR_FRAME_MALFORMED', 'frame.trust must be control or data');
  if ((r['action'] as string).length === 0) throw new JcpError('ERR_FRAME_MALFORMED', 'frame.action must not be empty');
  for (const k of ['grant_id', 'resource', 'payload_hash', 'model'] as const) {
    if (r[k] !== undefined && !isContentId(r[k])) throw new JcpError('ERR_FRAME_MALFORMED', `frame.${k} must be a content id (64 lowercase hex digits)`);
  }
}

function checkSignedGrant(sg: unknown, i: number): void {
  const o = sg as { grant?: unknown; signature?: unknown } | null;
  if (typeof o !== 'object' || o === null || typeof o.grant !== 'object' || o.grant === null || !(o.signature instanceof Uint8Array)) {
    throw new JcpError('ERR_BAD_ARGUMENT', `chain[${i}] must be a signed grant {grant, signature}`);
  }
  const g = o.grant as Record<string, unknown>;
  const cap = g['capability'] as Record<string, unknown> | undefined;
  if (typeof g['issuer'] !== 'string' || typeof g['subject'] !== 'string' || typeof g['budget_uj'] !== 'bigint' || typeof g['expiry'] !== 'bigint' || typeof cap !== 'object' || cap === null || !Array.isArray(cap['actions'])) {
    throw new JcpError('ERR_BAD_ARGUMENT', `chain[${i}].grant is not a grant (parse wire input with parseSignedGrant first)`);
  }
}

/** Creates an enforcement point with empty spend and no revocations. */
export function createEnforcementPoint(opts: EnforcementPointOptions): EnforcementPoint {
  const backend = opts.backend ?? defaultEd25519();
  const steward = opts.steward;
  const spend = new Map<ContentId, bigint>();
  const revoked = new Set<ContentId>();
  const roots = new Map<ContentId, ReadonlySet<Did>>();
  for (const [res, dids] of Object.entries(opts.trustRoots ?? {})) roots.set(res, new Set(dids));

  const state = {
    isRevoked: (id: ContentId) => revoked.has(id),
    trustRoots: (resource: ContentId) => roots.get(resource),
    spent: (id: ContentId) => spend.get(id) ?? 0n,
  };

  function seal(req: DecisionRequest, j: Judgement): Decision {
    const leaf = req.chain.length > 0 ? req.chain[req.chain.length - 1]!.grant : undefined;
    if (!leaf) throw new JcpError('ERR_BAD_ARGUMENT', 'a decision needs at least one grant to seal a receipt over');
    const leafId = j.ids[j.ids.length - 1]!;
    const left = leaf.budget_uj - state.spent(leafId);
    const core: ReceiptCoreV2 = {
      jcp_receipt: 'jcp/2',
      grant_id: leafId,
      issuer: leaf.issuer,
      subject: leaf.subject,
      resource: req.frame.resource,
      action: req.frame.action,
      payload_hash: req.frame.payload_hash,
      frame_kind: req.frame.kind,
      trust: req.frame.trust,
      verdict: j.verdict,
      ...(j.verdict === 'deny' ? { deny_reason: j.deny_reason } : {}),
      cost_uj: req.cost.uj,
      energy_provenance: req.cost.provenance,
      ...(req.cost.coverage === 'Partial' ? { energy_coverage: 'Partial' as const } : {}),
      budget_remaining_uj: left > 0n ? left : 0n,
      budget_uj: leaf.budget_uj,
      steward: steward.did,
      // jcp §8.1: "A receipt sealed for a multi-hop chain MUST additionally record chain_ids"
      ...(j.ids.length > 1 ? { chain_ids: j.ids } : {}),
    };
    const receipt = sealReceipt(core, steward, backend);
    return Object.freeze({
      verdict: j.verdict,
      ...(j.verdict === 'deny' ? { deny_reason: j.deny_reason, why: j.why } : {}),
      debited: j.verdict === 'allow' ? j.ids : [],
      core,
      receipt,
    });
  }

  return Object.freeze({
    steward: steward.did,
    decide(req: DecisionRequest): Decision {
      if (typeof req !== 'object' || req === null || !Array.isArray(req.chain) || req.chain.length === 0) {
        throw new JcpError('ERR_BAD_ARGUMENT', 'a decision request needs a frame and a non-empty chain of signed grants');
      }
      checkFrame(req.frame);
      req.chain.forEach(checkSignedGrant);
      if (typeof req.caller !== 'string') throw new JcpError('ERR_BAD_ARGUMENT', 'caller must be a did:key string');
      checkCost(req.cost);
      if (typeof req.now_s !== 'bigint') throw new JcpError('ERR_BAD_ARGUMENT', 'now_s must be a bigint (unix seconds)');
      const j = judge(req, state, backend);
      if (j.verdict === 'allow') {
        // jcp §7: "On Allow, the runtime debits cost from the grant's remaining budget." — from every link (§4.2)
        for (const id of j.ids) spend.set(id, state.spent(id) + req.cost.uj);
      }
      return seal(req, j);
    },
    revoke(revocation: SignedRevocation, grant: SignedGrant): void {
      const r = (revocation as unknown as { revocation?: Record<string, unknown> } | null)?.revocation;
      if (typeof r !== 'object' || r === null || typeof r['grant_id'] !== 'string' || typeof r['revoked_by'] !== 'string' || !(r['nonce'] instanceof Uint8Array) || !(revocation.signature instanceof Uint8Array)) {
        throw new JcpError('ERR_BAD_ARGUMENT', 'revocation must be a signed revocation {revocation: {grant_id, revoked_by, nonce}, signature}');
      }
      checkSignedGrant(grant, 0);
      // jcp §4.3: "MUST verify authority before honoring one"
      verifyRevocationAuthority(revocation, grant.grant, backend);
      revoked.add(grantId(grant.grant));
    },
    setTrustRoots(resource: ContentId, dids: readonly Did[]): void {
      roots.set(resource, new Set(dids));
    },
    isRevoked: state.isRevoked,
    spent: state.spent,
    remaining(g: Grant): bigint {
      const left = g.budget_uj - state.spent(grantId(g));
      return left > 0n ? left : 0n;
    },
  });
}
