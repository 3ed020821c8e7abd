// The one helper through which every conformance test names the clause ids it checks (ARCHITECTURE.md).
// The ids go into the test's name as ⟦id id …⟧ and its meta, so the reports, the spec map and the kill matrix read one index.
import { it, type TestContext } from 'vitest';
import { findClause } from '../spec-map/index.ts';

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

/** A conformance test naming the clauses it checks. */
export function clauseIt(
  ids: readonly string[],
  title: string,
  fn: (ctx: TestContext) => unknown,
  timeout?: number,
): void {
  assertKnownClauses(ids);
  it(
    clauseTitle(ids, title),
    (ctx) => {
      (ctx.task.meta as Record<string, unknown>)['clauses'] = [...ids];
      return fn(ctx) as void | Promise<void>;
    },
    timeout,
  );
}
