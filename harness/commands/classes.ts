// The class ids `--classes` accepts (ARCHITECTURE.md, "Clause ids and classes"): the union of the classes the clause
// index names (spec-map/), and jcp:C1 … jcp:C26 and jcp:C-neg, the classes jcp §9 (Conformance) lists.
import { allClauses } from '../../spec-map/index.ts';
import { CliError } from './errors.ts';

/** Every known class id, sorted by spec and then by number. */
export function knownClasses(): readonly string[] {
  const s = new Set<string>(['jcp:C-neg']);
  for (let i = 1; i <= 26; i++) s.add(`jcp:C${i}`);
  for (const c of allClauses().values()) for (const k of c.classes) s.add(k);
  const num = (k: string) => Number(/:C(\d+)$/.exec(k)?.[1] ?? Infinity);
  return [...s].sort((a, b) => a.split(':')[0]!.localeCompare(b.split(':')[0]!) || num(a) - num(b) || a.localeCompare(b));
}

/** The known classes in brief: numbered runs as ranges (`jcp:C1…C26, jcp:C-neg, sense:C1…C6`). */
export function briefClasses(): string {
  const out: string[] = [];
  const bySpec = new Map<string, string[]>();
  for (const k of knownClasses()) {
    const [spec, cls] = k.split(':') as [string, string];
    bySpec.set(spec, [...(bySpec.get(spec) ?? []), cls]);
  }
  for (const [spec, list] of bySpec) {
    const nums = list.filter((c) => /^C\d+$/.test(c)).map((c) => Number(c.slice(1)));
    let i = 0;
    while (i < nums.length) {
      let j = i;
      while (j + 1 < nums.length && nums[j + 1] === nums[j]! + 1) j++;
      out.push(j > i + 1 ? `${spec}:C${nums[i]}…C${nums[j]}` : nums.slice(i, j + 1).map((n) => `${spec}:C${n}`).join(', '));
      i = j + 1;
    }
    for (const c of list.filter((x) => !/^C\d+$/.test(x))) out.push(`${spec}:${c}`);
  }
  return out.join(', ');
}

/**
 * Reads a `--classes` value: comma-separated class ids, a bare `C<n>` or `C-neg` meaning jcp's. Refuses an empty
 * entry and any id that is no known class, naming it and listing the valid ones.
 */
export function parseClassList(raw: string, flag = '--classes'): string[] {
  const known = knownClasses();
  const out: string[] = [];
  for (const part of raw.split(',')) {
    const given = part.trim();
    if (given === '') throw new CliError('unknown-class', `${flag} ${JSON.stringify(raw)} has an empty entry`);
    const id = given.includes(':') ? given : `jcp:${given}`;
    if (!known.includes(id)) throw new CliError('unknown-class', `${flag}: unknown class ${given}; the classes are ${briefClasses()}`);
    if (!out.includes(id)) out.push(id);
  }
  return out;
}
