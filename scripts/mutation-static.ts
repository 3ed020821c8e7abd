// The static share of Stryker's mutants: a dry run only (stryker.config.json with dryRunOnly and the event-recorder
// reporter), then, per mutated file, how many of its mutants ran while no test was running (module load, beforeAll,
// describe bodies: Stryker calls them static, and each is tested by reloading every test file) beside its total.
//   tsx scripts/mutation-static.ts [--mutate <glob,...>] [--top N]
// Writes reports/mutation/static.json ({ total, static, byFile }) and prints the table.
import { spawnSync } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const args = process.argv.slice(2);
const opt = (name: string): string | undefined => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : undefined;
};
const top = Number(opt('--top') ?? 25);
const mutate = opt('--mutate');

const work = '.stryker-tmp/static';
const events = join(work, 'events');
rmSync(work, { recursive: true, force: true });
mkdirSync(work, { recursive: true });
const base = JSON.parse(readFileSync('stryker.config.json', 'utf8')) as Record<string, unknown>;
const config = {
  ...base,
  $schema: undefined,
  incremental: false,
  dryRunOnly: true,
  cleanTempDir: false,
  tempDirName: join(work, 'sandbox'),
  concurrency: 1,
  reporters: ['event-recorder'],
  eventReporter: { baseDir: events },
  ...(mutate ? { mutate: mutate.split(',') } : {}),
};
const configFile = join(work, 'stryker.dry.json');
writeFileSync(configFile, JSON.stringify(config, null, 2));
const started = Date.now();
// a dry run over the whole of impl/ keeps every test's coverage of 18,000 mutants in its runner: past node's default
// heap (about 4 GiB here) it ran out of memory, so the runner gets 8 GiB unless NODE_OPTIONS already sets a limit
const nodeOptions = process.env['NODE_OPTIONS'] ?? '';
const env = /--max-old-space-size/.test(nodeOptions) ? process.env : { ...process.env, NODE_OPTIONS: `${nodeOptions} --max-old-space-size=8192`.trim() };
const run = spawnSync('npx', ['stryker', 'run', configFile], { stdio: 'inherit', env });
const seconds = Math.round((Date.now() - started) / 1000);
if (run.status !== 0) process.exit(run.status ?? 1);

const dryFile = readdirSync(events).find((f) => f.endsWith('-onDryRunCompleted.json'));
if (!dryFile) throw new Error(`no onDryRunCompleted event under ${events}`);
const dry = JSON.parse(readFileSync(join(events, dryFile), 'utf8')) as {
  result: { tests: unknown[]; mutantCoverage?: { static: Record<string, number>; perTest: Record<string, Record<string, number>> } };
};
const staticHits = dry.result.mutantCoverage?.static ?? {};

// mutant ids per file, read from the instrumented copies in the sandbox (each mutant is switched by its id)
const sandbox = readdirSync(join(work, 'sandbox')).map((d) => join(work, 'sandbox', d))[0]!;
const listed = spawnSync('git', ['ls-files', 'impl'], { encoding: 'utf8' }).stdout.split('\n').filter((f) => f.endsWith('.ts'));
const byFile: Record<string, { total: number; static: number }> = {};
let total = 0;
let statics = 0;
for (const f of listed) {
  let text: string;
  try {
    text = readFileSync(join(sandbox, f), 'utf8');
  } catch {
    continue;
  }
  const ids = new Set([...text.matchAll(/stryMutAct_9fa48\("(\d+)"\)/g)].map((m) => m[1]!));
  if (ids.size === 0) continue;
  const s = [...ids].filter((id) => (staticHits[id] ?? 0) > 0).length;
  byFile[f] = { total: ids.size, static: s };
  total += ids.size;
  statics += s;
}
const pct = (n: number, d: number) => (d === 0 ? '0.0' : ((100 * n) / d).toFixed(1));
const rows = Object.entries(byFile).sort((a, b) => b[1].static - a[1].static);
for (const [f, r] of rows.slice(0, top)) console.log(`${String(r.static).padStart(6)} / ${String(r.total).padEnd(6)} ${f}`);
console.log(`static: ${statics} of ${total} mutants (${pct(statics, total)}%); ${dry.result.tests.length} tests; dry run ${seconds} s (Stryker's own start included)`);
mkdirSync('reports/mutation', { recursive: true });
writeFileSync('reports/mutation/static.json', JSON.stringify({ total, static: statics, seconds, tests: dry.result.tests.length, byFile }, null, 2));
