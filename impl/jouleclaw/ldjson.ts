// The policy engine's out-of-process transport (jouleclaw §9): line-delimited JSON over a duplex byte stream, one
// request per line, one response per line; operations evaluate, audit, audit_since, policy_version, install_policy;
// "The server treats a malformed line as an error response and keeps the stream open."
//
// Message shapes (§9 names the operations, not their JSON; these are the suite's):
//   request  {"op": "evaluate", "agent": "<id>", "action": {…}}        → {"ok": <audit event>}
//            {"op": "audit"}                                             → {"ok": {"events": [<audit event>…]}}
//            {"op": "audit_since", "sequence": n}                        → {"ok": {"events": [events after n]}}
//            {"op": "policy_version"}                                    → {"ok": {"version": n}}
//            {"op": "install_policy", "policy": {"version": n, "rules": […]}} → {"ok": {"version": n}}
//   any request may carry "id" (text or integer), echoed in its response;
//   failure  {"error": {"code": "<ERR_…>", "message": "…"}} (plus "id" when the request had a readable one).
// Integers travel as JSON numbers and must be safe integers.
import { createInterface } from 'node:readline';
import type { Readable, Writable } from 'node:stream';
import { JcpError, isJcpError } from '../errors.ts';
import { actionToPlain, decisionToPlain, parsePolicy, type PolicyAuditEvent, type PolicyEngine } from './policy.ts';

/** The longest request line served (64 KiB of UTF-16 code units); a longer one is an error response. */
export const MAX_POLICY_LINE = 64 * 1024;

type Json = null | boolean | number | string | Json[] | { [k: string]: Json };

function _bad(message: string): never {
  throw new JcpError('ERR_POLICY_REQUEST_MALFORMED', message);
}

function _num(n: bigint): number {
  if (n > BigInt(Number.MAX_SAFE_INTEGER)) throw new JcpError('ERR_POLICY_REQUEST_MALFORMED', `${n} is too large for a JSON number`);
  return Number(n);
}

/** An audit event as JSON. */
export function auditEventToJson(e: PolicyAuditEvent): { [k: string]: Json } {
  return {
    sequence: _num(e.sequence),
    policy_version: _num(e.policy_version),
    policy_digest: e.policy_digest,
    agent: e.agent,
    action: actionToPlain(e.action) as { [k: string]: Json },
    decision: decisionToPlain(e.decision),
  };
}

function _field(req: Record<string, unknown>, k: string): unknown {
  return Object.prototype.hasOwnProperty.call(req, k) ? req[k] : undefined;
}

function _only(req: Record<string, unknown>, keys: readonly string[]): void {
  for (const k of Object.keys(req)) if (k !== 'op' && k !== 'id' && !keys.includes(k)) _bad(`unexpected field ${JSON.stringify(k)} for op ${String(req['op'])}`);
}

function _dispatch(engine: PolicyEngine, req: Record<string, unknown>): Json {
  const op = _field(req, 'op');
  switch (op) {
    case 'evaluate': {
      _only(req, ['agent', 'action']);
      const agent = _field(req, 'agent');
      if (typeof agent !== 'string') _bad('evaluate needs "agent" as text');
      return auditEventToJson(engine.evaluate(agent, _field(req, 'action') as never));
    }
    case 'audit':
      _only(req, []);
      return { events: engine.audit().map(auditEventToJson) };
    case 'audit_since': {
      _only(req, ['sequence']);
      const s = _field(req, 'sequence');
      if (typeof s !== 'number' || !Number.isSafeInteger(s) || s < 0) _bad('audit_since needs "sequence" as a non-negative integer');
      return { events: engine.auditSince(BigInt(s)).map(auditEventToJson) };
    }
    case 'policy_version':
      _only(req, []);
      return { version: _num(engine.policyVersion()) };
    case 'install_policy': {
      _only(req, ['policy']);
      engine.installPolicy(parsePolicy(_field(req, 'policy')));
      return { version: _num(engine.policyVersion()) };
    }
    default:
      return _bad(`unknown op ${JSON.stringify(op)}: expected evaluate, audit, audit_since, policy_version or install_policy`);
  }
}

/**
 * Serves one request line and returns the response line (without its newline). Never throws for bad input: a line
 * that is not JSON, not an object, names no known op or carries bad arguments answers {"error": {code, message}}.
 */
export function servePolicyLine(engine: PolicyEngine, line: string): string {
  let id: Json | undefined;
  try {
    if (typeof line !== 'string') _bad('a request line must be text');
    if (line.length > MAX_POLICY_LINE) _bad(`the request line is longer than ${MAX_POLICY_LINE} characters`);
    let req: unknown;
    try {
      req = JSON.parse(line);
    } catch (e) {
      _bad(`the line is not JSON: ${(e as Error).message}`);
    }
    if (typeof req !== 'object' || req === null || Array.isArray(req)) _bad('a request must be a JSON object');
    const r = req as Record<string, unknown>;
    const rid = _field(r, 'id');
    if (typeof rid === 'string' || (typeof rid === 'number' && Number.isSafeInteger(rid))) id = rid;
    else if (rid !== undefined) _bad('"id" must be text or an integer');
    const ok = _dispatch(engine, r);
    return JSON.stringify(id === undefined ? { ok } : { id, ok });
  } catch (e) {
    if (!isJcpError(e)) throw e;
    const error = { code: e.code, message: e.message };
    return JSON.stringify(id === undefined ? { error } : { id, error });
  }
}

/**
 * Serves a duplex byte stream: reads UTF-8 lines from `input`, writes one response line per request line to
 * `output`, and keeps going after a malformed line. Resolves when `input` ends.
 */
export async function servePolicyStream(engine: PolicyEngine, input: Readable, output: Writable): Promise<void> {
  const lines = createInterface({ input, crlfDelay: Infinity });
  for await (const line of lines) {
    const response = servePolicyLine(engine, line);
    if (!output.write(`${response}\n`)) await new Promise<void>((resolve) => output.once('drain', () => resolve()));
  }
}
