// The clause-mutant kill matrix: runs the conformance suite (harness/conformance, harness/external)
// against every mutant of mutation/catalog.ts and prints mutant × (conformance tests, vector packs alone, property
// tests), a summary per class and the overall share killed. Writes reports/mutation/kill-matrix.{json,md}. Exits 1
// when any mutant survives or the control (the decision copy with no fault) is killed.
//
// Usage: tsx mutation/matrix.ts [--only id,id [--merge]] [--all-files] [--pool N] [--batch N] [--testee]
//   By default every mutant is served IN PROCESS (mutation/vitest.matrix.config.ts): one vitest run for the whole
//   batch, one wrapper test file per mutant (plus one for its vector replay), forks shared by all (--pool, default the
//   cores up to 4), one module transform for all — no vitest start and no testee subprocess per mutant (the old way
//   cost ~35 min).
//   --testee serves builder mutants as testee processes instead (mutation/testees/variant-main.ts <id>, via
//   JCP_TESTEE), one vitest run per mutant: slower, but through the testee protocol's bytes. Variant testees start
//   from one esbuild bundle of that source (harness/self/bundles.ts), built when the matrix starts: each start then
//   skips compiling TypeScript, and a durable crash run restarts its testee at every kill.
//   Each mutant first runs the test files that name one of its own clauses, plus the vector replay (the packs of
//   harness/conformance/vectors.test.ts, mutation/vector-replay.ts); a survivor is run again over every file naming a
//   clause of its class. The control runs every file that asks for a decision. --all-files runs the whole suite.
//   A mutant is killed by tests that FAIL; tests that crash, time out or error against it are reported apart and never
//   count as a kill (they would be the mutant's own bug, not the suite's catch).
import { spawn } from 'node:child_process';
import { parseArgs } from 'node:util';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { readTestRecord, runCompleted, type TestLine } from '../harness/report/record-reporter.ts';
import { exitWhenWritten } from '../scripts/exit-when-written.ts';
import { PROGRESS } from './matrix-reporter.ts';
import { AWAITING_TESTS, CONTROL, COVERED_CLASSES, MUTANTS as CATALOGUED, PENDING_CLASSES, type Mutant } from './catalog.ts';
import { MUTANT_PATCHES, SUITE_SCOPED } from './testees/patches.ts';
import { PROCESS_MUTANTS } from './testees/process-faults.ts';
import { buildBundle, variantTestee } from '../harness/self/bundles.ts';
import { allClauses, implementedClasses } from '../spec-map/index.ts';

const USAGE = 'usage: tsx mutation/matrix.ts [--only id,id [--merge]] [--all-files] [--pool N] [--batch N] [--testee] [--awaiting]';

/** The command line, read strictly: an unknown option, a missing value or a count that is no whole number is refused. */
function readArgs(): { only?: string[]; merge: boolean; allFiles: boolean; pool?: number; batch?: number; testee: boolean; awaiting: boolean } {
  let v;
  try {
    v = parseArgs({
      args: process.argv.slice(2),
      strict: true,
      allowPositionals: false,
      options: {
        only: { type: 'string' },
        merge: { type: 'boolean' },
        'all-files': { type: 'boolean' },
        pool: { type: 'string' },
        batch: { type: 'string' },
        testee: { type: 'boolean' },
        awaiting: { type: 'boolean' },
        help: { type: 'boolean' },
      },
    }).values;
  } catch (e) {
    refuse(e instanceof Error ? e.message : String(e));
  }
  if (v.help) {
    console.log(USAGE);
    process.exit(0);
  }
  const count = (name: string, x: string): number => {
    if (!/^[1-9][0-9]*$/.test(x)) refuse(`--${name} takes a whole number of at least 1, not ${JSON.stringify(x)}`);
    return Number(x);
  };
  return {
    ...(v.only !== undefined ? { only: v.only.split(',').filter(Boolean) } : {}),
    merge: v.merge === true,
    allFiles: v['all-files'] === true,
    ...(v.pool !== undefined ? { pool: count('pool', v.pool) } : {}),
    ...(v.batch !== undefined ? { batch: count('batch', v.batch) } : {}),
    testee: v.testee === true,
    awaiting: v.awaiting === true,
  };
}

function refuse(why: string): never {
  console.error(`mutation/matrix.ts: ${why}\n${USAGE}`);
  process.exit(2);
}

const ARGS = readArgs();
/** The catalogued mutants, and with --awaiting those awaiting a test (run to see whether their test has landed). */
const MUTANTS: readonly Mutant[] = ARGS.awaiting ? [...CATALOGUED, ...AWAITING_TESTS] : CATALOGUED;
const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const SUITE_DIRS = ['harness/conformance', 'harness/external'];
const VECTOR_REPLAY = 'harness/conformance/vectors.test.ts';

// every clause with its classes and the suite-defined profile holding it (spec-map/index.ts)
const CLAUSES = [...allClauses().values()];
const CLAIMED = [...implementedClasses()];

/** Which column a test belongs to. */
export type Column = 'conformance' | 'vectors' | 'property';

/** One mutant's row. */
export interface Row {
  readonly id: string;
  readonly class: string;
  readonly clauses: readonly string[];
  readonly files: number;
  readonly tests: number;
  /** Failing tests per column. */
  readonly kills: Readonly<Record<Column, number>>;
  /** Failing tests that name one of the mutant's clauses. */
  readonly on_target: number;
  /** Tests that crashed, timed out or errored (never counted as kills). */
  readonly faults: number;
  readonly killed: boolean;
  readonly wall_s: number;
  readonly extra_claims: readonly string[];
  readonly reach: Reach;
  readonly error?: string;
  readonly sample?: readonly string[];
}

function suiteFiles(): string[] {
  return SUITE_DIRS.flatMap((d) =>
    readdirSync(join(ROOT, d))
      .filter((f) => f.endsWith('.test.ts'))
      .map((f) => `${d}/${f}`),
  ).sort();
}

/** How widely a mutant's run reaches: the files naming its own clauses, those naming any clause of its class, all. */
type Reach = 'clauses' | 'class' | 'all';

/** Every clause id some vector of the published packs names (vectors/conformance/v1/*.json). */
const PACK_CLAUSES: ReadonlySet<string> = (() => {
  const dir = join(ROOT, 'vectors', 'conformance', 'v1');
  if (!existsSync(dir)) return new Set<string>();
  const ids = readdirSync(dir)
    .filter((f) => f.endsWith('.json'))
    .flatMap((f) => [...readFileSync(join(dir, f), 'utf8').matchAll(/"((?:jcp|jouleclaw|sense)\/[^"]+#[^"]+)"/g)].map((x) => x[1]!));
  return new Set(ids);
})();

/**
 * Whether the vector replay is run for `m`: when a pack names one of its clauses or a clause of its class. Reading
 * taken: the "vector packs alone" column asks whether the packs written for a rule catch its mutant; replaying every
 * pack against a mutant of a class no pack speaks to (energy ladders, wire, durable records) would cost each such
 * mutant a full replay for a column that can only say "-".
 */
function packsReach(m: Mutant): boolean {
  const ids = [...m.clauses, ...CLAUSES.filter((c) => c.classes.includes(m.class)).map((c) => c.id)];
  return ids.some((id) => PACK_CLAUSES.has(id));
}

/**
 * The classes whose tests a mutant's run at `reach` runs, as certify --classes selects them (JCP_CLASSES: a test of no
 * selected class is skipped and not recorded), or undefined for every test of its files. At the first reach, the files
 * naming the mutant's own clauses run only the tests that can see its rule: those of its class and of its clauses'
 * classes. A mutant that survives them is run again at reach "class" over every test of every file naming a clause of
 * its class (a superset of the first reach's files), so the selection can only send the matrix further, never lose a
 * kill the first reach's files would have made unselected. The control runs every test.
 */
function classesSeen(m: Mutant, reach: Reach): string[] | undefined {
  if (reach !== 'clauses' || m === CONTROL) return undefined;
  return [...new Set([m.class, ...m.clauses.flatMap((id) => CLAUSES.find((c) => c.id === id)?.classes ?? [])])].sort();
}

/** The test files a mutant runs at `reach`, with the vector replay where a pack speaks to its class. */
function filesFor(m: Mutant, all: readonly string[], reach: Reach): string[] {
  if (reach === 'all') return [...all];
  // the control replaces only the decision path: it runs every file that asks for a decision
  if (m === CONTROL) return all.filter((f) => f === VECTOR_REPLAY || /\.decide\(/.test(readFileSync(join(ROOT, f), 'utf8')));
  const ids = new Set([...m.clauses, ...(reach === 'class' ? CLAUSES.filter((c) => c.classes.includes(m.class)).map((c) => c.id) : [])]);
  return all.filter((f) => {
    if (f === VECTOR_REPLAY) return packsReach(m);
    const src = readFileSync(join(ROOT, f), 'utf8');
    return [...ids].some((id) => src.includes(`'${id}'`));
  });
}

function columnOf(t: TestLine): Column {
  if (t.file.endsWith(VECTOR_REPLAY) && t.id.includes('conformance/v1 ')) return 'vectors';
  if (t.title.startsWith('property') || t.id.includes('|properties > ')) return 'property';
  return 'conformance';
}

const NOT_A_KILL = new Set(['passed', 'not claimed', 'unimplemented', 'skipped', 'expected failure']);
const FAULTS = new Set(['crash', 'timeout', 'errored']);

/** The classes a mutant's run adds to the claims (pending classes the reference does not claim yet). */
function extraClaims(m: Mutant): string[] {
  return [...new Set([m.class, ...m.clauses.flatMap((id) => CLAUSES.find((c) => c.id === id)?.classes ?? [])])].filter(
    (c) => PENDING_CLASSES.includes(c) && !CLAIMED.includes(c),
  );
}

/** A mutant's row, read from the record of its run. */
function rowOf(m: Mutant, files: readonly string[], reach: Reach, record: string, wall_s: number | undefined, tail: string): Row {
  const { tests, end } = readTestRecord(record);
  const kills: Record<Column, number> = { conformance: 0, vectors: 0, property: 0 };
  let on_target = 0;
  let faults = 0;
  const sample: string[] = [];
  for (const t of tests) {
    if (NOT_A_KILL.has(t.outcome)) continue;
    if (FAULTS.has(t.outcome)) {
      faults++;
      if (sample.length < 3) sample.push(`${t.outcome}: ${t.id}`);
      continue;
    }
    kills[columnOf(t)]++;
    if (t.clauses.some((c) => m.clauses.includes(c))) on_target++;
    if (sample.length < 3) sample.push(`${t.outcome}: ${t.id}`);
  }
  const complete = runCompleted(tests, end);
  const total = kills.conformance + kills.vectors + kills.property;
  // in a batch the mutant's own wall time is not separable: the sum of its tests' durations stands for it
  const spent = wall_s ?? Math.round(tests.reduce((a, t) => a + (t.duration_ms ?? 0), 0) / 100) / 10;
  return {
    id: m.id,
    class: m.class,
    clauses: m.clauses,
    files: files.length,
    tests: tests.length,
    kills,
    on_target,
    faults,
    killed: complete && total > 0,
    wall_s: spent,
    extra_claims: extraClaims(m),
    reach,
    ...(complete ? {} : { error: `the run did not complete: ${JSON.stringify(end)} ${tail.slice(-600)}` }),
    ...(sample.length ? { sample } : {}),
  };
}

/** Runs vitest with `args` and `env`, answering the tail of its output. */
function vitest(args: readonly string[], env: NodeJS.ProcessEnv, progress?: (line: string) => void): Promise<string> {
  return new Promise((done) => {
    const child = spawn(process.execPath, [join(ROOT, 'node_modules', 'vitest', 'vitest.mjs'), ...args], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let tail = '';
    let partial = '';
    const keep = (b: Buffer) => (tail = (tail + b.toString()).slice(-3000));
    child.stdout.on('data', (b: Buffer) => {
      keep(b);
      if (!progress) return;
      const lines = (partial + b.toString()).split('\n');
      partial = lines.pop()!;
      for (const l of lines) {
        const at = l.indexOf(PROGRESS);
        if (at >= 0) progress(l.slice(at + PROGRESS.length));
      }
    });
    child.stderr.on('data', keep);
    child.on('close', () => done(tail));
  });
}

/** --testee: runs `files` against the mutant served as a testee process (one per test worker) and reads the record. */
async function runOne(m: Mutant, files: readonly string[], tmp: string, reach: Reach): Promise<Row> {
  const record = join(tmp, `${m.id}-${reach}.jsonl`);
  const extra = extraClaims(m);
  const env: NodeJS.ProcessEnv = { ...process.env, JCP_RECORD: record, JCP_TESTEE: variantTestee(m.id) };
  if (extra.length) env['JCP_EXTRA_CLAIMS'] = extra.join(',');
  const seen = classesSeen(m, reach);
  if (seen) env['JCP_CLASSES'] = seen.join(',');
  else delete env['JCP_CLASSES'];
  const started = Date.now();
  const tail = await vitest(['run', ...files, '--reporter=dot', `--reporter=${join(ROOT, 'harness', 'report', 'record-reporter.ts')}`], env);
  return rowOf(m, files, reach, record, Math.round((Date.now() - started) / 100) / 10, tail);
}

/** A wrapper's line setting environment variable `name` to `value`, or removing it when `value` is undefined. */
const envLine = (name: string, value: string | undefined): string =>
  value === undefined ? `delete process.env[${JSON.stringify(name)}];` : `process.env[${JSON.stringify(name)}] = ${JSON.stringify(value)};`;

/** The outer run's own durable kill count, if it set one: a process-only mutant's wrappers otherwise use 10. */
const OUTER_DURABLE_KILLS = process.env['JCP_DURABLE_KILLS'];

/**
 * The wrapper test file that runs `files` against mutant `m` in process (see mutation/vitest.matrix.config.ts): the
 * test files are imported one after the other, so their tests register under this one wrapper. A worker runs many
 * wrappers in one module graph (no isolation between files), so each wrapper sets every variable a mutant reads,
 * starts the suite's driver on a fresh client, and imports each test file as its own instance (a query naming the
 * mutant): the file registers its tests again, while what it imports (impl/, the fixtures, the oracle) is loaded once
 * per worker. The vector replay keeps a wrapper of its own, so its tests stay apart for the "vector packs alone"
 * column.
 */
function wrapper(m: Mutant, files: readonly string[], reach: Reach): string {
  const extra = extraClaims(m);
  const seen = classesSeen(m, reach);
  const lines = [
    `// kill matrix wrapper: ${files.join(', ')} against mutant ${m.id} (written by mutation/matrix.ts)`,
    envLine('JCP_MUTANT', m.id),
    envLine('JCP_CLASSES', seen?.join(',')),
    envLine('JCP_EXTRA_CLAIMS', extra.length ? extra.join(',') : undefined),
    // a process-only rule breaker: the tests that start testee processes start this one (10 kills of the crash test
    // show a 10 ms write-behind gap many times over: a 0 ms one was caught in 17 records of 40 kills)
    envLine('JCP_MUTANT_TESTEE', PROCESS_MUTANTS[m.id] ? variantTestee(m.id) : undefined),
    envLine('JCP_DURABLE_KILLS', OUTER_DURABLE_KILLS ?? (PROCESS_MUTANTS[m.id] ? '10' : undefined)),
    MUTANT_PATCHES[m.id] && !SUITE_SCOPED.has(m.id)
      ? `(globalThis as Record<symbol, unknown>)[Symbol.for('jcp.mutation.patched-reference')] = await import(${JSON.stringify(`${join(ROOT, 'harness', 'adapter', 'reference.ts')}?jcp-mutant=${m.id}`)});`
      : '',
    `await (await import(${JSON.stringify(join(ROOT, 'harness', 'driver.ts'))})).resetImplementation();`,
  ];
  for (const file of files) {
    const target = file === VECTOR_REPLAY ? join(ROOT, 'mutation', 'vector-replay.ts') : join(ROOT, file);
    // a suite-scoped patch: the test file itself is loaded as the patched copy (its endpoint is the module patched)
    lines.push(`await import(${JSON.stringify(`${target}?${SUITE_SCOPED.has(m.id) ? 'jcp-mutant' : 'jcp-wrapper'}=${m.id}`)});`);
  }
  lines.push('');
  return lines.join('\n');
}

/** The wrapper files of mutant `m` over `files`: one for the vector replay (if chosen), one for all the others. */
function wrappersOf(m: Mutant, files: readonly string[]): Array<{ path: string; files: string[] }> {
  const out: Array<{ path: string; files: string[] }> = [];
  if (files.includes(VECTOR_REPLAY)) out.push({ path: VECTOR_REPLAY, files: [VECTOR_REPLAY] });
  const rest = files.filter((f) => f !== VECTOR_REPLAY);
  if (rest.length) out.push({ path: join('merged', `${rest.length}-files.test.ts`), files: rest });
  return out;
}

/**
 * The default: `mutants` served in process, a batch of them per vitest run (mutation/vitest.matrix.config.ts): one
 * wrapper test file per mutant (and one for its vector replay), `workers` forks shared by the whole batch, one
 * transform for all.
 */
async function runBatch(mutants: readonly Mutant[], all: readonly string[], reach: Reach, tmp: string, workers: number, batch: number): Promise<Row[]> {
  const rows: Row[] = [];
  for (let i = 0; i < mutants.length; i += batch) {
    const part = mutants.slice(i, i + batch);
    const dir = mkdtempSync(join(tmp, `batch-${reach}-`));
    const files = part.map((m) => filesFor(m, all, reach));
    part.forEach((m, k) => {
      for (const w of wrappersOf(m, files[k]!)) {
        mkdirSync(dirname(join(dir, m.id, w.path)), { recursive: true });
        writeFileSync(join(dir, m.id, w.path), wrapper(m, w.files, reach));
      }
    });
    writeFileSync(join(dir, 'plan.json'), JSON.stringify({ workers, dir }));
    const records = join(dir, 'records');
    mkdirSync(records);
    const env: NodeJS.ProcessEnv = { ...process.env, JCP_MATRIX_PLAN: join(dir, 'plan.json'), JCP_MATRIX_RECORDS: records };
    delete env['JCP_TESTEE'];
    delete env['JCP_ENDPOINT'];
    delete env['JCP_RECORD'];
    const total = part.reduce((n, m, k) => n + wrappersOf(m, files[k]!).length, 0);
    let done = 0;
    const t0 = Date.now();
    const tail = await vitest(['run', '--config', join(ROOT, 'mutation', 'vitest.matrix.config.ts'), '--reporter=dot', `--reporter=${join(ROOT, 'mutation', 'matrix-reporter.ts')}`], env, (l) =>
      console.log(`  [${++done}/${total}, ${Math.round((Date.now() - t0) / 1000)}s] ${l}`),
    );
    part.forEach((m, k) => rows.push(rowOf(m, files[k]!, reach, join(records, `${m.id}.jsonl`), undefined, tail)));
  }
  return rows;
}

async function pool<T, R>(items: readonly T[], n: number, f: (t: T) => Promise<R>, each: (r: R) => void): Promise<R[]> {
  const out: R[] = new Array(items.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(n, items.length) }, async () => {
      while (next < items.length) {
        const i = next++;
        out[i] = await f(items[i]!);
        each(out[i]!);
      }
    }),
  );
  return out;
}

const pad = (s: string, n: number) => (s.length >= n ? s : s + ' '.repeat(n - s.length));
const cell = (n: number, has: boolean) => (has ? (n > 0 ? `killed(${n})` : '-') : 'n/a');

function line(r: Row, hasVectors: boolean): string {
  const verdict = r.id === CONTROL.id ? (r.killed || r.error ? 'CONTROL KILLED' : 'survives (as it must)') : r.error ? 'ERROR' : r.killed ? 'KILLED' : 'SURVIVED';
  return `${pad(r.id, 38)} ${pad(r.class, 16)} ${pad(cell(r.kills.conformance, true), 13)} ${pad(cell(r.kills.vectors, hasVectors), 13)} ${pad(cell(r.kills.property, true), 13)} ${pad(`${r.on_target}`, 9)} ${pad(`${r.wall_s}s`, 8)} ${pad(`${r.files}/${r.reach}`, 11)} ${verdict}${r.faults ? ` (${r.faults} crash/timeout/errored, not counted)` : ''}${r.extra_claims.length ? ` [claims ${r.extra_claims.join(',')} added]` : ''}`;
}

async function main(): Promise<number> {
  const { only, allFiles } = ARGS;
  const unknown = only?.filter((id) => id !== CONTROL.id && !MUTANTS.some((m) => m.id === id)) ?? [];
  if (unknown.length) refuse(`--only names no mutant of the catalog: ${unknown.join(', ')}`);
  const first: Reach = allFiles ? 'all' : 'clauses';
  const n = ARGS.pool ?? Math.max(1, Math.min(availableParallelism(), 4));
  const testee = ARGS.testee;
  const batch = ARGS.batch ?? 1000;
  const all = suiteFiles();
  const hasVectors = all.includes(VECTOR_REPLAY) && existsSync(join(ROOT, 'vectors', 'conformance', 'v1'));
  const mutants = [CONTROL, ...MUTANTS].filter((m) => !only || only.includes(m.id));
  const tmp = mkdtempSync(join(tmpdir(), 'jcp-kill-matrix-'));
  const started = Date.now();
  if (testee || mutants.some((m) => PROCESS_MUTANTS[m.id])) await buildBundle('variant');
  console.log(`kill matrix: ${mutants.length} runs (${MUTANTS.length} mutants + the control), pool ${n}${hasVectors ? '' : '; vector packs: n/a (no replay test found)'}`);
  console.log(`${pad('mutant', 38)} ${pad('class', 16)} ${pad('conformance', 13)} ${pad('vectors', 13)} ${pad('property', 13)} ${pad('on-target', 9)} ${pad('wall', 8)} ${pad('files', 11)} verdict`);
  let rows: Row[];
  try {
    const each = (r: Row) => console.log(line(r, hasVectors));
    const run = async (ms: readonly Mutant[], reach: Reach): Promise<Row[]> =>
      testee ? pool(ms, n, (m) => runOne(m, filesFor(m, all, reach), tmp, reach), each) : (await runBatch(ms, all, reach, tmp, n, batch)).map((r) => (each(r), r));
    rows = await run(mutants, first);
    // a mutant that survives the files naming its own clauses is run again over every file of its class
    const again = mutants.filter((m, i) => m !== CONTROL && !rows[i]!.killed && first === 'clauses');
    if (again.length) {
      console.log(`escalating ${again.length} survivor(s) to every test file of their class`);
      const more = await run(again, 'class');
      rows = rows.map((r) => more.find((x) => x.id === r.id) ?? r);
    }
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
  let wall_s = Math.round((Date.now() - started) / 1000);
  // --merge (with --only): the rows re-run replace theirs in the last full report, which is rewritten
  const jsonPath = join(ROOT, 'reports', 'mutation', 'kill-matrix.json');
  const merge = only !== undefined && ARGS.merge && existsSync(jsonPath);
  let reruns: Array<{ ids: readonly string[]; wall_s: number }> = [];
  if (merge) {
    const old = JSON.parse(readFileSync(jsonPath, 'utf8')) as { rows: Row[]; control: Row | null; wall_s: number; reruns?: typeof reruns };
    const current = new Set([CONTROL.id, ...MUTANTS.map((m) => m.id)]);
    const prev = [...(old.control ? [old.control] : []), ...old.rows].filter((r) => current.has(r.id)); // rows of mutants since dropped go
    rows = [...prev.map((r) => rows.find((x) => x.id === r.id) ?? r), ...rows.filter((x) => !prev.some((q) => q.id === x.id))];
    reruns = [...(old.reruns ?? []), { ids: only, wall_s }];
    wall_s = old.wall_s;
    console.log(`merged into ${relative(ROOT, jsonPath)} (full run wall ${wall_s}s; this re-run ${reruns[reruns.length - 1]!.wall_s}s)`);
  }
  const real = rows.filter((r) => r.id !== CONTROL.id);
  const control = rows.find((r) => r.id === CONTROL.id);
  const classes = [...new Set(real.map((r) => r.class))];
  const perClass = classes.map((c) => {
    const rs = real.filter((r) => r.class === c);
    return { class: c, mutants: rs.length, killed: rs.filter((r) => r.killed).length, by_vectors: rs.filter((r) => r.kills.vectors > 0).length };
  });
  const killed = real.filter((r) => r.killed).length;
  const pct = real.length ? Math.round((1000 * killed) / real.length) / 10 : 0;
  console.log('');
  for (const c of perClass) console.log(`${pad(c.class, 17)} ${c.killed}/${c.mutants} killed (${Math.round((100 * c.killed) / c.mutants)}%)${hasVectors ? `, ${c.by_vectors} by the vector packs alone` : ''}`);
  const survivors = real.filter((r) => !r.killed).map((r) => r.id);
  const byVectors = real.filter((r) => r.kills.vectors > 0).map((r) => r.id);
  console.log(`overall: ${killed}/${real.length} clause mutants killed (${pct}%); wall ${wall_s}s`);
  if (hasVectors) console.log(`killed by the vector packs alone: ${byVectors.length}/${real.length}${byVectors.length ? ` (${byVectors.join(', ')})` : ''}`);
  else console.log('vector packs: n/a (harness/conformance/vectors.test.ts or vectors/conformance/v1 not present)');
  if (survivors.length) console.log(`SURVIVED: ${survivors.join(', ')}`);
  for (const a of AWAITING_TESTS) console.log(`awaiting a test (not in the figure; run with --awaiting): ${a.id} [${a.clauses.join(' ')}]: ${a.missing}`);
  // claimed classes the catalog does not cover yet: said, never hidden (they are not part of the percentage)
  const uncovered = CLAIMED.filter((c) => !COVERED_CLASSES.includes(c) && !MUTANTS.some((m) => m.class === c));
  const partial = PENDING_CLASSES.filter((c) => MUTANTS.some((m) => m.class === c));
  if (uncovered.length) console.log(`claimed classes with no clause mutants yet (not in the figure): ${uncovered.join(', ')}`);
  if (partial.length) console.log(`classes covered in part only (see UNBROKEN in mutation/catalog.ts): ${partial.join(', ')}`);
  const controlOk = !control || (!control.killed && !control.error);
  if (!controlOk) console.log(`CONTROL KILLED: the decision copy differs from the reference: ${(control?.sample ?? []).join('; ')} ${control?.error ?? ''}`);

  const report = { generated_by: 'mutation/matrix.ts', wall_s, pool: n, mode: testee ? 'testee processes' : 'in process, batched', load_average: loadavg().map((x) => Math.round(x * 100) / 100), all_files: allFiles, vectors_column: hasVectors, overall: { mutants: real.length, killed, percent: pct }, reruns, per_class: perClass, uncovered_claimed_classes: uncovered, partially_covered_classes: partial, survivors, killed_by_vectors: byVectors, control: control ?? null, rows: real };
  const out = join(ROOT, 'reports', 'mutation');
  mkdirSync(out, { recursive: true });
  if (!only || merge) {
    writeFileSync(join(out, 'kill-matrix.json'), JSON.stringify(report, null, 2) + '\n');
    const md = [
      '# Clause-mutant kill matrix',
      '',
      `${killed}/${real.length} clause mutants killed (${pct}%), wall ${wall_s}s, pool ${n}${reruns.length ? ` (then re-run: ${reruns.map((r) => `${r.ids.join(', ')} in ${r.wall_s}s`).join('; ')})` : ''}. Generated by \`npm run mutation:matrix\` (mutation/matrix.ts); catalog: mutation/catalog.ts.`,
      '',
      '| mutant | class | clauses | conformance | vector packs | property | on-target | verdict |',
      '|---|---|---|---|---|---|---|---|',
      ...real.map((r) => `| ${r.id} | ${r.class} | ${r.clauses.join(' ')} | ${r.kills.conformance} | ${hasVectors ? r.kills.vectors : 'n/a'} | ${r.kills.property} | ${r.on_target} | ${r.error ? 'error' : r.killed ? 'killed' : 'SURVIVED'} |`),
      '',
      '| class | killed |',
      '|---|---|',
      ...perClass.map((c) => `| ${c.class} | ${c.killed}/${c.mutants}${hasVectors ? ` (${c.by_vectors} by vector packs alone)` : ''} |`),
      '',
      `Control (decision copy, no fault): ${controlOk ? 'survived, as it must' : 'KILLED'}.`,
      '',
      uncovered.length ? `Claimed classes with no clause mutants yet (not in the figure): ${uncovered.join(', ')}.` : 'Every claimed class has clause mutants.',
      partial.length ? `Covered in part only (see UNBROKEN in mutation/catalog.ts): ${partial.join(', ')}.` : '',
      '',
    ].join('\n');
    writeFileSync(join(out, 'kill-matrix.md'), md);
    console.log(`wrote ${relative(ROOT, join(out, 'kill-matrix.json'))} and kill-matrix.md`);
  }
  return survivors.length === 0 && controlOk ? 0 : 1;
}

main().then(exitWhenWritten, (e: unknown) => {
  console.error(e);
  exitWhenWritten(2);
});
