// The testee protocol's operations for jcp §4.7 checkpoints and amendments (C21) (harness/PROTOCOL.md).
import { type OpSpec, cid, PROVENANCE, MINTED } from '../shapes.ts';

export const CHECKPOINTS_OPS: Readonly<Record<string, OpSpec>> = {
  'checkpoint.sign': {
    about: 'jcp §4.7 (C21)',
    args: {
      map: { agent_seed: 'bytes32', grant: 'bytes', state: cid, spent: { map: { uj: 'uint', provenance: PROVENANCE } }, prev: 'bytes', via: 'bytes' },
      optional: ['spent', 'prev', 'via'],
    },
    result: { map: { signed_checkpoint: 'bytes', checkpoint_id: cid } },
  },
  'checkpoint.amend': {
    about: 'jcp §4.7 (C21)',
    args: {
      map: {
        amender_seed: 'bytes32',
        grant: 'bytes',
        checkpoint: 'bytes',
        prev: 'bytes',
        via: 'bytes',
        amendment: { map: { budget_uj: 'uint', actions: { array: 'text' }, expiry: 'uint', instructions: cid }, optional: ['actions', 'expiry', 'instructions'] },
      },
      optional: ['prev', 'via'],
    },
    result: { map: { signed_amendment: 'bytes', amendment_id: cid, continuation: MINTED } },
  },
  'checkpoint.verify': {
    about: 'jcp §4.7 (C21)',
    args: { map: { grant: 'bytes', checkpoint: 'bytes', amendment: 'bytes', continuation: 'bytes', prev: 'bytes', via: 'bytes' }, optional: ['continuation', 'prev', 'via'] },
    result: { map: { checkpoint_id: cid, amendment_id: cid, remainder_uj: 'uint' }, optional: ['remainder_uj'] },
  },
};
