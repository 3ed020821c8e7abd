// The clause index: every clause id the suite names, with its level, section, verbatim quote and classes (ARCHITECTURE.md).
// Data lives in spec-map/clauses/<spec>.json, the suite-defined profiles in spec-map/profiles.json and the classes the
// reference claims in spec-map/implemented.json; this module loads them and answers look-ups. It imports nothing of the others.
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** RFC 2119 level of a clause. */
export type Level = 'MUST' | 'MUST NOT' | 'REQUIRED' | 'SHOULD' | 'SHOULD NOT' | 'MAY' | 'RECOMMENDED' | 'OPEN';

/** One normative clause of a spec. */
export interface Clause {
  /** `<spec>/<section>#<slug>`, e.g. `jcp/4.1#child-budget-narrows`. */
  readonly id: string;
  readonly level: Level;
  /** Section number as the spec prints it, e.g. `4.1`. */
  readonly section: string;
  /** A short verbatim quote of the spec text (whitespace-normalised when compared). */
  readonly quote: string;
  /** Class ids it belongs to, e.g. `jcp:C2`, and the suite-defined profile that holds it, e.g. `jouleclaw:P-VALUE`. */
  readonly classes: readonly string[];
  /** For an open point (level OPEN): the reading the reference takes and why. */
  readonly reading?: string;
}

/** One spec's clause file. */
export interface SpecClauses {
  readonly spec: string;
  /** File name of the spec text under ../shared/spec/. */
  readonly file: string;
  readonly clauses: readonly Clause[];
}

const CLAUSE_ID = /^(jcp|jouleclaw|sense)\/[0-9A-Za-z.]+#[a-z0-9][a-z0-9-]*$/;
const CLASS_ID = /^(jcp|jouleclaw|sense):C(-[A-Za-z]+|[0-9]+)$/;
/** A profile this suite defines (spec-map/profiles.json): `P-` and capitals, never mistaken for a spec's `C` class. */
const PROFILE_ID = /^(jcp|jouleclaw|sense):P-[A-Z]+$/;

/**
 * A profile defined by this suite, not by a spec: MUST-level clauses that no class of the specs holds, grouped so a
 * runtime can claim them and be certified on them like on a class. Its clauses are the spec's words; it adds no rule.
 */
export interface Profile {
  readonly id: string;
  readonly title: string;
  readonly clauses: readonly string[];
  /** Whether the reference claims it: its operations, tests and clause mutants are in place. */
  readonly implemented: boolean;
}

/**
 * The spec-map folder: this module's own, or, when it is bundled into one file elsewhere (the reference testee run
 * as a separate process), the nearest spec-map/ of a folder above the bundle.
 */
function specMapDir(): string {
  const own = dirname(fileURLToPath(import.meta.url));
  if (existsSync(join(own, 'profiles.json'))) return own;
  for (let d = own; dirname(d) !== d; d = dirname(d)) if (existsSync(join(d, 'spec-map', 'profiles.json'))) return join(d, 'spec-map');
  return own;
}

/** The folder that holds the clause files. */
export const CLAUSES_DIR = join(specMapDir(), 'clauses');

let cache: Map<string, Clause> | undefined;
let specs: SpecClauses[] | undefined;
let profiles: Profile[] | undefined;

/** The suite-defined profiles (spec-map/profiles.json). */
export function suiteProfiles(): readonly Profile[] {
  loadSpecs();
  return profiles!;
}

/** Whether a class id names a profile this suite defines rather than a class of a spec. */
export function isSuiteProfile(id: string): boolean {
  return PROFILE_ID.test(id);
}

/** The classes and profiles the reference claims: spec-map/implemented.json's classes, then the implemented profiles. */
export function implementedClasses(): readonly string[] {
  const data = JSON.parse(readFileSync(join(CLAUSES_DIR, '..', 'implemented.json'), 'utf8')) as { classes: string[] };
  return [...data.classes, ...suiteProfiles().filter((p) => p.implemented).map((p) => p.id)];
}

/** Every spec's clauses, loaded once. Throws on a malformed file or a duplicate id. */
export function loadSpecs(): readonly SpecClauses[] {
  if (specs) return specs;
  const out: SpecClauses[] = [];
  const byId = new Map<string, Clause>();
  for (const f of readdirSync(CLAUSES_DIR).filter((n) => n.endsWith('.json')).sort()) {
    const data = JSON.parse(readFileSync(join(CLAUSES_DIR, f), 'utf8')) as SpecClauses;
    for (const c of data.clauses) {
      if (!CLAUSE_ID.test(c.id)) throw new Error(`spec-map/${f}: malformed clause id ${JSON.stringify(c.id)}`);
      if (!c.id.startsWith(`${data.spec}/`)) throw new Error(`spec-map/${f}: clause ${c.id} is not of spec ${data.spec}`);
      if (byId.has(c.id)) throw new Error(`spec-map/${f}: duplicate clause id ${c.id}`);
      for (const k of c.classes) {
        if (!CLASS_ID.test(k) && !PROFILE_ID.test(k)) throw new Error(`spec-map/${f}: clause ${c.id} names malformed class ${JSON.stringify(k)}`);
      }
      byId.set(c.id, c);
    }
    out.push(data);
  }
  const suite = (JSON.parse(readFileSync(join(CLAUSES_DIR, '..', 'profiles.json'), 'utf8')) as { profiles: Profile[] }).profiles;
  const held = new Map<string, string>();
  for (const p of suite) {
    if (!PROFILE_ID.test(p.id)) throw new Error(`spec-map/profiles.json: malformed profile id ${JSON.stringify(p.id)}`);
    for (const id of p.clauses) {
      const c = byId.get(id);
      if (!c) throw new Error(`spec-map/profiles.json: ${p.id} names unknown clause ${id}`);
      if (!id.startsWith(`${p.id.split(':')[0]}/`)) throw new Error(`spec-map/profiles.json: ${p.id} names ${id}, a clause of another spec`);
      // a profile holds only what no spec class does, and each clause is held by one profile
      if (c.classes.length > 0) throw new Error(`spec-map/profiles.json: ${p.id} names ${id}, which the spec's class ${c.classes[0]} holds`);
      if (held.has(id)) throw new Error(`spec-map/profiles.json: ${id} is in both ${held.get(id)} and ${p.id}`);
      held.set(id, p.id);
    }
  }
  for (const [id, profile] of held) {
    const c = byId.get(id)!;
    byId.set(id, { ...c, classes: [profile] });
  }
  specs = out.map((s) => ({ ...s, clauses: s.clauses.map((c) => byId.get(c.id)!) }));
  profiles = suite;
  cache = byId;
  return specs;
}

/** The clause with this id, or undefined. */
export function findClause(id: string): Clause | undefined {
  loadSpecs();
  return cache!.get(id);
}

/** All clauses, keyed by id. */
export function allClauses(): ReadonlyMap<string, Clause> {
  loadSpecs();
  return cache!;
}

/** Whitespace-normalised form used to compare a quote with the spec text. */
export function normaliseText(s: string): string {
  return s.replace(/\s+/g, ' ').trim();
}
