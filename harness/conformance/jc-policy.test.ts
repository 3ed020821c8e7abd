// JouleClaw agent identity (§8), policy engine (§9), policy_digest (§10.1) and the policy/1 receipt (§10), through the
// implementation under test. The clauses belong to no conformance class yet, so clauseIt runs these tests against every
// implementation (harness/clause.ts skips a test as "not claimed" only when its clauses name classes).
//
// The expected digests are not taken from the reference: each preimage is written out below part by part from §10.1's
// formula (ASCII tags, 8-byte big-endian lengths and counts, 2-byte big-endian ports), hashed with BLAKE3, and the two
// hand-traced digests are also pinned as hex literals. Readings of §10.1 this depends on (every `len` and the bare
// `count` are 8 bytes BE; ids sorted by UTF-8 bytes) are stated in impl/jouleclaw/policy-digest.ts's header.
import fc from 'fast-check';
import { describe, expect } from 'vitest';
import { clauseIt } from '../clause.ts';
import { expectRefusedAs } from '../contract-codes.ts';
import { implementation } from '../driver.ts';
import { fcParams } from '../external-vectors.ts';
import { alice, bob, mallory, steward } from '../fixtures.ts';
import type { JcPolicyFields, JcPolicyReceiptFields } from '../implementation.ts';
import { assertProperty, codeOf, expectCode } from '../refusal.ts';
import {
  blake3,
  decodeCanonical,
  decodeSign1,
  defaultEd25519,
  encodeCanonical,
  protectedHeaderBytes,
  signSign1,
  toHex,
  verifySign1,
  type CborValue,
} from '../oracle.ts';

const HANDLE = 'jouleclaw/8#verify-handle-matches-key';
const DENY_DEFAULT = 'jouleclaw/9#engine-deny-by-default';
const AUDIT = 'jouleclaw/9#audit-event-per-evaluation';
const NON_INCREASING = 'jouleclaw/10.1#refuse-non-increasing-install';
const MAY_DIGEST = 'jouleclaw/10.1#may-carry-policy-digest';
const AS_SPECIFIED = 'jouleclaw/10.1#digest-computed-as-specified';
const AGENT_ORDER = 'jouleclaw/10.1#agent-order-same-digest';
const IN_FORCE = 'jouleclaw/10.1#digest-in-force-at-decision';
const RECORD_DIGEST = 'jouleclaw/10.1#record-digest-on-audit-event';
const OMITTED = 'jouleclaw/10.1#absent-digest-omitted';
const PRESENCE = 'jouleclaw/10.1#consumer-checks-digest-presence';

const utf8 = new TextEncoder();

// ---- §10.1 preimages written out by hand ----
const ascii = (s: string): string => toHex(utf8.encode(s));
const u64 = (n: number): string => n.toString(16).padStart(16, '0');
const u16 = (n: number): string => n.toString(16).padStart(4, '0');
const lp = (s: string): string => u64(utf8.encode(s).length) + ascii(s);
const b3hex = (hex: string): string => toHex(blake3(Uint8Array.from(Buffer.from(hex, 'hex'))));

/** Policy A: one allow rule over the workspace, any agent. */
const A: JcPolicyFields = { version: 1n, rules: [{ name: 'read-workspace', effect: 'allow', agents: 'any', action: { kind: 'filesystem', path_glob: '/workspace/**', modes: ['read'] } }] };
const A_PREIMAGE = ascii('jouleclaw.policy/1') + u64(1) + lp('read-workspace') + ascii('allow') + ascii('agents:any') + ascii('action:filesystem') + lp('/workspace/**') + u64(1) + lp('read');
const A_DIGEST = 'd29dcb77323cc3783a3064ecc39af41a1328b1917bf71905f2cfcaa560c97a8e';

/** Policy B: a deny naming two agents (written unsorted) over ssh, then an allow of git. */
const sshRule = (agents: readonly string[], from = 22, to = 22) =>
  ({ name: 'no-ssh', effect: 'deny', agents, action: { kind: 'network', host_glob: '*.example.com', from, to, methods: ['connect'] } }) as const;
const gitRule = { name: 'run-git', effect: 'allow', agents: 'any', action: { kind: 'process', binary_glob: '/usr/bin/git' } } as const;
const B: JcPolicyFields = { version: 9n, rules: [sshRule(['agent-b', 'agent-a']), gitRule] };
const bPreimage = (from: number, to: number, rulesSwapped = false): string => {
  const ssh = lp('no-ssh') + ascii('deny') + ascii('agents:one_of') + u64(2) + lp('agent-a') + lp('agent-b') +
    ascii('action:network') + lp('*.example.com') + u16(from) + u16(to) + u64(1) + lp('connect');
  const git = lp('run-git') + ascii('allow') + ascii('agents:any') + ascii('action:process') + lp('/usr/bin/git');
  return ascii('jouleclaw.policy/1') + u64(2) + (rulesSwapped ? git + ssh : ssh + git);
};
const B_DIGEST = '2a7610b128256c39b5a4000d7826446ec841708d474a445294542611a57fbf44';

// ---- actions and receipts ----
const READ_X = { kind: 'filesystem', path: '/workspace/x', mode: 'read' } as const;
const RECEIPT_ID = '0f8fad5b-d9cb-469f-a165-70867728950e';
const CLOSED_AT = '2026-06-08T12:00:00Z';
const NO_ALLOW = { kind: 'deny', reason: 'no_matching_allow' };

function receiptFields(over: Partial<JcPolicyReceiptFields> = {}): JcPolicyReceiptFields {
  return { id: RECEIPT_ID, closed_at: CLOSED_AT, engine_id: 'engine-A', audit_sequence: 7n, policy_version: 2n, agent: bob.did, action: READ_X, decision: { kind: 'allow', rule: 'read-workspace' }, ...over };
}

/** The signed core of a sealed receipt, decoded (a Map). */
function coreOf(receipt: Uint8Array): Map<CborValue, CborValue> {
  return decodeCanonical(decodeSign1(receipt).payload) as Map<CborValue, CborValue>;
}

/** The events of a jc.policy-evaluate run, one per evaluate step. */
function eventsOf(results: Record<string, unknown>[]): Record<string, unknown>[] {
  return results.filter((r) => 'event' in r).map((r) => r['event'] as Record<string, unknown>);
}

describe('agent identity (jouleclaw §8)', () => {
  clauseIt([HANDLE], 'a handle that is not the did:key of its public key is refused before any signed material is accepted', async () => {
    const impl = implementation();
    const msg = utf8.encode('an action request');
    const sig = defaultEd25519().sign(alice.seed, msg);
    expect(await impl.jcAgentCheck(alice.did, alice.publicKey)).toBe('valid');
    expect(await impl.jcAgentCheck(alice.did, alice.publicKey, msg, sig)).toBe('valid');
    expect(await impl.jcAgentCheck(alice.did, alice.publicKey, utf8.encode('another'), sig)).toBe('invalid');
    await expectCode(impl.jcAgentCheck(bob.did, alice.publicKey), 'ERR_AGENT_HANDLE_MISMATCH');
    // alice's key and alice's valid signature, under bob's handle: the signature must not be what decides
    await expectCode(impl.jcAgentCheck(bob.did, alice.publicKey, msg, sig), 'ERR_AGENT_HANDLE_MISMATCH');
  });

  clauseIt([HANDLE], 'every key is accepted under its own did:key and refused under another key\'s (property)', async () => {
    const impl = implementation();
    const seeds = fc.tuple(fc.uint8Array({ minLength: 32, maxLength: 32 }), fc.uint8Array({ minLength: 32, maxLength: 32 })).filter(([x, y]) => toHex(x) !== toHex(y));
    await assertProperty(
      fc.asyncProperty(seeds, async ([s1, s2]) => {
        const k1 = await impl.fromSeed(s1);
        const k2 = await impl.fromSeed(s2);
        expect(await impl.jcAgentCheck(k1.did, k1.public_key)).toBe('valid');
        await expectCode(impl.jcAgentCheck(k2.did, k1.public_key), 'ERR_AGENT_HANDLE_MISMATCH');
      }),
      fcParams(25),
    );
  });

  clauseIt(['jouleclaw/10.1#reject-kid-not-steward', HANDLE], 'a policy receipt whose kid disagrees with its embedded steward is rejected', async () => {
    const impl = implementation();
    const sealed = await impl.jcPolicyReceipt(steward.seed, receiptFields());
    const payload = decodeSign1(sealed).payload;
    // the same core, re-signed by mallory under mallory's kid: signature valid for the kid, but kid ≠ steward
    const underMalloryKid = signSign1(payload, utf8.encode(mallory.did), mallory.seed, defaultEd25519());
    await expectCode(impl.jcVerifyPolicyReceipt(underMalloryKid), 'ERR_RECEIPT_STEWARD_MISMATCH');
    // kid = steward, but signed by mallory: the steward handle's own key does not verify it
    const forged = signSign1(payload, utf8.encode(steward.did), mallory.seed, defaultEd25519());
    await expectCode(impl.jcVerifyPolicyReceipt(forged), 'ERR_RECEIPT_SIGNATURE_INVALID');
    expect((await impl.jcVerifyPolicyReceipt(sealed, { steward: steward.did }))['steward']).toBe(steward.did);
  });
});

describe('policy engine (jouleclaw §9)', () => {
  clauseIt([DENY_DEFAULT], 'with no matching Allow every action is denied, at filesystem, network and process granularity', async () => {
    const impl = implementation();
    const net = { kind: 'network', host: 'api.example.com', port: 443, method: 'get' } as const;
    const proc = { kind: 'process', binary: '/usr/bin/git', argv: ['status'] } as const;
    const empty = await impl.jcPolicyEvaluate('engine-A', [{ evaluate: { agent: bob.did, action: READ_X } }, { evaluate: { agent: bob.did, action: net } }, { evaluate: { agent: bob.did, action: proc } }]);
    expect(eventsOf(empty.results).map((e) => e['decision'])).toEqual([NO_ALLOW, NO_ALLOW, NO_ALLOW]);
    // an allow of one kind covers no other kind, another mode, another port or another agent
    const p: JcPolicyFields = {
      version: 1n,
      rules: [
        { name: 'read-workspace', effect: 'allow', agents: [alice.did], action: { kind: 'filesystem', path_glob: '/workspace/**', modes: ['read'] } },
        { name: 'https', effect: 'allow', agents: 'any', action: { kind: 'network', host_glob: '*.example.com', from: 443, to: 443, methods: ['get'] } },
      ],
    };
    const r = await impl.jcPolicyEvaluate('engine-A', [
      { evaluate: { agent: alice.did, action: READ_X } },
      { evaluate: { agent: bob.did, action: READ_X } },
      { evaluate: { agent: alice.did, action: { ...READ_X, mode: 'write' } } },
      { evaluate: { agent: alice.did, action: net } },
      { evaluate: { agent: alice.did, action: { ...net, port: 444 } } },
      { evaluate: { agent: alice.did, action: proc } },
    ], { policy: p });
    expect(eventsOf(r.results).map((e) => e['decision'])).toEqual([
      { kind: 'allow', rule: 'read-workspace' },
      NO_ALLOW,
      NO_ALLOW,
      { kind: 'allow', rule: 'https' },
      NO_ALLOW,
      NO_ALLOW,
    ]);
  });

  clauseIt([DENY_DEFAULT], 'explicit Deny rules short-circuit before any Allow, and the first matching Allow wins', async () => {
    const impl = implementation();
    const allowWs = { name: 'read-workspace', effect: 'allow', agents: 'any', action: { kind: 'filesystem', path_glob: '/workspace/**', modes: ['read'] } } as const;
    const allowAll = { name: 'read-all', effect: 'allow', agents: 'any', action: { kind: 'filesystem', path_glob: '/**', modes: ['read'] } } as const;
    const denyX = { name: 'no-x', effect: 'deny', agents: [bob.did], action: { kind: 'filesystem', path_glob: '/workspace/x', modes: ['read'] } } as const;
    const decide = async (rules: JcPolicyFields['rules'], agent: string) =>
      eventsOf((await impl.jcPolicyEvaluate('engine-A', [{ evaluate: { agent, action: READ_X } }], { policy: { version: 1n, rules } })).results)[0]!['decision'];
    // the deny is listed after the allow and still decides
    expect(await decide([allowWs, denyX], bob.did)).toEqual({ kind: 'deny', reason: 'explicit_deny', rule: 'no-x' });
    expect(await decide([allowWs, denyX], alice.did)).toEqual({ kind: 'allow', rule: 'read-workspace' });
    expect(await decide([allowWs, allowAll], alice.did)).toEqual({ kind: 'allow', rule: 'read-workspace' });
    expect(await decide([allowAll, allowWs], alice.did)).toEqual({ kind: 'allow', rule: 'read-all' });
  });

  clauseIt([DENY_DEFAULT], 'a reversed port range matches nothing', async () => {
    const impl = implementation();
    const rule = (from: number, to: number) => ({ name: 'ports', effect: 'allow', agents: 'any', action: { kind: 'network', host_glob: 'h', from, to, methods: ['get'] } }) as const;
    const at = async (from: number, to: number, port: number) =>
      eventsOf((await impl.jcPolicyEvaluate('e', [{ evaluate: { agent: bob.did, action: { kind: 'network', host: 'h', port, method: 'get' } } }], { policy: { version: 1n, rules: [rule(from, to)] } })).results)[0]!['decision'];
    expect(await at(400, 500, 443)).toEqual({ kind: 'allow', rule: 'ports' });
    expect(await at(500, 400, 443)).toEqual(NO_ALLOW);
    expect(await at(443, 443, 443)).toEqual({ kind: 'allow', rule: 'ports' });
  });

  clauseIt([DENY_DEFAULT], 'a policy of Deny rules only never allows anything (property)', async () => {
    const impl = implementation();
    const ruleArb = fc.record({
      name: fc.constantFrom('d1', 'd2', 'd3'),
      effect: fc.constant('deny' as const),
      agents: fc.constantFrom<'any' | readonly string[]>('any', [bob.did], [alice.did, bob.did]),
      action: fc.constantFrom(
        { kind: 'filesystem', path_glob: '/**', modes: ['read', 'write'] },
        { kind: 'network', host_glob: '**', from: 0, to: 65535, methods: ['get'] },
        { kind: 'process', binary_glob: '/**' },
      ),
    });
    const actionArb = fc.constantFrom(READ_X, { kind: 'network', host: 'a.b', port: 80, method: 'get' }, { kind: 'process', binary: '/bin/sh', argv: [] });
    await assertProperty(
      fc.asyncProperty(fc.array(ruleArb, { maxLength: 4 }), actionArb, async (rules, action) => {
        const r = await impl.jcPolicyEvaluate('e', [{ evaluate: { agent: bob.did, action } }], { policy: { version: 1n, rules } });
        expect(eventsOf(r.results)[0]!['decision']).toMatchObject({ kind: 'deny' });
      }),
      fcParams(25),
    );
  });

  clauseIt([AUDIT, RECORD_DIGEST], 'every evaluation records one AuditEvent with a monotonic sequence, the version and the digest in force', async () => {
    const impl = implementation();
    const A2: JcPolicyFields = { ...B, version: 2n };
    const r = await impl.jcPolicyEvaluate('engine-A', [
      { evaluate: { agent: bob.did, action: READ_X } },
      { install: A },
      { evaluate: { agent: bob.did, action: READ_X } },
      { evaluate: { agent: alice.did, action: { ...READ_X, mode: 'write' } } },
      { install: A },
      { install: A2 },
      { evaluate: { agent: bob.did, action: READ_X } },
    ]);
    const events = eventsOf(r.results);
    expect(r.audit).toHaveLength(4);
    expect(r.audit).toEqual(events);
    const seqs = r.audit.map((e) => e['sequence'] as bigint);
    for (let i = 1; i < seqs.length; i++) expect(seqs[i]! > seqs[i - 1]!).toBe(true);
    expect(r.audit.map((e) => e['policy_version'])).toEqual([0n, 1n, 1n, 2n]);
    expect(r.audit.map((e) => e['agent'])).toEqual([bob.did, bob.did, alice.did, bob.did]);
    expect(r.audit[1]!['action']).toEqual({ kind: 'filesystem', path: '/workspace/x', mode: 'read' });
    expect(r.audit.map((e) => e['decision'])).toEqual([NO_ALLOW, { kind: 'allow', rule: 'read-workspace' }, NO_ALLOW, NO_ALLOW]);
    // §10.1 SHOULD: the digest recorded on the event is the one in force when it was decided
    expect(r.audit.slice(1).map((e) => e['policy_digest'])).toEqual([A_DIGEST, A_DIGEST, b3hex(bPreimage(22, 22))]);
  });

  clauseIt([NON_INCREASING], 'an install whose version is not greater than the installed one is refused and changes nothing', async () => {
    const impl = implementation();
    const empty3: JcPolicyFields = { version: 3n, rules: [] };
    const r = await impl.jcPolicyEvaluate('e', [
      { install: { ...A, version: 3n } },
      { install: empty3 },
      { install: { ...empty3, version: 2n } },
      { evaluate: { agent: bob.did, action: READ_X } },
      { install: { ...empty3, version: 4n } },
      { evaluate: { agent: bob.did, action: READ_X } },
    ], { policy: A });
    expect(r.results[0]).toEqual({ installed: 3n });
    // versions 3 and 2 over 3: each refused (spec), the suite's code for it ERR_POLICY_VERSION_NOT_INCREASING (byte contract)
    for (const [i, version] of [[1, 3], [2, 2]] as const) {
      const step = r.results[i] ?? {};
      expect(Object.keys(step), `an install of version ${version} over version 3: refused`).toEqual(['refused']);
      expectRefusedAs(String(step['refused']), 'ERR_POLICY_VERSION_NOT_INCREASING', `an install of version ${version} over version 3`);
    }
    expect(eventsOf(r.results).map((e) => [e['policy_version'], e['decision']])).toEqual([
      [3n, { kind: 'allow', rule: 'read-workspace' }],
      [4n, NO_ALLOW],
    ]);
  });
});

describe('policy_digest (jouleclaw §10.1)', () => {
  clauseIt([AS_SPECIFIED], 'the digest is BLAKE3 of the §10.1 preimage, byte for byte (two hand-traced policies)', async () => {
    const impl = implementation();
    // the pinned literals are the BLAKE3 of the hand-written preimages
    expect(b3hex(A_PREIMAGE)).toBe(A_DIGEST);
    expect(b3hex(bPreimage(22, 22))).toBe(B_DIGEST);
    expect(await impl.jcPolicyDigest(A)).toBe(A_DIGEST);
    expect(await impl.jcPolicyDigest(B)).toBe(B_DIGEST);
  });

  clauseIt([AS_SPECIFIED], 'rule order is hashed, the version is not, a port range is hashed as written', async () => {
    const impl = implementation();
    const swapped: JcPolicyFields = { version: 9n, rules: [gitRule, sshRule(['agent-b', 'agent-a'])] };
    expect(await impl.jcPolicyDigest(swapped)).toBe(b3hex(bPreimage(22, 22, true)));
    expect(await impl.jcPolicyDigest(swapped)).not.toBe(B_DIGEST);
    expect(await impl.jcPolicyDigest({ ...B, version: 1n })).toBe(B_DIGEST);
    const reversed = await impl.jcPolicyDigest({ version: 1n, rules: [sshRule(['agent-a', 'agent-b'], 23, 22), gitRule] });
    const forward = await impl.jcPolicyDigest({ version: 1n, rules: [sshRule(['agent-a', 'agent-b'], 22, 23), gitRule] });
    expect(reversed).toBe(b3hex(bPreimage(23, 22)));
    expect(forward).toBe(b3hex(bPreimage(22, 23)));
    expect(reversed).not.toBe(forward);
  });

  clauseIt([AGENT_ORDER], 'two policies differing only in agent order share a digest', async () => {
    const impl = implementation();
    const ab = await impl.jcPolicyDigest({ version: 1n, rules: [sshRule(['agent-a', 'agent-b']), gitRule] });
    const ba = await impl.jcPolicyDigest({ version: 1n, rules: [sshRule(['agent-b', 'agent-a']), gitRule] });
    expect(ab).toBe(B_DIGEST);
    expect(ba).toBe(ab);
  });

  clauseIt([AGENT_ORDER], 'any permutation of an agents:one_of list gives the digest of its sorted list (property)', async () => {
    const impl = implementation();
    const ids = fc.uniqueArray(fc.stringMatching(/^[a-z0-9:]{1,12}$/), { minLength: 1, maxLength: 6 });
    const arb = ids.chain((xs) => fc.tuple(fc.constant(xs), fc.shuffledSubarray(xs, { minLength: xs.length, maxLength: xs.length })));
    await assertProperty(
      fc.asyncProperty(arb, async ([xs, shuffled]) => {
        const policy = (agents: readonly string[]): JcPolicyFields => ({ version: 1n, rules: [{ name: 'r', effect: 'deny', agents, action: { kind: 'process', binary_glob: '/x' } }] });
        // ASCII ids: UTF-8 byte order is code-unit order
        const sorted = [...xs].sort();
        const expected = b3hex(ascii('jouleclaw.policy/1') + u64(1) + lp('r') + ascii('deny') + ascii('agents:one_of') + u64(sorted.length) + sorted.map(lp).join('') + ascii('action:process') + lp('/x'));
        expect(await impl.jcPolicyDigest(policy(shuffled))).toBe(expected);
      }),
      fcParams(25),
    );
  });
});

describe('policy/1 receipt (jouleclaw §10)', () => {
  clauseIt([OMITTED], 'an absent policy_digest is omitted from the signed core entirely; the core is the det-CBOR of the receipt', async () => {
    const impl = implementation();
    const without = await impl.jcPolicyReceipt(steward.seed, receiptFields());
    const withDigest = await impl.jcPolicyReceipt(steward.seed, receiptFields({ policy_digest: A_DIGEST }));
    const expectedCore = {
      jc_receipt: 'policy/1',
      id: RECEIPT_ID,
      closed_at: CLOSED_AT,
      steward: steward.did,
      engine_id: 'engine-A',
      audit_sequence: 7,
      policy_version: 2,
      agent: bob.did,
      action: READ_X,
      decision: { kind: 'allow', rule: 'read-workspace' },
    };
    const s = decodeSign1(without);
    expect(toHex(s.payload)).toBe(toHex(encodeCanonical(expectedCore)));
    expect(toHex(decodeSign1(withDigest).payload)).toBe(toHex(encodeCanonical({ ...expectedCore, policy_digest: A_DIGEST })));
    // the two cores differ by exactly that key
    const c = coreOf(withDigest);
    c.delete('policy_digest');
    expect(toHex(encodeCanonical(c))).toBe(toHex(s.payload));
    // the envelope: protected {1: -8, 4: steward}, unprotected {}, signed by the steward
    expect(toHex(s.protectedBytes)).toBe(toHex(protectedHeaderBytes(utf8.encode(steward.did))));
    expect(s.unprotected.size).toBe(0);
    expect(verifySign1(s, steward.publicKey, defaultEd25519())).toBe(true);
    // "not emitted as a null or an empty string"
    expect(await codeOf(impl.jcPolicyReceipt(steward.seed, receiptFields({ policy_digest: '' })))).not.toBe('accepted');
  });

  clauseIt([MAY_DIGEST, PRESENCE], 'a consumer that requires the binding refuses a receipt without policy_digest', async () => {
    const impl = implementation();
    const without = await impl.jcPolicyReceipt(steward.seed, receiptFields());
    const withDigest = await impl.jcPolicyReceipt(steward.seed, receiptFields({ policy_digest: A_DIGEST }));
    expect('policy_digest' in (await impl.jcVerifyPolicyReceipt(without))).toBe(false);
    await expectCode(impl.jcVerifyPolicyReceipt(without, { binding: 'required' }), 'ERR_POLICY_DIGEST_ABSENT');
    expect((await impl.jcVerifyPolicyReceipt(withDigest, { binding: 'required' }))['policy_digest']).toBe(A_DIGEST);
  });

  clauseIt([IN_FORCE], 'a receipt for a decision carries the digest in force when it was made, not the one installed after', async () => {
    const impl = implementation();
    const B2: JcPolicyFields = { ...B, version: 2n };
    // step 0 is decided under A (v1), step 2 under B (v2); the seals come after B is installed
    const run = async (step: bigint, bind: 'digest' | 'none') => {
      const r = await impl.jcPolicyEvaluate(
        'engine-A',
        [{ evaluate: { agent: bob.did, action: READ_X } }, { install: B2 }, { evaluate: { agent: bob.did, action: READ_X } }, { seal: { step, id: RECEIPT_ID, closed_at: CLOSED_AT, bind } }],
        { policy: A, steward_seed: steward.seed },
      );
      const core = await impl.jcVerifyPolicyReceipt(r.results[3]!['receipt'] as Uint8Array, { steward: steward.did });
      expect(core['audit_sequence']).toBe(eventsOf(r.results)[step === 0n ? 0 : 1]!['sequence']);
      return core;
    };
    const c1 = await run(0n, 'digest');
    expect(c1).toMatchObject({ policy_version: 1n, policy_digest: A_DIGEST, decision: { kind: 'allow', rule: 'read-workspace' }, engine_id: 'engine-A', agent: bob.did });
    const c2 = await run(2n, 'digest');
    expect(c2).toMatchObject({ policy_version: 2n, policy_digest: B_DIGEST, decision: NO_ALLOW });
    expect('policy_digest' in (await run(0n, 'none'))).toBe(false);
  });
});
