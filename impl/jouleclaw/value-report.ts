// The value report (jouleclaw §19): the per-check verdicts of one tool response against the agent's declared checks
// (§19.2), the report's closure_rate and fully_closed (§19.1), and the mean closure rate over a set of reports (§19.3).
//
// Wire forms this module fixes where §19 names only the kinds: a check is a JSON object tagged by `kind`
// ({"kind": "status", "codes": [200]}, {"kind": "status_matches_contract"}, {"kind": "output_hash_equals", "hash": hex},
// {"kind": "json_pointer_equals", "pointer": "/a/0", "expected": <JSON>}); a verdict's `check` is the check's kind.
// "canonical-JSON BLAKE3" is read as in impl/jouleclaw/contract-json.ts (RFC 8785 + BLAKE3, lowercase hex).
import { JcpError } from '../errors.ts';
import { canonicalJson, canonicalJsonHash, isJsonObject, type JsonValue } from './contract-json.ts';

/** One check's verdict (jouleclaw §19.1: `{ check, passed, reason? }`). */
export interface ValueCheckResult {
  readonly check: string;
  readonly passed: boolean;
  readonly reason?: string;
}

/** A value report (jouleclaw §19.1). */
export interface ValueReport {
  readonly intent: string;
  readonly tool_id: string;
  readonly checks: readonly ValueCheckResult[];
  readonly closure_rate: number;
  readonly fully_closed: boolean;
}

/** The response a report judges: its status code and its body (JSON). */
export interface ValueResponse {
  readonly status: number;
  readonly body: JsonValue;
}

/**
 * Resolves an RFC 6901 JSON pointer in `doc`: `{ found: true, value }`, or `{ found: false, why }` when the pointer is
 * malformed or names nothing (RFC 6901 §4: array indices are "0" or digits without a leading zero; "-" names no element).
 */
export function resolveJsonPointer(doc: JsonValue, pointer: string): { found: true; value: JsonValue } | { found: false; why: string } {
  if (pointer === '') return { found: true, value: doc };
  if (!pointer.startsWith('/')) return { found: false, why: `pointer ${JSON.stringify(pointer)} does not start with "/"` };
  let cur: JsonValue = doc;
  for (const raw of pointer.slice(1).split('/')) {
    // RFC 6901 §3: "~" is followed by 0 or 1 only; §4: ~1 is decoded before ~0
    if (/~(?![01])/.test(raw)) return { found: false, why: `reference token ${JSON.stringify(raw)} holds a bad escape` };
    const token = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    if (Array.isArray(cur)) {
      if (!/^(0|[1-9][0-9]*)$/.test(token)) return { found: false, why: `${JSON.stringify(token)} is no array index` };
      const i = Number(token);
      if (i >= cur.length) return { found: false, why: `index ${token} is past the array's end` };
      cur = cur[i] as JsonValue;
    } else if (isJsonObject(cur)) {
      if (!Object.prototype.hasOwnProperty.call(cur, token)) return { found: false, why: `no member ${JSON.stringify(token)}` };
      cur = cur[token] as JsonValue;
    } else {
      return { found: false, why: `${JSON.stringify(token)} reaches into a scalar` };
    }
  }
  return { found: true, value: cur };
}

/** JSON equality: the same canonical JSON (member order and number spelling never matter). */
export function jsonEqual(a: JsonValue, b: JsonValue): boolean {
  return canonicalJson(a) === canonicalJson(b);
}

const isUint = (x: unknown): x is number => typeof x === 'number' && Number.isSafeInteger(x) && x >= 0;

/** One check's verdict (jouleclaw §19.2). `statusCodes` is the operation's declared statusCodes menu, when known. */
export function runValueCheck(check: JsonValue, response: ValueResponse, statusCodes?: readonly number[]): ValueCheckResult {
  if (!isJsonObject(check) || typeof check['kind'] !== 'string') throw new JcpError('ERR_BAD_ARGUMENT', 'a value check must be a JSON object with a text "kind"');
  const kind = check['kind'];
  switch (kind) {
    case 'status': {
      const codes = check['codes'];
      if (!Array.isArray(codes) || !codes.every(isUint)) throw new JcpError('ERR_BAD_ARGUMENT', 'status.codes must be an array of status codes');
      // §19.2: "status code MUST appear in codes"
      const passed = (codes as number[]).includes(response.status);
      return passed ? { check: kind, passed } : { check: kind, passed, reason: `status ${response.status} is not in ${JSON.stringify(codes)}` };
    }
    case 'status_matches_contract': {
      if (statusCodes === undefined) return { check: kind, passed: false, reason: 'the operation declares no statusCodes menu' };
      // §19.2: "status MUST be in the operation's declared statusCodes menu"
      const passed = statusCodes.includes(response.status);
      return passed ? { check: kind, passed } : { check: kind, passed, reason: `status ${response.status} is not in the declared statusCodes ${JSON.stringify(statusCodes)}` };
    }
    case 'output_hash_equals': {
      const hash = check['hash'];
      if (typeof hash !== 'string') throw new JcpError('ERR_BAD_ARGUMENT', 'output_hash_equals.hash must be text');
      // §19.2: "canonical-JSON BLAKE3 of the body MUST equal hash"
      const got = canonicalJsonHash(response.body);
      const passed = got === hash.toLowerCase();
      return passed ? { check: kind, passed } : { check: kind, passed, reason: `the body's canonical-JSON BLAKE3 is ${got}, not ${hash}` };
    }
    case 'json_pointer_equals': {
      const pointer = check['pointer'];
      if (typeof pointer !== 'string' || !('expected' in check)) throw new JcpError('ERR_BAD_ARGUMENT', 'json_pointer_equals needs a text pointer and an expected value');
      // §19.2: "RFC 6901 pointer MUST resolve to expected"
      const r = resolveJsonPointer(response.body, pointer);
      if (!r.found) return { check: kind, passed: false, reason: `pointer ${JSON.stringify(pointer)} does not resolve: ${r.why}` };
      const passed = jsonEqual(r.value, check['expected'] as JsonValue);
      return passed ? { check: kind, passed } : { check: kind, passed, reason: `pointer ${JSON.stringify(pointer)} resolves to ${canonicalJson(r.value)}, not the expected value` };
    }
    default:
      // §19.2: "consumers MUST tolerate unknown kinds and treat them as passed: false with a reason that names the unknown kind"
      return { check: kind, passed: false, reason: `unknown check kind ${JSON.stringify(kind)}` };
  }
}

/** The value report of `response` against `checks` (jouleclaw §19.1), verdicts in the order of the checks. */
export function valueReport(intent: string, toolId: string, response: ValueResponse, checks: readonly JsonValue[], statusCodes?: readonly number[]): ValueReport {
  const results = checks.map((c) => runValueCheck(c, response, statusCodes));
  const passed = results.filter((r) => r.passed).length;
  return {
    intent,
    tool_id: toolId,
    checks: results,
    // §19.1: "passed_count / checks.len() ∈ [0, 1]. 0.0 when checks is empty"; "true iff checks is non-empty AND every check passed"
    closure_rate: results.length === 0 ? 0 : passed / results.length,
    fully_closed: results.length > 0 && passed === results.length,
  };
}

/**
 * The mean closure rate over `reports` (jouleclaw §19.3), each report's closure_rate: reports with no checks declared
 * are skipped. Undefined when no report has a check (the aggregate holds no value information).
 */
export function meanClosureRate(reports: readonly JsonValue[]): number | undefined {
  let sum = 0;
  let n = 0;
  for (const [i, r] of reports.entries()) {
    if (!isJsonObject(r) || !Array.isArray(r['checks']) || typeof r['closure_rate'] !== 'number') {
      throw new JcpError('ERR_BAD_ARGUMENT', `report ${i} must be a value report with checks and a closure_rate`);
    }
    // §19.3: "Reports with no checks declared MUST be skipped in the aggregate"
    if (r['checks'].length === 0) continue;
    sum += r['closure_rate'];
    n += 1;
  }
  return n === 0 ? undefined : sum / n;
}
