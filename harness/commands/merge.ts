// `jcp-conformance merge <report-dir>…`: joins the report folders of `certify --shard 1/n … n/n` into one record, one
// set of reports and one certificate, through the same conclusion an unsharded run takes (./conclude.ts). The shards
// must be the n shards of one run: the same suite, protocol, testee (its handshake and command), seed, differential
// sequences, classes, clause index, vector packs and expectation file, each shard exactly once.
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { ExpectationFileError, readExpectations, type ExpectationFile } from '../report/expectations.ts';
import type { EndLine, TestLine } from '../report/record-reporter.ts';
import type { Footer, Header } from '../report/record.ts';
import { certifyingKey, certSeedHex, makeFolder, removeStaleReports, RUNNER_LOG } from './certify.ts';
import { digestFile, RECORD_FILE } from './files.ts';
import { checkFolderPath, CliError, unreadable } from './errors.ts';
import { str, type Parsed } from './options.ts';

/** One shard's record, read back. */
export interface ShardRecord {
  readonly dir: string;
  readonly header: Header & { readonly shard: { readonly index: number; readonly count: number } };
  readonly tests: readonly TestLine[];
  readonly footer: Footer;
}

/**
 * A judged record line back to the line the reporter wrote: judge (harness/report/expectations.ts) adds `expected`
 * and `unexpected`, and turns a failure the expectation file expects into `expected failure`; merge judges the joined
 * tests afresh, as certify judges its runner's lines.
 */
export function unjudged(l: TestLine & { readonly expected?: string; readonly unexpected?: unknown }): TestLine {
  const { expected, unexpected: _u, ...line } = l;
  return expected !== undefined && line.outcome === 'expected failure' ? { ...line, outcome: expected } : line;
}

/** Reads `<dir>/record.jsonl` as a shard's record; refuses one that is missing, unreadable or no shard's. */
export function readShard(dir: string): ShardRecord {
  const path = join(dir, RECORD_FILE);
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (e) {
    throw unreadable(path, e);
  }
  let lines: Array<{ type?: unknown }>;
  try {
    lines = text
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as { type?: unknown });
  } catch (e) {
    throw new CliError('bad-file', `${path}: not a certify record (a line is not JSON: ${e instanceof Error ? e.message : String(e)})`);
  }
  const header = lines[0] as Header | undefined;
  const footer = lines.at(-1) as Footer | undefined;
  if (header?.type !== 'header' || footer?.type !== 'footer') throw new CliError('bad-file', `${path}: not a certify record (no header line first and footer line last)`);
  const shard = header.shard;
  if (!shard || !Number.isSafeInteger(shard.index) || !Number.isSafeInteger(shard.count) || shard.index < 1 || shard.index > shard.count) {
    throw new CliError('not-a-shard', `${dir}: its record is no shard's (certify --shard k/n writes one): ${header.shards !== undefined ? 'it is a merged record' : 'an unsharded run is whole already'}`);
  }
  const failed = lines.find((l) => l.type === 'handshake' || l.type === 'runner') as { type: string; error?: string } | undefined;
  if (failed) throw new CliError('not-a-shard', `${dir}: shard ${shard.index}/${shard.count} ran no test (${failed.type === 'handshake' ? 'the testee failed the handshake' : 'the test runner failed'}): run it again`);
  const tests = lines.filter((l): l is TestLine => l.type === 'test').map(unjudged);
  return { dir, header: header as ShardRecord['header'], tests, footer };
}

/** What every shard of one run has in common, each with the words merge refuses a difference in. */
const SAME: ReadonlyArray<readonly [string, (h: Header) => unknown]> = [
  ['suite', (h) => h.suite],
  ['protocol', (h) => h.protocol],
  ['testee (its handshake, driver and command)', (h) => h.testee],
  ['seed', (h) => h.seed],
  ['differential sequences per property', (h) => h.property_runs],
  ['classes', (h) => h.classes_requested],
  ['expectation file', (h) => h.digests['expectations'] ?? '(none)'],
  ['clause index and external vectors', (h) => Object.fromEntries(Object.entries(h.digests).filter(([k]) => k !== 'expectations'))],
  ['vector packs', (h) => h.vector_packs],
  ['shard count', (h) => h.shard?.count],
];

/** A value as the refusal shows it, on one line and short. */
function shown(v: unknown): string {
  const s = typeof v === 'string' ? v : JSON.stringify(v) ?? String(v);
  return s.length > 120 ? `${s.slice(0, 119)}…` : s;
}

/**
 * Checks that `shards` are the n shards of one run, each once; throws CliError (exit 2) naming the folders and what
 * differs. Returns them in shard order.
 */
export function checkShards(shards: readonly ShardRecord[]): ShardRecord[] {
  const first = shards[0]!;
  for (const s of shards.slice(1)) {
    for (const [what, of] of SAME) {
      if (!isDeepStrictEqual(of(first.header), of(s.header))) {
        throw new CliError('shard-mismatch', `${s.dir} is a shard of another run than ${first.dir}: its ${what} differs (${shown(of(s.header))}, not ${shown(of(first.header))})`);
      }
    }
  }
  const n = first.header.shard.count;
  const byIndex = new Map<number, ShardRecord>();
  for (const s of shards) {
    const other = byIndex.get(s.header.shard.index);
    if (other) throw new CliError('shard-duplicate', `shard ${s.header.shard.index}/${n} given twice: ${other.dir} and ${s.dir}`);
    byIndex.set(s.header.shard.index, s);
  }
  const missing = Array.from({ length: n }, (_, i) => i + 1).filter((k) => !byIndex.has(k));
  if (missing.length) throw new CliError('shard-missing', `shard(s) ${missing.map((k) => `${k}/${n}`).join(', ')} missing: merge needs all ${n} shards' report folders`);
  return [...byIndex.keys()].sort((x, y) => x - y).map((k) => byIndex.get(k)!);
}

/** The expectation file the shards ran with, given again to merge: the same bytes, or a refusal. */
function expectationsFor(expPath: string | undefined, header: Header): ExpectationFile | undefined {
  const ran = header.digests['expectations'];
  if (expPath === undefined) {
    if (ran !== undefined) throw new CliError('missing-argument', `the shards ran with an expectation file (blake3 ${ran}): give it to merge with --expectations <file>`);
    return undefined;
  }
  if (!existsSync(expPath)) throw new CliError('unreadable-file', `expectation file ${expPath}: no such file`);
  const digest = digestFile(expPath);
  if (ran === undefined) throw new CliError('shard-mismatch', `--expectations ${expPath}: the shards ran with no expectation file`);
  if (digest !== ran) throw new CliError('shard-mismatch', `--expectations ${expPath} is not the file the shards ran with (blake3 ${digest}, not ${ran})`);
  try {
    return readExpectations(expPath);
  } catch (e) {
    if (e instanceof ExpectationFileError) throw new CliError(e.code === 'unreadable' ? 'unreadable-file' : 'bad-file', e.message);
    throw e;
  }
}

/**
 * The shards' runner ends joined into the one the whole run would have: interrupted if any shard was, the errors
 * outside tests summed, the files that failed to load together; undefined when a shard's runner never reached its end.
 */
function joinedEnd(shards: readonly ShardRecord[]): Omit<EndLine, 'type'> | undefined {
  const ends = shards.map((s) => s.footer.runner);
  if (ends.some((e) => e === undefined)) return undefined;
  const all = ends as NonNullable<Footer['runner']>[];
  return {
    reason: all.find((e) => e.reason === 'interrupted')?.reason ?? all[0]!.reason,
    unhandled: all.reduce((n, e) => n + e.unhandled, 0),
    broken_files: all.flatMap((e) => e.broken_files),
  };
}

/** `merge <report-dir>… [--report <dir>] [--expectations <file>] [--now <s>]`: the exit code of the merged run. */
export async function mergeCommand(a: Parsed): Promise<number> {
  const dirs = a.positionals.map((d) => resolve(d));
  const reportDir = resolve(str(a, 'report') ?? join('reports', 'certify'));
  checkFolderPath(reportDir, 'the report folder');
  // the merged reports replace what certify writes: into a shard's folder they would remove that shard's record
  if (dirs.includes(reportDir)) throw new CliError('conflicting-options', `--report ${reportDir} is one of the shards' folders: name another for the merged run`);
  for (const d of dirs) {
    if (!existsSync(d) || !statSync(d).isDirectory()) throw new CliError('bad-report-path', `${d}: no such folder (give the report folders of certify --shard)`);
  }
  const shards = checkShards(dirs.map(readShard));
  const first = shards[0]!.header;
  const expectations = expectationsFor(str(a, 'expectations'), first);
  certSeedHex();
  const { shard: _s, ...common } = first;
  const header: Header = {
    ...common,
    shards: shards.length,
    started_at: shards.map((s) => s.header.started_at).sort()[0]!,
  };
  makeFolder(reportDir, 'the report folder');
  const stale = removeStaleReports(reportDir);
  if (stale.length) console.log(`removed what an earlier run wrote into ${reportDir}: ${stale.join(', ')}`);
  // the differential properties' case files of every shard, beside the merged record as beside an unsharded one
  const casesDir = join(reportDir, 'cases');
  for (const s of shards) {
    const from = join(s.dir, 'cases');
    if (!existsSync(from) || !statSync(from).isDirectory()) continue;
    for (const f of readdirSync(from).filter((x) => x.endsWith('.json'))) {
      mkdirSync(casesDir, { recursive: true });
      copyFileSync(join(from, f), join(casesDir, f));
    }
  }
  const certKey = await certifyingKey();
  const { concludeRun } = await import('./conclude.ts');
  console.log(`jcp-conformance merge: ${shards.length} shards of ${first.testee.name} ${first.testee.version}, ${first.testee.driver}, seed ${first.seed}${first.classes_requested === 'all' ? '' : `; classes ${first.classes_requested.join(' ')}`}`);
  return concludeRun({
    reportDir,
    header,
    tests: shards.flatMap((s) => s.tests),
    end: joinedEnd(shards),
    expectations,
    casesDir,
    issued_s: str(a, 'now') !== undefined ? Number(str(a, 'now')) : Math.floor(Date.now() / 1000),
    certKey,
    runnerLog: shards.map((s) => join(s.dir, RUNNER_LOG)).join(', '),
  });
}
