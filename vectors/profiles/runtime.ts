// profiles.json vectors of jouleclaw:P-CLAIMS (§1.2, §4), P-ORCHESTRATOR (§18.2), P-LOGGED (§22.3), P-SIDECAR (§6)
// and the clauses of P-WORKSPACE (§11 the verifier), P-RECEIPT (§7 tier tags) and P-HANDOFF (§17.2, §17.3) that no
// published vector names yet. Cases: ./runtime-cases.ts (expected answers from the spec's words); executor:
// ./runtime-execute.ts (only what the clauses decide, every permitted reading giving the same JSON).
import { ERROR, HEX, SEED, UINT, obj, type S } from '../schema-parts.ts';
import type { ProfileVectorGroup } from './group.ts';
import { runtimeCases } from './runtime-cases.ts';
import { RUNTIME_RUN } from './runtime-execute.ts';
import { RUNTIME_PROFILE_TYPES } from './runtime-kinds.ts';

type Kind = (typeof RUNTIME_PROFILE_TYPES)[number];

const STR: S = { type: 'string' };
const BOOL: S = { type: 'boolean' };
const STRS: S = { type: 'array', items: STR };
const TIER: S = { type: 'string', enum: ['L0', 'L1', 'L2', 'L3', 'L4'] };
const HEX64: S = { type: 'string', pattern: '^[0-9a-f]{64}$' };
/** A success shape, or a refusal. */
const orError = (s: S): S => ({ oneOf: [s, ERROR] });

const source = obj(['source', 'content', 'trust_tier', 'cost_uj', 'outcome'], { source: STR, content: HEX, trust_tier: UINT, cost_uj: UINT, outcome: { type: 'string', enum: ['closes', 'unresolvable'] } });
const feature = obj(['feature_id', 'worker', 'state', 'completed'], { feature_id: STR, worker: STR, state: { type: 'string', enum: ['mutates', 'reads'] }, completed: STRS });
const decideStep = obj(['frame', 'chain', 'caller', 'cost', 'now_s'], {
  frame: obj(['kind', 'trust', 'grant_id', 'action', 'resource', 'payload_hash'], { kind: STR, trust: STR, grant_id: HEX64, action: STR, resource: HEX64, payload_hash: HEX64 }),
  chain: { type: 'array', minItems: 1, items: HEX },
  caller: STR,
  cost: obj(['uj', 'provenance'], { uj: UINT, provenance: STR }),
  now_s: UINT,
});
const command = obj(['argv', 'exit_code'], { argv: { type: 'array', minItems: 1, items: STR }, exit_code: UINT });
const recordedCommand = obj(['command_hash', 'argv', 'exit_code'], { command_hash: HEX64, argv: { type: 'array', minItems: 1, items: STR }, exit_code: UINT });
const handoffFields = (cmd: S): S => ({ worker: STR, node_id: STR, feature_id: STR, closed_at: UINT, completed: STRS, undone: STRS, commands: { type: 'array', items: cmd }, issues_found: STRS, procedures_followed: STRS });
const node = obj(['node_id'], { node_id: STR, replay: { type: 'string', enum: ['safe', 'never'] } });
const runOp: S = {
  oneOf: [
    obj(['dispatch'], { dispatch: STR }),
    obj(['complete', 'energy_uj'], { complete: STR, energy_uj: UINT }),
    obj(['restart'], { restart: { const: true } }),
    obj(['recover'], { recover: { const: true } }),
  ],
};
const runAnswer: S = { oneOf: [obj(['ok'], { ok: { const: true } }), obj(['in_flight'], { in_flight: STRS }), obj(['interrupted'], { interrupted: STRS }), ERROR] };
const walkTool = obj(['tool_id', 'joules_uj', 'energy_provenance'], { tool_id: STR, joules_uj: UINT, energy_provenance: STR });
const walkClaim = obj(['source', 'content_hash', 'fetched_at', 'trust_tier'], { source: STR, content_hash: STR, fetched_at: STR, trust_tier: UINT });
const walkFields: S = { id: STR, closed_at: STR, input_hash: STR, tier: TIER, joules_uj: UINT, tools_touched: { type: 'array', items: walkTool }, claims: { type: 'array', items: walkClaim } };
const walk = obj(['id', 'closed_at', 'input_hash', 'tier', 'joules_uj', 'tools_touched', 'claims'], walkFields);

const kinds: ProfileVectorGroup<Kind>['kinds'] = {
  ClaimsResolve: {
    inputs: obj(['now', 'threshold', 'inference_cost_uj', 'sources'], { now: STR, threshold: UINT, inference_cost_uj: UINT, sources: { type: 'array', items: source } }),
    // resolution and what follows from it are left out where §1.2 does not bind and a source closes
    expected: orError(obj(['envelopes_whole', 'claims_retrieved'], { resolution: { type: 'string', enum: ['retrieval', 'L3', 'L4'] }, claims_empty: BOOL, cites_closing: BOOL, envelopes_whole: BOOL, claims_retrieved: BOOL })),
  },
  OrchestratorRun: {
    inputs: obj(['run_id', 'now_s', 'features'], { run_id: STR, now_s: UINT, features: { type: 'array', minItems: 1, items: feature } }),
    expected: orError(obj(['writers', 'readers'], { writers: { type: 'array', items: { type: 'string', pattern: '^(dispatch|complete|journal) ' } }, readers: { type: 'array', items: obj(['feature_id', 'events'], { feature_id: STR, events: STRS }) } })),
  },
  LoggedDecide: {
    inputs: obj(['steward_seed', 'grant_id', 'steps'], { steward_seed: SEED, log_seed: SEED, capacity: UINT, grant_id: HEX64, steps: { type: 'array', minItems: 1, items: decideStep } }),
    expected: orError(obj(['steps', 'spent_uj'], { steps: { type: 'array', items: { oneOf: [obj(['performed', 'recorded'], { performed: { const: true }, recorded: BOOL }), obj(['performed'], { performed: { const: false } })] } }, spent_uj: UINT })),
  },
  WorkspaceVerify: {
    inputs: obj(['manifest_json', 'signature'], { manifest_json: STR, signature: HEX }),
    expected: obj(['accepted'], { accepted: BOOL }),
  },
  SidecarVector: {
    inputs: obj(['vector'], { vector: obj(['tcId', 'inputs'], { tcId: UINT, comment: STR, flags: STRS, clauses: STRS, inputs: obj(['walk'], { walk }) }) }),
    expected: orError(obj(['tier', 'tool_ids', 'content_hashes'], { tier: STR, tool_ids: STRS, content_hashes: STRS })),
  },
  ReceiptTier: {
    inputs: obj(['walk', 'receipt'], { walk, receipt: obj(['jc_receipt', 'energy_provenance'], { jc_receipt: STR, energy_provenance: STR, ...walkFields }) }),
    expected: orError(obj(['built_tier', 'read_tier'], { built_tier: STR, read_tier: STR })),
  },
  HandoffRecord: {
    inputs: obj(['run_id', 'nodes', 'handoff'], { run_id: STR, nodes: { type: 'array', items: node }, handoff: obj(['worker', 'closed_at'], handoffFields(command)) }),
    expected: orError(obj(['event', 'handoff'], { event: STR, handoff: obj(['worker', 'closed_at'], handoffFields(recordedCommand)) })),
  },
  HandoffConsume: {
    inputs: obj(['entries'], { entries: { type: 'array', minItems: 1, items: HEX } }),
    expected: orError(obj(['handoffs', 'in_flight'], { handoffs: { type: 'array', items: obj(['worker', 'closed_at'], handoffFields(recordedCommand)) }, in_flight: STRS })),
  },
  RunDispatch: {
    inputs: obj(['run_id', 'nodes', 'ops'], { run_id: STR, nodes: { type: 'array', items: node }, ops: { type: 'array', minItems: 1, items: runOp } }),
    expected: orError(obj(['ops', 'in_flight'], { ops: { type: 'array', items: runAnswer }, in_flight: STRS })),
  },
};

export const runtimeGroup: ProfileVectorGroup<Kind> = {
  profiles: ['jouleclaw:P-CLAIMS', 'jouleclaw:P-ORCHESTRATOR', 'jouleclaw:P-LOGGED', 'jouleclaw:P-WORKSPACE', 'jouleclaw:P-SIDECAR', 'jouleclaw:P-RECEIPT', 'jouleclaw:P-HANDOFF'],
  types: RUNTIME_PROFILE_TYPES,
  kinds,
  flags: {
    FreshRetrieval: {
      bugType: 'PROVENANCE',
      description: 'A source whose fetch + extract costs less than the inference and whose trust tier is above the threshold closes the query: the resolution is by retrieval (not L3 Model or L4 Wire) and emits a whole ClaimProvenance envelope for the fact that closed it (jouleclaw §1.2, §4).',
      effect: 'The runtime synthesises from frozen weights what a fresh, trusted and cheaper source answers, or resolves by retrieval without saying where the fact came from.',
    },
    ModelFallback: {
      bugType: 'PROVENANCE',
      description: 'No retrieval closes the query, so the model resolves it: tagged L3 (Model, not L2 Embed), its claims array empty (jouleclaw §4).',
      effect: 'A synthesised answer is presented as retrieved, citing sources that did not close the query.',
    },
    RetrievalOpen: {
      bugType: 'PROVENANCE',
      description: 'A source closes the query but none meets both of §1.2\'s conditions (cost strictly below the inference, trust strictly above the threshold): retrieval or the model may resolve it; whatever is claimed is still a whole envelope of a source fetched, the hash of its bytes as fetched (jouleclaw §4).',
      effect: 'A claim names a source not fetched, or bytes other than those fetched: a fact presented as retrieved that was not.',
    },
    SerialDispatch: {
      bugType: 'DECISION_ORDER',
      description: 'Workers of features that mutate shared state are dispatched in feature order, each only after the one before returned and its handoff was on the run journal (jouleclaw §18.2); read-only fan-out is open.',
      effect: 'Two workers mutate shared state at once or out of plan order, and the journal no longer tells what happened in what order.',
    },
    HandoffBeforeNext: {
      bugType: 'DECISION_ORDER',
      description: "Each worker's handoff is recorded on the run journal after the worker returned it and before the next worker of shared state is dispatched (jouleclaw §18.2).",
      effect: 'The journal records a handoff out of order, or not at all, so the chain is no longer chronological.',
    },
    UnrecordedAction: {
      bugType: 'TRANSPARENCY_LOG',
      description: 'A decision the transparency log cannot record (the log full, or signing with a key other than the receipts\' sealer) is refused, not performed, and nothing is debited (jouleclaw §22.3, §22.2).',
      effect: 'An allow happens that no log entry will ever prove: the one outcome the log exists to make impossible.',
    },
    OwnerHandle: {
      bugType: 'IDENTITY_BINDING',
      description: "A SignedWorkspaceManifest whose owner.handle is not did:key of its owner.public_key (jouleclaw §8 derivation) is not accepted, even with a signature that verifies under the embedded key (jouleclaw §11); refused or read invalid alike.",
      effect: 'A manifest signed by one key is attributed to another identity.',
    },
    ReceiptPerVector: {
      bugType: 'CONFORMANCE_RECEIPT',
      description: "The receipt produced for a published cascade vector matches its canonical receipt's tier, tools_touched[].tool_id and claims[].content_hash, compared as multisets, nothing else (jouleclaw §6, §2).",
      effect: 'A runtime self-certifies on receipts that do not record the walk the vector published.',
    },
    TierTags: {
      bugType: 'VERSIONING',
      description: 'The cascade tier wire tags L0–L4 are carried as written through a receipt built and read (jouleclaw §7: never renumbered).',
      effect: 'Receipts of one version read as another tier in the next, and every energy comparison across versions is wrong.',
    },
    HandoffFields: {
      bugType: 'HANDOFF',
      description: 'A recorded handoff carries every field non-empty in the run under its HandoffRecorded discriminator, each command with command_hash = hex BLAKE3 over argv joined by NUL (jouleclaw §17.1, §17.2); an empty list may be written or left out.',
      effect: 'The next worker reads a handoff missing what was done, left undone or run.',
    },
    AdditiveFields: {
      bugType: 'HANDOFF',
      description: 'A consumer reads a chained journal whose handoffs or events carry fields, or variants, it does not know (jouleclaw §17.2: the variant set is open); a field added after its entry was hashed is an edit and breaks the chain.',
      effect: 'A later minor version of a producer makes every earlier consumer refuse its journals, or an edit passes as an extension.',
    },
    InFlight: {
      bugType: 'DURABILITY',
      description: 'A dispatched node not yet recorded is in flight and is not dispatched again, before or after a restart (jouleclaw §17.3); the refusal codes are the suite\'s.',
      effect: 'A restarted run repeats work it already did outside the run: a message sent twice, a payment made twice.',
    },
  },
  cases: runtimeCases,
  run: RUNTIME_RUN,
  // jouleclaw §1.2: where a source closes the query but none meets both conditions, the testee may resolve by retrieval
  // or by the model, so the expected answer leaves out the resolution and what follows from it
  open: ['ClaimsResolve'],
};
