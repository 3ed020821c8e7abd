// Testees that break one rule of jcp §4.11 on purpose, for harness/self/durable-crash.test.ts: the reference adapter
// behind the testee protocol, with ONE fault in how a restart treats the durable record, chosen by the first argument:
//   forget-acknowledged   each durable.open first cuts the record's last whole entry away and re-anchors what is left
//                         (the reference alone would refuse the cut record), so after a kill that came once a
//                         decision was answered, an acknowledged allow is gone ("MUST record every allowed decision
//                         durably"; "Its energy MUST stay debited")
//   redecide-last         each durable.open, once the record is replayed, decides again the last durable.decide it was
//                         sent before the restart (kept in a side file beside the record): a decision already recorded
//                         is debited a second time ("re-establish the spend from that record")
//   (none)                the faithful reference
// The faults act on the reference's own record (impl/durable's format, read with its own reader); the harness that is
// under test here never reads it.
import fs from 'node:fs';
import { createReferenceAdapter } from '../../adapter/reference.ts';
import { respond, type Adapter } from '../../adapter/respond.ts';
import { encodeFrame, FrameReader } from '../../protocol/framing.ts';
import { anchorRecord, decodeCanonical, readRecordFile, type CborMap } from '../../oracle.ts';

const fault = process.argv[2] ?? '';
if (!['', 'forget-acknowledged', 'redecide-last'].includes(fault)) {
  process.stderr.write(`durable-faults: unknown fault ${fault}\n`);
  process.exit(2);
}

const reference = createReferenceAdapter();
const sideFile = (record: string) => `${record}.sent`;

/** The last whole length-prefixed frame of the side file (a torn last append is ignored). */
function lastSent(record: string): CborMap | undefined {
  let bytes: Uint8Array;
  try {
    bytes = new Uint8Array(fs.readFileSync(sideFile(record)));
  } catch {
    return undefined;
  }
  let last: Uint8Array | undefined;
  for (let at = 0; at + 4 <= bytes.length; ) {
    const len = new DataView(bytes.buffer, bytes.byteOffset + at, 4).getUint32(0, false);
    if (at + 4 + len > bytes.length) break;
    last = bytes.subarray(at + 4, at + 4 + len);
    at += 4 + len;
  }
  return last ? (decodeCanonical(last) as CborMap) : undefined;
}

const records = new Map<string, string>(); // durable point name → record path
const adapter: Adapter = {
  handle(op, args) {
    if (op === 'durable.open') {
      const record = args.get('path') as string;
      if (fault === 'forget-acknowledged' && fs.existsSync(record)) {
        let lastAt: number | undefined;
        try {
          lastAt = readRecordFile(record).offsets.at(-1);
        } catch (e) {
          // the harness kills some lifetimes during durable.open: one killed between this cut and its re-anchoring left
          // the record shorter than its anchor, which this fault then finishes (re-anchors) rather than cutting again
          if ((e as { code?: string }).code !== 'ERR_RECORD_CORRUPT') throw e;
          anchorRecord(record, 'durable-faults');
        }
        if (lastAt !== undefined) {
          fs.truncateSync(record, lastAt);
          // and its anchor made to agree, as a record with no anchor would: what the reference itself refuses
          anchorRecord(record, 'durable-faults');
        }
      }
      const opened = reference.handle(op, args) as { point: string; replayed: bigint };
      records.set(opened.point, record);
      const again = fault === 'redecide-last' ? lastSent(record) : undefined;
      if (again) {
        const a = new Map(again);
        a.set('point', opened.point);
        reference.handle('durable.decide', a); // its answer goes nowhere: a retry nobody asked for
      }
      return opened;
    }
    if (op === 'durable.decide' && fault === 'redecide-last') {
      const record = records.get(args.get('point') as string);
      if (record) fs.appendFileSync(sideFile(record), encodeFrame(args));
    }
    return reference.handle(op, args);
  },
};

const reader = new FrameReader();
process.stdin.on('data', (chunk: Buffer) => {
  for (const req of reader.push(new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength)) as CborMap[]) {
    process.stdout.write(encodeFrame(respond(adapter, req)));
  }
});
process.stdin.on('end', () => process.exit(0));
