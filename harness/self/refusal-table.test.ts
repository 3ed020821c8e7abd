// The generated refusals table of harness/PROTOCOL.md (scripts/refusal-table.ts, harness/protocol/refusal-table.ts):
// it is exactly what the generator renders (rows sorted and deduplicated, so a hand edit out of its form shows), it
// names only operations of the protocol, codes of the suite's closed list, deny reasons of the implementation and
// clauses of the spec map, and says which answers the spec names (deny reasons, by section; no ERR_ code). A fresh
// generation runs the whole conformance suite, so it is the script's job; the log lines it reads are checked here.
import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { DENY_REASONS } from '../../impl/jcp/types.ts';
import { ERROR_CODES } from '../../impl/errors.ts';
import { findClause } from '../../spec-map/index.ts';
import { DENY_REASON_NAMED_IN, logLine, NO_CLAUSE, parseTable, readLog, renderTable, rowsOf, tableIn } from '../protocol/refusal-table.ts';
import { OPS } from '../protocol/schema.ts';

const DOC = join(resolve(dirname(fileURLToPath(import.meta.url)), '..'), 'PROTOCOL.md');

describe('the refusals table of PROTOCOL.md', () => {
  const table = tableIn(readFileSync(DOC, 'utf8'));
  const rows = parseTable(table ?? '');

  it('is between its markers, and is what the generator renders from its own rows', () => {
    expect(table).toBeDefined();
    expect(rows.length).toBeGreaterThan(100);
    expect(renderTable(rows)).toBe(table);
    // every line of the table is a row the parser read (nothing else between the header and the end marker)
    expect(table!.split('\n').filter((l) => l.startsWith('| `')).length).toBe(rows.length);
    expect(new Set(rows.map((r) => `${r.op} ${r.answer}`)).size).toBe(rows.length);
  });

  it('names only protocol operations, codes of the closed list, deny reasons and clauses of the spec map', () => {
    expect(rows.filter((r) => !OPS[r.op]).map((r) => r.op)).toEqual([]);
    const known = new Set<string>(ERROR_CODES);
    const reasons = new Set<string>(Object.keys(DENY_REASON_NAMED_IN));
    const bad = rows.filter((r) => (r.answer.startsWith('deny:') ? !reasons.has(r.answer.slice(5)) : !known.has(r.answer)));
    expect(bad.map((r) => `${r.op}: ${r.answer}`)).toEqual([]);
    expect(rows.flatMap((r) => r.clauses.filter((c) => c !== NO_CLAUSE && !findClause(c)).map((c) => `${r.op} ${r.answer}: ${c}`))).toEqual([]);
    expect(rows.every((r) => r.clauses.length > 0)).toBe(true);
  });

  it('says the spec names no ERR_ code and names the deny reasons it does name, by section', () => {
    for (const r of rows) {
      if (r.answer.startsWith('deny:')) expect(r.named, `${r.op} ${r.answer}`).toBe(DENY_REASON_NAMED_IN[r.answer.slice(5)] ?? 'no: the reference’s reading');
      else expect(r.named, `${r.op} ${r.answer}`).toBe('no: byte contract');
    }
    // the implementation's deny reasons all have their line (the wire's two, stale-request and unrecorded, besides)
    expect(DENY_REASONS.filter((d) => !(d in DENY_REASON_NAMED_IN))).toEqual([]);
  });
});

describe('the refusal log and its rendering', () => {
  const DECIDE = 'harness/conformance/decision.test.ts > ';
  const lines = [
    // a random draw meets three deny reasons; the targeted tests meet one each
    { op: 'point.decide', answer: 'deny:expired', test: 'differential > decisions', clauses: ['jcp/7#debit-on-allow', 'jcp/5#debit-coupling'] },
    { op: 'point.decide', answer: 'deny:wrong-subject', test: 'differential > decisions', clauses: ['jcp/7#debit-on-allow', 'jcp/5#debit-coupling'] },
    { op: 'point.decide', answer: 'deny:budget-exceeded', test: 'differential > decisions', clauses: ['jcp/7#debit-on-allow', 'jcp/5#debit-coupling'] },
    { op: 'point.decide', answer: 'deny:expired', test: `${DECIDE}expired`, clauses: ['jcp/7#expired', 'jcp/8#every-decision-sealed'] },
    { op: 'point.decide', answer: 'deny:expired', test: `${DECIDE}expired`, clauses: ['jcp/7#expired', 'jcp/8#every-decision-sealed'] },
    { op: 'point.decide', answer: 'deny:wrong-subject', test: `${DECIDE}wrong subject`, clauses: ['jcp/7#wrong-subject'] },
    // only the random draw meets budget-exceeded: it is named there
    { op: 'cbor.check', answer: 'ERR_CBOR_TAG', test: 'cbor > tags', clauses: ['jcp/3#open-tags-in-canonical-check'] },
    { op: 'cbor.check', answer: 'ERR_CBOR_FLOAT', test: 'cbor > floats', clauses: ['jcp/3#no-float-bool-null'] },
    // a test that provokes a second answer of the operation is less aimed than one that provokes this answer alone
    { op: 'cbor.check', answer: 'ERR_CBOR_FLOAT', test: 'cbor > floats or truncated', clauses: ['jcp/11#reject-non-canonical'] },
    { op: 'cbor.check', answer: 'ERR_CBOR_TRUNCATED', test: 'cbor > floats or truncated', clauses: ['jcp/11#reject-non-canonical'] },
    // outside a clause-indexed test
    { op: 'point.spent', answer: 'ERR_BAD_ARGUMENT', test: '', clauses: [] },
  ];

  it('reads back what it writes', () => {
    expect(readLog(lines.map(logLine).join(''))).toEqual(lines);
  });

  it('names per answer the clauses of the tests most aimed at it, sorted and deduplicated, whatever the log order', () => {
    const rows = rowsOf(readLog(lines.map(logLine).join('')));
    expect(rows).toEqual([
      { op: 'cbor.check', answer: 'ERR_CBOR_FLOAT', clauses: ['jcp/3#no-float-bool-null'] },
      { op: 'cbor.check', answer: 'ERR_CBOR_TAG', clauses: ['jcp/3#open-tags-in-canonical-check'] },
      { op: 'cbor.check', answer: 'ERR_CBOR_TRUNCATED', clauses: ['jcp/11#reject-non-canonical'] },
      { op: 'point.decide', answer: 'deny:budget-exceeded', clauses: ['jcp/5#debit-coupling', 'jcp/7#debit-on-allow'] },
      { op: 'point.decide', answer: 'deny:expired', clauses: ['jcp/7#expired', 'jcp/8#every-decision-sealed'] },
      { op: 'point.decide', answer: 'deny:wrong-subject', clauses: ['jcp/7#wrong-subject'] },
      { op: 'point.spent', answer: 'ERR_BAD_ARGUMENT', clauses: [NO_CLAUSE] },
    ]);
    const rendered = renderTable(rows);
    expect(renderTable(rowsOf(readLog([...lines].reverse().map(logLine).join(''))))).toBe(rendered);
    expect(renderTable([...rows].reverse())).toBe(rendered);
    expect(rendered).toContain('| `point.decide` | deny `expired` | `jcp/7#expired` `jcp/8#every-decision-sealed` | jcp §7 |');
    expect(rendered).toContain(`| \`point.spent\` | \`ERR_BAD_ARGUMENT\` | ${NO_CLAUSE} | no: byte contract |`);
    expect(parseTable(rendered).map(({ named: _, ...r }) => r)).toEqual(rows);
  });
});
