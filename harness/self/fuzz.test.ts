// Self-tests of the fuzzer (harness/fuzz/, `npm run fuzz`): its short form over every target finds no untyped throw,
// hang or break, counts every input, and replays the regression inputs; its runner sees each kind of finding when
// one is planted (harness/fuzz/planted.ts) and prints a replay command that reproduces it; the same seed gives the
// same counts.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { regressions } from '../fuzz/lines.ts';
import type { TargetResult } from '../fuzz/run.ts';
import { TARGETS } from '../fuzz/targets.ts';
import { suiteEntry } from './cli.ts';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const TMP = mkdtempSync(join(tmpdir(), 'jcp-fuzz-'));
afterAll(() => rmSync(TMP, { recursive: true, force: true }));

function fuzz(out: string, args: string[], env: Record<string, string> = {}) {
  // the guard only keeps a broken runner from hanging the suite; no assertion reads the time
  const r = spawnSync(process.execPath, [...suiteEntry('harness/fuzz/cli.ts'), '--out', out, ...args], {
    cwd: ROOT,
    encoding: 'utf8',
    timeout: 600_000,
    env: { ...process.env, ...env },
  });
  const report = (() => {
    try {
      return JSON.parse(readFileSync(join(out, 'fuzz.json'), 'utf8')) as { results: TargetResult[] };
    } catch {
      return undefined;
    }
  })();
  return { status: r.status, stdout: r.stdout, stderr: r.stderr, results: report?.results ?? [] };
}

const refusedTotal = (r: TargetResult) => Object.values(r.refused).reduce((a, b) => a + b, 0);

describe('npm run fuzz, the short form', () => {
  it('runs 50,000 inputs through every target with no untyped throw, hang or break', { timeout: 600_000 }, () => {
    const r = fuzz(join(TMP, 'short'), ['--inputs', '50000']);
    expect(r.status, r.stdout + r.stderr).toBe(0);
    expect(r.results.map((x) => x.target)).toEqual(Object.keys(TARGETS));
    for (const x of r.results) {
      const reg = regressions(x.target).length;
      expect(x.inputs, x.target).toBe(50_000 + reg);
      expect(x.regressions, x.target).toBe(reg);
      // every input is accounted for: accepted or refused with a code (nothing fell between)
      expect(x.accepted + refusedTotal(x), x.target).toBe(x.inputs);
      expect([x.untyped, x.hangs, x.breaks], x.target).toEqual([0, 0, 0]);
      // the corpus reaches past the first refusal: some inputs are accepted, and refusals come under several codes
      expect(x.accepted, x.target).toBeGreaterThan(0);
      expect(Object.keys(x.refused).length, x.target).toBeGreaterThan(1);
      expect(r.stdout).toMatch(new RegExp(`✓ ${x.target}: 50,0\\d\\d inputs.*; 0 untyped throws, 0 hangs, 0 breaks`));
    }
    expect(regressions('certificate').length).toBeGreaterThan(0);
  });
});

describe('the fuzz runner', () => {
  it('reports planted untyped throws, hangs and breaks, fails the run, and prints a replay that reproduces a finding', { timeout: 300_000 }, () => {
    const env = { JCP_FUZZ_PLANTED: '1' };
    const r = fuzz(join(TMP, 'planted'), ['--inputs', '3000', '--target', 'planted-throw', '--target', 'planted-hang', '--target', 'planted-break', '--hang-ms', '1500'], env);
    expect(r.status, r.stdout + r.stderr).toBe(1);
    const by = Object.fromEntries(r.results.map((x) => [x.target, x]));
    expect(by['planted-throw']!.untyped).toBeGreaterThan(0);
    expect(by['planted-throw']!.untyped + refusedTotal(by['planted-throw']!)).toBe(3000);
    expect(by['planted-hang']!.hangs).toBeGreaterThan(0);
    // a hung block is left out of the count, the rest of the run goes on after it
    expect(by['planted-hang']!.inputs).toBe(3000 - 256 * by['planted-hang']!.hangs);
    expect(by['planted-break']!.breaks).toBeGreaterThan(0);
    expect(r.stdout).toMatch(/✗ planted-throw: .*[1-9]\d* untyped throws/);

    const first = by['planted-throw']!.findings[0]!;
    expect(first.kind).toBe('untyped');
    const replay = r.stdout.split('\n').find((l) => l.includes(`untyped at input ${first.index} `))!;
    const args = replay.slice(replay.indexOf('npm run fuzz -- ') + 'npm run fuzz -- '.length).split(' ');
    const again = fuzz(join(TMP, 'replay'), args, env);
    expect(again.status).toBe(1);
    expect(again.results[0]!.findings).toEqual([{ ...first }]);
  });

  it('gives the same counts for the same seed, and other counts for another', { timeout: 300_000 }, () => {
    const one = fuzz(join(TMP, 'a'), ['--inputs', '600', '--seed', '7', '--target', 'cbor', '--target', 'wire']);
    const two = fuzz(join(TMP, 'b'), ['--inputs', '600', '--seed', '7', '--target', 'cbor', '--target', 'wire']);
    const other = fuzz(join(TMP, 'c'), ['--inputs', '600', '--seed', '8', '--target', 'cbor', '--target', 'wire']);
    expect(one.status).toBe(0);
    expect(two.results).toEqual(one.results);
    expect(other.results).not.toEqual(one.results);
  });

  it('refuses an unknown option or target, and a count that is not a whole number, with exit 2', () => {
    for (const args of [['--bogus'], ['--target', 'nope'], ['--inputs', 'many'], ['--hang-ms', '5']]) {
      const r = fuzz(join(TMP, 'usage'), args);
      expect(r.status, args.join(' ')).toBe(2);
      expect(r.stderr.split('\n')[0], args.join(' ')).toMatch(/^fuzz: /);
    }
  });
});
