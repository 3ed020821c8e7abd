// `npm run fuzz [-- options]`: bounded, seeded fuzzing of the parsers a hostile peer reaches (harness/fuzz/targets.ts).
// Prints, per target, the inputs run, the typed refusals by code, and the untyped throws, hangs and breaks, each
// finding with what replays it; writes every finding's input whole to <out>/fuzz.json. Exit 0 when nothing was found,
// 1 when something was, 2 for a usage error.
import { parseArgs } from 'node:util';
import { failed, fuzz, fuzzReport, writeFuzzReport } from './run.ts';
import { TARGETS } from './targets.ts';

const USAGE = `usage: npm run fuzz -- [--inputs N] [--seed S] [--target NAME]... [--from I] [--hang-ms MS] [--out DIR]
  --inputs N    inputs per target (default 50000; the nightly run takes 1000000)
  --seed S      the seed every input derives from (default 1)
  --target NAME one of ${Object.keys(TARGETS).join(', ')} (repeatable; default all)
  --from I      start at input I (replaying a finding; the regression inputs run only from 0)
  --hang-ms MS  a worker silent this long is hung (default 10000)
  --out DIR     where fuzz.json goes (default reports/fuzz)`;

function usage(msg: string): never {
  process.stderr.write(`fuzz: ${msg}\n${USAGE}\n`);
  process.exit(2);
}

function count(name: string, v: string | undefined, dflt: number, min = 0): number {
  if (v === undefined) return dflt;
  if (!/^\d+$/.test(v) || Number(v) < min || !Number.isSafeInteger(Number(v))) usage(`--${name} takes a whole number${min ? ` of at least ${min}` : ''}, not ${JSON.stringify(v)}`);
  return Number(v);
}

let a;
try {
  a = parseArgs({
    options: {
      inputs: { type: 'string' },
      seed: { type: 'string' },
      target: { type: 'string', multiple: true },
      from: { type: 'string' },
      'hang-ms': { type: 'string' },
      out: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
    strict: true,
    allowPositionals: false,
  }).values;
} catch (e) {
  usage((e as Error).message);
}
if (a.help) {
  process.stdout.write(`${USAGE}\n`);
  process.exit(0);
}
const planted = process.env['JCP_FUZZ_PLANTED'] === '1' ? (await import('./planted.ts')).PLANTED : {};
const known = { ...TARGETS, ...planted };
const targets = a.target ?? Object.keys(TARGETS);
for (const t of targets) if (!(t in known)) usage(`no target ${JSON.stringify(t)}`);
const seed = count('seed', a.seed, 1);
const options = { targets, seed, inputs: count('inputs', a.inputs, 50_000, 1), from: count('from', a.from, 0), hangMs: count('hang-ms', a['hang-ms'], 10_000, 100) };

console.log(`fuzz: ${targets.length} target(s), ${options.inputs.toLocaleString('en-US')} inputs each from input ${options.from}, seed ${seed}`);
let lastLine = 0;
const results = await fuzz({
  ...options,
  onProgress(target, done, total) {
    // a line every few seconds on a long run, never one per progress message
    if (Date.now() - lastLine < 5000 || done >= total) return;
    lastLine = Date.now();
    console.log(`  ${target}: ${done.toLocaleString('en-US')} / ${total.toLocaleString('en-US')}`);
  },
});
for (const l of fuzzReport(results, seed)) console.log(l);
console.log(`findings written to ${writeFuzzReport(a.out ?? 'reports/fuzz', results, options)}`);
process.exit(failed(results) ? 1 : 0);
