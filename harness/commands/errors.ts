// The command line's typed errors: a stable code, a one-line message, and the process exit code they end in
// (2 a usage or input error, 3 a refused certificate or transcript). The CLI prints the message and exits; a
// stack trace is only ever printed for an error that is none of these (a bug).
import { statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';

/** Stable codes of the command line's errors. */
export type CliErrorCode =
  | 'unknown-verb'
  | 'unknown-option'
  | 'missing-value'
  | 'unexpected-value'
  | 'repeated-option'
  | 'bad-number'
  | 'bad-value'
  | 'unknown-class'
  | 'missing-argument'
  | 'extra-argument'
  | 'conflicting-options'
  | 'unreadable-file'
  | 'bad-file'
  | 'bad-report-path'
  | 'transcript-folder-in-use'
  /** merge: a folder whose record is not a shard's (no certify --shard header), or a shard that ran no test. */
  | 'not-a-shard'
  /** merge: shards of different runs (suite, protocol, seed, testee, expectation file, classes …). */
  | 'shard-mismatch'
  /** merge: a shard of 1..n missing from the set. */
  | 'shard-missing'
  /** merge: the same shard given twice. */
  | 'shard-duplicate';

/** A usage or input error of the command line: printed as one line, never with a stack. */
export class CliError extends Error {
  override readonly name: string = 'CliError';
  constructor(
    readonly code: CliErrorCode,
    message: string,
    /** The process exit code: 2 usage or input, 3 refused. */
    readonly exit: 2 | 3 = 2,
  ) {
    super(message);
  }
}

/** The node error code of a failed file-system call (ENOENT, EACCES …), or undefined. */
export function fsCode(e: unknown): string | undefined {
  return e instanceof Error && typeof (e as NodeJS.ErrnoException).code === 'string' ? (e as NodeJS.ErrnoException).code : undefined;
}

/** What a failed read says, in words. */
export function unreadable(path: string, e: unknown): CliError {
  const code = fsCode(e);
  const why = code === 'ENOENT' ? 'no such file' : code === 'EISDIR' ? 'is a folder, not a file' : code === 'EACCES' ? 'permission denied' : code ?? (e instanceof Error ? e.message : String(e));
  return new CliError('unreadable-file', `${path}: ${why}`);
}

/**
 * Refuses a folder the command would create or write into when it cannot be one: the path, or the nearest existing
 * folder above it, is a regular file (or anything other than a folder). Creates nothing.
 */
export function checkFolderPath(path: string, what: string): void {
  let p = resolve(path);
  for (;;) {
    let isDir: boolean | undefined;
    try {
      isDir = statSync(p).isDirectory();
    } catch (e) {
      const code = fsCode(e);
      // ENOTDIR: a component above is a file; the loop reaches it
      if (code !== 'ENOENT' && code !== 'ENOTDIR') throw new CliError('bad-report-path', `${what} ${path}: ${code ?? String(e)}`);
    }
    if (isDir === true) return;
    if (isDir === false) {
      throw new CliError('bad-report-path', p === resolve(path) ? `${what} ${path} is a file, not a folder` : `${what} ${path} lies under ${p}, which is a file, not a folder`);
    }
    const up = dirname(p);
    if (up === p) return;
    p = up;
  }
}
