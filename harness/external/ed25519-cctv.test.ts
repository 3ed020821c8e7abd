// Replays the C2SP/CCTV Ed25519 edge-case vectors (914) through the implementation under test: each verdict is the
// one the suite's verification rule gives (jcp/2#open-ed25519-verification-rule), and each flag group comes out as
// documented. The reference's two backends against the same vectors: harness/self/ed25519-backends.test.ts.
import { expect } from 'vitest';
import { clauseIt } from '../clause.ts';
import { implementation } from '../driver.ts';
import { describeWithShared, readVectorJson } from '../external-vectors.ts';
import { fromHexLoose } from '../oracle.ts';

interface CctvVector {
  readonly number: number;
  readonly key: string;
  readonly sig: string;
  readonly msg: string;
  readonly flags: readonly string[] | null;
}

const CLAUSES = ['jcp/2#open-ed25519-verification-rule', 'jcp/2#actor-proves-by-signing'];
const utf8 = new TextEncoder();

/**
 * The rule's verdict read off the flags: a non-canonical A or R is refused, and a low-order residue means only the
 * cofactored equation holds, which the cofactorless rule refuses. Every other CCTV vector satisfies the cofactorless
 * equation, small-order A and R included.
 */
function expectedByRule(flags: readonly string[]): boolean {
  return !flags.includes('non_canonical_A') && !flags.includes('non_canonical_R') && !flags.includes('low_order_residue');
}

/** Per flag group: [vectors, of which verify], as documented in impl/identity/ed25519.ts. */
const GROUP_OUTCOMES: Readonly<Record<string, readonly [number, number]>> = {
  '(none)': [1, 1],
  low_order_A: [526, 86],
  low_order_R: [586, 86],
  low_order_component_A: [774, 168],
  low_order_component_R: [665, 140],
  low_order_residue: [583, 0],
  non_canonical_A: [226, 0],
  non_canonical_R: [316, 0],
  reencoded_k: [146, 0],
};

describeWithShared('vectors', 'CCTV ed25519vectors.json', (dir) => {
  const vectors = readVectorJson<CctvVector[]>(dir, 'ed25519/cctv_ed25519vectors.json');
  const cases = vectors.map((v) => ({
    number: v.number,
    flags: v.flags ?? [],
    pk: fromHexLoose(v.key, 'key'),
    sig: fromHexLoose(v.sig, 'sig'),
    msg: utf8.encode(v.msg),
  }));

  // The implementation's verdicts, asked once (one protocol call per vector) and read by both tests.
  let verdicts: Promise<boolean[]> | undefined;
  const verdictsOnce = (): Promise<boolean[]> =>
    (verdicts ??= (async () => {
      const out: boolean[] = [];
      for (const c of cases) out.push(await implementation().verify(c.pk, c.msg, c.sig));
      return out;
    })());

  clauseIt(CLAUSES, 'the implementation gives the rule’s verdict on all 914 vectors, 172 of them valid', async () => {
    const got = await verdictsOnce();
    const offRule: number[] = [];
    let accepted = 0;
    cases.forEach((c, i) => {
      if (got[i] !== expectedByRule(c.flags)) offRule.push(c.number);
      if (got[i]) accepted++;
    });
    expect(offRule).toEqual([]);
    expect({ run: cases.length, answered: got.length, accepted }).toEqual({ run: 914, answered: 914, accepted: 172 });
  });

  clauseIt(CLAUSES, 'each flag group comes out as documented (non-canonical A/R and low-order residue refused)', async () => {
    const got = await verdictsOnce();
    const seen: Record<string, [number, number]> = {};
    cases.forEach((c, i) => {
      for (const f of c.flags.length > 0 ? c.flags : ['(none)']) {
        const g = (seen[f] ??= [0, 0]);
        g[0]++;
        if (got[i]) g[1]++;
      }
    });
    expect(seen).toEqual(GROUP_OUTCOMES);
  });
});
