// Replay of the conformance/v1 packs from disk alone: load each pack, check it against its published
// schema and its own header (count, flags defined, tcIds unique, clause ids known), then run each vector through
// harness/implementation.ts against whatever implementation is under test and compare what it answers with the
// pack's `expected`. Used by harness/conformance/vectors.test.ts (one clauseIt per vector) and by vectors:check.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Implementation } from '../harness/implementation.ts';
import { findClause } from '../spec-map/index.ts';
import { execute, trimToExpected } from './execute.ts';
import { validateJson } from './json-schema.ts';
import { firstDifference, GROUP_TYPES, type GroupType, type Json, type Pack, type VectorTest } from './model.ts';

/** A pack read from disk, with the file it came from. */
export interface LoadedPack {
  readonly file: string;
  readonly pack: Pack;
}

/** The problems of one parsed pack against its schema (read from `dir`/schemas/) and its own header. */
export function packProblems(dir: string, file: string, pack: Pack): string[] {
  const schemaName = (pack as { schema?: unknown }).schema;
  if (typeof schemaName !== 'string' || !/^[a-z0-9_]+\.json$/.test(schemaName)) return [`${file}: names no schema file`];
  const schema = JSON.parse(readFileSync(join(dir, 'schemas', schemaName), 'utf8')) as Record<string, unknown>;
  const out = validateJson(schema, pack).map((p) => `${file}: ${p}`);
  if (out.length) return out;
  const tests = pack.testGroups.flatMap((g) => g.tests);
  if (tests.length !== pack.numberOfTests) out.push(`${file}: numberOfTests is ${pack.numberOfTests} but the pack holds ${tests.length}`);
  const ids = new Set<number>();
  for (const t of tests) {
    if (ids.has(t.tcId)) out.push(`${file}: tcId ${t.tcId} appears twice`);
    ids.add(t.tcId);
    for (const f of t.flags) if (!pack.notes[f]) out.push(`${file}: tcId ${t.tcId} uses flag ${f}, which notes does not define`);
    for (const c of t.clauses) if (!findClause(c)) out.push(`${file}: tcId ${t.tcId} names unknown clause ${c}`);
  }
  for (const g of pack.testGroups) if (!(GROUP_TYPES as readonly string[]).includes(g.type)) out.push(`${file}: unknown group type ${g.type}`);
  return out;
}

/** Reads every pack (*.json) of `dir` and throws, naming each problem, unless all conform. */
export function loadPacks(dir: string): LoadedPack[] {
  const packs: LoadedPack[] = [];
  const problems: string[] = [];
  for (const file of readdirSync(dir).filter((n) => n.endsWith('.json')).sort()) {
    let pack: Pack;
    try {
      pack = JSON.parse(readFileSync(join(dir, file), 'utf8')) as Pack;
    } catch (e) {
      problems.push(`${file}: not JSON (${e instanceof Error ? e.message : String(e)})`);
      continue;
    }
    const p = packProblems(dir, file, pack);
    if (p.length) problems.push(...p);
    else packs.push({ file, pack });
  }
  if (problems.length) throw new Error(`the packs in ${dir} do not conform:\n  ${problems.slice(0, 20).join('\n  ')}`);
  if (packs.length === 0) throw new Error(`no packs in ${dir}`);
  return packs;
}

function at(v: unknown, path: string): Json | undefined {
  let cur: unknown = v;
  for (const m of path.slice(1).matchAll(/\.([^.[]+)|\[(\d+)\]/g)) {
    if (cur === null || typeof cur !== 'object') return undefined;
    cur = m[1] !== undefined ? (cur as Record<string, unknown>)[m[1]] : (cur as unknown[])[Number(m[2])];
  }
  return cur as Json | undefined;
}

/**
 * Runs one vector against `impl`: undefined when the answer is the expected one, else what differs (the first JSON
 * path, expected and answered). A testee's own failure (a hang, a crash, unimplemented) is thrown, not returned.
 */
export async function replayVector(impl: Implementation, type: GroupType, test: VectorTest): Promise<string | undefined> {
  const observed = trimToExpected(type, await execute(impl, type, test.inputs), test.expected);
  const d = firstDifference(test.expected, observed, '$');
  if (!d) return undefined;
  const show = (v: unknown) => (v === undefined ? '(absent)' : JSON.stringify(v).slice(0, 200));
  return `tcId ${test.tcId} (${test.case}): at ${d.replace(/^\$/, '$.expected')} expected ${show(at(test.expected, d))}, the implementation answered ${show(at(observed, d))}`;
}

/**
 * Fields whose values are the byte contract rather than behaviour (jcp fixes no layout for them; the suite does, in
 * vectors/README.md): signed bytes, content ids of suite-laid-out objects, and ERR_ codes (the spec names refusals,
 * never codes). Behaviour is what is left: verdicts, deny reasons, what was debited, spends, refused-or-not.
 */
export const BYTE_CONTRACT_FIELDS: ReadonlySet<string> = new Set(['signed_grant', 'grant_id', 'receipt', 'signature', 'signed_revocation', 'signed_policy', 'signed_statement', 'canonical', 'payload_cbor', 'policy_id', 'overdraft_proof']);

/** `v` with the byte-contract fields left out and every ERR_ code read as "refused". */
export function behaviourOf(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(behaviourOf);
  if (v !== null && typeof v === 'object') {
    return Object.fromEntries(
      Object.entries(v as Record<string, unknown>)
        .filter(([k]) => !BYTE_CONTRACT_FIELDS.has(k))
        .map(([k, x]) => [k, k === 'error' && typeof x === 'string' ? 'refused' : behaviourOf(x)]),
    );
  }
  return v;
}

/** A vector's differences: the first overall, and the first in behaviour alone (undefined where there is none). */
export interface GradedDifference {
  readonly full: string;
  readonly behaviour?: string;
}

/** Runs one vector against `impl` and says where it differs, overall and in behaviour alone; undefined when it does not. */
export async function replayVectorGraded(impl: Implementation, type: GroupType, test: VectorTest): Promise<GradedDifference | undefined> {
  const observed = trimToExpected(type, await execute(impl, type, test.inputs), test.expected);
  const d = firstDifference(test.expected, observed, '$');
  if (!d) return undefined;
  const show = (v: unknown) => (v === undefined ? '(absent)' : JSON.stringify(v).slice(0, 200));
  const say = (exp: unknown, obs: unknown, path: string) =>
    `tcId ${test.tcId} (${test.case}): at ${path.replace(/^\$/, '$.expected')} expected ${show(at(exp, path))}, the implementation answered ${show(at(obs, path))}`;
  const expB = behaviourOf(test.expected) as Json;
  const obsB = behaviourOf(observed) as Json;
  const b = firstDifference(expB, obsB, '$');
  return { full: say(test.expected, observed, d), ...(b ? { behaviour: say(expB, obsB, b) } : {}) };
}

/** Replays every vector of `packs`; the failures found (empty when every vector passes). */
export async function replayAll(impl: Implementation, packs: readonly LoadedPack[]): Promise<string[]> {
  const out: string[] = [];
  for (const { file, pack } of packs) {
    for (const g of pack.testGroups) {
      for (const t of g.tests) {
        const f = await replayVector(impl, g.type, t);
        if (f) out.push(`${file} ${f}`);
      }
    }
  }
  return out;
}
