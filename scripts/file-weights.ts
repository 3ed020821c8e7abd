// `npm run test:weights -- <file-times.jsonl>`: writes ./file-weights.json, the order ./weighted-sequencer.ts runs
// test files in on a machine with no vitest cache, from the file times of one whole run (JCP_FILE_TIMES=<file> npm
// test, or vitest run with --reporter=./scripts/file-times-reporter.ts). Stale weights cost time, never a result.
import { writeFileSync } from 'node:fs';
import { readFileTimes, type FileTime } from './file-times-reporter.ts';
import { WEIGHTS_FILE } from './weighted-sequencer.ts';

const from = process.argv[2];
if (!from) {
  console.error('usage: npm run test:weights -- <file-times.jsonl> (written by JCP_FILE_TIMES=<file> npm test)');
  process.exit(2);
}
let lines: FileTime[];
try {
  lines = readFileTimes(from);
} catch (e) {
  console.error(`test:weights: cannot read ${from}: ${e instanceof Error ? e.message : String(e)}`);
  process.exit(2);
}
if (lines.length === 0) {
  console.error(`test:weights: ${from} holds no file times`);
  process.exit(2);
}
const ms = Object.fromEntries([...lines].sort((a, b) => b.ms - a.ms).map((l) => [l.file, l.ms]));
writeFileSync(WEIGHTS_FILE, JSON.stringify({ note: 'each test file\'s duration in one whole run (ms): the order scripts/weighted-sequencer.ts runs them in', ms }, null, 2) + '\n');
console.log(`test:weights: ${lines.length} files weighed into ${WEIGHTS_FILE}`);
