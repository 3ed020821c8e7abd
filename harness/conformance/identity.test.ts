// Identity (jcp §2), through the implementation under test: fromSeed gives the did:key the reference computes and
// parseDid reads it back; malformed did:keys are refused with ERR_DID_MALFORMED; wrong lengths are refused with
// their codes; sign is byte-exact (Ed25519 is deterministic); verify accepts an honest signature and refuses what every
// reading of the verification rule refuses (jcp/2#actor-proves-by-signing), and where the readings disagree gives the
// verdict of the testee's declared reading (jcp/2#open-ed25519-verification-rule; harness/ed25519-readings.ts). Also the cose-wg eddsa-sig-01 Sig_structure signed by the implementation
// (jcp §8). The reference's two backends are held to each other in impl/identity/ed25519.test.ts.
import fc from 'fast-check';
import { describe, expect } from 'vitest';
import { AcceptableReading, clauseIt, declaredReading } from '../clause.ts';
import { expectRefusedAs, isRefusal } from '../contract-codes.ts';
import { implementation } from '../driver.ts';
import { ED25519_READINGS, verdictsByReading, type Ed25519Reading } from '../ed25519-readings.ts';
import { describeWithShared, fcParams, readVectorJson } from '../external-vectors.ts';
import { alice, bob } from '../fixtures.ts';
import { TesteeError } from '../implementation.ts';
import { assertProperty } from '../refusal.ts';
import { deriveSeed, didFromPublicKey, fromHexLoose, nodeEd25519 as reference, toHex } from '../oracle.ts';

const DID = 'jcp/2#actor-is-ed25519-did-key';
const SIGN = 'jcp/2#actor-proves-by-signing';
const RULE = 'jcp/2#open-ed25519-verification-rule';
const COSE = 'jcp/8#cose-sign1-eddsa';
const WRONG_LENGTH = 'jcp/2#open-wrong-length-key-or-signature';

const seedArb = fc.uint8Array({ minLength: 32, maxLength: 32 });
const messageArb = fc.uint8Array({ maxLength: 300 });
const utf8 = new TextEncoder();

/**
 * The code of the TesteeError `p` rejects with; fails when it resolves, rethrows anything else (a TesteeFailure). That
 * it is refused is the spec's grade; its code is the suite's byte contract (expectRefusedAs).
 */
async function refusal(p: Promise<unknown>): Promise<string> {
  let value: unknown;
  try {
    value = await p;
  } catch (e) {
    if (e instanceof TesteeError) return e.code;
    throw e;
  }
  throw new Error(`expected a refusal, but the implementation answered ${value instanceof Uint8Array ? toHex(value) : String(value)}`);
}

/** 'valid', 'invalid', or the code of the TesteeError `p` rejects with; rethrows anything else (a TesteeFailure). */
async function verdictOf(p: Promise<boolean>): Promise<string> {
  try {
    return (await p) ? 'valid' : 'invalid';
  } catch (e) {
    if (e instanceof TesteeError) return e.code;
    throw e;
  }
}

/** Keys (n = 32) or signatures (n = 64) of the wrong length. */
const wrongLengths = (n: number): Uint8Array[] => [0, 1, n - 1, n + 1, 2 * n].map((l) => new Uint8Array(l).fill(7));

/** A key, a message and the key's signature over it, made by the implementation. */
async function lengthFixture(): Promise<{ pk: Uint8Array; msg: Uint8Array; sig: Uint8Array }> {
  const seed = deriveSeed('boundaries');
  const msg = Uint8Array.of(1, 2, 3);
  const { public_key: pk } = await implementation().fromSeed(seed);
  return { pk, msg, sig: await implementation().sign(seed, msg) };
}

/** A verify of a wrong-length key or signature: what it is, the call, and the suite's code for refusing it. */
type WrongLength = readonly [string, () => Promise<boolean>, string | readonly string[]];

/**
 * Each verify of a wrong-length key or signature, graded against the declared reading of `wrong-length-verify`
 * (harness/protocol/readings.ts): refused with its code, or invalid; with none declared, either is acceptable.
 */
async function expectWrongLengthsAsDeclared(cases: readonly WrongLength[]): Promise<void> {
  const declared = declaredReading('wrong-length-verify');
  const seen = new Set<string>();
  for (const [what, call, code] of cases) {
    const got = await verdictOf(call());
    if (declared === 'refused') expectRefusedAs(got, code, what);
    else if (declared === 'invalid') expect(got, `${what}: the declared reading invalid`).toBe('invalid');
    else {
      expect(got === 'invalid' || isRefusal(got), `${what}: refused or invalid, but ${got}`).toBe(true);
      seen.add(got === 'invalid' ? 'invalid' : 'refused');
    }
  }
  if (!declared) throw new AcceptableReading(`a wrong-length key or signature: ${[...seen].join(' and ')}, a reading the text permits (none declared)`);
}

function flipBit(b: Uint8Array, bit: number): Uint8Array {
  const out = b.slice();
  out[bit >> 3] = (out[bit >> 3] as number) ^ (1 << (bit & 7));
  return out;
}

// base58btc written here, apart from the reference, so that did:key texts are checked against their definition
// (jcp §2: multibase base58btc of 0xed01 ‖ the public key) and junk can be built without the reference's encoder.
const B58 = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';
function base58(bytes: Uint8Array): string {
  let n = 0n;
  for (const b of bytes) n = (n << 8n) | BigInt(b);
  let s = '';
  for (; n > 0n; n /= 58n) s = B58[Number(n % 58n)] + s;
  for (const b of bytes) {
    if (b !== 0) break;
    s = `1${s}`;
  }
  return s;
}
const didOf = (pk: Uint8Array): string => `did:key:z${base58(Uint8Array.of(0xed, 0x01, ...pk))}`;

describe('did:key', () => {
  clauseIt([DID], 'fromSeed gives the public key and did:key the reference computes, and parseDid reads the key back', async () => {
    const impl = implementation();
    await assertProperty(
      fc.asyncProperty(seedArb, async (seed) => {
        const pk = reference.publicKeyFromSeed(seed);
        const got = await impl.fromSeed(seed);
        expect(toHex(got.public_key)).toBe(toHex(pk));
        expect(got.did).toBe(didFromPublicKey(pk));
        expect(got.did).toBe(didOf(pk));
        expect(got.did.startsWith('did:key:z6Mk')).toBe(true);
        expect(toHex(await impl.parseDid(got.did))).toBe(toHex(pk));
      }),
      fcParams(100),
    );
  });

  clauseIt([DID], 'parseDid reads back the 32 bytes of any did:key, a curve point or not; every did starts did:key:z6Mk', async () => {
    const impl = implementation();
    await assertProperty(
      fc.asyncProperty(fc.uint8Array({ minLength: 32, maxLength: 32 }), async (pk) => {
        const did = didOf(pk);
        expect(did).toBe(didFromPublicKey(pk));
        expect(did.startsWith('did:key:z6Mk')).toBe(true);
        expect(toHex(await impl.parseDid(did))).toBe(toHex(pk));
      }),
      fcParams(200),
    );
    // Leading zero bytes of the key are carried by the text, not dropped.
    for (const pk of [new Uint8Array(32), Uint8Array.from({ length: 32 }, (_, i) => (i < 5 ? 0 : i))]) {
      expect(toHex(await impl.parseDid(didOf(pk)))).toBe(toHex(pk));
    }
  });

  const goodKey = reference.publicKeyFromSeed(deriveSeed('did-junk'));
  const good = didOf(goodKey);
  const body = good.slice('did:key:z'.length);
  const withPayload = (bytes: number[]): string => `did:key:z${base58(Uint8Array.from(bytes))}`;
  const key32 = Array.from({ length: 32 }, (_, i) => i + 1);
  // What is wrong with each: the reference's fault names (checked there, in impl/identity/did-key.test.ts); the
  // protocol carries only the code. Non-strings are not here: the protocol's did is text.
  const junk: readonly (readonly [string, string, string])[] = [
    ['empty', '', 'prefix'],
    ['leading space', ` ${good}`, 'whitespace'],
    ['trailing space', `${good} `, 'whitespace'],
    ['trailing newline', `${good}\n`, 'whitespace'],
    ['did:web', 'did:web:example.com', 'prefix'],
    ['upper-case method', `DID:KEY:z${body}`, 'prefix'],
    ['no method-specific id', 'did:key', 'prefix'],
    ['key instead of did', `key:z${body}`, 'prefix'],
    ['nothing after the prefix', 'did:key:', 'multibase'],
    ['upper-case Z', `did:key:Z${body}`, 'multibase'],
    ['base64url multibase u', `did:key:u7QE${'A'.repeat(43)}`, 'multibase'],
    ['hex multibase f', `did:key:fed01${'00'.repeat(32)}`, 'multibase'],
    ['z and nothing else', 'did:key:z', 'base58'],
    ['base58 with 0', `did:key:z6Mk0${body.slice(4)}`, 'base58'],
    ['base58 with O', `did:key:z6MkO${body.slice(4)}`, 'base58'],
    ['base58 with I', `did:key:z6MkI${body.slice(4)}`, 'base58'],
    ['base58 with l', `did:key:z6Mkl${body.slice(4)}`, 'base58'],
    ['inner space', `did:key:z6Mk ${body.slice(4)}`, 'base58'],
    ['a fragment', `${good}#${good.slice(8)}`, 'base58'],
    ['non-ASCII', `did:key:z6Mk${body.slice(4, -1)}é`, 'base58'],
    ['multicodec 0xec01 (x25519)', withPayload([0xec, 0x01, ...key32]), 'multicodec'],
    ['multicodec 0xe701 (secp256k1)', withPayload([0xe7, 0x01, 2, ...key32]), 'multicodec'],
    ['non-minimal varint of 0xed', withPayload([0xed, 0x81, 0x00, ...key32]), 'multicodec'],
    ['raw key without multicodec', withPayload(key32), 'multicodec'],
    ['33-byte payload', withPayload([0xed, 0x01, ...key32.slice(1)]), 'length'],
    ['35-byte payload', withPayload([0xed, 0x01, ...key32, 7]), 'length'],
    ['multicodec only', withPayload([0xed, 0x01]), 'length'],
    ['one byte', withPayload([0xed]), 'length'],
    ['very long', `did:key:z${'2'.repeat(10_000)}`, 'length'],
  ];

  clauseIt([DID], `a corpus of ${junk.length} malformed did:key texts is refused with ERR_DID_MALFORMED`, async () => {
    const impl = implementation();
    const kinds: Record<string, number> = {};
    for (const [what, input, kind] of junk) {
      expectRefusedAs(await refusal(impl.parseDid(input)), 'ERR_DID_MALFORMED', what);
      kinds[kind] = (kinds[kind] ?? 0) + 1;
    }
    expect(kinds).toEqual({ prefix: 5, whitespace: 3, multibase: 4, base58: 8, multicodec: 4, length: 5 });
    expect(good).toBe(didFromPublicKey(goodKey));
    expect(toHex(await impl.parseDid(good))).toBe(toHex(goodKey));
  });
});

describe('signing and verification', () => {
  clauseIt([SIGN], 'sign gives the reference’s signature byte for byte, again on a second call, and verify accepts it', async () => {
    const impl = implementation();
    await assertProperty(
      fc.asyncProperty(seedArb, messageArb, async (seed, msg) => {
        const sig = await impl.sign(seed, msg);
        expect(sig.length).toBe(64);
        expect(toHex(sig)).toBe(toHex(reference.sign(seed, msg)));
        expect(toHex(await impl.sign(seed, msg))).toBe(toHex(sig)); // deterministic
        const { public_key } = await impl.fromSeed(seed);
        expect(await impl.verify(public_key, msg, sig)).toBe(true);
      }),
      fcParams(100),
    );
    // Lengths around SHA-512's 128-byte block and longer ones, which small random messages rarely reach.
    const seed = deriveSeed('message-lengths');
    const { public_key } = await impl.fromSeed(seed);
    for (const n of [0, 1, 111, 112, 127, 128, 129, 255, 256, 1000, 4096]) {
      const msg = Uint8Array.from({ length: n }, (_, i) => (i * 31 + n) & 0xff);
      const sig = await impl.sign(seed, msg);
      expect(toHex(sig), `${n}-byte message`).toBe(toHex(reference.sign(seed, msg)));
      expect(await impl.verify(public_key, msg, sig), `${n}-byte message`).toBe(true);
    }
  });

  clauseIt([SIGN], 'a single flipped bit of signature, message or key: verify refuses, as every reading of the rule does', async () => {
    const impl = implementation();
    const flipped = { signature: 0, message: 0, key: 0 };
    await assertProperty(
      fc.asyncProperty(
        seedArb,
        fc.uint8Array({ minLength: 1, maxLength: 200 }),
        fc.constantFrom('signature', 'message', 'key'),
        fc.nat(),
        async (seed, msg, where, n) => {
          const pk = reference.publicKeyFromSeed(seed);
          let sig = reference.sign(seed, msg);
          let m: Uint8Array = msg;
          let k = pk;
          if (where === 'signature') sig = flipBit(sig, n % 512);
          else if (where === 'message') m = flipBit(msg, n % (msg.length * 8));
          else k = flipBit(pk, n % 256);
          flipped[where]++;
          // An honest signature survives no single bit flip, under any reading of the rule.
          expect(verdictsByReading(k, m, sig), 'every reading refuses it').toEqual({ 'rfc8032-strict': false, cofactored: false, zip215: false });
          expect(await impl.verify(k, m, sig)).toBe(false);
        },
      ),
      fcParams(150),
    );
    expect(flipped.signature + flipped.message + flipped.key).toBeGreaterThan(0);
  });

  clauseIt([RULE], 'arbitrary 64-byte signatures on arbitrary 32-byte keys: the declared reading’s verdict, never a refusal', async () => {
    const impl = implementation();
    const declared = declaredReading('ed25519-verification') as Ed25519Reading | undefined;
    // with none declared: where the readings agree, their verdict; where they disagree, either (said at the end)
    const disputed: Record<string, number> = {};
    // Keys and R drawn partly from the small-order points and their non-canonical encodings, where rules differ.
    const special = [
      '0100000000000000000000000000000000000000000000000000000000000000', // identity
      '0100000000000000000000000000000000000000000000000000000000000080', // identity, sign bit set (non-canonical)
      'ecffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f', // order 2
      'ecffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff', // order 2, sign bit set (non-canonical)
      '0000000000000000000000000000000000000000000000000000000000000000', // order 4
      '0000000000000000000000000000000000000000000000000000000000000080', // order 4
      'c7176a703d4dd84fba3c0b760d10670f2a2053fa2c39ccc64ec7fd7792ac037a', // order 8
      'c7176a703d4dd84fba3c0b760d10670f2a2053fa2c39ccc64ec7fd7792ac03fa', // order 8
      'eeffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f', // y = p + 1 (non-canonical identity)
      'edffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f', // y = p (non-canonical 0)
    ].map((h) => fromHexLoose(h));
    const pointArb = fc.oneof(fc.constantFrom(...special), fc.uint8Array({ minLength: 32, maxLength: 32 }));
    const scalarArb = fc.oneof(
      fc.constant(new Uint8Array(32)),
      fc.uint8Array({ minLength: 32, maxLength: 32 }).map((s) => {
        const out = s.slice();
        out[31] = (out[31] as number) & 0x0f; // < 2^252 < L
        return out;
      }),
      fc.uint8Array({ minLength: 32, maxLength: 32 }),
    );
    await assertProperty(
      fc.asyncProperty(pointArb, pointArb, scalarArb, messageArb, async (pk, r, s, msg) => {
        const sig = new Uint8Array(64);
        sig.set(r, 0);
        sig.set(s, 32);
        const by = verdictsByReading(pk, msg, sig);
        const got = await verdictOf(impl.verify(pk, msg, sig));
        const what = `key ${toHex(pk)}, signature ${toHex(sig)}`;
        if (declared) expect(got, `${what}: the declared reading ${declared}`).toBe(by[declared] ? 'valid' : 'invalid');
        else if (new Set(Object.values(by)).size === 1) expect(got, `${what}: every reading's verdict`).toBe(by['rfc8032-strict'] ? 'valid' : 'invalid');
        else {
          expect(got === 'valid' || got === 'invalid', `${what}: valid or invalid, but ${got}`).toBe(true);
          const as = ED25519_READINGS.filter((x) => (by[x] ? 'valid' : 'invalid') === got).join(', ');
          disputed[as] = (disputed[as] ?? 0) + 1;
        }
      }),
      fcParams(300),
    );
    const kinds = Object.entries(disputed);
    if (kinds.length) throw new AcceptableReading(`where the readings disagree: ${kinds.map(([as, n]) => `${n} as ${as}`).join('; ')}, readings the text permits (none declared)`);
  });

  clauseIt([SIGN], 'S + L (the same scalar mod L), S = L and S = 2^256 − 1 never verify: every reading wants S < L', async () => {
    const impl = implementation();
    const seed = deriveSeed('malleability');
    const msg = utf8.encode('jcp');
    const { public_key: pk } = await impl.fromSeed(seed);
    const sig = await impl.sign(seed, msg);
    expect(await impl.verify(pk, msg, sig)).toBe(true);
    const L = 2n ** 252n + 27742317777372353535851937790883648493n;
    let s = 0n;
    for (let i = 63; i >= 32; i--) s = (s << 8n) | BigInt(sig[i] as number);
    const forged = sig.slice();
    let t = s + L;
    for (let i = 32; i < 64; i++, t >>= 8n) forged[i] = Number(t & 0xffn);
    expect(await impl.verify(pk, msg, forged), 'S + L').toBe(false);
    // S = L exactly and S = 2^256 − 1 are out of range too: invalid, never a refusal.
    const atL = sig.slice();
    t = L;
    for (let i = 32; i < 64; i++, t >>= 8n) atL[i] = Number(t & 0xffn);
    const allOnes = sig.slice();
    allOnes.fill(0xff, 32);
    expect(await impl.verify(pk, msg, atL), 'S = L').toBe(false);
    expect(await impl.verify(pk, msg, allOnes), 'S = 2^256 - 1').toBe(false);
  });

  clauseIt([RULE], 'the identity as key, R = identity, S = 0: valid; the key with its sign bit set, as the declared reading says', async () => {
    const impl = implementation();
    const msg = utf8.encode('jcp');
    // The identity point (0, 1) with the sign bit set is a non-canonical A (RFC 8032 §5.1.3 refuses it, ZIP-215 reads
    // it as the identity); S = 0, R = identity holds the equation, cofactorless and cofactored alike.
    const identity = fromHexLoose('01'.padEnd(64, '0'));
    const negZero = identity.slice();
    negZero[31] = 0x80;
    const trivial = new Uint8Array(64);
    trivial.set(identity, 0);
    expect(verdictsByReading(identity, msg, trivial)).toEqual({ 'rfc8032-strict': true, cofactored: true, zip215: true });
    expect(verdictsByReading(negZero, msg, trivial)).toEqual({ 'rfc8032-strict': false, cofactored: false, zip215: true });
    expect(await impl.verify(identity, msg, trivial), 'a small-order A that holds the equation: valid under every reading').toBe(true);
    const got = await verdictOf(impl.verify(negZero, msg, trivial));
    const declared = declaredReading('ed25519-verification') as Ed25519Reading | undefined;
    if (declared) expect(got, `a non-canonical A: the declared reading ${declared}`).toBe(declared === 'zip215' ? 'valid' : 'invalid');
    else if (got === 'valid' || got === 'invalid') throw new AcceptableReading(`a non-canonical A: ${got}, a reading the text permits (none declared)`);
    else expect(got, 'a non-canonical A: valid or invalid, never a refusal').toBe('invalid');
  });

  clauseIt([SIGN], 'wrong seed lengths are refused with ERR_SEED_LENGTH; a wrong key or signature length never verifies', async () => {
    const impl = implementation();
    const { pk, msg, sig } = await lengthFixture();
    const seen: Record<string, number> = {};
    const refuse = async (code: string, p: Promise<unknown>, what: string): Promise<void> => {
      expectRefusedAs(await refusal(p), code, what);
      seen[code] = (seen[code] ?? 0) + 1;
    };
    for (const bad of wrongLengths(32)) {
      await refuse('ERR_SEED_LENGTH', impl.fromSeed(bad), `fromSeed of a ${bad.length}-byte seed`);
      await refuse('ERR_SEED_LENGTH', impl.sign(bad, msg), `sign with a ${bad.length}-byte seed`);
    }
    expect(seen).toEqual({ ERR_SEED_LENGTH: 10 });
    // refused or invalid (jcp/2#open-wrong-length-key-or-signature), never valid
    for (const bad of wrongLengths(32)) expect(await verdictOf(impl.verify(bad, msg, sig)), `${bad.length}-byte key`).not.toBe('valid');
    for (const bad of wrongLengths(64)) expect(await verdictOf(impl.verify(pk, msg, bad)), `${bad.length}-byte signature`).not.toBe('valid');
    expect(await impl.verify(pk, msg, sig)).toBe(true);
  });

  clauseIt([WRONG_LENGTH], 'verify with a wrong key or signature length answers as the declared reading of wrong-length verification says', async () => {
    const impl = implementation();
    const { pk, msg, sig } = await lengthFixture();
    // harness/protocol/readings.ts: refused (ERR_KEY_LENGTH, ERR_SIGNATURE_LENGTH) or invalid
    const cases: WrongLength[] = [
      ...wrongLengths(32).map((bad): WrongLength => [`${bad.length}-byte key`, () => impl.verify(bad, msg, sig), 'ERR_KEY_LENGTH']),
      ...wrongLengths(64).map((bad): WrongLength => [`${bad.length}-byte signature`, () => impl.verify(pk, msg, bad), 'ERR_SIGNATURE_LENGTH']),
    ];
    await expectWrongLengthsAsDeclared(cases);
  });

  clauseIt([DID, SIGN], 'a labelled seed gives the fixture’s key and did; its signature verifies under it and not under another key', async () => {
    const impl = implementation();
    for (const k of [alice, bob]) {
      const got = await impl.fromSeed(k.seed);
      expect(toHex(got.public_key)).toBe(toHex(k.publicKey));
      expect(got.did).toBe(k.did);
      expect(got.did).toBe(didOf(k.publicKey));
    }
    const msg = utf8.encode('hello');
    const sig = await impl.sign(alice.seed, msg);
    expect(await impl.verify(alice.publicKey, msg, sig)).toBe(true);
    expect(await impl.verify(bob.publicKey, msg, sig)).toBe(false);
  });
});

interface CoseExample {
  input: { plaintext: string; sign0: { key: { x_hex: string; d_hex?: string } } };
  intermediates: { ToBeSign_hex: string };
  output: { cbor: string };
}

/** The signature of a published COSE_Sign1: its last `n` bytes, after the byte-string head 0x58 n. */
function trailingSignature(cbor: Uint8Array, n: number): Uint8Array {
  expect([...cbor.subarray(cbor.length - n - 2, cbor.length - n)]).toEqual([0x58, n]);
  return cbor.slice(cbor.length - n);
}

describeWithShared('vectors', 'cose-wg EdDSA COSE_Sign1 examples through the implementation', (dir) => {
  const ex = readVectorJson<CoseExample>(dir, 'cose/eddsa-sig-01.json');
  const ed448 = readVectorJson<CoseExample>(dir, 'cose/eddsa-sig-02.json');

  clauseIt([COSE], 'eddsa-sig-01: signing its ToBeSign bytes with d gives the published signature, which verifies under x', async () => {
    const impl = implementation();
    const tbs = fromHexLoose(ex.intermediates.ToBeSign_hex);
    const d = fromHexLoose(ex.input.sign0.key.d_hex!);
    const x = fromHexLoose(ex.input.sign0.key.x_hex);
    const published = trailingSignature(fromHexLoose(ex.output.cbor), 64);
    expect(toHex((await impl.fromSeed(d)).public_key)).toBe(toHex(x));
    // Ed25519 is deterministic: signing the same Sig_structure with d gives the published signature.
    expect(toHex(await impl.sign(d, tbs))).toBe(toHex(published));
    expect(await impl.verify(x, tbs, published)).toBe(true);
    const tampered = tbs.slice();
    tampered[tampered.length - 1]! ^= 1; // the last payload byte
    expect(await impl.verify(x, tampered, published)).toBe(false);
  });

  clauseIt([COSE], 'eddsa-sig-02 (Ed448): its 57-byte key and 114-byte signature never verify as Ed25519 ones', async () => {
    const tbs = fromHexLoose(ed448.intermediates.ToBeSign_hex);
    const x = fromHexLoose(ed448.input.sign0.key.x_hex);
    expect(x.length).toBe(57);
    const sig = trailingSignature(fromHexLoose(ed448.output.cbor), 114);
    // refused or invalid (jcp/2#open-wrong-length-key-or-signature), never valid
    expect(await verdictOf(implementation().verify(x, tbs, sig)), 'an Ed448 key and signature').not.toBe('valid');
  });

  clauseIt([WRONG_LENGTH], 'eddsa-sig-02 (Ed448): its key and signature are answered as the declared reading of wrong-length verification says', async () => {
    const tbs = fromHexLoose(ed448.intermediates.ToBeSign_hex);
    const x = fromHexLoose(ed448.input.sign0.key.x_hex);
    const sig = trailingSignature(fromHexLoose(ed448.output.cbor), 114);
    await expectWrongLengthsAsDeclared([['an Ed448 key and signature', () => implementation().verify(x, tbs, sig), ['ERR_SIGNATURE_LENGTH', 'ERR_KEY_LENGTH']]]);
  });
});
