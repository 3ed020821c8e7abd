// scripts/mutants-of.ts, which scripts/mutation-scores.ts uses to tell a file with no mutant (nothing to score) from
// one not scored yet: Stryker's own instrumenter over the files' text.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { mutantsOf } from '../../scripts/mutants-of.ts';

describe('mutantsOf', () => {
  it('counts none in a file of types and re-exports, some in a file with code, and none for no file', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'jcp-mutants-of-'));
    try {
      const types = join(dir, 'types.ts');
      const code = join(dir, 'code.ts');
      writeFileSync(types, "export type A = { a: number };\nexport interface B { b: string }\nexport { x } from './code.ts';\n");
      // an arithmetic operator, a comparison and a block: several mutants
      writeFileSync(code, 'export const x = (a: number): number => {\n  if (a > 1) return a + 1;\n  return a;\n};\n');
      const counts = await mutantsOf([types, code]);
      expect(counts.get(types)).toBe(0);
      expect(counts.get(code)).toBeGreaterThan(3);
      expect((await mutantsOf([])).size).toBe(0);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
