// RAPL through the Linux powercap sysfs tree (jcp §5.1 rung 1): enumerate the zones (intel-rapl:N, intel-rapl:N:M, and
// any other control type's), read each zone's `name`, `energy_uj` and `max_energy_range_uj`. Which zones are summed,
// and each one's wrap correction, are impl/energy's judgements (selectRaplPackages, sumRaplPackages); this module only
// reads. An energy_uj that cannot be read (root-only on many kernels since the PLATYPUS mitigation) is reported as
// unreadable with the error, never as zero. The root is configurable so tests point it at a simulated tree.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { selectRaplPackages, type RaplZone } from '../../impl/energy/liveness.ts';

/** Where the kernel publishes powercap zones. */
export const DEFAULT_POWERCAP_ROOT = '/sys/class/powercap';

/** How the backend reads a file (injectable: a test running as root cannot make a file unreadable with chmod). */
export type ReadText = (path: string) => string;

/** A read that failed, with the errno code the kernel gave (EACCES, ENOENT, ...). */
export interface ReadFailure {
  readonly error: string;
  readonly code?: string;
}

/** One powercap zone as found on the host. */
export interface FoundZone extends RaplZone {
  readonly path: string;
  /** Whether energy_uj could be read at enumeration; when not, why (EACCES: root-only). */
  readonly energy_readable: boolean;
  readonly energy_error?: ReadFailure;
}

/** What the powercap root holds. */
export type PowercapScan =
  | { readonly status: 'absent'; readonly root: string; readonly detail: string }
  | { readonly status: 'ok'; readonly root: string; readonly zones: readonly FoundZone[] };

function failure(e: unknown): ReadFailure {
  const err = e as NodeJS.ErrnoException;
  return { error: err?.message ?? String(e), ...(typeof err?.code === 'string' ? { code: err.code } : {}) };
}

/** Parses a sysfs decimal counter strictly (digits only, after trimming the newline). */
export function parseCounter(text: string, what: string): bigint {
  const t = text.trim();
  if (!/^\d+$/.test(t)) throw new Error(`${what} is not a decimal counter: ${JSON.stringify(t.slice(0, 40))}`);
  return BigInt(t);
}

/** A RAPL/powercap backend over one root. */
export class RaplBackend {
  readonly root: string;
  private readonly readText: ReadText;

  constructor(opts: { readonly root?: string; readonly readText?: ReadText } = {}) {
    this.root = opts.root ?? DEFAULT_POWERCAP_ROOT;
    this.readText = opts.readText ?? ((p) => readFileSync(p, 'utf8'));
  }

  /**
   * Lists the zones under the root: every directory `<type>:<n>` or `<type>:<n>:<m>` (sysfs lists subzones at the top
   * as well as inside their parent), each with its name, range and whether energy_uj reads. A root that does not
   * exist is `absent`, with why.
   */
  scan(): PowercapScan {
    let entries: string[];
    try {
      entries = readdirSync(this.root);
    } catch (e) {
      return { status: 'absent', root: this.root, detail: `no powercap tree at ${this.root}: ${failure(e).error}` };
    }
    const zones: FoundZone[] = [];
    for (const zone of entries.filter((z) => /^[a-z][a-z0-9-]*:\d+(:\d+)*$/.test(z)).sort()) {
      const path = join(this.root, zone);
      let name: string;
      try {
        name = this.readText(join(path, 'name')).trim();
      } catch {
        continue; // a directory without a name file is not a zone
      }
      let max: bigint | undefined;
      try {
        max = parseCounter(this.readText(join(path, 'max_energy_range_uj')), `${zone}/max_energy_range_uj`);
      } catch {
        max = undefined;
      }
      const r = this.readEnergy(zone);
      zones.push({ zone, name, path, ...(max !== undefined ? { max_energy_range_uj: max } : {}), energy_readable: r.ok, ...(r.ok ? {} : { energy_error: r.failure }) });
    }
    return { status: 'ok', root: this.root, zones };
  }

  /** Reads one zone's energy_uj: the count, or the failure (never a zero in its place). */
  readEnergy(zone: string): { readonly ok: true; readonly uj: bigint } | { readonly ok: false; readonly failure: ReadFailure } {
    try {
      return { ok: true, uj: parseCounter(this.readText(join(this.root, zone, 'energy_uj')), `${zone}/energy_uj`) };
    } catch (e) {
      return { ok: false, failure: failure(e) };
    }
  }

  /** The zones jcp §5.1 sums (top-level package-<n>), and every other zone with why not: impl/energy's choice. */
  packages(zones: readonly FoundZone[]): ReturnType<typeof selectRaplPackages<FoundZone>> {
    return selectRaplPackages(zones);
  }
}
