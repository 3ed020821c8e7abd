// jcp §5.2 (C9): totals over efficiency/1 receipts. A total summed from receipts of which any is Partial is Partial and
// gives no per-unit energy figure; its provenance is the floor of the receipts' (CHANGE-NOTES: aggregation "is never a
// step at which a grade improves"); every payload is read as a verifier reads it, so a Partial payload carrying the
// headline, or a coverage value other than "Partial", refuses the whole total rather than being summed.
import fc from 'fast-check';
import { describe, expect } from 'vitest';
import { clauseIt } from '../clause.ts';
import { implementation } from '../driver.ts';
import { fcParams } from '../external-vectors.ts';
import { assertProperty, expectCode } from '../refusal.ts';

const NO_PER_UNIT = 'jcp/5.2#partial-total-no-per-unit';
const REFUSE_HEADLINE = 'jcp/5.2#verifier-refuses-partial-per-token';
const ONE_VALUE = 'jcp/5.2#intercept-coverage-one-value';
const PROVENANCES = ['HwShunt', 'ModelBased', 'Estimator'] as const; // best first (jcp §5.1)

type Payload = { energy_uj: bigint; provenance: string; energy_coverage?: 'Partial'; accepted_tokens?: bigint };
const whole = (energy_uj: bigint, provenance = 'HwShunt'): Payload => ({ energy_uj, provenance, accepted_tokens: 10n });
const partial = (energy_uj: bigint, provenance = 'HwShunt'): Payload => ({ energy_uj, provenance, energy_coverage: 'Partial', accepted_tokens: 10n });

describe('totals over efficiency/1 receipts (jcp §5.2)', () => {
  clauseIt([NO_PER_UNIT], 'a total over Whole receipts sums them and gives the per-unit figure', async () => {
    const t = await implementation().energyEfficiencyTotals([whole(1000n), whole(2000n, 'ModelBased')], 4n);
    expect(t).toEqual({ energy_uj: 3000n, provenance_floor: 'ModelBased', units: 4n, uj_per_unit: 750n });
  });

  clauseIt([NO_PER_UNIT], 'one Partial receipt makes the total Partial, with no per-unit figure', async () => {
    const t = await implementation().energyEfficiencyTotals([whole(1000n), partial(2000n), whole(500n)], 4n);
    expect(t).toEqual({ energy_uj: 3500n, provenance_floor: 'HwShunt', coverage: 'Partial', units: 4n });
  });

  clauseIt([NO_PER_UNIT], 'over random receipt sets: the sum, the provenance floor, Partial if any is, per-unit only when all are Whole', async () => {
    const impl = implementation();
    const receipt = fc.record({ uj: fc.bigInt({ min: 0n, max: 10n ** 12n }), p: fc.constantFrom(...PROVENANCES), partial: fc.boolean() });
    await assertProperty(
      fc.asyncProperty(fc.array(receipt, { minLength: 1, maxLength: 6 }), fc.bigInt({ min: 1n, max: 1000n }), async (rs, units) => {
        const t = await impl.energyEfficiencyTotals(rs.map((r) => (r.partial ? partial(r.uj, r.p) : whole(r.uj, r.p))), units);
        const sum = rs.reduce((s, r) => s + r.uj, 0n);
        const floor = PROVENANCES[Math.max(...rs.map((r) => PROVENANCES.indexOf(r.p)))]!;
        const anyPartial = rs.some((r) => r.partial);
        expect(t).toEqual({ energy_uj: sum, provenance_floor: floor, units, ...(anyPartial ? { coverage: 'Partial' } : { uj_per_unit: sum / units }) });
      }),
      fcParams(60),
    );
  });

  clauseIt([REFUSE_HEADLINE, NO_PER_UNIT], 'a Partial receipt carrying uj_per_accepted_token is refused, not summed', async () => {
    const bad = { ...partial(2000n), uj_per_accepted_token: 200n };
    await expectCode(implementation().energyEfficiencyTotals([whole(1000n), bad], 4n), 'ERR_EFFICIENCY_PARTIAL_HEADLINE');
  });

  clauseIt([ONE_VALUE, NO_PER_UNIT], 'a receipt whose coverage is "Whole" (or any value but "Partial") is refused, not read either way', async () => {
    for (const v of ['Whole', 'partial', '']) {
      await expectCode(implementation().energyEfficiencyTotals([whole(1000n), { ...whole(5n), energy_coverage: v as 'Partial' }], 4n), 'ERR_ENERGY_COVERAGE_VALUE');
    }
  });
});
