// Rule breakers that exist only as a testee process: faults a test can see only by killing the process, so the kill
// matrix cannot serve them in process. mutation/testees/variant-main.ts serves them by id; the matrix's in-process
// wrapper names the command in JCP_MUTANT_TESTEE, and the black-box crash test (harness/conformance/durable.test.ts)
// starts its testee processes with it. In process (every other test) they are the faithful reference.
//   durable-write-behind[:ms]   durable.decide answers before its record entry is written: every write of the record
//                               (entry, fsync, anchor) is held back `ms` milliseconds (default 10) and done in order
//                               after it — jcp §4.11 "MUST record every allowed decision durably" broken by a
//                               write-behind gap, which only a kill inside the gap shows
import fs from 'node:fs';
import { createReferenceAdapter } from '../../harness/adapter/reference.ts';
import type { Adapter } from '../../harness/adapter/respond.ts';
import type { RecordIo } from '../../impl/durable/record.ts';

/** A record I/O that does each write and fsync `ms` milliseconds after it is asked for, in order; `flush` does the rest now. */
export function writeBehindIo(ms: number): RecordIo & { flush(): void } {
  const queue: Array<{ readonly due: number; readonly run: () => void }> = [];
  let timer: NodeJS.Timeout | undefined;
  const drain = (upTo: number) => {
    while (queue.length && queue[0]!.due <= upTo) queue.shift()!.run();
  };
  const arm = () => {
    if (timer || !queue.length) return;
    timer = setTimeout(() => {
      timer = undefined;
      drain(Date.now());
      arm();
    }, Math.max(0, queue[0]!.due - Date.now()));
  };
  const later = (run: () => void) => {
    queue.push({ due: Date.now() + ms, run });
    arm();
  };
  return {
    writeSync(fd, b, off, len, position) {
      const copy = b.slice(off, off + len);
      later(() => {
        for (let o = 0; o < len; ) o += fs.writeSync(fd, copy, o, len - o, position === null ? null : position + o);
      });
      return len; // said written: the caller goes on as if it were
    },
    fsyncSync(fd) {
      later(() => fs.fsyncSync(fd));
    },
    flush() {
      if (timer) clearTimeout(timer);
      timer = undefined;
      drain(Infinity);
    },
  };
}

/** The reference with its record written `ms` behind each answer; a close (or the end of input) writes what is held first. */
function writeBehind(ms: number): Adapter {
  const io = writeBehindIo(ms);
  const base = createReferenceAdapter({ recordIo: io });
  process.stdin.once('end', () => io.flush());
  return {
    handle(op, args) {
      if (op === 'durable.close') io.flush(); // its descriptors close with it
      return base.handle(op, args);
    },
  };
}

/** The process-only rule breakers, by id. */
export const PROCESS_MUTANTS: Readonly<Record<string, () => Adapter>> = {
  'durable-write-behind': () => writeBehind(10),
};

/** The adapter of a process-only variant: an id of PROCESS_MUTANTS, or `durable-write-behind:<ms>` for another gap. */
export function processVariant(variant: string): Adapter | undefined {
  const built = PROCESS_MUTANTS[variant];
  if (built) return built();
  const m = /^durable-write-behind:(0|[1-9]\d{0,5})$/.exec(variant);
  return m ? writeBehind(Number(m[1])) : undefined;
}
