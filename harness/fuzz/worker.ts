// One fuzz worker: runs inputs [from, to) of one target (after the target's regression inputs, when `from` is 0) and
// reports on stdout, one JSON line each: progress with the counts so far every PROGRESS_EVERY inputs, each finding
// (an untyped throw or a break) with its input, and the end. The runner (./run.ts) watches the progress lines: a worker
// that goes quiet is hung, and is killed.
//   node … worker.ts <target> <seed> <from> <to>
import { toHex } from '../../impl/bytes.ts';
import { inputAt, rngFor } from './inputs.ts';
import { PROGRESS_EVERY, regressions, type Counts, type WorkerLine } from './lines.ts';
import { typedCode, TARGETS, type Target } from './targets.ts';

const emit = (l: WorkerLine) => process.stdout.write(`${JSON.stringify(l)}\n`);

async function one(t: Target, input: Uint8Array, index: number | string, r: ReturnType<typeof rngFor>, counts: Counts, asIs = false): Promise<void> {
  try {
    const v = await t.run(input, r, asIs);
    if (v.kind === 'accepted') counts.accepted++;
    else if (v.kind === 'refused') counts.refused[v.code] = (counts.refused[v.code] ?? 0) + 1;
    else {
      counts.breaks++;
      emit({ t: 'finding', kind: 'break', index, input: toHex(input), what: v.what });
    }
  } catch (e) {
    const code = typedCode(e);
    if (code !== undefined) counts.refused[code] = (counts.refused[code] ?? 0) + 1;
    else {
      counts.untyped++;
      emit({ t: 'finding', kind: 'untyped', index, input: toHex(input), what: e instanceof Error ? `${e.name}: ${e.message}` : String(e) });
    }
  }
}

async function main(name: string, seed: number, from: number, to: number, planted: Readonly<Record<string, Target>>): Promise<void> {
  const t = TARGETS[name] ?? planted[name];
  if (!t) throw new Error(`no fuzz target ${name}`);
  // loaded: from here on the runner's hang limit applies, not its startup limit
  emit({ t: 'ready' });
  const counts: Counts = { accepted: 0, refused: {}, untyped: 0, breaks: 0 };
  if (from === 0) {
    for (const [k, reg] of regressions(name).entries()) await one(t, Uint8Array.from(Buffer.from(reg.input, 'hex')), `regression ${k}`, rngFor(seed, `${name}:regression`, k), counts, true);
  }
  for (let i = from; i < to; i++) {
    await one(t, inputAt(seed, name, i, t.corpus), i, rngFor(seed, `${name}:run`, i), counts);
    if ((i + 1 - from) % PROGRESS_EVERY === 0) emit({ t: 'progress', next: i + 1, counts });
  }
  emit({ t: 'end', next: to, counts });
}

const [name, seed, from, to] = process.argv.slice(2);
// planted targets (./planted.ts) exist only for the runner's own self-test
const planted = process.env['JCP_FUZZ_PLANTED'] === '1' ? (await import('./planted.ts')).PLANTED : {};
await main(name!, Number(seed), Number(from), Number(to), planted);
