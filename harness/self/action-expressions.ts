// The `${{ }}` expressions of this repository's composite action (action.yml), evaluated as the GitHub Actions runner
// evaluates them (docs.github.com "Evaluate expressions in workflows and actions"): the inputs, steps.<id>.outputs,
// strategy and github contexts, string literals, ==, !=, !, && and ||, always() and success(), and the success() an
// `if:` gets when it names no status function. Anything else throws, so the stand-in runner (action-runner.ts)
// cannot quietly read an expression the real runner would read differently.
/** A value an expression evaluates to (objects and arrays are not used by action.yml). */
export type ExpressionValue = string | number | boolean | null;

/** The contexts an expression reads. */
export interface Contexts {
  readonly inputs: Readonly<Record<string, string>>;
  readonly steps: Readonly<Record<string, { readonly outputs: Readonly<Record<string, string>> }>>;
  readonly strategy: { readonly 'job-index': number };
  readonly github: Readonly<Record<string, string>>;
  /** Step ids the action declares: a reference to another id is a typo, and throws. */
  readonly stepIds: ReadonlySet<string>;
  /** Whether an earlier step failed (the job status success() and always() read). */
  readonly failed: boolean;
}

const TOKEN = /\s*(?:(\|\||&&|==|!=|!|\(|\))|'((?:[^']|'')*)'|([A-Za-z_][A-Za-z0-9_-]*(?:\.[A-Za-z_][A-Za-z0-9_-]*)*)|(\d+))/y;

function tokens(src: string): Array<{ op?: string; str?: string; path?: string; num?: number }> {
  const out: Array<{ op?: string; str?: string; path?: string; num?: number }> = [];
  TOKEN.lastIndex = 0;
  while (TOKEN.lastIndex < src.length) {
    if (/^\s*$/.test(src.slice(TOKEN.lastIndex))) break;
    const at = TOKEN.lastIndex;
    const m = TOKEN.exec(src);
    if (!m) throw new Error(`expression ${JSON.stringify(src)}: cannot read from ${JSON.stringify(src.slice(at))}`);
    if (m[1] !== undefined) out.push({ op: m[1] });
    else if (m[2] !== undefined) out.push({ str: m[2].replace(/''/g, "'") });
    else if (m[3] !== undefined) out.push({ path: m[3] });
    else out.push({ num: Number(m[4]) });
  }
  return out;
}

/** Truthiness as the runner casts to boolean: '', 0, false and null are false. */
const truthy = (v: ExpressionValue): boolean => v !== '' && v !== 0 && v !== false && v !== null;

/** Evaluates one expression (the text inside `${{ }}`, or an `if:`) over the contexts; throws on what it does not know. */
export function evaluate(src: string, c: Contexts): ExpressionValue {
  const t = tokens(src);
  let k = 0;
  const fail = (why: string): never => {
    throw new Error(`expression ${JSON.stringify(src)}: ${why}`);
  };
  const context = (path: string): ExpressionValue => {
    const [head, ...rest] = path.split('.');
    if (head === 'inputs' && rest.length === 1) return Object.hasOwn(c.inputs, rest[0]!) ? c.inputs[rest[0]!]! : fail(`no input ${rest[0]} is declared`);
    if (head === 'steps' && rest.length === 3 && rest[1] === 'outputs') {
      if (!c.stepIds.has(rest[0]!)) fail(`no step has the id ${rest[0]}`);
      return c.steps[rest[0]!]?.outputs[rest[2]!] ?? '';
    }
    if (head === 'strategy' && rest.length === 1 && rest[0] === 'job-index') return c.strategy['job-index'];
    if (head === 'github' && rest.length === 1 && Object.hasOwn(c.github, rest[0]!)) return c.github[rest[0]!]!;
    return fail(`the stand-in runner does not know ${path}`);
  };
  const primary = (): ExpressionValue => {
    const x = t[k++] ?? fail('ends early');
    if (x.op === '(') {
      const v = or();
      if (t[k++]?.op !== ')') fail('a ( without its )');
      return v;
    }
    if (x.op === '!') return !truthy(primary());
    if (x.str !== undefined) return x.str;
    if (x.num !== undefined) return x.num;
    if (x.path !== undefined) {
      if (t[k]?.op === '(') {
        k++;
        if (t[k++]?.op !== ')') fail(`${x.path}(...) with arguments is not known`);
        if (x.path === 'always') return true;
        if (x.path === 'success') return !c.failed;
        return fail(`the function ${x.path}() is not known`);
      }
      if (x.path === 'true' || x.path === 'false') return x.path === 'true';
      if (x.path === 'null') return null;
      return context(x.path);
    }
    return fail(`unexpected ${x.op}`);
  };
  const compare = (): ExpressionValue => {
    const a = primary();
    const op = t[k]?.op;
    if (op !== '==' && op !== '!=') return a;
    k++;
    const b = primary();
    // the runner compares strings ignoring case and coerces mixed types; only string against string is used here
    if (typeof a !== 'string' || typeof b !== 'string') fail(`${op} between ${typeof a} and ${typeof b} is not known`);
    const eq = (a as string).toLowerCase() === (b as string).toLowerCase();
    return op === '==' ? eq : !eq;
  };
  const and = (): ExpressionValue => {
    let v = compare();
    while (t[k]?.op === '&&') {
      k++;
      const w = compare();
      v = truthy(v) ? w : v;
    }
    return v;
  };
  const or = (): ExpressionValue => {
    let v = and();
    while (t[k]?.op === '||') {
      k++;
      const w = and();
      v = truthy(v) ? v : w;
    }
    return v;
  };
  const v = or();
  if (k !== t.length) fail('trailing tokens');
  return v;
}

/** A string with every `${{ expr }}` replaced by its value as the runner casts it to a string. */
export function substitute(text: string, c: Contexts): string {
  const out = text.replace(/\$\{\{(.*?)\}\}/gs, (_m, e: string) => {
    const v = evaluate(e, c);
    return v === null ? '' : String(v);
  });
  if (out.includes('${{')) throw new Error(`an unterminated expression in ${JSON.stringify(text)}`);
  return out;
}

/** Whether a step with this `if:` runs (with or without `${{ }}`): success() added unless it names a status function. */
export function stepRuns(condition: string | undefined, c: Contexts): boolean {
  const cond = (condition ?? '').trim().replace(/^\$\{\{([\s\S]*)\}\}$/, '$1');
  if (cond === '') return !c.failed;
  const v = truthy(evaluate(cond, c));
  return /\b(always|success|failure|cancelled)\(\)/.test(cond) ? v : v && !c.failed;
}
