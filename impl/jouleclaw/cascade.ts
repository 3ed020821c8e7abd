// jouleclaw §1.1 the energy-tiered cascade: every resolution is dispatched through the tiers cheapest first
// (L0 Cache, L1 Lawful, L2 Embed, L3 Model, L4 Wire); the walk stops at the first tier that closes the query, and no
// tier is invoked before every cheaper tier offered has returned Unresolvable. "Inference is the last resort, not the
// entry point."
//
// Readings taken: the tiers a walk has are the ones it is offered (a runtime without a backend for a tier has no such
// tier); cost order is the §1.1 table's order, the wire tags' order (§7: stable, never renumbered). A walk in which no
// tier closes resolves nothing: its trace lists every tier offered, each having returned Unresolvable.
import { JcpError } from '../errors.ts';
import { TIERS, type Tier } from './receipt.ts';

/** What a tier answers: it closes the query (with its value), or it returns Unresolvable. */
export type TierAnswer<T> = { readonly closes: true; readonly value: T } | { readonly closes: false };

/** jouleclaw §1.1 a tier's Unresolvable. */
export const UNRESOLVABLE: TierAnswer<never> = Object.freeze({ closes: false });

/** One tier the cascade is offered: its wire tag and how to invoke it. */
export interface CascadeTier<T> {
  readonly tier: Tier;
  readonly invoke: () => TierAnswer<T>;
}

/** A walk's record: the tiers invoked, in order, and the tier that closed the query with its value (absent when none did). */
export interface CascadeWalkTrace<T> {
  readonly invoked: readonly Tier[];
  readonly resolved?: Tier;
  readonly value?: T;
}

/**
 * jouleclaw §1.1: walks `tiers` cheapest first, invoking each only after every cheaper one has returned Unresolvable,
 * and stops at the first that closes. A tag that is not L0–L4, or a tier offered twice, is ERR_BAD_ARGUMENT.
 */
export function runCascade<T>(tiers: readonly CascadeTier<T>[]): CascadeWalkTrace<T> {
  if (!Array.isArray(tiers)) throw new JcpError('ERR_BAD_ARGUMENT', 'the cascade is offered a list of tiers');
  const seen = new Set<string>();
  for (const t of tiers) {
    if (!(TIERS as readonly string[]).includes(t.tier)) throw new JcpError('ERR_BAD_ARGUMENT', `tier must be one of ${TIERS.join(', ')}, got "${String(t.tier)}"`);
    if (seen.has(t.tier)) throw new JcpError('ERR_BAD_ARGUMENT', `tier ${t.tier} is offered twice`);
    seen.add(t.tier);
  }
  // §1.1: cost order is the table's, L0 cheapest; the offer's own order says nothing
  const order = [...tiers].sort((a, b) => TIERS.indexOf(a.tier) - TIERS.indexOf(b.tier));
  const invoked: Tier[] = [];
  let found: { readonly tier: Tier; readonly value: T } | undefined;
  for (const t of order) {
    // §1.1: "MUST stop at the first tier that closes the query"
    if (found !== undefined) break;
    invoked.push(t.tier);
    const answer = t.invoke();
    if (answer.closes) found = { tier: t.tier, value: answer.value };
  }
  if (found === undefined) return Object.freeze({ invoked: Object.freeze(invoked) });
  return Object.freeze({ invoked: Object.freeze(invoked), resolved: found.tier, value: found.value });
}
