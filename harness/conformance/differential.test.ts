// Model-based differential testing: random operation sequences run against the implementation under test and
// the reference side by side (harness/property/), compared step by step on what each class fixes, with invariants that
// need no reference. A disagreement is shrunk to its smallest sequence and written out as a case file
// (JCP_CASES_DIR, default reports/cases/) that `jcp-conformance replay <case>` re-runs and `promote` publishes.
// Sequences per property: JCP_PROPERTY_RUNS (certify --property-runs N, --deep), default DEFAULT_RUNS; seed FC_SEED.
import { join, resolve, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect } from 'vitest';
import { claimsByteContract, clauseIt, contract, note, requiredHere } from '../clause.ts';
import { implementation, testeeInfo } from '../driver.ts';
import { inProcessTransport } from '../drivers/in-process.ts';
import { fcParams } from '../external-vectors.ts';
import { Implementation } from '../implementation.ts';
import { buildCase, writeCase } from '../property/case.ts';
import { PROPERTIES, PROPERTY_NAMES, propertyRuns, runProperty } from '../property/differential.ts';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');

describe('differential properties against the reference', () => {
  const runs = propertyRuns();
  for (const name of PROPERTY_NAMES) {
    const prop = PROPERTIES[name];
    clauseIt(
      prop.clauses,
      `differential/${name}: ${prop.title}`,
      async () => {
        const { seed } = fcParams();
        const reference = new Implementation(inProcessTransport());
        const byteContract = claimsByteContract(await testeeInfo());
        const r = await runProperty(prop, reference, implementation(), seed, runs, { byteContract, required: requiredHere });
        for (const x of r.removed ?? []) note(`${x.op} taken out of the draw: ${x.reason}`);
        if (r.skipped) note(`${r.skipped} sequence(s) drew an operation taken out of the draw and were not compared`);
        if (r.failure) {
          const c = await buildCase(r, reference, implementation());
          const path = writeCase(process.env['JCP_CASES_DIR'] ?? join(ROOT, 'reports', 'cases'), c);
          const f = c.finding;
          throw new Error(
            `differential/${name}: found after ${r.found_at_run} of ${runs} sequences (seed ${seed}), shrunk in ${r.failure.shrinks} steps to ${c.ops.length} operations.\n` +
              `  ${f.detail}\n  reference:      ${JSON.stringify(f.reference ?? null).slice(0, 300)}\n  implementation: ${JSON.stringify(f.implementation ?? null).slice(0, 300)}\n` +
              `  case: ${path}\n  replay: jcp-conformance replay ${path}   promote: jcp-conformance promote ${path}`,
          );
        }
        // every sequence ran: none was cut short by a failure of the harness itself
        expect(r.runs).toBe(runs);
        // sequences were compared at all: a draw emptied by removed operations is not a pass
        expect(r.skipped ?? 0, 'sequences compared').toBeLessThan(runs);
        if (r.bytes) contract(false, r.bytes);
      },
      Math.max(60_000, runs * 1_500),
    );
  }
});
