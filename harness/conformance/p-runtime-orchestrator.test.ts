// Conformance: jouleclaw §18.2 the mission orchestrator's dispatch (suite-defined profile jouleclaw:P-ORCHESTRATOR).
// The test hands the testee a feature plan — each feature's id, its scripted worker, and whether its work mutates shared
// state — and judges the trace the testee reports: each worker's dispatch, its return (the worker's outcome handed
// back), and the append of its handoff to the run journal (§17), in the order they happened. §18.2's words decide:
//   - the workers of features that mutate shared state are dispatched in feature order, serially: the next such worker
//     only after the one before it has returned;
//   - each such worker's handoff is on the run journal before the next such worker is dispatched; every worker's
//     handoff is recorded, after the worker returned it.
// Read-only fan-out MAY be parallel (§18.2), so nothing is required of a read-only worker's timing against the others:
// a testee that runs the whole plan serially and one that fans read-only features out both pass. The trace's expected
// order is derived here from the plan, never from the reference's trace.
import fc from 'fast-check';
import { describe, expect } from 'vitest';
import { clauseIt } from '../clause.ts';
import { implementation } from '../driver.ts';
import { fcParams } from '../external-vectors.ts';
import { assertProperty } from '../refusal.ts';

const SERIAL = 'jouleclaw/18.2#serial-dispatch-shared-state';
const HANDOFF = 'jouleclaw/18.2#handoff-recorded-before-next';
const NOW_S = 1_780_000_000;

interface Feature {
  readonly feature_id: string;
  readonly state: 'mutates' | 'reads';
}
interface Step {
  readonly event: string;
  readonly feature_id: string;
}

let runs = 0;
async function orchestrate(plan: readonly Feature[]): Promise<Step[]> {
  const r = await (await implementation())._call('orchestrator.run', {
    run_id: `mission-${++runs}`,
    now_s: NOW_S,
    features: plan.map((f) => ({ feature_id: f.feature_id, worker: `did:key:worker-${f.feature_id}`, state: f.state, completed: [`${f.feature_id}: done`] })),
  });
  const trace = r.get('trace');
  expect(Array.isArray(trace), 'orchestrator.run answers its trace as an array').toBe(true);
  return (trace as unknown[]).map((s) => ({ event: String(s instanceof Map ? s.get('event') : undefined), feature_id: String(s instanceof Map ? s.get('feature_id') : undefined) }));
}

/** The positions of `event` for `feature_id` in the trace. */
const at = (t: readonly Step[], event: string, feature_id: string): number[] => t.flatMap((s, i) => (s.event === event && s.feature_id === feature_id ? [i] : []));
const once = (t: readonly Step[], event: string, f: Feature, out: string[]): number | undefined => {
  const p = at(t, event, f.feature_id);
  if (p.length !== 1) {
    out.push(`feature ${f.feature_id}: ${p.length} ${event} events, expected one`);
    return undefined;
  }
  return p[0];
};
const mutators = (plan: readonly Feature[]): Feature[] => plan.filter((f) => f.state === 'mutates');

/** §18.2 "dispatched in feature order, serially, when the features mutate shared state". */
function serialViolations(plan: readonly Feature[], t: readonly Step[]): string[] {
  const out: string[] = [];
  for (const f of plan) once(t, 'dispatch', f, out);
  const m = mutators(plan);
  for (let i = 0; i + 1 < m.length; i++) {
    const [a, b] = [m[i]!, m[i + 1]!];
    const da = at(t, 'dispatch', a.feature_id)[0];
    const ca = at(t, 'complete', a.feature_id)[0];
    const db = at(t, 'dispatch', b.feature_id)[0];
    if (da === undefined || db === undefined) continue;
    if (db < da) out.push(`${b.feature_id} was dispatched before ${a.feature_id}, which comes first in feature order (both mutate shared state)`);
    else if (ca === undefined || db < ca) out.push(`${b.feature_id} was dispatched while ${a.feature_id} had not returned (both mutate shared state)`);
  }
  return out;
}

/** §18.2 "Each worker's handoff MUST be recorded on the run journal before the next worker is dispatched". */
function handoffViolations(plan: readonly Feature[], t: readonly Step[]): string[] {
  const out: string[] = [];
  for (const f of plan) {
    const c = once(t, 'complete', f, out);
    const j = once(t, 'journal', f, out);
    if (c !== undefined && j !== undefined && j < c) out.push(`${f.feature_id}'s handoff was recorded before its worker returned it`);
  }
  const m = mutators(plan);
  for (let i = 0; i + 1 < m.length; i++) {
    const [a, b] = [m[i]!, m[i + 1]!];
    const ja = at(t, 'journal', a.feature_id)[0];
    const db = at(t, 'dispatch', b.feature_id)[0];
    if (db === undefined) continue;
    if (ja === undefined || ja > db) out.push(`${b.feature_id} was dispatched before ${a.feature_id}'s handoff was on the run journal`);
  }
  return out;
}

const feature = (feature_id: string, state: Feature['state']): Feature => ({ feature_id, state });
/** Feature ids out of lexical order, the shared-state writers separated by read-only fan-out. */
const PLAN: readonly Feature[] = [feature('schema', 'mutates'), feature('search-docs', 'reads'), feature('search-code', 'reads'), feature('api', 'mutates'), feature('migrate', 'mutates'), feature('audit', 'reads')];

/** Random plans: 1..7 features with distinct ids in no particular order, each mutating shared state or reading. */
const plans = fc
  .uniqueArray(fc.record({ feature_id: fc.stringMatching(/^[a-z]{1,6}$/), state: fc.constantFrom<Feature['state']>('mutates', 'reads') }), { minLength: 1, maxLength: 7, selector: (f) => f.feature_id });

describe('mission dispatch (jouleclaw §18.2)', () => {
  clauseIt([SERIAL], 'workers of features mutating shared state are dispatched in feature order, each after the one before it returned', async () => {
    const t = await orchestrate(PLAN);
    expect(serialViolations(PLAN, t)).toEqual([]);
    const order = t.filter((s) => s.event === 'dispatch' && ['schema', 'api', 'migrate'].includes(s.feature_id)).map((s) => s.feature_id);
    expect(order).toEqual(['schema', 'api', 'migrate']);
  });

  clauseIt([HANDOFF], "each worker's handoff is on the run journal before the next worker of shared state is dispatched", async () => {
    const t = await orchestrate(PLAN);
    expect(handoffViolations(PLAN, t)).toEqual([]);
    const writers = [feature('z', 'mutates'), feature('y', 'mutates')];
    const w = await orchestrate(writers);
    expect(at(w, 'journal', 'z')[0]).toBeLessThan(at(w, 'dispatch', 'y')[0]!);
  });

  clauseIt([SERIAL, HANDOFF], 'every trace over a random feature plan keeps §18.2 (property)', async () => {
    await assertProperty(
      fc.asyncProperty(plans, async (plan) => {
        const t = await orchestrate(plan);
        expect(serialViolations(plan, t), SERIAL).toEqual([]);
        expect(handoffViolations(plan, t), HANDOFF).toEqual([]);
      }),
      fcParams(60),
    );
  });
});
