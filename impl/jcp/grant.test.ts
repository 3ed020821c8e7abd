// Unit tests of the reference's grant API where the check is about impl's own functions, not about behaviour that
// crosses the testee protocol (those live in harness/conformance/grant.test.ts).
import { describe, expect, it } from 'vitest';
import { codeOf, lazyKey } from '../_test-support.ts';
import { toHex } from '../bytes.ts';
import { contentId } from './content-id.ts';
import { grantBytes, mintGrant, type RootGrantFields } from './grant.ts';

const alice = lazyKey('alice');
const bob = lazyKey('bob');
const fields: RootGrantFields = {
  subject: bob.did,
  resource: contentId({ resource: 'tool:search' }),
  actions: ['call', 'read'],
  budget_uj: 1000n,
  nonce: new Uint8Array(16).fill(7),
};

describe('mintGrant', () => {
  it('refuses a budget no CBOR uint can hold, and a negative one, with typed errors', () => {
    // 2^64 is past the largest CBOR unsigned integer: the encoder refuses it before anything is signed
    expect(codeOf(() => mintGrant(alice, { ...fields, budget_uj: 1n << 64n }))).toBe('ERR_CBOR_UNENCODABLE');
    expect(codeOf(() => mintGrant(alice, { ...fields, budget_uj: -1n }))).toBe('ERR_GRANT_MALFORMED');
    expect(codeOf(() => mintGrant(alice, { ...fields, budget_uj: (1n << 64n) - 1n }))).toBe('accepted');
  });

  it('encodes an empty caveat list exactly as no caveat list (jcp §4.9)', () => {
    const g = mintGrant(alice, fields).grant;
    expect(toHex(grantBytes({ ...g, caveats: [] }))).toBe(toHex(grantBytes(g)));
    expect(mintGrant(alice, { ...fields, caveats: [] }).grant).not.toHaveProperty('caveats');
  });
});
