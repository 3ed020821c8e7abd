// Replays the C2SP/CCTV Ed25519 edge-case vectors (914) through the implementation under test. jcp §2 names Ed25519
// but fixes no verification rule (jcp/2#open-ed25519-verification-rule): the readings of harness/protocol/readings.ts
// agree on 260 of the vectors, whose verdict is what the spec's Ed25519 gives (jcp/2#actor-proves-by-signing); on the
// other 654 each verdict is graded against the testee's declared reading, and where it declares none, a verdict some
// reading gives reads acceptable. Each flag group comes out as the declared reading documents. The reference's two
// backends against the same vectors: harness/self/ed25519-backends.test.ts; the readings' verdicts computed from their
// definitions, held to these flags: harness/self/ed25519-readings.test.ts.
import { isDeepStrictEqual } from 'node:util';
import { expect } from 'vitest';
import { AcceptableReading, clauseIt, declaredReading } from '../clause.ts';
import { implementation } from '../driver.ts';
import { CCTV_GROUP_OUTCOMES, cctvVerdict, ED25519_READINGS, type CctvVector, type Ed25519Reading } from '../ed25519-readings.ts';
import { describeWithShared, readVectorJson } from '../external-vectors.ts';
import { fromHexLoose } from '../oracle.ts';

const SIGN = 'jcp/2#actor-proves-by-signing';
const RULE = 'jcp/2#open-ed25519-verification-rule';
const utf8 = new TextEncoder();

describeWithShared('vectors', 'CCTV ed25519vectors.json', (dir) => {
  const vectors = readVectorJson<CctvVector[]>(dir, 'ed25519/cctv_ed25519vectors.json');
  const cases = vectors.map((v) => {
    const flags = v.flags ?? [];
    const by = Object.fromEntries(ED25519_READINGS.map((r) => [r, cctvVerdict(flags, r)])) as Record<Ed25519Reading, boolean>;
    return { number: v.number, flags, pk: fromHexLoose(v.key, 'key'), sig: fromHexLoose(v.sig, 'sig'), msg: utf8.encode(v.msg), by };
  });
  const agreed = (c: (typeof cases)[number]): boolean => new Set(Object.values(c.by)).size === 1;

  // The implementation's verdicts, asked once (one protocol call per vector) and read by every test.
  let verdicts: Promise<boolean[]> | undefined;
  const verdictsOnce = (): Promise<boolean[]> =>
    (verdicts ??= (async () => {
      const out: boolean[] = [];
      for (const c of cases) out.push(await implementation().verify(c.pk, c.msg, c.sig));
      return out;
    })());

  clauseIt([SIGN], 'the 260 vectors every reading of the rule agrees on get that verdict: 172 valid, 88 invalid', async () => {
    const got = await verdictsOnce();
    const off: number[] = [];
    const counts = { agreed: 0, valid: 0 };
    cases.forEach((c, i) => {
      if (!agreed(c)) return;
      counts.agreed++;
      if (c.by['rfc8032-strict']) counts.valid++;
      if (got[i] !== c.by['rfc8032-strict']) off.push(c.number);
    });
    expect(off).toEqual([]);
    expect({ run: cases.length, answered: got.length, ...counts }).toEqual({ run: 914, answered: 914, agreed: 260, valid: 172 });
  });

  clauseIt([RULE], 'the 654 vectors the readings disagree on get the verdict of the declared reading of the rule', async () => {
    const got = await verdictsOnce();
    const declared = declaredReading('ed25519-verification') as Ed25519Reading | undefined;
    const disputed = cases.map((c, i) => ({ c, got: got[i]! })).filter(({ c }) => !agreed(c));
    expect(disputed.length).toBe(654);
    // harness/protocol/readings.ts: rfc8032-strict, cofactored or zip215; every disputed vector has both verdicts, so
    // with none declared each answer is one some reading gives; which reading every answer keeps to is said
    if (declared) {
      expect(disputed.filter(({ c, got: v }) => v !== c.by[declared]).map(({ c }) => c.number), `off the declared reading ${declared}`).toEqual([]);
      return;
    }
    const keptTo = ED25519_READINGS.filter((r) => disputed.every(({ c, got: v }) => v === c.by[r]));
    throw new AcceptableReading(`the vectors the readings disagree on: ${keptTo.length ? `the verdicts of ${keptTo.join(', ')}` : 'verdicts of more than one reading'}, a reading the text permits (none declared)`);
  });

  clauseIt([RULE], 'each flag group comes out as the declared reading of the rule documents', async () => {
    const got = await verdictsOnce();
    /** Per flag group: [vectors, of which `verifies`]. */
    const groups = (verifies: (i: number) => boolean): Record<string, [number, number]> => {
      const out: Record<string, [number, number]> = {};
      cases.forEach((c, i) => {
        for (const f of c.flags.length > 0 ? c.flags : ['(none)']) {
          const g = (out[f] ??= [0, 0]);
          g[0]++;
          if (verifies(i)) g[1]++;
        }
      });
      return out;
    };
    // the documented tables are the flags' verdicts counted (a check of how this file reads the flags)
    for (const r of ED25519_READINGS) expect(groups((i) => cases[i]!.by[r]), r).toEqual(CCTV_GROUP_OUTCOMES[r]);
    const seen = groups((i) => got[i]!);
    const declared = declaredReading('ed25519-verification') as Ed25519Reading | undefined;
    if (declared) {
      expect(seen, `the declared reading ${declared}`).toEqual(CCTV_GROUP_OUTCOMES[declared]);
      return;
    }
    const matches = ED25519_READINGS.filter((r) => isDeepStrictEqual(seen, CCTV_GROUP_OUTCOMES[r]));
    throw new AcceptableReading(`flag groups as ${matches.length ? matches.join(', ') : 'no single reading'} documents, a reading the text permits (none declared)`);
  });
});
