// One request in, one response out: how an adapter's answer (or refusal) becomes a protocol response map.
import type { CborInput, CborMap } from '../../impl/cbor/index.ts';
import { isJcpError } from '../../impl/errors.ts';
import { Unimplemented } from './reference.ts';

/** An adapter: answers one operation, throwing JcpError for a refusal and Unimplemented for an unknown op. */
export interface Adapter {
  handle(op: string, args: CborMap): CborInput;
}

/** The response to `request` ({seq, op, args}) from `adapter`. Anything else thrown is a bug of the adapter: rethrown. */
export function respond(adapter: Adapter, request: CborMap): CborInput {
  const seq = request.get('seq') as number;
  const op = request.get('op');
  const args = request.get('args');
  if (typeof op !== 'string' || !(args instanceof Map)) {
    return { seq, error: { code: 'ERR_BAD_ARGUMENT', message: 'a request is {seq, op: text, args: map}' } };
  }
  try {
    return { seq, ok: adapter.handle(op, args) };
  } catch (e) {
    if (isJcpError(e)) return { seq, error: { code: e.code, message: e.message } };
    if (e instanceof Unimplemented) return { seq, unimplemented: e.message };
    throw e;
  }
}
