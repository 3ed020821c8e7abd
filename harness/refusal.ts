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

/** `fc.assert` for an async property, rethrowing the testee's own failure with fast-check's counterexample added. */
export async function assertProperty<T>(p: fc.IAsyncProperty<T>, params: fc.Parameters<T>): Promise<void> {
  try {
    await fc.assert(p, params);
  } catch (e) {
    const cause = (e as { cause?: unknown }).cause;
    if (cause instanceof UnimplementedError) throw cause;
    if (cause instanceof TesteeFailure) {
      // the same failure, with fast-check's counterexample added (the message already starts with the kind)
      throw new TesteeFailure(cause.kind, `${cause.message.slice(cause.kind.length + 2)}\n${(e as Error).message}`, cause.transcript);
    }
    throw e;
  }
}
