// scripts/mutation-narrow.ts: a Stryker run over one file of impl/ against only the tests named. Its arguments are
// checked before Stryker starts (each fault one line, exit 2), and its vitest config runs exactly the tests named.
import { describe, expect, it } from 'vitest';
import { narrowArgs } from '../../scripts/mutation-narrow.ts';

describe('narrowArgs', () => {
  it('takes a source file of impl/, optionally a line range, and the test globs', () => {
    expect(narrowArgs(['--', 'impl/cbor/value.ts', 'impl/cbor/cbor.test.ts'])).toEqual({ source: 'impl/cbor/value.ts', tests: ['impl/cbor/cbor.test.ts'] });
    expect(narrowArgs(['impl/cbor/value.ts:10-40', 'impl/cbor/*.test.ts', 'harness/conformance/cbor.test.ts'])).toEqual({
      source: 'impl/cbor/value.ts:10-40',
      tests: ['impl/cbor/*.test.ts', 'harness/conformance/cbor.test.ts'],
    });
  });

  it('refuses, naming what is wrong, a missing test glob, a missing file, a file outside impl/ or not mutated, a reversed range and a glob with no test', () => {
    const err = (argv: string[]) => (narrowArgs(argv) as { error?: string }).error;
    expect(err([])).toMatch(/^usage: npm run test:mutation:narrow -- /);
    expect(err(['impl/cbor/value.ts'])).toMatch(/^usage: /);
    expect(err(['impl/cbor/nope.ts', 'impl/cbor/cbor.test.ts'])).toBe('impl/cbor/nope.ts: no such file');
    expect(err(['impl/cbor/value.js', 'impl/cbor/cbor.test.ts'])).toBe('impl/cbor/value.js: not a .ts file (optionally with :<first line>-<last line>)');
    expect(err(['scripts/mutation-narrow.ts', 'impl/cbor/cbor.test.ts'])).toMatch(/^scripts\/mutation-narrow\.ts: not a file of impl\/ that Stryker mutates/);
    expect(err(['impl/cbor/cbor.test.ts', 'impl/cbor/cbor.test.ts'])).toMatch(/^impl\/cbor\/cbor\.test\.ts: not a file of impl\/ that Stryker mutates/);
    expect(err(['impl/_test-support.ts', 'impl/cbor/cbor.test.ts'])).toMatch(/not a file of impl\/ that Stryker mutates/);
    expect(err(['impl/cbor/value.ts:40-10', 'impl/cbor/cbor.test.ts'])).toBe('impl/cbor/value.ts:40-10: the first line is after the last');
    expect(err(['impl/cbor/value.ts', 'impl/cbor/*.test.ts', 'impl/nowhere/*.test.ts'])).toBe('impl/nowhere/*.test.ts: matches no test file');
  });
});

describe('the narrow vitest config', () => {
  it('includes exactly the globs of JCP_NARROW_TESTS, and refuses to load without them', async () => {
    const saved = process.env['JCP_NARROW_TESTS'];
    // loaded twice, as two modules (a query each), once with the variable and once without
    const config = new URL('../../mutation/narrow/vitest.narrow.config.ts', import.meta.url).href;
    try {
      process.env['JCP_NARROW_TESTS'] = 'impl/cbor/cbor.test.ts,harness/conformance/cbor.test.ts';
      const cfg = (await import(`${config}?with`)).default as { test: { include: string[]; env: Record<string, string> } };
      expect(cfg.test.include).toEqual(['impl/cbor/cbor.test.ts', 'harness/conformance/cbor.test.ts']);
      expect(cfg.test.env['JCP_STRYKER']).toBe('1');
      delete process.env['JCP_NARROW_TESTS'];
      await expect(import(`${config}?without`)).rejects.toThrow(/JCP_NARROW_TESTS names no test file/);
    } finally {
      if (saved === undefined) delete process.env['JCP_NARROW_TESTS'];
      else process.env['JCP_NARROW_TESTS'] = saved;
    }
  });
});
