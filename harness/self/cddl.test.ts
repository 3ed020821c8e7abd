// harness/protocol/testee.cddl is the normative schema of jcp-testee/1 (harness/PROTOCOL.md); harness/protocol/schema.ts
// is the drivers' executable copy. This test parses the CDDL (RFC 8610, the subset the file uses) and holds every op of
// OPS to it: the same ops; for each op's arguments and result the same field names, the same optional fields and the
// same types. It also holds the CDDL's closed lists to their sources: error-code to impl/errors.ts, hello's feature and
// open-point to harness/protocol/readings.ts, hello's protocol literal to PROTOCOL_VERSION.
//
// Types correspond as follows (Shape → CDDL). Exact: 'text' → tstr or a rule that is tstr (did, cid); 'uint' → uint;
// 'bytes' → bstr; 'bytesN' → bstr .size N (seed, nonce); {enum} → the same set of text choices; {array} → [* T], or
// [+ T] when min is 1; {map} → { … }, or a choice of maps read as one map (RFC 8610 §2.2.2: a key present in every
// alternative is required, one absent from some is optional, its types the choice of theirs); {textMap} →
// { * K => T } with K text; 'any' → any. Where the Shape table has no form for what the CDDL says, the Shape may be the
// looser one: 'any' for int, for a choice of alternatives of different kinds (origins: [* tstr] / "any") and for a
// choice of maps (a caveat: exactly one of several keys); 'uint' for uint with a range control (.le, .lt, .ge, .gt).
// hello's protocol, features and readings are 'text' in the table because the drivers check them against their closed
// lists outside it (harness/implementation.ts); here those lists are compared with the CDDL directly.
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { ERROR_CODES } from '../../impl/errors.ts';
import { FEATURES, OPEN_POINTS } from '../protocol/readings.ts';
import { OPS, PROTOCOL_VERSION, type Shape } from '../protocol/schema.ts';

const CDDL_PATH = join(dirname(fileURLToPath(import.meta.url)), '..', 'protocol', 'testee.cddl');

// ---------------------------------------------------------------------------------------------------------------
// A parser for the subset of CDDL (RFC 8610) that testee.cddl uses.

/** A CDDL type as parsed. */
type T =
  | { readonly t: 'ref'; readonly name: string }
  | { readonly t: 'lit'; readonly value: string }
  | { readonly t: 'num'; readonly value: number }
  | { readonly t: 'ctrl'; readonly base: T; readonly op: string; readonly arg: number }
  | { readonly t: 'choice'; readonly alts: readonly T[] }
  | { readonly t: 'array'; readonly item: T; readonly min: number }
  | { readonly t: 'map'; readonly entries: readonly Entry[] }
  | { readonly t: 'group'; readonly entries: readonly Entry[] };

/** A group entry: a member `? key: T`, a computed-key member `* K => T`, or a named group spliced in. */
type Entry =
  | { readonly e: 'member'; readonly key: string; readonly optional: boolean; readonly type: T }
  | { readonly e: 'table'; readonly key: T; readonly value: T; readonly min: number }
  | { readonly e: 'splice'; readonly name: string };

interface Token {
  readonly kind: 'name' | 'str' | 'num' | 'ctrl' | 'punct';
  readonly text: string;
  readonly line: number;
}

const PREDEFINED = new Set(['tstr', 'text', 'uint', 'int', 'nint', 'bstr', 'bytes', 'any']);

function tokenize(src: string): Token[] {
  const out: Token[] = [];
  let line = 1;
  let i = 0;
  const push = (kind: Token['kind'], text: string): void => void out.push({ kind, text, line });
  while (i < src.length) {
    const c = src[i]!;
    if (c === '\n') {
      line++;
      i++;
    } else if (c === ' ' || c === '\t' || c === '\r') i++;
    else if (c === ';') while (i < src.length && src[i] !== '\n') i++; // a comment runs to the end of the line (§3.1)
    else if (c === '"') {
      const end = src.indexOf('"', i + 1);
      if (end < 0 || src.slice(i, end).includes('\n')) throw new Error(`line ${line}: unterminated text string`);
      push('str', src.slice(i + 1, end));
      i = end + 1;
    } else if (src.startsWith('=>', i)) {
      push('punct', '=>');
      i += 2;
    } else if ('={}[](),:/*+?'.includes(c)) {
      push('punct', c);
      i++;
    } else if (c === '.') {
      const m = /^\.[a-z]+/.exec(src.slice(i));
      if (!m) throw new Error(`line ${line}: stray "."`);
      push('ctrl', m[0]);
      i += m[0].length;
    } else if (/[0-9]/.test(c)) {
      const m = /^[0-9]+/.exec(src.slice(i))!;
      push('num', m[0]);
      i += m[0].length;
    } else if (/[A-Za-z_@$]/.test(c)) {
      // §3.1: an id may hold "-" and "." inside, but not at its end
      const m = /^[A-Za-z_@$](?:[A-Za-z0-9_@$.-]*[A-Za-z0-9_@$])?/.exec(src.slice(i))!;
      push('name', m[0]);
      i += m[0].length;
    } else throw new Error(`line ${line}: unexpected character ${JSON.stringify(c)}`);
  }
  return out;
}

/** The rules of a CDDL text, by name. Throws on anything outside the subset, naming the line. */
function parseCddl(src: string): Map<string, T> {
  const toks = tokenize(src);
  let p = 0;
  const peek = (k = 0): Token | undefined => toks[p + k];
  const where = (): string => `line ${peek()?.line ?? 'end'}`;
  const is = (text: string, k = 0): boolean => peek(k)?.kind === 'punct' && peek(k)?.text === text;
  const expectPunct = (text: string): void => {
    if (!is(text)) throw new Error(`${where()}: expected "${text}", got ${JSON.stringify(peek()?.text ?? 'end')}`);
    p++;
  };

  function parseType(): T {
    const alts = [parseType1()];
    while (is('/') && !is('/', 1)) {
      p++;
      alts.push(parseType1());
    }
    return alts.length === 1 ? alts[0]! : { t: 'choice', alts };
  }

  function parseType1(): T {
    const base = parsePrimary();
    const tok = peek();
    if (tok?.kind !== 'ctrl') return base;
    p++;
    const arg = peek();
    if (arg?.kind !== 'num') throw new Error(`${where()}: ${tok.text} takes a number here`);
    p++;
    return { t: 'ctrl', base, op: tok.text, arg: Number(arg.text) };
  }

  function parsePrimary(): T {
    const tok = peek();
    if (!tok) throw new Error('unexpected end of text: expected a type');
    if (tok.kind === 'name') {
      p++;
      return { t: 'ref', name: tok.text };
    }
    if (tok.kind === 'str') {
      p++;
      return { t: 'lit', value: tok.text };
    }
    if (tok.kind === 'num') {
      p++;
      return { t: 'num', value: Number(tok.text) };
    }
    if (is('{')) {
      p++;
      const entries = parseGroup('}');
      return { t: 'map', entries };
    }
    if (is('[')) {
      p++;
      let min = 1;
      if (is('*')) min = 0;
      else if (!is('+')) throw new Error(`${where()}: an array here is [* T] or [+ T]`);
      p++;
      const item = parseType();
      expectPunct(']');
      return { t: 'array', item, min };
    }
    if (is('(')) {
      p++;
      const entries = parseGroup(')');
      return { t: 'group', entries };
    }
    throw new Error(`${where()}: unexpected ${JSON.stringify(tok.text)}`);
  }

  function parseGroup(close: string): Entry[] {
    const entries: Entry[] = [];
    while (!is(close)) {
      let occ: string | undefined;
      if (is('?') || is('*') || is('+')) occ = peek()!.text;
      if (occ) p++;
      const tok = peek();
      if ((tok?.kind === 'name' || tok?.kind === 'str') && is(':', 1)) {
        if (occ !== undefined && occ !== '?') throw new Error(`${where()}: occurrence ${occ} on a member is outside the subset`);
        p += 2;
        entries.push({ e: 'member', key: tok.text, optional: occ === '?', type: parseType() });
      } else if (tok?.kind === 'name' && !occ && (is(',', 1) || is(close, 1))) {
        p++;
        entries.push({ e: 'splice', name: tok.text });
      } else {
        if (occ !== '*' && occ !== '+') throw new Error(`${where()}: a computed key here is "* K => T" or "+ K => T"`);
        const key = parseType();
        expectPunct('=>');
        entries.push({ e: 'table', key, value: parseType(), min: occ === '+' ? 1 : 0 });
      }
      if (is(',')) p++;
      else if (!is(close)) throw new Error(`${where()}: expected "," or "${close}"`);
    }
    p++;
    return entries;
  }

  const rules = new Map<string, T>();
  while (p < toks.length) {
    const name = peek()!;
    if (name.kind !== 'name' || !is('=', 1)) throw new Error(`line ${name.line}: expected a rule "name = type", got ${JSON.stringify(name.text)}`);
    p += 2;
    if (rules.has(name.text)) throw new Error(`line ${name.line}: rule ${name.text} defined twice`);
    rules.set(name.text, parseType());
  }
  return rules;
}

// ---------------------------------------------------------------------------------------------------------------
// Resolution: a parsed type with its references followed, choices flattened, groups spliced, maps of a choice merged.

/** A resolved type; `via` is the last rule name followed to reach it. */
type R =
  | { readonly r: 'tstr' | 'uint' | 'int' | 'bstr' | 'any'; readonly via?: string; readonly size?: number; readonly range?: boolean }
  | { readonly r: 'texts'; readonly values: readonly string[]; readonly via?: string }
  | { readonly r: 'array'; readonly item: T; readonly min: number; readonly via?: string }
  | { readonly r: 'map'; readonly fields: ReadonlyMap<string, { readonly optional: boolean; readonly type: T }>; readonly via?: string }
  | { readonly r: 'table'; readonly key: T; readonly value: T; readonly via?: string }
  | { readonly r: 'mixed'; readonly kinds: readonly string[]; readonly via?: string }
  | { readonly r: 'maps'; readonly alts: readonly R[]; readonly via?: string };

class Resolver {
  constructor(private readonly rules: ReadonlyMap<string, T>) {}

  /** Every name used but not defined (predefined types aside). */
  undefinedNames(): string[] {
    const missing = new Set<string>();
    const walk = (t: T): void => {
      if (t.t === 'ref') {
        if (!PREDEFINED.has(t.name) && !this.rules.has(t.name)) missing.add(t.name);
      } else if (t.t === 'ctrl') walk(t.base);
      else if (t.t === 'choice') t.alts.forEach(walk);
      else if (t.t === 'array') walk(t.item);
      else if (t.t === 'map' || t.t === 'group') {
        for (const e of t.entries) {
          if (e.e === 'member') walk(e.type);
          else if (e.e === 'table') (walk(e.key), walk(e.value));
          else if (!this.rules.has(e.name)) missing.add(e.name);
        }
      }
    };
    this.rules.forEach(walk);
    return [...missing].sort();
  }

  resolve(t: T, via?: string, depth = 0): R {
    if (depth > 64) throw new Error(`rule ${via ?? '?'} refers to itself`);
    switch (t.t) {
      case 'ref': {
        const n = t.name;
        if (n === 'tstr' || n === 'text') return { r: 'tstr', ...(via ? { via } : {}) };
        if (n === 'bstr' || n === 'bytes') return { r: 'bstr', ...(via ? { via } : {}) };
        if (n === 'uint' || n === 'int' || n === 'any') return { r: n, ...(via ? { via } : {}) };
        const def = this.rules.get(n);
        if (!def) throw new Error(`undefined rule ${n}`);
        return this.resolve(def, n, depth + 1);
      }
      case 'lit':
        return { r: 'texts', values: [t.value], ...(via ? { via } : {}) };
      case 'num':
        return { r: 'mixed', kinds: ['number literal'], ...(via ? { via } : {}) };
      case 'ctrl': {
        const base = this.resolve(t.base, via, depth + 1);
        if (t.op === '.size' && base.r === 'bstr') return { ...base, size: t.arg };
        if (['.le', '.lt', '.ge', '.gt'].includes(t.op) && (base.r === 'uint' || base.r === 'int')) return { ...base, range: true };
        throw new Error(`control ${t.op} on ${base.r} is outside the subset`);
      }
      case 'choice': {
        const seen = new Set<string>();
        const alts = t.alts
          .map((a) => this.resolve(a, undefined, depth + 1))
          .filter((a) => {
            const { via: _, ...bare } = a;
            const key = JSON.stringify(bare, (_k, x: unknown) => (x instanceof Map ? [...x] : x));
            return seen.has(key) ? false : (seen.add(key), true);
          });
        const v = via ? { via } : {};
        if (alts.length === 1) return { ...alts[0]!, ...v };
        if (alts.every((a) => a.r === 'texts')) return { r: 'texts', values: alts.flatMap((a) => (a as { readonly values: readonly string[] }).values), ...v };
        const flat = alts.flatMap((a) => (a.r === 'maps' ? a.alts : [a]));
        if (flat.every((a) => a.r === 'map')) return { r: 'maps', alts: flat, ...v };
        return { r: 'mixed', kinds: alts.map(kindOf), ...v };
      }
      case 'array':
        return { r: 'array', item: t.item, min: t.min, ...(via ? { via } : {}) };
      case 'map': {
        const tables = t.entries.filter((e) => e.e === 'table');
        if (tables.length > 0) {
          if (tables.length !== 1 || t.entries.length !== 1) throw new Error(`${via ?? 'a map'}: a map mixing "K => T" with other entries is outside the subset`);
          const only = tables[0] as Extract<Entry, { e: 'table' }>;
          return { r: 'table', key: only.key, value: only.value, ...(via ? { via } : {}) };
        }
        return { r: 'map', fields: this.members(t.entries, depth), ...(via ? { via } : {}) };
      }
      case 'group':
        throw new Error(`group ${via ?? '?'} used as a type`);
    }
  }

  private members(entries: readonly Entry[], depth: number): Map<string, { optional: boolean; type: T }> {
    const out = new Map<string, { optional: boolean; type: T }>();
    for (const e of entries) {
      if (e.e === 'member') {
        if (out.has(e.key)) throw new Error(`field ${e.key} given twice`);
        out.set(e.key, { optional: e.optional, type: e.type });
      } else if (e.e === 'splice') {
        const g = this.rules.get(e.name);
        if (!g || g.t !== 'group') throw new Error(`${e.name} spliced into a map is not a group`);
        for (const [k, v] of this.members(g.entries, depth + 1)) {
          if (out.has(k)) throw new Error(`field ${k} given twice (via ${e.name})`);
          out.set(k, v);
        }
      } else throw new Error('a map mixing "K => T" with other entries is outside the subset');
    }
    return out;
  }
}

function kindOf(x: R): string {
  if (x.r === 'bstr' && x.size !== undefined) return `bstr .size ${x.size}`;
  if (x.r === 'texts') return x.values.length === 1 ? JSON.stringify(x.values[0]) : `text choice ${x.values.map((v) => JSON.stringify(v)).join(' / ')}`;
  if (x.r === 'maps') return 'a choice of maps';
  if (x.r === 'mixed') return x.kinds.join(' / ');
  if (x.r === 'table') return '{ * K => T }';
  if (x.r === 'array') return x.min === 1 ? '[+ …]' : '[* …]';
  if (x.r === 'map') return '{ … }';
  return x.r + (x.r !== 'any' && 'range' in x && x.range ? ' (ranged)' : '');
}

function shapeKind(s: Shape): string {
  if (typeof s === 'string') return `'${s}'`;
  if ('enum' in s) return `{enum: ${s.enum.length > 6 ? `${s.enum.length} values` : s.enum.join(' | ')}}`;
  if ('array' in s) return s.min ? `{array, min ${s.min}}` : '{array}';
  if ('textMap' in s) return '{textMap}';
  return '{map}';
}

/** Names of text choices whose closed list the drivers check outside the Shape table, compared with it below. */
const CHECKED_ELSEWHERE = new Set(['feature', 'open-point']);

/** Every disagreement between a Shape of schema.ts and a CDDL type, one line each, naming the path. */
function compare(res: Resolver, shape: Shape, type: T, path: string): string[] {
  const c = res.resolve(type);
  const bad = (why?: string): string[] => [`${path}: schema.ts ${shapeKind(shape)}, CDDL ${c.via ? `${c.via} = ` : ''}${kindOf(c)}${why ? ` (${why})` : ''}`];
  if (shape === 'any') {
    // exact, or a CDDL type the Shape table has no form for
    return c.r === 'any' || c.r === 'int' || c.r === 'mixed' || c.r === 'maps' ? [] : bad();
  }
  if (shape === 'text') {
    if (c.r === 'tstr') return [];
    if (c.r === 'texts' && c.via && CHECKED_ELSEWHERE.has(c.via)) return [];
    if (c.r === 'texts' && path.startsWith('hello-') && path.endsWith('.protocol') && c.values.length === 1 && c.values[0] === PROTOCOL_VERSION) return [];
    return bad();
  }
  if (shape === 'uint') return c.r === 'uint' ? [] : bad();
  if (shape === 'bytes') return c.r === 'bstr' && c.size === undefined ? [] : bad();
  if (shape === 'bytes16' || shape === 'bytes32' || shape === 'bytes64') return c.r === 'bstr' && c.size === Number(shape.slice(5)) ? [] : bad();
  if ('enum' in shape) {
    if (c.r !== 'texts') return bad();
    const want = [...new Set(shape.enum)].sort();
    const got = [...new Set(c.values)].sort();
    if (got.length !== c.values.length) return bad('a choice given twice');
    const missing = want.filter((v) => !got.includes(v));
    const extra = got.filter((v) => !want.includes(v));
    return missing.length || extra.length ? bad([missing.length ? `CDDL lacks ${missing.join(', ')}` : '', extra.length ? `CDDL adds ${extra.join(', ')}` : ''].filter(Boolean).join('; ')) : [];
  }
  if ('array' in shape) {
    if (c.r !== 'array') return bad();
    const out = (shape.min ?? 0) === c.min ? [] : bad(`min ${shape.min ?? 0} against min ${c.min}`);
    if ((shape.min ?? 0) > 1) out.push(`${path}: schema.ts min ${shape.min} has no CDDL form in this subset`);
    return [...out, ...compare(res, shape.array, c.item, `${path}[]`)];
  }
  if ('textMap' in shape) {
    if (c.r !== 'table') return bad();
    const k = res.resolve(c.key);
    const out = k.r === 'tstr' || k.r === 'texts' ? [] : [`${path}: a table's keys are ${kindOf(k)}, schema.ts has text keys`];
    return [...out, ...compare(res, shape.textMap, c.value, `${path}{}`)];
  }
  // a map: the CDDL's map, or its choice of maps read as one
  let fields: Map<string, { optional: boolean; types: T[] }>;
  if (c.r === 'map') fields = new Map([...c.fields].map(([k, f]) => [k, { optional: f.optional, types: [f.type] }]));
  else if (c.r === 'maps') {
    fields = new Map();
    const alts = c.alts as Extract<R, { r: 'map' }>[];
    for (const a of alts) {
      for (const [k, f] of a.fields) {
        const cur = fields.get(k) ?? { optional: false, types: [] };
        cur.optional ||= f.optional;
        cur.types.push(f.type);
        fields.set(k, cur);
      }
    }
    for (const [k, f] of fields) if (alts.some((a) => !a.fields.has(k))) f.optional = true;
  } else return bad();
  const out: string[] = [];
  const optional = new Set(shape.optional ?? []);
  for (const k of Object.keys(shape.map)) if (!fields.has(k)) out.push(`${path}.${k}: in schema.ts, not in the CDDL`);
  for (const [k, f] of fields) {
    const s = shape.map[k];
    if (s === undefined) {
      out.push(`${path}.${k}: in the CDDL, not in schema.ts`);
      continue;
    }
    if (f.optional !== optional.has(k)) out.push(`${path}.${k}: ${f.optional ? 'optional' : 'required'} in the CDDL, ${optional.has(k) ? 'optional' : 'required'} in schema.ts`);
    const t: T = f.types.length === 1 ? f.types[0]! : { t: 'choice', alts: f.types };
    out.push(...compare(res, s, t, `${path}.${k}`));
  }
  for (const k of optional) if (!(k in shape.map)) out.push(`${path}: schema.ts lists ${k} optional but has no such field`);
  return out;
}

/** Every disagreement between a CDDL text and OPS, one line each. */
function drift(src: string, ops: typeof OPS = OPS): string[] {
  const rules = parseCddl(src);
  const res = new Resolver(rules);
  const out = res.undefinedNames().map((n) => `CDDL: ${n} is used but not defined`);
  // the envelope's response-ok (a response carrying a result) is no op's
  const ops2 = (suffix: string): string[] =>
    [...rules.keys()].filter((n) => n.endsWith(suffix) && n !== 'response-ok').map((n) => n.slice(0, -suffix.length));
  const argsOps = new Set(ops2('-args'));
  const okOps = new Set(ops2('-ok'));
  for (const op of Object.keys(ops)) {
    for (const [suffix, set, shape] of [['-args', argsOps, ops[op]!.args], ['-ok', okOps, ops[op]!.result]] as const) {
      if (!set.has(op)) out.push(`${op}${suffix}: in schema.ts, not in the CDDL`);
      else out.push(...compare(res, shape, { t: 'ref', name: `${op}${suffix}` }, `${op}${suffix}`));
    }
  }
  for (const op of new Set([...argsOps, ...okOps])) if (!(op in ops)) out.push(`${op}: in the CDDL, not in schema.ts`);
  return out;
}

/** The values of a rule that is a choice of text strings. */
function textChoices(src: string, name: string): string[] {
  const rules = parseCddl(src);
  const t = rules.get(name);
  if (!t) throw new Error(`no rule ${name}`);
  const r = new Resolver(rules).resolve(t, name);
  if (r.r !== 'texts') throw new Error(`${name} is not a choice of text strings`);
  return [...r.values];
}

// ---------------------------------------------------------------------------------------------------------------

// with the operations of the suite-defined profiles, documented beside it (harness/protocol/profiles/*.cddl)
const PROFILES_DIR = join(dirname(CDDL_PATH), 'profiles');
const CDDL = [CDDL_PATH, ...readdirSync(PROFILES_DIR).filter((f) => f.endsWith('.cddl')).sort().map((f) => join(PROFILES_DIR, f))]
  .map((f) => readFileSync(f, 'utf8'))
  .join('\n');

describe('testee.cddl, the normative schema, and schema.ts, the drivers\' copy', () => {
  it('agree on every op: the same ops, fields, optional fields and types', () => {
    expect(drift(CDDL).join('\n')).toBe('');
  });

  it('the CDDL\'s error-code is ERROR_CODES of impl/errors.ts', () => {
    expect(textChoices(CDDL, 'error-code')).toEqual([...ERROR_CODES]);
  });

  it('hello\'s feature and open-point are the keys of FEATURES and OPEN_POINTS, its protocol PROTOCOL_VERSION', () => {
    expect(textChoices(CDDL, 'feature').sort()).toEqual(Object.keys(FEATURES).sort());
    expect(textChoices(CDDL, 'open-point').sort()).toEqual(Object.keys(OPEN_POINTS).sort());
    const rules = parseCddl(CDDL);
    const res = new Resolver(rules);
    for (const rule of ['hello-args', 'hello-ok']) {
      const m = res.resolve({ t: 'ref', name: rule });
      const protocol = m.r === 'map' ? m.fields.get('protocol') : undefined;
      expect(protocol && res.resolve(protocol.type), rule).toEqual({ r: 'texts', values: [PROTOCOL_VERSION] });
    }
  });
});

describe('the drift check itself', () => {
  it('names the op and field path of a changed type, optionality, enum value, field or op', () => {
    // what a change adds to the report, whatever the two files say today
    const base = new Set(drift(CDDL));
    const change = (from: string, to: string): string => {
      expect(CDDL, from).toContain(from);
      return CDDL.replace(from, to);
    };
    const drift2 = (src: string): string[] => drift(src).filter((l) => !base.has(l));
    expect(drift2(change('point.spent-ok = { spent_uj: uint }', 'point.spent-ok = { spent_uj: tstr }'))).toEqual([
      "point.spent-ok.spent_uj: schema.ts 'uint', CDDL tstr",
    ]);
    expect(drift2(change('receipt.verify-args = { receipt: bstr, ? steward: did }', 'receipt.verify-args = { receipt: bstr, steward: did }'))).toEqual([
      'receipt.verify-args.steward: required in the CDDL, optional in schema.ts',
    ]);
    expect(drift2(change('provenance = "HwShunt" / "ModelBased" / "Estimator"', 'provenance = "HwShunt" / "ModelBased"')).some((l) => /^energy\.make-ok\.energy\.provenance: .*CDDL lacks Estimator/.test(l))).toBe(true);
    expect(drift2(change('point.spent-args = { point: tstr, grant_id: cid }', 'point.spent-args = { point: tstr, grant: cid }'))).toEqual([
      'point.spent-args.grant_id: in schema.ts, not in the CDDL',
      'point.spent-args.grant: in the CDDL, not in schema.ts',
    ]);
    expect(drift2(change('seed = bstr .size 32', 'seed = bstr .size 16')).some((l) => l.startsWith("identity.from-seed-args.seed: schema.ts 'bytes32', CDDL seed = bstr .size 16"))).toBe(true);
    expect(drift2(`${CDDL}\nextra.op-args = {}   extra.op-ok = {}\n`)).toEqual(['extra.op: in the CDDL, not in schema.ts']);
  });

  it('reads choices of maps as one map, groups spliced, tables, and [+ T]', () => {
    const src = [
      'a-args = { x: [+ tstr], ? t: { * tstr => uint }, g }',
      'g = ( y: "p" / "q", ? z: bstr .size 32 )',
      'a-ok = { kind: "one", n: uint } / { kind: "two", m: tstr }',
    ].join('\n');
    const ops = {
      a: {
        about: '',
        args: { map: { x: { array: 'text', min: 1 }, t: { textMap: 'uint' }, y: { enum: ['q', 'p'] }, z: 'bytes32' }, optional: ['t', 'z'] },
        result: { map: { kind: { enum: ['one', 'two'] }, n: 'uint', m: 'text' }, optional: ['n', 'm'] },
      },
    } satisfies typeof OPS;
    expect(drift(src, ops)).toEqual([]);
    expect(drift(src.replace('[+ tstr]', '[* tstr]'), ops)).toEqual(["a-args.x: schema.ts {array, min 1}, CDDL [* …] (min 1 against min 0)"]);
    expect(drift(src.replace('{ kind: "two", m: tstr }', '{ kind: "two", m: tstr, n: uint }'), ops)).toEqual([
      'a-ok.n: required in the CDDL, optional in schema.ts',
    ]);
    expect(drift(src.replace('{ kind: "two", m: tstr }', '{ kind: "two", m: tstr, ? n: uint }'), ops)).toEqual([]);
    expect(drift(src.replace('{ kind: "two", m: tstr }', '{ kind: "two", m: tstr, n: tstr }'), ops)).toEqual([
      "a-ok.n: required in the CDDL, optional in schema.ts",
      "a-ok.n: schema.ts 'uint', CDDL uint / tstr",
    ]);
    expect(drift(src.replace('"two", m: tstr', '"two", n: uint, m: tstr').replace('"one", n: uint', '"one", n: uint, m: tstr'), ops)).toEqual([
      'a-ok.n: required in the CDDL, optional in schema.ts',
      'a-ok.m: required in the CDDL, optional in schema.ts',
    ]);
    expect(() => parseCddl('a-args = { x: [ tstr ] }')).toThrow(/\[\* T\] or \[\+ T\]/);
    expect(drift('a-args = { x: undefined-thing }', {})).toContain('CDDL: undefined-thing is used but not defined');
  });
});
