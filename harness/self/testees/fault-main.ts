// A testee with one program fault (harness/PROTOCOL.md "Framing", "Messages"): the reference behind the testee
// protocol, except that on one operation it hangs (`hang`), exits (`exit`), writes its answer twice in one write
// (`twice`), answers and writes the answer again 300 ms later, when nothing is in flight (`late`), or answers under
// another seq (`wrong-seq`). Arguments: the fault, the operation, and optionally `refused` to fault only where the
// reference refuses the request (so that a test's accepted calls go through and its refusals meet the fault).
// harness/self/testee-faults.test.ts runs conformance files against it: the fault is charged to that operation alone.
import { createReferenceAdapter } from '../../adapter/reference.ts';
import { respond } from '../../adapter/respond.ts';
import type { CborInput, CborMap } from '../../../impl/cbor/index.ts';
import { encodeFrame, FrameReader } from '../../protocol/framing.ts';

const [fault, faultyOp, when] = process.argv.slice(2);
if (!['hang', 'exit', 'twice', 'late', 'wrong-seq'].includes(fault ?? '') || !faultyOp || (when !== undefined && when !== 'refused')) {
  process.stderr.write('fault-main: hang|exit|twice|late|wrong-seq <op> [refused]\n');
  process.exit(2);
}

const reference = createReferenceAdapter();
const reader = new FrameReader();
process.stdin.on('data', (chunk: Buffer) => {
  for (const req of reader.push(new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength))) {
    const request = req as CborMap;
    const response: CborInput = respond(reference, request);
    const refused = typeof response === 'object' && response !== null && 'error' in response && response.error !== undefined;
    const faulty = request.get('op') === faultyOp && (when !== 'refused' || refused);
    if (!faulty) {
      process.stdout.write(encodeFrame(response));
      continue;
    }
    if (fault === 'hang') continue; // never answers: the driver's timeout kills it
    if (fault === 'exit') process.exit(3);
    if (fault === 'wrong-seq') {
      process.stdout.write(encodeFrame({ ...(response as Record<string, CborInput>), seq: Number(request.get('seq')) + 1000 }));
      continue;
    }
    const frame = encodeFrame(response);
    if (fault === 'twice') process.stdout.write(Buffer.concat([frame, frame]));
    else {
      process.stdout.write(frame);
      setTimeout(() => process.stdout.write(frame), 300);
    }
  }
});
process.stdin.on('end', () => process.exit(0));
