// Unit tests of the hardware lab (hardware-lab/README.md; jcp §5, §5.1): the NVML status map and binding over the simulated library,
// the powercap backend's reads (names, ranges, an unreadable energy_uj), the macOS bindings declared off macOS, the
// probe's burn thread on the real clock, and the lab job end to end on a host with nothing (this CI machine's case)
// and over simulated counters, with its sealed report verified and a tampered one refused.
import { afterAll, describe, expect, it } from 'vitest';
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { threadId } from 'node:worker_threads';
import { NVML_RETURN, nvmlStatus, openNvml } from './backends/nvml.ts';
import { RaplBackend } from './backends/rapl.ts';
import { declareMacosPrototypes, ioreportSample, procEnergy, rusageSizes, ioreportUnitToUj } from './backends/macos.ts';
import { FakePowercap, SimClock } from './sim/powercap.ts';
import { ladderFor, probeNvml } from './meter.ts';
import { buildFakeNvml, fakeNvmlInstance, haveCompiler } from './sim/nvml.ts';
import { probe, startBurn } from './probe.ts';
import { labKey, main, runLab, seedFromHex, sealReport, verifyReport } from './lab.ts';

const dir = mkdtempSync(join(tmpdir(), 'jcp-hw-unit-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const cc = haveCompiler();
if (!cc && process.env['CI'] === 'true') throw new Error('no C compiler (cc): the simulated NVML cannot be built, and CI=true requires it');
const withCc = cc ? it : it.skip;
if (!cc) console.warn('hardware-lab: no C compiler (cc); simulated NVML tests skipped');

describe('NVML return codes and binding', () => {
  it('names every nvmlReturn_t code, and an unknown code as unrecognised, never as success', () => {
    expect(NVML_RETURN[0]).toBe('NVML_SUCCESS');
    expect(nvmlStatus(3)).toBe('NVML_ERROR_NOT_SUPPORTED');
    expect(nvmlStatus(4)).toBe('NVML_ERROR_NO_PERMISSION');
    expect(nvmlStatus(999)).toBe('NVML_ERROR_UNKNOWN');
    expect(Object.keys(NVML_RETURN).map(Number)).toEqual([...Array.from({ length: 30 }, (_, i) => i), 999]);
    expect(nvmlStatus(31)).toBe('NVML_RETURN_UNRECOGNISED(31)');
  });

  it('a library that is not there is a status, not a crash', () => {
    const o = openNvml(join(dir, 'no-such-libnvidia-ml.so.1'));
    expect(o.status).toBe('library-not-found');
    expect(o.status !== 'ok' && o.detail).toMatch(/NVML_ERROR_LIBRARY_NOT_FOUND/);
  });

  withCc('reads the simulated board through the same binding: name, energy (mJ), draw and limit (mW), and each error code', () => {
    const built = buildFakeNvml();
    const o = openNvml(fakeNvmlInstance(built, { name: 'Sim GPU', step_mj: 370n, draw_mw: [14_800n, 590_000n], limit_mw: 65_000n }, dir));
    expect(o.status).toBe('ok');
    if (o.status !== 'ok') return;
    const d = o.devices[0]!;
    expect(d.name).toEqual({ ok: true, value: 'Sim GPU' });
    expect(d.energyMj()).toEqual({ ok: true, value: 370n });
    expect(d.energyMj()).toEqual({ ok: true, value: 740n });
    expect([d.powerMw(), d.powerMw()]).toEqual([{ ok: true, value: 14_800n }, { ok: true, value: 590_000n }]);
    expect(d.limitMw()).toEqual({ ok: true, value: 65_000n });
    expect(o.close()).toEqual({ ok: true, value: undefined });
    const denied = openNvml(fakeNvmlInstance(built, { step_mj: 1n, err_power: 4, err_limit: 3 }, dir));
    if (denied.status !== 'ok') throw new Error(denied.status);
    expect(denied.devices[0]!.powerMw()).toEqual({ ok: false, code: 4, status: 'NVML_ERROR_NO_PERMISSION', call: 'nvmlDeviceGetPowerUsage' });
    expect(denied.devices[0]!.limitMw()).toMatchObject({ ok: false, status: 'NVML_ERROR_NOT_SUPPORTED' });
    denied.close();
    expect(openNvml(fakeNvmlInstance(built, { err_init: 9 }, dir))).toMatchObject({ status: 'nvml-error', call: 'nvmlInit_v2', code: 9 });
    expect(openNvml(fakeNvmlInstance(built, { err_count: 18 }, dir))).toMatchObject({ status: 'nvml-error', call: 'nvmlDeviceGetCount_v2', detail: expect.stringMatching(/LIB_RM_VERSION_MISMATCH/) });
  });
});

describe('NVML with two GPUs', () => {
  withCc('probes every device: both must be live, each judged against its own board, the domain against the summed draw', async () => {
    // 14.8 W on each board (370 mJ per 25 ms tick), each drawing 14.8 W under a 65 W limit
    const lib = fakeNvmlInstance(buildFakeNvml(), { count: 2, step_mj: 370n, draw_mw: [14_800n], limit_mw: 65_000n }, dir);
    const p = await probeNvml(lib, { burn: false, clock: new SimClock(), window_ms: 500 });
    expect(p.finding.counters.map((c) => [c.liveness?.live, c.plausibility?.verdict])).toEqual([[true, 'not-refuted'], [true, 'not-refuted']]);
    expect(p.evidence.status === 'read' && p.evidence.telemetry).toMatchObject({ limit_mw: 130_000n });
    expect(p.evidence.status === 'read' && p.evidence.telemetry?.draw_mw.every((d) => d === 29_600n)).toBe(true);
    expect(ladderFor([p.evidence], 500)).toMatchObject({ rung: 'nvml', energy: { provenance: 'HwShunt', coverage: 'Partial' } });
  });
});

describe('powercap backend', () => {
  it('lists zones with names and ranges; an unreadable energy_uj is reported with its errno, never as zero', () => {
    const t = new FakePowercap(join(dir, 'pc'), [
      { zone: 'intel-rapl:0', name: 'package-0', mw: 0n, start_uj: 7n, max_energy_range_uj: 262_143_328_850n },
      { zone: 'intel-rapl:0:0', name: 'core', mw: 0n, max_energy_range_uj: 262_143_328_850n, denied: true },
      { zone: 'intel-rapl:1', name: 'psys', mw: 0n, max_energy_range_uj: 1000n },
    ]);
    const b = new RaplBackend({ root: t.root, readText: t.readText });
    const s = b.scan();
    if (s.status !== 'ok') throw new Error(s.detail);
    expect(s.zones.map((z) => [z.zone, z.name, z.max_energy_range_uj, z.energy_readable])).toEqual([
      ['intel-rapl:0', 'package-0', 262_143_328_850n, true],
      ['intel-rapl:0:0', 'core', 262_143_328_850n, false],
      ['intel-rapl:1', 'psys', 1000n, true],
    ]);
    expect(s.zones[1]!.energy_error?.code).toBe('EACCES');
    expect(b.readEnergy('intel-rapl:0')).toEqual({ ok: true, uj: 7n });
    expect(b.readEnergy('intel-rapl:0:0')).toMatchObject({ ok: false, failure: { code: 'EACCES' } });
    expect(b.packages(s.zones).packages.map((z) => z.name)).toEqual(['package-0']);
    t.dispose();
    expect(new RaplBackend({ root: join(dir, 'nothing') }).scan()).toMatchObject({ status: 'absent' });
  });
});

describe('macOS bindings off macOS', () => {
  it('declares the structs and prototypes on every platform and answers not-macos without loading anything', () => {
    expect(rusageSizes()).toEqual({ v4: 296, v6: 464 });
    expect(declareMacosPrototypes()).toContain('IOReportCreateSamples');
    expect(procEnergy(process.pid, 'linux')).toEqual({ status: 'not-macos', platform: 'linux' });
    expect(ioreportSample('linux')).toEqual({ status: 'not-macos', platform: 'linux' });
    expect(ioreportUnitToUj('mJ', 3n)).toBe(3000n);
    expect(ioreportUnitToUj('nJ', 3000n)).toBe(3n);
    expect(ioreportUnitToUj('W', 1n)).toBeUndefined();
  });
});

describe('the probe on the real clock', () => {
  it('burns CPU on a thread of its own while it samples at the 25 ms tick', async () => {
    let n = 0n;
    const run = await probe([{ name: 'c', read: () => (n += 10n) }], { window_ms: 300 });
    expect(run.burn.ran).toBe(true);
    expect(run.burn.thread_id).not.toBe(threadId);
    expect(run.burn.iterations).toBeGreaterThan(0);
    expect(run.ticks).toBeGreaterThan(2);
    const gaps = run.counters[0]!.samples.slice(1).map((s, i) => s.t_ns - run.counters[0]!.samples[i]!.t_ns);
    // never a catch-up interval shorter than the tick (a small timer slack allowed)
    expect(gaps.every((g) => g >= 24_000_000n)).toBe(true);
  });

  it('stops the burn thread', async () => {
    const b = await startBurn();
    const e = await b.stop();
    expect(e.ran).toBe(true);
  });
});

describe('the lab job', () => {
  it('on a host with no counter: finishes, says no hardware counter is readable and why, and selects the estimate', async () => {
    const { report, summary } = await runLab({ powercap_root: join(dir, 'none'), nvml_library: join(dir, 'no-libnvidia-ml.so.1'), platform: 'linux', window_ms: 200 });
    expect(report['hardware_counter_readable']).toBe(false);
    expect(summary.join('\n')).toMatch(/No hardware energy counter is readable on this host/);
    expect(summary.join('\n')).toMatch(/rapl: absent: no powercap tree/);
    expect(summary.join('\n')).toMatch(/NVML_ERROR_LIBRARY_NOT_FOUND/);
    expect(summary.join('\n')).toMatch(/not macOS/);
    expect(report['ladder']).toMatchObject({ rung: 'estimate', energy: { provenance: 'Estimator' } });
  });

  withCc('over simulated counters: the NVML counter is read and judged, the report sealed and verifiable, a tampered one refused', async () => {
    const t = new FakePowercap(join(dir, 'pc-lab'), [{ zone: 'intel-rapl:0', name: 'package-0', mw: 20_000n, max_energy_range_uj: 262_143_328_850n }]).start();
    const lib = fakeNvmlInstance(buildFakeNvml(), { energy_mw: 14_800n, draw_mw: [14_800n], limit_mw: 65_000n, name: 'Sim GPU' }, dir);
    const out = join(dir, 'reports');
    const log: string[] = [];
    const orig = console.log;
    console.log = (...a: unknown[]) => void log.push(a.join(' '));
    try {
      expect(await main(['--out', out, '--powercap-root', t.root, '--nvml-library', lib, '--window-ms', '400'])).toBe(0);
    } finally {
      console.log = orig;
      t.dispose();
    }
    const file = join(out, readdirSync(out).find((f) => f.endsWith('.json'))!);
    const bytes = readFileSync(file);
    const report = JSON.parse(bytes.toString('utf8'));
    expect(report.format).toBe('jcp-hardware-lab-report/1');
    expect(report.signer.key_source).toMatch(/development key/);
    expect(report.counters.map((c: { rung: string; status: string }) => [c.rung, c.status])).toEqual([['rapl', 'probed'], ['nvml', 'probed'], ['proc-self', process.platform === 'darwin' ? 'probed' : 'not-macos'], ['ioreport', expect.any(String)]]);
    expect(log.join('\n')).toMatch(/Verify: npx tsx hardware-lab\/lab.ts verify/);
    const cose = readFileSync(`${file}.cose`);
    expect(verifyReport(bytes, cose, report.signer.did)).toBe(report.signer.did);
    const tampered = Buffer.from(bytes);
    const at = tampered.indexOf('"issued_s": ') + 12;
    tampered[at] = tampered[at]! ^ 1;
    expect(() => verifyReport(tampered, cose)).toThrow(/different bytes/);
    // a seal made by another key over the same bytes is refused when the expected signer is named
    const other = labKey(seedFromHex('11'.repeat(32))).key;
    expect(() => verifyReport(bytes, sealReport(bytes, other), report.signer.did)).toThrow(/expected/);
  });

  it('refuses a malformed JCP_LAB_SEED_HEX', () => {
    expect(() => seedFromHex('abc')).toThrow(/64 hex digits/);
  });
});

describe('the lab command line', () => {
  /** main(argv) with console output captured; `out` is where a probe would have written. */
  async function cli(argv: string[]): Promise<{ code: number; out: string; err: string }> {
    const out: string[] = [];
    const err: string[] = [];
    const [log, error, write] = [console.log, console.error, process.stdout.write.bind(process.stdout)];
    console.log = (...a: unknown[]) => void out.push(a.join(' '));
    console.error = (...a: unknown[]) => void err.push(a.join(' '));
    process.stdout.write = ((s: string) => (out.push(String(s)), true)) as typeof process.stdout.write;
    try {
      return { code: await main(argv), out: out.join('\n'), err: err.join('\n') };
    } finally {
      [console.log, console.error, process.stdout.write] = [log, error, write];
    }
  }

  it('--help prints the usage and probes nothing; an unknown option, a stray argument or a bad number is one line, exit 2, nothing written', async () => {
    const out = join(dir, 'cli-reports');
    const help = await cli(['--help', '--out', out]);
    expect(help.code).toBe(0);
    expect(help.out).toMatch(/^usage: tsx hardware-lab\/lab.ts/);
    expect((await cli(['verify', '--help'])).code).toBe(0);
    for (const argv of [['--bogus'], ['--out', out, 'stray'], ['--window-ms', 'soon', '--out', out], ['verify'], ['verify', 'a.json', 'b.json'], ['verify', 'a.json', '--bogus']]) {
      const r = await cli(argv);
      expect(r.code, argv.join(' ')).toBe(2);
      expect(r.err.split('\n'), argv.join(' ')).toHaveLength(1);
      expect(r.err).toMatch(/^lab: .*\(see --help\)$/);
    }
    expect(() => readdirSync(out)).toThrow();
  });
});
