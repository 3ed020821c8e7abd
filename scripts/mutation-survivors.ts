// Reads Stryker's JSON report (reports/mutation/mutation.json, mutation-testing-report-schema) and prints every
// surviving or uncovered mutant with the clause comment above the mutated line (STYLE.md: "the clause sits on the line
// above the check that enforces it"), so a survivor reads as "this sentence of the spec is not tested".
import { appendFileSync, existsSync, readFileSync } from 'node:fs';
import { count, emptyTally, score } from './stryker-config.ts';

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

// tsx scripts/mutation-survivors.ts [report.json] [--only <file,...>] [--break <score>]
//   --only: score and list only these files (a pull request's changed files); --break: exit 1 below this score.
// With $GITHUB_STEP_SUMMARY set, the score and each survivor (file, line, mutator, replacement) go there as Markdown.
const args = process.argv.slice(2);
const flag = (name: string): string | undefined => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : undefined;
};
const path = args.find((a, i) => !a.startsWith('--') && !args[i - 1]?.startsWith('--')) ?? 'reports/mutation/mutation.json';
const only = flag('--only')?.split(',').filter(Boolean);
const breakAt = flag('--break') === undefined ? undefined : Number(flag('--break'));
if (!existsSync(path)) {
  console.error(`no Stryker report at ${path}: run npm run test:mutation first`);
  process.exit(2);
}
const report = JSON.parse(readFileSync(path, 'utf8')) as Report;
let survivors = 0;
const tally = emptyTally();
const rows: string[] = [];
for (const [file, { source, mutants }] of Object.entries(report.files)) {
  if (only && !only.includes(file)) continue;
  for (const m of mutants) {
    count(tally, [m.status]);
    if (m.status !== 'Survived' && m.status !== 'NoCoverage') continue;
    survivors++;
    const at = `${file}:${m.location.start.line}:${m.location.start.column}`;
    const clause = clauseCommentAbove(source, m.location.start.line) ?? '(no comment above)';
    const replacement = m.replacement ? m.replacement.replace(/\s+/g, ' ').slice(0, 60) : '';
    console.log(`${m.status.padEnd(10)} ${at}  ${m.mutatorName}${replacement ? ` → ${replacement}` : ''}\n           ${clause}`);
    const cell = (t: string) => t.replace(/\|/g, '\\|').replace(/`/g, "'");
    rows.push(`| ${cell(file)} | ${m.location.start.line} | ${m.mutatorName} | \`${cell(replacement)}\` | ${m.status} | ${cell(clause)} |`);
  }
}
const percent = score(tally);
const scope = only ? `${only.length} file(s)` : 'the report';
console.log(`${survivors} of ${tally.total} mutants survived or were not covered; mutation score ${percent.toFixed(2)}% over ${scope}`);
const summary = process.env['GITHUB_STEP_SUMMARY'];
if (summary) {
  const lines = [
    `### Mutation score ${percent.toFixed(2)}% (${tally.detected} of ${tally.valid} mutants detected) over ${scope}${breakAt === undefined ? '' : `, break ${breakAt}%`}`,
    '',
    survivors === 0 ? 'No mutant survived.' : '| file | line | mutator | replacement | status | clause above |\n| --- | --- | --- | --- | --- | --- |',
    ...rows,
    '',
  ];
  appendFileSync(summary, `${lines.join('\n')}\n`);
}
if (breakAt !== undefined && percent < breakAt) {
  console.error(`mutation score ${percent.toFixed(2)}% is below break (${breakAt}%)`);
  process.exit(1);
}
