// The in-process mutant (kill matrix in CI): stands in for harness/adapter/reference.ts when the
// in-process driver (harness/drivers/in-process.ts) imports it under mutation/vitest.matrix.config.ts, so a mutant is
// served without a testee subprocess per test worker. The mutant is named by JCP_MUTANT (set per vitest project by
// its wrapper file); a builder mutant is the same adapter mutation/testees/variant-main.ts serves over the testee protocol.
import { createReferenceAdapter as createFaithful } from '../../harness/adapter/reference.ts';
import type { Adapter } from '../../harness/adapter/respond.ts';
import { legacyVariant } from './legacy.ts';
import { LEGACY_VARIANTS, MUTANT_BUILDERS } from './registry.ts';
import { MUTANT_PATCHES } from './patches.ts';
import { PROCESS_MUTANTS } from './process-faults.ts';

/** Where the matrix's wrapper file leaves the patched copy of the reference for a source-patch mutant. */
export const PATCHED_REFERENCE = Symbol.for('jcp.mutation.patched-reference');

/** The reference adapter with the fault of mutant $JCP_MUTANT; an unknown id throws (never the faithful reference). */
export function createReferenceAdapter(): Adapter {
  const id = process.env['JCP_MUTANT'] ?? '';
  const built = MUTANT_BUILDERS[id];
  if (built) return built(createFaithful());
  if (MUTANT_PATCHES[id]) {
    const patched = (globalThis as Record<symbol, unknown>)[PATCHED_REFERENCE] as { createReferenceAdapter(): Adapter } | undefined;
    if (!patched) throw new Error(`mutant-adapter: the patched copy of the reference for ${id} was not loaded`);
    return patched.createReferenceAdapter();
  }
  if ((LEGACY_VARIANTS as readonly string[]).includes(id)) return legacyVariant(createFaithful(), id);
  // a process-only rule breaker (./process-faults.ts) is faithful in process: only the tests that start testee
  // processes (JCP_MUTANT_TESTEE) meet its fault
  if (PROCESS_MUTANTS[id]) return createFaithful();
  throw new Error(`mutant-adapter: unknown mutant ${JSON.stringify(id)} (JCP_MUTANT)`);
}
