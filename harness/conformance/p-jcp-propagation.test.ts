// Conformance: jcp §4.3 Propagation (the suite-defined profile jcp:P-PROPAGATION, spec-map/profiles.json): the
// testee defines how revocations reach its enforcement points, and its auditor reads an allow from a point that states
// no marker as unverifiable for revocation, never as compliant.
//
// What is open and accepted in every reading: the path itself (a log, a push, gossip, a pull — the testee runs its own
// to completion for one point in `propagation.deliver`), whether a point is reached before delivery (a synchronous
// path may deny at once), and whether the points state a marker at all (a SHOULD): every marker check below applies
// only where the testee states one. What the text fixes, and is checked: a stated definition; once the path has run
// for a point, the revocation is held there (§4.3: the point then "MUST deny (revoked)"); a marker is "monotonic", "a
// larger value mean[s] 'has seen at least as much'", so a point that has seen the revocation issued at M states at
// least M and its marker never goes back; and the auditor's verdicts as §4.3 writes them: "an allow from a point at
// known_through < M is explicable and one at known_through >= M is not", and no marker reads unverifiable.
import fc from 'fast-check';
import { describe, expect } from 'vitest';
import { clauseIt } from '../clause.ts';
import { implementation } from '../driver.ts';
import { fcParams } from '../external-vectors.ts';
import { alice, bob, cost, frameFor, nonce, point, rootGrant } from '../fixtures.ts';
import type { Minted, Point } from '../implementation.ts';
import { assertProperty } from '../refusal.ts';

const DEFINE = 'jcp/4.3#define-revocation-propagation';
const NO_MARKER = 'jcp/4.3#no-marker-unverifiable';
const NOW = 1_000n;

const call = (op: string, args: Record<string, unknown>) => implementation()._call(op, args);
const optUint = (v: unknown): bigint | undefined => (v === undefined ? undefined : BigInt(v as bigint | number));

async function decide(p: Point, g: Minted): Promise<string> {
  const d = await p.decide({ frame: frameFor(g), chain: [g.signed_grant], caller: bob.did, cost: cost(10n), now_s: NOW });
  return d.verdict === 'allow' ? 'allow' : (d.deny_reason ?? 'deny');
}

describe('jcp §4.3 propagation: how revocations reach the enforcement points', () => {
  clauseIt([DEFINE], 'the testee states its propagation path, and the path it states brings a revocation to a point', async () => {
    const def = await call('propagation.define', {});
    const path = def.get('path');
    expect(typeof path === 'string' && path.trim().length > 0, 'propagation.define names a path').toBe(true);
    if (def.has('marker')) expect(String(def.get('marker')).trim().length, 'what the marker counts, when stated').toBeGreaterThan(0);

    const g1 = await rootGrant({ nonce: nonce('prop-1'), expiry: 2_000n });
    const g2 = await rootGrant({ nonce: nonce('prop-2'), expiry: 2_000n });
    const p = await point();
    const q = await point();
    const feed = (await call('propagation.feed-new', {})).get('feed') as string;
    expect(await decide(p, g1), 'the grant is live before any revocation').toBe('allow');

    const issue = async (g: Minted, label: string) => {
      const revocation = await implementation().mintRevocation(alice.seed, g.grant_id, nonce(label));
      return optUint((await call('propagation.issue', { feed, revocation, grant: g.signed_grant })).get('marker'));
    };
    const deliver = async (to: Point) => optUint((await call('propagation.deliver', { feed, point: to.id })).get('known_through'));

    const m1 = await issue(g1, 'prop-rev-1');
    const k1 = await deliver(p);
    expect(await decide(p, g1), 'after its path has run for the point, the revocation is held there').toBe('revoked');
    if (m1 !== undefined && k1 !== undefined) expect(k1 >= m1, `a point that has seen the revocation issued at ${m1} states ${k1}`).toBe(true);

    const m2 = await issue(g2, 'prop-rev-2');
    const k2 = await deliver(p);
    expect(await decide(p, g2), 'a second revocation reaches the point by the same path').toBe('revoked');
    expect(await decide(p, g1), 'and the first stays held').toBe('revoked');
    if (k1 !== undefined && k2 !== undefined) expect(k2 >= k1, `the marker is monotonic: ${k2} after ${k1}`).toBe(true);
    if (m2 !== undefined && k2 !== undefined) expect(k2 >= m2, `a point that has seen the revocation issued at ${m2} states ${k2}`).toBe(true);

    // another point is reached by its own run of the path, with both revocations
    await deliver(q);
    expect([await decide(q, g1), await decide(q, g2)]).toEqual(['revoked', 'revoked']);
  });
});

describe('jcp §4.3 propagation: the auditor', () => {
  clauseIt([NO_MARKER], 'an allow from a point that states no marker reads unverifiable for revocation, never compliant (property)', async () => {
    const u64 = fc.bigInt({ min: 0n, max: (1n << 64n) - 1n });
    const allow = fc.option(u64, { nil: undefined });
    await assertProperty(
      fc.asyncProperty(u64, fc.array(allow, { minLength: 1, maxLength: 8 }), async (m, ks) => {
        const allows = ks.map((k) => (k === undefined ? {} : { known_through: k }));
        const verdicts = (await call('propagation.audit', { revoked_at: m, allows })).get('verdicts') as string[];
        expect(verdicts).toHaveLength(ks.length);
        ks.forEach((k, i) => {
          // §4.3: "did not say" is not "was current"; a stated marker reads as the text orders it
          const want = k === undefined ? 'unverifiable-for-revocation' : k < m ? 'explicable' : 'violation';
          expect(verdicts[i], `allow ${i} (known_through ${k === undefined ? 'not stated' : String(k)}, revoked at ${m})`).toBe(want);
        });
      }),
      fcParams(100),
    );
  });

  clauseIt([NO_MARKER], 'the same allow reads unverifiable without its marker, whatever the marker would have said', async () => {
    // boundaries of §4.3's order: known_through just below, at and above M, then each with its marker withheld
    for (const m of [0n, 1n, 5n, (1n << 64n) - 1n]) {
      const around = [m - 1n, m, m + 1n].filter((k) => k >= 0n && k < 1n << 64n);
      const stated = (await call('propagation.audit', { revoked_at: m, allows: around.map((k) => ({ known_through: k })) })).get('verdicts') as string[];
      expect(stated).toEqual(around.map((k) => (k < m ? 'explicable' : 'violation')));
      const unstated = (await call('propagation.audit', { revoked_at: m, allows: around.map(() => ({})) })).get('verdicts') as string[];
      expect(unstated).toEqual(around.map(() => 'unverifiable-for-revocation'));
    }
  });
});
