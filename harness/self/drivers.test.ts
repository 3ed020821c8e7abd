// Self-tests of the harness's drivers: the same answers in-process and from the reference run as a separate process.
import { describe, expect, it } from 'vitest';
import { Implementation } from '../implementation.ts';
import { inProcessTransport } from '../drivers/in-process.ts';
import { testeeTransport } from '../drivers/testee.ts';
import { alice, bob, frameFor, nonce, steward, TOOL } from '../fixtures.ts';

export const REFERENCE_TESTEE = 'node --import tsx harness/adapter/testee-main.ts';

async function scenario(impl: Implementation) {
  const info = await impl.info();
  const g = await impl.mintGrant(alice.seed, { subject: bob.did, resource: TOOL, actions: ['call'], budget_uj: 100n, nonce: nonce('smoke') });
  const p = await impl.newPoint(steward.seed);
  const d = await p.decide({ frame: frameFor(g), chain: [g.signed_grant], caller: bob.did, cost: { uj: 7n, provenance: 'Estimator' }, now_s: 1n });
  const core = await impl.verifyReceipt(d.receipt, steward.did);
  return { info, g, d, core, spent: await p.spent(g.grant_id) };
}

describe('drivers', () => {
  it('in-process and subprocess reference give the same bytes', async () => {
    const a = await scenario(new Implementation(inProcessTransport()));
    const t = testeeTransport(REFERENCE_TESTEE);
    try {
      const b = await scenario(new Implementation(t));
      expect(b.info).toEqual(a.info);
      expect(Buffer.from(b.g.signed_grant).equals(Buffer.from(a.g.signed_grant))).toBe(true);
      expect(Buffer.from(b.d.receipt).equals(Buffer.from(a.d.receipt))).toBe(true);
      expect(b.core).toEqual(a.core);
      expect(a.spent).toBe(7n);
      expect(b.spent).toBe(7n);
    } finally {
      await t.close();
    }
  }, 30_000);
});
