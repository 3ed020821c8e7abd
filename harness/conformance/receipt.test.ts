// Conformance: jcp §8 receipts — COSE_Sign1/EdDSA envelope and steward (C5), payload binding and profile migration
// (C23), and typed refusal of truncated, oversized and malformed envelopes (C-neg).
import { describe, expect } from 'vitest';
import {
  cborTag,
  coreToCbor,
  decodeCanonical,
  decodeSign1,
  encodeCanonical,
  isJcpError,
  protectedHeaderBytes,
  sealReceipt,
  signSign1,
  stewardKid,
  verifyReceipt,
  type CborValue,
  type JcpErrorCode,
  type ReceiptCore,
  type ReceiptCoreV2,
} from '../../impl/index.ts';
import { defaultEd25519 } from '../../impl/identity/ed25519.ts';
import { clauseIt } from '../clause.ts';
import { bob, cost, frameFor, mallory, payload, point, rootGrant, steward, nonce } from '../fixtures.ts';

function codeOf(fn: () => unknown): JcpErrorCode | 'accepted' | 'not a JcpError' {
  try {
    fn();
    return 'accepted';
  } catch (e) {
    return isJcpError(e) ? e.code : 'not a JcpError';
  }
}

const g = rootGrant({ nonce: nonce('receipts') });
const allow = point().decide({ frame: frameFor(g), chain: [g], caller: bob.did, cost: cost(42n, 'HwShunt'), now_s: 1n });

/** Re-seals an arbitrary core map as a COSE_Sign1 with the steward's key (a test fixture, not the implementation's minting path). */
function resealRaw(core: Record<string, unknown>, key = steward): Uint8Array {
  return signSign1(encodeCanonical(core as never), stewardKid(key.did), key.seed, defaultEd25519());
}

function coreRecord(c: ReceiptCore): Record<string, unknown> {
  return coreToCbor(c) as Record<string, unknown>;
}

describe('jcp §8 the envelope', () => {
  clauseIt(['jcp/8#cose-sign1-eddsa', 'jcp/8#steward-is-kid'], 'a receipt is tag 18 COSE_Sign1, protected {1: -8, 4: kid}, empty unprotected', () => {
    const top = decodeCanonical(allow.receipt, { allowTags: [18] }) as { tag: number; value: CborValue[] };
    expect(top.tag).toBe(18);
    expect(top.value).toHaveLength(4);
    const prot = decodeCanonical(top.value[0] as Uint8Array) as Map<CborValue, CborValue>;
    expect([...prot.keys()]).toEqual([1, 4]);
    expect(prot.get(1)).toBe(-8);
    expect(new TextDecoder().decode(prot.get(4) as Uint8Array)).toBe(steward.did);
    expect((top.value[1] as Map<unknown, unknown>).size).toBe(0);
    const { core } = verifyReceipt(allow.receipt);
    expect(core.steward).toBe(steward.did);
    expect(core.energy_provenance).toBe('HwShunt');
    expect(core).not.toHaveProperty('energy_coverage');
  });

  clauseIt(['jcp/8#steward-is-kid'], 'a wrong steward fails', () => {
    expect(codeOf(() => verifyReceipt(allow.receipt, { steward: mallory.did }))).toBe('ERR_RECEIPT_STEWARD_MISMATCH');
    // mallory seals a copy of the core naming herself as steward: valid for mallory, refused for the expected steward
    const byMallory = resealRaw({ ...coreRecord(allow.core), steward: mallory.did }, mallory);
    expect(verifyReceipt(byMallory).core.steward).toBe(mallory.did);
    expect(codeOf(() => verifyReceipt(byMallory, { steward: steward.did }))).toBe('ERR_RECEIPT_STEWARD_MISMATCH');
    // mallory signs a core that still names the real steward: the kid (hers) and the core disagree
    const kidSwap = signSign1(encodeCanonical(coreToCbor(allow.core)), stewardKid(mallory.did), mallory.seed, defaultEd25519());
    expect(codeOf(() => verifyReceipt(kidSwap))).toBe('ERR_RECEIPT_STEWARD_MISMATCH');
    // the steward's kid over a core signed by mallory's key: the signature fails
    const sigSwap = signSign1(encodeCanonical(coreToCbor(allow.core)), stewardKid(steward.did), mallory.seed, defaultEd25519());
    expect(codeOf(() => verifyReceipt(sigSwap))).toBe('ERR_RECEIPT_SIGNATURE_INVALID');
  });

  clauseIt(['jcp/8#coverage-only-when-partial'], 'energy_coverage is sealed only when Partial; any other value is refused', () => {
    const partial = point().decide({ frame: frameFor(g), chain: [g], caller: bob.did, cost: { uj: 5n, provenance: 'HwShunt', coverage: 'Partial' }, now_s: 1n });
    expect(verifyReceipt(partial.receipt).core.energy_coverage).toBe('Partial');
    expect(codeOf(() => verifyReceipt(resealRaw({ ...coreRecord(allow.core), energy_coverage: 'Whole' })))).toBe('ERR_RECEIPT_MALFORMED');
  });

  clauseIt(['jcp/11#reject-non-canonical', 'jcp/8#cose-sign1-eddsa'], 'truncated, oversized, mis-tagged and malformed envelopes are refused with typed errors', () => {
    const r = allow.receipt;
    for (let n = 0; n < r.length; n += 7) expect(codeOf(() => verifyReceipt(r.slice(0, n)))).toBe('ERR_COSE_MALFORMED');
    expect(codeOf(() => verifyReceipt(new Uint8Array(70_000)))).toBe('ERR_COSE_TOO_LARGE');
    expect(codeOf(() => verifyReceipt(r, { maxBytes: r.length - 1 }))).toBe('ERR_COSE_TOO_LARGE');
    expect(codeOf(() => verifyReceipt(Uint8Array.from([...r, 0])))).toBe('ERR_COSE_MALFORMED');
    const untagged = r.slice(1); // drop the 0xd2 tag byte
    expect(codeOf(() => verifyReceipt(untagged))).toBe('ERR_COSE_MALFORMED');
    const top = decodeCanonical(r, { allowTags: [18] }) as { value: CborValue[] };
    const [prot, , pay, sig] = top.value as [Uint8Array, unknown, Uint8Array, Uint8Array];
    const env = (items: CborValue[], tag = 18) => encodeCanonical(cborTag(tag, items), { allowTags: true });
    expect(codeOf(() => verifyReceipt(env([prot, new Map(), pay, sig], 98)))).toBe('ERR_COSE_MALFORMED');
    expect(codeOf(() => verifyReceipt(env([prot, new Map(), pay, sig.slice(0, 63)])))).toBe('ERR_SIGNATURE_LENGTH');
    expect(codeOf(() => verifyReceipt(env([prot, new Map(), pay, Uint8Array.from([...sig, 0])])))).toBe('ERR_SIGNATURE_LENGTH');
    expect(codeOf(() => verifyReceipt(env([prot, new Map([[4, stewardKid(steward.did)]]), pay, sig])))).toBe('ERR_COSE_MALFORMED');
    expect(codeOf(() => verifyReceipt(env([prot, new Map(), pay])))).toBe('ERR_COSE_MALFORMED');
    const es256 = encodeCanonical(new Map<CborValue, CborValue>([[1, -7], [4, stewardKid(steward.did)]]));
    expect(codeOf(() => verifyReceipt(env([es256, new Map(), pay, sig])))).toBe('ERR_COSE_UNSUPPORTED_ALG');
    expect(codeOf(() => verifyReceipt(env([protectedHeaderBytes(new Uint8Array([1, 2])), new Map(), pay, sig])))).toBe('ERR_RECEIPT_STEWARD_MISMATCH');
    expect(codeOf(() => verifyReceipt('not bytes' as never))).toBe('ERR_COSE_MALFORMED');
  });

  clauseIt(['jcp/8#every-decision-sealed'], 'flipping any single byte of a receipt makes it fail verification with a typed error', () => {
    const r = allow.receipt;
    for (let i = 0; i < r.length; i++) {
      for (const bit of [0x01, 0x80]) {
        const t = r.slice();
        t[i]! ^= bit;
        const c = codeOf(() => verifyReceipt(t, { steward: steward.did }));
        expect(c === 'accepted' || c === 'not a JcpError' ? `${c} at byte ${i}` : 'refused').toBe('refused');
      }
    }
  });
});

describe('jcp §8 payload binding and profile versioning (C23)', () => {
  clauseIt(['jcp/8#payload-hash-included'], 'substituting only the payload (same grant, action and cost) fails verification', () => {
    const top = decodeCanonical(allow.receipt, { allowTags: [18] }) as { value: CborValue[] };
    const [prot, unprot, , sig] = top.value as [Uint8Array, CborValue, Uint8Array, Uint8Array];
    const swapped = encodeCanonical(coreToCbor({ ...allow.core, payload_hash: payload('evil-args') }));
    const forged = encodeCanonical(cborTag(18, [prot, unprot, swapped, sig]), { allowTags: true });
    expect(codeOf(() => verifyReceipt(forged))).toBe('ERR_RECEIPT_SIGNATURE_INVALID');
    // and two decisions differing only in payload seal to different bytes
    const other = point().decide({ frame: frameFor(g, { payload_hash: payload('evil-args') }), chain: [g], caller: bob.did, cost: cost(42n, 'HwShunt'), now_s: 1n });
    expect(Buffer.from(other.receipt).equals(Buffer.from(allow.receipt))).toBe(false);
  });

  clauseIt(['jcp/8#recompute-under-profile'], 'a receipt sealed under jcp/1 still verifies, read under the profile it names', () => {
    const v1 = { ...coreRecord(allow.core), jcp_receipt: 'jcp/1' } as Record<string, unknown>;
    delete v1['payload_hash'];
    const legacy = resealRaw(v1);
    const { core } = verifyReceipt(legacy, { steward: steward.did });
    expect(core.jcp_receipt).toBe('jcp/1');
    expect(core).not.toHaveProperty('payload_hash');
    expect(core.cost_uj).toBe(42n);
    // a jcp/1 core carrying payload_hash is not a jcp/1 preimage; a jcp/2 core without it is not a jcp/2 preimage
    expect(codeOf(() => verifyReceipt(resealRaw({ ...v1, payload_hash: payload('args') })))).toBe('ERR_RECEIPT_MALFORMED');
    const v2 = coreRecord(allow.core);
    delete v2['payload_hash'];
    expect(codeOf(() => verifyReceipt(resealRaw(v2)))).toBe('ERR_RECEIPT_MALFORMED');
  });

  clauseIt(['jcp/8#refuse-unknown-profile'], 'a profile tag the verifier does not implement is refused, not assumed', () => {
    for (const tag of ['jcp/3', 'jcp/2.1', 'JCP/2', '', 2]) {
      expect(codeOf(() => verifyReceipt(resealRaw({ ...coreRecord(allow.core), jcp_receipt: tag })))).toBe('ERR_RECEIPT_PROFILE_UNKNOWN');
    }
    const none = coreRecord(allow.core);
    delete none['jcp_receipt'];
    expect(codeOf(() => verifyReceipt(resealRaw(none)))).toBe('ERR_RECEIPT_PROFILE_UNKNOWN');
  });

  clauseIt(['jcp/8#never-mint-jcp1'], 'the implementation refuses to mint jcp/1, and every decision it seals is jcp/2', () => {
    const v1 = { ...allow.core, jcp_receipt: 'jcp/1' } as unknown as ReceiptCoreV2;
    expect(codeOf(() => sealReceipt(v1, steward))).toBe('ERR_BAD_ARGUMENT');
    const noPayload = { ...allow.core } as Record<string, unknown>;
    delete noPayload['payload_hash'];
    expect(codeOf(() => sealReceipt(noPayload as unknown as ReceiptCoreV2, steward))).toBe('ERR_BAD_ARGUMENT');
    expect(verifyReceipt(allow.receipt).core.jcp_receipt).toBe('jcp/2');
  });
});

describe('a third-party COSE_Sign1 decodes and verifies through the same envelope code', () => {
  clauseIt(['jcp/8#cose-sign1-eddsa'], 'decodeSign1 accepts a foreign tag-18 envelope (its own headers are not a JCP receipt)', () => {
    const s = decodeSign1(allow.receipt);
    expect(s.unprotected.size).toBe(0);
    expect(s.signature).toHaveLength(64);
  });
});

describe('the assembled envelope bytes equal the generic canonical encoder', () => {
  clauseIt(['jcp/8#cose-sign1-eddsa', 'jcp/3#canonical-det-cbor'], 'Sig_structure and the tagged COSE_Sign1 are canonical CBOR of the RFC 9052 structures', async () => {
    const { sigStructure } = await import('../../impl/cose/sign1.ts');
    for (const len of [0, 1, 23, 24, 255, 256, 65535, 65536]) {
      const payload = new Uint8Array(len).fill(7);
      const prot = protectedHeaderBytes(stewardKid(steward.did));
      expect(Buffer.from(sigStructure(prot, payload)).equals(Buffer.from(encodeCanonical(['Signature1', prot, new Uint8Array(), payload])))).toBe(true);
      const env = signSign1(payload, stewardKid(steward.did), steward.seed, defaultEd25519());
      const sig = env.slice(env.length - 64);
      const generic = encodeCanonical(cborTag(18, [prot, new Map(), payload, sig]), { allowTags: true });
      expect(Buffer.from(env).equals(Buffer.from(generic))).toBe(true);
    }
  });
});

describe('the direct receipt-core writer', () => {
  clauseIt(['jcp/3#canonical-det-cbor', 'jcp/3#key-order-length-first'], 'writes exactly the generic canonical encoder’s bytes, for random cores', async () => {
    const fc = (await import('fast-check')).default;
    const { encodeReceiptCore } = await import('../../impl/receipt/encode-core.ts');
    const { fcParams } = await import('../external-vectors.ts');
    const text = fc.string({ unit: fc.constantFrom('a', 'Z', '-', '/', 'é', '€', '𝄞'), minLength: 1, maxLength: 70 });
    const uint = fc.bigInt({ min: 0n, max: (1n << 64n) - 1n });
    const core = fc.record(
      {
        jcp_receipt: fc.constant('jcp/2'),
        grant_id: text, issuer: text, subject: text, resource: text, action: text, payload_hash: text,
        frame_kind: text, trust: text, verdict: text, deny_reason: text, cost_uj: uint, energy_provenance: text,
        energy_coverage: text, budget_remaining_uj: uint, budget_uj: uint, steward: text,
        chain_ids: fc.array(text, { minLength: 1, maxLength: 4 }),
      },
      { requiredKeys: ['jcp_receipt', 'grant_id', 'cost_uj', 'steward'] },
    );
    fc.assert(
      fc.property(core, (c) => {
        const direct = encodeReceiptCore(c as unknown as ReceiptCore);
        const generic = encodeCanonical(coreToCbor(c as unknown as ReceiptCore));
        expect(Buffer.from(direct).toString('hex')).toBe(Buffer.from(generic).toString('hex'));
      }),
      fcParams(300),
    );
    expect(Buffer.from(encodeReceiptCore(allow.core)).equals(Buffer.from(encodeCanonical(coreToCbor(allow.core))))).toBe(true);
  });
});
