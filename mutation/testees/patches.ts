// Source-patch clause mutants: ONE rule of the spec broken by a one-place textual change to a COPY of
// an impl/ module, a patch applied to a copy. impl/ itself is never edited: the kill matrix
// serves the patched copy in process (mutation/vitest.matrix.config.ts), below the reference adapter only, so the
// suite's oracle stays faithful. harness/self/kill-matrix.test.ts checks that each `find` occurs in its file exactly
// once (a patch that no longer applies fails there, never silently serves the faithful reference). These mutants are
// not served as testee processes (mutation/testees/variant-main.ts names them and refuses).

import { JCP_PROFILE_PATCHES } from '../profiles/jcp.ts';
import { ENERGY_PROFILE_PATCHES } from '../profiles/energy.ts';
import { DOCUMENTS_PROFILE_PATCHES } from '../profiles/documents.ts';
import { SEMANTIC_PROFILE_PATCHES } from '../profiles/semantic.ts';
import { RUNTIME_PROFILE_PATCHES } from '../profiles/runtime.ts';
import { ACCOUNTING_PROFILE_PATCHES } from '../profiles/accounting.ts';
import { CONTRACTS_PROFILE_PATCHES } from '../profiles/contracts.ts';
import { RECORDS_PROFILE_PATCHES } from '../profiles/records.ts';
import { LOG_ANSWER_PROFILE_PATCHES } from '../profiles/log-and-answer.ts';
import { READINGS_PROFILE_PATCHES } from '../profiles/readings.ts';

/** One textual change to one impl/ file: `find` (exactly once in the file) becomes `replace`. */
export interface SourcePatch {
  /** The file, relative to the repository root. */
  readonly file: string;
  readonly find: string;
  readonly replace: string;
}

/** A condition `if (cond)` made never true: the check it guards is skipped. */
const skip = (file: string, cond: string): SourcePatch => ({ file, find: `if (${cond})`, replace: `if (false && (${cond}))` });
/** Any text replaced. */
const swap = (file: string, find: string, replace: string): SourcePatch => ({ file, find, replace });

const ROT = 'impl/identity/rotation.ts';
const CKP = 'impl/jcp/checkpoint.ts';
const CHN = 'impl/jcp/channel.ts';
const STD = 'impl/jcp/standing.ts';
const WIRE = 'impl/wire/server.ts';
const EN = 'impl/energy/energy.ts';
const PL = 'impl/energy/plausibility.ts';
const LV = 'impl/energy/liveness.ts';
const DEC = 'impl/jcp/decide.ts';
const EP = 'impl/jcp/enforcement-point.ts';
const CONT = 'impl/jcp/continuation.ts';
// jouleclaw:C-TLOG and sense:C1–C6
const TLH = 'impl/jouleclaw/tlog-head.ts';
const TLG = 'impl/jouleclaw/tlog.ts';
const SEV = 'impl/sense/event.ts';
const SHLC = 'impl/sense/hlc.ts';
const SLOG = 'impl/sense/log.ts';
const SHL = 'impl/sense/highlight.ts';
const SAT = 'impl/sense/attention.ts';
const SRC = 'impl/sense/recall.ts';
const SCH = 'impl/sense/chain.ts';
const SINJ = 'impl/sense/inject.ts';

/** The source-patch mutants, by id. */
export const MUTANT_PATCHES: Readonly<Record<string, readonly SourcePatch[]>> = {
  // ---- C12 rotation ----
  'rotation-seq-gap-accepted': [skip(ROT, 'e.seq !== BigInt(i)')],
  'rotation-parent-unchecked': [skip(ROT, 'e.parent !== want')],
  'rotation-signature-unchecked': [skip(ROT, '!signatureHolds(se, backend)')],
  'rotation-not-precommitted': [skip(ROT, 'nextKeyHash(pk) !== prev.next_hash'), skip(ROT, 'nextKeyHash(newKey.publicKey) !== p.next_hash')],
  'inception-current-unchecked': [skip(ROT, 'e.current !== identity')],
  // ---- C13 / C18 threshold ----
  'threshold-too-few-signers': [skip('impl/identity/threshold.ts', '!Array.isArray(signers) || signers.length < min')],
  // ---- C21 checkpoints ----
  'amendment-self-steer': [skip(CKP, 'a.amender === g.subject')],
  'amendment-any-issuer': [skip(CKP, 'a.amender !== g.issuer')],
  'amendment-widens-budget': [skip(CKP, 'a.budget_uj > g.budget_uj')],
  'amendment-above-remainder': [skip(CKP, 'rem.known && a.budget_uj > rem.uj')],
  'amendment-verifier-lax': [swap(CKP, 'const fault = _amendmentFault(_grant(grant).grant, _checkpoint(checkpoint).checkpoint, a);\n  if (fault) fail(...fault);', 'const fault = _amendmentFault(_grant(grant).grant, _checkpoint(checkpoint).checkpoint, a);\n  void fault;')],
  'absent-spend-read-zero': [swap(CKP, 'if (c.spent === undefined) return { known: false };', "if (c.spent === undefined) return { known: true, uj: grant.budget_uj };")],
  'checkpoint-spend-decreases': [skip(CKP, '!crosses && next.spent!.uj < prev.spent.uj')],
  'checkpoint-spend-omitted': [skip(CKP, 'next.spent === undefined')],
  'amendment-wrong-checkpoint': [skip(CKP, 'a.checkpoint !== checkpointId(c)')],
  // ---- C17 channels ----
  'statement-forged-accepted': [skip(CHN, '!verifyStatementSignature(snap, backend)')],
  'statement-stale-accepted': [skip(CHN, 's.seq <= prior.seq')],
  'statement-regressing-accepted': [skip(CHN, 's.spent_uj < prior.spent_uj')],
  'channel-settled-not-counted': [swap(CHN, 'if (local + settled + cost_uj > shared.budget_uj)', 'if (local + cost_uj > shared.budget_uj)')],
  // ---- C20 standing grants ----
  'policy-amplifies-budget': [skip(STD, 'p.per_firing_uj > g.budget_uj')],
  'policy-any-issuer': [skip(STD, 'p.issuer !== g.issuer')],
  'firing-wrong-event-class': [skip(STD, 'f.event_class !== p.event_class')],
  'firings-not-exhausted': [skip(STD, 'firings(pid) >= p.max_firings')],
  'firing-over-budget': [skip(STD, 'cumulative(gid) + p.per_firing_uj > budget')],
  // ---- C8 wire (the endpoint the wire driver starts in process: scope suite) ----
  'wire-stale-accepted': [skip(WIRE, 'skew > window')],
  'wire-caller-signature-unchecked': [skip(WIRE, '!verifyWireBodySignature(body, w, backend)')],
  'wire-reply-non-canonical': [swap(WIRE, 'send(framed(out))', 'send(framed(new Uint8Array([...out, 0])))')],
  'wire-repeat-redecided': [swap('impl/durable/point.ts', "if (seen) return Object.freeze({ status: 'repeated' as const", "if (false) return Object.freeze({ status: 'repeated' as const")],
  'wire-decides-at-named-time': [swap(WIRE, 'cost: w.cost, now_s: now };', 'cost: w.cost, now_s: w.now };')],
  'wire-oversize-accepted': [swap(WIRE, 'const reader = new WireFrameReader(cap);', 'const reader = new WireFrameReader(Number.MAX_SAFE_INTEGER);'), swap(WIRE, 'w = decodeWireRequest(body, cap);', 'w = decodeWireRequest(body, Number.MAX_SAFE_INTEGER);')],
  'replay-at-current-time': [swap('impl/durable/point.ts', 'const d = recorded ?? s.ep.decide(e.request);', 'const d = recorded ?? s.ep.decide({ ...e.request, now_s: BigInt(Math.floor(Date.now() / 1000)) });')],
  'wire-debit-on-deny': [swap(EP, "if (j.verdict === 'allow') {", 'if (true) {')],
  'wire-window-narrowed': [swap(WIRE, 'if (skew > window) return', 'if (skew > window - 10n) return')],
  'wire-window-widened': [swap(WIRE, 'if (skew > window) return', 'if (skew > window + 10n) return')],
  'wire-cap-edge-refused': [swap(WIRE, 'const reader = new WireFrameReader(cap);', 'const reader = new WireFrameReader(cap - 1);')],
  // ---- C9 energy honesty ----
  'hwshunt-unmeasured-accepted': [skip(EN, "f.provenance === 'HwShunt' && measured_uj === undefined")],
  'estimator-measured-accepted': [skip(EN, "f.provenance === 'Estimator' && measured_uj !== undefined")],
  'provenance-overclaim-accepted': [skip(EN, 'provenanceRank(f.provenance) < provenanceRank(earned)')],
  'counter-not-live-graded': [skip(EN, '!o.live')],
  'counter-half-read-graded': [skip(EN, '!o.read_both_ends')],
  'coverage-overclaim-accepted': [skip(EN, "f.obtained.how === 'counter' && f.obtained.covers === 'Partial' && coverage === 'Whole'")],
  'rate-over-limit-accepted': [skip(PL, 't.limit_mw !== undefined && rateAbove(c, t.limit_mw)')],
  'rate-under-draw-accepted': [skip(PL, 'rateBelow(c, floor_mw)')],
  'rate-over-draw-accepted': [skip(PL, 'rateAbove(c, ceiling)')],
  'frozen-counter-live': [skip(LV, 'advanced === 0')],
  'lumpy-counter-live': [skip(LV, 'worst !== undefined && worst < LIVENESS_MIN_ADVANCES_PER_WINDOW')],
  'psys-summed': [swap(LV, "if (z.name === 'psys') reason = 'psys';", "if (false) reason = 'psys';")],
  // ---- C25 flow ----
  'unlabelled-read-clean': [swap(DEC, "if (label === undefined) {\n    return ceilings.length > 0", "if (label === undefined) {\n    return undefined;\n    return ceilings.length > 0")],
  'flow-ceiling-unchecked': [skip(DEC, '!labelLeq(label, flow.ceiling)')],
  // origins 'any' passes the floor (skipping the check alone would crash on 'any'.find: a crash is never a kill)
  'taint-floor-any-accepted': [swap(DEC, "if (label.origins === 'any') return \"the resource's taint floor refuses origins 'any'\";", "if (label.origins === 'any') return undefined;")],
  // ---- C24 caveats ----
  'cost-caveat-at-authorize': [skip(DEC, "phase === 'authorize' && isCostDependent(c)")],
  'settle-breach-not-debited': [swap(EP, 'debit(req, j.ids, j.verdict === \'allow\');\n      return seal(req, j, j.ids);', "if (j.verdict === 'allow') debit(req, j.ids, true);\n      return seal(req, j, j.ids);")],
  'caveat-maxcost-unchecked': [swap(DEC, "if ('MaxCostUj' in c) return req.cost.uj <= c.MaxCostUj;", "if ('MaxCostUj' in c) return true;")],
  'caveat-model-unchecked': [swap(DEC, "if ('ModelIn' in c) return req.frame.model !== undefined && c.ModelIn.includes(req.frame.model);", "if ('ModelIn' in c) return true;")],
  'caveat-notafter-unchecked': [swap(DEC, "if ('NotAfter' in c) return req.now_s <= c.NotAfter;", "if ('NotAfter' in c) return true;")],
  // ---- C22 money ----
  'money-currency-unchecked': [skip(DEC, 'price.currency !== ceiling.currency')],
  'money-ceiling-unchecked': [skip(DEC, 'prior + price.minor > ceiling.minor')],
  'money-debited-on-deny': [swap(EP, "debit(req, j.ids, j.verdict === 'allow');", "debit(req, j.ids, true);")],
  // ---- C8 continuations (§6.1) ----
  'continuation-unknown-handle-served': [swap(CONT, "return sealRefusal(frame, x.presented.chain, 'chain-broken', 'the handle was never returned to a request decided here (or was closed or forgotten)', x.cost);", 'return relayed(point.decide({ frame, chain: x.presented.chain, caller: x.caller, cost: x.cost, now_s: x.now_s }));')],
  'continuation-not-chained': [swap(CONT, 'payload_hash: contentId({ continues: w.last, handle: x.handle, sent: x.sent_hash })', 'payload_hash: contentId({ handle: x.handle, sent: x.sent_hash })')],
  'continuation-not-metered': [swap(CONT, 'w.metered_uj += x.cost.uj;', '')],
  'outcome-admitted-as-control': [swap(CONT, "kind: RESULT_KIND[w.frame.kind], trust: 'data', payload_hash: outcome_digest", "kind: RESULT_KIND[w.frame.kind], trust: 'control', payload_hash: outcome_digest")],
  'closing-sum-whole': [swap(CONT, "const partial = between === undefined || w.partial || between.coverage === 'Partial';", "const partial = w.partial || between?.coverage === 'Partial';")],
  // ---- C14 / C16 replay and accounting ----
  'failed-receipts-skipped': [swap('impl/receipt/accounting.ts', 'failures.push(Object.freeze({ index, code: e.code, message: e.message }));', '')],
  'replay-leaf-only': [swap('impl/receipt/replay.ts', 'for (const id of debitedIds(core)) spend.set(', 'for (const id of debitedIds(core).slice(-1)) spend.set(')],
  'replay-counts-denied': [swap('impl/receipt/replay.ts', "if (core.verdict !== 'allow') return; // jcp §9 C3", "if (false) return; // jcp §9 C3")],
  // ---- C26 one writer ----
  'record-opened-when-held': [skip('impl/durable/lock.ts', '!r.ok')],
  // ---- second round ----
  'continuation-against-presented-chain': [swap(CONT, 'relayed(point.decide({ frame, chain: w.chain, caller: x.caller,', 'relayed(point.decide({ frame, chain: x.presented.chain, caller: x.caller,')],
  'closing-record-control': [swap(CONT, "const frame: Frame = { ...w.frame, kind: RESULT_KIND[w.frame.kind], trust: 'data', payload_hash: record_id };", "const frame: Frame = { ...w.frame, kind: RESULT_KIND[w.frame.kind], trust: 'control', payload_hash: record_id };")],
  'answers-not-flow-checked': [swap(CONT, 'now_s: x.now_s, ...(x.label !== undefined ? { label: x.label } : {}) }));', 'now_s: x.now_s }));')],
  'cost-independent-not-resettled': [swap(DEC, 'if (!caveatHolds(c, req)) return deny(', "if ((phase !== 'settle' || isCostDependent(c)) && !caveatHolds(c, req)) return deny(")],
  'breach-not-in-verdict': [swap(EP, 'debit(req, j.ids, j.verdict === \'allow\');\n      return seal(req, j, j.ids);', "debit(req, j.ids, j.verdict === 'allow');\n      return seal(req, j.verdict === 'deny' && j.deny_reason === 'caveat-unsatisfied' ? ({ verdict: 'allow', ids: j.ids } as never) : j, j.ids);")],
  'frame-model-type-unchecked': [swap('impl/jcp/codec.ts', "  if (m.has('model')) f.model = r.cid(", "  if (m.has('model') && typeof m.get('model') !== 'number') f.model = r.cid(")],
  'model-written-absent': [swap('impl/jcp/codec.ts', '    payload_hash: f.payload_hash,\n    model: f.model,\n  };', "    payload_hash: f.payload_hash,\n    model: f.model ?? '',\n  };")],
  'unlabelled-field-forwarded': [swap('impl/jcp/forward.ts', 'else dropped.push(f.name); // jcp §4.10', 'else omitted.push(f); // jcp §4.10')],
  'omitted-fields-unnamed': [swap('impl/jcp/forward.ts', 'return { joined, omitted, dropped: dropped.sort() };', 'return { joined, omitted: [] as ForwardField[], dropped: dropped.sort() };')],
  'partial-task-total': [swap('impl/energy/outcomes.ts', "if (e.coverage === 'Partial') throw new JcpError('ERR_ENERGY_PARTIAL_NOT_TOTAL'", "if (false) throw new JcpError('ERR_ENERGY_PARTIAL_NOT_TOTAL'")],
  'partial-per-token-sealed': [swap('impl/energy/outcomes.ts', "if (e.coverage === 'Partial') return Object.freeze({ energy_uj, provenance: e.provenance, energy_coverage: 'Partial' as const, accepted_tokens });", '')],
  'partial-per-token-read': [skip('impl/energy/outcomes.ts', "coverage === 'Partial' && p['uj_per_accepted_token'] !== undefined")],
  'empty-list-whole': [swap('impl/energy/tree.ts', "const reasons = [...gaps, ...(declared_no_outside_delegation ? [] : ['undeclared-delegation'])];", 'const reasons = [...gaps];')],
  'unconfirmed-walk-accepted': [swap('impl/energy/tree.ts', 'if (confirm === undefined || !walksAgree(walk, confirm)) gaps.push(', 'if (false) gaps.push(')],
  'unsettled-member-accepted': [swap('impl/energy/tree.ts', 'if (walk.some((m) => !memberAtRest(m.threads))) gaps.push(', 'if (false) gaps.push(')],
  'thread-left-core-unchecked': [skip('impl/energy/tree.ts', '!threadLeftCore(e.before_nj, e.after_nj)')],
  'impossible-draw-kept': [swap(PL, 'const usable = t.draw_mw.filter((d) => d > 0n && (t.limit_mw === undefined || d <= t.limit_mw));', 'const usable = t.draw_mw.filter((d) => d > 0n);')],
  'under-rate-near-idle': [swap(PL, 'return net > 0n ? net / GPU_UNDER_FACTOR : 0n;', 'return mean_draw_mw / GPU_UNDER_FACTOR;')],
  'whole-coverage-read': [swap('impl/energy/outcomes.ts', "  if (v === 'Partial') return 'Partial';\n  throw new JcpError('ERR_ENERGY_COVERAGE_VALUE'", "  if (v === 'Partial') return 'Partial';\n  if (v === 'Whole') return 'Whole';\n  throw new JcpError('ERR_ENERGY_COVERAGE_VALUE'")],
  'flow-check-before-capability': [
    swap(DEC, "  const flow = flowFault(req.label, chain, state.taintFloor?.(frame.resource));\n  if (flow !== undefined) return deny('flow-denied', flow, ids);\n", ''),
    swap(DEC, "  if (frame.trust !== 'control') return deny('untrusted-control', 'a data frame can never exercise a capability', ids);\n", "  if (frame.trust !== 'control') return deny('untrusted-control', 'a data frame can never exercise a capability', ids);\n  const flow = flowFault(req.label, chain, state.taintFloor?.(frame.resource));\n  if (flow !== undefined) return deny('flow-denied', flow, ids);\n"),
  ],
  'no-exclusivity-opened': [swap('impl/durable/lock.ts', "    throw new JcpError('ERR_RECORD_NO_EXCLUSIVITY'", "    if (!r.ok) return;\n    throw new JcpError('ERR_RECORD_NO_EXCLUSIVITY'")],
  'allowed-not-recorded': [swap('impl/durable/point.ts', '      record.append(entryToCbor(entry));', "      if (d.verdict !== 'allow') record.append(entryToCbor(entry));")],
  // replay re-decides an allowed decision with no recorded outcome at zero cost, and takes its receipt as it is
  'in-flight-reported-completed': [swap('impl/durable/point.ts', "is not a recorded decision`);\n      return st;", "is not a recorded decision`);\n      return st === 'unresolved' ? 'completed' : st;")],
  'in-flight-retried': [
    swap('impl/durable/point.ts', '    s = replay(log);\n  } catch (x) {', "    s = replay(log);\n    for (const [id, st] of s.statuses) if (st === 'unresolved') s.ep.decide((log[id] as DecisionEntry).request);\n  } catch (x) {"),
  ],
  'in-flight-refunded': [
    swap(
      'impl/durable/point.ts',
      'entries.forEach((e, id) => apply(st, e, id, true));',
      "entries.forEach((e, id) => apply(st, e.kind === 'decision' && e.verdict === 'allow' && !entries.some((o) => o.kind === 'outcome' && o.entry === id) ? { ...e, request: { ...e.request, cost: { ...e.request.cost, uj: 0n } } } : e, id, true));",
    ),
    skip('impl/durable/point.ts', '!bytesEqual(d.receipt, e.receipt)'),
  ],
  'reopen-fresh-spend': [swap('impl/durable/point.ts', '    s = replay(log);\n  } catch (x) {', '    s = replay([]);\n  } catch (x) {')],
  'partial-aggregate-per-unit': [swap('impl/energy/outcomes.ts', "...(coverage === 'Whole' && units > 0n ? { uj_per_unit:", '...(units > 0n ? { uj_per_unit:')],
  'unjudgeable-graded': [swap(PL, "return Object.freeze({ verdict: 'indeterminate', rate_mw, reason: 'no-usable-draw', discarded });", "return Object.freeze({ verdict: 'not-refuted', rate_mw, ceiling_mw: 0n, discarded });")],

  // ==== jouleclaw:C-TLOG (§22.2 signed tree heads) and sense:C1–C6 (clause mutants of the claimed JouleClaw
  // and Sense classes; one textual change to a copy of impl/jouleclaw/tlog*.ts or impl/sense/*.ts each) ====
  // ---- jouleclaw:C-TLOG ----
  'head-served-unsigned': [swap(TLH, '    ...(h.signature !== undefined ? { signature: h.signature } : {}),\n', '')],
  'head-timestamp-unsigned': [swap(TLH, '_u64be(h.timestamp, out, 41);', '')],
  'head-any-signer-accepted': [swap(TLH, 'if (h.steward !== steward) {', 'if (false) {'), swap(TLH, 'treeHeadSigningBytes(h), expectedKey)', 'treeHeadSigningBytes(h), didPublicKey(h.steward!))')],
  'unsigned-root-verifies-proof': [
    swap(TLG, "import { encodeTreeHead, signTreeHead, verifyTreeHead, type SignedTreeHead } from './tlog-head.ts';", "import { encodeTreeHead, parseTreeHead, signTreeHead, verifyTreeHead, type SignedTreeHead } from './tlog-head.ts';"),
    swap(TLG, 'const head = verifyTreeHead(headBytes, steward, backend);', 'const head = parseTreeHead(headBytes) as SignedTreeHead;'),
  ],
  'absent-root-read-as-zero': [
    swap(TLH, "if (typeof rootV !== 'string' || !ROOT_HEX.test(rootV)) {", "if (rootV !== undefined && rootV !== '' && (typeof rootV !== 'string' || !ROOT_HEX.test(rootV))) {"),
    swap(TLH, "const root = fromHex(rootV, 'tree head root');", "const root = rootV === undefined || rootV === '' ? new Uint8Array(32) : fromHex(rootV as string, 'tree head root');"),
  ],
  // ---- sense:C1 / C2 ----
  'cid-double-hashed': [swap(SEV, 'return toHex(blake3(payload_bytes));', 'return toHex(blake3(blake3(payload_bytes)));')],
  'hlc-restart-from-zero': [swap(SHLC, 'let last = makeHlc(maxStored.physical_ns, maxStored.logical);', 'let last = makeHlc(0n, 0n);')],
  'replay-digest-reversed': [swap(SLOG, 'toHex(blake3(concatBytes(...events.map(eventIdBytes))))', 'toHex(blake3(concatBytes(...events.map(eventIdBytes).reverse())))')],
  'event-id-not-length-prefixed': [swap(SEV, '  return concatBytes(head, field);', '  return field;')],
  'event-id-trust-unbound': [swap(SEV, '    lengthPrefixed(utf8.encode(e.trust)),\n', '')],
  'event-id-source-unbound': [swap(SEV, '    lengthPrefixed(utf8.encode(e.source)),\n', '')],
  // ---- sense:C3 ----
  'baseline-updated-before-decision': [
    swap(SHL, '      const fire = fires(x, b, lastFire === undefined ? undefined : i - lastFire);\n      b = updateBaseline(b, x);', '      b = updateBaseline(b, x);\n      const fire = fires(x, b, lastFire === undefined ? undefined : i - lastFire);'),
  ],
  'surface-margin-dropped': [swap(SAT, 'if (!(value > cost + SURFACE_MARGIN_PPM)) return', 'if (!(value > cost)) return')],
  // the budget test skipped, and the surfacing it lets through charged what is left (a budget never goes below zero: a
  // negative budget_uj is refused by the protocol layer as an errored test, which never counts as a kill)
  'surface-unpaid': [skip(SAT, 'budget_uj < price_uj'), swap(SAT, "const charged_uj = outcome === 'surface' ? price : 0n;", "const charged_uj = outcome === 'surface' ? (price < budget ? price : budget) : 0n;")],
  'budget-test-first': [
    swap(SAT, "  if (!(value > cost + SURFACE_MARGIN_PPM)) return 'hold:value';\n  // sense §5: \"and the energy budget can pay the surfacing's joule price\"\n  if (budget_uj < price_uj) return 'hold:budget';", "  if (budget_uj < price_uj) return 'hold:budget';\n  if (!(value > cost + SURFACE_MARGIN_PPM)) return 'hold:value';"),
  ],
  // the debounce state shared by every detector of the process: a decision then depends on earlier, unrelated calls
  'detector-state-shared': [
    swap(SHL, 'export function createDetector(probe: Probe): Detector {', 'let lastFire: number | undefined;\nexport function createDetector(probe: Probe): Detector {'),
    swap(SHL, '  let lastFire: number | undefined;\n  return Object.freeze({', '  return Object.freeze({'),
  ],
  'hold-value-debits': [swap(SAT, "const charged_uj = outcome === 'surface' ? price : 0n;", "const charged_uj = outcome === 'surface' || (outcome === 'hold:value' && budget >= price) ? price : 0n;")],
  // ---- sense:C4 ----
  'recall-escalated': [skip(SRC, 't0')],
  'unbacked-recall-answered': [skip(SRC, 'spans.length === 0')],
  // ---- sense:C5 ----
  'link-not-shortest-form': [swap(SCH, '  return encodeCanonical({ core: linkCoreToCbor(l.core), sig: l.sig });', '  return Uint8Array.of(0xb9, 0x00, 0x02, ...encodeCanonical({ core: linkCoreToCbor(l.core), sig: l.sig }).subarray(1));')],
  'hold-not-sealed': [swap(SCH, 'links.push(l);', "if (core.decision === 'surface') links.push(l);")],
  'core-trust-uncommitted': [swap(SCH, '    trust: c.trust,\n', '')],
  'prev-over-signed-link': [swap(SCH, 'last ? linkId(last.core) : undefined', 'last ? contentIdOfBytes(signedLinkBytes(last)) : undefined')],
  'link-prev-unchecked': [skip(SCH, 'l.core.prev !== prevId')],
  'link-signature-unchecked': [skip(SCH, '!linkSignatureValid(l, backend)')],
  'link-seq-unchecked': [skip(SCH, 'l.core.seq !== BigInt(i)')],
  // ---- sense:C6 ----
  'frame-position-dropped': [swap(SINJ, '    position,\n    // sense', '    // sense')],
  'frame-cites-signed-bytes': [
    swap(SINJ, "import { linkId, linkSignatureValid, type SignedLink } from './chain.ts';", "import { linkId, linkSignatureValid, signedLinkBytes, type SignedLink } from './chain.ts';"),
    swap(SINJ, 'link: linkId(core),', 'link: contentIdOfBytes(signedLinkBytes(f.link)),'),
  ],
  'inject-link-signature-unchecked': [skip(SINJ, '!linkSignatureValid(f.link, backend)')],
  'wake-authority-unnamed': [swap(SINJ, '    ...(authority !== undefined ? { wake_authority: authority } : {}),\n', '')],
  'delivery-states-surfacing-charge': [swap(SINJ, 'delivery: { uj, provenance: d.provenance,', 'delivery: { uj: core.charged_uj, provenance: d.provenance,')],
  'frame-kind-tool-result': [swap(SINJ, 'kind: INJECTED_KIND,', "kind: 'tool-result',")],
  'injected-kind-offered': [swap(SINJ, "Object.freeze(['tool-call', 'agent-reply'] as const)", "Object.freeze(['tool-call', 'agent-reply', INJECTED_KIND] as const)")],
  'recipient-authors-injected': [swap(SINJ, 'if (kind === INJECTED_KIND) throw', 'if (kind === INJECTED_KIND) return;\n  if (false) throw')],
  'destination-unstated': [swap(SINJ, '    destination,\n    recipient_state', '    recipient_state')],
  'hold-delivered': [skip(SINJ, "core.decision !== 'surface'")],
  'self-delivery-accepted': [skip(SINJ, 'core.host === f.recipient')],
  'unpermitted-wake-delivered': [swap(SINJ, "if (g === undefined) throw new JcpError('ERR_SENSE_WAKE_UNAUTHORIZED'", "if (g === undefined) return undefined;\n  if (false) throw new JcpError('ERR_SENSE_WAKE_UNAUTHORIZED'")],
  'zero-priced-delivered': [skip(SINJ, 'uj === 0n')],
  'frame-address-unbound': [
    swap(SINJ, 'return Object.freeze({ frame, frame_id: contentIdOfBytes(bytes), bytes });', 'const { destination: _d, recipient_state: _r, wake_authority: _w, ...unbound } = frame as Record<string, CborInput>;\n  return Object.freeze({ frame, frame_id: contentIdOfBytes(encodeCanonical(unbound)), bytes });'),
  ],
  // the suite-defined profiles (spec-map/profiles.json)
  ...JCP_PROFILE_PATCHES,
  ...ENERGY_PROFILE_PATCHES,
  ...DOCUMENTS_PROFILE_PATCHES,
  ...SEMANTIC_PROFILE_PATCHES,
  ...RUNTIME_PROFILE_PATCHES,
  ...RECORDS_PROFILE_PATCHES,
  ...CONTRACTS_PROFILE_PATCHES,
  ...ACCOUNTING_PROFILE_PATCHES,
  ...LOG_ANSWER_PROFILE_PATCHES,
  ...READINGS_PROFILE_PATCHES,
};

/** Patch mutants whose patched module the suite reaches outside the in-process driver (the wire driver's endpoint): the
 * whole test file is loaded as the copy, so the patch applies wherever the module is used, the suite's side included. */
export const SUITE_SCOPED: ReadonlySet<string> = new Set(['allowed-not-recorded', 'reopen-fresh-spend', 'wire-stale-accepted', 'wire-caller-signature-unchecked', 'wire-repeat-redecided', 'wire-decides-at-named-time', 'wire-oversize-accepted', 'wire-reply-non-canonical', 'wire-window-narrowed', 'wire-window-widened', 'wire-cap-edge-refused', 'replay-at-current-time', 'wire-debit-on-deny']);
