// npm run certify — certifies the reference implementation: runs the clause-indexed conformance tests and prints,
// class by class, what holds. (Until the harness's drivers land, the testee is always the in-process reference.)
// Writes reports/certify.json (per-class and per-clause results) and reports/vitest.json (the raw test results).
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { clausesOf } from '../harness/clause.ts';
import { allClauses } from '../spec-map/index.ts';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const REPORTS = join(ROOT, 'reports');
mkdirSync(REPORTS, { recursive: true });
const rawPath = join(REPORTS, 'vitest.json');

console.log('jcp-conformance certify: running the conformance tests against the in-process reference implementation…');
const run = spawnSync(
  process.execPath,
  [join(ROOT, 'node_modules', 'vitest', 'vitest.mjs'), 'run', '--reporter=dot', '--reporter=json', `--outputFile.json=${rawPath}`],
  { cwd: ROOT, stdio: 'inherit', env: process.env },
);
if (run.error) {
  console.error(`certify: could not start vitest: ${run.error.message}`);
  process.exit(2);
}

interface Assertion {
  fullName: string;
  title: string;
  status: 'passed' | 'failed' | 'pending' | 'skipped' | 'todo' | 'disabled';
  failureMessages?: string[];
}
interface Raw {
  testResults: Array<{ name: string; assertionResults: Assertion[] }>;
}

let raw: Raw;
try {
  raw = JSON.parse(readFileSync(rawPath, 'utf8')) as Raw;
} catch (e) {
  console.error(`certify: vitest wrote no readable results to ${rawPath} (${String(e)})`);
  process.exit(2);
}

type Tally = { passed: number; failed: number; skipped: number; clauses: Set<string>; failedTests: string[] };
const byClass = new Map<string, Tally>();
const byClause = new Map<string, { passed: number; failed: number; skipped: number }>();
const clauses = allClauses();
let untagged = 0;
const unknown = new Set<string>();

for (const file of raw.testResults) {
  for (const a of file.assertionResults) {
    const ids = clausesOf(a.title);
    if (ids.length === 0) {
      untagged++;
      continue;
    }
    const outcome = a.status === 'passed' ? 'passed' : a.status === 'failed' ? 'failed' : 'skipped';
    const classes = new Set<string>();
    for (const id of ids) {
      const c = clauses.get(id);
      if (!c) {
        unknown.add(id);
        continue;
      }
      const t = byClause.get(id) ?? { passed: 0, failed: 0, skipped: 0 };
      t[outcome]++;
      byClause.set(id, t);
      for (const k of c.classes) classes.add(k);
    }
    for (const k of classes) {
      const t = byClass.get(k) ?? { passed: 0, failed: 0, skipped: 0, clauses: new Set(), failedTests: [] };
      t[outcome]++;
      for (const id of ids) if (clauses.get(id)?.classes.includes(k)) t.clauses.add(id);
      if (outcome === 'failed') t.failedTests.push(a.fullName);
      byClass.set(k, t);
    }
  }
}

// Every JCP class the spec defines appears in the table, tested or not, so nothing is silently absent.
const JCP_CLASSES = [...Array.from({ length: 26 }, (_, i) => `jcp:C${i + 1}`), 'jcp:C-neg'];
const order = [...new Set([...JCP_CLASSES, ...[...byClass.keys()].sort()])];
const rows = order.map((k) => {
  const t = byClass.get(k);
  const mapped = [...clauses.values()].filter((c) => c.classes.includes(k)).length;
  const verdict = !t ? 'NOT TESTED' : t.failed > 0 ? 'FAIL' : t.skipped > 0 && t.passed === 0 ? 'SKIPPED' : 'PASS';
  return { class: k, verdict, passed: t?.passed ?? 0, failed: t?.failed ?? 0, skipped: t?.skipped ?? 0, clauses: t?.clauses.size ?? 0, mapped, failedTests: t?.failedTests ?? [] };
});

const pad = (s: string | number, n: number) => String(s).padEnd(n);
console.log('\nclass        verdict      tests passed  failed  skipped  clauses checked / in spec map');
for (const r of rows) {
  console.log(`${pad(r.class, 12)} ${pad(r.verdict, 12)} ${pad(r.passed, 13)} ${pad(r.failed, 7)} ${pad(r.skipped, 8)} ${r.clauses} / ${r.mapped}`);
}
const failedRows = rows.filter((r) => r.verdict === 'FAIL');
for (const r of failedRows) for (const t of r.failedTests) console.log(`  ✗ ${r.class}: ${t}`);
const tested = rows.filter((r) => r.verdict !== 'NOT TESTED').length;
console.log(`\n${tested} of ${rows.length} classes tested; ${failedRows.length} failing; ${untagged} tests name no clause (unit tests, not counted)`);
if (unknown.size) console.log(`unknown clause ids named by tests: ${[...unknown].join(', ')}`);

writeFileSync(
  join(REPORTS, 'certify.json'),
  JSON.stringify(
    {
      testee: 'reference (in-process)',
      classes: rows.map(({ failedTests, ...r }) => ({ ...r, failedTests })),
      clauses: Object.fromEntries([...byClause.entries()].sort()),
    },
    null,
    2,
  ) + '\n',
);
console.log(`report: ${join('reports', 'certify.json')}`);
process.exit(run.status === 0 && failedRows.length === 0 && unknown.size === 0 ? 0 : 1);
