// Unit tests of the validation contract (contract.ts, jouleclaw §16.1–§16.3, §16.6), the verifier and its rollup
// (verdict.ts, §16.4–§16.6) and the canonical JSON the content hash is taken over (contract-json.ts, RFC 8785 reading).
import { blake3 as nobleBlake3 } from '@noble/hashes/blake3.js';
import { describe, expect, it } from 'vitest';
import { codeOf } from '../_test-support.ts';
import { canonicalJson } from './contract-json.ts';
import { contractHash, parseContract } from './contract.ts';
import { verifyContract, verdictJson } from './verdict.ts';

const hex = (b: Uint8Array) => Buffer.from(b).toString('hex');
const A = (id: string, priority: string, check: object) => ({ id, title: `t ${id}`, priority, check });
const contract = (over: object = {}) => ({
  jc_contract: 'contract/1',
  title: 'mission',
  authored_by: '',
  assertions: [
    A('A-1', 'must_have', { kind: 'tool', tool_id: 'lint' }),
    A('A-2', 'should_have', { kind: 'artifact', path: 'out.bin', expected_hash: 'h1' }),
    A('A-3', 'must_have', { kind: 'command', command_hash: 'c1', expected_exit: 0 }),
    A('A-4', 'nice_to_have', { kind: 'checker', checker_id: 'k' }),
  ],
  features: [
    { id: 'F-1', title: 'one', claims: ['A-1', 'A-2'] },
    { id: 'F-2', title: 'two', claims: ['A-3'] },
  ],
  ...over,
});

describe('canonical JSON (RFC 8785 reading)', () => {
  it('sorts members by UTF-16 code units, drops whitespace, writes numbers in shortest form', () => {
    expect(canonicalJson({ b: [1, 2.5, 1e21, -0], a: { d: true, c: null }, 'é': 'x\n"', A: '\u2028' })).toBe('{"A":"\u2028","a":{"c":null,"d":true},"b":[1,2.5,1e+21,0],"é":"x\\n\\""}');
    expect(canonicalJson({ '\uD83D\uDE00': 1, '\uFFFF': 2 })).toBe('{"\uD83D\uDE00":1,"\uFFFF":2}');
    expect(codeOf(() => canonicalJson({ x: Number.NaN }))).toBe('ERR_BAD_ARGUMENT');
    expect(codeOf(() => canonicalJson('\uD800'))).toBe('ERR_BAD_ARGUMENT');
  });
});

describe('validation contract "contract/1" (jouleclaw §16.1, §16.6 producer)', () => {
  it('identical contracts hash the same whatever their member order or whitespace; the hash is BLAKE3 of the canonical JSON', () => {
    const c = contract();
    const reordered = JSON.parse(JSON.stringify({ features: c.features, assertions: c.assertions, title: c.title, authored_by: '', jc_contract: 'contract/1' }));
    expect(contractHash(JSON.stringify(c, null, 2))).toBe(contractHash(reordered));
    expect(parseContract(c).hash).toBe(hex(nobleBlake3(new TextEncoder().encode(canonicalJson(c)))));
    expect(contractHash(contract({ title: 'other' }))).not.toBe(contractHash(c));
  });

  it('refuses duplicate assertion ids, duplicate feature ids, unknown claims, another version', () => {
    const c = contract();
    expect(codeOf(() => parseContract({ ...c, assertions: [...c.assertions, A('A-1', 'must_have', { kind: 'checker', checker_id: 'z' })] }))).toBe('ERR_CONTRACT_DUPLICATE_ID');
    expect(codeOf(() => parseContract({ ...c, features: [...c.features, { id: 'F-1', title: 'again', claims: [] }] }))).toBe('ERR_CONTRACT_DUPLICATE_ID');
    expect(codeOf(() => parseContract({ ...c, features: [{ id: 'F-9', title: 'x', claims: ['A-404'] }] }))).toBe('ERR_CONTRACT_UNKNOWN_CLAIM');
    expect(codeOf(() => parseContract({ ...c, jc_contract: 'contract/2' }))).toBe('ERR_JC_SCHEMA_UNKNOWN');
    expect(codeOf(() => parseContract({ ...c, jc_contract: undefined }))).toBe('ERR_CONTRACT_MALFORMED');
    expect(codeOf(() => parseContract({ ...c, assertions: [A('A-1', 'urgent', { kind: 'tool', tool_id: 'x' })], features: [] }))).toBe('ERR_CONTRACT_MALFORMED');
    expect(codeOf(() => parseContract({ ...c, assertions: [A('A-1', 'must_have', { kind: 'vibes' })], features: [] }))).toBe('ERR_CONTRACT_MALFORMED');
    expect(parseContract({ ...c, jc_contract: 'contract/1.1', later: 1 }).assertions).toHaveLength(4);
  });
});

describe('the verifier (jouleclaw §16.4–§16.6)', () => {
  const all = [
    { kind: 'tool_result', tool_id: 'lint', passed: true },
    { kind: 'artifact_present', path: 'out.bin', hash: 'h1' },
    { kind: 'command_run', command_hash: 'c1', exit_code: 0 },
    { kind: 'checker_result', checker_id: 'k', passed: true },
  ];
  const rollups = (ev: object[], c: object = contract()) => verifyContract(c, ev).coverage.rows.map((r) => r.rollup);

  it('every assertion verified: passed, no gaps', () => {
    const v = verifyContract(contract(), all);
    expect(rollups(all)).toEqual(['verified', 'verified', 'verified', 'verified']);
    expect(v.passed).toBe(true);
    expect(v.blocking_gaps).toEqual([]);
    expect(v.contract_hash).toBe(contractHash(contract()));
    expect(v.coverage.features).toEqual(['F-1', 'F-2']);
    expect(v.coverage.rows[0]!.claimed_by).toEqual([true, false]);
  });

  it('a matching failure is failed even beside a later pass; no evidence is claimed_unverified or gap', () => {
    expect(rollups([...all, { kind: 'tool_result', tool_id: 'lint', passed: false }])[0]).toBe('failed');
    expect(rollups([{ kind: 'command_run', command_hash: 'c1', exit_code: 2 }, ...all])[2]).toBe('failed');
    expect(rollups([{ kind: 'artifact_present', path: 'out.bin', hash: 'h2' }])[1]).toBe('failed');
    // A-4 is claimed by no feature: gap; A-1 is claimed by F-1: claimed_unverified
    expect(rollups([])).toEqual(['claimed_unverified', 'claimed_unverified', 'claimed_unverified', 'gap']);
    // evidence of other discriminants does not match
    expect(rollups([{ kind: 'tool_result', tool_id: 'other', passed: false }, { kind: 'checker_result', checker_id: 'lint', passed: false }])[0]).toBe('claimed_unverified');
  });

  it('args_hash narrows a tool match; artifact without expected_hash passes on presence', () => {
    const c = contract({
      assertions: [A('A-1', 'must_have', { kind: 'tool', tool_id: 'lint', args_hash: 'x' }), A('A-2', 'must_have', { kind: 'artifact', path: 'p' })],
      features: [],
    });
    expect(rollups([{ kind: 'tool_result', tool_id: 'lint', passed: false }, { kind: 'artifact_present', path: 'p', hash: 'any' }], c)).toEqual(['gap', 'verified']);
    expect(rollups([{ kind: 'tool_result', tool_id: 'lint', args_hash: 'x', passed: true }], c)[0]).toBe('verified');
  });

  it('must_have non-verified blocks ship; should_have blocks only under block_on_should_have; nice_to_have never', () => {
    const noA2 = all.filter((e) => e.kind !== 'artifact_present');
    const v1 = verifyContract(contract(), noA2);
    expect(v1.passed).toBe(true);
    expect(v1.should_have_gaps).toEqual(['A-2']);
    expect(verifyContract(contract({ acceptance: { block_on_should_have: true } }), noA2).passed).toBe(false);
    expect(verifyContract(contract({ acceptance: { block_on_should_have: false } }), noA2).passed).toBe(true);
    const noA4 = all.filter((e) => e.kind !== 'checker_result');
    expect(verifyContract(contract({ acceptance: { block_on_should_have: true } }), noA4).passed).toBe(true);
    const noA3 = all.filter((e) => e.kind !== 'command_run');
    const v3 = verifyContract(contract(), noA3);
    expect(v3.passed).toBe(false);
    expect(v3.blocking_gaps).toEqual(['A-3']);
  });

  it('is pure: the same inputs give the same verdict JSON; refuses malformed evidence', () => {
    expect(verdictJson(verifyContract(JSON.stringify(contract()), JSON.stringify(all)))).toBe(verdictJson(verifyContract(contract(), all)));
    expect(codeOf(() => verifyContract(contract(), [{ kind: 'rumour' }]))).toBe('ERR_EVIDENCE_MALFORMED');
    expect(codeOf(() => verifyContract(contract(), [{ kind: 'tool_result', tool_id: 'x', passed: 'yes' }]))).toBe('ERR_EVIDENCE_MALFORMED');
    expect(codeOf(() => verifyContract(contract(), { kind: 'tool_result' }))).toBe('ERR_EVIDENCE_MALFORMED');
  });
});
