// A refusal judged on its two grades (harness/PROTOCOL.md "Grades"): that an input is refused is the spec's own word
// (it says refuse or reject, and names no ERR_ code); which ERR_ code the refusal carries is the suite's byte contract.
// For answers already read (by codeOf, or a check like it that answers 'same' or 'accepted …' when nothing was refused),
// and for codes compared inside loops and fast-check properties. expectCode (./refusal.ts) does the same for a promise.
import { expect } from 'vitest';
import { contract } from './clause.ts';

/**
 * Whether `got` names a refusal: a TesteeError's code, which the protocol's schema keeps to the suite's closed list
 * (impl/errors.ts, every code ERR_…), not an acceptance ('accepted', 'same', 'accepted but re-encoded as …', a verdict).
 */
export function isRefusal(got: string): boolean {
  return got.startsWith('ERR_');
}

/** The suite's code for a refusal: one code, any of several (an input that breaks more than one rule), or a family. */
export type Codes = string | readonly string[] | RegExp;

const named = (codes: Codes): string =>
  codes instanceof RegExp ? `a code matching ${String(codes)}` : typeof codes === 'string' ? codes : codes.join(' or ');
const matches = (codes: Codes, got: string): boolean =>
  codes instanceof RegExp ? codes.test(got) : typeof codes === 'string' ? got === codes : codes.includes(got);

/**
 * Asserts that `got` is a refusal (the spec grade) and that its code is `codes` or one of them (the byte contract: a
 * testee that claims it fails here; one that does not has the difference noted, and the test goes on).
 */
export function expectRefusedAs(got: string, codes: Codes, what: string): void {
  expect(isRefusal(got), `${what}: refused (the suite's code for it: ${named(codes)}), but it came back ${got}`).toBe(true);
  contract(matches(codes, got), `${what}: refused with ${got}; the suite's code for this refusal is ${named(codes)}`);
}

/**
 * `expectRefusedAs` for a loop or a property that judges many inputs: a testee that does not claim the byte contract has
 * each different (expected, got) pair of codes noted once, with its first example, rather than once per input; one that
 * claims it fails at the first difference, every time (so fast-check still shrinks to the smallest).
 */
export function refusalJudge(): (got: string, codes: Codes, what: string) => void {
  const noted = new Set<string>();
  return (got, codes, what) => {
    expect(isRefusal(got), `${what}: refused (the suite's code for it: ${named(codes)}), but it came back ${got}`).toBe(true);
    if (matches(codes, got)) return;
    const pair = `${named(codes)}\u0000${got}`;
    if (noted.has(pair)) return;
    contract(false, `${what}: refused with ${got}; the suite's code for this refusal is ${named(codes)}`);
    noted.add(pair); // reached only when the difference was noted, not thrown
  };
}
