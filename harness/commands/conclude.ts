// From a run's test lines to its record, reports and certificate: the one path both `certify` (after its test runner
// ends) and `merge` (over the shards' records) take, so a merged run is judged, reported and signed exactly as an
// unsharded one. A shard's own run (certify --shard k/n) takes the shard branch: its tests' results, no class verdict.
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { claimsByteContract } from '../clause-index.ts';
import { claimedWithoutVerdict, judge, type ExpectationFile, type Judged } from '../report/expectations.ts';
import { runCompleted, runEnded, type EndLine, type TestLine } from '../report/record-reporter.ts';
import { classRows, junitXml, markdownSummary, terminalTable, writeAllure, type Footer, type Header } from '../report/record.ts';
import { certificatePayload, sealCertificate } from '../report/certificate.ts';
import { BADGE_FILE, badgeSvg } from '../report/badge.ts';
import { conformancePage, PAGE_FILE, readCases, type CertificateLine } from '../report/page.ts';
import type { KeyPair } from '../oracle.ts';
import { foldTranscript } from '../transcript/certify.ts';
import { CERTIFICATE_FILE, digestFile, RECORD_FILE } from './files.ts';


/** `s` on one line, cut for the terminal at `max` characters (the record keeps it whole). */
function oneLine(s: string, max = 240): string {
  const l = s.replace(/\s+/g, ' ').trim();
  return l.length > max ? `${l.slice(0, max - 1)}…` : l;
}

/**
 * Why a run earns no certificate, or [] when it does: a certificate claims only what ran, so none for a run that ran
 * no test, did not complete, or ran no test of a class it was asked for.
 */
export function whyNoCertificate(requested: readonly string[] | undefined, tests: ReadonlyArray<{ readonly classes: readonly string[] }>, complete: boolean): string[] {
  if (tests.length === 0) return ['no test ran'];
  const withoutTests = (requested ?? []).filter((c) => !tests.some((t) => t.classes.includes(c)));
  return [...(!complete ? ['the run did not complete'] : []), ...(withoutTests.length ? [`no test ran for the requested class(es) ${withoutTests.join(', ')}`] : [])];
}

/**
 * Removes `<report>/certificate.cose` left by an earlier run into the same folder, so a run that issues none leaves
 * none behind; returns whether there was one. Nothing else is touched.
 */
function removeStaleCertificate(reportDir: string): boolean {
  const path = join(reportDir, CERTIFICATE_FILE);
  if (!existsSync(path) || !statSync(path).isFile()) return false;
  rmSync(path);
  return true;
}

/** Says that no certificate was issued, and why; removes a stale one. */
export function noCertificate(reportDir: string, reasons: readonly string[]): void {
  console.log(`✗ no certificate: ${reasons.join('; ')}`);
  if (removeStaleCertificate(reportDir)) console.log(`  removed ${join(reportDir, CERTIFICATE_FILE)}, left by an earlier run into this folder`);
}

/** The certify command line that replays a run (or one shard of it), from its record's header. */
export function replayCommand(h: Header): string {
  const d = h.testee.driver;
  const testee = d.startsWith('testee: ') ? ` --testee '${d.slice('testee: '.length)}'` : '';
  const endpoint = d.startsWith('jcp/1 endpoint: ') ? ` --endpoint ${d.slice('jcp/1 endpoint: '.length)}` : '';
  const classes = h.classes_requested === 'all' ? '' : ` --classes ${h.classes_requested.join(',')}`;
  const shard = h.shard ? ` --shard ${h.shard.index}/${h.shard.count}` : '';
  return `jcp-conformance certify${testee}${endpoint}${classes}${shard} --seed ${h.seed}`;
}

/** Allure's result uuid of a test: from its id alone, so a rerun (or a merge) names each result the same. */
function allureUuid(id: string): string {
  const h = createHash('sha256').update(id).digest('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20, 32)}`;
}

/** A judged line as the record holds it: `unexpected` as 0 or 1. */
function recordLine({ unexpected, ...t }: Judged): object {
  return { ...t, unexpected: unexpected ? 1 : 0 };
}

/** A run's test lines and what concluding them needs. */
export interface RunToConclude {
  readonly reportDir: string;
  /** The record's header, whole: `shard` set for a shard's own run, `shards` for a merged one. */
  readonly header: Header;
  /** The tests as the reporter recorded them (not yet judged against the expectation file). */
  readonly tests: readonly TestLine[];
  /** How the test runner ended (for a merge: every shard's end, joined); undefined when it never reached its end. */
  readonly end: Omit<EndLine, 'type'> | undefined;
  /** The expectation file to judge against (none while certify --update-expectations writes one). */
  readonly expectations: ExpectationFile | undefined;
  /** The differential properties' case files of the run. */
  readonly casesDir: string;
  /** The transcript folder, when the run recorded one (certify --transcript; never a shard or a merge). */
  readonly transcriptDir?: string;
  readonly issued_s: number;
  readonly certKey: { readonly key: KeyPair; readonly development: boolean };
  /** Where the test runner's own output is, for the lines that send the reader there. */
  readonly runnerLog: string;
}

/**
 * Judges the tests, derives the class verdicts, writes the record (header, judged tests, footer) and every report
 * from it, signs the certificate when the run earns one, prints the class table and what was unexpected, and returns
 * the exit code: 0 when every result is as expected in a complete run, else 1. A shard's run (header.shard) writes
 * the record, JUnit, Allure results and a summary of its own tests, and no verdict, page, badge or certificate: the
 * expectation file's whole-run checks (an entry matching nothing, a claimed class without a verdict) and the class
 * verdicts are the merge's.
 */
export function concludeRun(r: RunToConclude): number {
  const { reportDir, header, tests, end } = r;
  const grading = { byteContract: claimsByteContract(header.testee) };
  const classes = header.classes_requested === 'all' ? undefined : header.classes_requested;
  // graded as harness/PROTOCOL.md "Grades" says: byte-contract results count only against a testee claiming the byte contract
  const { judged, problems } = judge(tests, r.expectations, grading);
  const counts: Record<string, number> = {};
  for (const t of judged) counts[t.outcome] = (counts[t.outcome] ?? 0) + 1;
  if (end && end.broken_files.length) console.log(`✗ test files that failed to load: ${end.broken_files.join(', ')}`);
  if (end && end.unhandled) console.log(`✗ ${end.unhandled} error(s) outside any test: see the runner's output in ${r.runnerLog}`);
  if (header.shard) return concludeShard(r, judged, counts);

  // every claimed class gets a verdict: one that got none (no test of it ran, none applied, or it needs what the run
  // lacked) is unexpected unless the expectation file excuses it under without_verdict
  const rows = classRows(judged, header.testee.claims, classes);
  const unverdicted = claimedWithoutVerdict(rows, r.expectations);
  const unexcused = unverdicted.classes.filter((c) => c.excused === undefined);
  const unexpected = judged.filter((t) => t.unexpected).length + problems.unmatched.length + problems.tooBroad.length + unexcused.length + unverdicted.stale.length;
  // complete: vitest reached its end, with no error outside a test and no test file that failed to load
  const complete = runCompleted(tests, end);
  const reasons = whyNoCertificate(classes, judged, complete);
  const footer: Footer = {
    type: 'footer',
    counts,
    unexpected,
    expectation_problems: { ...problems, ...(unverdicted.stale.length ? { stale_without_verdict: unverdicted.stale } : {}) },
    ...(unverdicted.classes.length ? { claimed_without_verdict: unverdicted.classes } : {}),
    finished_at: new Date().toISOString(),
    complete,
  };
  const recordPath = join(reportDir, RECORD_FILE);
  writeFileSync(recordPath, [header, ...judged.map(recordLine), ...(reasons.length ? [{ type: 'no-certificate', reasons }] : []), footer].map((x) => JSON.stringify(x)).join('\n') + '\n');

  writeFileSync(join(reportDir, 'junit.xml'), junitXml(judged, rows, header.started_at));
  writeFileSync(join(reportDir, 'summary.md'), markdownSummary(header, footer, rows, judged) + (reasons.length ? `\n**No certificate was issued:** ${reasons.join('; ')}.\n` : ''));
  writeAllure(join(reportDir, 'allure-results'), judged, allureUuid, header);
  // re-verifiable transcripts: the streams folded into one file, its root bound below
  const transcript = r.transcriptDir ? foldTranscript(r.transcriptDir, header, judged) : undefined;
  if (transcript) console.log(`transcript: ${transcript.path} (${transcript.streams} stream(s), ${transcript.entries} exchange(s)${transcript.torn.length ? `; torn tails dropped in ${transcript.torn.join(', ')}` : ''}), root ${transcript.root}`);
  const { key, development } = r.certKey;
  if (!reasons.length) {
    const cert = sealCertificate(certificatePayload(header, footer, rows, digestFile(recordPath), key.did, r.issued_s, transcript?.root), key);
    writeFileSync(join(reportDir, CERTIFICATE_FILE), cert);
  }
  // the conformance page and the badge: derived from the record, the case files and the certificate just written
  const certificateLine: CertificateLine = reasons.length ? { reasons } : { signer: key.did, digest: digestFile(join(reportDir, CERTIFICATE_FILE)), algorithm: 'blake3' };
  writeFileSync(join(reportDir, PAGE_FILE), conformancePage({ header, footer, rows, judged, certificate: certificateLine, cases: readCases(r.casesDir), casesDir: r.casesDir }));
  writeFileSync(join(reportDir, BADGE_FILE), badgeSvg(rows, complete));

  console.log(`\n${terminalTable(rows)}\n`);
  printUnexpected(judged, header, recordPath, r.runnerLog);
  // the differential properties: the shrunk cases this run wrote
  const cases = existsSync(r.casesDir) ? readdirSync(r.casesDir).filter((f) => f.endsWith('.json')) : [];
  if (cases.length) console.log(`\n${cases.length} case(s) found by the differential properties (seed ${header.seed}${header.property_runs !== undefined ? `, ${header.property_runs} sequences each` : ''}), in ${r.casesDir}:\n${cases.map((f) => `  jcp-conformance replay ${join(r.casesDir, f)}`).join('\n')}`);
  for (const c of unverdicted.classes) {
    if (c.excused !== undefined) console.log(`  ${c.class} is claimed and got no verdict (${c.verdict}), as the expectation file expects: ${c.excused}`);
    else console.log(`✗ ${c.class} is claimed but got no verdict (${c.verdict})${c.verdict.startsWith('NEEDS ') ? `: the run needs ${c.verdict.slice(6)}` : ''}; if that is known, name it under without_verdict in the expectation file, with a reason`);
  }
  for (const k of unverdicted.stale) console.log(`✗ expectation without_verdict entry ${k} names a class that got a verdict: remove it`);
  for (const u of problems.unmatched) console.log(`✗ expectation entry ${u} matches no test: remove it`);
  for (const b of problems.tooBroad) console.log(`✗ expectation glob ${b.test} matches ${b.matches} tests: narrow it`);
  if (!complete) console.log(`✗ the run did not complete: see the runner's output in ${r.runnerLog}`);
  console.log(`\n${judged.length} tests: ${Object.entries(counts).map(([k, v]) => `${v} ${k}`).join(', ')}; ${unexpected} unexpected`);
  if (reasons.length) {
    noCertificate(reportDir, reasons);
    console.log(`reports in ${reportDir}: ${RECORD_FILE}, junit.xml, summary.md, allure-results/, ${PAGE_FILE}, ${BADGE_FILE} (no certificate)`);
    return 1;
  }
  console.log(`reports in ${reportDir}: ${RECORD_FILE}, junit.xml, summary.md, allure-results/, ${PAGE_FILE}, ${BADGE_FILE}, ${CERTIFICATE_FILE} (signed by ${key.did}${development ? ', the development key: set JCP_CERT_SEED_HEX to certify with your own' : ''})`);
  return unexpected === 0 && complete ? 0 : 1;
}

/** One line per unexpected test result, and where each is whole and how to replay it. */
function printUnexpected(judged: readonly Judged[], header: Header, recordPath: string, runnerLog: string): void {
  const bad = judged.filter((t) => t.unexpected);
  for (const t of bad) console.log(`✗ ${t.id}: ${t.outcome}${t.expected ? ` (expected ${t.expected})` : ''}: ${oneLine(t.reason ?? t.error ?? '')} (seed ${header.seed})`);
  if (!bad.length) return;
  console.log(`  each one whole (reason, expected and actual values, requests and responses): ${recordPath}; the runner's output: ${runnerLog}`);
  console.log(`  replay: ${replayCommand(header)}`);
}

/**
 * A shard's own run: its tests judged one by one against the expectation file (a test's judgement is the same in the
 * shard as in the whole run), written as the record, JUnit (class suites without a verdict), Allure results and a
 * summary. The record's footer keeps how the runner ended, from which merge judges the whole run's completeness;
 * `complete` here says only that this shard's runner reached its end. Exit 0 when the shard ran to its end with no
 * unexpected test result, else 1.
 */
function concludeShard(r: RunToConclude, judged: readonly Judged[], counts: Record<string, number>): number {
  const { reportDir, header, end } = r;
  const { index, count } = header.shard!;
  const unexpected = judged.filter((t) => t.unexpected).length;
  const complete = runEnded(end);
  const why = `shard ${index}/${count} of a sharded run: jcp-conformance merge joins the ${count} shards' report folders into the run's verdicts, reports and certificate`;
  const footer: Footer = {
    type: 'footer',
    counts,
    unexpected,
    // the expectation file's whole-run checks are the merge's: an entry may match a test of another shard
    expectation_problems: { unmatched: [], tooBroad: [] },
    ...(end ? { runner: { reason: end.reason, unhandled: end.unhandled, broken_files: end.broken_files } } : {}),
    finished_at: new Date().toISOString(),
    complete,
  };
  const recordPath = join(reportDir, RECORD_FILE);
  writeFileSync(recordPath, [header, ...judged.map(recordLine), { type: 'no-certificate', reasons: [why] }, footer].map((x) => JSON.stringify(x)).join('\n') + '\n');
  const classes = header.classes_requested === 'all' ? undefined : header.classes_requested;
  // the class suites without a verdict: a shard's tests of a class are not all of them
  const suites = classRows(judged, header.testee.claims, classes).filter((x) => x.verdict !== 'NOT TESTED').map((x) => ({ class: x.class, claimed: x.claimed }));
  writeFileSync(join(reportDir, 'junit.xml'), junitXml(judged, suites, header.started_at));
  writeFileSync(join(reportDir, 'summary.md'), shardSummary(header, judged, counts, unexpected, complete));
  writeAllure(join(reportDir, 'allure-results'), judged, allureUuid, header);

  printUnexpected(judged, header, recordPath, r.runnerLog);
  if (!complete) console.log(`✗ shard ${index}/${count} did not complete: see the runner's output in ${r.runnerLog}`);
  console.log(`\nshard ${index}/${count}: ${judged.length} tests: ${Object.entries(counts).map(([k, v]) => `${v} ${k}`).join(', ') || 'none of the selected classes in these files'}; ${unexpected} unexpected`);
  console.log(`shard ${index}/${count}: no class verdicts and no certificate from one shard: merge the shards for those (jcp-conformance merge <the ${count} report folders>)`);
  console.log(`reports in ${reportDir}: ${RECORD_FILE}, junit.xml, summary.md, allure-results/ (this shard's tests)`);
  return unexpected === 0 && complete ? 0 : 1;
}

/** A shard's Markdown summary: its tests' counts and unexpected results, and that the verdicts are the merge's. */
function shardSummary(h: Header, judged: readonly Judged[], counts: Readonly<Record<string, number>>, unexpected: number, complete: boolean): string {
  const { index, count } = h.shard!;
  const out = [
    `# JCP conformance: ${h.testee.name} ${h.testee.version}, shard ${index}/${count}`,
    '',
    `Suite ${h.suite.name} ${h.suite.version}, protocol ${h.protocol}, driver: ${h.testee.driver}, seed ${h.seed}.`,
    `This shard's ${judged.length} tests: **${unexpected === 0 && complete ? 'no unexpected results' : `${unexpected} unexpected result(s)`}** — ${Object.entries(counts).sort().map(([k, v]) => `${v} ${k}`).join(', ') || '—'}${complete ? '' : '; the shard did not complete'}.`,
    '',
    `No class verdicts and no certificate from one shard: \`jcp-conformance merge\` joins the ${count} shards' report folders into the run's.`,
  ];
  const bad = judged.filter((t) => t.unexpected);
  if (bad.length) {
    out.push('', '## Unexpected results', '');
    for (const t of bad) out.push(`- \`${t.id}\` — ${t.outcome}, ${t.grade ?? 'spec'} grade${t.expected ? ` (expected ${t.expected})` : ''}: ${(t.error ?? t.reason ?? '').split('\n')[0]}`);
  }
  return out.join('\n') + '\n';
}
