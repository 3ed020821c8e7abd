// Unit tests of the policy/1 receipt (impl/jouleclaw/policy-receipt.ts, jouleclaw §10): canonical core, optional
// policy_digest omitted when absent, the digest in force at decision time, kid = steward, strict verification.
// Then its edges: each refusal's code, message and detail naming the field at fault; the u64 counters at their
// bounds; the three decision forms read exactly (the reading in the module header); the verifier's envelope and core
// refusals, word for word.
import { describe, expect, it } from 'vitest';
import { codeOf, lazyKey, thrown } from '../_test-support.ts';
import { fromHex, toHex } from '../bytes.ts';
import { cborTag, decodeCanonical, encodeCanonical, type CborValue } from '../cbor/index.ts';
import { decodeSign1, protectedHeaderBytes, signSign1, signSign1WithHeader } from '../cose/sign1.ts';
import { defaultEd25519 } from '../identity/ed25519.ts';
import { stewardKid } from '../receipt/seal.ts';
import { createPolicyEngine, parsePolicy } from './policy.ts';
import { policyDigest } from './policy-digest.ts';
import {
  checkPolicyReceiptFields,
  parsePolicyDecision,
  parsePolicyReceiptCore,
  policyReceiptCore,
  policyReceiptFieldsFromEvent,
  sealPolicyReceipt,
  verifyPolicyReceipt,
  type PolicyReceiptFields,
} from './policy-receipt.ts';

const steward = lazyKey('steward');
const mallory = lazyKey('mallory');
const agent = lazyKey('bob').did;
const ID = '0f8fad5b-d9cb-469f-a165-70867728950e';
const AT = '2026-06-08T12:00:00Z';

/** The fields of a receipt, with any of them replaced (by a value of the wrong type too, to be refused). */
const fields = (over: Record<string, unknown> = {}): PolicyReceiptFields =>
  ({
    id: ID,
    closed_at: AT,
    engine_id: 'engine-A',
    audit_sequence: 7n,
    policy_version: 2n,
    agent,
    action: { kind: 'filesystem', path: '/workspace/x', mode: 'read' },
    decision: { kind: 'allow', rule: 'read-workspace' },
    ...over,
  }) as PolicyReceiptFields;
const DIGEST = 'd29dcb77323cc3783a3064ecc39af41a1328b1917bf71905f2cfcaa560c97a8e';
const U64_MAX = (1n << 64n) - 1n;

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

/** Checks `fn` throws ERR_JC_RECEIPT_MALFORMED "policy/1 <what>: <message>" with detail {what}. */
function expectMalformed(fn: () => unknown, what: string, message: string): void {
  const e = thrown(fn);
  expect(e.code).toBe('ERR_JC_RECEIPT_MALFORMED');
  expect(e.message).toBe(`ERR_JC_RECEIPT_MALFORMED: policy/1 ${what}: ${message}`);
  expect(e.detail).toEqual({ what });
}


const U64_MSG = 'must be an unsigned 64-bit integer';
const DECISION_MSG = 'must be {kind: "allow", rule}, {kind: "deny", reason: "no_matching_allow"} or {kind: "deny", reason: "explicit_deny", rule}';

describe('policy/1 producer fields (jouleclaw §10)', () => {
  it('refuses a non-object field set, naming the receipt', () => {
    for (const f of [null, 'fields', 5]) expectMalformed(() => checkPolicyReceiptFields(f as never), 'receipt', 'fields must be an object');
  });

  it('names the field at fault in each refusal', () => {
    expectMalformed(() => checkPolicyReceiptFields(fields({ id: 'not-a-uuid' })), 'id', 'must be a lower-case UUID v4');
    expectMalformed(() => checkPolicyReceiptFields(fields({ id: ID.toUpperCase() })), 'id', 'must be a lower-case UUID v4');
    expectMalformed(() => checkPolicyReceiptFields(fields({ closed_at: '2026-06-08 12:00:00' })), 'closed_at', 'must be an RFC 3339 date-time');
    // text is required, not anything whose string form would match
    expectMalformed(() => checkPolicyReceiptFields(fields({ id: [ID] })), 'id', 'must be a lower-case UUID v4');
    expectMalformed(() => checkPolicyReceiptFields(fields({ closed_at: 20260608 })), 'closed_at', 'must be an RFC 3339 date-time');
    expectMalformed(() => checkPolicyReceiptFields(fields({ closed_at: [AT] })), 'closed_at', 'must be an RFC 3339 date-time');
    expectMalformed(() => checkPolicyReceiptFields(fields({ engine_id: '' })), 'engine_id', 'must be non-empty text');
    expectMalformed(() => checkPolicyReceiptFields(fields({ engine_id: 5 })), 'engine_id', 'must be non-empty text');
    expectMalformed(() => checkPolicyReceiptFields(fields({ agent: 'agent-a' })), 'agent', 'must be an Ed25519 did:key handle');
    expectMalformed(() => policyReceiptCore(fields(), 'steward-s'), 'steward', 'must be an Ed25519 did:key handle');
    // the action's own refusal travels inside the receipt's
    expectMalformed(
      () => checkPolicyReceiptFields(fields({ action: { kind: 'telepathy' } })),
      'action',
      'ERR_POLICY_ACTION_MALFORMED: action.kind: must be "filesystem", "network" or "process"',
    );
  });

  it('passes on a non-JcpError thrown while reading the action unchanged', () => {
    const boom = new Error('boom');
    const action = { get kind(): string { throw boom; }, path: '/x', mode: 'read' };
    let caught: unknown;
    try {
      checkPolicyReceiptFields(fields({ action }));
    } catch (e) {
      caught = e;
    }
    expect(caught).toBe(boom);
  });

  it('policy_digest (§10.1): present means 64 lower-case hex digits; absent leaves no key at all', () => {
    const msg = 'must be 64 lower-case hex digits when present (absent = omitted, never null or empty)';
    for (const d of ['', null, DIGEST.toUpperCase(), DIGEST.slice(1), [DIGEST], { toString: () => DIGEST }]) {
      expectMalformed(() => checkPolicyReceiptFields(fields({ policy_digest: d })), 'policy_digest', msg);
    }
    expect(checkPolicyReceiptFields(fields({ policy_digest: DIGEST })).policy_digest).toBe(DIGEST);
    const absent = checkPolicyReceiptFields(fields());
    expect(Object.keys(absent)).not.toContain('policy_digest');
    expect('policy_digest' in absent).toBe(false);
  });

  it('audit_sequence and policy_version are u64: 0 and 2^64-1 accepted, -1 and 2^64 refused', () => {
    for (const what of ['audit_sequence', 'policy_version'] as const) {
      expect(checkPolicyReceiptFields(fields({ [what]: 0n }))[what]).toBe(0n);
      expect(checkPolicyReceiptFields(fields({ [what]: U64_MAX }))[what]).toBe(U64_MAX);
      expectMalformed(() => checkPolicyReceiptFields(fields({ [what]: -1n })), what, U64_MSG);
      expectMalformed(() => checkPolicyReceiptFields(fields({ [what]: U64_MAX + 1n })), what, U64_MSG);
    }
  });

  it('a u64 may come as a safe-integer number and is returned as a bigint; anything else is refused', () => {
    expect(checkPolicyReceiptFields(fields({ audit_sequence: 7 })).audit_sequence).toBe(7n);
    expect(checkPolicyReceiptFields(fields({ policy_version: 0 })).policy_version).toBe(0n);
    for (const v of ['7', 1.5, 2 ** 53, -1, undefined, null, true]) {
      expectMalformed(() => checkPolicyReceiptFields(fields({ audit_sequence: v })), 'audit_sequence', U64_MSG);
    }
  });
});

describe('policy/1 decision forms (the module header reading of §10)', () => {
  it('reads the three forms exactly', () => {
    expect(parsePolicyDecision({ kind: 'allow', rule: 'r' })).toEqual({ kind: 'allow', rule: 'r' });
    expect(parsePolicyDecision({ kind: 'deny', reason: 'no_matching_allow' })).toEqual({ kind: 'deny', reason: 'no_matching_allow' });
    expect(parsePolicyDecision({ kind: 'deny', reason: 'explicit_deny', rule: 'r' })).toEqual({ kind: 'deny', reason: 'explicit_deny', rule: 'r' });
  });

  it('refuses a decision that is not an object', () => {
    for (const d of [null, undefined, 'allow', 5, [], [{ kind: 'allow', rule: 'r' }]]) {
      expectMalformed(() => parsePolicyDecision(d), 'decision', 'must be an object');
    }
  });

  it('refuses any other combination of kind, reason and rule, or an extra field', () => {
    const bad: Record<string, unknown>[] = [
      {},
      { kind: 'deny', rule: 'r' },
      { kind: 'maybe', rule: 'r' },
      { kind: 'allow', rule: 'r', extra: 1 },
      { kind: 'allow', reason: 'no_matching_allow' },
      { kind: 'deny', reason: 'no_matching_allow', rule: 'r' },
      { kind: 'deny', reason: 'no_matching_allow', extra: 1 },
      { kind: 'maybe', reason: 'no_matching_allow' },
      { kind: 'deny', reason: 'explicit_deny' },
      { kind: 'deny', reason: 'explicit_deny', rule: 'r', extra: 1 },
      { kind: 'deny', reason: 'other', rule: 'r' },
      { kind: 'allow', reason: 'explicit_deny', rule: 'r' },
      { kind: 'allow', reason: 'other', rule: 'r' },
      { kind: 'maybe', reason: 'explicit_deny', rule: 'r' },
    ];
    for (const d of bad) expectMalformed(() => parsePolicyDecision(d), 'decision', DECISION_MSG);
  });

  it('refuses an empty rule, naming decision.rule', () => {
    expectMalformed(() => parsePolicyDecision({ kind: 'allow', rule: '' }), 'decision.rule', 'must be non-empty text');
    expectMalformed(() => parsePolicyDecision({ kind: 'deny', reason: 'explicit_deny', rule: '' }), 'decision.rule', 'must be non-empty text');
  });
});

describe('policy/1 verification (jouleclaw §10, §7)', () => {
  const core = () => coreOf(sealPolicyReceipt(fields(), steward));

  it('reads the counters back as bigints and keeps numeric-looking text as text', () => {
    const decision = { kind: 'deny', reason: 'explicit_deny', rule: '7' } as const;
    const action = { kind: 'process', binary: '/bin/echo', argv: ['1', '9007199254740993'] } as const;
    const v = verifyPolicyReceipt(sealPolicyReceipt(fields({ decision, action }), steward)).core;
    expect(v.audit_sequence).toBe(7n);
    expect(v.policy_version).toBe(2n);
    expect(v.decision).toEqual(decision);
    expect(v.action).toEqual(action);
    const net = { kind: 'network', host: 'example.org', port: 443, method: 'get' } as const;
    expect(verifyPolicyReceipt(sealPolicyReceipt(fields({ action: net }), steward)).core.action).toEqual(net);
  });

  it('names the core field at fault', () => {
    expectMalformed(() => verifyPolicyReceipt(reseal(new Map(core()).set('audit_sequence', -1))), 'audit_sequence', U64_MSG);
    expectMalformed(() => verifyPolicyReceipt(reseal(new Map(core()).set('policy_version', 'two'))), 'policy_version', U64_MSG);
    expectMalformed(() => verifyPolicyReceipt(reseal(new Map(core()).set('steward', 'steward-s'))), 'steward', 'must be an Ed25519 did:key handle');
  });

  it('refuses a signed core that is not a map', () => {
    expectMalformed(() => parsePolicyReceiptCore(['policy/1']), 'core', 'the signed core must be a map');
    const r = signSign1(encodeCanonical(['policy/1']), stewardKid(steward.did), steward.seed, defaultEd25519());
    expectMalformed(() => verifyPolicyReceipt(r), 'core', 'the signed core must be a map');
  });

  it('refuses a signed core that is not canonical det-CBOR, carrying the CBOR code', () => {
    // {"b": 2, "a": 1}: keys out of RFC 8949 §4.2.1 order
    const r = signSign1(fromHex('a2616202616101'), stewardKid(steward.did), steward.seed, defaultEd25519());
    const e = thrown(() => verifyPolicyReceipt(r));
    expect(e.code).toBe('ERR_JC_RECEIPT_MALFORMED');
    expect(e.message.startsWith('ERR_JC_RECEIPT_MALFORMED: the signed core is not canonical det-CBOR (ERR_CBOR_UNSORTED_KEYS): ERR_CBOR_UNSORTED_KEYS: ')).toBe(true);
    expect(e.detail).toEqual({ cause_code: 'ERR_CBOR_UNSORTED_KEYS' });
    expect((e.cause as { code?: string } | undefined)?.code).toBe('ERR_CBOR_UNSORTED_KEYS');
  });

  it('bounds the nesting of the signed core at 8 levels, unknown fields included', () => {
    const nest = (n: number): CborValue => (n === 0 ? 0 : [nest(n - 1)]);
    // the core map is level 1: 7 more levels are read (the unknown field ignored, §7), 8 more are refused
    expect(verifyPolicyReceipt(reseal(new Map(core()).set('x', nest(7)))).core.id).toBe(ID);
    const e = thrown(() => verifyPolicyReceipt(reseal(new Map(core()).set('x', nest(8)))));
    expect(e.code).toBe('ERR_JC_RECEIPT_MALFORMED');
    expect(e.detail).toEqual({ cause_code: 'ERR_CBOR_TOO_DEEP' });
  });

  it('says why the envelope is refused', () => {
    const payload = encodeCanonical(core());
    const kid = stewardKid(steward.did);
    const withHeader = (h: Map<CborValue, CborValue>) => signSign1WithHeader(payload, encodeCanonical(h), steward.seed, defaultEd25519());
    let e = thrown(() => verifyPolicyReceipt(withHeader(new Map<CborValue, CborValue>([[1, -8], [3, 0], [4, kid]]))));
    expect([e.code, e.message]).toEqual(['ERR_COSE_MALFORMED', 'ERR_COSE_MALFORMED: the protected header carries unsupported label 3']);
    e = thrown(() => verifyPolicyReceipt(withHeader(new Map<CborValue, CborValue>([[1, -7], [4, kid]]))));
    expect([e.code, e.message]).toEqual(['ERR_COSE_UNSUPPORTED_ALG', 'ERR_COSE_UNSUPPORTED_ALG: alg is -7, a policy receipt is EdDSA (-8)']);
    e = thrown(() => verifyPolicyReceipt(withHeader(new Map<CborValue, CborValue>([[1, -8], [4, steward.did]]))));
    expect([e.code, e.message]).toEqual(['ERR_COSE_MALFORMED', 'ERR_COSE_MALFORMED: the protected header lacks kid (label 4) as a byte string']);
    // a kid that is not UTF-8 cannot name the steward
    e = thrown(() => verifyPolicyReceipt(withHeader(new Map<CborValue, CborValue>([[1, -8], [4, new Uint8Array([0xff])]]))));
    expect([e.code, e.message]).toEqual(['ERR_RECEIPT_STEWARD_MISMATCH', 'ERR_RECEIPT_STEWARD_MISMATCH: the kid is not the UTF-8 of a did:key handle']);
  });

  it('refuses a non-empty unprotected header, saying so', () => {
    const good = decodeSign1(reseal(core()));
    const bytes = encodeCanonical(cborTag(18, [good.protectedBytes, new Map<CborValue, CborValue>([[5, new Uint8Array(1)]]), good.payload, good.signature]), { allowTags: true });
    const e = thrown(() => verifyPolicyReceipt(bytes));
    expect([e.code, e.message]).toEqual(['ERR_COSE_MALFORMED', 'ERR_COSE_MALFORMED: the unprotected header of a policy receipt must be empty']);
  });

  it('says which steward and which signature it refuses', () => {
    const c = core();
    const byMallory = signSign1(encodeCanonical(c), stewardKid(mallory.did), mallory.seed, defaultEd25519());
    let e = thrown(() => verifyPolicyReceipt(byMallory));
    expect([e.code, e.message]).toEqual(['ERR_RECEIPT_STEWARD_MISMATCH', `ERR_RECEIPT_STEWARD_MISMATCH: kid ${mallory.did} disagrees with the embedded steward ${steward.did}`]);
    e = thrown(() => verifyPolicyReceipt(reseal(c), { steward: mallory.did }));
    expect([e.code, e.message]).toEqual(['ERR_RECEIPT_STEWARD_MISMATCH', `ERR_RECEIPT_STEWARD_MISMATCH: receipt sealed by ${steward.did}, expected ${mallory.did}`]);
    expect(e.detail).toEqual({ expected: mallory.did, actual: steward.did });
    const forged = signSign1(encodeCanonical(c), stewardKid(steward.did), mallory.seed, defaultEd25519());
    e = thrown(() => verifyPolicyReceipt(forged));
    expect([e.code, e.message]).toEqual(['ERR_RECEIPT_SIGNATURE_INVALID', `ERR_RECEIPT_SIGNATURE_INVALID: the policy receipt's signature does not verify under steward ${steward.did}`]);
    // jouleclaw §10.1: a consumer that requires the binding checks for the field's presence
    e = thrown(() => verifyPolicyReceipt(reseal(c), { requireDigest: true }));
    expect([e.code, e.message]).toEqual(['ERR_POLICY_DIGEST_ABSENT', 'ERR_POLICY_DIGEST_ABSENT: the receipt carries no policy_digest and this consumer requires the binding']);
  });
});
