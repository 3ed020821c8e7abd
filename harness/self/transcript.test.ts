// Self-tests of re-verifiable transcripts (harness/transcript/): the recorder's hash chains and the
// fold, handle mapping and answer comparison in the replay, the re-judging of verdicts, and the acceptance of the
// issue end to end — `certify --transcript` then `reverify` accepts an untouched transcript, refuses one with any byte
// changed, and shows a planted bug's disagreements on its class.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import type { CborInput, CborMap, CborValue } from '../../impl/cbor/index.ts';
import { cliPath } from './cli.ts';
import { inProcessTransport } from '../drivers/in-process.ts';
import { alice, bob, nonce, payload, resource, steward } from '../fixtures.ts';
import { Implementation, TesteeFailure, type Transport } from '../implementation.ts';
import { deriveSeed, keyPairFromSeed } from '../oracle.ts';
import { certificatePayload, CertificateError, sealCertificate, verifyCertificate } from '../report/certificate.ts';
import { judge } from '../report/expectations.ts';
import { classRows, type Footer, type Header } from '../report/record.ts';
import { readTestRecord, type TestLine } from '../report/record-reporter.ts';
import { foldTranscript, prepareTranscriptFolder, TRANSCRIPT_FILE } from '../transcript/certify.ts';
import { encodeHeader, frame, readFrame, readTranscript, rootOf, TranscriptError, headerOf } from '../transcript/format.ts';
import { transcribing } from '../transcript/recorder.ts';
import { reverify, reverifyReport } from '../transcript/reverify.ts';
import { DEBIT_ON_DENY_C3, REFERENCE_C3, sharedCertify } from './shared-runs.ts';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const TMP = mkdtempSync(join(tmpdir(), 'jcp-transcript-'));
afterAll(() => rmSync(TMP, { recursive: true, force: true }));

const KEY = keyPairFromSeed(deriveSeed('transcript self-test certifying key'));
const TOOL = resource('transcript:tool');
const T_DECIDE = 'jcp:C3|jcp/7#budget-exceeded|decide, deny, spent';
const T_METERED = 'jcp:C3|jcp/7#budget-exceeded|metered path';
const T_DID = 'jcp:C1|jcp/2#did|a malformed did';

/** A run header as certify writes it. */
const header = (driver: string): Header => ({
  type: 'header',
  suite: { name: 'jcp-conformance', version: '0.0.0' },
  protocol: 'jcp-testee/1',
  testee: { name: 'fake', version: '1', protocol: 'jcp-testee/1', claims: ['jcp:C1', 'jcp:C3'], features: [], driver },
  digests: {},
  vector_packs: [],
  seed: 7,
  classes_requested: ['jcp:C3'],
  started_at: '',
});
const line = (id: string, outcome: string): TestLine => ({ type: 'test', id, file: 'f.test.ts', title: id, clauses: ['x'], classes: [id.split('|')[0]!], level: 'MUST', grade: 'spec', outcome });

/** Drives the same short session over `impl`: a mint, a point, an allow, a budget deny, the spend, the metered path, a refusal. */
async function session(impl: Implementation, setTest: (id: string) => void): Promise<void> {
  setTest(T_DECIDE);
  const root = await impl.mintGrant(alice.seed, { subject: bob.did, resource: TOOL, actions: ['call'], budget_uj: 100n, nonce: nonce('transcript-root') });
  const p = await impl.newPoint(steward.seed, { [TOOL]: [alice.did] });
  const call = { kind: 'tool-call', trust: 'control', grant_id: root.grant_id, action: 'call', resource: TOOL, payload_hash: payload('transcript') };
  const ask = (uj: bigint) => ({ frame: call, chain: [root.signed_grant], caller: bob.did, cost: { uj, provenance: 'Estimator' }, now_s: 1000n });
  expect((await p.decide(ask(30n))).verdict).toBe('allow');
  expect((await p.decide(ask(200n))).deny_reason).toBe('budget-exceeded');
  await p.spent(root.grant_id); // 30 µJ held; an over-reporting testee says otherwise, and the replay must see it
  setTest(T_METERED);
  const p2 = await impl.newPoint(steward.seed, { [TOOL]: [alice.did] });
  const a = await p2.authorize(ask(20n));
  expect(a.verdict).toBe('authorized');
  if (a.verdict === 'authorized') expect((await p2.settle(a.ticket, { uj: 25n, provenance: 'Estimator' }, 1001n)).verdict).toBe('allow');
  setTest(T_DID);
  await expect(impl.parseDid('did:key:not-a-key')).rejects.toThrow(/ERR_DID_MALFORMED/);
}

/** A faithful implementation that names its points and tickets its own way (handles are opaque). */
function renaming(t: Transport): Transport {
  const rename = (op: string, r: CborMap): CborMap => {
    const ok = r.get('ok');
    if (!(ok instanceof Map)) return r;
    const m: CborMap = new Map(ok);
    if (op === 'point.new') m.set('point', `mine-${String(ok.get('point'))}`);
    if (op === 'point.authorize' && ok.has('ticket')) m.set('ticket', `ticket-${String(ok.get('ticket'))}`);
    return new Map([...r, ['ok', m]]);
  };
  const unname = (args: CborInput): CborInput => {
    const m = new Map(Object.entries(args as Record<string, CborInput>));
    for (const [k, prefix] of [['point', 'mine-'], ['ticket', 'ticket-']] as const) {
      const v = m.get(k);
      if (typeof v === 'string' && v.startsWith(prefix)) m.set(k, v.slice(prefix.length));
    }
    return Object.fromEntries(m) as CborInput;
  };
  return { description: 'renaming', hello: () => t.hello(), close: () => t.close(), request: async (op, args) => rename(op, await t.request(op, unname(args))) };
}

/** An implementation that reports 10 µJ more spend than it holds: the debit-on-deny symptom, on the wire. */
function overReporting(t: Transport): Transport {
  return {
    description: 'over-reporting',
    hello: () => t.hello(),
    close: () => t.close(),
    async request(op, args) {
      const r = await t.request(op, args);
      if (op !== 'point.spent' || !r.has('ok')) return r;
      const spent = (r.get('ok') as CborMap).get('spent_uj') as number;
      return new Map<CborValue, CborValue>([...r, ['ok', new Map<CborValue, CborValue>([['spent_uj', spent + 10]])]]);
    },
  };
}

/** Records `session` over `t` into a fresh folder, folds it with `outcomes`, and certifies it (verdicts from the outcomes). */
async function recordAndCertify(name: string, t: Transport, outcomes: Record<string, string>) {
  const dir = prepareTranscriptFolder(join(TMP, name));
  let current = '';
  const impl = new Implementation(transcribing(t, dir, () => current, { restartsOnFailure: false }));
  await session(impl, (id) => (current = id));
  const h = header(name);
  const { judged } = judge(Object.entries(outcomes).map(([id, o]) => line(id, o)));
  const folded = foldTranscript(dir, h, judged);
  const footer: Footer = { type: 'footer', counts: {}, unexpected: 0, expectation_problems: { unmatched: [], tooBroad: [] }, finished_at: '', complete: true };
  const cert = sealCertificate(certificatePayload(h, footer, classRows(judged, h.testee.claims), 'record', KEY.did, 1_800_000_000, folded.root), KEY);
  return { dir, folded, bytes: new Uint8Array(readFileSync(folded.path)), cert };
}

const ALL_PASS = { [T_DECIDE]: 'passed', [T_METERED]: 'passed', [T_DID]: 'passed' };

describe('recording, folding and reading a transcript', () => {
  it('chains every exchange, binds the root in the certificate, and reads back exactly what was said', async () => {
    const r = await recordAndCertify('faithful', inProcessTransport(), ALL_PASS);
    const t = readTranscript(r.bytes, r.folded.root);
    expect(t.streams.length).toBe(1);
    expect(t.streams[0]!.entries.map((e) => e.op)).toEqual(['grant.mint', 'point.new', 'point.decide', 'point.decide', 'point.spent', 'point.new', 'point.authorize', 'point.settle', 'identity.parse-did']);
    expect(t.streams[0]!.entries.map((e) => e.test)).toEqual([T_DECIDE, T_DECIDE, T_DECIDE, T_DECIDE, T_DECIDE, T_METERED, T_METERED, T_METERED, T_DID]);
    expect((t.streams[0]!.entries[8]!.response.get('error') as CborMap).get('code')).toBe('ERR_DID_MALFORMED');
    expect(verifyCertificate(r.cert, KEY.did).transcript_root).toBe(r.folded.root);
    // the root is the hash of the header frame, which names the stream's head
    expect(rootOf(readFrame(r.bytes, 0, 'h').body)).toBe(r.folded.root);
  });

  it('refuses the transcript with any single byte changed, truncated, extended, or under another root', async () => {
    const { bytes, folded } = await recordAndCertify('flips', inProcessTransport(), ALL_PASS);
    let refused = 0;
    for (let i = 0; i < bytes.length; i++) {
      const t = bytes.slice();
      t[i]! ^= 0x01 << i % 8;
      expect(() => readTranscript(t, folded.root), `byte ${i}`).toThrow(TranscriptError);
      refused++;
    }
    expect(refused).toBe(bytes.length);
    expect(() => readTranscript(bytes.subarray(0, bytes.length - 1), folded.root)).toThrow(/past the end|ends inside/);
    expect(() => readTranscript(new Uint8Array([...bytes, 0]), folded.root)).toThrow(/after the last stream/);
    expect(() => readTranscript(bytes, '00'.repeat(32))).toThrow(/not the certificate's transcript_root/);
    // an entry changed and the header re-rooted to match still breaks the chain: the header names the head
    const h = readFrame(bytes, 0, 'h');
    const rest = bytes.slice(h.end);
    rest[rest.length - 3]! ^= 1;
    const forged = new Uint8Array([...frame(encodeHeader(headerOf(h.value))), ...rest]);
    expect(() => readTranscript(forged, rootOf(h.body))).toThrow(TranscriptError);
  });

  it('starts a fresh stream when a respawning testee fails as a program, and records the failure', async () => {
    let live = inProcessTransport();
    let n = 0;
    const crashing: Transport = {
      description: 'crashing',
      hello: () => live.hello(),
      close: () => live.close(),
      async request(op, args) {
        if (++n === 3) {
          live = inProcessTransport(); // the respawn: its state is gone
          throw new TesteeFailure('crash', 'the testee exited (code 1)');
        }
        return live.request(op, args);
      },
    };
    const dir = prepareTranscriptFolder(join(TMP, 'respawn'));
    const impl = new Implementation(transcribing(crashing, dir, () => T_DECIDE, { restartsOnFailure: true }));
    const root = await impl.mintGrant(alice.seed, { subject: bob.did, resource: TOOL, actions: ['call'], budget_uj: 100n, nonce: nonce('r') });
    await impl.newPoint(steward.seed);
    await expect(impl.verifyGrant(root.signed_grant)).rejects.toThrow(TesteeFailure);
    expect((await impl.verifyGrant(root.signed_grant)).valid).toBe(true);
    const folded = foldTranscript(dir, header('respawn'), judge([line(T_DECIDE, 'crash')]).judged);
    const t = readTranscript(new Uint8Array(readFileSync(folded.path)), folded.root);
    expect(t.streams.map((s) => s.entries.map((e) => e.op))).toEqual([['grant.mint', 'point.new', 'grant.verify'], ['grant.verify']]);
    expect(((t.streams[0]!.entries[2]!.response.get('failure') as CborMap).get('kind'))).toBe('crash');
  });
});

describe('re-judging from the transcript alone', () => {
  it('confirms a faithful run whose handles differ from the reference\'s: handles are mapped, everything agrees', async () => {
    const r = await recordAndCertify('renamed', renaming(inProcessTransport()), ALL_PASS);
    const settle = readTranscript(r.bytes).streams[0]!.entries.find((e) => e.op === 'point.settle')!;
    expect([(settle.args as CborMap).get('point'), (settle.args as CborMap).get('ticket')]).toEqual(['mine-p2', 'ticket-t1']);
    const v = await reverify(r.cert, r.bytes, KEY.did);
    expect(v.comparisons.filter((c) => !c.agree).map((c) => c.difference)).toEqual([]);
    expect(v.comparisons.length).toBe(9);
    expect(v.confirmed).toBe(true);
    expect(v.classes.map((c) => [c.class, c.certificate, c.rejudged])).toEqual([
      ['jcp:C1', 'PASS', 'PASS'],
      ['jcp:C3', 'PASS', 'PASS'],
    ]);
  });

  it('confirms a FAIL that the exchanges show, naming the first differing exchange and field', async () => {
    const quiet = 'jcp:C1|jcp/2#did|a test that exchanged nothing';
    const r = await recordAndCertify('over-fail', overReporting(inProcessTransport()), { ...ALL_PASS, [T_DECIDE]: 'failed', [quiet]: 'failed' });
    const v = await reverify(r.cert, r.bytes);
    // nothing in the transcript bears on a test that exchanged nothing: its recorded outcome stands, and is counted
    expect(v.tests.find((t) => t.test.id === quiet)).toMatchObject({ exchanges: 0, explained: true, rejudged: 'failed' });
    expect(reverifyReport(v)).toContain('1 of 4 test(s) exchanged nothing with the implementation: their outcomes rest on the record alone');
    const c3 = v.classes.find((c) => c.class === 'jcp:C3')!;
    expect([c3.certificate, c3.rejudged, c3.differing]).toEqual(['FAIL', 'FAIL', 1]);
    expect(c3.firstDifference?.entry.op).toBe('point.spent');
    expect(c3.firstDifference?.difference).toBe('ok results differ in spent_uj (testee 40, reference 30)');
    expect(v.confirmed).toBe(true);
    expect(reverifyReport(v).join('\n')).toMatch(/jcp:C3\s+FAIL\s+FAIL\s+1\s+stream .* #4 \(jcp:C3\|jcp\/7#budget-exceeded\|decide, deny, spent\): point\.spent/);
  });

  it('contradicts a certificate whose PASS the exchanges do not support, and a failure they do not explain', async () => {
    const lying = await recordAndCertify('over-pass', overReporting(inProcessTransport()), ALL_PASS);
    const v = await reverify(lying.cert, lying.bytes);
    expect(v.confirmed).toBe(false);
    expect(v.classes.find((c) => c.class === 'jcp:C3')).toMatchObject({ certificate: 'PASS', rejudged: 'FAIL' });
    expect(v.tests.find((t) => t.test.id === T_DECIDE)).toMatchObject({ explained: false, rejudged: 'failed', why: 'recorded passed, but 1 exchange(s) differ from the reference' });
    const unfounded = await recordAndCertify('unfounded', inProcessTransport(), { ...ALL_PASS, [T_DID]: 'failed' });
    const u = await reverify(unfounded.cert, unfounded.bytes);
    expect(u.classes.find((c) => c.class === 'jcp:C1')).toMatchObject({ certificate: 'FAIL', rejudged: 'PASS' });
    expect(u.tests.find((t) => t.test.id === T_DID)?.why).toMatch(/every exchange agrees/);
  });

  it('refuses a certificate without a transcript_root, and one whose root is another transcript\'s', async () => {
    const a = await recordAndCertify('root-a', inProcessTransport(), ALL_PASS);
    const b = await recordAndCertify('root-b', overReporting(inProcessTransport()), ALL_PASS);
    await expect(reverify(b.cert, a.bytes)).rejects.toThrow(TranscriptError);
    const h = header('root-a');
    const footer: Footer = { type: 'footer', counts: {}, unexpected: 0, expectation_problems: { unmatched: [], tooBroad: [] }, finished_at: '', complete: true };
    const bare = sealCertificate(certificatePayload(h, footer, [], 'record', KEY.did, 1_800_000_000), KEY);
    await expect(reverify(bare, a.bytes)).rejects.toThrow(CertificateError);
  });
});

function cli(args: string[]): { status: number; out: string } {
  const r = spawnSync(process.execPath, [cliPath(), ...args], { cwd: ROOT, encoding: 'utf8', timeout: 600_000, env: { ...process.env, JCP_RECORD: '', JCP_TESTEE: '', JCP_TRANSCRIPT: '' } });
  return { status: r.status ?? -1, out: `${r.stdout}\n${r.stderr}` };
}

// --property-runs 5: the differential properties (harness/property/) are not what these tests are about; few keep them short
describe('certify --transcript and reverify, end to end (C3)', () => {
  it('accepts the untouched transcript of a clean run, whose every entry names a recorded test, and refuses any changed byte', async () => {
    // the passing run junit.test.ts reads too (./shared-runs.ts)
    const shared = await sharedCertify('reference-c3', REFERENCE_C3);
    const dir = shared.dir;
    const run = { status: shared.status, out: `${shared.stdout}\n${shared.stderr}` };
    expect(run.status, run.out).toBe(0);
    const certPath = join(dir, 'certificate.cose');
    const trPath = join(dir, 'transcript', TRANSCRIPT_FILE);
    const ok = cli(['reverify', certPath, trPath]);
    expect(ok.status, ok.out).toBe(0);
    expect(ok.out).toContain('the transcript confirms every verdict of the certificate');
    expect(ok.out).toMatch(/jcp:C3\s+PASS\s+PASS\s+0/);
    expect(ok.out).toContain('What it cannot prove');
    const bytes = new Uint8Array(readFileSync(trPath));
    const t = readTranscript(bytes, verifyCertificate(new Uint8Array(readFileSync(certPath))).transcript_root);
    // the worker names each exchange's test exactly as the reporter names it in the record ("" outside any test: a beforeAll)
    const recorded = new Set(readFileSync(join(dir, 'record.jsonl'), 'utf8').split('\n').filter(Boolean).map((l) => (JSON.parse(l) as { id?: string }).id));
    const named = new Set(t.streams.flatMap((s) => s.entries.map((e) => e.test)).filter((id) => id !== ''));
    expect([...named].filter((id) => !recorded.has(id))).toEqual([]);
    expect(named.size).toBeGreaterThan(50);
    // a byte changed in the header, in an entry's length prefix, inside an entry, and the last byte
    const mid = t.streams[Math.floor(t.streams.length / 2)]!;
    const entryAt = mid.offsets[Math.floor(mid.offsets.length / 2)]!;
    for (const [i, what] of [[10, 'header'], [entryAt + 1, 'a length prefix'], [entryAt + 40, 'an entry'], [bytes.length - 1, 'the last byte']] as const) {
      const x = bytes.slice();
      x[i]! ^= 0x20;
      expect(() => readTranscript(x, t.root), what).toThrow(TranscriptError);
    }
    const edited = join(TMP, 'edited.jcpt');
    const x = bytes.slice();
    x[entryAt + 40]! ^= 0x20;
    writeFileSync(edited, x);
    const refused = cli(['reverify', certPath, edited]);
    expect(refused.status, refused.out).toBe(3);
    expect(refused.out).toMatch(/refused: the transcript was edited/);
    // the root in the certificate: a changed byte breaks its signature
    const cert = new Uint8Array(readFileSync(certPath));
    const at = Buffer.from(cert).indexOf(Buffer.from(t.root, 'utf8'));
    expect(at).toBeGreaterThan(0);
    cert[at]! ^= 0x01;
    const badCert = join(TMP, 'bad.cose');
    writeFileSync(badCert, cert);
    const r = cli(['reverify', badCert, trPath]);
    expect(r.status, r.out).toBe(3);
    expect(r.out).toMatch(/invalid certificate/);
  }, 900_000);

  it('shows a planted bug (debit-on-deny) as disagreements on C3, and confirms the certificate\'s FAIL from them', async () => {
    // the planted-bug run other self-tests read too (./shared-runs.ts)
    const run = await sharedCertify('debit-on-deny-c3', DEBIT_ON_DENY_C3);
    const dir = run.dir;
    expect(run.status, `${run.stdout}\n${run.stderr}`).toBe(1);
    const { tests } = readTestRecord(join(dir, 'tests.jsonl'));
    expect(tests.length).toBeGreaterThan(0);
    const v = await reverify(new Uint8Array(readFileSync(join(dir, 'certificate.cose'))), new Uint8Array(readFileSync(join(dir, 'transcript', TRANSCRIPT_FILE))));
    const c3 = v.classes.find((c) => c.class === 'jcp:C3')!;
    expect([c3.certificate, c3.rejudged]).toEqual(['FAIL', 'FAIL']);
    expect(c3.differing).toBeGreaterThan(0);
    // the bug shows as spend the testee reports and the reference does not (C3's first difference may be another
    // test's: a wire test's endpoint.start answers with the testee's own address, which a replay cannot match)
    const spent = v.tests.map((t) => t.firstDifference).filter((d) => d?.entry.op === 'point.spent');
    expect(spent.length).toBeGreaterThan(0);
    for (const d of spent) expect(d!.difference).toMatch(/^ok results differ in spent_uj \(testee \d+, reference \d+\)$/);
    expect(v.confirmed).toBe(true);
  }, 900_000);
});
