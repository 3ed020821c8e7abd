// A simulated powercap tree for CI: the directories and files of /sys/class/powercap that
// hardware-lab/backends/rapl.ts reads (`name`, `energy_uj`, `max_energy_range_uj`), written by the test and advanced
// from a scheduled timer as a counter accruing a set power would be, optionally frozen, republished in lumps, or
// wrapping at its max_energy_range_uj. Each write is atomic (a temporary file renamed over energy_uj), so a reader
// never sees a half-written count.
import { mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** One simulated zone. */
export interface FakeZone {
  /** The directory name, e.g. `intel-rapl:0`, `intel-rapl:0:1`. */
  readonly zone: string;
  /** The `name` file: `package-0`, `psys`, `dram`, `core`, `uncore`. */
  readonly name: string;
  /** The power the counter accrues, milliwatts (0: frozen). */
  readonly mw: bigint;
  /** The count is republished only at multiples of this many ms. */
  readonly lump_ms?: number;
  readonly max_energy_range_uj: bigint;
  readonly start_uj?: bigint;
  /** When true, reads of energy_uj fail with EACCES (see {@link FakePowercap.readText}). */
  readonly denied?: boolean;
}

/** A simulated powercap root. */
export class FakePowercap {
  private timer: NodeJS.Timeout | undefined;
  private t0 = 0n;

  /** `now_ns`: the clock the counters accrue on (default the real monotonic clock; a test passes its simulated one). */
  constructor(readonly root: string, readonly zones: readonly FakeZone[], private readonly now_ns: () => bigint = () => process.hrtime.bigint()) {
    rmSync(root, { recursive: true, force: true });
    for (const z of zones) {
      const dir = join(root, z.zone);
      mkdirSync(dir, { recursive: true });
      writeFileSync(join(dir, 'name'), `${z.name}\n`);
      writeFileSync(join(dir, 'max_energy_range_uj'), `${z.max_energy_range_uj}\n`);
    }
    this.t0 = this.now_ns();
    this.write();
  }

  /** The count `z` shows now: start + mW × elapsed, published at its lump boundary, modulo its range. */
  valueOf(z: FakeZone, at_ns: bigint = this.now_ns()): bigint {
    let ns = at_ns - this.t0;
    if (z.lump_ms) {
      const lump = BigInt(z.lump_ms) * 1_000_000n;
      ns = (ns / lump) * lump;
    }
    // µJ = mW × ns / 10⁶
    return ((z.start_uj ?? 0n) + (z.mw * ns) / 1_000_000n) % z.max_energy_range_uj;
  }

  /** Writes every zone's count as of now (the timer calls it; a simulated clock calls it as it advances). */
  write(): void {
    const now = this.now_ns();
    for (const z of this.zones) {
      const file = join(this.root, z.zone, 'energy_uj');
      writeFileSync(`${file}.tmp`, `${this.valueOf(z, now)}\n`);
      renameSync(`${file}.tmp`, file);
    }
  }

  /** Starts advancing the files every `every_ms` (default 5 ms). */
  start(every_ms = 5): this {
    this.timer = setInterval(() => this.write(), every_ms);
    return this;
  }

  /** Stops the timer. */
  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
  }

  /** Stops and removes the tree. */
  dispose(): void {
    this.stop();
    rmSync(this.root, { recursive: true, force: true });
  }

  /**
   * A file reader for RaplBackend that fails energy_uj of `denied` zones with EACCES, as a kernel that keeps
   * energy_uj root-only does (a test running as root cannot get that from chmod).
   */
  readText = (path: string): string => {
    const denied = this.zones.find((z) => z.denied && path === join(this.root, z.zone, 'energy_uj'));
    if (denied) throw Object.assign(new Error(`EACCES: permission denied, open '${path}'`), { code: 'EACCES' });
    return readFileSync(path, 'utf8');
  };
}

/**
 * A simulated clock for probes of simulated counters: time moves only when the probe sleeps, by exactly the time it
 * asked for plus any lateness the test schedules (`late_ms[k]` added to the k-th sleep), and every listener (a fake
 * tree's write) runs at each step. The probe's code is the same; only its clock is not the machine's, so a loaded CI
 * scheduler cannot stretch an interval past 75 ms and change a verdict the scenario fixes.
 */
export class SimClock {
  private t = 1_000_000_000n;
  private sleeps = 0;
  private readonly listeners: Array<() => void> = [];

  constructor(private readonly late_ms: Readonly<Record<number, number>> = {}) {}

  now_ns = (): bigint => this.t;

  /** Runs `f` whenever the clock moves. */
  onTick(f: () => void): this {
    this.listeners.push(f);
    return this;
  }

  sleep = async (ms: number): Promise<void> => {
    const late = this.late_ms[this.sleeps++] ?? 0;
    this.t += BigInt(Math.round((ms + late) * 1e6));
    for (const f of this.listeners) f();
    await new Promise((r) => setImmediate(r));
  };
}
