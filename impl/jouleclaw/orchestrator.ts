// jouleclaw §18 the mission orchestrator's dispatch (§18.2): a worker per feature, dispatched in feature order, serially,
// when the features mutate shared state; read-only fan-out MAY be parallel; each worker's handoff recorded on the run
// journal (§17, RunEvent::HandoffRecorded) before the next worker is dispatched, so the chain stays chronological.
//
// Readings taken: a run of consecutive read-only features is fanned out (all dispatched, then all awaited, then their
// handoffs recorded, in feature order) — the parallel the spec permits, not one it requires; a feature that mutates
// shared state is dispatched alone, after every handoff before it is on the journal, and its own handoff is recorded
// before anything after it is dispatched. Each dispatch is recorded on the journal too (NodeDispatched, §17.3), each
// worker's return as NodeCompleted. Workers are scripted here: a worker returns its handoff, opaque work otherwise.
import { JcpError } from '../errors.ts';
import type { WorkerHandoff } from './handoff.ts';
import { startRun } from './journal.ts';

/** A feature of the plan and the scripted worker dispatched for it. */
export interface MissionFeature {
  readonly feature_id: string;
  readonly worker: string;
  /** Whether the feature's work mutates shared state (§18.2). */
  readonly mutates_shared: boolean;
  /** What the worker reports done in its handoff. */
  readonly completed: readonly string[];
}

/** One step of the orchestrator, in the order it happened. */
export interface MissionEvent {
  /** dispatch: the worker is dispatched; complete: it returned its outcome; journal: its handoff is on the run journal. */
  readonly event: 'dispatch' | 'complete' | 'journal';
  readonly feature_id: string;
}

/** A finished mission run: its trace, the journal's entries and the handoffs recorded on it. */
export interface MissionRun {
  readonly trace: readonly MissionEvent[];
  readonly entries: readonly Uint8Array[];
  readonly handoffs: readonly WorkerHandoff[];
}

/** jouleclaw §18.2: dispatches the plan's workers over a fresh run journal `run_id`, handoffs closed at `now_s`. */
export function runMission(run_id: string, features: readonly MissionFeature[], now_s: number): MissionRun {
  if (!Array.isArray(features) || features.length === 0) throw new JcpError('ERR_BAD_ARGUMENT', 'a mission plan has at least one feature');
  const ids = new Set<string>();
  for (const f of features) {
    if (typeof f.feature_id !== 'string' || f.feature_id === '') throw new JcpError('ERR_BAD_ARGUMENT', 'feature_id must be non-empty text');
    if (ids.has(f.feature_id)) throw new JcpError('ERR_BAD_ARGUMENT', `feature ${f.feature_id} is planned twice`);
    ids.add(f.feature_id);
  }
  const run = startRun(run_id, features.map((f) => ({ node_id: f.feature_id })));
  const trace: MissionEvent[] = [];
  // §18.2: consecutive read-only features form one fan-out; a feature that mutates shared state runs alone
  const batches: MissionFeature[][] = [];
  for (const f of features) {
    const last = batches[batches.length - 1];
    if (last !== undefined && !f.mutates_shared && !last[0]!.mutates_shared) last.push(f);
    else batches.push([f]);
  }
  const pending: MissionFeature[] = [];
  const flush = (): void => {
    for (const f of pending.splice(0)) {
      run.recordHandoff({ worker: f.worker, node_id: f.feature_id, feature_id: f.feature_id, closed_at: now_s, completed: f.completed });
      trace.push({ event: 'journal', feature_id: f.feature_id });
    }
  };
  for (const batch of batches) {
    for (const f of batch) {
      run.dispatch(f.feature_id);
      trace.push({ event: 'dispatch', feature_id: f.feature_id });
    }
    for (const f of batch) {
      run.complete(f.feature_id, 0n);
      trace.push({ event: 'complete', feature_id: f.feature_id });
      pending.push(f);
    }
    // §18.2: "Each worker's handoff MUST be recorded on the run journal before the next worker is dispatched"
    flush();
  }
  flush();
  return Object.freeze({ trace: Object.freeze(trace), entries: run.entries(), handoffs: run.handoffs() });
}
