// The testees and endpoints the self-tests start, as single-file bundles (esbuild, packages left to node_modules):
// started as `node <bundle>` rather than `node --import tsx <source>`, each start skips compiling the TypeScript it
// loads (about 0.7 s of CPU on this project's 2-core machines, and a full conformance run through a testee starts
// about 50). What they test is the same source either way.
//
// Each test file process builds a bundle once, on first use, from the source as it is then (never a bundle left by
// an earlier run), and writes it under a fixed name by rename, so that files running at the same time, whose shared
// certify runs (./shared-runs.ts) name the same command, replace it whole with the same bytes.
import { build } from 'esbuild';
import { mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
/** Under the project, so the bundles' bare imports resolve to its node_modules. */
const CACHE = join(ROOT, 'node_modules', '.cache', 'jcp-self');

/** The programs the self-tests start, by name: their entry source. */
const ENTRIES = {
  /** The reference behind the testee protocol (what `reference-testee` ships). */
  reference: 'harness/adapter/testee-main.ts',
  /** The reference with one fault, by its first argument (mutation/testees/variant-main.ts). */
  variant: 'mutation/testees/variant-main.ts',
  /** Testees whose answers break the protocol, for `validate` (./testees/validate-faults.ts). */
  'validate-faults': 'harness/self/testees/validate-faults.ts',
  /** The jcp/1 endpoint (`npm run endpoint`). */
  'wire-main': 'impl/wire/main.ts',
  /** jcp/1 endpoints that break one rule (mutation/testees/endpoint-main.ts). */
  'endpoint-main': 'mutation/testees/endpoint-main.ts',
  /** The reference answering only the operations of the classes it is told to claim (./testees/subset-main.ts). */
  'subset-main': 'harness/self/testees/subset-main.ts',
  /** The reference with one fault on one operation: a hang, an exit, a frame twice (./testees/fault-main.ts). */
  'fault-main': 'harness/self/testees/fault-main.ts',
} as const;

export type SelfProgram = keyof typeof ENTRIES;

/** Where the bundle of `name` is (it exists once {@link buildBundle} has resolved). */
export const bundlePath = (name: SelfProgram): string => join(CACHE, `${name}.mjs`);

const built = new Map<SelfProgram, Promise<string>>();

/** Builds the bundle of `name` (once per process) and resolves to its path. */
export function buildBundle(name: SelfProgram): Promise<string> {
  let p = built.get(name);
  if (!p) {
    p = (async () => {
      const out = bundlePath(name);
      const r = await build({ entryPoints: [join(ROOT, ENTRIES[name])], bundle: true, platform: 'node', format: 'esm', packages: 'external', write: false, outfile: out, logLevel: 'warning' });
      mkdirSync(CACHE, { recursive: true });
      const tmp = `${out}.${process.pid}.tmp`;
      writeFileSync(tmp, r.outputFiles[0]!.contents);
      renameSync(tmp, out);
      return out;
    })();
    built.set(name, p);
  }
  return p;
}

/** The command starting `name` with `args`, run from the project root (the bundle's path relative to it: a checkout's path may hold spaces). Build it first: {@link buildBundle}. */
export const bundleCommand = (name: SelfProgram, ...args: string[]): string => ['node', `node_modules/.cache/jcp-self/${name}.mjs`, ...args].join(' ');
/** The reference testee's command. */
export const REFERENCE_TESTEE = bundleCommand('reference');
/** The command of the reference with fault `v`. */
export const variantTestee = (v: string): string => bundleCommand('variant', v);

/** Builds every bundle whose path a command line (or any text) names, once per process. */
export async function buildBundlesNamedIn(text: string): Promise<void> {
  await Promise.all((Object.keys(ENTRIES) as SelfProgram[]).filter((n) => text.includes(`jcp-self/${n}.mjs`)).map(buildBundle));
}
