// Unit tests of the cascade receipt (receipt.ts, jouleclaw §2, §4), the schema-tag rules (versioning.ts, §7) and the
// shared sibling-receipt envelope (receipt-envelope.ts).
import { describe, expect, it } from 'vitest';
import { codeOf, lazyKey } from '../_test-support.ts';
import { decodeCanonical, encodeCanonical, type CborMap } from '../cbor/index.ts';
import { decodeSign1, protectedHeaderBytes, signSign1WithHeader } from '../cose/sign1.ts';
import { defaultEd25519, deriveSeed, keyPairFromSeed } from '../identity/ed25519.ts';
import { stewardKid } from '../receipt/seal.ts';
import { buildCascadeReceipt, cascadeReceiptJson, parseCascadeReceipt, worstProvenance } from './receipt.ts';
import { openJcReceipt, sealJcCore } from './receipt-envelope.ts';
import { parseSchemaTag, receiptKindOf } from './versioning.ts';

const steward = lazyKey('steward');
const H = 'ab'.repeat(32);
const tool = (tool_id: string, energy_provenance: string, joules_uj = 10) => ({ tool_id, joules_uj, energy_provenance });
const walk = (tools: object[], extra: object = {}) => ({
  id: '00000000-0000-4000-8000-000000000001',
  closed_at: '2026-11-30T05:00:00Z',
  input_hash: H,
  tier: 'L3',
  joules_uj: 30,
  tools_touched: tools,
  claims: [],
  ...extra,
});

describe('cascade receipt "1" (jouleclaw §2)', () => {
  it('takes the worst provenance across tools_touched, whatever their order', () => {
    expect(worstProvenance([])).toBeUndefined();
    const orders = [
      ['HwShunt', 'ModelBased', 'Estimator'],
      ['Estimator', 'HwShunt', 'ModelBased'],
      ['ModelBased', 'Estimator', 'HwShunt'],
    ];
    for (const o of orders) expect(buildCascadeReceipt(walk(o.map((p, i) => tool(`t${i}`, p)))).energy_provenance).toBe('Estimator');
    expect(buildCascadeReceipt(walk([tool('a', 'HwShunt'), tool('b', 'ModelBased')])).energy_provenance).toBe('ModelBased');
    expect(buildCascadeReceipt(walk([tool('a', 'HwShunt')])).energy_provenance).toBe('HwShunt');
  });

  it('refuses a stated provenance that is not the worst, better or worse', () => {
    const tools = [tool('a', 'HwShunt'), tool('b', 'ModelBased')];
    expect(codeOf(() => buildCascadeReceipt(walk(tools, { energy_provenance: 'HwShunt' })))).toBe('ERR_JC_PROVENANCE_NOT_WORST');
    expect(codeOf(() => buildCascadeReceipt(walk(tools, { energy_provenance: 'Estimator' })))).toBe('ERR_JC_PROVENANCE_NOT_WORST');
    expect(codeOf(() => parseCascadeReceipt({ jc_receipt: '1', ...walk(tools), energy_provenance: 'HwShunt' }))).toBe('ERR_JC_PROVENANCE_NOT_WORST');
    expect(parseCascadeReceipt({ jc_receipt: '1', ...walk(tools), energy_provenance: 'ModelBased' }).energy_provenance).toBe('ModelBased');
  });

  it('a walk with no tool states its own provenance; without one it is malformed', () => {
    expect(buildCascadeReceipt(walk([], { tier: 'L0', energy_provenance: 'Estimator' })).energy_provenance).toBe('Estimator');
    expect(codeOf(() => buildCascadeReceipt(walk([], { tier: 'L0' })))).toBe('ERR_JC_RECEIPT_MALFORMED');
  });

  it('refuses malformed fields: tier, hashes, trust_tier, uuid, negative joules', () => {
    const t = [tool('a', 'HwShunt')];
    expect(codeOf(() => buildCascadeReceipt(walk(t, { tier: 'L5' })))).toBe('ERR_JC_RECEIPT_MALFORMED');
    expect(codeOf(() => buildCascadeReceipt(walk(t, { input_hash: 'AB'.repeat(32) })))).toBe('ERR_JC_RECEIPT_MALFORMED');
    expect(codeOf(() => buildCascadeReceipt(walk(t, { id: 'not-a-uuid' })))).toBe('ERR_JC_RECEIPT_MALFORMED');
    expect(codeOf(() => buildCascadeReceipt(walk(t, { joules_uj: -1 })))).toBe('ERR_JC_RECEIPT_MALFORMED');
    const claim = { source: 'https://example.org', content_hash: H, fetched_at: '2026-11-30T04:00:00Z', trust_tier: 11 };
    expect(codeOf(() => buildCascadeReceipt(walk(t, { claims: [claim] })))).toBe('ERR_JC_RECEIPT_MALFORMED');
    expect(buildCascadeReceipt(walk(t, { claims: [{ ...claim, trust_tier: 10 }] })).claims[0]?.trust_tier).toBe(10);
    expect(codeOf(() => buildCascadeReceipt('{not json'))).toBe('ERR_JC_RECEIPT_MALFORMED');
  });

  it('reads eoc_stage: null as absent, so the JSON form omits it', () => {
    const r = buildCascadeReceipt(walk([tool('a', 'HwShunt')], { eoc_stage: null }));
    expect('eoc_stage' in cascadeReceiptJson(r)).toBe(false);
  });
});

describe('schema versioning (jouleclaw §7)', () => {
  it('parses bare and prefixed tags, with and without a minor', () => {
    expect(parseSchemaTag('1')).toEqual({ name: '', major: 1 });
    expect(parseSchemaTag('1.4')).toEqual({ name: '', major: 1, minor: 4 });
    expect(parseSchemaTag('verdict-receipt/1.2')).toEqual({ name: 'verdict-receipt', major: 1, minor: 2 });
    for (const bad of ['', '01', '1.', 'v1', 'Policy/1', '/1', 'a/b', 1]) expect(codeOf(() => parseSchemaTag(bad)), String(bad)).toBe('ERR_JC_RECEIPT_MALFORMED');
  });

  it('rejects an unknown major of a known namespace, skips an unknown namespace', () => {
    expect(receiptKindOf('1')).toBe('cascade');
    expect(receiptKindOf('1.7')).toBe('cascade');
    expect(receiptKindOf('policy/1')).toBe('policy');
    expect(receiptKindOf('verdict-receipt/1')).toBe('verdict');
    expect(receiptKindOf('mission/3')).toBe('unknown');
    for (const t of ['2', '0', 'policy/2', 'verdict-receipt/2.0']) expect(codeOf(() => receiptKindOf(t)), t).toBe('ERR_JC_SCHEMA_UNKNOWN');
  });

  it('a cascade receipt of an unknown minor is read ignoring its unknown fields; another major or namespace is refused', () => {
    const base = { ...walk([tool('a', 'ModelBased')]), energy_provenance: 'ModelBased' };
    const r = parseCascadeReceipt({ jc_receipt: '1.3', ...base, future_field: { x: 1 } });
    expect(r.jc_receipt).toBe('1.3');
    expect('future_field' in cascadeReceiptJson(r)).toBe(false);
    expect(codeOf(() => parseCascadeReceipt({ jc_receipt: '2', ...base }))).toBe('ERR_JC_SCHEMA_UNKNOWN');
    expect(codeOf(() => parseCascadeReceipt({ jc_receipt: 'policy/1', ...base }))).toBe('ERR_JC_SCHEMA_UNKNOWN');
  });
});

describe('sibling-receipt envelope', () => {
  const core = () => ({ ...cascadeReceiptJson(buildCascadeReceipt(walk([tool('a', 'HwShunt')]))), steward: steward.did });

  it('seals {1: -8, 4: kid} over the canonical core and opens it back', () => {
    const env = sealJcCore(core(), steward);
    const s = decodeSign1(env);
    expect(s.protectedHeader.get(1)).toBe(-8);
    expect(Buffer.from(s.protectedHeader.get(4) as Uint8Array).toString()).toBe(steward.did);
    expect(s.payload).toEqual(encodeCanonical(core()));
    const o = openJcReceipt(env);
    expect(o.kind).toBe('cascade');
    expect(o.core).toEqual(core());
  });

  it('refuses a kid that disagrees with the steward, a flipped signature, a sealer that is not the steward', () => {
    const other = keyPairFromSeed(deriveSeed('mallory'));
    const forged = signSign1WithHeader(encodeCanonical(core()), protectedHeaderBytes(stewardKid(other.did)), other.seed, defaultEd25519());
    // mallory's envelope naming steward in its core: kid and steward disagree
    expect(codeOf(() => openJcReceipt(forged))).toBe('ERR_RECEIPT_STEWARD_MISMATCH');
    const env = sealJcCore(core(), steward);
    env[env.length - 1]! ^= 1;
    expect(codeOf(() => openJcReceipt(env))).toBe('ERR_RECEIPT_SIGNATURE_INVALID');
    expect(codeOf(() => sealJcCore(core(), other))).toBe('ERR_BAD_ARGUMENT');
  });

  it('an unknown namespace is skipped without a core; an unknown major is refused', () => {
    const o = openJcReceipt(sealJcCore({ jc_receipt: 'mission/1', steward: steward.did }, steward));
    expect(o.kind).toBe('unknown');
    expect(o.core).toBeUndefined();
    expect(codeOf(() => openJcReceipt(sealJcCore({ ...core(), jc_receipt: '2' }, steward)))).toBe('ERR_JC_SCHEMA_UNKNOWN');
    expect((decodeCanonical(decodeSign1(sealJcCore(core(), steward)).payload) as CborMap).get('jc_receipt')).toBe('1');
  });
});
