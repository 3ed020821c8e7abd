// sense §5 (second half): the attention gate. A highlight's value (its score, uncertainty highlights discounted) is
// weighed against the interruption cost (displacement ∝ engagement, plus interference when the surfacing would occupy
// the user's active modality); it surfaces only when value > cost + margin AND the budget can pay the price. The value
// test comes first, so the outcomes are surface, hold:value, hold:budget. Surfacing debits the budget; a hold spends
// nothing. Deterministic in its inputs (conformance C3).
//
// The suite's readings (the spec names the terms, not their constants): value and cost are ppm like the scores;
// an uncertainty highlight's value is ⌊score · 1/2⌋; displacement = ⌊engagement · 1/2⌋; interference = 250 000 when
// the surfacing's modality is the user's active one, else 0; margin = 50 000; "can pay" is budget_uj ≥ price_uj.
import { JcpError } from '../errors.ts';
import { _oneOf, _text, _uint } from './_read.ts';
import { PROBES, type Highlight, type Probe } from './highlight.ts';

/** Discount of an uncertainty highlight's value: NUM/DEN. */
export const UNCERTAINTY_DISCOUNT_NUM = 1n;
export const UNCERTAINTY_DISCOUNT_DEN = 2n;
/** Displacement weight on the user's engagement: NUM/DEN. */
export const DISPLACEMENT_NUM = 1n;
export const DISPLACEMENT_DEN = 2n;
/** The interference penalty when the surfacing would occupy the user's active modality (ppm). */
export const INTERFERENCE_PPM = 250_000n;
/** The margin value must clear above cost (ppm). */
export const SURFACE_MARGIN_PPM = 50_000n;

/** The three outcomes of sense §5. */
export const OUTCOMES = ['surface', 'hold:value', 'hold:budget'] as const;
/** A gate outcome. */
export type Outcome = (typeof OUTCOMES)[number];

/** The user and the surfacing, as the gate sees them. */
export interface UserContext {
  /** How engaged the user is, ppm (0 idle … 1 000 000 fully engaged). */
  readonly engagement_ppm: bigint;
  /** The modality the user is using now (e.g. "visual"). */
  readonly active_modality: string;
  /** The modality a surfacing would occupy. */
  readonly surface_modality: string;
}

/** One gate decision, with what the budget computed and the budget after it. */
export interface GateDecision {
  readonly highlight: Highlight;
  readonly value: bigint;
  readonly cost: bigint;
  readonly outcome: Outcome;
  readonly charged_uj: bigint;
  readonly budget_uj: bigint;
}

/** sense §5: value — "the highlight's probe score, with uncertainty highlights discounted". */
export function highlightValue(h: Pick<Highlight, 'probe' | 'score'>): bigint {
  return h.probe === 'uncertainty' ? (h.score * UNCERTAINTY_DISCOUNT_NUM) / UNCERTAINTY_DISCOUNT_DEN : h.score;
}

/** sense §5: interruption cost — displacement plus interference. */
export function interruptionCost(u: UserContext): bigint {
  const displacement = (u.engagement_ppm * DISPLACEMENT_NUM) / DISPLACEMENT_DEN;
  const interference = u.surface_modality === u.active_modality ? INTERFERENCE_PPM : 0n;
  return displacement + interference;
}

/** The outcome for a highlight of `value` at `cost` against `budget_uj` for a surfacing priced `price_uj`. */
export function decideOutcome(value: bigint, cost: bigint, budget_uj: bigint, price_uj: bigint): Outcome {
  // sense §5: "The value test comes first: a highlight that is not worth an interruption is hold:value whether or not
  // the budget could pay for it"
  if (!(value > cost + SURFACE_MARGIN_PPM)) return 'hold:value';
  // sense §5: "and the energy budget can pay the surfacing's joule price"
  if (budget_uj < price_uj) return 'hold:budget';
  return 'surface';
}

/** `u` checked: ERR_SENSE_SIGNAL_MALFORMED naming the first bad field. */
export function userContext(u: UserContext): UserContext {
  if (typeof u !== 'object' || u === null) throw new JcpError('ERR_SENSE_SIGNAL_MALFORMED', 'the user context must be an object');
  return Object.freeze({
    engagement_ppm: _uint(u.engagement_ppm, 'engagement_ppm', 'ERR_SENSE_SIGNAL_MALFORMED', 1_000_000n),
    active_modality: _text(u.active_modality, 'active_modality', 'ERR_SENSE_SIGNAL_MALFORMED'),
    surface_modality: _text(u.surface_modality, 'surface_modality', 'ERR_SENSE_SIGNAL_MALFORMED'),
  });
}

/** An attention budget: gates highlights in order, debiting each surfacing. */
export interface AttentionGate {
  gate(h: Highlight): GateDecision;
  /** The budget left, µJ. */
  budget_uj(): bigint;
}

/** A gate for `user` over `budget_uj`, each surfacing priced `price_uj`. */
export function createAttentionGate(userIn: UserContext, budgetIn: bigint, priceIn: bigint): AttentionGate {
  const user = userContext(userIn);
  let budget = _uint(budgetIn, 'budget_uj', 'ERR_SENSE_SIGNAL_MALFORMED');
  const price = _uint(priceIn, 'price_uj', 'ERR_SENSE_SIGNAL_MALFORMED');
  return Object.freeze({
    gate(hIn: Highlight): GateDecision {
      const h: Highlight = Object.freeze({
        probe: _oneOf(hIn?.probe, PROBES, 'highlight.probe', 'ERR_SENSE_SIGNAL_MALFORMED') as Probe,
        index: hIn.index,
        score: _uint(hIn.score, 'highlight.score', 'ERR_SENSE_SIGNAL_MALFORMED', 1_000_000n),
      });
      const value = highlightValue(h);
      const cost = interruptionCost(user);
      const outcome = decideOutcome(value, cost, budget, price);
      // sense §5: "Surfacing debits the budget; a hold spends nothing."
      const charged_uj = outcome === 'surface' ? price : 0n;
      budget -= charged_uj;
      return Object.freeze({ highlight: h, value, cost, outcome, charged_uj, budget_uj: budget });
    },
    budget_uj: () => budget,
  });
}

/** Gates `highlights` in order through a fresh gate. */
export function gateAll(highlights: readonly Highlight[], user: UserContext, budget_uj: bigint, price_uj: bigint): GateDecision[] {
  const g = createAttentionGate(user, budget_uj, price_uj);
  return highlights.map((h) => g.gate(h));
}
