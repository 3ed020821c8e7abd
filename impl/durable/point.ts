// jcp §4.11 "Durable spend: a restart is not a fresh budget", §8.1 and §11 "A request is decided once": a durable
// enforcement point. It wraps the in-memory gate of impl/jcp/enforcement-point.ts with a durable decision record
// (record.ts) held by one writer (lock.ts, C26):
//   - every decision is appended and fsync'd BEFORE decide() returns it, so no action runs on an unrecorded decision;
//   - on open, the spend (and the revocations, and the remembered responses) are re-established by replaying the
//     recorded requests through a fresh gate, each at the time it was decided, before anything new is decided (the
//     RECOMMENDED replay, not a stored total); a re-decision whose receipt differs from the recorded one is an error;
//   - an allowed decision recorded with no recorded outcome is surfaced as unresolved, naming the holder that held it:
//     never retried, never reported as completed or failed, its energy still debited.
// Reading taken of "record each request it admits before deciding it" (§11): the gate computes the decision in memory,
// but nothing of it is released — returned, acted on, remembered — until its entry (request, verdict, receipt,
// response) is fsync'd. If the append fails, the in-memory gate is rebuilt from the record, so a decision that could
// not be recorded leaves no debit anywhere, and the request is denied "unrecorded" (§11) without a receipt.
import { bytesEqual, toHex } from '../bytes.ts';
import { decodeCanonical, encodeCanonical, type CborValue } from '../cbor/index.ts';
import { JcpError, isJcpError } from '../errors.ts';
import { defaultEd25519, keyPairFromSeed, type Ed25519, type KeyPair } from '../identity/ed25519.ts';
import type { DecisionRequest } from '../jcp/decide.ts';
import { createEnforcementPoint, type Decision, type EnforcementPoint } from '../jcp/enforcement-point.ts';
import { grantId } from '../jcp/grant.ts';
import { verifyRevocationAuthority } from '../jcp/revocation.ts';
import type { ContentId, Did, Grant, SignedGrant, SignedRevocation } from '../jcp/types.ts';
import { entryToCbor, parseEntry, type DecisionEntry, type Outcome, type RecordEntry } from './entry.ts';
import { platformExclusivity, type Exclusivity } from './lock.ts';
import { openRecord, type DurableRecord, type RecordIo, type TornTail } from './record.ts';

/** How to open a durable enforcement point. */
export interface DurablePointOptions {
  /** The record file (created when nothing exists at the path). */
  readonly path: string;
  /**
   * Start a new record where the file holds no record header (empty, or cut below its header) or only its anchor is
   * left; without it such a record is refused ERR_RECORD_CORRUPT, because a record that lost its content is not a
   * fresh budget (jcp §4.11).
   */
  readonly newRecord?: boolean;
  /** The steward that seals receipts: a key pair, or its 32-byte seed. */
  readonly steward: KeyPair | Uint8Array;
  /** Root-issuer keys honoured per resource (jcp §7); must be the same on every open of one record, or replay mismatches. */
  readonly trustRoots?: Readonly<Record<ContentId, readonly Did[]>>;
  /** The party holding the record (written beside it, and into each decision entry as the party running its action). */
  readonly holder: string;
  readonly backend?: Ed25519;
  /** Called with a torn final entry found on open, before it is truncated away. */
  readonly onTornTail?: (t: TornEntry) => void;
  /** The exclusive claim (default flock(2) via koffi); tests stand in a platform without one. */
  readonly exclusivity?: Exclusivity;
  /** File operations of append; tests make them fail. */
  readonly io?: RecordIo;
}

/**
 * A torn final entry found on open and cut away: never acknowledged (an append is anchored before it returns, and only
 * bytes past the anchored end are taken for a torn tail), so no decision anyone was told of is lost with it.
 */
export interface TornEntry extends TornTail {
  /** The entry's kind (decision, outcome, revocation), where the torn bytes hold it whole. */
  readonly kind?: string;
  /** The decision's request key (jcp §11, the hash of the signed request), where the torn bytes hold it whole. */
  readonly requestKey?: Uint8Array;
  /** One line: where, how much, why, and what of the entry could be read. */
  readonly summary: string;
}

/** What a torn tail held, as far as its bytes can be read. */
export function describeTornTail(t: TornTail): TornEntry {
  const kind = t.fields.get('kind');
  const key: CborValue | undefined = t.fields.get('key');
  const requestKey = key instanceof Uint8Array && key.length === 32 ? key : undefined;
  const k = typeof kind === 'string' ? kind : undefined;
  const read = requestKey
    ? `a decision on request key ${toHex(requestKey)}`
    : k
      ? `a ${k} entry${k === 'decision' ? ' with no request key' : ''}`
      : t.fields.size > 0
        ? 'an entry whose kind was not written whole'
        : 'the torn bytes cannot be decoded (no field of the entry was written whole)';
  const summary = `a torn entry of ${t.length} byte(s) at byte ${t.offset}${t.declared !== undefined ? ` (of ${t.declared} declared)` : ''} was cut away, never acknowledged: ${t.why}; ${read}`;
  return Object.freeze({ ...t, ...(k ? { kind: k } : {}), ...(requestKey ? { requestKey: requestKey.slice() } : {}), summary });
}

/** A decision that is in the record: its entry id names it to {@link DurablePoint.complete}. */
export type RecordedDecision = Decision & { readonly recorded: true; readonly entryId: number };

/** A request denied because it could not be recorded (jcp §11 "denied unrecorded"); nothing was debited or sealed. */
export interface UnrecordedDenial {
  readonly recorded: false;
  readonly verdict: 'deny';
  readonly deny_reason: 'unrecorded';
  readonly why: string;
  readonly debited: readonly ContentId[];
}

export type DurableDecision = RecordedDecision | UnrecordedDenial;

/** What {@link DurablePoint.decideOnce} did. */
export type OnceResult =
  | { readonly status: 'decided'; readonly response: Uint8Array; readonly decision: RecordedDecision }
  | { readonly status: 'repeated'; readonly response: Uint8Array; readonly entryId: number }
  | { readonly status: 'unrecorded'; readonly deny_reason: 'unrecorded'; readonly why: string };

/**
 * Where a recorded decision's action stands. `in-flight`: allowed in this run, no outcome yet. `unresolved`: allowed
 * before this open and no outcome was recorded — whether the action took effect is not knowable from the record.
 */
export type ActionStatus = 'denied' | 'in-flight' | 'unresolved' | 'completed' | 'failed';

/** An allowed decision found on open with no recorded outcome (jcp §4.11), naming the party that held it. */
export interface Unresolved {
  readonly entryId: number;
  /** The holder that made the decision and was running its action. */
  readonly holder: string;
  readonly grant_id: ContentId;
  readonly action: string;
  readonly payload_hash: ContentId;
  readonly cost_uj: bigint;
  readonly receipt: Uint8Array;
}

/** A durable enforcement point (jcp §4.11): the gate of jcp §7 over a durable, single-writer record. */
export interface DurablePoint {
  readonly steward: Did;
  readonly holder: string;
  readonly path: string;
  /**
   * jcp §4.11 "An implementation that instead proceeds MUST make that fact checkable at run time": this one never
   * proceeds without exclusivity, so an open point always holds its record exclusively; `exclusivity` names how.
   */
  readonly exclusive: true;
  readonly exclusivity: string;
  /** The torn final entry found, reported and removed on open, if any. */
  readonly tornTail: TornEntry | undefined;
  /** How many recorded entries were replayed on open. */
  readonly replayed: number;
  /** The allowed decisions found on open with no outcome, still unsettled. */
  unresolved(): readonly Unresolved[];
  /** Where a recorded decision's action stands; ERR_BAD_ARGUMENT for an id that is not a recorded decision. */
  status(entryId: number): ActionStatus;
  /** Decides; returns only after the decision is recorded and fsync'd. A decision that cannot be recorded is denied unrecorded. */
  decide(req: DecisionRequest): DurableDecision;
  /**
   * jcp §11 "A request is decided once": when `requestKey` (32 bytes, e.g. the hash of the signed request) was recorded —
   * in this run or before a restart — returns the first response bytes unchanged, without deciding, debiting or
   * recording. Otherwise decides, encodes the response, records both, and returns it.
   */
  decideOnce(requestKey: Uint8Array, req: DecisionRequest, encodeResponse: (d: RecordedDecision) => Uint8Array): OnceResult;
  /**
   * Records how an allowed decision's action ended — by the party running it, or (for an unresolved one) by the
   * operator settling it. ERR_RECORD_NOT_PENDING unless the decision is in-flight or unresolved; ERR_RECORD_IO when
   * the outcome could not be recorded (the status is then unchanged).
   */
  complete(entryId: number, outcome: Outcome, note?: string): void;
  /** Verifies a revocation's authority, records it, then honours it (jcp §11: "each revocation it honours before applying it"). */
  revoke(revocation: SignedRevocation, grant: SignedGrant): void;
  isRevoked(id: ContentId): boolean;
  spent(id: ContentId): bigint;
  remaining(g: Grant): bigint;
  /** Releases the record. Later calls throw ERR_RECORD_CLOSED. */
  close(): void;
}

interface State {
  ep: EnforcementPoint;
  /** status per decision entry id */
  readonly statuses: Map<number, ActionStatus>;
  /** request key (hex) → the entry and its first response */
  readonly keys: Map<string, { readonly id: number; readonly response: Uint8Array }>;
}

function freshState(mk: () => EnforcementPoint): State {
  return { ep: mk(), statuses: new Map(), keys: new Map() };
}

function mismatch(id: number, why: string): JcpError {
  return new JcpError('ERR_RECORD_REPLAY_MISMATCH', `replaying record entry #${id}: ${why}`, { entry: id });
}

/** Applies one recorded entry to the state — the replay step, also used for each live append. */
function apply(s: State, e: RecordEntry, id: number, replaying: boolean, recorded?: Decision): void {
  switch (e.kind) {
    case 'decision': {
      if ((e.key === undefined) !== (e.response === undefined)) throw mismatch(id, 'a request key is recorded without its response, or a response without its key');
      // the recorded request through the gate, at the time it was decided (jcp §11)
      const d = recorded ?? s.ep.decide(e.request);
      if (d.verdict !== e.verdict) throw mismatch(id, `the gate now decides ${d.verdict}, the record says ${e.verdict}`);
      if (!bytesEqual(d.receipt, e.receipt)) throw mismatch(id, 'the re-decided receipt differs from the recorded one (another steward, other trust roots, or a tampered entry)');
      s.statuses.set(id, e.verdict === 'deny' ? 'denied' : replaying ? 'unresolved' : 'in-flight');
      if (e.key && e.response) s.keys.set(toHex(e.key), { id, response: e.response });
      return;
    }
    case 'outcome': {
      const st = s.statuses.get(e.entry);
      if (st !== 'unresolved' && st !== 'in-flight') throw mismatch(id, `an outcome names entry #${e.entry}, which is ${st ?? 'not an allowed decision'}`);
      s.statuses.set(e.entry, e.outcome);
      return;
    }
    case 'revocation':
      try {
        s.ep.revoke(e.revocation, e.grant);
      } catch (x) {
        throw mismatch(id, `a recorded revocation is not honoured (${isJcpError(x) ? x.code : String(x)})`);
      }
      return;
  }
}

function parseRecorded(record: DurableRecord): RecordEntry[] {
  return record.entries.map((v, id) => {
    try {
      return parseEntry(v, id);
    } catch (x) {
      if (isJcpError(x) && x.code === 'ERR_RECORD_CORRUPT') throw x;
      throw new JcpError('ERR_RECORD_CORRUPT', `record entry #${id} verifies but does not parse (${isJcpError(x) ? x.message : String(x)})`, { entry: id }, { cause: x });
    }
  });
}

/**
 * Opens a durable enforcement point on the record at `opts.path`: takes the record exclusively (ERR_RECORD_LOCKED
 * naming the holder, ERR_RECORD_NO_EXCLUSIVITY where the platform has no exclusivity, ERR_RECORD_IO for a path that
 * cannot hold a record), reports and removes a torn tail (one never acknowledged: see ./FORMAT.md), replays every recorded entry through a fresh gate (ERR_RECORD_REPLAY_MISMATCH when a re-decision differs,
 * ERR_RECORD_CORRUPT for a damaged record), and only then returns the point. On a throw the record is released.
 */
export function openDurablePoint(opts: DurablePointOptions): DurablePoint {
  const backend = opts.backend ?? defaultEd25519();
  const steward = opts.steward instanceof Uint8Array ? keyPairFromSeed(opts.steward, backend) : opts.steward;
  const mk = (): EnforcementPoint => createEnforcementPoint({ steward, backend, ...(opts.trustRoots ? { trustRoots: opts.trustRoots } : {}) });
  const onTorn = opts.onTornTail;
  const record = openRecord({
    path: opts.path,
    holder: opts.holder,
    ...(opts.newRecord ? { newRecord: true } : {}),
    ...(onTorn ? { onTornTail: (t: TornTail) => onTorn(describeTornTail(t)) } : {}),
    ...(opts.exclusivity ? { exclusivity: opts.exclusivity } : {}),
    ...(opts.io ? { io: opts.io } : {}),
  });
  const log: RecordEntry[] = [];
  let s: State;
  try {
    log.push(...parseRecorded(record));
    s = replay(log);
  } catch (x) {
    record.close();
    throw x;
  }
  const replayed = log.length;
  const holder = opts.holder;

  function replay(entries: readonly RecordEntry[]): State {
    const st = freshState(mk);
    entries.forEach((e, id) => apply(st, e, id, true));
    return st;
  }

  /** After a failed append: the gate may hold a debit the record does not, so rebuild it from the record. */
  function rebuild(): void {
    const st = replay(log);
    // statuses of this run's entries were 'in-flight', which replay marks 'unresolved'; keep what this run knew
    for (const [id, v] of s.statuses) if (v === 'in-flight') st.statuses.set(id, 'in-flight');
    s = st;
  }

  function open(): void {
    if (record.closed) throw new JcpError('ERR_RECORD_CLOSED', `the durable point on ${opts.path} is closed`);
  }

  function recordDecision(req: DecisionRequest, key?: Uint8Array, encode?: (d: RecordedDecision) => Uint8Array): { d: RecordedDecision; response?: Uint8Array } | UnrecordedDenial {
    const d = s.ep.decide(req); // bad input throws here, before any state changes
    const id = record.entries.length;
    const rd: RecordedDecision = Object.freeze({ ...d, recorded: true as const, entryId: id });
    let entry: DecisionEntry;
    try {
      const response = encode ? encode(rd) : undefined;
      if (encode !== undefined && !(response instanceof Uint8Array)) throw new JcpError('ERR_BAD_ARGUMENT', 'encodeResponse must return bytes');
      entry = { kind: 'decision', holder, request: req, verdict: d.verdict, receipt: d.receipt, ...(key && response ? { key: key.slice(), response } : {}) };
      record.append(entryToCbor(entry));
    } catch (x) {
      rebuild();
      if (isJcpError(x) && (x.code === 'ERR_RECORD_IO' || x.code === 'ERR_RECORD_CLOSED')) {
        // jcp §11: "A request it cannot record is denied unrecorded."
        return Object.freeze({ recorded: false as const, verdict: 'deny' as const, deny_reason: 'unrecorded' as const, why: x.message, debited: [] });
      }
      throw x;
    }
    log.push(entry);
    apply(s, entry, id, false, d);
    return entry.response ? { d: rd, response: entry.response } : { d: rd };
  }

  return Object.freeze({
    steward: steward.did,
    holder,
    path: opts.path,
    exclusive: true as const,
    exclusivity: (opts.exclusivity ?? platformExclusivity()).mechanism,
    tornTail: record.tornTail && describeTornTail(record.tornTail),
    replayed,
    unresolved(): readonly Unresolved[] {
      const out: Unresolved[] = [];
      for (const [id, st] of s.statuses) {
        if (st !== 'unresolved') continue;
        const e = log[id] as DecisionEntry;
        out.push(Object.freeze({
          entryId: id,
          holder: e.holder,
          grant_id: grantId(e.request.chain[e.request.chain.length - 1]!.grant),
          action: e.request.frame.action,
          payload_hash: e.request.frame.payload_hash,
          cost_uj: e.request.cost.uj,
          receipt: e.receipt,
        }));
      }
      return out;
    },
    status(entryId: number): ActionStatus {
      const st = s.statuses.get(entryId);
      if (st === undefined) throw new JcpError('ERR_BAD_ARGUMENT', `entry #${String(entryId)} is not a recorded decision`);
      return st;
    },
    decide(req: DecisionRequest): DurableDecision {
      open();
      const r = recordDecision(req);
      return 'd' in r ? r.d : r;
    },
    decideOnce(requestKey: Uint8Array, req: DecisionRequest, encodeResponse: (d: RecordedDecision) => Uint8Array): OnceResult {
      open();
      if (!(requestKey instanceof Uint8Array) || requestKey.length !== 32) throw new JcpError('ERR_BAD_ARGUMENT', 'a request key is 32 bytes');
      if (typeof encodeResponse !== 'function') throw new JcpError('ERR_BAD_ARGUMENT', 'decideOnce needs an encodeResponse function');
      const seen = s.keys.get(toHex(requestKey));
      // jcp §11: "A request presented again MUST get that same response … and MUST NOT be decided, debited or recorded a second time"
      if (seen) return Object.freeze({ status: 'repeated' as const, response: seen.response.slice(), entryId: seen.id });
      const r = recordDecision(req, requestKey, encodeResponse);
      if (!('d' in r)) return Object.freeze({ status: 'unrecorded' as const, deny_reason: 'unrecorded' as const, why: r.why });
      return Object.freeze({ status: 'decided' as const, response: r.response!.slice(), decision: r.d });
    },
    complete(entryId: number, outcome: Outcome, note?: string): void {
      open();
      if (outcome !== 'completed' && outcome !== 'failed') throw new JcpError('ERR_BAD_ARGUMENT', 'an outcome is completed or failed');
      if (note !== undefined && typeof note !== 'string') throw new JcpError('ERR_BAD_ARGUMENT', 'a note is text');
      const st = s.statuses.get(entryId);
      if (st !== 'in-flight' && st !== 'unresolved') {
        throw new JcpError('ERR_RECORD_NOT_PENDING', `entry #${String(entryId)} is ${st ?? 'not a recorded decision'}, not an allowed decision awaiting its outcome`, { entry: entryId });
      }
      const e: RecordEntry = { kind: 'outcome', entry: entryId, outcome, ...(note !== undefined ? { note } : {}) };
      record.append(entryToCbor(e)); // ERR_RECORD_IO propagates; nothing changed
      log.push(e);
      apply(s, e, record.entries.length - 1, false);
    },
    revoke(revocation: SignedRevocation, grant: SignedGrant): void {
      open();
      if (typeof grant !== 'object' || grant === null || typeof grant.grant !== 'object' || typeof revocation !== 'object' || revocation === null || typeof revocation.revocation !== 'object') {
        throw new JcpError('ERR_BAD_ARGUMENT', 'revoke needs a signed revocation and the signed grant it names');
      }
      // verified, and read back as replay reads it, before it is recorded, so the record never holds a revocation
      // replay would refuse
      verifyRevocationAuthority(revocation, grant.grant, backend);
      const e: RecordEntry = { kind: 'revocation', revocation, grant };
      const cbor = entryToCbor(e);
      try {
        parseEntry(decodeCanonical(encodeCanonical(cbor)), record.entries.length);
      } catch (x) {
        throw new JcpError('ERR_BAD_ARGUMENT', `revoke: the revocation or its grant would not be read back from the record (${isJcpError(x) ? x.message : String(x)})`, undefined, { cause: x });
      }
      record.append(cbor);
      log.push(e);
      apply(s, e, record.entries.length - 1, false);
    },
    isRevoked: (id: ContentId) => s.ep.isRevoked(id),
    spent: (id: ContentId) => s.ep.spent(id),
    remaining: (g: Grant) => s.ep.remaining(g),
    close(): void {
      record.close();
    },
  });
}
