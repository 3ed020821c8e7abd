// Conformance: jcp §4.10 flow (C25) — a value's label against the grant's FlowBelow ceiling and the resource's taint
// floor. Labels order as the product of integrity, origins and readers; "not computed" fails closed against a ceiling;
// ceilings in a chain compose to the strictest and attenuation never widens one; the gate sits after the signature
// and before caveats and budget, so a tainted call debits nothing; a grant without a flow caveat, and a point without
// a floor, are exactly as before flow existed.
//
// Readings taken where §4.10 is silent (the spec fixes no value set, encoding or deny string for flow):
//   - label = {integrity: principal ≤ untrusted, origins: set by inclusion ([] = ⊥, "any" = ⊤), readers: set by
//     reverse inclusion ("all" = ⊥, [] = ⊤)}, sets sorted and unique; FlowBelow = {ceiling: label, tainted_budget_uj?};
//   - the deny reason of the gate is `flow-denied` (FLOW_DENIED below);
//   - a taint floor is the set of origins a resource accepts; an absent label also fails closed against a floor.
import { describe, expect } from 'vitest';
import { implementation } from '../driver.ts';
import type { DecideFields, LabelFields, Minted, Point } from '../implementation.ts';
import { decodeCanonical, defaultEd25519, encodeCanonical, toHex, type Grant } from '../oracle.ts';
import { clauseIt, contract } from '../clause.ts';
import { alice, bob, carol, cost, decideChecked, frameFor, grantOf, idOf, nonce, point, resource, rootGrant, TOOL } from '../fixtures.ts';

const NOW = 1_000n;
/** The reference's deny reason for the flow gate (an open point: §4.10 names none). */
const FLOW_DENIED = 'flow-denied';

const BOTTOM: LabelFields = { integrity: 'principal', origins: [], readers: 'all' };
const TOP: LabelFields = { integrity: 'untrusted', origins: 'any', readers: [] };
const lbl = (integrity: LabelFields['integrity'], origins: LabelFields['origins'], readers: LabelFields['readers'] = 'all'): LabelFields => ({ integrity, origins, readers });
const flowBelow = (ceiling: LabelFields, tainted_budget_uj?: bigint) => ({ FlowBelow: { ceiling: { ...ceiling, origins: ceiling.origins === 'any' ? 'any' : [...ceiling.origins], readers: ceiling.readers === 'all' ? 'all' : [...ceiling.readers] }, ...(tainted_budget_uj !== undefined ? { tainted_budget_uj } : {}) } });

/** A request over `chain` (root first) framed for its leaf, its caller the leaf's subject, with `label` if given. */
function req(chain: readonly Minted[], uj: bigint, label?: LabelFields, over: Partial<DecideFields> = {}): DecideFields {
  const leaf = chain[chain.length - 1]!;
  return { frame: frameFor(leaf), chain: chain.map((m) => m.signed_grant), caller: grantOf(leaf).grant.subject, cost: cost(uj), now_s: NOW, ...(label ? { label } : {}), ...over };
}

/** Decides; checks the receipt says the same, and that a deny moved no link's spend. Returns the deny reason or 'allow'. */
async function outcome(p: Point, r: DecideFields): Promise<string> {
  return (await decideChecked(p, r)).deny_reason ?? 'allow';
}

describe('jcp §4.10 the gate', () => {
  clauseIt(['jcp/4.10#not-computed-not-clean', 'jcp/4.10#ceiling-not-on-unlabelled', 'jcp/4.10#grant-may-carry-flow-ceiling'], 'an argument whose provenance was not computed fails closed against a ceiling; ⊥ passes any ceiling', async () => {
    const ceiled = await rootGrant({ caveats: [flowBelow(lbl('untrusted', 'any'))], nonce: nonce('flow-absent') });
    const p = await point();
    // even the widest ceiling (⊤ but for readers) refuses an unlabelled argument
    expect(await outcome(p, req([ceiled], 10n))).toBe(FLOW_DENIED);
    expect(await outcome(p, req([ceiled], 10n, BOTTOM))).toBe('allow');
    // the narrowest ceiling, ⊥, still admits ⊥
    const strict = await rootGrant({ caveats: [flowBelow(BOTTOM)], nonce: nonce('flow-bottom-ceiling') });
    expect(await outcome(p, req([strict], 10n, BOTTOM))).toBe('allow');
    expect(await outcome(p, req([strict], 10n, lbl('principal', ['web'])))).toBe(FLOW_DENIED);
    // a ceiling-free grant is unaffected by an absent label
    const free = await rootGrant({ nonce: nonce('flow-free') });
    expect(await outcome(p, req([free], 10n))).toBe('allow');
  });

  clauseIt(['jcp/4.10#grant-may-carry-flow-ceiling', 'jcp/4.10#not-computed-not-clean'], 'the label order is the product of integrity, origins and readers: each component is tested', async () => {
    const ceiling = lbl('untrusted', ['mail', 'web'], [bob.did, carol.did].sort());
    const g = await rootGrant({ caveats: [flowBelow(ceiling)], nonce: nonce('flow-product') });
    const p = await point();
    const cases: Array<[LabelFields, string]> = [
      [ceiling, 'allow'], // equal
      [lbl('principal', ['web'], [bob.did, carol.did].sort()), 'allow'], // lower integrity, fewer origins
      [lbl('untrusted', ['mail', 'web'], 'all'), 'allow'], // readable by all is below any readers set
      [lbl('untrusted', ['mail', 'web'], [alice.did, bob.did, carol.did].sort()), 'allow'], // more readers is lower
      [lbl('untrusted', ['chat'], 'all'), FLOW_DENIED], // an origin outside the ceiling's
      [lbl('untrusted', 'any', 'all'), FLOW_DENIED], // from anywhere
      [lbl('untrusted', ['web'], [bob.did]), FLOW_DENIED], // fewer readers than the ceiling: higher
      [lbl('untrusted', ['web'], []), FLOW_DENIED], // readable by nobody
      [TOP, FLOW_DENIED],
    ];
    for (const [label, want] of cases) expect([JSON.stringify(label), await outcome(p, req([g], 1n, label))]).toEqual([JSON.stringify(label), want]);
    // integrity alone: a principal-only ceiling refuses an untrusted value from the same origins
    const principalOnly = await rootGrant({ caveats: [flowBelow(lbl('principal', ['web']))], nonce: nonce('flow-integrity') });
    expect(await outcome(p, req([principalOnly], 1n, lbl('untrusted', ['web'])))).toBe(FLOW_DENIED);
    expect(await outcome(p, req([principalOnly], 1n, lbl('principal', ['web'])))).toBe('allow');
  });

  clauseIt(['jcp/4.10#flow-check-position', 'jcp/4.10#not-computed-not-clean', 'jcp/9#c25-flow'], 'the flow check runs after the signature and subject checks, and before caveats and budget: a tainted call debits nothing', async () => {
    const g = await rootGrant({ budget_uj: 100n, caveats: [flowBelow(lbl('untrusted', ['web'])), { MaxCostUj: 5n }], nonce: nonce('flow-position') });
    const p = await point();
    // before caveats and budget: a tainted call that would also break MaxCostUj and the budget is denied on flow
    expect(await outcome(p, req([g], 500n, lbl('untrusted', ['mail'])))).toBe(FLOW_DENIED);
    expect(await outcome(p, req([g], 500n))).toBe(FLOW_DENIED);
    expect(await p.spent(g.grant_id)).toBe(0n);
    // with a clean label the same call reaches the caveats
    expect(await outcome(p, req([g], 500n, BOTTOM))).toBe('caveat-unsatisfied');
    // after signature verification: a ceilinged grant with a broken signature is bad-signature, never a flow verdict
    const forged = await implementation().forgeGrant(alice.seed, grantOf(g).grant, 'signature');
    expect(await outcome(p, req([forged], 1n, lbl('untrusted', ['mail'])))).toBe('bad-signature');
    // and after the subject and action checks
    expect(await outcome(p, req([g], 1n, lbl('untrusted', ['mail']), { caller: carol.did }))).toBe('wrong-subject');
    expect(await outcome(p, req([g], 1n, lbl('untrusted', ['mail']), { frame: frameFor(g, { action: 'write' }) }))).toBe('action-not-granted');
    expect(await outcome(p, req([g], 5n, lbl('untrusted', ['web'])))).toBe('allow');
    expect(await p.spent(g.grant_id)).toBe(5n);
  });

  clauseIt(['jcp/4.10#grant-may-carry-flow-ceiling'], 'a tainted call spends the ceiling\'s separate tainted allowance; a clean call does not', async () => {
    const g = await rootGrant({ budget_uj: 1000n, caveats: [flowBelow(lbl('untrusted', ['web']), 15n)], nonce: nonce('flow-tainted-budget') });
    const p = await point();
    expect(await outcome(p, req([g], 10n, lbl('untrusted', ['web'])))).toBe('allow');
    // 10 + 10 > 15: the tainted allowance binds although the joule budget has room
    expect((await p.decide(req([g], 10n, lbl('principal', ['web'])))).verdict).toBe('deny');
    expect(await p.spent(g.grant_id)).toBe(10n);
    // a ⊥ argument is not tainted: it spends the ordinary budget only
    expect(await outcome(p, req([g], 100n, BOTTOM))).toBe('allow');
    expect(await outcome(p, req([g], 5n, lbl('untrusted', ['web'])))).toBe('allow');
    expect(await p.spent(g.grant_id)).toBe(115n);
  });
});

describe('jcp §4.10 ceilings across a chain', () => {
  clauseIt(['jcp/4.10#grant-may-carry-flow-ceiling', 'jcp/4.10#not-computed-not-clean'], 'ceilings in a chain compose to the strictest, and a child adding a wider ceiling widens nothing', async () => {
    const root = await rootGrant({ caveats: [flowBelow(lbl('untrusted', ['mail', 'web']))], nonce: nonce('flow-chain-root') });
    const narrower = await implementation().attenuate(root.signed_grant, bob.seed, { subject: carol.did, add_caveats: [flowBelow(lbl('untrusted', ['web']))], nonce: nonce('flow-narrower') });
    const wider = await implementation().attenuate(root.signed_grant, bob.seed, { subject: carol.did, add_caveats: [flowBelow(lbl('untrusted', 'any'))], nonce: nonce('flow-wider') });
    const p = await point();
    expect(await outcome(p, req([root, narrower], 1n, lbl('untrusted', ['web'])))).toBe('allow');
    expect(await outcome(p, req([root, narrower], 1n, lbl('untrusted', ['mail'])))).toBe(FLOW_DENIED); // the child's ceiling governs
    expect(await outcome(p, req([root, wider], 1n, lbl('untrusted', ['chat'])))).toBe(FLOW_DENIED); // the root's still governs
    expect(await outcome(p, req([root, wider], 1n, lbl('untrusted', ['mail'])))).toBe('allow');
    // the child carries the root's ceiling: a grandchild of a ceiling-free-looking hop still sees it
    expect(grantOf(wider).grant.caveats?.[0]).toEqual(grantOf(root).grant.caveats?.[0]);
  });

  clauseIt(['jcp/4.10#grant-may-carry-flow-ceiling'], 'attenuation never widens a ceiling: a child that drops or replaces it does not verify', async () => {
    const root = await rootGrant({ caveats: [flowBelow(lbl('untrusted', ['web']))], nonce: nonce('flow-drop-root') });
    const rg = grantOf(root).grant;
    const p = await point();
    // signed exactly as given, by the implementation under test in its own layout (grant.forge)
    const crafted = (caveats: Grant['caveats'], label: string): Promise<Minted> => {
      const g: Grant = { ...rg, issuer: bob.did, subject: carol.did, parent: idOf(root), nonce: nonce(`flow-raw-${label}`), ...(caveats ? { caveats } : {}) };
      if (!caveats) delete (g as { caveats?: unknown }).caveats;
      return implementation().forgeGrant(bob.seed, g);
    };
    const dropped = await crafted(undefined, 'drop');
    expect(grantOf(dropped).grant).not.toHaveProperty('caveats');
    expect(await outcome(p, req([root, dropped], 1n, lbl('untrusted', ['mail'])))).toBe('attenuation-violation');
    const replaced = await crafted([flowBelow(lbl('untrusted', 'any')) as never], 'replace');
    expect(await outcome(p, req([root, replaced], 1n, lbl('untrusted', ['mail'])))).toBe('attenuation-violation');
  });
});

describe('jcp §4.10 taint floors', () => {
  clauseIt(['jcp/4.10#may-configure-taint-floor', 'jcp/4.10#not-computed-not-clean'], "a resource's taint floor refuses origins it does not accept, whatever the grant permits; unconfigured resources are open", async () => {
    const free = await rootGrant({ nonce: nonce('floor-free') });
    const p = await point();
    // default-open: before a floor, a tainted argument on a ceiling-free grant is allowed
    expect(await outcome(p, req([free], 1n, lbl('untrusted', ['mail'])))).toBe('allow');
    await p.setTaintFloor(TOOL, ['web']);
    expect(await outcome(p, req([free], 1n, lbl('untrusted', ['mail'])))).toBe(FLOW_DENIED);
    expect(await outcome(p, req([free], 1n, lbl('untrusted', ['mail', 'web'])))).toBe(FLOW_DENIED);
    expect(await outcome(p, req([free], 1n, lbl('untrusted', 'any')))).toBe(FLOW_DENIED);
    expect(await outcome(p, req([free], 1n, lbl('untrusted', ['web'])))).toBe('allow');
    expect(await outcome(p, req([free], 1n, BOTTOM))).toBe('allow');
    // a ceiling that permits 'mail' does not override the floor
    const ceiled = await rootGrant({ caveats: [flowBelow(lbl('untrusted', 'any'))], nonce: nonce('floor-ceiled') });
    expect(await outcome(p, req([ceiled], 1n, lbl('untrusted', ['mail'])))).toBe(FLOW_DENIED);
    // the floor is per resource: another resource stays open
    const other = await rootGrant({ resource: resource('tool:other'), nonce: nonce('floor-other') });
    expect(await outcome(p, req([other], 1n, lbl('untrusted', ['mail'])))).toBe('allow');
  });
});

describe('jcp §4.10 nothing changes without flow', () => {
  clauseIt(['jcp/4.10#grant-may-carry-flow-ceiling', 'jcp/4.10#may-configure-taint-floor'], 'a grant without a flow caveat is byte-identical to one built before flow; a point without a floor seals the same receipt with or without a label', async () => {
    // a grant with a (non-flow) caveat, built field by field and signed by alice here: the implementation's bytes match
    const caveats = [{ ActionIn: ['call'] }];
    const m = await rootGrant({ caveats, nonce: nonce('pre-flow') });
    const baseline = encodeCanonical({ issuer: alice.did, subject: bob.did, capability: { resource: TOOL, actions: ['call', 'read'] }, budget_uj: 1000n, caveats, expiry: 0n, nonce: nonce('pre-flow') });
    const expected = encodeCanonical({ grant: decodeCanonical(baseline), signature: defaultEd25519().sign(alice.seed, baseline) });
    contract(toHex(m.signed_grant) === toHex(expected), 'a caveated grant is not byte-identical to the published layout built field by field');
    // no floor, no ceiling: a labelled (even ⊤) argument is decided exactly as an unlabelled one, to the receipt byte
    const unlabelled = await (await point()).decide(req([m], 10n));
    const labelled = await (await point()).decide(req([m], 10n, TOP));
    expect(unlabelled.verdict).toBe('allow');
    expect(toHex(labelled.receipt)).toBe(toHex(unlabelled.receipt));
  });
});
