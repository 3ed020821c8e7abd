// Replays Wycheproof ed25519_test.json (C2SP/wycheproof, testvectors_v1) against both Ed25519 backends, counting every kind.
import { expect } from 'vitest';
import { fromHexLoose } from '../../impl/bytes.ts';
import { isJcpError } from '../../impl/errors.ts';
import { nobleEd25519, nodeEd25519, type Ed25519 } from '../../impl/identity/ed25519.ts';
import { clauseIt } from '../clause.ts';
import { describeWithShared, readVectorJson } from '../external-vectors.ts';

interface WycheproofTest {
  readonly tcId: number;
  readonly comment: string;
  readonly flags: readonly string[];
  readonly msg: string;
  readonly sig: string;
  readonly result: 'valid' | 'invalid' | 'acceptable';
}
interface WycheproofFile {
  readonly numberOfTests: number;
  readonly testGroups: readonly { readonly publicKey: { readonly pk: string }; readonly tests: readonly WycheproofTest[] }[];
}

const BACKENDS: readonly Ed25519[] = [nodeEd25519, nobleEd25519];
const CLAUSES = ['jcp/2#actor-proves-by-signing', 'jcp/2#open-ed25519-verification-rule'];

/** A verdict: true, false, or the code of a length error (the only refusal by throwing that counts). */
function verdict(backend: Ed25519, sig: Uint8Array, msg: Uint8Array, pk: Uint8Array): boolean | string {
  try {
    return backend.verify(sig, msg, pk);
  } catch (e) {
    if (isJcpError(e, 'ERR_SIGNATURE_LENGTH') || isJcpError(e, 'ERR_KEY_LENGTH')) return e.code;
    throw e;
  }
}

describeWithShared('vectors', 'Wycheproof ed25519_test.json', (dir) => {
  const file = readVectorJson<WycheproofFile>(dir, 'ed25519/wycheproof_ed25519_test.json');

  for (const backend of BACKENDS) {
    clauseIt(CLAUSES, `${backend.name}: every valid vector verifies and every invalid one is refused`, () => {
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
