// Replays Wycheproof ed25519_test.json (C2SP/wycheproof, testvectors_v1) through the implementation under test,
// counting every kind. Its verdicts are RFC 8032 strict ones; jcp §2 names Ed25519 but fixes no verification rule
// (jcp/2#open-ed25519-verification-rule), and the readings of harness/protocol/readings.ts (computed from their
// definitions, harness/ed25519-readings.ts) disagree on one vector, tcId 151, graded against the declared reading; the
// rest is what every reading's Ed25519 gives (jcp/2#actor-proves-by-signing). The reference's two backends against the
// same file: harness/self/ed25519-backends.test.ts.
import { expect } from 'vitest';
import { AcceptableReading, clauseIt, declaredReading } from '../clause.ts';
import { refusalJudge } from '../contract-codes.ts';
import { implementation } from '../driver.ts';
import { ED25519_READINGS, verdictsByReading, type Ed25519Reading } from '../ed25519-readings.ts';
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

const SIGN = 'jcp/2#actor-proves-by-signing';
const RULE = 'jcp/2#open-ed25519-verification-rule';

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

  /** Each reading's verdict on a vector of the right lengths; undefined for a key or signature of the wrong length. */
  const readings = (pk: Uint8Array, t: WycheproofTest): Record<Ed25519Reading, boolean> | undefined => {
    const sig = fromHexLoose(t.sig, 'sig');
    return sig.length === 64 && pk.length === 32 ? verdictsByReading(pk, fromHexLoose(t.msg, 'msg'), sig) : undefined;
  };
  const disputed = (by: Record<Ed25519Reading, boolean> | undefined): boolean => by !== undefined && new Set(Object.values(by)).size > 1;

  clauseIt([SIGN], 'every vector the readings of the rule agree on: each valid one verifies and each invalid one does not', async () => {
    const counts = { run: 0, valid: 0, invalidFalse: 0, invalidLength: 0, disputed: 0 };
    const wrong: string[] = [];
    for (const group of file.testGroups) {
      const pk = fromHexLoose(group.publicKey.pk, 'pk');
      for (const t of group.tests) {
        counts.run++;
        const by = readings(pk, t);
        // the file's verdicts are the strict reading's (a check of the file, and of harness/ed25519-readings.ts)
        if (by && by['rfc8032-strict'] !== (t.result === 'valid')) wrong.push(`tcId ${t.tcId}: the file says ${t.result}, rfc8032-strict ${String(by['rfc8032-strict'])}`);
        if (disputed(by)) {
          counts.disputed++;
          continue;
        }
        const sig = fromHexLoose(t.sig, 'sig');
        const v = await verdict(pk, fromHexLoose(t.msg, 'msg'), sig);
        if (t.result === 'valid') {
          if (v === true) counts.valid++;
          else wrong.push(`tcId ${t.tcId} (${t.comment}): valid but got ${String(v)}`);
        } else if (t.result === 'invalid') {
          if (sig.length !== 64 || pk.length !== 32) {
            // refused or invalid (jcp/2#open-wrong-length-key-or-signature, the last test), never valid
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
    // 63 invalid = 50 refused by every reading (false) + 12 signatures of the wrong length (refused or invalid) + 1
    // the readings disagree on (the next test)
    expect(counts).toEqual({ run: 151, valid: 88, invalidFalse: 50, invalidLength: 12, disputed: 1 });
  });

  clauseIt([RULE], 'tcId 151 (R: y = 1 with the sign bit set), which zip215 alone accepts, gets the verdict of the declared reading of the rule', async () => {
    const declared = declaredReading('ed25519-verification') as Ed25519Reading | undefined;
    const seen: string[] = [];
    for (const group of file.testGroups) {
      const pk = fromHexLoose(group.publicKey.pk, 'pk');
      for (const t of group.tests) {
        const by = readings(pk, t);
        if (!by || !disputed(by)) continue;
        const v = await verdict(pk, fromHexLoose(t.msg, 'msg'), fromHexLoose(t.sig, 'sig'));
        const what = `tcId ${t.tcId} (${t.comment})`;
        if (declared) expect(v, `${what}: the declared reading ${declared}`).toBe(by[declared]);
        else {
          // with none declared, a verdict some reading gives; never a refusal (the key and signature have their lengths)
          expect(typeof v, `${what}: valid or invalid, but ${String(v)}`).toBe('boolean');
          seen.push(`tcId ${t.tcId} ${v ? 'valid' : 'invalid'} (as ${ED25519_READINGS.filter((r) => by[r] === v).join(', ')})`);
        }
      }
    }
    if (declared) return;
    expect(seen.length).toBe(1);
    throw new AcceptableReading(`${seen.join('; ')}, a reading the text permits (none declared)`);
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
