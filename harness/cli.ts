// jcp-conformance — certify an implementation clause by clause and class by class.
//   certify [--testee '<command>'] [--endpoint <url>] [--classes C1,C2] [--expectations <file>]
//           [--update-expectations] [--seed <n>] [--timeout <ms>] [--report <dir>]
//           --endpoint tcp://host:port|unix:/path --endpoint-steward <did:key> [--endpoint-window <s>]
//           [--endpoint-cap <bytes>] [--endpoint-issuer-seed <hex>] [--endpoint-claims C8,C13] [--endpoint-run <label>]
//           [--endpoint-restart '<command>']
//           [--property-runs <n> | --deep]   differential sequences per property (default 60; --deep 1000)
//   replay <case.json> [--testee '<command>' | --reference]   re-runs a case a differential property found
//   promote <case.json> [--name <case-name>] [--comment <text>]   publishes it as a vector (vectors/promoted/)
//   verify-certificate <file> [--signer <did:key>]
//   validate --testee '<command>'
//   certify … --transcript [<dir>]   records every exchange, hash-chained (default <report>/transcript); the certificate binds its root
//   reverify <certificate> <transcript> [--signer <did:key>]   re-judges every verdict from the transcript alone, against the reference
//   interop --testee '<command>' [--testee '<command>' …] [--reference] [--classes C1,C3] [--report <dir>]   producer × consumer matrix per class
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Implementation, TesteeFailure, type TesteeInfo, type Transport } from './implementation.ts';
import { inProcessTransport } from './drivers/in-process.ts';
import { testeeTransport } from './drivers/testee.ts';
import { parseWireEndpoint, wireTransport } from './drivers/wire.ts';
import { PROTOCOL_VERSION } from './protocol/schema.ts';
import { expectationsFor, judge, readExpectations, type ExpectationFile } from './report/expectations.ts';
import { readTestRecord, runCompleted } from './report/record-reporter.ts';
import { classRows, junitXml, markdownSummary, terminalTable, writeAllure, type Footer, type Header } from './report/record.ts';
import { certificatePayload, CertificateError, sealCertificate, verifyCertificate } from './report/certificate.ts';
import { blake3, deriveSeed, keyPairFromSeed, toHex } from './oracle.ts';
import { validateTestee } from './validate.ts';
import { DEEP_RUNS, DEFAULT_RUNS } from './property/differential.ts';
import { promoteCommand, replayCommand, UsageError } from './property/commands.ts';
// ---- re-verifiable transcripts (issue 9 item 5) ----
import { foldTranscript, prepareTranscriptFolder, transcriptFolderOf } from './transcript/certify.ts';
import { reverifyCommand } from './transcript/reverify.ts';
// ---- end transcripts ----

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const PKG = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { name: string; version: string };

interface Args {
  readonly cmd: string;
  readonly positional: string[];
  readonly flags: Map<string, string | true>;
}

function parseArgs(argv: string[]): Args {
  const [cmd = 'help', ...rest] = argv;
  const flags = new Map<string, string | true>();
  const positional: string[] = [];
  const takesValue = new Set(['testee', 'endpoint', 'classes', 'expectations', 'seed', 'timeout', 'report', 'signer', 'now']);
  // the differential properties (harness/property/): runs per property, and promote's name and comment
  for (const k of ['property-runs', 'name', 'comment']) takesValue.add(k);
  // the wire driver's statements about the endpoint (harness/drivers/wire.ts): jcp §11 has no handshake
  for (const k of ['endpoint-steward', 'endpoint-window', 'endpoint-cap', 'endpoint-issuer-seed', 'endpoint-claims', 'endpoint-run', 'endpoint-restart']) takesValue.add(k);
  for (let i = 0; i < rest.length; i++) {
    const a = rest[i]!;
    if (a.startsWith('--')) {
      const [k, v] = a.slice(2).split('=', 2) as [string, string | undefined];
      if (v !== undefined) flags.set(k, v);
      else if (takesValue.has(k)) {
        const next = rest[++i];
        if (next === undefined) die(`--${k} needs a value`);
        flags.set(k, next);
      } else flags.set(k, true);
    } else positional.push(a);
  }
  return { cmd, positional, flags };
}

function die(msg: string, code = 2): never {
  process.stderr.write(`jcp-conformance: ${msg}\n`);
  process.exit(code);
}

const str = (a: Args, k: string): string | undefined => {
  const v = a.flags.get(k);
  return typeof v === 'string' ? v : undefined;
};

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
 * that restarts it (without one the restart test reads unimplemented, which fails a C8 claim: say so in --expectations).
 */
function endpointSettings(a: Args, endpoint: string, testee: string | undefined): NodeJS.ProcessEnv {
  if (testee) die('--endpoint and --testee each name the implementation under test: give one');
  try {
    parseWireEndpoint(endpoint);
  } catch (e) {
    die(`--endpoint: ${e instanceof Error ? e.message : String(e)}`);
  }
  const steward = str(a, 'endpoint-steward');
  if (!steward) die('--endpoint needs --endpoint-steward <did:key>: the key that seals the endpoint\'s receipts, which every receipt is verified against');
  const num = (k: string) => {
    const v = str(a, k);
    if (v !== undefined && !/^\d+$/.test(v)) die(`--${k} must be a non-negative integer`);
    return v;
  };
  const seedHex = str(a, 'endpoint-issuer-seed');
  if (seedHex !== undefined && !/^[0-9a-f]{64}$/.test(seedHex)) die('--endpoint-issuer-seed must be 64 lowercase hex digits (a 32-byte seed)');
  const env: NodeJS.ProcessEnv = { JCP_ENDPOINT: endpoint, JCP_ENDPOINT_STEWARD: steward };
  const opt: Record<string, string | undefined> = {
    JCP_ENDPOINT_WINDOW_S: num('endpoint-window'),
    JCP_ENDPOINT_CAP_BYTES: num('endpoint-cap'),
    JCP_ENDPOINT_ISSUER_SEED: seedHex,
    JCP_ENDPOINT_CLAIMS: str(a, 'endpoint-claims'),
    JCP_ENDPOINT_RUN: str(a, 'endpoint-run'),
    JCP_ENDPOINT_RESTART: str(a, 'endpoint-restart'),
  };
  for (const [k, v] of Object.entries(opt)) if (v !== undefined) env[k] = v;
  // the handshake (wireTransport) runs in this process and reads the claims from here too
  if (opt['JCP_ENDPOINT_CLAIMS'] !== undefined) process.env['JCP_ENDPOINT_CLAIMS'] = opt['JCP_ENDPOINT_CLAIMS'];
  return env;
}

async function certify(a: Args): Promise<number> {
  const testee = str(a, 'testee');
  const endpoint = str(a, 'endpoint');
  const endpointEnv = endpoint ? endpointSettings(a, endpoint, testee) : {};
  const seed = str(a, 'seed') !== undefined ? Number(str(a, 'seed')) : 0x4a4350;
  if (!Number.isSafeInteger(seed)) die('--seed must be an integer');
  const timeout = str(a, 'timeout');
  if (timeout !== undefined && !(Number(timeout) > 0)) die('--timeout must be a positive number of milliseconds');
  const reportDir = resolve(str(a, 'report') ?? join(ROOT, 'reports', 'certify'));
  // ---- differential properties (issue 9 item 3): sequences per property, recorded in the header and certificate ----
  const propertyRunsFlag = str(a, 'property-runs');
  if (propertyRunsFlag !== undefined && a.flags.has('deep')) die('--property-runs and --deep both set the number of sequences: give one');
  if (propertyRunsFlag !== undefined && !/^[1-9]\d*$/.test(propertyRunsFlag)) die('--property-runs must be a positive integer');
  const property_runs = propertyRunsFlag !== undefined ? Number(propertyRunsFlag) : a.flags.has('deep') ? DEEP_RUNS : DEFAULT_RUNS;
  const casesDir = join(reportDir, 'cases');
  // ---- end differential properties ----
  const classes = str(a, 'classes')?.split(',').map((c) => (c.includes(':') ? c : `jcp:${c}`));
  const expPath = str(a, 'expectations');
  let expectations: ExpectationFile | undefined;
  if (expPath && existsSync(expPath)) expectations = readExpectations(expPath);
  else if (expPath && !a.flags.has('update-expectations')) die(`expectation file ${expPath} does not exist`);

  const transport = endpoint ? wireTransport(endpoint) : testee ? testeeTransport(testee, timeout ? { timeoutMs: Number(timeout) } : {}) : inProcessTransport();
  const hello = await handshake(transport);
  await transport.close();
  const driver = endpoint ? `jcp/1 endpoint: ${endpoint}` : testee ? `testee: ${testee}` : 'in-process reference';
  if (hello instanceof TesteeFailure) {
    // no handshake, no tests: still a complete record of what happened, and a clear exit
    mkdirSync(reportDir, { recursive: true });
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
    writeFileSync(join(reportDir, 'record.jsonl'), [failed, { type: 'handshake', outcome: hello.kind, error: hello.message, transcript: hello.transcript ?? {} }, footer].map((x) => JSON.stringify(x)).join('\n') + '\n');
    writeFileSync(join(reportDir, 'summary.md'), `# JCP conformance: the testee failed the handshake\n\n${driver}: ${hello.kind} — ${hello.message}\n\n\`\`\`\n${hello.transcript?.stderr ?? ''}\n\`\`\`\n`);
    console.log(`✗ the testee failed the handshake (${hello.kind}): ${hello.message}`);
    if (hello.transcript?.stderr) console.log(`--- testee stderr ---\n${hello.transcript.stderr}`);
    console.log(`no test was run; report in ${reportDir}`);
    return 1;
  }
  const info = hello;
  console.log(`jcp-conformance ${PKG.version}: certifying ${info.name} ${info.version} (${info.language ?? 'language not stated'}) over ${PROTOCOL_VERSION}, ${driver}`);
  console.log(`claims: ${info.claims.join(' ') || '(none)'}; seed ${seed}${classes ? `; classes ${classes.join(' ')}` : ''}`);

  mkdirSync(reportDir, { recursive: true });
  const testsPath = join(reportDir, 'tests.jsonl');
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
  // ---- re-verifiable transcripts (issue 9 item 5): every worker's client writes its stream under the folder ----
  const transcriptDir = transcriptFolderOf(a.flags.get('transcript'), a.positional, reportDir);
  if (transcriptDir) env['JCP_TRANSCRIPT'] = prepareTranscriptFolder(transcriptDir);
  // ---- end transcripts ----
  const started_at = new Date().toISOString();
  const run = spawnSync(
    process.execPath,
    // an endpoint shows only what the wire carries: its run is the wire tests, and every other class reads not tested
    [join(ROOT, 'node_modules', 'vitest', 'vitest.mjs'), 'run', ...(endpoint ? ['harness/conformance/wire.test.ts'] : ['harness/conformance', 'harness/external']), '--reporter=dot', `--reporter=${join(ROOT, 'harness', 'report', 'record-reporter.ts')}`],
    { cwd: ROOT, stdio: 'inherit', env },
  );
  if (run.error) die(`could not start vitest: ${run.error.message}`, 2);

  // tests of no selected class never ran (clauseIt skips them as 'not selected' and the reporter leaves them out)
  const { tests: selected, end } = readTestRecord(testsPath);
  if (a.flags.has('update-expectations')) {
    const out = expPath ?? join(reportDir, 'expectations.json');
    writeFileSync(out, JSON.stringify(expectationsFor(selected, expectations), null, 2) + '\n');
    console.log(`wrote ${out}: review it, give every entry a real reason, and commit it`);
  }
  const { judged, problems } = judge(selected, a.flags.has('update-expectations') ? undefined : expectations);

  const digests: Record<string, string> = {};
  for (const f of readdirSync(join(ROOT, 'spec-map', 'clauses')).sort()) digests[`spec-map/clauses/${f}`] = digestFile(join(ROOT, 'spec-map', 'clauses', f));
  if (expPath && existsSync(expPath)) digests['expectations'] = digestFile(expPath);
  const header: Header = {
    type: 'header',
    suite: { name: PKG.name, version: PKG.version },
    protocol: PROTOCOL_VERSION,
    testee: { ...info, driver },
    digests,
    vector_packs: [],
    seed,
    property_runs,
    classes_requested: classes ?? 'all',
    started_at,
  };
  const counts: Record<string, number> = {};
  for (const t of judged) counts[t.outcome] = (counts[t.outcome] ?? 0) + 1;
  const unexpected = judged.filter((t) => t.unexpected).length + problems.unmatched.length + problems.tooBroad.length;
  // complete: vitest reached its end, with no error outside a test and no test file that failed to load
  const complete = runCompleted(selected, end);
  if (end && end.broken_files.length) console.log(`✗ test files that failed to load: ${end.broken_files.join(', ')}`);
  if (end && end.unhandled) console.log(`✗ ${end.unhandled} error(s) outside any test: see the output above`);
  const footer: Footer = { type: 'footer', counts, unexpected, expectation_problems: problems, finished_at: new Date().toISOString(), complete };
  const recordPath = join(reportDir, 'record.jsonl');
  writeFileSync(recordPath, [header, ...judged.map(({ unexpected: _u, ...t }) => ({ ...t, unexpected: _u ? 1 : 0 })), footer].map((x) => JSON.stringify(x)).join('\n') + '\n');

  const rows = classRows(judged, info.claims);
  writeFileSync(join(reportDir, 'junit.xml'), junitXml(judged));
  writeFileSync(join(reportDir, 'summary.md'), markdownSummary(header, footer, rows, judged));
  writeAllure(join(reportDir, 'allure-results'), judged, (id) => {
    const h = createHash('sha256').update(id).digest('hex');
    return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20, 32)}`;
  });
  const certKey = keyPairFromSeed(process.env['JCP_CERT_SEED_HEX'] ? Uint8Array.from(Buffer.from(process.env['JCP_CERT_SEED_HEX'], 'hex')) : deriveSeed('jcp-conformance development certifying key'));
  const issued = str(a, 'now') !== undefined ? Number(str(a, 'now')) : Math.floor(Date.now() / 1000);
  // ---- re-verifiable transcripts (issue 9 item 5): the streams folded into one file, its root bound below ----
  const transcript = transcriptDir ? foldTranscript(transcriptDir, header, judged) : undefined;
  if (transcript) console.log(`transcript: ${transcript.path} (${transcript.streams} stream(s), ${transcript.entries} exchange(s)${transcript.torn.length ? `; torn tails dropped in ${transcript.torn.join(', ')}` : ''}), root ${transcript.root}`);
  // ---- end transcripts ----
  const cert = sealCertificate(certificatePayload(header, footer, rows, digestFile(recordPath), certKey.did, issued, transcript?.root), certKey);
  writeFileSync(join(reportDir, 'certificate.cose'), cert);

  console.log(`\n${terminalTable(rows)}\n`);
  const bad = judged.filter((t) => t.unexpected);
  for (const t of bad) {
    console.log(`✗ ${t.id}\n    ${t.outcome}${t.expected ? ` (expected ${t.expected})` : ''}: ${(t.error ?? '').split('\n')[0]}`);
    if (t.transcript?.['request']) console.log(`    request  ${t.transcript['request'].slice(0, 200)}`);
    if (t.transcript?.['response']) console.log(`    response ${t.transcript['response'].slice(0, 200)}`);
    console.log(`    replay: jcp-conformance certify${testee ? ` --testee '${testee}'` : ''}${endpoint ? ` --endpoint ${endpoint}` : ''} --seed ${seed}   (or FC_SEED=${seed} npx vitest run ${t.file} -t '${t.title.replace(/'/g, "'\\''")}')`);
  }
  // ---- differential properties: the shrunk cases this run wrote ----
  const cases = existsSync(casesDir) ? readdirSync(casesDir).filter((f) => f.endsWith('.json')) : [];
  if (cases.length) console.log(`\n${cases.length} case(s) found by the differential properties (seed ${seed}, ${property_runs} sequences each), in ${casesDir}:\n${cases.map((f) => `  jcp-conformance replay ${join(casesDir, f)}`).join('\n')}`);
  // ---- end differential properties ----
  for (const u of problems.unmatched) console.log(`✗ expectation entry ${u} matches no test: remove it`);
  for (const b of problems.tooBroad) console.log(`✗ expectation glob ${b.test} matches ${b.matches} tests: narrow it`);
  if (!complete) console.log('✗ the run did not complete: see the test output above');
  console.log(`\n${judged.length} tests: ${Object.entries(counts).map(([k, v]) => `${v} ${k}`).join(', ')}; ${unexpected} unexpected`);
  console.log(`reports in ${reportDir}: record.jsonl, junit.xml, summary.md, allure-results/, certificate.cose (signed by ${certKey.did}${process.env['JCP_CERT_SEED_HEX'] ? '' : ', the development key: set JCP_CERT_SEED_HEX to certify with your own'})`);
  return unexpected === 0 && complete ? 0 : 1;
}

async function main(): Promise<number> {
  const a = parseArgs(process.argv.slice(2));
  switch (a.cmd) {
    case 'certify':
      return certify(a);
    case 'verify-certificate': {
      const f = a.positional[0];
      if (!f) die('verify-certificate <file> [--signer <did:key>]');
      try {
        const p = verifyCertificate(new Uint8Array(readFileSync(f)), str(a, 'signer'));
        console.log(`valid certificate signed by ${p.signer}`);
        console.log(JSON.stringify(p, null, 2));
        return 0;
      } catch (e) {
        if (e instanceof CertificateError) {
          console.log(`invalid certificate: ${e.message}`);
          return 1;
        }
        throw e;
      }
    }
    case 'validate': {
      const testee = str(a, 'testee');
      if (!testee) die('validate --testee <command>');
      return validateTestee(new Implementation(testeeTransport(testee, str(a, 'timeout') ? { timeoutMs: Number(str(a, 'timeout')) } : {})));
    }
    // ---- N×N interop (issue 9 item 4): its own argument reader, since --testee repeats ----
    case 'interop':
      return (await import('./interop/main.ts')).interopCommand(process.argv.slice(3));
    // ---- end interop ----
    // ---- re-verifiable transcripts (issue 9 item 5): 0 confirmed, 1 contradicted, 3 refused ----
    case 'reverify': {
      const [certPath, transcriptPath] = a.positional;
      if (!certPath || !transcriptPath) die('reverify <certificate> <transcript> [--signer <did:key>]');
      return reverifyCommand(certPath, transcriptPath, str(a, 'signer'));
    }
    // ---- end transcripts ----
    // ---- differential properties (issue 9 item 2) ----
    case 'replay':
    case 'promote':
      try {
        return await (a.cmd === 'replay' ? replayCommand : promoteCommand)(a.positional, a.flags);
      } catch (e) {
        if (e instanceof UsageError) die(e.message);
        if (e instanceof Error && !(e instanceof TesteeFailure)) die(e.message, 2);
        throw e;
      }
    // ---- end differential properties ----
    default: {
      const text = readFileSync(fileURLToPath(import.meta.url), 'utf8').split('\n');
      console.log(text.slice(0, text.findIndex((l) => !l.startsWith('//'))).map((l) => l.replace(/^\/\/ ?/, '')).join('\n'));
      return a.cmd === 'help' || a.cmd === '--help' ? 0 : 2;
    }
  }
}

main().then(
  (code) => process.exit(code),
  (e: unknown) => die(e instanceof Error ? (e.stack ?? e.message) : String(e), 2),
);
