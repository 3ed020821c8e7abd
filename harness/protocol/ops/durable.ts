// The testee protocol's operations for jcp §4.11 durable spend, one writer per record (C26) (harness/PROTOCOL.md).
import { type OpSpec, did, VERDICT, DECIDE_ARGS } from '../shapes.ts';

export const DURABLE_OPS: Readonly<Record<string, OpSpec>> = {
  'durable.open': {
    about: 'jcp §4.11 C26',
    // simulate "no-exclusivity": open as on a platform that cannot provide exclusivity at all (jcp §4.11), the one way a
    // black-box test can stand such a platform in
    args: { map: { path: 'text', holder: 'text', steward_seed: 'bytes32', trust_roots: { textMap: { array: did } }, simulate: { enum: ['no-exclusivity'] } }, optional: ['trust_roots', 'simulate'] },
    // exclusive: whether the open holds the record exclusively ("no": it proceeded without, jcp §4.11 "checkable at run time");
    // torn_tail: an incomplete last write the open found and cut away, said rather than silently dropped
    result: {
      map: {
        point: 'text',
        replayed: 'uint',
        exclusive: { enum: ['yes', 'no'] },
        torn_tail: { map: { offset: 'uint', length: 'uint', summary: 'text', request_key: 'bytes32' }, optional: ['request_key'] },
      },
      optional: ['exclusive', 'torn_tail'],
    },
  },
  'durable.decide': {
    about: 'jcp §4.11 C26',
    args: DECIDE_ARGS,
    // entry: the testee's own name for the recorded decision, stable across a reopen (durable.status, durable.complete)
    result: { map: { verdict: VERDICT, deny_reason: 'text', receipt: 'bytes', entry: 'text' }, optional: ['deny_reason', 'receipt', 'entry'] },
  },
  'durable.close': { about: 'jcp §4.11 C26', args: { map: { point: 'text' } }, result: { map: {} } },
  // jcp §4.11 an allowed decision's action: its outcome recorded by the party that ran it (or an operator settling an
  // unresolved one); where it stands. Optional: no class requires them, and a testee without them has the in-flight
  // tests read not applicable
  'durable.complete': { about: 'jcp §4.11', args: { map: { point: 'text', entry: 'text', outcome: { enum: ['completed', 'failed'] } } }, result: { map: {} } },
  'durable.status': {
    about: 'jcp §4.11',
    args: { map: { point: 'text', entry: 'text' } },
    result: { map: { status: { enum: ['denied', 'in-flight', 'unresolved', 'completed', 'failed'] }, holder: 'text' }, optional: ['holder'] },
  },
  'endpoint.start': {
    about: 'jcp §11 (C8, C13): start the testee\'s own jcp/1 endpoint on a loopback address (tcp://127.0.0.1:port or unix:/path), sealing with steward_seed, open to every issuer (no trust roots), on its own clock; say where and what it declares. Once per process: a second call answers the same endpoint',
    args: { map: { steward_seed: 'bytes32' } },
    result: { map: { url: 'text', steward: did, window_s: 'uint', cap_bytes: 'uint' } },
  },
  'endpoint.restart': { about: 'jcp §11, §4.11: restart the endpoint behind the same address, its spend re-established from its durable record', args: { map: {} }, result: { map: {} } },
};
