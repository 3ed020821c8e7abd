// Reads Stryker's JSON report (reports/mutation/mutation.json, mutation-testing-report-schema) and prints every
// surviving or uncovered mutant with the clause comment above the mutated line (STYLE.md: "the clause sits on the line
// above the check that enforces it"), so a survivor reads as "this sentence of the spec is not tested".
//   tsx scripts/mutation-survivors.ts [report.json]
import { existsSync, readFileSync } from 'node:fs';

interface Mutant {
  readonly mutatorName: string;
  readonly replacement?: string;
  readonly status: string;
  readonly location: { readonly start: { readonly line: number; readonly column: number } };
}
interface Report {
  readonly files: Readonly<Record<string, { readonly source: string; readonly mutants: readonly Mutant[] }>>;
}

/** The nearest comment above `line` (1-based) that quotes or cites a clause, or the nearest comment at all. */
export function clauseCommentAbove(source: string, line: number): string | undefined {
  const lines = source.split('\n');
  let plain: string | undefined;
  for (let i = line - 2; i >= 0 && i >= line - 40; i--) {
    const t = lines[i]!.trim();
    const c = t.startsWith('//') ? t.slice(2).trim() : t.startsWith('*') ? t.slice(1).trim() : undefined;
    if (c === undefined || c === '') continue;
    if (/§|jcp\/|jouleclaw\/|sense\/|RFC \d+/.test(c)) return c;
    plain ??= c;
  }
  return plain;
}

const path = process.argv[2] ?? 'reports/mutation/mutation.json';
if (!existsSync(path)) {
  console.error(`no Stryker report at ${path}: run npm run test:mutation first`);
  process.exit(2);
}
const report = JSON.parse(readFileSync(path, 'utf8')) as Report;
let survivors = 0;
let total = 0;
for (const [file, { source, mutants }] of Object.entries(report.files)) {
  for (const m of mutants) {
    total++;
    if (m.status !== 'Survived' && m.status !== 'NoCoverage') continue;
    survivors++;
    const at = `${file}:${m.location.start.line}:${m.location.start.column}`;
    const clause = clauseCommentAbove(source, m.location.start.line) ?? '(no comment above)';
    console.log(`${m.status.padEnd(10)} ${at}  ${m.mutatorName}${m.replacement ? ` → ${m.replacement.replace(/\s+/g, ' ').slice(0, 60)}` : ''}\n           ${clause}`);
  }
}
console.log(`${survivors} of ${total} mutants survived or were not covered`);
