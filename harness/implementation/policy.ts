// jouleclaw §8 agent identity, §9 the policy engine, §10 policy_digest and the policy/1 receipt: the fields the typed
// client sends.
import type { CborInput } from '../../impl/cbor/index.ts';

/** A policy rule as sent (jouleclaw §9): agents "any" or a list of ids; action a §10.1 predicate. */
export interface JcRuleFields {
  readonly name: string;
  readonly effect: 'allow' | 'deny';
  readonly agents: 'any' | readonly string[];
  readonly action: Readonly<Record<string, string | number | bigint | readonly string[]>>;
}

/** A policy as sent (jouleclaw §9): ordered rules and a version. */
export interface JcPolicyFields {
  readonly version: bigint | number;
  readonly rules: readonly JcRuleFields[];
}

/** An action as sent (jouleclaw §9): filesystem {path, mode}, network {host, port, method}, process {binary, argv}. */
export type JcActionFields = Readonly<Record<string, string | number | bigint | readonly string[]>>;

/** One step of jc.policy-evaluate. */
export type JcPolicyStep =
  | { readonly evaluate: { readonly agent: string; readonly action: JcActionFields } }
  | { readonly install: JcPolicyFields }
  | { readonly seal: { readonly step: bigint; readonly id: string; readonly closed_at: string; readonly bind: 'digest' | 'none' } };

/** The fields of a policy/1 receipt a producer chooses (jouleclaw §10). */
export interface JcPolicyReceiptFields {
  readonly id: string;
  readonly closed_at: string;
  readonly engine_id: string;
  readonly audit_sequence: bigint;
  readonly policy_version: bigint;
  readonly policy_digest?: string;
  readonly agent: string;
  readonly action: JcActionFields;
  readonly decision: Readonly<Record<string, string>>;
}

export function jcPolicyArg(p: JcPolicyFields): CborInput {
  return { version: p.version, rules: p.rules.map((r) => ({ ...r, agents: r.agents === 'any' ? 'any' : [...r.agents], action: { ...r.action } })) } as CborInput;
}
