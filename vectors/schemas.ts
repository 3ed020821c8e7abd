// The named JSON Schemas (draft 2020-12) of the conformance/v1 packs, one per pack kind, written by vectors/gen.ts
// into conformance/v1/schemas/ and checked against every pack by vectors/json-schema.ts. Built from shared pieces so
// the schemas cannot drift apart; each admits only the group kinds its pack holds.
import { GROUP_TYPES, JC_GROUP_TYPES, PROFILE_GROUP_TYPES, SENSE_GROUP_TYPES, schemaFile, type GroupType, type PackArea } from './model.ts';
import { PROPERTY_NAMES } from '../harness/property/differential.ts';
import { ANY_OBJ, CID, DID, ERROR, HEX, SEED, UINT, obj, type S } from './schema-parts.ts';
import { PROFILE_VECTOR_GROUPS } from './profiles/groups.ts';

const CAVEAT: S = { type: 'object', minProperties: 1, maxProperties: 1 };
const FUNDS: S = obj(['currency', 'minor'], { currency: { type: 'string' }, minor: UINT });
const GRANT_FIELDS: S = obj(['subject', 'resource', 'actions', 'budget_uj', 'expiry', 'nonce'], {
  subject: { type: 'string' },
  resource: { type: 'string' },
  actions: { type: 'array', items: { type: 'string' } },
  budget_uj: UINT,
  expiry: UINT,
  nonce: HEX,
  caveats: { type: 'array', items: CAVEAT },
  delegate_depth: UINT,
  budget_funds: FUNDS,
});
const MINTED: S = obj(['signed_grant', 'grant_id'], { signed_grant: HEX, grant_id: CID });
const CORE: S = { type: 'object', required: ['jcp_receipt', 'grant_id', 'verdict', 'steward'], properties: { jcp_receipt: { enum: ['jcp/1', 'jcp/2'] }, grant_id: CID, steward: DID, verdict: { enum: ['allow', 'deny'] } } };
const STEP_IN: S = obj(['frame', 'chain', 'caller', 'cost', 'now_s'], {
  frame: obj(['kind', 'trust', 'grant_id', 'action', 'resource', 'payload_hash'], {
    kind: { enum: ['tool-call', 'tool-result', 'agent-task', 'agent-reply'] },
    trust: { enum: ['control', 'data'] },
    grant_id: CID,
    action: { type: 'string' },
    resource: CID,
    payload_hash: CID,
    model: CID,
  }),
  chain: { type: 'array', items: HEX },
  caller: DID,
  cost: obj(['uj', 'provenance'], { uj: UINT, provenance: { enum: ['HwShunt', 'ModelBased', 'Estimator'] }, coverage: { const: 'Partial' } }),
  now_s: UINT,
  cost_funds: FUNDS,
});
const STEP_OUT: S = obj(['verdict', 'core', 'debited', 'spent'], {
  verdict: { enum: ['allow', 'deny'] },
  deny_reason: { type: 'string' },
  core: { anyOf: [CORE, ERROR] },
  debited: { type: 'array', items: CID },
  spent: { type: 'object', additionalProperties: UINT },
  spent_minor: { type: 'object', additionalProperties: UINT },
  receipt: HEX,
});

// jcp §5.2, §5.3 (efficiency.json): an energy figure as the testee protocol carries it (coverage only when Partial), a
// graded figure of a trace, and the fields of an efficiency/1 payload (open: a verifier's refusals are fed odd ones).
const PROVENANCE: S = { enum: ['HwShunt', 'ModelBased', 'Estimator'] };
const ENERGY: S = obj(['estimated_uj', 'provenance'], { measured_uj: UINT, estimated_uj: UINT, provenance: PROVENANCE, coverage: { const: 'Partial' } });
const FIGURE: S = obj(['uj', 'provenance'], { uj: UINT, provenance: PROVENANCE, coverage: { const: 'Partial' } });
const EFFICIENCY_PAYLOAD: S = { type: 'object' };

// ---- JouleClaw (jouleclaw §2, §7, §10, §16, §17, §22) and Sense (sense §2, §3, §5, §8) -------------------
// JSON documents the spec defines (walks, receipts, contracts, evidence, verdicts, policies) are open objects: their
// shape is the spec's, checked by the implementation under test, not by the pack schema.
const HASHES: S = { type: 'array', items: HEX };
const VALID: S = obj(['verdict'], { verdict: { const: 'valid' } });
const HEAD_FIELDS: S = obj(['size', 'root', 'timestamp'], { size: UINT, root: CID, timestamp: UINT });
const LOG_ENTRY: S = obj(['verdict'], { verdict: { enum: ['allow', 'deny'] }, deny_reason: { type: 'string' }, receipt: HEX, index: UINT, head: HEX, proof: HASHES });
const POLICY: S = obj(['version', 'rules'], { version: UINT, rules: { type: 'array', items: ANY_OBJ } });
const SENSE_EVENT: S = obj(['physical_ns', 'logical', 'source', 'trust', 'payload', 'line'], { physical_ns: UINT, logical: UINT, source: { type: 'string' }, trust: { type: 'string' }, payload: HEX, line: { type: 'string' }, valid_time_ns: UINT });
const HLC: S = obj(['physical_ns', 'logical'], { physical_ns: UINT, logical: UINT });
const CHAIN_VERIFIED: S = obj(['n'], { n: UINT, break: obj(['index', 'reason'], { index: UINT, reason: { type: 'string' } }) });
const RUN_STATE: S = obj(['ready', 'in_flight', 'held', 'completed', 'status', 'entries'], { ready: { type: 'array' }, in_flight: { type: 'array' }, held: { type: 'array' }, completed: { type: 'array' }, status: { type: 'string' }, entries: HASHES });
const JC_KINDS: Record<string, { inputs: S; expected: S }> = {
  TreeHeadVerify: { inputs: obj(['head', 'steward'], { head: HEX, steward: DID }), expected: { anyOf: [HEAD_FIELDS, ERROR] } },
  LogInclusion: { inputs: obj(['head', 'steward', 'receipt', 'index', 'proof'], { head: HEX, steward: DID, receipt: HEX, index: UINT, proof: HASHES }), expected: { anyOf: [VALID, ERROR] } },
  LogConsistency: { inputs: obj(['head1', 'head2', 'steward', 'proof'], { head1: HEX, head2: HEX, steward: DID, proof: HASHES }), expected: { anyOf: [VALID, ERROR] } },
  LogDecisions: {
    inputs: obj(['steward_seed', 'steps', 'head_now_s'], { steward_seed: SEED, steps: { type: 'array', minItems: 1, items: STEP_IN }, head_now_s: UINT }),
    expected: obj(['entries', 'head', 'head_fields', 'inclusion', 'consistency'], { entries: { type: 'array', items: LOG_ENTRY }, head: HEX, head_fields: HEAD_FIELDS, inclusion: { type: 'array', items: HASHES }, consistency: { type: 'array', items: HASHES } }),
  },
  PolicyDigest: { inputs: obj(['policy'], { policy: POLICY }), expected: { anyOf: [obj(['digest'], { digest: CID }), ERROR] } },
  PolicyEvaluate: {
    inputs: obj(['engine_id', 'steps'], { engine_id: { type: 'string' }, policy: POLICY, steward_seed: SEED, steps: { type: 'array', minItems: 1, items: ANY_OBJ } }),
    expected: { anyOf: [obj(['results', 'audit', 'sealed'], { results: { type: 'array', items: ANY_OBJ }, audit: { type: 'array', items: ANY_OBJ }, sealed: { type: 'array', items: ANY_OBJ } }), ERROR] },
  },
  PolicyReceiptSeal: { inputs: obj(['steward_seed', 'fields'], { steward_seed: SEED, fields: ANY_OBJ }), expected: { anyOf: [obj(['receipt', 'core'], { receipt: HEX, core: ANY_OBJ }), ERROR] } },
  PolicyReceiptVerify: { inputs: obj(['receipt'], { receipt: HEX, steward: DID, binding: { const: 'required' } }), expected: { anyOf: [obj(['core'], { core: ANY_OBJ }), ERROR] } },
  CascadeBuild: { inputs: obj(['walk'], { walk: ANY_OBJ }), expected: { anyOf: [obj(['receipt'], { receipt: ANY_OBJ }), ERROR] } },
  CascadeCheck: { inputs: obj(['receipt'], { receipt: ANY_OBJ }), expected: { anyOf: [obj(['receipt'], { receipt: ANY_OBJ }), ERROR] } },
  JcReceiptOpen: { inputs: obj(['receipt'], { receipt: HEX }), expected: { anyOf: [obj(['kind', 'jc_receipt'], { kind: { type: 'string' }, jc_receipt: { type: 'string' }, core: ANY_OBJ }), ERROR] } },
  ContractCheck: { inputs: obj(['contract'], { contract: ANY_OBJ }), expected: { anyOf: [obj(['contract_hash'], { contract_hash: CID }), ERROR] } },
  ContractVerify: { inputs: obj(['contract', 'evidence'], { contract: ANY_OBJ, evidence: { type: 'array' } }), expected: { anyOf: [obj(['verdict_json', 'verdict'], { verdict_json: { type: 'string' }, verdict: ANY_OBJ }), ERROR] } },
  VerdictSeal: {
    inputs: obj(['steward_seed', 'id', 'closed_at', 'engine_id', 'audit_sequence', 'verdict_json'], { steward_seed: SEED, id: { type: 'string' }, closed_at: { type: 'string' }, engine_id: { type: 'string' }, audit_sequence: UINT, verdict_json: { type: 'string' }, contract: ANY_OBJ }),
    expected: { anyOf: [obj(['receipt', 'wire'], { receipt: HEX, wire: ANY_OBJ }), ERROR] },
  },
  VerdictOpen: { inputs: obj(['receipt'], { receipt: HEX, contract: ANY_OBJ }), expected: { anyOf: [obj(['wire'], { wire: ANY_OBJ }), ERROR] } },
  HandoffCommands: {
    inputs: obj(['run_id', 'worker', 'closed_at', 'argvs'], { run_id: { type: 'string' }, worker: DID, closed_at: UINT, argvs: { type: 'array', minItems: 1, items: { type: 'array', items: { type: 'string' } } } }),
    expected: { anyOf: [obj(['command_hashes'], { command_hashes: { type: 'array', items: CID } }), ERROR] },
  },
  JournalScript: {
    inputs: obj(['run_id', 'nodes', 'ops'], { run_id: { type: 'string' }, nodes: { type: 'array', items: obj(['node_id'], { node_id: { type: 'string' }, replay: { enum: ['safe', 'never'] } }) }, ops: { type: 'array', items: ANY_OBJ }, observed_uj: { type: 'object', additionalProperties: UINT } }),
    expected: obj(['ops', 'state', 'reopened', 'interrupted', 'recovered'], { ops: { type: 'array', items: ANY_OBJ }, state: RUN_STATE, reopened: obj(['in_flight', 'handoffs'], { in_flight: { type: 'array' }, handoffs: { type: 'array' } }), interrupted: { type: 'array' }, recovered: RUN_STATE }),
  },
  JournalOpen: { inputs: obj(['entries'], { entries: HASHES }), expected: { anyOf: [obj(['in_flight', 'handoffs'], { in_flight: { type: 'array' }, handoffs: { type: 'array' } }), ERROR] } },
  SenseEventId: { inputs: obj(['event'], { event: SENSE_EVENT }), expected: { anyOf: [obj(['event_id', 'payload'], { event_id: CID, payload: CID }), ERROR] } },
  SenseReplay: { inputs: obj(['events'], { events: { type: 'array', items: SENSE_EVENT }, since: HLC }), expected: { anyOf: [obj(['event_ids', 'replay_digest'], { event_ids: { type: 'array', items: CID }, replay_digest: CID }), ERROR] } },
  SenseGate: {
    inputs: obj(['highlights', 'user', 'budget_uj', 'price_uj'], { highlights: { type: 'array', items: obj(['probe', 'score'], { probe: { type: 'string' }, score: UINT }) }, user: obj(['engagement_ppm', 'active_modality', 'surface_modality'], { engagement_ppm: UINT, active_modality: { type: 'string' }, surface_modality: { type: 'string' } }), budget_uj: UINT, price_uj: UINT }),
    expected: { anyOf: [obj(['decisions'], { decisions: { type: 'array', items: obj(['value', 'cost', 'outcome', 'charged_uj', 'budget_uj'], { value: UINT, cost: UINT, outcome: { enum: ['surface', 'hold:value', 'hold:budget'] }, charged_uj: UINT, budget_uj: UINT }) } }), ERROR] },
  },
  SenseSeal: { inputs: obj(['host_seed', 'decisions'], { host_seed: SEED, decisions: { type: 'array', minItems: 1, items: ANY_OBJ } }), expected: { anyOf: [obj(['links', 'link_ids', 'verified'], { links: HASHES, link_ids: { type: 'array', items: CID }, verified: CHAIN_VERIFIED }), ERROR] } },
  SenseVerifyChain: { inputs: obj(['host', 'links'], { host: DID, links: HASHES }), expected: { anyOf: [CHAIN_VERIFIED, ERROR] } },
};

// ---- the suite-defined profiles (spec-map/profiles.json; vectors/p-execute.ts) --------------------------------------
const TIER: S = { enum: ['L0', 'L1', 'L2', 'L3', 'L4'] };
const PROFILE_KINDS: Record<(typeof PROFILE_GROUP_TYPES)[number], { inputs: S; expected: S }> = {
  ValueCheck: {
    inputs: obj(['status', 'body_json', 'checks'], { status: UINT, body_json: { type: 'string' }, checks: { type: 'array', items: ANY_OBJ }, status_codes: { type: 'array', items: UINT } }),
    expected: { anyOf: [obj(['checks'], { checks: { type: 'array', items: obj(['passed'], { passed: { type: 'boolean' }, reason_names_kind: { type: 'boolean' } }) } }), ERROR] },
  },
  ValueAggregate: { inputs: obj(['reports'], { reports: { type: 'array', items: ANY_OBJ } }), expected: { anyOf: [obj(['mean'], { mean: { type: 'number', minimum: 0 } }), ERROR] } },
  WorkspaceWrites: {
    inputs: obj(['owner_seed', 'writes'], { owner_seed: SEED, writes: { type: 'array', minItems: 1, items: obj(['path', 'content'], { path: { type: 'string' }, content: HEX }) } }),
    expected: { anyOf: [obj(['writes', 'paths'], { writes: { type: 'array', items: { anyOf: [obj(['written'], { written: { const: true } }), ERROR] } }, paths: { type: 'array', items: { type: 'string' } } }), ERROR] },
  },
  SkillEmit: {
    inputs: obj(['name', 'description', 'body'], { name: { type: 'string' }, description: { type: 'string' }, body: { type: 'string' } }),
    expected: obj(['complies'], { complies: { const: true }, emitted: obj(['name', 'description'], { name: { type: 'string' }, description: { type: 'string' } }) }),
  },
  CascadeRun: {
    inputs: obj(['tiers'], { tiers: { type: 'array', minItems: 1, items: obj(['tier', 'outcome'], { tier: TIER, outcome: { enum: ['closes', 'unresolvable'] } }) } }),
    expected: { anyOf: [obj([], { invoked: { type: 'array', items: TIER }, resolved: TIER }), ERROR] },
  },
  ...(Object.assign({}, ...PROFILE_VECTOR_GROUPS.map((g) => g.kinds)) as Record<Exclude<(typeof PROFILE_GROUP_TYPES)[number], 'ValueCheck' | 'ValueAggregate' | 'WorkspaceWrites' | 'SkillEmit' | 'CascadeRun'>, { inputs: S; expected: S }>),
};

/** Each group kind's inputs and its expected outputs (success shape; a refusal is always `{error}`). */
const KINDS: Record<GroupType, { inputs: S; expected: S }> = {
  ...(JC_KINDS as Record<(typeof JC_GROUP_TYPES)[number] | (typeof SENSE_GROUP_TYPES)[number], { inputs: S; expected: S }>),
  ...PROFILE_KINDS,
  GrantMint: { inputs: obj(['issuer_seed', 'grant'], { issuer_seed: SEED, grant: GRANT_FIELDS }), expected: { anyOf: [MINTED, ERROR] } },
  GrantVerify: { inputs: obj(['signed_grant'], { signed_grant: HEX }), expected: { anyOf: [obj(['verdict', 'grant_id'], { verdict: { enum: ['valid', 'invalid'] }, grant_id: CID }), ERROR] } },
  Attenuate: {
    inputs: obj(['parent', 'holder_seed', 'child'], {
      parent: HEX,
      holder_seed: SEED,
      child: obj(['subject', 'nonce'], { subject: { type: 'string' }, nonce: HEX, actions: { type: 'array', items: { type: 'string' } }, budget_uj: UINT, expiry: UINT, delegate_depth: UINT, add_caveats: { type: 'array', items: CAVEAT }, budget_funds: FUNDS }),
    }),
    expected: { anyOf: [MINTED, ERROR] },
  },
  Decide: {
    inputs: obj(['steward_seed', 'steps'], {
      steward_seed: SEED,
      trust_roots: { type: 'object', additionalProperties: { type: 'array', items: DID } },
      revocations: { type: 'array', items: obj(['signed_revocation', 'grant'], { signed_revocation: HEX, grant: HEX }) },
      steps: { type: 'array', minItems: 1, items: STEP_IN },
    }),
    expected: obj(['steps'], { revocations: { type: 'array', items: { type: 'string' } }, steps: { type: 'array', minItems: 1, items: STEP_OUT } }),
  },
  ReceiptVerify: { inputs: obj(['receipt'], { receipt: HEX, steward: DID }), expected: { anyOf: [obj(['core'], { core: CORE }), ERROR] } },
  PolicyAuthor: {
    inputs: obj(['issuer_seed', 'grant', 'policy'], { issuer_seed: SEED, grant: HEX, policy: obj(['event_class', 'per_firing_uj', 'max_firings'], { event_class: CID, per_firing_uj: UINT, max_firings: UINT }) }),
    expected: { anyOf: [obj(['signed_policy', 'policy_id'], { signed_policy: HEX, policy_id: CID }), ERROR] },
  },
  StandingFire: {
    inputs: obj(['steward_seed', 'grant', 'policy', 'firings'], {
      steward_seed: SEED,
      grant: HEX,
      policy: HEX,
      firings: { type: 'array', minItems: 1, items: obj(['event_class', 'holder_seed', 'child'], { event_class: CID, holder_seed: SEED, child: obj(['subject', 'nonce'], { subject: DID, nonce: HEX }) }) },
    }),
    expected: obj(['firings', 'ledger'], { firings: { type: 'array', items: { anyOf: [MINTED, ERROR] } }, ledger: obj(['firings', 'cumulative_uj'], { firings: UINT, cumulative_uj: UINT }) }),
  },
  ChannelScript: {
    inputs: obj(['chain', 'members', 'points', 'ops'], {
      chain: { type: 'array', minItems: 1, items: HEX },
      members: { type: 'array', items: DID },
      points: { type: 'array', minItems: 1, items: SEED },
      ops: {
        type: 'array',
        minItems: 1,
        items: { anyOf: [obj(['at', 'spend_uj'], { at: UINT, spend_uj: UINT }), obj(['at', 'statement_to'], { at: UINT, statement_to: UINT }), obj(['at', 'apply'], { at: UINT, apply: HEX })] },
      },
    }),
    expected: obj(['ops', 'points'], {
      ops: { type: 'array', items: { type: 'object' } },
      points: { type: 'array', items: obj(['ledger'], { ledger: { type: 'object' }, overdraft_proof: HEX, overdraft_uj: UINT }) },
    }),
  },
  EfficiencySeal: {
    inputs: obj(['energy', 'accepted_tokens'], { energy: ENERGY, accepted_tokens: UINT }),
    expected: { anyOf: [obj(['payload', 'payload_cbor'], { payload: obj(['energy_uj', 'provenance', 'accepted_tokens'], { energy_uj: UINT, provenance: PROVENANCE, energy_coverage: { const: 'Partial' }, accepted_tokens: UINT, uj_per_accepted_token: UINT }), payload_cbor: HEX }), ERROR] },
  },
  EfficiencyRead: {
    inputs: obj(['payload'], { payload: EFFICIENCY_PAYLOAD }),
    expected: { anyOf: [obj(['energy_uj', 'provenance'], { energy_uj: UINT, provenance: PROVENANCE, coverage: { const: 'Partial' } }), ERROR] },
  },
  TaskTotal: { inputs: obj(['energy'], { energy: ENERGY }), expected: { anyOf: [obj(['total_uj'], { total_uj: UINT }), ERROR] } },
  // jcp §5.2 totals over efficiency/1 payloads: the sum, the provenance floor, Partial when any is, per-unit only when Whole
  EfficiencyTotals: {
    inputs: obj(['payloads', 'units'], { payloads: { type: 'array', minItems: 1, items: EFFICIENCY_PAYLOAD }, units: UINT }),
    expected: { anyOf: [obj(['energy_uj', 'provenance_floor', 'units'], { energy_uj: UINT, provenance_floor: PROVENANCE, coverage: { const: 'Partial' }, units: UINT, uj_per_unit: UINT }), ERROR] },
  },
  Trace: {
    inputs: obj(['outcome', 'activity_ids', 'activities'], { outcome: FIGURE, activity_ids: { type: 'array', items: CID }, activities: { type: 'object', additionalProperties: FIGURE } }),
    // residual_uj is signed (jcp §5.3: never clamped), so it has no minimum
    expected: { anyOf: [obj(['residual_uj', 'activities_uj', 'provenance'], { residual_uj: { type: 'integer' }, activities_uj: UINT, provenance: PROVENANCE, coverage: { const: 'Partial' } }), ERROR] },
  },
  // a promoted sequence (vectors/promoted.ts): the operations of harness/property/model.ts and, per step, what the
  // property compares (its own shapes: a step is an object, or one of the words skip / refused / ok)
  OpSequence: {
    inputs: obj(['property', 'ops'], { property: { enum: [...PROPERTY_NAMES] }, ops: { type: 'array', minItems: 1, items: { type: 'object', required: ['op'], properties: { op: { type: 'string' } } } } }),
    expected: { anyOf: [obj(['steps'], { steps: { type: 'array' } }), ERROR] },
  },
};

/** The group kinds each pack holds. */
export const PACK_KINDS: Readonly<Record<PackArea, readonly GroupType[]>> = {
  grants: ['GrantMint', 'GrantVerify', 'OpSequence'],
  chains: ['Attenuate', 'Decide'],
  decisions: ['Decide', 'OpSequence'],
  receipts: ['Decide', 'ReceiptVerify', 'OpSequence'],
  legacy_jcp1: ['ReceiptVerify'],
  caveats: ['GrantMint', 'Attenuate', 'Decide', 'OpSequence'],
  money: ['GrantMint', 'Attenuate', 'Decide', 'OpSequence'],
  standing: ['PolicyAuthor', 'StandingFire'],
  channels: ['ChannelScript'],
  efficiency: ['EfficiencySeal', 'EfficiencyRead', 'TaskTotal', 'Trace', 'EfficiencyTotals'],
  // JouleClaw and Sense
  jouleclaw_tlog: ['TreeHeadVerify', 'LogInclusion', 'LogConsistency', 'LogDecisions'],
  jouleclaw_policy: ['PolicyDigest', 'PolicyEvaluate', 'PolicyReceiptSeal', 'PolicyReceiptVerify'],
  jouleclaw_receipts: ['CascadeBuild', 'CascadeCheck', 'JcReceiptOpen', 'ContractCheck', 'ContractVerify', 'VerdictSeal', 'VerdictOpen', 'HandoffCommands', 'JournalScript', 'JournalOpen'],
  sense: ['SenseEventId', 'SenseReplay', 'SenseGate', 'SenseSeal', 'SenseVerifyChain'],
  // the suite-defined profiles (spec-map/profiles.json)
  profiles: [...PROFILE_GROUP_TYPES],
};

/** The JSON Schema of `area`'s pack. */
export function schemaFor(area: PackArea): S {
  const kinds = PACK_KINDS[area];
  const defs: S = {};
  for (const k of GROUP_TYPES) {
    if (!kinds.includes(k)) continue;
    defs[`${k}Test`] = obj(['tcId', 'case', 'comment', 'flags', 'clauses', 'result', 'inputs', 'expected'], {
      tcId: { type: 'integer', minimum: 1 },
      case: { type: 'string', pattern: '^[A-Za-z0-9^._-]+$' },
      comment: { type: 'string' },
      flags: { type: 'array', items: { type: 'string' } },
      clauses: { type: 'array', minItems: 1, items: { type: 'string', pattern: '^(jcp|jouleclaw|sense)/[0-9.]+#[a-z0-9-]+$' } },
      result: { enum: ['valid', 'invalid', 'acceptable'] },
      inputs: KINDS[k].inputs,
      expected: KINDS[k].expected,
    });
    defs[`${k}Group`] = obj(['type', 'tests'], { type: { const: k }, tests: { type: 'array', minItems: 1, items: { $ref: `#/$defs/${k}Test` } } });
  }
  return {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    $id: `https://jcp.example/conformance/v1/schemas/${schemaFile(area)}`,
    title: `JCP conformance/v1 ${area} vectors`,
    type: 'object',
    required: ['area', 'schema', 'generatorVersion', 'numberOfTests', 'header', 'notes', 'testGroups'],
    additionalProperties: false,
    properties: {
      area: { const: area },
      schema: { const: schemaFile(area) },
      generatorVersion: { type: 'string' },
      numberOfTests: { type: 'integer', minimum: 1 },
      header: { type: 'array', items: { type: 'string' } },
      notes: { type: 'object', additionalProperties: obj(['bugType', 'description', 'effect'], { bugType: { type: 'string' }, description: { type: 'string' }, effect: { type: 'string' } }) },
      testGroups: { type: 'array', minItems: 1, items: { oneOf: kinds.map((k) => ({ $ref: `#/$defs/${k}Group` })) } },
    },
    $defs: defs,
  };
}
