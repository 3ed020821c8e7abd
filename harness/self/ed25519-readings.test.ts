// Self-tests of harness/ed25519-readings.ts, the verdicts the readings of jcp/2#open-ed25519-verification-rule give,
// which the Ed25519 conformance tests grade a testee's declared reading against: rfc8032-strict is the reference's
// rule (both backends); zip215 is @noble/curves' ZIP-215 verify (a third implementation, which hashes the bytes as
// given); cofactored is zip215 with RFC 8032 §5.1.3 decoding; and on the CCTV vectors each is what the flags say
// (cctvVerdict). Wycheproof's verdicts are the strict reading's, and zip215 alone accepts its tcId 151.
import { ed25519 } from '@noble/curves/ed25519.js';
import { Point } from '@noble/ed25519';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { cctvVerdict, ED25519_READINGS, verdictsByReading, verifiesUnder, type CctvVector } from '../ed25519-readings.ts';
import { describeWithShared, readVectorJson } from '../external-vectors.ts';
import { fromHexLoose, nobleEd25519, nodeEd25519 } from '../oracle.ts';

const utf8 = new TextEncoder();
const canonical = (b: Uint8Array): boolean => {
  try {
    Point.fromBytes(b, false);
    return true;
  } catch {
    return false;
  }
};

describe('the readings of the Ed25519 verification rule', () => {
  it('are the three of harness/protocol/readings.ts, the reference’s first', () => {
    expect(ED25519_READINGS).toEqual(['rfc8032-strict', 'cofactored', 'zip215']);
  });

  it('refuse a key or signature of the wrong length rather than judge it (another open point)', () => {
    expect(() => verifiesUnder('zip215', new Uint8Array(31), new Uint8Array(0), new Uint8Array(64))).toThrow(/32-byte key/);
    expect(() => verifiesUnder('zip215', new Uint8Array(32), new Uint8Array(0), new Uint8Array(63))).toThrow(/64-byte signature/);
  });

  it('accept an honest signature, each of them, and nest: strict ⊆ cofactored ⊆ zip215 on arbitrary inputs', () => {
    const seed = Uint8Array.from({ length: 32 }, (_, i) => i);
    const msg = utf8.encode('jcp');
    const sig = nodeEd25519.sign(seed, msg);
    expect(verdictsByReading(nodeEd25519.publicKeyFromSeed(seed), msg, sig)).toEqual({ 'rfc8032-strict': true, cofactored: true, zip215: true });
    fc.assert(
      fc.property(fc.uint8Array({ minLength: 32, maxLength: 32 }), fc.uint8Array({ minLength: 64, maxLength: 64 }), (pk, s) => {
        const by = verdictsByReading(pk, msg, s);
        expect(!by['rfc8032-strict'] || by.cofactored).toBe(true);
        expect(!by.cofactored || by.zip215).toBe(true);
      }),
      { seed: 1, numRuns: 50 },
    );
  });
});

describeWithShared('vectors', 'the readings on CCTV ed25519vectors.json', (dir) => {
  const vectors = readVectorJson<CctvVector[]>(dir, 'ed25519/cctv_ed25519vectors.json');

  it('strict is the reference, zip215 is @noble/curves ZIP-215, cofactored is that with canonical A and R, and each is its flags’ verdict', () => {
    const off: string[] = [];
    const accepted = { 'rfc8032-strict': 0, cofactored: 0, zip215: 0 };
    for (const v of vectors) {
      const pk = fromHexLoose(v.key, 'key');
      const sig = fromHexLoose(v.sig, 'sig');
      const msg = utf8.encode(v.msg);
      const by = verdictsByReading(pk, msg, sig);
      const zip = ed25519.verify(sig, msg, pk, { zip215: true });
      if (by['rfc8032-strict'] !== nodeEd25519.verify(sig, msg, pk) || by['rfc8032-strict'] !== nobleEd25519.verify(sig, msg, pk)) off.push(`${v.number}: strict`);
      if (by.zip215 !== zip) off.push(`${v.number}: zip215`);
      if (by.cofactored !== (zip && canonical(pk) && canonical(sig.subarray(0, 32)))) off.push(`${v.number}: cofactored`);
      for (const r of ED25519_READINGS) {
        if (by[r] !== cctvVerdict(v.flags ?? [], r)) off.push(`${v.number}: ${r} against its flags`);
        if (by[r]) accepted[r]++;
      }
    }
    expect(off).toEqual([]);
    expect(accepted).toEqual({ 'rfc8032-strict': 172, cofactored: 424, zip215: 826 });
  });
});

interface WycheproofFile {
  readonly testGroups: readonly { readonly publicKey: { readonly pk: string }; readonly tests: readonly { tcId: number; msg: string; sig: string; result: string }[] }[];
}

describeWithShared('vectors', 'the readings on Wycheproof ed25519_test.json', (dir) => {
  const file = readVectorJson<WycheproofFile>(dir, 'ed25519/wycheproof_ed25519_test.json');

  it('the file’s verdicts are the strict reading’s; the readings disagree on tcId 151 alone, which zip215 accepts', () => {
    const off: number[] = [];
    const disputed: string[] = [];
    for (const g of file.testGroups) {
      const pk = fromHexLoose(g.publicKey.pk, 'pk');
      for (const t of g.tests) {
        const sig = fromHexLoose(t.sig, 'sig');
        if (sig.length !== 64) continue;
        const by = verdictsByReading(pk, fromHexLoose(t.msg, 'msg'), sig);
        if (by['rfc8032-strict'] !== (t.result === 'valid')) off.push(t.tcId);
        if (new Set(Object.values(by)).size > 1) disputed.push(`${t.tcId} ${JSON.stringify(by)}`);
      }
    }
    expect(off).toEqual([]);
    expect(disputed).toEqual(['151 {"rfc8032-strict":false,"cofactored":false,"zip215":true}']);
  });
});
