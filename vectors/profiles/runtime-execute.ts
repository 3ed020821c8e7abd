// Runs one profiles.json vector of the runtime group (vectors/profiles/runtime.ts) through the profiles' testee
// operations (harness/protocol/profiles/runtime.md, documents.md; harness/PROTOCOL.md for tlog.* and jc.*) and reports
// only what the profiles' clauses decide, read the way their conformance tests read the answer, so that every reading
// the spec permits gives the same JSON:
//   - claims.resolve (jouleclaw §1.2, §4): whether the resolution is by retrieval (any tier but L3 and L4: its tag is
//     the testee's) or by the model (L3 or L4, as answered), and five facts of its claims array — never the array
//     itself, since which qualifying sources a testee fetches, in what order, and at what instant is its own;
//   - orchestrator.run (§18.2): the trace projected on the features that mutate shared state (whose order §18.2 fixes)
//     and, for each read-only feature, its own events in order (their timing against the others is open);
//   - tlog.decide (§22.3): per decision whether the action was performed (allow) and, if so, whether it was recorded;
//     a deny and a refused call alike perform nothing. Then what the point debited;
//   - workspace.verify (§11): accepted or not (a handle that is not its key's may be refused or read invalid);
//   - sidecar.run-vector (§6): the receipt's tier, tool ids and content hashes, the last two as sorted multisets;
//   - jc.receipt.build / jc.receipt.check (§7): the tier tag each carries;
//   - the run journal (§17): a handoff as recorded on the journal (its discriminator, its non-empty fields: an empty
//     list may be written or left out), the handoffs a consumer reads from a journal, each op of a scripted run.
// Refusals of the whole vector are `{ error: code }` (the dispatch in vectors/p-execute.ts wraps each call).
import { blake3 as nobleBlake3 } from '@noble/hashes/blake3.js';
import { TesteeError, type DecideFields, type Implementation } from '../../harness/implementation.ts';
import { handoffIn, nodesIn, refusal } from '../jc-execute.ts';
import type { KindExecutor } from './group.ts';
import type { RUNTIME_PROFILE_TYPES } from './runtime-kinds.ts';
import { toHex } from '../../impl/bytes.ts';
import { decodeCanonical, type CborValue } from '../../impl/cbor/index.ts';
import type { Json, JsonObject } from '../model.ts';
import { arr, hex, obj, str, text, uint } from '../inputs.ts';

type Kind = (typeof RUNTIME_PROFILE_TYPES)[number];

/** A member of a decoded map or a plain object. */
const field = (m: unknown, k: string): unknown => (m instanceof Map ? m.get(k) : m !== null && typeof m === 'object' && !Array.isArray(m) ? (m as Record<string, unknown>)[k] : undefined);
const num = (v: unknown): number | undefined => (typeof v === 'number' ? v : typeof v === 'bigint' ? Number(v) : undefined);
const small = (v: Json | undefined, what: string): number => Number(uint(v, what));

// ---- jouleclaw:P-CLAIMS (§1.2, §4) ------------------------------------------------------------------------------

/** RFC 3339 date-time (§4 "fetched_at": "<rfc 3339>"). */
const RFC3339 = /^\d{4}-\d{2}-\d{2}[Tt ]\d{2}:\d{2}:\d{2}(\.\d+)?([Zz]|[+-]\d{2}:\d{2})$/;
const HEX64 = /^[0-9a-f]{64}$/;
/** The tiers that synthesise from weights (§1.1's L3 Model, L4 Wire): any other tag is a resolution by retrieval. */
const MODEL_TIERS = ['L3', 'L4'];

/**
 * claims.resolve: `resolution` ("retrieval", or the model tier answered), and of the claims array: `claims_empty`,
 * `cites_closing` (a claim names a source whose content closes the query), `envelopes_whole` (every claim a whole §4
 * envelope: non-empty source, 64 lowercase hex content_hash, RFC 3339 fetched_at, trust_tier 0..10 and, for an
 * offered source, its hash and tier), `claims_retrieved` (every claim names an offered source with BLAKE3 of its bytes).
 */
async function claimsResolve(impl: Implementation, inp: JsonObject): Promise<JsonObject> {
  const sources = arr(inp['sources'], 'sources').map((x, i) => {
    const s = obj(x, `sources[${i}]`);
    return { source: str(s['source'], 'source'), content: hex(s['content'], 'content'), trust_tier: small(s['trust_tier'], 'trust_tier'), cost_uj: small(s['cost_uj'], 'cost_uj'), outcome: str(s['outcome'], 'outcome') };
  });
  const r = await impl._call('claims.resolve', { now: str(inp['now'], 'now'), threshold: small(inp['threshold'], 'threshold'), inference_cost_uj: small(inp['inference_cost_uj'], 'inference_cost_uj'), sources });
  const tier = text(r.get('tier'), 'a tier');
  const claims = r.get('claims');
  if (!Array.isArray(claims)) throw new Error('claims.resolve answered no claims array');
  const offered = (c: unknown) => sources.find((s) => s.source === field(c, 'source'));
  const hashOf = (s: (typeof sources)[number]): string => toHex(nobleBlake3(s.content));
  const whole = (c: unknown): boolean => {
    const source = field(c, 'source');
    const hash = field(c, 'content_hash');
    const at = field(c, 'fetched_at');
    const t = num(field(c, 'trust_tier'));
    const s = offered(c);
    return typeof source === 'string' && source !== '' && typeof hash === 'string' && HEX64.test(hash) && typeof at === 'string' && RFC3339.test(at) && t !== undefined && t >= 0 && t <= 10 && (s === undefined || (hash === hashOf(s) && t === s.trust_tier));
  };
  return {
    resolution: MODEL_TIERS.includes(tier) ? tier : 'retrieval',
    claims_empty: claims.length === 0,
    cites_closing: claims.some((c) => offered(c)?.outcome === 'closes'),
    envelopes_whole: claims.every(whole),
    claims_retrieved: claims.every((c) => {
      const s = offered(c);
      return s !== undefined && field(c, 'content_hash') === hashOf(s);
    }),
  };
}

// ---- jouleclaw:P-ORCHESTRATOR (§18.2) ---------------------------------------------------------------------------

/**
 * orchestrator.run: `writers`, the trace's events of the features that mutate shared state, in trace order, as
 * "event feature_id"; `readers`, for each read-only feature in plan order, its own events in trace order.
 */
async function orchestratorRun(impl: Implementation, inp: JsonObject): Promise<JsonObject> {
  const features = arr(inp['features'], 'features').map((x, i) => {
    const f = obj(x, `features[${i}]`);
    return { feature_id: str(f['feature_id'], 'feature_id'), worker: str(f['worker'], 'worker'), state: str(f['state'], 'state'), completed: arr(f['completed'], 'completed').map((c) => str(c, 'completed[]')) };
  });
  const r = await impl._call('orchestrator.run', { run_id: str(inp['run_id'], 'run_id'), now_s: small(inp['now_s'], 'now_s'), features });
  const trace = r.get('trace');
  if (!Array.isArray(trace)) throw new Error('orchestrator.run answered no trace array');
  const steps = trace.map((s) => ({ event: String(field(s, 'event')), feature_id: String(field(s, 'feature_id')) }));
  const writers = new Set(features.filter((f) => f.state === 'mutates').map((f) => f.feature_id));
  return {
    writers: steps.filter((s) => writers.has(s.feature_id)).map((s) => `${s.event} ${s.feature_id}`),
    readers: features.filter((f) => f.state !== 'mutates').map((f) => ({ feature_id: f.feature_id, events: steps.filter((s) => s.feature_id === f.feature_id).map((s) => s.event) })),
  };
}

// ---- jouleclaw:P-LOGGED (§22.3) ---------------------------------------------------------------------------------

/** A decision request as JSON (the form of vectors/jouleclaw_tlog.json's LogDecisions steps). */
function decideIn(s: JsonObject): DecideFields {
  const f = obj(s['frame'], 'frame');
  const c = obj(s['cost'], 'cost');
  return {
    frame: { kind: str(f['kind'], 'frame.kind'), trust: str(f['trust'], 'frame.trust'), grant_id: str(f['grant_id'], 'frame.grant_id'), action: str(f['action'], 'frame.action'), resource: str(f['resource'], 'frame.resource'), payload_hash: str(f['payload_hash'], 'frame.payload_hash') },
    chain: arr(s['chain'], 'chain').map((b, i) => hex(b, `chain[${i}]`)),
    caller: str(s['caller'], 'caller'),
    cost: { uj: uint(c['uj'], 'cost.uj'), provenance: str(c['provenance'], 'cost.provenance') },
    now_s: uint(s['now_s'], 'now_s'),
  };
}

/**
 * tlog.decide: a fresh point sealing with `steward_seed`, a fresh log signing with `log_seed` (the steward's unless
 * given) holding at most `capacity` entries (unbounded unless given); each step `{performed: true, recorded}` for an
 * allow, `{performed: false}` for a deny or a refusal; then `spent_uj`, what the point debited `grant_id`.
 */
async function loggedDecide(impl: Implementation, inp: JsonObject): Promise<JsonObject> {
  const seed = hex(inp['steward_seed'], 'steward_seed');
  const point = await impl.newPoint(seed);
  const log = await impl.newLog(inp['log_seed'] === undefined ? seed : hex(inp['log_seed'], 'log_seed'), inp['capacity'] === undefined ? undefined : uint(inp['capacity'], 'capacity'));
  const steps: Json[] = [];
  for (const [i, s] of arr(inp['steps'], 'steps').entries()) {
    const d = decideIn(obj(s, `steps[${i}]`));
    try {
      const r = await log.decide(point, d);
      steps.push(r.verdict === 'allow' ? { performed: true, recorded: r.entry !== undefined } : { performed: false });
    } catch (e) {
      if (!(e instanceof TesteeError)) throw e;
      steps.push({ performed: false });
    }
  }
  return { steps, spent_uj: Number(await point.spent(str(inp['grant_id'], 'grant_id'))) };
}

// ---- jouleclaw:P-WORKSPACE (§11) --------------------------------------------------------------------------------

/** workspace.verify: `accepted` only on the verdict "valid"; "invalid" and a refusal are both not accepting it. */
async function workspaceVerify(impl: Implementation, inp: JsonObject): Promise<JsonObject> {
  try {
    const v = (await impl._call('workspace.verify', { manifest_json: str(inp['manifest_json'], 'manifest_json'), signature: hex(inp['signature'], 'signature') })).get('verdict');
    return { accepted: v === 'valid' };
  } catch (e) {
    if (e instanceof TesteeError) return { accepted: false };
    throw e;
  }
}

// ---- jouleclaw:P-SIDECAR (§6) -----------------------------------------------------------------------------------

/** sidecar.run-vector: the receipt's `tier`, its `tool_ids` and `content_hashes` sorted (§6 "matches": as multisets). */
async function sidecarVector(impl: Implementation, inp: JsonObject): Promise<JsonObject> {
  const r = await impl._call('sidecar.run-vector', { vector_json: JSON.stringify(obj(inp['vector'], 'vector')) });
  const got = JSON.parse(text(r.get('receipt_json'), 'receipt_json')) as Record<string, unknown>;
  const list = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);
  return {
    tier: String(got['tier']),
    tool_ids: list(got['tools_touched']).map((t) => String(field(t, 'tool_id'))).sort(),
    content_hashes: list(got['claims']).map((c) => String(field(c, 'content_hash'))).sort(),
  };
}

// ---- jouleclaw:P-RECEIPT (§7) -----------------------------------------------------------------------------------

/** jc.receipt.build of `walk` and jc.receipt.check of `receipt`: the tier tag each answers. */
async function receiptTier(impl: Implementation, inp: JsonObject): Promise<JsonObject> {
  const built = await impl.jcBuildReceipt(obj(inp['walk'], 'walk'));
  const read = await impl.jcCheckReceipt(obj(inp['receipt'], 'receipt'));
  return { built_tier: String(built['tier']), read_tier: String(read['tier']) };
}

// ---- jouleclaw:P-HANDOFF (§17) ----------------------------------------------------------------------------------

const HANDOFF_LISTS = ['completed', 'undone', 'issues_found', 'procedures_followed'] as const;

/**
 * A handoff (decoded CBOR map or plain object) as JSON: §17.1's fields only (an additive field is the producer's or a
 * later minor's), integers as numbers, and an empty list left out (§17.2 "empty lists are acceptable": written or not).
 */
function handoffJson(h: unknown): JsonObject {
  const out: JsonObject = {};
  for (const k of ['worker', 'node_id', 'feature_id']) {
    const v = field(h, k);
    if (v !== undefined && v !== null) out[k] = String(v);
  }
  const at = num(field(h, 'closed_at'));
  out['closed_at'] = at === undefined ? String(field(h, 'closed_at')) : at;
  for (const k of HANDOFF_LISTS) {
    const v = field(h, k);
    if (Array.isArray(v) && v.length > 0) out[k] = v.map(String);
  }
  const cmds = field(h, 'commands');
  if (Array.isArray(cmds) && cmds.length > 0) {
    out['commands'] = cmds.map((c) => {
      const argv = field(c, 'argv');
      return { command_hash: String(field(c, 'command_hash')), argv: Array.isArray(argv) ? argv.map(String) : String(argv), exit_code: num(field(c, 'exit_code')) ?? String(field(c, 'exit_code')) };
    });
  }
  return out;
}

/**
 * A fresh run `run_id` over `nodes`, the handoff recorded (jc.run.handoff); then, from the run's journal (the suite's
 * entry bytes, harness/protocol/testee.cddl), the event that holds the handoff (whatever else the producer journals
 * beside it, a node it closes say): its `event` discriminator and the handoff; `{event: "none"}` if no event holds one.
 */
async function handoffRecord(impl: Implementation, inp: JsonObject): Promise<JsonObject> {
  const run = await impl.jcStartRun(str(inp['run_id'], 'run_id'), nodesIn(inp['nodes']));
  await run.handoff(handoffIn(inp['handoff'], 'handoff'));
  const events = (await run.state()).entries.map((e) => field(decodeCanonical(e) as CborValue, 'event'));
  const ev = events.filter((e) => field(e, 'handoff') !== undefined).at(-1);
  if (ev === undefined) return { event: 'none' };
  return { event: String(field(ev, 'event')), handoff: handoffJson(field(ev, 'handoff')) };
}

/** jc.run.open of the journal `entries` (hex): the handoffs the consumer reads, and the nodes it finds in flight (sorted). */
async function handoffConsume(impl: Implementation, inp: JsonObject): Promise<JsonObject> {
  const r = await impl.jcOpenRun(arr(inp['entries'], 'entries').map((e, i) => hex(e, `entries[${i}]`)));
  return { handoffs: r.handoffs.map(handoffJson), in_flight: [...r.in_flight].sort() };
}

/**
 * A fresh run over `nodes`, then `ops` in order — {dispatch}, {complete, energy_uj}, {restart} (the run reopened from
 * its journal entries, as after the process died: the nodes it finds in flight, sorted), {recover} (the nodes marked
 * interrupted, sorted) — each answered or refused; then the nodes in flight at the end, sorted.
 */
async function runDispatch(impl: Implementation, inp: JsonObject): Promise<JsonObject> {
  let run = await impl.jcStartRun(str(inp['run_id'], 'run_id'), nodesIn(inp['nodes']));
  const ops: Json[] = [];
  for (const [i, x] of arr(inp['ops'], 'ops').entries()) {
    const op = obj(x, `ops[${i}]`);
    ops.push(
      await refusal(async () => {
        if (op['dispatch'] !== undefined) await run.dispatch(str(op['dispatch'], 'dispatch'));
        else if (op['complete'] !== undefined) await run.complete(str(op['complete'], 'complete'), uint(op['energy_uj'], 'energy_uj'));
        else if (op['restart'] !== undefined) {
          const o = await impl.jcOpenRun((await run.state()).entries);
          run = o.run;
          return { in_flight: [...o.in_flight].sort() };
        } else if (op['recover'] !== undefined) return { interrupted: [...(await run.recover())].sort() };
        else throw new Error(`ops[${i}] is no op of RunDispatch`);
        return { ok: true };
      }),
    );
  }
  return { ops, in_flight: [...(await run.state()).in_flight].sort() };
}

/** Each kind's executor (vectors/p-execute.ts turns a refusal into { error: code }). */
export const RUNTIME_RUN: Readonly<Record<Kind, KindExecutor>> = {
  ClaimsResolve: claimsResolve,
  OrchestratorRun: orchestratorRun,
  LoggedDecide: loggedDecide,
  WorkspaceVerify: workspaceVerify,
  SidecarVector: sidecarVector,
  ReceiptTier: receiptTier,
  HandoffRecord: handoffRecord,
  HandoffConsume: handoffConsume,
  RunDispatch: runDispatch,
};
