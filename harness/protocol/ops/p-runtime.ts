// The testee protocol's operations of the suite-defined profiles jouleclaw:P-CASCADE, P-CLAIMS, P-ORCHESTRATOR (spec-map/profiles.json;
// harness/protocol/profiles/runtime.md).
import type { OpSpec, Shape } from '../shapes.ts';

const TIER: Shape = { enum: ['L0', 'L1', 'L2', 'L3', 'L4'] };
const OUTCOME: Shape = { enum: ['closes', 'unresolvable'] };

export const P_RUNTIME_OPS: Readonly<Record<string, OpSpec>> = {
  // jouleclaw §1.1: the testee's cascade over scripted tiers; the trace is what is judged
  'cascade.run': {
    about: 'jouleclaw §1.1 (jouleclaw:P-CASCADE)',
    args: { map: { tiers: { array: { map: { tier: TIER, outcome: OUTCOME } }, min: 1 } } },
    result: { map: { invoked: { array: TIER }, resolved: TIER }, optional: ['resolved'] },
  },
  // jouleclaw §1.2, §4: a query no tier below retrieval closed, scripted sources and the model's inference cost
  'claims.resolve': {
    about: 'jouleclaw §1.2, §4 (jouleclaw:P-CLAIMS)',
    args: {
      map: {
        now: 'text',
        threshold: 'uint',
        inference_cost_uj: 'uint',
        sources: { array: { map: { source: 'text', content: 'bytes', trust_tier: 'uint', cost_uj: 'uint', outcome: OUTCOME } } },
      },
    },
    result: { map: { tier: TIER, claims: { array: { map: { source: 'text', content_hash: 'text', fetched_at: 'text', trust_tier: 'uint' } } } } },
  },
  // jouleclaw §18.2: a feature plan with scripted workers; the trace of dispatches, returns and journal appends is judged
  'orchestrator.run': {
    about: 'jouleclaw §18.2 (jouleclaw:P-ORCHESTRATOR)',
    args: {
      map: {
        run_id: 'text',
        now_s: 'uint',
        features: { array: { map: { feature_id: 'text', worker: 'text', state: { enum: ['mutates', 'reads'] }, completed: { array: 'text' } }, optional: ['completed'] }, min: 1 },
      },
    },
    result: { map: { trace: { array: { map: { event: { enum: ['dispatch', 'complete', 'journal'] }, feature_id: 'text' } } } } },
  },
};
