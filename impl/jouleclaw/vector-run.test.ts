// Unit test of impl/jouleclaw/vector-run.ts (jouleclaw §6): the receipt for the published cascade vector.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { receiptForVector } from './vector-run.ts';

describe('jouleclaw §6 a receipt per vector', () => {
  it('the CascadeBuild vectors of conformance/v1 get their canonical receipts; a vector without a walk is refused', () => {
    const pack = JSON.parse(readFileSync(new URL('../../vectors/conformance/v1/jouleclaw_receipts.json', import.meta.url), 'utf8')) as { testGroups: { type: string; tests: { inputs: unknown; expected: { receipt: unknown } }[] }[] };
    const tests = pack.testGroups.filter((g) => g.type === 'CascadeBuild').flatMap((g) => g.tests);
    expect(tests.length).toBeGreaterThan(0);
    for (const t of tests) expect(receiptForVector({ inputs: t.inputs })).toEqual(t.expected.receipt);
    expect(() => receiptForVector('{"inputs":{}}')).toThrow(expect.objectContaining({ code: 'ERR_BAD_ARGUMENT' }));
  });
});
