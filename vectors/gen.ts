// `npm run vectors:gen` — writes the conformance/v1 packs and their schemas, deterministically: every
// key comes from deriveSeed, every nonce and clock is fixed, Ed25519 is deterministic, so the same tree writes the same
// bytes on every machine. Each case (vectors/cases.ts) runs through the in-process reference behind
// harness/implementation.ts; a case whose observed outcome is not its declared intent is never published — the
// generator stops and names it (a reference bug, or a wrong case). tcIds come from the append-only registry
// vectors/tcids.json: `vectors:gen` registers a new case name under the next free tcId, `vectors:check` refuses one.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Implementation } from '../harness/implementation.ts';
import { inProcessTransport } from '../harness/drivers/in-process.ts';
import { findClause } from '../spec-map/index.ts';
import { fromHex, toHex } from '../impl/bytes.ts';
import { decodeCanonical, encodeCanonical, type CborValue } from '../impl/cbor/index.ts';
import { blake3 } from '../impl/hash/blake3.ts';
import { nobleEd25519 } from '../impl/identity/ed25519.ts';
import { publicKeyFromDid } from '../impl/identity/did-key.ts';
import { allCases, type Case } from './cases.ts';
import { crossCheckLog } from './jc-cases.ts';
import { execute, trimToExpected } from './execute.ts';
import { firstDifference, GENERATOR_VERSION, PACK_AREAS, jsonText, packFile, schemaFile, type JsonObject, type Pack, type PackArea, type TestGroup, type VectorTest } from './model.ts';
import { FLAG_NOTES } from './notes.ts';
import { PACK_KINDS, schemaFor } from './schemas.ts';
import { PROFILE_VECTOR_GROUPS } from './profiles/groups.ts';

const HERE = dirname(fileURLToPath(import.meta.url));
/** The committed pack folder. */
export const V1_DIR = join(HERE, 'conformance', 'v1');
/** The committed tcId registry: area → case name → tcId, append-only. */
export const REGISTRY_PATH = join(HERE, 'tcids.json');

export type Registry = Record<string, Record<string, number>>;

/** Reads the registry (an empty one when the file does not exist yet). */
export function readRegistry(path = REGISTRY_PATH): Registry {
  try {
    return JSON.parse(readFileSync(path, 'utf8')) as Registry;
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return {};
    throw e;
  }
}

/** The tcId of each case: from the registry, or (when `register`) the next free id of its area. */
function assignTcIds(cases: readonly Case[], reg: Registry, register: boolean): Map<Case, number> {
  const out = new Map<Case, number>();
  const seen = new Set<string>();
  for (const c of cases) {
    const k = `${c.pack}/${c.name}`;
    if (seen.has(k)) throw new Error(`two cases are named ${k}: a case name is its identity`);
    seen.add(k);
    const area = (reg[c.pack] ??= {});
    let id = area[c.name];
    if (id === undefined) {
      if (!register) throw new Error(`case ${k} has no tcId in vectors/tcids.json: run \`npm run vectors:gen\` to register it`);
      id = Math.max(0, ...Object.values(area)) + 1;
      area[c.name] = id;
    }
    out.set(c, id);
  }
  return out;
}

/** Throws unless `observed` is the outcome `c` declares. */
export function checkIntent(c: Case, observed: JsonObject): void {
  const fail = (what: string) => {
    throw new Error(`case ${c.pack}/${c.name}: the reference ${what} — not published (a reference bug, or a wrong case)`);
  };
  const i = c.intent;
  // profiles.json: the answer, trimmed to what the vector decides, is exactly the one derived from the spec
  if ('exactly' in i) {
    const got = trimToExpected(c.type, observed, i.exactly);
    const d = firstDifference(i.exactly, got, '$');
    if (d) fail(`answered ${JSON.stringify(got).slice(0, 300)} (first difference at ${d}), the case requires ${JSON.stringify(i.exactly).slice(0, 300)}`);
    return;
  }
  if ('error' in i) {
    if (observed['error'] !== i.error) fail(`answered ${JSON.stringify(observed)}, the case requires refusal ${i.error}`);
    return;
  }
  if ('error' in observed) fail(`refused with ${String(observed['error'])}`);
  if ('verdict' in i && observed['verdict'] !== i.verdict) fail(`said ${String(observed['verdict'])}, the case requires ${i.verdict}`);
  if ('steps' in i) {
    const steps = observed['steps'] as JsonObject[];
    i.steps.forEach((want, n) => {
      const got = steps[n]!;
      if (got['verdict'] !== want.verdict || got['deny_reason'] !== want.deny_reason) fail(`decided step ${n} ${String(got['verdict'])} ${String(got['deny_reason'] ?? '')}, the case requires ${want.verdict} ${want.deny_reason ?? ''}`);
      const core = got['core'] as JsonObject;
      if ('error' in core) fail(`sealed step ${n} with a receipt its own verifier refuses (${String(core['error'])})`);
      if (core['verdict'] !== want.verdict || core['deny_reason'] !== want.deny_reason) fail(`sealed step ${n} with a receipt saying ${String(core['verdict'])} ${String(core['deny_reason'] ?? '')}`);
    });
    if (i.revocations && JSON.stringify(observed['revocations']) !== JSON.stringify(i.revocations)) fail(`answered the revocations ${JSON.stringify(observed['revocations'])}, the case requires ${JSON.stringify(i.revocations)}`);
  }
  if ('firings' in i) {
    const got = (observed['firings'] as JsonObject[]).map((f) => ('error' in f ? String(f['error']) : 'minted'));
    if (JSON.stringify(got) !== JSON.stringify(i.firings)) fail(`answered the firings ${JSON.stringify(got)}, the case requires ${JSON.stringify(i.firings)}`);
    if (JSON.stringify(observed['ledger']) !== JSON.stringify(i.ledger)) fail(`left the ledger ${JSON.stringify(observed['ledger'])}, the case requires ${JSON.stringify(i.ledger)}`);
  }
  if ('ops' in i) {
    const got = (observed['ops'] as JsonObject[]).map((o) => ('verdict' in o ? (o['verdict'] === 'allow' ? 'allow' : `deny:${String(o['deny_reason'])}`) : String(o['applied'])));
    if (JSON.stringify(got) !== JSON.stringify(i.ops)) fail(`answered the ops ${JSON.stringify(got)}, the case requires ${JSON.stringify(i.ops)}`);
    const points = observed['points'] as JsonObject[];
    const totals = points.map((p) => (p['ledger'] as JsonObject)['total_uj']);
    if (JSON.stringify(totals) !== JSON.stringify(i.totals)) fail(`merged the ledgers to ${JSON.stringify(totals)}, the case requires ${JSON.stringify(i.totals)}`);
    const over = points.map((p) => p['overdraft_uj']).filter((x) => x !== undefined);
    if (i.overdraft_uj === undefined ? over.length > 0 : over.length !== points.length || over.some((x) => x !== i.overdraft_uj)) fail(`proved the overdrafts ${JSON.stringify(over)}, the case requires ${String(i.overdraft_uj ?? 'none')}`);
  }
  // a promoted sequence: the reference still observes what it observed when the sequence was promoted
  if ('sequence' in i && JSON.stringify(observed['steps']) !== JSON.stringify(i.sequence)) fail(`now observes ${JSON.stringify(observed['steps']).slice(0, 300)} where it observed ${JSON.stringify(i.sequence).slice(0, 300)} at promotion`);
  // efficiency.json: each output the spec fixes, by dotted path, and each field that must be absent
  if ('outputs' in i) {
    const get = (path: string): unknown => path.split('.').reduce<unknown>((o, k) => (o !== null && typeof o === 'object' ? (o as Record<string, unknown>)[k] : undefined), observed);
    for (const [path, want] of Object.entries(i.outputs)) if (JSON.stringify(get(path)) !== JSON.stringify(want)) fail(`answered ${path} = ${JSON.stringify(get(path))}, the case requires ${JSON.stringify(want)}`);
    for (const path of i.absent ?? []) if (get(path) !== undefined) fail(`answered ${path} = ${JSON.stringify(get(path))}, the case requires it absent`);
  }
}

/**
 * Independent checks of minted bytes: the id is blake3 of the canonical grant bytes (recomputed here) and the
 * signature verifies over them under the issuer's did:key with the noble backend (not the backend that signed).
 */
function crossCheckMinted(c: Case, observed: JsonObject): void {
  if ((c.type !== 'GrantMint' && c.type !== 'Attenuate') || 'error' in observed) return;
  const sg = decodeCanonical(fromHex(observed['signed_grant'] as string)) as Map<string, CborValue>;
  const g = sg.get('grant') as Map<string, CborValue>;
  const gb = encodeCanonical(g);
  if (toHex(blake3(gb)) !== observed['grant_id']) throw new Error(`case ${c.pack}/${c.name}: grant_id is not blake3 of the canonical grant bytes`);
  const pk = publicKeyFromDid(g.get('issuer') as string);
  if (!nobleEd25519.verify(sg.get('signature') as Uint8Array, gb, pk)) throw new Error(`case ${c.pack}/${c.name}: the signature does not verify under the issuer (noble backend)`);
}

/** valid when the input is accepted as it stands; invalid when it is refused or (for a decision) its last step denied. */
function resultOf(c: Case): VectorTest['result'] {
  const i = c.intent;
  if ('exactly' in i) return i.result;
  if ('error' in i) return 'invalid';
  if ('verdict' in i) return i.verdict;
  if ('steps' in i) return i.steps[i.steps.length - 1]!.verdict === 'allow' ? 'valid' : 'invalid';
  if ('firings' in i) return i.firings[i.firings.length - 1] === 'minted' ? 'valid' : 'invalid';
  if ('ops' in i) return /^(allow|accepted)$/.test(i.ops[i.ops.length - 1]!) ? 'valid' : 'invalid';
  return 'valid';
}

/**
 * One case as it is published: its clause ids, flags and kind looked up, run through `impl` (the reference), held to
 * the outcome it declares and to the independent cross-checks, and its expected answer taken; throws naming the case
 * where any of that fails (vectors/profiles/try.ts runs one group through this without writing a pack).
 */
export async function vectorOf(impl: Implementation, c: Case, tcId: number): Promise<VectorTest> {
  for (const id of c.clauses) if (!findClause(id)) throw new Error(`case ${c.pack}/${c.name} names unknown clause ${id}`);
  for (const f of c.flags) if (!FLAG_NOTES[f]) throw new Error(`case ${c.pack}/${c.name} uses undefined flag ${f}`);
  if (!PACK_KINDS[c.pack].includes(c.type)) throw new Error(`case ${c.pack}/${c.name}: ${c.type} is not a kind of the ${c.pack} pack`);
  const observed = await execute(impl, c.type, c.inputs);
  checkIntent(c, observed);
  crossCheckMinted(c, observed);
  crossCheckLog(c, observed);
  // Decide steps publish their receipt bytes only where the case pins them
  const expected = 'exactly' in c.intent ? trimToExpected(c.type, observed, c.intent.exactly) : c.pinReceipt ? observed : trimToExpected(c.type, observed, { steps: ((observed['steps'] as JsonObject[] | undefined) ?? []).map(() => ({})) });
  return { tcId, case: c.name, comment: c.comment, flags: [...c.flags], clauses: [...c.clauses], result: resultOf(c), inputs: c.inputs, expected };
}

const HEADER = [
  'JCP conformance/v1 vectors, generated by vectors/gen.ts from jcp-SPEC v0.3 (../shared/spec/jcp-SPEC.md).',
  "Keys: Ed25519 from seeds deriveSeed('jcp-vectors/v1:<name>') (BLAKE3 derive_key, context 'jcp-conformance 2026 seed v1'); nonces blake3('jcp-vectors/v1 nonce:<label>')[0..16].",
  'Bytes are lowercase hex; integers are JSON numbers. expected is {error: code} for a refusal, else the outputs; replay with vectors/README.md.',
];

/** The extra header line of the JouleClaw and Sense packs (the jcp packs' headers stay byte-identical). */
const JC_HEADER: Partial<Record<PackArea, string>> = {
  jouleclaw_tlog: "JouleClaw §22 (../shared/spec/jouleclaw-SPEC.md): RFC 6962 trees with BLAKE3 over the CT test leaves; heads signed by deriveSeed('jcp-vectors/v1:steward'); roots and proofs re-checked by an independent RFC 9162 verifier (@noble/hashes) before publication.",
  jouleclaw_policy: 'JouleClaw §10, §10.1: digests recomputed from the §10.1 layout with @noble/hashes before publication; policy/1 receipts sealed by the steward (COSE_Sign1, kid = UTF-8 of its did:key).',
  jouleclaw_receipts: 'JouleClaw §2, §7, §16, §17: JSON documents travel as JSON; contract hashes (RFC 8785 + BLAKE3) and command_hash (BLAKE3 of argv joined by NUL) recomputed independently; journals and verdict receipts are the suite\'s byte layout.',
  profiles: `The suite-defined profiles (spec-map/profiles.json) jouleclaw:P-VALUE (§19.2, §19.3), P-WORKSPACE (§11), P-SKILL (§12), P-CASCADE (§1.1) (vectors/p-execute.ts), and ${PROFILE_VECTOR_GROUPS.flatMap((g) => g.profiles).join(', ')} (vectors/profiles/), through their operations (harness/protocol/profiles/); every expected answer is derived from the spec's words, and each kind reports only what its clauses decide.`,
  sense: "Sense §2, §3, §5, §8 (../shared/spec/sense-SPEC.md): event ids recomputed from the suite's field layout with @noble/hashes; chains sealed by deriveSeed('jcp-vectors/v1:sense-host').",
};

/** Builds every pack (and validates nothing yet): the in-process reference answers each case. */
export async function buildPacks(opts: { register: boolean; registryPath?: string }): Promise<{ packs: Map<PackArea, Pack>; registry: Registry }> {
  const cases = allCases();
  const registry = readRegistry(opts.registryPath);
  const ids = assignTcIds(cases, registry, opts.register);
  const impl = new Implementation(inProcessTransport());
  const tests = new Map<Case, VectorTest>();
  for (const c of cases) tests.set(c, await vectorOf(impl, c, ids.get(c)!));
  await impl.transport.close();
  const packs = new Map<PackArea, Pack>();
  for (const area of PACK_AREAS) {
    const mine = cases.filter((c) => c.pack === area);
    const groups: TestGroup[] = PACK_KINDS[area]
      .map((type) => ({ type, tests: mine.filter((c) => c.type === type).map((c) => tests.get(c)!).sort((a, b) => a.tcId - b.tcId) }))
      .filter((g) => g.tests.length > 0);
    const flags = [...new Set(mine.flatMap((c) => c.flags))].sort();
    packs.set(area, {
      area,
      schema: schemaFile(area),
      generatorVersion: GENERATOR_VERSION,
      numberOfTests: mine.length,
      header: area in JC_HEADER ? [...HEADER, JC_HEADER[area]!] : HEADER,
      notes: Object.fromEntries(flags.map((f) => [f, FLAG_NOTES[f]!])),
      testGroups: groups,
    });
  }
  return { packs, registry };
}

/** Writes every pack and schema into `target` (created if needed); with `register`, saves new tcIds to the registry. */
export async function generate(target: string, opts: { register: boolean; registryPath?: string }): Promise<string[]> {
  const { packs, registry } = await buildPacks(opts);
  mkdirSync(join(target, 'schemas'), { recursive: true });
  const written: string[] = [];
  for (const [area, pack] of packs) {
    writeFileSync(join(target, packFile(area)), jsonText(pack));
    writeFileSync(join(target, 'schemas', schemaFile(area)), jsonText(schemaFor(area)));
    written.push(packFile(area), `schemas/${schemaFile(area)}`);
  }
  if (opts.register) writeFileSync(opts.registryPath ?? REGISTRY_PATH, jsonText(registry));
  return written;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const target = process.argv[2] ? resolve(process.argv[2]) : V1_DIR;
  generate(target, { register: true }).then(
    (files) => console.log(`wrote ${files.length} files into ${target}`),
    (e: unknown) => {
      console.error(e instanceof Error ? e.message : e);
      process.exit(1);
    },
  );
}
