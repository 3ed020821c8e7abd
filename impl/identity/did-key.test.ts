// Unit tests of impl/identity/did-key.ts and base58.ts: did:key round-trips for any 32 bytes, base58btc has one text
// per bytes, and each malformed did:key (including non-strings, which the testee protocol cannot carry) is refused
// with ERR_DID_MALFORMED and the fault the reference names. The protocol-level checks of the same corpus are in
// harness/conformance/identity.test.ts.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { toHex } from '../bytes.ts';
import { thrown } from '../_test-support.ts';
import { base58btcDecode, base58btcEncode } from './base58.ts';
import { didFromPublicKey, isDidKey, publicKeyFromDid, type DidKeyFault } from './did-key.ts';
import { deriveSeed, nodeEd25519 } from './ed25519.ts';

/** The fixed fast-check seed of the suite ("JCP"), overridable with FC_SEED / FC_RUNS to replay a failure. */
const fcParams = (runs = 200) => ({
  seed: process.env['FC_SEED'] !== undefined ? Number(process.env['FC_SEED']) : 0x4a4350,
  numRuns: process.env['FC_RUNS'] !== undefined ? Number(process.env['FC_RUNS']) : runs,
});

describe('did:key', () => {
  it('didFromPublicKey and publicKeyFromDid round-trip; every did starts did:key:z6Mk', () => {
    fc.assert(
      fc.property(fc.uint8Array({ minLength: 32, maxLength: 32 }), (pk) => {
        const did = didFromPublicKey(pk);
        expect(did.startsWith('did:key:z6Mk')).toBe(true);
        expect(toHex(publicKeyFromDid(did))).toBe(toHex(pk));
        expect(isDidKey(did)).toBe(true);
      }),
      fcParams(),
    );
  });

  it('base58btc decode then encode gives back any string of the alphabet (one text per bytes)', () => {
    const alphabet = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...alphabet), { maxLength: 60 }), (chars) => {
        const text = chars.join('');
        expect(base58btcEncode(base58btcDecode(text))).toBe(text);
      }),
      fcParams(),
    );
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 40 }), (b) => {
        expect(toHex(base58btcDecode(base58btcEncode(b)))).toBe(toHex(b));
      }),
      fcParams(),
    );
    expect(base58btcEncode(Uint8Array.of(0, 0, 1))).toBe('112');
    expect(toHex(base58btcDecode('112'))).toBe('000001');
  });

  const good = didFromPublicKey(nodeEd25519.publicKeyFromSeed(deriveSeed('did-junk')));
  const body = good.slice('did:key:z'.length);
  const withPayload = (bytes: number[]): string => `did:key:z${base58btcEncode(Uint8Array.from(bytes))}`;
  const key32 = Array.from({ length: 32 }, (_, i) => i + 1);
  const junk: readonly (readonly [string, unknown, DidKeyFault])[] = [
    ['not a string: undefined', undefined, 'type'],
    ['not a string: null', null, 'type'],
    ['not a string: number', 42, 'type'],
    ['not a string: NaN', Number.NaN, 'type'],
    ['not a string: object', { toString: () => good }, 'type'],
    ['not a string: String object', new String(good), 'type'],
    ['not a string: bytes', new TextEncoder().encode(good), 'type'],
    ['not a string: array', [good], 'type'],
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

  it(`a corpus of ${junk.length} malformed did:keys is refused with ERR_DID_MALFORMED and the right fault`, () => {
    const faults: Record<string, number> = {};
    for (const [what, input, fault] of junk) {
      const e = thrown(() => publicKeyFromDid(input as string));
      expect(e.code, what).toBe('ERR_DID_MALFORMED');
      expect(e.detail?.['fault'], what).toBe(fault);
      expect(isDidKey(input), what).toBe(false);
      faults[fault] = (faults[fault] ?? 0) + 1;
    }
    expect(faults).toEqual({ type: 8, prefix: 5, whitespace: 3, multibase: 4, base58: 8, multicodec: 4, length: 5 });
    expect(toHex(publicKeyFromDid(good))).toBe(toHex(nodeEd25519.publicKeyFromSeed(deriveSeed('did-junk'))));
  });
});
