// Unit tests of the validation contract (contract.ts, jouleclaw §16.1–§16.3, §16.6), the verifier and its rollup
// (verdict.ts, §16.4–§16.6) and the canonical JSON the content hash is taken over (contract-json.ts, RFC 8785 reading).
import { blake3 as nobleBlake3 } from '@noble/hashes/blake3.js';
import { describe, expect, it } from 'vitest';
import type { JcpErrorCode } from '../errors.ts';
import { codeOf, thrown } from '../_test-support.ts';
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

  it('names the repeated id and its list, or the feature and the claim the contract does not hold', () => {
    const c = contract();
    const cases: [object, JcpErrorCode, object, RegExp][] = [
      [{ ...c, assertions: [...c.assertions, A('A-2', 'must_have', { kind: 'checker', checker_id: 'z' })] }, 'ERR_CONTRACT_DUPLICATE_ID', { id: 'A-2', list: 'assertions' }, /assertion id "A-2" appears more than once/],
      [{ ...c, features: [...c.features, { id: 'F-2', title: 'again', claims: [] }] }, 'ERR_CONTRACT_DUPLICATE_ID', { id: 'F-2', list: 'features' }, /feature id "F-2" appears more than once/],
      [{ ...c, features: [{ id: 'F-9', title: 'x', claims: ['A-1', 'A-404'] }] }, 'ERR_CONTRACT_UNKNOWN_CLAIM', { feature: 'F-9', claim: 'A-404' }, /feature "F-9" claims assertion "A-404", which the contract does not hold/],
    ];
    for (const [doc, code, detail, says] of cases) {
      const e = thrown(() => parseContract(doc));
      expect([e.code, e.detail]).toEqual([code, detail]);
      expect(e.message).toMatch(says);
    }
  });

  it('says which field of a malformed contract is wrong, by its path, and what it must be', () => {
    const c = contract();
    const second = (a: object) => ({ ...c, assertions: [c.assertions[0], a], features: [] });
    // JSON text: JSON.stringify drops a member whose value is undefined, so the field is absent, not undefined
    const cases: [unknown, JcpErrorCode, RegExp][] = [
      ['{"jc_contract":', 'ERR_CONTRACT_MALFORMED', /: contract is not JSON/],
      ['[1]', 'ERR_CONTRACT_MALFORMED', /: contract must be a JSON object/],
      [JSON.stringify({ ...c, jc_contract: undefined }), 'ERR_CONTRACT_MALFORMED', /: contract\.jc_contract is missing/],
      [{ ...c, jc_contract: 'contract/2' }, 'ERR_JC_SCHEMA_UNKNOWN', /: jc_contract "contract\/2" is not contract\/1/],
      [second(A('A-2', 'urgent', { kind: 'tool', tool_id: 'x' })), 'ERR_CONTRACT_MALFORMED', /: assertions\[1\]\.priority must be one of must_have \| should_have \| nice_to_have, got "urgent"/],
      [second(A('A-2', 'must_have', { kind: 'vibes' })), 'ERR_CONTRACT_MALFORMED', /: assertions\[1\]\.check\.kind "vibes" is not one of tool, artifact, command, checker/],
      [second({ id: 'A-2', title: 't', priority: 'must_have' }), 'ERR_CONTRACT_MALFORMED', /: assertions\[1\]\.check must be a JSON object/],
      [JSON.stringify({ ...c, features: [c.features[0], { ...c.features[1], title: undefined }] }), 'ERR_CONTRACT_MALFORMED', /: features\[1\]\.title is missing/],
      [{ ...c, acceptance: { block_on_should_have: 'yes' } }, 'ERR_CONTRACT_MALFORMED', /: contract\.acceptance\.block_on_should_have must be a boolean/],
      [{ ...c, authored_by: 7 }, 'ERR_CONTRACT_MALFORMED', /: contract\.authored_by must be a string/],
    ];
    for (const [doc, code, says] of cases) {
      const e = thrown(() => parseContract(doc));
      expect(e.code, String(says)).toBe(code);
      expect(e.message).toMatch(says);
    }
    expect(thrown(() => contractHash('{"title":')).message).toMatch(/: contract is not JSON/);
  });

  it('keeps the optional fields it is given and omits those it is not (§16.1–§16.3)', () => {
    // authored_by: the did:key of the author (§16.1); this one is the W3C did:key document's example
    const author = 'did:key:z6MkhaXgBZDvotDkL5257faiztiGiC2QtKLGpbnnEGta2doK';
    const c = parseContract(
      contract({
        authored_by: author,
        assertions: [
          { ...A('A-1', 'must_have', { kind: 'tool', tool_id: 'lint', args_hash: 'x' }), rationale: 'why' },
          A('A-2', 'should_have', { kind: 'artifact', path: 'p' }),
          A('A-3', 'nice_to_have', { kind: 'tool', tool_id: 'fmt' }),
        ],
        features: [
          { id: 'F-1', title: 'one', description: 'what', claims: ['A-1'] },
          { id: 'F-2', title: 'two', claims: ['A-2'] },
        ],
      }),
    );
    expect(c.authored_by).toBe(author);
    // toStrictEqual: a member holding undefined is not an omitted member
    expect(c.assertions).toStrictEqual([
      { id: 'A-1', title: 't A-1', rationale: 'why', priority: 'must_have', check: { kind: 'tool', tool_id: 'lint', args_hash: 'x' } },
      { id: 'A-2', title: 't A-2', priority: 'should_have', check: { kind: 'artifact', path: 'p' } },
      { id: 'A-3', title: 't A-3', priority: 'nice_to_have', check: { kind: 'tool', tool_id: 'fmt' } },
    ]);
    expect(c.features).toStrictEqual([
      { id: 'F-1', title: 'one', description: 'what', claims: ['A-1'] },
      { id: 'F-2', title: 'two', claims: ['A-2'] },
    ]);
  });

  it('reads a contract without authored_by as an unsigned draft: authored_by empty (§16.1)', () => {
    // §16.1 authored_by: "May be empty for unsigned drafts"
    expect(parseContract(JSON.stringify({ ...contract(), authored_by: undefined })).authored_by).toBe('');
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
