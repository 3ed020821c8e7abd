// npm run bench:testee — the cost of certifying through the testee protocol: the conformance suite run against the
// reference as a separate process, as a ratio to the same suite run in-process, measured in one run (rounds
// interleaved, median). Target: at most 2×.
import { spawnSync } from 'node:child_process';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const ROUNDS = Number(process.env['BENCH_ROUNDS'] ?? 2);
// the reference testee as it would ship: bundled JavaScript (npm run build:testee), no TypeScript compiled at start-up
const REFERENCE = process.env['JCP_BENCH_TESTEE'] ?? 'node dist/reference-testee.mjs';

function once(testee: string | undefined): number {
  const env: NodeJS.ProcessEnv = { ...process.env };
  delete env['JCP_TESTEE'];
  delete env['JCP_RECORD'];
  if (testee) env['JCP_TESTEE'] = testee;
  const t0 = process.hrtime.bigint();
  const r = spawnSync(process.execPath, [join(ROOT, 'node_modules', 'vitest', 'vitest.mjs'), 'run', 'harness/conformance', 'harness/external', '--reporter=dot'], { cwd: ROOT, env, encoding: 'utf8' });
  const s = Number(process.hrtime.bigint() - t0) / 1e9;
  if (r.status !== 0) throw new Error(`the ${testee ? 'testee' : 'in-process'} run failed:\n${r.stdout}\n${r.stderr}`);
  return s;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const ratios: number[] = [];
for (let i = 0; i < ROUNDS; i++) {
  const a = once(undefined);
  const b = once(REFERENCE);
  ratios.push(b / a);
  console.log(`round ${i + 1}/${ROUNDS}: subprocess / in-process = ${(b / a).toFixed(2)}`);
}
const r = median(ratios);
console.log(`\nconformance suite through the testee protocol / in-process: ${r.toFixed(2)} (target ≤ 2): ${r <= 2 ? 'met' : 'NOT MET'}`);
process.exitCode = r <= 2 ? 0 : 1;
