// Conformance: jcp §4.5 receipt-settled budget channels (C17). Points spend optimistically against one grant and settle
// by signed statements of cumulative spend; forged, stale and regressing statements are refused (state unchanged);
// after settlement the merged ledger binds and an overdraft is provable from the signed statements.
// Channels, statements and proofs are made by the implementation under test. The oracle only checks signatures and
// byte shapes (impl/jcp/channel.ts's header fixes them) and crafts what no honest point would send: a forged, altered,
// replayed or regressing statement, or a tampered proof.
import fc from 'fast-check';
import { describe, expect } from 'vitest';
import { implementation } from '../driver.ts';
import type { ChannelHandle, Minted } from '../implementation.ts';
import {
  decodeCanonical,
  decodeOverdraftProof,
  decodeSignedStatement,
  defaultEd25519,
  encodeCanonical,
  overdraftProofToCbor,
  publicKeyFromDid,
  signedStatementToCbor,
  signStatement,
  type SignedStatement,
  type Statement,
} from '../oracle.ts';
import { clauseIt } from '../clause.ts';
import { assertProperty, codeOf, expectCode } from '../refusal.ts';
import { refusalJudge } from '../contract-codes.ts';
import { fcParams } from '../external-vectors.ts';
import { key, mallory, nonce, rootGrant } from '../fixtures.ts';

const OPTIMISTIC = 'jcp/4.5#channels-spend-optimistically';
const SETTLE = 'jcp/4.5#statement-verified-and-counted';
const C17 = 'jcp/9#c17-channels'; // §9: forged, stale, regressing refused; merged ledger binds; overdraft provable

const P1 = key('channel-point-1');
const P2 = key('channel-point-2');
const P3 = key('channel-point-3');
const MEMBERS = [P1.did, P2.did, P3.did];

/** A fresh 1000 µJ root grant (alice → bob) for one test, minted by the implementation. */
const shared = (label: string): Promise<Minted> => rootGrant({ budget_uj: 1000n, nonce: nonce(`channel-${label}`) });
const open = (g: Minted, self = P1): Promise<ChannelHandle> => implementation().openChannel(self.seed, [g.signed_grant], MEMBERS);
const bytesOf = (ss: SignedStatement): Uint8Array => encodeCanonical(signedStatementToCbor(ss));
/** A statement signed by the oracle as `signer` (the suite holds every point's seed). */
const craft = (s: Statement, signer = P2): Uint8Array => bytesOf(signStatement(s, signer));

describe('jcp §4.5 budget channels', () => {
  clauseIt([OPTIMISTIC], 'a point spends optimistically and signs statements of its cumulative spend over the four spec fields', async () => {
    const g = await shared('shape');
    const c = await open(g);
    expect(await c.spend(250n)).toEqual({ verdict: 'allow' });
    expect(await c.spend(100n)).toEqual({ verdict: 'allow' });
    const s1 = decodeSignedStatement(await c.statement());
    expect(s1.statement).toEqual({ grant_id: g.grant_id, point: P1.did, spent_uj: 350n, seq: s1.statement.seq });
    await c.spend(50n);
    const s2 = decodeSignedStatement(await c.statement());
    expect(s2.statement.spent_uj).toBe(400n);
    expect(s2.statement.seq).toBeGreaterThan(s1.statement.seq);
    // signed by the point over the statement's canonical bytes (jcp §4.5 "signed by point over its canonical bytes")
    const raw = (decodeCanonical(encodeCanonical(signedStatementToCbor(s2))) as Map<string, unknown>).get('statement');
    expect(defaultEd25519().verify(s2.signature, encodeCanonical(raw as never), publicKeyFromDid(P1.did))).toBe(true);
    expect((await c.ledger()).local_uj).toBe(400n);
  });

  clauseIt([SETTLE, C17], "a settled peer statement is counted against the shared budget: the merged ledger binds", async () => {
    const g = await shared('merged');
    const a = await open(g, P1);
    const b = await open(g, P2);
    expect(await a.spend(600n)).toEqual({ verdict: 'allow' });
    // before settlement b knows nothing of a's spend
    expect((await b.ledger()).total_uj).toBe(0n);
    await b.apply(await a.statement());
    expect(await b.ledger()).toEqual({ local_uj: 0n, total_uj: 600n, peers: { [P1.did]: { seq: expect.any(BigInt), spent_uj: 600n } } });
    expect(await b.spend(401n)).toEqual({ verdict: 'deny', deny_reason: 'budget-exceeded' });
    expect((await b.ledger()).local_uj).toBe(0n);
    expect(await b.spend(400n)).toEqual({ verdict: 'allow' });
    expect(await b.spend(1n)).toEqual({ verdict: 'deny', deny_reason: 'budget-exceeded' });
  });

  clauseIt([SETTLE, C17], 'a forged statement is refused (ERR_STATEMENT_FORGED) and changes nothing', async () => {
    const g = await shared('forged');
    const a = await open(g, P1);
    await a.apply(craft({ grant_id: g.grant_id, point: P2.did, spent_uj: 100n, seq: 1n }));
    const before = await a.ledger();
    const honest = signStatement({ grant_id: g.grant_id, point: P2.did, spent_uj: 700n, seq: 2n }, P2);
    const flipped = honest.signature.slice();
    flipped[0]! ^= 0x01;
    const forgeries: Uint8Array[] = [
      bytesOf({ statement: honest.statement, signature: flipped }),
      // mallory signs a claim in P2's name
      bytesOf({ statement: honest.statement, signature: signStatement({ ...honest.statement, point: mallory.did }, mallory).signature }),
      // P2's signed claim with its spend lowered after signing
      bytesOf({ statement: { ...honest.statement, spent_uj: 150n }, signature: honest.signature }),
    ];
    for (const f of forgeries) {
      await expectCode(a.apply(f), 'ERR_STATEMENT_FORGED');
      expect(await a.ledger()).toEqual(before);
    }
    // the honest statement is then accepted and counted
    await a.apply(bytesOf(honest));
    expect((await a.ledger()).total_uj).toBe(700n);
  });

  clauseIt([SETTLE, C17], 'a stale statement (seq not increasing) is refused (ERR_STATEMENT_STALE) and changes nothing', async () => {
    const g = await shared('stale');
    const a = await open(g, P1);
    const b = await open(g, P2);
    await b.spend(100n);
    const first = await b.statement();
    await b.spend(200n);
    const second = await b.statement();
    await a.apply(second);
    const before = await a.ledger();
    // the older statement arriving late, and the same statement replayed
    await expectCode(a.apply(first), 'ERR_STATEMENT_STALE');
    await expectCode(a.apply(second), 'ERR_STATEMENT_STALE');
    const seq = decodeSignedStatement(second).statement.seq;
    // a validly signed claim of more spend at the same seq is stale too
    await expectCode(a.apply(craft({ grant_id: g.grant_id, point: P2.did, spent_uj: 900n, seq })), 'ERR_STATEMENT_STALE');
    expect(await a.ledger()).toEqual(before);
    expect(before.total_uj).toBe(300n);
  });

  clauseIt([SETTLE, C17], 'a regressing statement (spent_uj decreasing) is refused (ERR_STATEMENT_REGRESSING) and changes nothing', async () => {
    const g = await shared('regress');
    const a = await open(g, P1);
    await a.apply(craft({ grant_id: g.grant_id, point: P2.did, spent_uj: 500n, seq: 3n }));
    const before = await a.ledger();
    await expectCode(a.apply(craft({ grant_id: g.grant_id, point: P2.did, spent_uj: 499n, seq: 4n })), 'ERR_STATEMENT_REGRESSING');
    expect(await a.ledger()).toEqual(before);
    // the same spend at a later seq does not regress
    await a.apply(craft({ grant_id: g.grant_id, point: P2.did, spent_uj: 500n, seq: 4n }));
    expect((await a.ledger()).peers[P2.did]).toEqual({ seq: 4n, spent_uj: 500n });
  });

  clauseIt([SETTLE], "a statement about another grant, or from a point outside the channel, is refused and changes nothing", async () => {
    const g = await shared('foreign');
    const other = await shared('foreign-other');
    const a = await open(g, P1);
    const before = await a.ledger();
    await expectCode(a.apply(craft({ grant_id: other.grant_id, point: P2.did, spent_uj: 10n, seq: 1n })), 'ERR_STATEMENT_WRONG_GRANT');
    await expectCode(a.apply(craft({ grant_id: g.grant_id, point: mallory.did, spent_uj: 10n, seq: 1n }, mallory)), 'ERR_STATEMENT_NOT_MEMBER');
    expect(await a.ledger()).toEqual(before);
  });

  clauseIt([SETTLE, OPTIMISTIC, C17], 'after settlement an overdraft binds both points and is provable from the signed statements', async () => {
    const g = await shared('overdraft');
    const a = await open(g, P1);
    const b = await open(g, P2);
    // optimistic: each point alone is within budget
    expect(await a.spend(600n)).toEqual({ verdict: 'allow' });
    expect(await b.spend(700n)).toEqual({ verdict: 'allow' });
    expect(await a.overdraftProof()).toBeUndefined();
    await b.apply(await a.statement());
    await a.apply(await b.statement());
    for (const c of [a, b]) {
      expect((await c.ledger()).total_uj).toBe(1300n);
      expect(await c.spend(1n)).toEqual({ verdict: 'deny', deny_reason: 'budget-exceeded' });
    }
    const proof = (await a.overdraftProof())!;
    expect(await implementation().verifyOverdraft(proof, MEMBERS)).toBe(300n);
    expect(await implementation().verifyOverdraft((await b.overdraftProof())!, MEMBERS)).toBe(300n);
    // every statement in the proof is one the points signed, and their claims alone add up past the budget
    const p = decodeOverdraftProof(proof);
    expect(p.statements.map((s) => [s.statement.point, s.statement.spent_uj]).sort()).toEqual([[P1.did, 600n], [P2.did, 700n]].sort());

    // tampered proofs are refused: a statement altered, counted twice, from outside the channel, or no overdraft at all
    const [s1, s2] = p.statements as [SignedStatement, SignedStatement];
    const again = (statements: SignedStatement[]) => encodeCanonical(overdraftProofToCbor({ chain: p.chain, statements }));
    const refused = (bytes: Uint8Array, what: string, members = MEMBERS) =>
      expectCode(implementation().verifyOverdraft(bytes, members), 'ERR_OVERDRAFT_PROOF_INVALID', what);
    await refused(again([s1, { statement: { ...s2.statement, spent_uj: 900n }, signature: s2.signature }]), 'a statement altered');
    const big = s1.statement.point === P1.did ? s2 : s1;
    await refused(again([big, big]), 'a statement counted twice');
    await refused(again([big, signStatement({ grant_id: g.grant_id, point: mallory.did, spent_uj: 600n, seq: 1n }, mallory)]), 'a statement from outside the channel');
    await refused(proof, 'judged with P1 the only member (P2 outside the channel)', [P1.did]);
    await refused(again([big]), 'no overdraft at all');
  });

  clauseIt([SETTLE, OPTIMISTIC], 'property: no sequence of statements lets allowed spend pass the budget unbound or unproven', async () => {
    const op = fc.oneof(
      { weight: 4, arbitrary: fc.record({ kind: fc.constant('spend' as const), at: fc.nat(2), uj: fc.bigInt(0n, 800n) }) },
      { weight: 2, arbitrary: fc.record({ kind: fc.constant('send' as const), from: fc.nat(2), to: fc.nat(2) }) },
      { weight: 1, arbitrary: fc.record({ kind: fc.constant('replay' as const), from: fc.nat(2), to: fc.nat(2), back: fc.nat(4) }) },
    );
    const g = await shared('property');
    const keys = [P1, P2, P3];
    const stale = refusalJudge();
    await assertProperty(
      fc.asyncProperty(fc.array(op, { maxLength: 24 }), fc.boolean(), async (ops, synchronous) => {
        const cs = await Promise.all(keys.map((k) => open(g, k)));
        const sent: Uint8Array[][] = [[], [], []];
        const lastSeq: Array<Map<number, bigint>> = [new Map(), new Map(), new Map()];
        const local = [0n, 0n, 0n];
        const settleAll = async (): Promise<void> => {
          const latest = await Promise.all(cs.map((c) => c.statement()));
          latest.forEach((s, i) => sent[i]!.push(s));
          for (let j = 0; j < 3; j++) {
            for (let i = 0; i < 3; i++) {
              if (i === j) continue;
              await cs[j]!.apply(latest[i]!);
              lastSeq[j]!.set(i, decodeSignedStatement(latest[i]!).statement.seq);
            }
          }
        };
        for (const o of ops) {
          if (o.kind === 'spend') {
            if (synchronous) await settleAll();
            const c = cs[o.at]!;
            const before = await c.ledger();
            const v = await c.spend(o.uj);
            const after = await c.ledger();
            // an allow never takes this point's merged ledger past the budget; a deny changes nothing
            if (v.verdict === 'allow') {
              expect(after.total_uj).toBeLessThanOrEqual(1000n);
              local[o.at]! += o.uj;
            } else {
              expect(v.deny_reason).toBe('budget-exceeded');
              expect(before.total_uj + o.uj).toBeGreaterThan(1000n);
              expect(after).toEqual(before);
            }
          } else if (o.from !== o.to) {
            const s = o.kind === 'send' ? await cs[o.from]!.statement() : sent[o.from]!.at(-1 - o.back);
            if (!s) continue;
            if (o.kind === 'send') sent[o.from]!.push(s);
            const seq = decodeSignedStatement(s).statement.seq;
            const prior = lastSeq[o.to]!.get(o.from);
            const before = await cs[o.to]!.ledger();
            const code = await codeOf(cs[o.to]!.apply(s));
            if (prior !== undefined && seq <= prior) {
              stale(code, 'ERR_STATEMENT_STALE', `statement seq ${seq} from point ${o.from} at point ${o.to}, after seq ${prior}`);
              expect(await cs[o.to]!.ledger()).toEqual(before);
            } else {
              expect(code).toBe('accepted');
              lastSeq[o.to]!.set(o.from, seq);
            }
          }
        }
        await settleAll();
        const truth = local.reduce((x, y) => x + y, 0n);
        if (synchronous) expect(truth).toBeLessThanOrEqual(1000n);
        for (const c of cs) {
          expect((await c.ledger()).total_uj).toBe(truth);
          const proof = await c.overdraftProof();
          if (truth > 1000n) {
            expect(await implementation().verifyOverdraft(proof!, MEMBERS)).toBe(truth - 1000n);
            expect((await c.spend(1n)).verdict).toBe('deny');
          } else expect(proof).toBeUndefined();
        }
      }),
      fcParams(40),
    );
  }, 60_000);
});
