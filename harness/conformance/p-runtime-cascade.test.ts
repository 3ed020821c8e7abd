// Conformance: jouleclaw §1.1 the energy-tiered cascade (suite-defined profile jouleclaw:P-CASCADE). The test hands the
// testee's cascade a scripted set of tiers (each closes the query or returns Unresolvable), in an order of its own, and
// judges the trace the testee reports (the tiers invoked, in order, and the tier that closed) against §1.1's words:
// cheapest first — cost order is the §1.1 table's, L0 Cache to L4 Wire — no tier before every cheaper one offered has
// returned Unresolvable, and a stop at the first tier that closes. The expected walk is computed here from the script.
import fc from 'fast-check';
import { describe, expect } from 'vitest';
import { clauseIt } from '../clause.ts';
import { implementation } from '../driver.ts';
import { fcParams } from '../external-vectors.ts';
import { assertProperty } from '../refusal.ts';

const DISPATCH = 'jouleclaw/1.1#dispatch-through-cascade';
const STOP = 'jouleclaw/1.1#stop-at-first-closing-tier';
const NO_HIGHER = 'jouleclaw/1.1#no-higher-tier-before-unresolvable';

/** §1.1's table, cheapest first. */
const COST_ORDER = ['L0', 'L1', 'L2', 'L3', 'L4'] as const;
type Tier = (typeof COST_ORDER)[number];
type Outcome = 'closes' | 'unresolvable';
type Script = readonly { readonly tier: Tier; readonly outcome: Outcome }[];
interface Walk {
  readonly invoked: string[];
  readonly resolved?: string;
}

async function walk(script: Script): Promise<Walk> {
  const r = await (await implementation())._call('cascade.run', { tiers: script.map((t) => ({ ...t })) });
  const invoked = r.get('invoked');
  expect(Array.isArray(invoked), 'cascade.run answers the tiers it invoked as an array').toBe(true);
  const resolved = r.get('resolved');
  return { invoked: invoked as string[], ...(resolved !== undefined ? { resolved: resolved as string } : {}) };
}

const cost = (t: string): number => COST_ORDER.indexOf(t as Tier);
const outcomeOf = (s: Script, t: string): Outcome | undefined => s.find((x) => x.tier === t)?.outcome;
/** The cheapest tier of the script that closes the query, or undefined. */
const firstClosing = (s: Script): Tier | undefined => [...s].sort((a, b) => cost(a.tier) - cost(b.tier)).find((t) => t.outcome === 'closes')?.tier;

/** §1.1 "dispatch every resolution through an explicit energy-tiered cascade": what the walk reports resolved is what the walk closed. */
function dispatchViolations(s: Script, w: Walk): string[] {
  const out: string[] = [];
  for (const t of w.invoked) if (outcomeOf(s, t) === undefined) out.push(`invoked ${t}, which the cascade was not offered`);
  const want = firstClosing(s);
  if (want === undefined && w.resolved !== undefined) out.push(`no offered tier closes the query, yet the walk reports it resolved by ${w.resolved}`);
  if (want !== undefined && w.resolved !== want) out.push(`the cheapest tier that closes the query is ${want}; the walk reports ${w.resolved ?? 'no resolution'}`);
  if (w.resolved !== undefined && !w.invoked.includes(w.resolved)) out.push(`the walk reports ${w.resolved} resolved the query but never invoked it`);
  return out;
}

/** §1.1 "MUST stop at the first tier that closes the query": nothing is invoked after a tier closed it. */
function stopViolations(s: Script, w: Walk): string[] {
  const i = w.invoked.findIndex((t) => outcomeOf(s, t) === 'closes');
  if (i < 0) return [];
  const after = w.invoked.slice(i + 1);
  return after.length > 0 ? [`${w.invoked[i]} closed the query, yet ${after.join(', ')} ${after.length === 1 ? 'was' : 'were'} invoked after it`] : [];
}

/** §1.1 "MUST NOT invoke a higher-cost tier before the lower-cost tiers have returned Unresolvable". */
function orderViolations(s: Script, w: Walk): string[] {
  const out: string[] = [];
  w.invoked.forEach((t, i) => {
    const before = w.invoked.slice(0, i);
    for (const lower of s.filter((x) => cost(x.tier) < cost(t))) {
      if (!before.includes(lower.tier)) out.push(`${t} was invoked (call ${i + 1}) before the cheaper ${lower.tier} had been invoked`);
      else if (lower.outcome !== 'unresolvable') out.push(`${t} was invoked (call ${i + 1}) although the cheaper ${lower.tier} closed the query`);
    }
  });
  return out;
}

const script = (pairs: ReadonlyArray<readonly [Tier, Outcome]>): Script => pairs.map(([tier, outcome]) => ({ tier, outcome }));

/** Random scripts: a non-empty subset of the tiers, in a random order, each closing or Unresolvable. */
const scripts = fc
  .shuffledSubarray([...COST_ORDER], { minLength: 1 })
  .chain((tiers) => fc.tuple(fc.constant(tiers), fc.array(fc.constantFrom<Outcome>('closes', 'unresolvable'), { minLength: tiers.length, maxLength: tiers.length })))
  .map(([tiers, outcomes]) => tiers.map((tier, i) => ({ tier, outcome: outcomes[i]! })));

/** A script whose tiers are handed most expensive first, the cheapest closing one in the middle. */
const REVERSED = script([['L4', 'closes'], ['L3', 'closes'], ['L2', 'unresolvable'], ['L1', 'unresolvable'], ['L0', 'unresolvable']]);

describe('the energy-tiered cascade (jouleclaw §1.1)', () => {
  clauseIt([DISPATCH], 'the resolution is the cheapest tier that closes the query, reached by the walk; none closing resolves nothing', async () => {
    expect(dispatchViolations(REVERSED, await walk(REVERSED))).toEqual([]);
    const none = script([['L2', 'unresolvable'], ['L0', 'unresolvable']]);
    expect(dispatchViolations(none, await walk(none))).toEqual([]);
    const lawful = script([['L3', 'closes'], ['L1', 'closes'], ['L0', 'unresolvable']]);
    expect((await walk(lawful)).resolved).toBe('L1');
  });

  clauseIt([STOP], 'a tier that closes the query ends the walk: no tier above it is invoked', async () => {
    const cache = script([['L4', 'closes'], ['L0', 'closes'], ['L3', 'closes']]);
    const w = await walk(cache);
    expect(w.invoked).toEqual(['L0']);
    expect(stopViolations(REVERSED, await walk(REVERSED))).toEqual([]);
  });

  clauseIt([NO_HIGHER], 'no tier is invoked before every cheaper tier offered has returned Unresolvable, whatever order the tiers are offered in', async () => {
    const w = await walk(REVERSED);
    expect(orderViolations(REVERSED, w)).toEqual([]);
    expect(w.invoked.slice(0, 3)).toEqual(['L0', 'L1', 'L2']);
  });

  clauseIt([DISPATCH, STOP, NO_HIGHER], 'every walk over a random tier script keeps the three rules of §1.1 (property)', async () => {
    await assertProperty(
      fc.asyncProperty(scripts, async (s) => {
        const w = await walk(s);
        expect(dispatchViolations(s, w), DISPATCH).toEqual([]);
        expect(stopViolations(s, w), STOP).toEqual([]);
        expect(orderViolations(s, w), NO_HIGHER).toEqual([]);
      }),
      fcParams(60),
    );
  });
});
