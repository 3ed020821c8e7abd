// Paired measurement for the benches: the baseline and the measured work alternate in short chunks of process CPU time
// (order A B B A, so a drift in the machine's speed falls on both alike), and a round's ratio is the work's rate over
// the baseline's rate, each pooled over all of its chunks in that round (ARCHITECTURE.md: ratios, never absolute times).
// On a shared machine whose speed swings within a second, long back-to-back windows compare different machines; short
// alternating chunks compare the two under the same conditions.

/** This process's CPU time in microseconds (all threads: work a GC thread does for the code counts against it). */
export function cpuMicros(): number {
  const u = process.cpuUsage();
  return u.user + u.system;
}

/** Runs `op` for about `us` microseconds of CPU; returns [microseconds taken, operations done]. */
function chunk(op: (i: number) => void, us: number, from: number): [number, number] {
  const start = cpuMicros();
  let n = 0;
  let elapsed = 0;
  while (elapsed < us) {
    for (let k = 0; k < 5; k++) op(from + n++);
    elapsed = cpuMicros() - start;
  }
  return [elapsed, n];
}

/** One round's figures: operations per CPU-second of each, and work / base. */
export interface PairedRound {
  readonly baseRate: number;
  readonly workRate: number;
  readonly ratio: number;
}

/**
 * One round of about `roundMs` milliseconds of CPU, split between `base` and `work` in alternating chunks of
 * `chunkMs`. `op(i)` gets a running count, for work that cycles through prepared inputs.
 */
export function pairedRound(base: (i: number) => void, work: (i: number) => void, roundMs: number, chunkMs = 5): Promise<PairedRound> {
  for (let i = 0; i < 50; i++) {
    base(i);
    work(i);
  }
  return pairedRoundAsync(base, async (us, from) => chunk(work, us, from), roundMs, chunkMs);
}

/**
 * {@link pairedRound} for work that is asynchronous (served by the event loop, such as an endpoint answering a client
 * in another process): `work(us, from)` does about `us` microseconds of CPU (`from` is the count of operations done
 * so far) and resolves to [microseconds taken, operations done], its own CPU time only (time idle waiting for input
 * is not CPU time and does not count).
 */
export async function pairedRoundAsync(base: (i: number) => void, work: (us: number, from: number) => Promise<[number, number]>, roundMs: number, chunkMs = 5): Promise<PairedRound> {
  const us = chunkMs * 1000;
  const pairs = Math.max(1, Math.round(roundMs / chunkMs / 2));
  // CPU microseconds and operations, per side
  let baseUs = 0;
  let baseN = 0;
  let workUs = 0;
  let workN = 0;
  const runBase = (): void => {
    const [t, n] = chunk(base, us, baseN);
    baseUs += t;
    baseN += n;
  };
  const runWork = async (): Promise<void> => {
    const [t, n] = await work(us, workN);
    workUs += t;
    workN += n;
  };
  for (let p = 0; p < pairs; p++) {
    // A B, then B A, …: each side goes first half the time
    if (p % 2 === 0) {
      runBase();
      await runWork();
    } else {
      await runWork();
      runBase();
    }
  }
  const baseRate = baseN / (baseUs / 1e6);
  const workRate = workN / (workUs / 1e6);
  return { baseRate, workRate, ratio: workRate / baseRate };
}
