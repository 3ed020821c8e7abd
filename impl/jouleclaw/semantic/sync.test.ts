// Unit tests of the synchronous face over the worker (impl/jouleclaw/semantic/sync.ts): where it looks for the files
// of impl/jouleclaw/, and how a failed or late answer from the worker is refused.
import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { thrown } from '../../_test-support.ts';
import { jouleclawFile, runSync } from './sync.ts';

describe('jouleclawFile', () => {
  it('answers the file beside this module\'s folder', () => {
    expect(jouleclawFile('semantic/worker.mjs').href).toBe(new URL('./worker.mjs', import.meta.url).href);
  });

  it('answers the path beside this module\'s folder for a file found nowhere up the tree', () => {
    expect(jouleclawFile('no-such-file.txt').href).toBe(new URL('../no-such-file.txt', import.meta.url).href);
  });

  it('climbs folder by folder to the nearest impl/jouleclaw/ that holds the file', () => {
    // "../../jouleclaw/semantic/sync.ts" is not below this module's impl/jouleclaw/, but below the one under
    // impl/jouleclaw/../ (impl/): the third folder the search climbs to from semantic/
    const rel = '../../jouleclaw/semantic/sync.ts';
    expect(existsSync(new URL(`../${rel}`, import.meta.url))).toBe(false);
    expect(jouleclawFile(rel).href).toBe(new URL('./sync.ts', import.meta.url).href);
  });
});

describe('runSync', () => {
  it('refuses a task the worker fails with the given code (ERR_BAD_ARGUMENT by default), naming the task', () => {
    const e = thrown(() => runSync('no-such-task', {}));
    expect(e.code).toBe('ERR_BAD_ARGUMENT');
    expect(e.message).toBe('ERR_BAD_ARGUMENT: no-such-task: unknown task no-such-task');
    expect(thrown(() => runSync('no-such-task', {}, 'ERR_SHAPE_VIOLATION')).code).toBe('ERR_SHAPE_VIOLATION');
  });

  it('refuses an answer that does not come within the time allowed', () => {
    // a document of 5,000 terms takes the worker tens of milliseconds to turn into RDF, even warm (a one-term document
    // can be answered in microseconds, before this thread starts to wait, where it is descheduled on a busy machine)
    const context: Record<string, string> = {};
    const doc: Record<string, unknown> = { '@context': context };
    for (let i = 0; i < 5_000; i++) [context[`p${i}`], doc[`p${i}`]] = [`urn:p${i}`, i];
    const e = thrown(() => runSync('toRdf', { doc, documents: {} }, 'ERR_SHAPE_VIOLATION', 0));
    expect(e.code).toBe('ERR_SHAPE_VIOLATION');
    expect(e.message).toBe('ERR_SHAPE_VIOLATION: toRdf did not answer within 0 ms');
    // the worker still answers the next call
    expect(runSync<string>('toRdf', { doc: { '@context': { a: 'urn:a' }, a: 1 }, documents: {} })).toBe('_:b0 <urn:a> "1"^^<http://www.w3.org/2001/XMLSchema#integer> .\n');
  });
});
