// npm run spec-map:check — the clause index against the spec texts and the tests:
// fails on a test naming an unknown clause, a quote no longer in its spec, or a MUST clause of an implemented class
// with no test (unless allowlisted with a reason); prints MUST coverage per spec and lists what is uncovered.
// The spec texts do not ship with the suite: without them ($JCP_SPEC_DIR, else ../shared/spec beside the checkout)
// the index is still checked on its own and one line says the quotes were not; only JCP_REQUIRE_SPEC=1 makes their
// absence a failure.
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { allClauses, loadSpecs, normaliseText, type Clause, implementedClasses } from '../spec-map/index.ts';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const SPEC_DIR = process.env['JCP_SPEC_DIR'] ?? resolve(ROOT, '..', 'shared', 'spec');
const MUST_LEVELS = new Set(['MUST', 'MUST NOT', 'REQUIRED']);
const ID_RE = /['"`]((?:jcp|jouleclaw|sense)\/[0-9A-Za-z.]+#[a-z0-9][a-z0-9-]*)['"`]/g;

const problems: string[] = [];

// 0. the index on its own, spec texts or not: ids and classes are checked by loadSpecs; here each clause's level,
// section and quote, and each open point's reading
const LEVELS = new Set(['MUST', 'MUST NOT', 'REQUIRED', 'SHOULD', 'SHOULD NOT', 'MAY', 'RECOMMENDED', 'OPEN']);
for (const s of loadSpecs()) {
  if (!s.file) problems.push(`spec ${s.spec}: its clause file names no spec text file`);
  for (const c of s.clauses) {
    if (!LEVELS.has(c.level)) problems.push(`${c.id}: unknown level ${JSON.stringify(c.level)}`);
    if (!c.section || !c.id.startsWith(`${s.spec}/${c.section}#`)) problems.push(`${c.id}: section ${JSON.stringify(c.section)} is not the id's`);
    if (!c.quote || !c.quote.trim()) problems.push(`${c.id}: no quote`);
    if (c.level === 'OPEN' && (c.reading?.length ?? 0) < 40) problems.push(`${c.id}: open point without the reading the reference takes`);
  }
}

// 1. quotes against the spec texts, where they are present
if (existsSync(SPEC_DIR)) {
  for (const s of loadSpecs()) {
    const path = join(SPEC_DIR, s.file);
    if (!existsSync(path)) {
      problems.push(`spec text ${s.file} is not in ${SPEC_DIR}`);
      continue;
    }
    const text = normaliseText(readFileSync(path, 'utf8'));
    for (const c of s.clauses) if (!text.includes(normaliseText(c.quote))) problems.push(`${c.id}: quote no longer occurs in ${s.file}: "${c.quote}"`);
  }
} else {
  const line = `spec texts not found at ${SPEC_DIR} ($JCP_SPEC_DIR): quotes were not checked`;
  if (process.env['JCP_REQUIRE_SPEC'] === '1') problems.push(`${line} (a failure under JCP_REQUIRE_SPEC=1)`);
  else console.log(line);
}

// 2. clause ids named by tests
function walk(dir: string, out: string[] = []): string[] {
  for (const n of readdirSync(dir)) {
    if (n === 'node_modules' || n.startsWith('.')) continue;
    const p = join(dir, n);
    if (statSync(p).isDirectory()) walk(p, out);
    else if (n.endsWith('.test.ts')) out.push(p);
  }
  return out;
}
const clauses = allClauses();
const named = new Map<string, Set<string>>();
// only conformance tests count: a clause id named elsewhere (a self-test's list of expected failures) is not a test of it
for (const f of ['harness/conformance', 'harness/external'].map((d) => join(ROOT, d)).filter(existsSync).flatMap((d) => walk(d))) {
  for (const m of readFileSync(f, 'utf8').matchAll(ID_RE)) {
    const id = m[1]!;
    const rel = relative(ROOT, f);
    if (!clauses.has(id)) problems.push(`${rel} names unknown clause ${id}`);
    (named.get(id) ?? named.set(id, new Set()).get(id)!).add(rel);
  }
}

// 3. MUST clauses of implemented classes need a test or an allowlisted reason
const implemented = new Set<string>([...implementedClasses()]);
const allow = (JSON.parse(readFileSync(join(ROOT, 'spec-map', 'allowlist.json'), 'utf8')) as { clauses: Array<{ id: string; reason: string }> }).clauses;
const allowed = new Map(allow.map((a) => [a.id, a.reason]));
for (const a of allow) {
  if (!clauses.has(a.id)) problems.push(`allowlist names unknown clause ${a.id}`);
  else if (named.has(a.id)) problems.push(`allowlist holds ${a.id}, which a test now names: remove it`);
  if (!a.reason || a.reason.length < 20) problems.push(`allowlist entry ${a.id} needs a reason`);
}
const isMust = (c: Clause) => MUST_LEVELS.has(c.level);
const ofImplemented = (c: Clause) => c.classes.some((k) => implemented.has(k));
const uncovered: Clause[] = [];
for (const c of clauses.values()) if (isMust(c) && ofImplemented(c) && !named.has(c.id) && !allowed.has(c.id)) uncovered.push(c);
for (const c of uncovered) problems.push(`${c.id} (${c.level}, ${c.classes.join(' ')}) has no test: "${c.quote}"`);

// 4. coverage per spec
console.log('MUST-level clause coverage (clauses named by at least one test / all MUST, MUST NOT and REQUIRED clauses)');
for (const s of loadSpecs()) {
  const must = s.clauses.filter(isMust);
  const cov = must.filter((c) => named.has(c.id));
  const impl = must.filter(ofImplemented);
  const implCov = impl.filter((c) => named.has(c.id) || allowed.has(c.id));
  const listed = must.filter((c) => !named.has(c.id) && allowed.has(c.id));
  const pct = must.length ? Math.floor((1000 * (cov.length + listed.length)) / must.length) / 10 : 100;
  console.log(
    `  ${s.spec.padEnd(10)} ${String(cov.length).padStart(4)} / ${String(must.length).padEnd(4)} tested${listed.length ? `, ${listed.length} allowlisted` : ''}: ${pct}% accounted for;  ${implCov.length} / ${impl.length} of implemented classes and profiles`,
  );
  for (const c of listed) console.log(`    allowlisted ${c.id}: ${allowed.get(c.id)}`);
  const open = must.filter((c) => !named.has(c.id) && !allowed.has(c.id)).map((c) => c.id);
  if (open.length && process.argv.includes('--list')) console.log(`    uncovered: ${open.join(', ')}`);
}
console.log(`implemented classes: ${[...implemented].join(', ')}; allowlisted: ${allow.length}`);
if (!process.argv.includes('--list')) console.log('(run with --list to name every uncovered MUST clause)');

if (problems.length) {
  console.log(`\nspec-map:check found ${problems.length} problem(s):`);
  for (const p of problems) console.log(`  - ${p}`);
  process.exit(1);
}
console.log('spec-map:check passed');
