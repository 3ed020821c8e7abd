// Self-tests of a certificate verifier fed malformed certificates (harness/report/certificate.ts): every changed
// byte and every cut is refused with a CertificateError, never another throw; a kid that is not UTF-8, a `crit`
// header (RFC 9052 §3.1) and a payload missing any required field are refused, re-signed so the signature is good;
// and verify-certificate and reverify answer each with exit 3 and one line, no stack trace.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { CertificateError, developmentKey, sealCertificate, verifyCertificate, type CertificatePayload } from '../report/certificate.ts';
import { cliPath } from './cli.ts';
import { sampleCertificatePayload } from '../report/certificate-sample.ts';
import { defaultEd25519, encodeCanonical, signSign1WithHeader, type CborInput } from '../oracle.ts';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const TMP = mkdtempSync(join(tmpdir(), 'jcp-cert-malformed-'));
afterAll(() => rmSync(TMP, { recursive: true, force: true }));
const KEY = developmentKey();

const PAYLOAD: CertificatePayload = sampleCertificatePayload(KEY.did);
const GOOD = sealCertificate(PAYLOAD, KEY);

/** A COSE_Sign1 over `payload` under a protected header built from `entries`, signed by the development key. */
function resigned(payload: unknown, entries: ReadonlyArray<readonly [number, CborInput]>): Uint8Array {
  const prot = encodeCanonical(new Map<CborInput, CborInput>(entries.map(([k, v]) => [k, v])) as CborInput);
  return signSign1WithHeader(encodeCanonical(payload as CborInput), prot, KEY.seed, defaultEd25519());
}
const KID = new TextEncoder().encode(KEY.did);

function refusal(bytes: Uint8Array): string {
  try {
    verifyCertificate(bytes);
  } catch (e) {
    if (e instanceof CertificateError) return e.message;
    throw new Error(`not a CertificateError: ${String(e)}`);
  }
  throw new Error('accepted');
}

function cli(...args: string[]): { status: number; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, [cliPath(), ...args], { cwd: ROOT, encoding: 'utf8', timeout: 120_000 });
  return { status: r.status ?? -1, stdout: r.stdout, stderr: r.stderr };
}

describe('a malformed certificate', () => {
  it('is refused with a CertificateError for every flipped bit of every byte and every cut', () => {
    expect(verifyCertificate(GOOD).signer).toBe(KEY.did);
    const wrong: string[] = [];
    const check = (what: string, b: Uint8Array) => {
      try {
        refusal(b);
      } catch (e) {
        wrong.push(`${what}: ${String(e)}`);
      }
    };
    for (let i = 0; i < GOOD.length; i++) {
      for (let bit = 0; bit < 8; bit++) {
        const b = GOOD.slice();
        b[i]! ^= 1 << bit;
        check(`bit ${bit} of byte ${i} flipped`, b);
      }
    }
    for (let n = 0; n < GOOD.length; n++) check(`cut to ${n} bytes`, GOOD.subarray(0, n));
    expect(wrong).toEqual([]);
  });

  it('is refused when its kid is not UTF-8, when it has a crit header, or when it is not EdDSA', () => {
    expect(refusal(resigned(PAYLOAD, [[1, -8], [4, Uint8Array.of(0xff, 0xfe, 0x80)]]))).toMatch(/not UTF-8/);
    expect(refusal(resigned(PAYLOAD, [[1, -8], [2, [99]], [4, KID]]))).toMatch(/crit/);
    expect(refusal(resigned(PAYLOAD, [[1, -7], [4, KID]]))).toMatch(/EdDSA/);
    expect(refusal(resigned(PAYLOAD, [[1, -8], [4, new TextEncoder().encode('not a did')]]))).toMatch(/.+/);
  });

  it('is refused, naming the field, when its payload lacks a required field or holds one of the wrong type', () => {
    const required = Object.keys(PAYLOAD).filter((k) => k !== 'certificate');
    for (const field of required) {
      const { [field]: _gone, ...rest } = PAYLOAD as unknown as Record<string, unknown>;
      expect(refusal(resigned(rest, [[1, -8], [4, KID]])), field).toContain(field);
    }
    for (const [field, value] of [['seed', 'one'], ['testee', { name: 'x' }], ['verdicts', ['PASS']], ['counts', { passed: 'one' }], ['vector_packs', [{ name: 1 }]], ['complete', 'maybe'], ['transcript_root', 7]] as const) {
      expect(refusal(resigned({ ...PAYLOAD, [field]: value }, [[1, -8], [4, KID]])), field).toContain(field);
    }
    expect(refusal(resigned(['a', 'list'], [[1, -8], [4, KID]]))).toMatch(/not a map/);
  });

  it('ends verify-certificate and reverify with exit 3 and one line', () => {
    const cases: Array<[string, Uint8Array]> = [
      ['non-utf8-kid', resigned(PAYLOAD, [[1, -8], [4, Uint8Array.of(0xc3, 0x28)]])],
      ['crit', resigned(PAYLOAD, [[1, -8], [2, [4]], [4, KID]])],
      ['no-testee', resigned(Object.fromEntries(Object.entries(PAYLOAD).filter(([k]) => k !== 'testee')), [[1, -8], [4, KID]])],
    ];
    const transcript = join(TMP, 'any.jcpt');
    writeFileSync(transcript, 'not read: the certificate is refused first');
    for (const [name, bytes] of cases) {
      const path = join(TMP, `${name}.cose`);
      writeFileSync(path, bytes);
      for (const args of [['verify-certificate', path], ['reverify', path, transcript]]) {
        const r = cli(...args);
        expect(r.status, `${args[0]} ${name}: ${r.stdout}${r.stderr}`).toBe(3);
        expect(r.stderr, `${args[0]} ${name}`).toBe('');
        expect(r.stdout.split('\n').filter(Boolean), `${args[0]} ${name}`).toHaveLength(1);
      }
    }
  });
});
