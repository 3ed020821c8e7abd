// The clause-mutant catalog (mutation/catalog.ts) is sound, checked cheaply without running the kill
// matrix: every clause id it names exists, every MUST-level clause of the classes it covers (the claimed classes
// when it was written, mutation/catalog.ts COVERED_CLASSES, plus the pending ones) is broken by a mutant or listed
// with its reason, every mutant id is one mutation/testees/variant-main.ts serves or a source patch of
// mutation/testees/patches.ts (and only those), and every source patch still applies to its impl/ file.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { AWAITING_TESTS, CONTROL, COVERED_CLASSES, EQUIVALENT, MUTANTS as RUN, NO_CLASS, PENDING_CLASSES, UNBROKEN } from '../../mutation/catalog.ts';

/** Every mutant the matrix can run: those it runs, and those awaiting a test (survivors, findings). */
const MUTANTS = [...RUN, ...AWAITING_TESTS];
import { knownMutantIds, LEGACY_VARIANTS, MUTANT_BUILDERS } from '../../mutation/testees/registry.ts';
import { MUTANT_PATCHES, SUITE_SCOPED } from '../../mutation/testees/patches.ts';
import { PROCESS_MUTANTS } from '../../mutation/testees/process-faults.ts';
import { allClauses, implementedClasses } from '../../spec-map/index.ts';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
// every clause of the spec map (jcp, jouleclaw, sense), with the suite-defined profiles that hold some: the catalog covers all
const CLAUSES = [...allClauses().values()];
const CLAIMED = [...implementedClasses()];
const byId = new Map(CLAUSES.map((c) => [c.id, c]));
const MUST = new Set(['MUST', 'MUST NOT', 'REQUIRED']);

describe('the clause-mutant catalog', () => {
  it('names only clause ids of the spec map, and files each mutant under a class of its clauses', () => {
    expect(MUTANTS.length).toBeGreaterThan(0);
    const unknown = MUTANTS.flatMap((m) => m.clauses.filter((c) => !byId.has(c)).map((c) => `${m.id}: ${c}`));
    expect(unknown).toEqual([]);
    // NO_CLASS only where none of the mutant's clauses belongs to a class
    const filed = (m: (typeof MUTANTS)[number]) =>
      m.class === NO_CLASS ? m.clauses.every((c) => byId.get(c)?.classes.length === 0) : m.clauses.some((c) => byId.get(c)?.classes.includes(m.class));
    const misfiled = MUTANTS.filter((m) => m.clauses.length === 0 || !filed(m)).map((m) => m.id);
    expect(misfiled).toEqual([]);
    const blank = MUTANTS.filter((m) => m.description.trim() === '' || m.applied.trim() === '').map((m) => m.id);
    expect(blank).toEqual([]);
  });

  it('has unique ids', () => {
    const ids = [CONTROL.id, ...MUTANTS.map((m) => m.id), ...EQUIVALENT.map((m) => m.id)];
    expect(ids.filter((id, i) => ids.indexOf(id) !== i)).toEqual([]);
  });

  it('covers only classes of the spec map that the reference claims or is about to claim', () => {
    const known = new Set(CLAUSES.flatMap((c) => c.classes));
    expect([...COVERED_CLASSES, ...PENDING_CLASSES].filter((k) => !known.has(k))).toEqual([]);
    expect(COVERED_CLASSES.filter((k) => !CLAIMED.includes(k))).toEqual([]);
  });

  it('breaks every MUST-level clause of its covered classes, or lists why not', () => {
    const broken = new Set(MUTANTS.flatMap((m) => m.clauses));
    const listed = new Set(UNBROKEN.map((u) => u.clause));
    const classes = [...COVERED_CLASSES, ...PENDING_CLASSES];
    const must = CLAUSES.filter((c) => MUST.has(c.level) && c.classes.some((k) => classes.includes(k)));
    expect(must.length).toBeGreaterThan(40);
    expect(must.filter((c) => !broken.has(c.id) && !listed.has(c.id)).map((c) => `${c.id} (${c.classes.join(',')})`)).toEqual([]);
    // a listed reason is for a real clause that no mutant breaks, and says something
    expect(UNBROKEN.filter((u) => !byId.has(u.clause) || broken.has(u.clause) || u.reason.trim().length < 10).map((u) => u.clause)).toEqual([]);
    // nothing of a covered class hides behind "not yet written": only pending classes may be listed for want of time
    const claimedOnly = UNBROKEN.filter((u) => byId.get(u.clause)!.classes.some((k) => COVERED_CLASSES.includes(k)) && /not yet written/.test(u.reason));
    expect(claimedOnly.map((u) => u.clause)).toEqual([]);
  });

  it('names only mutants variant-main serves, and every mutant it serves is catalogued', () => {
    const known = new Set(knownMutantIds());
    expect([CONTROL, ...MUTANTS, ...EQUIVALENT].filter((m) => !known.has(m.id)).map((m) => m.id)).toEqual([]);
    // the equivalent mutants stay servable (so their finding can be re-checked) and catalogued apart
    const catalogued = new Set([CONTROL.id, ...MUTANTS.map((m) => m.id), ...EQUIVALENT.map((m) => m.id)]);
    expect([...LEGACY_VARIANTS, ...Object.keys(MUTANT_BUILDERS), ...Object.keys(MUTANT_PATCHES), ...Object.keys(PROCESS_MUTANTS)].filter((id) => !catalogued.has(id))).toEqual([]);
    // a mutant is built one way only
    const ways = [Object.keys(MUTANT_PATCHES), Object.keys(MUTANT_BUILDERS), [...LEGACY_VARIANTS], Object.keys(PROCESS_MUTANTS)].flat();
    expect(ways.filter((id, i) => ways.indexOf(id) !== i)).toEqual([]);
    expect([...SUITE_SCOPED].filter((id) => !MUTANT_PATCHES[id])).toEqual([]);
  });

  it('every source patch still applies: its text occurs exactly once in its impl/ file, and changes it', () => {
    const stale = Object.entries(MUTANT_PATCHES).flatMap(([id, ps]) =>
      ps
        .filter((p) => !p.file.startsWith('impl/') || p.find === p.replace || readFileSync(join(ROOT, p.file), 'utf8').split(p.find).length !== 2)
        .map((p) => `${id}: ${p.file}: ${p.find}`),
    );
    expect(stale).toEqual([]);
  });

  it('variant-main refuses a source-patch mutant (served in process only) instead of serving the faithful reference', () => {
    const id = Object.keys(MUTANT_PATCHES)[0]!;
    const r = spawnSync(process.execPath, ['--import', 'tsx', 'mutation/testees/variant-main.ts', id], { cwd: ROOT, encoding: 'utf8', input: '', timeout: 60_000 });
    expect(r.status).toBe(2);
    expect(r.stderr).toContain('served in process only');
  }, 60_000);

  it('variant-main refuses an unknown mutant id instead of serving the faithful reference', () => {
    const r = spawnSync(process.execPath, ['--import', 'tsx', 'mutation/testees/variant-main.ts', 'no-such-mutant'], { cwd: ROOT, encoding: 'utf8', input: '', timeout: 60_000 });
    expect(r.status).toBe(2);
    expect(r.stderr).toContain('unknown variant no-such-mutant');
  }, 60_000);
});
