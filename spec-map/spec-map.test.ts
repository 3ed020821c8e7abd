// Self-test of the clause index: every clause has a known level, its id's section and a quote; every open point says
// the reading the reference takes; and, where the spec texts are present (they do not ship with the suite), every quote
// still occurs in the spec text it cites. Absent texts: one line says so, a failure only under JCP_REQUIRE_SPEC=1.
// The full checker, with coverage per spec, is scripts/spec-map-check.ts.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { describeWithShared } from '../harness/external-vectors.ts';
import { loadSpecs, normaliseText } from './index.ts';

describe('spec map', () => {
  it('loads, with well-formed unique ids and classes', () => {
    const specs = loadSpecs();
    expect(specs.length).toBeGreaterThan(0);
    for (const s of specs) expect(s.clauses.length).toBeGreaterThan(0);
  });

  it('every clause has a known level, the section its id names, and a quote', () => {
    const levels = new Set(['MUST', 'MUST NOT', 'REQUIRED', 'SHOULD', 'SHOULD NOT', 'MAY', 'RECOMMENDED', 'OPEN']);
    const bad: string[] = [];
    for (const s of loadSpecs()) {
      for (const c of s.clauses) {
        if (!levels.has(c.level)) bad.push(`${c.id}: level ${c.level}`);
        if (!c.id.startsWith(`${s.spec}/${c.section}#`)) bad.push(`${c.id}: section ${c.section}`);
        if (!c.quote.trim()) bad.push(`${c.id}: no quote`);
      }
    }
    expect(bad).toEqual([]);
  });

  it('every open point states the reading the reference takes', () => {
    for (const s of loadSpecs()) {
      for (const c of s.clauses.filter((c) => c.level === 'OPEN')) expect(c.reading?.length ?? 0, c.id).toBeGreaterThan(40);
    }
  });
});

describeWithShared('spec', 'spec map quotes against the spec text', (dir) => {
  it('every quote occurs verbatim (whitespace-normalised) in its spec', () => {
    let checked = 0;
    const missing: string[] = [];
    for (const s of loadSpecs()) {
      const text = normaliseText(readFileSync(join(dir, s.file), 'utf8'));
      for (const c of s.clauses) {
        checked++;
        if (!text.includes(normaliseText(c.quote))) missing.push(`${c.id}: ${c.quote}`);
      }
    }
    expect(missing).toEqual([]);
    expect(checked).toBeGreaterThan(0);
  });
});
