// The in-process driver: the reference adapter called directly, each request and response still passed through
// canonical CBOR and the protocol schema, so the in-process run checks exactly what a testee run checks.
import { decodeCanonical, encodeCanonical, type CborInput, type CborMap } from '../../impl/cbor/index.ts';
import { createReferenceAdapter } from '../adapter/reference.ts';
import { respond } from '../adapter/respond.ts';
import { readHello, TesteeFailure, validateResponse, type TesteeInfo, type Transport } from '../implementation.ts';
import { PROTOCOL_VERSION } from '../protocol/schema.ts';

/** A transport to the reference implementation in this process. */
export function inProcessTransport(): Transport {
  const adapter = createReferenceAdapter();
  let seq = 0;
  let info: TesteeInfo | undefined;
  const exchange = (op: string, args: CborInput): CborMap => {
    const s = ++seq;
    const request = decodeCanonical(encodeCanonical({ seq: s, op, args })) as CborMap;
    let answer;
    try {
      answer = respond(adapter, request);
    } catch (e) {
      // what would end a testee process (an error the adapter does not map to a code) is graded the same here
      throw new TesteeFailure('crash', `the reference adapter threw on ${op}: ${e instanceof Error ? e.message : String(e)}`);
    }
    const response = decodeCanonical(encodeCanonical(answer)) as CborMap;
    const problems = validateResponse(op, s, response);
    if (problems.length) throw new TesteeFailure('protocol', `the reference broke the protocol on ${op}: ${problems.join('; ')}`);
    return response;
  };
  return {
    description: 'in-process reference',
    async hello() {
      info ??= readHello(exchange('hello', { protocol: PROTOCOL_VERSION, suite: 'jcp-conformance' }).get('ok'));
      return info;
    },
    async request(op, args) {
      return exchange(op, args);
    },
    async close() {},
  };
}
