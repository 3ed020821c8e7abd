// Runs one JouleClaw or Sense vector through harness/implementation.ts and returns what
// the implementation answered, as pack JSON: the transparency log (jouleclaw §22: heads, inclusion and consistency
// proofs, a log of decisions), the policy digest and policy/1 receipts (§10, §10.1), cascade receipts (§2, §7),
// contracts, verdicts and verdict receipts (§16), handoffs and the run journal (§17), and Sense event ids, replay
// digests, attention gates and surfacing chains (sense §2, §3, §5, §8). Shared by the generator and the replay, like
// vectors/execute.ts (which dispatches here). Refusals are `{ error: code }`.
import { TesteeError, type DecideFields, type Implementation, type JcPolicyFields, type JcPolicyReceiptFields, type JcPolicyStep } from '../harness/implementation.ts';
import { toHex } from '../impl/bytes.ts';
import type { CborInput } from '../impl/cbor/index.ts';
import type { GroupType, Json, JsonObject } from './model.ts';
import { arr, hex, obj, str, uint } from './inputs.ts';

const hexList = (v: Json | undefined, what: string): Uint8Array[] => arr(v, what).map((x, i) => hex(x, `${what}[${i}]`));

/** JSON (integers as numbers) to CBOR input values (integers as bigint); strings, booleans and structure kept. */
function bigints(v: Json): CborInput {
  if (typeof v === 'number') return BigInt(v);
  if (Array.isArray(v)) return v.map(bigints);
  if (v !== null && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, bigints(x)]));
  return v as CborInput;
}

/** A value the implementation answered as pack JSON: bytes as lowercase hex, bigints as numbers (checked safe). */
function json(v: unknown, what: string): Json {
  if (v instanceof Uint8Array) return toHex(v);
  if (typeof v === 'bigint') {
    const n = Number(v);
    if (!Number.isSafeInteger(n)) throw new Error(`${what} (${String(v)}) is not a safe integer`);
    return n;
  }
  if (Array.isArray(v)) return v.map((x, i) => json(x, `${what}[${i}]`));
  if (v !== null && typeof v === 'object') return Object.fromEntries(Object.entries(v).filter(([, x]) => x !== undefined).map(([k, x]) => [k, json(x, `${what}.${k}`)]));
  return v as Json;
}

/** An answer, or the code of the refusal the testee gave instead. */
export async function refusal(f: () => Promise<JsonObject>): Promise<JsonObject> {
  try {
    return await f();
  } catch (e) {
    if (e instanceof TesteeError) return { error: e.code };
    throw e;
  }
}

// ---- jouleclaw §22 the transparency log --------------------------------------------------------------------------

/**
 * A LogDecisions vector (§22.3): a fresh enforcement point and a fresh log, both under `steward_seed`; each decision
 * answered through the log (appended before it is answered, allow and deny alike), then the head at `head_now_s`,
 * every entry's inclusion proof against it and every earlier size's consistency proof to it.
 */
async function logDecisions(impl: Implementation, inp: JsonObject, decideFields: (s: JsonObject) => DecideFields): Promise<JsonObject> {
  const seed = hex(inp['steward_seed'], 'steward_seed');
  const point = await impl.newPoint(seed);
  const log = await impl.newLog(seed);
  const entries: Json[] = [];
  const steps = arr(inp['steps'], 'steps');
  for (const [i, s] of steps.entries()) {
    const r = await log.decide(point, decideFields(obj(s, `steps[${i}]`)));
    entries.push(json({ verdict: r.verdict, deny_reason: r.deny_reason, receipt: r.receipt, ...(r.entry ? { index: r.entry.index, head: r.entry.head, proof: r.entry.proof } : {}) }, `entries[${i}]`));
  }
  const n = BigInt(steps.length);
  const head = await log.head(uint(inp['head_now_s'], 'head_now_s'));
  const inclusion: Json[] = [];
  for (let i = 0n; i < n; i++) inclusion.push(json(await log.inclusion(i, n), `inclusion[${i}]`));
  const consistency: Json[] = [];
  for (let m = 1n; m <= n; m++) consistency.push(json(await log.consistency(m, n), `consistency[${m}]`));
  return { entries, head: toHex(head), head_fields: json(await impl.verifyTreeHead(head, (await impl.fromSeed(seed)).did), 'head_fields'), inclusion, consistency };
}

// ---- jouleclaw §17 the run journal ------------------------------------------------------------------------------

interface HandoffIn {
  worker: string;
  closed_at: bigint;
  node_id?: string;
  feature_id?: string;
  completed?: string[];
  undone?: string[];
  commands?: { argv: string[]; exit_code: bigint }[];
  issues_found?: string[];
  procedures_followed?: string[];
}

/** A run's nodes as a pack writes them (jouleclaw §17.3: each with its replay, `never` when absent). */
export const nodesIn = (v: Json | undefined): { node_id: string; replay?: 'safe' | 'never' }[] =>
  arr(v, 'nodes').map((n, i) => {
    const o = obj(n, `nodes[${i}]`);
    return { node_id: str(o['node_id'], 'node_id'), ...(o['replay'] !== undefined ? { replay: str(o['replay'], 'replay') as 'safe' | 'never' } : {}) };
  });

/** A handoff as a pack writes it (jouleclaw §17.1), as jc.run.handoff takes it. */
export function handoffIn(v: Json | undefined, what: string): HandoffIn {
  const h = obj(v, what);
  const list = (k: string) => (h[k] === undefined ? {} : { [k]: arr(h[k], `${what}.${k}`).map((x) => str(x, `${what}.${k}[]`)) });
  return {
    worker: str(h['worker'], `${what}.worker`),
    closed_at: uint(h['closed_at'], `${what}.closed_at`),
    ...(h['node_id'] !== undefined ? { node_id: str(h['node_id'], `${what}.node_id`) } : {}),
    ...(h['feature_id'] !== undefined ? { feature_id: str(h['feature_id'], `${what}.feature_id`) } : {}),
    ...list('completed'),
    ...list('undone'),
    ...list('issues_found'),
    ...list('procedures_followed'),
    ...(h['commands'] !== undefined
      ? { commands: arr(h['commands'], `${what}.commands`).map((c, i) => ({ argv: arr(obj(c, `${what}.commands[${i}]`)['argv'], 'argv').map((a) => str(a, 'argv[]')), exit_code: uint(obj(c, 'command')['exit_code'], 'exit_code') })) }
      : {}),
  };
}

/**
 * A JournalScript vector (§17.3): a fresh run over `nodes`, then `ops` in order — {dispatch: node}, {complete: node,
 * energy_uj}, {handoff: {...}} — then the run's state (entries as hex); then the run reopened from those entries as
 * after a restart, `recover` with the observed energy, and the reopened run's state.
 */
async function journalScript(impl: Implementation, inp: JsonObject): Promise<JsonObject> {
  const run = await impl.jcStartRun(str(inp['run_id'], 'run_id'), nodesIn(inp['nodes']));
  const ops: Json[] = [];
  for (const [i, o] of arr(inp['ops'], 'ops').entries()) {
    const op = obj(o, `ops[${i}]`);
    ops.push(
      await refusal(async () => {
        if (op['dispatch'] !== undefined) await run.dispatch(str(op['dispatch'], 'dispatch'));
        else if (op['complete'] !== undefined) await run.complete(str(op['complete'], 'complete'), uint(op['energy_uj'], 'energy_uj'));
        else return { handoff: json(await run.handoff(handoffIn(op['handoff'], 'handoff')), 'handoff') };
        return { ok: true };
      }),
    );
  }
  const before = json(await run.state(), 'state');
  const entries = (await run.state()).entries;
  const reopened = await impl.jcOpenRun(entries);
  const observed = inp['observed_uj'] === undefined ? undefined : Object.fromEntries(Object.entries(obj(inp['observed_uj'], 'observed_uj')).map(([k, v]) => [k, uint(v, k)]));
  const interrupted = await reopened.run.recover(observed);
  return { ops, state: before, reopened: { in_flight: reopened.in_flight, handoffs: json(reopened.handoffs, 'handoffs') }, interrupted, recovered: json(await reopened.run.state(), 'recovered') };
}

// ---- sense -----------------------------------------------------------------------------------------------------

/** A Sense event as JSON ({physical_ns, logical, source, trust, payload (hex), line, valid_time_ns?}) to the protocol's form. */
function senseEvent(v: Json, what: string): Record<string, CborInput> {
  const e = obj(v, what);
  return {
    physical_ns: uint(e['physical_ns'], `${what}.physical_ns`),
    logical: uint(e['logical'], `${what}.logical`),
    source: str(e['source'], `${what}.source`),
    trust: str(e['trust'], `${what}.trust`),
    payload: hex(e['payload'], `${what}.payload`),
    line: str(e['line'], `${what}.line`),
    ...(e['valid_time_ns'] !== undefined ? { valid_time_ns: uint(e['valid_time_ns'], `${what}.valid_time_ns`) } : {}),
  };
}

/** Dispatches a JouleClaw or Sense group kind; undefined for a kind this file does not run. */
export async function executeJc(impl: Implementation, type: GroupType, inp: JsonObject, decideFields: (s: JsonObject) => DecideFields): Promise<JsonObject | undefined> {
  switch (type) {
    case 'TreeHeadVerify':
      return refusal(async () => json(await impl.verifyTreeHead(hex(inp['head'], 'head'), str(inp['steward'], 'steward')), 'head') as JsonObject);
    case 'LogInclusion':
      return refusal(async () => {
        await impl.verifyLogInclusion(hex(inp['head'], 'head'), str(inp['steward'], 'steward'), hex(inp['receipt'], 'receipt'), uint(inp['index'], 'index'), hexList(inp['proof'], 'proof'));
        return { verdict: 'valid' };
      });
    case 'LogConsistency':
      return refusal(async () => {
        await impl.verifyLogConsistency(hex(inp['head1'], 'head1'), hex(inp['head2'], 'head2'), str(inp['steward'], 'steward'), hexList(inp['proof'], 'proof'));
        return { verdict: 'valid' };
      });
    case 'LogDecisions':
      return logDecisions(impl, inp, decideFields);
    case 'PolicyDigest':
      return refusal(async () => ({ digest: await impl.jcPolicyDigest(bigints(obj(inp['policy'], 'policy')) as unknown as JcPolicyFields) }));
    case 'PolicyEvaluate':
      // §9, §10.1: a fresh engine runs the steps; each sealed receipt's core as the implementation verifies it
      return refusal(async () => {
        const opts = { ...(inp['policy'] !== undefined ? { policy: bigints(obj(inp['policy'], 'policy')) as unknown as JcPolicyFields } : {}), ...(inp['steward_seed'] !== undefined ? { steward_seed: hex(inp['steward_seed'], 'steward_seed') } : {}) };
        const r = await impl.jcPolicyEvaluate(str(inp['engine_id'], 'engine_id'), arr(inp['steps'], 'steps').map((x) => bigints(x) as unknown as JcPolicyStep), opts);
        const sealed: Json[] = [];
        for (const x of r.results) if (x['receipt'] instanceof Uint8Array) sealed.push(json(await impl.jcVerifyPolicyReceipt(x['receipt']), 'sealed'));
        return { results: json(r.results, 'results'), audit: json(r.audit, 'audit'), sealed };
      });
    case 'PolicyReceiptSeal':
      return refusal(async () => {
        const f = bigints(obj(inp['fields'], 'fields')) as unknown as JcPolicyReceiptFields;
        const receipt = await impl.jcPolicyReceipt(hex(inp['steward_seed'], 'steward_seed'), f);
        return { receipt: toHex(receipt), core: json(await impl.jcVerifyPolicyReceipt(receipt), 'core') };
      });
    case 'PolicyReceiptVerify':
      return refusal(async () => {
        const opts = { ...(inp['steward'] !== undefined ? { steward: str(inp['steward'], 'steward') } : {}), ...(inp['binding'] === 'required' ? { binding: 'required' as const } : {}) };
        return { core: json(await impl.jcVerifyPolicyReceipt(hex(inp['receipt'], 'receipt'), opts), 'core') };
      });
    case 'CascadeBuild':
      return refusal(async () => ({ receipt: (await impl.jcBuildReceipt(inp['walk'])) as Json }));
    case 'CascadeCheck':
      return refusal(async () => ({ receipt: (await impl.jcCheckReceipt(inp['receipt'])) as Json }));
    case 'JcReceiptOpen':
      return refusal(async () => (await impl.jcOpenReceipt(hex(inp['receipt'], 'receipt'))) as unknown as JsonObject);
    case 'ContractCheck':
      return refusal(async () => ({ contract_hash: await impl.jcCheckContract(inp['contract']) }));
    case 'ContractVerify':
      return refusal(async () => {
        const r = await impl.jcVerifyContract(inp['contract'], inp['evidence']);
        return { verdict_json: r.verdict_json, verdict: r.verdict as Json };
      });
    case 'VerdictSeal':
      return refusal(async () => {
        const receipt = await impl.jcSealVerdict({
          steward_seed: hex(inp['steward_seed'], 'steward_seed'),
          id: str(inp['id'], 'id'),
          closed_at: str(inp['closed_at'], 'closed_at'),
          engine_id: str(inp['engine_id'], 'engine_id'),
          audit_sequence: uint(inp['audit_sequence'], 'audit_sequence'),
          verdict_json: str(inp['verdict_json'], 'verdict_json'),
          ...(inp['contract'] !== undefined ? { contract: inp['contract'] } : {}),
        });
        return { receipt: toHex(receipt), wire: (await impl.jcOpenVerdict(receipt, inp['contract'])) as Json };
      });
    case 'VerdictOpen':
      return refusal(async () => ({ wire: (await impl.jcOpenVerdict(hex(inp['receipt'], 'receipt'), inp['contract'])) as Json }));
    case 'HandoffCommands':
      return refusal(async () => {
        const run = await impl.jcStartRun(str(inp['run_id'], 'run_id'), []);
        const argvs = arr(inp['argvs'], 'argvs').map((a) => arr(a, 'argv').map((x) => str(x, 'argv[]')));
        const h = await run.handoff({ worker: str(inp['worker'], 'worker'), closed_at: uint(inp['closed_at'], 'closed_at'), commands: argvs.map((argv) => ({ argv, exit_code: 0n })) });
        return { command_hashes: (h['commands'] as { command_hash: string }[]).map((c) => c.command_hash) };
      });
    case 'JournalScript':
      return journalScript(impl, inp);
    case 'JournalOpen':
      return refusal(async () => {
        const r = await impl.jcOpenRun(hexList(inp['entries'], 'entries'));
        return { in_flight: r.in_flight, handoffs: json(r.handoffs, 'handoffs') };
      });
    case 'SenseEventId':
      return refusal(async () => (await impl.senseEventId(senseEvent(inp['event']!, 'event'))) as unknown as JsonObject);
    case 'SenseReplay':
      return refusal(async () => {
        const since = inp['since'] === undefined ? undefined : { physical_ns: uint(obj(inp['since'], 'since')['physical_ns'], 'since.physical_ns'), logical: uint(obj(inp['since'], 'since')['logical'], 'since.logical') };
        return (await impl.senseReplay(arr(inp['events'], 'events').map((e, i) => senseEvent(e, `events[${i}]`)), since)) as unknown as JsonObject;
      });
    case 'SenseGate':
      return refusal(async () => {
        const hs = arr(inp['highlights'], 'highlights').map((h, i) => ({ probe: str(obj(h, `highlights[${i}]`)['probe'], 'probe'), score: uint(obj(h, 'highlight')['score'], 'score') }));
        const u = obj(inp['user'], 'user');
        const user = { engagement_ppm: uint(u['engagement_ppm'], 'user.engagement_ppm'), active_modality: str(u['active_modality'], 'user.active_modality'), surface_modality: str(u['surface_modality'], 'user.surface_modality') };
        return { decisions: json(await impl.senseGate(hs, user, uint(inp['budget_uj'], 'budget_uj'), uint(inp['price_uj'], 'price_uj')), 'decisions') };
      });
    case 'SenseSeal':
      return refusal(async () => {
        const seed = hex(inp['host_seed'], 'host_seed');
        const r = await impl.senseSeal(seed, arr(inp['decisions'], 'decisions').map((d) => bigints(d) as Record<string, CborInput>));
        return { links: json(r.links, 'links'), link_ids: r.link_ids, verified: json(await impl.senseVerifyChain((await impl.fromSeed(seed)).did, r.links), 'verified') };
      });
    case 'SenseVerifyChain':
      return refusal(async () => (json(await impl.senseVerifyChain(str(inp['host'], 'host'), hexList(inp['links'], 'links')), 'verify') as JsonObject));
    default:
      return undefined;
  }
}
