// The refusals table of harness/PROTOCOL.md ("Refusals per operation"): what an operation answers besides its result —
// the ERR_ codes it refuses with (the suite's byte contract: the spec names no ERR_ code) and the deny reasons it
// decides with (named by the spec: jcp §7, §4.2, §4.8, §4.9, §11) — each with when: the clause ids of the conformance
// tests that provoke it. Read from the log the driver writes under JCP_REFUSAL_LOG (harness/driver.ts), rendered by
// scripts/refusal-table.ts, and parsed back by harness/self/refusal-table.test.ts. Rendering sorts and deduplicates, so
// the same log gives the same table byte for byte, and a table is well-formed exactly when it renders back to itself.

/** The markers the table sits between in PROTOCOL.md. */
export const TABLE_BEGIN = '<!-- refusal-table:begin -->';
export const TABLE_END = '<!-- refusal-table:end -->';

/**
 * Where the spec names each deny reason (by its own spelling); undefined: a reason the spec does not name (the
 * reference's reading). Every other answer the table lists is an ERR_ code, which the spec never names.
 */
export const DENY_REASON_NAMED_IN: Readonly<Record<string, string | undefined>> = {
  'untrusted-control': 'jcp §7',
  revoked: 'jcp §7',
  'untrusted-root': 'jcp §7',
  'wrong-resource': 'jcp §7',
  'wrong-subject': 'jcp §7',
  'bad-signature': 'jcp §7',
  expired: 'jcp §7',
  'action-not-granted': 'jcp §7',
  'budget-exceeded': 'jcp §7',
  'chain-broken': 'jcp §4.2',
  'attenuation-violation': 'jcp §4.2',
  'caveat-unsatisfied': 'jcp §4.9',
  'funds-exceeded': 'jcp §4.8',
  'currency-mismatch': 'jcp §4.8',
  // jcp §4.10 names no deny reason for a flow denial
  'flow-denied': undefined,
  'stale-request': 'jcp §11',
  unrecorded: 'jcp §11',
};

/**
 * One line of the log: an operation, what it answered (`ERR_…`, or `deny:<reason>`), and the running test: its file
 * and title, and its clause ids ('' and none outside a clause-indexed test).
 */
export interface LoggedAnswer {
  readonly op: string;
  readonly answer: string;
  readonly test: string;
  readonly clauses: readonly string[];
}

/** One row of the table: an operation, one answer of it, and the clauses of every test that provoked that answer. */
export interface RefusalRow {
  readonly op: string;
  readonly answer: string;
  readonly clauses: readonly string[];
}

/** The log line for one answer: tab-separated, the clause ids space-separated. */
export function logLine(a: LoggedAnswer): string {
  return `${a.op}\t${a.answer}\t${a.test.replace(/[\t\n]/g, ' ')}\t${a.clauses.join(' ')}\n`;
}

/** The log's lines read back. */
export function readLog(text: string): LoggedAnswer[] {
  return text
    .split('\n')
    .filter(Boolean)
    .map((line) => {
      const [op = '', answer = '', test = '', clauses = ''] = line.split('\t');
      return { op, answer, test, clauses: clauses.split(' ').filter(Boolean) };
    });
}

/** A test that names no clause: what its row says in place of clause ids. */
export const NO_CLAUSE = '(a test naming no clause)';

const cmp = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);
const isDeny = (answer: string): boolean => answer.startsWith('deny:');
/** Refusals first, then deny reasons, each by name. */
const answerOrder = (a: string, b: string): number => Number(isDeny(a)) - Number(isDeny(b)) || cmp(a, b);

/** Rows sorted by operation, then answer (refusals before deny reasons); each row's clauses deduplicated and sorted. */
export function sortRows(rows: readonly RefusalRow[]): RefusalRow[] {
  const by = new Map<string, { op: string; answer: string; clauses: Set<string> }>();
  for (const r of rows) {
    const key = `${r.op}\u0000${r.answer}`;
    const row = by.get(key) ?? by.set(key, { op: r.op, answer: r.answer, clauses: new Set() }).get(key)!;
    for (const c of r.clauses) row.clauses.add(c);
  }
  return [...by.values()]
    .map((r) => ({ op: r.op, answer: r.answer, clauses: [...r.clauses].sort(cmp) }))
    .sort((x, y) => cmp(x.op, y.op) || answerOrder(x.answer, y.answer));
}

/**
 * The rows of a log: one per (operation, answer), whose clauses are those of the tests most aimed at that answer. Of
 * the tests that provoked it, those that provoked the fewest different answers of the same operation, and of those the
 * ones that provoked the fewest different answers in all: a test that provokes this answer alone says when it is
 * given, while a random draw (a differential or property test) that meets every deny reason on its way says little
 * about any one of them, and is named only where no test aims closer.
 */
export function rowsOf(log: readonly LoggedAnswer[]): RefusalRow[] {
  // per test: the (operation, answer) pairs it provoked, and the clauses it names
  const provoked = new Map<string, Set<string>>();
  const clausesOf = new Map<string, readonly string[]>();
  for (const a of log) {
    (provoked.get(a.test) ?? provoked.set(a.test, new Set()).get(a.test)!).add(`${a.op}\u0000${a.answer}`);
    clausesOf.set(a.test, a.clauses.length ? a.clauses : [NO_CLAUSE]);
  }
  // per (operation, answer): each test that provoked it, with [answers of that operation, answers in all] it provoked
  const provokers = new Map<string, { op: string; answer: string; tests: [string, number, number][] }>();
  for (const [test, pairs] of provoked) {
    const ops = [...pairs].map((k) => k.split('\u0000')[0]);
    for (const k of pairs) {
      const [op, answer] = k.split('\u0000') as [string, string];
      const p = provokers.get(k) ?? provokers.set(k, { op, answer, tests: [] }).get(k)!;
      p.tests.push([test, ops.filter((o) => o === op).length, pairs.size]);
    }
  }
  return sortRows(
    [...provokers.values()].map(({ op, answer, tests }) => {
      const inOp = Math.min(...tests.map(([, n]) => n));
      const inAll = Math.min(...tests.filter(([, n]) => n === inOp).map(([, , m]) => m));
      const aimed = tests.filter(([, n, m]) => n === inOp && m === inAll);
      return { op, answer, clauses: aimed.flatMap(([t]) => clausesOf.get(t) ?? []) };
    }),
  );
}

/** What the last column says of an answer: where the spec names it, or that it does not. */
export function namedBySpec(answer: string): string {
  if (!isDeny(answer)) return 'no: byte contract';
  return DENY_REASON_NAMED_IN[answer.slice('deny:'.length)] ?? 'no: the reference’s reading';
}

const HEADER = ['| op | answer | when: the clauses of the tests most aimed at it | named by the spec |', '| --- | --- | --- | --- |'];

const renderAnswer = (answer: string): string => (isDeny(answer) ? `deny \`${answer.slice('deny:'.length)}\`` : `\`${answer}\``);
const renderClause = (c: string): string => (c === NO_CLAUSE ? c : `\`${c}\``);

/** The table, markers included, of `rows` (sorted and deduplicated again, so the order of `rows` does not matter). */
export function renderTable(rows: readonly RefusalRow[]): string {
  const lines = sortRows(rows).map((r) => `| \`${r.op}\` | ${renderAnswer(r.answer)} | ${r.clauses.map(renderClause).join(' ')} | ${namedBySpec(r.answer)} |`);
  return [TABLE_BEGIN, '', ...HEADER, ...lines, '', TABLE_END].join('\n');
}

/** The table between the markers of `doc`, markers included; undefined when the markers are missing. */
export function tableIn(doc: string): string | undefined {
  const i = doc.indexOf(TABLE_BEGIN);
  const j = doc.indexOf(TABLE_END);
  return i < 0 || j < i ? undefined : doc.slice(i, j + TABLE_END.length);
}

const CLAUSE_CELL = new RegExp(`\`([^\`]+)\`|${NO_CLAUSE.replace(/[()]/g, '\\$&')}`, 'g');

/** The rows of a rendered table, read back (`named` is the last column as written). */
export function parseTable(table: string): (RefusalRow & { readonly named: string })[] {
  const rows: (RefusalRow & { named: string })[] = [];
  for (const m of table.matchAll(/^\| `([^`]+)` \| (deny `[^`]+`|`[^`]+`) \| (.+) \| ([^|]+) \|$/gm)) {
    const answer = m[2]!.startsWith('deny ') ? `deny:${m[2]!.slice(6, -1)}` : m[2]!.slice(1, -1);
    const clauses = [...m[3]!.matchAll(CLAUSE_CELL)].map((c) => c[1] ?? NO_CLAUSE);
    rows.push({ op: m[1]!, answer, clauses, named: m[4]! });
  }
  return rows;
}
