// Unit tests of verifyReceipt's own API (impl/receipt/verify.ts): the maxBytes option and junk in place of bytes.
// The protocol-level refusals live in harness/conformance/receipt.test.ts.
import { describe, expect, it } from 'vitest';
import { allowedDecision, codeOf } from '../_test-support.ts';
import { deriveSeed, keyPairFromSeed } from '../identity/ed25519.ts';
import { verifyReceipt } from './verify.ts';

const steward = keyPairFromSeed(deriveSeed('steward'));

function realReceipt(): Uint8Array {
  return allowedDecision(4).receipt;
}

describe('verifyReceipt options and inputs', () => {
  it('honours maxBytes: a receipt one byte over the cap is refused ERR_COSE_TOO_LARGE, at the cap it verifies', () => {
    const r = realReceipt();
    expect(codeOf(() => verifyReceipt(r, { maxBytes: r.length - 1 }))).toBe('ERR_COSE_TOO_LARGE');
    expect(verifyReceipt(r, { maxBytes: r.length }).core.steward).toBe(steward.did);
    expect(codeOf(() => verifyReceipt(new Uint8Array(64 * 1024 + 1)))).toBe('ERR_COSE_TOO_LARGE');
  });

  it('refuses a value that is not bytes with ERR_COSE_MALFORMED', () => {
    expect(codeOf(() => verifyReceipt('not bytes' as never))).toBe('ERR_COSE_MALFORMED');
    expect(codeOf(() => verifyReceipt(undefined as never))).toBe('ERR_COSE_MALFORMED');
  });
});
