// Unit tests of verifyReceipt's own API (impl/receipt/verify.ts): the maxBytes option and junk in place of bytes.
// The protocol-level refusals live in harness/conformance/receipt.test.ts.
import { describe, expect, it } from 'vitest';
import { isJcpError } from '../errors.ts';
import { deriveSeed, keyPairFromSeed } from '../identity/ed25519.ts';
import { contentId } from '../jcp/content-id.ts';
import { createEnforcementPoint } from '../jcp/enforcement-point.ts';
import { grantId, mintGrant } from '../jcp/grant.ts';
import { verifyReceipt } from './verify.ts';

const alice = keyPairFromSeed(deriveSeed('alice'));
const bob = keyPairFromSeed(deriveSeed('bob'));
const steward = keyPairFromSeed(deriveSeed('steward'));

function codeOf(fn: () => unknown): string {
  try {
    fn();
    return 'accepted';
  } catch (e) {
    return isJcpError(e) ? e.code : 'not a JcpError';
  }
}

function realReceipt(): Uint8Array {
  const resource = contentId({ resource: 'tool:search' });
  const sg = mintGrant(alice, { subject: bob.did, resource, actions: ['call'], budget_uj: 1000n, nonce: new Uint8Array(16).fill(4) });
  const frame = { kind: 'tool-call', trust: 'control', grant_id: grantId(sg.grant), action: 'call', resource, payload_hash: contentId({ payload: 'args' }) } as const;
  return createEnforcementPoint({ steward }).decide({ frame, chain: [sg], caller: bob.did, cost: { uj: 42n, provenance: 'HwShunt' }, now_s: 1n }).receipt;
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
