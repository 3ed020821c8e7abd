// The kill matrix's vitest configuration: many clause mutants in ONE vitest run, served in process.
// mutation/matrix.ts writes, per mutant, a small wrapper test file <plan dir>/<mutant id>/merged/<n>-files.test.ts
// that sets JCP_MUTANT (and JCP_EXTRA_CLAIMS) and imports the real test files it chose one after the other, so their
// tests register under the wrapper (the vector replay gets a wrapper of its own); vitest runs every wrapper of the batch on one pool of forks, with one
// module transform for all (a vitest project per mutant would transform everything once per mutant).
//   - A mutant built over the reference adapter (mutation/testees/registry.ts): a resolve hook hands the in-process
//     driver (harness/drivers/in-process.ts) mutation/testees/mutant-adapter.ts instead of harness/adapter/reference.ts;
//     it reads JCP_MUTANT when the driver builds its adapter. No testee subprocess is started.
//   - A source-patch mutant (mutation/testees/patches.ts): the wrapper imports harness/adapter/reference.ts with the
//     query ?jcp-mutant=<id>; a relative import below a module carrying that query is resolved with it too (a separate
//     module instance) when the imported module reaches a patched file through its own imports, and the mutant's
//     patches are applied to that copy only. A module that reaches no patched file is the worker's shared one: its code
//     is the faithful code either way, and copying it cost a transform and an evaluation per mutant for nothing (most
//     patches are in modules few others import). impl/errors.ts is always shared, so one JcpError class is. The
//     suite's own oracle (harness/oracle.ts → impl/) stays the faithful one.
// The plan ({ workers, dir }) is read from the JSON file named by $JCP_MATRIX_PLAN.
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig, type Plugin } from 'vitest/config';
import { MUTANT_PATCHES } from './testees/patches.ts';

/** What mutation/matrix.ts asks one vitest run to do: run every wrapper under `dir` on `workers` forks. */
export interface MatrixPlan {
  readonly workers: number;
  readonly dir: string;
}

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const MUTANT_ADAPTER = join(ROOT, 'mutation', 'testees', 'mutant-adapter.ts');
const planPath = process.env['JCP_MATRIX_PLAN'];
if (!planPath) throw new Error('mutation/vitest.matrix.config.ts: JCP_MATRIX_PLAN (the plan file) is not set');
const plan = JSON.parse(readFileSync(planPath, 'utf8')) as MatrixPlan;

const slash = (p: string): string => p.replace(/\\/g, '/');
const COPY = /\?jcp-mutant=([a-z0-9-]+)$/;
/** A test file as one wrapper imports it: an instance of its own, whose imports are the worker's shared ones. */
const WRAPPED = /\?jcp-wrapper=[a-z0-9-]+$/;

const importCache = new Map<string, string[] | 'unknown'>();
/** The relative imports of a module (static, re-exports and literal dynamic ones), or 'unknown' when one is computed. */
function importsOf(file: string): string[] | 'unknown' {
  let deps = importCache.get(file);
  if (deps === undefined) {
    const src = readFileSync(file, 'utf8');
    deps = /\bimport\(\s*[^'"\s]/.test(src)
      ? 'unknown'
      : [...src.matchAll(/(?:\bfrom\s*|\bimport\s*\(?\s*)['"](\.{1,2}\/[^'"]+)['"]/g)].map((m) => resolve(dirname(file), m[1]!.split('?')[0]!));
    importCache.set(file, deps);
  }
  return deps;
}

const reachCache = new Map<string, boolean>();
/**
 * Whether module `file` is, or imports (directly or further down), a file the mutant `id` patches. Conservative: a
 * module with a computed dynamic import, or an import that names no file on disk, counts as reaching one.
 */
function reachesPatch(file: string, id: string): boolean {
  const key = `${id}\0${file}`;
  let r = reachCache.get(key);
  if (r === undefined) {
    const patched = new Set((MUTANT_PATCHES[id] ?? []).map((p) => resolve(ROOT, p.file)));
    const seen = new Set<string>([file]);
    const todo = [file];
    r = false;
    while (todo.length > 0 && !r) {
      const f = todo.pop()!;
      const deps = patched.has(f) || !existsSync(f) ? 'unknown' : importsOf(f);
      if (deps === 'unknown') r = true;
      else for (const d of deps) if (!seen.has(d)) (seen.add(d), todo.push(d));
    }
    reachCache.set(key, r);
  }
  return r;
}

const mutants: Plugin = {
  name: 'jcp-mutants',
  enforce: 'pre',
  async resolveId(source, importer) {
    if (COPY.test(source) || WRAPPED.test(source)) return source; // the wrapper's import of a patched copy's root, or of a test file
    if (!importer) return null;
    const copy = COPY.exec(importer);
    const from = importer.split('?')[0]!;
    if (!copy) return slash(from).endsWith('/harness/drivers/in-process.ts') && source === '../adapter/reference.ts' ? MUTANT_ADAPTER : null;
    if (!source.startsWith('.')) return null;
    const r = await this.resolve(source, from, { skipSelf: true });
    if (!r || r.external) return r;
    const file = r.id.split('?')[0]!;
    if (slash(file).endsWith('/impl/errors.ts') || !reachesPatch(file, copy[1]!)) return { ...r, id: file };
    return `${file}?jcp-mutant=${copy[1]}`;
  },
  transform(code, moduleId) {
    const copy = COPY.exec(moduleId);
    if (!copy) return null;
    const file = slash(moduleId.split('?')[0]!);
    let out = code;
    for (const p of (MUTANT_PATCHES[copy[1]!] ?? []).filter((x) => file.endsWith(`/${x.file}`))) {
      const at = out.indexOf(p.find);
      if (at < 0 || out.indexOf(p.find, at + 1) >= 0) throw new Error(`mutant ${copy[1]}: the text to patch in ${p.file} is not there exactly once: ${p.find}`);
      out = out.slice(0, at) + p.replace + out.slice(at + p.find.length);
    }
    return out === code ? null : { code: out, map: null };
  },
};

export default defineConfig({
  root: ROOT,
  plugins: [mutants],
  server: { fs: { strict: false } },
  test: {
    dir: plan.dir,
    include: ['**/*.test.ts'],
    environment: 'node',
    testTimeout: 60_000,
    pool: 'forks',
    // one module graph per worker for all the wrappers it runs (each wrapper resets what a mutant reads:
    // mutation/matrix.ts): impl/, the fixtures and the oracle load once per worker, not once per wrapper
    isolate: false,
    maxWorkers: plan.workers,
  },
});
