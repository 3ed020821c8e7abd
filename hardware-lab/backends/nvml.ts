// NVML through koffi (jcp §5.1 rung 2: "NVML — the GPU total-energy counter → HwShunt, Partial"; jcp §5 Plausibility:
// the board's own power draw and enforced power limit, read independently of the counter). The library path is
// configurable so tests load a simulated libnvidia-ml (hardware-lab/sim/fake-nvml.c) through this same binding.
// Every NVML call's return code is mapped to a named status; a missing library is a status, never a crash.
import koffi, { type LibraryHandle } from 'koffi';

/** The default library: the driver's NVML, as the loader finds it. */
export const DEFAULT_NVML_LIBRARY = 'libnvidia-ml.so.1';

/**
 * nvmlReturn_t (NVML's nvml.h, "Device Enums": nvmlReturn_t), each code with the name the header gives it. Codes 0–17
 * as listed by NVIDIA's published nvmlReturn_t documentation; 18–29 and 999 from the same enum in later headers.
 */
export const NVML_RETURN: Readonly<Record<number, string>> = Object.freeze({
  0: 'NVML_SUCCESS',
  1: 'NVML_ERROR_UNINITIALIZED',
  2: 'NVML_ERROR_INVALID_ARGUMENT',
  3: 'NVML_ERROR_NOT_SUPPORTED',
  4: 'NVML_ERROR_NO_PERMISSION',
  5: 'NVML_ERROR_ALREADY_INITIALIZED',
  6: 'NVML_ERROR_NOT_FOUND',
  7: 'NVML_ERROR_INSUFFICIENT_SIZE',
  8: 'NVML_ERROR_INSUFFICIENT_POWER',
  9: 'NVML_ERROR_DRIVER_NOT_LOADED',
  10: 'NVML_ERROR_TIMEOUT',
  11: 'NVML_ERROR_IRQ_ISSUE',
  12: 'NVML_ERROR_LIBRARY_NOT_FOUND',
  13: 'NVML_ERROR_FUNCTION_NOT_FOUND',
  14: 'NVML_ERROR_CORRUPTED_INFOROM',
  15: 'NVML_ERROR_GPU_IS_LOST',
  16: 'NVML_ERROR_RESET_REQUIRED',
  17: 'NVML_ERROR_OPERATING_SYSTEM',
  18: 'NVML_ERROR_LIB_RM_VERSION_MISMATCH',
  19: 'NVML_ERROR_IN_USE',
  20: 'NVML_ERROR_MEMORY',
  21: 'NVML_ERROR_NO_DATA',
  22: 'NVML_ERROR_VGPU_ECC_NOT_SUPPORTED',
  23: 'NVML_ERROR_INSUFFICIENT_RESOURCES',
  24: 'NVML_ERROR_FREQ_NOT_SUPPORTED',
  25: 'NVML_ERROR_ARGUMENT_VERSION_MISMATCH',
  26: 'NVML_ERROR_DEPRECATED',
  27: 'NVML_ERROR_NOT_READY',
  28: 'NVML_ERROR_GPU_NOT_FOUND',
  29: 'NVML_ERROR_INVALID_STATE',
  999: 'NVML_ERROR_UNKNOWN',
});

/** What an NVML return code means for the person at the host, for the codes a lab meets. */
const NVML_MEANING: Readonly<Record<number, string>> = {
  1: 'NVML was not initialized',
  2: 'an argument was invalid',
  3: 'the device does not support this query',
  4: 'this user has no permission for the query',
  6: 'no such object',
  9: 'the NVIDIA driver is not loaded',
  12: 'the NVML shared library could not be found or loaded',
  13: 'this NVML does not implement the function',
  15: 'the GPU has fallen off the bus',
  18: 'the NVML library and the kernel driver versions differ',
  999: 'an unknown NVML error',
};

/** The named status of an NVML return code; a code outside the enum is named as such, never taken for success. */
export function nvmlStatus(code: number): string {
  return NVML_RETURN[code] ?? `NVML_RETURN_UNRECOGNISED(${code})`;
}

/** A readable description of an NVML return code. */
export function nvmlDescribe(code: number): string {
  const m = NVML_MEANING[code];
  return m ? `${nvmlStatus(code)} (${m})` : nvmlStatus(code);
}

/** The outcome of one NVML call: a value, or the status it failed with. */
export type NvmlResult<T> = { readonly ok: true; readonly value: T } | { readonly ok: false; readonly code: number; readonly status: string; readonly call: string };

/** One GPU as NVML lists it. */
export interface NvmlDevice {
  readonly index: number;
  readonly name: NvmlResult<string>;
  /** nvmlDeviceGetTotalEnergyConsumption, in millijoules since the driver loaded. */
  energyMj(): NvmlResult<bigint>;
  /** nvmlDeviceGetPowerUsage, milliwatts. */
  powerMw(): NvmlResult<bigint>;
  /** nvmlDeviceGetEnforcedPowerLimit, milliwatts. */
  limitMw(): NvmlResult<bigint>;
}

/** An opened NVML: its devices, or why there are none. */
export type NvmlOpen =
  | { readonly status: 'library-not-found'; readonly library: string; readonly detail: string }
  | { readonly status: 'symbol-missing'; readonly library: string; readonly detail: string }
  | { readonly status: 'nvml-error'; readonly library: string; readonly call: string; readonly code: number; readonly detail: string }
  | { readonly status: 'ok'; readonly library: string; readonly devices: readonly NvmlDevice[]; close(): NvmlResult<void> };

// Types are declared once per process (koffi keeps a registry of named types); anonymous types avoid name clashes.
const DeviceHandle = koffi.pointer(koffi.opaque());

interface NvmlFns {
  init: () => number;
  shutdown: () => number;
  count: (out: number[]) => number;
  handle: (i: number, out: unknown[]) => number;
  name: (d: unknown, buf: Buffer, len: number) => number;
  energy: (d: unknown, out: Array<number | bigint>) => number;
  power: (d: unknown, out: number[]) => number;
  limit: (d: unknown, out: number[]) => number;
}

function bind(lib: LibraryHandle): NvmlFns {
  return {
    init: lib.func('nvmlInit_v2', 'int', []) as NvmlFns['init'],
    shutdown: lib.func('nvmlShutdown', 'int', []) as NvmlFns['shutdown'],
    count: lib.func('nvmlDeviceGetCount_v2', 'int', [koffi.out(koffi.pointer('unsigned int'))]) as NvmlFns['count'],
    handle: lib.func('nvmlDeviceGetHandleByIndex_v2', 'int', ['unsigned int', koffi.out(koffi.pointer(DeviceHandle))]) as NvmlFns['handle'],
    name: lib.func('nvmlDeviceGetName', 'int', [DeviceHandle, koffi.out(koffi.pointer('uint8_t')), 'unsigned int']) as NvmlFns['name'],
    energy: lib.func('nvmlDeviceGetTotalEnergyConsumption', 'int', [DeviceHandle, koffi.out(koffi.pointer('unsigned long long'))]) as NvmlFns['energy'],
    power: lib.func('nvmlDeviceGetPowerUsage', 'int', [DeviceHandle, koffi.out(koffi.pointer('unsigned int'))]) as NvmlFns['power'],
    limit: lib.func('nvmlDeviceGetEnforcedPowerLimit', 'int', [DeviceHandle, koffi.out(koffi.pointer('unsigned int'))]) as NvmlFns['limit'],
  };
}

function fail<T>(call: string, code: number): NvmlResult<T> {
  return { ok: false, code, status: nvmlStatus(code), call };
}

function outCall(call: string, f: (out: Array<number | bigint>) => number): NvmlResult<bigint> {
  const out: Array<number | bigint> = [0];
  const rc = f(out);
  if (rc !== 0) return fail(call, rc);
  return { ok: true, value: BigInt(out[0]!) };
}

function device(fns: NvmlFns, index: number, h: unknown): NvmlDevice {
  const buf = Buffer.alloc(96); // NVML_DEVICE_NAME_V2_BUFFER_SIZE
  const rc = fns.name(h, buf, buf.length);
  const name: NvmlResult<string> = rc === 0 ? { ok: true, value: buf.toString('utf8', 0, Math.max(0, buf.indexOf(0))) } : fail('nvmlDeviceGetName', rc);
  return Object.freeze({
    index,
    name,
    energyMj: () => outCall('nvmlDeviceGetTotalEnergyConsumption', (o) => fns.energy(h, o)),
    powerMw: () => outCall('nvmlDeviceGetPowerUsage', (o) => fns.power(h, o as number[])),
    limitMw: () => outCall('nvmlDeviceGetEnforcedPowerLimit', (o) => fns.limit(h, o as number[])),
  });
}

/**
 * Loads NVML from `library` (default {@link DEFAULT_NVML_LIBRARY}), initializes it and lists its devices. A library
 * that cannot be loaded is `library-not-found`; a missing entry point `symbol-missing`; a failed init, count or handle
 * `nvml-error` with the NVML status. Never throws for any of those.
 */
export function openNvml(library: string = DEFAULT_NVML_LIBRARY): NvmlOpen {
  let lib: LibraryHandle;
  try {
    lib = koffi.load(library);
  } catch (e) {
    return { status: 'library-not-found', library, detail: `${nvmlDescribe(12)}: ${(e as Error).message}` };
  }
  let fns: NvmlFns;
  try {
    fns = bind(lib);
  } catch (e) {
    return { status: 'symbol-missing', library, detail: `${nvmlDescribe(13)}: ${(e as Error).message}` };
  }
  const rc = fns.init();
  if (rc !== 0) return { status: 'nvml-error', library, call: 'nvmlInit_v2', code: rc, detail: nvmlDescribe(rc) };
  const n = [0];
  const crc = fns.count(n);
  if (crc !== 0) {
    fns.shutdown();
    return { status: 'nvml-error', library, call: 'nvmlDeviceGetCount_v2', code: crc, detail: nvmlDescribe(crc) };
  }
  const devices: NvmlDevice[] = [];
  for (let i = 0; i < n[0]!; i++) {
    const h: unknown[] = [null];
    const hrc = fns.handle(i, h);
    if (hrc !== 0) {
      fns.shutdown();
      return { status: 'nvml-error', library, call: `nvmlDeviceGetHandleByIndex_v2(${i})`, code: hrc, detail: nvmlDescribe(hrc) };
    }
    devices.push(device(fns, i, h[0]));
  }
  return {
    status: 'ok',
    library,
    devices,
    close: () => {
      const src = fns.shutdown();
      return src === 0 ? { ok: true, value: undefined } : fail('nvmlShutdown', src);
    },
  };
}
