// Unit tests of the cascade receipt (receipt.ts, jouleclaw §2, §4), the schema-tag rules (versioning.ts, §7) and the
// shared sibling-receipt envelope (receipt-envelope.ts).
import { describe, expect, it } from 'vitest';
import { codeOf, lazyKey, thrown } from '../_test-support.ts';
import { decodeCanonical, encodeCanonical, type CborMap } from '../cbor/index.ts';
import { decodeSign1, protectedHeaderBytes, signSign1WithHeader } from '../cose/sign1.ts';
import { defaultEd25519, deriveSeed, keyPairFromSeed } from '../identity/ed25519.ts';
import { stewardKid } from '../receipt/seal.ts';
import { buildCascadeReceipt, cascadeReceiptJson, checkWorstProvenance, parseCascadeReceipt, worstProvenance } from './receipt.ts';
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

describe('cascade receipt refusals name the field (jouleclaw §2, §4)', () => {
  const t = [tool('a', 'HwShunt')];
  const claim = { source: 'https://example.org', content_hash: H, fetched_at: '2026-11-30T04:00:00Z', trust_tier: 3 };
  const built = (extra: object, tools: object[] = t) => thrown(() => buildCascadeReceipt(walk(tools, extra))).message;
  const M = 'ERR_JC_RECEIPT_MALFORMED: ';

  it('names the stated and the worst provenance when they differ', () => {
    const e = thrown(() => checkWorstProvenance('HwShunt', [{ tool_id: 'a', joules_uj: 1, energy_provenance: 'ModelBased' }]));
    expect(e.message).toBe('ERR_JC_PROVENANCE_NOT_WORST: energy_provenance is HwShunt but the worst counter across tools_touched is ModelBased');
    expect(e.detail).toEqual({ stated: 'HwShunt', worst: 'ModelBased' });
  });

  it('refuses a provenance outside jcp §5 wherever it sits', () => {
    expect(built({}, [tool('a', 'Joules')])).toBe(`${M}tools_touched[0].energy_provenance must be one of HwShunt, ModelBased, Estimator`);
    expect(built({ energy_provenance: 'Joules' })).toBe(`${M}energy_provenance must be one of HwShunt, ModelBased, Estimator`);
    expect(thrown(() => parseCascadeReceipt({ jc_receipt: '1', ...walk(t), energy_provenance: 'Joules' })).message).toBe(
      `${M}energy_provenance must be one of HwShunt, ModelBased, Estimator`,
    );
  });

  it('refuses malformed tools, claims and body fields with their path', () => {
    expect(built({}, ['a' as unknown as object])).toBe(`${M}tools_touched[0] must be a JSON object`);
    expect(built({ claims: [claim, 'c'] })).toBe(`${M}claims[1] must be a JSON object`);
    expect(built({ claims: [{ ...claim, content_hash: 'AB'.repeat(32) }] })).toBe(`${M}claims[0].content_hash must be 64 lowercase hex digits`);
    expect(built({ claims: [{ ...claim, fetched_at: '2026-11-30' }] })).toBe(`${M}claims[0].fetched_at must be an RFC 3339 date-time`);
    expect(built({ claims: [{ ...claim, trust_tier: 11 }] })).toBe(`${M}claims[0].trust_tier must be 0..10, got 11`);
    expect(built({ id: 5 })).toBe(`${M}receipt.id must be a string`);
    expect(built({ id: 'not-a-uuid' })).toBe(`${M}id must be a lowercase UUID, got "not-a-uuid"`);
    expect(built({ closed_at: '2026-11-30 05:00' })).toBe(`${M}closed_at must be an RFC 3339 date-time`);
    expect(built({ input_hash: 'AB'.repeat(32) })).toBe(`${M}input_hash must be 64 lowercase hex digits (blake3 of the normalised input)`);
    expect(built({ tier: 'L5' })).toBe(`${M}tier must be one of L0, L1, L2, L3, L4, got "L5"`);
    expect(built({ eoc_stage: 5 })).toBe(`${M}eoc_stage must be a string when present`);
    expect(built({ steward: 'bob' })).toBe(`${M}steward must be a did:key handle`);
    expect(built({ tier: 'L0' }, [])).toBe(`${M}a walk that touched no tool must state its energy_provenance`);
  });

  it('names what it was reading when the input is not JSON or lacks jc_receipt', () => {
    expect(thrown(() => buildCascadeReceipt('{not json')).message).toMatch(/^ERR_JC_RECEIPT_MALFORMED: walk is not JSON: /);
    expect(thrown(() => parseCascadeReceipt('{not json')).message).toMatch(/^ERR_JC_RECEIPT_MALFORMED: receipt is not JSON: /);
    expect(thrown(() => parseCascadeReceipt(walk(t))).message).toBe(`${M}receipt.jc_receipt is missing`);
  });

  it('keeps eoc_stage and steward when given, and omits steward when absent', () => {
    const r = buildCascadeReceipt(walk(t, { eoc_stage: 'E2', steward: steward.did }));
    expect(r).toMatchObject({ eoc_stage: 'E2', steward: steward.did });
    expect(cascadeReceiptJson(r)).toMatchObject({ eoc_stage: 'E2', steward: steward.did });
    expect(Object.keys(buildCascadeReceipt(walk(t)))).not.toContain('steward');
    expect(Object.keys(cascadeReceiptJson(buildCascadeReceipt(walk(t))))).not.toContain('steward');
  });
});
