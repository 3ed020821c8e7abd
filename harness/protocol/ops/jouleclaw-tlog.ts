// The testee protocol's operations for jouleclaw §22 transparency log (C-TLOG): heads are the wire form of
// impl/jouleclaw/tlog-head.ts (harness/PROTOCOL.md).
import { type OpSpec, type Shape, VERDICT, DECIDE_ARGS } from '../shapes.ts';

export const JOULECLAW_TLOG_OPS: Readonly<Record<string, OpSpec>> = {
  ...((): Record<string, OpSpec> => {
    const decide = DECIDE_ARGS as { map: Readonly<Record<string, Shape>>; optional: readonly string[] };
    const ENTRY: Shape = { map: { index: 'uint', head: 'bytes', proof: { array: 'bytes32' } } };
    return {
      'tlog.new': { about: 'jouleclaw §22 (C-TLOG)', args: { map: { steward_seed: 'bytes32', capacity: 'uint' }, optional: ['capacity'] }, result: { map: { log: 'text' } } },
      'tlog.append': { about: 'jouleclaw §22.1, §22.2 (C-TLOG)', args: { map: { log: 'text', receipt: 'bytes', now_s: 'uint' } }, result: ENTRY },
      'tlog.decide': {
        about: 'jouleclaw §22.3 (C-TLOG): point.decide, appended before it answers',
        args: { map: { ...decide.map, log: 'text' }, optional: decide.optional },
        result: { map: { verdict: VERDICT, deny_reason: 'text', receipt: 'bytes', entry: ENTRY }, optional: ['deny_reason', 'receipt', 'entry'] },
      },
      'tlog.head': { about: 'jouleclaw §22.2 (C-TLOG)', args: { map: { log: 'text', now_s: 'uint' } }, result: { map: { head: 'bytes' } } },
      'tlog.inclusion': { about: 'jouleclaw §22.1 (C-TLOG)', args: { map: { log: 'text', index: 'uint', size: 'uint' } }, result: { map: { proof: { array: 'bytes32' } } } },
      'tlog.consistency': { about: 'jouleclaw §22.3 (C-TLOG)', args: { map: { log: 'text', size1: 'uint', size2: 'uint' } }, result: { map: { proof: { array: 'bytes32' } } } },
      'tlog.verify-head': {
        about: 'jouleclaw §22.2 (C-TLOG)',
        args: { map: { head: 'bytes', steward: 'text' } },
        result: { map: { size: 'uint', root: 'bytes32', timestamp: 'uint' } },
      },
      'tlog.verify-inclusion': {
        about: 'jouleclaw §22.2 (C-TLOG)',
        args: { map: { head: 'bytes', steward: 'text', receipt: 'bytes', index: 'uint', proof: { array: 'bytes' } } },
        result: { map: {} },
      },
      'tlog.verify-consistency': {
        about: 'jouleclaw §22.2, §22.3 (C-TLOG)',
        args: { map: { head1: 'bytes', head2: 'bytes', steward: 'text', proof: { array: 'bytes' } } },
        result: { map: {} },
      },
    };
  })(),
};
