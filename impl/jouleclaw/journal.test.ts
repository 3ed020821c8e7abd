// Unit tests of the worker handoff (handoff.ts, jouleclaw §17.1–§17.2) and the run journal (journal.ts, §17.2 chain,
// §17.3 nodes in flight across a restart).
import { blake3 as nobleBlake3 } from '@noble/hashes/blake3.js';
import { describe, expect, it } from 'vitest';
import { codeOf } from '../_test-support.ts';
import { decodeCanonical, encodeCanonical, type CborMap } from '../cbor/index.ts';
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
