// What the conformance runner takes from the environment (./runner-env.ts): $JCP_WORKERS, a whole number of at least 1
// taken, unset or empty the default; $JCP_MODULE_CACHE, an absolute path to a folder (or to none yet) taken, unset or
// empty none; anything else refused with a message naming the variable and the value.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { moduleCacheProblem, runnerModuleCache, runnerWorkers, workersProblem } from './runner-env.ts';

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

describe('JCP_MODULE_CACHE', () => {
  const tmp = mkdtempSync(join(tmpdir(), 'jcp-runner-env-'));
  afterAll(() => rmSync(tmp, { recursive: true, force: true }));

  it('takes an absolute path to a folder, or to nothing yet; unset or empty is no cache', () => {
    for (const v of [tmp, join(tmp, 'not-yet', 'made')]) {
      expect(moduleCacheProblem(v), v).toBeUndefined();
      expect(runnerModuleCache(v)).toBe(v);
    }
    for (const v of [undefined, '']) expect(runnerModuleCache(v)).toBeUndefined();
  });

  it('refuses a relative path and a path that is a file, naming it', () => {
    for (const v of ['cache', './cache', '../x']) {
      expect(moduleCacheProblem(v), v).toBe(`JCP_MODULE_CACHE must be an absolute path (the folder the runner keeps transformed modules in), not ${JSON.stringify(v)}`);
      expect(() => runnerModuleCache(v), v).toThrow(/^JCP_MODULE_CACHE must be an absolute path/);
    }
    const file = join(tmp, 'a-file');
    writeFileSync(file, 'x');
    expect(moduleCacheProblem(file)).toBe(`JCP_MODULE_CACHE names ${file}, which is not a folder`);
  });
});
