// npx tsx scripts/refusal-table.ts — the refusals table of harness/PROTOCOL.md ("Refusals per operation"): runs the
// conformance tests against the in-process reference with JCP_REFUSAL_LOG set (harness/drivers/in-process.ts logs the
// operation and code of every refusal), and writes, per operation, the codes the reference answered, between the
// table's markers. What the spec names: no ERR_ code (jcp names deny reasons, never codes), so every code is the suite's
// byte contract; an implementation must refuse where the spec says refuse, and claims the byte contract to promise these.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const DOC = join(ROOT, 'harness', 'PROTOCOL.md');
const BEGIN = '<!-- refusal-table:begin -->';
const END = '<!-- refusal-table:end -->';

const dir = mkdtempSync(join(tmpdir(), 'jcp-refusals-'));
const log = join(dir, 'refusals.tsv');
writeFileSync(log, '');
const vitest = join(dirname(createRequire(import.meta.url).resolve('vitest/package.json')), 'vitest.mjs');
const env: NodeJS.ProcessEnv = { ...process.env, JCP_REFUSAL_LOG: log };
for (const k of ['JCP_TESTEE', 'JCP_ENDPOINT', 'JCP_CLASSES']) delete env[k];
const r = spawnSync(process.execPath, [vitest, 'run', 'harness/conformance', 'harness/external', '--reporter=dot'], { cwd: ROOT, env, stdio: ['ignore', 'ignore', 'inherit'] });
if (r.status !== 0) {
  process.stderr.write(`refusal-table: the conformance run failed (exit ${r.status}); the table was not written\n`);
  process.exit(1);
}
const byOp = new Map<string, Map<string, number>>();
for (const line of readFileSync(log, 'utf8').split('\n').filter(Boolean)) {
  const [op, code] = line.split('\t') as [string, string];
  const m = byOp.get(op) ?? byOp.set(op, new Map()).get(op)!;
  m.set(code, (m.get(code) ?? 0) + 1);
}
rmSync(dir, { recursive: true, force: true });
const rows = [...byOp].sort(([a], [b]) => (a < b ? -1 : 1)).map(([op, codes]) => `| \`${op}\` | ${[...codes.keys()].sort().map((c) => `\`${c}\``).join(', ')} |`);
const table = [BEGIN, '', '| op | codes the reference answers it with, across the suite\'s tests |', '| --- | --- |', ...rows, '', END].join('\n');
const doc = readFileSync(DOC, 'utf8');
const i = doc.indexOf(BEGIN);
const j = doc.indexOf(END);
if (i < 0 || j < i) {
  process.stderr.write(`refusal-table: ${DOC} has no ${BEGIN} … ${END} markers\n`);
  process.exit(1);
}
writeFileSync(DOC, doc.slice(0, i) + table + doc.slice(j + END.length));
console.log(`refusal-table: ${rows.length} operations written into harness/PROTOCOL.md`);
