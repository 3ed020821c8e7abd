// Locates the third-party test vectors, which ship with the suite in vectors/external/ (README.md there names each
// file's source, commit and licence; NOTICE and LICENSES/ carry the notices), and the spec texts, which do not ship.
// The vectors are found relative to this module, so a clone, an installed package and a CI runner read the same
// files; $JCP_EXTERNAL_VECTORS may point elsewhere. A missing vectors folder, or a file whose SHA-256 differs from
// its SHA256SUMS line, is a failure. Absent spec texts: one line says the spec-text checks were not run, and only
// JCP_REQUIRE_SPEC=1 makes that a failure.
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, it } from 'vitest';
import { blake3, toHex } from './oracle.ts';

/** The vectors shipped with the suite: vectors/external/ beside harness/, resolved from this module's own URL. */
export function vendoredVectorsDir(): string {
  return resolve(fileURLToPath(new URL('../vectors/external/', import.meta.url)));
}

/** Where the vectors are read from: $JCP_EXTERNAL_VECTORS, else the shipped vectors/external/. */
export function externalVectorsDir(): string {
  return process.env['JCP_EXTERNAL_VECTORS'] ?? vendoredVectorsDir();
}

/** Where the spec texts are looked for: $JCP_SPEC_DIR, else ../shared/spec beside the checkout (they do not ship). */
export function specDir(): string {
  return process.env['JCP_SPEC_DIR'] ?? resolve(fileURLToPath(new URL('../../shared/spec/', import.meta.url)));
}

/** True when absent spec texts are a failure: JCP_REQUIRE_SPEC=1 (and never merely CI=true). */
export function specRequired(): boolean {
  return process.env['JCP_REQUIRE_SPEC'] === '1';
}

/**
 * BLAKE3 (hex) over the bytes of SHA256SUMS in the vectors folder the run reads: one value that names the exact set
 * of vector files (and their notices), for a certificate to bind.
 */
export function externalVectorsDigest(): string {
  return toHex(blake3(readFileSync(join(externalVectorsDir(), 'SHA256SUMS'))));
}

/**
 * Parses a SHA256SUMS file (`sha256sum` output: 64 hex digits, two spaces, a path relative to the folder; a leading
 * "./" is dropped) into path → digest. A malformed or repeated line is an error.
 */
export function parseSha256Sums(text: string): Map<string, string> {
  const sums = new Map<string, string>();
  for (const [i, line] of text.split('\n').entries()) {
    if (line === '') continue;
    const m = /^([0-9a-f]{64}) [ *](.+)$/.exec(line);
    if (!m) throw new Error(`SHA256SUMS line ${i + 1} is not "<sha256>  <path>": ${JSON.stringify(line)}`);
    const path = m[2]!.replace(/^\.\//, '');
    if (sums.has(path)) throw new Error(`SHA256SUMS lists ${path} twice`);
    sums.set(path, m[1]!);
  }
  return sums;
}

const sumsOf = new Map<string, Map<string, string> | null>();

/** The SHA256SUMS of a vectors folder, read once; null where the folder has none. */
function sumsFor(dir: string): Map<string, string> | null {
  if (!sumsOf.has(dir)) {
    const path = join(dir, 'SHA256SUMS');
    sumsOf.set(dir, existsSync(path) ? parseSha256Sums(readFileSync(path, 'utf8')) : null);
  }
  return sumsOf.get(dir)!;
}

/** The bytes of a file under a vectors folder, checked against that folder's SHA256SUMS where it has one. */
export function readVectorBytes(dir: string, rel: string): Buffer {
  const bytes = readFileSync(join(dir, rel));
  const sums = sumsFor(dir);
  if (sums === null) {
    if (resolve(dir) === vendoredVectorsDir()) throw new Error(`${join(dir, 'SHA256SUMS')} is missing`);
    return bytes;
  }
  const want = sums.get(rel.replace(/^\.\//, ''));
  if (want === undefined) throw new Error(`${rel} is not listed in ${join(dir, 'SHA256SUMS')}`);
  const got = createHash('sha256').update(bytes).digest('hex');
  if (got !== want) throw new Error(`${join(dir, rel)}: sha256 ${got}, but SHA256SUMS says ${want}`);
  return bytes;
}

/** Reads and parses a JSON file under the vectors folder, after checking its SHA-256. */
export function readVectorJson<T = unknown>(dir: string, rel: string): T {
  return JSON.parse(readVectorBytes(dir, rel).toString('utf8')) as T;
}

const said = new Set<string>();

/**
 * `describe` for tests that read the vectors or the spec texts. Vectors: when the folder is missing, one test that
 * fails. Spec texts: when the folder is absent, one test that prints one line naming what was not run and passes,
 * or fails where JCP_REQUIRE_SPEC=1.
 */
export function describeWithShared(kind: 'vectors' | 'spec', title: string, fn: (dir: string) => void): void {
  const dir = kind === 'vectors' ? externalVectorsDir() : specDir();
  if (existsSync(dir)) {
    describe(title, () => fn(dir));
    return;
  }
  describe(title, () => {
    if (kind === 'vectors') {
      it(`vectors folder missing: ${title}`, () => {
        throw new Error(`${title}: ${dir} is missing; the third-party vectors ship with the suite in vectors/external/, so their absence is a failure`);
      });
      return;
    }
    it(`spec texts absent: ${title} not run`, () => {
      const line = `${title}: spec texts not found at ${dir} ($JCP_SPEC_DIR), so these spec-text checks were not run`;
      if (specRequired()) throw new Error(`${line} (a failure under JCP_REQUIRE_SPEC=1)`);
      if (!said.has(line)) {
        said.add(line);
        console.warn(line);
      }
    });
  });
}

/** Seeds and run counts for fast-check: fixed in CI, overridable with FC_SEED / FC_RUNS to replay a failure. */
export function fcParams(defaultRuns = 200): { seed: number; numRuns: number } {
  const seed = process.env['FC_SEED'] !== undefined ? Number(process.env['FC_SEED']) : 0x4a4350; // "JCP"
  const numRuns = process.env['FC_RUNS'] !== undefined ? Number(process.env['FC_RUNS']) : defaultRuns;
  return { seed, numRuns };
}
