// Survivors that were not measured. Stryker's vitest runner (9.6 with vitest 4.1) can score a mutant Survived when its
// run completed fewer of the tests that cover it than there are, none at all in most cases (stryker-js issues 6213 and
// 5928): the mutant was never tried against the tests that would kill it. On this repository's incremental file, one
// such survivor of impl/jcp/enforcement-point.ts was killed at once by a covering test when the mutant was applied by
// hand. A survivor is "unmeasured" here when it is not static (a static mutant runs the whole suite, not its covering
// tests) and its run completed fewer tests than `coveredBy` names.
//   tsx scripts/mutation-unmeasured.ts [incremental.json]   lists them; exit 0
import { readFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';

interface Mutant {
  readonly status: string;
  readonly static?: boolean;
  readonly testsCompleted?: number;
  readonly coveredBy?: readonly string[];
  readonly mutatorName?: string;
  readonly replacement?: string;
  readonly location?: { readonly start: { readonly line: number; readonly column: number } };
  readonly [k: string]: unknown;
}
export interface Report {
  readonly files: Readonly<Record<string, { readonly mutants: readonly Mutant[]; readonly [k: string]: unknown }>>;
  readonly [k: string]: unknown;
}

/** Whether a mutant is a survivor whose run did not complete the tests that cover it. */
export const isUnmeasured = (m: Mutant): boolean => m.status === 'Survived' && m.static !== true && (m.testsCompleted ?? 0) < (m.coveredBy?.length ?? 0);

/** The unmeasured survivors of `report`, of the files `only` accepts (every file where it is absent), as `file:line:col mutator`. */
export function unmeasured(report: Report, only: (file: string) => boolean = () => true): string[] {
  const out: string[] = [];
  for (const [file, { mutants }] of Object.entries(report.files)) {
    if (!only(file)) continue;
    for (const m of mutants) {
      if (!isUnmeasured(m)) continue;
      const at = m.location ? `${m.location.start.line}:${m.location.start.column}` : '?';
      out.push(`${file}:${at} ${m.mutatorName ?? '?'} (${m.testsCompleted ?? 0} of ${m.coveredBy?.length ?? 0} covering tests run)`);
    }
  }
  return out;
}

/** `report` without its unmeasured survivors of the files `only` accepts, so that Stryker's next incremental run tests them again. */
export function withoutUnmeasured(report: Report, only: (file: string) => boolean = () => true): Report {
  const files = Object.fromEntries(Object.entries(report.files).map(([f, v]) => [f, only(f) ? { ...v, mutants: v.mutants.filter((m) => !isUnmeasured(m)) } : v]));
  return { ...report, files };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const file = process.argv[2] ?? 'reports/mutation/stryker-incremental.json';
  const list = unmeasured(JSON.parse(readFileSync(file, 'utf8')) as Report);
  console.log(`${list.length} survivor(s) of ${file} ran fewer tests than cover them${list.length ? ':' : ''}`);
  for (const l of list) console.log(`  ${l}`);
}
