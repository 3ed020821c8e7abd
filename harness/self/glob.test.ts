// Self-tests of expectation-file globs (harness/report/glob.ts): the same answers as a dynamic-programming matcher
// written straight from the definition, and stars by the hundred cost no more than one pass per piece.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { judge } from '../report/expectations.ts';
import { compileGlob } from '../report/glob.ts';
import type { TestLine } from '../report/record-reporter.ts';

/** `*` matches any run, every other character itself: the table m[i][j] = glob[0..i) matches id[0..j). */
function byDefinition(glob: string, id: string): boolean {
  let row = Array.from({ length: id.length + 1 }, (_, j) => j === 0);
  for (const g of glob) {
    const next = Array.from({ length: id.length + 1 }, () => false);
    for (let j = 0; j <= id.length; j++) {
      next[j] = g === '*' ? row[j]! || (j > 0 && next[j - 1]!) : j > 0 && row[j - 1]! && id[j - 1] === g;
    }
    row = next;
  }
  return row[id.length]!;
}

describe('expectation globs', () => {
  it('answer as the definition does, over globs and ids of a small alphabet', () => {
    const text = (max: number, chars: string[]) => fc.array(fc.constantFrom(...chars), { maxLength: max }).map((a) => a.join(''));
    fc.assert(
      fc.property(text(12, ['a', 'b', '*', '.', '#']), text(16, ['a', 'b', '.', '#']), (g, id) => {
        expect(compileGlob(g).matches(id)).toBe(byDefinition(g, id));
      }),
      { numRuns: 5000, seed: 0x61ab },
    );
  });

  it('answer as the definition does where a piece overlaps the prefix or the suffix', () => {
    for (const [g, id] of [['a*a', 'a'], ['ab*ba', 'aba'], ['a*b*a', 'aba'], ['*aa*', 'aaa'], ['x**y', 'xy'], ['*', ''], ['', ''], ['', 'a']] as const) {
      expect(compileGlob(g).matches(id), `${g} against ${id}`).toBe(byDefinition(g, id));
    }
  });

  it('take hundreds of stars against long ids without backtracking (a regular expression would not return)', () => {
    const id = 'a'.repeat(20_000);
    expect(compileGlob('*a'.repeat(400) + 'b').matches(id)).toBe(false);
    expect(compileGlob('*a'.repeat(400) + '*').matches(id)).toBe(true);
    const line: TestLine = { type: 'test', id: `jcp/7#expired ${'x'.repeat(5000)}`, file: 'f', title: 't', clauses: [], classes: [], level: 'MUST', grade: 'spec', outcome: 'failed' };
    const { judged } = judge(Array.from({ length: 5 }, () => line), { expectations: [{ test: '*x'.repeat(16) + 'y', reason: 'never matches' }] });
    expect(judged.every((j) => j.unexpected && j.expected === undefined)).toBe(true);
  });
});
