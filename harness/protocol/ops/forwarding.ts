// The testee protocol's operations for jcp §4.10 forwarding: open fields labelled and sealed with the arguments, or not
// forwarded (C25) (harness/PROTOCOL.md).
import { type OpSpec, cid, did, VERDICT, COST, FUNDS, LABEL } from '../shapes.ts';

export const FORWARDING_OPS: Readonly<Record<string, OpSpec>> = {
  'forward.new': {
    about: 'jcp §4.10 C25',
    args: { map: { point: 'text', omit: { array: 'text' } }, optional: ['omit'] },
    result: { map: { forwarder: 'text', omitted_fields: { array: 'text' } } },
  },
  'forward.send': {
    about: 'jcp §4.10 C25',
    args: {
      map: {
        forwarder: 'text',
        route: { map: { kind: 'text', trust: 'text', grant_id: 'text', action: 'text', resource: 'text', model: 'text' }, optional: ['model'] },
        chain: { array: 'bytes', min: 1 },
        caller: did,
        cost: COST,
        now_s: 'uint',
        cost_funds: FUNDS,
        arguments: 'any',
        arguments_label: LABEL,
        fields: { array: { map: { name: 'text', value: 'any', label: LABEL }, optional: ['label'] } },
      },
      optional: ['cost_funds', 'arguments_label', 'fields'],
    },
    result: {
      map: { verdict: VERDICT, deny_reason: 'text', receipt: 'bytes', payload_hash: cid, forwarded: 'bytes', label: LABEL, omitted: { array: 'text' }, dropped: { array: 'text' } },
      optional: ['deny_reason', 'forwarded', 'label'],
    },
  },
};
