// Unit tests of jcp §4.5 budget channels (impl/jcp/channel.ts): statements, settlement, the merged ledger, overdraft
// proofs, and the property that a settled channel never allows past its budget and proves every overdraft.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { codeOf, lazy, lazyKey, TOOL_RESOURCE } from '../_test-support.ts';
import { decodeCanonical, encodeCanonical } from '../cbor/index.ts';
import { defaultEd25519 } from '../identity/ed25519.ts';
import { didPublicKey } from '../identity/did-key.ts';
import { attenuate } from './attenuate.ts';
import {
  decodeOverdraftProof,
  decodeSignedStatement,
  openChannel,
  overdraftProofToCbor,
  signedStatementToCbor,
  signStatement,
  verifyOverdraftProof,
  type Channel,
  type SignedStatement,
} from './channel.ts';
import { grantId, mintGrant } from './grant.ts';

const alice = lazyKey('alice');
const bob = lazyKey('bob');
const p1 = lazyKey('point-1');
const p2 = lazyKey('point-2');
const p3 = lazyKey('point-3');
const mallory = lazyKey('mallory');
const members = lazy(() => [p1.did, p2.did, p3.did], []);
const resource = TOOL_RESOURCE;
const root = lazy(() => mintGrant(alice, { subject: bob.did, resource, actions: ['call'], budget_uj: 1000n, nonce: new Uint8Array(16).fill(1) }));
const other = lazy(() => mintGrant(alice, { subject: bob.did, resource, actions: ['call'], budget_uj: 1000n, nonce: new Uint8Array(16).fill(2) }));
const gid = () => grantId(root.grant);

const open = (self = p1, chain = [root]): Channel => openChannel({ chain, self, members });
/** A snapshot of everything a refusal must leave unchanged. */
const snap = (c: Channel) => ({ local: c.localSpent(), total: c.total(), settled: [...c.settled()].map(([d, s]) => [d, s.seq, s.spent_uj]) });
const sign = (point: typeof p1, spent_uj: bigint, seq: bigint, grant_id = gid()): SignedStatement => signStatement({ grant_id, point: point.did, spent_uj, seq }, point);

describe('statements (jcp §4.5)', () => {
  it('are the four spec fields in canonical CBOR, signed by the point over exactly those bytes', () => {
    const ss = sign(p2, 300n, 4n);
    const bytes = encodeCanonical(signedStatementToCbor(ss));
    const m = decodeCanonical(bytes) as Map<string, unknown>;
    expect([...m.keys()]).toEqual(['signature', 'statement']);
    const s = m.get('statement') as Map<string, unknown>;
    // canonical order: length-first, then bytewise
    expect([...s.keys()]).toEqual(['seq', 'point', 'grant_id', 'spent_uj']);
    expect([s.get('seq'), s.get('point'), s.get('grant_id'), s.get('spent_uj')]).toEqual([4, p2.did, gid(), 300]);
    expect(defaultEd25519().verify(ss.signature, encodeCanonical(s as never), didPublicKey(p2.did))).toBe(true);
    expect(decodeSignedStatement(bytes)).toEqual(ss);
  });

  it('refuse a signer that is not the named point, and malformed fields, with typed codes', () => {
    expect(codeOf(() => signStatement({ grant_id: gid(), point: p2.did, spent_uj: 1n, seq: 1n }, p1))).toBe('ERR_BAD_ARGUMENT');
    expect(codeOf(() => signStatement({ grant_id: 'nope', point: p1.did, spent_uj: 1n, seq: 1n }, p1))).toBe('ERR_STATEMENT_MALFORMED');
    expect(codeOf(() => decodeSignedStatement(encodeCanonical({ statement: { grant_id: gid(), point: p1.did, spent_uj: 1n }, signature: new Uint8Array(64) })))).toBe('ERR_STATEMENT_MALFORMED');
    expect(codeOf(() => decodeSignedStatement(encodeCanonical({ statement: { grant_id: gid(), point: p1.did, spent_uj: 1n, seq: 1n, extra: 1n }, signature: new Uint8Array(64) })))).toBe('ERR_STATEMENT_MALFORMED');
  });
});

describe('a channel point applying statements', () => {
  it('settles a peer statement and counts it against the shared budget (the merged ledger binds)', () => {
    const c = open();
    c.apply(sign(p2, 600n, 1n));
    expect(c.total()).toBe(600n);
    expect(c.spend(401n)).toMatchObject({ verdict: 'deny', deny_reason: 'budget-exceeded' });
    expect(c.localSpent()).toBe(0n);
    expect(c.spend(400n)).toEqual({ verdict: 'allow' });
    expect(c.spend(1n)).toMatchObject({ verdict: 'deny' });
    expect(c.total()).toBe(1000n);
  });

  it('refuses forged, stale, regressing, foreign and non-member statements, each with its own code, state unchanged', () => {
    const c = open();
    c.spend(50n);
    c.apply(sign(p2, 300n, 5n));
    const before = snap(c);
    const good = sign(p2, 400n, 6n);
    const cases: Array<[string, SignedStatement]> = [
      // a flipped signature bit; and mallory signing a claim in p2's name
      ['ERR_STATEMENT_FORGED', { statement: good.statement, signature: good.signature.map((b, i) => (i === 0 ? b ^ 1 : b)) }],
      ['ERR_STATEMENT_FORGED', { statement: good.statement, signature: signStatement({ ...good.statement, point: mallory.did }, mallory).signature }],
      // the signed claim with its spend changed after signing
      ['ERR_STATEMENT_FORGED', { statement: { ...good.statement, spent_uj: 10n }, signature: good.signature }],
      ['ERR_STATEMENT_STALE', sign(p2, 400n, 5n)],
      ['ERR_STATEMENT_STALE', sign(p2, 400n, 4n)],
      ['ERR_STATEMENT_REGRESSING', sign(p2, 299n, 6n)],
      ['ERR_STATEMENT_WRONG_GRANT', sign(p2, 400n, 6n, grantId(other.grant))],
      ['ERR_STATEMENT_NOT_MEMBER', sign(mallory, 400n, 6n)],
      ['ERR_STATEMENT_NOT_MEMBER', sign(p1, 400n, 6n)],
      ['ERR_STATEMENT_MALFORMED', { statement: { ...good.statement, seq: -1n }, signature: good.signature }],
    ];
    for (const [code, ss] of cases) {
      expect(codeOf(() => c.apply(ss)), code).toBe(code);
      expect(snap(c)).toEqual(before);
    }
    // the same seq replayed is stale even when the claim is unchanged
    expect(codeOf(() => c.apply(sign(p2, 300n, 5n)))).toBe('ERR_STATEMENT_STALE');
    // an equal spend at a higher seq is accepted (not regressing)
    c.apply(sign(p2, 300n, 7n));
    c.apply(sign(p2, 400n, 8n));
    expect(c.total()).toBe(450n);
  });

  it('opens only over a verifying chain, with itself among the members', () => {
    const child = attenuate(root, bob, { subject: bob.did, budget_uj: 500n, nonce: new Uint8Array(16).fill(3) });
    expect(open(p1, [root, child]).budget_uj).toBe(500n);
    expect(codeOf(() => open(p1, [child]))).toBe('ERR_CHAIN_BROKEN');
    expect(codeOf(() => open(p1, [{ grant: root.grant, signature: new Uint8Array(64) }]))).toBe('ERR_CHAIN_BROKEN');
    expect(codeOf(() => openChannel({ chain: [root], self: mallory, members }))).toBe('ERR_BAD_ARGUMENT');
    expect(codeOf(() => openChannel({ chain: [root], self: p1, members: [p1.did, p1.did] }))).toBe('ERR_BAD_ARGUMENT');
  });
});

describe('overdraft proofs', () => {
  /** Two points spend optimistically, 600 µJ each of 1000, then exchange statements. */
  function overdrawn(): [Channel, Channel] {
    const a = open(p1);
    const b = open(p2);
    expect(a.spend(600n).verdict).toBe('allow');
    expect(b.spend(600n).verdict).toBe('allow');
    b.apply(a.statement());
    a.apply(b.statement());
    return [a, b];
  }

  it('an overdraft after settlement is proved from the signed statements, through bytes', () => {
    const [a, b] = overdrawn();
    expect([a.total(), b.total()]).toEqual([1200n, 1200n]);
    // after settlement the merged ledger binds: neither point allows another microjoule
    expect(a.spend(1n).verdict).toBe('deny');
    const proof = a.overdraftProof()!;
    const back = decodeOverdraftProof(encodeCanonical(overdraftProofToCbor(proof)));
    expect(verifyOverdraftProof(back, members)).toBe(200n);
    expect(verifyOverdraftProof(b.overdraftProof()!, members)).toBe(200n);
  });

  it('is refused when a statement is forged, duplicated, foreign, from a non-member, or there is no overdraft', () => {
    const [a] = overdrawn();
    const proof = a.overdraftProof()!;
    const [s1, s2] = proof.statements as [SignedStatement, SignedStatement];
    const fault = (p: typeof proof, m = members): unknown => {
      try {
        verifyOverdraftProof(p, m);
        return 'accepted';
      } catch (e) {
        return [(e as { code: string }).code, (e as { detail: { fault: string } }).detail.fault];
      }
    };
    const E = 'ERR_OVERDRAFT_PROOF_INVALID';
    expect(fault({ ...proof, statements: [s1, { statement: { ...s2.statement, spent_uj: 900n }, signature: s2.signature }] })).toEqual([E, 'signature']);
    expect(fault({ ...proof, statements: [s1, s1] })).toEqual([E, 'duplicate-point']);
    expect(fault({ ...proof, statements: [s1, sign(mallory, 600n, 1n)] })).toEqual([E, 'not-member']);
    expect(fault(proof, [p1.did])).toEqual([E, 'not-member']);
    expect(fault({ ...proof, statements: [s1, sign(p2, 600n, 1n, grantId(other.grant))] })).toEqual([E, 'grant']);
    expect(fault({ ...proof, statements: [s1, sign(p2, 400n, 9n)] })).toEqual([E, 'no-overdraft']);
    expect(fault({ ...proof, statements: [] })).toEqual([E, 'empty']);
    expect(fault({ ...proof, chain: [other] })).toEqual([E, 'grant']);
    expect(fault({ ...proof, chain: [{ grant: root.grant, signature: new Uint8Array(64) }] })).toEqual([E, 'chain']);
  });

  it('is not produced within budget', () => {
    const a = open(p1);
    a.spend(1000n);
    expect(a.overdraftProof()).toBeUndefined();
  });
});

describe('property: settlement never lets allowed spend pass the budget unproven', () => {
  // ops over three points: spend at i, deliver i's latest statement to j, or replay an older statement of i to j
  const op = fc.oneof(
    { weight: 3, arbitrary: fc.record({ kind: fc.constant('spend' as const), at: fc.nat(2), uj: fc.bigInt(0n, 700n) }) },
    { weight: 2, arbitrary: fc.record({ kind: fc.constant('send' as const), from: fc.nat(2), to: fc.nat(2) }) },
    { weight: 1, arbitrary: fc.record({ kind: fc.constant('replay' as const), from: fc.nat(2), to: fc.nat(2), back: fc.nat(5) }) },
  );
  const keys = [p1, p2, p3];

  it('each allow fits the merged ledger; once fully settled the totals agree, bind, and any overdraft is proved exactly', () => {
    fc.assert(
      fc.property(fc.array(op, { maxLength: 30 }), fc.boolean(), (ops, synchronous) => {
        const cs = keys.map((k) => open(k));
        const sent: SignedStatement[][] = [[], [], []];
        const settleAll = (): void => {
          const latest = cs.map((c, i) => {
            const s = c.statement();
            sent[i]!.push(s);
            return s;
          });
          cs.forEach((c, j) => latest.forEach((s, i) => i !== j && c.apply(s)));
        };
        for (const o of ops) {
          if (o.kind === 'spend') {
            // synchronous: every spend waits for a full settlement first
            if (synchronous) settleAll();
            const c = cs[o.at]!;
            const before = c.total();
            const v = c.spend(o.uj);
            if (v.verdict === 'allow') expect(c.total()).toBeLessThanOrEqual(1000n);
            else expect(c.total()).toBe(before);
          } else if (o.from !== o.to) {
            const to = cs[o.to]!;
            const s = o.kind === 'send' ? cs[o.from]!.statement() : sent[o.from]!.at(-1 - o.back);
            if (o.kind === 'send') sent[o.from]!.push(s!);
            if (!s) continue;
            const prior = to.settled().get(s.statement.point);
            const before = snap(to);
            const code = codeOf(() => to.apply(s));
            if (prior && s.statement.seq <= prior.seq) {
              expect(code).toBe('ERR_STATEMENT_STALE');
              expect(snap(to)).toEqual(before);
            } else expect(code).toBe('accepted');
          }
        }
        settleAll();
        const truth = cs.reduce((a, c) => a + c.localSpent(), 0n);
        for (const c of cs) expect(c.total()).toBe(truth);
        if (synchronous) expect(truth).toBeLessThanOrEqual(1000n);
        for (const c of cs) {
          const proof = c.overdraftProof();
          if (truth > 1000n) {
            expect(verifyOverdraftProof(proof!, members)).toBe(truth - 1000n);
            // after settlement the merged ledger binds: not one more microjoule anywhere
            expect(c.spend(1n).verdict).toBe('deny');
          } else expect(proof).toBeUndefined();
        }
      }),
      { seed: 0x4a4350, numRuns: 100 },
    );
  });
});

describe('junk at the boundary (STYLE.md)', () => {
  const JUNK: unknown[] = [undefined, null, 0, 1.5, 'x', [], {}, () => 1, Symbol('s'), { statement: {}, signature: 'sig' }, { grant: {}, signature: new Uint8Array(64) }];
  const typed = (fn: () => unknown): string => {
    const c = codeOf(fn);
    return c === 'accepted' || c.startsWith('not a JcpError') ? c : 'typed';
  };

  it('every entry point refuses junk with a JcpError, and a refused apply or spend changes nothing', () => {
    const c = open();
    c.spend(10n);
    const before = snap(c);
    for (const j of JUNK) {
      const any = j as never;
      expect(typed(() => c.apply(any)), String(j)).toBe('typed');
      expect(typed(() => c.spend(any)), String(j)).toBe('typed');
      expect(typed(() => openChannel({ chain: [any], self: p1, members })), String(j)).toBe('typed');
      expect(typed(() => openChannel({ chain: any, self: p1, members })), String(j)).toBe('typed');
      expect(typed(() => openChannel({ chain: [root], self: any, members })), String(j)).toBe('typed');
      expect(typed(() => openChannel({ chain: [root], self: p1, members: any })), String(j)).toBe('typed');
      expect(typed(() => openChannel(any)), String(j)).toBe('typed');
      expect(typed(() => signStatement(any, p1)), String(j)).toBe('typed');
      expect(typed(() => verifyOverdraftProof(any, members)), String(j)).toBe('typed');
      expect(typed(() => verifyOverdraftProof({ chain: [root], statements: [any] }, members)), String(j)).toBe('typed');
      expect(typed(() => verifyOverdraftProof({ chain: [root], statements: [sign(p2, 2000n, 1n)] }, any)), String(j)).toBe('typed');
    }
    expect(typed(() => c.spend(-1n))).toBe('typed');
    expect(typed(() => c.spend(1n << 64n))).toBe('typed');
    expect(typed(() => decodeSignedStatement(new Uint8Array([0xa0])))).toBe('typed');
    expect(typed(() => decodeOverdraftProof(new Uint8Array([0xa0])))).toBe('typed');
    expect(snap(c)).toEqual(before);
  });
});
