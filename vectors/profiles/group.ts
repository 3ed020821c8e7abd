// A group of profiles.json vectors for some of the suite-defined profiles (spec-map/profiles.json): its kinds' names
// (in a `-kinds.ts` file of their own, which vectors/model.ts reads), each kind's JSON Schema, the flags its vectors
// use, its named cases (every expected answer derived from the spec's words, never read from the reference) and the
// executor that runs one vector through the profiles' testee operations and reports only what its clauses decide.
import type { Implementation } from '../../harness/implementation.ts';
import type { Case } from '../cases.ts';
import type { FlagNote, Json, JsonObject } from '../model.ts';
import type { S } from '../schema-parts.ts';

export interface ProfileVectorGroup<K extends string = string> {
  /** The profiles whose clauses its vectors decide, by full id (`jouleclaw:P-ENERGY`), for the pack's header. */
  readonly profiles: readonly string[];
  /** Its group kinds, as in its `-kinds.ts` file. */
  readonly types: readonly K[];
  /** Each kind's inputs and expected outputs (success shape; a refusal is always `{error}`). */
  readonly kinds: Readonly<Record<K, { inputs: S; expected: S }>>;
  /** The flags its cases use, each defined once here (no flag of another group or pack is redefined). */
  readonly flags: Readonly<Record<string, FlagNote>>;
  /** Its named cases, in a stable order (a case's name is its identity in vectors/tcids.json). */
  cases(): Case[];
  /** Each kind's executor. */
  readonly run: Readonly<Record<K, KindExecutor>>;
  /**
   * The kinds whose vectors may leave members of the answer out where the spec permits several answers: the observed
   * answer is cut to the members the expected one holds ({@link keepExpected}) before the two are compared.
   */
  readonly open?: readonly K[];
}

/** Runs one vector of a kind through the profiles' operations; a refusal (TesteeError) becomes `{ error: code }` in vectors/p-execute.ts. */
export type KindExecutor = (impl: Implementation, inp: JsonObject) => Promise<JsonObject>;

/** `observed` cut to the members `expected` holds, object by object and element by element; a refusal is kept whole. */
export function keepExpected(observed: Json, expected: Json): Json {
  if (Array.isArray(observed) && Array.isArray(expected)) return observed.map((o, i) => (i < expected.length ? keepExpected(o, expected[i]!) : o));
  if (observed !== null && typeof observed === 'object' && !Array.isArray(observed) && expected !== null && typeof expected === 'object' && !Array.isArray(expected)) {
    if ('error' in observed) return observed;
    return Object.fromEntries(Object.entries(observed).filter(([k]) => k in expected).map(([k, v]) => [k, keepExpected(v, expected[k]!)]));
  }
  return observed;
}
