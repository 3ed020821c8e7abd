// Conformance: jcp §4.9 caveats (C24), the clauses chain.test.ts does not already cover: every variant supported and
// carried in the signed bytes; no predicate beyond what the decision point holds; exact-identity inheritance (no
// "tighter supersedes looser"); and the two-phase metered path — cost-dependent caveats (MaxCostUj) wait at
// authorization and are enforced at the debit point, where a breach is debited and recorded in the verdict.
// Tests name only C24 clauses, so a testee claiming C7 alone is not asked about the metered path.
import { describe, expect } from 'vitest';
import { implementation } from '../driver.ts';
import type { DecideFields, FrameFields, Minted, Point } from '../implementation.ts';
import { blake3, decodeCanonical, defaultEd25519, encodeCanonical, grantToCbor, toHex, type CborMap, type Grant } from '../oracle.ts';
import { AcceptableReading, clauseIt, contract, declaredReading } from '../clause.ts';
import { expectRefusedAs, isRefusal } from '../contract-codes.ts';
import { codeOf, expectCode } from '../refusal.ts';
import { alice, bob, carol, cost, frameFor, grantOf, idOf, nonce, payload, point, rootGrant, steward } from '../fixtures.ts';

const NOW = 1_000n;

/** A request over `chain` (root first) framed for its leaf, its caller the leaf's subject. */
function req(chain: readonly Minted[], uj: bigint, over: Partial<DecideFields> = {}): DecideFields {
  const leaf = chain[chain.length - 1]!;
  return { frame: frameFor(leaf), chain: chain.map((m) => m.signed_grant), caller: grantOf(leaf).grant.subject, cost: cost(uj), now_s: NOW, ...over };
}

const spentAll = (p: Point, chain: readonly Minted[]) => Promise.all(chain.map((m) => p.spent(m.grant_id)));

/** Caveats outside the variants of jcp §4.9: content predicates, which the decision point could not evaluate. */
const INVENTED = [{ PayloadContains: 'rm -rf' }, { PayloadMatches: '^ls' }];

/** A root grant carrying `invented`, signed by its issuer (crafted with the oracle), and a frame exercising it. */
async function signedWithInvented(invented: Record<string, string>): Promise<{ signed: Uint8Array; frame: FrameFields }> {
  const base = grantOf(await rootGrant({ nonce: nonce('invented-base') })).grant;
  const cbor = { ...(grantToCbor(base) as Record<string, unknown>), caveats: [invented] };
  const bytes = encodeCanonical(cbor as never);
  const signed = encodeCanonical({ grant: cbor as never, signature: defaultEd25519().sign(alice.seed, bytes) });
  const frame = { kind: 'tool-call', trust: 'control', grant_id: toHex(blake3(bytes)), action: 'call', resource: base.capability.resource, payload_hash: payload('args') };
  return { signed, frame };
}

describe('jcp §4.9 the seven variants', () => {
  clauseIt(['jcp/4.9#support-caveat-variants', 'jcp/4.9#grant-may-carry-caveats', 'jcp/4.9#caveats-all-hold'], 'a grant carrying all seven variants is minted with them in its signed bytes, in order, and each binds', async () => {
    const model = payload('model-a');
    const all = [
      { ActionIn: ['call'] },
      { PayloadIs: payload('args') },
      { CallerIs: bob.did },
      { NotBefore: NOW - 10n },
      { NotAfter: NOW + 10n },
      { MaxCostUj: 50n },
      { ModelIn: [model] },
    ];
    const g = await rootGrant({ caveats: all, nonce: nonce('all-seven') });
    // the grant carries the caveats exactly as given, in order (as the implementation reads its own grant back)
    expect(grantOf(g).grant.caveats).toEqual(all);
    // the byte contract: in the published layout, a one-entry map each, in the signed grant bytes
    const inBytes = ((decodeCanonical(g.signed_grant) as CborMap).get('grant') as CborMap).get('caveats');
    contract(toHex(encodeCanonical(inBytes as never)) === toHex(encodeCanonical(all as never)), 'the caveats in the signed grant are not laid out as one-entry {Variant: parameter} maps (vectors/README.md)');
    const ok = req([g], 50n, { frame: frameFor(g, { model }) });
    expect((await (await point()).decide(ok)).verdict).toBe('allow');
    // break each one in turn: every one must hold
    const breaks: Array<[string, Partial<DecideFields>]> = [
      ['ActionIn', { frame: frameFor(g, { model, action: 'read' }) }],
      ['PayloadIs', { frame: frameFor(g, { model, payload_hash: payload('other') }) }],
      ['NotBefore', { now_s: NOW - 11n }],
      ['NotAfter', { now_s: NOW + 11n }],
      ['MaxCostUj', { cost: cost(51n) }],
      ['ModelIn', { frame: frameFor(g) }],
    ];
    for (const [name, over] of breaks) {
      const d = await (await point()).decide({ ...ok, ...over });
      expect([name, d.deny_reason]).toEqual([name, 'caveat-unsatisfied']);
    }
    // CallerIs: a grant to carol whose caveat names bob is never exercised by its own subject
    const callerBound = await rootGrant({ subject: carol.did, caveats: [{ CallerIs: bob.did }], nonce: nonce('caller-is') });
    expect((await (await point()).decide(req([callerBound], 1n))).deny_reason).toBe('caveat-unsatisfied');
  });

  clauseIt(['jcp/4.9#actionin-may-narrow', 'jcp/4.9#caveats-all-hold'], 'ActionIn may narrow below the capability: a granted action outside it is denied caveat-unsatisfied', async () => {
    const g = await rootGrant({ caveats: [{ ActionIn: ['read'] }], nonce: nonce('action-in-narrow') });
    expect(grantOf(g).grant.capability.actions).toEqual(['call', 'read']);
    const p = await point();
    expect((await p.decide(req([g], 1n))).deny_reason).toBe('caveat-unsatisfied'); // 'call' is granted, not in ActionIn
    expect((await p.decide(req([g], 1n, { frame: frameFor(g, { action: 'read' }) }))).verdict).toBe('allow');
    expect((await p.decide(req([g], 1n, { frame: frameFor(g, { action: 'write' }) }))).deny_reason).toBe('action-not-granted');
  });

  clauseIt(['jcp/4.9#no-invented-predicate', 'jcp/4.9#caveats-all-hold'], 'a caveat outside the variants — a content predicate the decision point could not evaluate — is never honoured', async () => {
    // the runtime sees payload_hash, never the payload's bytes: a predicate over content cannot be evaluated there
    for (const invented of INVENTED) {
      // a grant signed with one (crafted), presented for a decision, is refused or denied — never allowed
      const { signed, frame } = await signedWithInvented(invented);
      const p = await point();
      const verdict = await p.decide({ frame, chain: [signed], caller: bob.did, cost: cost(1n), now_s: NOW }).then(
        (d) => d.verdict,
        (e: unknown) => codeOf(Promise.reject(e)),
      );
      expect(verdict, JSON.stringify(invented)).not.toBe('allow');
    }
  });

  clauseIt(['jcp/4.9#open-unknown-caveat-at-mint'], 'a caveat outside the variants is minted and read as the declared reading of unknown caveats says', async () => {
    // harness/protocol/readings.ts: refused (at mint, and a signed grant carrying one does not parse) or
    // carried-fail-closed (minted, and its signature verifies; the test above holds that no decision over it allows)
    const declared = declaredReading('unknown-caveat');
    const seen: string[] = [];
    for (const invented of INVENTED) {
      const what = JSON.stringify(invented);
      const minted = await codeOf(rootGrant({ caveats: [invented], nonce: nonce('invented') }));
      const { signed } = await signedWithInvented(invented);
      const read = await implementation().verifyGrant(signed).then(
        (v) => (v.valid ? 'valid' : 'invalid'),
        (e: unknown) => codeOf(Promise.reject(e)),
      );
      if (declared === 'refused') {
        expect(minted, `${what} at mint: refused`).not.toBe('accepted');
        // the protocol's caveat schema has no such variant, so an argument refusal is the suite's code too
        contract(minted === 'ERR_GRANT_MALFORMED' || minted === 'ERR_BAD_ARGUMENT', `${what} at mint: refused with ${minted}; the suite's code is ERR_GRANT_MALFORMED (or ERR_BAD_ARGUMENT)`);
        expectRefusedAs(read, 'ERR_GRANT_MALFORMED', `a signed grant carrying ${what}`);
      } else if (declared === 'carried-fail-closed') {
        expect([minted, read], `${what}: minted, and its signature verifies`).toEqual(['accepted', 'valid']);
      } else {
        const refused = minted !== 'accepted' && isRefusal(read);
        const carried = minted === 'accepted' && read === 'valid';
        expect(refused || carried, `${what}: refused at mint and read, or minted and verified; got ${minted}, ${read}`).toBe(true);
        seen.push(`${what}: ${refused ? 'refused' : 'carried'}`);
      }
    }
    if (!declared) throw new AcceptableReading(`a caveat outside the variants: ${seen.join('; ')}, a reading the text permits (none declared)`);
  });
});

describe('jcp §4.9 inheritance by exact identity', () => {
  clauseIt(['jcp/4.9#child-carries-parent-caveats', 'jcp/4.9#drop-caveat-refused', 'jcp/7#debit-on-allow'], 'a tighter caveat does not supersede the inherited one: replacing it is refused; adding it beside makes both hold', async () => {
    const root = await rootGrant({ caveats: [{ MaxCostUj: 100n }], nonce: nonce('identity-root') });
    // a child carrying MaxCostUj 50 INSTEAD of 100 — tighter, yet not the identical caveat — does not verify
    const rg = grantOf(root).grant;
    const replaced: Grant = { ...rg, issuer: bob.did, subject: carol.did, parent: idOf(root), caveats: [{ MaxCostUj: 50n }], nonce: nonce('identity-replaced') };
    const rm = await implementation().forgeGrant(bob.seed, replaced);
    const p = await point();
    expect((await p.decide(req([root, rm], 10n))).deny_reason).toBe('attenuation-violation');
    expect(await spentAll(p, [root, rm])).toEqual([0n, 0n]);
    // the honest way: add the tighter bound beside the inherited one; both must hold, so the tighter governs
    const added = await implementation().attenuate(root.signed_grant, bob.seed, { subject: carol.did, add_caveats: [{ MaxCostUj: 50n }], nonce: nonce('identity-added') });
    expect(grantOf(added).grant.caveats).toEqual([{ MaxCostUj: 100n }, { MaxCostUj: 50n }]);
    expect((await p.decide(req([root, added], 51n))).deny_reason).toBe('caveat-unsatisfied');
    expect((await p.decide(req([root, added], 50n))).verdict).toBe('allow');
  });

  clauseIt(['jcp/4.9#grant-may-carry-caveats'], 'an empty caveat set is omitted: a grant encoding caveats: [] is refused, and a caveat-free grant carries no caveats key', async () => {
    const g = await rootGrant({ nonce: nonce('no-caveats') });
    expect(((decodeCanonical(g.signed_grant) as CborMap).get('grant') as CborMap).has('caveats')).toBe(false);
    const base = grantOf(g).grant;
    const cbor = { ...(grantToCbor(base) as Record<string, unknown>), caveats: [] };
    const bytes = encodeCanonical(cbor as never);
    const signed = encodeCanonical({ grant: cbor as never, signature: defaultEd25519().sign(alice.seed, bytes) });
    await expectCode(implementation().verifyGrant(signed), 'ERR_GRANT_MALFORMED');
  });
});

describe('jcp §4.9 the metered path', () => {
  clauseIt(['jcp/4.9#no-implied-cost-caveat-pass', 'jcp/4.9#cost-caveat-at-debit'], 'authorization reports the cost-dependent caveat as pending, not passed, and debits nothing', async () => {
    const g = await rootGrant({ caveats: [{ MaxCostUj: 10n }], nonce: nonce('metered-pending') });
    const p = await point();
    const a = await p.authorize(req([g], 5n));
    expect(a.verdict).toBe('authorized'); // never 'allow': nothing is claimed of the cost caveat yet
    if (a.verdict !== 'authorized') return;
    expect(a.pending_caveats).toEqual([{ MaxCostUj: 10n }]);
    expect(a).not.toHaveProperty('receipt'); // no allow receipt is sealed before the debit point
    expect(await p.spent(g.grant_id)).toBe(0n);
    // a grant with no cost-dependent caveat has none pending
    const plain = await rootGrant({ caveats: [{ ActionIn: ['call'] }], nonce: nonce('metered-plain') });
    const b = await p.authorize(req([plain], 5n));
    expect(b.verdict === 'authorized' ? b.pending_caveats : b).toEqual([]);
  });

  clauseIt(['jcp/4.9#cost-caveat-at-debit', 'jcp/4.9#breach-still-debited', 'jcp/4.9#breach-recorded-in-verdict', 'jcp/4.9#child-carries-parent-caveats'], 'a measured cost within MaxCostUj is allowed; one past it is debited on every link and sealed as a caveat breach', async () => {
    const root = await rootGrant({ budget_uj: 1000n, caveats: [{ MaxCostUj: 10n }], nonce: nonce('metered-root') });
    const child = await implementation().attenuate(root.signed_grant, bob.seed, { subject: carol.did, budget_uj: 500n, nonce: nonce('metered-child') });
    const chain = [root, child];
    const p = await point();
    // within: allowed at the debit point, debited, sealed allow
    const a1 = await p.authorize(req(chain, 5n));
    if (a1.verdict !== 'authorized') throw new Error(`not authorized: ${a1.deny_reason}`);
    const ok = await p.settle(a1.ticket, cost(8n, 'HwShunt'), NOW);
    expect(ok.verdict).toBe('allow');
    expect(await spentAll(p, chain)).toEqual([8n, 8n]);
    // past it: the work ran and its joules are real — debited from every link, and the verdict records the breach
    const a2 = await p.authorize(req(chain, 5n));
    if (a2.verdict !== 'authorized') throw new Error(`not authorized: ${a2.deny_reason}`);
    const breach = await p.settle(a2.ticket, cost(25n, 'HwShunt'), NOW);
    expect([breach.verdict, breach.deny_reason]).toEqual(['deny', 'caveat-unsatisfied']);
    expect(await spentAll(p, chain)).toEqual([33n, 33n]);
    // the sealed receipt is the evidence: it verifies, says the breach, carries the measured cost and the debited remainder
    const core = await implementation().verifyReceipt(breach.receipt, steward.did);
    expect([core['verdict'], core['deny_reason'], core['cost_uj'], core['energy_provenance'], core['budget_remaining_uj']]).toEqual(['deny', 'caveat-unsatisfied', 25n, 'HwShunt', 500n - 33n]);
    expect(core['chain_ids']).toEqual([root.grant_id, child.grant_id]);
    // a ticket settles once
    await expectCode(p.settle(a2.ticket, cost(1n), NOW), 'ERR_BAD_ARGUMENT');
  });

  clauseIt(['jcp/4.9#cost-independent-both-phases'], 'a cost-independent caveat is enforced at authorization and again at the debit point', async () => {
    const p = await point();
    // phase one: a PayloadIs that does not hold is denied before any work, sealed, nothing debited
    const bound = await rootGrant({ caveats: [{ PayloadIs: payload('other') }, { MaxCostUj: 10n }], nonce: nonce('both-phases-payload') });
    const a = await p.authorize(req([bound], 5n));
    expect([a.verdict, a.verdict === 'deny' ? a.deny_reason : undefined]).toEqual(['deny', 'caveat-unsatisfied']);
    if (a.verdict === 'deny') expect((await implementation().verifyReceipt(a.receipt, steward.did))['deny_reason']).toBe('caveat-unsatisfied');
    expect(await p.spent(bound.grant_id)).toBe(0n);
    // phase two: a NotAfter that held at authorization and no longer holds at the debit point is a breach there
    const windowed = await rootGrant({ caveats: [{ NotAfter: NOW + 5n }], nonce: nonce('both-phases-window') });
    const w = await p.authorize(req([windowed], 5n));
    if (w.verdict !== 'authorized') throw new Error(`not authorized: ${w.deny_reason}`);
    const late = await p.settle(w.ticket, cost(5n), NOW + 6n);
    expect([late.verdict, late.deny_reason]).toEqual(['deny', 'caveat-unsatisfied']);
    // and one settled inside the window is allowed
    const w2 = await p.authorize(req([windowed], 5n));
    if (w2.verdict !== 'authorized') throw new Error(`not authorized: ${w2.deny_reason}`);
    expect((await p.settle(w2.ticket, cost(5n), NOW + 5n)).verdict).toBe('allow');
  });
});
