// `jcp-conformance certify`: runs the conformance tests against an implementation (in-process, a testee, or a live
// jcp/1 endpoint), judges them against the adopter's expectations, writes the record and reports, and signs a
// certificate — only for a run that completed and ran tests of every class it was asked for. The judging, reports and
// certificate are ./conclude.ts's, which `merge` shares; with --shard k/n the run is one shard of the test files, and
// concludes with that shard's tests alone (no class verdict, no certificate: merge the shards for those).
import { spawn } from 'node:child_process';
import { closeSync, existsSync, mkdirSync, openSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync, writeSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { findClause } from '../../spec-map/index.ts';
import { built, COMPILED } from '../build.ts';
import { claimsByteContract } from '../clause-index.ts';
import type { TesteeFailure, TesteeInfo, Transport } from '../implementation.ts';
import { parseWireEndpoint } from '../../impl/wire/address.ts';
import { PROTOCOL_VERSION } from '../protocol/schema.ts';
import { moduleCacheProblem, workersProblem } from '../runner-env.ts';
import { expectationsFor, ExpectationFileError, readExpectations, type ExpectationFile } from '../report/expectations.ts';
import { readTestRecord } from '../report/record-reporter.ts';
import { ALLURE_WRITTEN } from '../report/allure.ts';
import { type Footer, type Header } from '../report/record.ts';
import { BADGE_FILE } from '../report/badge.ts';
import { PAGE_FILE } from '../report/page.ts';
import type { KeyPair } from '../oracle.ts';
import { DEEP_RUNS, DEFAULT_RUNS } from '../property/runs.ts';
import { prepareTranscriptFolder, transcriptFolderOf } from '../transcript/certify.ts';
import { parseClassList } from './classes.ts';
import { CERTIFICATE_FILE, digestFile, RECORD_FILE } from './files.ts';
import { Progress } from './progress.ts';
import { checkFolderPath, CliError, fsCode } from './errors.ts';
import { has, str, type Parsed } from './options.ts';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const PKG = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { name: string; version: string };


/** vitest's command-line entry, found by module resolution (so a hoisted node_modules works too). */
function vitestBin(): string {
  const req = createRequire(import.meta.url);
  const pkgPath = req.resolve('vitest/package.json');
  const pkg = JSON.parse(readFileSync(pkgPath, 'utf8')) as { bin?: string | Record<string, string> };
  const bin = typeof pkg.bin === 'string' ? pkg.bin : (pkg.bin?.['vitest'] ?? 'vitest.mjs');
  return join(dirname(pkgPath), bin);
}

/** The handshake's answer, or the failure that prevented one. */
async function handshake(t: Transport): Promise<TesteeInfo | TesteeFailure> {
  const { TesteeFailure } = await import('../implementation.ts');
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
 * that restarts it (without one the restart tests read "needs --endpoint-restart", and a claimed class it belongs to
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

/** JCP_CERT_SEED_HEX, checked: its seed's hex, or undefined for the published development key. */
export function certSeedHex(): string | undefined {
  const hex = process.env['JCP_CERT_SEED_HEX'];
  if (!hex) return undefined;
  if (!/^[0-9a-fA-F]{64}$/.test(hex)) throw new CliError('bad-value', 'JCP_CERT_SEED_HEX must be 64 hex digits (the 32-byte seed of the certifying key)');
  return hex;
}

/** The certifying key: JCP_CERT_SEED_HEX's seed, else the published development key. */
export async function certifyingKey(): Promise<{ key: KeyPair; development: boolean }> {
  const hex = certSeedHex();
  if (!hex) return { key: (await import('../report/certificate.ts')).developmentKey(), development: true };
  return { key: (await import('../oracle.ts')).keyPairFromSeed(Uint8Array.from(Buffer.from(hex, 'hex'))), development: false };
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
export function makeFolder(dir: string, what: string): void {
  checkFolderPath(dir, what);
  try {
    mkdirSync(dir, { recursive: true });
  } catch (e) {
    throw new CliError('bad-report-path', `${what} ${dir}: cannot create it (${fsCode(e) ?? String(e)})`);
  }
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
  for (const f of ['tests.jsonl', RECORD_FILE, 'junit.xml', 'summary.md', PAGE_FILE, BADGE_FILE, CERTIFICATE_FILE, RUNNER_LOG, join('allure-report', 'index.html')]) {
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

/** The test files an `--endpoint` run runs (as vitest filters): the jcp/1 wire tests, nothing of the testee protocol. */
const ENDPOINT_TEST_FILES = ['harness/conformance/wire.test.', 'harness/conformance/wire-decisions.test.'] as const;

/** How many test files certify runs (harness/certify.vitest.config.ts's include): what --shard divides among its shards. */
function testFileCount(endpoint: boolean): number {
  if (endpoint) return ENDPOINT_TEST_FILES.length;
  const ext = COMPILED ? /\.test\.js$/ : /\.test\.ts$/;
  return ['conformance', 'external'].reduce((n, d) => n + readdirSync(join(ROOT, 'harness', d), { recursive: true }).filter((f) => ext.test(String(f))).length, 0);
}

/**
 * `--shard k/n`, checked: 1 ≤ k ≤ n, n no more than the test files (vitest's --shard divides files, never a file's
 * tests), and no option that needs the whole run in one process.
 */
function shardOf(a: Parsed, endpoint: boolean): { index: number; count: number } | undefined {
  const v = str(a, 'shard');
  if (v === undefined) return undefined;
  const m = /^([1-9]\d{0,5})\/([1-9]\d{0,5})$/.exec(v);
  if (!m || Number(m[1]) > Number(m[2])) throw new CliError('bad-value', `--shard must be k/n with 1 ≤ k ≤ n (e.g. --shard 1/3), got ${JSON.stringify(v)}`);
  const shard = { index: Number(m[1]), count: Number(m[2]) };
  const files = testFileCount(endpoint);
  if (shard.count > files) throw new CliError('bad-value', `--shard ${v}: the run has ${files} test file(s), and a shard is a set of whole files: give at most ${files} shards`);
  for (const [flag, why] of [
    ['update-expectations', 'the expectation file it writes covers the whole run: run it unsharded'],
    ['transcript', "a transcript's root covers the whole run in one certificate: run it unsharded"],
  ] as const) {
    if (has(a, flag)) throw new CliError('conflicting-options', `--shard and --${flag}: ${why}`);
  }
  return shard;
}

/** The published vector packs the run replays (vectors/conformance/v1/*.json), each with the blake3 of its bytes. */
function vectorPacks(): Array<{ name: string; digest: string }> {
  const dir = join(ROOT, 'vectors', 'conformance', 'v1');
  return readdirSync(dir)
    .filter((f) => f.endsWith('.json'))
    .sort()
    .map((f) => ({ name: `conformance/v1/${f}`, digest: digestFile(join(dir, f)) }));
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
  const shard = shardOf(a, endpoint !== undefined);
  const transcriptDir = transcriptFolderOf(has(a, 'transcript'), str(a, 'transcript'), reportDir);
  certSeedHex(); // checked here; the key itself is made once every check has passed
  const runnerProblem = workersProblem() ?? moduleCacheProblem();
  if (runnerProblem) throw new CliError('bad-value', runnerProblem);

  // what a run needs beyond its checks is loaded once they have passed, so a refused command line answers at once
  const certKey = await certifyingKey();
  const { concludeRun, noCertificate } = await import('./conclude.ts');
  const transport = endpoint
    ? (await import('../drivers/wire.ts')).wireTransport(endpoint)
    : testee
      ? (await import('../drivers/testee.ts')).testeeTransport(testee, timeout ? { timeoutMs: Number(timeout) } : {})
      : (await import('../drivers/in-process.ts')).inProcessTransport();
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
      ...(shard ? { shard } : {}),
      started_at: new Date().toISOString(),
    };
    const footer: Footer = { type: 'footer', counts: {}, unexpected: 1, expectation_problems: { unmatched: [], tooBroad: [] }, finished_at: new Date().toISOString(), complete: false };
    writeFileSync(join(reportDir, RECORD_FILE), [failed, line, { type: 'no-certificate', reasons: [what] }, footer].map((x) => JSON.stringify(x)).join('\n') + '\n');
    writeFileSync(join(reportDir, 'summary.md'), `${summary}\nNo test was run and no certificate was issued.\n`);
    noCertificate(reportDir, [what]);
    console.log(`no test was run; report in ${reportDir}: record.jsonl, summary.md`);
    return 1;
  };
  if (hello instanceof Error) {
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
  console.log(`claims: ${info.claims.join(' ') || '(none)'}; seed ${seed}${classes ? `; classes ${classes.join(' ')}` : ''}${shard ? `; shard ${shard.index}/${shard.count} of the test files` : ''}`);
  // what an external endpoint's tests need that the run was not given, said before they run
  const { RESTART_TEST_CLAUSES, SECOND_WRITER_CLAUSES } = endpoint ? await import('../drivers/wire.ts') : { RESTART_TEST_CLAUSES: [], SECOND_WRITER_CLAUSES: [] };
  for (const [flag, clauses, what] of [
    ['endpoint-restart', RESTART_TEST_CLAUSES, 'the restart tests read'],
    ['endpoint-second', SECOND_WRITER_CLAUSES, 'the one-writer test reads'],
  ] as const) {
    if (str(a, flag) !== undefined) continue;
    const needing = [...new Set(clauses.flatMap((id) => findClause(id)?.classes ?? []))].filter((k) => info.claims.includes(k) && (!classes || classes.includes(k)));
    if (needing.length) console.log(`note: without --${flag} ${what} "needs --${flag}", so claimed ${needing.join(', ')} will get no verdict (and fail the run unless the expectation file excuses it)`);
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
      // the suite is the runner's root; its working folder is the one certify was started in, so that a testee, restart
      // or second-instance command naming a relative path (--testee "python3 my_testee.py") finds it there, installed
      // as in a checkout
      `--root=${ROOT}`,
      // compiled, the config is plain JavaScript: loaded as it is, with no bundled copy written beside it; and no
      // results cache, so nothing is written inside the installed package (which may be read-only)
      ...(COMPILED ? ['--configLoader=native'] : []),
      '--no-cache',
      ...(shard ? [`--shard=${shard.index}/${shard.count}`] : []),
      ...(endpoint ? ENDPOINT_TEST_FILES : ['harness/conformance/', 'harness/external/']),
      // one live endpoint for every file: a file that restarts it must not pull it from under another file's requests
      ...(endpoint ? ['--no-file-parallelism'] : []),
      '--reporter=default',
      `--reporter=${join(ROOT, 'harness', 'report', built('record-reporter.ts'))}`,
    ],
    { cwd: process.cwd(), env },
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
  const digests: Record<string, string> = {};
  for (const f of readdirSync(join(ROOT, 'spec-map', 'clauses')).sort()) digests[`spec-map/clauses/${f}`] = digestFile(join(ROOT, 'spec-map', 'clauses', f));
  // the suite-defined profiles: which clauses a profile's verdict speaks for
  digests['spec-map/profiles.json'] = digestFile(join(ROOT, 'spec-map', 'profiles.json'));
  if (expPath && existsSync(expPath)) digests['expectations'] = digestFile(expPath);
  // the third-party vectors shipped in vectors/external/: blake3 of their SHA256SUMS, which a self-test holds every file to
  digests['vectors/external/SHA256SUMS'] = (await import('../external-vectors.ts')).externalVectorsDigest();
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
    ...(shard ? { shard } : {}),
    started_at,
  };
  return concludeRun({
    reportDir,
    header,
    tests: selected,
    end,
    expectations: updating ? undefined : expectations,
    casesDir,
    ...(transcriptDir ? { transcriptDir } : {}),
    issued_s: str(a, 'now') !== undefined ? Number(str(a, 'now')) : Math.floor(Date.now() / 1000),
    certKey,
    runnerLog: logPath,
  });
}
