// Re-verifiable transcripts: the recording side. A transport wrapper that appends every exchange
// with the implementation under test to this client's stream file, hash-chained (format: ./format.ts).
import { appendFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { CborInput, CborMap, CborValue } from '../../impl/cbor/index.ts';
import { TesteeFailure, type Transport } from '../implementation.ts';
import { encodeEntry, frame, linkOf, ZERO_HASH } from './format.ts';

/** Options of {@link transcribing}. */
export interface TranscribeOptions {
  /**
   * The transport respawns the implementation after it failed as a program (the testee driver does; the in-process
   * reference and a live endpoint keep their state): the failing exchange then ends the stream, and the next starts
   * a fresh one.
   */
  readonly restartsOnFailure: boolean;
}

let streamsOpened = 0;

/** The folder a run's stream files go to, under the transcript folder. */
export const streamsFolder = (dir: string): string => join(dir, 'streams');

/** One stream file being written: appends an entry, chained to the one before. */
function openStream(dir: string): (test: string, op: string, args: CborInput, response: CborMap) => void {
  // names sort by when the stream was opened; the pid and a counter keep concurrent workers apart
  const name = `${Date.now().toString().padStart(15, '0')}-${process.pid}-${String(++streamsOpened).padStart(6, '0')}`;
  const path = join(streamsFolder(dir), `${name}.jcps`);
  mkdirSync(streamsFolder(dir), { recursive: true });
  let seq = 0;
  let prev = ZERO_HASH;
  return (test, op, args, response) => {
    const bytes = encodeEntry({ seq, test, op, args: args as CborValue, response, prev });
    // synchronous: a worker that ends abruptly still leaves every whole entry it recorded
    appendFileSync(path, frame(bytes));
    seq++;
    prev = linkOf(bytes);
  };
}

/**
 * `t`, with every request and its response (or the failure it ended in) appended to a stream file under
 * `<dir>/streams/`. `currentTest` names the running conformance test for each entry.
 */
export function transcribing(t: Transport, dir: string, currentTest: () => string, opts: TranscribeOptions): Transport {
  let append: ReturnType<typeof openStream> | undefined;
  return {
    description: t.description,
    hello: () => t.hello(),
    close: () => t.close(),
    async request(op, args) {
      const test = currentTest();
      // the stream opens at the first answer (and again after a respawn): a request queued behind one that killed
      // the testee is answered by the fresh process, so it belongs to the fresh stream
      try {
        const r = await t.request(op, args);
        (append ??= openStream(dir))(test, op, args, r);
        return r;
      } catch (e) {
        if (e instanceof TesteeFailure) {
          (append ??= openStream(dir))(test, op, args, new Map<CborValue, CborValue>([['failure', new Map<CborValue, CborValue>([['kind', e.kind], ['message', e.message]])]]));
          // the testee was killed: whatever it held is gone, and so is the replay's reference state
          if (opts.restartsOnFailure) append = undefined;
        }
        throw e;
      }
    },
  };
}
