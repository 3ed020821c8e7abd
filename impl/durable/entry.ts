// jcp §4.11, §8.1, §11: the entries of a durable decision record and their canonical CBOR shape.
// Shapes fixed here once (text-keyed maps named by the spec's field names, optional fields omitted, never null):
//   decision   {kind: "decision", holder, request: {frame, chain, caller, cost, now_s, cost_funds?, label?}, verdict, receipt: bstr,
//               key?: bstr(32), response?: bstr}
//   outcome    {kind: "outcome", entry: uint (the decision's entry id), outcome: "completed" | "failed", note?: text}
//   revocation {kind: "revocation", revocation: signed revocation, grant: signed grant}
// The request is what the gate decided (jcp §7), at the time it was decided, so replay re-decides it exactly.
import type { CborInput, CborValue } from '../cbor/index.ts';
import { isProvenance, type Cost } from '../energy/cost.ts';
import { JcpError } from '../errors.ts';
import { frameToCbor, labelToCbor, parseFrame, parseLabel, parseSignedGrant, parseSignedRevocation, signedGrantToCbor, signedRevocationToCbor } from '../jcp/codec.ts';
import type { DecisionRequest } from '../jcp/decide.ts';
import type { SignedGrant, SignedRevocation } from '../jcp/types.ts';

/** How an allowed action ended, as the party that ran it reports. */
export type Outcome = 'completed' | 'failed';

/** A recorded decision. */
export interface DecisionEntry {
  readonly kind: 'decision';
  readonly holder: string;
  readonly request: DecisionRequest;
  readonly verdict: 'allow' | 'deny';
  readonly receipt: Uint8Array;
  readonly key?: Uint8Array;
  readonly response?: Uint8Array;
}

/** A recorded outcome of an allowed decision's action. */
export interface OutcomeEntry {
  readonly kind: 'outcome';
  readonly entry: number;
  readonly outcome: Outcome;
  readonly note?: string;
}

/** A recorded revocation, honoured after it was recorded. */
export interface RevocationEntry {
  readonly kind: 'revocation';
  readonly revocation: SignedRevocation;
  readonly grant: SignedGrant;
}

export type RecordEntry = DecisionEntry | OutcomeEntry | RevocationEntry;

function costToCbor(c: Cost): CborInput {
  return { uj: c.uj, provenance: c.provenance, coverage: c.coverage };
}

/** The CBOR value of a decision request: everything the gate decides over (a price, jcp §4.8, and a label, §4.10, included). */
export function requestToCbor(r: DecisionRequest): CborInput {
  return {
    frame: frameToCbor(r.frame),
    chain: r.chain.map(signedGrantToCbor),
    caller: r.caller,
    cost: costToCbor(r.cost),
    now_s: r.now_s,
    cost_funds: r.cost_funds === undefined ? undefined : { currency: r.cost_funds.currency, minor: r.cost_funds.minor },
    label: r.label === undefined ? undefined : labelToCbor(r.label),
  };
}

/** The CBOR value of an entry. */
export function entryToCbor(e: RecordEntry): CborInput {
  switch (e.kind) {
    case 'decision':
      return { kind: e.kind, holder: e.holder, request: requestToCbor(e.request), verdict: e.verdict, receipt: e.receipt, key: e.key, response: e.response };
    case 'outcome':
      return { kind: e.kind, entry: BigInt(e.entry), outcome: e.outcome, note: e.note };
    case 'revocation':
      return { kind: e.kind, revocation: signedRevocationToCbor(e.revocation), grant: signedGrantToCbor(e.grant) };
  }
}

function bad(at: string, why: string): never {
  throw new JcpError('ERR_RECORD_CORRUPT', `record entry ${at}: ${why}`);
}

function asMap(v: CborValue | undefined, at: string, keys: readonly string[]): Map<CborValue, CborValue> {
  if (!(v instanceof Map)) bad(at, 'must be a map');
  for (const k of v.keys()) if (typeof k !== 'string' || !keys.includes(k)) bad(at, `has an unknown field ${String(k)}`);
  return v;
}

function text(m: Map<CborValue, CborValue>, k: string, at: string): string {
  const v = m.get(k);
  if (typeof v !== 'string') bad(`${at}.${k}`, 'must be text');
  return v;
}

function uint(m: Map<CborValue, CborValue>, k: string, at: string): bigint {
  const v = m.get(k);
  const b = typeof v === 'number' && Number.isInteger(v) ? BigInt(v) : v;
  if (typeof b !== 'bigint' || b < 0n) bad(`${at}.${k}`, 'must be an unsigned integer');
  return b;
}

function bytes(m: Map<CborValue, CborValue>, k: string, at: string, len?: number): Uint8Array {
  const v = m.get(k);
  if (!(v instanceof Uint8Array) || (len !== undefined && v.length !== len)) bad(`${at}.${k}`, `must be a byte string${len === undefined ? '' : ` of ${len} bytes`}`);
  return v;
}

function parseCost(v: CborValue | undefined, at: string): Cost {
  const m = asMap(v, at, ['uj', 'provenance', 'coverage']);
  const provenance = text(m, 'provenance', at);
  if (!isProvenance(provenance)) bad(`${at}.provenance`, 'must be HwShunt, ModelBased or Estimator');
  const c: { uj: bigint; provenance: Cost['provenance']; coverage?: 'Partial' } = { uj: uint(m, 'uj', at), provenance };
  if (m.has('coverage')) {
    if (m.get('coverage') !== 'Partial') bad(`${at}.coverage`, 'must be "Partial" when present');
    c.coverage = 'Partial';
  }
  return c;
}

/** A decision request from its CBOR value (as recorded). Throws ERR_RECORD_CORRUPT, or the codec's code for a bad frame or grant. */
export function parseRequest(v: CborValue | undefined, at = '$request'): DecisionRequest {
  const m = asMap(v, at, ['frame', 'chain', 'caller', 'cost', 'now_s', 'cost_funds', 'label']);
  const chain = m.get('chain');
  if (!Array.isArray(chain) || chain.length === 0) bad(`${at}.chain`, 'must be a non-empty array of signed grants');
  const req: { -readonly [K in keyof DecisionRequest]: DecisionRequest[K] } = {
    frame: parseFrame(m.get('frame') as CborValue, `${at}.frame`),
    chain: chain.map((g, i) => parseSignedGrant(g, `${at}.chain[${i}]`)),
    caller: text(m, 'caller', at),
    cost: parseCost(m.get('cost'), `${at}.cost`),
    now_s: uint(m, 'now_s', at),
  };
  if (m.has('cost_funds')) {
    const f = asMap(m.get('cost_funds'), `${at}.cost_funds`, ['currency', 'minor']);
    req.cost_funds = { currency: text(f, 'currency', `${at}.cost_funds`), minor: uint(f, 'minor', `${at}.cost_funds`) };
  }
  if (m.has('label')) req.label = parseLabel(m.get('label') as CborValue, `${at}.label`);
  return req;
}

/** An entry from its recorded CBOR value; throws ERR_RECORD_CORRUPT (or a codec code) naming what is wrong. */
export function parseEntry(v: CborValue, id: number): RecordEntry {
  const at = `#${id}`;
  if (!(v instanceof Map)) bad(at, 'must be a map');
  const kind = v.get('kind');
  if (kind === 'decision') {
    const m = asMap(v, at, ['kind', 'holder', 'request', 'verdict', 'receipt', 'key', 'response']);
    const verdict = text(m, 'verdict', at);
    if (verdict !== 'allow' && verdict !== 'deny') bad(`${at}.verdict`, 'must be allow or deny');
    return {
      kind,
      holder: text(m, 'holder', at),
      request: parseRequest(m.get('request'), `${at}.request`),
      verdict,
      receipt: bytes(m, 'receipt', at),
      ...(m.has('key') ? { key: bytes(m, 'key', at, 32) } : {}),
      ...(m.has('response') ? { response: bytes(m, 'response', at) } : {}),
    };
  }
  if (kind === 'outcome') {
    const m = asMap(v, at, ['kind', 'entry', 'outcome', 'note']);
    const outcome = text(m, 'outcome', at);
    if (outcome !== 'completed' && outcome !== 'failed') bad(`${at}.outcome`, 'must be completed or failed');
    const entry = uint(m, 'entry', at);
    if (entry >= BigInt(id)) bad(`${at}.entry`, 'must name an earlier entry');
    return { kind, entry: Number(entry), outcome, ...(m.has('note') ? { note: text(m, 'note', at) } : {}) };
  }
  if (kind === 'revocation') {
    const m = asMap(v, at, ['kind', 'revocation', 'grant']);
    return {
      kind,
      revocation: parseSignedRevocation(m.get('revocation') as CborValue, `${at}.revocation`),
      grant: parseSignedGrant(m.get('grant') as CborValue, `${at}.grant`),
    };
  }
  return bad(`${at}.kind`, `unknown entry kind ${String(kind)}`);
}
