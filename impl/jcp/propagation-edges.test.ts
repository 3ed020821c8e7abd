// jcp §4.3 Propagation, edges of impl/jcp/propagation.ts: the refusals of the auditor's verdict and of a marker's
// advance (ERR_BAD_ARGUMENT with the message naming which marker is wrong and why), and the uint64 bounds of a marker.
import { describe, expect, it } from 'vitest';
import { messageOf, thrown } from '../_test-support.ts';
import { advanceMarker, auditAllowAgainstRevocation } from './propagation.ts';

const U64_MAX = (1n << 64n) - 1n;

describe('jcp §4.3 auditor verdict: refusals name what is wrong', () => {
  it('a revocation marker that is not a uint is refused, named as the revocation marker', () => {
    for (const bad of [-1n, 1n << 64n, 10 as unknown as bigint]) {
      const e = thrown(() => auditAllowAgainstRevocation(bad, { verdict: 'allow', known_through: 3n }));
      expect(e.code).toBe('ERR_BAD_ARGUMENT');
      expect(e.message).toBe('ERR_BAD_ARGUMENT: the revocation marker must be an unsigned 64-bit integer marker');
      expect(e.detail).toEqual({ what: 'the revocation marker' });
    }
  });

  it("a point's known_through that is not a uint is refused, named as known_through", () => {
    for (const bad of [-2n, 1n << 64n]) {
      const e = thrown(() => auditAllowAgainstRevocation(10n, { verdict: 'allow', known_through: bad }));
      expect(e.code).toBe('ERR_BAD_ARGUMENT');
      expect(e.message).toBe('ERR_BAD_ARGUMENT: known_through must be an unsigned 64-bit integer marker');
      expect(e.detail).toEqual({ what: 'known_through' });
    }
  });

  it('a deny is not audited against a revocation, and the refusal says what verdict it got', () => {
    const e = thrown(() => auditAllowAgainstRevocation(10n, { verdict: 'deny', known_through: 3n }));
    expect(e.code).toBe('ERR_BAD_ARGUMENT');
    expect(e.message).toBe('ERR_BAD_ARGUMENT: only an allow is audited against a revocation, got deny');
  });

  it('markers at the uint64 bounds are accepted: 0 and 2^64-1', () => {
    expect(auditAllowAgainstRevocation(U64_MAX, { verdict: 'allow', known_through: U64_MAX - 1n })).toBe('explicable');
    expect(auditAllowAgainstRevocation(U64_MAX, { verdict: 'allow', known_through: U64_MAX })).toBe('violation');
    expect(auditAllowAgainstRevocation(1n, { verdict: 'allow', known_through: 0n })).toBe('explicable');
  });
});

describe('jcp §4.3 a marker is monotonic: refusals name what is wrong', () => {
  it('a next marker that is not a uint is refused, named as the next marker', () => {
    for (const bad of [-1n, 1n << 64n]) {
      const e = thrown(() => advanceMarker(undefined, bad));
      expect(e.code).toBe('ERR_BAD_ARGUMENT');
      expect(e.message).toBe('ERR_BAD_ARGUMENT: the next marker must be an unsigned 64-bit integer marker');
      expect(e.detail).toEqual({ what: 'the next marker' });
    }
  });

  it('a current marker that is not a uint is refused, named as the current marker', () => {
    const e = thrown(() => advanceMarker(-1n, 5n));
    expect(e.code).toBe('ERR_BAD_ARGUMENT');
    expect(e.message).toBe('ERR_BAD_ARGUMENT: the current marker must be an unsigned 64-bit integer marker');
    expect(e.detail).toEqual({ what: 'the current marker' });
  });

  it('going back by one is refused with both markers in the message; the bounds themselves advance', () => {
    const e = thrown(() => advanceMarker(7n, 6n));
    expect(e.code).toBe('ERR_BAD_ARGUMENT');
    expect(messageOf(() => advanceMarker(7n, 6n))).toBe('ERR_BAD_ARGUMENT: a revocation marker is monotonic: 6 would go back from 7');
    expect(advanceMarker(0n, 0n)).toBe(0n);
    expect(advanceMarker(U64_MAX - 1n, U64_MAX)).toBe(U64_MAX);
  });
});
