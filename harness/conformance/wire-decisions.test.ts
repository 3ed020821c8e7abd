// Conformance: the decision space over the jcp/1 wire (jcp §11 carrying §7, §4.2, §4.9, §5 and §8.1). The other wire
// tests (./wire.test.ts) send single-link control tool-calls; here fast-check draws delegation chains of one to three
// links (some amplifying or dropping a caveat), caveats of every cost-independent variant and MaxCostUj, frames of
// every kind and both trusts, a model or none, callers that are and are not the leaf's subject, leaf-only chains over
// delegated grants, every provenance and Partial coverage, and sends each request to the live endpoint. Beside it the
// reference's enforcement point (the oracle: impl/jcp/enforcement-point.ts) decides the same requests in the same
// order, at the endpoint's clock as the harness knows it; each receipt core the endpoint seals must equal the
// reference's field for field (jcp §8 names every field; only the steward differs, and must be the endpoint's). The
// spend is compared through every later receipt's budget_remaining_uj, so a deny that debited, an allow that missed a
// link and a chain whose ancestors were not charged all show as a difference.
//
// What jcp/1 cannot carry is not drawn: WireRequest has no money cost (§11 names frame, chain, caller, cost, now), so
// priced decisions (C22) stay with the testee-protocol tests; there is no revocation message, so revoked links stay
// there too; grant times and time caveats sit thousands of seconds from now, so no verdict hangs on which second the
// endpoint's clock reads.
import fc from 'fast-check';
import { afterAll, describe, expect } from 'vitest';
import { claimsByteContract, clauseIt, RunLacks } from '../clause.ts';
import { testeeInfo } from '../driver.ts';
import { UnimplementedError } from '../implementation.ts';
import { fcParams } from '../external-vectors.ts';
import { propertyRuns } from '../property/differential.ts';
import { closeWireTarget, connectWire, encodeWireRequest, onConnection, signWireRequest, wireTarget, type UnsignedWireRequest, type WireClient, type WireTarget } from '../drivers/wire.ts';
import { bob, carol, dave, key, mallory, nonce } from '../fixtures.ts';
import { comparableCore } from '../core-compare.ts';
import {
  attenuate,
  contentId,
  createEnforcementPoint,
  grantId,
  mintGrant,
  signGrant,
  verifyReceipt,
  type Caveat,
  type EnforcementPoint,
  type KeyPair,
  type ReceiptCore,
  type SignedGrant,
} from '../oracle.ts';

afterAll(() => closeWireTarget());

/** Sequences per run: a third of the differential properties' (JCP_PROPERTY_RUNS, certify --property-runs), at least 10. */
const runs = (): number => Math.max(10, Math.ceil(propertyRuns() / 3));

const HOLDERS: readonly KeyPair[] = [bob, carol, dave];
const STRANGER = key('wire-decisions:stranger');
const PAYLOADS = [contentId({ payload: 'wire-decisions:a' }), contentId({ payload: 'wire-decisions:b' })];
const MODELS = [contentId({ model: 'wire-decisions:m0' }), contentId({ model: 'wire-decisions:m1' })];
const ACTIONS = ['call', 'read', 'write'] as const;
const KINDS = ['tool-call', 'tool-result', 'agent-task', 'agent-reply'] as const;
const PROVENANCES = ['HwShunt', 'ModelBased', 'Estimator'] as const;
/** Far from any clock the endpoint may read: a time caveat or expiry here decides the same at every second of a run. */
const FAR = 100_000n;

type CaveatDraw = 'none' | 'max-cost' | 'action-in' | 'payload-is' | 'model-in' | 'not-before-past' | 'not-before-future' | 'not-after-past' | 'caller-is-stranger';
const CAVEAT_DRAWS: readonly CaveatDraw[] = ['none', 'none', 'none', 'none', 'none', 'none', 'max-cost', 'max-cost', 'action-in', 'payload-is', 'model-in', 'not-before-past', 'not-before-future', 'not-after-past', 'caller-is-stranger'];

interface LinkDraw {
  readonly budgetPct: number;
  readonly caveat: CaveatDraw;
  readonly cap: number;
  /** How the child is made: within its parent, or re-signed by its issuer as an amplification of one axis. */
  readonly make: 'within' | 'wider-budget' | 'drops-caveats' | 'wider-actions';
}
interface RequestDraw {
  readonly link: number;
  readonly caller: 'subject' | 'other';
  readonly chain: 'full' | 'leaf-only';
  readonly action: number;
  readonly resource: 'granted' | 'other';
  readonly kind: number;
  readonly trust: 'control' | 'data';
  readonly payload: number;
  readonly model: number;
  readonly uj: number;
  readonly provenance: number;
  readonly partial: boolean;
}
interface World {
  readonly rootBudget: number;
  readonly rootActions: number;
  readonly rootCaveat: CaveatDraw;
  readonly rootCap: number;
  readonly expired: boolean;
  readonly links: readonly LinkDraw[];
  readonly requests: readonly RequestDraw[];
}

const caveatDraw = fc.constantFrom(...CAVEAT_DRAWS);
/** The usual value seven times in eight, so most requests get past the check the rare one fails. */
const weighted = <T>(usual: T, rare: T): T[] => [usual, usual, usual, usual, usual, usual, usual, rare];
const worlds: fc.Arbitrary<World> = fc.record({
  rootBudget: fc.integer({ min: 50, max: 2000 }),
  rootActions: fc.integer({ min: 1, max: 3 }),
  rootCaveat: caveatDraw,
  rootCap: fc.integer({ min: 20, max: 600 }),
  expired: fc.constantFrom(...weighted(false, true)),
  links: fc.array(
    fc.record({
      budgetPct: fc.integer({ min: 10, max: 100 }),
      caveat: caveatDraw,
      cap: fc.integer({ min: 20, max: 600 }),
      make: fc.constantFrom('within', 'within', 'within', 'within', 'within', 'within', 'wider-budget', 'drops-caveats', 'wider-actions'),
    }),
    { maxLength: 2 },
  ),
  requests: fc.array(
    fc.record({
      link: fc.nat(),
      caller: fc.constantFrom(...weighted<'subject' | 'other'>('subject', 'other')),
      chain: fc.constantFrom(...weighted<'full' | 'leaf-only'>('full', 'leaf-only')),
      action: fc.nat(),
      resource: fc.constantFrom(...weighted<'granted' | 'other'>('granted', 'other')),
      kind: fc.constantFrom(...weighted(0, 1), ...weighted(0, 2), ...weighted(0, 3)),
      trust: fc.constantFrom(...weighted<'control' | 'data'>('control', 'data')),
      payload: fc.nat({ max: 1 }),
      model: fc.nat({ max: 2 }),
      uj: fc.integer({ min: 1, max: 700 }),
      provenance: fc.nat({ max: PROVENANCES.length - 1 }),
      partial: fc.boolean(),
    }),
    { minLength: 2, maxLength: 10 },
  ),
});

/** The caveat a draw names (none for 'none'), with times far from now. */
function caveatOf(d: CaveatDraw, cap: number, now: bigint): Caveat[] {
  switch (d) {
    case 'none':
      return [];
    case 'max-cost':
      return [{ MaxCostUj: BigInt(cap) }];
    case 'action-in':
      return [{ ActionIn: ['call'] }];
    case 'payload-is':
      return [{ PayloadIs: PAYLOADS[0]! }];
    case 'model-in':
      return [{ ModelIn: [MODELS[0]!] }];
    case 'not-before-past':
      return [{ NotBefore: now - FAR }];
    case 'not-before-future':
      return [{ NotBefore: now + FAR }];
    case 'not-after-past':
      return [{ NotAfter: now - FAR }];
    case 'caller-is-stranger':
      return [{ CallerIs: STRANGER.did }];
  }
}

/** The chain a world draws, root first: grants from the endpoint's honoured issuer to bob, then to carol and dave. */
function chainOf(t: WireTarget, w: World, label: string, now: bigint): SignedGrant[] {
  const resource = contentId({ resource: label });
  const root = mintGrant(t.issuer, {
    subject: bob.did,
    resource,
    actions: ACTIONS.slice(0, w.rootActions),
    budget_uj: BigInt(w.rootBudget),
    expiry: w.expired ? now - FAR : 0n,
    caveats: caveatOf(w.rootCaveat, w.rootCap, now),
    nonce: nonce(`${label}:root`),
  });
  const chain = [root];
  w.links.forEach((l, i) => {
    const parent = chain[chain.length - 1]!;
    const holder = HOLDERS[i]!;
    const child = attenuate(parent, holder, {
      subject: HOLDERS[i + 1]!.did,
      budget_uj: (parent.grant.budget_uj * BigInt(l.budgetPct)) / 100n,
      add_caveats: caveatOf(l.caveat, l.cap, now),
      nonce: nonce(`${label}:link ${i}`),
    });
    if (l.make === 'within') return void chain.push(child);
    // an amplifying child, signed by its issuer as it stands: the chain check must refuse it (jcp §4.2, §4.9)
    const g = child.grant;
    const amplified =
      l.make === 'wider-budget'
        ? { ...g, budget_uj: parent.grant.budget_uj + 1n }
        : l.make === 'wider-actions'
          ? { ...g, capability: { ...g.capability, actions: [...ACTIONS] } }
          : (({ caveats: _dropped, ...rest }) => rest)(g);
    chain.push(signGrant(amplified, holder));
  });
  return chain;
}

/** The wire request a draw makes over `chain`, stamped `now`, and the key that signs it. */
function requestOf(chain: readonly SignedGrant[], d: RequestDraw, otherResource: string, now: bigint): { req: UnsignedWireRequest; signer: KeyPair } {
  const at = d.link % chain.length;
  const link = chain[at]!;
  const g = link.grant;
  const subject = HOLDERS.find((k) => k.did === g.subject)!;
  const signer = d.caller === 'subject' ? subject : d.link % 2 ? STRANGER : mallory;
  const actions = g.capability.actions;
  const frame = {
    kind: KINDS[d.kind]!,
    trust: d.trust,
    grant_id: grantId(g),
    action: d.action % 8 === 7 ? 'delete' : actions[d.action % actions.length]!,
    resource: d.resource === 'granted' ? g.capability.resource : otherResource,
    payload_hash: PAYLOADS[d.payload]!,
    ...(d.model < 2 ? { model: MODELS[d.model]! } : {}),
  };
  return {
    req: {
      frame,
      chain: d.chain === 'full' ? chain.slice(0, at + 1) : [link],
      caller: signer.did,
      cost: { uj: BigInt(d.uj), provenance: PROVENANCES[d.provenance]!, ...(d.partial ? { coverage: 'Partial' as const } : {}) },
      now,
    },
    signer,
  };
}

/**
 * The core of a receipt less its steward, its fields in name order: what the endpoint and the reference must agree on
 * (a single grant's chain_ids of just its own id read as absent, ../core-compare.ts).
 */
function withoutSteward(core: ReceiptCore): Record<string, unknown> {
  return Object.fromEntries(Object.entries(comparableCore(core)).filter(([k]) => k !== 'steward').sort(([a], [b]) => (a < b ? -1 : 1)));
}

/** Sends `req` signed by `signer` and answers the endpoint's receipt core, verified under its steward. */
async function decideOverWire(t: WireTarget, c: WireClient, req: UnsignedWireRequest, signer: KeyPair): Promise<ReceiptCore> {
  const r = await c.sendBody(encodeWireRequest(signWireRequest(req, signer)));
  if (r.kind !== 'response') throw new Error(`the endpoint refused a well-formed signed request instead of deciding it: ${r.refusal.error} ${r.refusal.message}`);
  const { core } = verifyReceipt(r.response.receipt, { steward: t.steward });
  expect(core.verdict, 'the response decision and its receipt agree').toBe(r.response.decision.verdict);
  expect(core.deny_reason, 'the response decision and its receipt agree').toBe(r.response.decision.deny_reason);
  return core;
}

/** What a step showed, for the failure message. */
const stepLine = (i: number, d: RequestDraw, links: number, wire: ReceiptCore, ref: ReceiptCore) =>
  `#${i} link ${d.link % links} ${d.caller} ${d.chain} ${d.resource} ${KINDS[d.kind]}/${d.trust} ${d.uj} µJ: endpoint ${wire.verdict} ${wire.deny_reason ?? ''} (${wire.budget_remaining_uj} left), reference ${ref.verdict} ${ref.deny_reason ?? ''} (${ref.budget_remaining_uj} left)`;

let world = 0;

/** A world with no caveat on any link: what a testee without the published grant layout can be sent. */
const withoutCaveats = (w: World): World => ({ ...w, rootCaveat: 'none', links: w.links.map((l) => ({ ...l, caveat: 'none', make: l.make === 'drops-caveats' ? 'within' : l.make })) });

/**
 * Draws `runs()` worlds (caveats too when `caveats`), sends each world's requests to the endpoint and decides them with
 * the reference beside it; throws at the first receipt core that differs. Answers the verdicts seen, by name.
 */
async function decisionSpace(t: WireTarget, caveats: boolean): Promise<Map<string, number>> {
  const { seed } = fcParams();
  const c = await connectWire(t.urls[0]!);
  let decided = 0;
  const verdicts = new Map<string, number>();
  try {
    await fc.assert(
      fc.asyncProperty(caveats ? worlds : worlds.map(withoutCaveats), async (w) => {
        const label = t.label(`wire-decisions:${world++}`);
        const now = t.now_s();
        const chain = chainOf(t, w, label, now);
        const other = contentId({ resource: `${label}:other` });
        const reference: EnforcementPoint = createEnforcementPoint({ steward: key('wire-decisions:model steward') });
        const lines: string[] = [];
        for (const [i, d] of w.requests.entries()) {
          const { req, signer } = requestOf(chain, d, other, t.now_s());
          const wire = await decideOverWire(t, c, req, signer);
          const ref = reference.decide({ frame: req.frame, chain: req.chain, caller: req.caller, cost: req.cost, now_s: t.now_s() }).core;
          lines.push(stepLine(i, d, chain.length, wire, ref));
          decided++;
          const v = `${wire.verdict}${wire.deny_reason ? ` ${wire.deny_reason}` : ''}`;
          verdicts.set(v, (verdicts.get(v) ?? 0) + 1);
          if (JSON.stringify(withoutSteward(wire), big) !== JSON.stringify(withoutSteward(ref), big)) {
            throw new Error(
              `request ${i} was decided differently by the endpoint and the reference:\n  ${lines.join('\n  ')}\n` +
                `  endpoint core:  ${JSON.stringify(withoutSteward(wire), big)}\n  reference core: ${JSON.stringify(withoutSteward(ref), big)}`,
            );
          }
        }
      }),
      { seed, numRuns: runs(), endOnFailure: true },
    );
  } finally {
    await c.close();
  }
  const seen = [...verdicts].sort(([, a], [, b]) => b - a).map(([k, n]) => `${k} ${n}`).join(', ');
  console.log(`wire decisions${caveats ? ', caveats drawn' : ''}: ${decided} requests in ${runs()} sequences; ${seen}`);
  // the draw reached both verdicts and several reasons: a run that only ever allowed (or only denied) decided little
  expect(verdicts.get('allow') ?? 0, `verdicts seen: ${seen}`).toBeGreaterThan(0);
  expect(verdicts.size, `verdicts seen: ${seen}`).toBeGreaterThanOrEqual(4);
  expect(decided).toBeGreaterThanOrEqual(runs());
  return verdicts;
}

describe('the decision space over the jcp/1 wire, against the reference', () => {
  clauseIt(
    [
      'jcp/4.2#verify-hop-by-hop',
      'jcp/4.2#broken-or-amplifying-denied',
      'jcp/4.2#delegated-alone-chain-broken',
      'jcp/4.2#sibling-conservation',
      'jcp/7#chained-order',
      'jcp/7#budget-exceeded',
      'jcp/7#debit-on-allow',
      'jcp/5#debit-coupling',
      'jcp/8.1#chain-ids',
    ],
    'random chains, frames, callers and costs sent to the endpoint are decided as the reference decides them: every receipt core equal, the spend of every link with it',
    async () => {
      const verdicts = await decisionSpace(await wireTarget(), false);
      expect(verdicts.get('deny budget-exceeded') ?? 0, 'a budget was reached').toBeGreaterThan(0);
    },
    120_000,
  );

  clauseIt(
    ['jcp/4.9#caveats-all-hold', 'jcp/4.9#support-caveat-variants', 'jcp/4.9#child-carries-parent-caveats', 'jcp/4.9#drop-caveat-refused'],
    'the same with caveats on the links (every cost-independent variant and MaxCostUj, a child that drops its parent\'s): decided as the reference decides',
    async () => {
      // grants are written by the harness in the published layout (a caveat is a map of one variant); an endpoint
      // whose implementation lays caveats out its own way (no "byte-contract" feature) cannot be sent them
      if (!claimsByteContract(await testeeInfo())) throw new UnimplementedError('caveats in the published grant layout', 'the implementation does not claim the byte contract, and the harness has no way to write caveats in its own layout over the wire');
      const verdicts = await decisionSpace(await wireTarget(), true);
      expect(verdicts.get('deny caveat-unsatisfied') ?? 0, 'a caveat decided a request').toBeGreaterThan(0);
    },
    120_000,
  );

  clauseIt(
    ['jcp/9#c16-chained-replay', 'jcp/8.1#rebuild-by-replay', 'jcp/4.11#re-establish-before-deciding'],
    'after a restart, the spend of every link of a three-link chain is what the reference holds: leaf and ancestor debits replayed, nothing more',
    async () => {
      const t = await wireTarget();
      if (!t.restart) throw new RunLacks('--endpoint-restart', 'needs --endpoint-restart: the harness cannot restart an external endpoint without a command that does');
      const label = t.label('wire-decisions:chained replay');
      const now = t.now_s();
      const w: World = {
        rootBudget: 1000,
        rootActions: 1,
        rootCaveat: 'none',
        rootCap: 0,
        expired: false,
        links: [
          { budgetPct: 60, caveat: 'none', cap: 0, make: 'within' },
          { budgetPct: 50, caveat: 'none', cap: 0, make: 'within' },
        ],
        requests: [],
      };
      const chain = chainOf(t, w, label, now);
      const reference = createEnforcementPoint({ steward: key('wire-decisions:model steward') });
      const spendOn = (link: number, uj: number, p: number): RequestDraw => ({ link, caller: 'subject', chain: 'full', action: 0, resource: 'granted', kind: 0, trust: 'control', payload: p % 2, model: 2, uj, provenance: 2, partial: false });
      const other = contentId({ resource: `${label}:other` });
      // spend through the leaf (charging all three links), the middle link (two) and the root (one), with one denial
      const steps = [spendOn(2, 120, 0), spendOn(1, 90, 1), spendOn(0, 200, 0), spendOn(2, 400, 1), spendOn(2, 70, 1)];
      await onConnection(t, async (c) => {
        for (const d of steps) {
          const { req, signer } = requestOf(chain, d, other, t.now_s());
          const wire = await decideOverWire(t, c, req, signer);
          const ref = reference.decide({ frame: req.frame, chain: req.chain, caller: req.caller, cost: req.cost, now_s: t.now_s() }).core;
          expect(withoutSteward(wire)).toEqual(withoutSteward(ref));
        }
      });
      await t.restart();
      await onConnection(t, async (c) => {
        // a request over what any link holds is denied and debits nothing; its receipt states the link's remaining budget
        for (const [link, sg] of chain.entries()) {
          const { req, signer } = requestOf(chain, { ...spendOn(link, 0, 0), uj: Number(sg.grant.budget_uj) + 1, payload: 1 }, other, t.now_s());
          const wire = await decideOverWire(t, c, req, signer);
          expect([wire.verdict, wire.deny_reason]).toEqual(['deny', 'budget-exceeded']);
          expect(wire.budget_remaining_uj, `link ${link}'s remaining budget after the restart`).toBe(reference.remaining(sg.grant));
        }
      });
    },
    60_000,
  );
});


/** JSON.stringify's replacer for bigints (receipt cores hold them). */
function big(_k: string, v: unknown): unknown {
  return typeof v === 'bigint' ? `${v}n` : v;
}
