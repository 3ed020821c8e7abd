// The JouleClaw policy engine (jouleclaw §9): actions, rules, deny-by-default evaluation, audit events, live update.
//
// Readings taken where §9 leaves a meaning open (the suite's choices, documented for implementers):
//  - Globs: `**` matches any run of characters; `*` matches any run without the separator ('/' in path and binary
//    globs, '.' in host globs); every other character matches itself. §9 names the globs but does not define them.
//  - A filesystem action's path must be absolute and normalised ('/'-joined, no empty, '.' or '..' segment, no NUL):
//    a path the engine would have to resolve first is refused (ERR_POLICY_ACTION_MALFORMED), never matched.
//  - Mode and method tags are lower-case words (/^[a-z][a-z0-9_]*$/), compared exactly; §10.1 hashes them as written.
//  - A port range matches from ≤ port ≤ to; a range with from > to matches nothing (§10.1 "matches nothing").
//  - agents:one_of matches by membership; the ids are kept as written (duplicates too) and sorted only when hashed.
//  - Audit sequences start at 1 and increase by one per evaluation; audit_since(n) answers the events after n.
//  - The engine starts with an empty policy of version 0 unless given one; every evaluation under it denies.
import { JcpError, type JcpErrorCode } from '../errors.ts';
import { policyDigest } from './policy-digest.ts';

/** A filesystem action (jouleclaw §9 "Filesystem { path, mode }"). */
export interface FilesystemAction {
  readonly kind: 'filesystem';
  readonly path: string;
  readonly mode: string;
}
/** A network action (jouleclaw §9 "Network { host, port, method }"). */
export interface NetworkAction {
  readonly kind: 'network';
  readonly host: string;
  readonly port: number;
  readonly method: string;
}
/** A process action (jouleclaw §9 "Process { binary, argv }"). */
export interface ProcessAction {
  readonly kind: 'process';
  readonly binary: string;
  readonly argv: readonly string[];
}
/** An Action at filesystem / network / process granularity (jouleclaw §9). */
export type PolicyAction = FilesystemAction | NetworkAction | ProcessAction;

/** A Decision (jouleclaw §9): Allow { rule } | Deny { reason }, reason NoMatchingAllow or ExplicitDeny { rule }. */
export type PolicyDecision =
  | { readonly kind: 'allow'; readonly rule: string }
  | { readonly kind: 'deny'; readonly reason: 'no_matching_allow' }
  | { readonly kind: 'deny'; readonly reason: 'explicit_deny'; readonly rule: string };

/** Which agents a rule applies to. */
export type AgentScope = { readonly kind: 'any' } | { readonly kind: 'one_of'; readonly ids: readonly string[] };

/** Which actions a rule applies to (the three predicates §10.1 hashes). */
export type ActionPredicate =
  | { readonly kind: 'filesystem'; readonly path_glob: string; readonly modes: readonly string[] }
  | { readonly kind: 'network'; readonly host_glob: string; readonly from: number; readonly to: number; readonly methods: readonly string[] }
  | { readonly kind: 'process'; readonly binary_glob: string };

/** A Rule (jouleclaw §9): "(effect, agent_scope, action_predicate, name)". */
export interface PolicyRule {
  readonly name: string;
  readonly effect: 'allow' | 'deny';
  readonly agents: AgentScope;
  readonly action: ActionPredicate;
}

/** A Policy (jouleclaw §9): "ordered list of rules, plus a monotonic version". */
export interface Policy {
  readonly version: bigint;
  readonly rules: readonly PolicyRule[];
}

/** An AuditEvent (jouleclaw §9), with the digest of the rules in force at decision time (§10.1 SHOULD). */
export interface PolicyAuditEvent {
  readonly sequence: bigint;
  readonly policy_version: bigint;
  readonly policy_digest: string;
  readonly agent: string;
  readonly action: PolicyAction;
  readonly decision: PolicyDecision;
}

// ---- reading plain values (JSON or CBOR-as-plain) at the boundary ----

type Plain = Readonly<Record<string, unknown>>;
const _TAG_RE = /^[a-z][a-z0-9_]*$/;
const _MAX_TEXT = 4096;
const _MAX_LIST = 1024;

function _fail(code: JcpErrorCode, what: string, message: string): never {
  throw new JcpError(code, `${what}: ${message}`, { what });
}

function _object(v: unknown, code: JcpErrorCode, what: string): Plain {
  if (typeof v !== 'object' || v === null || Array.isArray(v) || v instanceof Uint8Array || v instanceof Map) _fail(code, what, 'must be an object');
  return v as Plain;
}

function _fields(o: Plain, allowed: readonly string[], code: JcpErrorCode, what: string): void {
  for (const k of Object.keys(o)) if (!allowed.includes(k)) _fail(code, what, `unexpected field ${JSON.stringify(k)}`);
}

function _get(o: Plain, k: string): unknown {
  return Object.prototype.hasOwnProperty.call(o, k) ? o[k] : undefined;
}

function _text(o: Plain, k: string, code: JcpErrorCode, what: string): string {
  const v = _get(o, k);
  if (typeof v !== 'string' || v.length === 0) _fail(code, `${what}.${k}`, 'must be non-empty text');
  if (v.length > _MAX_TEXT) _fail(code, `${what}.${k}`, `is longer than ${_MAX_TEXT} characters`);
  if (v.includes('\u0000')) _fail(code, `${what}.${k}`, 'must not contain NUL');
  // in a /u regex a surrogate pair is one code point, so this matches lone surrogates only
  if (/[\uD800-\uDFFF]/u.test(v)) _fail(code, `${what}.${k}`, 'has a lone surrogate (not UTF-8 encodable)');
  return v;
}

function _tag(v: unknown, code: JcpErrorCode, what: string): string {
  if (typeof v !== 'string' || !_TAG_RE.test(v) || v.length > 64) _fail(code, what, 'must be a lower-case tag such as "read" or "get"');
  return v;
}

function _list(o: Plain, k: string, code: JcpErrorCode, what: string): readonly unknown[] {
  const v = _get(o, k);
  if (!Array.isArray(v)) _fail(code, `${what}.${k}`, 'must be an array');
  if (v.length > _MAX_LIST) _fail(code, `${what}.${k}`, `has more than ${_MAX_LIST} entries`);
  return v;
}

/** An integer in [lo, hi] from a JSON number or a CBOR integer (number or bigint). */
function _int(o: Plain, k: string, lo: bigint, hi: bigint, code: JcpErrorCode, what: string): bigint {
  const v = _get(o, k);
  const n = typeof v === 'bigint' ? v : typeof v === 'number' && Number.isSafeInteger(v) ? BigInt(v) : undefined;
  if (n === undefined || n < lo || n > hi) _fail(code, `${what}.${k}`, `must be an integer in ${lo}..${hi}`);
  return n;
}

const _U64_MAX = (1n << 64n) - 1n;

/** An absolute, normalised path: '/'-joined non-empty segments, none '.' or '..'. */
function _absolutePath(p: string, what: string): string {
  if (!p.startsWith('/')) _fail('ERR_POLICY_ACTION_MALFORMED', what, 'must be an absolute path');
  if (p === '/') return p;
  for (const seg of p.slice(1).split('/')) {
    if (seg === '' || seg === '.' || seg === '..') _fail('ERR_POLICY_ACTION_MALFORMED', what, `must be normalised (no empty, "." or ".." segment): ${JSON.stringify(p)}`);
  }
  return p;
}

/** An Action from its plain form; throws ERR_POLICY_ACTION_MALFORMED saying what was wrong. */
export function parsePolicyAction(v: unknown): PolicyAction {
  const C = 'ERR_POLICY_ACTION_MALFORMED';
  const o = _object(v, C, 'action');
  const kind = _get(o, 'kind');
  if (kind === 'filesystem') {
    _fields(o, ['kind', 'path', 'mode'], C, 'action');
    return Object.freeze({ kind, path: _absolutePath(_text(o, 'path', C, 'action'), 'action.path'), mode: _tag(_get(o, 'mode'), C, 'action.mode') });
  }
  if (kind === 'network') {
    _fields(o, ['kind', 'host', 'port', 'method'], C, 'action');
    const host = _text(o, 'host', C, 'action');
    return Object.freeze({ kind, host, port: Number(_int(o, 'port', 0n, 65535n, C, 'action')), method: _tag(_get(o, 'method'), C, 'action.method') });
  }
  if (kind === 'process') {
    _fields(o, ['kind', 'binary', 'argv'], C, 'action');
    const argv = _list(o, 'argv', C, 'action').map((a, i) => _text({ a }, 'a', C, `action.argv[${i}]`));
    return Object.freeze({ kind, binary: _text(o, 'binary', C, 'action'), argv: Object.freeze(argv) });
  }
  return _fail(C, 'action.kind', 'must be "filesystem", "network" or "process"');
}

function _scope(v: unknown, what: string): AgentScope {
  const C = 'ERR_POLICY_MALFORMED';
  if (v === 'any') return Object.freeze({ kind: 'any' });
  if (!Array.isArray(v)) _fail(C, what, 'must be "any" or an array of agent ids');
  if (v.length > _MAX_LIST) _fail(C, what, `has more than ${_MAX_LIST} agent ids`);
  return Object.freeze({ kind: 'one_of', ids: Object.freeze(v.map((id, i) => _text({ id }, 'id', C, `${what}[${i}]`))) });
}

function _predicate(v: unknown, what: string): ActionPredicate {
  const C = 'ERR_POLICY_MALFORMED';
  const o = _object(v, C, what);
  const kind = _get(o, 'kind');
  if (kind === 'filesystem') {
    _fields(o, ['kind', 'path_glob', 'modes'], C, what);
    const modes = _list(o, 'modes', C, what).map((m, i) => _tag(m, C, `${what}.modes[${i}]`));
    return Object.freeze({ kind, path_glob: _text(o, 'path_glob', C, what), modes: Object.freeze(modes) });
  }
  if (kind === 'network') {
    _fields(o, ['kind', 'host_glob', 'from', 'to', 'methods'], C, what);
    const methods = _list(o, 'methods', C, what).map((m, i) => _tag(m, C, `${what}.methods[${i}]`));
    return Object.freeze({
      kind,
      host_glob: _text(o, 'host_glob', C, what),
      // jouleclaw §10.1: "A port range is hashed as written, not normalised" — so it is kept as written here too
      from: Number(_int(o, 'from', 0n, 65535n, C, what)),
      to: Number(_int(o, 'to', 0n, 65535n, C, what)),
      methods: Object.freeze(methods),
    });
  }
  if (kind === 'process') {
    _fields(o, ['kind', 'binary_glob'], C, what);
    return Object.freeze({ kind, binary_glob: _text(o, 'binary_glob', C, what) });
  }
  return _fail(C, `${what}.kind`, 'must be "filesystem", "network" or "process"');
}

/** A Rule from its plain form {name, effect, agents, action}; throws ERR_POLICY_MALFORMED. */
export function parsePolicyRule(v: unknown, what = 'rule'): PolicyRule {
  const C = 'ERR_POLICY_MALFORMED';
  const o = _object(v, C, what);
  _fields(o, ['name', 'effect', 'agents', 'action'], C, what);
  const effect = _get(o, 'effect');
  if (effect !== 'allow' && effect !== 'deny') _fail(C, `${what}.effect`, 'must be "allow" or "deny"');
  return Object.freeze({ name: _text(o, 'name', C, what), effect, agents: _scope(_get(o, 'agents'), `${what}.agents`), action: _predicate(_get(o, 'action'), `${what}.action`) });
}

/** A Policy from its plain form {version, rules}; throws ERR_POLICY_MALFORMED saying what was wrong. */
export function parsePolicy(v: unknown): Policy {
  const C = 'ERR_POLICY_MALFORMED';
  const o = _object(v, C, 'policy');
  _fields(o, ['version', 'rules'], C, 'policy');
  const rules = _list(o, 'rules', C, 'policy').map((r, i) => parsePolicyRule(r, `policy.rules[${i}]`));
  return Object.freeze({ version: _int(o, 'version', 0n, _U64_MAX, C, 'policy'), rules: Object.freeze(rules) });
}

/** The plain (JSON-shaped) form of a policy: what {@link parsePolicy} reads; version as a bigint. */
export function policyToPlain(p: Policy): { version: bigint; rules: Record<string, unknown>[] } {
  return {
    version: p.version,
    rules: p.rules.map((r) => ({ name: r.name, effect: r.effect, agents: r.agents.kind === 'any' ? 'any' : [...r.agents.ids], action: { ...r.action } })),
  };
}

/** The plain form of an action (its fields as they travel in a receipt). */
export function actionToPlain(a: PolicyAction): Record<string, unknown> {
  return a.kind === 'process' ? { kind: a.kind, binary: a.binary, argv: [...a.argv] } : { ...a };
}

/** The plain form of a decision (as it travels in a receipt). */
export function decisionToPlain(d: PolicyDecision): Record<string, string> {
  return { ...d };
}

// ---- matching ----

/** Whether `text` matches `glob` under the reading in this file's header (`*` stops at `sep`, `**` does not). */
export function globMatch(glob: string, text: string, sep: string): boolean {
  // iterative matcher with memo over (glob index, text index): linear-quadratic, no regex, no backtracking blow-up
  const memo = new Map<number, boolean>();
  const width = text.length + 1;
  const go = (g: number, t: number): boolean => {
    const key = g * width + t;
    const hit = memo.get(key);
    if (hit !== undefined) return hit;
    let r: boolean;
    if (g === glob.length) r = t === text.length;
    else if (glob.startsWith('**', g)) r = go(g + 2, t) || (t < text.length && go(g, t + 1));
    else if (glob[g] === '*') r = go(g + 1, t) || (t < text.length && text[t] !== sep && go(g, t + 1));
    else r = t < text.length && glob[g] === text[t] && go(g + 1, t + 1);
    memo.set(key, r);
    return r;
  };
  return go(0, 0);
}

function _agentMatches(scope: AgentScope, agent: string): boolean {
  return scope.kind === 'any' || scope.ids.includes(agent);
}

/** Whether a rule's action predicate covers `action` (same granularity, glob, tag and port checks). */
export function predicateMatches(p: ActionPredicate, action: PolicyAction): boolean {
  if (p.kind === 'filesystem' && action.kind === 'filesystem') return globMatch(p.path_glob, action.path, '/') && p.modes.includes(action.mode);
  if (p.kind === 'network' && action.kind === 'network') {
    // jouleclaw §10.1: "A range whose from exceeds its to matches nothing"
    return globMatch(p.host_glob, action.host, '.') && p.from <= action.port && action.port <= p.to && p.methods.includes(action.method);
  }
  if (p.kind === 'process' && action.kind === 'process') return globMatch(p.binary_glob, action.binary, '/');
  return false;
}

/** Whether `rule` applies to `agent` doing `action`. */
export function ruleMatches(rule: PolicyRule, agent: string, action: PolicyAction): boolean {
  return _agentMatches(rule.agents, agent) && predicateMatches(rule.action, action);
}

/**
 * The Decision of `policy` for `agent` doing `action` (jouleclaw §9 evaluation rule): "explicit Deny rules
 * short-circuit before any Allow. First matching Allow wins. No matching Allow ⇒ deny-by-default."
 */
export function decidePolicy(policy: Policy, agent: string, action: PolicyAction): PolicyDecision {
  // jouleclaw §9: "explicit Deny rules short-circuit before any Allow"
  for (const r of policy.rules) if (r.effect === 'deny' && ruleMatches(r, agent, action)) return Object.freeze({ kind: 'deny', reason: 'explicit_deny', rule: r.name });
  // jouleclaw §9: "First matching Allow wins."
  for (const r of policy.rules) if (r.effect === 'allow' && ruleMatches(r, agent, action)) return Object.freeze({ kind: 'allow', rule: r.name });
  // jouleclaw §9: "No matching Allow ⇒ deny-by-default."
  return Object.freeze({ kind: 'deny', reason: 'no_matching_allow' });
}

// ---- the engine ----

/** An in-process policy engine (jouleclaw §9 surface: evaluate, audit, audit_since, policy_version, install_policy). */
export interface PolicyEngine {
  readonly engine_id: string;
  /** Decides, records one AuditEvent (with the digest in force now) and returns it. */
  evaluate(agent: string, action: PolicyAction): PolicyAuditEvent;
  /** Every audit event, oldest first. */
  audit(): readonly PolicyAuditEvent[];
  /** The audit events whose sequence is greater than `sequence`. */
  auditSince(sequence: bigint): readonly PolicyAuditEvent[];
  /** The audit event with this sequence, or undefined. */
  auditEvent(sequence: bigint): PolicyAuditEvent | undefined;
  /** The version of the policy in force. */
  policyVersion(): bigint;
  /** The policy in force. */
  policy(): Policy;
  /** Installs `next` when next.version > current version; throws ERR_POLICY_VERSION_NOT_INCREASING otherwise. */
  installPolicy(next: Policy): void;
}

/** Options of {@link createPolicyEngine}. */
export interface PolicyEngineOptions {
  readonly engine_id: string;
  /** The initial policy; default: no rules, version 0 (everything denied). */
  readonly policy?: Policy;
}

/** A fresh {@link PolicyEngine}. Audit sequences start at 1 (see the header). */
export function createPolicyEngine(opts: PolicyEngineOptions): PolicyEngine {
  if (typeof opts?.engine_id !== 'string' || opts.engine_id.length === 0) throw new JcpError('ERR_BAD_ARGUMENT', 'engine_id must be non-empty text', { what: 'engine_id' });
  let current: Policy = opts.policy ?? Object.freeze({ version: 0n, rules: Object.freeze([]) });
  let currentDigest = policyDigest(current);
  const log: PolicyAuditEvent[] = [];
  let seq = 0n;
  return Object.freeze({
    engine_id: opts.engine_id,
    evaluate(agent: string, action: PolicyAction): PolicyAuditEvent {
      if (typeof agent !== 'string' || agent.length === 0) throw new JcpError('ERR_POLICY_ACTION_MALFORMED', 'agent must be non-empty text', { what: 'agent' });
      const a = parsePolicyAction(action);
      const decision = decidePolicy(current, agent, a);
      seq += 1n;
      // jouleclaw §9: "MUST record an AuditEvent per evaluation"; §10.1: the digest in force "when the decision was made"
      const ev: PolicyAuditEvent = Object.freeze({ sequence: seq, policy_version: current.version, policy_digest: currentDigest, agent, action: a, decision });
      log.push(ev);
      return ev;
    },
    audit: () => Object.freeze([...log]),
    auditSince: (sequence: bigint) => Object.freeze(log.filter((e) => e.sequence > sequence)),
    auditEvent: (sequence: bigint) => log.find((e) => e.sequence === sequence),
    policyVersion: () => current.version,
    policy: () => current,
    installPolicy(next: Policy): void {
      // jouleclaw §9: "install_policy(new) accepts only when new.version > current.version"
      if (!(next.version > current.version)) {
        throw new JcpError('ERR_POLICY_VERSION_NOT_INCREASING', `policy version ${next.version} is not greater than the installed version ${current.version}`, {
          installed: current.version.toString(),
          offered: next.version.toString(),
        });
      }
      const digest = policyDigest(next);
      current = next;
      currentDigest = digest;
    },
  });
}
