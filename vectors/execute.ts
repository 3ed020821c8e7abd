// Runs one vector's inputs against an implementation through harness/implementation.ts and returns what it observed,
// as the JSON a pack stores. The generator records this against the reference (after checking it is the outcome the
// case declares); the replay compares it with the pack's `expected`. One executor for both, so a pack can only hold
// what the replay checks. Refusals are `{ error: code }`; a testee that hangs, dies or is unimplemented throws.
import { TesteeError, type ChannelHandle, type DecideFields, type Implementation, type MintFields, type ChildFields } from '../harness/implementation.ts';
import { encodeCanonical, type CborInput } from '../impl/cbor/index.ts';
import { toHex } from '../impl/bytes.ts';
import type { GroupType, Json, JsonObject } from './model.ts';
import { decodeSignedMintPolicy, mintPolicyId } from '../impl/jcp/standing.ts';
import { executeSequence } from './promoted.ts';
import { executeJc } from './jc-execute.ts';
import { executeProfile, trimProfile } from './p-execute.ts';
import { arr, hex, obj, str, uint } from './inputs.ts';


/** A caveat as JSON ({Variant: parameter}, integers as numbers) to its CBOR input form (integers as bigint). */
export function caveatInput(v: Json): CborInput {
  if (typeof v === 'number') return BigInt(v);
  if (Array.isArray(v)) return v.map(caveatInput);
  if (v !== null && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, caveatInput(x)]));
  return v as CborInput;
}

/** A JSON number for a bigint the implementation returned (packs keep integers within 2^53). */
function num(b: unknown, what: string): number {
  const n = typeof b === 'bigint' ? Number(b) : (b as number);
  if (!Number.isSafeInteger(n)) throw new Error(`${what} (${String(b)}) is not a safe integer`);
  return n;
}

/** A value returned by the implementation as pack JSON: bytes as lowercase hex, integers as numbers. */
export function toJson(v: unknown, what = 'value'): Json {
  if (v instanceof Uint8Array) return toHex(v);
  if (typeof v === 'bigint') return num(v, what);
  if (Array.isArray(v)) return v.map((x, i) => toJson(x, `${what}[${i}]`));
  if (v !== null && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, toJson(x, `${what}.${k}`)]));
  return v as Json;
}

async function refusal<T>(f: () => Promise<T>): Promise<T | { error: string }> {
  try {
    return await f();
  } catch (e) {
    if (e instanceof TesteeError) return { error: e.code };
    throw e;
  }
}

function mintFields(g: JsonObject): MintFields {
  return {
    subject: str(g['subject'], 'grant.subject'),
    resource: str(g['resource'], 'grant.resource'),
    actions: arr(g['actions'], 'grant.actions').map((a) => str(a, 'grant.actions[]')),
    budget_uj: uint(g['budget_uj'], 'grant.budget_uj'),
    expiry: uint(g['expiry'], 'grant.expiry'),
    nonce: hex(g['nonce'], 'grant.nonce'),
    ...(g['caveats'] !== undefined ? { caveats: arr(g['caveats'], 'grant.caveats').map(caveatInput) } : {}),
    ...(g['delegate_depth'] !== undefined ? { delegate_depth: uint(g['delegate_depth'], 'grant.delegate_depth') } : {}),
    ...(g['budget_funds'] !== undefined ? { budget_funds: funds(g['budget_funds'], 'grant.budget_funds') } : {}),
  };
}

function childFields(c: JsonObject): ChildFields {
  return {
    subject: str(c['subject'], 'child.subject'),
    nonce: hex(c['nonce'], 'child.nonce'),
    ...(c['actions'] !== undefined ? { actions: arr(c['actions'], 'child.actions').map((a) => str(a, 'child.actions[]')) } : {}),
    ...(c['budget_uj'] !== undefined ? { budget_uj: uint(c['budget_uj'], 'child.budget_uj') } : {}),
    ...(c['expiry'] !== undefined ? { expiry: uint(c['expiry'], 'child.expiry') } : {}),
    ...(c['delegate_depth'] !== undefined ? { delegate_depth: uint(c['delegate_depth'], 'child.delegate_depth') } : {}),
    ...(c['add_caveats'] !== undefined ? { add_caveats: arr(c['add_caveats'], 'child.add_caveats').map(caveatInput) } : {}),
    ...(c['budget_funds'] !== undefined ? { budget_funds: funds(c['budget_funds'], 'child.budget_funds') } : {}),
  };
}

/** A decision request as JSON to the interface's fields. */
export function decideFields(s: JsonObject): DecideFields {
  const f = obj(s['frame'], 'frame');
  const c = obj(s['cost'], 'cost');
  return {
    frame: {
      kind: str(f['kind'], 'frame.kind'),
      trust: str(f['trust'], 'frame.trust'),
      grant_id: str(f['grant_id'], 'frame.grant_id'),
      action: str(f['action'], 'frame.action'),
      resource: str(f['resource'], 'frame.resource'),
      payload_hash: str(f['payload_hash'], 'frame.payload_hash'),
      ...(f['model'] !== undefined ? { model: str(f['model'], 'frame.model') } : {}),
    },
    chain: arr(s['chain'], 'chain').map((b, i) => hex(b, `chain[${i}]`)),
    caller: str(s['caller'], 'caller'),
    cost: { uj: uint(c['uj'], 'cost.uj'), provenance: str(c['provenance'], 'cost.provenance'), ...(c['coverage'] === 'Partial' ? { coverage: 'Partial' as const } : {}) },
    now_s: uint(s['now_s'], 'now_s'),
    ...(s['cost_funds'] !== undefined ? { cost_funds: funds(s['cost_funds'], 'cost_funds') } : {}),
  };
}

/** jcp §4.8 a money amount as JSON ({currency, minor}). */
function funds(v: Json | undefined, what: string): { currency: string; minor: bigint } {
  const o = obj(v, what);
  return { currency: str(o['currency'], `${what}.currency`), minor: uint(o['minor'], `${what}.minor`) };
}

async function grantIdsOf(impl: Implementation, chain: readonly Uint8Array[]): Promise<string[]> {
  const ids: string[] = [];
  for (const b of chain) {
    const r = await refusal(() => impl.verifyGrant(b));
    ids.push('error' in r ? '' : r.grant_id);
  }
  return ids;
}

/**
 * A Decide vector: a fresh enforcement point (steward seed, trust roots), the revocations it is handed, then each
 * request in turn. Per request: verdict, deny_reason, the core of its receipt as the implementation verifies it under
 * the steward, the ids whose spend rose (debited, in chain order) and each chain grant's spend afterwards.
 */
async function decide(impl: Implementation, inp: JsonObject): Promise<JsonObject> {
  const stewardSeed = hex(inp['steward_seed'], 'steward_seed');
  const steward = (await impl.fromSeed(stewardSeed)).did;
  const roots = inp['trust_roots'] === undefined ? undefined : Object.fromEntries(Object.entries(obj(inp['trust_roots'], 'trust_roots')).map(([k, v]) => [k, arr(v, k).map((d) => str(d, k))]));
  const p = await impl.newPoint(stewardSeed, roots);
  const out: JsonObject = {};
  if (inp['revocations'] !== undefined) {
    const rs: Json[] = [];
    for (const r of arr(inp['revocations'], 'revocations')) {
      const o = obj(r, 'revocations[]');
      const got = await refusal(() => p.revoke(hex(o['signed_revocation'], 'signed_revocation'), hex(o['grant'], 'grant')));
      rs.push(got !== undefined && typeof got === 'object' && 'error' in got ? got.error : 'accepted');
    }
    out['revocations'] = rs;
  }
  const steps: Json[] = [];
  for (const [i, s] of arr(inp['steps'], 'steps').entries()) {
    const d = decideFields(obj(s, `steps[${i}]`));
    const ids = await grantIdsOf(impl, d.chain);
    const known = ids.filter((x) => x !== '');
    const before = await Promise.all(known.map((id) => p.spent(id)));
    const r = await p.decide(d);
    const after = await Promise.all(known.map((id) => p.spent(id)));
    // jcp §4.8: a priced step also reports each chain grant's money spend (point.spent-funds is asked only then)
    const minor = d.cost_funds === undefined ? undefined : await Promise.all(known.map((id) => p.spentFunds(id)));
    const core = await refusal(() => impl.verifyReceipt(r.receipt, steward));
    steps.push({
      verdict: r.verdict,
      ...(r.deny_reason !== undefined ? { deny_reason: r.deny_reason } : {}),
      core: 'error' in core ? { error: String(core.error) } : (toJson(core, 'core') as JsonObject),
      debited: known.filter((_, j) => after[j]! !== before[j]!),
      spent: Object.fromEntries(known.map((id, j) => [id, num(after[j], `spent ${id}`)])),
      ...(minor ? { spent_minor: Object.fromEntries(known.map((id, j) => [id, num(minor[j], `spent_minor ${id}`)])) } : {}),
      receipt: toHex(r.receipt),
    });
  }
  out['steps'] = steps;
  return out;
}

/**
 * A StandingFire vector (jcp §4.6): a fresh point, then each firing of the signed policy over the standing grant in
 * turn; each firing's child (or refusal) and the point's mint ledger afterwards. The policy id the ledger is keyed by
 * is read from the policy bytes by the reference (harness tooling, as in harness/conformance/standing.test.ts).
 */
async function standingFire(impl: Implementation, inp: JsonObject): Promise<JsonObject> {
  const p = await impl.newPoint(hex(inp['steward_seed'], 'steward_seed'));
  const grant = hex(inp['grant'], 'grant');
  const policy = hex(inp['policy'], 'policy');
  const firings: Json[] = [];
  for (const [i, f] of arr(inp['firings'], 'firings').entries()) {
    const o = obj(f, `firings[${i}]`);
    const c = obj(o['child'], `firings[${i}].child`);
    const r = await refusal(() =>
      impl.fire(p, { policy, grant, holder_seed: hex(o['holder_seed'], 'holder_seed'), event_class: str(o['event_class'], 'event_class'), child: { subject: str(c['subject'], 'child.subject'), nonce: hex(c['nonce'], 'child.nonce') } }),
    );
    firings.push('error' in r ? r : { signed_grant: toHex(r.signed_grant), grant_id: r.grant_id });
  }
  const g = await impl.verifyGrant(grant);
  const l = await impl.mintLedger(p, mintPolicyId(decodeSignedMintPolicy(policy).policy), g.grant_id);
  return { firings, ledger: { firings: num(l.firings, 'ledger.firings'), cumulative_uj: num(l.cumulative_uj, 'ledger.cumulative_uj') } };
}

/** 'accepted', or the code of the refusal. */
const appliedOf = (r: void | { error: string }): string => (r ? r.error : 'accepted');

/**
 * A ChannelScript vector (jcp §4.5): each point opens its side of a channel over `chain` among `members`, then the ops
 * run in order — a spend at a point; a statement signed by one point and applied at another; a crafted statement
 * applied — and each op's outcome is recorded. Finally every point's merged ledger and, where the ledger is overdrawn,
 * its overdraft proof bytes and the overdraft the implementation verifies from them.
 */
async function channelScript(impl: Implementation, inp: JsonObject): Promise<JsonObject> {
  const chain = arr(inp['chain'], 'chain').map((b, i) => hex(b, `chain[${i}]`));
  const members = arr(inp['members'], 'members').map((d) => str(d, 'members[]'));
  const points: ChannelHandle[] = [];
  for (const [i, s] of arr(inp['points'], 'points').entries()) points.push(await impl.openChannel(hex(s, `points[${i}]`), chain, members));
  const pt = (v: Json | undefined) => {
    const c = points[Number(uint(v, 'at'))];
    if (!c) throw new Error(`vector op names point ${String(v)}, which was not opened`);
    return c;
  };
  const ops: Json[] = [];
  for (const [i, o] of arr(inp['ops'], 'ops').entries()) {
    const op = obj(o, `ops[${i}]`);
    if (op['spend_uj'] !== undefined) {
      ops.push(toJson(await pt(op['at']).spend(uint(op['spend_uj'], 'spend_uj')), 'spend'));
    } else if (op['statement_to'] !== undefined) {
      const st = await pt(op['at']).statement();
      const r = await refusal(() => pt(op['statement_to']).apply(st));
      ops.push({ statement: toHex(st), applied: appliedOf(r) });
    } else {
      const r = await refusal(() => pt(op['at']).apply(hex(op['apply'], 'apply')));
      ops.push({ applied: appliedOf(r) });
    }
  }
  const out: Json[] = [];
  for (const c of points) {
    const proof = await c.overdraftProof();
    out.push({ ledger: toJson(await c.ledger(), 'ledger'), ...(proof ? { overdraft_proof: toHex(proof), overdraft_uj: num(await impl.verifyOverdraft(proof, members), 'overdraft') } : {}) });
  }
  return { ops, points: out };
}

// ---- efficiency.json: jcp §5.2 efficiency/1 and coverage, §5.3 traceability (C9) ----------------------------------

/** An energy figure as JSON ({measured_uj?, estimated_uj, provenance, coverage?}) to the testee protocol's form. */
function energyFields(v: Json | undefined, what: string): Record<string, unknown> {
  const e = obj(v, what);
  return {
    ...(e['measured_uj'] !== undefined ? { measured_uj: uint(e['measured_uj'], `${what}.measured_uj`) } : {}),
    estimated_uj: uint(e['estimated_uj'], `${what}.estimated_uj`),
    provenance: str(e['provenance'], `${what}.provenance`),
    ...(e['coverage'] !== undefined ? { coverage: str(e['coverage'], `${what}.coverage`) } : {}),
  };
}

/** A graded figure of a trace as JSON ({uj, provenance, coverage?}) to the testee protocol's form. */
function figureFields(v: Json | undefined, what: string): Record<string, unknown> {
  const f = obj(v, what);
  return { uj: uint(f['uj'], `${what}.uj`), provenance: str(f['provenance'], `${what}.provenance`), ...(f['coverage'] !== undefined ? { coverage: str(f['coverage'], `${what}.coverage`) } : {}) };
}

/**
 * An EfficiencySeal vector (jcp §5.2): the energy fields the implementation seals into an efficiency/1 payload for a
 * figure over accepted tokens, as JSON and as the canonical det-CBOR (jcp §3) of that payload. The bytes are the
 * harness's canonical encoding of the map the implementation answered: canonical CBOR is a function of the value, so
 * they pin the exact field set, key spelling and integer values a sealer must produce.
 */
async function efficiencySeal(impl: Implementation, inp: JsonObject): Promise<JsonObject> {
  const p = await impl.energyEfficiencySeal(energyFields(inp['energy'], 'energy'), uint(inp['accepted_tokens'], 'accepted_tokens'));
  return { payload: toJson(p, 'payload'), payload_cbor: toHex(encodeCanonical(p as CborInput)) };
}

/** A Trace vector (jcp §5.3): an outcome traced to its activities by content-id; the signed residual and the floors. */
async function trace(impl: Implementation, inp: JsonObject): Promise<JsonObject> {
  const ids = arr(inp['activity_ids'], 'activity_ids').map((x) => str(x, 'activity_ids[]'));
  const acts = Object.fromEntries(Object.entries(obj(inp['activities'], 'activities')).map(([id, f]) => [id, figureFields(f, `activities.${id}`)]));
  return toJson(await impl.energyTrace(figureFields(inp['outcome'], 'outcome'), ids, acts), 'trace') as JsonObject;
}

/**
 * Runs a vector of `type` with `inputs` against `impl`: its outputs, or `{ error: code }` when refused — including a
 * refusal of a set-up step (a point or channel the implementation will not open over the inputs given).
 */
export async function execute(impl: Implementation, type: GroupType, inp: JsonObject): Promise<JsonObject> {
  return refusal(() => run(impl, type, inp));
}

async function run(impl: Implementation, type: GroupType, inp: JsonObject): Promise<JsonObject> {
  switch (type) {
    case 'GrantMint': {
      const r = await refusal(() => impl.mintGrant(hex(inp['issuer_seed'], 'issuer_seed'), mintFields(obj(inp['grant'], 'grant'))));
      return 'error' in r ? r : { signed_grant: toHex(r.signed_grant), grant_id: r.grant_id };
    }
    case 'GrantVerify': {
      const r = await refusal(() => impl.verifyGrant(hex(inp['signed_grant'], 'signed_grant')));
      return 'error' in r ? r : { verdict: r.valid ? 'valid' : 'invalid', grant_id: r.grant_id };
    }
    case 'Attenuate': {
      const r = await refusal(() => impl.attenuate(hex(inp['parent'], 'parent'), hex(inp['holder_seed'], 'holder_seed'), childFields(obj(inp['child'], 'child'))));
      return 'error' in r ? r : { signed_grant: toHex(r.signed_grant), grant_id: r.grant_id };
    }
    case 'Decide':
      return decide(impl, inp);
    case 'PolicyAuthor': {
      const pol = obj(inp['policy'], 'policy');
      const r = await refusal(() =>
        impl.authorPolicy(hex(inp['issuer_seed'], 'issuer_seed'), hex(inp['grant'], 'grant'), {
          event_class: str(pol['event_class'], 'policy.event_class'),
          per_firing_uj: uint(pol['per_firing_uj'], 'policy.per_firing_uj'),
          max_firings: uint(pol['max_firings'], 'policy.max_firings'),
        }),
      );
      return 'error' in r ? r : { signed_policy: toHex(r.signed_policy), policy_id: r.policy_id };
    }
    case 'StandingFire':
      return standingFire(impl, inp);
    case 'ChannelScript':
      return channelScript(impl, inp);
    case 'EfficiencySeal':
      return efficiencySeal(impl, inp);
    case 'EfficiencyRead':
      // the payload as JSON to CBOR values (integers as bigint), odd fields and all: the verifier is what is checked
      return toJson(await impl.energyEfficiencyRead(caveatInput(obj(inp['payload'], 'payload')) as Record<string, unknown>), 'read') as JsonObject;
    case 'EfficiencyTotals': {
      const payloads = arr(inp['payloads'], 'payloads').map((p, i) => caveatInput(obj(p, `payloads[${i}]`)) as Record<string, unknown>);
      return toJson(await impl.energyEfficiencyTotals(payloads, uint(inp['units'], 'units')), 'totals') as JsonObject;
    }
    case 'TaskTotal':
      return { total_uj: num(await impl.energyTaskTotal(energyFields(inp['energy'], 'energy')), 'total_uj') };
    case 'Trace':
      return trace(impl, inp);
    case 'OpSequence':
      return executeSequence(impl, inp);
    case 'ReceiptVerify': {
      const steward = inp['steward'] === undefined ? undefined : str(inp['steward'], 'steward');
      const r = await refusal(() => impl.verifyReceipt(hex(inp['receipt'], 'receipt'), steward));
      return 'error' in r ? { error: String(r.error) } : { core: toJson(r, 'core') };
    }
    default: {
      // JouleClaw and Sense kinds: vectors/jc-execute.ts
      // JouleClaw and Sense kinds: vectors/jc-execute.ts; the suite-defined profiles' kinds: vectors/p-execute.ts
      const r = (await executeJc(impl, type, inp, decideFields)) ?? (await executeProfile(impl, type, inp));
      if (!r) throw new Error(`no executor for group kind ${type}`);
      return r;
    }
  }
}

/**
 * The observed outputs trimmed to what a pack pins: a Decide step's exact receipt bytes are compared only where the
 * expected step carries them (receipts.json pins them; other packs compare the verified core).
 */
export function trimToExpected(type: GroupType, observed: JsonObject, expected: JsonObject): JsonObject {
  if (type !== 'Decide') return trimProfile(type, observed, expected);
  if (!Array.isArray(observed['steps']) || !Array.isArray(expected['steps'])) return observed;
  const exp = expected['steps'];
  const steps = observed['steps'].map((s, i) => {
    const o = { ...(s as JsonObject) };
    const e = exp[i] as JsonObject | undefined;
    if (!e || !('receipt' in e)) delete o['receipt'];
    return o;
  });
  return { ...observed, steps };
}
