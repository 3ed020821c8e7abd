// The testee protocol's operations for jouleclaw §8 agent identity, §9 policy engine, §10 policy_digest and policy/1
// receipt (harness/PROTOCOL.md).
import { ERROR_CODES } from '../../../impl/errors.ts';
import { type OpSpec, type Shape, VALIDITY } from '../shapes.ts';

export const JOULECLAW_POLICY_OPS: Readonly<Record<string, OpSpec>> = {
  ...(() => {
    const PREDICATE: Shape = {
      map: { kind: { enum: ['filesystem', 'network', 'process'] }, path_glob: 'text', modes: { array: 'text' }, host_glob: 'text', from: 'uint', to: 'uint', methods: { array: 'text' }, binary_glob: 'text' },
      optional: ['path_glob', 'modes', 'host_glob', 'from', 'to', 'methods', 'binary_glob'],
    };
    // agents: "any" or an array of ids (checked by the implementation under test)
    const POLICY: Shape = { map: { version: 'uint', rules: { array: { map: { name: 'text', effect: { enum: ['allow', 'deny'] }, agents: 'any', action: PREDICATE } } } } };
    const ACTION: Shape = {
      map: { kind: { enum: ['filesystem', 'network', 'process'] }, path: 'text', mode: 'text', host: 'text', port: 'uint', method: 'text', binary: 'text', argv: { array: 'text' } },
      optional: ['path', 'mode', 'host', 'port', 'method', 'binary', 'argv'],
    };
    const DECISION: Shape = { map: { kind: { enum: ['allow', 'deny'] }, rule: 'text', reason: { enum: ['no_matching_allow', 'explicit_deny'] } }, optional: ['rule', 'reason'] };
    const EVENT: Shape = { map: { sequence: 'uint', policy_version: 'uint', policy_digest: 'text', agent: 'text', action: ACTION, decision: DECISION }, optional: ['policy_digest'] };
    const FIELDS = { id: 'text', closed_at: 'text', engine_id: 'text', audit_sequence: 'uint', policy_version: 'uint', policy_digest: 'text', agent: 'text', action: ACTION, decision: DECISION } as const;
    const STEP: Shape = {
      map: {
        evaluate: { map: { agent: 'text', action: ACTION } },
        install: POLICY,
        seal: { map: { step: 'uint', id: 'text', closed_at: 'text', bind: { enum: ['digest', 'none'] } } },
      },
      optional: ['evaluate', 'install', 'seal'],
    };
    return {
      'jc.policy-digest': { about: 'jouleclaw §10.1', args: { map: { policy: POLICY } }, result: { map: { digest: 'text' } } },
      'jc.policy-evaluate': {
        about: 'jouleclaw §9, §10.1',
        args: { map: { engine_id: 'text', policy: POLICY, steward_seed: 'bytes32', steps: { array: STEP, min: 1 } }, optional: ['policy', 'steward_seed'] },
        result: {
          map: { results: { array: { map: { event: EVENT, installed: 'uint', refused: { enum: ERROR_CODES }, receipt: 'bytes' }, optional: ['event', 'installed', 'refused', 'receipt'] } }, audit: { array: EVENT } },
        },
      },
      'jc.policy-receipt': {
        about: 'jouleclaw §10',
        args: { map: { steward_seed: 'bytes32', ...FIELDS }, optional: ['policy_digest'] },
        result: { map: { receipt: 'bytes' } },
      },
      'jc.verify-policy-receipt': {
        about: 'jouleclaw §10, §10.1',
        args: { map: { receipt: 'bytes', steward: 'text', binding: { enum: ['required'] } }, optional: ['steward', 'binding'] },
        result: { map: { core: { map: { jc_receipt: 'text', steward: 'text', ...FIELDS }, optional: ['policy_digest'] } } },
      },
      'jc.agent-check': {
        about: 'jouleclaw §8',
        args: { map: { handle: 'text', public_key: 'bytes', message: 'bytes', signature: 'bytes' }, optional: ['message', 'signature'] },
        result: { map: { verdict: VALIDITY } },
      },
    } satisfies Record<string, OpSpec>;
  })(),
};
