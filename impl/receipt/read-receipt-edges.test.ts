// Edge cases of the one-pass receipt reader (impl/receipt/read-receipt.ts) behind verifyReceipt: the envelope of jcp §8
// byte by byte (the size cap exactly at and one past it, the protected bucket ending exactly at its kid, the kid the
// steward's whole did) and the canonical core of jcp §3 (nothing after the map, every jcp/2 field at once, the one-byte
// array head of chain_ids). The reader takes exactly the receipts of its one expected shape; everything else it leaves
// to the strict path, which names the fault — so each case here checks what verifyReceipt answers, and whether the
// reader took the bytes or left them.
import { describe, expect, it } from 'vitest';
import { allowedDecision, lazyKey, thrown } from '../_test-support.ts';
import { decodeCanonical, encodeCanonical, type CborValue } from '../cbor/index.ts';
import { decodeSign1, protectedHeaderBytes, signSign1WithHeader } from '../cose/sign1.ts';
import { defaultEd25519 } from '../identity/ed25519.ts';
import { contentId } from '../jcp/content-id.ts';
import { _readReceipt } from './read-receipt.ts';
import { stewardKid } from './seal.ts';
import { _verifyReceiptStrict, verifyReceipt } from './verify.ts';

const steward = lazyKey('steward');
const ed = defaultEd25519();

/** The core map of a real allow receipt (jcp/2, no chain), as the strict decoder reads it. */
const baseCore = (): Map<CborValue, CborValue> => decodeCanonical(decodeSign1(allowedDecision().receipt).payload) as Map<CborValue, CborValue>;

/** Any payload bytes under any protected bucket, signed by the steward: the signature always verifies. */
const sealRaw = (payload: Uint8Array, prot: Uint8Array = protectedHeaderBytes(stewardKid(steward.did))): Uint8Array => signSign1WithHeader(payload, prot, steward.seed, ed);

/** `b` with `insert` put in place of `del` bytes at `at`. */
const splice = (b: Uint8Array, at: number, del: number, ...insert: number[]): Uint8Array => Uint8Array.of(...b.subarray(0, at), ...insert, ...b.subarray(at + del));

/** Where `needle` first occurs in `b`. */
function indexOf(b: Uint8Array, needle: Uint8Array): number {
  outer: for (let i = 0; i + needle.length <= b.length; i++) {
    for (let j = 0; j < needle.length; j++) if (b[i + j] !== needle[j]) continue outer;
    return i;
  }
  throw new Error('needle not found');
}

describe('jcp §8 the envelope: the size cap, the protected bucket, the kid', () => {
  it('a receipt exactly at maxBytes is read in one pass, with its layout; one byte over it is left to the strict refusal', () => {
    const r = allowedDecision().receipt;
    const s = decodeSign1(r);
    const read = _readReceipt(r, r.length);
    expect(read).toBeDefined();
    expect(read!.core).toEqual(_verifyReceiptStrict(r).core);
    expect(r.subarray(read!.payloadAt, read!.payloadEnd)).toEqual(s.payload);
    expect(read!.protEnd).toBe(2 + 2 + s.protectedBytes.length);
    expect(r.subarray(read!.sigAt, read!.sigAt + 64)).toEqual(s.signature);
    expect(read!.sigAt + 64).toBe(r.length);
    expect(verifyReceipt(r, { maxBytes: r.length }).core.steward).toBe(steward.did);
    expect(_readReceipt(r, r.length - 1)).toBeUndefined();
    expect(thrown(() => verifyReceipt(r, { maxBytes: r.length - 1 })).message).toBe(`ERR_COSE_TOO_LARGE: COSE_Sign1 of ${r.length} bytes exceeds the cap of ${r.length - 1}`);
  });

  it('a protected bucket with a byte after its kid is not the bucket {1: -8, 4: kid}: refused as the strict path refuses it', () => {
    const kid = stewardKid(steward.did);
    const prot = Uint8Array.of(...protectedHeaderBytes(kid), 0x00);
    const r = sealRaw(encodeCanonical(baseCore()), prot);
    expect(_readReceipt(r, undefined)).toBeUndefined();
    const e = thrown(() => verifyReceipt(r));
    expect(e.code).toBe('ERR_COSE_MALFORMED');
    expect(e.message).toBe('ERR_COSE_MALFORMED: protected header is not canonical CBOR (ERR_CBOR_TRAILING_BYTES)');
  });

  it('a kid that is only part of the steward\'s did, or runs past it, is a steward mismatch even under a good signature', () => {
    const did = steward.did;
    const short = did.slice(0, -1);
    // the kid of the steward's did followed by the next bytes of the core (the head and name of the key "subject")
    const long = `${did}gsubject`;
    for (const [kid, text] of [[stewardKid(short), short], [stewardKid(long), long], [new Uint8Array(0), '']] as const) {
      const r = sealRaw(encodeCanonical(baseCore()), protectedHeaderBytes(kid));
      expect(_readReceipt(r, undefined), text).toBeUndefined();
      expect(thrown(() => verifyReceipt(r)).message, text).toBe(`ERR_RECEIPT_STEWARD_MISMATCH: kid ${text} differs from the core's steward ${did}`);
    }
  });
});

describe('jcp §3, §8 the canonical core inside the payload', () => {
  it('a byte after the core map is not canonical det-CBOR: refused ERR_RECEIPT_MALFORMED, never read as the core before it', () => {
    const core = encodeCanonical(baseCore());
    const r = sealRaw(Uint8Array.of(...core, 0x00));
    expect(_readReceipt(r, undefined)).toBeUndefined();
    const e = thrown(() => verifyReceipt(r));
    expect(e.code).toBe('ERR_RECEIPT_MALFORMED');
    expect(e.message).toBe(
      `ERR_RECEIPT_MALFORMED: the receipt core is not canonical det-CBOR (ERR_CBOR_TRAILING_BYTES): ERR_CBOR_TRAILING_BYTES: at byte ${core.length}: 1 byte(s) after the one top-level item`,
    );
  });

  it('a core carrying every jcp/2 field at once (deny, chained, Partial) is read in one pass, as the strict path reads it', () => {
    const core = baseCore();
    core.set('verdict', 'deny');
    core.set('deny_reason', 'budget');
    core.set('energy_coverage', 'Partial');
    core.set('chain_ids', [contentId({ root: 1 }), core.get('grant_id')!]);
    expect(core.size).toBe(18);
    const r = sealRaw(encodeCanonical(core));
    const read = _readReceipt(r, undefined);
    expect(read).toBeDefined();
    const strict = _verifyReceiptStrict(r).core;
    expect(read!.core).toEqual(strict);
    expect(Object.keys(read!.core)).toEqual(Object.keys(strict));
    expect(verifyReceipt(r).core).toEqual(strict);
  });

  it('chain_ids under a one-byte length head (0x98) is not read as 24 ids from the length byte on', () => {
    // a 24-link chain: its array head is 0x98 0x18, and it verifies (by the strict path)
    const core = baseCore();
    const links = Array.from({ length: 23 }, (_, i) => contentId({ link: i }));
    core.set('chain_ids', [...links, core.get('grant_id')!]);
    const payload = encodeCanonical(core);
    expect(verifyReceipt(sealRaw(payload)).core.chain_ids).toEqual([...links, core.get('grant_id')]);
    // without its length byte, the head 0x98 reads the first link's 0x78 as the array's length (120 items)
    const at = indexOf(payload, Uint8Array.of(0x98, 0x18, 0x78, 0x40));
    const cut = splice(payload, at + 1, 1);
    const r = sealRaw(cut);
    expect(_readReceipt(r, undefined)).toBeUndefined();
    // the strict decoder reads 120 items and runs out of input
    const e = thrown(() => verifyReceipt(r));
    expect(e.code).toBe('ERR_RECEIPT_MALFORMED');
    expect(e.message).toBe(
      `ERR_RECEIPT_MALFORMED: the receipt core is not canonical det-CBOR (ERR_CBOR_TRUNCATED): ERR_CBOR_TRUNCATED: at byte ${cut.length}: input ends where a data item was expected`,
    );
  });
});
