// Expectation-file globs: `*` matches any run of characters, every other character itself. Matched without a regular
// expression and without backtracking: the text between stars must appear in order, the first piece as a prefix and
// the last as a suffix, and taking each middle piece at its leftmost place is always right (a later place only leaves
// less room for the rest). So a glob of any number of stars costs one pass of indexOf per piece over the id.

/** A compiled glob: `matches(id)` in time linear in the id per piece, whatever the glob holds. */
export interface Glob {
  readonly source: string;
  matches(id: string): boolean;
}

/** Compiles `source`; a source without `*` matches only itself. */
export function compileGlob(source: string): Glob {
  const pieces = source.split('*');
  if (pieces.length === 1) return { source, matches: (id) => id === source };
  const first = pieces[0]!;
  const last = pieces[pieces.length - 1]!;
  const middle = pieces.slice(1, -1).filter((p) => p.length > 0);
  const fixed = first.length + last.length;
  return {
    source,
    matches(id: string): boolean {
      if (id.length < fixed || !id.startsWith(first) || !id.endsWith(last)) return false;
      let at = first.length;
      const end = id.length - last.length;
      for (const p of middle) {
        const i = id.indexOf(p, at);
        if (i < 0 || i + p.length > end) return false;
        at = i + p.length;
      }
      return true;
    },
  };
}
