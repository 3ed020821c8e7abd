// Unit tests of the verdict receipt "verdict-receipt/1" (verdict-receipt.ts, jouleclaw §16.7): verdict_json and
// verdict_hash in the signed core, contract_hash bound, the JCR-1 envelope, and each refusal of the opener.
import { blake3 as nobleBlake3 } from '@noble/hashes/blake3.js';
import { describe, expect, it } from 'vitest';
import { codeOf, lazy, lazyKey, thrown } from '../_test-support.ts';
import { decodeCanonical, type CborMap } from '../cbor/index.ts';
import { decodeSign1 } from '../cose/sign1.ts';
import { contractHash } from './contract.ts';
import { sealJcCore } from './receipt-envelope.ts';
import { checkVerdictCore, openVerdictReceipt, sealVerdictReceipt, verdictReceiptCore } from './verdict-receipt.ts';
import { verifyContract, verdictJson } from './verdict.ts';

const steward = lazyKey('steward');
const hex = (b: Uint8Array) => Buffer.from(b).toString('hex');
const contract = {
  jc_contract: 'contract/1',
  title: 'm',
  assertions: [{ id: 'A-1', title: 'x', priority: 'must_have', check: { kind: 'checker', checker_id: 'k' } }],
  features: [{ id: 'F-1', title: 'f', claims: ['A-1'] }],
};
const other = { ...contract, title: 'other' };
const verdict = lazy(() => verifyContract(contract, [{ kind: 'checker_result', checker_id: 'k', passed: true }]));
const fields = { id: '00000000-0000-4000-8000-00000000000a', closed_at: '2026-11-30T05:00:00Z', engine_id: 'validator', audit_sequence: 7 };

describe('verdict receipt (jouleclaw §16.7)', () => {
  it('the signed core carries verdict_json (a string), verdict_hash = BLAKE3 of its bytes, and the contract hash', () => {
    const env = sealVerdictReceipt(fields, steward, verdict, contract);
    const core = decodeCanonical(decodeSign1(env).payload) as CborMap;
    expect([...core.keys()].sort()).toEqual(['audit_sequence', 'closed_at', 'contract_hash', 'engine_id', 'id', 'jc_receipt', 'steward', 'verdict_hash', 'verdict_json']);
    expect(core.get('jc_receipt')).toBe('verdict-receipt/1');
    expect(typeof core.get('verdict_json')).toBe('string');
    expect(core.get('verdict_json')).toBe(verdictJson(verdict));
    expect(core.get('verdict_hash')).toBe(hex(nobleBlake3(new TextEncoder().encode(core.get('verdict_json') as string))));
    expect(core.get('contract_hash')).toBe(contractHash(contract));
    const opened = openVerdictReceipt(env, contract);
    expect(opened.wire['verdict']).toEqual(JSON.parse(verdictJson(verdict)));
  });

  it('refuses to seal against a contract the verdict was not produced against', () => {
    expect(codeOf(() => sealVerdictReceipt(fields, steward, verdict, other))).toBe('ERR_VERDICT_CONTRACT_MISMATCH');
  });

  it('the opener refuses a wrong verdict_hash, a core contract_hash not the verdict\'s, and another contract', () => {
    const core = verdictReceiptCore(fields, steward.did, verdict);
    expect(codeOf(() => openVerdictReceipt(sealJcCore({ ...core, verdict_hash: '00'.repeat(32) }, steward)))).toBe('ERR_VERDICT_HASH_MISMATCH');
    expect(codeOf(() => openVerdictReceipt(sealJcCore({ ...core, contract_hash: contractHash(other) }, steward)))).toBe('ERR_VERDICT_CONTRACT_MISMATCH');
    expect(codeOf(() => openVerdictReceipt(sealVerdictReceipt(fields, steward, verdict), other))).toBe('ERR_VERDICT_CONTRACT_MISMATCH');
    expect(codeOf(() => openVerdictReceipt(sealJcCore({ ...core, jc_receipt: 'verdict-receipt/2' }, steward)))).toBe('ERR_JC_SCHEMA_UNKNOWN');
  });

  it('the seal refusal names the verdict\'s contract and the given one', () => {
    const e = thrown(() => sealVerdictReceipt(fields, steward, verdict, other));
    expect(e.message).toContain(`: the verdict was produced against contract ${contractHash(contract)}, not the given contract ${contractHash(other)}`);
  });

  it('refuses a steward that is not a did:key handle', () => {
    const e = thrown(() => verdictReceiptCore(fields, 'steward', verdict));
    expect(e.code).toBe('ERR_BAD_ARGUMENT');
    expect(e.message).toContain(': steward must be a did:key handle');
  });

  it('refuses an audit_sequence that is negative or not an integer, and takes 0', () => {
    for (const audit_sequence of [-1, 1.5, Number.NaN]) {
      const e = thrown(() => verdictReceiptCore({ ...fields, audit_sequence }, steward.did, verdict));
      expect(e.code, String(audit_sequence)).toBe('ERR_BAD_ARGUMENT');
      expect(e.message).toContain(': audit_sequence must be a non-negative integer');
    }
    expect(verdictReceiptCore({ ...fields, audit_sequence: 0 }, steward.did, verdict).audit_sequence).toBe(0);
  });

  it('refuses verdict text that is not JSON, not an object, or not a "verdict/1" ContractVerdict', () => {
    const core = (v: string) => () => verdictReceiptCore(fields, steward.did, v);
    expect(thrown(core('{not json')).message).toContain(': verdict_json is not JSON');
    expect(thrown(core('[]')).message).toContain(': verdict must be a JSON object');
    expect(thrown(core('{}')).message).toContain(': verdict.jc_verdict is missing');
    const e = thrown(core(verdictJson(verdict).replace('"verdict/1"', '"verdict/2"')));
    expect(e.code).toBe('ERR_JC_SCHEMA_UNKNOWN');
    expect(e.message).toContain(': the verdict is not a "verdict/1" ContractVerdict');
  });

  // jouleclaw §7: a known sibling schema is read by its own reader, never as a verdict receipt
  it('the opener refuses a sealed receipt of another schema, naming its jc_receipt', () => {
    const e = thrown(() => openVerdictReceipt(sealJcCore({ ...verdictReceiptCore(fields, steward.did, verdict), jc_receipt: 'policy/1' }, steward)));
    expect(e.code).toBe('ERR_JC_SCHEMA_UNKNOWN');
    expect(e.message).toContain(': expected a verdict receipt, got jc_receipt "policy/1"');
  });

  it('the opener\'s refusals name the hashes that disagree', () => {
    const core = verdictReceiptCore(fields, steward.did, verdict);
    const z = '00'.repeat(32);
    expect(thrown(() => openVerdictReceipt(sealJcCore({ ...core, verdict_hash: z }, steward))).message).toContain(`: verdict_hash ${z} is not BLAKE3 of verdict_json (${core.verdict_hash})`);
    expect(thrown(() => openVerdictReceipt(sealJcCore({ ...core, contract_hash: z }, steward))).message).toContain(`: the core's contract_hash ${z} differs from the verdict's ${core.contract_hash}`);
    expect(thrown(() => openVerdictReceipt(sealVerdictReceipt(fields, steward, verdict), other)).message).toContain(`: the receipt binds contract ${core.contract_hash}, not the given contract ${contractHash(other)}`);
  });

  it('checkVerdictCore names the verdict receipt path of a missing field', () => {
    const { id: _, ...core } = verdictReceiptCore(fields, steward.did, verdict);
    const e = thrown(() => checkVerdictCore(core));
    expect(e.code).toBe('ERR_JC_RECEIPT_MALFORMED');
    expect(e.message).toContain(': verdict receipt.id is missing');
  });
});
