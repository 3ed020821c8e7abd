// macOS counters through koffi (jcp §5.1 rungs 3 and 4): proc_pid_rusage's per-process CPU energy (rusage_info_v6
// ri_energy_nj; v4's ri_billed_energy and ri_serviced_energy, the delegated-work ledgers of §5.1) and IOReport's
// "Energy Model" group (the SoC energy rails). The struct layouts and function prototypes are declared — and so
// type-checked and built by koffi — on every platform; the libraries are loaded only on macOS, and elsewhere every
// entry point answers the plain status `not-macos`. Nothing here has run on a Mac in this repository's CI: the lab job on
// a self-hosted `macos` runner is where it runs (hardware-lab/README.md).
import koffi, { type LibraryHandle } from 'koffi';

/** sys/resource.h: the flavors proc_pid_rusage answers. */
export const RUSAGE_INFO_V4 = 4;
export const RUSAGE_INFO_V6 = 6;

const U64 = 'uint64_t';
const V4_FIELDS: Record<string, unknown> = {
  ri_uuid: koffi.array('uint8_t', 16),
  ri_user_time: U64,
  ri_system_time: U64,
  ri_pkg_idle_wkups: U64,
  ri_interrupt_wkups: U64,
  ri_pageins: U64,
  ri_wired_size: U64,
  ri_resident_size: U64,
  ri_phys_footprint: U64,
  ri_proc_start_abstime: U64,
  ri_proc_exit_abstime: U64,
  ri_child_user_time: U64,
  ri_child_system_time: U64,
  ri_child_pkg_idle_wkups: U64,
  ri_child_interrupt_wkups: U64,
  ri_child_pageins: U64,
  ri_child_elapsed_abstime: U64,
  ri_diskio_bytesread: U64,
  ri_diskio_byteswritten: U64,
  ri_cpu_time_qos_default: U64,
  ri_cpu_time_qos_maintenance: U64,
  ri_cpu_time_qos_background: U64,
  ri_cpu_time_qos_utility: U64,
  ri_cpu_time_qos_legacy: U64,
  ri_cpu_time_qos_user_initiated: U64,
  ri_cpu_time_qos_user_interactive: U64,
  ri_billed_system_time: U64,
  ri_serviced_system_time: U64,
  ri_logical_writes: U64,
  ri_lifetime_max_phys_footprint: U64,
  ri_instructions: U64,
  ri_cycles: U64,
  ri_billed_energy: U64,
  ri_serviced_energy: U64,
  ri_interval_max_phys_footprint: U64,
  ri_runnable_time: U64,
};
const V6_FIELDS: Record<string, unknown> = {
  ...V4_FIELDS,
  ri_flags: U64, // v5
  ri_user_ptime: U64,
  ri_system_ptime: U64,
  ri_pinstructions: U64,
  ri_pcycles: U64,
  ri_energy_nj: U64,
  ri_penergy_nj: U64,
  ri_secure_time_in_system: U64,
  ri_secure_ptime_in_system: U64,
  ri_neural_footprint: U64,
  ri_lifetime_max_neural_footprint: U64,
  ri_interval_max_neural_footprint: U64,
  ri_reserved: koffi.array(U64, 9),
};

/** struct rusage_info_v4 (sys/resource.h), built by koffi on every platform. */
export const RusageInfoV4 = koffi.struct(V4_FIELDS as Parameters<typeof koffi.struct>[0]);
/** struct rusage_info_v6 (sys/resource.h), built by koffi on every platform. */
export const RusageInfoV6 = koffi.struct(V6_FIELDS as Parameters<typeof koffi.struct>[0]);



/** Checks that every prototype this module binds is one koffi accepts, without loading a library (every platform). */
export function declareMacosPrototypes(): readonly string[] {
  const protos = [
    koffi.proto('int proc_pid_rusage_v6(int pid, int flavor, _Out_ void *buffer)'),
    koffi.proto('void *IOReportCopyChannelsInGroup(void *group, void *subgroup, uint64_t a, uint64_t b, uint64_t c)'),
    koffi.proto('void *IOReportCreateSubscription(void *a, void *desired, _Out_ void **subbed, uint64_t channel_id, void *b)'),
    koffi.proto('void *IOReportCreateSamples(void *sub, void *subbed, void *a)'),
    koffi.proto('void *IOReportCreateSamplesDelta(void *prev, void *cur, void *a)'),
    koffi.proto('int64_t IOReportSimpleGetIntegerValue(void *item, int32_t idx)'),
    koffi.proto('void *IOReportChannelGetChannelName(void *item)'),
    koffi.proto('void *IOReportChannelGetUnitLabel(void *item)'),
  ];
  return protos.map((p) => String((koffi.type(p) as unknown as { name: string }).name));
}

/** The size koffi computes for each struct (rusage_info_v4: 296 bytes; v6: 464). */
export function rusageSizes(): { readonly v4: number; readonly v6: number } {
  return { v4: koffi.sizeof(RusageInfoV4), v6: koffi.sizeof(RusageInfoV6) };
}

/** A macOS reading, or why there is none. */
export type MacosResult<T> = { readonly status: 'ok'; readonly value: T } | { readonly status: 'not-macos'; readonly platform: string } | { readonly status: 'error'; readonly detail: string };

/** The per-process energy counts of one process (nanojoules). */
export interface ProcEnergy {
  readonly energy_nj: bigint;
  readonly billed_energy_nj: bigint;
  readonly serviced_energy_nj: bigint;
  readonly user_time: bigint;
  readonly system_time: bigint;
  readonly child_user_time: bigint;
  readonly child_system_time: bigint;
}

/** True where these counters exist. */
export function isMacos(platform: string = process.platform): boolean {
  return platform === 'darwin';
}

let libproc: { rusage: (pid: number, flavor: number, out: Record<string, unknown>) => number } | undefined;

function loadLibproc(): NonNullable<typeof libproc> {
  if (!libproc) {
    const lib: LibraryHandle = koffi.load('/usr/lib/libSystem.B.dylib');
    const rusage = lib.func('proc_pid_rusage', 'int', ['int', 'int', koffi.out(koffi.pointer(RusageInfoV6))]);
    libproc = { rusage: rusage as (pid: number, flavor: number, out: Record<string, unknown>) => number };
  }
  return libproc;
}

/** proc_pid_rusage(pid, RUSAGE_INFO_V6): the process's CPU energy and its billed and serviced energy (macOS only). */
export function procEnergy(pid: number = process.pid, platform: string = process.platform): MacosResult<ProcEnergy> {
  if (!isMacos(platform)) return { status: 'not-macos', platform };
  try {
    const out: Record<string, unknown> = {};
    const rc = loadLibproc().rusage(pid, RUSAGE_INFO_V6, out);
    if (rc !== 0) return { status: 'error', detail: `proc_pid_rusage(${pid}, RUSAGE_INFO_V6) returned ${rc} (errno ${koffi.errno()})` };
    const b = (k: string): bigint => BigInt(out[k] as number | bigint);
    return {
      status: 'ok',
      value: {
        energy_nj: b('ri_energy_nj'),
        billed_energy_nj: b('ri_billed_energy'),
        serviced_energy_nj: b('ri_serviced_energy'),
        user_time: b('ri_user_time'),
        system_time: b('ri_system_time'),
        child_user_time: b('ri_child_user_time'),
        child_system_time: b('ri_child_system_time'),
      },
    };
  } catch (e) {
    return { status: 'error', detail: `proc_pid_rusage: ${(e as Error).message}` };
  }
}

/** One IOReport Energy Model channel's count over a sample, in microjoules. */
export interface IoreportChannel {
  readonly name: string;
  readonly unit: string;
  readonly uj: bigint;
}

interface IoreportFns {
  cfstr: (s: string) => unknown;
  cfstrGet: (ref: unknown) => string;
  copyChannels: (g: unknown, sg: unknown, a: number, b: number, c: number) => unknown;
  createSub: (a: unknown, desired: unknown, subbed: unknown[], id: number, b: unknown) => unknown;
  samples: (sub: unknown, subbed: unknown, a: unknown) => unknown;
  intValue: (item: unknown, idx: number) => bigint | number;
  chName: (item: unknown) => unknown;
  chUnit: (item: unknown) => unknown;
  dictGet: (d: unknown, k: unknown) => unknown;
  arrCount: (a: unknown) => number;
  arrAt: (a: unknown, i: number) => unknown;
  release: (r: unknown) => void;
}

let ioreport: { fns: IoreportFns; sub: unknown; subbed: unknown } | undefined;

function loadIoreport(): NonNullable<typeof ioreport> {
  if (ioreport) return ioreport;
  const cf = koffi.load('/System/Library/Frameworks/CoreFoundation.framework/CoreFoundation');
  const io = koffi.load('/usr/lib/libIOReport.dylib');
  const getCString = cf.func('bool CFStringGetCString(void *s, _Out_ uint8_t *buf, long size, uint32_t enc)') as (s: unknown, b: Buffer, n: number, e: number) => boolean;
  const fns: IoreportFns = {
    cfstr: (s) => (cf.func('void *CFStringCreateWithCString(void *alloc, const char *s, uint32_t enc)') as (a: null, s: string, e: number) => unknown)(null, s, 0x08000100),
    cfstrGet: (ref) => {
      const buf = Buffer.alloc(256);
      return ref && getCString(ref, buf, buf.length, 0x08000100) ? buf.toString('utf8', 0, Math.max(0, buf.indexOf(0))) : '';
    },
    copyChannels: io.func('void *IOReportCopyChannelsInGroup(void *group, void *subgroup, uint64_t a, uint64_t b, uint64_t c)') as IoreportFns['copyChannels'],
    createSub: io.func('void *IOReportCreateSubscription(void *a, void *desired, _Out_ void **subbed, uint64_t channel_id, void *b)') as IoreportFns['createSub'],
    samples: io.func('void *IOReportCreateSamples(void *sub, void *subbed, void *a)') as IoreportFns['samples'],
    intValue: io.func('int64_t IOReportSimpleGetIntegerValue(void *item, int32_t idx)') as IoreportFns['intValue'],
    chName: io.func('void *IOReportChannelGetChannelName(void *item)') as IoreportFns['chName'],
    chUnit: io.func('void *IOReportChannelGetUnitLabel(void *item)') as IoreportFns['chUnit'],
    dictGet: cf.func('void *CFDictionaryGetValue(void *d, void *k)') as IoreportFns['dictGet'],
    arrCount: cf.func('long CFArrayGetCount(void *a)') as IoreportFns['arrCount'],
    arrAt: cf.func('void *CFArrayGetValueAtIndex(void *a, long i)') as IoreportFns['arrAt'],
    release: cf.func('void CFRelease(void *r)') as IoreportFns['release'],
  };
  const channels = fns.copyChannels(fns.cfstr('Energy Model'), null, 0, 0, 0);
  const subbed: unknown[] = [null];
  const sub = fns.createSub(null, channels, subbed, 0, null);
  ioreport = { fns, sub, subbed: subbed[0] };
  return ioreport;
}

/** The scale to microjoules of an IOReport energy unit label. */
export function ioreportUnitToUj(unit: string, value: bigint): bigint | undefined {
  switch (unit) {
    case 'mJ':
      return value * 1000n;
    case 'uJ':
    case 'µJ':
      return value;
    case 'nJ':
      return value / 1000n;
    default:
      return undefined;
  }
}

/**
 * Samples IOReport's "Energy Model" group once: each channel's cumulative count in microjoules (macOS only). The
 * CPU energy rails are the channels whose name ends in "CPU Energy" or "_CPU" (one per die on a multi-die part).
 */
export function ioreportSample(platform: string = process.platform): MacosResult<readonly IoreportChannel[]> {
  if (!isMacos(platform)) return { status: 'not-macos', platform };
  try {
    const { fns, sub, subbed } = loadIoreport();
    const s = fns.samples(sub, subbed, null);
    if (!s) return { status: 'error', detail: 'IOReportCreateSamples returned nothing' };
    const arr = fns.dictGet(s, fns.cfstr('IOReportChannels'));
    const out: IoreportChannel[] = [];
    for (let i = 0; i < (arr ? fns.arrCount(arr) : 0); i++) {
      const item = fns.arrAt(arr, i);
      const name = fns.cfstrGet(fns.chName(item));
      const unit = fns.cfstrGet(fns.chUnit(item)).trim();
      const uj = ioreportUnitToUj(unit, BigInt(fns.intValue(item, 0)));
      if (uj !== undefined) out.push({ name, unit, uj });
    }
    fns.release(s);
    return { status: 'ok', value: out };
  } catch (e) {
    return { status: 'error', detail: `IOReport: ${(e as Error).message}` };
  }
}

/** The CPU energy rails among IOReport's Energy Model channels (jcp §5.1: "every CPU energy rail (one per die)"). */
export function ioreportCpuRails(channels: readonly IoreportChannel[]): IoreportChannel[] {
  return channels.filter((c) => /CPU Energy$|_CPU$/.test(c.name));
}

