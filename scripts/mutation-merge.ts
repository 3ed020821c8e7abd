// Joins Stryker incremental reports of runs over different parts of impl/ (the mutation workflow's matrix jobs, each
// `npm run test:mutation -- <glob>` from the same commit and baseline) into one: each part's files come from the run
// that mutated them, every other file from the baseline. A report numbers its tests from 0 (`testFiles`), and its
// mutants name the tests that cover and kill them by those numbers, so every test is numbered again in the joined
// report and each mutant's `coveredBy` and `killedBy` rewritten to match.
//   tsx scripts/mutation-merge.ts --base <incremental.json> --out <joined.json> <glob>=<part.json> ...
// Refused, exit 2 with one line: a file two parts' globs both claim, a part with no file of its glob (its run did not
// happen or mutated something else), a report of another schema version, a mutant naming a test its report lacks.
import { readFileSync, writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { pathToFileURL } from 'node:url';
import { matchesGlob } from './stryker-config.ts';

interface Test {
  readonly id: string;
  readonly name: string;
  readonly [k: string]: unknown;
}
interface Mutant {
  readonly coveredBy?: readonly string[];
  readonly killedBy?: readonly string[];
  readonly [k: string]: unknown;
}
export interface IncrementalReport {
  readonly schemaVersion: string;
  readonly files: Readonly<Record<string, { readonly mutants: readonly Mutant[]; readonly [k: string]: unknown }>>;
  readonly testFiles?: Readonly<Record<string, { readonly tests: readonly Test[]; readonly [k: string]: unknown }>>;
  readonly [k: string]: unknown;
}

/** A refusal of the inputs, said in one line. */
export class MergeError extends Error {}

/** The joined report: `parts` (a glob and the report of the run over it) over `base`. */
export function mergeReports(base: IncrementalReport, parts: ReadonlyArray<{ glob: string; report: IncrementalReport; name: string }>): IncrementalReport {
  for (const p of parts) {
    if (p.report.schemaVersion !== base.schemaVersion) throw new MergeError(`${p.name} is of schema version ${p.report.schemaVersion}, the base of ${base.schemaVersion}`);
  }
  // which report each file comes from
  const source = new Map<string, { report: IncrementalReport; name: string }>();
  for (const f of Object.keys(base.files)) source.set(f, { report: base, name: 'the base' });
  const claimedBy = new Map<string, string>();
  for (const p of parts) {
    const own = Object.keys(p.report.files).filter((f) => matchesGlob(f, p.glob));
    if (own.length === 0) throw new MergeError(`${p.name} holds no file of its glob ${p.glob}: was it run over that glob?`);
    for (const f of own) {
      const other = claimedBy.get(f);
      if (other !== undefined) throw new MergeError(`${f} is claimed by two parts (${other} and ${p.name}): their globs must not overlap`);
      claimedBy.set(f, p.name);
      source.set(f, { report: p.report, name: p.name });
    }
  }

  // every test once, numbered again; a report's own numbers are mapped through (test file, name)
  const testFiles: Record<string, { tests: Test[]; [k: string]: unknown }> = {};
  const renumbered = new Map<IncrementalReport, Map<string, string>>();
  let next = 0;
  const numbering = (report: IncrementalReport): Map<string, string> => {
    let m = renumbered.get(report);
    if (m) return m;
    m = new Map();
    for (const [file, tf] of Object.entries(report.testFiles ?? {})) {
      const joined = (testFiles[file] ??= { ...tf, tests: [] });
      for (const t of tf.tests) {
        let same = joined.tests.find((x) => x.name === t.name);
        if (!same) {
          same = { ...t, id: String(next++) };
          joined.tests.push(same);
        }
        m.set(t.id, same.id);
      }
    }
    renumbered.set(report, m);
    return m;
  };
  const files: Record<string, IncrementalReport['files'][string]> = {};
  for (const [f, { report, name }] of [...source].sort(([a], [b]) => a.localeCompare(b))) {
    const ids = numbering(report);
    const mapIds = (list: readonly string[], what: string): string[] =>
      list.map((id) => {
        const to = ids.get(id);
        if (to === undefined) throw new MergeError(`${name}: a mutant of ${f} is ${what} test ${id}, which its report does not list`);
        return to;
      });
    files[f] = {
      ...report.files[f]!,
      mutants: report.files[f]!.mutants.map((m) => ({
        ...m,
        ...(m.coveredBy ? { coveredBy: mapIds(m.coveredBy, 'covered by') } : {}),
        ...(m.killedBy ? { killedBy: mapIds(m.killedBy, 'killed by') } : {}),
      })),
    };
  }
  return { ...base, files, testFiles };
}

function main(): void {
  let a;
  try {
    a = parseArgs({ options: { base: { type: 'string' }, out: { type: 'string' } }, allowPositionals: true, strict: true });
  } catch (e) {
    usage((e as Error).message);
  }
  if (!a.values.base || !a.values.out || a.positionals.length === 0) usage('--base, --out and at least one <glob>=<part.json> are needed');
  const read = (path: string): IncrementalReport => {
    try {
      return JSON.parse(readFileSync(path, 'utf8')) as IncrementalReport;
    } catch (e) {
      usage(`cannot read ${path}: ${(e as Error).message.split('\n')[0]}`);
    }
  };
  const parts = a.positionals.map((p) => {
    const at = p.lastIndexOf('=');
    if (at <= 0) usage(`${JSON.stringify(p)} is not <glob>=<part.json>`);
    return { glob: p.slice(0, at), report: read(p.slice(at + 1)), name: p.slice(at + 1) };
  });
  try {
    const joined = mergeReports(read(a.values.base), parts);
    writeFileSync(a.values.out, JSON.stringify(joined));
    console.log(`joined ${parts.length} part(s) over ${a.values.base}: ${Object.keys(joined.files).length} files, written to ${a.values.out}`);
  } catch (e) {
    if (e instanceof MergeError) usage(e.message);
    throw e;
  }
}

function usage(msg: string): never {
  process.stderr.write(`mutation-merge: ${msg}\nusage: tsx scripts/mutation-merge.ts --base <incremental.json> --out <joined.json> <glob>=<part.json> ...\n`);
  process.exit(2);
}

if (process.argv[1] && pathToFileURL(process.argv[1]).href === import.meta.url) main();
