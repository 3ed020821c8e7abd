// The one helper through which every conformance test names the clause ids it checks (ARCHITECTURE.md).
// The ids go into the test's name as ⟦id id …⟧ and its meta, so the reports, the spec map and the kill matrix read one index.
import { it, type TestContext } from 'vitest';
import { findClause } from '../spec-map/index.ts';
import { resetTranscript, setCurrentTest, testeeInfo, transcript } from './driver.ts';
import { TesteeFailure, UnimplementedError } from './implementation.ts';
import { transcriptTestId } from './transcript/test-id.ts'; // re-verifiable transcripts (issue 9 item 5)

/** How a conformance test ended, as the reports grade it. */
export type Outcome = 'passed' | 'failed' | 'unimplemented' | 'not claimed' | 'errored' | 'timeout' | 'crash' | 'expected failure';

const LEVEL_RANK: Record<string, number> = { MUST: 0, 'MUST NOT': 0, REQUIRED: 0, SHOULD: 1, 'SHOULD NOT': 1, RECOMMENDED: 1, MAY: 2, OPEN: 3 };

/** The class ids of the clauses a test names. */
export function classesOfClauses(ids: readonly string[]): string[] {
  return [...new Set(ids.flatMap((id) => findClause(id)?.classes ?? []))];
}

/** The strongest level among the clauses a test names (MUST-level results are graded apart from SHOULD-level). */
export function levelOfClauses(ids: readonly string[]): string {
  const levels = ids.map((id) => findClause(id)?.level ?? 'OPEN');
  return levels.sort((a, b) => (LEVEL_RANK[a] ?? 9) - (LEVEL_RANK[b] ?? 9))[0] ?? 'OPEN';
}

const OPEN = '⟦';
const CLOSE = '⟧';

/** Throws unless every id is a known clause of the spec map, so a typo fails loudly at collection. */
export function assertKnownClauses(ids: readonly string[]): void {
  if (ids.length === 0) throw new Error('a conformance test must name at least one clause id');
  for (const id of ids) {
    if (!findClause(id)) throw new Error(`unknown clause id ${id}: add it to spec-map/clauses/ or fix the name`);
  }
}

/** The test name carrying its clause ids. */
export function clauseTitle(ids: readonly string[], title: string): string {
  return `${title} ${OPEN}${ids.join(' ')}${CLOSE}`;
}

/** The clause ids carried by a test name, or [] when it names none. */
export function clausesOf(testName: string): string[] {
  const i = testName.lastIndexOf(OPEN);
  const j = testName.lastIndexOf(CLOSE);
  if (i < 0 || j < i) return [];
  return testName.slice(i + 1, j).split(' ').filter(Boolean);
}

/**
 * A conformance test naming the clauses it checks. It runs against the implementation under test (harness/driver.ts)
 * and records its outcome in the test's meta: a test none of whose classes the testee claims is skipped as
 * "not claimed"; an operation the testee answers "unimplemented" skips it as "unimplemented"; a testee that hangs,
 * dies or breaks the protocol fails it as "timeout", "crash" or "errored". None of those counts as passed.
 */
export function clauseIt(
  ids: readonly string[],
  title: string,
  fn: (ctx: TestContext) => unknown,
  timeout?: number,
): void {
  assertKnownClauses(ids);
  const classes = classesOfClauses(ids);
  it(
    clauseTitle(ids, title),
    async (ctx) => {
      const meta = ctx.task.meta as Record<string, unknown>;
      // certify --classes: a test of no selected class is not part of this run
      const selected = process.env['JCP_CLASSES']?.split(',').filter(Boolean);
      if (selected && !classes.some((k) => selected.includes(k))) {
        meta['outcome'] = 'not selected';
        ctx.skip(`not one of the selected classes ${selected.join(', ')}`);
        return;
      }
      const info = await testeeInfo();
      resetTranscript();
      setCurrentTest(transcriptTestId(ctx.task, classes, ids, title)); // transcripts: entries name the running test
      if (classes.length > 0 && !classes.some((k) => info.claims.includes(k))) {
        meta['outcome'] = 'not claimed';
        ctx.skip(`the implementation claims none of ${classes.join(', ')}`);
        return;
      }
      try {
        await fn(ctx);
        meta['outcome'] = 'passed';
      } catch (thrown) {
        // a property runner (fast-check) wraps what it caught: grade the testee's own failure, not the wrapper
        const e = thrown instanceof Error && (thrown.cause instanceof UnimplementedError || thrown.cause instanceof TesteeFailure) ? thrown.cause : thrown;
        if (e instanceof UnimplementedError) {
          meta['outcome'] = 'unimplemented';
          ctx.skip(e.message);
          return;
        }
        if (e instanceof TesteeFailure) {
          meta['outcome'] = e.kind === 'protocol' ? 'errored' : e.kind;
          if (e.transcript) meta['transcript'] = e.transcript;
        } else {
          meta['outcome'] = 'failed';
          // the last exchanges before the failure: the request and response bytes behind it
          const last = transcript().at(-1);
          if (last) meta['transcript'] = { op: last.op, request: last.request, response: last.response, exchanges: String(transcript().length) };
        }
        throw thrown;
      }
    },
    timeout,
  );
}
