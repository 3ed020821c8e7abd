// jcp §5.1 rung 3 (per-process CPU energy, its own process or another process tree): the pure judgements over what a
// meter read at each end of a span. Did the reading thread leave its core before its read; is a member at rest; does
// a walk of the tree agree with the walk that confirms it; and is the tree's figure Whole or Partial. The reads
// themselves (proc_pid_rusage, PROC_PIDTHREADCOUNTS, thread run states) are the hardware lab's.
import { JcpError } from '../errors.ts';
import type { Coverage } from './energy.ts';

/**
 * jcp §5.1: "a read whose thread was not seen to leave its core is no reading of that end". The reference meter's
 * check: the thread's own energy count (PROC_PIDTHREADCOUNTS) moved across a sleep, "which it does only when the
 * thread is folded". True only when it rose.
 */
export function threadLeftCore(thread_energy_before_nj: bigint, thread_energy_after_nj: bigint): boolean {
  if (typeof thread_energy_before_nj !== 'bigint' || typeof thread_energy_after_nj !== 'bigint') {
    throw new JcpError('ERR_ENERGY_MALFORMED', 'a thread energy count must be a bigint of nanojoules');
  }
  return thread_energy_after_nj > thread_energy_before_nj;
}

/** A thread's run state as the platform reports it (macOS TH_STATE_*). */
export type ThreadRunState = 'running' | 'stopped' | 'waiting' | 'uninterruptible' | 'halted';

/**
 * jcp §5.1: a member is at rest only with "none of its threads on a core or queued for one" (running, in the
 * platform's run states) and none "in a wait that no signal ends" (uninterruptible).
 */
export function memberAtRest(threads: readonly ThreadRunState[]): boolean {
  return threads.every((t) => t !== 'running' && t !== 'uninterruptible');
}

/** One process of a tree as one walk read it. A process is its pid and its start time (a reused pid is another). */
export interface WalkMember {
  readonly pid: number;
  readonly start_time: bigint;
  readonly parent: number;
  /** Reaped-descendant CPU time, ns. */
  readonly reaped_cpu_ns: bigint;
  /** Exit time, when it had exited (a zombie not yet reaped); absent while running. */
  readonly exit_time?: bigint;
  readonly threads: readonly ThreadRunState[];
  /** A child the walk listed that was gone by its read. */
  readonly child_gone?: boolean;
}

/** A walk of the tree at one end. */
export type Walk = readonly WalkMember[];

const key = (m: WalkMember): string => `${m.pid}@${m.start_time}`;

/**
 * jcp §5.1: the walk at an end "MUST therefore be confirmed by another, one after the other, that agrees with it on
 * the tree's processes, each one's parent, reaped-descendant CPU time and exit time, with no listed child gone by its
 * read". True only when `walk` and `confirm` agree so and neither saw a listed child gone.
 */
export function walksAgree(walk: Walk, confirm: Walk): boolean {
  if (walk.length !== confirm.length) return false;
  if ([...walk, ...confirm].some((m) => m.child_gone === true)) return false;
  const other = new Map(confirm.map((m) => [key(m), m]));
  return walk.every((m) => {
    const c = other.get(key(m));
    return c !== undefined && c.parent === m.parent && c.reaped_cpu_ns === m.reaped_cpu_ns && c.exit_time === m.exit_time;
  });
}

/** The gaps (jcp §5.1's named ones where it names them) an end of a tree span shows. */
export function treeEndGaps(end: 'start' | 'stop', walk: Walk, confirm: Walk | undefined): string[] {
  const gaps: string[] = [];
  // jcp §5.1: "an end whose walk no agreeing walk confirmed before the meter stopped waiting"
  if (confirm === undefined || !walksAgree(walk, confirm)) gaps.push(`unconfirmed-walk-at-${end}`);
  // jcp §5.1: "a member not at rest at an end" — the reference gateway's unsettled-at-start, unsettled-at-stop
  if (walk.some((m) => !memberAtRest(m.threads))) gaps.push(`unsettled-at-${end}`);
  return gaps;
}

/**
 * The coverage of a tree's figure (jcp §5.1): Whole only with no gap at either end or over the span AND the
 * operator's declaration that the process hands no work to a process outside its tree — "An implementation MUST NOT
 * grade a tree's figure Whole on an empty list alone". The reasons name every gap, and `undeclared-delegation`.
 */
export function treeCoverage(gaps: readonly string[], declared_no_outside_delegation: boolean): { readonly coverage: Coverage; readonly reasons: readonly string[] } {
  const reasons = [...gaps, ...(declared_no_outside_delegation ? [] : ['undeclared-delegation'])];
  return Object.freeze({ coverage: reasons.length === 0 ? 'Whole' : 'Partial', reasons });
}

/** The judgement of a span's ends on rung 3: whether it is a reading at all, and its gaps. */
export interface ProcSpanJudgement {
  /** False when an end is no reading: the span is metered by a lower rung. */
  readonly reading: boolean;
  readonly why_not?: string;
  readonly coverage?: Coverage;
  readonly gaps: readonly string[];
}

/**
 * The metering process's own count (jcp §5.1 rung 3): each end is a reading only when the reading thread was seen to
 * leave its core just before it ("an implementation that relies on that MUST check that it did"); otherwise the span
 * is no reading and goes to a lower rung.
 */
export function judgeSelfSpan(start: { readonly before_nj: bigint; readonly after_nj: bigint }, stop: { readonly before_nj: bigint; readonly after_nj: bigint }, gaps: readonly string[] = []): ProcSpanJudgement {
  for (const [end, e] of [['start', start], ['stop', stop]] as const) {
    if (!threadLeftCore(e.before_nj, e.after_nj)) return Object.freeze({ reading: false, why_not: `the reading thread was not seen to leave its core at the ${end}`, gaps: [] });
  }
  return Object.freeze({ reading: true, coverage: gaps.length > 0 ? 'Partial' : 'Whole', gaps: [...gaps] });
}

/** Another process tree's count (jcp §5.1 rung 3): the gaps of both ends, and the coverage they and the declaration allow. */
export function judgeTreeSpan(
  start: { readonly walk: Walk; readonly confirm?: Walk },
  stop: { readonly walk: Walk; readonly confirm?: Walk },
  declared_no_outside_delegation: boolean,
  span_gaps: readonly string[] = [],
): ProcSpanJudgement {
  // jcp §5.1: "A span whose root is gone or unreadable at either end (...) is metered by a lower rung."
  if (start.walk.length === 0 || stop.walk.length === 0) return Object.freeze({ reading: false, why_not: 'the root is gone or unreadable at an end', gaps: [] });
  const gaps = [...treeEndGaps('start', start.walk, start.confirm), ...treeEndGaps('stop', stop.walk, stop.confirm), ...span_gaps];
  const c = treeCoverage(gaps, declared_no_outside_delegation);
  return Object.freeze({ reading: true, coverage: c.coverage, gaps: c.reasons });
}
