// Clause mutants of jouleclaw:P-ENERGY's readings (jouleclaw §1.3): source patches of copies of impl/ modules
// (mutation/testees/patches.ts), filed under the profile in the kill matrix.
import type { Mutant, Unbroken } from '../catalog.ts';
import type { SourcePatch } from '../testees/patches.ts';
import { P } from './applied.ts';

const LD = 'impl/energy/ladder.ts';
const LV = 'impl/energy/liveness.ts';
const PL = 'impl/energy/plausibility.ts';
const TR = 'impl/energy/tree.ts';
const JE = 'jouleclaw:P-ENERGY';

export const READINGS_PROFILE_MUTANTS: readonly Mutant[] = [
  // jouleclaw §1.3: "Every energy reading MUST carry a Provenance tag declaring how the value was obtained"
  { id: 'readings-counter-tagged-model', clauses: ['jouleclaw/1.3#reading-carries-provenance'], class: JE, description: "a live counter's reading is tagged ModelBased, a vendor estimate, not HwShunt, the hardware reading it was obtained as", applied: `${P(LD)} walkLadder makes the counter rung's figure with provenance ModelBased` },
  // jouleclaw §1.3 Liveness: "the implementation MUST have observed the counter covering that domain advance under load"
  { id: 'readings-advance-not-observed', clauses: ['jouleclaw/1.3#hw-grade-only-while-live'], class: JE, description: 'every counted interval the counter did not go backwards over counts as an advance: a counter never seen to advance is judged live', applied: `${P(LV)} judgeLiveness flags an interval as advanced whenever its wrap-corrected delta exists, zero included` },
  // jouleclaw §1.3: "A counter that is present but not live — frozen, or republished in lumps — MUST NOT produce a hardware-graded figure"
  { id: 'readings-lumps-judged-live', clauses: ['jouleclaw/1.3#not-live-no-hw-grade'], class: JE, description: 'a counter republished in lumps is given a live verdict, so the ladder grades its figure HwShunt', applied: `${P(LV)} judgeLiveness answers live when the only reason against is republished-in-lumps` },
  // jouleclaw §1.3: "A figure MUST NOT claim coverage of a domain its counter does not read; (...) such a figure is Partial."
  { id: 'readings-nvml-whole', clauses: ['jouleclaw/1.3#no-coverage-beyond-counter'], class: JE, description: "the GPU's NVML counter, which does not read the CPU's share of the work, makes a Whole figure", applied: `${P(LD)} ALWAYS_PARTIAL emptied (NVML no longer Partial)` },
  // jouleclaw §1.3: "it MUST apply the bound in both directions"
  { id: 'readings-floor-never-fires', clauses: ['jouleclaw/1.3#bound-two-sided'], class: JE, description: 'the bound is applied above only: a counter accruing far less than the board draw is never refuted', applied: `${P(PL)} judgePlausibility's under-rate floor fixed at 0 mW` },
  // jouleclaw §1.3: "an indeterminate MUST NOT be graded as a hardware reading either"
  { id: 'readings-indeterminate-as-no-bound', clauses: ['jouleclaw/1.3#indeterminate-not-hw-grade'], class: JE, description: 'a counter left indeterminate by an unusable yardstick is read as one with no bound, and graded HwShunt', applied: `${P(LD)} judgeRung drops an indeterminate plausibility verdict` },
  // jouleclaw §1.3: "A bound MUST NOT fire where the device is near idle and the yardstick leaves no room for a finding"
  { id: 'readings-floor-at-idle', clauses: ['jouleclaw/1.3#bound-silent-near-idle'], class: JE, description: 'at a draw within the ±5 W slack the floor is a quarter of the raw draw, so a correct counter at idle is refuted as under-rate', applied: `${P(PL)} underRateFloorMw answers mean / 4 instead of 0 at or below the slack` },
  // jouleclaw §1.3: "An implementation MUST take each read of its own process only once it has checked that the reading thread left its core just before it"
  { id: 'readings-unmoved-thread-left-core', clauses: ['jouleclaw/1.3#own-process-read-after-off-core'], class: JE, description: "a reading thread whose own energy count did not rise across its sleep is taken as having left its core, so its read is taken", applied: `${P(TR)} threadLeftCore answers after >= before` },
];

export const READINGS_PROFILE_PATCHES: Readonly<Record<string, readonly SourcePatch[]>> = {
  'readings-counter-tagged-model': [{ file: LD, find: "provenance: 'HwShunt', coverage, obtained });", replace: "provenance: 'ModelBased', coverage, obtained });" }],
  'readings-advance-not-observed': [{ file: LV, find: 'flags.push(d !== undefined && d > 0n);', replace: 'flags.push(d !== undefined);' }],
  'readings-lumps-judged-live': [
    {
      file: LV,
      find: 'return Object.freeze(reason === undefined ? { live: true, ...base } : { live: false, reason, ...base });',
      replace: "return Object.freeze(reason === undefined || reason === 'republished-in-lumps' ? { live: true, ...base } : { live: false, reason, ...base });",
    },
  ],
  'readings-nvml-whole': [{ file: LD, find: "const ALWAYS_PARTIAL: ReadonlySet<CounterRung> = new Set(['nvml']);", replace: 'const ALWAYS_PARTIAL: ReadonlySet<CounterRung> = new Set([]);' }],
  'readings-floor-never-fires': [{ file: PL, find: 'const floor_mw = underRateFloorMw(mean_draw_mw);', replace: 'const floor_mw = 0n;' }],
  'readings-indeterminate-as-no-bound': [{ file: LD, find: '...(plausibility ? { plausibility } : {}),', replace: "...(plausibility && plausibility.verdict !== 'indeterminate' ? { plausibility } : {})," }],
  'readings-floor-at-idle': [{ file: PL, find: 'return net > 0n ? net / GPU_UNDER_FACTOR : 0n;', replace: 'return net > 0n ? net / GPU_UNDER_FACTOR : mean_draw_mw / GPU_UNDER_FACTOR;' }],
  'readings-unmoved-thread-left-core': [{ file: TR, find: 'return thread_energy_after_nj > thread_energy_before_nj;', replace: 'return thread_energy_after_nj >= thread_energy_before_nj;' }],
};

export const READINGS_PROFILE_UNBROKEN: readonly Unbroken[] = [];
