// Conformance: jcp C19 injection resistance (§6 "trust = data marks untrusted output … MUST refuse to exercise any
// capability from a data frame … regardless of its content. Tool and agent outputs MUST be tagged data"; §10 tool
// poisoning). A corpus of poisons (injection-corpus.ts) is presented through data frames in every field a frame lets
// free content reach — the payload (as the payload_hash derived from it, or the poison itself where it has a content
// id's form), the action text, the model — under every frame kind, against grants that would allow, deny, bind that
// very payload, delegate, or are revoked. The decision must be exactly the one the same request gets with a benign
// payload (verdict, deny reason, debit, remaining budget), and nothing a data frame carries may turn it into control.
// decision.test.ts already shows a data frame is denied untrusted-control in each kind; this file shows its content
// cannot move that decision, the point's state, or the trust tag.
import fc from 'fast-check';
import { describe, expect } from 'vitest';
import { clauseIt } from '../clause.ts';
import { expectRefusedAs } from '../contract-codes.ts';
import { implementation } from '../driver.ts';
import { fcParams } from '../external-vectors.ts';
import { alice, bob, carol, cost, frameFor, idOf, mallory, nonce, once, payload, point, rootGrant, steward, TOOL } from '../fixtures.ts';
import type { DecideFields, FrameFields, Minted, Point } from '../implementation.ts';
import { assertProperty, codeOf, expectCode } from '../refusal.ts';
import { blake3, concatBytes, contentId, encodeCanonical, type CborValue } from '../oracle.ts';
import { injectionCorpus, type Poison } from './injection-corpus.ts';

const NOW = 1_000n;
const KINDS = ['tool-call', 'tool-result', 'agent-task', 'agent-reply'] as const;
const utf8 = new TextEncoder();
const hex = (b: Uint8Array) => Buffer.from(b).toString('hex');
const CID = /^[0-9a-f]{64}$/;

/** Where a poison is placed in a frame: each a field that admits free content (jcp §6). */
type Placement = 'payload' | 'payload-raw' | 'payload-literal' | 'action' | 'model' | 'model-literal' | 'everywhere';
const PLACEMENTS: readonly Placement[] = ['payload', 'payload-raw', 'payload-literal', 'action', 'model', 'model-literal', 'everywhere'];

/** The frame fields that carry `p` at `where`, or undefined where the field cannot hold it (a literal that is no content id). */
function poisoned(p: string, where: Placement): Partial<FrameFields> | undefined {
  switch (where) {
    case 'payload':
      return { payload_hash: payload(p) }; // the content id of the poisoned payload, as fixtures.payload derives any payload's
    case 'payload-raw':
      return { payload_hash: hex(blake3(utf8.encode(p))) };
    case 'payload-literal':
      return CID.test(p) ? { payload_hash: p } : undefined;
    case 'action':
      return p.length > 0 ? { action: p } : undefined;
    case 'model':
      return { model: contentId({ model: p }) };
    case 'model-literal':
      return CID.test(p) ? { model: p } : undefined;
    case 'everywhere':
      return { payload_hash: payload(p), action: p, model: contentId({ model: p }) };
  }
}

/** The benign counterpart of a placement: the same fields, filled with ordinary values. */
function benign(where: Placement): Partial<FrameFields> {
  const model = contentId({ model: 'benign-model' });
  if (where === 'action') return { action: 'summarize' };
  if (where === 'model' || where === 'model-literal') return { model };
  if (where === 'everywhere') return { payload_hash: payload('benign output'), action: 'summarize', model };
  return { payload_hash: payload('benign output') };
}

/** What a decision is, as far as steering could show: verdict, reason, what the point debited, what the receipt says. */
interface Outcome {
  readonly verdict: string;
  readonly deny_reason: string | undefined;
  readonly spent: readonly bigint[];
  readonly remaining: bigint;
  readonly sealed_verdict: unknown;
  readonly sealed_reason: unknown;
  readonly sealed_trust: unknown;
  readonly sealed_cost: unknown;
}

/** Decides `r` on `p` and reads everything a steered decision could change. */
async function decideOn(p: Point, r: DecideFields): Promise<Outcome> {
  const d = await p.decide(r);
  const core = await implementation().verifyReceipt(d.receipt, steward.did);
  const ids = [r.frame.grant_id, ...r.chain.map((b) => idOf(b))];
  const spent = await Promise.all([...new Set(ids)].map((id) => p.spent(id)));
  return {
    verdict: d.verdict,
    deny_reason: d.deny_reason,
    spent,
    remaining: core['budget_remaining_uj'] as bigint,
    sealed_verdict: core['verdict'],
    sealed_reason: core['deny_reason'],
    sealed_trust: core['trust'],
    sealed_cost: core['cost_uj'],
  };
}

/**
 * The benign outcome for (setting, placement, kind), decided once on `p` and remembered: a later poisoned decision is
 * compared with it, so a poison that debited or changed the point's state shows as a difference.
 */
function benignCache(p: Point, s: { request: (over: Partial<FrameFields>) => DecideFields }) {
  const seen = new Map<string, Promise<Outcome>>();
  return (where: Placement, kind: string): Promise<Outcome> => {
    const k = `${where}/${kind}`;
    let o = seen.get(k);
    if (!o) seen.set(k, (o = decideOn(p, s.request({ kind, ...benign(where) }))));
    return o;
  };
}

/** One setting a poisoned data frame is decided in: a grant (or chain), a caller, a cost, and a point set up for it. */
interface Setting {
  readonly name: string;
  /** What a benign control frame gets here (checked, so each setting is what it claims to be). */
  readonly control: string;
  readonly request: (over: Partial<FrameFields>) => DecideFields;
  readonly point: () => Promise<Point>;
}

const RUN = once(async () => {
  const g = await rootGrant({ expiry: 5000n, nonce: nonce('injection') });
  const child = await implementation().attenuate(g.signed_grant, bob.seed, { subject: carol.did, budget_uj: 300n, nonce: nonce('injection-child') });
  const revokedG = await rootGrant({ nonce: nonce('injection-revoked') });
  const rev = await implementation().mintRevocation(alice.seed, revokedG.grant_id, nonce('injection-rev'));
  const corpus = injectionCorpus({ grant_id: g.grant_id, resource: TOOL, issuer: alice.did, agent: bob.did, attacker: mallory.did });
  const req = (m: Minted, over: Partial<FrameFields>, extra: Partial<DecideFields> = {}): DecideFields => ({
    frame: frameFor(m, { trust: 'data', ...over }),
    chain: [m.signed_grant],
    caller: bob.did,
    cost: cost(10n),
    now_s: NOW,
    ...extra,
  });
  const settings: Setting[] = [
    { name: 'a grant that would allow', control: 'allow', request: (o) => req(g, o), point: () => point() },
    { name: 'a cost past the budget', control: 'budget-exceeded', request: (o) => req(g, o, { cost: cost(5000n) }), point: () => point() },
    { name: 'the attacker as caller', control: 'wrong-subject', request: (o) => req(g, o, { caller: mallory.did }), point: () => point() },
    { name: 'an expired grant', control: 'expired', request: (o) => req(g, o, { now_s: 6000n }), point: () => point() },
    {
      name: 'a delegated chain',
      control: 'allow',
      request: (o) => ({ ...req(child, o, { caller: carol.did }), chain: [g.signed_grant, child.signed_grant] }),
      point: () => point(),
    },
    {
      name: 'a revoked grant',
      control: 'revoked',
      request: (o) => req(revokedG, o),
      point: async () => {
        const p = await point();
        await p.revoke(rev, revokedG.signed_grant);
        return p;
      },
    },
  ];
  return { g, corpus, settings, req };
});

/** Every (poison, placement) pair that can be placed, with its frame fields. */
function placements(corpus: readonly Poison[]): Array<{ poison: Poison; where: Placement; fields: Partial<FrameFields> }> {
  const out: Array<{ poison: Poison; where: Placement; fields: Partial<FrameFields> }> = [];
  for (const poison of corpus) {
    for (const where of PLACEMENTS) {
      const fields = poisoned(poison.text, where);
      if (fields) out.push({ poison, where, fields });
    }
  }
  return out;
}

describe('jcp C19 a poisoned data frame is decided exactly as a benign one', () => {
  clauseIt(
    ['jcp/9#c19-injection', 'jcp/6#outputs-tagged-data', 'jcp/6#data-frame-refused', 'jcp/7#untrusted-control', 'jcp/7#debit-on-allow'],
    'every poison, in every free field and every kind, against a grant that would allow: untrusted-control, nothing debited, as benign',
    async () => {
      const { corpus, settings } = await RUN();
      const s = settings[0]!;
      const p = await s.point();
      const benignOn = benignCache(p, s);
      let decided = 0;
      for (const kind of KINDS) {
        for (const { poison, where, fields } of placements(corpus)) {
          const want = await benignOn(where, kind);
          const got = await decideOn(p, s.request({ kind, ...fields }));
          expect([poison.id, where, kind, got]).toEqual([poison.id, where, kind, want]);
          expect([poison.id, got.deny_reason, got.sealed_trust, got.spent.every((x) => x === 0n)]).toEqual([poison.id, 'untrusted-control', 'data', true]);
          decided++;
        }
      }
      // every placement was reached: the corpus holds content-id look-alikes for the literal placements
      expect(new Set(placements(corpus).map((x) => x.where))).toEqual(new Set(PLACEMENTS));
      expect(decided).toBeGreaterThan(KINDS.length * corpus.length * 4);
    },
  );

  clauseIt(
    ['jcp/9#c19-injection', 'jcp/6#outputs-tagged-data', 'jcp/6#data-frame-refused', 'jcp/7#untrusted-control', 'jcp/7#debit-on-allow'],
    'in every setting (over budget, attacker caller, expired, chained, revoked) the poisoned output gets what the benign output gets',
    async () => {
      const { corpus, settings, g } = await RUN();
      for (const s of settings) {
        const p = await s.point();
        const benignOn = benignCache(p, s);
        // the setting is what it claims: a benign control frame gets its named outcome
        const control = await (await s.point()).decide({ ...s.request({}), frame: { ...s.request({}).frame, trust: 'control' } });
        expect([s.name, control.deny_reason ?? control.verdict]).toEqual([s.name, s.control]);
        // outputs (jcp §6 "Tool and agent outputs MUST be tagged data"): the two output kinds, alternating
        let i = 0;
        for (const { poison, where, fields } of placements(corpus)) {
          const kind = i++ % 2 === 0 ? 'tool-result' : 'agent-reply';
          const want = await benignOn(where, kind);
          const got = await decideOn(p, s.request({ kind, ...fields }));
          expect([s.name, poison.id, where, got]).toEqual([s.name, poison.id, where, want]);
          expect(got.deny_reason).toBe('untrusted-control');
        }
      }
      // a grant whose PayloadIs caveat binds exactly the poisoned payload: a control frame carrying it is allowed,
      // the same payload arriving as data is not
      for (const poison of corpus.slice(0, 8)) {
        const bound = await rootGrant({ nonce: nonce(`bound-${poison.id}`), caveats: [{ PayloadIs: payload(poison.text) }] });
        const r = (trust: string): DecideFields => ({ frame: frameFor(bound, { trust, payload_hash: payload(poison.text) }), chain: [bound.signed_grant], caller: bob.did, cost: cost(10n), now_s: NOW });
        const p = await point();
        const asData = await decideOn(p, r('data'));
        expect([poison.id, asData.deny_reason, asData.spent]).toEqual([poison.id, 'untrusted-control', [0n]]);
        expect((await p.decide(r('control'))).verdict).toBe('allow');
      }
      expect(g.grant_id).toMatch(CID);
    },
  );

  clauseIt(
    ['jcp/9#c19-injection', 'jcp/6#outputs-tagged-data', 'jcp/6#data-frame-refused', 'jcp/7#decision-deterministic', 'jcp/7#debit-on-allow'],
    'after the whole corpus the point is untouched: a later control decision seals the same receipt bytes as on a fresh point',
    async () => {
      const { corpus, settings, g } = await RUN();
      const s = settings[0]!;
      const barraged = await s.point();
      for (const kind of KINDS) for (const { fields } of placements(corpus)) await barraged.decide(s.request({ kind, ...fields }));
      const benignControl: DecideFields = { frame: frameFor(g), chain: [g.signed_grant], caller: bob.did, cost: cost(10n), now_s: NOW };
      const after = await barraged.decide(benignControl);
      const fresh = await (await point()).decide(benignControl);
      expect(after.verdict).toBe('allow');
      expect(hex(after.receipt)).toBe(hex(fresh.receipt));
      expect(await barraged.spent(g.grant_id)).toBe(10n);
    },
  );

  clauseIt(
    ['jcp/9#c19-injection', 'jcp/6#outputs-tagged-data', 'jcp/7#debit-on-allow', 'jcp/7#action-not-granted'],
    'content is opaque to control too: a poisoned payload or model changes nothing, a poisoned action is just an ungranted action',
    async () => {
      const { corpus, g } = await RUN();
      const base: DecideFields = { frame: frameFor(g), chain: [g.signed_grant], caller: bob.did, cost: cost(10n), now_s: NOW };
      const fresh = async (over: Partial<FrameFields>) => decideOn(await point(), { ...base, frame: { ...base.frame, ...over } });
      const allowBenign = await fresh({ payload_hash: payload('benign output'), model: contentId({ model: 'benign-model' }) });
      const unknownAction = await fresh({ action: 'summarize' });
      expect([allowBenign.verdict, allowBenign.spent, allowBenign.remaining]).toEqual(['allow', [10n], 990n]);
      expect(unknownAction.deny_reason).toBe('action-not-granted');
      for (const poison of corpus) {
        for (const where of ['payload', 'payload-raw', 'payload-literal', 'model', 'model-literal'] as const) {
          const f = poisoned(poison.text, where);
          if (!f) continue;
          const got = await fresh(f.model ? f : { ...f, model: contentId({ model: 'benign-model' }) });
          const want = f.model ? await fresh({ model: contentId({ model: 'benign-model' }) }) : allowBenign;
          expect([poison.id, where, got]).toEqual([poison.id, where, want]);
        }
        expect([poison.id, await fresh({ action: poison.text })]).toEqual([poison.id, unknownAction]);
      }
    },
  );
});

describe('jcp C19 the trust tag is structural: data never becomes control', () => {
  clauseIt(['jcp/9#c19-injection', 'jcp/6#outputs-tagged-data', 'jcp/6#data-frame-refused'], 'a poisoned data frame parses as data, every field verbatim', async () => {
    const { corpus, g, req } = await RUN();
    for (const kind of KINDS) {
      for (const { poison, fields } of placements(corpus)) {
        const f = req(g, { kind, ...fields }).frame;
        const bytes = encodeCanonical(Object.fromEntries(Object.entries(f)) as Record<string, string>);
        const back = await implementation().frameCheck(bytes);
        expect([poison.id, back]).toEqual([poison.id, f]);
        expect(back.trust).toBe('data');
      }
    }
  });

  clauseIt(['jcp/9#c19-injection', 'jcp/6#outputs-tagged-data', 'jcp/6#data-frame-refused'], 'a frame cannot carry a second trust tag: the duplicate key is refused, whichever comes first', async () => {
    const { g } = await RUN();
    const f = frameFor(g);
    const e = (v: string) => encodeCanonical(v);
    // canonical key order (length first, then bytewise): kind, trust, action, grant_id, resource, payload_hash
    const entries = (trusts: string[]) =>
      concatBytes(
        new Uint8Array([0xa0 + 5 + trusts.length]),
        e('kind'), e('tool-result'),
        ...trusts.flatMap((t) => [e('trust'), e(t)]),
        e('action'), e(f.action),
        e('grant_id'), e(f.grant_id),
        e('resource'), e(f.resource),
        e('payload_hash'), e(f.payload_hash),
      );
    expect((await implementation().frameCheck(entries(['data']))).trust).toBe('data'); // the construction is sound
    await expectCode(implementation().frameCheck(entries(['data', 'control'])), 'ERR_CBOR_DUPLICATE_KEY');
    await expectCode(implementation().frameCheck(entries(['control', 'data'])), 'ERR_CBOR_DUPLICATE_KEY');
    // nor is any other spelling of control a trust value
    for (const t of ['Control', 'CONTROL', 'control ', 'trusted', '"control"']) {
      const m = new Map<string, CborValue>(Object.entries(f));
      m.set('trust', t);
      expectRefusedAs(await codeOf(implementation().frameCheck(encodeCanonical(m))), 'ERR_FRAME_MALFORMED', String(t));
    }
  });

  clauseIt(
    ['jcp/9#c19-injection', 'jcp/6#outputs-tagged-data', 'jcp/6#data-frame-refused', 'jcp/7#untrusted-control', 'jcp/7#debit-on-allow'],
    'property: any text, in any free field of any kind of data frame, gets the benign decision',
    async () => {
      const { corpus, settings } = await RUN();
      const s = settings[0]!;
      const p = await s.point();
      const benignOn = benignCache(p, s);
      const text = fc.oneof(fc.constantFrom(...corpus.map((c) => c.text)), fc.string({ minLength: 1 }), fc.string({ unit: 'binary', minLength: 1, maxLength: 200 }));
      await assertProperty(
        fc.asyncProperty(text, fc.constantFrom(...PLACEMENTS), fc.constantFrom(...KINDS), async (t, where, kind) => {
          const fields = poisoned(t, where);
          if (!fields) return;
          const got = await decideOn(p, s.request({ kind, ...fields }));
          expect(got).toEqual(await benignOn(where, kind));
          expect(got.deny_reason).toBe('untrusted-control');
        }),
        fcParams(60),
      );
    },
  );
});
