// The package's build (npm's `prepack`): compiles the CLI and everything certify runs at certify time — harness/
// (without its self-tests), impl/, spec-map/, vectors/, hardware-lab/ — to JavaScript under dist/suite/ in the
// checkout's own layout, beside the data those modules read by path (the clause index, the vector packs, the vendored
// third-party vectors with their notices, the protocol schema), so the installed package needs neither tsx nor esbuild
// and every path a module computes from its own location still lands where it did in the checkout.
//   tsx scripts/build-package.ts        (npm run build)
// The self-tests build the same tree elsewhere with buildSuite (harness/self/compiled-cli.setup.ts).
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
export const SUITE_DIR = join(ROOT, 'dist', 'suite');

/** The folders compiled and copied; tsconfig.build.json's `include` names the same. */
const TREES = ['harness', 'impl', 'spec-map', 'vectors', 'hardware-lab'];
/** Paths (relative to the root) left out: the harness's self-tests, and what lab runs write. */
const LEFT_OUT = [/^harness\/self(\/|$)/, /^hardware-lab\/reports(\/|$)/, /(^|\/)node_modules(\/|$)/];

/** Every file under `dir` (relative to ROOT) that is data, not TypeScript: copied as it is. */
function dataFiles(dir: string): string[] {
  const out: string[] = [];
  for (const e of readdirSync(join(ROOT, dir), { withFileTypes: true })) {
    const rel = `${dir}/${e.name}`;
    if (LEFT_OUT.some((re) => re.test(rel))) continue;
    if (e.isDirectory()) out.push(...dataFiles(rel));
    else if (e.isFile() && !rel.endsWith('.ts')) out.push(rel);
  }
  return out;
}

/**
 * Compiles the suite into `outDir` (emptied first) in the checkout's layout, beside its data files and a package.json
 * naming the suite; throws, saying why, when the compiler fails. Returns the counts of modules compiled and files copied.
 * With `typeCheck: false` tsc emits the same files without checking types (--noCheck: 5 s rather than 12 here), for a
 * caller whose sources are type-checked elsewhere in the same run (npm test's first phase).
 */
export function buildSuite(outDir: string, opts: { typeCheck?: boolean } = {}): { compiled: number; copied: number } {
  rmSync(outDir, { recursive: true, force: true });
  const tsc = join(dirname(createRequire(import.meta.url).resolve('typescript/package.json')), 'bin', 'tsc');
  const r = spawnSync(process.execPath, [tsc, '-p', join(ROOT, 'tsconfig.build.json'), '--outDir', outDir, ...(opts.typeCheck === false ? ['--noCheck'] : [])], { cwd: ROOT, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`tsc -p tsconfig.build.json failed (exit ${r.status ?? r.signal})\n${r.stdout}${r.stderr}`);
  let copied = 0;
  for (const tree of TREES) {
    for (const rel of dataFiles(tree)) {
      mkdirSync(dirname(join(outDir, rel)), { recursive: true });
      copyFileSync(join(ROOT, rel), join(outDir, rel));
      copied++;
    }
  }
  // the modules read the suite's name and version from the package.json above them, and load as ES modules
  const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { name: string; version: string; license: string };
  writeFileSync(join(outDir, 'package.json'), JSON.stringify({ name: pkg.name, version: pkg.version, license: pkg.license, private: true, type: 'module' }, null, 2) + '\n');
  const compiled = readdirSync(outDir, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.js')).length;
  return { compiled, copied };
}

/**
 * $JCP_BUILD_NO_TYPECHECK=1: emit without checking types. For a caller that type-checked the same sources in the same
 * run (harness/self/package.test.ts packs the product inside npm test, whose first phase is tsc); anything else leaves
 * it unset, and a release is type-checked as it is built.
 */
const NO_TYPECHECK = process.env['JCP_BUILD_NO_TYPECHECK'] === '1';

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  try {
    const { compiled, copied } = buildSuite(SUITE_DIR, { typeCheck: !NO_TYPECHECK });
    console.log(`build-package: ${compiled} modules compiled and ${copied} data files copied into ${relative(ROOT, SUITE_DIR)}/`);
  } catch (e) {
    process.stderr.write(`build-package: ${e instanceof Error ? e.message : String(e)}\n`);
    process.exit(1);
  }
}
