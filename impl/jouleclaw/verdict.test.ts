// Unit tests of verdict.ts edges (jouleclaw §16.4 evidence and match rules, §16.5 the verifier): evidence refusals by
// path, discriminants that must all match, and a contract passed already parsed keeping its hash.
import { describe, expect, it } from 'vitest';
import { thrown } from '../_test-support.ts';
import { contractHash, parseContract } from './contract.ts';
import { judgeEvidence, parseEvidence, verifyContract, type Evidence } from './verdict.ts';

const A = (id: string, priority: string, check: object) => ({ id, title: `t ${id}`, priority, check });
const contract = (over: object = {}) => ({
  jc_contract: 'contract/1',
  title: 'mission',
  authored_by: '',
  assertions: [A('A-1', 'must_have', { kind: 'tool', tool_id: 'lint' }), A('A-2', 'must_have', { kind: 'checker', checker_id: 'k' })],
  features: [],
  ...over,
});
const rollups = (ev: unknown, c: unknown = contract()) => verifyContract(c, ev).coverage.rows.map((r) => r.rollup);

describe('evidence (jouleclaw §16.4)', () => {
  it('refuses malformed evidence naming the item and field', () => {
    const E = 'ERR_EVIDENCE_MALFORMED: ';
    expect(thrown(() => parseEvidence('{')).message).toMatch(/^ERR_EVIDENCE_MALFORMED: evidence is not JSON: /);
    expect(thrown(() => parseEvidence({ kind: 'tool_result' })).message).toBe(`${E}evidence must be a JSON array of evidence items`);
    expect(thrown(() => parseEvidence([{ kind: 'checker_result', checker_id: 'k', passed: true }, { kind: 'rumour' }])).message).toBe(
      `${E}evidence[1].kind "rumour" is not one of tool_result, artifact_present, command_run, checker_result`,
    );
    expect(thrown(() => parseEvidence([{ kind: 'tool_result', tool_id: 5, passed: true }])).message).toBe(`${E}evidence[0].tool_id must be a string`);
  });

  it('omits args_hash from a tool_result that carries none', () => {
    expect(Object.keys(parseEvidence([{ kind: 'tool_result', tool_id: 'lint', passed: true }])[0]!)).toEqual(['kind', 'tool_id', 'passed']);
  });

  it('a tool check without args_hash matches a tool_result whatever its args_hash', () => {
    expect(rollups([{ kind: 'tool_result', tool_id: 'lint', args_hash: 'y', passed: true }])[0]).toBe('verified');
  });

  it('evidence of another kind never matches, even carrying the check discriminant', () => {
    const c = contract({
      assertions: [
        A('T', 'must_have', { kind: 'tool', tool_id: 'x' }),
        A('R', 'must_have', { kind: 'artifact', path: 'x' }),
        A('C', 'must_have', { kind: 'command', command_hash: 'x', expected_exit: 0 }),
        A('K', 'must_have', { kind: 'checker', checker_id: 'x' }),
      ],
    });
    // the match reads the item's kind first: an item carrying every check's discriminant matches only its own kind
    const parsed = parseContract(c);
    const judged = (e: object) => parsed.assertions.map((a) => judgeEvidence(a, e as Evidence));
    const stray = { kind: 'tool_result', tool_id: 'x', path: 'x', command_hash: 'x', checker_id: 'x', passed: false };
    expect(judged(stray)).toEqual([false, undefined, undefined, undefined]);
    const stray2 = { kind: 'checker_result', tool_id: 'x', path: 'x', command_hash: 'x', checker_id: 'x', hash: 'h', exit_code: 0, passed: false };
    expect(judged(stray2)).toEqual([undefined, undefined, undefined, false]);
  });

  it('parses the whole bag when any item is not already-parsed evidence', () => {
    const ok = parseEvidence([{ kind: 'checker_result', checker_id: 'k', passed: true }])[0]!;
    expect(thrown(() => verifyContract(contract(), [ok, { kind: 'rumour' }])).code).toBe('ERR_EVIDENCE_MALFORMED');
    expect(thrown(() => verifyContract(contract(), [Object.freeze({ kind: 5 })])).message).toBe('ERR_EVIDENCE_MALFORMED: evidence[0].kind must be a string');
  });

  it('reads again a frozen item that parseEvidence did not make: an unknown kind is refused either way (§16.4)', () => {
    const rumour = 'ERR_EVIDENCE_MALFORMED: evidence[0].kind "rumour" is not one of tool_result, artifact_present, command_run, checker_result';
    expect(thrown(() => verifyContract(contract(), [{ kind: 'rumour' }])).message).toBe(rumour);
    expect(thrown(() => verifyContract(contract(), [Object.freeze({ kind: 'rumour' })])).message).toBe(rumour);
    // a frozen item of a known kind with a field of the wrong type is refused as its JSON form is
    expect(thrown(() => verifyContract(contract(), [Object.freeze({ kind: 'checker_result', checker_id: 'k', passed: 'yes' })])).code).toBe('ERR_EVIDENCE_MALFORMED');
    // items parseEvidence made are taken as they are, and give the verdict their JSON form gives
    const json = [{ kind: 'checker_result', checker_id: 'k', passed: true }];
    expect(verifyContract(contract(), parseEvidence(json))).toEqual(verifyContract(contract(), json));
  });
});

describe('verifier input (jouleclaw §16.5)', () => {
  it('a contract passed already parsed keeps the hash of its JSON form', () => {
    expect(verifyContract(parseContract(contract()), []).contract_hash).toBe(contractHash(contract()));
    // a JSON contract is hashed as JSON even when it carries a "hash" member of its own
    expect(verifyContract(contract({ hash: 'x' }), []).contract_hash).toBe(contractHash(contract({ hash: 'x' })));
    expect(verifyContract(contract({ block_on_should_have: true }), []).contract_hash).toBe(contractHash(contract({ block_on_should_have: true })));
  });

  it('a JSON contract shaped like a parsed one is read and refused as JSON (§16.6)', () => {
    // every member a parsed contract has, but an assertion that is not one: read, so refused
    const lookalike = { ...contract({ assertions: [{ id: 'A-1' }] }), hash: 'h', block_on_should_have: false };
    expect(thrown(() => verifyContract(lookalike, [])).code).toBe('ERR_CONTRACT_MALFORMED');
    const dup = { ...contract({ assertions: [A('A-1', 'must_have', { kind: 'tool', tool_id: 'x' }), A('A-1', 'must_have', { kind: 'tool', tool_id: 'y' })] }), hash: 'h', block_on_should_have: false };
    expect(thrown(() => verifyContract(Object.freeze(dup), [])).code).toBe('ERR_CONTRACT_DUPLICATE_ID');
  });
});
