// Conformance: jcp §7 the decision — every deny reason, in the spec's order — with §6 data/control (C4), §5/§7 debit
// on allow only (C3), trust roots (C15), and every decision sealed (C5). Everything is decided by the implementation
// under test; the oracle only crafts grants it could not mint itself (a tampered or forged signature).
import { describe, expect } from 'vitest';
import { AcceptableReading, clauseIt, declaredReading } from '../clause.ts';
import { implementation } from '../driver.ts';
import { alice, bob, carol, cost, frameFor, grantOf, idOf, mallory, nonce, once, payload, point, resource, rootGrant, steward, TOOL } from '../fixtures.ts';
import type { DecideFields, FrameFields, Minted, Point } from '../implementation.ts';
import { defaultEd25519, encodeCanonical, grantBytes, signedGrantToCbor } from '../oracle.ts';

const NOW = 1_000n;

/** A decision request exercising `m` as bob, 10 µJ, at NOW, with overrides. */
function req(m: Minted, over: Partial<DecideFields> = {}, frame: Partial<FrameFields> = {}): DecideFields {
  return { frame: frameFor(m, frame), chain: [m.signed_grant], caller: bob.did, cost: cost(10n), now_s: NOW, ...over };
}

/** `m` with its issuer signature altered at byte `at` by `bit` (crafted with the oracle: same grant, broken signature). */
function tamperedSignature(m: Minted, at: number, bit: number): Minted {
  const sg = grantOf(m);
  const signature = sg.signature.slice();
  signature[at]! ^= bit;
  return { signed_grant: encodeCanonical(signedGrantToCbor({ grant: sg.grant, signature })), grant_id: m.grant_id };
}

/** `m`'s grant (naming its issuer) with a signature by `signer` over the same grant bytes: a forgery. */
function forgedBy(m: Minted, signerSeed: Uint8Array): Minted {
  const { grant } = grantOf(m);
  const signature = defaultEd25519().sign(signerSeed, grantBytes(grant));
  return { signed_grant: encodeCanonical(signedGrantToCbor({ grant, signature })), grant_id: m.grant_id };
}

/**
 * Decides on a fresh point (set up by `setup`), checks the sealed receipt verifies under the steward and says the
 * same, and that a deny debited nothing; returns the reason, or 'allow'.
 */
async function outcome(r: DecideFields, setup?: (p: Point) => Promise<void>, trustRoots?: Record<string, string[]>): Promise<string> {
  const p = await point(trustRoots);
  await setup?.(p);
  const d = await p.decide(r);
  const core = await implementation().verifyReceipt(d.receipt, steward.did);
  expect(core['verdict']).toBe(d.verdict);
  expect(core['deny_reason']).toBe(d.deny_reason);
  if (d.verdict === 'deny') {
    expect(d.deny_reason).toEqual(expect.any(String));
    const leafId = idOf(r.chain[r.chain.length - 1]!);
    expect(await p.spent(leafId)).toBe(0n);
    expect(await p.spent(r.frame.grant_id)).toBe(0n);
  } else {
    expect(d).not.toHaveProperty('deny_reason');
  }
  return d.verdict === 'allow' ? 'allow' : d.deny_reason!;
}

/**
 * The verdict alone, on a fresh point: for a test of an open point, which decides one thing (what the declared reading
 * says), while the checks every decision owes (its receipt, no debit on a deny) are the other tests' to decide.
 */
async function verdictOf(r: DecideFields, setup?: (p: Point) => Promise<void>, trustRoots?: Record<string, string[]>): Promise<string> {
  const p = await point(trustRoots);
  await setup?.(p);
  const d = await p.decide(r);
  return d.verdict === 'allow' ? 'allow' : (d.deny_reason ?? 'deny');
}

describe('jcp §7 deny reasons, each reached and named exactly', () => {
  const G = once(() => rootGrant({ expiry: 2000n }));

  clauseIt(['jcp/7#debit-on-allow', 'jcp/5#debit-coupling', 'jcp/8#every-decision-sealed'], 'a well-formed request is allowed and debits its cost', async () => {
    const g = await G();
    const p = await point();
    const d = await p.decide(req(g));
    expect(d.verdict).toBe('allow');
    expect(await p.spent(g.grant_id)).toBe(10n);
    const core = await implementation().verifyReceipt(d.receipt, steward.did);
    expect(core['budget_remaining_uj']).toBe(990n);
  });

  clauseIt(['jcp/7#untrusted-control', 'jcp/6#data-frame-refused', 'jcp/7#debit-on-allow', 'jcp/8#every-decision-sealed'], 'a data frame is denied untrusted-control, whatever it carries', async () => {
    const g = await G();
    expect(await outcome(req(g, {}, { trust: 'data' }))).toBe('untrusted-control');
    for (const kind of ['tool-call', 'tool-result', 'agent-task', 'agent-reply']) {
      expect(await outcome(req(g, {}, { trust: 'data', kind }))).toBe('untrusted-control');
    }
  });

  clauseIt(['jcp/7#revoked', 'jcp/4.3#both-decision-paths', 'jcp/7#debit-on-allow', 'jcp/8#every-decision-sealed'], 'a revoked grant is denied revoked (direct path)', async () => {
    const g = await G();
    const rev = await implementation().mintRevocation(alice.seed, g.grant_id, nonce('rev'));
    expect(await outcome(req(g), (p) => p.revoke(rev, g.signed_grant))).toBe('revoked');
  });

  clauseIt(['jcp/7#untrusted-root', 'jcp/7#unlisted-root-denied', 'jcp/7#unconfigured-resource-open', 'jcp/7#debit-on-allow', 'jcp/8#every-decision-sealed'], 'trust roots: open when unconfigured; once configured, only listed roots', async () => {
    const g = await G();
    expect(await outcome(req(g))).toBe('allow');
    // configured when the point is made
    expect(await outcome(req(g), undefined, { [TOOL]: [carol.did] })).toBe('untrusted-root');
    expect(await outcome(req(g), undefined, { [TOOL]: [carol.did, alice.did] })).toBe('allow');
    expect(await outcome(req(g), undefined, { [resource('other')]: [carol.did] })).toBe('allow');
    // configured afterwards
    expect(await outcome(req(g), (p) => p.setTrustRoots(TOOL, [carol.did]))).toBe('untrusted-root');
    expect(await outcome(req(g), (p) => p.setTrustRoots(TOOL, [carol.did, alice.did]))).toBe('allow');
    // roots of another resource do not close this one
    expect(await outcome(req(g), (p) => p.setTrustRoots(resource('other'), [carol.did]))).toBe('allow');
  });

  clauseIt(['jcp/7#open-empty-trust-roots'], 'an empty trust-root list is decided as the declared reading of empty trust roots says', async () => {
    const g = await G();
    // harness/protocol/readings.ts: configured-none-anchors (the resource is closed) or unconfigured-open (it stays open)
    const want = { 'configured-none-anchors': 'untrusted-root', 'unconfigured-open': 'allow' } as const;
    const declared = declaredReading('empty-trust-roots') as keyof typeof want | undefined;
    // set when the point is made, and afterwards
    const got = [await verdictOf(req(g), undefined, { [TOOL]: [] }), await verdictOf(req(g), (p) => p.setTrustRoots(TOOL, []))];
    if (declared) expect(got, `the declared reading ${declared}`).toEqual([want[declared], want[declared]]);
    else if (got.every((o) => o === 'untrusted-root' || o === 'allow')) throw new AcceptableReading(`an empty trust-root list: ${got.join(', ')}, a reading the text permits (none declared)`);
    else expect(got, 'either reading permits only untrusted-root or allow here').toEqual(['untrusted-root', 'untrusted-root']);
  });

  clauseIt(['jcp/7#grant-id-mismatch', 'jcp/7#debit-on-allow', 'jcp/8#every-decision-sealed'], "a frame naming another grant's id is denied wrong-resource", async () => {
    const g = await G();
    const other = await rootGrant({ nonce: nonce('other') });
    expect(await outcome(req(g, {}, { grant_id: other.grant_id }))).toBe('wrong-resource');
  });

  clauseIt(['jcp/7#wrong-subject', 'jcp/7#debit-on-allow', 'jcp/8#every-decision-sealed'], "a caller other than the grant's subject is denied wrong-subject", async () => {
    const g = await G();
    expect(await outcome(req(g, { caller: mallory.did }))).toBe('wrong-subject');
    expect(await outcome(req(g, { caller: alice.did }))).toBe('wrong-subject'); // not even the issuer
  });

  clauseIt(['jcp/7#bad-signature', 'jcp/7#debit-on-allow', 'jcp/8#every-decision-sealed'], 'a grant whose issuer signature does not verify is denied bad-signature', async () => {
    const g = await G();
    expect(await outcome(req(tamperedSignature(g, 7, 1)))).toBe('bad-signature');
    // mallory signs alice's grant (naming alice as issuer) with her own key: signed by the wrong key
    expect(await outcome(req(forgedBy(g, mallory.seed)))).toBe('bad-signature');
  });

  clauseIt(['jcp/7#expired', 'jcp/7#debit-on-allow', 'jcp/8#every-decision-sealed'], 'an expired grant is denied expired; expiry 0 never expires', async () => {
    const g = await G();
    expect(await outcome(req(g, { now_s: 1999n }))).toBe('allow');
    // past the expiry second under either reading of jcp/7#open-expiry-boundary (the boundary itself: the next test)
    expect(await outcome(req(g, { now_s: 2001n }))).toBe('expired');
    expect(await outcome(req(g, { now_s: 5000n }))).toBe('expired');
    const forever = await rootGrant({ expiry: 0n, nonce: nonce('forever') });
    expect(await outcome(req(forever, { now_s: 1n << 63n }))).toBe('allow');
  });

  clauseIt(['jcp/7#open-expiry-boundary', 'jcp/7#expired'], 'at now_s == expiry the grant is decided as the declared reading of the expiry boundary says', async () => {
    const got = await verdictOf(req(await G(), { now_s: 2000n }));
    // harness/protocol/readings.ts: expired-at-expiry (now_s >= expiry is expired) or valid-at-expiry (only now_s > expiry)
    const want = { 'expired-at-expiry': 'expired', 'valid-at-expiry': 'allow' } as const;
    const declared = declaredReading('expiry-boundary') as keyof typeof want | undefined;
    if (declared) expect(got, `the declared reading ${declared}`).toBe(want[declared]);
    else if (got === 'expired' || got === 'allow') throw new AcceptableReading(`at now_s == expiry: ${got}, a reading the text permits (none declared)`);
    else expect(got, 'either reading permits only expired or allow here').toBe('expired');
  });

  clauseIt(['jcp/7#wrong-resource', 'jcp/7#debit-on-allow', 'jcp/8#every-decision-sealed'], "a frame for another resource than the capability's is denied wrong-resource", async () => {
    const g = await G();
    expect(await outcome(req(g, {}, { resource: resource('tool:delete-everything') }))).toBe('wrong-resource');
  });

  clauseIt(['jcp/7#action-not-granted', 'jcp/7#debit-on-allow', 'jcp/8#every-decision-sealed'], 'an action outside the capability is denied action-not-granted', async () => {
    const g = await G();
    expect(await outcome(req(g, {}, { action: 'delete' }))).toBe('action-not-granted');
    expect(await outcome(req(g, {}, { action: 'read' }))).toBe('allow');
  });

  clauseIt(['jcp/7#budget-exceeded', 'jcp/5#debit-coupling', 'jcp/8#every-decision-sealed'], 'prior spend + cost > budget_uj is denied budget-exceeded and not debited', async () => {
    const g = await G();
    const p = await point();
    expect((await p.decide(req(g, { cost: cost(600n) }))).verdict).toBe('allow');
    const d = await p.decide(req(g, { cost: cost(401n) }));
    expect(d.verdict).toBe('deny');
    expect(d.deny_reason).toBe('budget-exceeded');
    const core = await implementation().verifyReceipt(d.receipt, steward.did);
    expect(core['verdict']).toBe('deny');
    expect(core['deny_reason']).toBe('budget-exceeded');
    expect(await p.spent(g.grant_id)).toBe(600n);
    // exactly filling the budget is allowed (the test is >, not ≥)
    expect((await p.decide(req(g, { cost: cost(400n) }))).verdict).toBe('allow');
    expect(await p.spent(g.grant_id)).toBe(1000n);
    expect((await p.decide(req(g, { cost: cost(1n) }))).deny_reason).toBe('budget-exceeded');
    expect(await p.spent(g.grant_id)).toBe(1000n);
    expect((await p.decide(req(g, { cost: cost(0n) }))).verdict).toBe('allow');
  });

  clauseIt(['jcp/4.2#delegated-alone-chain-broken', 'jcp/7#debit-on-allow', 'jcp/8#every-decision-sealed'], 'a delegated grant decided on its own is denied chain-broken', async () => {
    const g = await G();
    const child = await implementation().attenuate(g.signed_grant, bob.seed, { subject: carol.did, budget_uj: 100n, nonce: nonce('alone') });
    expect(await outcome(req(child, { caller: carol.did }))).toBe('chain-broken');
  });
});

describe('jcp §7 the checks run in order, the first failure naming the reason', () => {
  // Each row breaks two rules; the earlier check in §7's list must be the one named.
  const F = once(async () => {
    const g = await rootGrant({ expiry: 2000n, nonce: nonce('order') });
    const badSig = tamperedSignature(g, 0, 0x80);
    const rev = await implementation().mintRevocation(alice.seed, g.grant_id, nonce('order-rev'));
    const other = await rootGrant({ nonce: nonce('order-other') });
    return { g, badSig, rev, other };
  });
  type Fx = Awaited<ReturnType<typeof F>>;
  const rows: Array<[string, string, (f: Fx) => Promise<string>]> = [
    ['untrusted-control before revoked', 'untrusted-control', ({ g, rev }) => outcome(req(g, {}, { trust: 'data' }), (p) => p.revoke(rev, g.signed_grant))],
    [
      'revoked before untrusted-root',
      'revoked',
      ({ g, rev }) =>
        outcome(req(g), async (p) => {
          await p.revoke(rev, g.signed_grant);
          await p.setTrustRoots(TOOL, [carol.did]);
        }),
    ],
    ['untrusted-root before wrong-resource (grant id)', 'untrusted-root', ({ g, other }) => outcome(req(g, {}, { grant_id: other.grant_id }), (p) => p.setTrustRoots(TOOL, [carol.did]))],
    ['wrong-resource (grant id) before wrong-subject', 'wrong-resource', ({ g, other }) => outcome(req(g, { caller: mallory.did }, { grant_id: other.grant_id }))],
    ['wrong-subject before bad-signature', 'wrong-subject', ({ badSig }) => outcome(req(badSig, { caller: mallory.did }))],
    ['bad-signature before expired', 'bad-signature', ({ badSig }) => outcome(req(badSig, { now_s: 3000n }))],
    ['expired before wrong-resource', 'expired', ({ g }) => outcome(req(g, { now_s: 3000n }, { resource: resource('elsewhere') }))],
    ['wrong-resource before action-not-granted', 'wrong-resource', ({ g }) => outcome(req(g, {}, { resource: resource('elsewhere'), action: 'delete' }))],
    ['action-not-granted before budget-exceeded', 'action-not-granted', ({ g }) => outcome(req(g, { cost: cost(5000n) }, { action: 'delete' }))],
  ];
  for (const [title, expected, run] of rows) {
    clauseIt(['jcp/7#checks-in-order', 'jcp/7#debit-on-allow', 'jcp/8#every-decision-sealed'], title, async () => {
      expect(await run(await F())).toBe(expected);
    });
  }
});

describe('jcp §8 every decision is sealed', () => {
  clauseIt(['jcp/8#every-decision-sealed', 'jcp/8#payload-hash-included'], 'allow and deny alike seal a verifiable jcp/2 receipt over the frame', async () => {
    const g = await rootGrant({ nonce: nonce('sealed') });
    const p = await point();
    const verdicts: string[] = [];
    for (const r of [req(g), req(g, {}, { trust: 'data' }), req(g, { caller: mallory.did })]) {
      const d = await p.decide(r);
      verdicts.push(d.deny_reason ?? d.verdict);
      const core = await implementation().verifyReceipt(d.receipt, steward.did);
      expect(core['jcp_receipt']).toBe('jcp/2');
      expect(core['payload_hash']).toBe(payload('args'));
      expect(core['grant_id']).toBe(g.grant_id);
      expect(core['action']).toBe('call');
      expect(core['steward']).toBe(steward.did);
      expect(core['verdict']).toBe(d.verdict);
      if (d.verdict === 'deny') expect(core['deny_reason']).toBe(d.deny_reason);
      else expect(core).not.toHaveProperty('deny_reason');
    }
    expect(verdicts).toEqual(['allow', 'untrusted-control', 'wrong-subject']);
  });

  clauseIt(['jcp/7#decision-deterministic'], 'the same inputs give the same decision and the same receipt bytes', async () => {
    const g = await rootGrant({ nonce: nonce('det') });
    for (const r of [req(g), req(g, { caller: mallory.did })]) {
      const a = await (await point()).decide(r);
      const b = await (await point()).decide(r);
      expect(b.verdict).toBe(a.verdict);
      expect(b.deny_reason).toBe(a.deny_reason);
      expect(Buffer.from(a.receipt).toString('hex')).toBe(Buffer.from(b.receipt).toString('hex'));
    }
  });
});
