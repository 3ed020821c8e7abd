// The CLI the self-tests start: the suite compiled for this test run (./compiled-cli.setup.ts), which is what the
// installed package runs (bin/jcp-conformance.js there loads dist/suite/harness/cli.js). Run outside that setup (one
// file under another config), the checkout's own bin/jcp-conformance.js, through tsx. testee-processes.test.ts starts
// bin/jcp-conformance.js itself, so the checkout's entry stays tested.
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { inject, type ProvidedContext } from 'vitest';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');

/** What a globalSetup provided under `key`, or undefined where none ran (inject throws outside vitest's workers). */
export function provided<K extends keyof ProvidedContext>(key: K): ProvidedContext[K] | undefined {
  try {
    return inject(key);
  } catch {
    return undefined;
  }
}

/** The path of the CLI's entry script, to run with `node`. */
export function cliPath(): string {
  return provided('compiledCli') ?? join(ROOT, 'bin', 'jcp-conformance.js');
}

/**
 * What to give `node` to run another entry of the suite, named by its source (`harness/fuzz/cli.ts`): its compiled
 * form where the self-tests' setup built one, else the source through tsx.
 */
export function suiteEntry(source: string): string[] {
  const compiled = provided('compiledCli');
  if (compiled) return [join(dirname(compiled), '..', source.replace(/\.ts$/, '.js'))];
  return [join(ROOT, 'node_modules', 'tsx', 'dist', 'cli.mjs'), join(ROOT, source)];
}
