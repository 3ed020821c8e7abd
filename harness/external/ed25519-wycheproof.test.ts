// Replays Wycheproof ed25519_test.json (C2SP/wycheproof, testvectors_v1) through the implementation under test,
// counting every kind. The reference's two backends against the same file: harness/self/ed25519-backends.test.ts.
import { expect } from 'vitest';
import { clauseIt } from '../clause.ts';
import { refusalJudge } from '../contract-codes.ts';
import { implementation } from '../driver.ts';
import { describeWithShared, readVectorJson } from '../external-vectors.ts';
import { TesteeError } from '../implementation.ts';
import { fromHexLoose } from '../oracle.ts';

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

const CLAUSES = ['jcp/2#actor-proves-by-signing', 'jcp/2#open-ed25519-verification-rule'];

/** The implementation's verdict: true, false, or the code of its refusal. */
async function verdict(pk: Uint8Array, msg: Uint8Array, sig: Uint8Array): Promise<boolean | string> {
  try {
    return await implementation().verify(pk, msg, sig);
  } catch (e) {
    if (e instanceof TesteeError) return e.code;
    throw e;
  }
}

describeWithShared('vectors', 'Wycheproof ed25519_test.json', (dir) => {
  const file = readVectorJson<WycheproofFile>(dir, 'ed25519/wycheproof_ed25519_test.json');

  clauseIt(CLAUSES, 'every valid vector verifies and every invalid one is refused', async () => {
    const counts = { run: 0, valid: 0, invalidFalse: 0, invalidLength: 0 };
    const wrong: string[] = [];
    const lengthCode = refusalJudge();
    for (const group of file.testGroups) {
      const pk = fromHexLoose(group.publicKey.pk, 'pk');
      for (const t of group.tests) {
        counts.run++;
        const v = await verdict(pk, fromHexLoose(t.msg, 'msg'), fromHexLoose(t.sig, 'sig'));
        if (t.result === 'valid') {
          if (v === true) counts.valid++;
          else wrong.push(`tcId ${t.tcId} (${t.comment}): valid but got ${String(v)}`);
        } else if (t.result === 'invalid') {
          if (v === false) counts.invalidFalse++;
          else if (typeof v === 'string') {
            // a refusal (spec); the suite's code for a signature of the wrong length (byte contract)
            lengthCode(v, 'ERR_SIGNATURE_LENGTH', `tcId ${t.tcId} (${t.comment})`);
            counts.invalidLength++;
          } else wrong.push(`tcId ${t.tcId} (${t.comment}): invalid but got ${String(v)}`);
        } else {
          wrong.push(`tcId ${t.tcId}: unexpected result ${t.result}`);
        }
      }
    }
    expect(wrong).toEqual([]);
    expect(file.numberOfTests).toBe(151);
    // 63 invalid = 51 refused by the rule (false) + 12 signatures of the wrong length (refused: ERR_SIGNATURE_LENGTH).
    expect(counts).toEqual({ run: 151, valid: 88, invalidFalse: 51, invalidLength: 12 });
  });
});
