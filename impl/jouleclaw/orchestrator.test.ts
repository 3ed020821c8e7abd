// Unit tests of the jouleclaw §18.2 mission dispatch (impl/jouleclaw/orchestrator.ts).
import { describe, expect, it } from 'vitest';
import { thrown } from '../_test-support.ts';
import { openRun } from './journal.ts';
import { runMission, type MissionFeature } from './orchestrator.ts';

const f = (feature_id: string, mutates_shared: boolean): MissionFeature => ({ feature_id, worker: `did:key:worker-${feature_id}`, mutates_shared, completed: [`${feature_id} done`] });
const line = (t: readonly { event: string; feature_id: string }[]): string[] => t.map((e) => `${e.event}:${e.feature_id}`);

describe('mission dispatch (jouleclaw §18.2)', () => {
  it('mutating features run alone in feature order, each handoff on the journal before the next dispatch; read-only ones fan out', () => {
    const m = runMission('mission-1', [f('b', true), f('r1', false), f('r2', false), f('a', true)], 1_780_000_000);
    expect(line(m.trace)).toEqual([
      'dispatch:b', 'complete:b', 'journal:b',
      'dispatch:r1', 'dispatch:r2', 'complete:r1', 'complete:r2', 'journal:r1', 'journal:r2',
      'dispatch:a', 'complete:a', 'journal:a',
    ]);
    expect(m.handoffs.map((h) => h.feature_id)).toEqual(['b', 'r1', 'r2', 'a']);
    // the journal's chain verifies and holds the handoffs in the same order
    expect(openRun([...m.entries]).handoffs().map((h) => h.feature_id)).toEqual(['b', 'r1', 'r2', 'a']);
  });
  it('refuses a plan that is not a non-empty list of features', () => {
    const msg = 'ERR_BAD_ARGUMENT: a mission plan has at least one feature';
    expect(thrown(() => runMission('m', [], 0)).message).toBe(msg);
    expect(thrown(() => runMission('m', f('a', true) as never, 0)).message).toBe(msg);
  });
  it('refuses a feature whose feature_id is empty or not text', () => {
    const msg = 'ERR_BAD_ARGUMENT: feature_id must be non-empty text';
    expect(thrown(() => runMission('m', [f('a', true), f('', false)], 0)).message).toBe(msg);
    expect(thrown(() => runMission('m', [f(7 as never, false)], 0)).message).toBe(msg);
  });
  it('refuses a feature planned twice, naming it', () => {
    const e = thrown(() => runMission('m', [f('a', true), f('a', false)], 0));
    expect(e.code).toBe('ERR_BAD_ARGUMENT');
    expect(e.message).toBe('ERR_BAD_ARGUMENT: feature a is planned twice');
  });
});
