// How the typed client (harness/implementation.ts) writes its arguments and reads its answers: integers as bigint,
// maps as objects, optional fields left out, and the argument shapes several operations share.
import type { CborInput, CborMap, CborValue } from '../../impl/cbor/index.ts';
import type { DecideFields, DecisionResult, FrameFields, LabelFields, Minted } from '../implementation.ts';

/** An unsigned integer as the protocol carries it (a number, or a bigint past 2^53), as a bigint. */
export const U = (v: CborValue | undefined): bigint => (typeof v === 'bigint' ? v : BigInt(v as number));

/** A CBOR value as plain values: maps as objects, integers as bigint. */
export function plain(v: CborValue): unknown {
  if (v instanceof Map) return Object.fromEntries([...v].map(([k, x]) => [String(k), plain(x)]));
  if (Array.isArray(v)) return v.map(plain);
  if (typeof v === 'number') return BigInt(v);
  return v;
}

/** The fields of `o` that are set. */
export const omitUndef = (o: Record<string, unknown>): Record<string, CborInput> =>
  Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Record<string, CborInput>;

/** A decision request's fields as an operation takes them: the frame, chain, caller, cost, clock and (jcp §4.10) the flow label, absent fields left out. */
export function requestArgs(d: Pick<DecideFields, 'frame' | 'chain' | 'caller' | 'cost' | 'now_s' | 'label'>): Record<string, unknown> {
  return { frame: omitUndef({ ...d.frame }), chain: [...d.chain], caller: d.caller, cost: omitUndef({ ...d.cost }), now_s: d.now_s, label: labelArg(d.label) };
}

/** jcp §4.8 / §4.10: a decision's arguments at `point`, with its money cost where priced; shared by point.decide and point.authorize. */
export function decideArgs(point: string, d: DecideFields): Record<string, unknown> {
  return { point, ...requestArgs(d), cost_funds: d.cost_funds === undefined ? undefined : { ...d.cost_funds } };
}

/** A decision as answered: its verdict, deny reason and receipt. */
export function decisionResult(r: CborMap): DecisionResult {
  const reason = r.get('deny_reason');
  return { verdict: r.get('verdict') as 'allow' | 'deny', ...(typeof reason === 'string' ? { deny_reason: reason } : {}), receipt: r.get('receipt') as Uint8Array };
}

/** A minted grant as answered. */
export function minted(r: CborMap): Minted {
  return { signed_grant: r.get('signed_grant') as Uint8Array, grant_id: r.get('grant_id') as string };
}

/** A frame map as plain fields. */
export function plainFrame(m: CborMap): FrameFields {
  return Object.fromEntries([...m].map(([k, v]) => [String(k), v])) as unknown as FrameFields;
}

/** jcp §4.10: a flow label as sent. */
export const labelArg = (l: LabelFields | undefined) =>
  l === undefined ? undefined : { integrity: l.integrity, origins: l.origins === 'any' ? 'any' : [...l.origins], readers: l.readers === 'all' ? 'all' : [...l.readers] };

/** JSON crosses the protocol as text: a string is sent as it is (so a test can send exact bytes), anything else stringified. */
export function jsonText(v: unknown): string {
  return typeof v === 'string' ? v : JSON.stringify(v);
}
