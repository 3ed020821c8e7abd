// Conformance: jcp §4 grants (C1), §4.1 attenuation (C2), §4.4 delegation control (C10), §4.5 sharding (C11).
import { describe, expect } from 'vitest';
import {
  attenuate,
  decodeSignedGrant,
  encodeCanonical,
  grantBytes,
  grantId,
  isJcpError,
  mintGrant,
  shard,
  signedGrantToCbor,
  verifyGrantSignature,
  type Grant,
  type JcpErrorCode,
} from '../../impl/index.ts';
import { blake3 } from '../../impl/hash/blake3.ts';
import { toHex } from '../../impl/bytes.ts';
import { clauseIt } from '../clause.ts';
import { alice, bob, carol, dave, mallory, nonce, rootGrant, TOOL } from '../fixtures.ts';

function codeOf(fn: () => unknown): JcpErrorCode | 'no error' | 'not a JcpError' {
  try {
    fn();
    return 'no error';
  } catch (e) {
    return isJcpError(e) ? e.code : 'not a JcpError';
  }
}

describe('jcp §4 grants', () => {
  clauseIt(['jcp/4#grant-id-and-signature', 'jcp/3#content-id-blake3'], 'the grant id is blake3 of the canonical bytes, lowercase hex', () => {
    const sg = rootGrant();
    expect(grantId(sg.grant)).toBe(toHex(blake3(grantBytes(sg.grant))));
    expect(grantId(sg.grant)).toMatch(/^[0-9a-f]{64}$/);
    // the signature is over the same canonical bytes the id hashes
    expect(verifyGrantSignature(sg)).toBe(true);
  });

  clauseIt(['jcp/4#grant-id-and-signature', 'jcp/2#actor-proves-by-signing'], "a grant verifies only under its issuer's key", () => {
    const sg = rootGrant();
    // mallory re-signs alice's grant: the issuer field still names alice, so it must not verify
    const forged = { grant: sg.grant, signature: mintGrant(mallory, { subject: bob.did, resource: TOOL, actions: ['call'], budget_uj: 1n, nonce: nonce('x') }).signature };
    expect(verifyGrantSignature(forged)).toBe(false);
    // alice's signature does not carry over to a grant with any field changed
    const claimed: Grant = { ...sg.grant, budget_uj: 999_999n };
    expect(verifyGrantSignature({ grant: claimed, signature: sg.signature })).toBe(false);
  });

  clauseIt(['jcp/4#absent-optional-omitted'], 'absent optional fields are omitted from the canonical encoding, never null', () => {
    const sg = rootGrant();
    const m = decodeSignedGrant(encodeCanonical(signedGrantToCbor(sg)));
    expect(m.grant).not.toHaveProperty('parent');
    expect(m.grant).not.toHaveProperty('budget_funds');
    expect(m.grant).not.toHaveProperty('caveats');
    expect(m.grant).not.toHaveProperty('delegate_depth');
    // the canonical bytes hold exactly the six required keys: issuer, subject, capability, budget_uj, expiry, nonce
    const bytes = grantBytes(sg.grant);
    expect(bytes[0]).toBe(0xa0 + 6);
    // an empty caveat list encodes exactly as no caveat list (jcp §4.9)
    const withEmpty: Grant = { ...sg.grant, caveats: [] };
    expect(toHex(grantBytes(withEmpty))).toBe(toHex(bytes));
  });

  clauseIt(['jcp/4#resource-by-content', 'jcp/3#content-id-blake3'], 'a resource must be a content id; a URL or upper-case hex is refused', () => {
    for (const bad of ['https://tool.example/search', TOOL.toUpperCase(), TOOL.slice(2), '']) {
      expect(codeOf(() => rootGrant({ resource: bad }))).toBe('ERR_GRANT_MALFORMED');
    }
  });

  clauseIt(['jcp/4#grant-id-and-signature'], 'a malformed grant is refused at the boundary with a typed error', () => {
    expect(codeOf(() => rootGrant({ subject: 'did:key:nope' }))).toBe('ERR_GRANT_MALFORMED');
    expect(codeOf(() => rootGrant({ nonce: new Uint8Array(15) }))).toBe('ERR_GRANT_MALFORMED');
    expect(codeOf(() => rootGrant({ budget_uj: -1n }))).toBe('ERR_GRANT_MALFORMED');
    expect(codeOf(() => rootGrant({ budget_uj: 1n << 64n }))).toBe('ERR_CBOR_UNENCODABLE');
    expect(codeOf(() => decodeSignedGrant(new Uint8Array([0xa0])))).toBe('ERR_GRANT_MALFORMED');
    expect(codeOf(() => decodeSignedGrant(new Uint8Array([0xa1, 0x61, 0x78, 0xf5])))).toBe('ERR_CBOR_SIMPLE_VALUE');
  });
});

describe('jcp §4.1 attenuation', () => {
  const parent = rootGrant({ expiry: 2000n, delegate_depth: 3n });

  clauseIt(['jcp/4.1#child-strictly-weaker'], 'a narrowing child is minted, issued by the holder, linked to its parent', () => {
    const child = attenuate(parent, bob, { subject: carol.did, actions: ['read'], budget_uj: 400n, expiry: 1500n, nonce: nonce('c') });
    expect(child.grant.issuer).toBe(bob.did);
    expect(child.grant.parent).toBe(grantId(parent.grant));
    expect(child.grant.capability.actions).toEqual(['read']);
    expect(child.grant.delegate_depth).toBe(2n);
    expect(verifyGrantSignature(child)).toBe(true);
  });

  clauseIt(['jcp/4.1#refuse-amplification', 'jcp/4.1#child-strictly-weaker'], 'every amplification is refused, naming its axis', () => {
    const axisOf = (f: () => unknown): string => {
      try {
        f();
        return 'accepted';
      } catch (e) {
        return isJcpError(e, 'ERR_ATTENUATION_VIOLATION') ? String(e.detail?.['axis']) : `other: ${String(e)}`;
      }
    };
    expect(axisOf(() => attenuate(parent, bob, { subject: carol.did, actions: ['call', 'delete'], nonce: nonce('a') }))).toBe('actions');
    expect(axisOf(() => attenuate(parent, bob, { subject: carol.did, budget_uj: 1001n, nonce: nonce('b') }))).toBe('budget');
    expect(axisOf(() => attenuate(parent, bob, { subject: carol.did, delegate_depth: 3n, nonce: nonce('d') }))).toBe('depth');
    // a child with budget equal to its parent's is not an amplification
    expect(attenuate(parent, bob, { subject: carol.did, budget_uj: 1000n, nonce: nonce('eq') }).grant.budget_uj).toBe(1000n);
  });

  clauseIt(['jcp/4.1#expiry-not-outlive'], "the child's expiry may not outlive the parent's; 0 means never", () => {
    const axis = (expiry: bigint, p = parent) => {
      try {
        attenuate(p, bob, { subject: carol.did, expiry, nonce: nonce(`e${expiry}`) });
        return 'ok';
      } catch (e) {
        return isJcpError(e, 'ERR_ATTENUATION_VIOLATION') ? String(e.detail?.['axis']) : 'other';
      }
    };
    expect(axis(2001n)).toBe('expiry');
    expect(axis(0n)).toBe('expiry'); // "never expires" outlives 2000
    expect(axis(2000n)).toBe('ok');
    const forever = rootGrant({ expiry: 0n, nonce: nonce('forever') });
    expect(axis(0n, forever)).toBe('ok');
    expect(axis(99_999n, forever)).toBe('ok');
  });

  clauseIt(['jcp/4.1#refuse-non-holder'], "delegation by anyone other than the parent's subject is refused", () => {
    expect(codeOf(() => attenuate(parent, mallory, { subject: mallory.did, nonce: nonce('m') }))).toBe('ERR_NOT_HOLDER');
    // not even the issuer may delegate a grant it gave away
    expect(codeOf(() => attenuate(parent, alice, { subject: carol.did, nonce: nonce('i') }))).toBe('ERR_NOT_HOLDER');
  });
});

describe('jcp §4.4 delegation control', () => {
  clauseIt(['jcp/4.4#depth-narrows'], 'depth narrows per hop: d, d−1, …, 0, then no further hop', () => {
    const root = rootGrant({ delegate_depth: 2n, nonce: nonce('depth2') });
    const c1 = attenuate(root, bob, { subject: carol.did, nonce: nonce('h1') });
    expect(c1.grant.delegate_depth).toBe(1n);
    const c2 = attenuate(c1, carol, { subject: dave.did, nonce: nonce('h2') });
    expect(c2.grant.delegate_depth).toBe(0n);
    expect(codeOf(() => attenuate(c2, dave, { subject: mallory.did, nonce: nonce('h3') }))).toBe('ERR_DELEGATION_FORBIDDEN');
  });

  clauseIt(['jcp/4.4#leaf-only-refused'], 'a leaf-only grant cannot be delegated at mint', () => {
    const leaf = rootGrant({ delegate_depth: 0n, nonce: nonce('leaf') });
    expect(codeOf(() => attenuate(leaf, bob, { subject: carol.did, nonce: nonce('l1') }))).toBe('ERR_DELEGATION_FORBIDDEN');
  });

  clauseIt(['jcp/4.4#depth-narrows'], 'under an unlimited parent a child may carry any depth', () => {
    const root = rootGrant({ nonce: nonce('unlimited') });
    const c = attenuate(root, bob, { subject: carol.did, delegate_depth: 50n, nonce: nonce('u1') });
    expect(c.grant.delegate_depth).toBe(50n);
    expect(attenuate(root, bob, { subject: carol.did, nonce: nonce('u2') }).grant).not.toHaveProperty('delegate_depth');
  });
});

describe('jcp §4.5 sharded budgets', () => {
  clauseIt(['jcp/4.5#shard-refuse-overspend', 'jcp/4.5#holder-must-shard'], 'slices that sum past the parent are refused at mint; slices that fit are minted', () => {
    const root = rootGrant({ nonce: nonce('shard-root') });
    const slices = (a: bigint, b: bigint) => [
      { subject: carol.did, budget_uj: a, nonce: nonce(`s1-${a}`) },
      { subject: dave.did, budget_uj: b, nonce: nonce(`s2-${b}`) },
    ];
    expect(codeOf(() => shard(root, bob, slices(600n, 401n)))).toBe('ERR_SHARD_OVERSPEND');
    const ok = shard(root, bob, slices(600n, 400n));
    expect(ok.map((s) => s.grant.budget_uj)).toEqual([600n, 400n]);
    expect(ok.every((s) => s.grant.parent === grantId(root.grant))).toBe(true);
    // each slice alone fits the parent, but together they do not: the sum is what is refused
    expect(codeOf(() => shard(root, bob, slices(1000n, 1n)))).toBe('ERR_SHARD_OVERSPEND');
    expect(codeOf(() => shard(root, mallory, slices(1n, 1n)))).toBe('ERR_NOT_HOLDER');
  });
});

