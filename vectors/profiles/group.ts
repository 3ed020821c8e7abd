// A group of profiles.json vectors for some of the suite-defined profiles (spec-map/profiles.json): its kinds' names
// (in a `-kinds.ts` file of their own, which vectors/model.ts reads), each kind's JSON Schema, the flags its vectors
// use, its named cases (every expected answer derived from the spec's words, never read from the reference) and the
// executor that runs one vector through the profiles' testee operations and reports only what its clauses decide.
import type { Implementation } from '../../harness/implementation.ts';
import type { Case } from '../cases.ts';
import type { FlagNote, JsonObject } from '../model.ts';
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
  /** Runs one vector of one of its kinds; refusals are `{ error: code }`. */
  execute(impl: Implementation, type: K, inp: JsonObject): Promise<JsonObject>;
  /** What a vector of `type` leaves open, dropped from the observed answer where `expected` leaves it out. */
  trim?(type: K, observed: JsonObject, expected: JsonObject): JsonObject;
}
