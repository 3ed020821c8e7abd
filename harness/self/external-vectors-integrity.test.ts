// Self-test of the shipped third-party vectors (vectors/external/, README.md there): every file SHA256SUMS lists has
// that SHA-256, no file in the folder goes unlisted, the README names every top-level folder and the source row of
// every vector file, and externalVectorsDigest is BLAKE3 over the SHA256SUMS bytes of the folder the run reads.
import { createHash } from 'node:crypto';
import { lstatSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, sep } from 'node:path';
import { describe, expect, it } from 'vitest';
import { externalVectorsDigest, parseSha256Sums, readVectorBytes, vendoredVectorsDir } from '../external-vectors.ts';

const DIR = vendoredVectorsDir();
/** The folder's own documentation: README.md and NOTICE are listed too; SHA256SUMS cannot list itself. */
const SELF = 'SHA256SUMS';
const DOCS = new Set(['README.md', 'NOTICE']);

/** Every entry under dir, as paths relative to DIR with '/' separators; anything but a plain file or folder is named. */
function walk(dir: string, files: string[], odd: string[]): void {
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    const rel = relative(DIR, p).split(sep).join('/');
    if (e.isDirectory()) walk(p, files, odd);
    else if (e.isFile()) files.push(rel);
    else odd.push(`${rel} (${lstatSync(p).isSymbolicLink() ? 'a link' : 'not a plain file'})`);
  }
}

describe('vectors/external integrity', () => {
  const sums = parseSha256Sums(readFileSync(join(DIR, SELF), 'utf8'));
  const files: string[] = [];
  const odd: string[] = [];
  walk(DIR, files, odd);
  const readme = readFileSync(join(DIR, 'README.md'), 'utf8');

  it('every file SHA256SUMS lists is there with that sha256', () => {
    const wrong: string[] = [];
    for (const [rel, want] of sums) {
      let got: string;
      try {
        got = createHash('sha256').update(readFileSync(join(DIR, rel))).digest('hex');
      } catch {
        wrong.push(`${rel}: listed but missing`);
        continue;
      }
      if (got !== want) wrong.push(`${rel}: sha256 ${got}, SHA256SUMS says ${want}`);
    }
    expect(wrong).toEqual([]);
    expect(sums.size).toBeGreaterThan(200);
  });

  it('no file in the folder is unlisted, and nothing there is a link or special file', () => {
    expect(odd).toEqual([]);
    expect(files.filter((f) => f !== SELF && !sums.has(f))).toEqual([]);
    for (const d of DOCS) expect(sums.has(d), d).toBe(true);
  });

  it('the README names every top-level folder, and a source row for every vector file', () => {
    const folders = readdirSync(DIR, { withFileTypes: true }).filter((e) => e.isDirectory()).map((e) => e.name);
    expect(folders).toEqual(expect.arrayContaining(['blake3', 'cbor', 'cose', 'did-key', 'ed25519', 'frost', 'merkle']));
    expect(folders.filter((f) => !readme.includes(`\`${f}/\``))).toEqual([]);
    // a vector file is named in the README's table by its path, or by a `folder/**` row above it
    const vectors = files.filter((f) => f !== SELF && !DOCS.has(f) && !f.startsWith('LICENSES/'));
    const unnamed = vectors.filter((f) => {
      if (readme.includes(`\`${f}\``)) return false;
      const parts = f.split('/');
      for (let i = parts.length - 1; i > 0; i--) if (readme.includes(`\`${parts.slice(0, i).join('/')}/**\``)) return false;
      return true;
    });
    expect(unnamed).toEqual([]);
    expect(vectors.length).toBeGreaterThan(200);
  });

  it('the vector reader refuses a file whose bytes differ from its SHA256SUMS line, or one not listed', () => {
    const tmp = mkdtempSync(join(tmpdir(), 'jcp-ev-'));
    try {
      writeFileSync(join(tmp, 'a.json'), '{"a":1}');
      writeFileSync(join(tmp, 'b.json'), '{"b":2}');
      const good = createHash('sha256').update('{"a":1}').digest('hex');
      writeFileSync(join(tmp, SELF), `${good}  ./a.json\n${'0'.repeat(64)}  b.json\n`);
      expect(readVectorBytes(tmp, 'a.json').toString()).toBe('{"a":1}');
      expect(() => readVectorBytes(tmp, 'b.json')).toThrow(/sha256/);
      writeFileSync(join(tmp, 'c.json'), '{}');
      expect(() => readVectorBytes(tmp, 'c.json')).toThrow(/not listed/);
    } finally {
      rmSync(tmp, { recursive: true, force: true });
    }
  });

  it('externalVectorsDigest is BLAKE3 over the bytes of SHA256SUMS in the folder the run reads', () => {
    const before = process.env['JCP_EXTERNAL_VECTORS'];
    const tmp = mkdtempSync(join(tmpdir(), 'jcp-ev-'));
    try {
      delete process.env['JCP_EXTERNAL_VECTORS'];
      const shipped = externalVectorsDigest();
      expect(shipped).toMatch(/^[0-9a-f]{64}$/);
      // BLAKE3("abc"), from the BLAKE3 reference implementation's published digest of the three bytes "abc"
      writeFileSync(join(tmp, SELF), 'abc');
      process.env['JCP_EXTERNAL_VECTORS'] = tmp;
      expect(externalVectorsDigest()).toBe('6437b3ac38465133ffb63b75273a8db548c558465d79db03fd359c6cd5bd9d85');
      expect(shipped).not.toBe('6437b3ac38465133ffb63b75273a8db548c558465d79db03fd359c6cd5bd9d85');
    } finally {
      if (before === undefined) delete process.env['JCP_EXTERNAL_VECTORS'];
      else process.env['JCP_EXTERNAL_VECTORS'] = before;
      rmSync(tmp, { recursive: true, force: true });
    }
  });
});
