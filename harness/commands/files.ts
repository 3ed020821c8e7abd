// Input files the command line names: each checked to be a readable regular file before a verb runs, so a missing
// or unreadable one is one line naming it (CliError, exit 2), never a stack trace.
import { closeSync, openSync, readFileSync, statSync } from 'node:fs';
import { toHex } from '../../impl/bytes.ts';
import { blake3 } from '../../impl/hash/blake3.ts';
import { CliError, unreadable } from './errors.ts';

/** Throws a CliError unless `path` is a regular file that can be opened for reading. */
export function readableFile(path: string): void {
  try {
    if (!statSync(path).isFile()) throw new CliError('unreadable-file', `${path}: not a regular file`);
    closeSync(openSync(path, 'r'));
  } catch (e) {
    if (e instanceof CliError) throw e;
    throw unreadable(path, e);
  }
}

/** The file certify signs, in the report folder. */
export const CERTIFICATE_FILE = 'certificate.cose';

/** The file of the primary record, in the report folder. */
export const RECORD_FILE = 'record.jsonl';

/** blake3 of a file's bytes, hex. */
export function digestFile(path: string): string {
  return toHex(blake3(readFileSync(path)));
}
