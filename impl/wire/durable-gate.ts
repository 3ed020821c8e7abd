// jcp §11 "What the endpoint holds survives it": the wire endpoint over impl/durable's point, which records each
// request before deciding it and, on restart, replays the record (so a repeat still gets its first response).
import { JcpError } from '../errors.ts';
import { defaultEd25519, type Ed25519, type KeyPair } from '../identity/ed25519.ts';
import type { DurablePoint } from '../durable/point.ts';
import { sealWireRefusal, type WireGate } from './server.ts';

/**
 * A {@link WireGate} over a durable point. `steward` must be the key the point seals with (its refusals are sealed by
 * the wire under the same steward). A request the point could not record reaches the server as ERR_WIRE_UNRECORDED,
 * which the server answers deny unrecorded, sealed but debiting nothing and remembered nowhere.
 */
export function durableWireGate(point: DurablePoint, steward: KeyPair, backend: Ed25519 = defaultEd25519()): WireGate {
  if (steward.did !== point.steward) throw new JcpError('ERR_BAD_ARGUMENT', `the sealing key ${steward.did} is not the durable point's steward ${point.steward}`);
  return Object.freeze({
    steward: point.steward,
    decideOnce(key, req, encode) {
      const r = point.decideOnce(key, req, encode);
      // jcp §11: "A request it cannot record is denied unrecorded."
      if (r.status === 'unrecorded') throw new JcpError('ERR_WIRE_UNRECORDED', r.why);
      return { response: r.response };
    },
    sealRefusal: (req, reason) => sealWireRefusal(req, reason, steward, (g) => point.remaining(g), backend),
  } satisfies WireGate);
}
