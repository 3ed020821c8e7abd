// Self-tests of scripts/mutation-merge.ts, which joins the incremental reports of Stryker runs over parts of impl/
// (the mutation workflow's matrix jobs): each part's files from its own run, the rest from the baseline, every test
// numbered again with each mutant's covering and killing tests following their test; overlapping parts, a part that
// ran none of its files and a mutant naming an unlisted test are refused. Tooling: no clause is decided here.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { MergeError, mergeReports, type IncrementalReport } from '../../scripts/mutation-merge.ts';
import { matchesGlob, mutated } from '../../scripts/stryker-config.ts';

const TMP = mkdtempSync(join(tmpdir(), 'jcp-mutation-merge-'));
afterAll(() => rmSync(TMP, { recursive: true, force: true }));

/** A report of one run: its tests numbered from 0 in the order given, its files' mutants naming them by name. */
function report(tests: Record<string, string[]>, files: Record<string, Array<{ status: string; covered: string[]; killed?: string[] }>>): IncrementalReport {
  const ids = new Map<string, string>();
  const testFiles = Object.fromEntries(
    Object.entries(tests).map(([file, names]) => [
      file,
      {
        source: '',
        tests: names.map((name) => {
          const id = String(ids.size);
          ids.set(name, id);
          return { id, name };
        }),
      },
    ]),
  );
  const id = (n: string) => ids.get(n) ?? `unlisted ${n}`;
  return {
    schemaVersion: '2',
    testFiles,
    files: Object.fromEntries(
      Object.entries(files).map(([f, ms]) => [
        f,
        { language: 'typescript', source: '', mutants: ms.map((m, i) => ({ id: String(i), status: m.status, coveredBy: m.covered.map(id), ...(m.killed ? { killedBy: m.killed.map(id) } : {}) })) },
      ]),
    ),
  };
}

/** Each mutant of the joined report as its status and the names of the tests it names. */
function readable(r: IncrementalReport): Record<string, string[]> {
  const names = new Map(Object.values(r.testFiles ?? {}).flatMap((tf) => tf.tests.map((t) => [t.id, t.name] as const)));
  return Object.fromEntries(
    Object.entries(r.files).map(([f, { mutants }]) => [f, mutants.map((m) => `${String(m['status'])} covered:${(m.coveredBy ?? []).map((i) => names.get(i)).join(',')} killed:${(m.killedBy ?? []).map((i) => names.get(i)).join(',')}`)]),
  );
}

const BASE = report({ 'impl/a/a.test.ts': ['a1', 'a2'] }, { 'impl/a/x.ts': [{ status: 'Survived', covered: ['a2'] }], 'impl/b/y.ts': [{ status: 'NoCoverage', covered: [] }] });
// a run over impl/b/**: its numbering puts b1 first, so its '0' is not the base's '0'
const PART_B = report({ 'impl/b/b.test.ts': ['b1'], 'impl/a/a.test.ts': ['a1', 'a2'] }, {
  'impl/a/x.ts': [{ status: 'Survived', covered: ['a2'] }],
  'impl/b/y.ts': [{ status: 'Killed', covered: ['b1', 'a1'], killed: ['b1'] }],
});
const PART_C = report({ 'impl/c/c.test.ts': ['c1', 'c2'] }, { 'impl/c/z.ts': [{ status: 'Killed', covered: ['c2'], killed: ['c2'] }] });

describe('joining the incremental reports of runs over parts of impl/', () => {
  it("takes each part's files from its run and the rest from the base, every mutant still naming its own tests", () => {
    const joined = mergeReports(BASE, [
      { glob: 'impl/b/**/*.ts', report: PART_B, name: 'b.json' },
      { glob: 'impl/c/**/*.ts', report: PART_C, name: 'c.json' },
    ]);
    expect(readable(joined)).toEqual({
      'impl/a/x.ts': ['Survived covered:a2 killed:'],
      'impl/b/y.ts': ['Killed covered:b1,a1 killed:b1'],
      'impl/c/z.ts': ['Killed covered:c2 killed:c2'],
    });
    // one entry per test, each with an id of its own
    const ids = Object.values(joined.testFiles ?? {}).flatMap((tf) => tf.tests.map((t) => t.id));
    expect(new Set(ids).size).toBe(ids.length);
    expect(Object.values(joined.testFiles ?? {}).flatMap((tf) => tf.tests.map((t) => t.name)).sort()).toEqual(['a1', 'a2', 'b1', 'c1', 'c2']);
  });

  it('refuses parts whose globs overlap, a part with no file of its glob, another schema, and an unlisted test', () => {
    const cases: Array<[() => unknown, RegExp]> = [
      [() => mergeReports(BASE, [{ glob: 'impl/**/*.ts', report: PART_B, name: 'all.json' }, { glob: 'impl/b/*.ts', report: PART_B, name: 'b.json' }]), /impl\/.*claimed by two parts \(all\.json and b\.json\)/],
      [() => mergeReports(BASE, [{ glob: 'impl/d/**/*.ts', report: PART_C, name: 'd.json' }]), /d\.json holds no file of its glob impl\/d\/\*\*\/\*\.ts/],
      [() => mergeReports(BASE, [{ glob: 'impl/c/**/*.ts', report: { ...PART_C, schemaVersion: '9' }, name: 'c.json' }]), /c\.json is of schema version 9/],
      [() => mergeReports(BASE, [{ glob: 'impl/c/**/*.ts', report: report({}, { 'impl/c/z.ts': [{ status: 'Killed', covered: ['gone'] }] }), name: 'c.json' }]), /c\.json: a mutant of impl\/c\/z\.ts is covered by test unlisted gone/],
    ];
    for (const [run, why] of cases) {
      expect(run).toThrow(MergeError);
      expect(run).toThrow(why);
    }
  });

  it("matches Stryker's mutate globs: ** any folders, * any part of a name", () => {
    expect(matchesGlob('impl/jouleclaw/semantic/sync.ts', 'impl/**/*.ts')).toBe(true);
    expect(matchesGlob('impl/bytes.ts', 'impl/**/*.ts')).toBe(true);
    expect(matchesGlob('impl/bytes.ts', 'impl/*/*.ts')).toBe(false);
    expect(matchesGlob('impl/durable/_fixtures.ts', 'impl/durable/_fixtures.ts')).toBe(true);
    expect(matchesGlob('impl/durableX_fixtures.ts', 'impl/durable/_fixtures.ts')).toBe(false);
  });

  it("the workflow's parts cover every file Stryker mutates, each file in exactly one part", () => {
    const workflow = parse(readFileSync('.github/workflows/mutation.yml', 'utf8')) as { jobs: { 'stryker-part': { strategy: { matrix: { part: Array<{ name: string; glob: string }> } } } } };
    const parts = workflow.jobs['stryker-part'].strategy.matrix.part;
    const files = readdirSync('impl', { recursive: true, encoding: 'utf8' }).map((f) => `impl/${f.split('\\').join('/')}`).filter(mutated);
    expect(files.length).toBeGreaterThan(50);
    const claims = files.map((f) => `${f}: ${parts.filter((p) => matchesGlob(f, p.glob)).map((p) => p.name).join(' ') || 'no part'}`);
    expect(claims.filter((c) => c.split(': ')[1]!.includes(' ') || c.endsWith('no part'))).toEqual([]);
    // a part whose glob names no file would fail the join (a part with no file of its glob is refused)
    expect(parts.filter((p) => !files.some((f) => matchesGlob(f, p.glob))).map((p) => p.name)).toEqual([]);
  });

  it('as a command: writes the joined report, and refuses a missing argument in one line with exit 2', () => {
    const write = (name: string, r: IncrementalReport) => {
      writeFileSync(join(TMP, name), JSON.stringify(r));
      return join(TMP, name);
    };
    const script = join(import.meta.dirname, '..', '..', 'scripts', 'mutation-merge.ts');
    const tsx = join(import.meta.dirname, '..', '..', 'node_modules', 'tsx', 'dist', 'cli.mjs');
    const out = join(TMP, 'joined.json');
    const ok = spawnSync(process.execPath, [tsx, script, '--base', write('base.json', BASE), '--out', out, `impl/c/**/*.ts=${write('c.json', PART_C)}`], { encoding: 'utf8' });
    expect(ok.status, ok.stderr).toBe(0);
    expect(Object.keys((JSON.parse(readFileSync(out, 'utf8')) as IncrementalReport).files).sort()).toEqual(['impl/a/x.ts', 'impl/b/y.ts', 'impl/c/z.ts']);
    const bad = spawnSync(process.execPath, [tsx, script, '--out', out, 'x=y'], { encoding: 'utf8' });
    expect(bad.status).toBe(2);
    expect(bad.stderr.split('\n')[0]).toMatch(/^mutation-merge: --base, --out and at least one/);
  });
});
