// Expectation files, owned by the adopter: which tests are known not to pass, and why. The run fails on an unexpected
// failure, an unexpected pass, an entry that matches nothing, and a glob that matches too much.
import { readFileSync } from 'node:fs';
import type { TestLine } from './record-reporter.ts';
import { compileGlob } from './glob.ts';

/** One entry: a test id or glob (`*` matches any run of characters), the outcome expected, and why. */
export interface Expectation {
  readonly test: string;
  /** Defaults to "failed". */
  readonly outcome?: string;
  readonly reason: string;
  readonly issue?: string;
}

/** A claimed class the adopter knows will get no verdict from their runs (say, a wire class certified elsewhere), and why. */
export interface ClassExpectation {
  readonly class: string;
  readonly reason: string;
}

/** The file: `{ "expectations": [ … ], "without_verdict"?: [ … ] }`. */
export interface ExpectationFile {
  readonly expectations: readonly Expectation[];
  /** Claimed classes excused from having a verdict: without an entry here, a claimed class with none fails the run. */
  readonly without_verdict?: readonly ClassExpectation[];
}

/** A glob matching more tests than this is refused as too broad. */
export const MAX_GLOB_MATCHES = 20;

/** Outcomes that count as passing. */
export const PASSING = new Set(['passed']);
/** Outcomes that are not failures of the implementation but are not passes either. */
export const NEUTRAL = new Set(['not claimed', 'not applicable', 'acceptable']);
/** Outcomes of a testee failing as a program: unexpected whatever the test's grade. */
export const PROGRAM_FAULTS = new Set(['timeout', 'crash', 'errored']);

/** How results are graded for this run: whether the testee claims the suite's byte contract (the `byte-contract` feature). */
export interface Grading {
  readonly byteContract: boolean;
}

/**
 * Whether a result that is neither passing nor neutral fails the run (harness/PROTOCOL.md "Grades"): a program fault
 * always; otherwise a spec-graded result always, a byte-contract one only when the testee claims the byte contract,
 * a SHOULD / MAY / open-point one never (it is reported under its grade).
 */
export function countsAgainst(l: Pick<TestLine, 'outcome' | 'grade'>, g: Grading): boolean {
  if (PASSING.has(l.outcome) || NEUTRAL.has(l.outcome)) return false;
  if (PROGRAM_FAULTS.has(l.outcome)) return true;
  if (l.grade === 'bytes') return g.byteContract;
  return l.grade !== 'open';
}

/** Why an expectation file was refused; the message names the file. */
export class ExpectationFileError extends Error {
  override readonly name = 'ExpectationFileError';
  constructor(
    /** unreadable: no such file or no permission; not-json: not JSON; bad-shape: JSON, but not an expectation file. */
    readonly code: 'unreadable' | 'not-json' | 'bad-shape',
    message: string,
  ) {
    super(message);
  }
}

/** Reads and checks an expectation file; throws ExpectationFileError. */
export function readExpectations(path: string): ExpectationFile {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (e) {
    throw new ExpectationFileError('unreadable', `${path}: cannot read the expectation file (${(e as NodeJS.ErrnoException).code ?? String(e)})`);
  }
  let data: ExpectationFile;
  try {
    data = JSON.parse(text) as ExpectationFile;
  } catch (e) {
    throw new ExpectationFileError('not-json', `${path}: the expectation file is not JSON (${e instanceof Error ? e.message : String(e)})`);
  }
  if (!data || typeof data !== 'object' || !Array.isArray(data.expectations)) throw new ExpectationFileError('bad-shape', `${path}: expected {"expectations": [...]}`);
  for (const [i, e] of data.expectations.entries()) {
    if (!e || typeof e !== 'object') throw new ExpectationFileError('bad-shape', `${path}: expectations[${i}] must be an object {"test", "reason", "outcome"?}`);
    if (typeof e.test !== 'string' || e.test.length === 0) throw new ExpectationFileError('bad-shape', `${path}: expectations[${i}].test must be a test id or glob`);
    if (typeof e.reason !== 'string' || e.reason.trim().length === 0) throw new ExpectationFileError('bad-shape', `${path}: expectations[${i}] (${e.test}) needs a reason`);
    if (e.outcome !== undefined && typeof e.outcome !== 'string') throw new ExpectationFileError('bad-shape', `${path}: expectations[${i}] (${e.test}): outcome must be a string`);
  }
  if (data.without_verdict !== undefined && !Array.isArray(data.without_verdict)) throw new ExpectationFileError('bad-shape', `${path}: without_verdict must be a list of {"class", "reason"}`);
  for (const [i, c] of (data.without_verdict ?? []).entries()) {
    if (!c || typeof c !== 'object' || typeof c.class !== 'string' || c.class.length === 0) throw new ExpectationFileError('bad-shape', `${path}: without_verdict[${i}].class must name a class (e.g. "jcp:C16")`);
    if (typeof c.reason !== 'string' || c.reason.trim().length === 0) throw new ExpectationFileError('bad-shape', `${path}: without_verdict[${i}] (${c.class}) needs a reason`);
  }
  return data;
}

/** A test line with its expectation applied. */
export interface Judged extends TestLine {
  /** The outcome the adopter expected, when an entry matched. */
  readonly expected?: string;
  /** True when this result should fail the run. */
  readonly unexpected: boolean;
}

/** Problems with the expectation file itself (stale or too broad entries). */
export interface ExpectationProblems {
  readonly unmatched: readonly string[];
  readonly tooBroad: ReadonlyArray<{ readonly test: string; readonly matches: number }>;
}

/** Applies expectations to test lines. */
export function judge(lines: readonly TestLine[], file?: ExpectationFile, grading: Grading = { byteContract: true }): { judged: Judged[]; problems: ExpectationProblems } {
  const entries = (file?.expectations ?? []).map((e) => ({ e, glob: compileGlob(e.test), hits: 0 }));
  const judged = lines.map((l): Judged => {
    const hit = entries.find((x) => x.glob.matches(l.id));
    if (hit) hit.hits++;
    const passing = PASSING.has(l.outcome);
    if (!hit) return { ...l, unexpected: countsAgainst(l, grading) };
    const expected = hit.e.outcome ?? 'failed';
    // an expected failure that now passes is unexpected too: the entry must be removed
    const matches = l.outcome === expected;
    return { ...l, expected, outcome: matches ? (passing ? l.outcome : 'expected failure') : l.outcome, unexpected: !matches };
  });
  return {
    judged,
    problems: {
      unmatched: entries.filter((x) => x.hits === 0).map((x) => x.e.test),
      tooBroad: entries.filter((x) => x.e.test.includes('*') && x.hits > MAX_GLOB_MATCHES).map((x) => ({ test: x.e.test, matches: x.hits })),
    },
  };
}

/** A claimed class that got no verdict (NOT TESTED, NOT APPLICABLE, NEEDS …), and whether the expectation file excuses it. */
export interface Unverdicted {
  readonly class: string;
  readonly verdict: string;
  /** The expectation file's reason, when it names the class under without_verdict. */
  readonly excused?: string;
}

/**
 * The claimed classes of `rows` without a verdict — each an unexpected result unless the file excuses it — and the
 * file's without_verdict entries that name a class which did get one (stale: to be removed).
 */
export function claimedWithoutVerdict(
  rows: ReadonlyArray<{ readonly class: string; readonly claimed: boolean; readonly verdict: string }>,
  file?: ExpectationFile,
): { readonly classes: readonly Unverdicted[]; readonly stale: readonly string[] } {
  const excuses = new Map((file?.without_verdict ?? []).map((c) => [c.class, c.reason]));
  const given = new Set(['PASS', 'FAIL', 'PARTIAL', 'NOT CLAIMED']);
  const classes = rows
    .filter((r) => r.claimed && !given.has(r.verdict))
    .map((r) => ({ class: r.class, verdict: r.verdict, ...(excuses.has(r.class) ? { excused: excuses.get(r.class)! } : {}) }));
  const without = new Set(classes.map((c) => c.class));
  const listed = new Set(rows.map((r) => r.class));
  return { classes, stale: [...excuses.keys()].filter((k) => listed.has(k) && !without.has(k)) };
}

/** The expectation file that would make the current results pass: one entry per test that did not pass, for review. */
export function expectationsFor(lines: readonly TestLine[], previous?: ExpectationFile, grading: Grading = { byteContract: true }): ExpectationFile {
  const reasons = new Map((previous?.expectations ?? []).map((e) => [e.test, e]));
  return {
    expectations: lines
      .filter((l) => countsAgainst(l, grading) && l.outcome !== 'expected failure')
      .map((l) => {
        const old = reasons.get(l.id);
        return { test: l.id, outcome: l.outcome, reason: old?.reason ?? `TODO: why does this ${l.outcome}? (${(l.error ?? '').split('\n')[0]?.slice(0, 120) ?? ''})`, ...(old?.issue ? { issue: old.issue } : {}) };
      }),
    ...(previous?.without_verdict?.length ? { without_verdict: previous.without_verdict } : {}),
  };
}
