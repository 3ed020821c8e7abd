// Small helpers every conformance test shares: reading a refusal's code, and running a property so that a testee's
// own failure (a hang, a crash, unimplemented) is graded as that, not as a plain assertion failure.
import fc from 'fast-check';
import { expect } from 'vitest';
import { contract } from './clause.ts';
import { TesteeError, TesteeFailure, UnimplementedError } from './implementation.ts';

/**
 * The code of the TesteeError `p` rejects with, or 'accepted' when it resolves. Anything else (a TesteeFailure, an
 * UnimplementedError) is rethrown: a crash or a hang is never a refusal.
 */
export async function codeOf(p: Promise<unknown>): Promise<string> {
  try {
    await p;
    return 'accepted';
  } catch (e) {
    if (e instanceof TesteeError) return e.code;
    throw e;
  }
}

/**
 * Asserts that `p` is refused (the spec grade: the spec says refuse or reject, and names no ERR_ code) and that the
 * refusal carries `code`, the suite's code for it (the byte contract: a testee that does not claim the byte contract
 * has a different code noted, not failed). `what` names the case in a failure message.
 */
export async function expectCode(p: Promise<unknown>, code: string, what?: string): Promise<void> {
  const got = await codeOf(p);
  expect(got, `${what ? `${what}: ` : ''}refused (the suite's code for it: ${code})`).not.toBe('accepted');
  contract(got === code, `${what ? `${what}: ` : ''}refused with ${got}; the suite's code for this refusal is ${code}`);
}

/**
 * `fc.assert` for an async property, rethrowing the testee's own failure with the input that met it. A program fault
 * (harness/PROTOCOL.md: a timeout, a crash or a protocol error, each killing the testee) ends the property at once:
 * the run that meets it is not shrunk, and every later run passes without calling the testee, so fast-check neither
 * pays a timeout and a respawn per shrink step nor shrinks toward an input the fault has nothing to do with. A
 * property failure of behaviour shrinks as before.
 */
export async function assertProperty<T>(p: fc.IAsyncProperty<T>, params: fc.Parameters<T>): Promise<void> {
  const stopped = _stopOnProgramFault(p);
  try {
    await fc.assert(stopped.property, params);
  } catch (e) {
    const cause = (e as { cause?: unknown }).cause;
    if (cause instanceof UnimplementedError) throw cause;
    if (cause instanceof TesteeFailure) {
      // the same failure, with fast-check's counterexample added (the message already starts with the kind)
      throw new TesteeFailure(cause.kind, `${cause.message.slice(cause.kind.length + 2)}\n${(e as Error).message}`, cause.transcript);
    }
    throw e;
  }
  const fault = stopped.fault();
  if (fault) {
    const { error, input, run } = fault;
    throw new TesteeFailure(
      error.kind,
      `${error.message.slice(error.kind.length + 2)}\nmet by run ${run} of the property${params.seed !== undefined ? ` (seed ${params.seed})` : ''}, on ${fc.stringify(input)}; the property stopped there, unshrunk`,
      error.transcript,
    );
  }
}

/** A program fault a property met: the failure, the input of the run that met it, and that run's number (from 1). */
interface _ProgramFault {
  readonly error: TesteeFailure;
  readonly input: unknown;
  readonly run: number;
}

/** `p`, except that after a run fails with a TesteeFailure that run and every later one pass without running. */
function _stopOnProgramFault<T>(p: fc.IAsyncProperty<T>): { property: fc.IAsyncProperty<T>; fault(): _ProgramFault | undefined } {
  let fault: _ProgramFault | undefined;
  let runs = 0;
  const property: fc.IAsyncProperty<T> = {
    isAsync: () => true,
    generate: (mrng, runId) => p.generate(mrng, runId),
    shrink: (value) => p.shrink(value),
    runBeforeEach: () => (fault ? Promise.resolve() : p.runBeforeEach()),
    runAfterEach: () => (fault ? Promise.resolve() : p.runAfterEach()),
    async run(v) {
      if (fault) return null;
      runs++;
      const r = await p.run(v);
      const error = r !== null && 'error' in r ? r.error : undefined;
      if (error instanceof TesteeFailure) {
        fault = { error, input: v, run: runs };
        return null;
      }
      return r;
    },
  };
  return { property, fault: () => fault };
}
