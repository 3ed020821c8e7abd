// `npm run test:mutation:narrow -- <source file>[:<first line>-<last line>] <test glob> [<test glob> ...]`: Stryker over
// one file of impl/ against only the tests named, at one runner, with no incremental file: a mutant that survives costs
// those tests, not the whole test set (a survivor of a core module costs about a minute in a whole run, 1–3 s here).
// It finds a module's gaps before a whole run scores it; its score is not the module's (only these tests ran, so it is
// if anything low) and is written to reports/narrow/mutation.json, never to the committed incremental file. Then the
// survivors with their clause comments.
//   tsx scripts/mutation-narrow.ts impl/cbor/value.ts impl/cbor/cbor.test.ts 'impl/cbor/*-edges.test.ts'
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { matchesGlob, mutated } from './stryker-config.ts';

const USAGE = 'usage: npm run test:mutation:narrow -- <impl source file>[:<first line>-<last line>] <test glob> [<test glob> ...]';

/** The run's source and test globs, or the one-line reason they cannot be run. */
export function narrowArgs(argv: readonly string[]): { source: string; tests: string[] } | { error: string } {
  const args = argv.filter((a) => a !== '--');
  const [target, ...tests] = args;
  if (target === undefined || tests.length === 0) return { error: USAGE };
  const m = /^(.+?\.ts)(?::(\d+)-(\d+))?$/.exec(target);
  if (m === null) return { error: `${target}: not a .ts file (optionally with :<first line>-<last line>)` };
  const file = m[1]!;
  if (!existsSync(file)) return { error: `${file}: no such file` };
  if (!file.startsWith('impl/') || !mutated(file)) return { error: `${file}: not a file of impl/ that Stryker mutates (stryker.config.json leaves it out, or it is a test)` };
  if (m[2] !== undefined && Number(m[2]) > Number(m[3])) return { error: `${target}: the first line is after the last` };
  const files = testFiles();
  for (const t of tests) if (!files.some((f) => matchesGlob(f, t))) return { error: `${t}: matches no test file` };
  return { source: target, tests };
}

/** The test files under the checkout (relative, with forward slashes), not looking into dependencies or reports. */
function testFiles(dir = '.'): string[] {
  const out: string[] = [];
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const rel = dir === '.' ? e.name : `${dir}/${e.name}`;
    if (e.isDirectory() && !/^(node_modules|\.git|\.stryker-.*|reports|dist)$/.test(e.name)) out.push(...testFiles(rel));
    else if (e.isFile() && e.name.endsWith('.test.ts')) out.push(rel);
  }
  return out;
}

if (process.argv[1] && pathToFileURL(process.argv[1]).href === import.meta.url) {
  const a = narrowArgs(process.argv.slice(2));
  if ('error' in a) {
    console.error(`test:mutation:narrow: ${a.error}`);
    process.exit(2);
  }
  console.log(`mutating ${a.source} against ${a.tests.join(', ')} only (one runner; the score is this test set's, not the module's)`);
  const env = { ...process.env, JCP_NARROW_TESTS: a.tests.join(',') };
  const run = spawnSync('npx', ['stryker', 'run', 'mutation/narrow/stryker.narrow.json', '--mutate', a.source], { stdio: 'inherit', env });
  spawnSync('npx', ['tsx', 'scripts/mutation-survivors.ts', 'reports/narrow/mutation.json'], { stdio: 'inherit' });
  process.exit(run.status ?? 1);
}
