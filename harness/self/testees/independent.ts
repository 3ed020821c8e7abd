// An independent implementation, as far as the suite can tell one from the reference: the reference with the choices
// the spec leaves open taken the other way (harness/PROTOCOL.md "Grades", "Declared readings"). Built by bundling the
// reference testee with source patches applied to copies of impl/ modules (impl/ itself is never edited):
//   - caveats laid out inside signed grants as {k: Variant, v: parameter} maps (jcp §4.9 fixes no CBOR shape), so its
//     grant bytes and content ids differ from the published vectors wherever a grant carries a caveat;
//   - the other expiry boundary (jcp/7#open-expiry-boundary): expired only once now_s > expiry, declared in `readings`;
//   - chain_ids recorded for a single-grant chain too, as [grant_id] (jcp §8.1 requires them for a multi-hop chain only,
//     and forbids them nowhere else);
// and, in its adapter (./independent-main.ts), its own error taxonomy (coarser ERR_ codes), no byte-contract claim, and
// its own canonical check (cbor.check, ./independent-cbor.ts: a walk over the bytes, heads read as bigints) taking the
// other reading of tags (jcp/3#open-tags-in-canonical-check): a tag is data, kept when its head and content are
// canonical, tag numbers up to 2^64 − 1 included — declared in `readings` as canonical-tags: passed-through.
// harness/self/independent.test.ts certifies it: every class it claims must PASS on the spec grade.
import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build, type Plugin } from 'esbuild';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');

/** One textual change to one impl/ file of the bundle: `find` (exactly once in the file) becomes `replace`. */
export interface BundlePatch {
  readonly file: string;
  readonly find: string;
  readonly replace: string;
}

/** The independent implementation's choices, as patches to the reference's impl/. */
export const INDEPENDENT_PATCHES: readonly BundlePatch[] = [
  {
    file: 'impl/jcp/codec.ts',
    find: 'caveats: g.caveats === undefined || g.caveats.length === 0 ? undefined : g.caveats.map(caveatToCbor),',
    replace:
      'caveats: g.caveats === undefined || g.caveats.length === 0 ? undefined : g.caveats.map((c) => { const [k, v] = Object.entries(caveatToCbor(c) as Record<string, CborInput>)[0]!; return { k, v }; }),',
  },
  {
    file: 'impl/jcp/codec.ts',
    find: 'g.caveats = Object.freeze(cv.map((c, i) => Object.freeze(parseCaveat(r, c, `${at}.caveats[${i}]`))));',
    replace:
      "g.caveats = Object.freeze(cv.map((c, i) => Object.freeze(parseCaveat(r, c instanceof Map && c.size === 2 && typeof c.get('k') === 'string' && c.has('v') ? new Map([[c.get('k') as string, c.get('v') as CborValue]]) : new Map(), `${at}.caveats[${i}]`))));",
  },
  { file: 'impl/jcp/decide.ts', find: 'return g.expiry !== 0n && now_s >= g.expiry;', replace: 'return g.expiry !== 0n && now_s > g.expiry;' },
  { file: 'impl/jcp/enforcement-point.ts', find: 'if (ids.length > 1) core.chain_ids = ids;', replace: 'core.chain_ids = ids;' },
];

/** An esbuild plugin applying `patches` to the files they name; a patch whose text is not there exactly once fails the build. */
function patching(patches: readonly BundlePatch[]): Plugin {
  return {
    name: 'jcp-independent-patches',
    setup(b) {
      b.onLoad({ filter: /[\\/]impl[\\/].*\.ts$/ }, (args) => {
        const rel = args.path.slice(ROOT.length + 1).replace(/\\/g, '/');
        const mine = patches.filter((p) => p.file === rel);
        if (mine.length === 0) return undefined;
        let code = readFileSync(args.path, 'utf8');
        for (const p of mine) {
          const at = code.indexOf(p.find);
          if (at < 0 || code.indexOf(p.find, at + 1) >= 0) throw new Error(`${p.file}: the text to patch is not there exactly once: ${p.find}`);
          code = code.slice(0, at) + p.replace + code.slice(at + p.find.length);
        }
        return { contents: code, loader: 'ts' };
      });
    },
  };
}

/** Bundles the independent implementation's testee to `outfile` (run it with `node <outfile> [rule breaker of mutation/testees/legacy.ts]`). */
export async function buildIndependent(outfile: string): Promise<void> {
  await build({
    entryPoints: [join(ROOT, 'harness', 'self', 'testees', 'independent-main.ts')],
    bundle: true,
    platform: 'node',
    format: 'esm',
    packages: 'external',
    outfile,
    logLevel: 'warning',
    plugins: [patching(INDEPENDENT_PATCHES)],
  });
}
