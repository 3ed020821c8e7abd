// `npm run vectors:check` — regenerates conformance/v1 into a temporary folder (os.tmpdir) and fails on any byte of
// drift from the committed packs, printing the first differing file and the JSON path inside it (a
// change to published bytes is always deliberate). It also fails when the tcId registry is not append-only against
// the last commit (an existing tcId's case name changed, or a tcId was dropped or reused), and when a committed pack
// does not conform to its schema.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { generate, readRegistry, REGISTRY_PATH, V1_DIR, type Registry } from './gen.ts';
import { firstDifference } from './model.ts';
import { loadPacks } from './replay.ts';

function files(dir: string, root = dir): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .sort()
    .flatMap((n) => {
      const p = join(dir, n);
      return statSync(p).isDirectory() ? files(p, root) : [relative(root, p)];
    });
}

/** The first difference between two folders of packs, as a sentence; undefined when they are byte-identical. */
export function compareDirs(committed: string, fresh: string): string | undefined {
  const a = files(committed);
  const b = files(fresh);
  for (const f of b) if (!a.includes(f)) return `${f}: generated but not committed (run \`npm run vectors:gen\`)`;
  for (const f of a) if (!b.includes(f)) return `${f}: committed but no longer generated`;
  for (const f of a) {
    const x = readFileSync(join(committed, f));
    const y = readFileSync(join(fresh, f));
    if (x.equals(y)) continue;
    let path = '(not JSON)';
    try {
      path = firstDifference(JSON.parse(x.toString('utf8')), JSON.parse(y.toString('utf8'))) ?? '(same JSON value, different bytes: formatting)';
    } catch {
      /* a committed file that no longer parses: the byte offset says enough */
    }
    let at = 0;
    while (at < x.length && at < y.length && x[at] === y[at]) at++;
    return `${f}: first differing byte at offset ${at}, at ${path}`;
  }
  return undefined;
}

/** Problems with `now` as a successor of `before`: every (area, case) → tcId of `before` must be unchanged in `now`. */
export function registryProblems(before: Registry, now: Registry): string[] {
  const out: string[] = [];
  for (const [area, cases] of Object.entries(before)) {
    for (const [name, id] of Object.entries(cases)) {
      const got = now[area]?.[name];
      if (got === undefined) {
        const taker = Object.entries(now[area] ?? {}).find(([, v]) => v === id)?.[0];
        out.push(taker ? `${area} tcId ${id}: its case name changed from ${name} to ${taker} (tcIds are never renumbered or reused)` : `${area} tcId ${id} (${name}) was removed from the registry`);
      } else if (got !== id) out.push(`${area} case ${name}: tcId changed from ${id} to ${got}`);
    }
  }
  for (const [area, cases] of Object.entries(now)) {
    const seen = new Map<number, string>();
    for (const [name, id] of Object.entries(cases)) {
      if (seen.has(id)) out.push(`${area} tcId ${id} is given to both ${seen.get(id)!} and ${name}`);
      seen.set(id, name);
    }
  }
  return out;
}

/** The registry as of the last commit, or undefined outside a git checkout or before it was first committed. */
function committedRegistry(): Registry | undefined {
  try {
    const root = execFileSync('git', ['rev-parse', '--show-toplevel'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
    const rel = relative(root, REGISTRY_PATH).split('\\').join('/');
    return JSON.parse(execFileSync('git', ['show', `HEAD:${rel}`], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] })) as Registry;
  } catch {
    return undefined;
  }
}

/** Runs every check over `committed`; the problems found (empty when the packs are exactly what the generator writes). */
export async function checkVectors(committed = V1_DIR, registryPath = REGISTRY_PATH): Promise<string[]> {
  const problems: string[] = [];
  const before = registryPath === REGISTRY_PATH ? committedRegistry() : undefined;
  if (before) problems.push(...registryProblems(before, readRegistry(registryPath)));
  try {
    loadPacks(committed);
  } catch (e) {
    problems.push(e instanceof Error ? e.message : String(e));
  }
  const tmp = mkdtempSync(join(tmpdir(), 'jcp-vectors-'));
  try {
    await generate(tmp, { register: false, registryPath });
    const d = compareDirs(committed, tmp);
    if (d) problems.push(`drift from the committed packs: ${d}`);
  } catch (e) {
    problems.push(e instanceof Error ? e.message : String(e));
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
  return problems;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  checkVectors(process.argv[2] ? resolve(process.argv[2]) : V1_DIR).then((problems) => {
    if (problems.length === 0) {
      console.log('vectors:check: conformance/v1 is byte-identical to a fresh generation');
      return;
    }
    for (const p of problems) console.error(`vectors:check: ${p}`);
    process.exit(1);
  });
}
