// Unit tests of sealReceipt (impl/receipt/seal.ts): jcp §8 "Implementations MUST NOT mint jcp/1" and "A conforming
// implementation MUST include it" (payload_hash), enforced at the one minting function.
import { describe, expect, it } from 'vitest';
import { isJcpError } from '../errors.ts';
import { deriveSeed, keyPairFromSeed } from '../identity/ed25519.ts';
import { contentId } from '../jcp/content-id.ts';
import { createEnforcementPoint } from '../jcp/enforcement-point.ts';
import { grantId, mintGrant } from '../jcp/grant.ts';
import type { ReceiptCoreV2 } from './core.ts';
import { sealReceipt } from './seal.ts';
import { verifyReceipt } from './verify.ts';

const alice = keyPairFromSeed(deriveSeed('alice'));
const bob = keyPairFromSeed(deriveSeed('bob'));
const mallory = keyPairFromSeed(deriveSeed('mallory'));
const steward = keyPairFromSeed(deriveSeed('steward'));

function codeOf(fn: () => unknown): string {
  try {
    fn();
    return 'accepted';
  } catch (e) {
    return isJcpError(e) ? e.code : 'not a JcpError';
  }
}

function realCore(): ReceiptCoreV2 {
  const resource = contentId({ resource: 'tool:search' });
  const sg = mintGrant(alice, { subject: bob.did, resource, actions: ['call'], budget_uj: 1000n, nonce: new Uint8Array(16).fill(3) });
  const frame = { kind: 'tool-call', trust: 'control', grant_id: grantId(sg.grant), action: 'call', resource, payload_hash: contentId({ payload: 'args' }) } as const;
  return createEnforcementPoint({ steward }).decide({ frame, chain: [sg], caller: bob.did, cost: { uj: 42n, provenance: 'HwShunt' }, now_s: 1n }).core;
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
