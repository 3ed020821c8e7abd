// Edges of the reference's revocation feed (jcp §4.3 Propagation, impl/jcp/revocation-feed.ts): issue refuses, with
// ERR_BAD_ARGUMENT and nothing entered in the log, anything that is not a signed revocation and the signed grant it names.
import { describe, expect, it } from 'vitest';
import { lazy, lazyKey, thrown, TOOL_RESOURCE } from '../_test-support.ts';
import { createEnforcementPoint } from './enforcement-point.ts';
import { grantId, mintGrant } from './grant.ts';
import { mintRevocation } from './revocation.ts';
import { createRevocationFeed } from './revocation-feed.ts';
import type { SignedGrant, SignedRevocation } from './types.ts';

const alice = lazyKey('alice');
const bob = lazyKey('bob');
const steward = lazyKey('steward');
const g1 = lazy(() => mintGrant(alice, { subject: bob.did, resource: TOOL_RESOURCE, actions: ['call'], budget_uj: 10n, nonce: new Uint8Array(16).fill(4) }));
const rev = () => mintRevocation(alice, grantId(g1.grant), new Uint8Array(16).fill(7));

const MESSAGE = 'ERR_BAD_ARGUMENT: issue takes a signed revocation and the signed grant it names';

describe('the revocation feed refuses what is not a revocation and its grant (jcp §4.3 propagation)', () => {
  const cases: [string, () => [SignedRevocation, SignedGrant]][] = [
    ['a grant that is a string', () => [rev(), 'grant' as never]],
    ['a grant that is a number', () => [rev(), 7 as never]],
    ['a grant that is null', () => [rev(), null as never]],
    ['a revocation that is a string', () => ['revocation' as never, g1]],
    ['a revocation that is null', () => [null as never, g1]],
    ['a revocation that is undefined', () => [undefined as never, g1]],
  ];
  for (const [what, args] of cases) {
    it(`refuses ${what} with ERR_BAD_ARGUMENT and enters nothing`, () => {
      const f = createRevocationFeed();
      const [r, g] = args();
      const e = thrown(() => f.issue(r, g));
      expect(e.code).toBe('ERR_BAD_ARGUMENT');
      expect(e.message).toBe(MESSAGE);
      expect(f.length).toBe(0n);
      // a point delivered to afterwards has nothing to apply
      const p = createEnforcementPoint({ steward });
      expect(f.deliver(p)).toBe(0n);
      expect(f.knownThrough(p)).toBe(0n);
    });
  }

  it('after a refusal the next valid revocation is still issued at index 1', () => {
    const f = createRevocationFeed();
    expect(thrown(() => f.issue(rev(), 'grant' as never)).message).toBe(MESSAGE);
    expect(f.issue(rev(), g1)).toBe(1n);
    expect(f.length).toBe(1n);
  });
});
