// Vectors promoted from cases the differential properties found: `jcp-conformance promote <case>`
// writes the case's operation sequence to vectors/promoted/<name>.json together with what the reference observed, and
// regenerates the packs; the sequence is published as an OpSequence vector in its property's pack, under a new tcId of
// the append-only registry. Replaying it (vectors/execute.ts) runs the same operations through harness/property/model.ts
// and compares what the property compares. The generator refuses a promoted sequence whose reference observations
// have drifted from those recorded at promotion (a reference change, to be looked at before re-publishing).
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PROPERTIES, PROPERTY_NAMES, type PropertyName } from '../harness/property/differential.ts';
import { execute as runOps, type Op } from '../harness/property/model.ts';
import type { Implementation } from '../harness/implementation.ts';
import type { Case } from './cases.ts';
import type { Json, JsonObject } from './model.ts';

const HERE = dirname(fileURLToPath(import.meta.url));
/** Where promoted sequences live. */
export const PROMOTED_DIR = join(HERE, 'promoted');

/** A promoted sequence as stored in vectors/promoted/. */
export interface Promoted {
  readonly name: string;
  readonly property: PropertyName;
  readonly comment: string;
  readonly clauses: readonly string[];
  readonly ops: readonly Op[];
  /** The reference's observations projected as the property compares them, recorded at promotion. */
  readonly expected_steps: readonly Json[];
  /** Where the sequence came from: the property, seed and the implementation it was found against. */
  readonly found: { readonly seed: number; readonly path: string; readonly implementation: string; readonly finding: string };
}

/** The observations of an OpSequence vector's operations on `impl`, projected as its property compares them. */
export async function executeSequence(impl: Implementation, inp: JsonObject): Promise<JsonObject> {
  const name = inp['property'];
  if (typeof name !== 'string' || !(PROPERTY_NAMES as readonly string[]).includes(name)) throw new Error(`vector input property must be one of ${PROPERTY_NAMES.join(', ')}`);
  if (!Array.isArray(inp['ops'])) throw new Error('vector input ops must be an array of operations');
  const prop = PROPERTIES[name as PropertyName];
  const obs = await runOps(impl, inp['ops'] as unknown as Op[]);
  return { steps: obs.map((o) => prop.project(o)) };
}

/** Every promoted sequence as a vector case of its property's pack. */
export function promotedCases(dir = PROMOTED_DIR): Case[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((f) => f.endsWith('.json'))
    .sort()
    .map((f) => {
      const p = JSON.parse(readFileSync(join(dir, f), 'utf8')) as Promoted;
      return {
        pack: PROPERTIES[p.property].pack,
        name: p.name,
        type: 'OpSequence',
        comment: p.comment,
        flags: ['FoundByProperty'],
        clauses: [...p.clauses],
        inputs: { property: p.property, ops: p.ops as unknown as Json },
        intent: { sequence: p.expected_steps },
      } satisfies Case;
    });
}

/** Writes a promoted sequence; refuses to overwrite one of the same name (a published case name is forever). */
export function writePromoted(p: Promoted, dir = PROMOTED_DIR): string {
  mkdirSync(dir, { recursive: true });
  const path = join(dir, `${p.name}.json`);
  if (existsSync(path)) throw new Error(`${path} exists: case ${p.name} is already promoted`);
  writeFileSync(path, `${JSON.stringify(p, null, 2)}\n`);
  return path;
}
