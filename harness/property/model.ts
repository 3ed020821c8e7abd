// Model-based differential testing: a small language of operations over the Implementation
// interface — mint, attenuate (within and beyond the parent), shard, revoke (by the issuer and forged), decide (single
// grants and chains, caveats, money), seal and verify receipts (untouched and with a byte flipped), check canonical
// encodings, and restart (a fresh point replays the receipts). A sequence of operations is plain JSON (a case file
// carries it); `execute` runs it against one implementation, each object an operation makes being the one later
// operations use, and returns one observation per operation, as JSON. The differential (./differential.ts) runs the
// same sequence against the reference and the implementation under test and compares the observations step by step.
//
// Operations refer to earlier objects by index, taken modulo how many exist when the operation runs (an operation with
// nothing to act on is observed as "skip"), so every sequence fast-check draws or shrinks to is runnable. Keys come
// from fixed labels, nonces from the step number, clocks are part of the operation: the same sequence gives the same
// bytes on every machine.
import { TesteeError, type DecideFields, type Implementation, type Minted, type Point } from '../implementation.ts';
import { toJson } from '../../vectors/execute.ts';
import type { Json, JsonObject } from '../../vectors/model.ts';
import { blake3, contentId, decodeCanonical, deriveSeed, grantId, keyPairFromSeed, parseSignedGrant, toHex, type KeyPair, type SignedGrant } from '../oracle.ts';

/** The actors: index 0–4 may issue and hold; MALLORY forges. Labels differ from the conformance fixtures' on purpose. */
export const KEYS: readonly KeyPair[] = ['alice', 'bob', 'carol', 'dave', 'erin'].map((l) => keyPairFromSeed(deriveSeed(`property:${l}`)));
export const MALLORY: KeyPair = keyPairFromSeed(deriveSeed('property:mallory'));
export const STEWARD: KeyPair = keyPairFromSeed(deriveSeed('property:steward'));
export const ACTIONS = ['call', 'read', 'write', 'delete'] as const;
export const RESOURCES = [contentId({ resource: 'property:tool-a' }), contentId({ resource: 'property:tool-b' })];
const PAYLOAD = contentId({ payload: 'property:args' });

/** Caveats an operation may carry, by name (their CBOR form is fixed here). */
export const CAVEATS = {
  'action-in-call-read': { ActionIn: ['call', 'read'] },
  'max-cost-50': { MaxCostUj: 50n },
  'max-cost-200': { MaxCostUj: 200n },
} as const;
export type CaveatName = keyof typeof CAVEATS;

/** How a well-formed encoding is made non-canonical (jcp §3): every result is still well-formed CBOR. */
export const NON_CANONICAL = ['canonical', 'widen-head', 'indefinite', 'append-byte'] as const;

/** One operation of a sequence. Numbers are small JSON integers; indices are taken modulo what exists. */
export type Op =
  | { readonly op: 'mint'; readonly issuer: number; readonly subject: number; readonly resource: number; readonly actions: number; readonly budget_uj: number; readonly expiry: number; readonly caveat?: CaveatName; readonly depth?: number; readonly funds?: number }
  /**
   * A child within its parent (actions: a mask over the parent's actions; budget and money as a share of the parent's;
   * expiry: the earlier of the parent's and this, 0 inheriting) unless `widen` names the axis to amplify.
   */
  | { readonly op: 'attenuate'; readonly parent: number; readonly subject: number; readonly actions: number; readonly budget_pct: number; readonly expiry: number; readonly by: 'holder' | 'mallory'; readonly caveat?: CaveatName; readonly funds_pct?: number; readonly widen?: 'actions' | 'budget' | 'expiry' | 'funds' }
  | { readonly op: 'shard'; readonly parent: number; readonly parts: number; readonly pct: number }
  | { readonly op: 'point' }
  | { readonly op: 'revoke'; readonly point: number; readonly grant: number; readonly by: 'issuer' | 'mallory' }
  /** `action` indexes the grant's own actions, or all of ACTIONS when `any_action`. */
  | { readonly op: 'decide'; readonly point: number; readonly grant: number; readonly caller: 'holder' | 'mallory'; readonly action: number; readonly any_action?: boolean; readonly resource: 'granted' | 'other'; readonly trust: 'control' | 'data'; readonly cost_uj: number; readonly now_s: number; readonly funds?: number }
  | { readonly op: 'verify-receipt'; readonly receipt: number; readonly flip?: number }
  | { readonly op: 'cbor-check'; readonly grant: number; readonly form: (typeof NON_CANONICAL)[number] }
  | { readonly op: 'restart'; readonly point: number };

/** What one operation was observed to do, as JSON (bytes hex, integers numbers; a refusal is {code}). */
export type Observation = JsonObject;

/** A grant this side holds: its bytes, the chain it is exercised through (root first) and its parsed fields. */
interface Held {
  readonly minted: Minted;
  readonly chain: readonly Uint8Array[];
  readonly grant: SignedGrant['grant'];
}

/** One side's objects while a sequence runs. */
interface World {
  readonly grants: Held[];
  readonly points: Array<{ readonly point: Point; readonly receipts: Uint8Array[] }>;
  readonly receipts: Uint8Array[];
}

const pick = <T>(xs: readonly T[], i: number): T | undefined => (xs.length === 0 ? undefined : xs[((i % xs.length) + xs.length) % xs.length]);
const actionsOf = (mask: number): string[] => {
  const a = ACTIONS.filter((_, i) => (mask >> i) & 1);
  return a.length ? a : ['call'];
};
const nonceFor = (step: number, label: string): Uint8Array => blake3(new TextEncoder().encode(`property nonce:${label}:${step}`)).slice(0, 16);
const keyOf = (did: string): KeyPair | undefined => [...KEYS, MALLORY].find((k) => k.did === did);

async function refusal<T>(f: () => Promise<T>): Promise<T | { code: string }> {
  try {
    return await f();
  } catch (e) {
    if (e instanceof TesteeError) return { code: e.code };
    throw e;
  }
}
const refused = (r: unknown): r is { code: string } => r !== null && typeof r === 'object' && 'code' in r && Object.keys(r).length === 1;

/**
 * What a grant an implementation minted says: read from its bytes in the published layout, else from the neutral view
 * the implementation gave back (harness/implementation.ts grantView); undefined when neither reads it.
 */
function parsed(impl: Implementation, m: Minted | Uint8Array): SignedGrant['grant'] | undefined {
  return impl.readGrant(m instanceof Uint8Array ? m : m.signed_grant);
}

/** A grant's content id as the implementation names it (its own, for a grant in its own layout). */
function idOfBytes(impl: Implementation, b: Uint8Array): string {
  const v = impl.grantView(b);
  if (v) return v.grant_id;
  return grantId(parseSignedGrant(decodeCanonical(b)).grant);
}

/**
 * Re-encodes well-formed canonical CBOR in a non-canonical but well-formed way: the first head widened by one byte
 * (a non-shortest length), the top-level array or map made indefinite-length, or one byte appended (trailing data).
 */
export function nonCanonical(bytes: Uint8Array, form: (typeof NON_CANONICAL)[number]): Uint8Array {
  const b0 = bytes[0]!;
  const major = b0 & 0xe0;
  const info = b0 & 0x1f;
  switch (form) {
    case 'canonical':
      return bytes;
    case 'widen-head':
      if (info < 24) return Uint8Array.of(major | 24, info, ...bytes.subarray(1));
      if (info === 24) return Uint8Array.of(major | 25, 0, bytes[1]!, ...bytes.subarray(2));
      return Uint8Array.of(...bytes, 0x00);
    case 'indefinite':
      if ((major === 0x80 || major === 0xa0) && info < 24) return Uint8Array.of(major | 31, ...bytes.subarray(1), 0xff);
      return Uint8Array.of(...bytes, 0x00);
    case 'append-byte':
      return Uint8Array.of(...bytes, 0x00);
  }
}

function minted(m: Minted): Observation {
  return { grant_id: m.grant_id, signed_grant: toHex(m.signed_grant) };
}

/**
 * Runs `ops` against `impl` and returns one observation per operation; `onStep(i)` is called before operation i (and
 * with -1 before the point every sequence starts with), so a recorder can tag requests by step.
 */
export async function execute(impl: Implementation, ops: readonly Op[], onStep?: (i: number) => void): Promise<Observation[]> {
  const w: World = { grants: [], points: [], receipts: [] };
  onStep?.(-1);
  w.points.push({ point: await impl.newPoint(STEWARD.seed), receipts: [] });
  const out: Observation[] = [];
  for (const [step, op] of ops.entries()) {
    onStep?.(step);
    out.push(await one(impl, w, op, step));
  }
  return out;
}

async function one(impl: Implementation, w: World, op: Op, step: number): Promise<Observation> {
  switch (op.op) {
    case 'mint': {
      const issuer = pick(KEYS, op.issuer)!;
      const subject = pick(KEYS, op.subject)!;
      const r = await refusal(() =>
        impl.mintGrant(issuer.seed, {
          subject: subject.did,
          resource: pick(RESOURCES, op.resource)!,
          actions: actionsOf(op.actions),
          budget_uj: BigInt(op.budget_uj),
          expiry: BigInt(op.expiry),
          nonce: nonceFor(step, 'mint'),
          ...(op.caveat ? { caveats: [CAVEATS[op.caveat]] } : {}),
          ...(op.depth !== undefined ? { delegate_depth: BigInt(op.depth) } : {}),
          ...(op.funds !== undefined ? { budget_funds: { currency: 'EUR', minor: BigInt(op.funds) } } : {}),
        }),
      );
      if (refused(r)) return r;
      const g = parsed(impl, r);
      if (g) w.grants.push({ minted: r, chain: [r.signed_grant], grant: g });
      return minted(r);
    }
    case 'attenuate': {
      const parent = pick(w.grants, op.parent);
      if (!parent) return { skip: 'no grant' };
      const holder = op.by === 'holder' ? keyOf(parent.grant.subject) : MALLORY;
      if (!holder) return { skip: 'holder unknown' };
      const pg = parent.grant;
      const kept = pg.capability.actions.filter((_, i) => (op.actions >> i) & 1);
      const actions = op.widen === 'actions' ? [...new Set([...pg.capability.actions, ...actionsOf(op.actions)])] : kept.length ? kept : pg.capability.actions.slice(0, 1);
      const budget = op.widen === 'budget' ? pg.budget_uj + 1n + BigInt(op.budget_pct) : (pg.budget_uj * BigInt(op.budget_pct)) / 100n;
      const mine = BigInt(op.expiry);
      const expiry = op.widen === 'expiry' ? (pg.expiry === 0n ? undefined : pg.expiry + 1n + mine) : pg.expiry === 0n ? mine : mine === 0n || mine > pg.expiry ? pg.expiry : mine;
      const pf = pg.budget_funds;
      const funds = op.funds_pct === undefined || !pf ? undefined : { currency: pf.currency, minor: op.widen === 'funds' ? pf.minor + 1n : (pf.minor * BigInt(op.funds_pct)) / 100n };
      const r = await refusal(() =>
        impl.attenuate(parent.minted.signed_grant, holder.seed, {
          subject: pick(KEYS, op.subject)!.did,
          nonce: nonceFor(step, 'attenuate'),
          actions,
          budget_uj: budget,
          ...(expiry !== undefined ? { expiry } : {}),
          ...(op.caveat ? { add_caveats: [CAVEATS[op.caveat]] } : {}),
          ...(funds ? { budget_funds: funds } : {}),
        }),
      );
      if (refused(r)) return r;
      const g = parsed(impl, r);
      if (g) w.grants.push({ minted: r, chain: [...parent.chain, r.signed_grant], grant: g });
      return minted(r);
    }
    case 'shard': {
      const parent = pick(w.grants, op.parent);
      if (!parent) return { skip: 'no grant' };
      const holder = keyOf(parent.grant.subject);
      if (!holder) return { skip: 'holder unknown' };
      const each = (parent.grant.budget_uj * BigInt(op.pct)) / 100n / BigInt(op.parts);
      const slices = Array.from({ length: op.parts }, (_, i) => ({ subject: pick(KEYS, i + step)!.did, budget_uj: each, nonce: nonceFor(step, `shard${i}`) }));
      const r = await refusal(() => impl.shard(parent.minted.signed_grant, holder.seed, slices));
      if (refused(r)) return r;
      for (const m of r) {
        const g = parsed(impl, m);
        if (g) w.grants.push({ minted: m, chain: [...parent.chain, m.signed_grant], grant: g });
      }
      return { children: r.map(minted) };
    }
    case 'point':
      w.points.push({ point: await impl.newPoint(STEWARD.seed), receipts: [] });
      return { ok: true };
    case 'revoke': {
      const p = pick(w.points, op.point)!;
      const held = pick(w.grants, op.grant);
      if (!held) return { skip: 'no grant' };
      const by = op.by === 'issuer' ? keyOf(held.grant.issuer) : MALLORY;
      if (!by) return { skip: 'issuer unknown' };
      const rev = await refusal(() => impl.mintRevocation(by.seed, held.minted.grant_id, nonceFor(step, 'revoke')));
      if (refused(rev)) return { revocation: rev };
      const applied = await refusal(() => p.point.revoke(rev, held.minted.signed_grant));
      return { revocation: toHex(rev), applied: refused(applied) ? applied : 'ok' };
    }
    case 'decide': {
      const p = pick(w.points, op.point)!;
      const held = pick(w.grants, op.grant);
      if (!held) return { skip: 'no grant' };
      const holder = keyOf(held.grant.subject);
      const caller = op.caller === 'holder' && holder ? holder : MALLORY;
      const ids = held.chain.map((b) => idOfBytes(impl, b));
      const before = await Promise.all(ids.map((id) => p.point.spent(id)));
      const req: DecideFields = {
        frame: {
          kind: 'tool-call',
          trust: op.trust,
          grant_id: held.minted.grant_id,
          action: op.any_action ? pick(ACTIONS, op.action)! : pick(held.grant.capability.actions, op.action)!,
          resource: op.resource === 'granted' ? held.grant.capability.resource : RESOURCES.find((r) => r !== held.grant.capability.resource)!,
          payload_hash: PAYLOAD,
        },
        chain: held.chain,
        caller: caller.did,
        cost: { uj: BigInt(op.cost_uj), provenance: 'Estimator' },
        now_s: BigInt(op.now_s),
        ...(op.funds !== undefined ? { cost_funds: { currency: 'EUR', minor: BigInt(op.funds) } } : {}),
      };
      const d = await refusal(() => p.point.decide(req));
      if (refused(d)) return d;
      const after = await Promise.all(ids.map((id) => p.point.spent(id)));
      w.receipts.push(d.receipt);
      p.receipts.push(d.receipt);
      return {
        verdict: d.verdict,
        ...(d.deny_reason !== undefined ? { deny_reason: d.deny_reason } : {}),
        receipt: toHex(d.receipt),
        spent_before: before.map((x) => toJson(x) as number),
        spent: after.map((x) => toJson(x) as number),
        roots: [toJson(parsed(impl, held.chain[0]!)!.budget_uj) as number],
      };
    }
    case 'verify-receipt': {
      const rc = pick(w.receipts, op.receipt);
      if (!rc) return { skip: 'no receipt' };
      const bytes = Uint8Array.from(rc);
      if (op.flip !== undefined) bytes[op.flip % bytes.length]! ^= 0x01;
      const r = await refusal(() => impl.verifyReceipt(bytes, STEWARD.did));
      return refused(r) ? r : { core: toJson(r) };
    }
    case 'cbor-check': {
      const held = pick(w.grants, op.grant);
      if (!held) return { skip: 'no grant' };
      const input = nonCanonical(held.minted.signed_grant, op.form);
      const r = await refusal(() => impl.cborCheck(input));
      return refused(r) ? { input: toHex(input), ...r } : { input: toHex(input), canonical: toHex(r) };
    }
    case 'restart': {
      const p = pick(w.points, op.point)!;
      const fresh = await impl.newPoint(STEWARD.seed);
      const r = await refusal(() => impl.replay(fresh, p.receipts));
      if (refused(r)) return r;
      const spend = [...r.spend].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([id, uj]) => [id, toJson(uj)] as Json);
      // the restarted point takes the old one's place: later decisions on it must see the rebuilt spend
      const idx = w.points.indexOf(p);
      w.points[idx] = { point: fresh, receipts: [...p.receipts] };
      return { verified: toJson(r.verified), allowed: toJson(r.allowed), refused: toJson(r.refused), refusals: r.refusals.map((x) => x.code), spend };
    }
  }
}
