// The command line as a user meets it (STYLE.md, "From clig.dev and well-kept Node CLIs"): help and version, an
// unknown verb, option or class refused in one line with exit 2 before anything runs, input errors in one line
// naming the file, and verify-certificate's signer line and development-key warning. None of these starts a
// certification: every refusal comes before the test runner would.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { sealCertificate, developmentKey, type CertificatePayload } from '../report/certificate.ts';
import { deriveSeed, keyPairFromSeed, type KeyPair } from '../oracle.ts';
import { parseVerb, verbHelp, VERBS } from '../commands/options.ts';
import { parseClassList } from '../commands/classes.ts';
import { CliError } from '../commands/errors.ts';
import { whyNoCertificate } from '../commands/conclude.ts';
import { cliPath } from './cli.ts';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const TMP = mkdtempSync(join(tmpdir(), 'jcp-cli-'));
afterAll(() => rmSync(TMP, { recursive: true, force: true }));
const PKG = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string };

interface Ran {
  readonly status: number;
  readonly stdout: string;
  readonly stderr: string;
}

function cli(...args: string[]): Ran {
  return cliWith({}, ...args);
}

/** {@link cli} with some variables of the environment set. */
function cliWith(vars: Readonly<Record<string, string>>, ...args: string[]): Ran {
  // the guard only stops a run that should have been refused from hanging the suite; no assertion reads the time
  const r = spawnSync(process.execPath, [cliPath(), ...args], {
    cwd: ROOT,
    encoding: 'utf8',
    timeout: 120_000,
    env: { ...process.env, JCP_RECORD: '', JCP_TESTEE: '', JCP_TRANSCRIPT: '', JCP_CERT_SEED_HEX: '', ...vars },
  });
  return { status: r.status ?? -1, stdout: r.stdout, stderr: r.stderr };
}

/** A refusal: exit 2, nothing on stdout, one line on stderr in the CLI's own voice, no stack trace. */
function expectOneLine(r: Ran, code = 2): string {
  expect(r.status, r.stdout + r.stderr).toBe(code);
  expect(r.stdout).toBe('');
  const lines = r.stderr.split('\n').filter(Boolean);
  expect(lines, r.stderr).toHaveLength(1);
  expect(lines[0]).toMatch(/^jcp-conformance: /);
  expect(r.stderr).not.toMatch(/\n\s+at /);
  return lines[0]!;
}

function sealedBy(key: KeyPair): Uint8Array {
  // a hand-made payload: verify-certificate checks the envelope, the signature and the signer, not the verdicts
  const p = {
    certificate: 'jcp-conformance-certificate/1',
    suite: `jcp-conformance ${PKG.version}`,
    protocol: 'test',
    testee: { name: 'made in process', version: '0', driver: 'none', claims: [] },
    digests: {},
    vector_packs: [],
    record_digest: '00',
    seed: 1,
    verdicts: {},
    counts: {},
    unexpected: 0,
    issued_s: 1_800_000_000,
    signer: key.did,
  } as unknown as CertificatePayload;
  return sealCertificate(p, key);
}

describe('help and version', () => {
  it('--version and the version verb print the package version', () => {
    for (const args of [['--version'], ['version']]) {
      const r = cli(...args);
      expect(r.status, r.stderr).toBe(0);
      expect(r.stdout.trim()).toBe(`jcp-conformance ${PKG.version}`);
    }
  });

  it('no arguments and help print the overall usage, listing every verb', () => {
    for (const args of [[], ['help'], ['--help']]) {
      const r = cli(...args);
      expect(r.status, r.stderr).toBe(0);
      expect(r.stdout).toMatch(/^usage: jcp-conformance <verb>/);
      for (const v of VERBS) expect(r.stdout).toContain(`  ${v.name} `);
    }
  });

  it('certify --help prints its usage and exit codes, runs nothing and creates no report folder', () => {
    const report = join(TMP, 'help-report');
    for (const h of ['--help', '-h']) {
      const r = cli('certify', '--report', report, h);
      expect(r.status, r.stderr).toBe(0);
      expect(r.stdout).toMatch(/^usage: jcp-conformance certify/);
      expect(r.stdout).toContain('--classes <list>');
      expect(r.stdout).toMatch(/Exit codes:[\s\S]*\n {2}3 /);
      expect(r.stdout).not.toContain('certifying');
      expect(existsSync(report)).toBe(false);
    }
  });

  it('interop --help prints its usage', () => {
    const r = cli('interop', '--help');
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^usage: jcp-conformance interop/);
    expect(r.stdout).toContain('--testee <command>');
    expect(r.stdout).toContain('(repeatable)');
  });

  it("every verb's help lists every option of its table, and ends with the exit codes", () => {
    for (const v of VERBS) {
      const text = verbHelp(v.name);
      for (const o of v.options) expect(text, `${v.name} --${o.name}`).toContain(`--${o.name}`);
      expect(text.trimEnd().split('\n').at(-1), v.name).toMatch(/^ {2}3 /);
    }
  });
});

describe('refusals before anything runs', () => {
  it('an unknown option is one line, exit 2, and nothing is written', () => {
    const report = join(TMP, 'bogus');
    const line = expectOneLine(cli('certify', '--bogus', '--report', report));
    expect(line).toContain('unknown option --bogus');
    expect(existsSync(report)).toBe(false);
  });

  it('a misspelt option names the nearest known one', () => {
    const line = expectOneLine(cli('certify', '--clases', 'C1'));
    expect(line).toBe('jcp-conformance: unknown option --clases (did you mean --classes?)');
    expect(expectOneLine(cli('interop', '--reference', '--testes', 'x'))).toContain('(did you mean --testee?)');
  });

  it('an unknown class is refused in one line listing the valid ones, and no certificate is written', () => {
    const report = join(TMP, 'c99');
    const line = expectOneLine(cli('certify', '--classes', 'C99', '--report', report));
    expect(line).toContain('C99');
    expect(line).toContain('jcp:C1…C26');
    expect(existsSync(join(report, 'certificate.cose'))).toBe(false);
    expect(existsSync(report)).toBe(false);
  });

  it('an unknown verb is one line, exit 2', () => {
    expect(expectOneLine(cli('nonsense-verb'))).toContain('unknown verb nonsense-verb');
    expect(expectOneLine(cli('certfy'))).toContain('(did you mean certify?)');
  });

  it('a numeric option that is no number is one line, exit 2', () => {
    expect(expectOneLine(cli('certify', '--seed', 'abc'))).toContain('--seed must be an integer');
    expect(expectOneLine(cli('certify', '--timeout', '0'))).toContain('--timeout must be a positive integer');
    expect(expectOneLine(cli('interop', '--reference', '--timeout', 'soon'))).toContain('--timeout');
  });

  it('a missing or extra argument is one line, exit 2', () => {
    expect(expectOneLine(cli('verify-certificate'))).toContain('<certificate>');
    expect(expectOneLine(cli('certify', 'stray'))).toContain('"stray"');
    expect(expectOneLine(cli('reverify', 'one'))).toContain('<transcript>');
  });

  it("a bad value of the runner's variables (JCP_WORKERS, JCP_MODULE_CACHE) is one line, exit 2, and nothing is written", () => {
    for (const [name, value, says] of [
      ['JCP_WORKERS', '0', 'JCP_WORKERS must be a whole number of at least 1'],
      ['JCP_MODULE_CACHE', 'relative/cache', 'JCP_MODULE_CACHE must be an absolute path'],
    ] as const) {
      const report = join(TMP, `bad-${name}`);
      expect(expectOneLine(cliWith({ [name]: value }, 'certify', '--classes', 'C10', '--report', report))).toContain(says);
      expect(existsSync(report)).toBe(false);
    }
  });
});

describe('input errors: one line naming the file', () => {
  it('verify-certificate of a missing file', () => {
    expect(expectOneLine(cli('verify-certificate', '/nonexistent'))).toContain('/nonexistent');
  });

  it('replay of a missing case file, and reverify of a missing certificate', () => {
    expect(expectOneLine(cli('replay', join(TMP, 'no-case.json')))).toContain('no-case.json');
    expect(expectOneLine(cli('reverify', join(TMP, 'no.cose'), join(TMP, 'no.jcpt')))).toContain('no.cose');
  });

  it('an expectation file that is not JSON, or not of the expected shape', () => {
    const bad = join(TMP, 'bad-expectations.json');
    writeFileSync(bad, '{ "expectations": [ oops');
    const report = join(TMP, 'bad-exp-report');
    const line = expectOneLine(cli('certify', '--expectations', bad, '--report', report));
    expect(line).toContain(bad);
    expect(line).toContain('not JSON');
    expect(existsSync(report)).toBe(false);
    const shape = join(TMP, 'shape-expectations.json');
    writeFileSync(shape, JSON.stringify({ expectations: [null] }));
    expect(expectOneLine(cli('certify', '--expectations', shape))).toContain(shape);
    expect(expectOneLine(cli('certify', '--expectations', join(TMP, 'absent.json')))).toContain('absent.json');
  });

  it('a --report path under a regular file', () => {
    const file = join(TMP, 'a-file');
    writeFileSync(file, 'not a folder');
    const line = expectOneLine(cli('certify', '--report', join(file, 'sub')));
    expect(line).toContain(file);
    expect(expectOneLine(cli('certify', '--report', file))).toContain('is a file');
    expect(readFileSync(file, 'utf8')).toBe('not a folder');
  });

  it('a --transcript folder that exists and is not empty is refused, and nothing in it is touched', () => {
    const dir = join(TMP, 'used-transcript');
    mkdirSync(join(dir, 'streams'), { recursive: true });
    writeFileSync(join(dir, 'streams', 'mine.jcps'), 'keep me');
    writeFileSync(join(dir, 'notes.txt'), 'keep me too');
    const line = expectOneLine(cli('certify', '--report', join(TMP, 'tr-report'), '--transcript', dir));
    expect(line).toContain(dir);
    expect(line).toContain('not empty');
    expect(readdirSync(dir).sort()).toEqual(['notes.txt', 'streams']);
    expect(readFileSync(join(dir, 'streams', 'mine.jcps'), 'utf8')).toBe('keep me');
  });
});

describe('report --html: refusals, one line each', () => {
  it('refuses a missing folder argument or a missing --html, and a folder that is missing, a file, or holds no results', () => {
    expect(expectOneLine(cli('report', '--html'))).toContain('<report-dir>');
    expect(expectOneLine(cli('report', TMP))).toContain('--html');
    expect(expectOneLine(cli('report', '--html', TMP, 'stray'))).toContain('"stray"');
    expect(expectOneLine(cli('report', '--html', join(TMP, 'no-such-report')))).toContain('no such folder');
    const file = join(TMP, 'a-report-file');
    writeFileSync(file, 'not a folder');
    expect(expectOneLine(cli('report', '--html', file))).toContain('is a file');
    const bare = join(TMP, 'bare-report');
    mkdirSync(bare);
    expect(expectOneLine(cli('report', '--html', bare))).toContain('no allure-results folder');
    mkdirSync(join(bare, 'allure-results'));
    writeFileSync(join(bare, 'allure-results', 'environment.properties'), 'seed = 1\n');
    expect(expectOneLine(cli('report', '--html', bare))).toContain('holds no test result');
    // nothing was rendered for a refused folder
    expect(existsSync(join(bare, 'allure-report'))).toBe(false);
  });
});

describe('a certificate claims only what ran', () => {
  it('is refused a run with no test, an incomplete run, and a run that left a requested class untested', () => {
    const c1 = { classes: ['jcp:C1'] };
    expect(whyNoCertificate(undefined, [c1], true)).toEqual([]);
    expect(whyNoCertificate(['jcp:C1'], [c1], true)).toEqual([]);
    expect(whyNoCertificate(undefined, [], true)).toEqual(['no test ran']);
    expect(whyNoCertificate(['jcp:C1'], [], true)).toEqual(['no test ran']);
    expect(whyNoCertificate(undefined, [c1], false)).toEqual(['the run did not complete']);
    expect(whyNoCertificate(['jcp:C1', 'jcp:C2'], [c1], true)).toEqual(['no test ran for the requested class(es) jcp:C2']);
  });

  it('a testee that fails the handshake gets a record and no certificate; a stale one in the folder is removed, nothing else', () => {
    const report = join(TMP, 'no-handshake');
    mkdirSync(report, { recursive: true });
    writeFileSync(join(report, 'certificate.cose'), 'an earlier run\'s');
    writeFileSync(join(report, 'mine.txt'), 'keep me');
    // `false` exits at once: the handshake fails before any test could run
    const r = cli('certify', '--testee', 'false', '--report', report);
    expect(r.status, r.stdout + r.stderr).toBe(1);
    expect(r.stdout).toContain('no certificate');
    expect(r.stdout).toContain(`removed ${join(report, 'certificate.cose')}`);
    expect(existsSync(join(report, 'certificate.cose'))).toBe(false);
    expect(readFileSync(join(report, 'mine.txt'), 'utf8')).toBe('keep me');
    const record = readFileSync(join(report, 'record.jsonl'), 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as { type: string; complete?: boolean });
    expect(record.map((l) => l.type)).toEqual(['header', 'handshake', 'no-certificate', 'footer']);
    expect(record.at(-1)!.complete).toBe(false);
  });
});

describe('verify-certificate', () => {
  it('prints the signer on its own line and warns of the published development key', () => {
    const path = join(TMP, 'dev.cose');
    const dev = developmentKey();
    writeFileSync(path, sealedBy(dev));
    const r = cli('verify-certificate', path);
    expect(r.status, r.stdout + r.stderr).toBe(0);
    const lines = r.stdout.split('\n');
    expect(lines).toContain(`signer: ${dev.did}`);
    expect(lines.some((l) => /^warning: signed by the published development key/.test(l))).toBe(true);
  });

  it('gives no warning for another key', () => {
    const path = join(TMP, 'own.cose');
    const own = keyPairFromSeed(deriveSeed('cli test: an adopter certifying key'));
    writeFileSync(path, sealedBy(own));
    const r = cli('verify-certificate', path);
    expect(r.status, r.stdout + r.stderr).toBe(0);
    expect(r.stdout.split('\n')).toContain(`signer: ${own.did}`);
    expect(r.stdout).not.toContain('development key');
  });

  it('refuses a changed certificate, or one of another signer than --signer, with exit 3', () => {
    const good = sealedBy(developmentKey());
    const bad = good.slice();
    bad[bad.length - 1]! ^= 0x01;
    const path = join(TMP, 'changed.cose');
    writeFileSync(path, bad);
    const r = cli('verify-certificate', path);
    expect(r.status, r.stdout + r.stderr).toBe(3);
    expect(r.stdout).toMatch(/^invalid certificate: /);
    const ok = join(TMP, 'dev-again.cose');
    writeFileSync(ok, good);
    const other = keyPairFromSeed(deriveSeed('cli test: someone else')).did;
    expect(cli('verify-certificate', ok, '--signer', other).status).toBe(3);
    const garbage = join(TMP, 'garbage.cose');
    writeFileSync(garbage, 'not a certificate at all');
    expect(cli('verify-certificate', garbage).status).toBe(3);
  });
});

describe('the option tables, in process', () => {
  it('keeps repeated --testee and --reference in order, and --transcript with or without a folder', () => {
    const p = parseVerb('interop', ['--testee', 'a b', '--reference', '--testee=c']);
    expect(p.given.map((g) => g.value ?? g.name)).toEqual(['a b', 'reference', 'c']);
    expect(parseVerb('certify', ['--transcript', 'dir']).given).toEqual([{ name: 'transcript', value: 'dir' }]);
    expect(parseVerb('certify', ['--transcript', '--classes', 'C1']).given).toEqual([{ name: 'transcript' }, { name: 'classes', value: 'C1' }]);
  });

  it('refuses a value to a switch, a repeated single option, a missing value, and a value that is an option', () => {
    for (const bad of [['--deep=yes'], ['--seed', '1', '--seed', '2'], ['--report'], ['--report', '--classes', 'C1'], ['-x']]) {
      expect(() => parseVerb('certify', bad), JSON.stringify(bad)).toThrow(CliError);
    }
  });

  it('reads bare class ids as jcp:, keeps prefixed ones, and refuses an unknown or empty one', () => {
    expect(parseClassList('C1,sense:C2,C-neg,jouleclaw:C-TLOG')).toEqual(['jcp:C1', 'sense:C2', 'jcp:C-neg', 'jouleclaw:C-TLOG']);
    for (const bad of ['C99', 'sense:C9', 'C1,,C2', 'C27', 'jcp:C0']) expect(() => parseClassList(bad), bad).toThrow(CliError);
  });
});
