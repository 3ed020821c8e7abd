// Unit tests of the worker handoff (handoff.ts, jouleclaw §17.1–§17.2) and the run journal (journal.ts, §17.2 chain,
// §17.3 nodes in flight across a restart).
import { blake3 as nobleBlake3 } from '@noble/hashes/blake3.js';
import { describe, expect, it } from 'vitest';
import { codeOf, messageOf, thrown } from '../_test-support.ts';
import { decodeCanonical, encodeCanonical, type CborInput, type CborMap } from '../cbor/index.ts';
import { commandHash, makeHandoff, parseHandoff } from './handoff.ts';
import { openRun, startRun } from './journal.ts';

const hex = (b: Uint8Array) => Buffer.from(b).toString('hex');
const spec = (argv: string[]) => hex(nobleBlake3(new TextEncoder().encode(argv.join('\0'))));

describe('worker handoff (jouleclaw §17.1)', () => {
  it('command_hash is BLAKE3 over argv joined by NUL', () => {
    expect(commandHash(['git', 'commit', '-m', 'x y'])).toBe(spec(['git', 'commit', '-m', 'x y']));
    expect(commandHash(['ls'])).toBe(hex(nobleBlake3(new TextEncoder().encode('ls'))));
    expect(commandHash(['a', 'b'])).not.toBe(commandHash(['a b']));
    expect(codeOf(() => commandHash([]))).toBe('ERR_HANDOFF_MALFORMED');
    expect(codeOf(() => commandHash(['a\0b']))).toBe('ERR_HANDOFF_MALFORMED');
  });

  it('the producer writes every list, empty or not; the consumer refuses a missing list or a lying hash', () => {
    const h = makeHandoff({ worker: 'w', closed_at: 5, commands: [{ argv: ['make'], exit_code: 2 }] });
    expect(h.completed).toEqual([]);
    expect(h.commands[0]).toEqual({ command_hash: spec(['make']), argv: ['make'], exit_code: 2 });
    const m = new Map<string, unknown>([['worker', 'w'], ['closed_at', 5], ['completed', []], ['undone', []], ['commands', []], ['issues_found', []], ['procedures_followed', []], ['extra', 'ok']]);
    expect(parseHandoff(m as CborMap).worker).toBe('w');
    const noUndone = new Map(m);
    noUndone.delete('undone');
    expect(codeOf(() => parseHandoff(noUndone as CborMap))).toBe('ERR_HANDOFF_MALFORMED');
    const lying = new Map(m);
    lying.set('commands', [new Map<string, unknown>([['command_hash', spec(['rm', '-rf'])], ['argv', ['ls']], ['exit_code', 0]])]);
    expect(codeOf(() => parseHandoff(lying as CborMap))).toBe('ERR_HANDOFF_COMMAND_HASH');
  });
});

describe('run journal (jouleclaw §17.2, §17.3)', () => {
  const nodes = [
    { node_id: 'read', replay: 'safe' as const },
    { node_id: 'pay' }, // never, the default
    { node_id: 'mail', replay: 'never' as const },
  ];

  it('chains entries: each hash is BLAKE3 of the entry without it, prev names the one before', () => {
    const r = startRun('run-1', nodes);
    r.dispatch('read');
    r.complete('read', 5n);
    const es = r.entries().map((b) => decodeCanonical(b) as CborMap);
    es.forEach((e, i) => {
      const body = new Map([...e].filter(([k]) => k !== 'hash'));
      expect(e.get('hash')).toBe(hex(nobleBlake3(encodeCanonical(body))));
      expect(e.get('seq')).toBe(i);
      expect(e.get('prev')).toBe(i === 0 ? undefined : es[i - 1]!.get('hash'));
    });
    expect((es[1]!.get('event') as CborMap).get('replay')).toBe('safe');
  });

  it('a node in flight is not dispatched again; a restart must recover first; a never node is held until settled', () => {
    const r = startRun('run-1', nodes);
    r.dispatch('read');
    r.dispatch('pay');
    expect(codeOf(() => r.dispatch('pay'))).toBe('ERR_NODE_IN_FLIGHT');
    // the process dies here; a new one reopens the journal
    const r2 = openRun(r.entries());
    expect(r2.view()).toMatchObject({ in_flight: ['read', 'pay'], ready: ['mail'], recovered: false });
    expect(codeOf(() => r2.dispatch('mail'))).toBe('ERR_RUN_NOT_RECOVERED');
    expect(r2.recover(new Map([['pay', 40n]]))).toEqual(['read', 'pay']);
    expect(r2.node('pay')).toMatchObject({ status: 'interrupted', energy_uj: 40n });
    expect(r2.view()).toMatchObject({ ready: ['read', 'mail'], held: ['pay'], in_flight: [] });
    expect(codeOf(() => r2.dispatch('pay'))).toBe('ERR_NODE_HELD');
    r2.dispatch('read'); // safe: a new attempt
    expect(r2.node('read')?.attempts).toBe(2);
    expect(codeOf(() => r2.approveRerun('pay', ''))).toBe('ERR_BAD_ARGUMENT');
    r2.approveRerun('pay', 'did:key:z6Mkoperator');
    r2.dispatch('pay');
    expect(r2.node('pay')?.attempts).toBe(2);
    // the journal survives a second restart with the same state
    const r3 = openRun(r2.entries());
    expect(r3.view()).toMatchObject({ in_flight: ['read', 'pay'], recovered: false });
  });

  it('a held node is settled by recording what it did, or by failing the run', () => {
    const r = startRun('run-1', nodes);
    r.dispatch('pay');
    r.dispatch('mail');
    const r2 = openRun(r.entries());
    r2.recover();
    r2.complete('pay', 3n);
    expect(r2.node('pay')?.status).toBe('completed');
    expect(codeOf(() => r2.dispatch('pay'))).toBe('ERR_NODE_NOT_DISPATCHABLE');
    r2.fail('operator gave up on mail');
    expect(codeOf(() => r2.dispatch('read'))).toBe('ERR_NODE_NOT_DISPATCHABLE');
    expect(r2.view().ready).toEqual([]);
  });

  it('an edited entry breaks the chain; handoffs come back only from a verified chain', () => {
    const r = startRun('run-1', nodes);
    r.recordHandoff({ worker: 'w', feature_id: 'F-1', closed_at: 9, completed: ['did x'], commands: [{ argv: ['make', 'test'], exit_code: 0 }] });
    expect(openRun(r.entries()).handoffs()[0]).toMatchObject({ feature_id: 'F-1', completed: ['did x'] });
    const es = r.entries();
    const e1 = decodeCanonical(es[1]!) as CborMap;
    const ev = e1.get('event') as CborMap;
    const h = ev.get('handoff') as CborMap;
    h.set('completed', ['did x', 'and y']);
    es[1] = encodeCanonical(e1);
    expect(codeOf(() => openRun(es))).toBe('ERR_JOURNAL_CHAIN_BROKEN');
    const dropped = r.entries();
    r.dispatch('read');
    const more = r.entries();
    expect(codeOf(() => openRun([more[0]!, more[2]!]))).toBe('ERR_JOURNAL_CHAIN_BROKEN');
    expect(openRun(dropped).handoffs()).toHaveLength(1);
  });
});

describe('run journal refusals and boundaries (jouleclaw §17.2, §17.3)', () => {
  const nodes = [{ node_id: 'read', replay: 'safe' as const }, { node_id: 'pay' }, { node_id: 'mail', replay: 'never' as const }];
  const START = { event: 'RunStarted', run_id: 'run-1', nodes: [{ node_id: 'read', replay: 'safe' }, { node_id: 'pay', replay: 'never' }] };
  // A journal whose chain verifies, over any events: replay rules are then the only thing left to refuse it.
  const chain = (events: CborInput[]): Uint8Array[] => {
    let prev: string | undefined;
    return events.map((event, seq) => {
      const body = prev === undefined ? { seq, event } : { seq, prev, event };
      prev = hex(nobleBlake3(encodeCanonical(body)));
      return encodeCanonical({ ...body, hash: prev });
    });
  };
  /** A reopened, recovered run with read (safe) and pay (never) interrupted. */
  const interrupted = () => {
    const r = startRun('run-1', nodes);
    r.dispatch('read');
    r.dispatch('pay');
    const r2 = openRun(r.entries());
    r2.recover(new Map([['read', 7n], ['pay', 40n]]));
    return r2;
  };

  it('startRun refuses a malformed node list as ERR_BAD_ARGUMENT naming the fault', () => {
    expect(messageOf(() => startRun('run-1', 'read' as never))).toBe('ERR_BAD_ARGUMENT: nodes must be a list');
    expect(messageOf(() => startRun('run-1', [null as never]))).toBe('ERR_BAD_ARGUMENT: each node must be an object');
    expect(messageOf(() => startRun('run-1', [5 as never]))).toBe('ERR_BAD_ARGUMENT: each node must be an object');
    expect(messageOf(() => startRun('run-1', [{ node_id: 'a' }, { node_id: 'a' }]))).toBe('ERR_BAD_ARGUMENT: node a is declared twice');
    expect(messageOf(() => startRun('run-1', [{ node_id: 'a', replay: 'maybe' as never }]))).toBe('ERR_BAD_ARGUMENT: node a: replay must be "safe" or "never"');
    expect(messageOf(() => startRun('run-1', [{ node_id: '' }]))).toBe('ERR_BAD_ARGUMENT: node_id must be non-empty text');
    // only journal-shape refusals are rewritten; an unencodable id keeps its own code
    expect(codeOf(() => startRun('run-1', [{ node_id: Symbol('x') as never }]))).toBe('ERR_CBOR_UNENCODABLE');
  });

  it('dispatch refusals name the node and why', () => {
    const r = startRun('run-1', nodes);
    expect(messageOf(() => r.dispatch('nope'))).toBe('ERR_NODE_NOT_DISPATCHABLE: node nope is not a node of run run-1');
    expect(messageOf(() => r.dispatch(''))).toBe('ERR_JOURNAL_MALFORMED: node_id must be non-empty text');
    r.dispatch('pay');
    expect(messageOf(() => r.dispatch('pay'))).toBe('ERR_NODE_IN_FLIGHT: node pay is in flight (attempt 1) and is not dispatched again');
    r.dispatch('read');
    r.complete('read', 1n);
    expect(messageOf(() => r.dispatch('read'))).toBe('ERR_NODE_NOT_DISPATCHABLE: node read has completed');
    r.fail('stop');
    expect(messageOf(() => r.dispatch('mail'))).toBe('ERR_NODE_NOT_DISPATCHABLE: run run-1 has failed; mail is not dispatched');
    expect(messageOf(() => interrupted().dispatch('pay'))).toBe(
      'ERR_NODE_HELD: node pay (replay: never) was interrupted and is held until settled: record what it did, approve a rerun, or fail the run',
    );
  });

  it('a reopened run with nodes in flight names them when refusing a dispatch', () => {
    const r = startRun('run-1', nodes);
    r.dispatch('read');
    r.dispatch('pay');
    const e = thrown(() => openRun(r.entries()).dispatch('mail'));
    expect(e.message).toBe('ERR_RUN_NOT_RECOVERED: run run-1 was reopened with nodes in flight (read, pay); recover it before dispatching anything');
  });

  it('a journal with nothing in flight reopens recovered and dispatches', () => {
    const r = startRun('run-1', nodes);
    r.dispatch('read');
    r.complete('read', 1n);
    const r2 = openRun(r.entries());
    expect(r2.view().recovered).toBe(true);
    r2.dispatch('pay');
    expect(r2.node('pay')?.status).toBe('in_flight');
  });

  it('NodeDispatched records the attempt number of a rerun', () => {
    const r = interrupted();
    r.dispatch('read');
    const last = decodeCanonical(r.entries().at(-1)!) as CborMap;
    expect((last.get('event') as CborMap).get('attempt')).toBe(2);
  });

  it('complete adds the energy to what interrupted attempts recorded', () => {
    const r = interrupted();
    r.dispatch('read');
    r.complete('read', 5n);
    r.complete('pay', 3n);
    expect(r.node('read')?.energy_uj).toBe(12n);
    expect(r.node('pay')?.energy_uj).toBe(43n);
  });

  it('complete refuses a node neither in flight nor held', () => {
    const r = interrupted();
    expect(messageOf(() => r.complete('read', 1n))).toBe('ERR_BAD_ARGUMENT: node read is interrupted; only a node in flight or held can be recorded complete');
    const fresh = startRun('run-1', nodes);
    expect(messageOf(() => fresh.complete('mail', 1n))).toBe('ERR_BAD_ARGUMENT: node mail is pending; only a node in flight or held can be recorded complete');
  });

  it('complete takes energy_uj as an unsigned integer, zero included', () => {
    const refusal = (v: unknown) => {
      const r = startRun('run-1', nodes);
      r.dispatch('read');
      return messageOf(() => r.complete('read', v as bigint));
    };
    for (const v of [-1n, -1, 'x']) expect(refusal(v)).toBe('ERR_BAD_ARGUMENT: energy_uj must be an unsigned integer');
    // values past 2^53 travel as bigints: the sign rule holds there too
    for (const v of [-(2n ** 60n), '5']) expect(refusal(v)).toBe('ERR_BAD_ARGUMENT: energy_uj must be an unsigned integer');
    for (const [v, want] of [[0n, 0n], [5, 5n], [2n ** 60n, 2n ** 60n]] as const) {
      const r = startRun('run-1', nodes);
      r.dispatch('read');
      r.complete('read', v as bigint);
      expect(r.node('read')?.energy_uj).toBe(want);
    }
  });

  it('approveRerun refuses a node that is not held, and makes a held one ready', () => {
    const r = interrupted();
    expect(messageOf(() => r.approveRerun('read', 'op'))).toBe('ERR_BAD_ARGUMENT: node read is not held (interrupted, replay safe); there is nothing to approve');
    expect(messageOf(() => r.approveRerun('mail', 'op'))).toBe('ERR_BAD_ARGUMENT: node mail is not held (pending, replay never); there is nothing to approve');
    expect(messageOf(() => r.approveRerun('pay', ''))).toBe('ERR_BAD_ARGUMENT: approved_by must be non-empty text');
    r.approveRerun('pay', 'op');
    expect(r.node('pay')?.status).toBe('approved');
    expect(r.view().ready).toEqual(['read', 'pay', 'mail']);
  });

  it('fail needs a reason, as non-empty text', () => {
    expect(messageOf(() => startRun('run-1', nodes).fail(''))).toBe('ERR_BAD_ARGUMENT: reason must be non-empty text');
    expect(messageOf(() => startRun('run-1', nodes).fail(5 as never))).toBe('ERR_BAD_ARGUMENT: reason must be non-empty text');
  });

  it('entries() and openRun copy the bytes: editing a copy leaves the journal intact', () => {
    const r = startRun('run-1', nodes);
    r.entries()[0]!.fill(0);
    const es = r.entries();
    const r2 = openRun(es);
    es[0]!.fill(0);
    expect(openRun(r.entries()).run_id).toBe('run-1');
    expect(openRun(r2.entries()).run_id).toBe('run-1');
  });

  it('openRun refuses what is not a journal', () => {
    expect(messageOf(() => openRun('x' as never))).toBe('ERR_JOURNAL_MALFORMED: a journal is a list of entries');
    expect(messageOf(() => openRun([]))).toBe('ERR_JOURNAL_MALFORMED: an empty journal holds no run');
    expect(messageOf(() => openRun([encodeCanonical([1])]))).toBe('ERR_JOURNAL_MALFORMED: entry 0 must be a map');
    expect(messageOf(() => openRun(chain([START, 'x'])))).toBe('ERR_JOURNAL_MALFORMED: entry 1 lacks its event');
  });

  it('openRun refuses a broken chain as ERR_JOURNAL_CHAIN_BROKEN with the entry index', () => {
    const broken = (es: Uint8Array[], message: string, index: number) => {
      const e = thrown(() => openRun(es));
      expect(e.message).toBe(`ERR_JOURNAL_CHAIN_BROKEN: ${message}`);
      expect(e.detail).toEqual({ index });
    };
    const good = chain([START, { event: 'NodeDispatched', node_id: 'read' }]);
    broken([good[0]!, new Uint8Array([0xa1, 0x61, 0x61, 0xf9, 0x3c, 0x00])], 'entry 1 is not canonical det-CBOR (ERR_CBOR_FLOAT)', 1);
    let deep: CborInput = 1;
    for (let i = 0; i < 20; i++) deep = [deep];
    broken([encodeCanonical({ seq: 0, deep })], 'entry 0 is not canonical det-CBOR (ERR_CBOR_TOO_DEEP)', 0);
    broken([good[1]!], 'entry 0 carries seq 1', 0);
    broken([good[0]!, chain([START, START])[0]!], 'entry 1 carries seq 0', 1);
    const e1 = decodeCanonical(good[1]!) as CborMap;
    e1.set('prev', 'ab');
    broken([good[0]!, encodeCanonical(e1)], "entry 1's prev does not name entry 0's hash", 1);
    const e0 = decodeCanonical(good[0]!) as CborMap;
    e0.set('hash', 7);
    broken([encodeCanonical(e0)], "entry 0's hash is not BLAKE3 of its contents: it was edited", 0);
  });

  it('openRun reads RunStarted strictly', () => {
    const start = (over: Record<string, unknown>) => messageOf(() => openRun(chain([{ ...START, ...over } as CborInput])));
    expect(messageOf(() => openRun(chain([{ event: 'NodeDispatched', node_id: 'read' }])))).toBe('ERR_JOURNAL_MALFORMED: entry 0 must record RunStarted');
    expect(start({ nodes: 'read' })).toBe('ERR_JOURNAL_MALFORMED: RunStarted.nodes must be a list');
    expect(start({ nodes: ['read'] })).toBe('ERR_JOURNAL_MALFORMED: each RunStarted node must be a map');
    expect(start({ nodes: [{ node_id: 'read' }] })).toBe('ERR_JOURNAL_MALFORMED: node read: replay must be "safe" or "never"');
    expect(start({ nodes: [{ node_id: 'a', replay: 'safe' }, { node_id: 'a', replay: 'never' }] })).toBe('ERR_JOURNAL_MALFORMED: node a is declared twice');
  });

  it('replay refuses an impossible transition as ERR_JOURNAL_MALFORMED, not the live code', () => {
    const replay = (...events: CborInput[]) => messageOf(() => openRun(chain([START, ...events])));
    const d = { event: 'NodeDispatched', node_id: 'read' };
    expect(replay(d, d)).toBe('ERR_JOURNAL_MALFORMED: node read is in flight (attempt 1) and is not dispatched again');
    expect(replay({ event: 'NodeInterrupted', node_id: 'read', energy_uj: 0 })).toBe('ERR_JOURNAL_MALFORMED: node read is pending, not in flight, and cannot be interrupted');
    expect(replay(d, { event: 'NodeInterrupted', node_id: 'read', energy_uj: -1 })).toBe('ERR_JOURNAL_MALFORMED: energy_uj must be an unsigned integer');
  });

  it('replay skips events it does not know, and refuses a missing or misplaced discriminator', () => {
    expect(openRun(chain([START, { event: 'Noted', node_id: 'read' }])).node('read')?.status).toBe('pending');
    const replay = (ev: CborInput) => messageOf(() => openRun(chain([START, ev])));
    expect(replay(START)).toBe("ERR_JOURNAL_MALFORMED: an entry's event discriminator is missing or misplaced (RunStarted)");
    expect(replay({ event: '' })).toBe("ERR_JOURNAL_MALFORMED: an entry's event discriminator is missing or misplaced ()");
    expect(replay({ event: 5 })).toBe("ERR_JOURNAL_MALFORMED: an entry's event discriminator is missing or misplaced (5)");
    expect(replay({ node_id: 'read' })).toBe("ERR_JOURNAL_MALFORMED: an entry's event discriminator is missing or misplaced (undefined)");
  });
});
