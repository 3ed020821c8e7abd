// Clause mutants of the suite-defined profiles jouleclaw:P-POLICY, jouleclaw:P-RECEIPT: source patches of copies of impl/ modules
// (mutation/testees/patches.ts), filed under each profile in the kill matrix.
import type { Mutant, Unbroken } from '../catalog.ts';
import type { SourcePatch } from '../testees/patches.ts';
import { P } from './applied.ts';

const ID = 'impl/jouleclaw/identity.ts';
const POL = 'impl/jouleclaw/policy.ts';
const DIG = 'impl/jouleclaw/policy-digest.ts';
const PRC = 'impl/jouleclaw/policy-receipt.ts';
const RCP = 'impl/jouleclaw/receipt.ts';
const VER = 'impl/jouleclaw/versioning.ts';
const POLICY = 'jouleclaw:P-POLICY';
const RECEIPT = 'jouleclaw:P-RECEIPT';

export const RECORDS_PROFILE_MUTANTS: readonly Mutant[] = [
  // ---- jouleclaw:P-POLICY (jouleclaw §8, §9, §10.1) ----
  { id: 'jc-agent-handle-unchecked', clauses: ['jouleclaw/8#verify-handle-matches-key'], class: POLICY, description: "an agent identity is accepted whatever its handle: the handle is never compared with the did:key of its public key, so a valid signature under another agent's handle is accepted", applied: `${P(ID)} checkAgentIdentity skips the handle == did:key(public_key) comparison` },
  { id: 'jc-policy-allow-by-default', clauses: ['jouleclaw/9#engine-deny-by-default'], class: POLICY, description: 'an action that no Allow rule matches is allowed (allow-by-default), not denied', applied: `${P(POL)} decidePolicy's fall-through returns an Allow instead of Deny NoMatchingAllow` },
  { id: 'jc-policy-mode-ignored', clauses: ['jouleclaw/9#engine-deny-by-default'], class: POLICY, description: 'a filesystem Allow covers every mode of its paths: a rule allowing reads also allows writes (filesystem granularity lost)', applied: `${P(POL)} predicateMatches compares a filesystem action's path only, not its mode` },
  { id: 'jc-policy-denial-unaudited', clauses: ['jouleclaw/9#audit-event-per-evaluation'], class: POLICY, description: 'only allowed evaluations record an AuditEvent; denials leave no event in the audit log', applied: `${P(POL)} evaluate appends its event to the log only when the decision is an Allow` },
  { id: 'jc-policy-digest-rule-order-dropped', clauses: ['jouleclaw/10.1#digest-computed-as-specified'], class: POLICY, description: 'policy_digest hashes the rules sorted by name, not in policy order: two orderings of the same rules share a digest', applied: `${P(DIG)} policyDigestPreimage writes the rules sorted by name` },
  { id: 'jc-policy-digest-ports-normalised', clauses: ['jouleclaw/10.1#digest-computed-as-specified'], class: POLICY, description: 'policy_digest hashes a port range normalised (min, max), not as written: a reversed range hashes like the forward one', applied: `${P(DIG)} the network rule's from/to are written as min(from, to), max(from, to)` },
  { id: 'jc-policy-digest-version-folded', clauses: ['jouleclaw/10.1#digest-computed-as-specified'], class: POLICY, description: "policy_digest folds the policy's version into the preimage, so one ruleset hashes differently per installation", applied: `${P(DIG)} policyDigestPreimage writes the version (8 bytes BE) before rule_count` },
  { id: 'jc-policy-digest-agents-unsorted', clauses: ['jouleclaw/10.1#agent-order-same-digest'], class: POLICY, description: 'an agents:one_of list is hashed in the order written, not sorted: two policies differing only in agent order get different digests', applied: `${P(DIG)} the agent ids are listed as written, without the sort` },
  { id: 'jc-policy-digest-current-not-decided', clauses: ['jouleclaw/10.1#digest-in-force-at-decision'], class: POLICY, description: "an audit event (and so the receipt sealed from it) carries the digest of the engine's current policy, read when it is sealed, not the digest in force when the decision was made", applied: `${P(POL)} evaluate's event reads policy_digest from the engine's current digest (a getter), not the value at decision time` },
  { id: 'jc-policy-digest-absent-as-empty', clauses: ['jouleclaw/10.1#absent-digest-omitted'], class: POLICY, description: 'a receipt without the binding carries policy_digest as an empty string in its signed core instead of omitting the key', applied: `${P(PRC)} the signed core writes policy_digest ?? '' ` },
  { id: 'jc-policy-digest-empty-accepted', clauses: ['jouleclaw/10.1#absent-digest-omitted'], class: POLICY, description: 'a policy_digest given as an empty string (or any text) is accepted and sealed into the signed core', applied: `${P(PRC)} checkPolicyReceiptFields skips the 64-hex-digit check on a present policy_digest` },
  { id: 'jc-policy-binding-defaulted', clauses: ['jouleclaw/10.1#consumer-checks-digest-presence'], class: POLICY, description: 'a consumer that requires the binding accepts a receipt without policy_digest (its absence is not checked)', applied: `${P(PRC)} verifyPolicyReceipt skips the presence check under requireDigest` },
  { id: 'jc-policy-kid-trusted', clauses: ['jouleclaw/10.1#reject-kid-not-steward'], class: POLICY, description: "a policy receipt is verified under the key its kid names, never compared with the embedded steward: a core naming one steward, signed by another key under that key's kid, is accepted", applied: `${P(PRC)} verifyPolicyReceipt skips kid == steward and verifies the signature under did:key(kid)` },
  // ---- jouleclaw:P-RECEIPT (jouleclaw §2, §7) ----
  { id: 'jc-receipt-ledger-truncated', clauses: ['jouleclaw/2#one-receipt-per-walk'], class: RECEIPT, description: "the receipt built for a walk carries only the first tool call of the walk's tools_touched: the receipt is not the walk's", applied: `${P(RCP)} buildCascadeReceipt returns tools_touched cut to its first entry` },
  { id: 'jc-receipt-toolless-walk-refused', clauses: ['jouleclaw/2#one-receipt-per-walk'], class: RECEIPT, description: 'a walk that touched no tool (an L0 cache hit) gets no receipt: it is refused as malformed even when it states its provenance', applied: `${P(RCP)} buildCascadeReceipt refuses a walk whose tools_touched is empty` },
  { id: 'jc-receipt-provenance-best', clauses: ['jouleclaw/2#receipt-provenance-is-worst'], class: RECEIPT, description: "a receipt's energy_provenance is the best counter across tools_touched, not the worst", applied: `${P(RCP)} worstProvenance keeps the better grade at each step` },
  { id: 'jc-receipt-provenance-unchecked', clauses: ['jouleclaw/2#receipt-provenance-is-worst'], class: RECEIPT, description: 'a stated energy_provenance other than the worst across tools_touched (an overclaim too) is accepted, built and read', applied: `${P(RCP)} checkWorstProvenance never refuses` },
  { id: 'jc-receipt-tiers-renumbered', clauses: ['jouleclaw/7#no-renumber-tiers'], class: RECEIPT, description: 'a tier inserted after L1 renumbers the existing ones: an L2 walk is carried as L3, L3 as L4, L4 as L5', applied: `${P(RCP)} readBody maps L2, L3, L4 to L3, L4, L5` },
  { id: 'jc-receipt-unknown-major-read', clauses: ['jouleclaw/7#unknown-major-rejected'], class: RECEIPT, description: 'a JSON receipt of an unknown major ("2", "0") is read as the major this implementation knows', applied: `${P(VER)} expectSchema compares the namespace only, not the major` },
  { id: 'jc-receipt-unknown-major-opened', clauses: ['jouleclaw/7#unknown-major-rejected'], class: RECEIPT, description: 'a sealed receipt of an unknown major of a known namespace ("2", "policy/2") is opened as that namespace', applied: `${P(VER)} receiptKindOf skips the major check` },
  { id: 'jc-receipt-minor-refused', clauses: ['jouleclaw/7#unknown-minor-ignored'], class: RECEIPT, description: 'a receipt of a later minor ("1.3") is refused instead of read under its major', applied: `${P(VER)} expectSchema refuses any tag that carries a minor` },
  { id: 'jc-receipt-unknown-fields-refused', clauses: ['jouleclaw/7#unknown-minor-ignored'], class: RECEIPT, description: 'a cascade receipt carrying a field this schema does not define is refused instead of read by ignoring it', applied: `${P(RCP)} parseCascadeReceipt refuses top-level keys outside the §2 fields` },
  { id: 'jc-receipt-namespace-ignored', clauses: ['jouleclaw/7#prefixed-namespace'], class: RECEIPT, description: 'the reader dispatches on the major alone, not the prefixed namespace: "mission-report/1" (or any "<name>/1") is opened as a cascade receipt', applied: `${P(VER)} receiptKindOf skips the namespace comparison` },
  { id: 'jc-receipt-unknown-namespace-refused', clauses: ['jouleclaw/7#prefixed-namespace'], class: RECEIPT, description: 'a receipt under a prefixed namespace this reader does not know is refused as an unknown schema instead of dispatched as unknown and skipped', applied: `${P(VER)} receiptKindOf throws ERR_JC_SCHEMA_UNKNOWN for an unknown namespace` },
];

export const RECORDS_PROFILE_PATCHES: Readonly<Record<string, readonly SourcePatch[]>> = {
  // ---- jouleclaw:P-POLICY ----
  'jc-agent-handle-unchecked': [{ file: ID, find: 'if (identity.handle !== expected)', replace: 'if (false && identity.handle !== expected)' }],
  'jc-policy-allow-by-default': [{ file: POL, find: "return Object.freeze({ kind: 'deny', reason: 'no_matching_allow' });", replace: "return Object.freeze({ kind: 'allow', rule: 'default' });" }],
  'jc-policy-mode-ignored': [{ file: POL, find: "return globMatch(p.path_glob, action.path, '/') && p.modes.includes(action.mode);", replace: "return globMatch(p.path_glob, action.path, '/');" }],
  'jc-policy-denial-unaudited': [{ file: POL, find: 'log.push(ev);', replace: "if (decision.kind === 'allow') log.push(ev);" }],
  'jc-policy-digest-rule-order-dropped': [{ file: DIG, find: 'for (const r of policy.rules) _rule(p, r);', replace: 'for (const r of [...policy.rules].sort((x, y) => (x.name < y.name ? -1 : x.name > y.name ? 1 : 0))) _rule(p, r);' }],
  'jc-policy-digest-ports-normalised': [
    { file: DIG, find: 'p.uint(a.from, 2);', replace: 'p.uint(Math.min(a.from, a.to), 2);' },
    { file: DIG, find: 'p.uint(a.to, 2);', replace: 'p.uint(Math.max(a.from, a.to), 2);' },
  ],
  'jc-policy-digest-version-folded': [{ file: DIG, find: 'p.uint(policy.rules.length, 8);', replace: 'p.uint((policy as Policy).version ?? 0n, 8);\n  p.uint(policy.rules.length, 8);' }],
  'jc-policy-digest-agents-unsorted': [{ file: DIG, find: 'p.list([...r.agents.ids].sort(_compareUtf8));', replace: 'p.list([...r.agents.ids]);' }],
  'jc-policy-digest-current-not-decided': [{ file: POL, find: 'policy_digest: currentDigest, agent, action: a, decision });', replace: 'get policy_digest() { return currentDigest; }, agent, action: a, decision });' }],
  'jc-policy-digest-absent-as-empty': [{ file: PRC, find: 'policy_digest: core.policy_digest,', replace: "policy_digest: core.policy_digest ?? '',", }],
  'jc-policy-digest-empty-accepted': [{ file: PRC, find: "if (f.policy_digest !== undefined && (typeof f.policy_digest !== 'string' || !_HEX32.test(f.policy_digest)))", replace: "if (false && f.policy_digest !== undefined && (typeof f.policy_digest !== 'string' || !_HEX32.test(f.policy_digest)))" }],
  'jc-policy-binding-defaulted': [{ file: PRC, find: 'if (opts.requireDigest === true && core.policy_digest === undefined)', replace: 'if (false && opts.requireDigest === true && core.policy_digest === undefined)' }],
  'jc-policy-kid-trusted': [
    { file: PRC, find: 'if (kidText !== core.steward)', replace: 'if (false && kidText !== core.steward)' },
    { file: PRC, find: 'if (!verifySign1(s, didPublicKey(core.steward), opts.backend ?? defaultEd25519()))', replace: 'if (!verifySign1(s, didPublicKey(kidText), opts.backend ?? defaultEd25519()))' },
  ],
  // ---- jouleclaw:P-RECEIPT ----
  'jc-receipt-ledger-truncated': [{ file: RCP, find: "return Object.freeze({ jc_receipt: '1', ...body, energy_provenance });", replace: "return Object.freeze({ jc_receipt: '1', ...body, tools_touched: body.tools_touched.slice(0, 1), energy_provenance });" }],
  'jc-receipt-toolless-walk-refused': [{ file: RCP, find: 'if (energy_provenance === undefined) malformed(', replace: 'if (energy_provenance === undefined || body.tools_touched.length === 0) malformed(' }],
  'jc-receipt-provenance-best': [{ file: RCP, find: 'for (const t of tools) worst = worst === undefined ? t.energy_provenance : provenanceFloor(worst, t.energy_provenance);', replace: 'for (const t of tools) worst = worst === undefined ? t.energy_provenance : provenanceFloor(worst, t.energy_provenance) === worst ? t.energy_provenance : worst;' }],
  'jc-receipt-provenance-unchecked': [{ file: RCP, find: 'if (worst !== undefined && energy_provenance !== worst)', replace: 'if (false && worst !== undefined && energy_provenance !== worst)' }],
  'jc-receipt-tiers-renumbered': [{ file: RCP, find: 'tier: tier as Tier,', replace: "tier: (({ L2: 'L3', L3: 'L4', L4: 'L5' } as Record<string, string>)[tier] ?? tier) as Tier," }],
  'jc-receipt-unknown-major-read': [{ file: VER, find: 'if (t.name !== name || t.major !== major)', replace: 'if (t.name !== name)' }],
  'jc-receipt-unknown-major-opened': [{ file: VER, find: 'if (t.major !== s.major)', replace: 'if (false && t.major !== s.major)' }],
  'jc-receipt-minor-refused': [{ file: VER, find: 'if (t.name !== name || t.major !== major)', replace: 'if (t.name !== name || t.major !== major || t.minor !== undefined)' }],
  'jc-receipt-unknown-fields-refused': [
    {
      file: RCP,
      find: 'const body = readBody(f.obj);',
      replace:
        "for (const k of Object.keys(f.obj)) if (!['jc_receipt', 'id', 'closed_at', 'input_hash', 'tier', 'joules_uj', 'energy_provenance', 'tools_touched', 'claims', 'eoc_stage', 'steward'].includes(k)) malformed(`unknown field ${k}`);\n  const body = readBody(f.obj);",
    },
  ],
  'jc-receipt-namespace-ignored': [{ file: VER, find: 'if (s.name !== t.name) continue;', replace: 'if (false && s.name !== t.name) continue;' }],
  'jc-receipt-unknown-namespace-refused': [{ file: VER, find: "return 'unknown';", replace: "throw new JcpError('ERR_JC_SCHEMA_UNKNOWN', `jc_receipt \"${String(tag)}\": namespace unknown`);" }],
};

export const RECORDS_PROFILE_UNBROKEN: readonly Unbroken[] = [
  {
    clause: 'jouleclaw/10.1#byte-match-policy-vectors',
    reason:
      'The four reference vectors it names live in jouleclaw-rs/crates/jouleclaw-policy-receipt/conformance/vectors-policy.json, published neither with the spec nor among the third-party vectors this suite ships, so no test can byte-match them and no mutant can be killed by their absence (spec-map/allowlist.json). What around them is checkable is broken by the other jouleclaw:P-POLICY mutants: the policy_digest preimage (jc-policy-digest-*), the omitted absent digest (jc-policy-digest-absent-as-empty) and the envelope binding (jc-policy-kid-trusted).',
  },
];
