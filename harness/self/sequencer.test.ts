// scripts/weighted-sequencer.ts, the order npm test runs its files in: longest first by vitest's cached durations,
// else by the committed weights, unknown files first; a file that failed last time first; projects kept apart. And the
// order of Stryker's mutant runs (ShortestFirstSequencer): the same facts, the shortest first, unknown files last.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import type { TestSpecification, Vitest } from 'vitest/node';
import WeightedSequencer, { committed, ShortestFirstSequencer, WEIGHTS_FILE } from '../../scripts/weighted-sequencer.ts';

const ROOT = '/repo';
const weights = (JSON.parse(readFileSync(WEIGHTS_FILE, 'utf8')) as { ms: Record<string, number> }).ms;

/** A sequencer over a stub of vitest whose results cache holds `cached` (key `project:file` → duration, failed). */
function sequencer(cached: Record<string, { duration: number; failed: boolean }>, Kind: typeof WeightedSequencer = WeightedSequencer) {
  const ctx = { config: { root: ROOT }, cache: { getFileTestResults: (key: string) => cached[key] } } as unknown as Vitest;
  return new Kind(ctx);
}
const spec = (project: string, file: string, groupOrder = 0) =>
  ({ moduleId: join(ROOT, file), project: { name: project, config: { sequence: { groupOrder } } } }) as unknown as TestSpecification;
const order = async (s: WeightedSequencer, specs: TestSpecification[]) => (await s.sort(specs)).map((x) => `${x.project.name}:${x.moduleId.slice(ROOT.length + 1)}`);

describe('the order of test files', () => {
  it('with no cache, the committed weights decide: heaviest first, a file they do not name before all', async () => {
    const named = Object.keys(weights).filter((f) => f.startsWith('harness/self/'));
    expect(named.length).toBeGreaterThan(3);
    const [heavy, , light] = [named[0]!, named[1]!, named.at(-1)!];
    const got = await order(sequencer({}), [spec('self', light), spec('self', 'harness/self/new.test.ts'), spec('self', heavy)]);
    expect(got).toEqual([`self:harness/self/new.test.ts`, `self:${heavy}`, `self:${light}`]);
  });

  it("vitest's cached durations come before the weights, and a file that failed last time runs first", async () => {
    const s = sequencer({ 'self:a.test.ts': { duration: 10, failed: false }, 'self:b.test.ts': { duration: 500, failed: false }, 'self:c.test.ts': { duration: 1, failed: true } });
    expect(await order(s, [spec('self', 'a.test.ts'), spec('self', 'b.test.ts'), spec('self', 'c.test.ts')])).toEqual(['self:c.test.ts', 'self:b.test.ts', 'self:a.test.ts']);
  });

  it('keeps projects apart, in group order and then by name, whatever the weights', async () => {
    const s = sequencer({ 'suite:x.test.ts': { duration: 9_000, failed: false }, 'self:y.test.ts': { duration: 1, failed: false }, 'late:z.test.ts': { duration: 99_000, failed: false } });
    expect(await order(s, [spec('suite', 'x.test.ts'), spec('late', 'z.test.ts', 1), spec('self', 'y.test.ts')])).toEqual(['self:y.test.ts', 'suite:x.test.ts', 'late:z.test.ts']);
  });

  it("Stryker's order: the shortest first, a file with no duration or weight last, a file that failed last time first", async () => {
    const named = Object.keys(weights).filter((f) => f.startsWith('harness/self/'));
    const [heavy, light] = [named[0]!, named.at(-1)!];
    const cached = { 'suite:a.test.ts': { duration: 10, failed: false }, 'suite:b.test.ts': { duration: 500, failed: false }, 'suite:c.test.ts': { duration: 900, failed: true } };
    const files = [spec('suite', 'b.test.ts'), spec('suite', 'new.test.ts'), spec('suite', heavy), spec('suite', 'a.test.ts'), spec('suite', light), spec('suite', 'c.test.ts')];
    const got = await order(sequencer(cached, ShortestFirstSequencer), files);
    const byWeight = [light, heavy].sort((x, y) => weights[x]! - weights[y]!);
    // c failed last time; then by duration, a (10 ms) and b (500 ms) placed among the two weighed files; new.test.ts last
    const expected = ['c.test.ts', ...[['a.test.ts', 10], ['b.test.ts', 500], ...byWeight.map((f) => [f, weights[f]!] as const)].sort((x, y) => (x[1] as number) - (y[1] as number)).map(([f]) => f as string), 'new.test.ts'];
    expect(got).toEqual(expected.map((f) => `suite:${f}`));
    // and npm test's order over the same files is the reverse but for the failed file, still first
    expect(await order(sequencer(cached), files)).toEqual([got[0], ...got.slice(1).reverse()]);
  });

  it('says in one line when the weights file cannot be used, and orders as if there were none', () => {
    const dir = mkdtempSync(join(tmpdir(), 'jcp-weights-'));
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    try {
      for (const [name, text, why] of [
        ['absent.json', undefined, /ENOENT/],
        ['not-json.json', '{"ms": {', /JSON/],
        ['no-ms.json', '{"weights": {}}', /no "ms" object/],
        ['text-ms.json', '{"ms": {"a.test.ts": "slow"}}', /no "ms" object/],
      ] as const) {
        if (text !== undefined) writeFileSync(join(dir, name), text);
        warn.mockClear();
        expect(committed(join(dir, name)), name).toEqual({});
        expect(warn, name).toHaveBeenCalledTimes(1);
        expect(String(warn.mock.calls[0]![0]), name).toMatch(why);
        expect(String(warn.mock.calls[0]![0]), name).toMatch(/^test order: .*unusable/);
      }
      expect(committed()).toEqual(JSON.parse(readFileSync(WEIGHTS_FILE, 'utf8')).ms);
    } finally {
      warn.mockRestore();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
