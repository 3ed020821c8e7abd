// Self-tests of the suite's own tooling: the reference's COSE_Sign1 envelope and Sig_structure code (receipts, jcp §8),
// reached through the oracle, against cose-wg Examples eddsa-sig-01 (Ed25519) and eddsa-sig-02 (Ed448). That an
// implementation signs eddsa-sig-01's Sig_structure to the published signature is checked through the protocol in
// harness/conformance/identity.test.ts.
import { expect, it } from 'vitest';
import { describeWithShared, readVectorJson } from '../external-vectors.ts';
import { decodeSign1, fromHexLoose, isJcpError, nobleEd25519, nodeEd25519, sigStructure, signSign1, toHex, verifySign1 } from '../oracle.ts';

interface CoseExample {
  input: { plaintext: string; sign0: { key: { x_hex: string; d_hex?: string } } };
  intermediates: { ToBeSign_hex: string };
  output: { cbor: string };
}

describeWithShared('vectors', 'cose-wg EdDSA COSE_Sign1 examples, the reference', (dir) => {
  const ex = readVectorJson<CoseExample>(dir, 'cose/eddsa-sig-01.json');
  const ed448 = readVectorJson<CoseExample>(dir, 'cose/eddsa-sig-02.json');

  it('eddsa-sig-01: Sig_structure bytes, signature and envelope agree with RFC 9052 as published', () => {
    const bytes = fromHexLoose(ex.output.cbor);
    const s = decodeSign1(bytes);
    expect(new TextDecoder().decode(s.payload)).toBe(ex.input.plaintext);
    expect(toHex(sigStructure(s.protectedBytes, s.payload))).toBe(ex.intermediates.ToBeSign_hex.toLowerCase());
    const x = fromHexLoose(ex.input.sign0.key.x_hex);
    for (const b of [nodeEd25519, nobleEd25519]) {
      expect(verifySign1(s, x, b)).toBe(true);
      // Ed25519 is deterministic: signing the same Sig_structure with d gives the published signature
      const d = fromHexLoose(ex.input.sign0.key.d_hex!);
      expect(toHex(b.sign(d, sigStructure(s.protectedBytes, s.payload)))).toBe(toHex(s.signature));
      const tampered = s.payload.slice();
      tampered[0]! ^= 1;
      expect(verifySign1({ ...s, payload: tampered }, x, b)).toBe(false);
    }
    // our sealing path rebuilds the same Sig_structure for the same protected bucket
    const resealed = decodeSign1(signSign1(s.payload, new Uint8Array(), fromHexLoose(ex.input.sign0.key.d_hex!), nodeEd25519, s.protectedBytes));
    expect(toHex(resealed.signature)).toBe(toHex(s.signature));
  });

  it('eddsa-sig-02 (Ed448) decodes, but its 57-byte key is refused as an Ed25519 key', () => {
    const s = decodeSign1(fromHexLoose(ed448.output.cbor));
    expect(toHex(sigStructure(s.protectedBytes, s.payload))).toBe(ed448.intermediates.ToBeSign_hex.toLowerCase());
    let code = 'accepted';
    try {
      verifySign1(s, fromHexLoose(ed448.input.sign0.key.x_hex), nodeEd25519);
    } catch (e) {
      code = isJcpError(e) ? e.code : 'other';
    }
    expect(['ERR_SIGNATURE_LENGTH', 'ERR_KEY_LENGTH']).toContain(code);
  });
});
