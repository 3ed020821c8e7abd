// Re-verifiable transcripts: `jcp-conformance reverify <certificate> <transcript>`. Re-judges every
// verdict of a certificate from its transcript alone, against the reference, without the implementation:
// 1. the certificate must verify (harness/report/certificate.ts) and bind a transcript_root;
// 2. the transcript must hash to that root, with every frame, chain link and stream head intact (./format.ts) — any
//    changed byte is refused, saying where;
// 3. every stream is replayed against a fresh reference and each answer compared (./replay.ts);
// 4. each test's recorded outcome must be explained by its exchanges (those naming it, and those of its stream that
//    name no test — a beforeAll's): "passed" needs every one to agree with the reference; "failed" needs one that
//    differs (every answer the reference's would have passed, as the reference passes the suite); "unimplemented" an
//    answer "unimplemented"; "timeout" / "crash" / "errored" a failure of that kind; "not claimed" no exchange of its
//    own. A test with no exchange at all keeps its recorded outcome (nothing in the transcript bears on it; the report
//    counts such tests). Where the record is not explained, the re-judged outcome is the one the exchanges show;
// 5. the per-class verdicts are recomputed from the re-judged outcomes (harness/report/record.ts classRows, the
//    record's expectations applied as certify applied them) and compared with the certificate's.
// Exit 0 when the chain is intact and every verdict is confirmed; 1 when a re-judged verdict differs from the
// certificate's; 3 when the certificate or the transcript is refused.
import { readFileSync } from 'node:fs';
import { CertificateError, verifyCertificate, type CertificatePayload } from '../report/certificate.ts';
import { PASSING, NEUTRAL, type Judged } from '../report/expectations.ts';
import { classRows } from '../report/record.ts';
import { readTranscript, TranscriptError, type Transcript, type TranscriptTest } from './format.ts';
import { replayStreams, type Comparison } from './replay.ts';

/** What a transcript can and cannot prove: printed with every reverify. */
export const WHAT_IT_PROVES = [
  'What this proves: the certificate was signed over exactly this transcript; the implementation was asked these',
  'requests and gave these answers; and these answers, judged against the reference, justify (or not) each verdict.',
  'What it cannot prove: that the implementation computed its answers honestly (it could have relayed another',
  "implementation's answers), that it would answer the same again, or anything a test observed outside the exchanges",
  '(files, processes or timing the test itself handled).',
];

/** One test re-judged. */
export interface Rejudged {
  readonly test: TranscriptTest;
  /** The outcome before expectations were applied (certify writes "expected failure" for a matched one). */
  readonly recorded: string;
  readonly rejudged: string;
  readonly explained: boolean;
  readonly why?: string;
  readonly exchanges: number;
  readonly differing: number;
  readonly firstDifference?: Comparison;
}

/** A class's verdicts. */
export interface ClassReverdict {
  readonly class: string;
  readonly certificate: string;
  readonly rejudged: string;
  readonly differing: number;
  readonly firstDifference?: Comparison;
}

/** The whole result. */
export interface Reverified {
  readonly certificate: CertificatePayload;
  readonly transcript: Transcript;
  readonly comparisons: readonly Comparison[];
  readonly tests: readonly Rejudged[];
  readonly classes: readonly ClassReverdict[];
  /** Exchanges naming no test of the record (a beforeAll's): judged with every test of their stream. */
  readonly unattributed: number;
  readonly confirmed: boolean;
}

const FAILURE_OUTCOME: Record<string, string> = { timeout: 'timeout', crash: 'crash', protocol: 'errored' };

/** The outcome a test's exchanges show, when its record's is not explained. */
function shown(own: readonly Comparison[], all: readonly Comparison[]): string {
  const failure = all.find((c) => c.form === 'failure');
  if (failure) return FAILURE_OUTCOME[failure.failure ?? ''] ?? 'errored';
  if (all.some((c) => c.form === 'unimplemented')) return 'unimplemented';
  if (all.some((c) => !c.agree)) return 'failed';
  return own.length === 0 ? 'not claimed' : 'passed';
}

/** Whether `recorded` is explained by the exchanges, and if not, why. */
function explain(recorded: string, own: readonly Comparison[], all: readonly Comparison[]): string | undefined {
  // a test that exchanged nothing (it checks the suite's own data, or counts what other tests ran) is not judged by
  // exchanges: its outcome rests on the record alone, and the report counts such tests
  if (all.length === 0) return undefined;
  const differ = all.filter((c) => !c.agree);
  switch (recorded) {
    case 'passed':
      return differ.length ? `recorded passed, but ${differ.length} exchange(s) differ from the reference` : undefined;
    case 'failed':
      return differ.length ? undefined : 'recorded failed, but every exchange agrees with the reference (which passes this test)';
    case 'unimplemented':
      return all.some((c) => c.form === 'unimplemented') ? undefined : 'recorded unimplemented, but no answer was "unimplemented"';
    case 'timeout':
    case 'crash':
    case 'errored':
      return all.some((c) => c.form === 'failure' && FAILURE_OUTCOME[c.failure ?? ''] === recorded) ? undefined : `recorded ${recorded}, but no exchange ended in that failure`;
    case 'not claimed':
      return own.length ? `recorded not claimed, but the test exchanged ${own.length} request(s)` : undefined;
    default:
      return undefined; // an outcome the suite does not grade from exchanges: kept as recorded
  }
}

/** The judged line certify would have written for `outcome`, under the same expectation. */
function rejudgedLine(t: TranscriptTest, outcome: string): Judged {
  // the transcript keeps no grade: a confirmed outcome keeps the judgement certify recorded, a changed one is judged
  // as the spec grade judges it
  const base = { type: 'test' as const, id: t.id, file: t.file, title: t.id, clauses: [], classes: t.classes, level: t.level, grade: 'spec' as const };
  if (t.expected === undefined) return { ...base, outcome, unexpected: outcome === t.outcome ? t.unexpected === 1 : !PASSING.has(outcome) && !NEUTRAL.has(outcome) };
  const matches = outcome === t.expected;
  return { ...base, outcome: matches ? (PASSING.has(outcome) ? outcome : 'expected failure') : outcome, expected: t.expected, unexpected: !matches };
}

/** Re-judges each test from the comparisons of the transcript's streams. */
export function rejudge(transcript: Transcript, comparisons: readonly Comparison[]): Rejudged[] {
  const byTest = new Map<string, Comparison[]>();
  const unattributed = new Map<string, Comparison[]>();
  const streamsOf = new Map<string, Set<string>>();
  const known = new Set(transcript.header.tests.map((t) => t.id));
  for (const c of comparisons) {
    const id = c.entry.test;
    // an exchange naming no recorded test (outside any test, or an id the record lacks) feeds its stream's tests
    if (!known.has(id)) (unattributed.get(c.stream) ?? unattributed.set(c.stream, []).get(c.stream)!).push(c);
    else {
      (byTest.get(id) ?? byTest.set(id, []).get(id)!).push(c);
      (streamsOf.get(id) ?? streamsOf.set(id, new Set()).get(id)!).add(c.stream);
    }
  }
  return transcript.header.tests.map((t) => {
    const recorded = t.outcome === 'expected failure' && t.expected !== undefined ? t.expected : t.outcome;
    const own = byTest.get(t.id) ?? [];
    // exchanges outside any test (a beforeAll) feed the tests of their stream
    const all = [...[...(streamsOf.get(t.id) ?? [])].flatMap((s) => unattributed.get(s) ?? []), ...own];
    const why = explain(recorded, own, all);
    const differing = all.filter((c) => !c.agree);
    return {
      test: t,
      recorded,
      rejudged: why ? shown(own, all) : recorded,
      explained: why === undefined,
      ...(why ? { why } : {}),
      exchanges: all.length,
      differing: differing.length,
      ...(differing[0] ? { firstDifference: differing[0] } : {}),
    };
  });
}

/** Re-verifies a certificate against its transcript. Throws CertificateError or TranscriptError when one is refused. */
export async function reverify(certificate: Uint8Array, transcript: Uint8Array, signer?: string): Promise<Reverified> {
  const cert = verifyCertificate(certificate, signer);
  if (typeof cert.transcript_root !== 'string') throw new CertificateError('the certificate binds no transcript_root: it was issued without --transcript');
  const tr = readTranscript(transcript, cert.transcript_root);
  const h = tr.header;
  // bound by the root already; checked so a certificate never vouches for another testee's transcript by mistake
  if (h.testee.name !== cert.testee.name || h.testee.version !== cert.testee.version || h.testee.driver !== cert.testee.driver || h.seed !== cert.seed) {
    throw new TranscriptError('the transcript names another testee, driver or seed than the certificate');
  }
  const comparisons = await replayStreams(tr.streams);
  const tests = rejudge(tr, comparisons);
  // a run asked for some classes (certify --classes) has its certificate's rows limited to them: those, and every class
  // the certificate names, are re-judged
  const asked = h.classes_requested === 'all' ? undefined : new Set([...h.classes_requested, ...Object.keys(cert.verdicts)]);
  const rows = classRows(
    tests.map((t) => rejudgedLine(t.test, t.rejudged)),
    cert.testee.claims,
  ).filter((r) => !asked || asked.has(r.class));
  const classes: ClassReverdict[] = [];
  for (const r of rows) {
    const certified = cert.verdicts[r.class] ?? 'NOT TESTED';
    if (certified === 'NOT TESTED' && r.verdict === 'NOT TESTED') continue;
    const inClass = tests.filter((t) => t.test.classes.includes(r.class));
    const first = inClass.map((t) => t.firstDifference).find((c) => c !== undefined);
    classes.push({ class: r.class, certificate: certified, rejudged: r.verdict, differing: inClass.reduce((n, t) => n + t.differing, 0), ...(first ? { firstDifference: first } : {}) });
  }
  const confirmed = classes.every((c) => c.certificate === c.rejudged);
  const known = new Set(h.tests.map((t) => t.id));
  const unattributed = comparisons.filter((c) => !known.has(c.entry.test)).length;
  return { certificate: cert, transcript: tr, comparisons, tests, classes, unattributed, confirmed };
}

const where = (c: Comparison) => `stream ${c.stream} #${c.index}${c.entry.test ? ` (${c.entry.test})` : ' (outside any test)'}: ${c.entry.op} — ${c.difference}`;

/** The report of a re-verification, as lines for a terminal. */
export function reverifyReport(r: Reverified): string[] {
  const tr = r.transcript;
  const agree = r.comparisons.filter((c) => c.agree).length;
  const out = [
    `certificate: valid, signed by ${r.certificate.signer}, for ${r.certificate.testee.name} ${r.certificate.testee.version} (${r.certificate.testee.driver}), seed ${r.certificate.seed}`,
    `transcript: root ${tr.root} = the certificate's transcript_root; ${tr.streams.length} stream(s), ${r.comparisons.length} exchange(s), every frame, link and head intact`,
    `replayed against a fresh in-process reference per stream: ${agree} agree, ${r.comparisons.length - agree} differ${r.unattributed ? `; ${r.unattributed} exchange(s) name no recorded test and count for every test of their stream` : ''}`,
    '',
    'class         certificate   re-judged     differing  first differing exchange',
  ];
  for (const c of r.classes) {
    out.push(`${c.class.padEnd(13)} ${c.certificate.padEnd(13)} ${c.rejudged.padEnd(13)} ${String(c.differing).padEnd(10)} ${c.firstDifference ? where(c.firstDifference) : '—'}`);
  }
  const unexplained = r.tests.filter((t) => !t.explained);
  out.push('');
  if (unexplained.length) {
    out.push(`${unexplained.length} test(s) whose recorded outcome the transcript does not explain:`);
    for (const t of unexplained.slice(0, 20)) out.push(`  ✗ ${t.test.id}: ${t.why}; re-judged ${t.rejudged}${t.firstDifference ? `\n      first difference: ${where(t.firstDifference)}` : ''}`);
    if (unexplained.length > 20) out.push(`  … and ${unexplained.length - 20} more`);
  } else out.push(`every recorded test outcome is explained by the exchanges`);
  const bare = r.tests.filter((t) => t.exchanges === 0).length;
  if (bare) out.push(`${bare} of ${r.tests.length} test(s) exchanged nothing with the implementation: their outcomes rest on the record alone`);
  out.push(
    r.confirmed
      ? '✓ the transcript confirms every verdict of the certificate'
      : `✗ the transcript contradicts the certificate: ${r.classes
          .filter((c) => c.certificate !== c.rejudged)
          .map((c) => `${c.class} certified ${c.certificate}, re-judged ${c.rejudged}`)
          .join('; ')}`,
    '',
    ...WHAT_IT_PROVES,
  );
  return out;
}

/** The command: prints the report and returns the exit code (0 confirmed, 1 contradicted, 3 refused). */
export async function reverifyCommand(certPath: string, transcriptPath: string, signer?: string): Promise<number> {
  try {
    const r = await reverify(new Uint8Array(readFileSync(certPath)), new Uint8Array(readFileSync(transcriptPath)), signer);
    console.log(reverifyReport(r).join('\n'));
    return r.confirmed ? 0 : 1;
  } catch (e) {
    if (e instanceof CertificateError) {
      console.log(`✗ refused: invalid certificate: ${e.message}`);
      return 3;
    }
    if (e instanceof TranscriptError) {
      console.log(`✗ refused: the transcript was edited or is not this certificate's: ${e.message}`);
      return 3;
    }
    throw e;
  }
}
