// Unit tests of jcp §4.6 standing grants (impl/jcp/standing.ts): mint policies, authoring refusals, firings under the
// mint ledger, and the property that no sequence of firings mints past the standing grant's budget.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { codeOf, lazy, lazyKey, TOOL_RESOURCE } from '../_test-support.ts';
import { decodeCanonical, encodeCanonical } from '../cbor/index.ts';
import { defaultEd25519 } from '../identity/ed25519.ts';
import { didPublicKey } from '../identity/did-key.ts';
import { narrowingFault, structuralFault } from './attenuate.ts';
import { contentId } from './content-id.ts';
import { createEnforcementPoint } from './enforcement-point.ts';
import { grantBytes, grantId, mintGrant, signGrant } from './grant.ts';
import {
  authorMintPolicy,
  createMintLedger,
  decodeSignedMintPolicy,
  eventClassId,
  mintPolicyBytes,
  mintPolicyId,
  signedMintPolicyToCbor,
  type MintLedger,
  type MintPolicy,
  type SignedMintPolicy,
} from './standing.ts';
import type { SignedGrant } from './types.ts';

const alice = lazyKey('alice');
const bob = lazyKey('bob');
const carol = lazyKey('carol');
const mallory = lazyKey('mallory');
const steward = lazyKey('steward');
const resource = TOOL_RESOURCE;
const PUSH = () => eventClassId({ source: 'github', event: 'push' });
const ISSUE = () => eventClassId({ source: 'github', event: 'issue' });
const n16 = (i: number): Uint8Array => new Uint8Array(16).fill(i);
// alice's standing grant, held by bob (the automation that fires it)
const standing = lazy(() => mintGrant(alice, { subject: bob.did, resource, actions: ['call', 'read'], budget_uj: 1000n, expiry: 5000n, nonce: n16(1) }));
const policy = lazy(() => authorMintPolicy(standing, alice, { event_class: PUSH(), per_firing_uj: 300n, max_firings: 5n }));

/** Signs a policy exactly as given, past the author's checks: how a bad policy reaches a ledger. */
const rawPolicy = (p: MintPolicy, signer = alice): SignedMintPolicy => ({ policy: p, signature: defaultEd25519().sign(signer.seed, mintPolicyBytes(p)) });
const fire = (l: MintLedger, over: Partial<Parameters<MintLedger['fire']>[0]> = {}, i = 1): SignedGrant =>
  l.fire({ policy, standing, holder: bob, event_class: PUSH(), subject: carol.did, nonce: n16(100 + i), ...over });
const ledgerOf = (l: MintLedger, p: SignedMintPolicy = policy) => [l.firings(mintPolicyId(p.policy)), l.cumulative(grantId(standing.grant))];

describe('mint policies (jcp §4.6)', () => {
  it('are canonical CBOR of the named bounds, bound to the grant by id and signed by its issuer', () => {
    const bytes = encodeCanonical(signedMintPolicyToCbor(policy));
    const m = decodeCanonical(bytes) as Map<string, Map<string, unknown>>;
    const p = m.get('policy')!;
    expect([...p.keys()]).toEqual(['issuer', 'grant_id', 'event_class', 'max_firings', 'per_firing_uj']);
    expect([p.get('grant_id'), p.get('issuer'), p.get('event_class'), p.get('per_firing_uj'), p.get('max_firings')]).toEqual([grantId(standing.grant), alice.did, PUSH(), 300, 5]);
    expect(defaultEd25519().verify(policy.signature, encodeCanonical(p as never), didPublicKey(alice.did))).toBe(true);
    expect(decodeSignedMintPolicy(bytes)).toEqual(policy);
  });

  it('refuses at author time a policy that would amplify its grant, or one not authored by the grant issuer', () => {
    expect(codeOf(() => authorMintPolicy(standing, alice, { event_class: PUSH(), per_firing_uj: 1001n, max_firings: 1n }))).toBe('ERR_MINT_POLICY_AMPLIFIES');
    expect(codeOf(() => authorMintPolicy(standing, alice, { event_class: PUSH(), per_firing_uj: 1000n, max_firings: 1n }))).toBe('accepted');
    const leaf = mintGrant(alice, { subject: bob.did, resource, actions: ['call'], budget_uj: 1000n, delegate_depth: 0n, nonce: n16(2) });
    expect(codeOf(() => authorMintPolicy(leaf, alice, { event_class: PUSH(), per_firing_uj: 10n, max_firings: 1n }))).toBe('ERR_MINT_POLICY_AMPLIFIES');
    expect(codeOf(() => authorMintPolicy(standing, bob, { event_class: PUSH(), per_firing_uj: 10n, max_firings: 1n }))).toBe('ERR_MINT_POLICY_UNAUTHORIZED');
    expect(codeOf(() => authorMintPolicy({ grant: standing.grant, signature: new Uint8Array(64) }, alice, { event_class: PUSH(), per_firing_uj: 10n, max_firings: 1n }))).toBe('ERR_MINT_POLICY_UNAUTHORIZED');
    expect(codeOf(() => authorMintPolicy(standing, alice, { event_class: 'push', per_firing_uj: 10n, max_firings: 1n }))).toBe('ERR_MINT_POLICY_MALFORMED');
  });
});

describe('firing a standing grant', () => {
  it('mints a strictly weaker child that chain-verifies to the standing grant and decides allow', () => {
    const l = createMintLedger();
    const child = fire(l);
    expect(child.grant.parent).toBe(grantId(standing.grant));
    expect([child.grant.issuer, child.grant.subject, child.grant.budget_uj]).toEqual([bob.did, carol.did, 300n]);
    expect(structuralFault(standing, child)).toBeUndefined();
    expect(narrowingFault(standing.grant, child.grant)).toBeUndefined();
    expect(ledgerOf(l)).toEqual([1n, 300n]);
    const ep = createEnforcementPoint({ steward });
    const frame = { kind: 'tool-call', trust: 'control', grant_id: grantId(child.grant), action: 'call', resource, payload_hash: contentId({ payload: 'x' }) } as const;
    const d = ep.decide({ frame, chain: [standing, child], caller: carol.did, cost: { uj: 300n, provenance: 'Estimator' }, now_s: 10n });
    expect(d.verdict).toBe('allow');
    expect(d.core.chain_ids).toEqual([grantId(standing.grant), grantId(child.grant)]);
  });

  it('refuses the wrong event class, an exhausted count and a firing past the budget, ledger unchanged', () => {
    const l = createMintLedger();
    expect(codeOf(() => fire(l, { event_class: ISSUE() }))).toBe('ERR_FIRING_WRONG_EVENT_CLASS');
    expect(ledgerOf(l)).toEqual([0n, 0n]);
    fire(l, {}, 1);
    fire(l, {}, 2);
    fire(l, {}, 3);
    expect(ledgerOf(l)).toEqual([3n, 900n]);
    // a fourth would mint 1200 µJ of a 1000 µJ grant, though the policy allows five firings
    expect(codeOf(() => fire(l, {}, 4))).toBe('ERR_FIRING_OVER_BUDGET');
    expect(ledgerOf(l)).toEqual([3n, 900n]);
    // a second policy over the same grant shares its cumulative budget
    const small = authorMintPolicy(standing, alice, { event_class: PUSH(), per_firing_uj: 100n, max_firings: 1n });
    fire(l, { policy: small }, 5);
    expect(ledgerOf(l, small)).toEqual([1n, 1000n]);
    expect(codeOf(() => fire(l, { policy: small }, 6))).toBe('ERR_FIRINGS_EXHAUSTED');
    expect(ledgerOf(l, small)).toEqual([1n, 1000n]);
  });

  it('refuses a policy that is forged, foreign or amplifying, and a non-holder, ledger unchanged', () => {
    const l = createMintLedger();
    const other = mintGrant(alice, { subject: bob.did, resource, actions: ['call'], budget_uj: 1000n, nonce: n16(3) });
    const cases: Array<[string, Partial<Parameters<MintLedger['fire']>[0]>]> = [
      ['ERR_MINT_POLICY_UNAUTHORIZED', { policy: { policy: policy.policy, signature: policy.signature.map((b, i) => (i === 0 ? b ^ 1 : b)) } }],
      ['ERR_MINT_POLICY_UNAUTHORIZED', { policy: rawPolicy({ ...policy.policy, issuer: mallory.did }, mallory) }],
      ['ERR_MINT_POLICY_UNAUTHORIZED', { standing: other }],
      ['ERR_MINT_POLICY_AMPLIFIES', { policy: rawPolicy({ ...policy.policy, per_firing_uj: 1001n }) }],
      ['ERR_NOT_HOLDER', { holder: mallory }],
    ];
    for (const [code, over] of cases) {
      expect(codeOf(() => fire(l, over)), code).toBe(code);
      expect(ledgerOf(l)).toEqual([0n, 0n]);
    }
    // a standing grant re-signed with another budget is another grant: the policy is not bound to it
    const richer = signGrant({ ...standing.grant, budget_uj: 10_000n }, alice);
    expect(codeOf(() => fire(l, { standing: richer }))).toBe('ERR_MINT_POLICY_UNAUTHORIZED');
    expect(grantBytes(richer.grant)).not.toEqual(grantBytes(standing.grant));
  });
});

describe('property: no sequence of firings mints past the standing grant', () => {
  it('children minted sum to at most budget_uj, count to at most max_firings, and every refusal leaves the ledger', () => {
    fc.assert(
      fc.property(
        fc.bigInt(0n, 1000n),
        fc.bigInt(0n, 8n),
        fc.array(fc.boolean(), { maxLength: 12 }),
        (per_firing_uj, max_firings, events) => {
          const p = authorMintPolicy(standing, alice, { event_class: PUSH(), per_firing_uj, max_firings });
          const l = createMintLedger();
          let minted = 0n;
          let count = 0n;
          events.forEach((right, i) => {
            const before = ledgerOf(l, p);
            try {
              const c = fire(l, { policy: p, event_class: right ? PUSH() : ISSUE() }, i);
              expect(right).toBe(true);
              minted += c.grant.budget_uj;
              count += 1n;
            } catch {
              expect(ledgerOf(l, p)).toEqual(before);
            }
            expect(ledgerOf(l, p)).toEqual([count, minted]);
          });
          expect(minted).toBeLessThanOrEqual(1000n);
          expect(count).toBeLessThanOrEqual(max_firings);
          // the firings refused for budget were exactly those that would have passed it
          const rights = events.filter(Boolean).length;
          const fit = per_firing_uj === 0n ? BigInt(rights) : 1000n / per_firing_uj;
          const expected = [BigInt(rights), max_firings, fit].reduce((a, b) => (a < b ? a : b));
          expect(count).toBe(expected);
        },
      ),
      { seed: 0x4a4350, numRuns: 60 },
    );
  });
});

describe('junk at the boundary (STYLE.md)', () => {
  const JUNK: unknown[] = [undefined, null, 0, 1.5, 'x', [], {}, () => 1, Symbol('s'), { policy: {}, signature: 'sig' }, { grant: {}, signature: new Uint8Array(64) }];
  const typed = (fn: () => unknown): string => {
    const c = codeOf(fn);
    return c === 'accepted' || c.startsWith('not a JcpError') ? c : 'typed';
  };

  it('every entry point refuses junk with a JcpError, and a refused firing leaves the ledger', () => {
    const l = createMintLedger();
    for (const j of JUNK) {
      const any = j as never;
      expect(typed(() => authorMintPolicy(any, alice, { event_class: PUSH(), per_firing_uj: 1n, max_firings: 1n })), String(j)).toBe('typed');
      expect(typed(() => authorMintPolicy(standing, any, { event_class: PUSH(), per_firing_uj: 1n, max_firings: 1n })), String(j)).toBe('typed');
      expect(typed(() => authorMintPolicy(standing, alice, any)), String(j)).toBe('typed');
      // (a safe-integer number is read as the uint it is, as grants read theirs; every other junk value is refused)
      if (j !== 0) expect(typed(() => authorMintPolicy(standing, alice, { event_class: PUSH(), per_firing_uj: any, max_firings: 1n })), String(j)).toBe('typed');
      for (const k of ['policy', 'standing', 'holder', 'event_class', 'subject', 'nonce'] as const) {
        expect(typed(() => fire(l, { [k]: any })), `${k} ${String(j)}`).toBe('typed');
      }
      expect(typed(() => l.fire(any)), String(j)).toBe('typed');
    }
    expect(typed(() => decodeSignedMintPolicy(new Uint8Array([0xa0])))).toBe('typed');
    expect(ledgerOf(l)).toEqual([0n, 0n]);
  });
});
