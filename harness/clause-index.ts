// What a test's clause ids say about it, read from the spec map alone: its classes, level and grade, the ⟦id …⟧ form
// its name carries them in, and whether a testee claims the byte contract. The reports, certify and merge read these
// without loading the test runner or the implementation (./clause.ts, which conformance tests use, re-exports them
// beside clauseIt).
import { findClause } from '../spec-map/index.ts';
import type { TesteeInfo } from './implementation.ts';

/** How a conformance test ended, as the reports grade it. */
export type Outcome =
  | 'passed'
  | 'failed'
  | 'unimplemented'
  | 'not applicable'
  | 'acceptable'
  | 'not claimed'
  | 'errored'
  | 'timeout'
  | 'crash'
  | 'expected failure';

/** What a result is graded on: the spec's words, the suite's byte contract, or a SHOULD / MAY / open point. */
export type Grade = 'spec' | 'bytes' | 'open';

const LEVEL_RANK: Record<string, number> = { MUST: 0, 'MUST NOT': 0, REQUIRED: 0, SHOULD: 1, 'SHOULD NOT': 1, RECOMMENDED: 1, MAY: 2, OPEN: 3 };
const MUSTISH = new Set(['MUST', 'MUST NOT', 'REQUIRED']);

/** The class ids of the clauses a test names. */
export function classesOfClauses(ids: readonly string[]): string[] {
  return [...new Set(ids.flatMap((id) => findClause(id)?.classes ?? []))];
}

/** The strongest level among the clauses a test names (MUST-level results are graded apart from SHOULD-level). */
export function levelOfClauses(ids: readonly string[]): string {
  const levels = ids.map((id) => findClause(id)?.level ?? 'OPEN');
  return levels.sort((a, b) => (LEVEL_RANK[a] ?? 9) - (LEVEL_RANK[b] ?? 9))[0] ?? 'OPEN';
}

/**
 * A test's grade: `bytes` when it is declared a byte-contract test; `open` when it names an open point or no MUST-level
 * clause (its outcome depends on a reading the text permits, or on a SHOULD / MAY); otherwise `spec`.
 */
export function gradeOfClauses(ids: readonly string[], declared?: 'bytes'): Grade {
  if (declared === 'bytes') return 'bytes';
  const levels = ids.map((id) => findClause(id)?.level ?? 'OPEN');
  if (levels.includes('OPEN') || !levels.some((l) => MUSTISH.has(l))) return 'open';
  return 'spec';
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

/** Whether the implementation under test claims the suite's byte contract (the `byte-contract` feature). */
export function claimsByteContract(info: TesteeInfo): boolean {
  return info.features.includes('byte-contract');
}
