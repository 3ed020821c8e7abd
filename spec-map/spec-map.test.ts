// Self-test of the clause index: every quote still occurs in the spec text it cites, and every open point says the
// reading the reference takes. (The full checker, with coverage per spec, comes with the harness issue.)
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
