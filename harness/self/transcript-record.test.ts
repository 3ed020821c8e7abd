// The primary record holds a failing test's transcript whole: every request and response of that test, in order,
// uncut, each as hex and as diagnostic notation, and no other test's. Held against the hash-chained transcript that the
// same certify run writes (harness/transcript/), which records every exchange on its own path, naming its test.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { exchangesLeftOut, implementation, resetTranscript, transcript, TRANSCRIPT_LIMIT } from '../driver.ts';
import { encodeCanonical, toHex, type CborInput } from '../oracle.ts';
import { diagnosticOfHex } from '../report/diagnostic.ts';
import { transcriptLines, type TestLine } from '../report/record-reporter.ts';
import { TRANSCRIPT_FILE } from '../transcript/certify.ts';
import { readTranscript } from '../transcript/format.ts';
import { DEBIT_ON_DENY_C3, sharedCertify } from './shared-runs.ts';

describe('the bound on one test\'s exchanges', () => {
  it('past TRANSCRIPT_LIMIT keeps the first and the last half, in order, and counts the exchanges left out', async () => {
    const impl = implementation();
    resetTranscript();
    const extra = 7;
    for (let i = 0; i < TRANSCRIPT_LIMIT + extra; i++) await impl.cborCheck(encodeCanonical(i));
    const kept = transcript();
    expect(kept).toHaveLength(TRANSCRIPT_LIMIT);
    expect(exchangesLeftOut()).toBe(extra);
    // the request of exchange i carries the canonical bytes of i: the kept ones are 0 … L/2−1, then the last L/2
    const half = TRANSCRIPT_LIMIT / 2;
    const expected = [...Array.from({ length: half }, (_, i) => i), ...Array.from({ length: half }, (_, i) => half + extra + i)];
    expect(kept.map((x) => diagnosticOfHex(x.request))).toEqual(expected.map((i) => `{"bytes": h'${toHex(encodeCanonical(i))}'}`));
    resetTranscript();
    expect(transcript()).toEqual([]);
    expect(exchangesLeftOut()).toBe(0);
  }, 120_000);

  it('as text: every exchange numbered as the test made it, and where exchanges were left out and how many', () => {
    const x = (op: string) => ({ op, request: 'a0', request_diag: '{}', response: 'a0', response_diag: '{}' });
    const lines = transcriptLines({ exchanges: [x('a'), x('b'), x('c')], left_out: { count: 5, after: 2 }, stderr: 'boom' });
    expect(lines.filter((l) => l.startsWith('exchange') || l.startsWith('…') || l.startsWith('stderr'))).toEqual([
      'exchange 1: a',
      'exchange 2: b',
      '… 5 exchange(s) left out here (over the bound the driver keeps) …',
      'exchange 8: c',
      'stderr: boom',
    ]);
  });
});

describe('a failing test carries its own exchanges, whole', () => {
  let dir = '';
  let tests: TestLine[] = [];
  /** Every answered exchange of each test, from the transcript streams, in order: op and canonical hex. */
  const streamed = new Map<string, Array<{ op: string; request: string; response: string }>>();
  let out = '';

  beforeAll(async () => {
    const r = await sharedCertify('debit-on-deny-c3', DEBIT_ON_DENY_C3);
    dir = r.dir;
    out = `${r.stdout}\n${r.stderr}`;
    tests = readFileSync(join(dir, 'record.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as TestLine)
      .filter((l) => l.type === 'test');
    for (const s of readTranscript(new Uint8Array(readFileSync(join(dir, 'transcript', TRANSCRIPT_FILE)))).streams)
      for (const e of s.entries) {
        if (e.response.has('failure')) continue;
        const list = streamed.get(e.test) ?? [];
        list.push({ op: e.op, request: toHex(encodeCanonical(e.args as CborInput)), response: toHex(encodeCanonical(e.response)) });
        streamed.set(e.test, list);
      }
  }, 900_000);

  it('the run fails on the planted bug, and every failing test has a transcript of exactly the exchanges the stream recorded for it', () => {
    const failed = tests.filter((t) => t.outcome === 'failed');
    expect(failed.length, out).toBeGreaterThan(0);
    for (const t of failed) {
      const own = streamed.get(t.id) ?? [];
      expect(own.length, t.id).toBeGreaterThan(0);
      const kept = (t.transcript?.exchanges ?? []).map((x) => ({ op: x.op, request: x.request, response: x.response }));
      const left = t.transcript?.left_out;
      if (own.length <= TRANSCRIPT_LIMIT) {
        expect(left, t.id).toBeUndefined();
        expect(kept, t.id).toEqual(own);
      } else {
        // over the bound: the first and the last half kept in order, the middle counted where it was left out
        expect(left, t.id).toEqual({ count: own.length - TRANSCRIPT_LIMIT, after: TRANSCRIPT_LIMIT / 2 });
        expect(kept, t.id).toEqual([...own.slice(0, TRANSCRIPT_LIMIT / 2), ...own.slice(own.length - TRANSCRIPT_LIMIT / 2)]);
      }
    }
  });

  it('keeps more than the last eight exchanges and requests longer than 4096 hex digits, none cut', () => {
    const failed = tests.filter((t) => t.outcome === 'failed');
    expect(Math.max(...failed.map((t) => t.transcript?.exchanges?.length ?? 0))).toBeGreaterThan(8);
    const lengths = failed.flatMap((t) => (t.transcript?.exchanges ?? []).flatMap((x) => [x.request.length, x.response.length]));
    expect(Math.max(...lengths)).toBeGreaterThan(4096);
  });

  it('writes each exchange in diagnostic notation beside its hex, and no transcript for a test that passed', () => {
    const failed = tests.filter((t) => t.outcome === 'failed');
    for (const x of failed.flatMap((t) => t.transcript?.exchanges ?? [])) {
      expect(x.request_diag).toBe(diagnosticOfHex(x.request));
      expect(x.response_diag).toBe(diagnosticOfHex(x.response));
      // every response is a {seq, ok | error | unimplemented} map (harness/PROTOCOL.md)
      expect(x.response_diag).toMatch(/^\{.*"seq": \d+/);
    }
    const passed = tests.filter((t) => t.outcome === 'passed');
    expect(passed.length).toBeGreaterThan(0);
    expect(passed.filter((t) => t.transcript).map((t) => t.id)).toEqual([]);
  });
});
