// The one helper through which every conformance test names the clause ids it checks (ARCHITECTURE.md).
// The ids go into the test's name as ⟦id id …⟧ and its meta, so the reports, the spec map and the kill matrix read one index.
// Each test also carries a grade (harness/PROTOCOL.md "Grades"): spec (the spec's own normative words), bytes (the byte
// contract the suite fixes so implementations interoperate) or open (SHOULD / MAY / an open point of the spec map).
import { it, type TestContext } from 'vitest';
import { assertKnownClauses, claimsByteContract, classesOfClauses, clauseTitle, gradeOfClauses } from './clause-index.ts';
import { resetTranscript, setCurrentTest, setRunningTest, testeeInfo } from './driver.ts';
import { TesteeFailure, UnimplementedError, type TesteeInfo } from './implementation.ts';
import { classesRequiring, opOfClaimedClass, requiredByClaimed } from './protocol/claims.ts';
import { OPEN_POINTS } from './protocol/readings.ts';
import { transcriptTestId } from './transcript/test-id.ts';

export {
  assertKnownClauses,
  claimsByteContract,
  classesOfClauses,
  clausesOf,
  clauseTitle,
  gradeOfClauses,
  levelOfClauses,
  type Grade,
  type Outcome,
} from './clause-index.ts';

/** A difference from the suite's byte contract (a layout or an ERR_ code), found inside a test of another grade. */
export class ByteContractDifference extends Error {
  override readonly name = 'ByteContractDifference';
}

/** Ends a test that depends on an open point with "acceptable": the testee's answer is one the text permits. */
export class AcceptableReading extends Error {
  override readonly name = 'AcceptableReading';
}

/**
 * Ends a test whose check needs something this run was not given — an option of the run, such as
 * `--endpoint-restart`, not an operation of the implementation. The test reads "not applicable" with `needs` naming
 * it, and its classes read "NEEDS …" (harness/report/record.ts), never FAIL: the implementation was not asked.
 */
export class RunLacks extends Error {
  override readonly name = 'RunLacks';
  constructor(
    /** What the run lacks, as the user would give it (e.g. `--endpoint-restart`). */
    readonly what: string,
    message: string,
  ) {
    super(message);
  }
}

/** The conformance test running in this worker: what the helpers below consult. */
interface Running {
  readonly classes: readonly string[];
  readonly info: TesteeInfo;
  /** Byte-contract differences noted (the testee does not claim the byte contract). */
  readonly contract: string[];
  /** Sub-checks left out, each with why. */
  readonly notes: string[];
}
let running: Running | undefined;

/**
 * A byte-contract check inside a test of the spec grade: when `ok` is false, a testee that claims the byte contract
 * fails the test (graded bytes); one that does not has the difference noted in its record, and the test goes on.
 */
export function contract(ok: boolean, what: string): void {
  if (ok) return;
  if (!running || claimsByteContract(running.info)) throw new ByteContractDifference(`byte contract: ${what}`);
  running.contract.push(what);
}

/**
 * Runs a sub-check's operation: when the testee answers `unimplemented` and no claimed class of the running test requires
 * that operation, resolves undefined (the sub-check is left out, and the record says so); otherwise as `p`.
 */
export async function ifImplemented<T>(p: Promise<T>): Promise<T | undefined> {
  try {
    return await p;
  } catch (e) {
    if (e instanceof UnimplementedError && running && !requiredByClaimed(e.op, running.classes, running.info.claims)) {
      running.notes.push(`${e.op} unimplemented (no claimed class of this test requires it): its sub-check was left out`);
      return undefined;
    }
    throw e;
  }
}

/** Adds a line to the running test's record: something it left out or decided, and why. */
export function note(text: string): void {
  running?.notes.push(text);
}

/** Whether a claimed class of the running test requires `op` (harness/protocol/claims.ts); true outside a test. */
export function requiredHere(op: string): boolean {
  return !running || requiredByClaimed(op, running.classes, running.info.claims);
}

/** The reading the implementation under test declared for an open point (harness/protocol/readings.ts), if any. */
export function declaredReading(point: keyof typeof OPEN_POINTS & string): string | undefined {
  if (!OPEN_POINTS[point]) throw new Error(`unknown open point ${point}`);
  return running?.info.readings?.[point];
}

/** Options of a conformance test. */
export interface ClauseTestOptions {
  readonly timeout?: number;
  /** `bytes`: the test checks the suite's byte contract (layouts, content ids, ERR_ codes), not the spec's words. */
  readonly grade?: 'bytes';
  /** Operations the test cannot do without; one of no claimed class makes the test not applicable. */
  readonly needs?: readonly string[];
}

/** The failure a property runner (fast-check) or an assertion wrapped: the testee's own, when it is one. */
function unwrap(thrown: unknown): unknown {
  if (thrown instanceof Error && thrown.cause instanceof Error) {
    const c = thrown.cause;
    if (c instanceof UnimplementedError || c instanceof TesteeFailure || c instanceof ByteContractDifference || c instanceof AcceptableReading) return c;
  }
  return thrown;
}

/**
 * A conformance test naming the clauses it checks. It runs against the implementation under test (harness/driver.ts)
 * and records its outcome and grade in the test's meta: a test none of whose classes the testee claims is skipped as
 * "not claimed"; an operation the testee answers "unimplemented" skips it as "unimplemented" when a claimed class of
 * the test requires that operation (harness/protocol/claims.ts), else as "not applicable"; a testee that hangs, dies
 * or breaks the protocol fails it as "timeout", "crash" or "errored". None of those counts as passed.
 */
export function clauseIt(ids: readonly string[], title: string, fn: (ctx: TestContext) => unknown, options?: number | ClauseTestOptions): void {
  assertKnownClauses(ids);
  const opts: ClauseTestOptions = typeof options === 'number' ? { timeout: options } : (options ?? {});
  const classes = classesOfClauses(ids);
  const grade = gradeOfClauses(ids, opts.grade);
  it(
    clauseTitle(ids, title),
    async (ctx) => {
      const meta = ctx.task.meta as Record<string, unknown>;
      meta['grade'] = grade;
      // certify --classes: a test of no selected class is not part of this run
      const selected = process.env['JCP_CLASSES']?.split(',').filter(Boolean);
      if (selected && !classes.some((k) => selected.includes(k))) {
        meta['outcome'] = 'not selected';
        ctx.skip(`not one of the selected classes ${selected.join(', ')}`);
        return;
      }
      const info = await testeeInfo();
      resetTranscript();
      const testId = transcriptTestId(ctx.task, classes, ids, title);
      setCurrentTest(testId); // transcripts: entries name the running test
      if (classes.length > 0 && !classes.some((k) => info.claims.includes(k))) {
        meta['outcome'] = 'not claimed';
        ctx.skip(`the implementation claims none of ${classes.join(', ')}`);
        return;
      }
      for (const op of opts.needs ?? []) {
        if (!opOfClaimedClass(op, info.claims)) {
          meta['outcome'] = 'not applicable';
          meta['reason'] = `needs ${op}, an operation of ${classesRequiring(op).join(', ')}, none of which the implementation claims`;
          ctx.skip(meta['reason'] as string);
          return;
        }
      }
      const r: Running = { classes, info, contract: [], notes: [] };
      running = r;
      // the refusal log (scripts/refusal-table.ts): the test by its file and suites, since titles repeat across describe.each
      setRunningTest({ test: `${ctx.task.file.name} ${testId}`, clauses: ids });
      const keep = () => {
        if (r.contract.length) meta['contract'] = [...r.contract];
        if (r.notes.length) meta['notes'] = [...r.notes];
      };
      try {
        await fn(ctx);
        meta['outcome'] = 'passed';
        keep();
      } catch (thrown) {
        keep();
        const e = unwrap(thrown);
        if (e instanceof UnimplementedError) {
          const required = requiredByClaimed(e.op, classes, info.claims);
          meta['outcome'] = required ? 'unimplemented' : 'not applicable';
          meta['needs'] = e.op;
          meta['reason'] = required
            ? `${e.message} — required by claimed ${classesRequiring(e.op).filter((k) => classes.includes(k) && info.claims.includes(k)).join(', ')}`
            : `${e.message} — no claimed class of this test requires ${e.op}`;
          ctx.skip(meta['reason'] as string);
          return;
        }
        if (e instanceof RunLacks) {
          meta['outcome'] = 'not applicable';
          meta['needs'] = e.what;
          meta['reason'] = e.message;
          ctx.skip(e.message);
          return;
        }
        if (e instanceof AcceptableReading) {
          meta['outcome'] = 'acceptable';
          meta['reason'] = e.message;
          ctx.skip(e.message);
          return;
        }
        if (e instanceof TesteeFailure) {
          meta['outcome'] = e.kind === 'protocol' ? 'errored' : e.kind;
          if (e.transcript) meta['transcript'] = e.transcript;
        } else {
          meta['outcome'] = 'failed';
          if (e instanceof ByteContractDifference) meta['grade'] = 'bytes';
          // the test's exchanges reach the record through the driver's failure hook (harness/driver.ts resetTranscript)
        }
        throw thrown;
      } finally {
        running = undefined;
        setRunningTest(undefined);
      }
    },
    opts.timeout,
  );
}
