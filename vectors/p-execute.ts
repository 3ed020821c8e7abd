// Runs one vector of profiles.json (the suite-defined profiles of spec-map/profiles.json) through the profiles' own
// testee operations (harness/protocol/profiles/documents.md, runtime.md) and returns what the implementation answered,
// as pack JSON. Each kind reports only what its profile's clauses decide, read from the answer the same way the
// profile's conformance test reads it (harness/conformance/p-*.test.ts), so that every reading the spec permits gives
// the same JSON: a check's verdict (and, for a kind the testee cannot know, whether its reason names the kind), the
// mean as a number, whether a write was refused and which paths reached the manifest (as a set), the emitted
// frontmatter read back with `yaml`, the distinct tiers a cascade walk invoked in the order it first invoked them.
// Shared by the generator and the replay, like vectors/execute.ts (which dispatches here). Refusals are `{ error: code }`.
import { parse } from 'yaml';
import { TesteeError, type Implementation } from '../harness/implementation.ts';
import type { GroupType, Json, JsonObject } from './model.ts';
import { arr, hex, obj, str, text, uint } from './inputs.ts';
import { refusal } from './jc-execute.ts';
import { keepExpected } from './profiles/group.ts';
import { groupOf } from './profiles/groups.ts';

/** jouleclaw §19.2's four check kinds: any other kind is one the consumer must treat as unknown. */
const KNOWN_CHECK_KINDS: ReadonlySet<string> = new Set(['status', 'status_matches_contract', 'output_hash_equals', 'json_pointer_equals']);
/** jouleclaw §12's name pattern. */
const SKILL_NAME = /^[a-z0-9]([a-z0-9-]*[a-z0-9])?$/;



/**
 * value.check (jouleclaw §19.2): per check, `passed`; for a check of a kind outside §19.2's four, also whether its
 * `reason` names the kind (§19.2 "passed: false with a reason that names the unknown kind").
 */
async function valueCheck(impl: Implementation, inp: JsonObject): Promise<JsonObject> {
  const checks = arr(inp['checks'], 'checks');
  const args: Record<string, unknown> = { intent: 'fetch the page', tool_id: 'jouleclaw:fetch', status: uint(inp['status'], 'status'), body_json: str(inp['body_json'], 'body_json'), checks_json: JSON.stringify(checks) };
  if (inp['status_codes'] !== undefined) args['status_codes'] = arr(inp['status_codes'], 'status_codes').map((c) => uint(c, 'status_codes[]'));
  const report = JSON.parse(text((await impl._call('value.check', args)).get('report_json'), 'report_json')) as { checks?: unknown };
  const verdicts = Array.isArray(report.checks) ? (report.checks as Record<string, unknown>[]) : [];
  return {
    checks: verdicts.map((v, i) => {
      const kind = (checks[i] as JsonObject | undefined)?.['kind'];
      const out: JsonObject = { passed: v?.['passed'] === true ? true : v?.['passed'] === false ? false : String(v?.['passed']) };
      if (typeof kind === 'string' && !KNOWN_CHECK_KINDS.has(kind)) out['reason_names_kind'] = typeof v?.['reason'] === 'string' && v['reason'].includes(kind);
      return out;
    }),
  };
}

/** value.aggregate (jouleclaw §19.3): the mean closure rate, as the JSON value answered. */
async function valueAggregate(impl: Implementation, inp: JsonObject): Promise<JsonObject> {
  const r = await impl._call('value.aggregate', { reports_json: JSON.stringify(arr(inp['reports'], 'reports')) });
  return { mean: JSON.parse(text(r.get('mean_json'), 'mean_json')) as Json };
}

/**
 * jouleclaw §11 on write: a fresh workspace of `owner_seed`, each write in order ({written: true} or the refusal),
 * then the paths the manifest holds, sorted here (entry order is not what this vector decides).
 */
async function workspaceWrites(impl: Implementation, inp: JsonObject): Promise<JsonObject> {
  const w = text((await impl._call('workspace.new', { owner_seed: hex(inp['owner_seed'], 'owner_seed') })).get('workspace'), 'workspace');
  const writes: Json[] = [];
  for (const [i, x] of arr(inp['writes'], 'writes').entries()) {
    const o = obj(x, `writes[${i}]`);
    writes.push(
      await refusal(async () => {
        await impl._call('workspace.write', { workspace: w, path: str(o['path'], `writes[${i}].path`), content: hex(o['content'], `writes[${i}].content`) });
        return { written: true };
      }),
    );
  }
  const m = JSON.parse(text((await impl._call('workspace.manifest', { workspace: w })).get('manifest_json'), 'manifest_json')) as { entries?: { path?: unknown }[] };
  const paths = (m.entries ?? []).map((e) => String(e.path)).sort();
  return { writes, paths };
}

/**
 * skill.emit (jouleclaw §12): `complies` — nothing emitted outside §12's limits (a refusal complies; an emission
 * complies when its YAML frontmatter is a mapping whose name and description are text within the limits) — and, for an
 * emission, the name and description its frontmatter carries.
 */
async function skillEmit(impl: Implementation, inp: JsonObject): Promise<JsonObject> {
  let md: string;
  try {
    md = text((await impl._call('skill.emit', { name: str(inp['name'], 'name'), description: str(inp['description'], 'description'), body: str(inp['body'], 'body') })).get('skill_md'), 'skill_md');
  } catch (e) {
    if (e instanceof TesteeError) return { complies: true };
    throw e;
  }
  const m = /^---[ \t]*\r?\n([\s\S]*?\r?\n)?---[ \t]*(?:\r?\n|$)/.exec(md);
  let front: unknown;
  try {
    front = m ? parse(m[1] ?? '') : undefined;
  } catch {
    front = undefined;
  }
  if (front === null || typeof front !== 'object' || Array.isArray(front)) return { complies: false, emitted: { frontmatter: 'none' } };
  const { name, description } = front as Record<string, unknown>;
  const complies = typeof name === 'string' && typeof description === 'string' && [...name].length <= 64 && SKILL_NAME.test(name) && [...description].length <= 1024;
  return { complies, emitted: { name: String(name), description: String(description) } };
}

/** cascade.run (jouleclaw §1.1): the distinct tiers invoked, in the order first invoked, and the tier that resolved. */
async function cascadeRun(impl: Implementation, inp: JsonObject): Promise<JsonObject> {
  const tiers = arr(inp['tiers'], 'tiers').map((t, i) => ({ tier: str(obj(t, `tiers[${i}]`)['tier'], 'tier'), outcome: str(obj(t, `tiers[${i}]`)['outcome'], 'outcome') }));
  const r = await impl._call('cascade.run', { tiers });
  const invoked = r.get('invoked');
  if (!Array.isArray(invoked)) throw new Error('cascade.run answered no invoked array');
  const resolved = r.get('resolved');
  return { invoked: [...new Set(invoked.map((t) => text(t, 'an invoked tier')))], ...(resolved !== undefined ? { resolved: text(resolved, 'resolved') } : {}) };
}

/** Dispatches a profiles.json group kind; undefined for a kind this file does not run. */
export async function executeProfile(impl: Implementation, type: GroupType, inp: JsonObject): Promise<JsonObject | undefined> {
  switch (type) {
    case 'ValueCheck':
      return refusal(() => valueCheck(impl, inp));
    case 'ValueAggregate':
      return refusal(() => valueAggregate(impl, inp));
    case 'WorkspaceWrites':
      return refusal(() => workspaceWrites(impl, inp));
    case 'SkillEmit':
      return refusal(() => skillEmit(impl, inp));
    case 'CascadeRun':
      return refusal(() => cascadeRun(impl, inp));
    default:
    {
      const g = groupOf(type);
      return g ? refusal(() => g.run[type]!(impl, inp)) : undefined;
    }
  }
}

/**
 * What a profiles.json vector leaves open, dropped from the answer where its expected leaves it out: the emitted
 * frontmatter of a skill asked for outside §12's limits (refusing and emitting within the limits both comply), the
 * tiers invoked by a walk in which nothing closes (§1.1 does not require it to invoke every tier).
 */
export function trimProfile(type: GroupType, observed: JsonObject, expected: JsonObject): JsonObject {
  const g = groupOf(type);
  if (g) return g.open?.includes(type) ? (keepExpected(observed, expected) as JsonObject) : observed;
  const drop = type === 'SkillEmit' ? 'emitted' : type === 'CascadeRun' ? 'invoked' : undefined;
  if (drop === undefined || 'error' in observed || drop in expected) return observed;
  const { [drop]: _, ...rest } = observed;
  return rest;
}
