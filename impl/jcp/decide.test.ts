// Unit tests of jcp §4.8 money, §4.9 the two-phase metered path and §4.10 flow in decide.ts, codec.ts and
// enforcement-point.ts: the label order, the FlowBelow encoding, input refusals, and a fast-check property that no
// tree of attenuations lets the allowed spend pass the root in joules or in money.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { codeOf, lazyKey, TOOL_RESOURCE } from '../_test-support.ts';
import { decodeCanonical, encodeCanonical } from '../cbor/index.ts';
import { attenuate } from './attenuate.ts';
import { caveatToCbor, parseCaveats, parseLabel } from './codec.ts';
import { contentId } from './content-id.ts';
import { BOTTOM_LABEL, flowFault, isBottom, labelLeq } from './decide.ts';
import { createEnforcementPoint } from './enforcement-point.ts';
import { grantId, mintGrant } from './grant.ts';
import type { Caveat, Label, SignedGrant } from './types.ts';

const key = lazyKey;
const alice = key('alice');
const bob = key('bob');
const carol = key('carol');
const steward = key('steward');
const TOOL = TOOL_RESOURCE;
const nonce = (n: number) => new Uint8Array(16).fill(n);

function request(chain: readonly SignedGrant[], uj: bigint, extra: object = {}) {
  const leaf = chain[chain.length - 1]!.grant;
  const frame = { kind: 'tool-call', trust: 'control', grant_id: grantId(leaf), action: 'call', resource: TOOL, payload_hash: contentId({ payload: 'args' }) } as const;
  return { frame, chain, caller: leaf.subject, cost: { uj, provenance: 'Estimator' as const }, now_s: 1n, ...extra };
}

describe('jcp §4.10 label order', () => {
  const L = (integrity: Label['integrity'], origins: Label['origins'], readers: Label['readers']): Label => ({ integrity, origins, readers });
  it('⊥ is below everything and ⊤ above everything; each component orders on its own', () => {
    const top = L('untrusted', 'any', []);
    expect(isBottom(BOTTOM_LABEL)).toBe(true);
    expect(labelLeq(BOTTOM_LABEL, top)).toBe(true);
    expect(labelLeq(top, BOTTOM_LABEL)).toBe(false);
    expect(labelLeq(L('untrusted', [], 'all'), L('principal', [], 'all'))).toBe(false);
    expect(labelLeq(L('principal', ['a', 'b'], 'all'), L('principal', ['a'], 'all'))).toBe(false);
    expect(labelLeq(L('principal', ['a'], 'all'), L('principal', ['a', 'b'], 'all'))).toBe(true);
    expect(labelLeq(L('principal', [], ['x']), L('principal', [], ['x', 'y']))).toBe(false); // fewer readers is higher
    expect(labelLeq(L('principal', [], ['x', 'y']), L('principal', [], ['x']))).toBe(true);
    expect(labelLeq(L('principal', [], 'all'), L('principal', [], ['x']))).toBe(true);
  });

  it('absent fails closed against a ceiling or a floor; unaffected without either', () => {
    const g = mintGrant(alice, { subject: bob.did, resource: TOOL, actions: ['call'], budget_uj: 10n, nonce: nonce(1) });
    expect(flowFault(undefined, [g], undefined)).toBeUndefined();
    expect(flowFault(undefined, [g], new Set(['web']))).toMatch(/not computed/);
    expect(flowFault(L('untrusted', ['web'], 'all'), [g], new Set(['web']))).toBeUndefined();
    expect(flowFault(BOTTOM_LABEL, [g], new Set())).toBeUndefined();
  });
});

describe('jcp §4.10 FlowBelow encoding', () => {
  it('round-trips canonically; a set out of order, duplicated, or a bad word is refused naming the field', () => {
    const c: Caveat = { FlowBelow: { ceiling: { integrity: 'untrusted', origins: ['mail', 'web'], readers: 'all' }, tainted_budget_uj: 5n } };
    const bytes = encodeCanonical([caveatToCbor(c)]);
    expect(parseCaveats(decodeCanonical(bytes))).toEqual([c]);
    const bad = (ceiling: object) => () => parseCaveats(decodeCanonical(encodeCanonical([{ FlowBelow: { ceiling } }] as never)));
    expect(codeOf(bad({ integrity: 'untrusted', origins: ['web', 'mail'], readers: 'all' }))).toBe('ERR_GRANT_MALFORMED');
    expect(codeOf(bad({ integrity: 'untrusted', origins: ['web', 'web'], readers: 'all' }))).toBe('ERR_GRANT_MALFORMED');
    expect(codeOf(bad({ integrity: 'untrusted', origins: 'all', readers: 'all' }))).toBe('ERR_GRANT_MALFORMED');
    expect(codeOf(bad({ integrity: 'trusted', origins: [], readers: 'all' }))).toBe('ERR_GRANT_MALFORMED');
    expect(codeOf(bad({ integrity: 'principal', origins: [], readers: ['not-a-did'] }))).toBe('ERR_GRANT_MALFORMED');
    expect(codeOf(() => parseLabel(decodeCanonical(encodeCanonical({ integrity: 'principal', origins: [], readers: 'any' }))))).toBe('ERR_BAD_ARGUMENT');
  });
});

describe('enforcement point input (jcp §4.8, §4.9, §4.10)', () => {
  it('refuses a malformed money cost, label or ticket with ERR_BAD_ARGUMENT and changes nothing', () => {
    const g = mintGrant(alice, { subject: bob.did, resource: TOOL, actions: ['call'], budget_uj: 100n, budget_funds: { currency: 'USD', minor: 10n }, nonce: nonce(2) });
    const p = createEnforcementPoint({ steward });
    expect(codeOf(() => p.decide(request([g], 1n, { cost_funds: { currency: 'USD', minor: -1n } })))).toBe('ERR_BAD_ARGUMENT');
    expect(codeOf(() => p.decide(request([g], 1n, { cost_funds: { currency: 7, minor: 1n } })))).toBe('ERR_BAD_ARGUMENT');
    expect(codeOf(() => p.decide(request([g], 1n, { label: { integrity: 'clean', origins: [], readers: 'all' } })))).toBe('ERR_BAD_ARGUMENT');
    expect(codeOf(() => p.settle('t404', { uj: 1n, provenance: 'Estimator' }, 1n))).toBe('ERR_BAD_ARGUMENT');
    expect(codeOf(() => p.setTaintFloor('not-a-cid', []))).toBe('ERR_BAD_ARGUMENT');
    expect([p.spent(grantId(g.grant)), p.spentFunds(grantId(g.grant))]).toEqual([0n, 0n]);
  });

  it('an unpriced decision against a money-bounded grant is bound by joules alone and moves no money (reading: §4.8 governs priced decisions)', () => {
    const g = mintGrant(alice, { subject: bob.did, resource: TOOL, actions: ['call'], budget_uj: 100n, budget_funds: { currency: 'USD', minor: 0n }, nonce: nonce(3) });
    const p = createEnforcementPoint({ steward });
    expect(p.decide(request([g], 5n)).verdict).toBe('allow');
    expect(p.decide(request([g], 5n, { cost_funds: { currency: 'USD', minor: 1n } })).deny_reason).toBe('funds-exceeded');
    expect([p.spent(grantId(g.grant)), p.spentFunds(grantId(g.grant))]).toEqual([5n, 0n]);
  });
});

describe('jcp §4.9 the metered path at the point', () => {
  it('a breach at the debit point debits the measured joules (tainted spend too) but no money, and seals deny', () => {
    const g = mintGrant(alice, {
      subject: bob.did,
      resource: TOOL,
      actions: ['call'],
      budget_uj: 100n,
      budget_funds: { currency: 'USD', minor: 50n },
      caveats: [{ MaxCostUj: 10n }],
      nonce: nonce(4),
    });
    const id = grantId(g.grant);
    const p = createEnforcementPoint({ steward });
    const label: Label = { integrity: 'untrusted', origins: ['web'], readers: 'all' };
    const a = p.authorize(request([g], 5n, { cost_funds: { currency: 'USD', minor: 7n }, label }));
    expect(a.verdict).toBe('authorized');
    if (a.verdict !== 'authorized') return;
    expect(a.pending).toEqual([{ MaxCostUj: 10n }]);
    expect([p.spent(id), p.spentFunds(id), p.taintedSpent(id)]).toEqual([0n, 0n, 0n]);
    const d = p.settle(a.ticket, { uj: 12n, provenance: 'HwShunt' }, 1n);
    expect([d.verdict, d.deny_reason, d.debited]).toEqual(['deny', 'caveat-unsatisfied', [id]]);
    expect([p.spent(id), p.spentFunds(id), p.taintedSpent(id)]).toEqual([12n, 0n, 12n]);
    expect([d.core.cost_uj, d.core.budget_remaining_uj]).toEqual([12n, 88n]);
    // within the cap: allow debits joules and money
    const b = p.authorize(request([g], 5n, { cost_funds: { currency: 'USD', minor: 7n } }));
    if (b.verdict !== 'authorized') throw new Error('not authorized');
    expect(p.settle(b.ticket, { uj: 9n, provenance: 'HwShunt' }, 1n).verdict).toBe('allow');
    expect([p.spent(id), p.spentFunds(id)]).toEqual([21n, 7n]);
  });
});

describe('jcp §4.8 property', () => {
  it('no tree of attenuations lets the allowed spend exceed the root budget in joules and in money', () => {
    const holders = [bob, carol, key('dave'), key('erin'), key('frank')];
    fc.assert(
      fc.property(
        fc.array(fc.record({ parent: fc.nat(), uj: fc.bigInt({ min: 0n, max: 1500n }), minor: fc.option(fc.bigInt({ min: 0n, max: 300n }), { nil: undefined }) }), { maxLength: 6 }),
        fc.array(fc.record({ node: fc.nat(), uj: fc.bigInt({ min: 0n, max: 400n }), minor: fc.bigInt({ min: 0n, max: 80n }) }), { minLength: 1, maxLength: 12 }),
        (steps, spends) => {
          const root = mintGrant(alice, { subject: bob.did, resource: TOOL, actions: ['call'], budget_uj: 1000n, budget_funds: { currency: 'USD', minor: 200n }, nonce: nonce(9) });
          const nodes: SignedGrant[][] = [[root]];
          steps.forEach((s, i) => {
            const chain = nodes[s.parent % nodes.length]!;
            const leaf = chain[chain.length - 1]!;
            const holder = holders.find((h) => h.did === leaf.grant.subject)!;
            const next = holders[(holders.indexOf(holder) + 1) % holders.length]!;
            try {
              const child = attenuate(leaf, holder, { subject: next.did, budget_uj: s.uj, nonce: nonce(20 + i), ...(s.minor !== undefined ? { budget_funds: { currency: 'USD', minor: s.minor } } : {}) });
              nodes.push([...chain, child]);
            } catch {
              // amplification refused
            }
          });
          const p = createEnforcementPoint({ steward });
          let uj = 0n;
          let minor = 0n;
          for (const s of spends) {
            const chain = nodes[s.node % nodes.length]!;
            if (p.decide(request(chain, s.uj, { cost_funds: { currency: 'USD', minor: s.minor } })).verdict === 'allow') {
              uj += s.uj;
              minor += s.minor;
            }
          }
          expect(uj <= 1000n && minor <= 200n).toBe(true);
          expect([p.spent(grantId(root.grant)), p.spentFunds(grantId(root.grant))]).toEqual([uj, minor]);
        },
      ),
      { seed: 0x4a4350, numRuns: 150 },
    );
  });
});
