// A small JSON Schema (draft 2020-12) validator for the keywords the conformance/v1 schemas use — type, const, enum,
// pattern, minimum, minItems, min/maxProperties, properties, required, additionalProperties, items, $ref (local
// #/$defs only), anyOf, oneOf — so the packs are checked against their published schemas without a new dependency.
// Any other keyword is refused, so a schema cannot silently rely on one this validator ignores.

type Schema = Record<string, unknown>;

const KNOWN = new Set(['$schema', '$id', 'title', 'description', '$defs', 'type', 'const', 'enum', 'pattern', 'minimum', 'minItems', 'minProperties', 'maxProperties', 'properties', 'required', 'additionalProperties', 'items', '$ref', 'anyOf', 'oneOf']);

function typeOf(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'array';
  if (typeof v === 'number') return Number.isInteger(v) ? 'integer' : 'number';
  return typeof v;
}

function deepEqual(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

/** The problems of `value` against `schema` (empty when it conforms), each naming the JSON path. */
export function validateJson(schema: Schema, value: unknown): string[] {
  return run(schema, schema, value, '$');
}

function run(root: Schema, start: Schema, value: unknown, from: string): string[] {
  const out: string[] = [];
  const walk = (s: Schema, v: unknown, at: string): void => {
    for (const k of Object.keys(s)) if (!KNOWN.has(k)) throw new Error(`schema keyword ${k} at ${at} is not supported by vectors/json-schema.ts`);
    if (typeof s['$ref'] === 'string') {
      const ref = s['$ref'];
      if (!ref.startsWith('#/$defs/')) throw new Error(`only local #/$defs refs are supported, not ${ref}`);
      const target = (root['$defs'] as Record<string, Schema> | undefined)?.[ref.slice(8)];
      if (!target) throw new Error(`unresolved $ref ${ref}`);
      walk(target, v, at);
    }
    const t = typeOf(v);
    if (s['type'] !== undefined) {
      const want = s['type'] as string;
      if (!(t === want || (want === 'number' && t === 'integer'))) {
        out.push(`${at}: expected ${want}, got ${t}`);
        return;
      }
    }
    if ('const' in s && !deepEqual(s['const'], v)) out.push(`${at}: expected ${JSON.stringify(s['const'])}`);
    if (Array.isArray(s['enum']) && !s['enum'].some((e) => deepEqual(e, v))) out.push(`${at}: ${JSON.stringify(v)} is not one of ${JSON.stringify(s['enum'])}`);
    if (typeof s['pattern'] === 'string' && typeof v === 'string' && !new RegExp(s['pattern'], 'u').test(v)) out.push(`${at}: ${JSON.stringify(v.slice(0, 40))} does not match ${s['pattern']}`);
    if (typeof s['minimum'] === 'number' && typeof v === 'number' && v < s['minimum']) out.push(`${at}: ${v} < ${s['minimum']}`);
    if (Array.isArray(v)) {
      if (typeof s['minItems'] === 'number' && v.length < s['minItems']) out.push(`${at}: fewer than ${s['minItems']} items`);
      if (s['items'] !== undefined) v.forEach((x, i) => walk(s['items'] as Schema, x, `${at}[${i}]`));
    }
    if (t === 'object') {
      const o = v as Record<string, unknown>;
      const n = Object.keys(o).length;
      if (typeof s['minProperties'] === 'number' && n < s['minProperties']) out.push(`${at}: fewer than ${s['minProperties']} properties`);
      if (typeof s['maxProperties'] === 'number' && n > s['maxProperties']) out.push(`${at}: more than ${s['maxProperties']} properties`);
      for (const r of (s['required'] as string[] | undefined) ?? []) if (!(r in o)) out.push(`${at}: missing ${r}`);
      const props = (s['properties'] as Record<string, Schema> | undefined) ?? {};
      for (const [k, x] of Object.entries(o)) {
        if (k in props) walk(props[k]!, x, `${at}.${k}`);
        else if (s['additionalProperties'] === false) out.push(`${at}: unexpected property ${k}`);
        else if (typeof s['additionalProperties'] === 'object') walk(s['additionalProperties'] as Schema, x, `${at}.${k}`);
      }
    }
    const branches = (key: 'anyOf' | 'oneOf') => (s[key] as Schema[]).map((b) => run(root, b, v, at));
    if (Array.isArray(s['anyOf'])) {
      const r = branches('anyOf');
      if (!r.some((p) => p.length === 0)) out.push(`${at}: matches none of anyOf (${r.map((p) => p[0]).join(' | ')})`);
    }
    if (Array.isArray(s['oneOf'])) {
      const r = branches('oneOf');
      const ok = r.filter((p) => p.length === 0).length;
      if (ok !== 1) out.push(`${at}: matches ${ok} branches of oneOf, not exactly one (${r.map((p) => p[0]).join(' | ')})`);
    }
  };
  walk(start, value, from);
  return out;
}
