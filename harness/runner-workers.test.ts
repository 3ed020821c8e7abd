// $JCP_WORKERS, the conformance runner's worker count (./runner-workers.ts): a whole number of at least 1 is taken,
// unset or empty gives the default, anything else is refused with a message naming the variable and the value.
import { availableParallelism } from 'node:os';
import { describe, expect, it } from 'vitest';
import { runnerWorkers, workersProblem } from './runner-workers.ts';

describe('JCP_WORKERS', () => {
  it('takes a whole number of at least 1', () => {
    for (const v of ['1', '2', '16']) {
      expect(workersProblem(v)).toBeUndefined();
      expect(runnerWorkers(v)).toBe(Number(v));
    }
  });

  it('unset or empty: one fewer than the cores, and at least 2', () => {
    for (const v of [undefined, '']) expect(runnerWorkers(v)).toBe(Math.max(2, availableParallelism() - 1));
  });

  it('refuses what is no whole number of at least 1, naming it', () => {
    for (const v of ['0', '-1', '1.5', 'x', ' 2', '2 ', '07', '99999']) {
      expect(workersProblem(v), v).toBe(`JCP_WORKERS must be a whole number of at least 1 (the runner's worker processes), not ${JSON.stringify(v)}`);
      expect(() => runnerWorkers(v), v).toThrow(/^JCP_WORKERS must be/);
    }
  });
});
