// certify --shard k/n and merge: the reference certified once whole and once as three shards on the same seed, the
// shards merged; the merge gives the same per-test results (ids and outcomes) and class verdicts as the whole run, and
// one certificate that verifies. The expectation file's whole-run checks happen at the merge. Then what merge refuses (a shard missing or given twice, a shard of another seed or
// testee, an expectation file the shards did not run with, a record that is no shard's) and the --shard values
// certify refuses, each one line with exit 2 before anything runs.
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifyCertificate } from '../report/certificate.ts';
import { cliPath } from './cli.ts';
import { judge } from '../report/expectations.ts';
import type { TestLine } from '../report/record-reporter.ts';
import { unjudged } from '../commands/merge.ts';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const TMP = mkdtempSync(join(tmpdir(), 'jcp-shard-'));
afterAll(() => rmSync(TMP, { recursive: true, force: true }));

/**
 * One class of twelve test files and 137 tests, with 5 runs of each differential property, so that the seven certify runs
 * stay short; a seed of the test's own, the same in every run.
 */
const RUN = ['--classes', 'C3', '--property-runs', '5', '--seed', '20261202'] as const;
const N = 3;

interface Ran {
  readonly status: number;
  readonly stdout: string;
  readonly stderr: string;
  /** Wall time of the run, for the report's figures only: no assertion reads it. */
  readonly ms: number;
}

function cli(...args: string[]): Ran {
  // the guard only keeps a hung run from hanging the suite
  const started = Date.now();
  const r = spawnSync(process.execPath, [cliPath(), ...args], {
    cwd: ROOT,
    encoding: 'utf8',
    timeout: 400_000,
    env: { ...process.env, JCP_RECORD: '', JCP_TESTEE: '', JCP_CLASSES: '', JCP_TRANSCRIPT: '', JCP_CERT_SEED_HEX: '' },
  });
  if (r.error) throw r.error;
  return { status: r.status ?? -1, stdout: r.stdout, stderr: r.stderr, ms: Date.now() - started };
}

/** A refusal: exit 2, nothing on stdout, one line on stderr in the CLI's own voice, no stack trace. */
function expectOneLine(r: Ran): string {
  expect(r.status, r.stdout + r.stderr).toBe(2);
  expect(r.stdout).toBe('');
  const lines = r.stderr.split('\n').filter(Boolean);
  expect(lines, r.stderr).toHaveLength(1);
  expect(lines[0]).toMatch(/^jcp-conformance: /);
  return lines[0]!;
}

type Line = { type: string; [k: string]: unknown };
const record = (dir: string): Line[] =>
  readFileSync(join(dir, 'record.jsonl'), 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as Line);
/** Each test's id and outcome, sorted by id. */
const results = (dir: string): Array<[string, string]> =>
  record(dir)
    .filter((l) => l.type === 'test')
    .map((l) => [l['id'] as string, l['outcome'] as string] as [string, string])
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
const certificateOf = (dir: string) => verifyCertificate(new Uint8Array(readFileSync(join(dir, 'certificate.cose'))));

const whole = join(TMP, 'whole');
const shardDir = (k: number) => join(TMP, `shard-${k}`);
const merged = join(TMP, 'merged');
const runs: { whole?: Ran; shards: Ran[]; merge?: Ran } = { shards: [] };

beforeAll(() => {
  runs.whole = cli('certify', ...RUN, '--report', whole);
  for (let k = 1; k <= N; k++) runs.shards.push(cli('certify', ...RUN, '--shard', `${k}/${N}`, '--report', shardDir(k)));
  runs.merge = cli('merge', ...Array.from({ length: N }, (_, i) => shardDir(i + 1)), '--report', merged);
  const shardMs = runs.shards.reduce((n, r) => n + r.ms, 0);
  console.log(`unsharded ${runs.whole.ms} ms; shards ${runs.shards.map((r) => r.ms).join(' + ')} = ${shardMs} ms (${(shardMs / runs.whole.ms).toFixed(2)}× the unsharded run); merge ${runs.merge.ms} ms`);
}, 1_500_000);

describe('certify --shard 1/3 … 3/3, then merge', () => {
  it('each shard runs its own tests to the end, exit 0, and says it gives no verdict and no certificate', () => {
    expect(runs.whole!.status, runs.whole!.stdout.slice(-2000)).toBe(0);
    for (const [i, r] of runs.shards.entries()) {
      expect(r.status, r.stdout.slice(-2000)).toBe(0);
      expect(r.stdout).toContain(`shard ${i + 1}/${N}: no class verdicts and no certificate from one shard: merge the shards`);
      expect(existsSync(join(shardDir(i + 1), 'certificate.cose'))).toBe(false);
      expect(existsSync(join(shardDir(i + 1), 'report.html'))).toBe(false);
      const lines = record(shardDir(i + 1));
      expect(lines[0]!['shard']).toEqual({ index: i + 1, count: N });
      expect(lines.at(-1)!['runner']).toMatchObject({ unhandled: 0, broken_files: [] });
      expect(readFileSync(join(shardDir(i + 1), 'junit.xml'), 'utf8')).not.toContain('name="verdict"');
    }
  });

  it('the shards hold every test of the whole run once, and the merge the same ids and outcomes as the whole run', () => {
    const all = results(whole);
    expect(all.length).toBeGreaterThan(100);
    const fromShards = Array.from({ length: N }, (_, i) => results(shardDir(i + 1))).flat().sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    expect(fromShards).toEqual(all);
    expect(runs.merge!.status, runs.merge!.stdout.slice(-2000)).toBe(0);
    expect(results(merged)).toEqual(all);
  });

  it('the merged certificate verifies, with the class verdicts, counts and seed of the whole run', () => {
    const a = certificateOf(whole);
    const b = certificateOf(merged);
    expect(b.verdicts).toEqual(a.verdicts);
    expect(Object.keys(b.verdicts)).toEqual(['jcp:C3']);
    expect(b.counts).toEqual(a.counts);
    expect(b.unexpected).toBe(0);
    expect(b.seed).toBe(20261202);
    expect(b.complete).toBe('yes');
    const v = cli('verify-certificate', join(merged, 'certificate.cose'));
    expect(v.status, v.stdout + v.stderr).toBe(0);
    const h = record(merged)[0]!;
    expect(h['shards']).toBe(N);
    expect(h['shard']).toBeUndefined();
    // the merged folder has the whole run's reports, derived by the same code
    for (const f of ['junit.xml', 'summary.md', 'report.html', 'badge.svg']) expect(existsSync(join(merged, f)), f).toBe(true);
    expect(readFileSync(join(merged, 'summary.md'), 'utf8')).toMatch(/\| jcp:C3 \| PASS \|/);
  });
});

describe("the expectation file's whole-run checks are the merge's", () => {
  it('an entry matching a test of one shard is matched, one matching no test is reported once, by the merge', () => {
    // entries naming a test of shard 1 and one of shard 3 (expected to pass, so neither changes an outcome), and one
    // naming no test: no shard reports any of them, the merge reports only the last
    const exp = join(TMP, 'shard-expectations.json');
    const one = results(shardDir(1))[0]![0];
    const three = results(shardDir(3))[0]![0];
    const nothing = 'jcp:C3|jcp/0#no-such-clause|no such test';
    writeFileSync(exp, JSON.stringify({ expectations: [one, three, nothing].map((test) => ({ test, outcome: 'passed', reason: 'a self-test entry' })) }));
    for (let k = 1; k <= N; k++) {
      const r = cli('certify', ...RUN, '--shard', `${k}/${N}`, '--expectations', exp, '--report', join(TMP, `exp-shard-${k}`));
      expect(r.status, r.stdout.slice(-2000)).toBe(0);
      expect(r.stdout).not.toContain('matches no test');
    }
    const dirs = Array.from({ length: N }, (_, i) => join(TMP, `exp-shard-${i + 1}`));
    // the shards ran with an expectation file: merge needs that very file
    expect(expectOneLine(cli('merge', ...dirs, '--report', join(TMP, 'exp-none')))).toContain('give it to merge with --expectations');
    const other = join(TMP, 'other-expectations.json');
    writeFileSync(other, JSON.stringify({ expectations: [] }));
    expect(expectOneLine(cli('merge', ...dirs, '--expectations', other, '--report', join(TMP, 'exp-other')))).toContain('is not the file the shards ran with');
    const m = cli('merge', ...dirs, '--expectations', exp, '--report', join(TMP, 'exp-merged'));
    expect(m.status, m.stdout.slice(-2000)).toBe(1);
    expect(m.stdout).toContain(`✗ expectation entry ${nothing} matches no test: remove it`);
    expect(m.stdout.match(/matches no test/g)).toHaveLength(1);
    const footer = record(join(TMP, 'exp-merged')).at(-1)!;
    expect(footer['expectation_problems']).toEqual({ unmatched: [nothing], tooBroad: [] });
    expect(footer['unexpected']).toBe(1);
    expect(certificateOf(join(TMP, 'exp-merged')).unexpected).toBe(1);
  }, 600_000);
});

describe('what merge refuses, in one line with exit 2', () => {
  it('a set with a shard missing', () => {
    expect(expectOneLine(cli('merge', shardDir(1), shardDir(3), '--report', join(TMP, 'm-missing')))).toContain('shard(s) 2/3 missing');
    expect(existsSync(join(TMP, 'm-missing'))).toBe(false);
  });

  it('a shard given twice', () => {
    expect(expectOneLine(cli('merge', shardDir(1), shardDir(2), shardDir(2), shardDir(3), '--report', join(TMP, 'm-twice')))).toContain('shard 2/3 given twice');
  });

  it('a shard of another seed, and one of another testee', () => {
    // shard 2's record with another seed (or testee) in its header: what a shard of another run's would say there
    for (const [name, change, what] of [
      ['other-seed', (h: Line) => ({ ...h, seed: 7 }), 'its seed differs (7, not 20261202)'],
      ['other-testee', (h: Line) => ({ ...h, testee: { ...(h['testee'] as object), version: '9.9.9' } }), 'its testee (its handshake, driver and command) differs'],
    ] as const) {
      const dir = join(TMP, name);
      cpSync(shardDir(2), dir, { recursive: true });
      const [h, ...rest] = record(dir);
      writeFileSync(join(dir, 'record.jsonl'), [change(h!), ...rest].map((l) => JSON.stringify(l)).join('\n') + '\n');
      expect(expectOneLine(cli('merge', shardDir(1), dir, shardDir(3), '--report', join(TMP, `m-${name}`)))).toContain(what);
    }
  });

  it('an expectation file the shards did not run with', () => {
    const exp = join(TMP, 'expectations.json');
    writeFileSync(exp, JSON.stringify({ expectations: [] }));
    expect(expectOneLine(cli('merge', shardDir(1), shardDir(2), shardDir(3), '--expectations', exp, '--report', join(TMP, 'm-exp')))).toContain('the shards ran with no expectation file');
  });

  it("a record that is no shard's, a folder without a record, and the merged report into a shard's folder", () => {
    expect(expectOneLine(cli('merge', whole, '--report', join(TMP, 'm-whole')))).toContain("its record is no shard's");
    expect(expectOneLine(cli('merge', merged, '--report', join(TMP, 'm-merged')))).toContain('it is a merged record');
    expect(expectOneLine(cli('merge', TMP, '--report', join(TMP, 'm-none')))).toContain('record.jsonl: no such file');
    expect(expectOneLine(cli('merge', shardDir(1), shardDir(2), shardDir(3), '--report', shardDir(1)))).toContain("is one of the shards' folders");
    expect(expectOneLine(cli('merge', '--report', join(TMP, 'm-empty')))).toContain('merge needs <report-dir>');
  });
});

describe('what certify refuses of --shard, in one line with exit 2 before anything runs', () => {
  it.each(['0/3', '4/3', 'x', '1/0', '1/', '-1/3'])('--shard %s', (v) => {
    const report = join(TMP, `bad-${v.replace(/\W/g, '_')}`);
    expect(expectOneLine(cli('certify', '--shard', v, '--report', report))).toMatch(/--shard/);
    expect(existsSync(report)).toBe(false);
  });

  it('more shards than test files, and --shard with --update-expectations or --transcript', () => {
    expect(expectOneLine(cli('certify', '--shard', '1/1000'))).toContain('a shard is a set of whole files');
    expect(expectOneLine(cli('certify', '--shard', '1/3', '--update-expectations'))).toContain('--shard and --update-expectations');
    expect(expectOneLine(cli('certify', '--shard', '1/3', '--transcript', join(TMP, 'tr')))).toContain('--shard and --transcript');
  });
});

describe('a judged record line back to the reporter\'s', () => {
  it('judging it again gives the same judgement', () => {
    const line = (id: string, outcome: string): TestLine => ({ type: 'test', id, file: 'f', title: id, clauses: ['jcp/4.1#x'], classes: ['jcp:C1'], level: 'MUST', grade: 'spec', outcome });
    const lines = [line('a', 'passed'), line('b', 'failed'), line('c', 'failed'), line('d', 'passed'), line('e', 'timeout')];
    const file = { expectations: [{ test: 'b', reason: 'known' }, { test: 'd', reason: 'was failing' }, { test: 'e', outcome: 'crash', reason: 'known' }] };
    const { judged } = judge(lines, file);
    expect(judged.map((j) => unjudged(j))).toEqual(lines);
    expect(judge(judged.map((j) => unjudged(j)), file).judged).toEqual(judged);
  });
});
