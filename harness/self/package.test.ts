// The product as an adopter installs it: `npm pack` (its prepack step compiles the suite, scripts/build-package.ts),
// the tarball installed into an empty folder with production dependencies only, and there the commands the README
// gives — --version, a refused flag, class and help that run nothing, `certify --classes C1,C3 --report` with the
// shipped third-party vectors, `validate` and `certify --testee` on the shipped reference testee, and
// `verify-certificate` — each checked for its exit code and what it prints. No path into this checkout is used once
// the tarball exists, and the environment is an adopter's: none of this repository's JCP_ or vitest variables.
import { spawnSync, type SpawnSyncReturns } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifyCertificate } from '../report/certificate.ts';
import { readTestRecord } from '../report/record-reporter.ts';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const PKG = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { name: string; version: string };
const TMP = mkdtempSync(join(tmpdir(), 'jcp-package-'));
/** The adopter's project, and a folder inside it the commands run from ("from anywhere" below the install). */
const APP = join(TMP, 'app');
const WORK = join(APP, 'ci', 'job');
afterAll(() => rmSync(TMP, { recursive: true, force: true }));

/** An adopter's environment: this process's, less what this repository's own test run sets. */
function adopterEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) if (!/^(JCP_|VITEST|FC_SEED$|TEST$|NODE_OPTIONS$|npm_)/.test(k)) env[k] = v;
  return env;
}

function sh(cmd: string, args: string[], cwd: string, timeout = 300_000, env: NodeJS.ProcessEnv = adopterEnv()): SpawnSyncReturns<string> {
  // the guard only stops a hung command from hanging the suite; no assertion reads the time
  const r = spawnSync(cmd, args, { cwd, env, encoding: 'utf8', timeout, maxBuffer: 64 * 1024 * 1024 });
  if (r.error) throw r.error;
  return r;
}
const npx = (args: string[], timeout?: number): SpawnSyncReturns<string> => sh('npx', ['--no-install', 'jcp-conformance', ...args], WORK, timeout);
const tail = (r: SpawnSyncReturns<string>): string => `exit ${r.status}\n${r.stdout.slice(-3000)}\n${r.stderr.slice(-3000)}`;

let tarball = '';
beforeAll(() => {
  // the prepack step compiles the suite as a release does, less its type check: npm test's first phase type-checked
  // these same sources (scripts/build-package.ts, JCP_BUILD_NO_TYPECHECK)
  const pack = sh('npm', ['pack', '--pack-destination', TMP, '--json'], ROOT, 300_000, { ...adopterEnv(), JCP_BUILD_NO_TYPECHECK: '1' });
  if (pack.status !== 0) throw new Error(`npm pack failed: ${tail(pack)}`);
  const [info] = JSON.parse(pack.stdout.slice(pack.stdout.indexOf('['))) as Array<{ filename: string }>;
  tarball = join(TMP, info!.filename);
  mkdirSync(WORK, { recursive: true });
  writeFileSync(join(APP, 'package.json'), JSON.stringify({ name: 'adopter', version: '1.0.0', private: true }) + '\n');
  const install = sh('npm', ['install', '--omit=dev', '--no-audit', '--no-fund', '--prefer-offline', tarball], APP);
  if (install.status !== 0) throw new Error(`npm install of the tarball failed: ${tail(install)}`);
}, 600_000);

describe('the packed and installed product', () => {
  it('the tarball holds the compiled suite, its licence and notices and the vendored vectors, and none of the suite\'s own tests or TypeScript', () => {
    const list = sh('tar', ['tzf', tarball], TMP).stdout.split('\n').filter(Boolean).map((f) => f.replace(/^package\//, ''));
    for (const f of ['LICENSE', 'NOTICE', 'README.md', 'package.json', 'bin/jcp-conformance.js', 'dist/suite/harness/cli.js', 'dist/suite/harness/adapter/testee-main.js', 'dist/suite/vectors/external/SHA256SUMS', 'dist/suite/vectors/external/NOTICE']) {
      expect(list, f).toContain(f);
    }
    expect(list.filter((f) => f.endsWith('.ts'))).toEqual([]);
    expect(list.filter((f) => /(^|\/)(self|mutation|bench|scripts|\.ci|examples)\//.test(f))).toEqual([]);
    const installed = JSON.parse(readFileSync(join(APP, 'node_modules', PKG.name, 'package.json'), 'utf8')) as { private?: boolean; dependencies: Record<string, string> };
    expect(installed.private).toBeUndefined();
    // nothing at run time needs a TypeScript loader or bundler: neither was installed
    expect(existsSync(join(APP, 'node_modules', 'tsx'))).toBe(false);
    expect(existsSync(join(APP, 'node_modules', 'esbuild'))).toBe(false);
  });

  it('--version prints the version; an unknown flag or class is refused in one line (exit 2) and --help runs nothing (exit 0), none writing a certificate', () => {
    const v = npx(['--version']);
    expect(v.status, tail(v)).toBe(0);
    expect(v.stdout.trim()).toBe(`${PKG.name} ${PKG.version}`);
    for (const [args, code] of [
      [['certify', '--bogus', '--report', 'bogus'], 2],
      [['certify', '--classes', 'C99', '--report', 'c99'], 2],
      [['certify', '--help', '--report', 'help'], 0],
    ] as const) {
      const r = npx([...args]);
      expect(r.status, `${args.join(' ')}: ${tail(r)}`).toBe(code);
      if (code === 2) {
        expect(r.stderr.trim().split('\n'), args.join(' ')).toHaveLength(1);
        expect(r.stderr).not.toMatch(/\n\s+at /);
      } else expect(r.stdout).toMatch(/^usage: jcp-conformance certify/);
      expect(existsSync(join(WORK, args[3]!)), `${args.join(' ')} made a report folder`).toBe(false);
    }
  });

  it('certify --classes C1,C3 --report out: exit 0, the vendored third-party vectors ran, and verify-certificate accepts what it signed', () => {
    const r = npx(['certify', '--classes', 'C1,C3', '--report', 'out'], 600_000);
    expect(r.status, tail(r)).toBe(0);
    const { tests } = readTestRecord(join(WORK, 'out', 'record.jsonl'));
    const external = tests.filter((t) => t.file.startsWith('harness/external/'));
    // RFC 8032 and Wycheproof Ed25519 (C1), RFC 8949 CBOR (C3) among them, each passed
    expect(new Set(external.map((t) => t.file.replace(/\.test\.js$/, ''))).size).toBeGreaterThanOrEqual(3);
    expect(external.filter((t) => t.outcome !== 'passed').map((t) => `${t.id}: ${t.outcome}`)).toEqual([]);
    const cert = verifyCertificate(new Uint8Array(readFileSync(join(WORK, 'out', 'certificate.cose'))));
    expect(cert.verdicts).toEqual({ 'jcp:C1': 'PASS', 'jcp:C3': 'PASS' });
    expect(cert.complete).toBe('yes');
    expect(cert.digests['vectors/external/SHA256SUMS']).toMatch(/^[0-9a-f]{64}$/);
    expect(cert.vector_packs.length).toBeGreaterThan(0);
    const v = npx(['verify-certificate', 'out/certificate.cose']);
    expect(v.status, tail(v)).toBe(0);
    expect(v.stdout).toMatch(/^valid certificate: /);
    expect(v.stdout).toMatch(/^warning: signed by the published development key/m);
  }, 600_000);

  it('the shipped reference testee: validate finds nothing, and certify --testee passes the classes asked for (the crash test among them)', () => {
    // named by a path relative to the adopter's folder, as an adopter names their own testee: certify runs the tests
    // from the folder it was started in, not from inside the installed package
    writeFileSync(join(WORK, 'testee.sh'), 'exec npx --no-install jcp-conformance reference-testee\n');
    const testee = 'sh testee.sh';
    const v = npx(['validate', '--testee', testee], 300_000);
    expect(v.status, tail(v)).toBe(0);
    expect(v.stdout).toMatch(/^0 findings \(✗\)/m);
    const r = npx(['certify', '--testee', testee, '--classes', 'C10,C26', '--report', 'testee'], 600_000);
    expect(r.status, tail(r)).toBe(0);
    const cert = verifyCertificate(new Uint8Array(readFileSync(join(WORK, 'testee', 'certificate.cose'))));
    expect(cert.verdicts).toEqual({ 'jcp:C10': 'PASS', 'jcp:C26': 'PASS' });
    expect(cert.testee.driver).toMatch(/testee/);
    const c = npx(['verify-certificate', 'testee/certificate.cose']);
    expect(c.status, tail(c)).toBe(0);
    // nothing was written inside the installed package
    expect(readdirSync(join(APP, 'node_modules', PKG.name, 'dist', 'suite')).sort()).toEqual(['hardware-lab', 'harness', 'impl', 'package.json', 'spec-map', 'vectors']);
  }, 900_000);
});
