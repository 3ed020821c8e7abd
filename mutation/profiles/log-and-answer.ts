// Clause mutants of the suite-defined profiles jouleclaw:P-LOGGED (§22.3: an action the log cannot record is
// refused) and sense:P-HONESTY (sense §6: every answer carries an honest energy figure): source patches of copies of
// impl/ modules (mutation/testees/patches.ts), filed under each profile in the kill matrix.
import type { Mutant, Unbroken } from '../catalog.ts';
import type { SourcePatch } from '../testees/patches.ts';
import { P } from './applied.ts';

const TLG = 'impl/jouleclaw/tlog.ts';
const SRC = 'impl/sense/recall.ts';

export const LOG_ANSWER_PROFILE_MUTANTS: readonly Mutant[] = [
  { id: 'tlog-full-performed-unrecorded', clauses: ['jouleclaw/22.3#refuse-unrecordable-action'], class: 'jouleclaw:P-LOGGED', description: 'a log that is full lets the decision go ahead, performed (and debited) with no entry', applied: `${P(TLG)} the full-log refusal decides the request and answers its verdict unrecorded` },
  { id: 'tlog-foreign-performed-unrecorded', clauses: ['jouleclaw/22.3#refuse-unrecordable-action'], class: 'jouleclaw:P-LOGGED', description: "a log signing with a key other than the point's steward lets the decision go ahead with no entry", applied: `${P(TLG)} the foreign-steward refusal decides the request and answers its verdict unrecorded` },
  { id: 'tier0-answer-priced', clauses: ['sense/6#honest-energy-figure'], class: 'sense:P-HONESTY', description: 'a deterministic (Tier 0) answer carries a non-zero estimate', applied: `${P(SRC)} the Tier 0 figure estimates 5 µJ` },
];

const performed = (why: string) =>
  `{ const d = point.decide(req); return Object.freeze({ recorded: false, verdict: d.verdict, ...(d.deny_reason !== undefined ? { deny_reason: d.deny_reason } : {}), why: ${JSON.stringify(why)} }) as never; }`;

export const LOG_ANSWER_PROFILE_PATCHES: Readonly<Record<string, readonly SourcePatch[]>> = {
  'tlog-full-performed-unrecorded': [
    { file: TLG, find: 'if (!log.canRecord()) return unrecorded(`the log is full (${log.capacity} entries)`);', replace: `if (!log.canRecord()) ${performed('performed unrecorded')}` },
  ],
  'tlog-foreign-performed-unrecorded': [
    { file: TLG, find: '  if (log.steward !== point.steward) {\n    return unrecorded(', replace: `  if (log.steward !== point.steward) {\n    ${performed('performed unrecorded')}\n    return unrecorded(` },
  ],
  'tier0-answer-priced': [
    { file: SRC, find: "makeEnergy({ estimated_uj: 0n, provenance: 'Estimator', obtained: { how: 'constant' } })", replace: "makeEnergy({ estimated_uj: 5n, provenance: 'Estimator', obtained: { how: 'constant' } })" },
  ],
};

export const LOG_ANSWER_PROFILE_UNBROKEN: readonly Unbroken[] = [];
