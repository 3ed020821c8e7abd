// Self-tests of "every claimed class gets a verdict": a claimed class no test reached, none applied to, or whose tests
// needed an option the run lacked (NEEDS --endpoint-restart) is unexpected unless the expectation file names it under
// without_verdict; a without_verdict entry for a class that got a verdict is stale; the certificate lists every
// claimed class. End to end against the reference jcp/1 endpoint (npm run endpoint) without --endpoint-restart:
// certify says up front that claimed C8 needs it, C8 reads NEEDS --endpoint-restart, the run fails, and passes once
// the expectation file excuses C8 with a reason. With a restart command that really restarts it (on its durable
// record), C8 passes; with one that does nothing, the instance from before still answers and the restart test fails.
// With --endpoint-second, a second endpoint on the same record fails to start and C26 passes; a command that starts
// (exits 0) is a second writer and fails it.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { createServer, type AddressInfo } from 'node:net';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildBundle, bundlePath } from './bundles.ts';
import { cliPath } from './cli.ts';
import { awaitAccepting, RESTART_TEST_CLAUSES, SECOND_WRITER_CLAUSES } from '../drivers/wire.ts';
import { deriveSeed, keyPairFromSeed } from '../oracle.ts';
import { certificatePayload } from '../report/certificate.ts';
import { claimedWithoutVerdict, judge } from '../report/expectations.ts';
import { classRows, type Footer, type Header } from '../report/record.ts';
import type { TestLine } from '../report/record-reporter.ts';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const TMP = mkdtempSync(join(tmpdir(), 'jcp-claimed-'));
afterAll(() => rmSync(TMP, { recursive: true, force: true }));

const line = (id: string, classes: string[], outcome: string, extra: Partial<TestLine> = {}): TestLine => ({
  type: 'test',
  id,
  file: 'f',
  title: id,
  clauses: ['jcp/11#replay-before-new'],
  classes,
  level: 'MUST',
  grade: 'spec',
  outcome,
  ...extra,
});

// the endpoint (impl/wire/main.ts) as a bundle: the restart tests start it many times (./bundles.ts)
beforeAll(() => buildBundle('wire-main'), 60_000);

describe('a claimed class without a verdict', () => {
  const lines = [
    line('a', ['jcp:C3'], 'passed'),
    line('b', ['jcp:C8'], 'passed'),
    line('c', ['jcp:C8'], 'not applicable', { needs: '--endpoint-restart', reason: 'needs --endpoint-restart' }),
    line('d', ['jcp:C5'], 'not applicable', { reason: 'no reading declared' }),
  ];
  const claims = ['jcp:C3', 'jcp:C5', 'jcp:C8', 'jcp:C16'];
  const rows = classRows(judge(lines).judged, claims, ['jcp:C3', 'jcp:C5', 'jcp:C8', 'jcp:C16']);
  const verdict = (k: string) => rows.find((r) => r.class === k)!.verdict;

  it('reads NEEDS <option> for a class whose test needed what the run lacked, NOT TESTED or NOT APPLICABLE otherwise', () => {
    expect([verdict('jcp:C3'), verdict('jcp:C8'), verdict('jcp:C5'), verdict('jcp:C16')]).toEqual(['PASS', 'NEEDS --endpoint-restart', 'NOT APPLICABLE', 'NOT TESTED']);
  });

  it('is unexpected unless the expectation file excuses it, and an excuse for a class with a verdict is stale', () => {
    const bare = claimedWithoutVerdict(rows);
    expect(bare.classes.map((c) => [c.class, c.excused])).toEqual([
      ['jcp:C5', undefined],
      ['jcp:C8', undefined],
      ['jcp:C16', undefined],
    ]);
    const excused = claimedWithoutVerdict(rows, {
      expectations: [],
      without_verdict: [
        { class: 'jcp:C8', reason: 'restarted by hand in another run' },
        { class: 'jcp:C3', reason: 'stale: C3 passes' },
      ],
    });
    expect(excused.classes.find((c) => c.class === 'jcp:C8')!.excused).toBe('restarted by hand in another run');
    expect(excused.stale).toEqual(['jcp:C3']);
    // a class not claimed never needs a verdict
    expect(claimedWithoutVerdict(classRows(judge(lines).judged, ['jcp:C3'], ['jcp:C3', 'jcp:C16'])).classes).toEqual([]);
  });

  it('is listed in the certificate with its verdict, as every claimed class is', () => {
    const header = { suite: { name: 'x', version: '0' }, protocol: 'p', testee: { name: 't', version: '0', driver: 'd', claims }, digests: {}, vector_packs: [], seed: 1 } as unknown as Header;
    const footer = { counts: {}, unexpected: 0, complete: true } as unknown as Footer;
    const p = certificatePayload(header, footer, rows, '00', 'did:key:z', 1);
    expect(p.verdicts).toEqual({ 'jcp:C3': 'PASS', 'jcp:C5': 'NOT APPLICABLE', 'jcp:C8': 'NEEDS --endpoint-restart', 'jcp:C16': 'NOT TESTED' });
  });

  it('names the restart and one-writer tests by the same clauses certify looks up (harness/drivers/wire.ts)', () => {
    /** The clause ids of every clauseIt block of `file` whose body holds `marker`. */
    const clausesOfTestsHolding = (file: string, marker: string): string[] => {
      const src = readFileSync(join(ROOT, 'harness', 'conformance', file), 'utf8');
      const blocks = src.split(/(?=\n\s*clauseIt\()/).filter((b) => b.includes(marker));
      return blocks.flatMap((b) => [...b.slice(0, b.indexOf("',", b.indexOf(']')) + 1).matchAll(/'((?:jcp)\/[^']+)'/g)].map((m) => m[1]!));
    };
    const restart = ['wire.test.ts', 'wire-decisions.test.ts'].flatMap((f) => clausesOfTestsHolding(f, "RunLacks('--endpoint-restart'"));
    expect(restart.length).toBeGreaterThan(0);
    expect([...new Set(restart)].sort()).toEqual([...RESTART_TEST_CLAUSES].sort());
    expect([...new Set(clausesOfTestsHolding('wire.test.ts', "RunLacks('--endpoint-second'"))].sort()).toEqual([...SECOND_WRITER_CLAUSES].sort());
  });
});

describe('certify --endpoint without --endpoint-restart', () => {
  let endpoint: ChildProcess;
  let url = '';
  let steward = '';
  beforeAll(async () => {
    endpoint = spawn(process.execPath, [bundlePath('wire-main'), `unix:${join(TMP, 'endpoint.sock')}`], { cwd: ROOT, stdio: ['ignore', 'pipe', 'inherit'] });
    [url, steward] = await new Promise<[string, string]>((res, rej) => {
      let buf = '';
      endpoint.stdout!.setEncoding('utf8').on('data', (d: string) => {
        buf += d;
        const m = /^listening (\S+) steward (\S+)$/m.exec(buf);
        if (m) res([m[1]!, m[2]!]);
      });
      endpoint.once('exit', (code) => rej(new Error(`the endpoint exited (${code}) before listening`)));
    });
  }, 60_000);
  afterAll(() => void endpoint?.kill('SIGKILL'));

  const certify = (report: string, ...extra: string[]) =>
    // the guard only keeps a hung run from hanging the suite; no assertion reads the time
    spawnSync(process.execPath, [cliPath(), 'certify', '--endpoint', url, '--endpoint-steward', steward, '--endpoint-claims', 'C8', '--report', report, ...extra], {
      cwd: ROOT,
      encoding: 'utf8',
      timeout: 300_000,
      env: { ...process.env, JCP_RECORD: '', JCP_TESTEE: '', JCP_TRANSCRIPT: '', JCP_CERT_SEED_HEX: '' },
    });

  it('says up front that claimed C8 needs it, reads NEEDS --endpoint-restart, fails, and passes once C8 is excused', { timeout: 600_000 }, () => {
    const report = join(TMP, 'bare');
    const r = certify(report);
    expect(r.status, r.stdout + r.stderr).toBe(1);
    const out = r.stdout.split('\n');
    const note = out.findIndex((l) => l.startsWith('note: without --endpoint-restart') && l.includes('jcp:C8'));
    const running = out.findIndex((l) => l.startsWith('running the tests'));
    expect(note, r.stdout).toBeGreaterThanOrEqual(0);
    expect(note).toBeLessThan(running);
    expect(r.stdout).toMatch(/^jcp:C8\s+NEEDS --endpoint-restart/m);
    expect(r.stdout).toMatch(/✗ jcp:C8 is claimed but got no verdict \(NEEDS --endpoint-restart\)/);
    const footer = readFileSync(join(report, 'record.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l) as { type: string; unexpected?: number; claimed_without_verdict?: unknown }).at(-1)!;
    expect(footer.type).toBe('footer');
    expect(footer.unexpected).toBe(1);
    expect(footer.claimed_without_verdict).toEqual([{ class: 'jcp:C8', verdict: 'NEEDS --endpoint-restart' }]);

    const exp = join(TMP, 'expectations.json');
    writeFileSync(exp, JSON.stringify({ expectations: [], without_verdict: [{ class: 'jcp:C8', reason: 'the restart test runs in the release job, which restarts the endpoint' }] }));
    const excused = certify(join(TMP, 'excused'), '--expectations', exp);
    expect(excused.status, excused.stdout + excused.stderr).toBe(0);
    expect(excused.stdout).toMatch(/jcp:C8 is claimed and got no verdict \(NEEDS --endpoint-restart\), as the expectation file expects/);
  });
});

describe('certify --endpoint with --endpoint-restart', () => {
  let port = 0;
  const pidFile = join(TMP, 'durable-endpoint.pid');
  const script = join(TMP, 'restart.sh');
  const start = () =>
    // the endpoint on its durable record, in the background; its pid kept for the next restart
    `${process.execPath} ${bundlePath('wire-main')} tcp://127.0.0.1:${port} --record ${join(TMP, 'decisions.rec')} >/dev/null 2>&1 &\necho $! > ${pidFile}\n`;
  beforeAll(async () => {
    port = await new Promise<number>((res) => {
      const s = createServer().listen(0, '127.0.0.1', () => {
        const p = (s.address() as AddressInfo).port;
        s.close(() => res(p));
      });
    });
    // until the old process is gone or a zombie (it has exited and let go of its port and record; an orphan is reaped by
    // init, which on some machines takes a second or more)
    writeFileSync(script, `#!/bin/sh\ncd ${ROOT}\nold=$(cat ${pidFile})\nkill $old\nwhile kill -0 $old 2>/dev/null && [ "$(ps -o stat= -p $old | cut -c1)" != Z ]; do sleep 0.05; done\n${start()}`);
    spawnSync('/bin/sh', ['-c', `cd ${ROOT}\n${start()}`], { stdio: 'ignore' });
    await awaitAccepting(`tcp://127.0.0.1:${port}`);
  }, 60_000);
  afterAll(() => {
    try {
      process.kill(Number(readFileSync(pidFile, 'utf8')), 'SIGKILL');
    } catch {
      // already gone
    }
  });

  const certify = (report: string, restart: string, ...extra: string[]) =>
    // the guard only keeps a hung run from hanging the suite; no assertion reads the time
    spawnSync(process.execPath, [cliPath(), 'certify', '--endpoint', `tcp://127.0.0.1:${port}`, '--endpoint-steward', keyPairFromSeed(deriveSeed('steward')).did, '--endpoint-restart', restart, '--report', report, ...extra], {
      cwd: ROOT,
      encoding: 'utf8',
      timeout: 300_000,
      env: { ...process.env, JCP_RECORD: '', JCP_TESTEE: '', JCP_TRANSCRIPT: '', JCP_CERT_SEED_HEX: '' },
    });

  it('passes C8 and C26 when the commands restart the endpoint and start a second that fails to, and fails each when they do not', { timeout: 600_000 }, () => {
    // a second endpoint on the same record, in the foreground: it must fail to start (main.ts exits 1 on a held record)
    const second = `${process.execPath} ${bundlePath('wire-main')} tcp://127.0.0.1:0 --record ${join(TMP, 'decisions.rec')}`;
    const real = certify(join(TMP, 'restarted'), `/bin/sh ${script}`, '--endpoint-claims', 'C8,C26', '--endpoint-second', second);
    expect(real.status, real.stdout + real.stderr).toBe(0);
    expect(real.stdout).toMatch(/^jcp:C8\s+PASS/m);
    expect(real.stdout).toMatch(/^jcp:C26\s+PASS/m);
    expect(real.stdout).not.toMatch(/note: without --endpoint-/);

    // a "second instance" that starts (here: exits 0) is a second writer: C26 fails on its clause
    const writer = certify(join(TMP, 'second-writer'), `/bin/sh ${script}`, '--endpoint-claims', 'C26', '--endpoint-second', 'true');
    expect(writer.status, writer.stdout + writer.stderr).toBe(1);
    expect(writer.stdout).toMatch(/^jcp:C26\s+FAIL/m);
    expect(writer.stdout).toMatch(/jcp\/4\.11#single-writer.*it started/);

    const none = certify(join(TMP, 'not-restarted'), 'true', '--endpoint-claims', 'C8');
    expect(none.status, none.stdout + none.stderr).toBe(1);
    expect(none.stdout).toMatch(/^jcp:C8\s+FAIL/m);
    const failed = readFileSync(join(TMP, 'not-restarted', 'record.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { type: string; outcome?: string; error?: string; clauses?: string[] })
      .filter((l) => l.type === 'test' && l.outcome === 'failed');
    // the tests that restart the endpoint fail, each on the stale instance, and no other
    expect(failed.length).toBeGreaterThan(0);
    // claimed C8 only: the restart tests of C8's clauses ran and failed, and each failed test is one of them
    expect([...new Set(failed.flatMap((l) => l.clauses ?? []))]).toEqual(expect.arrayContaining(['jcp/11#replay-before-new', 'jcp/11#record-before-deciding']));
    for (const l of failed) expect(l.clauses!.some((c) => (RESTART_TEST_CLAUSES as readonly string[]).includes(c)), String(l.clauses)).toBe(true);
    for (const l of failed) expect(l.error, String(l.clauses)).toMatch(/is the instance from before: a connection opened before the restart is still open/);
  });
});
