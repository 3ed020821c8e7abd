// jouleclaw §17 the run journal: a hash chain of RunEvents (RunStarted, NodeDispatched, NodeCompleted,
// NodeInterrupted, RerunApproved, RunFailed, HandoffRecorded); §17.2 a consumer verifies the chain before trusting a
// handoff; §17.3 a node in flight survives the process: never dispatched twice, marked interrupted after a restart
// before anything is dispatched, and a `never` node held until settled. The run-journal form of jcp §4.11.
//
// Byte shapes the suite fixes (the spec names the events, not their bytes):
//   entry      = canonical det-CBOR of { seq: uint, ? prev: hex, event: { event: tstr, … }, hash: hex }
//   entry.hash = hex BLAKE3 of the canonical det-CBOR of the entry without its hash (so additive fields are chained too)
//   prev       = the previous entry's hash, omitted on entry 0, whose event is RunStarted { run_id, nodes: [{ node_id, replay }] }
// Readings taken: "settled by recording what it did" is NodeCompleted on the held node; an interrupted `never` node
// approved for a rerun (RerunApproved { node_id, approved_by }) is ready again; while a reopened run has nodes in
// flight and is not recovered, every dispatch is refused (ERR_RUN_NOT_RECOVERED) and in-flight nodes are never ready.
import { decodeCanonical, encodeCanonical, type CborInput, type CborMap, type CborValue } from '../cbor/index.ts';
import { toHex } from '../bytes.ts';
import { JcpError, isJcpError, type JcpErrorCode } from '../errors.ts';
import { blake3 } from '../hash/blake3.ts';
import { handoffToCbor, makeHandoff, parseHandoff, type HandoffInput, type WorkerHandoff } from './handoff.ts';

/** jouleclaw §17.3 a node's replay rule; `never` is the default. */
export type Replay = 'safe' | 'never';

/** Where a node stands. */
export type NodeStatus = 'pending' | 'in_flight' | 'completed' | 'interrupted' | 'approved';

/** A node's state as the journal establishes it. */
export interface NodeState {
  readonly replay: Replay;
  readonly status: NodeStatus;
  readonly attempts: number;
  /** Energy recorded for the node's attempts: completed figures, and interrupted attempts' lower bounds. */
  readonly energy_uj: bigint;
}

/** The run's state at a glance. */
export interface RunView {
  readonly ready: readonly string[];
  readonly in_flight: readonly string[];
  readonly held: readonly string[];
  readonly completed: readonly string[];
  readonly failed: boolean;
  readonly recovered: boolean;
}

/** A live run writing its journal. */
export interface Run {
  readonly run_id: string;
  /** jouleclaw §17.3: records NodeDispatched before the node's work begins. */
  dispatch(node_id: string): void;
  /** Records NodeCompleted with the energy the attempt spent (settles a held node too). */
  complete(node_id: string, energy_uj: bigint): void;
  /** jouleclaw §17.3: marks every node in flight interrupted, with the energy observed so far as a lower bound. */
  recover(observed_uj?: ReadonlyMap<string, bigint>): string[];
  /** Records RerunApproved for a held node, naming who gave it. */
  approveRerun(node_id: string, approved_by: string): void;
  /** Records RunFailed: nothing is dispatched after it. */
  fail(reason: string): void;
  /** jouleclaw §17.1 records a handoff (HandoffRecorded), its command hashes computed. */
  recordHandoff(h: HandoffInput): WorkerHandoff;
  node(node_id: string): NodeState | undefined;
  view(): RunView;
  /** The journal: each entry's canonical bytes, in order. */
  entries(): Uint8Array[];
  /** The handoffs recorded so far, in order. */
  handoffs(): WorkerHandoff[];
}

const J = 'ERR_JOURNAL_MALFORMED' as const;

interface State {
  run_id: string;
  nodes: Map<string, { replay: Replay; status: NodeStatus; attempts: number; energy_uj: bigint }>;
  failed: boolean;
  handoffs: WorkerHandoff[];
}

function str(m: CborMap, k: string, code: JcpErrorCode): string {
  const v = m.get(k);
  if (typeof v !== 'string' || v === '') throw new JcpError(code, `${k} must be non-empty text`);
  return v;
}
function uintOf(m: CborMap, k: string, code: JcpErrorCode): bigint {
  const v = m.get(k);
  if ((typeof v === 'number' && Number.isSafeInteger(v) && v >= 0) || (typeof v === 'bigint' && v >= 0n)) return BigInt(v);
  throw new JcpError(code, `${k} must be an unsigned integer`);
}

/** Applies one event to the state, refusing a transition the rules forbid with `code` (live: the specific code). */
function apply(s: State, ev: CborMap, live: boolean): void {
  const kind = ev.get('event');
  const code = (c: JcpErrorCode): JcpErrorCode => (live ? c : J);
  const nodeOf = (): { id: string; n: { replay: Replay; status: NodeStatus; attempts: number; energy_uj: bigint } } => {
    const id = str(ev, 'node_id', J);
    const n = s.nodes.get(id);
    if (!n) throw new JcpError(code('ERR_NODE_NOT_DISPATCHABLE'), `node ${id} is not a node of run ${s.run_id}`);
    return { id, n };
  };
  switch (kind) {
    case 'NodeDispatched': {
      const { id, n } = nodeOf();
      if (s.failed) throw new JcpError(code('ERR_NODE_NOT_DISPATCHABLE'), `run ${s.run_id} has failed; ${id} is not dispatched`);
      // jouleclaw §17.3: "A dispatched node that is not yet recorded is in flight, and MUST NOT be dispatched again."
      if (n.status === 'in_flight') throw new JcpError(code('ERR_NODE_IN_FLIGHT'), `node ${id} is in flight (attempt ${n.attempts}) and is not dispatched again`);
      if (n.status === 'completed') throw new JcpError(code('ERR_NODE_NOT_DISPATCHABLE'), `node ${id} has completed`);
      // jouleclaw §17.3: an interrupted never node "MUST NOT run again until it is settled"
      if (n.status === 'interrupted' && n.replay === 'never') {
        throw new JcpError(code('ERR_NODE_HELD'), `node ${id} (replay: never) was interrupted and is held until settled: record what it did, approve a rerun, or fail the run`);
      }
      n.status = 'in_flight';
      n.attempts += 1;
      return;
    }
    case 'NodeCompleted': {
      const { id, n } = nodeOf();
      if (n.status !== 'in_flight' && !(n.status === 'interrupted' && n.replay === 'never')) {
        throw new JcpError(code('ERR_BAD_ARGUMENT'), `node ${id} is ${n.status}; only a node in flight or held can be recorded complete`);
      }
      n.energy_uj += uintOf(ev, 'energy_uj', code('ERR_BAD_ARGUMENT'));
      n.status = 'completed';
      return;
    }
    case 'NodeInterrupted': {
      const { id, n } = nodeOf();
      if (n.status !== 'in_flight') throw new JcpError(J, `node ${id} is ${n.status}, not in flight, and cannot be interrupted`);
      // jouleclaw §17.3: "keeping the energy observed for the attempt as a lower bound on what it spent"
      n.energy_uj += uintOf(ev, 'energy_uj', J);
      n.status = 'interrupted';
      return;
    }
    case 'RerunApproved': {
      const { id, n } = nodeOf();
      // an approval "that names who gave it"
      str(ev, 'approved_by', code('ERR_BAD_ARGUMENT'));
      if (n.status !== 'interrupted' || n.replay !== 'never') throw new JcpError(code('ERR_BAD_ARGUMENT'), `node ${id} is not held (${n.status}, replay ${n.replay}); there is nothing to approve`);
      n.status = 'approved';
      return;
    }
    case 'RunFailed':
      str(ev, 'reason', code('ERR_BAD_ARGUMENT'));
      s.failed = true;
      return;
    case 'HandoffRecorded':
      s.handoffs.push(parseHandoff(ev.get('handoff') ?? new Map()));
      return;
    default:
      // the variant set is open (§17.2): an event this consumer does not know changes no node it tracks
      if (typeof kind !== 'string' || kind === '' || kind === 'RunStarted') throw new JcpError(J, `an entry's event discriminator is missing or misplaced (${String(kind)})`);
  }
}

function inFlight(s: State): string[] {
  return [...s.nodes].filter(([, n]) => n.status === 'in_flight').map(([id]) => id);
}

function entryHash(withoutHash: CborInput): string {
  return toHex(blake3(encodeCanonical(withoutHash)));
}

function readStart(ev: CborMap): State {
  if (ev.get('event') !== 'RunStarted') throw new JcpError(J, 'entry 0 must record RunStarted');
  const nodesV = ev.get('nodes');
  if (!Array.isArray(nodesV)) throw new JcpError(J, 'RunStarted.nodes must be a list');
  const nodes = new Map<string, { replay: Replay; status: NodeStatus; attempts: number; energy_uj: bigint }>();
  for (const x of nodesV) {
    if (!(x instanceof Map)) throw new JcpError(J, 'each RunStarted node must be a map');
    const id = str(x, 'node_id', J);
    const replay = x.get('replay');
    if (replay !== 'safe' && replay !== 'never') throw new JcpError(J, `node ${id}: replay must be "safe" or "never"`);
    if (nodes.has(id)) throw new JcpError(J, `node ${id} is declared twice`);
    nodes.set(id, { replay, status: 'pending', attempts: 0, energy_uj: 0n });
  }
  return { run_id: str(ev, 'run_id', J), nodes, failed: false, handoffs: [] };
}

function makeRun(s: State, journal: Uint8Array[], lastHash: string, recovered: boolean): Run {
  let prev = lastHash;
  let isRecovered = recovered;
  const append = (event: CborInput): void => {
    const body: CborInput = { seq: journal.length, prev, event };
    const hash = entryHash(body);
    journal.push(encodeCanonical({ seq: journal.length, prev, event, hash }));
    prev = hash;
  };
  const record = (event: Record<string, CborInput | undefined>): void => {
    const m = decodeCanonical(encodeCanonical(event)) as CborMap;
    apply(s, m, true);
    append(event);
  };
  const view = (): RunView => {
    const ids = (p: (n: { replay: Replay; status: NodeStatus }) => boolean): string[] => [...s.nodes].filter(([, n]) => p(n)).map(([id]) => id);
    return Object.freeze({
      // in-flight nodes are never ready (§17.3); a held never node is not ready until settled
      ready: s.failed ? [] : ids((n) => n.status === 'pending' || n.status === 'approved' || (n.status === 'interrupted' && n.replay === 'safe')),
      in_flight: ids((n) => n.status === 'in_flight'),
      held: ids((n) => n.status === 'interrupted' && n.replay === 'never'),
      completed: ids((n) => n.status === 'completed'),
      failed: s.failed,
      recovered: isRecovered,
    });
  };
  return Object.freeze({
    run_id: s.run_id,
    dispatch(node_id: string) {
      // jouleclaw §17.3: "After a restart, the consumer MUST mark every node still in flight as interrupted … before dispatching anything"
      if (!isRecovered) throw new JcpError('ERR_RUN_NOT_RECOVERED', `run ${s.run_id} was reopened with nodes in flight (${inFlight(s).join(', ')}); recover it before dispatching anything`);
      record({ event: 'NodeDispatched', node_id, replay: s.nodes.get(node_id)?.replay, attempt: (s.nodes.get(node_id)?.attempts ?? 0) + 1 });
    },
    complete(node_id: string, energy_uj: bigint) {
      record({ event: 'NodeCompleted', node_id, energy_uj });
    },
    recover(observed_uj?: ReadonlyMap<string, bigint>) {
      const ids = inFlight(s);
      for (const id of ids) record({ event: 'NodeInterrupted', node_id: id, attempt: s.nodes.get(id)!.attempts, energy_uj: observed_uj?.get(id) ?? 0n });
      isRecovered = true;
      return ids;
    },
    approveRerun(node_id: string, approved_by: string) {
      record({ event: 'RerunApproved', node_id, approved_by });
    },
    fail(reason: string) {
      record({ event: 'RunFailed', reason });
    },
    recordHandoff(input: HandoffInput) {
      const h = makeHandoff(input);
      record({ event: 'HandoffRecorded', handoff: handoffToCbor(h) });
      return h;
    },
    node(node_id: string) {
      const n = s.nodes.get(node_id);
      return n ? Object.freeze({ ...n }) : undefined;
    },
    view,
    entries: () => journal.map((b) => b.slice()),
    handoffs: () => [...s.handoffs],
  });
}

/** Starts a run over its nodes (replay defaults to never, §17.3) and writes RunStarted as entry 0. */
export function startRun(run_id: string, nodes: readonly { readonly node_id: string; readonly replay?: Replay }[]): Run {
  if (!Array.isArray(nodes)) throw new JcpError('ERR_BAD_ARGUMENT', 'nodes must be a list');
  if (!nodes.every((n) => typeof n === 'object' && n !== null)) throw new JcpError('ERR_BAD_ARGUMENT', 'each node must be an object');
  const start = { event: 'RunStarted', run_id, nodes: nodes.map((n) => ({ node_id: n.node_id, replay: n.replay ?? 'never' })) };
  let s: State;
  try {
    s = readStart(decodeCanonical(encodeCanonical(start)) as CborMap);
  } catch (e) {
    if (isJcpError(e, J)) throw new JcpError('ERR_BAD_ARGUMENT', e.message.replace(/^ERR_JOURNAL_MALFORMED: /, ''));
    throw e;
  }
  const body = { seq: 0, event: start };
  const hash = entryHash(body);
  return makeRun(s, [encodeCanonical({ ...body, hash })], hash, true);
}

/**
 * Reopens a run from its journal after a restart. The chain is verified first (jouleclaw §17.2 "Verify the journal's
 * hash chain before trusting the handoff's contents"): each entry canonical, seq = its index, prev = the previous
 * entry's hash, hash = BLAKE3 of the entry without it — else ERR_JOURNAL_CHAIN_BROKEN; events are then replayed
 * (an impossible transition: ERR_JOURNAL_MALFORMED). A run with nodes in flight comes back unrecovered.
 */
export function openRun(entries: readonly Uint8Array[]): Run {
  if (!Array.isArray(entries)) throw new JcpError(J, 'a journal is a list of entries');
  if (entries.length === 0) throw new JcpError(J, 'an empty journal holds no run');
  const maps: CborMap[] = [];
  let prev: string | undefined;
  entries.forEach((b, i) => {
    let v: CborValue;
    try {
      v = decodeCanonical(b, { maxDepth: 16 });
    } catch (e) {
      throw new JcpError('ERR_JOURNAL_CHAIN_BROKEN', `entry ${i} is not canonical det-CBOR${isJcpError(e) ? ` (${e.code})` : ''}`, { index: i });
    }
    if (!(v instanceof Map)) throw new JcpError(J, `entry ${i} must be a map`);
    const hash = v.get('hash');
    const body = new Map([...v].filter(([k]) => k !== 'hash'));
    if (v.get('seq') !== i) throw new JcpError('ERR_JOURNAL_CHAIN_BROKEN', `entry ${i} carries seq ${String(v.get('seq'))}`, { index: i });
    if (v.get('prev') !== prev) throw new JcpError('ERR_JOURNAL_CHAIN_BROKEN', `entry ${i}'s prev does not name entry ${i - 1}'s hash`, { index: i });
    if (typeof hash !== 'string' || hash !== entryHash(body)) throw new JcpError('ERR_JOURNAL_CHAIN_BROKEN', `entry ${i}'s hash is not BLAKE3 of its contents: it was edited`, { index: i });
    const ev = v.get('event');
    if (!(ev instanceof Map)) throw new JcpError(J, `entry ${i} lacks its event`);
    maps.push(ev);
    prev = hash;
  });
  const s = readStart(maps[0]!);
  for (const ev of maps.slice(1)) apply(s, ev, false);
  return makeRun(s, entries.map((b) => b.slice()), prev!, inFlight(s).length === 0);
}
