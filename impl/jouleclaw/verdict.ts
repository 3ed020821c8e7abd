// jouleclaw §16.4–§16.6 (verifier side): evidence items, the match rules, the rollup (any matching failure → failed;
// otherwise any matching pass → verified; otherwise any claim → claimed_unverified; otherwise → gap) and the ship gate,
// as a pure function (contract, evidence) → ContractVerdict "verdict/1".
//
// Readings taken where §16 leaves the form open:
// - Evidence items are JSON objects tagged by "kind": "tool_result" | "artifact_present" | "command_run" |
//   "checker_result"; an unknown kind is refused (ERR_EVIDENCE_MALFORMED) rather than silently dropped.
// - A tool check with args_hash matches only a tool_result carrying that args_hash; without args_hash it matches any
//   tool_result of the tool. An artifact check without expected_hash is passed by any artifact_present at its path.
// - The coverage matrix is { features: [feature ids], rows: [{ assertion, priority, claimed_by: [bool per feature],
//   rollup }] }, rows in contract order; summary is the one-liner written by `summaryOf` below.
// - nice_to_have assertions never block ship.
import { JcpError } from '../errors.ts';
import { canonicalJson, jsonFields, readJson, type JsonObject } from './contract-json.ts';
import { isParsedContract, parseContract, type Assertion, type Contract } from './contract.ts';

/** jouleclaw §16.4 one evidence item a run produced. */
export type Evidence =
  | { readonly kind: 'tool_result'; readonly tool_id: string; readonly args_hash?: string; readonly passed: boolean }
  | { readonly kind: 'artifact_present'; readonly path: string; readonly hash: string }
  | { readonly kind: 'command_run'; readonly command_hash: string; readonly exit_code: number }
  | { readonly kind: 'checker_result'; readonly checker_id: string; readonly passed: boolean };

/** jouleclaw §16.5 per-assertion rollup. */
export type Rollup = 'verified' | 'claimed_unverified' | 'failed' | 'gap';

/** One row of the coverage matrix. */
export interface CoverageRow {
  readonly assertion: string;
  readonly priority: Assertion['priority'];
  /** One cell per feature, in contract order: does that feature claim this assertion. */
  readonly claimed_by: readonly boolean[];
  readonly rollup: Rollup;
}

/** jouleclaw §16.5 the ContractVerdict. */
export interface ContractVerdict {
  readonly jc_verdict: 'verdict/1';
  readonly contract_hash: string;
  readonly passed: boolean;
  readonly summary: string;
  readonly coverage: { readonly features: readonly string[]; readonly rows: readonly CoverageRow[] };
  readonly blocking_gaps: readonly string[];
  readonly should_have_gaps: readonly string[];
}

const E = 'ERR_EVIDENCE_MALFORMED' as const;

/** The items {@link parseEvidence} made: only these are taken as read; anything else, frozen or not, is read again. */
const readItems = new WeakSet<Evidence>();

function readEvidenceItem(v: unknown, i: number): Evidence {
  const path = `evidence[${i}]`;
  const f = jsonFields(v, E, path);
  const kind = f.text('kind');
  switch (kind) {
    case 'tool_result': {
      const args_hash = f.optText('args_hash');
      return Object.freeze({ kind, tool_id: f.text('tool_id'), ...(args_hash !== undefined ? { args_hash } : {}), passed: f.bool('passed') });
    }
    case 'artifact_present':
      return Object.freeze({ kind, path: f.text('path'), hash: f.text('hash') });
    case 'command_run':
      return Object.freeze({ kind, command_hash: f.text('command_hash'), exit_code: f.int('exit_code') });
    case 'checker_result':
      return Object.freeze({ kind, checker_id: f.text('checker_id'), passed: f.bool('passed') });
    default:
      throw new JcpError(E, `${path}.kind "${kind}" is not one of tool_result, artifact_present, command_run, checker_result`);
  }
}

/** Reads an evidence bag: a JSON array (text or parsed) of evidence items. */
export function parseEvidence(json: unknown): Evidence[] {
  const v = readJson(json, E, 'evidence');
  if (!Array.isArray(v)) throw new JcpError(E, 'evidence must be a JSON array of evidence items');
  const items = v.map(readEvidenceItem);
  for (const item of items) readItems.add(item);
  return items;
}

/**
 * jouleclaw §16.4 "An evidence item matches an assertion when its discriminants match the assertion's check":
 * undefined when `e` does not match `a`, else whether it is a pass (true) or a failure (false).
 */
export function judgeEvidence(a: Assertion, e: Evidence): boolean | undefined {
  const c = a.check;
  switch (c.kind) {
    case 'tool':
      if (e.kind !== 'tool_result' || e.tool_id !== c.tool_id) return undefined;
      if (c.args_hash !== undefined && e.args_hash !== c.args_hash) return undefined;
      return e.passed;
    case 'artifact':
      if (e.kind !== 'artifact_present' || e.path !== c.path) return undefined;
      // §16.4: "for artifact, hash == expected_hash when supplied"
      return c.expected_hash === undefined || e.hash === c.expected_hash;
    case 'command':
      if (e.kind !== 'command_run' || e.command_hash !== c.command_hash) return undefined;
      // §16.4: "for command, exit_code == expected_exit"
      return e.exit_code === c.expected_exit;
    case 'checker':
      if (e.kind !== 'checker_result' || e.checker_id !== c.checker_id) return undefined;
      return e.passed;
  }
}

/** jouleclaw §16.6 the rollup of one assertion, exactly in the order §16.5 gives. */
export function rollupOf(a: Assertion, evidence: readonly Evidence[], claimed: boolean): Rollup {
  const judged = evidence.map((e) => judgeEvidence(a, e));
  // "any matching failure → failed" (a later success does not mask it, §16.4)
  if (judged.includes(false)) return 'failed';
  // "otherwise any matching pass → verified"
  if (judged.includes(true)) return 'verified';
  // "otherwise any claim → claimed_unverified; otherwise → gap"
  return claimed ? 'claimed_unverified' : 'gap';
}

function summaryOf(rows: readonly CoverageRow[], passed: boolean, blocking: number, should: number): string {
  const n = (r: Rollup): number => rows.filter((x) => x.rollup === r).length;
  return `${n('verified')}/${rows.length} verified, ${n('failed')} failed, ${n('claimed_unverified')} claimed unverified, ${n('gap')} gap; ${blocking} blocking, ${should} should-have gap(s); ${passed ? 'ship' : 'blocked'}`;
}

/**
 * jouleclaw §16.5 the verifier: a pure function over (contract, evidence). Same inputs → same verdict. The contract is
 * read (and refused) as {@link parseContract} reads it; the evidence as {@link parseEvidence}.
 */
export function verifyContract(contract: Contract | unknown, evidence: readonly Evidence[] | unknown): ContractVerdict {
  const c = isParsedContract(contract) ? contract : parseContract(contract);
  const ev = Array.isArray(evidence) && evidence.every(isEvidence) ? (evidence as Evidence[]) : parseEvidence(evidence);
  const rows: CoverageRow[] = c.assertions.map((a) => {
    const claimed_by = c.features.map((f) => f.claims.includes(a.id));
    return Object.freeze({ assertion: a.id, priority: a.priority, claimed_by: Object.freeze(claimed_by), rollup: rollupOf(a, ev, claimed_by.includes(true)) });
  });
  // jouleclaw §16.2 / §16.6: "Block ship on any must_have non-verified rollup."
  const blocking_gaps = rows.filter((r) => r.priority === 'must_have' && r.rollup !== 'verified').map((r) => r.assertion);
  const should_have_gaps = rows.filter((r) => r.priority === 'should_have' && r.rollup !== 'verified').map((r) => r.assertion);
  // jouleclaw §16.6: "Block ship on should_have non-verified rollups iff acceptance.block_on_should_have is true."
  const passed = blocking_gaps.length === 0 && (!c.block_on_should_have || should_have_gaps.length === 0);
  return Object.freeze({
    jc_verdict: 'verdict/1',
    contract_hash: c.hash,
    passed,
    summary: summaryOf(rows, passed, blocking_gaps.length, should_have_gaps.length),
    coverage: Object.freeze({ features: Object.freeze(c.features.map((f) => f.id)), rows: Object.freeze(rows) }),
    blocking_gaps: Object.freeze(blocking_gaps),
    should_have_gaps: Object.freeze(should_have_gaps),
  });
}

function isEvidence(v: unknown): v is Evidence {
  return readItems.has(v as Evidence);
}

/** The verdict as its canonical JSON text (RFC 8785): the verdict_json a verdict receipt signs (§16.7). */
export function verdictJson(v: ContractVerdict): string {
  return canonicalJson(v as unknown as JsonObject);
}
