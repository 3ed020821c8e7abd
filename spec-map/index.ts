// The clause index: every clause id the suite names, with its level, section, verbatim quote and classes (ARCHITECTURE.md).
// Data lives in spec-map/clauses/<spec>.json; this module loads it and answers look-ups. It imports nothing of the others.
import { readFileSync, readdirSync } from 'node:fs';
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
  /** Class ids it belongs to, e.g. `jcp:C2`. */
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

/** The folder that holds the clause files. */
export const CLAUSES_DIR = join(dirname(fileURLToPath(import.meta.url)), 'clauses');

let cache: Map<string, Clause> | undefined;
let specs: SpecClauses[] | undefined;

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
        if (!CLASS_ID.test(k)) throw new Error(`spec-map/${f}: clause ${c.id} names malformed class ${JSON.stringify(k)}`);
      }
      byId.set(c.id, c);
    }
    out.push(data);
  }
  specs = out;
  cache = byId;
  return out;
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
