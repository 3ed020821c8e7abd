// The testee protocol's operations for jcp §8.1 replay (C14, C16), §8.2 group accounting (C14), §6.1 continuations (C8,
// C25) (harness/PROTOCOL.md).
import { ERROR_CODES } from '../../../impl/errors.ts';
import { type OpSpec, cid, did, VERDICT, FRAME, COST, LABEL } from '../shapes.ts';

export const REPLAY_OPS: Readonly<Record<string, OpSpec>> = {
  'point.replay': {
    about: 'jcp §8.1 (C14, C16)',
    args: { map: { point: 'text', receipts: { array: 'bytes' } } },
    result: {
      map: {
        verified: 'uint',
        allowed: 'uint',
        refused: 'uint',
        refusals: { array: { map: { index: 'uint', code: { enum: ERROR_CODES } } } },
        spend: { textMap: 'uint' },
      },
    },
  },
  'accounting.group': {
    about: 'jcp §8.2 (C14)',
    args: { map: { steward: did, receipts: { array: 'bytes' } } },
    result: {
      map: {
        rows: { array: { map: { grant_id: cid, subject: did, allowed: 'uint', refused: 'uint', spent_uj: 'uint' } } },
        verified: 'uint',
        unverified: 'uint',
        failures: { array: { map: { index: 'uint', code: { enum: ERROR_CODES } } } },
      },
    },
  },
  'continuation.relay': { about: 'jcp §6.1', args: { map: { point: 'text', steward_seed: 'bytes32' } }, result: { map: { relay: 'text' } } },
  'continuation.first': {
    about: 'jcp §6.1',
    args: { map: { relay: 'text', frame: FRAME, chain: { array: 'bytes', min: 1 }, caller: did, cost: COST, now_s: 'uint', label: LABEL }, optional: ['label'] },
    result: { map: { verdict: VERDICT, deny_reason: 'text', receipt: 'bytes', receipt_id: cid }, optional: ['deny_reason'] },
  },
  'continuation.bind': { about: 'jcp §6.1', args: { map: { relay: 'text', receipt_id: cid, handle: 'text' } }, result: { map: {} } },
  'continuation.next': {
    about: 'jcp §6.1',
    args: {
      map: { relay: 'text', handle: 'text', sent_hash: cid, frame: FRAME, chain: { array: 'bytes', min: 1 }, caller: did, cost: COST, now_s: 'uint', label: LABEL },
      optional: ['label'],
    },
    result: { map: { verdict: VERDICT, deny_reason: 'text', receipt: 'bytes', receipt_id: cid }, optional: ['deny_reason'] },
  },
  'continuation.admit': {
    about: 'jcp §6.1',
    args: { map: { relay: 'text', handle: 'text', outcome_digest: cid, output_label: LABEL }, optional: ['output_label'] },
    result: { map: { frame: FRAME, label: LABEL }, optional: ['label'] },
  },
  'continuation.close': {
    about: 'jcp §6.1',
    args: { map: { relay: 'text', handle: 'text', outcome_digest: cid, now_s: 'uint', between: COST }, optional: ['between'] },
    result: { map: { verdict: VERDICT, deny_reason: 'text', receipt: 'bytes', receipt_id: cid, record: 'bytes' }, optional: ['deny_reason'] },
  },
};
