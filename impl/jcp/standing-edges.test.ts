// Edge tests of jcp §4.6 standing grants (impl/jcp/standing.ts): the wire shape of a (signed) mint policy and the
// refusal each malformed field draws (code, message naming the field), the unsigned-integer bounds (0 and 2^64 − 1
// accepted, one past refused), the refusals of policy verification and authoring with their detail (fault, axis), and
// the messages of the mint ledger's refusals (wrong event class, exhausted count, cumulative spend past the grant).
import { describe, expect, it } from 'vitest';
import { lazy, lazyKey, messageOf, thrown, TOOL_RESOURCE } from '../_test-support.ts';
import type { CborValue } from '../cbor/index.ts';
import { encodeCanonical } from '../cbor/index.ts';
import { defaultEd25519, type Ed25519 } from '../identity/ed25519.ts';
import { grantId, mintGrant } from './grant.ts';
import {
  authorMintPolicy,
  createMintLedger,
  decodeSignedMintPolicy,
  eventClassId,
  mintPolicyBytes,
  mintPolicyId,
  parseMintPolicy,
  parseSignedMintPolicy,
  policyAmplification,
  verifyMintPolicy,
  type MintPolicy,
  type SignedMintPolicy,
} from './standing.ts';

const alice = lazyKey('alice');
const bob = lazyKey('bob');
const carol = lazyKey('carol');
const resource = TOOL_RESOURCE;
const PUSH = () => eventClassId({ source: 'github', event: 'push' });
const ISSUE = () => eventClassId({ source: 'github', event: 'issue' });
const n16 = (i: number): Uint8Array => new Uint8Array(16).fill(i);
const standing = lazy(() => mintGrant(alice, { subject: bob.did, resource, actions: ['call'], budget_uj: 1000n, nonce: n16(7) }));
const policy = lazy(() => authorMintPolicy(standing, alice, { event_class: PUSH(), per_firing_uj: 400n, max_firings: 2n }));
const rawPolicy = (p: MintPolicy, signer = alice): SignedMintPolicy => ({ policy: p, signature: defaultEd25519().sign(signer.seed, mintPolicyBytes(p)) });

const GID = 'a'.repeat(64);
const ECL = 'b'.repeat(64);
const U64_MAX = (1n << 64n) - 1n;
const MALFORMED = 'ERR_MINT_POLICY_MALFORMED';

/** A mint policy's CBOR map, every field well-formed unless overridden; an override of undefined drops the field. */
function pm(over: Record<string, CborValue | undefined> = {}): Map<CborValue, CborValue> {
  const base: Record<string, CborValue | undefined> = { grant_id: GID, issuer: alice.did, event_class: ECL, per_firing_uj: 10, max_firings: 2, ...over };
  return new Map(Object.entries(base).filter(([, v]) => v !== undefined) as Array<[string, CborValue]>);
}
/** A signed mint policy's CBOR map. */
function spm(over: Record<string, CborValue | undefined> = {}): Map<CborValue, CborValue> {
  const base: Record<string, CborValue | undefined> = { policy: pm(), signature: new Uint8Array(64), ...over };
  return new Map(Object.entries(base).filter(([, v]) => v !== undefined) as Array<[string, CborValue]>);
}
/** The refusal `fn` throws: code, message and detail together. */
const refusal = (fn: () => unknown) => {
  const e = thrown(fn);
  return { code: e.code, message: e.message, detail: e.detail };
};
const malformed = (path: string, msg: string) => ({ code: MALFORMED, message: `${MALFORMED}: ${path}: ${msg}`, detail: { path } });

describe('parsing a mint policy (jcp §4.6): each malformed field is refused, named by its path', () => {
  it('a well-formed map parses, with the defaults $policy / $signed_policy naming the path', () => {
    expect(parseMintPolicy(pm())).toEqual({ grant_id: GID, issuer: alice.did, event_class: ECL, per_firing_uj: 10n, max_firings: 2n });
    expect(refusal(() => parseMintPolicy(pm({ grant_id: 'x' })))).toEqual(malformed('$policy.grant_id', 'must be a content id (64 lowercase hex digits)'));
    expect(refusal(() => parseSignedMintPolicy(spm({ extra: 1 })))).toEqual(malformed('$signed_policy', 'unknown field extra'));
  });

  it('refuses a value that is not a map', () => {
    expect(refusal(() => parseMintPolicy(5))).toEqual(malformed('$policy', 'must be a map'));
    expect(refusal(() => parseMintPolicy(undefined))).toEqual(malformed('$policy', 'must be a map'));
    expect(refusal(() => parseSignedMintPolicy(spm({ policy: [] })))).toEqual(malformed('$signed_policy.policy', 'must be a map'));
  });

  it('refuses an unknown field, text-keyed or not', () => {
    const m = pm();
    m.set('colour', 'red');
    expect(refusal(() => parseMintPolicy(m))).toEqual(malformed('$policy', 'unknown field colour'));
    const n = pm();
    n.set(1, 'x');
    expect(refusal(() => parseMintPolicy(n))).toEqual(malformed('$policy', 'unknown field 1'));
  });

  it('refuses a missing field, naming it', () => {
    for (const k of ['grant_id', 'issuer', 'event_class', 'per_firing_uj', 'max_firings']) {
      expect(refusal(() => parseMintPolicy(pm({ [k]: undefined }))), k).toEqual(malformed('$policy', `${k} is missing`));
    }
    expect(refusal(() => parseSignedMintPolicy(spm({ signature: undefined })))).toEqual(malformed('$signed_policy', 'signature is missing'));
  });

  it('refuses an issuer that is not an Ed25519 did:key, text or not', () => {
    for (const issuer of ['did:key:zNotAKey', 'alice', 5]) {
      expect(refusal(() => parseMintPolicy(pm({ issuer }))), String(issuer)).toEqual(malformed('$policy.issuer', 'must be an Ed25519 did:key'));
    }
  });

  it('refuses a grant_id or event_class that is not a content id, naming which', () => {
    expect(refusal(() => parseMintPolicy(pm({ grant_id: 'A'.repeat(64) })))).toEqual(malformed('$policy.grant_id', 'must be a content id (64 lowercase hex digits)'));
    expect(refusal(() => parseMintPolicy(pm({ event_class: 'push' })))).toEqual(malformed('$policy.event_class', 'must be a content id (64 lowercase hex digits)'));
  });

  it('reads per_firing_uj and max_firings as uints: 0 and 2^64 − 1 accepted, a negative, a fraction, past 2^53 as a number, or 2^64 refused', () => {
    for (const k of ['per_firing_uj', 'max_firings'] as const) {
      expect(parseMintPolicy(pm({ [k]: 0 }))[k], k).toBe(0n);
      expect(parseMintPolicy(pm({ [k]: 0n }))[k], k).toBe(0n);
      expect(parseMintPolicy(pm({ [k]: 7n }))[k], k).toBe(7n);
      expect(parseMintPolicy(pm({ [k]: 1n << 60n }))[k], k).toBe(1n << 60n);
      expect(parseMintPolicy(pm({ [k]: U64_MAX }))[k], k).toBe(U64_MAX);
      expect(parseMintPolicy(pm({ [k]: Number.MAX_SAFE_INTEGER }))[k], k).toBe(BigInt(Number.MAX_SAFE_INTEGER));
      for (const bad of [-1, 1.5, 2 ** 53, -1n, -(1n << 60n), U64_MAX + 1n, '5']) {
        expect(refusal(() => parseMintPolicy(pm({ [k]: bad }))), `${k} ${String(bad)}`).toEqual(malformed(`$policy.${k}`, 'must be an unsigned integer'));
      }
    }
  });

  it('reads a policy of 2^60 firings from its canonical bytes', () => {
    const sp = authorMintPolicy(standing, alice, { event_class: PUSH(), per_firing_uj: 1n, max_firings: 1n << 60n });
    expect(sp.policy.max_firings).toBe(1n << 60n);
  });

  it('refuses a signature that is not a byte string of exactly 64 bytes', () => {
    expect(parseSignedMintPolicy(spm()).signature).toEqual(new Uint8Array(64));
    for (const signature of [new Uint8Array(63), new Uint8Array(65), 'x'.repeat(64), new Array<number>(64).fill(0)]) {
      expect(refusal(() => parseSignedMintPolicy(spm({ signature }))), String(signature)).toEqual(malformed('$signed_policy.signature', 'must be a byte string of 64 bytes'));
    }
  });

  it('names a nested policy field under the signed policy path, also when decoded from bytes', () => {
    expect(refusal(() => parseSignedMintPolicy(spm({ policy: pm({ max_firings: -1 }) })))).toEqual(malformed('$signed_policy.policy.max_firings', 'must be an unsigned integer'));
    const bytes = encodeCanonical(spm({ policy: pm({ grant_id: 'nope' }) }));
    expect(refusal(() => decodeSignedMintPolicy(bytes))).toEqual(malformed('$signed_policy.policy.grant_id', 'must be a content id (64 lowercase hex digits)'));
  });
});

describe('verifying a mint policy against its standing grant (jcp §4.6)', () => {
  it('refuses a look-alike whose policy is not an object, or null', () => {
    for (const p of ['policy', null]) {
      const look = { policy: p, signature: new Uint8Array(64) } as unknown as SignedMintPolicy;
      expect(refusal(() => verifyMintPolicy(look, standing)), String(p)).toEqual({ code: MALFORMED, message: `${MALFORMED}: a signed mint policy is {policy, signature}`, detail: undefined });
    }
  });

  it('refuses a standing grant that is not a signed grant, naming the argument', () => {
    expect(refusal(() => verifyMintPolicy(policy, 5 as never))).toEqual({ code: 'ERR_BAD_ARGUMENT', message: 'ERR_BAD_ARGUMENT: standing must be a signed grant {grant, signature}', detail: undefined });
  });

  it('refuses a policy bound to another grant (fault grant-id)', () => {
    const other = mintGrant(alice, { subject: bob.did, resource, actions: ['call'], budget_uj: 1000n, nonce: n16(8) });
    const gid = grantId(standing.grant);
    const oid = grantId(other.grant);
    expect(refusal(() => verifyMintPolicy(policy, other))).toEqual({
      code: 'ERR_MINT_POLICY_UNAUTHORIZED',
      message: `ERR_MINT_POLICY_UNAUTHORIZED: the policy is bound to grant ${gid}, not ${oid}`,
      detail: { fault: 'grant-id' },
    });
  });

  it("refuses a policy whose issuer is not the grant's (fault not-issuer)", () => {
    const sp = rawPolicy({ ...policy.policy, issuer: bob.did }, bob);
    expect(refusal(() => verifyMintPolicy(sp, standing))).toEqual({
      code: 'ERR_MINT_POLICY_UNAUTHORIZED',
      message: `ERR_MINT_POLICY_UNAUTHORIZED: the policy's issuer ${bob.did} is not the grant's issuer ${alice.did}`,
      detail: { fault: 'not-issuer' },
    });
  });

  it('refuses a policy whose signature does not verify, or whose verification throws (fault signature)', () => {
    const forged = { policy: policy.policy, signature: new Uint8Array(64) };
    const want = { code: 'ERR_MINT_POLICY_UNAUTHORIZED', message: "ERR_MINT_POLICY_UNAUTHORIZED: the policy's signature does not verify under the grant's issuer", detail: { fault: 'signature' } };
    expect(refusal(() => verifyMintPolicy(forged, standing))).toEqual(want);
    // a backend that throws on the policy bytes (and verifies grants as usual): a throw is a failed verification
    const real = defaultEd25519();
    const pbytes = mintPolicyBytes(policy.policy);
    const throwing: Ed25519 = {
      ...real,
      name: real.name,
      publicKeyFromSeed: (s) => real.publicKeyFromSeed(s),
      sign: (s, m) => real.sign(s, m),
      verify: (sig, m, pk) => {
        if (m.length === pbytes.length && m.every((b, i) => b === pbytes[i])) throw new Error('backend failure');
        return real.verify(sig, m, pk);
      },
    };
    expect(() => verifyMintPolicy(policy, standing)).not.toThrow();
    expect(refusal(() => verifyMintPolicy(policy, standing, throwing))).toEqual(want);
  });

  it("refuses a standing grant whose own signature does not verify (fault grant-signature)", () => {
    const unsigned = { grant: standing.grant, signature: new Uint8Array(64) };
    expect(refusal(() => verifyMintPolicy(policy, unsigned))).toEqual({
      code: 'ERR_MINT_POLICY_UNAUTHORIZED',
      message: "ERR_MINT_POLICY_UNAUTHORIZED: the standing grant's signature does not verify",
      detail: { fault: 'grant-signature' },
    });
  });

  it('refuses an amplifying policy with its axis: a slice past the budget, or any policy over a leaf-only grant', () => {
    expect(refusal(() => verifyMintPolicy(rawPolicy({ ...policy.policy, per_firing_uj: 1001n }), standing))).toEqual({
      code: 'ERR_MINT_POLICY_AMPLIFIES',
      message: "ERR_MINT_POLICY_AMPLIFIES: per_firing_uj 1001 exceeds the grant's budget_uj 1000",
      detail: { axis: 'budget' },
    });
    // exactly the budget is no amplification (jcp §4.6 "no larger than the grant's budget")
    expect(() => verifyMintPolicy(rawPolicy({ ...policy.policy, per_firing_uj: 1000n }), standing)).not.toThrow();
    const leaf = mintGrant(alice, { subject: bob.did, resource, actions: ['call'], budget_uj: 1000n, delegate_depth: 0n, nonce: n16(9) });
    expect(refusal(() => verifyMintPolicy(rawPolicy({ ...policy.policy, grant_id: grantId(leaf.grant) }), leaf))).toEqual({
      code: 'ERR_MINT_POLICY_AMPLIFIES',
      message: 'ERR_MINT_POLICY_AMPLIFIES: the grant is leaf-only (delegate_depth 0): a firing would delegate it',
      detail: { axis: 'depth' },
    });
    expect(policyAmplification({ ...policy.policy, per_firing_uj: 1001n }, standing.grant)).toEqual({ axis: 'budget', message: "per_firing_uj 1001 exceeds the grant's budget_uj 1000" });
    expect(policyAmplification(policy.policy, leaf.grant)).toEqual({ axis: 'depth', message: 'the grant is leaf-only (delegate_depth 0): a firing would delegate it' });
    expect(policyAmplification(policy.policy, standing.grant)).toBeUndefined();
  });
});

describe('authoring a mint policy (jcp §4.6)', () => {
  it('refuses fields that are not an object, naming the shape', () => {
    for (const f of [null, 5, 'x']) {
      expect(refusal(() => authorMintPolicy(standing, alice, f as never)), String(f)).toEqual({
        code: 'ERR_BAD_ARGUMENT',
        message: 'ERR_BAD_ARGUMENT: policy fields are {event_class, per_firing_uj, max_firings}',
        detail: undefined,
      });
    }
  });

  it('refuses a standing grant or issuer that is not one, naming the argument', () => {
    const f = { event_class: PUSH(), per_firing_uj: 1n, max_firings: 1n };
    expect(messageOf(() => authorMintPolicy(null as never, alice, f))).toBe('ERR_BAD_ARGUMENT: standing must be a signed grant {grant, signature}');
    expect(messageOf(() => authorMintPolicy(standing, {} as never, f))).toBe('ERR_BAD_ARGUMENT: issuer must be a key pair {did, seed, publicKey}');
  });

  it("refuses a signer who is not the grant's issuer (fault not-issuer)", () => {
    expect(refusal(() => authorMintPolicy(standing, bob, { event_class: PUSH(), per_firing_uj: 1n, max_firings: 1n }))).toEqual({
      code: 'ERR_MINT_POLICY_UNAUTHORIZED',
      message: `ERR_MINT_POLICY_UNAUTHORIZED: ${bob.did} is not the standing grant's issuer ${alice.did}`,
      detail: { fault: 'not-issuer' },
    });
  });
});

describe('the mint ledger refuses, with messages giving the numbers (jcp §4.6)', () => {
  const fireOver = (l: ReturnType<typeof createMintLedger>, over: Record<string, unknown> = {}, i = 1) =>
    l.fire({ policy, standing, holder: bob, event_class: PUSH(), subject: carol.did, nonce: n16(100 + i), ...over } as never);

  it('refuses a firing that is not an object, and a holder that is not a key pair', () => {
    const l = createMintLedger();
    expect(refusal(() => l.fire(null as never))).toEqual({
      code: 'ERR_BAD_ARGUMENT',
      message: 'ERR_BAD_ARGUMENT: a firing is {policy, standing, holder, event_class, subject, nonce}',
      detail: undefined,
    });
    expect(messageOf(() => fireOver(l, { holder: { did: bob.did } }))).toBe('ERR_BAD_ARGUMENT: holder must be a key pair {did, seed, publicKey}');
    expect(l.firings(mintPolicyId(policy.policy))).toBe(0n);
  });

  it('names the wrong event class and the policy’s', () => {
    const l = createMintLedger();
    expect(messageOf(() => fireOver(l, { event_class: ISSUE() }))).toBe(`ERR_FIRING_WRONG_EVENT_CLASS: event class ${ISSUE()} is not the policy's ${PUSH()}`);
  });

  it('refuses past the budget with the arithmetic, then the exhausted count with its numbers', () => {
    // 400 + 400 = 800 ≤ 1000; the third would make 1200 > 1000
    const l = createMintLedger();
    const big = authorMintPolicy(standing, alice, { event_class: PUSH(), per_firing_uj: 400n, max_firings: 5n });
    fireOver(l, { policy: big }, 1);
    fireOver(l, { policy: big }, 2);
    expect(messageOf(() => fireOver(l, { policy: big }, 3))).toBe('ERR_FIRING_OVER_BUDGET: cumulative 800 + per_firing_uj 400 > budget_uj 1000');
    // the two-firing policy shares the ledger's cumulative spend but has its own count
    const l2 = createMintLedger();
    fireOver(l2, {}, 1);
    fireOver(l2, {}, 2);
    expect(messageOf(() => fireOver(l2, {}, 3))).toBe('ERR_FIRINGS_EXHAUSTED: the policy has fired 2 of 2 times');
  });
});
