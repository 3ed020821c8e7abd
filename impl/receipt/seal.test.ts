// Unit tests of sealReceipt (impl/receipt/seal.ts): jcp §8 "Implementations MUST NOT mint jcp/1" and "A conforming
// implementation MUST include it" (payload_hash), enforced at the one minting function, each refusal saying what was wrong.
import { describe, expect, it } from 'vitest';
import { allowedDecision, lazyKey, thrown } from '../_test-support.ts';
import type { ReceiptCoreV2 } from './core.ts';
import { sealReceipt } from './seal.ts';
import { verifyReceipt } from './verify.ts';

const mallory = lazyKey('mallory');
const steward = lazyKey('steward');

function realCore(): ReceiptCoreV2 {
  return allowedDecision(3).core;
}

describe('sealReceipt', () => {
  it('seals a jcp/2 core that verifies under its steward', () => {
    expect(verifyReceipt(sealReceipt(realCore(), steward), { steward: steward.did }).core.jcp_receipt).toBe('jcp/2');
  });

  it('refuses to mint jcp/1, a jcp/2 core without payload_hash, and a core naming another steward', () => {
    const core = realCore();
    const { payload_hash: _p, ...noPayload } = core;
    const cases: [string, () => unknown, string[]][] = [
      // jcp §8: "Implementations MUST NOT mint jcp/1."
      ['jcp/1', () => sealReceipt({ ...core, jcp_receipt: 'jcp/1' } as unknown as ReceiptCoreV2, steward), ['mints only jcp/2', 'not jcp/1']],
      // jcp §8: payload_hash — "A conforming implementation MUST include it."
      ['no payload_hash', () => sealReceipt(noPayload as unknown as ReceiptCoreV2, steward), ['must carry payload_hash']],
      // jcp §8: "steward = the signer's id (the COSE kid)": both keys named
      ['another steward', () => sealReceipt(core, mallory), [steward.did, mallory.did]],
    ];
    for (const [name, fn, says] of cases) {
      const e = thrown(fn);
      expect(e.code, name).toBe('ERR_BAD_ARGUMENT');
      for (const s of says) expect(e.message, name).toContain(s);
    }
  });
});
