// Conformance: jcp §8 receipts — COSE_Sign1/EdDSA envelope and steward (C5), payload binding and profile migration
// (C23), and typed refusal of truncated, oversized and malformed envelopes (C-neg). Receipts are sealed by the
// implementation under test's decisions, or crafted with the oracle, and always judged by its receipt.verify.
import { describe, expect } from 'vitest';
import { AcceptableReading, clauseIt, declaredReading } from '../clause.ts';
import { expectRefusedAs } from '../contract-codes.ts';
import { codeOf, expectCode } from '../refusal.ts';
import { implementation } from '../driver.ts';
import { alice, bob, cost, frameFor, mallory, nonce, once, payload, point, rootGrant, steward, TOOL } from '../fixtures.ts';
import type { DecideFields, DecisionResult, Minted } from '../implementation.ts';
import { cborTag, createEnforcementPoint, decodeCanonical, defaultEd25519, encodeCanonical, grantId, mintGrant, protectedHeaderBytes, signedGrantToCbor, signSign1, stewardKid, type CborValue, type KeyPair } from '../oracle.ts';

const verify = (receipt: Uint8Array, stewardDid?: string) => implementation().verifyReceipt(receipt, stewardDid);

type CoreMap = Map<string, CborValue>;

/** The COSE_Sign1 items of a receipt, read with the oracle (to craft variants). */
function items(receipt: Uint8Array): [Uint8Array, CborValue, Uint8Array, Uint8Array] {
  const top = decodeCanonical(receipt, { allowTags: [18] }) as { value: CborValue[] };
  return top.value as [Uint8Array, CborValue, Uint8Array, Uint8Array];
}

/** The signed core of a receipt as a CBOR map, read with the oracle (to craft variants). */
function coreMap(receipt: Uint8Array): CoreMap {
  return decodeCanonical(items(receipt)[2]) as CoreMap;
}

/** `core` with `k` set to `v` (or removed when `v` is undefined). */
function withField(core: CoreMap, k: string, v: CborValue | undefined): CoreMap {
  const c = new Map(core);
  if (v === undefined) c.delete(k);
  else c.set(k, v);
  return c;
}

/** Seals an arbitrary core map as a COSE_Sign1 with `key` (crafted by the oracle, not the implementation's minting path). */
function resealRaw(core: CoreMap, key: KeyPair = steward): Uint8Array {
  return signSign1(encodeCanonical(core), stewardKid(key.did), key.seed, defaultEd25519());
}

/** A tagged COSE_Sign1 from its items, encoded by the oracle. */
function envelope(its: CborValue[], tag = 18): Uint8Array {
  return encodeCanonical(cborTag(tag, its), { allowTags: true });
}

function decideFields(g: Minted, over: Partial<DecideFields> = {}): DecideFields {
  return { frame: frameFor(g), chain: [g.signed_grant], caller: bob.did, cost: cost(42n, 'HwShunt'), now_s: 1n, ...over };
}

/** One allowed decision of the implementation under test, 42 µJ measured by HwShunt. */
const A = once(async (): Promise<{ g: Minted; allow: DecisionResult }> => {
  const g = await rootGrant({ nonce: nonce('receipts') });
  const allow = await (await point()).decide(decideFields(g));
  expect(allow.verdict).toBe('allow');
  return { g, allow };
});

/**
 * The same allowed decision sealed by the reference (the oracle): the template for tests of the implementation's
 * VERIFIER, so that a fault in the implementation's sealing is flagged by the sealing tests and not by these.
 */
const R = once(async (): Promise<{ allow: { receipt: Uint8Array } }> => {
  const sg = mintGrant(alice, { subject: bob.did, resource: TOOL, actions: ['call', 'read'], budget_uj: 1000n, nonce: nonce('receipts') });
  const p = createEnforcementPoint({ steward });
  const m = { signed_grant: encodeCanonical(signedGrantToCbor(sg)), grant_id: grantId(sg.grant) };
  const d = p.decide({ ...(decideFields(m) as unknown as Parameters<typeof p.decide>[0]), chain: [sg] });
  expect(d.verdict).toBe('allow');
  return { allow: { receipt: d.receipt } };
});

describe('jcp §8 the envelope', () => {
  clauseIt(['jcp/8#cose-sign1-eddsa', 'jcp/8#steward-is-kid', 'jcp/8#every-decision-sealed'], 'a receipt is tag 18 COSE_Sign1, protected {1: -8, 4: kid}, empty unprotected', async () => {
    const { allow } = await A();
    const top = decodeCanonical(allow.receipt, { allowTags: [18] }) as { tag: number; value: CborValue[] };
    expect(top.tag).toBe(18);
    expect(top.value).toHaveLength(4);
    const prot = decodeCanonical(top.value[0] as Uint8Array) as Map<CborValue, CborValue>;
    expect([...prot.keys()]).toEqual([1, 4]);
    expect(prot.get(1)).toBe(-8);
    expect(new TextDecoder().decode(prot.get(4) as Uint8Array)).toBe(steward.did);
    expect(top.value[1]).toBeInstanceOf(Map);
    expect((top.value[1] as Map<unknown, unknown>).size).toBe(0);
    expect(top.value[2]).toBeInstanceOf(Uint8Array);
    expect((top.value[3] as Uint8Array).length).toBe(64);
    const core = await verify(allow.receipt);
    expect(core['steward']).toBe(steward.did);
    expect(core['energy_provenance']).toBe('HwShunt');
    expect(core['cost_uj']).toBe(42n);
    expect(core).not.toHaveProperty('energy_coverage');
  });

  clauseIt(['jcp/8#steward-is-kid'], 'a wrong steward fails', async () => {
    const { allow } = await R();
    await expectCode(verify(allow.receipt, mallory.did), 'ERR_RECEIPT_STEWARD_MISMATCH');
    expect((await verify(allow.receipt, steward.did))['steward']).toBe(steward.did);
    const core = coreMap(allow.receipt);
    // mallory seals a copy of the core naming herself as steward: valid for mallory, refused for the expected steward
    const byMallory = resealRaw(withField(core, 'steward', mallory.did), mallory);
    expect((await verify(byMallory))['steward']).toBe(mallory.did);
    await expectCode(verify(byMallory, steward.did), 'ERR_RECEIPT_STEWARD_MISMATCH');
    // mallory signs a core that still names the real steward: the kid (hers) and the core disagree
    const kidSwap = signSign1(encodeCanonical(core), stewardKid(mallory.did), mallory.seed, defaultEd25519());
    await expectCode(verify(kidSwap), 'ERR_RECEIPT_STEWARD_MISMATCH');
    // the steward's kid over a core signed by mallory's key: the signature fails
    const sigSwap = signSign1(encodeCanonical(core), stewardKid(steward.did), mallory.seed, defaultEd25519());
    await expectCode(verify(sigSwap), 'ERR_RECEIPT_SIGNATURE_INVALID');
    await expectCode(verify(sigSwap, steward.did), 'ERR_RECEIPT_SIGNATURE_INVALID');
  });

  clauseIt(['jcp/8#coverage-only-when-partial', 'jcp/8#every-decision-sealed'], 'energy_coverage is sealed only when Partial; any other value is refused', async () => {
    const { g, allow } = await A();
    const partial = await (await point()).decide(decideFields(g, { cost: { uj: 5n, provenance: 'HwShunt', coverage: 'Partial' } }));
    expect((await verify(partial.receipt))['energy_coverage']).toBe('Partial');
    expect(coreMap(partial.receipt).get('energy_coverage')).toBe('Partial');
    expect(coreMap(allow.receipt).has('energy_coverage')).toBe(false);
    await expectCode(verify(resealRaw(withField(coreMap(allow.receipt), 'energy_coverage', 'Whole'))), 'ERR_RECEIPT_MALFORMED');
  });

  clauseIt(['jcp/11#reject-non-canonical', 'jcp/8#cose-sign1-eddsa'], 'truncated, oversized, mis-tagged and malformed envelopes are refused with typed errors', async () => {
    const { allow } = await R();
    const r = allow.receipt;
    for (let n = 0; n < r.length; n += 7) await expectCode(verify(r.slice(0, n)), 'ERR_COSE_MALFORMED', `the receipt cut to ${n} bytes`);
    // 70,000 bytes that are no COSE_Sign1: refused, as too large under a cap, else as malformed (jcp/8#open-receipt-size-cap)
    expectRefusedAs(await codeOf(verify(new Uint8Array(70_000))), ['ERR_COSE_TOO_LARGE', 'ERR_COSE_MALFORMED'], '70,000 zero bytes');
    await expectCode(verify(Uint8Array.from([...r, 0])), 'ERR_COSE_MALFORMED');
    await expectCode(verify(r.slice(1)), 'ERR_COSE_MALFORMED'); // the 0xd2 tag byte dropped
    const [prot, , pay, sig] = items(r);
    // the oracle's re-encoding of the unchanged items is the receipt itself: the variants below differ only where named
    expect(Buffer.from(envelope([prot, new Map(), pay, sig])).equals(Buffer.from(r))).toBe(true);
    await expectCode(verify(envelope([prot, new Map(), pay, sig], 98)), 'ERR_COSE_MALFORMED');
    await expectCode(verify(envelope([prot, new Map(), pay, sig.slice(0, 63)])), 'ERR_SIGNATURE_LENGTH');
    await expectCode(verify(envelope([prot, new Map(), pay, Uint8Array.from([...sig, 0])])), 'ERR_SIGNATURE_LENGTH');
    await expectCode(verify(envelope([prot, new Map([[4, stewardKid(steward.did)]]), pay, sig])), 'ERR_COSE_MALFORMED');
    await expectCode(verify(envelope([prot, new Map(), pay])), 'ERR_COSE_MALFORMED');
    const es256 = encodeCanonical(new Map<CborValue, CborValue>([[1, -7], [4, stewardKid(steward.did)]]));
    await expectCode(verify(envelope([es256, new Map(), pay, sig])), 'ERR_COSE_UNSUPPORTED_ALG');
    // a kid that is not the UTF-8 of a did:key names no steward
    await expectCode(verify(envelope([protectedHeaderBytes(new Uint8Array([1, 2])), new Map(), pay, sig])), 'ERR_RECEIPT_STEWARD_MISMATCH');
  });

  clauseIt(['jcp/8#open-receipt-size-cap'], 'a well-formed receipt over 65,536 bytes is verified as the declared reading of the receipt size cap says', async () => {
    const { allow } = await R();
    // a validly sealed core whose action is long enough to make the receipt `size` bytes (crafted by the oracle)
    const sized = (size: number): Uint8Array => {
      let n = 64_000;
      let r = resealRaw(withField(coreMap(allow.receipt), 'action', 'a'.repeat(n)));
      // a length head may widen on the way, so a second step may be needed
      for (let i = 0; i < 3 && r.length !== size; i++) {
        n += size - r.length;
        r = resealRaw(withField(coreMap(allow.receipt), 'action', 'a'.repeat(n)));
      }
      expect(r.length, 'the crafted receipt has the size asked for').toBe(size);
      return r;
    };
    const atCap = sized(65_536);
    const over = sized(65_537);
    const read = async (r: Uint8Array): Promise<string> => {
      const got = await codeOf(verify(r, steward.did));
      if (got === 'accepted') expect((await verify(r, steward.did))['action'], 'the core read back').toBe(coreMap(r).get('action'));
      return got;
    };
    // harness/protocol/readings.ts: cap-64kib (over 65,536 bytes refused, ERR_COSE_TOO_LARGE) or uncapped
    const declared = declaredReading('receipt-size-cap');
    if (declared === 'cap-64kib') {
      expect(await read(atCap), 'a receipt of 65,536 bytes, at the cap').toBe('accepted');
      return expectCode(verify(over, steward.did), 'ERR_COSE_TOO_LARGE', 'a receipt of 65,537 bytes');
    }
    if (declared === 'uncapped') {
      for (const r of [atCap, over, sized(70_000)]) expect(await read(r), `a receipt of ${r.length} bytes`).toBe('accepted');
      return;
    }
    const got = await read(over);
    throw new AcceptableReading(`a well-formed receipt of 65,537 bytes: ${got}, a reading the text permits (none declared)`);
  });

  clauseIt(['jcp/8#every-decision-sealed'], 'flipping any single byte of a receipt makes it fail verification with a typed error', async () => {
    const { allow } = await A();
    const r = allow.receipt;
    const accepted: string[] = [];
    for (let i = 0; i < r.length; i++) {
      for (const bit of [0x01, 0x80]) {
        const t = r.slice();
        t[i]! ^= bit;
        if ((await codeOf(verify(t, steward.did))) === 'accepted') accepted.push(`byte ${i} bit 0x${bit.toString(16)}`);
      }
    }
    expect(accepted).toEqual([]);
  });
});

describe('jcp §8 payload binding and profile versioning (C23)', () => {
  clauseIt(['jcp/8#payload-hash-included', 'jcp/8#every-decision-sealed'], 'substituting only the payload (same grant, action and cost) fails verification', async () => {
    const { g, allow } = await A();
    const [prot, unprot, , sig] = items(allow.receipt);
    const swapped = encodeCanonical(withField(coreMap(allow.receipt), 'payload_hash', payload('evil-args')));
    await expectCode(verify(envelope([prot, unprot, swapped, sig])), 'ERR_RECEIPT_SIGNATURE_INVALID');
    // and two decisions differing only in payload seal to different bytes, each naming its payload
    const other = await (await point()).decide(decideFields(g, { frame: frameFor(g, { payload_hash: payload('evil-args') }) }));
    expect(Buffer.from(other.receipt).equals(Buffer.from(allow.receipt))).toBe(false);
    expect((await verify(other.receipt, steward.did))['payload_hash']).toBe(payload('evil-args'));
    expect((await verify(allow.receipt, steward.did))['payload_hash']).toBe(payload('args'));
  });

  clauseIt(['jcp/8#recompute-under-profile'], 'a receipt sealed under jcp/1 still verifies, read under the profile it names', async () => {
    const { allow } = await R();
    const v1 = withField(withField(coreMap(allow.receipt), 'jcp_receipt', 'jcp/1'), 'payload_hash', undefined);
    const core = await verify(resealRaw(v1), steward.did);
    expect(core['jcp_receipt']).toBe('jcp/1');
    expect(core).not.toHaveProperty('payload_hash');
    expect(core['cost_uj']).toBe(42n);
    expect(core['steward']).toBe(steward.did);
    // a jcp/1 core carrying payload_hash is not a jcp/1 preimage; a jcp/2 core without it is not a jcp/2 preimage
    await expectCode(verify(resealRaw(withField(v1, 'payload_hash', payload('args')))), 'ERR_RECEIPT_MALFORMED');
    await expectCode(verify(resealRaw(withField(coreMap(allow.receipt), 'payload_hash', undefined))), 'ERR_RECEIPT_MALFORMED');
  });

  clauseIt(['jcp/8#refuse-unknown-profile'], 'a profile tag the verifier does not implement is refused, not assumed', async () => {
    const { allow } = await R();
    const core = coreMap(allow.receipt);
    for (const tag of ['jcp/3', 'jcp/2.1', 'JCP/2', '', 2]) {
      await expectCode(verify(resealRaw(withField(core, 'jcp_receipt', tag))), 'ERR_RECEIPT_PROFILE_UNKNOWN', `jcp_receipt ${JSON.stringify(tag)}`);
    }
    await expectCode(verify(resealRaw(withField(core, 'jcp_receipt', undefined))), 'ERR_RECEIPT_PROFILE_UNKNOWN');
  });

  clauseIt(['jcp/8#never-mint-jcp1', 'jcp/8#payload-hash-included'], 'every receipt the implementation seals, allow or deny, is jcp/2 with payload_hash', async () => {
    const g = await rootGrant({ nonce: nonce('never-jcp1'), expiry: 100n });
    const p = await point();
    const requests = [
      decideFields(g),
      decideFields(g, { frame: frameFor(g, { trust: 'data' }) }),
      decideFields(g, { caller: mallory.did }),
      decideFields(g, { now_s: 500n }),
      decideFields(g, { frame: frameFor(g, { action: 'delete' }) }),
      decideFields(g, { cost: cost(5000n) }),
      decideFields(g, { cost: { uj: 1n, provenance: 'ModelBased', coverage: 'Partial' }, frame: frameFor(g, { payload_hash: payload('other') }) }),
    ];
    const seen: string[] = [];
    for (const r of requests) {
      const d = await p.decide(r);
      seen.push(d.deny_reason ?? d.verdict);
      // what was sealed, read from the bytes, and what the implementation's verifier reads back
      const raw = coreMap(d.receipt);
      expect(raw.get('jcp_receipt')).toBe('jcp/2');
      expect(raw.get('payload_hash')).toBe(r.frame.payload_hash);
      const core = await verify(d.receipt, steward.did);
      expect(core['jcp_receipt']).toBe('jcp/2');
      expect(core['payload_hash']).toBe(r.frame.payload_hash);
    }
    expect(seen).toEqual(['allow', 'untrusted-control', 'wrong-subject', 'expired', 'action-not-granted', 'budget-exceeded', 'allow']);
  });
});
