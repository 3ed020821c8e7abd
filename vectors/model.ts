// The shape of a published conformance/v1 vector pack (Wycheproof manner, ../shared/STYLE.md): a header with
// area, schema, generator version and count, flags defined once in `notes`, and test groups of one operation kind
// whose tests each carry a never-renumbered tcId, the clause ids they check, a result and hex bytes for anything an
// implementation must reproduce. Plain JSON values only: a pack is read by any language from disk alone.
import { ENERGY_PROFILE_TYPES } from './profiles/energy-kinds.ts';
import { JCP_PROFILE_TYPES } from './profiles/jcp-kinds.ts';
import { RUNTIME_PROFILE_TYPES } from './profiles/runtime-kinds.ts';
import { SEMANTIC_PROFILE_TYPES } from './profiles/semantic-kinds.ts';

/** The version of the generator that wrote a pack; bump when the pack format (not its content) changes. */
export const GENERATOR_VERSION = '1';

/** The JouleClaw group kinds (vectors/jc-execute.ts). */
export const JC_GROUP_TYPES = ['TreeHeadVerify', 'LogInclusion', 'LogConsistency', 'LogDecisions', 'PolicyDigest', 'PolicyEvaluate', 'PolicyReceiptSeal', 'PolicyReceiptVerify', 'CascadeBuild', 'CascadeCheck', 'JcReceiptOpen', 'ContractCheck', 'ContractVerify', 'VerdictSeal', 'VerdictOpen', 'HandoffCommands', 'JournalScript', 'JournalOpen'] as const;
/** The group kinds of profiles.json: vectors/p-execute.ts's, then those of the groups in vectors/profiles/. */
export const PROFILE_GROUP_TYPES = ['ValueCheck', 'ValueAggregate', 'WorkspaceWrites', 'SkillEmit', 'CascadeRun', ...JCP_PROFILE_TYPES, ...ENERGY_PROFILE_TYPES, ...RUNTIME_PROFILE_TYPES, ...SEMANTIC_PROFILE_TYPES] as const;
/** The Sense group kinds (vectors/jc-execute.ts). */
export const SENSE_GROUP_TYPES = ['SenseEventId', 'SenseReplay', 'SenseGate', 'SenseSeal', 'SenseVerifyChain'] as const;

/** The operation kinds a test group may hold; each is replayed through one path of harness/implementation.ts. */
export const GROUP_TYPES = ['GrantMint', 'GrantVerify', 'Attenuate', 'Decide', 'ReceiptVerify', 'PolicyAuthor', 'StandingFire', 'ChannelScript', 'EfficiencySeal', 'EfficiencyRead', 'TaskTotal', 'Trace', 'OpSequence', 'EfficiencyTotals',
  // JouleClaw (jouleclaw §2, §7, §10, §16, §17, §22) and Sense (sense §2, §3, §5, §8): vectors/jc-execute.ts
  ...JC_GROUP_TYPES, ...SENSE_GROUP_TYPES,
  // the suite-defined profiles (spec-map/profiles.json): vectors/p-execute.ts
  ...PROFILE_GROUP_TYPES] as const;
export type GroupType = (typeof GROUP_TYPES)[number];

/** A JSON value as it lies in a pack. */
export type Json = null | boolean | number | string | Json[] | { [k: string]: Json };
export type JsonObject = { [k: string]: Json };

/** What a flag means: the kind of bug it catches and the effect of that bug (Wycheproof `notes`). */
export interface FlagNote {
  readonly bugType: string;
  readonly description: string;
  readonly effect: string;
}

/** One vector. `expected` is `{ error: code }` for a refusal, else the operation's outputs. */
export interface VectorTest {
  tcId: number;
  /** The stable case name the tcId is registered under (vectors/tcids.json). */
  case: string;
  comment: string;
  flags: string[];
  clauses: string[];
  result: 'valid' | 'invalid' | 'acceptable';
  inputs: JsonObject;
  expected: JsonObject;
}

export interface TestGroup {
  type: GroupType;
  tests: VectorTest[];
}

/** A whole pack file. */
export interface Pack {
  area: string;
  schema: string;
  generatorVersion: string;
  numberOfTests: number;
  header: string[];
  notes: Record<string, FlagNote>;
  testGroups: TestGroup[];
}

/** The pack files of conformance/v1 and the schema file each names. */
export const PACK_AREAS = ['grants', 'chains', 'decisions', 'receipts', 'legacy_jcp1', 'caveats', 'money', 'standing', 'channels', 'efficiency', 'jouleclaw_tlog', 'jouleclaw_policy', 'jouleclaw_receipts', 'sense', 'profiles'] as const;
export type PackArea = (typeof PACK_AREAS)[number];

/** The file name of an area's pack. */
export const packFile = (area: string): string => `${area}.json`;
/** The file name of an area's schema (under schemas/). */
export const schemaFile = (area: string): string => `jcp_${area}_schema_v1.json`;

/** The JSON text of a pack or schema exactly as committed: two-space indent, trailing newline. */
export function jsonText(v: unknown): string {
  return `${JSON.stringify(v, null, 2)}\n`;
}

/** The first path at which two JSON values differ, or undefined when they are equal. */
export function firstDifference(a: unknown, b: unknown, path = '$'): string | undefined {
  if (typeof a !== typeof b || Array.isArray(a) !== Array.isArray(b) || (a === null) !== (b === null)) return path;
  if (Array.isArray(a) && Array.isArray(b)) {
    for (let i = 0; i < Math.max(a.length, b.length); i++) {
      if (i >= a.length || i >= b.length) return `${path}[${i}]`;
      const d = firstDifference(a[i], b[i], `${path}[${i}]`);
      if (d) return d;
    }
    return undefined;
  }
  if (a !== null && typeof a === 'object') {
    const ao = a as Record<string, unknown>;
    const bo = b as Record<string, unknown>;
    const keys = [...new Set([...Object.keys(ao), ...Object.keys(bo)])];
    for (const k of keys) {
      if (!(k in ao) || !(k in bo)) return `${path}.${k}`;
      const d = firstDifference(ao[k], bo[k], `${path}.${k}`);
      if (d) return d;
    }
    return undefined;
  }
  return a === b ? undefined : path;
}
