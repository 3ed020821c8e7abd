// Re-verifiable transcripts, certify's side. Before the run, a new or empty folder with a streams folder for the
// workers (JCP_TRANSCRIPT); after it, the streams folded into one transcript file whose root the certificate binds.
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { checkFolderPath, CliError } from '../commands/errors.ts';
import type { Judged } from '../report/expectations.ts';
import type { Header } from '../report/record.ts';
import { encodeHeader, frame, readChain, rootOf, TRANSCRIPT_FORMAT, type StreamRef, type TranscriptHeader } from './format.ts';
import { streamsFolder } from './recorder.ts';

/** The transcript file's name in the transcript folder. */
export const TRANSCRIPT_FILE = 'transcript.jcpt';

/**
 * Refuses a transcript folder that cannot be used: one under a regular file, or one that already exists and holds
 * anything (an earlier run's streams would be folded into this run's, and the suite deletes nothing it did not
 * create). Creates nothing.
 */
export function checkTranscriptFolder(dir: string): void {
  checkFolderPath(dir, 'the transcript folder');
  if (!existsSync(dir)) return;
  if (readdirSync(dir).length > 0) {
    throw new CliError('transcript-folder-in-use', `the transcript folder ${dir} already exists and is not empty: remove it, or name a new one with --transcript <dir>`);
  }
}

/** Creates the transcript folder `dir` (new or empty: checkTranscriptFolder) and its streams folder; returns `dir`. */
export function prepareTranscriptFolder(dir: string): string {
  checkTranscriptFolder(dir);
  mkdirSync(streamsFolder(dir), { recursive: true });
  return dir;
}

/** The length of the longest prefix of `bytes` made of whole frames (a worker killed mid-append leaves a torn tail). */
function wholeFrames(bytes: Uint8Array): number {
  let at = 0;
  while (at + 4 <= bytes.length) {
    const end = at + 4 + new DataView(bytes.buffer, bytes.byteOffset + at, 4).getUint32(0, false);
    if (end > bytes.length) break;
    at = end;
  }
  return at;
}

/** What folding produced. */
export interface Folded {
  readonly path: string;
  readonly root: string;
  readonly streams: number;
  readonly entries: number;
  /** Streams whose last frame was torn (a worker that died mid-write): the whole entries before it were kept. */
  readonly torn: readonly string[];
}

/**
 * Folds the stream files of `dir` (names sorted) and the run's judged tests into `<dir>/transcript.jcpt`: the header
 * frame, then every stream's entries verbatim. Every stream's chain is checked first; a broken one is a bug of the
 * recorder and throws TranscriptError.
 */
export function foldTranscript(dir: string, run: Header, judged: readonly Judged[]): Folded {
  const folder = streamsFolder(dir);
  const names = existsSync(folder) ? readdirSync(folder).filter((f) => f.endsWith('.jcps')).sort() : [];
  const refs: StreamRef[] = [];
  const bodies: Uint8Array[] = [];
  const torn: string[] = [];
  for (const file of names) {
    const raw = new Uint8Array(readFileSync(join(folder, file)));
    const whole = wholeFrames(raw);
    const name = file.slice(0, -'.jcps'.length);
    if (whole < raw.length) torn.push(name);
    const kept = raw.subarray(0, whole);
    const r = readChain(kept, 0, undefined, name);
    if (r.stream.entries.length === 0) continue;
    refs.push({ name, entries: r.stream.entries.length, head: r.head });
    bodies.push(kept);
  }
  const header: TranscriptHeader = {
    format: TRANSCRIPT_FORMAT,
    suite: `${run.suite.name} ${run.suite.version}`,
    testee: { name: run.testee.name, version: run.testee.version, driver: run.testee.driver, claims: [...run.testee.claims] },
    seed: run.seed,
    classes_requested: run.classes_requested,
    streams: refs,
    tests: judged.map((t) => ({
      id: t.id,
      file: t.file,
      classes: [...t.classes],
      level: t.level,
      outcome: t.outcome,
      ...(t.expected !== undefined ? { expected: t.expected } : {}),
      unexpected: t.unexpected ? 1 : 0,
    })),
  };
  const hb = encodeHeader(header);
  const path = join(dir, TRANSCRIPT_FILE);
  writeFileSync(path, Buffer.concat([frame(hb), ...bodies]));
  return { path, root: rootOf(hb), streams: refs.length, entries: refs.reduce((n, s) => n + s.entries, 0), torn };
}

/**
 * The transcript folder `certify --transcript [<dir>]` names (checked: checkTranscriptFolder), or undefined without
 * the flag. Default: `<report>/transcript`.
 */
export function transcriptFolderOf(given: boolean, value: string | undefined, reportDir: string): string | undefined {
  if (!given) return undefined;
  const dir = resolve(value ?? join(reportDir, 'transcript'));
  checkTranscriptFolder(dir);
  return dir;
}
