// N×N interop: the two sides of one interop scenario. A Maker runs the PRODUCING implementation's
// ops and keeps what they made, by name (signed bytes, ids, or the refusal an honest producer owes); a Recorder runs
// the CONSUMING implementation's ops over those objects and writes down what it said, step by step, as plain JSON
// (verdicts, deny reasons, refusal codes, spend, receipt cores — never a message). harness/interop/run.ts compares
// both against the in-process reference doing the same.
import { TesteeError, TesteeFailure, UnimplementedError, type Implementation, type Minted } from '../implementation.ts';
import { isJcpError, toHex } from '../oracle.ts';

/** One produced item: bytes, a text (an id the producer reported), or the code it refused with. */
export type Produced = Uint8Array | string | { readonly refused: string };

/** A JSON value: what a step of consumption is recorded as. */
export type Json = null | boolean | number | string | Json[] | { readonly [k: string]: Json };

/** The producer's answer was unimplemented: the scenario (or case) is not applicable to it. */
export class NotApplicable extends Error {
  override readonly name = 'NotApplicable';
  constructor(readonly op: string) {
    super(`${op} is unimplemented`);
  }
}

/** A case needs an object the producer did not make, or bytes the reference cannot read: it cannot be run. */
export class Underivable extends Error {
  override readonly name = 'Underivable';
}

/** The producer stopped: a step every later one needs was refused, or the producer failed as a program. */
export class ProductionStopped extends Error {
  override readonly name = 'ProductionStopped';
}

/** The consumer failed as a program (hang, crash, protocol breach): the case stops at that step. */
class CaseAborted extends Error {
  override readonly name = 'CaseAborted';
}

/** A value as JSON: bigint as its decimal digits with an `n`, bytes as `hex:…`, maps as objects. */
export function json(v: unknown): Json {
  if (v === undefined || v === null) return null;
  if (typeof v === 'bigint') return `${v}n`;
  if (typeof v === 'number') return Number.isInteger(v) ? `${v}n` : v; // ints compare alike whichever way they came
  if (typeof v === 'string' || typeof v === 'boolean') return v;
  if (v instanceof Uint8Array) return `hex:${toHex(v)}`;
  if (Array.isArray(v)) return v.map(json);
  if (v instanceof Map) return Object.fromEntries([...v].map(([k, x]) => [String(k), json(x)]));
  if (typeof v === 'object') return Object.fromEntries(Object.entries(v as Record<string, unknown>).filter(([, x]) => x !== undefined).map(([k, x]) => [k, json(x)]));
  return String(v);
}

/** What an operation's failure reads as; rethrows what is not the implementation's answer. */
function failureOf(e: unknown, op: string): Json {
  if (e instanceof TesteeError) return { refused: e.code };
  if (e instanceof UnimplementedError) throw new NotApplicable(e.op || op);
  if (e instanceof TesteeFailure) return { failure: e.kind };
  throw e;
}

/** The producing side of a scenario: every object made through the producer's own ops. */
export class Maker {
  /** What was made, by name, in the order it was made. */
  readonly objects = new Map<string, Produced>();
  constructor(readonly impl: Implementation) {}

  /** Keeps a minted grant (its bytes under `name`, the id it reported under `name.grant_id`); stops on a refusal. */
  async grant(name: string, p: Promise<Minted>): Promise<Uint8Array> {
    const m = await this.settle(name, p);
    if (!m) throw new ProductionStopped(`${name} was not made`);
    this.objects.set(name, m.signed_grant);
    this.objects.set(`${name}.grant_id`, m.grant_id);
    return m.signed_grant;
  }

  /** Keeps the bytes `p` resolves to; stops production on a refusal (later steps need them). */
  async bytes(name: string, p: Promise<Uint8Array>): Promise<Uint8Array> {
    const b = await this.settle(name, p);
    if (!b) throw new ProductionStopped(`${name} was not made`);
    this.objects.set(name, b);
    return b;
  }

  /** A value production needs (a point, a list of slices); stops production on a refusal. */
  async use<T>(name: string, p: Promise<T>): Promise<T> {
    const v = await this.settle(name, p);
    if (v === undefined) throw new ProductionStopped(`${name} was refused`);
    return v;
  }

  /** Runs a production the producer owes a refusal for: kept as the refusal, or as what it made anyway. */
  async attempt(name: string, p: Promise<Uint8Array | Minted | readonly Minted[]>): Promise<void> {
    const v = await this.settle(name, p);
    if (v === undefined) return;
    const list = v instanceof Uint8Array ? [v] : Array.isArray(v) ? (v as readonly Minted[]).map((m) => m.signed_grant) : [(v as Minted).signed_grant];
    list.forEach((b, i) => this.objects.set(list.length > 1 ? `${name}[${i}]` : name, b));
  }

  /** The value of `p`, or undefined with the refusal kept under `name`; a program failure stops production. */
  private async settle<T>(name: string, p: Promise<T>): Promise<T | undefined> {
    try {
      return await p;
    } catch (e) {
      const f = failureOf(e, name) as { refused?: string; failure?: string };
      if (f.failure) {
        this.objects.set(name, { refused: `(testee failure: ${f.failure})` });
        throw new ProductionStopped(`the producer failed (${f.failure}) making ${name}`);
      }
      this.objects.set(name, { refused: f.refused! });
      return undefined;
    }
  }
}

/** One step of consumption as recorded. */
export interface Step {
  readonly step: string;
  readonly said: Json;
}

/** The consuming side of a case: the consumer's answers, step by step, and the object the case is about. */
export class Recorder {
  readonly steps: Step[] = [];
  /** The first object presented (for the report's hex). */
  object?: { readonly name: string; readonly hex: string };
  constructor(
    readonly impl: Implementation,
    private readonly made: ReadonlyMap<string, Produced>,
  ) {}

  /** The producer's bytes named `name`; a case cannot run without them. */
  bytes(name: string): Uint8Array {
    const v = this.made.get(name);
    if (!(v instanceof Uint8Array)) throw new Underivable(`the producer made no ${name}${v && typeof v === 'object' ? ` (it refused: ${v.refused})` : ''}`);
    return v;
  }

  /** Notes `b` as the object this case is about (the first one noted wins) and returns it. */
  present(name: string, b: Uint8Array): Uint8Array {
    this.object ??= { name, hex: toHex(b) };
    return b;
  }

  /** Runs a consumer op and records what it said (`view` of its value, or its refusal); the value, or undefined. */
  async say<T>(step: string, p: Promise<T>, view: (v: T) => unknown = (v) => v): Promise<T | undefined> {
    try {
      const v = await p;
      this.steps.push({ step, said: { ok: json(view(v)) } });
      return v;
    } catch (e) {
      const said = failureOf(e, step);
      this.steps.push({ step, said });
      if ((said as { failure?: string }).failure) throw new CaseAborted(step);
      return undefined;
    }
  }

  /** Like {@link say}, for a step every later one needs: a refusal ends the case there. */
  async need<T>(step: string, p: Promise<T>, view?: (v: T) => unknown): Promise<T> {
    const v = await this.say(step, p, view ?? (() => 'done'));
    if (v === undefined) throw new CaseAborted(step);
    return v;
  }
}

/** Whether `e` ended a case early on purpose (the steps so far stand as its record). */
export function isCaseAborted(e: unknown): boolean {
  return e instanceof CaseAborted;
}

/** Runs a derivation over the producer's bytes with the reference; a refusal means the case cannot be derived. */
export function derive<T>(what: string, f: () => T): T {
  try {
    return f();
  } catch (e) {
    if (isJcpError(e)) throw new Underivable(`${what}: the reference cannot read the producer's bytes (${e.code})`);
    throw e;
  }
}
