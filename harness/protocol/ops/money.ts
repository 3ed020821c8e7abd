// The testee protocol's operations for jcp §4.8 money (C22), §4.9 the two-phase metered path (C24), §4.10 flow (C25)
// (harness/PROTOCOL.md).
import { type OpSpec, cid, VERDICT, CAVEAT, COST, DECIDE_ARGS } from '../shapes.ts';

export const MONEY_OPS: Readonly<Record<string, OpSpec>> = {
  'point.authorize': {
    about: 'jcp §4.9 metered path, first phase (C24)',
    args: DECIDE_ARGS,
    result: {
      map: { verdict: { enum: ['authorized', 'deny'] }, deny_reason: 'text', receipt: 'bytes', ticket: 'text', pending_caveats: { array: CAVEAT } },
      optional: ['deny_reason', 'receipt', 'ticket', 'pending_caveats'],
    },
  },
  'point.settle': {
    about: 'jcp §4.9 metered path, the debit point (C24)',
    args: { map: { point: 'text', ticket: 'text', cost: COST, now_s: 'uint' } },
    result: { map: { verdict: VERDICT, deny_reason: 'text', receipt: 'bytes' }, optional: ['deny_reason'] },
  },
  'point.taint-floor': { about: 'jcp §4.10 (C25)', args: { map: { point: 'text', resource: cid, origins: { array: 'text' } } }, result: { map: {} } },
  'point.spent-funds': { about: 'jcp §4.8 (C22)', args: { map: { point: 'text', grant_id: cid } }, result: { map: { spent_minor: 'uint' } } },
};
