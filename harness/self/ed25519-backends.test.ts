// Self-tests of the suite's own tooling: the reference's two Ed25519 backends (node:crypto and @noble), reached through
// the oracle, against the published vectors — Wycheproof, RFC 8032 §7.1 and C2SP/CCTV — and against each other
// (byte-identical signatures, identical verdicts). What an implementation under test must do with the same vectors is
// in harness/external/ed25519-*.test.ts; vector-free backend agreement is in impl/identity/ed25519.test.ts.
import { describe, expect, it } from 'vitest';
import { describeWithShared, readVectorJson } from '../external-vectors.ts';
import { bytesEqual, fromHexLoose, isJcpError, nobleEd25519, nodeEd25519, toHex, type Ed25519 } from '../oracle.ts';
import { CCTV_GROUP_OUTCOMES, cctvVerdict, type CctvVector } from '../ed25519-readings.ts';

const BACKENDS: readonly Ed25519[] = [nodeEd25519, nobleEd25519];

interface WycheproofTest {
  readonly tcId: number;
  readonly comment: string;
  readonly msg: string;
  readonly sig: string;
  readonly result: 'valid' | 'invalid' | 'acceptable';
}
interface WycheproofFile {
  readonly numberOfTests: number;
  readonly testGroups: readonly { readonly publicKey: { readonly pk: string }; readonly tests: readonly WycheproofTest[] }[];
}

/** A verdict: true, false, or the code of a length error (the only refusal by throwing that counts). */
function verdict(backend: Ed25519, sig: Uint8Array, msg: Uint8Array, pk: Uint8Array): boolean | string {
  try {
    return backend.verify(sig, msg, pk);
  } catch (e) {
    if (isJcpError(e, 'ERR_SIGNATURE_LENGTH') || isJcpError(e, 'ERR_KEY_LENGTH')) return e.code;
    throw e;
  }
}

describeWithShared('vectors', 'Wycheproof ed25519_test.json, both backends', (dir) => {
  const file = readVectorJson<WycheproofFile>(dir, 'ed25519/wycheproof_ed25519_test.json');

  for (const backend of BACKENDS) {
    it(`${backend.name}: every valid vector verifies and every invalid one is refused`, () => {
      const counts = { run: 0, valid: 0, invalidFalse: 0, invalidLength: 0 };
      const wrong: string[] = [];
      for (const group of file.testGroups) {
        const pk = fromHexLoose(group.publicKey.pk, 'pk');
        for (const t of group.tests) {
          counts.run++;
          const v = verdict(backend, fromHexLoose(t.sig, 'sig'), fromHexLoose(t.msg, 'msg'), pk);
          if (t.result === 'valid') {
            if (v === true) counts.valid++;
            else wrong.push(`tcId ${t.tcId} (${t.comment}): valid but got ${String(v)}`);
          } else if (t.result === 'invalid') {
            if (v === false) counts.invalidFalse++;
            else if (v === 'ERR_SIGNATURE_LENGTH') counts.invalidLength++;
            else wrong.push(`tcId ${t.tcId} (${t.comment}): invalid but got ${String(v)}`);
          } else {
            wrong.push(`tcId ${t.tcId}: unexpected result ${t.result}`);
          }
        }
      }
      expect(wrong).toEqual([]);
      expect(file.numberOfTests).toBe(151);
      // 63 invalid = 51 refused by the rule (false) + 12 signatures of the wrong length (ERR_SIGNATURE_LENGTH).
      expect(counts).toEqual({ run: 151, valid: 88, invalidFalse: 51, invalidLength: 12 });
    });
  }
});

interface Rfc8032Vector {
  readonly name: string;
  readonly secretKey: string;
  readonly publicKey: string;
  readonly message: string;
  readonly signature: string;
}

describeWithShared('vectors', 'RFC 8032 §7.1 Ed25519, both backends', (dir) => {
  const vectors = readVectorJson<Rfc8032Vector[]>(dir, 'ed25519/rfc8032_ed25519.json');

  for (const backend of BACKENDS) {
    it(`${backend.name}: public key, byte-exact signature and verification of each RFC 8032 §7.1 test`, () => {
      const ran: string[] = [];
      for (const v of vectors) {
        const seed = fromHexLoose(v.secretKey, 'secretKey');
        const msg = fromHexLoose(v.message, 'message');
        const pk = fromHexLoose(v.publicKey, 'publicKey');
        const sig = fromHexLoose(v.signature, 'signature');
        expect(toHex(backend.publicKeyFromSeed(seed)), `TEST ${v.name} public key`).toBe(toHex(pk));
        expect(toHex(backend.sign(seed, msg)), `TEST ${v.name} signature`).toBe(toHex(sig));
        expect(backend.verify(sig, msg, pk), `TEST ${v.name} verifies`).toBe(true);
        // The same signature over a message one bit different is refused.
        const other = msg.length === 0 ? Uint8Array.of(0) : Uint8Array.from(msg, (b, i) => (i === 0 ? b ^ 1 : b));
        expect(bytesEqual(other, msg)).toBe(false);
        expect(backend.verify(sig, other, pk), `TEST ${v.name} altered message`).toBe(false);
        ran.push(v.name);
      }
      expect(ran).toEqual(['1', '2', '3', '1024', 'SHA(abc)']);
    });
  }
});

describeWithShared('vectors', 'CCTV ed25519vectors.json, both backends', (dir) => {
  const utf8 = new TextEncoder();
  const cases = readVectorJson<CctvVector[]>(dir, 'ed25519/cctv_ed25519vectors.json').map((v) => ({
    number: v.number,
    flags: v.flags ?? [],
    pk: fromHexLoose(v.key, 'key'),
    sig: fromHexLoose(v.sig, 'sig'),
    msg: utf8.encode(v.msg),
  }));

  it('node and noble give the same verdict on all 914 vectors, the one the rule gives', () => {
    const disagree: number[] = [];
    const offRule: number[] = [];
    let accepted = 0;
    for (const c of cases) {
      const a = nodeEd25519.verify(c.sig, c.msg, c.pk);
      const b = nobleEd25519.verify(c.sig, c.msg, c.pk);
      if (a !== b) disagree.push(c.number);
      if (a !== cctvVerdict(c.flags, 'rfc8032-strict')) offRule.push(c.number);
      if (a) accepted++;
    }
    expect(disagree).toEqual([]);
    expect(offRule).toEqual([]);
    expect({ run: cases.length, accepted }).toEqual({ run: 914, accepted: 172 });
  });

  describe('each flag group comes out as documented (non-canonical A/R and low-order residue refused)', () => {
    for (const backend of BACKENDS) {
      it(backend.name, () => {
        const seen: Record<string, [number, number]> = {};
        for (const c of cases) {
          const ok = backend.verify(c.sig, c.msg, c.pk);
          for (const f of c.flags.length > 0 ? c.flags : ['(none)']) {
            const g = (seen[f] ??= [0, 0]);
            g[0]++;
            if (ok) g[1]++;
          }
        }
        expect(seen).toEqual(CCTV_GROUP_OUTCOMES['rfc8032-strict']);
      });
    }
  });
});
