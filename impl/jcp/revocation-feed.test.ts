// Unit tests of the reference's revocation propagation path (jcp §4.3, impl/jcp/revocation-feed.ts): entries are
// issued at 1, 2, …, only with verified authority; delivery applies them in order and the point's marker follows.
import { describe, expect, it } from 'vitest';
import { codeOf, lazy, lazyKey, TOOL_RESOURCE } from '../_test-support.ts';
import { createEnforcementPoint } from './enforcement-point.ts';
import { grantId, mintGrant } from './grant.ts';
import { mintRevocation } from './revocation.ts';
import { createRevocationFeed } from './revocation-feed.ts';

const alice = lazyKey('alice');
const bob = lazyKey('bob');
const mallory = lazyKey('mallory');
const steward = lazyKey('steward');
const g1 = lazy(() => mintGrant(alice, { subject: bob.did, resource: TOOL_RESOURCE, actions: ['call'], budget_uj: 10n, nonce: new Uint8Array(16).fill(4) }));
const g2 = lazy(() => mintGrant(alice, { subject: bob.did, resource: TOOL_RESOURCE, actions: ['call'], budget_uj: 11n, nonce: new Uint8Array(16).fill(5) }));
const rev = (g: typeof g1, by = alice) => mintRevocation(by, grantId(g.grant), new Uint8Array(16).fill(7));

describe('the revocation feed (jcp §4.3 propagation)', () => {
  it('issues at the next log index and refuses a revocation without authority', () => {
    const f = createRevocationFeed();
    expect(f.issue(rev(g1), g1)).toBe(1n);
    expect(codeOf(() => f.issue(rev(g2, mallory), g2))).toBe('ERR_REVOCATION_UNAUTHORIZED');
    expect(f.issue(rev(g2), g2)).toBe(2n);
    expect(f.length).toBe(2n);
    expect(codeOf(() => f.issue(rev(g2), null as never))).toBe('ERR_BAD_ARGUMENT');
  });

  it('a point states 0 before delivery, and the index of the last entry applied after', () => {
    const f = createRevocationFeed();
    const p = createEnforcementPoint({ steward });
    const q = createEnforcementPoint({ steward });
    expect(f.knownThrough(p)).toBe(0n);
    f.issue(rev(g1), g1);
    expect(p.isRevoked(grantId(g1.grant))).toBe(false);
    expect(f.deliver(p)).toBe(1n);
    expect(p.isRevoked(grantId(g1.grant))).toBe(true);
    f.issue(rev(g2), g2);
    expect(f.knownThrough(p)).toBe(1n);
    expect(p.isRevoked(grantId(g2.grant))).toBe(false);
    expect(f.deliver(p)).toBe(2n);
    expect(p.isRevoked(grantId(g2.grant))).toBe(true);
    expect(f.deliver(p)).toBe(2n);
    // another point has heard nothing until its own delivery
    expect(f.knownThrough(q)).toBe(0n);
    expect(q.isRevoked(grantId(g1.grant))).toBe(false);
    expect(f.deliver(q)).toBe(2n);
    expect(q.isRevoked(grantId(g1.grant)) && q.isRevoked(grantId(g2.grant))).toBe(true);
  });
});
