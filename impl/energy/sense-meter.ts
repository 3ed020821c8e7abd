// sense §7: a metered figure from the vendor counters a host read for a piece of work. "Every metered figure (...) is an
// integer microjoule pair: measured_uj (present only from a live hardware interface) and estimated_uj (always
// present), tagged with a Provenance"; a counter's reading "MAY be graded as a hardware reading (HwShunt, with
// measured_uj) only while the counter is demonstrably live for the domain the figure claims"; a counter present but
// not live "MUST NOT produce a hardware-graded figure"; "A figure MUST NOT claim coverage of a domain its counter does
// not read; where the format has a coverage field, such a figure is Partial."
//
// Readings taken here (the spec leaves them to the host): liveness is judged by liveness.ts judgeLiveness (the IOReport
// criterion and the interval rule); the measurement is the sum of the advances of the live counters covering a claimed
// domain; a counter covering no claimed domain is ignored; with no such live counter the figure falls back to the
// estimator (sense §7 also permits reporting the work unmetered; the reference always gives the estimate) and says why.
import { JcpError } from '../errors.ts';
import { makeEnergy, type Energy } from './energy.ts';
import { judgeLiveness, type CounterSample, type LivenessVerdict } from './liveness.ts';

/** One vendor counter read for the work: the domain it covers, its samples under the liveness probe, its advance over the span. */
export interface SenseCounter {
  readonly domain: string;
  readonly samples: readonly CounterSample[];
  readonly delta_uj: bigint;
}

/** A metered figure with the record of why a counter did not make it a hardware reading (sense §7: "SHOULD record why"). */
export interface SenseMetered {
  readonly energy: Energy;
  /** Each claimed domain no live counter covers, and each counter of a claimed domain that was not live, with why. */
  readonly why: readonly string[];
}

function assertInput(domains: readonly string[], counters: readonly SenseCounter[], estimated_uj: bigint): void {
  if (!Array.isArray(domains) || domains.length === 0 || !domains.every((d) => typeof d === 'string' && d.length > 0)) {
    throw new JcpError('ERR_ENERGY_MALFORMED', 'domains must be a non-empty array of domain names');
  }
  if (new Set(domains).size !== domains.length) throw new JcpError('ERR_ENERGY_MALFORMED', 'a domain is claimed twice');
  if (!Array.isArray(counters)) throw new JcpError('ERR_ENERGY_MALFORMED', 'counters must be an array');
  counters.forEach((c, i) => {
    if (typeof c?.domain !== 'string' || c.domain.length === 0) throw new JcpError('ERR_ENERGY_MALFORMED', `counters[${i}].domain must name a domain`);
    if (typeof c.delta_uj !== 'bigint' || c.delta_uj < 0n) throw new JcpError('ERR_ENERGY_MALFORMED', `counters[${i}].delta_uj must be a non-negative integer of µJ`);
  });
  if (typeof estimated_uj !== 'bigint' || estimated_uj < 0n) throw new JcpError('ERR_ENERGY_MALFORMED', 'estimated_uj must be a non-negative integer of µJ');
}

/**
 * The figure for work claiming `domains` (sense §7). HwShunt, with measured_uj the summed advance of the live counters
 * covering a claimed domain, when there is at least one; Partial when some claimed domain has no live counter;
 * otherwise the estimator's figure (Estimator, no measurement). Every figure goes through makeEnergy.
 */
export function meterSenseFigure(domains: readonly string[], counters: readonly SenseCounter[], estimated_uj: bigint): SenseMetered {
  assertInput(domains, counters, estimated_uj);
  const why: string[] = [];
  const judged: Array<{ c: SenseCounter; v: LivenessVerdict }> = counters.map((c) => ({ c, v: judgeLiveness(c.samples) }));
  // sense §7: "live for the domain the figure claims: the implementation MUST have observed the counter covering that domain advance under load"
  const live = judged.filter(({ c, v }) => domains.includes(c.domain) && v.live);
  for (const { c, v } of judged) if (domains.includes(c.domain) && !v.live) why.push(`the ${c.domain} counter is not live (${v.reason})`);
  const covered = new Set(live.map(({ c }) => c.domain));
  const uncovered = domains.filter((d) => !covered.has(d));
  for (const d of uncovered) why.push(`no live counter covers ${d}`);
  if (live.length === 0) {
    // sense §7: "A counter that is present but not live (...) MUST NOT produce a hardware-graded figure; the implementation falls back to its estimator"
    return Object.freeze({ energy: makeEnergy({ estimated_uj, provenance: 'Estimator', obtained: { how: 'uncalibrated-model' } }), why });
  }
  const measured_uj = live.reduce((s, { c }) => s + c.delta_uj, 0n);
  // sense §7: "A figure MUST NOT claim coverage of a domain its counter does not read (...) such a figure is Partial"
  const covers = uncovered.length > 0 ? 'Partial' : 'Whole';
  const energy = makeEnergy({
    measured_uj,
    estimated_uj,
    provenance: 'HwShunt',
    coverage: covers,
    obtained: { how: 'counter', live: true, read_both_ends: true, plausibility: 'no-bound', covers },
  });
  return Object.freeze({ energy, why });
}
