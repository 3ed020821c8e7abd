// N×N interop: runs every scenario of ./scenarios.ts with every participant as producer and every
// participant as consumer, and judges each (producer, consumer) pair per class against the in-process reference.
//
// The oracle is the reference, in this process, on a client of its own (a separate adapter from any participant's):
//   - "produced bytes differ": the producer's objects (signed grant bytes, the ids it reported, revocations, receipt
//     bytes, and the refusals it owes) are compared with what the reference makes from the same inputs. Ed25519 is
//     deterministic and every byte shape is fixed (jcp §3, §4, §8, and the layouts the suite fixes beside its vectors),
//     so any difference is the producer's.
//   - "consumed differently": each case is run on the consumer over the producer's bytes, and on the reference over
//     the SAME bytes; the pair agrees when every step says the same (verdicts, deny reasons, refusal codes, spend,
//     receipt cores; never messages). Judging against the reference's reading of the producer's own bytes keeps a
//     faulty producer from being charged to its consumers.
// A cell is DIFFER when either kind differs (or a side failed the handshake, or failed as a program mid-case), n/a
// when the producer's or consumer's ops are unimplemented, else agree. The run agrees only when every cell agrees:
// n/a is not agreement (every class here is REQUIRED by jcp §9).
import { Implementation, TesteeFailure, type TesteeInfo } from '../implementation.ts';
import { inProcessTransport } from '../drivers/in-process.ts';
import { blake3, toHex } from '../oracle.ts';
import { isCaseAborted, Maker, NotApplicable, ProductionStopped, Recorder, Underivable, type Json, type Produced, type Step } from './case.ts';
import { SCENARIOS, type InteropCase, type Scenario } from './scenarios.ts';

/** One implementation taking part: the in-process reference or a testee. */
export interface Participant {
  /** A short label for the matrix (ref, T1, T2…). */
  readonly label: string;
  /** What it is: "in-process reference" or the testee command. */
  readonly description: string;
  readonly impl: Implementation;
}

/** What a producer made for a class. */
export interface ProductionResult {
  readonly status: 'made' | 'stopped' | 'n/a';
  readonly objects: ReadonlyMap<string, Produced>;
  readonly note?: string;
}

/** The first produced item that differs from the reference's. */
export interface ProducedDifference {
  readonly object: string;
  readonly producer: string;
  readonly reference: string;
  /** Where both are bytes: the offset of the first byte that differs. */
  readonly at_byte?: number;
}

/** One case of one pair as judged. */
export interface CaseVerdict {
  readonly name: string;
  readonly status: 'agree' | 'differ' | 'n/a';
  /** For differ: the first step that differs, what the reference and the consumer said there. */
  readonly step?: string;
  readonly reference?: Json;
  readonly consumer?: Json;
  /** The object the case is about (hex, as the producer made it or as the scenario altered it). */
  readonly object?: { readonly name: string; readonly hex: string };
  readonly note?: string;
}

/** One (producer, consumer) cell of a class matrix. */
export interface Cell {
  readonly producer: string;
  readonly consumer: string;
  readonly status: 'agree' | 'DIFFER' | 'n/a';
  readonly produced: 'same' | 'differ' | 'n/a';
  readonly consumed: 'agree' | 'differ' | 'n/a';
  readonly counts: { readonly agree: number; readonly differ: number; readonly na: number };
  /** Set when one side failed the handshake: nothing was produced or consumed. */
  readonly failed?: string;
  readonly firstProduced?: ProducedDifference;
  readonly firstConsumed?: CaseVerdict;
  readonly cases: readonly CaseVerdict[];
}

/** One class: its matrix. */
export interface ClassMatrix {
  readonly cls: string;
  readonly title: string;
  readonly cells: readonly Cell[];
}

/** The whole interop run. */
export interface InteropReport {
  readonly participants: ReadonlyArray<{ readonly label: string; readonly description: string; readonly info?: TesteeInfo; readonly handshake?: string }>;
  readonly classes: readonly ClassMatrix[];
  readonly agree: boolean;
}

/** Options of {@link runInterop}. */
export interface InteropOptions {
  /** Class ids to run (jcp:C1 …); all when absent. */
  readonly classes?: readonly string[];
  /** Called as each class finishes. */
  readonly progress?: (m: ClassMatrix) => void;
}

interface CaseRun {
  readonly status: 'ran' | 'n/a';
  readonly steps: readonly Step[];
  readonly object?: { readonly name: string; readonly hex: string };
  readonly note?: string;
}

/** Runs the producing side of `s` on `impl`. */
async function produce(s: Scenario, impl: Implementation): Promise<ProductionResult> {
  const m = new Maker(impl);
  try {
    await s.produce(m);
    return { status: 'made', objects: m.objects };
  } catch (e) {
    if (e instanceof NotApplicable) return { status: 'n/a', objects: m.objects, note: e.message };
    if (e instanceof ProductionStopped) return { status: 'stopped', objects: m.objects, note: e.message };
    if (e instanceof Underivable) return { status: 'stopped', objects: m.objects, note: e.message };
    throw e;
  }
}

/** Runs one case on `impl` over `objects`. */
async function runCase(c: InteropCase, impl: Implementation, objects: ReadonlyMap<string, Produced>): Promise<CaseRun> {
  const r = new Recorder(impl, objects);
  const done = (extra: Partial<CaseRun> = {}): CaseRun => ({ status: 'ran', steps: r.steps, ...(r.object ? { object: r.object } : {}), ...extra });
  try {
    await c.run(r);
    return done();
  } catch (e) {
    if (isCaseAborted(e)) return done();
    if (e instanceof NotApplicable) return done({ status: 'n/a', note: e.message });
    if (e instanceof Underivable) return done({ status: 'n/a', note: `not derivable: ${e.message}` });
    throw e;
  }
}

const show = (v: Produced | undefined): string =>
  v === undefined ? '(not made)' : v instanceof Uint8Array ? `hex:${toHex(v)}` : typeof v === 'string' ? v : `refused ${v.refused}`;

/** The first item where `got` differs from the reference's `want`, in the reference's order, then any extra. */
function firstProducedDifference(want: ProductionResult, got: ProductionResult): ProducedDifference | undefined {
  for (const [k, v] of want.objects) {
    const a = show(v);
    const b = show(got.objects.get(k));
    if (a !== b) return { object: k, producer: b, reference: a, ...firstByte(v, got.objects.get(k)) };
  }
  for (const [k, v] of got.objects) if (!want.objects.has(k)) return { object: k, producer: show(v), reference: '(not made)' };
  if (got.status === 'stopped' && want.status !== 'stopped') return { object: '(production)', producer: got.note ?? 'stopped', reference: 'made' };
  return undefined;
}

/** The offset of the first differing byte, where both items are bytes. */
function firstByte(a: Produced | undefined, b: Produced | undefined): { at_byte?: number } {
  if (!(a instanceof Uint8Array) || !(b instanceof Uint8Array)) return {};
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  return { at_byte: i };
}

/** Compares a consumer's run of a case with the reference's run of it over the same bytes. */
function judgeCase(name: string, want: CaseRun, got: CaseRun): CaseVerdict {
  const object = got.object ?? want.object;
  const base = { name, ...(object ? { object } : {}) };
  if (want.status === 'n/a' || got.status === 'n/a') return { ...base, status: 'n/a', note: (got.status === 'n/a' ? got.note : want.note) ?? '' };
  const n = Math.max(want.steps.length, got.steps.length);
  for (let i = 0; i < n; i++) {
    const a = want.steps[i];
    const b = got.steps[i];
    if (JSON.stringify(a) !== JSON.stringify(b)) {
      return { ...base, status: 'differ', step: a?.step ?? b?.step ?? `#${i}`, reference: a ? a.said : '(no such step)', consumer: b ? b.said : '(stopped before this step)' };
    }
  }
  return { name, status: 'agree' }; // the object's hex only where something is to be looked at
}

/** A digest of a production, so the reference reads each distinct set of bytes once. */
function digestOf(p: ProductionResult): string {
  return toHex(blake3(new TextEncoder().encode(JSON.stringify([...p.objects].map(([k, v]) => [k, show(v)])))));
}

/** Runs the interop matrix of every selected class over `participants`. */
export async function runInterop(participants: readonly Participant[], opts: InteropOptions = {}): Promise<InteropReport> {
  const oracle = new Implementation(inProcessTransport());
  const described: Array<InteropReport['participants'][number]> = [];
  const live: Participant[] = [];
  for (const p of participants) {
    try {
      described.push({ label: p.label, description: p.description, info: await p.impl.info() });
      live.push(p);
    } catch (e) {
      if (!(e instanceof TesteeFailure)) throw e;
      described.push({ label: p.label, description: p.description, handshake: e.message });
    }
  }
  const selected = SCENARIOS.filter((s) => !opts.classes || opts.classes.includes(s.cls));
  const classes: ClassMatrix[] = [];
  for (const s of selected) {
    const reference = await produce(s, oracle);
    if (reference.status !== 'made') throw new Error(`the reference could not produce ${s.cls}: ${reference.note}`);
    const oracleRuns = new Map<string, CaseRun[]>();
    const cells: Cell[] = [];
    for (const producer of participants) {
      if (!live.includes(producer)) {
        for (const consumer of participants) cells.push(failedCell(producer.label, consumer.label, `${producer.label} failed the handshake`));
        continue;
      }
      const made = await guard(() => produce(s, producer.impl));
      const firstProduced = made.status === 'n/a' ? undefined : firstProducedDifference(reference, made);
      const key = digestOf(made);
      let expected = oracleRuns.get(key);
      if (!expected) {
        expected = [];
        for (const c of s.cases) expected.push(await runCase(c, oracle, made.objects));
        oracleRuns.set(key, expected);
      }
      for (const consumer of participants) {
        if (!live.includes(consumer)) {
          cells.push(failedCell(producer.label, consumer.label, `${consumer.label} failed the handshake`));
          continue;
        }
        const verdicts: CaseVerdict[] = [];
        if (made.status !== 'n/a') {
          for (const [i, c] of s.cases.entries()) verdicts.push(judgeCase(c.name, expected[i]!, await runCase(c, consumer.impl, made.objects)));
        }
        cells.push(cellOf(producer.label, consumer.label, made, firstProduced, verdicts));
      }
    }
    const m: ClassMatrix = { cls: s.cls, title: s.title, cells };
    classes.push(m);
    opts.progress?.(m);
  }
  return { participants: described, classes, agree: classes.every((c) => c.cells.every((x) => x.status === 'agree')) };
}

/** A production that failed as a program reads as a stopped production (a TesteeFailure never escapes a run). */
async function guard(f: () => Promise<ProductionResult>): Promise<ProductionResult> {
  try {
    return await f();
  } catch (e) {
    if (e instanceof TesteeFailure) return { status: 'stopped', objects: new Map(), note: `${e.kind}: ${e.message}` };
    throw e;
  }
}

function cellOf(producer: string, consumer: string, made: ProductionResult, firstProduced: ProducedDifference | undefined, verdicts: CaseVerdict[]): Cell {
  const counts = { agree: 0, differ: 0, na: 0 };
  for (const v of verdicts) counts[v.status === 'n/a' ? 'na' : v.status]++;
  const produced = made.status === 'n/a' ? 'n/a' : firstProduced ? 'differ' : 'same';
  const consumed = counts.differ ? 'differ' : counts.agree ? 'agree' : 'n/a';
  const firstConsumed = verdicts.find((v) => v.status === 'differ');
  return {
    producer,
    consumer,
    status: produced === 'differ' || consumed === 'differ' ? 'DIFFER' : produced === 'n/a' || consumed === 'n/a' ? 'n/a' : 'agree',
    produced,
    consumed,
    counts,
    ...(firstProduced ? { firstProduced } : {}),
    ...(firstConsumed ? { firstConsumed } : {}),
    cases: verdicts,
  };
}

function failedCell(producer: string, consumer: string, why: string): Cell {
  return { producer, consumer, status: 'DIFFER', produced: 'n/a', consumed: 'n/a', counts: { agree: 0, differ: 0, na: 0 }, failed: why, cases: [] };
}

