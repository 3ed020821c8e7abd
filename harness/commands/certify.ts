// `jcp-conformance certify`: runs the conformance tests against an implementation (in-process, a testee, or a live
// jcp/1 endpoint), judges them against the adopter's expectations, writes the record and reports, and signs a
// certificate — only for a run that completed and ran tests of every class it was asked for.
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { closeSync, existsSync, mkdirSync, openSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync, writeSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { findClause } from '../../spec-map/index.ts';
import { built, COMPILED } from '../build.ts';
import { claimsByteContract } from '../clause.ts';
import { externalVectorsDigest } from '../external-vectors.ts';
import { TesteeFailure, type TesteeInfo, type Transport } from '../implementation.ts';
import { inProcessTransport } from '../drivers/in-process.ts';
import { testeeTransport } from '../drivers/testee.ts';
import { parseWireEndpoint, RESTART_TEST_CLAUSES, SECOND_WRITER_CLAUSES, wireTransport } from '../drivers/wire.ts';
import { PROTOCOL_VERSION } from '../protocol/schema.ts';
import { claimedWithoutVerdict, expectationsFor, ExpectationFileError, judge, readExpectations, type ExpectationFile } from '../report/expectations.ts';
import { readTestRecord, runCompleted } from '../report/record-reporter.ts';
import { ALLURE_WRITTEN } from '../report/allure.ts';
import { classRows, junitXml, markdownSummary, terminalTable, writeAllure, type Footer, type Header } from '../report/record.ts';
import { certificatePayload, developmentKey, sealCertificate } from '../report/certificate.ts';
import { BADGE_FILE, badgeSvg } from '../report/badge.ts';
import { conformancePage, PAGE_FILE, readCases, type CertificateLine } from '../report/page.ts';
import { blake3, keyPairFromSeed, toHex, type KeyPair } from '../oracle.ts';
import { DEEP_RUNS, DEFAULT_RUNS } from '../property/differential.ts';
import { foldTranscript, prepareTranscriptFolder, transcriptFolderOf } from '../transcript/certify.ts';
import { parseClassList } from './classes.ts';
import { Progress } from './progress.ts';
import { checkFolderPath, CliError, fsCode } from './errors.ts';
import { has, str, type Parsed } from './options.ts';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const PKG = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { name: string; version: string };

/** The file certify signs, in the report folder. */
export const CERTIFICATE_FILE = 'certificate.cose';

/** vitest's command-line entry, found by module resolution (so a hoisted node_modules works too). */
function vitestBin(): string {
  const req = createRequire(import.meta.url);
  const pkgPath = req.resolve('vitest/package.json');
  const pkg = JSON.parse(readFileSync(pkgPath, 'utf8')) as { bin?: string | Record<string, string> };
  const bin = typeof pkg.bin === 'string' ? pkg.bin : (pkg.bin?.['vitest'] ?? 'vitest.mjs');
  return join(dirname(pkgPath), bin);
}

/** `s` on one line, cut for the terminal at `max` characters (the record keeps it whole). */
function oneLine(s: string, max = 240): string {
  const l = s.replace(/\s+/g, ' ').trim();
  return l.length > max ? `${l.slice(0, max - 1)}…` : l;
}

function digestFile(path: string): string {
  return toHex(blake3(readFileSync(path)));
}

/** The handshake's answer, or the failure that prevented one. */
async function handshake(t: Transport): Promise<TesteeInfo | TesteeFailure> {
  try {
    return await t.hello();
  } catch (e) {
    if (e instanceof TesteeFailure) return e;
    throw e;
  }
}

/**
 * The wire driver's environment for `certify --endpoint`: what the harness is told of the endpoint, since jcp §11 has
 * no handshake — the steward sealing its receipts (required), its freshness window and declared cap, an issuer it
 * honours, the classes claimed, a run label keeping this run's grants apart from an earlier run's spend, and a command
 * that restarts it (without one the restart test reads "needs --endpoint-restart", and a claimed class it belongs to
 * gets no verdict: unexpected unless the expectation file excuses it under without_verdict).
 */
function endpointSettings(a: Parsed, endpoint: string, testee: string | undefined): NodeJS.ProcessEnv {
  if (testee) throw new CliError('conflicting-options', '--endpoint and --testee each name the implementation under test: give one');
  try {
    parseWireEndpoint(endpoint);
  } catch (e) {
    throw new CliError('bad-value', `--endpoint: ${e instanceof Error ? e.message : String(e)}`);
  }
  const steward = str(a, 'endpoint-steward');
  if (!steward) throw new CliError('missing-argument', "--endpoint needs --endpoint-steward <did:key>: the key that seals the endpoint's receipts, which every receipt is verified against");
  const seedHex = str(a, 'endpoint-issuer-seed');
  if (seedHex !== undefined && !/^[0-9a-f]{64}$/.test(seedHex)) throw new CliError('bad-value', '--endpoint-issuer-seed must be 64 lowercase hex digits (a 32-byte seed)');
  const claims = str(a, 'endpoint-claims');
  if (claims !== undefined) parseClassList(claims, '--endpoint-claims');
  const env: NodeJS.ProcessEnv = { JCP_ENDPOINT: endpoint, JCP_ENDPOINT_STEWARD: steward };
  const opt: Record<string, string | undefined> = {
    JCP_ENDPOINT_WINDOW_S: str(a, 'endpoint-window'),
    JCP_ENDPOINT_CAP_BYTES: str(a, 'endpoint-cap'),
    JCP_ENDPOINT_ISSUER_SEED: seedHex,
    JCP_ENDPOINT_CLAIMS: claims,
    JCP_ENDPOINT_RUN: str(a, 'endpoint-run'),
    JCP_ENDPOINT_RESTART: str(a, 'endpoint-restart'),
    JCP_ENDPOINT_SECOND: str(a, 'endpoint-second'),
  };
  for (const [k, v] of Object.entries(opt)) if (v !== undefined) env[k] = v;
  // the handshake (wireTransport) runs in this process and reads the claims from here too
  if (opt['JCP_ENDPOINT_CLAIMS'] !== undefined) process.env['JCP_ENDPOINT_CLAIMS'] = opt['JCP_ENDPOINT_CLAIMS'];
  return env;
}

/** The certifying key: JCP_CERT_SEED_HEX's seed, else the published development key. */
function certifyingKey(): { key: KeyPair; development: boolean } {
  const hex = process.env['JCP_CERT_SEED_HEX'];
  if (!hex) return { key: developmentKey(), development: true };
  if (!/^[0-9a-fA-F]{64}$/.test(hex)) throw new CliError('bad-value', 'JCP_CERT_SEED_HEX must be 64 hex digits (the 32-byte seed of the certifying key)');
  return { key: keyPairFromSeed(Uint8Array.from(Buffer.from(hex, 'hex'))), development: false };
}

/** The expectation file, read and checked before anything runs (its errors name the file). */
function expectationsOf(expPath: string | undefined, updating: boolean): ExpectationFile | undefined {
  if (expPath === undefined) return undefined;
  if (!existsSync(expPath)) {
    if (!updating) throw new CliError('unreadable-file', `expectation file ${expPath}: no such file`);
    checkFolderPath(dirname(resolve(expPath)), 'the folder of the expectation file');
    return undefined;
  }
  try {
    return readExpectations(expPath);
  } catch (e) {
    if (e instanceof ExpectationFileError) throw new CliError(e.code === 'unreadable' ? 'unreadable-file' : 'bad-file', e.message);
    throw e;
  }
}

/** Creates the report folder, or says in one line why it cannot. */
function makeFolder(dir: string, what: string): void {
  checkFolderPath(dir, what);
  try {
    mkdirSync(dir, { recursive: true });
  } catch (e) {
    throw new CliError('bad-report-path', `${what} ${dir}: cannot create it (${fsCode(e) ?? String(e)})`);
  }
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

/** The test runner's own output, in the report folder. */
export const RUNNER_LOG = 'runner.log';

/**
 * Removes from `dir` what a certify run writes there — and only that: the record, the reports (the conformance page
 * and badge among them), the certificate, the runner's log, the Allure result files and the differential properties'
 * case files (an expectation file and a transcript folder are the user's, and stay). Returns what it removed.
 */
export function removeStaleReports(dir: string): string[] {
  const removed: string[] = [];
  for (const f of ['tests.jsonl', 'record.jsonl', 'junit.xml', 'summary.md', PAGE_FILE, BADGE_FILE, CERTIFICATE_FILE, RUNNER_LOG, join('allure-report', 'index.html')]) {
    const p = join(dir, f);
    if (existsSync(p) && statSync(p).isFile()) {
      rmSync(p);
      removed.push(f);
    }
  }
  for (const [sub, written] of [['allure-results', ALLURE_WRITTEN], ['cases', /\.json$/]] as const) {
    const d = join(dir, sub);
    if (!existsSync(d) || !statSync(d).isDirectory()) continue;
    const files = readdirSync(d).filter((f) => written.test(f));
    for (const f of files) rmSync(join(d, f));
    if (files.length) removed.push(`${sub}/ (${files.length} file(s))`);
  }
  return removed;
}

/** Runs the test runner, its output into `logPath` (and through to this terminal when `echo`), to its end. */
function runRunner(cmd: string, args: readonly string[], opts: { cwd: string; env: NodeJS.ProcessEnv }, logPath: string, echo: boolean): Promise<{ status: number | null; error?: Error }> {
  const log = openSync(logPath, 'w');
  return new Promise((res) => {
    const child = spawn(cmd, args, { ...opts, stdio: ['ignore', 'pipe', 'pipe'] });
    const keep = (to: NodeJS.WriteStream) => (chunk: Buffer) => {
      writeSync(log, chunk);
      if (echo) to.write(chunk);
    };
    child.stdout.on('data', keep(process.stdout));
    child.stderr.on('data', keep(process.stderr));
    child.on('error', (error) => {
      closeSync(log);
      res({ status: null, error });
    });
    child.on('close', (status) => {
      closeSync(log);
      res({ status });
    });
  });
}

/** The published vector packs the run replays (vectors/conformance/v1/*.json), each with the blake3 of its bytes. */
function vectorPacks(): Array<{ name: string; digest: string }> {
  const dir = join(ROOT, 'vectors', 'conformance', 'v1');
  return readdirSync(dir)
    .filter((f) => f.endsWith('.json'))
    .sort()
    .map((f) => ({ name: `conformance/v1/${f}`, digest: digestFile(join(dir, f)) }));
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

/** Says that no certificate was issued, and why; removes a stale one. */
function noCertificate(reportDir: string, reasons: readonly string[]): void {
  console.log(`✗ no certificate: ${reasons.join('; ')}`);
  if (removeStaleCertificate(reportDir)) console.log(`  removed ${join(reportDir, CERTIFICATE_FILE)}, left by an earlier run into this folder`);
}

export async function certify(a: Parsed): Promise<number> {
  // everything the command line names is checked before anything runs or is written
  const testee = str(a, 'testee');
  const endpoint = str(a, 'endpoint');
  const endpointEnv = endpoint ? endpointSettings(a, endpoint, testee) : {};
  const seed = str(a, 'seed') !== undefined ? Number(str(a, 'seed')) : 0x4a4350;
  const timeout = str(a, 'timeout');
  // relative to where certify is started (never inside the installed package)
  const reportDir = resolve(str(a, 'report') ?? join('reports', 'certify'));
  checkFolderPath(reportDir, 'the report folder');
  // the differential properties (harness/property/): sequences per property, recorded in the header and certificate
  const propertyRunsFlag = str(a, 'property-runs');
  if (propertyRunsFlag !== undefined && has(a, 'deep')) throw new CliError('conflicting-options', '--property-runs and --deep both set the number of sequences: give one');
  const property_runs = propertyRunsFlag !== undefined ? Number(propertyRunsFlag) : has(a, 'deep') ? DEEP_RUNS : DEFAULT_RUNS;
  const casesDir = join(reportDir, 'cases');
  const classesFlag = str(a, 'classes');
  const classes = classesFlag !== undefined ? parseClassList(classesFlag) : undefined;
  const expPath = str(a, 'expectations');
  const updating = has(a, 'update-expectations');
  const expectations = expectationsOf(expPath, updating);
  const transcriptDir = transcriptFolderOf(has(a, 'transcript'), str(a, 'transcript'), reportDir);
  const { key: certKey, development } = certifyingKey();

  const transport = endpoint ? wireTransport(endpoint) : testee ? testeeTransport(testee, timeout ? { timeoutMs: Number(timeout) } : {}) : inProcessTransport();
  const hello = await handshake(transport);
  await transport.close();
  const driver = endpoint ? `jcp/1 endpoint: ${endpoint}` : testee ? `testee: ${testee}` : 'in-process reference';
  const notRun = (what: string, line: object, summary: string): number => {
    // no tests: still a complete record of what happened, and a clear exit
    makeFolder(reportDir, 'the report folder');
    const failed: Header = {
      type: 'header',
      suite: { name: PKG.name, version: PKG.version },
      protocol: PROTOCOL_VERSION,
      testee: { name: '(no handshake)', version: '', protocol: '', claims: [], features: [], driver },
      digests: {},
      vector_packs: [],
      seed,
      classes_requested: classes ?? 'all',
      started_at: new Date().toISOString(),
    };
    const footer: Footer = { type: 'footer', counts: {}, unexpected: 1, expectation_problems: { unmatched: [], tooBroad: [] }, finished_at: new Date().toISOString(), complete: false };
    writeFileSync(join(reportDir, 'record.jsonl'), [failed, line, { type: 'no-certificate', reasons: [what] }, footer].map((x) => JSON.stringify(x)).join('\n') + '\n');
    writeFileSync(join(reportDir, 'summary.md'), `${summary}\nNo test was run and no certificate was issued.\n`);
    noCertificate(reportDir, [what]);
    console.log(`no test was run; report in ${reportDir}: record.jsonl, summary.md`);
    return 1;
  };
  if (hello instanceof TesteeFailure) {
    console.log(`✗ the testee failed the handshake (${hello.kind}): ${hello.message}`);
    if (hello.transcript?.stderr) console.log(`--- testee stderr ---\n${hello.transcript.stderr}`);
    return notRun(
      'the testee failed the handshake',
      { type: 'handshake', outcome: hello.kind, error: hello.message, transcript: hello.transcript ?? {} },
      `# JCP conformance: the testee failed the handshake\n\n${driver}: ${hello.kind} — ${hello.message}\n\n\`\`\`\n${hello.transcript?.stderr ?? ''}\n\`\`\`\n`,
    );
  }
  const info = hello;
  console.log(`jcp-conformance ${PKG.version}: certifying ${info.name} ${info.version} (${info.language ?? 'language not stated'}) over ${PROTOCOL_VERSION}, ${driver}`);
  console.log(`claims: ${info.claims.join(' ') || '(none)'}; seed ${seed}${classes ? `; classes ${classes.join(' ')}` : ''}`);
  // what an external endpoint's tests need that the run was not given, said before they run
  for (const [flag, clauses, what] of [
    ['endpoint-restart', RESTART_TEST_CLAUSES, 'the restart test'],
    ['endpoint-second', SECOND_WRITER_CLAUSES, 'the one-writer test'],
  ] as const) {
    if (!endpoint || str(a, flag) !== undefined) continue;
    const needing = [...new Set(clauses.flatMap((id) => findClause(id)?.classes ?? []))].filter((k) => info.claims.includes(k) && (!classes || classes.includes(k)));
    if (needing.length) console.log(`note: without --${flag} ${what} reads "needs --${flag}", so claimed ${needing.join(', ')} will get no verdict (and fail the run unless the expectation file excuses it)`);
  }

  makeFolder(reportDir, 'the report folder');
  const testsPath = join(reportDir, 'tests.jsonl');
  // what an earlier run wrote into this folder must not be read, or shown, as this run's
  const stale = removeStaleReports(reportDir);
  if (stale.length) console.log(`removed what an earlier run wrote into ${reportDir}: ${stale.join(', ')}`);
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    JCP_RECORD: testsPath,
    FC_SEED: String(seed),
    ...(testee ? { JCP_TESTEE: testee } : {}),
    ...(timeout ? { JCP_TESTEE_TIMEOUT_MS: timeout } : {}),
    ...(classes ? { JCP_CLASSES: classes.join(',') } : {}),
    ...endpointEnv,
    JCP_PROPERTY_RUNS: String(property_runs),
    JCP_CASES_DIR: casesDir,
  };
  delete env['CI_NO_PROGRESS'];
  // re-verifiable transcripts: every worker's client writes its stream under the folder
  if (transcriptDir) env['JCP_TRANSCRIPT'] = prepareTranscriptFolder(transcriptDir);
  const started_at = new Date().toISOString();
  let bin: string;
  try {
    bin = vitestBin();
  } catch (e) {
    console.log(`✗ could not find vitest: ${e instanceof Error ? e.message : String(e)}`);
    return notRun('the test runner (vitest) could not be found', { type: 'runner', error: String(e) }, '# JCP conformance: the test runner could not be found\n');
  }
  const verbose = has(a, 'verbose');
  const logPath = join(reportDir, RUNNER_LOG);
  const progress = verbose ? undefined : new Progress(testsPath, process.stdout, { byteContract: claimsByteContract(info) }, classes);
  if (!verbose) console.log(`running the tests (the runner's output: ${logPath}; --verbose shows it here)`);
  progress?.start();
  const run = await runRunner(
    process.execPath,
    [
      bin,
      'run',
      `--config=${join(ROOT, 'harness', built('certify.vitest.config.ts'))}`,
      // compiled, the config is plain JavaScript: loaded as it is, with no bundled copy written beside it; and no
      // results cache, so nothing is written inside the installed package (which may be read-only)
      ...(COMPILED ? ['--configLoader=native'] : []),
      '--no-cache',
      ...(endpoint ? ['harness/conformance/wire.test.'] : ['harness/conformance/', 'harness/external/']),
      '--reporter=default',
      `--reporter=${join(ROOT, 'harness', 'report', built('record-reporter.ts'))}`,
    ],
    { cwd: ROOT, env },
    logPath,
    verbose,
  );
  progress?.stop();
  if (run.error) {
    console.log(`✗ could not start vitest: ${run.error.message}`);
    return notRun('the test runner (vitest) failed to start', { type: 'runner', error: run.error.message }, `# JCP conformance: the test runner failed to start\n\n${run.error.message}\n`);
  }

  // tests of no selected class never ran (clauseIt skips them as 'not selected' and the reporter leaves them out)
  const { tests: selected, end } = readTestRecord(testsPath);
  if (updating) {
    const out = expPath ?? join(reportDir, 'expectations.json');
    writeFileSync(out, JSON.stringify(expectationsFor(selected, expectations, { byteContract: claimsByteContract(info) }), null, 2) + '\n');
    console.log(`wrote ${out}: review it, give every entry a real reason, and commit it`);
  }
  // graded as harness/PROTOCOL.md "Grades" says: byte-contract results count only against a testee claiming the byte contract
  const { judged, problems } = judge(selected, updating ? undefined : expectations, { byteContract: claimsByteContract(info) });

  const digests: Record<string, string> = {};
  for (const f of readdirSync(join(ROOT, 'spec-map', 'clauses')).sort()) digests[`spec-map/clauses/${f}`] = digestFile(join(ROOT, 'spec-map', 'clauses', f));
  if (expPath && existsSync(expPath)) digests['expectations'] = digestFile(expPath);
  // the third-party vectors shipped in vectors/external/: blake3 of their SHA256SUMS, which a self-test holds every file to
  digests['vectors/external/SHA256SUMS'] = externalVectorsDigest();
  const header: Header = {
    type: 'header',
    suite: { name: PKG.name, version: PKG.version },
    protocol: PROTOCOL_VERSION,
    testee: { ...info, driver },
    digests,
    vector_packs: vectorPacks(),
    seed,
    property_runs,
    classes_requested: classes ?? 'all',
    started_at,
  };
  const counts: Record<string, number> = {};
  for (const t of judged) counts[t.outcome] = (counts[t.outcome] ?? 0) + 1;
  // every claimed class gets a verdict: one that got none (no test of it ran, none applied, or it needs what the run
  // lacked) is unexpected unless the expectation file excuses it under without_verdict
  const rows = classRows(judged, info.claims, classes);
  const unverdicted = claimedWithoutVerdict(rows, updating ? undefined : expectations);
  const unexcused = unverdicted.classes.filter((c) => c.excused === undefined);
  const unexpected = judged.filter((t) => t.unexpected).length + problems.unmatched.length + problems.tooBroad.length + unexcused.length + unverdicted.stale.length;
  // complete: vitest reached its end, with no error outside a test and no test file that failed to load
  const complete = runCompleted(selected, end);
  if (end && end.broken_files.length) console.log(`✗ test files that failed to load: ${end.broken_files.join(', ')}`);
  if (end && end.unhandled) console.log(`✗ ${end.unhandled} error(s) outside any test: see the runner's output in ${join(reportDir, RUNNER_LOG)}`);
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
  const recordPath = join(reportDir, 'record.jsonl');
  writeFileSync(
    recordPath,
    [header, ...judged.map(({ unexpected: _u, ...t }) => ({ ...t, unexpected: _u ? 1 : 0 })), ...(reasons.length ? [{ type: 'no-certificate', reasons }] : []), footer].map((x) => JSON.stringify(x)).join('\n') + '\n',
  );

  writeFileSync(join(reportDir, 'junit.xml'), junitXml(judged, rows, header.started_at));
  writeFileSync(join(reportDir, 'summary.md'), markdownSummary(header, footer, rows, judged) + (reasons.length ? `\n**No certificate was issued:** ${reasons.join('; ')}.\n` : ''));
  writeAllure(join(reportDir, 'allure-results'), judged, (id) => {
    const h = createHash('sha256').update(id).digest('hex');
    return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20, 32)}`;
  }, header);
  const issued = str(a, 'now') !== undefined ? Number(str(a, 'now')) : Math.floor(Date.now() / 1000);
  // re-verifiable transcripts: the streams folded into one file, its root bound below
  const transcript = transcriptDir ? foldTranscript(transcriptDir, header, judged) : undefined;
  if (transcript) console.log(`transcript: ${transcript.path} (${transcript.streams} stream(s), ${transcript.entries} exchange(s)${transcript.torn.length ? `; torn tails dropped in ${transcript.torn.join(', ')}` : ''}), root ${transcript.root}`);
  if (!reasons.length) {
    const cert = sealCertificate(certificatePayload(header, footer, rows, digestFile(recordPath), certKey.did, issued, transcript?.root), certKey);
    writeFileSync(join(reportDir, CERTIFICATE_FILE), cert);
  }
  // the conformance page and the badge: derived from the record, the case files and the certificate just written
  const certificateLine: CertificateLine = reasons.length ? { reasons } : { signer: certKey.did, digest: digestFile(join(reportDir, CERTIFICATE_FILE)), algorithm: 'blake3' };
  writeFileSync(join(reportDir, PAGE_FILE), conformancePage({ header, footer, rows, judged, certificate: certificateLine, cases: readCases(casesDir), casesDir }));
  writeFileSync(join(reportDir, BADGE_FILE), badgeSvg(rows, complete));

  console.log(`\n${terminalTable(rows)}\n`);
  const bad = judged.filter((t) => t.unexpected);
  for (const t of bad) console.log(`✗ ${t.id}: ${t.outcome}${t.expected ? ` (expected ${t.expected})` : ''}: ${oneLine(t.reason ?? t.error ?? '')} (seed ${seed})`);
  if (bad.length) {
    console.log(`  each one whole (reason, expected and actual values, requests and responses): ${recordPath}; the runner's output: ${join(reportDir, RUNNER_LOG)}`);
    console.log(`  replay: jcp-conformance certify${testee ? ` --testee '${testee}'` : ''}${endpoint ? ` --endpoint ${endpoint}` : ''}${classes ? ` --classes ${classes.join(',')}` : ''} --seed ${seed}`);
  }
  // the differential properties: the shrunk cases this run wrote
  const cases = existsSync(casesDir) ? readdirSync(casesDir).filter((f) => f.endsWith('.json')) : [];
  if (cases.length) console.log(`\n${cases.length} case(s) found by the differential properties (seed ${seed}, ${property_runs} sequences each), in ${casesDir}:\n${cases.map((f) => `  jcp-conformance replay ${join(casesDir, f)}`).join('\n')}`);
  for (const c of unverdicted.classes) {
    if (c.excused !== undefined) console.log(`  ${c.class} is claimed and got no verdict (${c.verdict}), as the expectation file expects: ${c.excused}`);
    else console.log(`✗ ${c.class} is claimed but got no verdict (${c.verdict})${c.verdict.startsWith('NEEDS ') ? `: the run needs ${c.verdict.slice(6)}` : ''}; if that is known, name it under without_verdict in the expectation file, with a reason`);
  }
  for (const k of unverdicted.stale) console.log(`✗ expectation without_verdict entry ${k} names a class that got a verdict: remove it`);
  for (const u of problems.unmatched) console.log(`✗ expectation entry ${u} matches no test: remove it`);
  for (const b of problems.tooBroad) console.log(`✗ expectation glob ${b.test} matches ${b.matches} tests: narrow it`);
  if (!complete) console.log(`✗ the run did not complete: see the runner's output in ${join(reportDir, RUNNER_LOG)}`);
  console.log(`\n${judged.length} tests: ${Object.entries(counts).map(([k, v]) => `${v} ${k}`).join(', ')}; ${unexpected} unexpected`);
  if (reasons.length) {
    noCertificate(reportDir, reasons);
    console.log(`reports in ${reportDir}: record.jsonl, junit.xml, summary.md, allure-results/, ${PAGE_FILE}, ${BADGE_FILE} (no certificate)`);
    return 1;
  }
  console.log(`reports in ${reportDir}: record.jsonl, junit.xml, summary.md, allure-results/, ${PAGE_FILE}, ${BADGE_FILE}, ${CERTIFICATE_FILE} (signed by ${certKey.did}${development ? ', the development key: set JCP_CERT_SEED_HEX to certify with your own' : ''})`);
  return unexpected === 0 && complete ? 0 : 1;
}
