// JouleClaw worker handoff and run journal (jouleclaw §17), through the implementation under test: command_hash =
// hex BLAKE3 over argv joined by NUL (a property over random argv); every list of a handoff present, the
// HandoffRecorded discriminator present; a consumer that accepts additive fields but verifies the hash chain first;
// and §17.3, a node in flight never dispatched twice, marked interrupted after a restart before anything is
// dispatched, a `never` node held until settled (a property over random runs killed mid-flight).
//
// The journal's bytes are the suite's (harness/protocol/testee.cddl, impl/jouleclaw/journal.ts's header): an entry is
// the canonical CBOR of { seq, ? prev, event: { event: <variant>, … }, hash }, hash = hex BLAKE3 of the entry without
// it. Journals a conforming producer never writes (edited, re-chained with extra fields) are laid out here from that
// definition with the oracle's CBOR encoder and @noble/hashes, not with the reference's journal code.
// These clauses belong to no class of the spec: they make up the suite-defined profile jouleclaw:P-HANDOFF (spec-map/profiles.json),
// so their tests run against a testee that claims it.
import { blake3 as nobleBlake3 } from '@noble/hashes/blake3.js';
import fc from 'fast-check';
import { describe, expect } from 'vitest';
import { clauseIt } from '../clause.ts';
import { implementation } from '../driver.ts';
import { fcParams } from '../external-vectors.ts';
import { key } from '../fixtures.ts';
import { assertProperty, codeOf, expectCode } from '../refusal.ts';
import { decodeCanonical, encodeCanonical, type CborMap, type CborValue } from '../oracle.ts';

const CMD_HASH = 'jouleclaw/17.1#command-hash-over-argv';
const NON_EMPTY = 'jouleclaw/17.2#producer-sets-non-empty-fields';
const DISCRIMINATOR = 'jouleclaw/17.2#discriminator-present';
const PRODUCER_HASH = 'jouleclaw/17.2#producer-computes-command-hash';
const ADDITIVE = 'jouleclaw/17.2#consumer-accepts-additive-fields';
const CHAIN = 'jouleclaw/17.2#consumer-verifies-chain';
const DISPATCH_FIRST = 'jouleclaw/17.3#record-dispatch-first';
const NOT_TWICE = 'jouleclaw/17.3#in-flight-not-redispatched';
const INTERRUPTED = 'jouleclaw/17.3#mark-interrupted-on-restart';
const HELD = 'jouleclaw/17.3#never-node-held-until-settled';

const utf8 = new TextEncoder();
const hex = (b: Uint8Array): string => Buffer.from(b).toString('hex');
/** §17.1 "command_hash MUST be hex BLAKE3 over argv.join("\0")" */
const specCommandHash = (argv: readonly string[]): string => hex(nobleBlake3(utf8.encode(argv.join('\0'))));
const worker = () => key('jc:worker').did;
const operator = () => key('jc:operator').did;

const entryMap = (b: Uint8Array): CborMap => decodeCanonical(b) as CborMap;
const eventOf = (b: Uint8Array): CborMap => entryMap(b).get('event') as CborMap;
/** Re-chains decoded entries from `from` on: prev and hash rewritten by the journal's definition. */
function rechain(entries: CborMap[], from = 0): Uint8Array[] {
  let prev: CborValue | undefined = from > 0 ? entries[from - 1]!.get('hash') : undefined;
  return entries.map((e, i) => {
    if (i < from) return encodeCanonical(e);
    const body = new Map([...e].filter(([k]) => k !== 'hash' && k !== 'prev'));
    if (prev !== undefined) body.set('prev', prev);
    const hash = hex(nobleBlake3(encodeCanonical(body)));
    body.set('hash', hash);
    prev = hash;
    return encodeCanonical(body);
  });
}

describe('jouleclaw §17.1/§17.2 the handoff', () => {
  clauseIt([CMD_HASH, PRODUCER_HASH], 'every recorded command_hash is hex BLAKE3 of its argv joined by NUL (random argv)', async () => {
    const impl = implementation();
    const run = await impl.jcStartRun('run-hash', []);
    // argv elements are exec strings: no NUL inside (an element holding one would make the join ambiguous)
    const argvArb = fc.array(fc.string({ unit: 'grapheme', maxLength: 12 }).filter((s) => !s.includes('\0')), { minLength: 1, maxLength: 5 });
    await assertProperty(
      fc.asyncProperty(fc.array(argvArb, { minLength: 1, maxLength: 3 }), async (argvs) => {
        const h = await run.handoff({ worker: worker(), closed_at: 1_700_000_000n, commands: argvs.map((argv, i) => ({ argv, exit_code: BigInt(i) })) });
        const cmds = h['commands'] as { command_hash: string; argv: string[] }[];
        expect(cmds.map((c) => c.command_hash)).toEqual(argvs.map(specCommandHash));
        expect(cmds.map((c) => c.argv)).toEqual(argvs);
      }),
      fcParams(50),
    );
    // the join is by NUL: ["a", "b"] and ["a b"] are two commands
    const h = await run.handoff({ worker: worker(), closed_at: 1n, commands: [{ argv: ['a', 'b'], exit_code: 0n }, { argv: ['a b'], exit_code: 0n }] });
    const hashes = (h['commands'] as { command_hash: string }[]).map((c) => c.command_hash);
    expect(hashes[0]).toBe(hex(nobleBlake3(Uint8Array.of(0x61, 0x00, 0x62))));
    expect(hashes[1]).toBe(hex(nobleBlake3(Uint8Array.of(0x61, 0x20, 0x62))));
  });

  clauseIt([NON_EMPTY, DISCRIMINATOR], 'a recorded handoff carries every non-empty field, every list (empty too) and its HandoffRecorded discriminator', async () => {
    const impl = implementation();
    const run = await impl.jcStartRun('run-fields', [{ node_id: 'n1' }]);
    const full = {
      worker: worker(),
      node_id: 'n1',
      feature_id: 'F-001',
      closed_at: 1_700_000_123n,
      completed: ['parser written'],
      undone: ['docs'],
      commands: [{ argv: ['npm', 'test'], exit_code: 1n }],
      issues_found: ['flaky test'],
      procedures_followed: ['runbook:release'],
    };
    const h = await run.handoff(full);
    expect(h).toEqual({ ...full, commands: [{ command_hash: specCommandHash(['npm', 'test']), argv: ['npm', 'test'], exit_code: 1n }] });
    const bare = await run.handoff({ worker: worker(), closed_at: 5n });
    expect(bare).toEqual({ worker: worker(), closed_at: 5n, completed: [], undone: [], commands: [], issues_found: [], procedures_followed: [] });
    // on the journal: the variant discriminator, and the handoff as recorded
    const { entries } = await run.state();
    const events = entries.slice(1).map(eventOf);
    expect(events.map((e) => e.get('event'))).toEqual(['HandoffRecorded', 'HandoffRecorded']);
    const recorded = events[1]!.get('handoff') as CborMap;
    expect([...recorded.keys()].sort()).toEqual(['closed_at', 'commands', 'completed', 'issues_found', 'procedures_followed', 'undone', 'worker']);
  });

  // the consumer's side of the same rule (reading taken: what a producer MUST write, a consumer does not default)
  clauseIt([DISCRIMINATOR], 'a chained handoff missing a list, or an event missing its discriminator, is refused', async () => {
    const impl = implementation();
    const run = await impl.jcStartRun('run-discriminator', []);
    await run.handoff({ worker: worker(), closed_at: 9n, completed: ['x'] });
    const es = (await run.state()).entries.map(entryMap);
    ((es[1]!.get('event') as CborMap).get('handoff') as CborMap).delete('undone');
    await expectCode(impl.jcOpenRun(rechain(es, 1)), 'ERR_HANDOFF_MALFORMED');
    const es2 = (await run.state()).entries.map(entryMap);
    (es2[1]!.get('event') as CborMap).delete('event');
    await expectCode(impl.jcOpenRun(rechain(es2, 1)), 'ERR_JOURNAL_MALFORMED');
  });

  clauseIt([ADDITIVE], 'a consumer accepts a handoff and an event carrying fields it does not know', async () => {
    const impl = implementation();
    const run = await impl.jcStartRun('run-additive', []);
    await run.handoff({ worker: worker(), closed_at: 9n, completed: ['x'] });
    const es = (await run.state()).entries.map(entryMap);
    const ev = es[1]!.get('event') as CborMap;
    ev.set('recorded_by_version', '1.4');
    (ev.get('handoff') as CborMap).set('tokens_used', 1234);
    const { handoffs } = await impl.jcOpenRun(rechain(es, 1));
    expect(handoffs).toHaveLength(1);
    expect(handoffs[0]).toMatchObject({ worker: worker(), closed_at: 9n, completed: ['x'] });
    // §17.2 "the variant set is open": an event of a variant this consumer does not know, chained in, is accepted
    const later = [...es, new Map<string, CborValue>([['seq', es.length], ['event', new Map<string, CborValue>([['event', 'NodeAnnotated'], ['note', 'added by a later minor']])]])];
    const { handoffs: again } = await impl.jcOpenRun(rechain(later, 1));
    expect(again).toHaveLength(1);
  });

  clauseIt([CHAIN], 'a handoff edited after the fact, or a journal re-ordered or cut, is refused before it is trusted', async () => {
    const impl = implementation();
    const run = await impl.jcStartRun('run-chain', [{ node_id: 'n1', replay: 'safe' }]);
    await run.handoff({ worker: worker(), closed_at: 9n, completed: ['tests pass'] });
    await run.dispatch('n1');
    await run.handoff({ worker: worker(), closed_at: 10n, undone: ['nothing'] });
    const entries = (await run.state()).entries;
    expect((await impl.jcOpenRun(entries)).handoffs).toHaveLength(2);
    // edit a handoff field, hash left as it was
    const es = entries.map(entryMap);
    ((es[1]!.get('event') as CborMap).get('handoff') as CborMap).set('completed', ['tests pass', 'and shipped']);
    const edited = [...entries];
    edited[1] = encodeCanonical(es[1]!);
    await expectCode(impl.jcOpenRun(edited), 'ERR_JOURNAL_CHAIN_BROKEN');
    // the edited entry re-hashed, the next entry's prev left naming the original
    const rehashedOne = rechain(es, 1).slice(0, 2).concat(entries.slice(2));
    await expectCode(impl.jcOpenRun(rehashedOne), 'ERR_JOURNAL_CHAIN_BROKEN');
    // re-ordered, and cut in the middle
    await expectCode(impl.jcOpenRun([entries[0]!, entries[2]!, entries[1]!, entries[3]!]), 'ERR_JOURNAL_CHAIN_BROKEN');
    await expectCode(impl.jcOpenRun([entries[0]!, entries[2]!, entries[3]!]), 'ERR_JOURNAL_CHAIN_BROKEN');
    // a command whose hash disagrees with its argv, chained correctly: the hash is the identity, the argv a lie
    await run.handoff({ worker: worker(), closed_at: 11n, commands: [{ argv: ['ls'], exit_code: 0n }] });
    const more = (await run.state()).entries.map(entryMap);
    const last = more.at(-1)!;
    const cmd = (((last.get('event') as CborMap).get('handoff') as CborMap).get('commands') as CborMap[])[0]!;
    cmd.set('argv', ['rm', '-rf', '/']);
    await expectCode(impl.jcOpenRun(rechain(more, more.length - 1)), 'ERR_HANDOFF_COMMAND_HASH');
  });
});

describe('jouleclaw §17.3 a node in flight survives the process', () => {
  clauseIt([DISPATCH_FIRST], 'the dispatch is on the journal, with the node\'s replay rule, before the node completes', async () => {
    const impl = implementation();
    const run = await impl.jcStartRun('run-first', [{ node_id: 'read', replay: 'safe' }, { node_id: 'pay' }]);
    await run.dispatch('pay');
    const { entries, in_flight } = await run.state();
    expect(in_flight).toEqual(['pay']);
    const ev = eventOf(entries.at(-1)!);
    expect(ev.get('event')).toBe('NodeDispatched');
    expect(ev.get('node_id')).toBe('pay');
    expect(ev.get('replay')).toBe('never'); // the default rule
  });

  clauseIt([NOT_TWICE], 'a node in flight is not dispatched again, before or after a restart', async () => {
    const impl = implementation();
    const run = await impl.jcStartRun('run-twice', [{ node_id: 'read', replay: 'safe' }, { node_id: 'pay' }]);
    await run.dispatch('read');
    await run.dispatch('pay');
    await expectCode(run.dispatch('pay'), 'ERR_NODE_IN_FLIGHT');
    await expectCode(run.dispatch('read'), 'ERR_NODE_IN_FLIGHT'); // safe or not: in flight is in flight
    const { in_flight, ready } = await run.state();
    expect(in_flight).toEqual(['read', 'pay']);
    expect(ready).toEqual([]);
    // the process dies; the reopened run still holds both out of the ready set
    const reopened = await impl.jcOpenRun((await run.state()).entries);
    expect(reopened.in_flight).toEqual(['read', 'pay']);
    expect((await reopened.run.state()).ready).toEqual([]);
    await expectCode(reopened.run.dispatch('pay'), 'ERR_RUN_NOT_RECOVERED');
  });

  clauseIt([INTERRUPTED], 'after a restart nothing is dispatched until every node in flight is marked interrupted, its energy kept', async () => {
    const impl = implementation();
    const run = await impl.jcStartRun('run-restart', [{ node_id: 'a', replay: 'safe' }, { node_id: 'b' }, { node_id: 'c', replay: 'safe' }]);
    await run.dispatch('a');
    await run.dispatch('b');
    const { run: r2 } = await impl.jcOpenRun((await run.state()).entries);
    // c was never dispatched, yet nothing is dispatched before recovery
    await expectCode(r2.dispatch('c'), 'ERR_RUN_NOT_RECOVERED');
    expect(await r2.recover({ a: 120n, b: 4500n })).toEqual(['a', 'b']);
    const { entries, in_flight } = await r2.state();
    expect(in_flight).toEqual([]);
    const interrupted = entries.map(eventOf).filter((e) => e.get('event') === 'NodeInterrupted');
    expect(interrupted.map((e) => [e.get('node_id'), e.get('energy_uj')])).toEqual([
      ['a', 120],
      ['b', 4500],
    ]);
    expect(await codeOf(r2.dispatch('c'))).toBe('accepted');
  });

  clauseIt([HELD], 'an interrupted never node is held until settled: by recording what it did, an approval naming who, or failing the run', async () => {
    const impl = implementation();
    const nodes = [{ node_id: 'read', replay: 'safe' as const }, { node_id: 'pay', replay: 'never' as const }, { node_id: 'mail' }, { node_id: 'post' }];
    const run = await impl.jcStartRun('run-held', nodes);
    for (const n of ['read', 'pay', 'mail', 'post']) await run.dispatch(n);
    const { run: r2 } = await impl.jcOpenRun((await run.state()).entries);
    await r2.recover();
    const s = await r2.state();
    expect(s.held).toEqual(['pay', 'mail', 'post']);
    expect(s.ready).toEqual(['read']); // a safe node is ready again, as a new attempt
    for (const n of s.held) await expectCode(r2.dispatch(n), 'ERR_NODE_HELD', n);
    // settled by an approval that names who gave it: one naming nobody settles nothing
    expect(await codeOf(r2.approve('pay', ''))).not.toBe('accepted');
    await expectCode(r2.dispatch('pay'), 'ERR_NODE_HELD');
    await r2.approve('pay', operator());
    expect(await codeOf(r2.dispatch('pay'))).toBe('accepted');
    // settled by recording what it did
    await r2.complete('mail', 30n);
    expect((await r2.state()).completed).toEqual(['mail']);
    await expectCode(r2.dispatch('mail'), 'ERR_NODE_NOT_DISPATCHABLE');
    // the held node survives another restart still held
    const { run: r3 } = await impl.jcOpenRun((await r2.state()).entries);
    await r3.recover();
    expect((await r3.state()).held).toEqual(['pay', 'post']);
    await expectCode(r3.dispatch('post'), 'ERR_NODE_HELD');
    // settled by failing the run: nothing runs again
    await r3.fail('operator: post may have been sent');
    await expectCode(r3.dispatch('post'), 'ERR_NODE_NOT_DISPATCHABLE');
    await expectCode(r3.dispatch('read'), 'ERR_NODE_NOT_DISPATCHABLE');
  });

  clauseIt([HELD, INTERRUPTED, NOT_TWICE], 'random runs killed mid-flight: after recovery exactly the never nodes in flight are held, the safe ones ready', async () => {
    const impl = implementation();
    const plan = fc.array(fc.record({ replay: fc.option(fc.constantFrom('safe' as const, 'never' as const), { nil: undefined }), state: fc.constantFrom('idle', 'flight', 'done') }), { minLength: 1, maxLength: 6 });
    let n = 0;
    await assertProperty(
      fc.asyncProperty(plan, async (p) => {
        const nodes = p.map((x, i) => ({ node_id: `n${i}`, ...(x.replay ? { replay: x.replay } : {}) }));
        const run = await impl.jcStartRun(`run-prop-${n++}`, nodes);
        for (const [i, x] of p.entries()) {
          if (x.state === 'idle') continue;
          await run.dispatch(`n${i}`);
          if (x.state === 'done') await run.complete(`n${i}`, 1n);
        }
        const { run: r2, in_flight } = await impl.jcOpenRun((await run.state()).entries);
        const flying = p.flatMap((x, i) => (x.state === 'flight' ? [`n${i}`] : []));
        expect(in_flight).toEqual(flying);
        for (const id of flying) await expectCode(r2.dispatch(id), 'ERR_RUN_NOT_RECOVERED');
        expect(await r2.recover()).toEqual(flying);
        const s = await r2.state();
        const never = (x: { replay?: string | undefined }): boolean => x.replay !== 'safe';
        expect(s.held).toEqual(p.flatMap((x, i) => (x.state === 'flight' && never(x) ? [`n${i}`] : [])));
        expect(s.ready).toEqual(p.flatMap((x, i) => (x.state === 'idle' || (x.state === 'flight' && !never(x)) ? [`n${i}`] : [])));
        for (const id of s.held) await expectCode(r2.dispatch(id), 'ERR_NODE_HELD');
      }),
      fcParams(30),
    );
  });
});
