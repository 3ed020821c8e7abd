// Junk thrown at every public entry point (STYLE.md): wrong types, look-alike objects, huge numbers. Each is refused
// with a JcpError and a stable code — never a TypeError, never a silent accept — and no state changes.
import { describe, expect } from 'vitest';
import {
  attenuate,
  grantId,
  isJcpError,
  mintRevocation,
  parseSignedGrant,
  parseSignedRevocation,
  verifyGrantSignature,
  verifyReceipt,
} from '../../impl/index.ts';
import { clauseIt } from '../clause.ts';
import { alice, bob, carol, cost, frameFor, nonce, point, rootGrant } from '../fixtures.ts';

function outcome(fn: () => unknown): string {
  try {
    fn();
    return 'accepted';
  } catch (e) {
    return isJcpError(e) ? e.code : `crash: ${String(e)}`;
  }
}

const JUNK: unknown[] = [undefined, null, 0, -1, NaN, Infinity, 2 ** 64, 1n << 70n, '', 'x', {}, [], [[]], new Uint8Array(3), { grant: {} }, () => 1, Symbol('s'), new Map(), new Date(0)];

describe('junk at the boundary', () => {
  const g = rootGrant({ nonce: nonce('junk') });
  const good = { frame: frameFor(g), chain: [g], caller: bob.did, cost: cost(1n), now_s: 1n };

  clauseIt(['jcp/7#checks-in-order'], 'decide refuses junk requests with ERR_BAD_ARGUMENT and debits nothing', () => {
    const p = point();
    const variants: unknown[] = [
      ...JUNK,
      { ...good, chain: [] },
      { ...good, chain: [null] },
      { ...good, chain: [{ grant: null, signature: new Uint8Array(64) }] },
      { ...good, frame: null },
      { ...good, frame: { ...good.frame, trust: 1 } },
      { ...good, caller: 5 },
      { ...good, cost: { uj: 1, provenance: 'Estimator' } },
      { ...good, cost: { uj: -1n, provenance: 'Estimator' } },
      { ...good, cost: { uj: 1n << 64n, provenance: 'Estimator' } },
      { ...good, cost: { uj: 1n, provenance: 'Guess' } },
      { ...good, cost: { uj: 1n, provenance: 'HwShunt', coverage: 'Whole' } },
      { ...good, now_s: 1 },
    ];
    for (const v of variants) expect(outcome(() => p.decide(v as never))).toBe('ERR_BAD_ARGUMENT');
    expect(p.spent(grantId(g.grant))).toBe(0n);
    expect(p.decide(good).verdict).toBe('allow');
  });

  clauseIt(['jcp/4#grant-id-and-signature', 'jcp/11#reject-non-canonical'], 'parsers refuse junk values with their malformed codes', () => {
    for (const v of JUNK) {
      expect(outcome(() => parseSignedGrant(v as never))).toBe('ERR_GRANT_MALFORMED');
      expect(outcome(() => parseSignedRevocation(v as never))).toBe('ERR_REVOCATION_MALFORMED');
      expect(['ERR_COSE_MALFORMED', 'ERR_COSE_TOO_LARGE']).toContain(outcome(() => verifyReceipt(v as never)));
    }
  });

  clauseIt(['jcp/4.3#verify-revocation-authority', 'jcp/4.1#refuse-non-holder'], 'revoke and attenuate refuse junk without changing state', () => {
    const p = point();
    const r = mintRevocation(alice, grantId(g.grant), nonce('junk-rev'));
    for (const v of [null, {}, { revocation: null, signature: new Uint8Array(64) }]) {
      expect(outcome(() => p.revoke(v as never, g)).startsWith('crash')).toBe(false);
    }
    expect(outcome(() => p.revoke(r, { grant: {} } as never)).startsWith('crash')).toBe(false);
    expect(p.isRevoked(grantId(g.grant))).toBe(false);
    expect(outcome(() => attenuate(g, bob, { subject: 'not a did', nonce: nonce('j1') }))).toBe('ERR_GRANT_MALFORMED');
    expect(outcome(() => attenuate(g, bob, { subject: carol.did, budget_uj: 5.5 as never, nonce: nonce('j2') }))).toBe('ERR_CBOR_UNENCODABLE');
    expect(outcome(() => attenuate(g, bob, { subject: carol.did, nonce: new Uint8Array(2) }))).toBe('ERR_GRANT_MALFORMED');
    expect(verifyGrantSignature({ grant: g.grant, signature: new Uint8Array(3) })).toBe(false);
  });
});
