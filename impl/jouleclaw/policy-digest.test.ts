// Unit tests of policy_digest (impl/jouleclaw/policy-digest.ts, jouleclaw §10.1). The expected digests were derived
// by hand from §10.1's formula: each preimage below is written out part by part (ASCII tags, 8-byte big-endian counts
// and lengths, 2-byte ports) without the module under test, and its BLAKE3 was computed once, apart from this code,
// with @noble/hashes over the same hex; the literals are that result.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { toHex } from '../bytes.ts';
import { blake3 } from '../hash/blake3.ts';
import { parsePolicy } from './policy.ts';
import { policyDigest, policyDigestPreimage } from './policy-digest.ts';

const ascii = (s: string): string => Buffer.from(s, 'utf8').toString('hex');
const u64 = (n: number): string => n.toString(16).padStart(16, '0');
const u16 = (n: number): string => n.toString(16).padStart(4, '0');
const lp = (s: string): string => u64(Buffer.byteLength(s, 'utf8')) + ascii(s);

/** Policy A: one allow rule over the workspace, any agent. */
const A = { version: 1, rules: [{ name: 'read-workspace', effect: 'allow', agents: 'any', action: { kind: 'filesystem', path_glob: '/workspace/**', modes: ['read'] } }] };
const A_PREIMAGE = ascii('jouleclaw.policy/1') + u64(1) + lp('read-workspace') + ascii('allow') + ascii('agents:any') + ascii('action:filesystem') + lp('/workspace/**') + u64(1) + lp('read');
const A_DIGEST = 'd29dcb77323cc3783a3064ecc39af41a1328b1917bf71905f2cfcaa560c97a8e';

/** Policy B: a deny naming two agents (written unsorted) over ssh, then an allow of git. */
const B = {
  version: 9,
  rules: [
    { name: 'no-ssh', effect: 'deny', agents: ['agent-b', 'agent-a'], action: { kind: 'network', host_glob: '*.example.com', from: 22, to: 22, methods: ['connect'] } },
    { name: 'run-git', effect: 'allow', agents: 'any', action: { kind: 'process', binary_glob: '/usr/bin/git' } },
  ],
};
const B_PREIMAGE =
  ascii('jouleclaw.policy/1') + u64(2) +
  lp('no-ssh') + ascii('deny') + ascii('agents:one_of') + u64(2) + lp('agent-a') + lp('agent-b') +
  ascii('action:network') + lp('*.example.com') + u16(22) + u16(22) + u64(1) + lp('connect') +
  lp('run-git') + ascii('allow') + ascii('agents:any') + ascii('action:process') + lp('/usr/bin/git');
const B_DIGEST = '2a7610b128256c39b5a4000d7826446ec841708d474a445294542611a57fbf44';

describe('policy_digest (jouleclaw §10.1)', () => {
  it('builds the preimage exactly as §10.1 writes it', () => {
    expect(toHex(policyDigestPreimage(parsePolicy(A)))).toBe(A_PREIMAGE);
    expect(toHex(policyDigestPreimage(parsePolicy(B)))).toBe(B_PREIMAGE);
  });

  it('equals the hand-derived digests', () => {
    expect(toHex(blake3(Buffer.from(A_PREIMAGE, 'hex')))).toBe(A_DIGEST);
    expect(toHex(blake3(Buffer.from(B_PREIMAGE, 'hex')))).toBe(B_DIGEST);
    expect(policyDigest(parsePolicy(A))).toBe(A_DIGEST);
    expect(policyDigest(parsePolicy(B))).toBe(B_DIGEST);
  });

  it('excludes the version, sorts agents by UTF-8 bytes, keeps rule order and port ranges as written', () => {
    expect(policyDigest(parsePolicy({ ...B, version: 1 }))).toBe(B_DIGEST);
    const swapped = { ...B, rules: [B.rules[1], B.rules[0]] };
    expect(policyDigest(parsePolicy(swapped))).not.toBe(B_DIGEST);
    const reversed = { ...B, rules: [{ ...B.rules[0]!, action: { ...B.rules[0]!.action, from: 23, to: 22 } }, B.rules[1]] };
    const forward = { ...B, rules: [{ ...B.rules[0]!, action: { ...B.rules[0]!.action, from: 22, to: 23 } }, B.rules[1]] };
    expect(policyDigest(parsePolicy(reversed))).not.toBe(policyDigest(parsePolicy(forward)));
    // U+FF5E (ef bd 9e) sorts after U+1F600 (f0 9f 98 80) in UTF-16 but before it in UTF-8
    const ids = (xs: string[]) => ({ version: 1, rules: [{ name: 'r', effect: 'allow', agents: xs, action: { kind: 'process', binary_glob: 'b' } }] });
    const pre = toHex(policyDigestPreimage(parsePolicy(ids(['\u{1F600}', '\uFF5E']))));
    expect(pre).toContain(u64(3) + 'efbd9e' + u64(4) + 'f09f9880');
  });

  it('gives one digest for every ordering of an agent list', () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(fc.string({ minLength: 1, maxLength: 8 }), { minLength: 1, maxLength: 6 }).chain((xs) =>
          fc.tuple(fc.constant(xs), fc.shuffledSubarray(xs, { minLength: xs.length, maxLength: xs.length })),
        ),
        ([xs, shuffled]) => {
        const mk = (ids: string[]) => parsePolicy({ version: 1, rules: [{ name: 'r', effect: 'deny', agents: ids, action: { kind: 'process', binary_glob: '/x' } }] });
        expect(policyDigest(mk(shuffled))).toBe(policyDigest(mk(xs)));
        },
      ),
      { seed: 20260608, numRuns: 100 },
    );
  });
});
