// Unit tests of sealReceipt (impl/receipt/seal.ts): jcp §8 "Implementations MUST NOT mint jcp/1" and "A conforming
// implementation MUST include it" (payload_hash), enforced at the one minting function.
import { describe, expect, it } from 'vitest';
import { allowedDecision, codeOf, lazyKey } from '../_test-support.ts';
import type { ReceiptCoreV2 } from './core.ts';
import { sealReceipt } from './seal.ts';
import { verifyReceipt } from './verify.ts';

const mallory = lazyKey('mallory');
const steward = lazyKey('steward');

function realCore(): ReceiptCoreV2 {
  return allowedDecision(3).core;
}

describe('sealReceipt', () => {
  it('refuses to mint jcp/1, a jcp/2 core without payload_hash, and a core naming another steward', () => {
    const core = realCore();
    expect(verifyReceipt(sealReceipt(core, steward), { steward: steward.did }).core.jcp_receipt).toBe('jcp/2');
    expect(codeOf(() => sealReceipt({ ...core, jcp_receipt: 'jcp/1' } as unknown as ReceiptCoreV2, steward))).toBe('ERR_BAD_ARGUMENT');
    const noPayload = { ...core } as Record<string, unknown>;
    delete noPayload['payload_hash'];
    expect(codeOf(() => sealReceipt(noPayload as unknown as ReceiptCoreV2, steward))).toBe('ERR_BAD_ARGUMENT');
    expect(codeOf(() => sealReceipt(core, mallory))).toBe('ERR_BAD_ARGUMENT');
  });
});
