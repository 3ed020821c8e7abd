// Serves an adapter over a byte stream with the protocol's framing: read a frame, answer it, write a frame.
import type { Readable, Writable } from 'node:stream';
import type { CborMap } from '../../impl/cbor/index.ts';
import { encodeFrame, FrameReader } from '../protocol/framing.ts';
import { respond, type Adapter } from './respond.ts';

/** Answers every request frame from `input` on `output` until `input` ends. A malformed stream ends the server. */
export function serve(adapter: Adapter, input: Readable, output: Writable): Promise<void> {
  const reader = new FrameReader();
  return new Promise((resolve, reject) => {
    input.on('data', (chunk: Buffer) => {
      try {
        for (const req of reader.push(new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength))) {
          output.write(encodeFrame(respond(adapter, req as CborMap)));
        }
      } catch (e) {
        reject(e);
      }
    });
    input.on('end', () => resolve());
    input.on('error', reject);
  });
}
