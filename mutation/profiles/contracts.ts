// Clause mutants of the suite-defined profiles jouleclaw:P-CONTRACT, jouleclaw:P-HANDOFF: source patches of copies of impl/ modules
// (mutation/testees/patches.ts), filed under each profile in the kill matrix.
import type { Mutant, Unbroken } from '../catalog.ts';
import type { SourcePatch } from '../testees/patches.ts';
import { P } from './applied.ts';

const CON = 'impl/jouleclaw/contract.ts';
const VER = 'impl/jouleclaw/verdict.ts';
const VRC = 'impl/jouleclaw/verdict-receipt.ts';
const HND = 'impl/jouleclaw/handoff.ts';
const JRN = 'impl/jouleclaw/journal.ts';
const PC = 'jouleclaw:P-CONTRACT';
const PH = 'jouleclaw:P-HANDOFF';

/** A condition `if (cond)` made never true: the check it guards is skipped. */
const skip = (file: string, cond: string): SourcePatch => ({ file, find: `if (${cond})`, replace: `if (false && (${cond}))` });
const swap = (file: string, find: string, replace: string): SourcePatch => ({ file, find, replace });

export const CONTRACTS_PROFILE_MUTANTS: readonly Mutant[] = [
  // ---- jouleclaw:P-CONTRACT (jouleclaw §16.1, §16.2, §16.6, §16.7) ----
  { id: 'contract-duplicate-assertion-accepted', clauses: ['jouleclaw/16.1#assertion-ids-unique', 'jouleclaw/16.6#producer-rejects-duplicate-ids'], class: PC, description: 'a contract holding two assertions of one id is read as a contract/1', applied: `${P(CON)} parseContract never refuses a duplicate assertion id` },
  { id: 'contract-duplicate-feature-accepted', clauses: ['jouleclaw/16.1#feature-ids-unique', 'jouleclaw/16.6#producer-rejects-duplicate-ids'], class: PC, description: 'a contract holding two features of one id is read as a contract/1', applied: `${P(CON)} parseContract never refuses a duplicate feature id` },
  { id: 'contract-unknown-claim-accepted', clauses: ['jouleclaw/16.1#feature-claims-exist', 'jouleclaw/16.6#producer-rejects-unknown-claims'], class: PC, description: 'a feature claiming an assertion id the contract lacks is accepted', applied: `${P(CON)} parseContract never checks a claim against the assertion ids` },
  { id: 'contract-any-version-accepted', clauses: ['jouleclaw/16.6#producer-sets-contract-version'], class: PC, description: 'any jc_contract tag (contract/2, verdict/1) is read as a contract/1', applied: `${P(CON)} parseContract drops its expectSchema(jc_contract, "contract", 1) check` },
  { id: 'verdict-must-have-ignored', clauses: ['jouleclaw/16.2#must-have-blocks-ship', 'jouleclaw/16.6#verifier-blocks-must-have'], class: PC, description: 'the ship gate passes whatever the must_have rollups: blocking_gaps are listed but do not block', applied: `${P(VER)} verifyContract computes passed without blocking_gaps.length === 0` },
  { id: 'verdict-must-have-only-failed-blocks', clauses: ['jouleclaw/16.2#must-have-blocks-ship', 'jouleclaw/16.6#verifier-blocks-must-have'], class: PC, description: 'only a failed must_have blocks ship: one that is claimed_unverified or a gap ships', applied: `${P(VER)} verifyContract lists a must_have as blocking only when its rollup is failed` },
  { id: 'verdict-should-have-always-blocks', clauses: ['jouleclaw/16.2#should-have-not-blocking', 'jouleclaw/16.6#verifier-should-have-iff-flag'], class: PC, description: 'a should_have not verified blocks ship even without acceptance.block_on_should_have', applied: `${P(VER)} verifyContract blocks on should_have_gaps whatever the flag` },
  { id: 'verdict-should-have-flag-ignored', clauses: ['jouleclaw/16.6#verifier-should-have-iff-flag'], class: PC, description: 'acceptance.block_on_should_have: true is ignored: a should_have gap never blocks', applied: `${P(VER)} verifyContract never blocks on should_have_gaps` },
  { id: 'contract-should-have-blocks-by-default', clauses: ['jouleclaw/16.2#should-have-not-blocking'], class: PC, description: 'a contract without acceptance.block_on_should_have is read as if it were true: a should_have gap blocks ship', applied: `${P(CON)} parseContract reads an absent block_on_should_have as true` },
  { id: 'rollup-success-masks-failure', clauses: ['jouleclaw/16.6#verifier-rollup-rules'], class: PC, description: 'a matching pass beside a matching failure rolls up to verified: the success masks the failure', applied: `${P(VER)} rollupOf returns failed only when no matching item passed` },
  { id: 'rollup-claim-ignored', clauses: ['jouleclaw/16.6#verifier-rollup-rules'], class: PC, description: 'an assertion with no matching evidence rolls up to gap even when a feature claims it', applied: `${P(VER)} rollupOf returns gap where the reference returns claimed_unverified` },
  { id: 'rollup-unclaimed-claimed', clauses: ['jouleclaw/16.6#verifier-rollup-rules'], class: PC, description: 'an assertion with no matching evidence rolls up to claimed_unverified even when no feature claims it', applied: `${P(VER)} rollupOf returns claimed_unverified where the reference returns gap` },
  { id: 'verdict-hash-not-of-json', clauses: ['jouleclaw/16.7#verdict-json-in-signed-core'], class: PC, description: 'the signed core\'s verdict_hash is BLAKE3 of the contract hash, not of the verdict_json bytes, so the signature does not bind the verdict', applied: `${P(VRC)} verdictReceiptCore sets verdict_hash = BLAKE3(contract_hash)` },
  { id: 'verdict-hash-unchecked', clauses: ['jouleclaw/16.7#verdict-json-in-signed-core'], class: PC, description: 'a receipt whose verdict_hash is not BLAKE3 of its verdict_json is opened', applied: `${P(VRC)} checkVerdictCore never compares verdict_hash with BLAKE3(verdict_json)` },
  { id: 'verdict-seal-contract-unchecked', clauses: ['jouleclaw/16.7#contract-hash-equals'], class: PC, description: 'a verdict is sealed against a contract other than the one it was produced against', applied: `${P(VRC)} verdictReceiptCore never compares the given contract's hash with the verdict's contract_hash` },
  { id: 'verdict-open-contract-unchecked', clauses: ['jouleclaw/16.7#contract-hash-equals'], class: PC, description: 'a receipt is opened against a contract whose content hash is not its contract_hash', applied: `${P(VRC)} checkVerdictCore never compares the given contract's hash with contract_hash` },
  { id: 'verdict-core-hash-unbound', clauses: ['jouleclaw/16.7#contract-hash-equals'], class: PC, description: 'a core whose contract_hash is not its verdict\'s is opened', applied: `${P(VRC)} checkVerdictCore never compares the core's contract_hash with the inner verdict's` },
  { id: 'contract-hash-not-canonical', clauses: ['jouleclaw/16.7#contract-hash-equals'], class: PC, description: 'the contract_hash a verdict carries is BLAKE3 of the contract\'s JSON with its members in the order given, not of its canonical serialisation', applied: `${P(CON)} parseContract hashes JSON.stringify(doc)` },
  // ---- jouleclaw:P-HANDOFF (jouleclaw §17.1–§17.3) ----
  { id: 'handoff-command-hash-space-joined', clauses: ['jouleclaw/17.1#command-hash-over-argv', 'jouleclaw/17.2#producer-computes-command-hash'], class: PH, description: 'command_hash is BLAKE3 over argv joined by a space, so ["a", "b"] and ["a b"] are one command (producer and consumer agree on it)', applied: `${P(HND)} makeHandoff and parseHandoff join argv with " "` },
  { id: 'handoff-command-hash-json', clauses: ['jouleclaw/17.1#command-hash-over-argv', 'jouleclaw/17.2#producer-computes-command-hash'], class: PH, description: 'the producer\'s command_hash is BLAKE3 of the argv as JSON text; the consumer no longer checks it', applied: `${P(HND)} makeHandoff hashes JSON.stringify(argv); parseHandoff skips its command_hash check` },
  { id: 'handoff-feature-id-dropped', clauses: ['jouleclaw/17.2#producer-sets-non-empty-fields'], class: PH, description: 'the recorded handoff omits the feature_id the worker gave', applied: `${P(HND)} handoffToCbor writes feature_id: undefined` },
  { id: 'handoff-issues-dropped', clauses: ['jouleclaw/17.2#producer-sets-non-empty-fields'], class: PH, description: 'the recorded handoff carries an empty issues_found list whatever issues the worker reported', applied: `${P(HND)} handoffToCbor writes issues_found: []` },
  { id: 'handoff-procedures-dropped', clauses: ['jouleclaw/17.2#producer-sets-non-empty-fields'], class: PH, description: 'the producer records an empty procedures_followed list whatever the worker applied', applied: `${P(HND)} makeHandoff reads procedures_followed as []` },
  { id: 'handoff-empty-lists-omitted', clauses: ['jouleclaw/17.2#discriminator-present'], class: PH, description: 'the producer omits an empty list instead of writing it, and the consumer reads a missing list as empty', applied: `${P(HND)} handoffToCbor writes undefined for an empty completed/undone/issues_found/procedures_followed; parseHandoff defaults them` },
  { id: 'handoff-missing-list-defaulted', clauses: ['jouleclaw/17.2#discriminator-present'], class: PH, description: 'a chained handoff missing one of its lists is read as if the list were empty', applied: `${P(HND)} parseHandoff skips its every-list-present check and defaults a missing list to []` },
  { id: 'journal-event-tag-optional', clauses: ['jouleclaw/17.2#discriminator-present'], class: PH, description: 'a journal event without its variant discriminator is read (and skipped) instead of refused', applied: `${P(JRN)} apply never refuses a missing or empty event discriminator` },
  { id: 'handoff-discriminator-renamed', clauses: ['jouleclaw/17.2#discriminator-present'], class: PH, description: 'a handoff is recorded under the variant tag "WorkerHandoff", not its RunEvent::HandoffRecorded discriminator', applied: `${P(JRN)} recordHandoff and apply use event "WorkerHandoff"` },
  { id: 'handoff-unknown-field-refused', clauses: ['jouleclaw/17.2#consumer-accepts-additive-fields'], class: PH, description: 'the consumer refuses a handoff carrying a field it does not know', applied: `${P(HND)} parseHandoff refuses any key beyond the §17.1 fields` },
  { id: 'journal-unknown-event-field-refused', clauses: ['jouleclaw/17.2#consumer-accepts-additive-fields'], class: PH, description: 'the consumer refuses a HandoffRecorded event carrying a field it does not know', applied: `${P(JRN)} apply refuses a HandoffRecorded event with a key beyond event and handoff` },
  { id: 'journal-unknown-variant-refused', clauses: ['jouleclaw/17.2#consumer-accepts-additive-fields'], class: PH, description: 'the consumer refuses a journal carrying an event variant it does not know', applied: `${P(JRN)} apply throws ERR_JOURNAL_MALFORMED for every unknown variant` },
  { id: 'journal-entry-hash-unchecked', clauses: ['jouleclaw/17.2#consumer-verifies-chain'], class: PH, description: 'an entry edited after the fact, its hash left as it was, is trusted', applied: `${P(JRN)} openRun never recomputes an entry's hash` },
  { id: 'journal-prev-unchecked', clauses: ['jouleclaw/17.2#consumer-verifies-chain'], class: PH, description: 'an entry whose prev does not name the previous entry\'s hash is trusted', applied: `${P(JRN)} openRun never compares prev with the previous hash` },
  { id: 'run-in-flight-redispatched', clauses: ['jouleclaw/17.3#in-flight-not-redispatched'], class: PH, description: 'a node in flight is dispatched again', applied: `${P(JRN)} apply(NodeDispatched) skips its in-flight check` },
  { id: 'run-in-flight-ready', clauses: ['jouleclaw/17.3#in-flight-not-redispatched'], class: PH, description: 'a node in flight is listed in the ready set', applied: `${P(JRN)} the run view counts in_flight nodes as ready` },
  { id: 'run-dispatch-before-recover', clauses: ['jouleclaw/17.3#mark-interrupted-on-restart'], class: PH, description: 'a run reopened with nodes in flight dispatches before it is recovered', applied: `${P(JRN)} dispatch skips its not-recovered check` },
  { id: 'run-recover-records-nothing', clauses: ['jouleclaw/17.3#mark-interrupted-on-restart'], class: PH, description: 'recovery reports the nodes in flight but records no NodeInterrupted: they stay in flight', applied: `${P(JRN)} recover records no event` },
  { id: 'run-interrupted-energy-dropped', clauses: ['jouleclaw/17.3#mark-interrupted-on-restart'], class: PH, description: 'NodeInterrupted records 0 µJ, not the energy observed for the attempt', applied: `${P(JRN)} recover writes energy_uj: 0n` },
  { id: 'run-held-node-dispatched', clauses: ['jouleclaw/17.3#never-node-held-until-settled'], class: PH, description: 'an interrupted never node is dispatched again unsettled', applied: `${P(JRN)} apply(NodeDispatched) skips its held check` },
  { id: 'run-approval-anonymous', clauses: ['jouleclaw/17.3#never-node-held-until-settled'], class: PH, description: 'a rerun approval naming nobody (approved_by empty) settles a held node', applied: `${P(JRN)} apply(RerunApproved) no longer requires approved_by` },
  { id: 'run-default-replay-safe', clauses: ['jouleclaw/17.3#never-node-held-until-settled'], class: PH, description: 'a node declared without a replay rule is taken as safe, so after an interruption it runs again unsettled', applied: `${P(JRN)} startRun defaults replay to safe` },
  { id: 'run-failed-still-dispatches', clauses: ['jouleclaw/17.3#never-node-held-until-settled'], class: PH, description: 'a failed run goes on dispatching: failing it settles nothing', applied: `${P(JRN)} apply(NodeDispatched) skips its run-failed check` },
];

const ORDERED = "import { canonicalJsonHash, jsonFields, readJson, type JsonObject } from './contract-json.ts';";
const listOmitted = (k: string): SourcePatch => swap(HND, `${k}: [...h.${k}],`, `${k}: h.${k}.length ? [...h.${k}] : undefined,`);
const listDefaulted = (k: string): SourcePatch => swap(HND, `${k}: texts(get('${k}'), '${k}'),`, `${k}: texts(get('${k}') ?? [], '${k}'),`);
const LISTS = ['completed', 'undone', 'issues_found', 'procedures_followed'];
const listsUnchecked = swap(HND, 'for (const k of LISTS) if (!m.has(k))', 'for (const k of LISTS) if (false && !m.has(k))');
const KNOWN_HANDOFF_KEYS = "['worker', 'node_id', 'feature_id', 'closed_at', 'completed', 'undone', 'commands', 'issues_found', 'procedures_followed']";

export const CONTRACTS_PROFILE_PATCHES: Readonly<Record<string, readonly SourcePatch[]>> = {
  // ---- jouleclaw:P-CONTRACT ----
  'contract-duplicate-assertion-accepted': [skip(CON, 'dupA !== undefined')],
  'contract-duplicate-feature-accepted': [skip(CON, 'dupF !== undefined')],
  'contract-unknown-claim-accepted': [skip(CON, '!known.has(claim)')],
  'contract-any-version-accepted': [swap(CON, "expectSchema(jc_contract, 'contract', 1, 'jc_contract', C);", 'void expectSchema;')],
  'verdict-must-have-ignored': [swap(VER, 'const passed = blocking_gaps.length === 0 &&', 'const passed = true &&')],
  'verdict-must-have-only-failed-blocks': [swap(VER, "r.priority === 'must_have' && r.rollup !== 'verified'", "r.priority === 'must_have' && r.rollup === 'failed'")],
  'verdict-should-have-always-blocks': [swap(VER, '(!c.block_on_should_have || should_have_gaps.length === 0)', '(should_have_gaps.length === 0)')],
  'verdict-should-have-flag-ignored': [swap(VER, '(!c.block_on_should_have || should_have_gaps.length === 0)', '(true || should_have_gaps.length === 0)')],
  'contract-should-have-blocks-by-default': [swap(CON, 'block_on_should_have: block === true', 'block_on_should_have: block !== false')],
  'rollup-success-masks-failure': [swap(VER, "if (judged.includes(false)) return 'failed';", "if (judged.includes(false) && !judged.includes(true)) return 'failed';")],
  'rollup-claim-ignored': [swap(VER, "return claimed ? 'claimed_unverified' : 'gap';", "return claimed ? 'gap' : 'gap';")],
  'rollup-unclaimed-claimed': [swap(VER, "return claimed ? 'claimed_unverified' : 'gap';", "return claimed ? 'claimed_unverified' : 'claimed_unverified';")],
  'verdict-hash-not-of-json': [swap(VRC, 'verdict_hash: blake3HexOfText(verdict_json),', 'verdict_hash: blake3HexOfText(v.contract_hash),')],
  'verdict-hash-unchecked': [skip(VRC, 'h !== c.verdict_hash')],
  'verdict-seal-contract-unchecked': [skip(VRC, 'h !== v.contract_hash')],
  'verdict-open-contract-unchecked': [skip(VRC, 'ch !== c.contract_hash')],
  'verdict-core-hash-unbound': [skip(VRC, 'v.contract_hash !== c.contract_hash')],
  'contract-hash-not-canonical': [
    swap(CON, ORDERED, ORDERED.replace('import { canonicalJsonHash,', 'import { blake3HexOfText, canonicalJsonHash,')),
    swap(CON, 'hash: contractHash(doc as JsonObject)', 'hash: blake3HexOfText(JSON.stringify(doc))'),
  ],
  // ---- jouleclaw:P-HANDOFF ----
  'handoff-command-hash-space-joined': [
    swap(HND, "command_hash: blake3HexOfText(argv.join('\\0')), argv,", "command_hash: blake3HexOfText(argv.join(' ')), argv,"),
    swap(HND, "const want = blake3HexOfText(argv.join('\\0'));", "const want = blake3HexOfText(argv.join(' '));"),
  ],
  'handoff-command-hash-json': [swap(HND, "command_hash: blake3HexOfText(argv.join('\\0')), argv,", 'command_hash: blake3HexOfText(JSON.stringify(argv)), argv,'), skip(HND, 'command_hash !== want')],
  'handoff-feature-id-dropped': [swap(HND, 'feature_id: h.feature_id,', 'feature_id: undefined,')],
  'handoff-issues-dropped': [swap(HND, 'issues_found: [...h.issues_found],', 'issues_found: [],')],
  'handoff-procedures-dropped': [swap(HND, "procedures_followed: texts(input.procedures_followed ?? [], 'procedures_followed'),", "procedures_followed: texts([], 'procedures_followed'),")],
  'handoff-empty-lists-omitted': [listsUnchecked, ...LISTS.map(listOmitted), ...LISTS.map(listDefaulted)],
  'handoff-missing-list-defaulted': [listsUnchecked, ...LISTS.map(listDefaulted)],
  'journal-event-tag-optional': [skip(JRN, "typeof kind !== 'string' || kind === '' || kind === 'RunStarted'")],
  'handoff-discriminator-renamed': [
    swap(JRN, "record({ event: 'HandoffRecorded', handoff: handoffToCbor(h) });", "record({ event: 'WorkerHandoff', handoff: handoffToCbor(h) });"),
    swap(JRN, "case 'HandoffRecorded':", "case 'WorkerHandoff':"),
  ],
  'handoff-unknown-field-refused': [
    swap(
      HND,
      "if (!(v instanceof Map)) throw new JcpError(H, 'a handoff must be a map');",
      `if (!(v instanceof Map)) throw new JcpError(H, 'a handoff must be a map');\n  for (const k of (v as CborMap).keys()) if (!${KNOWN_HANDOFF_KEYS}.includes(k as string)) throw new JcpError(H, \`the handoff carries an unknown field \${String(k)}\`);`,
    ),
  ],
  'journal-unknown-event-field-refused': [
    swap(JRN, "case 'HandoffRecorded':", "case 'HandoffRecorded':\n      if ([...ev.keys()].some((k) => k !== 'event' && k !== 'handoff')) throw new JcpError(J, 'a HandoffRecorded event carries an unknown field');"),
  ],
  'journal-unknown-variant-refused': [swap(JRN, "if (typeof kind !== 'string' || kind === '' || kind === 'RunStarted')", 'if (true)')],
  'journal-entry-hash-unchecked': [skip(JRN, "typeof hash !== 'string' || hash !== entryHash(body)")],
  'journal-prev-unchecked': [skip(JRN, "v.get('prev') !== prev")],
  'run-in-flight-redispatched': [skip(JRN, "n.status === 'in_flight'")],
  'run-in-flight-ready': [swap(JRN, "ready: s.failed ? [] : ids((n) => n.status === 'pending'", "ready: s.failed ? [] : ids((n) => n.status === 'in_flight' || n.status === 'pending'")],
  'run-dispatch-before-recover': [skip(JRN, '!isRecovered')],
  'run-recover-records-nothing': [swap(JRN, 'for (const id of ids) record(', 'for (const id of ids.slice(0, 0)) record(')],
  'run-interrupted-energy-dropped': [swap(JRN, 'energy_uj: observed_uj?.get(id) ?? 0n', 'energy_uj: 0n')],
  'run-held-node-dispatched': [skip(JRN, "n.status === 'interrupted' && n.replay === 'never'")],
  'run-approval-anonymous': [swap(JRN, "str(ev, 'approved_by', code('ERR_BAD_ARGUMENT'));", 'void str;')],
  'run-default-replay-safe': [swap(JRN, "replay: n.replay ?? 'never'", "replay: n.replay ?? 'safe'")],
  'run-failed-still-dispatches': [skip(JRN, 's.failed')],
};

export const CONTRACTS_PROFILE_UNBROKEN: readonly Unbroken[] = [];
