// Unit tests of the policy/1 receipt (impl/jouleclaw/policy-receipt.ts, jouleclaw §10): canonical core, optional
// policy_digest omitted when absent, the digest in force at decision time, kid = steward, strict verification.
import { describe, expect, it } from 'vitest';
import { codeOf, lazyKey } from '../_test-support.ts';
import { toHex } from '../bytes.ts';
import { cborTag, decodeCanonical, encodeCanonical, type CborValue } from '../cbor/index.ts';
import { decodeSign1, protectedHeaderBytes, signSign1, signSign1WithHeader } from '../cose/sign1.ts';
import { defaultEd25519 } from '../identity/ed25519.ts';
import { stewardKid } from '../receipt/seal.ts';
import { createPolicyEngine, parsePolicy } from './policy.ts';
import { policyDigest } from './policy-digest.ts';
import { policyReceiptFieldsFromEvent, sealPolicyReceipt, verifyPolicyReceipt, type PolicyReceiptFields } from './policy-receipt.ts';

const steward = lazyKey('steward');
const mallory = lazyKey('mallory');
const agent = lazyKey('bob').did;
const ID = '0f8fad5b-d9cb-469f-a165-70867728950e';
const AT = '2026-06-08T12:00:00Z';

const fields = (over: Partial<PolicyReceiptFields> = {}): PolicyReceiptFields => ({
  id: ID,
  closed_at: AT,
  engine_id: 'engine-A',
  audit_sequence: 7n,
  policy_version: 2n,
  agent,
  action: { kind: 'filesystem', path: '/workspace/x', mode: 'read' },
  decision: { kind: 'allow', rule: 'read-workspace' },
  ...over,
});
const DIGEST = 'd29dcb77323cc3783a3064ecc39af41a1328b1917bf71905f2cfcaa560c97a8e';

/** Re-seals a modified core map with `signer` and `kid`. */
function reseal(payloadMap: Map<CborValue, CborValue>, signer = steward, kidDid = steward.did): Uint8Array {
  return signSign1(encodeCanonical(payloadMap), stewardKid(kidDid), signer.seed, defaultEd25519());
}
function coreOf(receipt: Uint8Array): Map<CborValue, CborValue> {
  return decodeCanonical(decodeSign1(receipt).payload) as Map<CborValue, CborValue>;
}

describe('policy/1 receipt (jouleclaw §10)', () => {
  it('seals the §10 fields as canonical CBOR under protected {1: -8, 4: steward}', () => {
    const r = sealPolicyReceipt(fields({ policy_digest: DIGEST }), steward);
    const s = decodeSign1(r);
    expect(toHex(s.protectedBytes)).toBe(toHex(protectedHeaderBytes(new TextEncoder().encode(steward.did))));
    expect(s.unprotected.size).toBe(0);
    const core = coreOf(r);
    expect([...core.keys()].sort()).toEqual(['action', 'agent', 'audit_sequence', 'closed_at', 'decision', 'engine_id', 'id', 'jc_receipt', 'policy_digest', 'policy_version', 'steward'].sort());
    expect(core.get('jc_receipt')).toBe('policy/1');
    expect(core.get('audit_sequence')).toBe(7);
    expect(verifyPolicyReceipt(r, { steward: steward.did, requireDigest: true }).core.policy_digest).toBe(DIGEST);
  });

  it('omits an absent policy_digest entirely: the two cores differ by exactly that key', () => {
    const without = coreOf(sealPolicyReceipt(fields(), steward));
    const withD = coreOf(sealPolicyReceipt(fields({ policy_digest: DIGEST }), steward));
    expect(without.has('policy_digest')).toBe(false);
    withD.delete('policy_digest');
    expect(toHex(encodeCanonical(withD))).toBe(toHex(encodeCanonical(without)));
    expect(codeOf(() => sealPolicyReceipt(fields({ policy_digest: '' }), steward))).toBe('ERR_JC_RECEIPT_MALFORMED');
  });

  it('refuses a receipt without the binding when the consumer requires it', () => {
    const r = sealPolicyReceipt(fields(), steward);
    expect(verifyPolicyReceipt(r).core.policy_digest).toBeUndefined();
    expect(codeOf(() => verifyPolicyReceipt(r, { requireDigest: true }))).toBe('ERR_POLICY_DIGEST_ABSENT');
  });

  it('binds the digest in force when the decision was made, not the engine\'s current one', () => {
    const p1 = parsePolicy({ version: 1, rules: [{ name: 'read-workspace', effect: 'allow', agents: 'any', action: { kind: 'filesystem', path_glob: '/workspace/**', modes: ['read'] } }] });
    const p2 = parsePolicy({ version: 2, rules: [] });
    const e = createPolicyEngine({ engine_id: 'engine-A', policy: p1 });
    const ev = e.evaluate(agent, { kind: 'filesystem', path: '/workspace/x', mode: 'read' });
    e.installPolicy(p2);
    const f = policyReceiptFieldsFromEvent(e.engine_id, ev, { id: ID, closed_at: AT, bind: true });
    expect(f.policy_digest).toBe(policyDigest(p1));
    expect(f.policy_version).toBe(1n);
    expect(policyReceiptFieldsFromEvent(e.engine_id, ev, { id: ID, closed_at: AT, bind: false }).policy_digest).toBeUndefined();
  });

  it('rejects a kid that disagrees with the steward, a forged signature, another schema; reads a later minor', () => {
    const core = coreOf(sealPolicyReceipt(fields(), steward));
    expect(codeOf(() => verifyPolicyReceipt(reseal(core, mallory, mallory.did)))).toBe('ERR_RECEIPT_STEWARD_MISMATCH');
    expect(codeOf(() => verifyPolicyReceipt(reseal(core, mallory, steward.did)))).toBe('ERR_RECEIPT_SIGNATURE_INVALID');
    expect(codeOf(() => verifyPolicyReceipt(reseal(core), { steward: mallory.did }))).toBe('ERR_RECEIPT_STEWARD_MISMATCH');
    expect(codeOf(() => verifyPolicyReceipt(reseal(new Map(core).set('jc_receipt', '1'))))).toBe('ERR_JC_SCHEMA_UNKNOWN');
    expect(codeOf(() => verifyPolicyReceipt(reseal(new Map(core).set('jc_receipt', 'policy/2'))))).toBe('ERR_JC_SCHEMA_UNKNOWN');
    expect(codeOf(() => verifyPolicyReceipt(reseal(new Map(core).set('jc_receipt', 'policy'))))).toBe('ERR_JC_RECEIPT_MALFORMED');
    // jouleclaw §7 "Unknown minor → accept by ignoring unknown fields"
    const later = verifyPolicyReceipt(reseal(new Map(core).set('jc_receipt', 'policy/1.1').set('extra', 1))).core;
    expect(later.jc_receipt).toBe('policy/1.1');
    expect('extra' in later).toBe(false);
    expect(codeOf(() => verifyPolicyReceipt(reseal(new Map(core).set('policy_digest', ''))))).toBe('ERR_JC_RECEIPT_MALFORMED');
    expect(codeOf(() => verifyPolicyReceipt(reseal(new Map(core).set('decision', new Map([['kind', 'deny']])))))).toBe('ERR_JC_RECEIPT_MALFORMED');
    expect(codeOf(() => verifyPolicyReceipt(new Uint8Array([1, 2, 3])))).toBe('ERR_COSE_MALFORMED');
    // envelope: another alg, an extra protected label, a non-empty unprotected bucket, an untagged envelope
    const payload = encodeCanonical(core);
    const kid = stewardKid(steward.did);
    const withHeader = (h: Map<CborValue, CborValue>) => signSign1WithHeader(payload, encodeCanonical(h), steward.seed, defaultEd25519());
    expect(codeOf(() => verifyPolicyReceipt(withHeader(new Map<CborValue, CborValue>([[1, -7], [4, kid]]))))).toBe('ERR_COSE_UNSUPPORTED_ALG');
    expect(codeOf(() => verifyPolicyReceipt(withHeader(new Map<CborValue, CborValue>([[1, -8], [3, 0], [4, kid]]))))).toBe('ERR_COSE_MALFORMED');
    expect(codeOf(() => verifyPolicyReceipt(withHeader(new Map<CborValue, CborValue>([[1, -8]]))))).toBe('ERR_COSE_MALFORMED');
    const good = decodeSign1(reseal(core));
    const unprot = encodeCanonical(cborTag(18, [good.protectedBytes, new Map<CborValue, CborValue>([[5, new Uint8Array(1)]]), good.payload, good.signature]), { allowTags: true });
    expect(codeOf(() => verifyPolicyReceipt(unprot))).toBe('ERR_COSE_MALFORMED');
    const untagged = encodeCanonical([good.protectedBytes, new Map(), good.payload, good.signature]);
    expect(codeOf(() => verifyPolicyReceipt(untagged))).toBe('ERR_COSE_MALFORMED');
  });

  it('refuses malformed producer fields, saying which', () => {
    const bad: Partial<PolicyReceiptFields>[] = [
      { id: 'not-a-uuid' },
      { id: '0f8fad5b-d9cb-169f-a165-70867728950e' }, // version 1, not 4
      { closed_at: '2026-06-08 12:00:00' },
      { engine_id: '' },
      { audit_sequence: -1n },
      { agent: 'agent-a' },
      { action: { kind: 'filesystem', path: 'x', mode: 'read' } },
      { decision: { kind: 'deny', reason: 'explicit_deny' } as never },
      { policy_digest: DIGEST.toUpperCase() },
    ];
    for (const b of bad) expect(codeOf(() => sealPolicyReceipt(fields(b), steward)), JSON.stringify(b, (_, v) => (typeof v === 'bigint' ? String(v) : v))).toBe('ERR_JC_RECEIPT_MALFORMED');
    for (const d of [{ kind: 'deny', reason: 'no_matching_allow' }, { kind: 'deny', reason: 'explicit_deny', rule: 'no-x' }] as const) {
      expect(verifyPolicyReceipt(sealPolicyReceipt(fields({ decision: d }), steward)).core.decision).toEqual(d);
    }
    const proc = { kind: 'process', binary: '/usr/bin/git', argv: ['status', '-s'] } as const;
    expect(verifyPolicyReceipt(sealPolicyReceipt(fields({ action: proc }), steward)).core.action).toEqual(proc);
  });
});
