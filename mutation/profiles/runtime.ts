// Clause mutants of the suite-defined profiles jouleclaw:P-CASCADE, P-CLAIMS, P-ORCHESTRATOR: source patches of copies of impl/ modules
// (mutation/testees/patches.ts), filed under each profile in the kill matrix.
import type { Mutant, Unbroken } from '../catalog.ts';
import type { SourcePatch } from '../testees/patches.ts';
import { P } from './applied.ts';

const CAS = 'impl/jouleclaw/cascade.ts';
const RET = 'impl/jouleclaw/retrieval.ts';
const ORC = 'impl/jouleclaw/orchestrator.ts';

export const RUNTIME_PROFILE_MUTANTS: readonly Mutant[] = [
  // ---- jouleclaw:P-CASCADE (jouleclaw §1.1) ----
  { id: 'cascade-resolution-misattributed', clauses: ['jouleclaw/1.1#dispatch-through-cascade'], class: 'jouleclaw:P-CASCADE', description: 'the walk runs, but the resolution it reports is the cheapest tier offered (a cache hit claimed), not the tier that closed the query', applied: `${P(CAS)} runCascade reports order[0] as the resolving tier` },
  { id: 'cascade-walks-past-close', clauses: ['jouleclaw/1.1#stop-at-first-closing-tier'], class: 'jouleclaw:P-CASCADE', description: 'the walk goes on invoking the tiers above the one that closed the query', applied: `${P(CAS)} runCascade never breaks out of its loop` },
  { id: 'cascade-offer-order', clauses: ['jouleclaw/1.1#no-higher-tier-before-unresolvable'], class: 'jouleclaw:P-CASCADE', description: 'the tiers are invoked in the order they were offered, not cheapest first', applied: `${P(CAS)} runCascade does not sort the tiers by cost` },
  { id: 'cascade-lawful-skipped', clauses: ['jouleclaw/1.1#no-higher-tier-before-unresolvable'], class: 'jouleclaw:P-CASCADE', description: 'L1 Lawful is never invoked: L2 and above run before it has returned Unresolvable', applied: `${P(CAS)} runCascade filters L1 out of the walk` },
  // ---- jouleclaw:P-CLAIMS (jouleclaw §1.2, §4) ----
  { id: 'claims-retrieval-never-preferred', clauses: ['jouleclaw/1.2#prefer-fresh-retrieval'], class: 'jouleclaw:P-CLAIMS', description: 'no source is ever preferred to the model, even one cheaper than the inference and trusted above the threshold', applied: `${P(RET)} retrievalPreferred answers false` },
  { id: 'claims-envelope-not-emitted', clauses: ['jouleclaw/1.2#retriever-emits-claim-provenance'], class: 'jouleclaw:P-CLAIMS', description: 'a resolution by retrieval emits no ClaimProvenance for the source that closed it', applied: `${P(RET)} resolveWithRetrieval closes the retrieval stage with an empty claims list` },
  { id: 'claims-hash-not-of-content', clauses: ['jouleclaw/4#claim-carries-provenance'], class: 'jouleclaw:P-CLAIMS', description: "a claim's content_hash is BLAKE3 of the source's name, not of the bytes as fetched", applied: `${P(RET)} claimProvenance hashes the source text` },
  { id: 'claims-synthesis-as-claim', clauses: ['jouleclaw/4#no-synthesised-as-retrieved'], class: 'jouleclaw:P-CLAIMS', description: 'a synthesised fact is added to the claims of a resolution by retrieval, as if retrieved', applied: `${P(RET)} resolveWithRetrieval appends a model-made envelope to the closing source's` },
  { id: 'claims-kept-on-fallback', clauses: ['jouleclaw/4#claims-empty-on-model-fallback'], class: 'jouleclaw:P-CLAIMS', description: "on the fall back to the model the envelopes of the sources fetched without closing the query stay in the claims array", applied: `${P(RET)} the model stage closes with the fetched envelopes` },
  { id: 'claims-fallback-tagged-embed', clauses: ['jouleclaw/4#claims-empty-on-model-fallback'], class: 'jouleclaw:P-CLAIMS', description: "every resolution is tagged L2 (Embed), the model's fallback included", applied: `${P(RET)} resolveWithRetrieval answers tier L2 whatever tier closed` },
  // ---- jouleclaw:P-ORCHESTRATOR (jouleclaw §18.2) ----
  { id: 'orchestrator-writers-fanned-out', clauses: ['jouleclaw/18.2#serial-dispatch-shared-state'], class: 'jouleclaw:P-ORCHESTRATOR', description: 'features that mutate shared state are fanned out like read-only ones: the next writer is dispatched before the one before it returned', applied: `${P(ORC)} runMission puts every feature in one batch` },
  { id: 'orchestrator-reverse-order', clauses: ['jouleclaw/18.2#serial-dispatch-shared-state'], class: 'jouleclaw:P-ORCHESTRATOR', description: 'the workers are dispatched serially, but last feature first', applied: `${P(ORC)} runMission batches the features reversed` },
  { id: 'orchestrator-handoffs-deferred', clauses: ['jouleclaw/18.2#handoff-recorded-before-next'], class: 'jouleclaw:P-ORCHESTRATOR', description: 'the workers run serially, but every handoff is recorded on the journal only once the last worker has returned', applied: `${P(ORC)} runMission flushes its pending handoffs only after the last batch` },
];

export const RUNTIME_PROFILE_PATCHES: Readonly<Record<string, readonly SourcePatch[]>> = {
  'cascade-resolution-misattributed': [{ file: CAS, find: 'resolved: found.tier, value', replace: 'resolved: order[0]!.tier, value' }],
  'cascade-walks-past-close': [{ file: CAS, find: 'if (found !== undefined) break;', replace: 'if (false && found !== undefined) break;' }],
  'cascade-offer-order': [{ file: CAS, find: '[...tiers].sort((a, b) => TIERS.indexOf(a.tier) - TIERS.indexOf(b.tier))', replace: '[...tiers]' }],
  'claims-retrieval-never-preferred': [{ file: RET, find: 'return s.cost_uj < q.inference_cost_uj && s.trust_tier > q.threshold;', replace: 'return false;' }],
  'claims-envelope-not-emitted': [{ file: RET, find: 'value: [envelope]', replace: 'value: [] as ClaimProvenance[]' }],
  'claims-hash-not-of-content': [{ file: RET, find: 'toHex(blake3(s.content))', replace: 'toHex(blake3(new TextEncoder().encode(s.source)))' }],
  'claims-synthesis-as-claim': [{ file: RET, find: 'value: [envelope]', replace: "value: [envelope, { source: 'model:L3', content_hash: toHex(blake3(new TextEncoder().encode('a synthesised fact'))), fetched_at: q.now, trust_tier: 10 }]" }],
  'claims-kept-on-fallback': [{ file: RET, find: 'value: [] as ClaimProvenance[] })', replace: 'value: [...fetched] })' }],
  'claims-fallback-tagged-embed': [{ file: RET, find: 'tier: walk.resolved!,', replace: "tier: 'L2' as Tier," }],
  'orchestrator-writers-fanned-out': [{ file: ORC, find: '!f.mutates_shared && !last[0]!.mutates_shared', replace: 'true' }],
  'orchestrator-reverse-order': [{ file: ORC, find: 'for (const f of features) {\n    const last', replace: 'for (const f of [...features].reverse()) {\n    const last' }],
  'orchestrator-handoffs-deferred': [{ file: ORC, find: 'before the next worker is dispatched"\n    flush();', replace: 'before the next worker is dispatched"' }],
  'cascade-lawful-skipped': [{ file: CAS, find: 'const order = [...tiers]', replace: "const order = [...tiers].filter((t) => t.tier !== 'L1')" }],
};

export const RUNTIME_PROFILE_UNBROKEN: readonly Unbroken[] = [];
