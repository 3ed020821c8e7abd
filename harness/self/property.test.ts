// The differential properties, held to planted bugs: each planted-bug testee (mutation/testees/variant-main.ts) is
// found by the differential properties alone — no vector, unit or other conformance test runs here — on the property
// of the class whose rule it breaks, within the default number of sequences; the table printed says after how many
// sequences each property found each testee. And each promoted
// vector (vectors/promoted/, published in the packs as OpSequence) fails its planted-bug testee from the pack alone,
// read from disk, while the reference passes it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildBundle, REFERENCE_TESTEE, variantTestee } from './bundles.ts';
import { join, resolve, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Implementation } from '../implementation.ts';
import { inProcessTransport } from '../drivers/in-process.ts';
import { testeeTransport } from '../drivers/testee.ts';
import { PROPERTIES, PROPERTY_NAMES, runProperty, type PropertyName } from '../property/differential.ts';
import { DEFAULT_RUNS } from '../property/runs.ts';
import { loadPacks, replayVector } from '../../vectors/replay.ts';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const SEED = 0x4a4350; // the suite's default (harness/external-vectors.ts fcParams)

/** Each planted bug, the property of the class whose rule it breaks, and the vector promoted from its case. */
const PLANTED: ReadonlyArray<{ variant: string; property: PropertyName; vector: string }> = [
  { variant: 'debit-on-deny', property: 'decisions', vector: 'seq-budget-exceeded-deny-debits-nothing' },
  { variant: 'drop-inherited-caveat', property: 'caveats', vector: 'seq-child-keeps-parent-caveat' },
  { variant: 'accept-non-canonical', property: 'canonical', vector: 'seq-indefinite-length-grant-refused' },
  { variant: 'no-payload-hash', property: 'receipts', vector: 'seq-receipt-bytes-with-payload-hash' },
];

const testee = (variant?: string) =>
  new Implementation(testeeTransport(variant ? variantTestee(variant) : REFERENCE_TESTEE, { cwd: ROOT, timeoutMs: 20_000 }));
beforeAll(() => Promise.all([buildBundle('reference'), buildBundle('variant')]), 60_000);
const reference = new Implementation(inProcessTransport());
const table: string[] = [];
afterAll(() => {
  if (table.length) console.log(`sequences until found (of ${DEFAULT_RUNS}; - = not found, · = not run), seed ${SEED}:\n${['testee'.padEnd(24) + PROPERTY_NAMES.map((p) => p.padStart(10)).join(''), ...table].join('\n')}`);
});

describe('the differential properties find each planted bug alone, on its class', () => {
  // that the reference (as a testee) is found by none is checked where the whole suite runs against it
  // (harness/self/testees.test.ts, which runs harness/conformance/differential.test.ts too)
  for (const { variant, property } of PLANTED) {
    it(variant, async () => {
      const impl = testee(variant);
      try {
        const found: Partial<Record<PropertyName, number>> = {};
        // the property of its class always; every property with JCP_PROPERTY_TABLE=1 (the closing table: which others
        // also see it — a deny that debits also breaks the spend the caveat, replay and money properties compare)
        for (const name of process.env['JCP_PROPERTY_TABLE'] ? PROPERTY_NAMES : [property]) {
          const r = await runProperty(PROPERTIES[name], reference, impl, SEED, DEFAULT_RUNS);
          if (r.failure) found[name] = r.found_at_run!;
          else expect(r.runs).toBe(DEFAULT_RUNS);
        }
        table.push(variant.padEnd(24) + PROPERTY_NAMES.map((p) => String(found[p] ?? (process.env['JCP_PROPERTY_TABLE'] || p === property ? '-' : '·')).padStart(10)).join(''));
        expect(found[property], `${variant} was not found by differential/${property}`).toBeGreaterThan(0);
      } finally {
        await impl.transport.close();
      }
    }, 240_000);
  }
});

describe('a promoted case fails its planted-bug testee from the vector pack alone', () => {
  const packs = loadPacks(join(ROOT, 'vectors', 'conformance', 'v1'));
  const sequences = packs.flatMap(({ pack }) => pack.testGroups.filter((g) => g.type === 'OpSequence').flatMap((g) => g.tests));
  for (const { variant, vector } of PLANTED) {
    it(`${vector} fails ${variant} and passes the reference`, async () => {
      const t = sequences.find((x) => x.case === vector);
      expect(t, `no OpSequence vector ${vector} in the packs`).toBeDefined();
      expect(await replayVector(reference, 'OpSequence', t!)).toBeUndefined();
      const impl = testee(variant);
      try {
        expect(await replayVector(impl, 'OpSequence', t!)).toMatch(new RegExp(`^tcId ${t!.tcId} \\(${vector}\\): at \\$\\.expected\\.steps\\[\\d+\\]`));
      } finally {
        await impl.transport.close();
      }
    }, 60_000);
  }
});
