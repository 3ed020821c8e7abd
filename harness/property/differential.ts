// The differential properties: each draws random operation sequences (./model.ts) aimed at one
// class, runs every sequence against the reference (in-process, fresh per sequence) and the implementation under test,
// and compares what the class fixes — bytes where the spec fixes bytes, verdicts, deny reasons, refusal codes and
// spend — step by step, plus invariants that need no reference (a deny debits nothing; no link's spend passes its
// root's budget; every decision's receipt verifies under the reference and says the verdict given). A failing
// sequence is shrunk by fast-check to its smallest form and written out as a replayable case file (./case.ts).
//
// Each property compares only what its own class fixes, so a fault is reported on the class whose rule it breaks:
// the decision property draws no caveats and does not compare receipt bytes, the receipt property compares receipt
// bytes and verification, the caveat property is the only one that draws caveats, and so on.
import fc from 'fast-check';
import { TesteeFailure, UnimplementedError, type Implementation } from '../implementation.ts';
import type { Json } from '../../vectors/model.ts';
import { firstDifference } from '../../vectors/model.ts';
import { CAVEATS, execute, NON_CANONICAL, STEWARD, type CaveatName, type Observation, type Op } from './model.ts';
import { decodeCanonical, fromHex, verifyReceipt } from '../oracle.ts';
import { behaviourOf } from '../../vectors/replay.ts';
import { DEFAULT_RUNS } from './runs.ts';
import { comparableCore } from '../core-compare.ts';

/** The names of the differential properties; each is one conformance test and one pack a found case promotes into. */
export const PROPERTY_NAMES = ['grants', 'decisions', 'caveats', 'receipts', 'canonical', 'replay', 'money'] as const;
export type PropertyName = (typeof PROPERTY_NAMES)[number];

/** One differential property. */
export interface DifferentialProperty {
  readonly name: PropertyName;
  readonly title: string;
  /** The clause ids it checks (spec-map/clauses/jcp.json): its class(es) in the reports. */
  readonly clauses: readonly string[];
  /** The vector pack a case found by it is promoted into. */
  readonly pack: 'grants' | 'decisions' | 'caveats' | 'receipts' | 'money';
  /** The operations it draws. */
  readonly ops: fc.Arbitrary<Op>;
  /** What of an observation the class fixes (compared between the two implementations). */
  project(o: Observation): Json;
  /** Violations of reference-free invariants in the implementation's own observations. */
  invariants(ops: readonly Op[], obs: readonly Observation[]): string[];
}

// ---- operation arbitraries ------------------------------------------------------------------------------------------

const idx = fc.nat({ max: 7 });
const mintArb = (o: { caveats?: boolean; funds?: boolean } = {}) =>
  fc.record(
    {
      op: fc.constant('mint' as const),
      issuer: fc.nat({ max: 4 }),
      subject: fc.nat({ max: 4 }),
      resource: fc.nat({ max: 1 }),
      actions: fc.integer({ min: 1, max: 15 }),
      budget_uj: fc.constantFrom(0, 100, 250, 1000),
      expiry: fc.constantFrom(0, 0, 1000, 2000),
      depth: fc.constantFrom(0, 2),
      ...(o.caveats ? { caveat: fc.constantFrom(...(Object.keys(CAVEATS) as CaveatName[])) } : {}),
      ...(o.funds ? { funds: fc.constantFrom(0, 10, 100) } : {}),
    },
    { requiredKeys: ['op', 'issuer', 'subject', 'resource', 'actions', 'budget_uj', 'expiry'], noNullPrototype: true },
  ) as fc.Arbitrary<Op>;
const attenuateArb = (o: { caveats?: boolean; funds?: boolean } = {}) =>
  fc.record(
    {
      op: fc.constant('attenuate' as const),
      parent: idx,
      subject: fc.nat({ max: 4 }),
      actions: fc.integer({ min: 1, max: 15 }),
      budget_pct: fc.constantFrom(0, 30, 50, 100),
      expiry: fc.constantFrom(0, 500, 1000, 3000),
      by: fc.constantFrom('holder' as const, 'holder' as const, 'holder' as const, 'holder' as const, 'mallory' as const),
      widen: fc.constantFrom(...(['actions', 'budget', 'expiry', ...(o.funds ? ['funds'] : [])] as const)),
      ...(o.caveats ? { caveat: fc.constantFrom(...(Object.keys(CAVEATS) as CaveatName[])) } : {}),
      ...(o.funds ? { funds_pct: fc.constantFrom(50, 100, 200) } : {}),
    },
    { requiredKeys: ['op', 'parent', 'subject', 'actions', 'budget_pct', 'expiry', 'by'] },
  ).map((a) => (a.widen !== undefined && a.actions % 4 !== 0 ? { ...a, widen: undefined } : a)).map(({ widen, ...a }) => (widen === undefined ? a : { ...a, widen })) as fc.Arbitrary<Op>;
const shardArb = fc.record({ op: fc.constant('shard' as const), parent: idx, parts: fc.integer({ min: 2, max: 3 }), pct: fc.constantFrom(50, 100, 120) });
const pointArb = fc.constant({ op: 'point' as const });
const revokeArb = fc.record({ op: fc.constant('revoke' as const), point: idx, grant: idx, by: fc.constantFrom('issuer' as const, 'issuer' as const, 'mallory' as const) });
const decideArb = (o: { funds?: boolean } = {}) =>
  fc.record(
    {
      op: fc.constant('decide' as const),
      point: idx,
      grant: idx,
      caller: fc.constantFrom('holder' as const, 'holder' as const, 'holder' as const, 'mallory' as const),
      action: fc.nat({ max: 3 }),
      any_action: fc.constantFrom(false, false, false, true),
      resource: fc.constantFrom('granted' as const, 'granted' as const, 'granted' as const, 'other' as const),
      trust: fc.constantFrom('control' as const, 'control' as const, 'control' as const, 'data' as const),
      cost_uj: fc.constantFrom(0, 10, 40, 60, 150, 400, 900),
      now_s: fc.constantFrom(100, 100, 1500, 2500),
      ...(o.funds ? { funds: fc.constantFrom(1, 5, 20) } : {}),
    },
    { requiredKeys: ['op', 'point', 'grant', 'caller', 'action', 'resource', 'trust', 'cost_uj', 'now_s'], noNullPrototype: true },
  ) as fc.Arbitrary<Op>;
const verifyArb = fc.record({ op: fc.constant('verify-receipt' as const), receipt: idx, flip: fc.option(fc.nat({ max: 400 }), { nil: undefined, freq: 2 }) }, { requiredKeys: ['op', 'receipt'] }) as fc.Arbitrary<Op>;
const cborArb = fc.record({ op: fc.constant('cbor-check' as const), grant: idx, form: fc.constantFrom(...NON_CANONICAL) });
const restartArb = fc.record({ op: fc.constant('restart' as const), point: idx });

const w = <T>(weight: number, arbitrary: fc.Arbitrary<T>) => ({ weight, arbitrary });

// ---- projections: what each class fixes ----------------------------------------------------------------------------

const pickKeys = (o: Observation, keys: readonly string[]): Json => Object.fromEntries(keys.filter((k) => k in o).map((k) => [k, o[k]!]));
/** A refusal as the class fixes it: its code. */
const isRefusal = (o: Observation): boolean => 'code' in o && Object.keys(o).length === 1;
/** Of a step the class does not compare: only whether it happened (so later steps act on the same objects). */
const shape = (o: Observation): Json => ('skip' in o ? 'skip' : isRefusal(o) ? 'refused' : 'ok');

// ---- invariants that need no reference ------------------------------------------------------------------------------

function noDebitOnDeny(ops: readonly Op[], obs: readonly Observation[]): string[] {
  return obs.flatMap((o, i) =>
    o['verdict'] === 'deny' && JSON.stringify(o['spent']) !== JSON.stringify(o['spent_before'])
      ? [`step ${i} (${ops[i]!.op}): a deny (${String(o['deny_reason'])}) moved the spend from ${JSON.stringify(o['spent_before'])} to ${JSON.stringify(o['spent'])}`]
      : [],
  );
}

function noSpendPastRoot(ops: readonly Op[], obs: readonly Observation[]): string[] {
  return obs.flatMap((o, i) => {
    const spent = o['spent'] as number[] | undefined;
    const root = (o['roots'] as number[] | undefined)?.[0];
    return spent && root !== undefined && spent[0]! > root ? [`step ${i} (${ops[i]!.op}): the root's spend ${spent[0]} passed its budget ${root}`] : [];
  });
}

/** Every decision's receipt verifies under the reference and says the verdict and reason the decision gave. */
function everyDecisionSealed(ops: readonly Op[], obs: readonly Observation[]): string[] {
  return obs.flatMap((o, i) => {
    if (typeof o['receipt'] !== 'string') return [];
    try {
      const { core } = verifyReceipt(fromHex(o['receipt']), { steward: STEWARD.did });
      const said = [core.verdict, core.deny_reason];
      return said[0] === o['verdict'] && said[1] === o['deny_reason'] ? [] : [`step ${i} (${ops[i]!.op}): the receipt says ${said.join(' ')}, the decision ${String(o['verdict'])} ${String(o['deny_reason'] ?? '')}`];
    } catch (e) {
      return [`step ${i} (${ops[i]!.op}): the receipt does not verify under the reference: ${e instanceof Error ? e.message : String(e)}`];
    }
  });
}

// ---- the properties --------------------------------------------------------------------------------------------------

export const PROPERTIES: Readonly<Record<PropertyName, DifferentialProperty>> = {
  grants: {
    name: 'grants',
    title: 'grant bytes, ids and attenuation refusals agree with the reference over random mint/attenuate/shard sequences',
    clauses: ['jcp/4#grant-id-and-signature', 'jcp/3#content-id-blake3', 'jcp/4#absent-optional-omitted', 'jcp/4.1#refuse-amplification', 'jcp/4.1#refuse-non-holder', 'jcp/4.1#expiry-not-outlive'],
    pack: 'grants',
    ops: fc.oneof(w(2, mintArb()), w(4, attenuateArb()), w(1, shardArb)),
    project: (o) => ('decide' in o ? shape(o) : o),
    invariants: () => [],
  },
  decisions: {
    name: 'decisions',
    title: 'verdicts, deny reasons and spend agree with the reference, and a deny debits nothing, over random sequences',
    clauses: ['jcp/7#debit-on-allow', 'jcp/5#debit-coupling', 'jcp/7#budget-exceeded', 'jcp/7#decision-deterministic'],
    pack: 'decisions',
    ops: fc.oneof(w(2, mintArb()), w(2, attenuateArb()), w(1, shardArb), w(1, pointArb), w(1, revokeArb), w(6, decideArb())),
    project: (o) => ('verdict' in o ? pickKeys(o, ['verdict', 'deny_reason', 'spent']) : 'applied' in o ? pickKeys(o, ['applied']) : shape(o)),
    invariants: (ops, obs) => [...noDebitOnDeny(ops, obs), ...noSpendPastRoot(ops, obs)],
  },
  caveats: {
    name: 'caveats',
    title: 'children carry their parents\' caveats and every link\'s caveats hold, as the reference says, over random chains',
    clauses: ['jcp/4.9#child-carries-parent-caveats', 'jcp/4.9#drop-caveat-refused', 'jcp/4.2#caveats-every-link', 'jcp/4.9#caveats-all-hold', 'jcp/4.2#sibling-conservation'],
    pack: 'caveats',
    ops: fc.oneof(w(2, mintArb({ caveats: true })), w(4, attenuateArb({ caveats: true })), w(5, decideArb())),
    project: (o) => ('verdict' in o ? pickKeys(o, ['verdict', 'deny_reason', 'spent']) : o),
    invariants: (ops, obs) => noSpendPastRoot(ops, obs),
  },
  receipts: {
    name: 'receipts',
    title: 'every decision is sealed in the receipt bytes the reference seals, and receipt verification agrees',
    clauses: ['jcp/8#every-decision-sealed', 'jcp/8#payload-hash-included', 'jcp/8#cose-sign1-eddsa', 'jcp/8#steward-is-kid'],
    pack: 'receipts',
    ops: fc.oneof(w(2, mintArb()), w(1, attenuateArb()), w(5, decideArb()), w(3, verifyArb)),
    // a verified core is compared as ../core-compare.ts reads it (jcp §8.1 chain_ids of a single grant)
    project: (o) => ('verdict' in o ? pickKeys(o, ['receipt']) : 'core' in o ? { ...o, core: comparableCore(o['core'] as object) as Json } : isRefusal(o) ? 'refused' : shape(o)),
    invariants: (ops, obs) => everyDecisionSealed(ops, obs),
  },
  canonical: {
    name: 'canonical',
    title: 'non-canonical re-encodings of signed grants are refused and canonical ones accepted, as by the reference',
    clauses: ['jcp/11#reject-non-canonical', 'jcp/3#shortest-integer-form'],
    pack: 'grants',
    ops: fc.oneof(w(1, mintArb()), w(3, cborArb)),
    // a refusal's code is not compared: which fault a reader names first in junk is its own affair
    project: (o) => ('input' in o ? ('code' in o ? 'refused' : pickKeys(o, ['canonical'])) : shape(o)),
    invariants: () => [],
  },
  replay: {
    name: 'replay',
    title: 'a restarted point rebuilds the spend the reference rebuilds from the receipt stream, chains included',
    clauses: ['jcp/8.1#rebuild-by-replay', 'jcp/9#c14-replay', 'jcp/9#c16-chained-replay'],
    pack: 'decisions',
    ops: fc.oneof(w(2, mintArb()), w(2, attenuateArb()), w(5, decideArb()), w(2, restartArb)),
    project: (o) => ('verified' in o ? o : 'verdict' in o ? pickKeys(o, ['spent']) : shape(o)),
    invariants: () => [],
  },
  money: {
    name: 'money',
    title: 'priced decisions bound both ceilings as the reference does: an allow debits both, a deny neither',
    clauses: ['jcp/9#c22-dual-ceilings', 'jcp/4.8#priced-decision-both-ceilings', 'jcp/4.8#child-money-not-amplify'],
    pack: 'money',
    ops: fc.oneof(w(3, mintArb({ funds: true })), w(2, attenuateArb({ funds: true })), w(5, decideArb({ funds: true }))),
    project: (o) => ('verdict' in o ? pickKeys(o, ['verdict', 'deny_reason', 'spent']) : o),
    invariants: (ops, obs) => noDebitOnDeny(ops, obs),
  },
};

// ---- running one sequence against both ------------------------------------------------------------------------------

/** The first place a sequence shows a fault: a step where the two disagree, or an invariant the implementation broke. */
export interface Finding {
  readonly step: number;
  readonly op: Op | undefined;
  readonly kind: 'differs' | 'invariant';
  readonly detail: string;
  readonly reference?: Json;
  readonly implementation?: Json;
}

/**
 * What of a projection is behaviour rather than the byte contract (harness/PROTOCOL.md "Grades"): the byte-contract
 * fields left out (vectors/replay.ts behaviourOf) and every refusal's code read as "refused".
 */
function behaviour(j: Json): Json {
  const codes = (v: unknown): unknown =>
    Array.isArray(v) ? v.map(codes) : v !== null && typeof v === 'object' ? Object.fromEntries(Object.entries(v).map(([k, x]) => [k, k === 'code' && typeof x === 'string' ? 'refused' : codes(x)])) : v;
  return codes(behaviourOf(j)) as Json;
}

/** How a comparison is graded: in full (a testee claiming the byte contract), or on behaviour with bytes noted apart. */
export interface CompareOptions {
  readonly byteContract: boolean;
}

/**
 * Runs `ops` against both and returns the first finding, or undefined when they agree and no invariant is broken.
 * Without the byte contract, a step is a finding only where behaviour differs; the first place where only the bytes
 * or codes differ is returned as `bytes`.
 */
export async function compare(
  prop: DifferentialProperty,
  reference: Implementation,
  impl: Implementation,
  ops: readonly Op[],
  onStep?: (i: number) => void,
  opts: CompareOptions = { byteContract: true },
): Promise<{ finding?: Finding; bytes?: string; reference: Observation[]; implementation: Observation[] }> {
  const ref = await execute(reference, ops);
  const got = await execute(impl, ops, onStep);
  let bytes: string | undefined;
  for (let i = 0; i < ops.length; i++) {
    const a = prop.project(ref[i]!);
    const b = prop.project(got[i]!);
    const d = firstDifference(a, b, '$');
    if (!d) continue;
    const [ba, bb] = opts.byteContract ? [a, b] : [behaviour(a), behaviour(b)];
    const bd = opts.byteContract ? d : firstDifference(ba, bb, '$');
    if (bd) return { reference: ref, implementation: got, finding: { step: i, op: ops[i], kind: 'differs', detail: `step ${i} (${ops[i]!.op}) differs at ${bd}`, reference: ba, implementation: bb } };
    bytes ??= `step ${i} (${ops[i]!.op}) differs from the reference only in bytes or codes, at ${d}`;
  }
  const broken = prop.invariants(ops, got);
  if (broken.length) {
    const step = Number(/^step (\d+)/.exec(broken[0]!)?.[1] ?? -1);
    return { reference: ref, implementation: got, finding: { step, op: ops[step], kind: 'invariant', detail: broken[0]! } };
  }
  return { reference: ref, implementation: got, ...(bytes ? { bytes } : {}) };
}

/** A property's sequences: a mint first (so that later operations have a grant to act on), then its operations. */
export function sequences(prop: DifferentialProperty): fc.Arbitrary<Op[]> {
  const first = prop.name === 'money' ? mintArb({ funds: true }) : prop.name === 'caveats' ? mintArb({ caveats: true }) : mintArb();
  return fc.tuple(first, fc.array(prop.ops, { minLength: 0, maxLength: MAX_OPS - 1 })).map(([m, rest]) => [m, ...rest]);
}

export const MAX_OPS = 12;

/** Sequences per property for this run: JCP_PROPERTY_RUNS (certify --property-runs N, --deep), else DEFAULT_RUNS. */
export function propertyRuns(): number {
  const v = process.env['JCP_PROPERTY_RUNS'];
  if (v === undefined) return DEFAULT_RUNS;
  const n = Number(v);
  if (!Number.isSafeInteger(n) || n < 1) throw new Error(`JCP_PROPERTY_RUNS must be a positive integer, not ${JSON.stringify(v)}`);
  return n;
}

/** The result of running one property: passed, or the shrunk failing sequence and how it was found. */
export interface PropertyResult {
  readonly property: PropertyName;
  readonly seed: number;
  readonly runs: number;
  /** Sequences run before the first failing one was found (1-based), when one was. */
  readonly found_at_run?: number;
  readonly failure?: {
    readonly path: string;
    readonly ops: readonly Op[];
    readonly finding: Finding;
    readonly shrinks: number;
  };
  /** The first byte-contract difference seen, when behaviour agreed (graded without the byte contract). */
  readonly bytes?: string;
  /** Operations taken out of the draw: the implementation answered `unimplemented` and no claimed class requires them. */
  readonly removed?: ReadonlyArray<{ readonly op: string; readonly protocol_op: string; readonly reason: string }>;
  /** Sequences not compared because they drew a removed operation. */
  readonly skipped?: number;
}

/** How a property run is graded: the comparison, and which protocol operations the run cannot do without. */
export interface RunOptions extends CompareOptions {
  /** Whether an `unimplemented` answer to this protocol operation fails the run (a claimed class requires it). */
  readonly required: (protocolOp: string) => boolean;
}

/**
 * Runs one property against `impl`, with the in-process reference `reference` as the oracle: up to `runs` sequences
 * from `seed`, stopping at the first failure and shrinking it. A testee's own failure (a hang, a crash,
 * unimplemented) is rethrown as itself, so the harness grades it as such; a program fault (a TesteeFailure) ends the
 * property at the sequence that met it, unshrunk, and names that sequence.
 */
export async function runProperty(
  prop: DifferentialProperty,
  reference: Implementation,
  impl: Implementation,
  seed: number,
  runs: number,
  opts: RunOptions = { byteContract: true, required: () => true },
): Promise<PropertyResult> {
  let count = 0;
  let firstFailAt: number | undefined;
  let last: Finding | undefined;
  let thrown: unknown;
  let bytes: string | undefined;
  let skipped = 0;
  // an operation the implementation does not implement, that no claimed class requires, leaves the draw for the rest
  // of the run: sequences drawing it are not compared (and counted), the others go on
  const removed = new Map<string, { protocol_op: string; reason: string }>();
  const property = fc.asyncProperty(sequences(prop), async (ops) => {
    if (thrown !== undefined) return true; // the implementation failed as a program: stop looking, report that
    if (ops.some((o) => removed.has(o.op))) {
      skipped++;
      return true;
    }
    if (firstFailAt === undefined) count++;
    let r;
    let step = -1;
    try {
      r = await compare(prop, reference, impl, ops, (i) => (step = i), opts);
    } catch (e) {
      const op = ops[step];
      if (e instanceof UnimplementedError && op && !opts.required(e.op)) {
        removed.set(op.op, { protocol_op: e.op, reason: e.message });
        skipped++;
        return true;
      }
      // a program fault ends the property (harness/PROTOCOL.md "Grades"): reported as itself, with the sequence met
      thrown =
        e instanceof TesteeFailure
          ? new TesteeFailure(e.kind, `${e.message.slice(e.kind.length + 2)}\nmet at step ${step + 1} of ${ops.length} of sequence ${count} (seed ${seed}): ${ops.map((o) => o.op).join(', ')}; the property stopped there, unshrunk`, e.transcript)
          : e;
      return true;
    }
    bytes ??= r.bytes;
    if (r.finding) {
      firstFailAt ??= count;
      last = r.finding;
      return false;
    }
    return true;
  });
  const details = await fc.check(property, { seed, numRuns: runs, endOnFailure: false });
  if (thrown !== undefined) throw thrown;
  const extra = {
    ...(bytes ? { bytes } : {}),
    ...(removed.size ? { removed: [...removed].map(([op, r]) => ({ op, ...r })), skipped } : {}),
  };
  if (!details.failed) return { property: prop.name, seed, runs: details.numRuns, ...extra };
  const ops = (details.counterexample?.[0] ?? []) as Op[];
  // the finding of the shrunk sequence itself (the last failing run fast-check tried may not be the smallest)
  const final = (await compare(prop, reference, impl, ops, undefined, opts)).finding ?? last!;
  return {
    property: prop.name,
    seed,
    runs: details.numRuns,
    found_at_run: firstFailAt ?? details.numRuns,
    failure: { path: details.counterexamplePath ?? '', ops, finding: final, shrinks: details.numShrinks },
    ...extra,
  };
}

/** Decodes a hex receipt's core for a report (the reference's reading). */
export function describeReceipt(hex: string): unknown {
  try {
    return decodeCanonical(fromHex(hex));
  } catch {
    return undefined;
  }
}
