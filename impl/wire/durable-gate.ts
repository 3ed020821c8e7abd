// jcp §11 "What the endpoint holds survives it": the wire endpoint over impl/durable's point, which records each
// request before deciding it and, on restart, replays the record (so a repeat still gets its first response).
import { JcpError } from '../errors.ts';
import { defaultEd25519, type Ed25519, type KeyPair } from '../identity/ed25519.ts';
import type { DurablePoint } from '../durable/point.ts';
import { sealWireRefusal, type WireGate } from './server.ts';

/**
 * The line an endpoint logs when opening its record cut a torn final entry away (jcp §4.11: what the record lost is
 * said, never silent), naming the record, where, how much and what of it could be read; undefined when there was none.
 */
export function tornTailLine(point: DurablePoint): string | undefined {
  const t = point.tornTail;
  return t && `jcp/1 endpoint: record ${point.path}: ${t.summary}`;
}

/**
 * A {@link WireGate} over a durable point. `steward` must be the key the point seals with (its refusals are sealed by
 * the wire under the same steward). A request the point could not record reaches the server as ERR_WIRE_UNRECORDED,
 * which the server answers deny unrecorded, sealed but debiting nothing and remembered nowhere. `log`, when given, is
 * told once, here, of a torn tail the point's open cut away ({@link tornTailLine}).
 */
export function durableWireGate(point: DurablePoint, steward: KeyPair, backend: Ed25519 = defaultEd25519(), log?: (line: string) => void): WireGate {
  if (steward.did !== point.steward) throw new JcpError('ERR_BAD_ARGUMENT', `the sealing key ${steward.did} is not the durable point's steward ${point.steward}`);
  const torn = tornTailLine(point);
  if (torn !== undefined && log) log(torn);
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
