// The child process of the durable-record crash test (impl/durable/crash.test.ts): it opens a durable point
// on a record and runs a stream of keyed decisions against it as fast as it can until it is SIGKILLed. It writes one
// line to stdout per event, each only AFTER the event is done:
//   ready <replayed> <unresolved> <torn>     the point is open (record claimed, replayed); torn = bytes of a torn tail
//                                            it reported and removed (0 when none)
//   ack <n> <status> <verdict> <hash>        decideOnce(n) returned (status decided|repeated|unrecorded; hash = blake3 of the response)
//   done <n> <entryId>                       the outcome of n's allowed action was recorded
//   refused <code> <holder> <pid>            (mode probe) opening the record was refused
//   opened                                   (mode probe) opening the record succeeded
// argv: <record path> <holder> <mode: run|probe|hold> <from n> <resend n,n,…|-> <stop before n> <cost factor>
// or: serve — then the same seven words arrive as one line on stdin, so the test can start the next child (node and
// module load) while the current one runs, and a restart costs only the open.
// Request n costs streamCost(n) × cost factor. Not part of the public surface; bundled by the test.
import { toHex } from '../bytes.ts';
import { encodeCanonical } from '../cbor/index.ts';
import { isJcpError } from '../errors.ts';
import { blake3 } from '../hash/blake3.ts';
import { requestKey, steward, streamCost, streamRequest } from './_fixtures.ts';
import { openDurablePoint, type DurablePoint } from './point.ts';

async function words(): Promise<string[]> {
  if (process.argv[2] !== 'serve') return process.argv.slice(2);
  return new Promise((resolve) => {
    let buf = '';
    process.stdin.setEncoding('utf8').on('data', (d: string) => {
      buf += d;
      const i = buf.indexOf('\n');
      if (i >= 0) {
        process.stdin.pause();
        resolve(buf.slice(0, i).split(' '));
      }
    });
  });
}

const [file, holder, mode = 'run', fromArg = '0', resendArg = '-', stopArg = '100000', factorArg = '1'] = await words();
if (!file || !holder) {
  process.stderr.write('usage: _crash-child <record> <holder> <run|probe|hold> <from> <resend> <stop>\n');
  process.exit(2);
}

function say(line: string): void {
  // a synchronous write to the pipe: when this returns, the parent can read the line even if we are killed next
  process.stdout.write(`${line}\n`);
}

let point: DurablePoint;
try {
  point = openDurablePoint({ path: file, steward, holder });
} catch (e) {
  if (mode === 'probe' && isJcpError(e)) {
    const d = (e.detail ?? {}) as { holder?: string; pid?: number };
    say(`refused ${e.code} ${d.holder ?? '-'} ${d.pid ?? '-'}`);
    process.exit(0);
  }
  throw e;
}
if (mode === 'probe') {
  say('opened');
  point.close();
  process.exit(0);
}
say(`ready ${point.replayed} ${point.unresolved().length} ${point.tornTail?.length ?? 0}`);
if (mode === 'hold') {
  setInterval(() => undefined, 1000); // hold the record until killed
} else {
  const from = Number(fromArg);
  const stop = Number(stopArg);
  const factor = BigInt(factorArg);
  const resend = resendArg === '-' ? [] : resendArg.split(',').map(Number);
  const order = [...resend, ...Array.from({ length: Math.max(0, stop - from) }, (_, i) => from + i)];
  for (const n of order) {
    const r = point.decideOnce(requestKey(n), streamRequest(n, streamCost(n) * factor), (d) => encodeCanonical({ verdict: d.verdict, receipt: d.receipt }));
    if (r.status === 'unrecorded') {
      say(`ack ${n} unrecorded deny -`);
      continue;
    }
    const verdict = r.status === 'decided' ? r.decision.verdict : 'seen';
    say(`ack ${n} ${r.status} ${verdict} ${toHex(blake3(r.response))}`);
    if (r.status === 'decided' && r.decision.verdict === 'allow') {
      // the action would run here; its outcome is recorded after it
      point.complete(r.decision.entryId, 'completed');
      say(`done ${n} ${r.decision.entryId}`);
    }
  }
  point.close();
  process.exit(0);
}
