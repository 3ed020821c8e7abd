// Unit tests of the shared sibling-receipt envelope (receipt-envelope.ts, jouleclaw §2, §10, §16.7): the strict
// COSE_Sign1 shape it opens, the det-CBOR → JSON reading of the core, and the refusals each names.
import { describe, expect, it } from 'vitest';
import { lazyKey, thrown } from '../_test-support.ts';
import { cborTag, encodeCanonical, type CborInput, type CborValue } from '../cbor/index.ts';
import { sigStructure } from '../cose/sign1.ts';
import { defaultEd25519 } from '../identity/ed25519.ts';
import { stewardKid } from '../receipt/seal.ts';
import { cborToJson, openJcReceipt, sealJcCore } from './receipt-envelope.ts';

const steward = lazyKey('steward');
const mallory = lazyKey('mallory');

/** A tagged COSE_Sign1 over `core`, signed by the steward, with the protected and unprotected headers given. */
function envelope(core: CborInput, prot: [number, CborValue][], unprotected: [number, CborValue][] = []): Uint8Array {
  const protBytes = encodeCanonical(new Map<CborValue, CborValue>(prot));
  const payload = encodeCanonical(core);
  const signature = defaultEd25519().sign(steward.seed, sigStructure(protBytes, payload));
  return encodeCanonical(cborTag(18, [protBytes, new Map<CborValue, CborValue>(unprotected), payload, signature]), { allowTags: true });
}
const kid = () => stewardKid(steward.did);
const cascade = () => ({ jc_receipt: '1', steward: steward.did });
/** 'x' inside `n` arrays. */
const nested = (n: number): CborInput => (n === 0 ? 'x' : [nested(n - 1)]);

describe('cborToJson', () => {
  it('reads text, numbers, arrays and text-keyed maps as JSON', () => {
    expect(cborToJson(new Map<CborValue, CborValue>([['a', [1, 'x', -2]], ['b', new Map([['c', 0]])]]))).toEqual({ a: [1, 'x', -2], b: { c: 0 } });
    expect(cborToJson(7)).toBe(7);
  });

  it('reads a bigint inside the JSON-safe range as a number, at both ends', () => {
    expect(cborToJson(5n)).toBe(5);
    expect(cborToJson(0n)).toBe(0);
    expect(cborToJson(BigInt(Number.MAX_SAFE_INTEGER))).toBe(Number.MAX_SAFE_INTEGER);
    expect(cborToJson(BigInt(Number.MIN_SAFE_INTEGER))).toBe(Number.MIN_SAFE_INTEGER);
  });

  it('refuses an integer just outside the JSON-safe range, naming it and its path', () => {
    const over = thrown(() => cborToJson(BigInt(Number.MAX_SAFE_INTEGER) + 1n));
    expect(over.code).toBe('ERR_JC_RECEIPT_MALFORMED');
    expect(over.message).toBe('ERR_JC_RECEIPT_MALFORMED: $: integer 9007199254740992 is outside the JSON-safe range');
    const under = thrown(() => cborToJson(BigInt(Number.MIN_SAFE_INTEGER) - 1n));
    expect(under.message).toBe('ERR_JC_RECEIPT_MALFORMED: $: integer -9007199254740992 is outside the JSON-safe range');
  });

  it('refuses a byte string or a tag, naming the path to it', () => {
    const bytes = thrown(() => cborToJson(new Uint8Array(2)));
    expect(bytes.code).toBe('ERR_JC_RECEIPT_MALFORMED');
    expect(bytes.message).toBe('ERR_JC_RECEIPT_MALFORMED: $: a byte string or tag has no place in a JouleClaw receipt core');
    expect(thrown(() => cborToJson(cborTag(1, 'x'))).code).toBe('ERR_JC_RECEIPT_MALFORMED');
    const deep = new Map<CborValue, CborValue>([['a', new Map<CborValue, CborValue>([['b', ['x', new Uint8Array(1)]]])]]);
    expect(thrown(() => cborToJson(deep)).message).toContain('$.a.b[1]: a byte string');
  });

  it('refuses a map key that is not text, naming the map', () => {
    const e = thrown(() => cborToJson(new Map<CborValue, CborValue>([['a', new Map<CborValue, CborValue>([[1, 'x']])]])));
    expect(e.code).toBe('ERR_JC_RECEIPT_MALFORMED');
    expect(e.message).toBe('ERR_JC_RECEIPT_MALFORMED: $.a: a map key is not text');
  });
});

describe('sealJcCore', () => {
  // jouleclaw §10: the kid a sealed envelope carries is the steward's, so only the steward may seal its core
  it('refuses a sealer that is not the core\'s steward, naming both', () => {
    const e = thrown(() => sealJcCore(cascade(), mallory));
    expect(e.code).toBe('ERR_BAD_ARGUMENT');
    expect(e.message).toBe(`ERR_BAD_ARGUMENT: the core names steward ${steward.did} but is signed by ${mallory.did}`);
  });
});

describe('openJcReceipt: the COSE_Sign1 shape (jouleclaw §10)', () => {
  // jouleclaw §10: "protected = {1: -8, 4: steward}, unprotected = {}, payload = canonical signed core"
  it('opens a hand-built envelope of exactly {1: -8, 4: kid} and an empty unprotected header', () => {
    expect(openJcReceipt(envelope(cascade(), [[1, -8], [4, kid()]])).core).toEqual(cascade());
  });

  it('refuses a protected header label other than alg and kid', () => {
    const e = thrown(() => openJcReceipt(envelope(cascade(), [[1, -8], [3, 'application/cbor'], [4, kid()]])));
    expect(e.code).toBe('ERR_COSE_MALFORMED');
    expect(e.message).toBe('ERR_COSE_MALFORMED: protected header carries unsupported label 3');
  });

  it('refuses an alg other than EdDSA (-8), naming it', () => {
    const e = thrown(() => openJcReceipt(envelope(cascade(), [[1, -7], [4, kid()]])));
    expect(e.code).toBe('ERR_COSE_UNSUPPORTED_ALG');
    expect(e.message).toBe('ERR_COSE_UNSUPPORTED_ALG: receipt alg is -7, only EdDSA (-8) is implemented');
  });

  it('refuses a kid that is absent or not a byte string', () => {
    for (const prot of [[[1, -8]], [[1, -8], [4, steward.did]]] as [number, CborValue][][]) {
      const e = thrown(() => openJcReceipt(envelope(cascade(), prot)));
      expect(e.code).toBe('ERR_COSE_MALFORMED');
      expect(e.message).toBe('ERR_COSE_MALFORMED: protected header lacks kid (label 4) as a byte string');
    }
  });

  it('refuses a non-empty unprotected header', () => {
    const e = thrown(() => openJcReceipt(envelope(cascade(), [[1, -8], [4, kid()]], [[4, kid()]])));
    expect(e.code).toBe('ERR_COSE_MALFORMED');
    expect(e.message).toBe('ERR_COSE_MALFORMED: the unprotected header of a JouleClaw receipt must be empty');
  });
});

describe('openJcReceipt: the signed core', () => {
  it('refuses a core nested deeper than 16 levels, as malformed with the decoder\'s refusal as cause', () => {
    const deep = nested(16); // the core map and 16 arrays: 17 levels
    const e = thrown(() => openJcReceipt(sealJcCore({ ...cascade(), deep }, steward)));
    expect(e.code).toBe('ERR_JC_RECEIPT_MALFORMED');
    expect(e.message).toContain('the signed core is not canonical det-CBOR (ERR_CBOR_TOO_DEEP)');
    expect((e.cause as { code?: string } | undefined)?.code).toBe('ERR_CBOR_TOO_DEEP');
  });

  it('opens a core nested 16 levels deep', () => {
    const deep = nested(15); // the core map and 15 arrays
    expect(openJcReceipt(sealJcCore({ ...cascade(), deep }, steward)).core?.['deep']).toEqual(deep);
  });

  it('refuses a core that is not a map', () => {
    const e = thrown(() => openJcReceipt(envelope(['1', steward.did], [[1, -8], [4, kid()]])));
    expect(e.code).toBe('ERR_JC_RECEIPT_MALFORMED');
    expect(e.message).toBe('ERR_JC_RECEIPT_MALFORMED: the signed core must be a map');
  });

  it('refuses a known-kind core that names no steward', () => {
    const e = thrown(() => openJcReceipt(envelope({ jc_receipt: '1' }, [[1, -8], [4, kid()]])));
    expect(e.code).toBe('ERR_JC_RECEIPT_MALFORMED');
    expect(e.message).toBe('ERR_JC_RECEIPT_MALFORMED: a sealed receipt core must name its steward');
  });
});

describe('openJcReceipt: kid = steward, signature under the steward (jouleclaw §10, §16.7)', () => {
  it('refuses a kid that is not UTF-8', () => {
    const e = thrown(() => openJcReceipt(envelope(cascade(), [[1, -8], [4, new Uint8Array([0xff, 0xfe])]])));
    expect(e.code).toBe('ERR_RECEIPT_STEWARD_MISMATCH');
    expect(e.message).toBe('ERR_RECEIPT_STEWARD_MISMATCH: the kid is not the UTF-8 of a did:key');
  });

  // jouleclaw §10: "Verifiers reject envelopes whose kid (in the protected header) disagrees with the embedded steward."
  it('refuses a kid naming another key than the core\'s steward, naming both', () => {
    const e = thrown(() => openJcReceipt(envelope(cascade(), [[1, -8], [4, stewardKid(mallory.did)]])));
    expect(e.code).toBe('ERR_RECEIPT_STEWARD_MISMATCH');
    expect(e.message).toBe(`ERR_RECEIPT_STEWARD_MISMATCH: kid ${mallory.did} differs from the core's steward ${steward.did}`);
  });

  it('refuses a signature that does not verify under the steward, naming it', () => {
    const env = sealJcCore(cascade(), steward);
    env[env.length - 1]! ^= 1;
    const e = thrown(() => openJcReceipt(env));
    expect(e.code).toBe('ERR_RECEIPT_SIGNATURE_INVALID');
    expect(e.message).toBe(`ERR_RECEIPT_SIGNATURE_INVALID: the receipt's signature does not verify under steward ${steward.did}`);
  });
});
