// npx tsx scripts/refusal-table.ts — the refusals table of harness/PROTOCOL.md ("Refusals per operation"): runs the
// conformance tests and the third-party vectors against the in-process reference with JCP_REFUSAL_LOG set
// (harness/driver.ts logs every refusal's code and every deny's reason, with the clause ids of the test that provoked
// it), and writes between the table's markers, per operation, each answer, when (the clauses of the tests that provoke
// it) and where the spec names it (harness/protocol/refusal-table.ts renders it, sorted and deduplicated). The spec names
// no ERR_ code (refused is the spec's word, which code is the suite's byte contract); deny reasons it names (jcp §7 …).
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { readLog, renderTable, rowsOf, TABLE_BEGIN, TABLE_END, tableIn } from '../harness/protocol/refusal-table.ts';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const DOC = join(ROOT, 'harness', 'PROTOCOL.md');

const dir = mkdtempSync(join(tmpdir(), 'jcp-refusals-'));
const log = join(dir, 'refusals.tsv');
writeFileSync(log, '');
const vitest = join(dirname(createRequire(import.meta.url).resolve('vitest/package.json')), 'vitest.mjs');
const env: NodeJS.ProcessEnv = { ...process.env, JCP_REFUSAL_LOG: log };
// the reference, every class, the fixed fast-check seeds: the same run, so the same table
for (const k of ['JCP_TESTEE', 'JCP_ENDPOINT', 'JCP_CLASSES', 'FC_SEED']) delete env[k];
const r = spawnSync(process.execPath, [vitest, 'run', 'harness/conformance', 'harness/external', '--reporter=dot'], { cwd: ROOT, env, stdio: ['ignore', 'ignore', 'inherit'] });
if (r.status !== 0) {
  process.stderr.write(`refusal-table: the conformance run failed (exit ${r.status}); the table was not written\n`);
  process.exit(1);
}
const rows = rowsOf(readLog(readFileSync(log, 'utf8')));
rmSync(dir, { recursive: true, force: true });
const doc = readFileSync(DOC, 'utf8');
const old = tableIn(doc);
if (old === undefined) {
  process.stderr.write(`refusal-table: ${DOC} has no ${TABLE_BEGIN} … ${TABLE_END} markers\n`);
  process.exit(1);
}
const table = renderTable(rows);
writeFileSync(DOC, doc.replace(old, () => table));
const ops = new Set(rows.map((row) => row.op)).size;
console.log(`refusal-table: ${rows.length} answers of ${ops} operations written into harness/PROTOCOL.md${table === old ? ' (unchanged)' : ''}`);
