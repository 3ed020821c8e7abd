// Clause mutants of the suite-defined profiles sense:P-ENERGY, sense:P-OBSERVER, jouleclaw:P-ENERGY: source patches of copies of impl/ modules
// (mutation/testees/patches.ts), filed under each profile in the kill matrix.
import type { Mutant, Unbroken } from '../catalog.ts';
import type { SourcePatch } from '../testees/patches.ts';
import { P } from './applied.ts';

const SM = 'impl/energy/sense-meter.ts';
const EN = 'impl/energy/energy.ts';
const LV = 'impl/energy/liveness.ts';
const SAL = 'impl/sense/salience.ts';
const FL = 'impl/energy/floors.ts';
const AS = 'impl/energy/apple-self.ts';
const SE = 'sense:P-ENERGY';
const SO = 'sense:P-OBSERVER';
const JE = 'jouleclaw:P-ENERGY';

export const ENERGY_PROFILE_MUTANTS: readonly Mutant[] = [
  // ---- sense:P-ENERGY (sense §7) ----
  { id: 'sense-measured-from-dead-counter', clauses: ['sense/7#integer-uj-pair'], class: SE, description: 'with no live counter the figure carries the dead counters\' advance as measured_uj (ModelBased)', applied: `${P(SM)} the estimator fallback made an apportioned reading of every counter's delta` },
  { id: 'sense-estimate-dropped', clauses: ['sense/7#integer-uj-pair'], class: SE, description: 'a hardware figure comes without its estimated_uj', applied: `${P(SM)} estimated_uj cleared from the HwShunt figure` },
  { id: 'sense-hwshunt-unmeasured', clauses: ['sense/7#hwshunt-requires-measurement'], class: SE, description: 'a HwShunt figure without measured_uj is made', applied: `${P(EN)} makeEnergy's HwShunt-requires-measured check skipped` },
  { id: 'sense-estimator-measured', clauses: ['sense/7#hwshunt-requires-measurement'], class: SE, description: 'an Estimator figure with measured_uj is made', applied: `${P(EN)} makeEnergy's Estimator-forbids-measured check skipped` },
  { id: 'sense-live-any-domain', clauses: ['sense/7#hw-grade-only-while-live'], class: SE, description: 'a live counter of a domain the figure does not claim makes it a hardware reading', applied: `${P(SM)} live counters taken whatever domain they cover` },
  { id: 'sense-not-live-graded', clauses: ['sense/7#not-live-no-hw-grade'], class: SE, description: "a claimed domain's counter that is not live is graded HwShunt", applied: `${P(SM)} the liveness verdict ignored` },
  { id: 'sense-too-little-time-live', clauses: ['sense/7#ioreport-liveness-criterion'], class: SE, description: 'a counter live over 200 ms of counted intervals is judged live (the criterion says 300 ms)', applied: `${P(LV)} LIVENESS_MIN_COUNTED_NS 200 ms` },
  { id: 'sense-three-of-five-live', clauses: ['sense/7#ioreport-liveness-criterion'], class: SE, description: 'a counter advancing in 3 of every 5 intervals is judged live (the criterion says 4)', applied: `${P(LV)} LIVENESS_MIN_ADVANCES_PER_WINDOW 3` },
  { id: 'sense-long-interval-counted', clauses: ['sense/7#ioreport-interval-rule'], class: SE, description: 'an interval over 75 ms counts among the intervals, as an advance and towards the 300 ms', applied: `${P(LV)} the 75 ms cap skipped` },
  { id: 'sense-coverage-whole', clauses: ['sense/7#no-coverage-beyond-counter'], class: SE, description: 'a hardware figure over a domain no live counter reads is Whole', applied: `${P(SM)} coverage always Whole` },
  // ---- sense:P-OBSERVER (sense §4) ----
  { id: 'observer-state-shared', clauses: ['sense/4#observer-deterministic'], class: SO, description: "the observer's recency window outlives the observer: a replay of the same events projects differently", applied: `${P(SAL)} the window hoisted out of createObserver to module scope` },
  { id: 'observer-salience-from-trust', clauses: ['sense/4#observer-deterministic'], class: SO, description: 'salience is the low-trust fraction of the window, not the current source\'s', applied: `${P(SAL)} salience computed from the low-trust count` },
  { id: 'observer-novelty-inverted', clauses: ['sense/4#observer-deterministic'], class: SO, description: "novelty is the source's share of all traffic, not one minus it", applied: `${P(SAL)} novelty answers the share` },
  { id: 'observer-uncertainty-high-trust', clauses: ['sense/4#observer-deterministic'], class: SO, description: 'uncertainty counts the Attested and FirstParty events of the window', applied: `${P(SAL)} LOW_TRUST lists the high trust levels` },
  // ---- jouleclaw:P-ENERGY (jouleclaw §1.3, §9.4) ----
  { id: 'jc-four-advances-live', clauses: ['jouleclaw/1.3#ioreport-liveness-criterion'], class: JE, description: 'a rail advancing in 4 intervals over 300 ms is judged live (the criterion says 5)', applied: `${P(LV)} LIVENESS_MIN_ADVANCES 4` },
  { id: 'jc-ioreport-microjoule', clauses: ['jouleclaw/1.3#surface-resolution-and-window'], class: JE, description: 'the meter surfaces a 1 µJ resolution for Apple IOReport', applied: `${P(FL)} the ioreport resolution_uj 1` },
  { id: 'jc-nvml-window-stale', clauses: ['jouleclaw/1.3#surface-resolution-and-window'], class: JE, description: "the meter surfaces a 10 ms window for NVML, below its counter's update rate", applied: `${P(FL)} the nvml min_window_ns 10 ms` },
  { id: 'jc-breaker-best-resolution', clauses: ['jouleclaw/1.3#breaker-worst-counter', 'jouleclaw/9.4#breaker-worst-counter'], class: JE, description: "the breaker enforces at the finest counter's resolution", applied: `${P(FL)} breakerGranularity keeps the smallest resolution_uj` },
  { id: 'jc-breaker-first-window', clauses: ['jouleclaw/1.3#breaker-worst-counter', 'jouleclaw/9.4#breaker-worst-counter'], class: JE, description: "the breaker takes the first counter's window, not the worst", applied: `${P(FL)} breakerGranularity never widens min_window_ns` },
  { id: 'jc-stop-end-unchecked', clauses: ['jouleclaw/1.3#unchecked-span-end-not-hw'], class: JE, description: 'a span whose stop read was not checked is graded HwShunt', applied: `${P(AS)} only the start end decides the estimate` },
  { id: 'jc-shared-rail-split', clauses: ['jouleclaw/1.3#shared-gpu-rail-not-split'], class: JE, description: "a shared GPU's rail is split by the process's share of GPU time", applied: `${P(AS)} appleGpuFigure answers rail × own / all for a shared GPU` },
];

export const ENERGY_PROFILE_PATCHES: Readonly<Record<string, readonly SourcePatch[]>> = {
  'sense-measured-from-dead-counter': [
    {
      file: SM,
      find: "makeEnergy({ estimated_uj, provenance: 'Estimator', obtained: { how: 'uncalibrated-model' } })",
      replace: "makeEnergy({ measured_uj: counters.reduce((s, c) => s + c.delta_uj, 0n), estimated_uj, provenance: 'ModelBased', obtained: { how: 'apportioned-reading' } })",
    },
  ],
  'sense-estimate-dropped': [{ file: SM, find: 'return Object.freeze({ energy, why });', replace: 'return Object.freeze({ energy: { ...energy, estimated_uj: undefined as unknown as bigint }, why });' }],
  'sense-hwshunt-unmeasured': [{ file: EN, find: "if (f.provenance === 'HwShunt' && measured_uj === undefined)", replace: "if (false && (f.provenance === 'HwShunt' && measured_uj === undefined))" }],
  'sense-estimator-measured': [{ file: EN, find: "if (f.provenance === 'Estimator' && measured_uj !== undefined)", replace: "if (false && (f.provenance === 'Estimator' && measured_uj !== undefined))" }],
  'sense-live-any-domain': [{ file: SM, find: 'const live = judged.filter(({ c, v }) => domains.includes(c.domain) && v.live);', replace: 'const live = judged.filter(({ v }) => v.live);' }],
  'sense-not-live-graded': [{ file: SM, find: 'const live = judged.filter(({ c, v }) => domains.includes(c.domain) && v.live);', replace: 'const live = judged.filter(({ c }) => domains.includes(c.domain));' }],
  'sense-too-little-time-live': [{ file: LV, find: 'export const LIVENESS_MIN_COUNTED_NS = 300_000_000n;', replace: 'export const LIVENESS_MIN_COUNTED_NS = 200_000_000n;' }],
  'sense-three-of-five-live': [{ file: LV, find: 'export const LIVENESS_MIN_ADVANCES_PER_WINDOW = 4;', replace: 'export const LIVENESS_MIN_ADVANCES_PER_WINDOW = 3;' }],
  'sense-long-interval-counted': [{ file: LV, find: 'if (len > LIVENESS_MAX_INTERVAL_NS)', replace: 'if (false && (len > LIVENESS_MAX_INTERVAL_NS))' }],
  'sense-coverage-whole': [{ file: SM, find: "const covers = uncovered.length > 0 ? 'Partial' : 'Whole';", replace: "const covers = 'Whole' as const;" }],
  // sense §4
  'observer-state-shared': [
    {
      file: SAL,
      find: 'export function createObserver(): Observer {\n  const window: Array<{ source: SourceClass; low: boolean }> = [];',
      replace: 'const window: Array<{ source: SourceClass; low: boolean }> = [];\nexport function createObserver(): Observer {',
    },
  ],
  'observer-salience-from-trust': [{ file: SAL, find: 'salience: (same * SCALE_PPM) / w,', replace: 'salience: (low * SCALE_PPM) / w,' }],
  'observer-novelty-inverted': [{ file: SAL, find: 'novelty: SCALE_PPM - (share * SCALE_PPM + total - 1n) / total,', replace: 'novelty: (share * SCALE_PPM) / total,' }],
  'observer-uncertainty-high-trust': [{ file: SAL, find: "const LOW_TRUST: readonly TrustLevel[] = ['Inferred', 'Untrusted'];", replace: "const LOW_TRUST: readonly TrustLevel[] = ['Attested', 'FirstParty'];" }],
  // jouleclaw §1.3, §9.4
  'jc-four-advances-live': [{ file: LV, find: 'export const LIVENESS_MIN_ADVANCES = 5;', replace: 'export const LIVENESS_MIN_ADVANCES = 4;' }],
  'jc-ioreport-microjoule': [{ file: FL, find: 'ioreport: { resolution_uj: 1_000n,', replace: 'ioreport: { resolution_uj: 1n,' }],
  'jc-nvml-window-stale': [{ file: FL, find: 'nvml: { resolution_uj: 1_000n, min_window_ns: 100_000_000n },', replace: 'nvml: { resolution_uj: 1_000n, min_window_ns: 10_000_000n },' }],
  'jc-breaker-best-resolution': [{ file: FL, find: 'if (c.resolution_uj > resolution_uj) resolution_uj = c.resolution_uj;', replace: 'if (c.resolution_uj < resolution_uj) resolution_uj = c.resolution_uj;' }],
  'jc-breaker-first-window': [{ file: FL, find: 'if (c.min_window_ns > min_window_ns) min_window_ns = c.min_window_ns;', replace: '' }],
  'jc-stop-end-unchecked': [{ file: AS, find: 'if (!startChecked || !stopChecked) {', replace: 'if (!startChecked) {' }],
  'jc-shared-rail-split': [{ file: AS, find: '  return undefined;\n}', replace: '  return (rail * own) / all / 1_000n;\n}' }],
};

export const ENERGY_PROFILE_UNBROKEN: readonly Unbroken[] = [];
