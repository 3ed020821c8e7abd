// Unit tests of impl/energy/tree.ts (jcp §5.1 rung 3: per-process CPU energy, own process and another tree).
import { describe, expect, it } from 'vitest';
import { thrown } from '../_test-support.ts';
import { judgeSelfSpan, judgeTreeSpan, memberAtRest, threadLeftCore, treeCoverage, walksAgree, type Walk } from './tree.ts';

const root = { pid: 100, start_time: 5n, parent: 1, reaped_cpu_ns: 0n, threads: ['waiting'] } as const;
const child = { pid: 101, start_time: 6n, parent: 100, reaped_cpu_ns: 0n, threads: ['stopped'] } as const;
const walk: Walk = [root, child];

describe('rung 3 end checks', () => {
  it('a thread left its core only when its own count rose across the sleep', () => {
    expect(threadLeftCore(10n, 11n)).toBe(true);
    expect(threadLeftCore(10n, 10n)).toBe(false);
  });
  it('refuses a count that is not a bigint at either side of the sleep', () => {
    for (const f of [() => threadLeftCore(1 as never, 2n), () => threadLeftCore(1n, 2 as never)]) {
      const e = thrown(f);
      expect(e.code).toBe('ERR_ENERGY_MALFORMED');
      expect(e.message).toContain('a thread energy count must be a bigint of nanojoules');
    }
  });
  it('a member with a running or uninterruptible thread is not at rest', () => {
    expect(memberAtRest(['waiting', 'stopped', 'halted'])).toBe(true);
    expect(memberAtRest(['waiting', 'running'])).toBe(false);
    expect(memberAtRest(['uninterruptible'])).toBe(false);
  });
  it('walks agree on processes, parents, reaped time and exit time, with no listed child gone', () => {
    expect(walksAgree(walk, [child, root])).toBe(true);
    expect(walksAgree(walk, [root])).toBe(false);
    expect(walksAgree([root], walk)).toBe(false); // the confirming walk found a process this one did not
    expect(walksAgree(walk, [root, { ...child, start_time: 7n }])).toBe(false); // a reused pid is another process
    expect(walksAgree(walk, [root, { ...child, parent: 1 }])).toBe(false);
    expect(walksAgree(walk, [{ ...root, reaped_cpu_ns: 1n }, child])).toBe(false);
    expect(walksAgree(walk, [root, { ...child, exit_time: 9n }])).toBe(false);
    expect(walksAgree([root, { ...child, child_gone: true }], [root, child])).toBe(false);
  });
});

describe('judgeSelfSpan', () => {
  it('is no reading when the thread was not seen to leave its core at either end', () => {
    const why = (end: string) => `the reading thread was not seen to leave its core at the ${end}`;
    expect(judgeSelfSpan({ before_nj: 1n, after_nj: 2n }, { before_nj: 5n, after_nj: 5n })).toEqual({ reading: false, why_not: why('stop'), gaps: [] });
    expect(judgeSelfSpan({ before_nj: 1n, after_nj: 1n }, { before_nj: 5n, after_nj: 6n })).toEqual({ reading: false, why_not: why('start'), gaps: [] });
    expect(judgeSelfSpan({ before_nj: 1n, after_nj: 2n }, { before_nj: 5n, after_nj: 6n })).toEqual({ reading: true, coverage: 'Whole', gaps: [] });
    expect(judgeSelfSpan({ before_nj: 1n, after_nj: 2n }, { before_nj: 5n, after_nj: 6n }, ['reaped-child'])).toEqual({ reading: true, coverage: 'Partial', gaps: ['reaped-child'] });
  });
});

describe('judgeTreeSpan', () => {
  it('is Whole only with confirmed, settled ends and the declaration; never on an empty list alone', () => {
    const end = { walk, confirm: walk };
    expect(judgeTreeSpan(end, end, true)).toEqual({ reading: true, coverage: 'Whole', gaps: [] });
    expect(judgeTreeSpan(end, end, false)).toEqual({ reading: true, coverage: 'Partial', gaps: ['undeclared-delegation'] });
    expect(treeCoverage([], false).coverage).toBe('Partial');
  });
  it('names an unconfirmed walk and an unsettled member as gaps, by end', () => {
    const busy: Walk = [root, { ...child, threads: ['uninterruptible'] }];
    expect(judgeTreeSpan({ walk }, { walk: busy, confirm: busy }, true)).toEqual({ reading: true, coverage: 'Partial', gaps: ['unconfirmed-walk-at-start', 'unsettled-at-stop'] });
  });
  it('a root gone at either end is no reading', () => {
    // jcp §5.1: "A span whose root is gone or unreadable at either end (...) is metered by a lower rung."
    const gone = { reading: false, why_not: 'the root is gone or unreadable at an end', gaps: [] };
    expect(judgeTreeSpan({ walk: [], confirm: [] }, { walk, confirm: walk }, true)).toEqual(gone);
    expect(judgeTreeSpan({ walk, confirm: walk }, { walk: [], confirm: [] }, true)).toEqual(gone);
  });
});
