// Replayable cases: a failing sequence found by a differential property, shrunk, written out as JSON
// with everything needed to see and re-run it — the property and its clauses, the seed and the fast-check path that
// regenerate it, the operations, what the reference and the implementation observed at each step, the first finding,
// and every request and response exchanged with the implementation while re-running the shrunk sequence (hex of the
// canonical CBOR). `jcp-conformance replay <case>` re-runs it against any implementation; `jcp-conformance promote
// <case>` turns it into a published vector (vectors/promoted/, then `vectors:gen`).
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { blake3, encodeCanonical, toHex } from '../oracle.ts';
import { Implementation, type Transport } from '../implementation.ts';
import type { Json } from '../../vectors/model.ts';
import { compare, PROPERTIES, PROPERTY_NAMES, type Finding, type PropertyName, type PropertyResult } from './differential.ts';
import type { Observation, Op } from './model.ts';

export const CASE_FORMAT = 'jcp-property-case/1';

/** One exchange with the implementation, as hex of the canonical request args and response map. */
export interface CaseExchange {
  readonly step: number;
  readonly op: string;
  readonly request: string;
  readonly response: string;
}

/** A case file. */
export interface PropertyCase {
  readonly format: typeof CASE_FORMAT;
  readonly property: PropertyName;
  readonly clauses: readonly string[];
  readonly implementation: string;
  readonly seed: number;
  readonly path: string;
  readonly found_at_run: number;
  readonly shrinks: number;
  readonly ops: readonly Op[];
  readonly finding: Finding;
  readonly reference: readonly Observation[];
  readonly observed: readonly Observation[];
  readonly exchanges: readonly CaseExchange[];
}

/** A transport that records every exchange (tagged with the step `current()` says is running). */
function recordingTransport(t: Transport, into: CaseExchange[], current: () => number): Transport {
  return {
    description: t.description,
    hello: () => t.hello(),
    close: async () => {},
    async request(op, args) {
      const r = await t.request(op, args);
      into.push({ step: current(), op, request: toHex(encodeCanonical(args)), response: toHex(encodeCanonical(r)) });
      return r;
    },
  };
}

/**
 * Re-runs a failure's shrunk sequence against `impl` while recording the bytes exchanged, and builds its case. The
 * step tag of an exchange is the operation running when it was made.
 */
export async function buildCase(result: PropertyResult, reference: Implementation, impl: Implementation): Promise<PropertyCase> {
  const f = result.failure;
  if (!f) throw new Error(`property ${result.property} did not fail: there is no case to write`);
  const exchanges: CaseExchange[] = [];
  let step = -1;
  const recorded = new Implementation(recordingTransport(impl.transport, exchanges, () => step));
  const prop = PROPERTIES[result.property];
  const r = await compare(prop, reference, recorded, f.ops, (i) => (step = i));
  return {
    format: CASE_FORMAT,
    property: result.property,
    clauses: [...prop.clauses],
    implementation: impl.transport.description,
    seed: result.seed,
    path: f.path,
    found_at_run: result.found_at_run ?? 0,
    shrinks: f.shrinks,
    ops: f.ops,
    finding: r.finding ?? f.finding,
    reference: r.reference,
    observed: r.implementation,
    exchanges,
  };
}

/** Writes a case as `<dir>/<property>-<seed>-<hash>.json` and returns the path. */
export function writeCase(dir: string, c: PropertyCase): string {
  mkdirSync(dir, { recursive: true });
  const tag = toHex(blake3(new TextEncoder().encode(JSON.stringify(c.ops)))).slice(0, 12);
  const path = join(dir, `${c.property}-${c.seed}-${tag}.json`);
  writeFileSync(path, `${JSON.stringify(c, null, 2)}\n`);
  return path;
}

/** Reads and checks a case file; throws saying what is wrong with it. */
export function readCase(path: string): PropertyCase {
  let c: PropertyCase;
  try {
    c = JSON.parse(readFileSync(path, 'utf8')) as PropertyCase;
  } catch (e) {
    throw new Error(`${path} is not a readable JSON case file: ${e instanceof Error ? e.message : String(e)}`);
  }
  if (c.format !== CASE_FORMAT) throw new Error(`${path}: format is ${JSON.stringify(c.format)}, expected ${CASE_FORMAT}`);
  if (!(PROPERTY_NAMES as readonly string[]).includes(c.property)) throw new Error(`${path}: unknown property ${JSON.stringify(c.property)} (known: ${PROPERTY_NAMES.join(', ')})`);
  if (!Array.isArray(c.ops) || c.ops.length === 0) throw new Error(`${path}: holds no operations`);
  return c;
}

/** What a replay of a case found: the steps compared and the first finding, if any. */
export interface ReplayOutcome {
  readonly steps: ReadonlyArray<{ readonly op: string; readonly agree: boolean; readonly reference: Json; readonly implementation: Json }>;
  readonly finding?: Finding;
}

/** Re-runs a case's operations against `impl` and the reference and compares them as its property does. */
export async function replayCase(c: PropertyCase, reference: Implementation, impl: Implementation): Promise<ReplayOutcome> {
  const prop = PROPERTIES[c.property];
  const r = await compare(prop, reference, impl, c.ops);
  const steps = c.ops.map((op, i) => {
    const a = prop.project(r.reference[i]!);
    const b = prop.project(r.implementation[i]!);
    return { op: op.op, agree: JSON.stringify(a) === JSON.stringify(b), reference: a, implementation: b };
  });
  return { steps, ...(r.finding ? { finding: r.finding } : {}) };
}
