// jcp §4.3 Propagation: the auditor's verdict on an allow, from the revocation's marker M and the point's known_through.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { codeOf } from '../_test-support.ts';
import { advanceMarker, auditAllowAgainstRevocation } from './propagation.ts';

describe('jcp §4.3 revocation markers and the auditor verdict', () => {
  it('known_through < M is explicable, known_through >= M is a violation (boundary at M itself)', () => {
    expect(auditAllowAgainstRevocation(10n, { verdict: 'allow', known_through: 9n })).toBe('explicable');
    expect(auditAllowAgainstRevocation(10n, { verdict: 'allow', known_through: 10n })).toBe('violation');
    expect(auditAllowAgainstRevocation(10n, { verdict: 'allow', known_through: 11n })).toBe('violation');
    expect(auditAllowAgainstRevocation(0n, { verdict: 'allow', known_through: 0n })).toBe('violation');
  });

  it('a point that states no marker is unverifiable for revocation, never compliant', () => {
    expect(auditAllowAgainstRevocation(10n, { verdict: 'allow' })).toBe('unverifiable-for-revocation');
    expect(auditAllowAgainstRevocation(0n, { verdict: 'allow' })).toBe('unverifiable-for-revocation');
  });

  it('the verdict is exactly the order of the two markers (property, fixed seed)', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: 0n, max: (1n << 64n) - 1n }), fc.bigInt({ min: 0n, max: (1n << 64n) - 1n }), (m, k) => {
        expect(auditAllowAgainstRevocation(m, { verdict: 'allow', known_through: k })).toBe(k < m ? 'explicable' : 'violation');
      }),
      { seed: 0x4a4350, numRuns: 300 },
    );
  });

  it('refuses to audit a deny, and markers that are not uints', () => {
    expect(codeOf(() => auditAllowAgainstRevocation(10n, { verdict: 'deny', known_through: 3n }))).toBe('ERR_BAD_ARGUMENT');
    expect(codeOf(() => auditAllowAgainstRevocation(-1n, { verdict: 'allow', known_through: 3n }))).toBe('ERR_BAD_ARGUMENT');
    expect(codeOf(() => auditAllowAgainstRevocation(1n << 64n, { verdict: 'allow' }))).toBe('ERR_BAD_ARGUMENT');
    expect(codeOf(() => auditAllowAgainstRevocation(10n, { verdict: 'allow', known_through: -2n }))).toBe('ERR_BAD_ARGUMENT');
    expect(codeOf(() => auditAllowAgainstRevocation(10 as unknown as bigint, { verdict: 'allow' }))).toBe('ERR_BAD_ARGUMENT');
  });

  it('a marker only grows', () => {
    expect(advanceMarker(undefined, 5n)).toBe(5n);
    expect(advanceMarker(5n, 5n)).toBe(5n);
    expect(advanceMarker(5n, 7n)).toBe(7n);
    expect(codeOf(() => advanceMarker(7n, 6n))).toBe('ERR_BAD_ARGUMENT');
  });
});
