// Edge tests of jcp §4.5 receipt-settled budget channels (impl/jcp/channel.ts): the wire shape of a (signed) statement
// and the refusal each malformed field draws (code, message naming the field), the unsigned-integer bounds, chain and
// member checks at open (jcp §4.2), the merged ledger exactly at the budget and one past it, the refusals of apply and
// of overdraft-proof verification with their messages and detail, and the statement a proof carries for its own point.
import { describe, expect, it } from 'vitest';
import { lazy, lazyKey, messageOf, thrown, TOOL_RESOURCE } from '../_test-support.ts';
import { encodeCanonical, type CborValue } from '../cbor/index.ts';
import { defaultEd25519, type Ed25519 } from '../identity/ed25519.ts';
import { attenuate } from './attenuate.ts';
import {
  _keyPairArg,
  _signedGrantArg,
  decodeOverdraftProof,
  decodeSignedStatement,
  openChannel,
  overdraftProofToCbor,
  parseSignedStatement,
  parseStatement,
  signStatement,
  statementBytes,
  verifyGrantChain,
  verifyOverdraftProof,
  verifyStatementSignature,
  type Channel,
  type OverdraftProof,
  type SignedStatement,
} from './channel.ts';
import { grantId, mintGrant, signGrant } from './grant.ts';
import type { SignedGrant } from './types.ts';

const alice = lazyKey('alice');
const bob = lazyKey('bob');
const p1 = lazyKey('point-1');
const p2 = lazyKey('point-2');
const p3 = lazyKey('point-3');
const mallory = lazyKey('mallory');
const members = lazy(() => [p1.did, p2.did, p3.did], []);
const resource = TOOL_RESOURCE;
const n16 = (i: number): Uint8Array => new Uint8Array(16).fill(i);
const root = lazy(() => mintGrant(alice, { subject: bob.did, resource, actions: ['call'], budget_uj: 1000n, nonce: n16(1) }));
const other = lazy(() => mintGrant(alice, { subject: bob.did, resource, actions: ['call'], budget_uj: 1000n, nonce: n16(2) }));
const child = lazy(() => attenuate(root, bob, { subject: bob.did, budget_uj: 500n, nonce: n16(3) }));
const gid = () => grantId(root.grant);

const U64_MAX = (1n << 64n) - 1n;
const MALFORMED = 'ERR_STATEMENT_MALFORMED';
const PROOF = 'ERR_OVERDRAFT_PROOF_INVALID';

const open = (self = p1, chain: readonly SignedGrant[] = [root]): Channel => openChannel({ chain, self, members });
const sign = (point: typeof p1, spent_uj: bigint, seq: bigint, grant_id = gid()): SignedStatement => signStatement({ grant_id, point: point.did, spent_uj, seq }, point);
/** The refusal `fn` throws: code, message and detail together. */
const refusal = (fn: () => unknown) => {
  const e = thrown(fn);
  return { code: e.code, message: e.message, detail: e.detail };
};
const malformed = (path: string, msg: string) => ({ code: MALFORMED, message: `${MALFORMED}: ${path}: ${msg}`, detail: { path } });
const bad = (message: string) => ({ code: 'ERR_BAD_ARGUMENT', message: `ERR_BAD_ARGUMENT: ${message}`, detail: undefined });
const proofFault = (fault: string, message: string) => ({ code: PROOF, message: `${PROOF}: ${message}`, detail: { fault } });

/** A statement's CBOR map, every field well-formed unless overridden; an override of undefined drops the field. */
function sm(over: Record<string, CborValue | undefined> = {}): Map<CborValue, CborValue> {
  const base: Record<string, CborValue | undefined> = { grant_id: 'a'.repeat(64), point: p2.did, spent_uj: 5, seq: 1, ...over };
  return new Map(Object.entries(base).filter(([, v]) => v !== undefined) as Array<[string, CborValue]>);
}
/** A signed statement's CBOR map. */
function ssm(over: Record<string, CborValue | undefined> = {}): Map<CborValue, CborValue> {
  const base: Record<string, CborValue | undefined> = { statement: sm(), signature: new Uint8Array(64), ...over };
  return new Map(Object.entries(base).filter(([, v]) => v !== undefined) as Array<[string, CborValue]>);
}

describe('parsing a statement (jcp §4.5): each malformed field is refused, named by its path', () => {
  it('a well-formed map parses to a frozen statement of bigints', () => {
    const s = parseStatement(sm({ spent_uj: 7, seq: 3 }));
    expect(s).toEqual({ grant_id: 'a'.repeat(64), point: p2.did, spent_uj: 7n, seq: 3n });
    expect(Object.isFrozen(s)).toBe(true);
    const ss = parseSignedStatement(ssm());
    expect(ss.statement.spent_uj).toBe(5n);
    expect(ss.signature).toEqual(new Uint8Array(64));
    expect(Object.isFrozen(ss)).toBe(true);
  });

  it('refuses a value that is not a map, an unknown field, and a missing field, at the default path', () => {
    expect(refusal(() => parseStatement('x'))).toEqual(malformed('$statement', 'must be a map'));
    expect(refusal(() => parseStatement(undefined))).toEqual(malformed('$statement', 'must be a map'));
    expect(refusal(() => parseStatement(sm({ extra: 1 })))).toEqual(malformed('$statement', 'unknown field extra'));
    const numericKey = sm();
    numericKey.set(1, 1);
    expect(refusal(() => parseStatement(numericKey))).toEqual(malformed('$statement', 'unknown field 1'));
    for (const f of ['grant_id', 'point', 'spent_uj', 'seq']) {
      expect(refusal(() => parseStatement(sm({ [f]: undefined })))).toEqual(malformed('$statement', `${f} is missing`));
    }
    expect(refusal(() => parseSignedStatement([]))).toEqual(malformed('$signed_statement', 'must be a map'));
    expect(refusal(() => parseSignedStatement(ssm({ signature: undefined })))).toEqual(malformed('$signed_statement', 'signature is missing'));
    expect(refusal(() => parseSignedStatement(ssm({ statement: undefined })))).toEqual(malformed('$signed_statement', 'statement is missing'));
    expect(refusal(() => parseSignedStatement(ssm({ other: 1 })))).toEqual(malformed('$signed_statement', 'unknown field other'));
  });

  it('refuses a grant_id that is not a content id and a point that is not an Ed25519 did:key', () => {
    const cid = 'must be a content id (64 lowercase hex digits)';
    expect(refusal(() => parseStatement(sm({ grant_id: 'A'.repeat(64) })))).toEqual(malformed('$statement.grant_id', cid));
    expect(refusal(() => parseStatement(sm({ grant_id: 'a'.repeat(63) })))).toEqual(malformed('$statement.grant_id', cid));
    expect(refusal(() => parseStatement(sm({ grant_id: new Uint8Array(32) })))).toEqual(malformed('$statement.grant_id', cid));
    const did = 'must be an Ed25519 did:key';
    expect(refusal(() => parseStatement(sm({ point: 5 })))).toEqual(malformed('$statement.point', did));
    expect(refusal(() => parseStatement(sm({ point: 'did:key:nope' })))).toEqual(malformed('$statement.point', did));
  });

  it('spent_uj and seq are unsigned 64-bit integers: 0 and 2^64 − 1 accepted, one past either end refused', () => {
    for (const f of ['spent_uj', 'seq'] as const) {
      expect(parseStatement(sm({ [f]: 0 }))[f]).toBe(0n);
      expect(parseStatement(sm({ [f]: 0n }))[f]).toBe(0n);
      expect(parseStatement(sm({ [f]: Number.MAX_SAFE_INTEGER }))[f]).toBe(BigInt(Number.MAX_SAFE_INTEGER));
      expect(parseStatement(sm({ [f]: U64_MAX }))[f]).toBe(U64_MAX);
      const refused = malformed(`$statement.${f}`, 'must be an unsigned integer');
      for (const v of [-1, -1n, U64_MAX + 1n, 1.5, 2 ** 53, Number.NaN, '1', true, null] as CborValue[]) {
        expect(refusal(() => parseStatement(sm({ [f]: v }))), `${f} = ${String(v)}`).toEqual(refused);
      }
    }
  });

  it('a signed statement names the nested path, and its signature is exactly 64 bytes', () => {
    expect(refusal(() => parseSignedStatement(ssm({ statement: sm({ seq: -1 }) })))).toEqual(malformed('$signed_statement.statement.seq', 'must be an unsigned integer'));
    expect(refusal(() => parseSignedStatement(ssm({ statement: 5 })))).toEqual(malformed('$signed_statement.statement', 'must be a map'));
    const sig = 'must be a byte string of 64 bytes';
    for (const s of [new Uint8Array(63), new Uint8Array(65), 'x'.repeat(64), 64] as CborValue[]) {
      expect(refusal(() => parseSignedStatement(ssm({ signature: s })))).toEqual(malformed('$signed_statement.signature', sig));
    }
    expect(refusal(() => parseSignedStatement(ssm({ signature: 'sig' }), '$x'))).toEqual(malformed('$x.signature', sig));
    // through bytes: the strict decoder, then the default paths
    const bytes = encodeCanonical({ statement: { grant_id: gid(), point: p2.did, spent_uj: 1n, seq: 1n }, signature: new Uint8Array(63) });
    expect(refusal(() => decodeSignedStatement(bytes))).toEqual(malformed('$signed_statement.signature', sig));
  });
});

describe('signing and verifying a statement (jcp §4.5 "signed by point over its canonical bytes")', () => {
  it('refuses a statement that is not an object, a signer that is not a key pair, or a key that is not the point', () => {
    expect(refusal(() => signStatement(null as never, p1))).toEqual(bad('a statement is {grant_id, point, spent_uj, seq}'));
    expect(refusal(() => signStatement(7 as never, p1))).toEqual(bad('a statement is {grant_id, point, spent_uj, seq}'));
    const s = { grant_id: gid(), point: p2.did, spent_uj: 1n, seq: 1n };
    expect(refusal(() => signStatement(s, null as never))).toEqual(bad('point must be a key pair {did, seed, publicKey}'));
    expect(refusal(() => signStatement(s, { did: p2.did, seed: 'x' } as never))).toEqual(bad('point must be a key pair {did, seed, publicKey}'));
    expect(refusal(() => signStatement(s, p1))).toEqual(bad(`the signing key ${p1.did} is not the statement's point ${p2.did}`));
    // the wire rules apply before signing
    expect(refusal(() => signStatement({ ...s, grant_id: 'nope' }, p2))).toEqual(malformed('$statement.grant_id', 'must be a content id (64 lowercase hex digits)'));
  });

  it('signs the canonical bytes with the given backend; verification is false, never a throw, for a bad point or signature', () => {
    const real = defaultEd25519();
    let signed = 0;
    const counting: Ed25519 = { ...real, name: real.name, publicKeyFromSeed: (x) => real.publicKeyFromSeed(x), verify: (a, b, c) => real.verify(a, b, c), sign: (x, m) => (signed++, real.sign(x, m)) };
    const ss = signStatement({ grant_id: gid(), point: p2.did, spent_uj: 9n, seq: 2n }, p2, counting);
    expect(signed).toBe(1);
    expect(Object.isFrozen(ss)).toBe(true);
    expect(ss.signature).toEqual(real.sign(p2.seed, statementBytes(ss.statement)));
    expect(verifyStatementSignature(ss)).toBe(true);
    expect(verifyStatementSignature({ statement: { ...ss.statement, point: 'did:key:nope' }, signature: ss.signature })).toBe(false);
    expect(verifyStatementSignature({ statement: ss.statement, signature: new Uint8Array(10) })).toBe(false);
    const throwing: Ed25519 = { ...counting, verify: () => { throw new Error('backend failure'); } };
    expect(verifyStatementSignature(ss, throwing)).toBe(false);
  });
});

describe('the arguments at the boundary', () => {
  it('a signed grant argument is refused with the name it was given, each shape fault alike', () => {
    const want = bad('g must be a signed grant {grant, signature}');
    const junk = [null, 5, {}, { grant: null, signature: new Uint8Array(64) }, { grant: 5, signature: new Uint8Array(64) }, { grant: root.grant, signature: 'x' }];
    for (const [i, v] of junk.entries()) {
      expect(refusal(() => _signedGrantArg(v, 'g')), `junk[${i}]`).toEqual(want);
    }
    // an object that is not a grant at all is a bad argument; a grant with a malformed field keeps its own code
    expect(refusal(() => _signedGrantArg({ grant: {}, signature: new Uint8Array(64) }, 'g'))).toEqual(bad('g.grant is not a grant (parse wire input with parseSignedGrant first)'));
    expect(thrown(() => _signedGrantArg({ grant: { ...root.grant, budget_uj: -1n }, signature: new Uint8Array(64) }, 'g')).code).toBe('ERR_GRANT_MALFORMED');
    expect(_signedGrantArg(root, 'g')).toBe(root);
  });

  it('a key pair argument needs a string did and a byte seed', () => {
    const want = bad('k must be a key pair {did, seed, publicKey}');
    for (const v of [null, 'k', { did: 5, seed: new Uint8Array(32) }, { did: p1.did, seed: [1] }, { seed: new Uint8Array(32) }]) {
      expect(refusal(() => _keyPairArg(v, 'k')), JSON.stringify(v)).toEqual(want);
    }
    expect(_keyPairArg(p1, 'k')).toBe(p1);
  });
});

describe('chains (jcp §4.2) and opening a channel', () => {
  const overBudget = lazy(() => signGrant({ ...child.grant, budget_uj: 2000n, nonce: n16(4) }, bob));
  const unsigned = lazy(() => ({ grant: child.grant, signature: new Uint8Array(64) }));

  it('refuses a chain that is not an array, a junk link named by its index, and an empty chain', () => {
    expect(refusal(() => verifyGrantChain('x' as never))).toEqual(bad('a chain is an array of signed grants, root first'));
    expect(refusal(() => verifyGrantChain([root, null as never]))).toEqual(bad('chain[1] must be a signed grant {grant, signature}'));
    expect(refusal(() => verifyGrantChain([]))).toEqual({ code: 'ERR_CHAIN_BROKEN', message: 'ERR_CHAIN_BROKEN: the chain is empty', detail: undefined });
  });

  it('refuses a first link that is not a root, a broken hop, a widening hop and a bad signature, each naming where', () => {
    expect(refusal(() => verifyGrantChain([child]))).toEqual({
      code: 'ERR_CHAIN_BROKEN',
      message: 'ERR_CHAIN_BROKEN: the first grant of the chain has a parent: it is not a root',
      detail: undefined,
    });
    expect(refusal(() => verifyGrantChain([other, child]))).toEqual({
      code: 'ERR_CHAIN_BROKEN',
      message: "ERR_CHAIN_BROKEN: hop 1: the child's parent is not the id of the grant before it",
      detail: { hop: 1 },
    });
    expect(refusal(() => verifyGrantChain([root, overBudget]))).toEqual({
      code: 'ERR_ATTENUATION_VIOLATION',
      message: 'ERR_ATTENUATION_VIOLATION: hop 1: child budget_uj 2000 exceeds parent budget_uj 1000',
      detail: { hop: 1, axis: 'budget' },
    });
    expect(refusal(() => verifyGrantChain([root, unsigned]))).toEqual({
      code: 'ERR_CHAIN_BROKEN',
      message: "ERR_CHAIN_BROKEN: link 1: the issuer's signature does not verify",
      detail: { link: 1 },
    });
    expect(refusal(() => verifyGrantChain([{ grant: root.grant, signature: new Uint8Array(64) }, child]))).toMatchObject({ detail: { link: 0 } });
    // a three-link chain verifies hop by hop
    const grandchild = attenuate(child, bob, { subject: bob.did, budget_uj: 200n, nonce: n16(5) });
    expect(() => verifyGrantChain([root, child, grandchild])).not.toThrow();
    expect(thrown(() => verifyGrantChain([root, grandchild])).detail).toEqual({ hop: 1 });
  });

  it('opens over the last grant of the chain, named by its id, with its budget', () => {
    const c = open(p2, [root, child]);
    expect(c.grant_id).toBe(grantId(child.grant));
    expect(c.budget_uj).toBe(500n);
    expect(c.self).toBe(p2.did);
    expect([c.localSpent(), c.total(), c.settled().size]).toEqual([0n, 0n, 0]);
    // a chain given as anything but an array is refused as verifyGrantChain refuses it, not read as an empty chain
    expect(refusal(() => openChannel({ chain: 'ab' as never, self: p1, members }))).toEqual(bad('a chain is an array of signed grants, root first'));
  });

  it('refuses junk options, a junk self, and members that are empty, junk, repeated or lack this point', () => {
    expect(refusal(() => openChannel(null as never))).toEqual(bad('a channel is opened with {chain, self, members}'));
    expect(refusal(() => openChannel(3 as never))).toEqual(bad('a channel is opened with {chain, self, members}'));
    expect(refusal(() => openChannel({ chain: [root], self: p1.did as never, members }))).toEqual(bad('self must be a key pair {did, seed, publicKey}'));
    const nonEmpty = bad('members must be a non-empty array of did:key');
    expect(refusal(() => openChannel({ chain: [root], self: p1, members: [] }))).toEqual(nonEmpty);
    expect(refusal(() => openChannel({ chain: [root], self: p1, members: p1.did as never }))).toEqual(nonEmpty);
    expect(refusal(() => openChannel({ chain: [root], self: p1, members: [p1.did, 'did:key:nope'] }))).toEqual(bad('member did:key:nope is not an Ed25519 did:key'));
    expect(refusal(() => openChannel({ chain: [root], self: p1, members: [p1.did, 5 as never] }))).toEqual(bad('member 5 is not an Ed25519 did:key'));
    expect(refusal(() => openChannel({ chain: [root], self: p1, members: [p1.did, p2.did, p1.did] }))).toEqual(bad('members name a point twice'));
    expect(refusal(() => openChannel({ chain: [root], self: p1, members: [p2.did, p3.did] }))).toEqual(bad(`this point ${p1.did} is not one of the channel's members`));
    // a channel of one point is a channel
    expect(openChannel({ chain: [root], self: p1, members: [p1.did] }).self).toBe(p1.did);
  });

  it('signs its statements with the backend it was opened with', () => {
    const real = defaultEd25519();
    let signed = 0;
    const counting: Ed25519 = { ...real, name: real.name, publicKeyFromSeed: (x) => real.publicKeyFromSeed(x), verify: (a, b, c) => real.verify(a, b, c), sign: (x, m) => (signed++, real.sign(x, m)) };
    const c = openChannel({ chain: [root], self: p1, members, backend: counting });
    c.statement();
    expect(signed).toBe(1);
  });
});

describe('spending against the merged ledger (jcp §4.5 "count the peer\'s settled spend against the shared budget")', () => {
  it('allows exactly up to the budget and denies one past it, saying why, the deny changing nothing', () => {
    const c = open();
    c.apply(sign(p2, 600n, 1n));
    expect(c.spend(300n)).toEqual({ verdict: 'allow' });
    expect(c.spend(101n)).toEqual({ verdict: 'deny', deny_reason: 'budget-exceeded', why: 'local 300 + settled 600 + cost 101 > budget_uj 1000' });
    expect([c.localSpent(), c.total()]).toEqual([300n, 900n]);
    expect(c.spend(100n)).toEqual({ verdict: 'allow' });
    expect([c.localSpent(), c.total()]).toEqual([400n, 1000n]);
    // a zero cost fits a ledger exactly at its budget
    expect(c.spend(0n)).toEqual({ verdict: 'allow' });
    expect(c.spend(1n)).toMatchObject({ verdict: 'deny', why: 'local 400 + settled 600 + cost 1 > budget_uj 1000' });
  });

  it('sums every settled peer', () => {
    const c = open();
    c.apply(sign(p2, 300n, 1n));
    c.apply(sign(p3, 500n, 1n));
    expect(c.total()).toBe(800n);
    expect(c.spend(201n)).toMatchObject({ verdict: 'deny', why: 'local 0 + settled 800 + cost 201 > budget_uj 1000' });
    expect(c.spend(200n)).toEqual({ verdict: 'allow' });
  });

  it('a cost is a bigint in 0 … 2^64 − 1: the top value is denied, not refused; anything else is refused', () => {
    const c = open();
    expect(c.spend(U64_MAX)).toMatchObject({ verdict: 'deny', deny_reason: 'budget-exceeded' });
    const want = bad('cost_uj must be a bigint in 0 … 2^64−1');
    for (const v of [-1n, U64_MAX + 1n, 1, '1', null]) expect(refusal(() => c.spend(v as never)), String(v)).toEqual(want);
    expect(c.localSpent()).toBe(0n);
  });
});

describe("a point's own statements", () => {
  it('carry its cumulative spend at seq 1, 2, … about this channel, signed by it', () => {
    const c = open(p1, [root, child]);
    c.spend(40n);
    const s1 = c.statement();
    expect(s1.statement).toEqual({ grant_id: grantId(child.grant), point: p1.did, spent_uj: 40n, seq: 1n });
    expect(verifyStatementSignature(s1)).toBe(true);
    c.spend(2n);
    expect(c.statement().statement).toMatchObject({ spent_uj: 42n, seq: 2n });
    expect(c.statement().statement).toMatchObject({ spent_uj: 42n, seq: 3n });
  });
});

describe('applying a peer statement (jcp §4.5): each refusal with its message and detail, state unchanged', () => {
  it('names the grant, the point, the seq and the spend in its refusals', () => {
    const c = open();
    c.apply(sign(p2, 300n, 5n));
    const og = grantId(other.grant);
    expect(refusal(() => c.apply(sign(p2, 400n, 6n, og)))).toEqual({
      code: 'ERR_STATEMENT_WRONG_GRANT',
      message: `ERR_STATEMENT_WRONG_GRANT: the statement is about grant ${og}, not this channel's ${gid()}`,
      detail: undefined,
    });
    expect(refusal(() => c.apply(sign(p1, 400n, 6n)))).toEqual({
      code: 'ERR_STATEMENT_NOT_MEMBER',
      message: "ERR_STATEMENT_NOT_MEMBER: a point's own spend is counted locally, never from a statement",
      detail: { point: p1.did },
    });
    expect(refusal(() => c.apply(sign(mallory, 400n, 6n)))).toEqual({
      code: 'ERR_STATEMENT_NOT_MEMBER',
      message: `ERR_STATEMENT_NOT_MEMBER: ${mallory.did} is not a point of this channel`,
      detail: { point: mallory.did },
    });
    const good = sign(p2, 400n, 6n);
    expect(refusal(() => c.apply({ statement: good.statement, signature: sign(p2, 401n, 6n).signature }))).toEqual({
      code: 'ERR_STATEMENT_FORGED',
      message: `ERR_STATEMENT_FORGED: the statement's signature does not verify under ${p2.did}`,
      detail: { point: p2.did },
    });
    expect(refusal(() => c.apply(sign(p2, 400n, 5n)))).toEqual({
      code: 'ERR_STATEMENT_STALE',
      message: 'ERR_STATEMENT_STALE: seq 5 does not increase past 5',
      detail: { seq: '5', last_seq: '5' },
    });
    expect(refusal(() => c.apply(sign(p2, 400n, 2n)))).toMatchObject({ detail: { seq: '2', last_seq: '5' } });
    expect(refusal(() => c.apply(sign(p2, 299n, 6n)))).toEqual({
      code: 'ERR_STATEMENT_REGRESSING',
      message: 'ERR_STATEMENT_REGRESSING: spent_uj 299 decreases from 300',
      detail: { spent_uj: '299', last_spent_uj: '300' },
    });
    expect(c.settled().get(p2.did)).toMatchObject({ seq: 5n, spent_uj: 300n });
    expect(c.total()).toBe(300n);
  });

  it('refuses a look-alike that is not {statement, signature} as malformed', () => {
    const c = open();
    const good = sign(p2, 1n, 1n);
    const want = { code: MALFORMED, message: `${MALFORMED}: a signed statement is {statement, signature}`, detail: undefined };
    const junk = [null, 5, { statement: null, signature: good.signature }, { statement: 'x', signature: good.signature }, { statement: good.statement, signature: [...good.signature] }];
    for (const [i, v] of junk.entries()) {
      expect(refusal(() => c.apply(v as never)), `junk[${i}]`).toEqual(want);
    }
    expect(refusal(() => c.apply({ statement: { ...good.statement, seq: -1n }, signature: good.signature }))).toEqual(malformed('$signed_statement.statement.seq', 'must be an unsigned integer'));
    expect(c.settled().size).toBe(0);
  });

  it('accepts a first statement at any seq, then only increasing seqs; keeps a frozen snapshot as evidence', () => {
    const c = open();
    const first = sign(p2, 0n, 0n);
    c.apply(first);
    c.apply(sign(p2, 0n, 1n));
    const third = sign(p2, 10n, 2n);
    c.apply(third);
    const got = c.settled().get(p2.did)!;
    expect(got).toEqual({ seq: 2n, spent_uj: 10n, signed: third });
    expect(got.signed).not.toBe(third);
    expect(Object.isFrozen(got)).toBe(true);
    // the snapshot is not the caller's object: changing it afterwards changes nothing settled
    const mutable = { statement: { ...sign(p3, 50n, 1n).statement }, signature: sign(p3, 50n, 1n).signature.slice() };
    c.apply(mutable);
    mutable.signature[0]! ^= 1;
    (mutable.statement as { spent_uj: bigint }).spent_uj = 999n;
    expect(c.settled().get(p3.did)!.signed.statement.spent_uj).toBe(50n);
    expect(verifyStatementSignature(c.settled().get(p3.did)!.signed)).toBe(true);
    // settled() is a copy
    (c.settled() as Map<string, unknown>).clear();
    expect(c.settled().size).toBe(2);
    expect(c.total()).toBe(60n);
  });
});

describe('overdraft proofs (jcp §4.5 "after settlement the overdraft is provable from the signed statements")', () => {
  it('are produced only past the budget, with this point first and its last statement reused while current', () => {
    const c = open();
    c.spend(400n);
    c.apply(sign(p2, 600n, 1n));
    // exactly at the budget: no overdraft
    expect(c.overdraftProof()).toBeUndefined();
    const own = c.statement();
    c.apply(sign(p3, 1n, 1n));
    const p = c.overdraftProof()!;
    expect(Object.isFrozen(p)).toBe(true);
    expect(p.chain).toEqual([root]);
    expect(p.statements.map((s) => [s.statement.point, s.statement.spent_uj, s.statement.seq])).toEqual([
      [p1.did, 400n, 1n],
      [p2.did, 600n, 1n],
      [p3.did, 1n, 1n],
    ]);
    expect(p.statements[0]).toBe(own);
    expect(verifyOverdraftProof(p, members)).toBe(1n);
    // asked again, the same current statement is reused: the seq does not advance
    expect(c.overdraftProof()!.statements[0]).toBe(own);
    expect(c.statement().statement.seq).toBe(2n);
  });

  it('sign a fresh statement of this point when its last one is out of date, or when it has none', () => {
    const c = open();
    c.spend(100n);
    c.statement();
    c.spend(300n);
    c.apply(sign(p2, 601n, 1n));
    const p = c.overdraftProof()!;
    expect(p.statements[0]!.statement).toMatchObject({ point: p1.did, spent_uj: 400n, seq: 2n });
    expect(verifyOverdraftProof(p, members)).toBe(1n);
    const fresh = open();
    fresh.apply(sign(p2, 1001n, 1n));
    const q = fresh.overdraftProof()!;
    expect(q.statements[0]!.statement).toMatchObject({ point: p1.did, spent_uj: 0n, seq: 1n });
    expect(verifyOverdraftProof(q, members)).toBe(1n);
  });

  it('carry the chain the channel was opened with, a copy the caller cannot change', () => {
    const chain = [root, child];
    const c = open(p1, chain);
    c.apply(sign(p2, 501n, 1n, grantId(child.grant)));
    chain.pop();
    const p = c.overdraftProof()!;
    expect(p.chain).toEqual([root, child]);
    expect(verifyOverdraftProof(p, members)).toBe(1n);
  });
});

describe('decoding and verifying an overdraft proof', () => {
  /** p1 at 600, p2 at 600 of 1000: an overdraft of 200. */
  const proof = lazy((): OverdraftProof => ({ chain: [root], statements: [sign(p1, 600n, 1n), sign(p2, 600n, 1n)] }));
  const bytesOf = (v: unknown) => encodeCanonical(v as never);

  it('decodes only {chain, statements} with both arrays, naming a bad link or statement by its index', () => {
    const want = proofFault('malformed', 'an overdraft proof is {chain: [signed grant], statements: [signed statement]}');
    const good = overdraftProofToCbor(proof) as { chain: unknown[]; statements: unknown[] };
    for (const v of [[], 'x', { chain: good.chain }, { chain: good.chain, statements: good.statements, extra: 1 }, { chain: 1, statements: good.statements }, { chain: good.chain, statements: 1 }, { chain: good.chain, extra: good.statements }]) {
      expect(refusal(() => decodeOverdraftProof(bytesOf(v))), JSON.stringify(Object.keys(v))).toEqual(want);
    }
    const p = decodeOverdraftProof(bytesOf(good));
    expect(Object.isFrozen(p)).toBe(true);
    expect(p).toEqual(proof);
    expect(messageOf(() => decodeOverdraftProof(bytesOf({ chain: [good.chain[0], 5], statements: good.statements })))).toContain('$proof.chain[1]');
    expect(refusal(() => decodeOverdraftProof(bytesOf({ chain: good.chain, statements: [good.statements[0], 5] })))).toEqual(malformed('$proof.statements[1]', 'must be a map'));
  });

  it('refuses junk with its own fault, and a non-array of members as a bad argument', () => {
    const want = proofFault('malformed', 'an overdraft proof is {chain, statements}');
    for (const v of [null, 5, { chain: [root] }, { statements: proof.statements }, { chain: 'x', statements: proof.statements }]) {
      expect(refusal(() => verifyOverdraftProof(v as never, members))).toEqual(want);
    }
    expect(refusal(() => verifyOverdraftProof(proof, p1.did as never))).toEqual(bad('members must be an array of did:key'));
    const s = proof.statements[0]!;
    expect(refusal(() => verifyOverdraftProof({ chain: [root], statements: [s, { statement: { ...s.statement, seq: -1n }, signature: s.signature }] }, members))).toEqual(
      malformed('$proof.statements[1].statement.seq', 'must be an unsigned integer'),
    );
  });

  it('returns the overdraft: the sum less the shared budget, which is the last link of the chain', () => {
    expect(verifyOverdraftProof(proof, members)).toBe(200n);
    expect(verifyOverdraftProof({ chain: [root], statements: [sign(p1, 1001n, 1n)] }, members)).toBe(1n);
    const cid = grantId(child.grant);
    expect(verifyOverdraftProof({ chain: [root, child], statements: [sign(p1, 300n, 1n, cid), sign(p3, 201n, 4n, cid)] }, members)).toBe(1n);
  });

  it('names the fault and what drew it in each refusal', () => {
    const [s1, s2] = proof.statements as [SignedStatement, SignedStatement];
    expect(refusal(() => verifyOverdraftProof({ chain: [root], statements: [s1, sign(p2, 400n, 1n)] }, members))).toEqual(
      proofFault('no-overdraft', 'the statements sum to 1000 µJ, within budget_uj 1000'),
    );
    expect(refusal(() => verifyOverdraftProof({ chain: [root], statements: [] }, members))).toEqual(proofFault('empty', 'an overdraft proof needs at least one statement'));
    const og = grantId(other.grant);
    expect(refusal(() => verifyOverdraftProof({ chain: [root], statements: [s1, sign(p2, 600n, 1n, og)] }, members))).toEqual(
      proofFault('grant', `a statement is about grant ${og}, not the shared ${gid()}`),
    );
    expect(refusal(() => verifyOverdraftProof({ chain: [root], statements: [s1, sign(mallory, 600n, 1n)] }, members))).toEqual(
      proofFault('not-member', `${mallory.did} is not a point of the channel`),
    );
    expect(refusal(() => verifyOverdraftProof({ chain: [root], statements: [s2, sign(p2, 700n, 2n)] }, members))).toEqual(
      proofFault('duplicate-point', `${p2.did} appears twice`),
    );
    expect(refusal(() => verifyOverdraftProof({ chain: [root], statements: [s1, { statement: { ...s2.statement, spent_uj: 900n }, signature: s2.signature }] }, members))).toEqual(
      proofFault('signature', `the statement of ${p2.did} does not verify`),
    );
    expect(refusal(() => verifyOverdraftProof({ chain: [{ grant: root.grant, signature: new Uint8Array(64) }], statements: [s1, s2] }, members))).toEqual(
      proofFault('chain', "the shared grant's chain does not verify: ERR_CHAIN_BROKEN: link 0: the issuer's signature does not verify"),
    );
    expect(refusal(() => verifyOverdraftProof({ chain: [], statements: [s1, s2] }, members))).toEqual(
      proofFault('chain', "the shared grant's chain does not verify: ERR_CHAIN_BROKEN: the chain is empty"),
    );
  });

  it('verifies statement signatures with the backend it is given', () => {
    const real = defaultEd25519();
    const sbytes = statementBytes(proof.statements[1]!.statement);
    const refusing: Ed25519 = {
      ...real,
      name: real.name,
      publicKeyFromSeed: (x) => real.publicKeyFromSeed(x),
      sign: (x, m) => real.sign(x, m),
      verify: (sig, m, pk) => (m.length === sbytes.length && m.every((b, i) => b === sbytes[i]) ? false : real.verify(sig, m, pk)),
    };
    expect(refusal(() => verifyOverdraftProof(proof, members, refusing))).toEqual(proofFault('signature', `the statement of ${p2.did} does not verify`));
  });
});

