// The generated refusals table of harness/PROTOCOL.md (scripts/refusal-table.ts) names only operations of the protocol
// and codes of the suite's closed list, so a renamed op or a dropped code cannot linger in the document.
import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { ERROR_CODES } from '../../impl/errors.ts';
import { OPS } from '../protocol/schema.ts';

const DOC = join(resolve(dirname(fileURLToPath(import.meta.url)), '..'), 'PROTOCOL.md');

describe('the refusals table of PROTOCOL.md', () => {
  it('names only protocol operations and codes of the closed list, one row per operation', () => {
    const doc = readFileSync(DOC, 'utf8');
    const body = doc.slice(doc.indexOf('<!-- refusal-table:begin -->'), doc.indexOf('<!-- refusal-table:end -->'));
    const rows = [...body.matchAll(/^\| `([^`]+)` \| (.+) \|$/gm)].map((m) => ({ op: m[1]!, codes: [...m[2]!.matchAll(/`([A-Z0-9_]+)`/g)].map((c) => c[1]!) }));
    expect(rows.length).toBeGreaterThan(20);
    expect(rows.filter((r) => !OPS[r.op]).map((r) => r.op)).toEqual([]);
    expect(new Set(rows.map((r) => r.op)).size).toBe(rows.length);
    const known = new Set<string>(ERROR_CODES);
    expect(rows.flatMap((r) => r.codes.filter((c) => !known.has(c)).map((c) => `${r.op}: ${c}`))).toEqual([]);
    expect(rows.every((r) => r.codes.length > 0)).toBe(true);
  });
});
