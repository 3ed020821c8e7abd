// The testee protocol's operations for jcp §4.5 budget channels (C17) and §4.6 standing grants (C20)
// (harness/PROTOCOL.md).
import { type OpSpec, cid, did, VERDICT, MINTED } from '../shapes.ts';

export const CHANNELS_OPS: Readonly<Record<string, OpSpec>> = {
  'channel.open': {
    about: 'jcp §4.5 (C17)',
    args: { map: { point_seed: 'bytes32', chain: { array: 'bytes', min: 1 }, members: { array: did, min: 1 } } },
    result: { map: { channel: 'text' } },
  },
  'channel.spend': {
    about: 'jcp §4.5 (C17)',
    args: { map: { channel: 'text', cost_uj: 'uint' } },
    result: { map: { verdict: VERDICT, deny_reason: 'text' }, optional: ['deny_reason'] },
  },
  'channel.statement': { about: 'jcp §4.5 (C17)', args: { map: { channel: 'text' } }, result: { map: { signed_statement: 'bytes' } } },
  'channel.apply': { about: 'jcp §4.5 (C17)', args: { map: { channel: 'text', statement: 'bytes' } }, result: { map: {} } },
  'channel.ledger': {
    about: 'jcp §4.5 (C17)',
    args: { map: { channel: 'text' } },
    result: { map: { local_uj: 'uint', total_uj: 'uint', peers: { textMap: { map: { seq: 'uint', spent_uj: 'uint' } } } } },
  },
  'channel.overdraft-proof': { about: 'jcp §4.5 (C17)', args: { map: { channel: 'text' } }, result: { map: { proof: 'bytes' }, optional: ['proof'] } },
  'channel.verify-overdraft': {
    about: 'jcp §4.5 (C17)',
    args: { map: { proof: 'bytes', members: { array: did, min: 1 } } },
    result: { map: { overdraft_uj: 'uint' } },
  },
  'standing.author': {
    about: 'jcp §4.6 (C20)',
    args: { map: { issuer_seed: 'bytes32', grant: 'bytes', policy: { map: { event_class: cid, per_firing_uj: 'uint', max_firings: 'uint' } } } },
    result: { map: { signed_policy: 'bytes', policy_id: cid } },
  },
  'standing.fire': {
    about: 'jcp §4.6 (C20)',
    args: { map: { point: 'text', policy: 'bytes', grant: 'bytes', holder_seed: 'bytes32', event_class: cid, child: { map: { subject: did, nonce: 'bytes16' } } } },
    result: MINTED,
  },
  'standing.ledger': {
    about: 'jcp §4.6 (C20)',
    args: { map: { point: 'text', policy_id: cid, grant_id: cid } },
    result: { map: { firings: 'uint', cumulative_uj: 'uint' } },
  },
};
