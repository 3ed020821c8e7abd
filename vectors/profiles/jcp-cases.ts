// The named profiles.json cases of jcp:P-PROPAGATION (§4.3), jcp:P-DYNAMISM (§5.4, §5.6), jcp:P-INFLIGHT (§4.11)
// and the jcp:P-TRACE clauses conformance/v1 had no vector for (§5 unjudgeable counters, §5.5 the floor's basis, §5.6
// the bound that never verifies; §5.3's are efficiency.json's Trace vectors). Each expected answer is written here from
// the spec's words, never read from the reference: §4.3's order of markers ("an allow from a point at known_through < M
// is explicable and one at known_through >= M is not", "The second is a violation", no marker reads unverifiable) and
// its rule that a point holding a revocation "MUST then deny (revoked)" the grant and "any chain containing it"; §5.4's
// findings ("we have no yardstick", "we could not have seen it", "look at this"); §5.6's "in advance" and
// "An inconsistency refutes the declaration"; §4.11's unresolved decision and budget arithmetic; §5's overrun against
// a static limit; §5.5's measured or modelled floor; §5.6's envelope (µJ = mW × ns / 10⁶).
//
// Left out where the spec leaves the point open (the executor, ./jcp-execute.ts, normalises the rest): the kind of
// propagation path, whether a point is reached before its delivery, whether markers are stated (a SHOULD), and whether
// the path or the point turns away a revocation whose authority does not verify; whether a band's edges are within it
// (no window sits on an edge); whether a baseline taken at a finer sampling window applies, and which of unresolvable
// and inapplicable a window both short and without a yardstick reads (neither is asked); a window exactly one sampling
// window long; whether an evidenced cause explains; a declaration at the very instant the observation begins; who an
// unresolved decision names as its holder; the floor's fraction; figures outside the envelope (§5.6 "MAY refute").
import { blake3 as nobleBlake3 } from '@noble/hashes/blake3.js';
import { toHex } from '../../impl/bytes.ts';
import { deriveSeed, keyPairFromSeed } from '../../impl/identity/ed25519.ts';
import { contentId } from '../../impl/jcp/content-id.ts';
import type { Case } from '../cases.ts';
import type { Json, JsonObject } from '../model.ts';

const P = 'profiles' as const;
const utf8 = new TextEncoder();
const exactly = (e: JsonObject, result: 'valid' | 'invalid' = 'valid') => ({ exactly: e, result });
const seedHex = (label: string): string => toHex(deriveSeed(`jcp-vectors/v1:${label}`));
const didOf = (label: string): string => keyPairFromSeed(deriveSeed(`jcp-vectors/v1:${label}`)).did;
/** A 16-byte nonce from a label. */
const nonce = (label: string): string => toHex(nobleBlake3(utf8.encode(`jcp-vectors/v1 nonce:${label}`)).slice(0, 16));
const TOOL = contentId({ resource: 'tool:search' });
const ARGS = contentId({ payload: 'args' });
const MAX = Number.MAX_SAFE_INTEGER; // 2^53 − 1: the largest integer a pack holds

// ---- jcp:P-PROPAGATION ------------------------------------------------------------------------------------------

const DEFINE = 'jcp/4.3#define-revocation-propagation';
const NO_MARKER = 'jcp/4.3#no-marker-unverifiable';
const SUBTREE = 'jcp/4.3#subtree-dies';
const AUTHORITY = 'jcp/4.3#verify-revocation-authority';

/** §4.3: no marker reads unverifiable ("did not say" is not "was current"); below M explicable; at or above M a violation. */
const auditVerdict = (m: number, k: number | undefined): string => (k === undefined ? 'unverifiable-for-revocation' : k < m ? 'explicable' : 'violation');

function auditCases(): Case[] {
  const A = (name: string, comment: string, m: number, ks: (number | undefined)[]): Case => ({
    pack: P,
    name,
    type: 'PropagationAudit',
    comment,
    flags: ['RevocationMarker'],
    clauses: [NO_MARKER],
    inputs: { revoked_at: m, allows: ks.map((k) => (k === undefined ? {} : { known_through: k })) },
    intent: exactly({ verdicts: ks.map((k) => auditVerdict(m, k)) }),
  });
  return [
    A('propagation-audit-no-marker', 'three allows from points that state no marker, against a revocation issued at 5: each unverifiable for revocation, never compliant', 5, [undefined, undefined, undefined]),
    A('propagation-audit-around-m', 'allows at known_through 4, 5 and 6 against a revocation issued at 5: explicable below M, a violation at and above it', 5, [4, 5, 6]),
    A('propagation-audit-m-zero', 'a revocation issued at marker 0: known_through 0 and 1 are at or above it (violations); no marker is unverifiable', 0, [0, 1, undefined]),
    A('propagation-audit-m-one', 'a revocation issued at 1: known_through 0 is explicable, 1 and 2 are violations, no marker unverifiable', 1, [0, 1, 2, undefined]),
    A('propagation-audit-zero-not-absent', 'known_through 0 stated is explicable against M = 1; the same allow with no marker is unverifiable, not "current at 0"', 1, [0, undefined]),
    A('propagation-audit-mixed', 'a revocation issued at 10, six allows in order: no marker, 9, no marker, 10, 0, no marker', 10, [undefined, 9, undefined, 10, 0, undefined]),
    A('propagation-audit-largest', 'a revocation issued at 2^53 − 1: known_through 2^53 − 2 is explicable, 2^53 − 1 a violation, no marker unverifiable', MAX, [MAX - 1, MAX, undefined]),
    A('propagation-audit-no-allows', 'no allows to audit: no verdicts', 3, []),
  ];
}

interface Mint {
  readonly mint: JsonObject;
}
interface Att {
  readonly attenuate: JsonObject;
}
/** A root grant from `issuer` to `subject` over TOOL, call and read, 1000 µJ. */
const mint = (label: string, issuer = 'alice', subject = 'bob'): Mint => ({ mint: { issuer_seed: seedHex(issuer), subject: didOf(subject), resource: TOOL, actions: ['call', 'read'], budget_uj: 1000, nonce: nonce(`propagation:${label}`) } });
/** A child of grant `parent`, from its holder to `subject`, every other axis inherited. */
const child = (label: string, parent: number, holder = 'bob', subject = 'carol'): Att => ({ attenuate: { parent, holder_seed: seedHex(holder), subject: didOf(subject), nonce: nonce(`propagation:${label}`) } });
const issue = (grant: number, label: string, revoker = 'alice'): JsonObject => ({ issue: { grant, revoker_seed: seedHex(revoker), nonce: nonce(`propagation-revocation:${label}`) } });
const deliver = (point: string): JsonObject => ({ deliver: point });
const decide = (point: string, chain: number[], caller = 'bob'): JsonObject => ({ decide: { point, chain, caller: didOf(caller), resource: TOOL, payload_hash: ARGS, uj: 10, now_s: 1000 } });
const ALLOW: JsonObject = { verdict: 'allow' };
const REVOKED: JsonObject = { verdict: 'deny', deny_reason: 'revoked' };

function pathCases(): Case[] {
  const C = (name: string, comment: string, clauses: string[], grants: (Mint | Att)[], points: string[], ops: JsonObject[], decisions: JsonObject[], flags: string[] = []): Case => ({
    pack: P,
    name,
    type: 'PropagationPath',
    comment,
    flags: ['PropagationPath', ...flags],
    clauses,
    inputs: { steward_seed: seedHex('steward'), grants: grants as unknown as Json[], points, ops },
    // §4.3: the implementation defines its path; a point the path has run for holds the revocation and "MUST then deny
    // (revoked)"; a stated marker is "monotonic", "a larger value mean[s] 'has seen at least as much'"
    intent: exactly({ defined: true, decisions, markers_hold: true }, decisions[decisions.length - 1]!['verdict'] === 'deny' ? 'invalid' : 'valid'),
  });
  return [
    C('propagation-path-one-point', 'a live grant is allowed at a point; its revocation issued and the path run for that point: the point then denies it revoked', [DEFINE], [mint('one')], ['p'], [decide('p', [0]), issue(0, 'one'), deliver('p'), decide('p', [0])], [ALLOW, REVOKED]),
    C(
      'propagation-path-two-points',
      'two revocations through one path: the point holds each after its run, the first still held after the second; another point, reached by its own run, denies both',
      [DEFINE],
      [mint('two-1'), mint('two-2')],
      ['p', 'q'],
      [decide('p', [0]), issue(0, 'two-1'), deliver('p'), decide('p', [0]), issue(1, 'two-2'), deliver('p'), decide('p', [1]), decide('p', [0]), deliver('q'), decide('q', [0]), decide('q', [1])],
      [ALLOW, REVOKED, REVOKED, REVOKED, REVOKED, REVOKED],
    ),
    C('propagation-path-other-grant-live', "grant 2's revocation delivered: grant 1, which it does not name, is still allowed; grant 2 is revoked", [DEFINE], [mint('other-1'), mint('other-2')], ['p'], [issue(1, 'other-2'), deliver('p'), decide('p', [0]), decide('p', [1])], [ALLOW, REVOKED]),
    C(
      'propagation-path-subtree',
      "the root's revocation delivered: the chain root → child (bob to carol) dies with its ancestor, and so does the root alone",
      [DEFINE, SUBTREE],
      [mint('subtree-root'), child('subtree-child', 0)],
      ['p'],
      [decide('p', [0, 1], 'carol'), issue(0, 'subtree-root'), deliver('p'), decide('p', [0, 1], 'carol'), decide('p', [0])],
      [ALLOW, REVOKED, REVOKED],
    ),
    C(
      'propagation-path-child-only',
      "the child's revocation by its issuer bob delivered: the chain containing it is revoked; the root alone, which does not contain it, is allowed",
      [DEFINE, SUBTREE],
      [mint('child-root'), child('child-child', 0)],
      ['p'],
      [issue(1, 'child-child', 'bob'), deliver('p'), decide('p', [0, 1], 'carol'), decide('p', [0])],
      [REVOKED, ALLOW],
    ),
    C(
      'propagation-path-unauthorized',
      'a revocation of alice\'s grant signed by mallory, not its issuer, run through the path (refused by the path or ignored by the point): the grant stays allowed; alice\'s own revocation then revokes it',
      [DEFINE, AUTHORITY],
      [mint('unauthorized')],
      ['p'],
      [issue(0, 'unauthorized-mallory', 'mallory'), deliver('p'), decide('p', [0]), issue(0, 'unauthorized-alice'), deliver('p'), decide('p', [0])],
      [ALLOW, REVOKED],
      ['Revoked'],
    ),
  ];
}

// ---- jcp:P-DYNAMISM ---------------------------------------------------------------------------------------------

const DECLARED = 'jcp/5.4#baseline-declared';
const OUTSIDE = 'jcp/5.4#baseline-not-applied-outside';
const EVIDENCE = 'jcp/5.4#cause-carries-evidence';
const NO_INTENT = 'jcp/5.4#no-verdict-of-intent';
const NO_SCORE = 'jcp/5.4#no-single-score';
const ADVANCE = 'jcp/5.6#shape-declared-in-advance';

const SAMPLING = 100_000_000; // 100 ms
const ON = { silicon: 'rtx-4050-laptop', occupancy: 'exclusive', sampling_ns: SAMPLING };
const LO = 1_000;
const HI = 2_000;
const CAUSES = ['thermal-limit', 'host-contention', 'cold-start', 'frequency-scaling', 'coverage-gap'];
/** A window of `uj` µJ over two sampling windows (resolvable), or over `duration_ns`. */
const W = (uj: number, duration_ns = 2 * SAMPLING): JsonObject => ({ duration_ns, uj });
/** A content id standing for the reading behind a cause. */
const reading = (n: number): string => n.toString(16).padStart(2, '0').repeat(32);

/**
 * §5.4 for one window: shorter than one sampling window, "unresolvable, never within band" ("we could not have seen
 * it"); against a baseline measured elsewhere or nowhere, inapplicable ("we have no yardstick"); strictly inside the
 * band, within band; outside it, with no cause, unexplained ("look at this"; never a verdict of intent).
 * Edges of the band and a window exactly one sampling window long are never asked (open).
 */
function finding(w: JsonObject, applies: boolean): string {
  const d = w['duration_ns'] as number;
  const uj = w['uj'] as number;
  if (uj === LO || uj === HI || d === SAMPLING) throw new Error('jcp-cases: a window on an open point');
  if (d < SAMPLING) {
    if (!applies) throw new Error('jcp-cases: a short window without a yardstick is open');
    return 'unresolvable';
  }
  if (!applies) return 'inapplicable';
  return uj > LO && uj < HI ? 'within-band' : 'unexplained';
}
const sameOn = (a: JsonObject, b: typeof ON): boolean => a['silicon'] === b.silicon && a['occupancy'] === b.occupancy && a['sampling_ns'] === b.sampling_ns;

function windowsCases(): Case[] {
  const out: Case[] = [];
  const Wc = (name: string, comment: string, clauses: string[], windows: JsonObject[], measured_on: typeof ON, flags: string[]): void => {
    // applied only where measured: the reference of "elsewhere" here is one that differs from the series' silicon,
    // occupancy or sampling window — never a finer one alone (open)
    if (measured_on.sampling_ns < ON.sampling_ns) throw new Error('jcp-cases: a finer baseline is open');
    const applies = sameOn(measured_on as unknown as JsonObject, ON);
    const kinds = windows.map((w) => finding(w, applies));
    out.push({ pack: P, name, type: 'DynamismWindows', comment, flags, clauses, inputs: { series: ON, windows, baseline: { lo_uj: LO, hi_uj: HI, measured_on } }, intent: exactly({ windows: kinds }) });
  };
  const SPREAD = [W(1_500), W(LO + 1), W(HI - 1), W(LO - 1), W(HI + 1), W(0), W(2 ** 40)];
  Wc('dynamism-declared-applied', 'a band of 1000…2000 µJ declared where the series was measured: inside it within band, 1 µJ outside either edge, 0 and 2^40 µJ unexplained', [DECLARED, NO_INTENT], SPREAD, ON, ['BaselineScope']);
  Wc('dynamism-other-silicon', 'the same band measured on other silicon: no yardstick, every window inapplicable', [OUTSIDE], SPREAD, { ...ON, silicon: 'm2-max' }, ['BaselineScope']);
  Wc('dynamism-other-occupancy', 'the same band measured at another occupancy: every window inapplicable', [OUTSIDE], SPREAD, { ...ON, occupancy: 'shared-4-tenants' }, ['BaselineScope']);
  Wc('dynamism-coarser-sampling', 'the same band measured at a coarser sampling window (1 s for a 100 ms series): every window inapplicable', [OUTSIDE], SPREAD, { ...ON, sampling_ns: 10 * SAMPLING }, ['BaselineScope']);
  Wc('dynamism-coarser-by-one', 'the same band measured at a sampling window 1 ns coarser: every window inapplicable', [OUTSIDE], SPREAD, { ...ON, sampling_ns: SAMPLING + 1 }, ['BaselineScope']);
  Wc('dynamism-all-three-elsewhere', 'a band measured on other silicon, at another occupancy and a coarser window: every window inapplicable', [OUTSIDE], SPREAD, { silicon: 'm2-max', occupancy: 'shared-4-tenants', sampling_ns: 2 * SAMPLING }, ['BaselineScope']);
  Wc('dynamism-deviation-any-size', 'deviations from 1 µJ below the band to 2^53 − 1 µJ, repeated, beside one window within band: each deviation unexplained, a request for a look and never a verdict of intent', [NO_INTENT], [W(LO - 1), W(HI + 1), W(MAX), W(MAX), W(0), W(1_500), W(HI * 1_000)], ON, ['WindowFindings']);
  Wc('dynamism-three-findings', 'a deviation, a phenomenon half a sampling window long whose figure sits inside the band, and a window within band: unexplained, unresolvable, within band, kept apart', [NO_SCORE], [W(HI * 3), W(1_500, SAMPLING / 2), W(1_500)], ON, ['WindowFindings']);
  Wc('dynamism-no-yardstick-apart', 'the same deviation and in-band window against a baseline from other silicon: inapplicable, not unexplained', [NO_SCORE, OUTSIDE], [W(HI * 3), W(1_500)], { ...ON, silicon: 'm2-max' }, ['WindowFindings']);
  Wc('dynamism-short-never-within', 'phenomena 0 ns, 1 ns and one sampling window less 1 ns long, with figures inside, below and far above the band: each unresolvable, never within band; a long deviation beside them unexplained', [NO_SCORE], [W(1_500, 0), W(0, 1), W(2 ** 40, SAMPLING - 1), W(1_500, SAMPLING - 1), W(HI + 1)], ON, ['WindowFindings']);
  return out;
}

function undeclaredCases(): Case[] {
  const U = (name: string, comment: string, lo: number, hi: number, ujs: number[]): Case => ({
    pack: P,
    name,
    type: 'DynamismUndeclared',
    comment: `${comment} (refused, or every window inapplicable: applied to none)`,
    flags: ['BaselineScope'],
    clauses: [DECLARED],
    // §5.4 "An undeclared baseline is inapplicable": applied to no window (windows are all resolvable: a short one
    // without a yardstick is open)
    inputs: { series: ON, windows: ujs.map((u) => W(u)), baseline: { lo_uj: lo, hi_uj: hi } },
    intent: exactly({ applied: ujs.map(() => false) }, 'invalid'),
  });
  return [
    U('dynamism-undeclared', 'the band 1000…2000 µJ with no measured_on, windows inside, 1 µJ outside each edge, 0 and 2^40 µJ', LO, HI, [1_500, LO + 1, HI - 1, LO - 1, HI + 1, 0, 2 ** 40]),
    U('dynamism-undeclared-point-band', 'an undeclared band of one value, 7 µJ, against windows of 7, 6 and 8 µJ', 7, 7, [7, 6, 8]),
    U('dynamism-undeclared-wide', 'an undeclared band 0…2^53 − 1 that every window sits in', 0, MAX, [0, 1, 123_456]),
  ];
}

function causesCases(): Case[] {
  const base = { lo_uj: LO, hi_uj: HI, measured_on: ON };
  const C = (name: string, comment: string, windows: JsonObject[], causes: JsonObject[]): Case => {
    const evidenced = new Set(causes.filter((c) => c['evidence'] !== undefined).map((c) => c['window'] as number));
    // §5.4 "A cause explains a deviation only with evidence": a window no cause names with evidence reads explained
    // nowhere (a window a cause names with evidence may read either way, so it is left out)
    const expected = windows.flatMap((_, i) => (evidenced.has(i) ? [] : [{ window: i, explained: false }]));
    return { pack: P, name, type: 'DynamismCauses', comment, flags: ['CauseEvidence'], clauses: [EVIDENCE], inputs: { series: ON, windows, baseline: base, causes }, intent: exactly({ windows: expected }, causes.some((c) => c['evidence'] === undefined) ? 'invalid' : 'valid') };
  };
  const devs = CAUSES.map((_, i) => W(i % 2 === 0 ? HI + 500 + i : LO - 500 - i));
  return [
    C('dynamism-cause-no-evidence', "each of §5.4's five named causes without a reading's content id, on a deviation of its own: none explains (refused, or each stays unexplained)", devs, CAUSES.map((cause, i) => ({ window: i, cause }))),
    C('dynamism-cause-mixed-evidence', 'five deviations: thermal limit with evidence on window 0, host contention without on window 1, cold start with evidence on window 2, none on windows 3 and 4: windows 1, 3 and 4 are not explained', devs, [
      { window: 0, cause: 'thermal-limit', evidence: reading(1) },
      { window: 1, cause: 'host-contention' },
      { window: 2, cause: 'cold-start', evidence: reading(2) },
    ]),
    C('dynamism-cause-evidence-elsewhere', "every cause with its reading's content id, on windows 0 and 1 only: the deviations of windows 2, 3 and 4, which no cause names, are not explained (the request is judged)", devs, [
      { window: 0, cause: 'frequency-scaling', evidence: reading(3) },
      { window: 1, cause: 'coverage-gap', evidence: reading(4) },
    ]),
  ];
}

function shapeCases(): Case[] {
  const SHAPES = ['flat', 'ramp', 'alternating'];
  const out: Case[] = [];
  const S = (name: string, comment: string, declared: string, at: number, observed: string, from: number): void => {
    if (at === from) throw new Error('jcp-cases: a declaration at the instant the observation begins is open');
    // §5.6 "A declared shape MUST be declared in advance"; "An inconsistency refutes the declaration"
    const expected: JsonObject = at > from ? { judged: false } : { finding: declared === observed ? 'not-refuted' : 'refuted' };
    out.push({ pack: P, name, type: 'DynamismShape', comment, flags: ['ShapeInAdvance'], clauses: [ADVANCE], inputs: { declared, declared_at_ns: at, observed, observed_from_ns: from }, intent: exactly(expected, at > from ? 'invalid' : 'valid') });
  };
  for (const s of SHAPES) {
    S(`dynamism-shape-late-${s}`, `the observed shape ${s} declared 4 µs after the observation began: no declaration in advance, never judged against the observation (not-in-advance, or refused)`, s, 5_000, s, 1_000);
    S(`dynamism-shape-advance-${s}`, `${s} declared 500 ns before an observation that was ${s}: not refuted (and never "verified")`, s, 500, s, 1_000);
  }
  S('dynamism-shape-advance-refuted', 'flat declared before an observation that ramped: the inconsistency refutes the declaration', 'flat', 500, 'ramp', 1_000);
  S('dynamism-shape-advance-refuted-alternating', 'ramp declared before an observation that alternated: refuted', 'ramp', 0, 'alternating', 1);
  S('dynamism-shape-one-ns-before', 'alternating declared 1 ns before the observation began, observed alternating: judged, not refuted', 'alternating', 999, 'alternating', 1_000);
  S('dynamism-shape-one-ns-late', 'flat declared 1 ns after the observation began, observed ramp: not judged (it would have been refuted)', 'flat', 1_001, 'ramp', 1_000);
  S('dynamism-shape-late-largest', 'flat declared at 2^53 − 1 ns for an observation from 0: not judged', 'flat', MAX, 'alternating', 0);
  return out;
}

// ---- jcp:P-INFLIGHT ---------------------------------------------------------------------------------------------

const NOT_RETRIED = 'jcp/4.11#in-flight-not-retried';
const NOT_SETTLED = 'jcp/4.11#in-flight-not-settled';
const STAYS = 'jcp/4.11#in-flight-stays-debited';

function inflightCases(): Case[] {
  const BUDGET = 1000;
  type Op = { open: string } | { close: true } | { decide: number } | { complete: [number, 'completed' | 'failed'] } | { status: number };
  const I = (name: string, comment: string, clauses: string[], script: Op[], expected: Json[]): Case => {
    let d = 0;
    const ops = script.map((o): JsonObject => {
      if ('decide' in o) return { decide: { uj: o.decide, payload_hash: contentId({ payload: `inflight:${name}:${d++}` }) } };
      if ('complete' in o) return { complete: { decision: o.complete[0], outcome: o.complete[1] } };
      if ('status' in o) return { status: { decision: o.status } };
      if ('close' in o) return { close: true };
      return { open: o.open };
    });
    return {
      pack: P,
      name,
      type: 'InflightScript',
      comment,
      flags: ['InFlightUnresolved'],
      clauses,
      inputs: { issuer_seed: seedHex('alice'), steward_seed: seedHex('steward'), caller: didOf('bob'), now_s: 1, grant: { subject: didOf('bob'), resource: TOOL, actions: ['call'], budget_uj: BUDGET, nonce: nonce(`inflight:${name}`) }, ops },
      intent: exactly({ ops: expected }),
    };
  };
  const allow: Json = { decide: { verdict: 'allow' } };
  const over: Json = { decide: { verdict: 'deny', deny_reason: 'budget-exceeded' } };
  const st = (s: string): Json => ({ status: s });
  // §4.11: a recorded decision with no recorded outcome, found on open, "MUST NOT [be reported] as completed or as
  // failed" (the protocol's word for it: unresolved); "MUST NOT silently retry" (a retry decides and debits again);
  // "Its energy MUST stay debited". What is left of the 1000 µJ: the budget less every allowed decision, exactly once.
  return [
    I(
      'inflight-unresolved-on-reopen',
      'holder A allows 300 µJ (left in flight) and 200 µJ (completed), then closes; reopened by B: the first reads unresolved, the second completed; 501 µJ is over what is left (500), 500 is allowed; the first is still unresolved; settled failed by an operator, it reads failed, and so after the next reopen',
      [NOT_SETTLED, NOT_RETRIED, STAYS],
      [{ open: 'holder-A' }, { decide: 300 }, { decide: 200 }, { status: 0 }, { complete: [1, 'completed'] }, { status: 1 }, { close: true }, { open: 'holder-B' }, { status: 0 }, { status: 1 }, { decide: BUDGET - 500 + 1 }, { decide: BUDGET - 500 }, { status: 0 }, { complete: [0, 'failed'] }, { status: 0 }, { close: true }, { open: 'holder-C' }, { status: 0 }, { close: true }],
      [allow, allow, st('in-flight'), st('completed'), st('unresolved'), st('completed'), over, allow, st('unresolved'), st('failed'), st('failed')],
    ),
    I(
      'inflight-beside-settled',
      'holder A allows 300 µJ (in flight), 200 µJ (completed) and 100 µJ (failed: its energy was spent too); reopened by B: unresolved, completed, failed; 401 µJ is over what is left (400), 400 is allowed',
      [NOT_SETTLED, NOT_RETRIED, STAYS],
      [{ open: 'holder-A' }, { decide: 300 }, { decide: 200 }, { decide: 100 }, { complete: [1, 'completed'] }, { complete: [2, 'failed'] }, { close: true }, { open: 'holder-B' }, { status: 0 }, { status: 1 }, { status: 2 }, { decide: 401 }, { decide: 400 }, { close: true }],
      [allow, allow, allow, st('unresolved'), st('completed'), st('failed'), over, allow],
    ),
    I(
      'inflight-two-reopens',
      'two decisions left in flight (600 and 300 µJ), reopened twice: both unresolved each time, never retried: 101 µJ is over what is left (100) after each reopen, 100 is allowed after the second',
      [NOT_SETTLED, NOT_RETRIED, STAYS],
      [{ open: 'holder-A' }, { decide: 600 }, { decide: 300 }, { close: true }, { open: 'holder-B' }, { status: 0 }, { status: 1 }, { decide: 101 }, { close: true }, { open: 'holder-C' }, { status: 0 }, { status: 1 }, { decide: 101 }, { decide: 100 }, { close: true }],
      [allow, allow, st('unresolved'), st('unresolved'), over, st('unresolved'), st('unresolved'), over, allow],
    ),
    I(
      'inflight-whole-budget',
      'one decision of the whole 1000 µJ left in flight; reopened: unresolved, and 1 µJ more is over the budget (a retry or a release would leave room)',
      [NOT_SETTLED, NOT_RETRIED, STAYS],
      [{ open: 'holder-A' }, { decide: BUDGET }, { close: true }, { open: 'holder-B' }, { status: 0 }, { decide: 1 }, { close: true }],
      [allow, st('unresolved'), over],
    ),
  ];
}

// ---- jcp:P-TRACE (the clauses without a vector in efficiency.json) ------------------------------------------------

const UNJUDGEABLE = 'jcp/5#unjudgeable-not-overran';
const FLOOR = 'jcp/5.5#report-floor-basis';
const NOT_VERIFIED = 'jcp/5.6#bound-not-verification';

function traceCases(): Case[] {
  const out: Case[] = [];
  // the RTX 4050 Laptop GPU of jcp §5: a 65 W limit, a ~590 W wake spike past it ("A bound reading that is itself
  // impossible is not a reading")
  const LIMIT = 65_000;
  const S10 = 10_000_000_000; // 10 s
  const U = (name: string, comment: string, mw: number, draws: number[]): void => {
    if (draws.some((d) => d <= LIMIT)) throw new Error('jcp-cases: a usable draw sample');
    // §5: with no usable draw reading the counter is unjudgeable, "MUST NOT report it as a counter that overran"; the
    // static limit "is never discarded, so a broken draw sample cannot excuse a counter that overran that limit outright"
    out.push({ pack: P, name, type: 'TraceUnjudgeable', comment, flags: ['UnjudgeableCounter'], clauses: [UNJUDGEABLE], inputs: { delta_uj: (mw * S10) / 1_000_000, duration_ns: S10, telemetry: { draw_mw: draws, limit_mw: LIMIT } }, intent: exactly({ overran: mw > LIMIT }) });
  };
  const BROKEN = [590_000, 610_000, 588_000];
  U('trace-unjudgeable-broken-draws', 'a 10 W counter over 10 s, every draw sample past the 65 W limit (590, 610, 588 W): no yardstick, not a counter that overran', 10_000, BROKEN);
  U('trace-unjudgeable-one-sample', 'a 10 W counter, one draw sample of 590 W: not reported as overrunning', 10_000, [590_000]);
  U('trace-unjudgeable-fast-counter', 'a counter at 59.2 W (four times a sane 14.8 W draw) with only broken draw samples: unjudgeable, not overran', 59_200, BROKEN);
  U('trace-unjudgeable-at-limit', 'a counter at exactly the 65 W limit (not past it), draw samples 1 mW past the limit: not overran', LIMIT, [LIMIT + 1, LIMIT + 1]);
  U('trace-limit-never-discarded', 'a counter at 444 W, past the 65 W static limit, beside broken draw samples: the limit is never discarded, so it overran', 444_000, BROKEN);

  // §5.5: "MUST report whether the floor it quotes rests on a measured figure or a modelled one"; a ModelBased figure is
  // a model's (§5: "a model calibrated on the host or against a reading, or a real reading apportioned by a model"), and
  // a floor resting on any modelled figure rests on a modelled one (§5.3: no aggregation improves a grade)
  const F = (name: string, comment: string, budget: number, provenances: string[]): void => {
    out.push({ pack: P, name, type: 'TraceFloorBasis', comment, flags: ['FloorBasis'], clauses: [FLOOR], inputs: { budget_uj: budget, provenances }, intent: exactly({ rests_on: provenances.every((p) => p === 'HwShunt') ? 'measured' : 'modelled' }) });
  };
  F('trace-floor-measured', 'a one-joule grant over two HwShunt figures: measured', 1_000_000, ['HwShunt', 'HwShunt']);
  F('trace-floor-one-hwshunt', 'a 1 µJ grant over one HwShunt figure: measured', 1, ['HwShunt']);
  F('trace-floor-estimator', 'a one-joule grant over Estimator windows: modelled (exact arithmetic over a model\'s opinion)', 1_000_000, ['Estimator']);
  F('trace-floor-modelbased', 'over a ModelBased figure: modelled', 1_000_000, ['ModelBased']);
  F('trace-floor-mixed-estimator', 'HwShunt beside Estimator: modelled', 1_000_000, ['HwShunt', 'Estimator']);
  F('trace-floor-mixed-modelbased', 'HwShunt, HwShunt and one ModelBased last: modelled', MAX, ['HwShunt', 'HwShunt', 'ModelBased']);
  F('trace-floor-modelled-first', 'Estimator first, then HwShunt: modelled', 3, ['Estimator', 'HwShunt']);

  // §5.6: "Passing a physical bound MUST NOT be reported as verification. A fabricated figure inside the envelope
  // passes, and must": inside [floor × duration, ceiling × duration] (µJ = mW × ns / 10⁶; "exceeds", "falls below" are
  // strict) the finding is not-refuted
  const B = (name: string, comment: string, energy_uj: number, duration_ns: number, floor_mw: number, ceiling_mw: number): void => {
    const lo = floor_mw * duration_ns;
    const hi = ceiling_mw * duration_ns;
    if (energy_uj * 1_000_000 < lo || energy_uj * 1_000_000 > hi || !Number.isSafeInteger(hi)) throw new Error('jcp-cases: a figure outside the envelope');
    out.push({ pack: P, name, type: 'TracePhysicalBound', comment, flags: ['BoundNotVerification'], clauses: [NOT_VERIFIED], inputs: { energy_uj, duration_ns, floor_mw, ceiling_mw }, intent: exactly({ finding: 'not-refuted' }) });
  };
  const S1 = 1_000_000_000; // 1 s
  B('trace-bound-inside', '2 J over 1 s against a 1 W floor and a 100 W ceiling: not refuted, never verified', 2_000_000, S1, 1_000, 100_000);
  B('trace-bound-at-ceiling', 'exactly the ceiling, 100 J over 1 s at 100 W: does not exceed it, not refuted', 100_000_000, S1, 1_000, 100_000);
  B('trace-bound-at-floor', 'exactly the floor, 1 J over 1 s at 1 W: does not fall below it, not refuted', 1_000_000, S1, 1_000, 100_000);
  B('trace-bound-fabricated-inside', 'a fabricated figure anywhere inside the envelope (1 µJ over the floor over 250 ms): passes, and is not verified', 250_001, 250_000_000, 1_000, 100_000);
  B('trace-bound-zero-floor', 'zero joules against a zero floor: not refuted', 0, S1, 0, 100_000);
  B('trace-bound-point-envelope', 'an envelope of one value (floor = ceiling = 15 W) over 2 s, hit exactly: not refuted', 30_000_000, 2 * S1, 15_000, 15_000);
  return out;
}

/** Every case of the jcp group, profile by profile, in a stable order. */
export function jcpCases(): Case[] {
  return [...auditCases(), ...pathCases(), ...windowsCases(), ...undeclaredCases(), ...causesCases(), ...shapeCases(), ...inflightCases(), ...traceCases()];
}
