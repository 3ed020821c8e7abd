// Replays Wycheproof ed25519_test.json (C2SP/wycheproof, testvectors_v1) through the implementation under test,
// counting every kind. The reference's two backends against the same file: harness/self/ed25519-backends.test.ts.
import { expect } from 'vitest';
import { AcceptableReading, clauseIt, declaredReading } from '../clause.ts';
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
    for (const group of file.testGroups) {
      const pk = fromHexLoose(group.publicKey.pk, 'pk');
      for (const t of group.tests) {
        counts.run++;
        const sig = fromHexLoose(t.sig, 'sig');
        const v = await verdict(pk, fromHexLoose(t.msg, 'msg'), sig);
        if (t.result === 'valid') {
          if (v === true) counts.valid++;
          else wrong.push(`tcId ${t.tcId} (${t.comment}): valid but got ${String(v)}`);
        } else if (t.result === 'invalid') {
          if (sig.length !== 64 || pk.length !== 32) {
            // refused or invalid (jcp/2#open-wrong-length-key-or-signature, the test below), never valid
            if (v !== true) counts.invalidLength++;
            else wrong.push(`tcId ${t.tcId} (${t.comment}): a wrong length, yet valid`);
          } else if (v === false) counts.invalidFalse++;
          else wrong.push(`tcId ${t.tcId} (${t.comment}): invalid but got ${String(v)}`);
        } else {
          wrong.push(`tcId ${t.tcId}: unexpected result ${t.result}`);
        }
      }
    }
    expect(wrong).toEqual([]);
    expect(file.numberOfTests).toBe(151);
    // 63 invalid = 51 refused by the rule (false) + 12 signatures of the wrong length (refused or invalid).
    expect(counts).toEqual({ run: 151, valid: 88, invalidFalse: 51, invalidLength: 12 });
  });

  clauseIt(['jcp/2#open-wrong-length-key-or-signature'], 'the 12 signatures of the wrong length are answered as the declared reading of wrong-length verification says', async () => {
    // harness/protocol/readings.ts: refused (ERR_SIGNATURE_LENGTH) or invalid
    const declared = declaredReading('wrong-length-verify');
    const lengthCode = refusalJudge();
    const seen = new Set<string>();
    let n = 0;
    for (const group of file.testGroups) {
      const pk = fromHexLoose(group.publicKey.pk, 'pk');
      for (const t of group.tests) {
        const sig = fromHexLoose(t.sig, 'sig');
        if (sig.length === 64 && pk.length === 32) continue;
        n++;
        const v = await verdict(pk, fromHexLoose(t.msg, 'msg'), sig);
        const what = `tcId ${t.tcId} (${t.comment}, a ${sig.length}-byte signature)`;
        if (declared === 'refused') lengthCode(typeof v === 'string' ? v : String(v), 'ERR_SIGNATURE_LENGTH', what);
        else if (declared === 'invalid') expect(v, `${what}: the declared reading invalid`).toBe(false);
        else {
          expect(v === false || typeof v === 'string', `${what}: refused or invalid, but ${String(v)}`).toBe(true);
          seen.add(v === false ? 'invalid' : 'refused');
        }
      }
    }
    expect(n).toBe(12);
    if (!declared) throw new AcceptableReading(`a signature of the wrong length: ${[...seen].join(' and ')}, a reading the text permits (none declared)`);
  });
});
