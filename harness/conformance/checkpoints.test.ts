// Conformance: jcp §4.7 checkpoints and amendments (C21). The agent checkpoints its own state; only the grant's issuer —
// a principal distinct from the agent — amends, only to tighten, and only up to what the grant has left at a checkpoint
// that stated its spend; the verifying side refuses what the amending side refuses; the run resumes under a continuation
// grant linked to the steered one. Everything is signed and judged by the implementation under test; the oracle only
// crafts what a conforming implementation would refuse to sign (a lying agent's checkpoint, an over-generous amendment).
// Byte shapes: impl/jcp/checkpoint.ts's header (the spec fixes none; the suite fixes them once).
import fc from 'fast-check';
import { describe, expect } from 'vitest';
import { clauseIt } from '../clause.ts';
import { implementation } from '../driver.ts';
import { fcParams } from '../external-vectors.ts';
import { alice, bob, carol, cost, frameFor, grantOf, mallory, nonce, once, point, rootGrant } from '../fixtures.ts';
import type { Minted } from '../implementation.ts';
import { assertProperty, codeOf, expectCode } from '../refusal.ts';
import { expectRefusedAs, refusalJudge } from '../contract-codes.ts';
import {
  amendmentBytes,
  blake3,
  checkpointBytes,
  contentId,
  decodeCanonical,
  defaultEd25519,
  encodeCanonical,
  parseSignedAmendment,
  parseSignedCheckpoint,
  signedAmendmentToCbor,
  signedCheckpointToCbor,
  type Amendment,
  type Checkpoint,
  type KeyPair,
} from '../oracle.ts';

const C21 = 'jcp/9#c21-checkpoints'; // §9: self-steering, non-issuer, widening, above-remainder, other-checkpoint amendments refused
const ed = defaultEd25519();
const hex = (b: Uint8Array) => Buffer.from(b).toString('hex');
const state = (n: number | string) => contentId({ state: n });

/** The run's grant: alice (issuer) to bob (the agent), 1000 µJ, call+read, expiring at 5000. */
const G = once(() => rootGrant({ expiry: 5000n, nonce: nonce('checkpoint-run') }));

/** A checkpoint signed as given by `k` (no rule applied): what a lying agent could produce. */
function rawCheckpoint(c: Checkpoint, k: KeyPair = bob): Uint8Array {
  return encodeCanonical(signedCheckpointToCbor({ checkpoint: c, signature: ed.sign(k.seed, checkpointBytes(c)) }));
}
/** An amendment signed as given by `k` (no rule applied): what a careless amender could produce. */
function rawAmendment(a: Amendment, k: KeyPair = alice): Uint8Array {
  return encodeCanonical(signedAmendmentToCbor({ amendment: a, signature: ed.sign(k.seed, amendmentBytes(a)) }));
}
const checkpointOf = (b: Uint8Array) => parseSignedCheckpoint(decodeCanonical(b));
const amendmentOf = (b: Uint8Array) => parseSignedAmendment(decodeCanonical(b));

/** The agent checkpoints under `g` through the implementation under test. */
function sign(g: Minted, f: { state: string; spent?: { uj: bigint; provenance: string }; prev?: Uint8Array; via?: Uint8Array }, agent: KeyPair = bob) {
  return implementation().signCheckpoint(agent.seed, g.signed_grant, f);
}
const spent = (uj: bigint) => ({ uj, provenance: 'HwShunt' });

describe('jcp §4.7 the checkpoint', () => {
  clauseIt(['jcp/4.7#checkpoint-may-state-spend', 'jcp/4.7#absent-spend-not-zero'], 'a checkpoint cites the grant and the state, is signed by the agent, and carries a spend only when stated', async () => {
    const g = await G();
    const quiet = await sign(g, { state: state(0) });
    const c0 = checkpointOf(quiet.signed_checkpoint);
    // the documented shape, absent spend omitted (not zero)
    const want0 = encodeCanonical({ grant_id: g.grant_id, agent: bob.did, state: state(0) });
    expect(hex(checkpointBytes(c0.checkpoint))).toBe(hex(want0));
    expect(quiet.checkpoint_id).toBe(hex(blake3(want0)));
    expect(ed.verify(c0.signature, want0, bob.publicKey)).toBe(true);
    const stated = await sign(g, { state: state(1), spent: { uj: 0n, provenance: 'Estimator' }, prev: quiet.signed_checkpoint });
    const want1 = encodeCanonical({ grant_id: g.grant_id, agent: bob.did, state: state(1), spent: { uj: 0n, provenance: 'Estimator' }, prev: quiet.checkpoint_id });
    expect(hex(checkpointBytes(checkpointOf(stated.signed_checkpoint).checkpoint))).toBe(hex(want1));
    expect(stated.checkpoint_id).toBe(hex(blake3(want1)));
    // only the agent (the grant's subject) checkpoints its run
    await expectCode(sign(g, { state: state(2) }, alice), 'ERR_CHECKPOINT_NOT_AGENT');
    await expectCode(sign(g, { state: state(2) }, mallory), 'ERR_CHECKPOINT_NOT_AGENT');
  });

  clauseIt(['jcp/4.7#declared-spend-not-decrease'], 'a declared spend never decreases across the run: refused when signing and when verifying', async () => {
    const g = await G();
    const c0 = await sign(g, { state: state('d0'), spent: spent(400n) });
    await expectCode(sign(g, { state: state('d1'), spent: spent(399n), prev: c0.signed_checkpoint }), 'ERR_CHECKPOINT_SPEND_DECREASED');
    const same = await sign(g, { state: state('d1'), spent: spent(400n), prev: c0.signed_checkpoint });
    expect(same.checkpoint_id).toMatch(/^[0-9a-f]{64}$/);
    // the verifying side: a lying agent signs a decreasing checkpoint itself
    const down = rawCheckpoint({ grant_id: g.grant_id, agent: bob.did, state: state('d2'), spent: spent(10n) as never, prev: c0.checkpoint_id });
    const a = rawAmendment({ checkpoint: hex(blake3(checkpointBytes(checkpointOf(down).checkpoint))), amender: alice.did, budget_uj: 900n });
    await expectCode(implementation().verifyCheckpoint({ grant: g.signed_grant, checkpoint: down, amendment: a, prev: c0.signed_checkpoint }), 'ERR_CHECKPOINT_SPEND_DECREASED');
  });

  clauseIt(['jcp/4.7#declared-spend-not-omitted', 'jcp/4.7#absent-spend-not-zero'], 'a spend once stated is never omitted later; a checkpoint naming a predecessor is judged with it', async () => {
    const g = await G();
    const c0 = await sign(g, { state: state('o0'), spent: spent(900n) });
    await expectCode(sign(g, { state: state('o1'), prev: c0.signed_checkpoint }), 'ERR_CHECKPOINT_SPEND_OMITTED');
    // going quiet would recover the full issued ceiling: the verifying side refuses the quiet checkpoint too
    const quiet = rawCheckpoint({ grant_id: g.grant_id, agent: bob.did, state: state('o1'), prev: c0.checkpoint_id });
    const a = rawAmendment({ checkpoint: hex(blake3(checkpointBytes(checkpointOf(quiet).checkpoint))), amender: alice.did, budget_uj: 1000n });
    await expectCode(implementation().verifyCheckpoint({ grant: g.signed_grant, checkpoint: quiet, amendment: a, prev: c0.signed_checkpoint }), 'ERR_CHECKPOINT_SPEND_OMITTED');
    // nor can the predecessor be withheld, or swapped for another
    await expectCode(implementation().verifyCheckpoint({ grant: g.signed_grant, checkpoint: quiet, amendment: a }), 'ERR_CHECKPOINT_RUN_BROKEN');
    const other = await sign(g, { state: state('o-other') });
    await expectCode(implementation().verifyCheckpoint({ grant: g.signed_grant, checkpoint: quiet, amendment: a, prev: other.signed_checkpoint }), 'ERR_CHECKPOINT_RUN_BROKEN');
  });
});

describe('jcp §4.7 the run across a continuation, and as the steering side holds it', () => {
  clauseIt(['jcp/4.7#declared-spend-not-omitted', 'jcp/4.7#declared-spend-not-decrease'], 'a spend stated under the steered grant is still stated under its continuation, whose ledger restarts', async () => {
    const g = await G();
    const c0 = await sign(g, { state: state('x0'), spent: spent(400n) });
    const a = await implementation().amendCheckpoint(alice.seed, g.signed_grant, c0.signed_checkpoint, { budget_uj: 500n });
    const k = a.continuation;
    // the first checkpoint under the continuation names the steered one and is linked by the amendment
    const k0 = await sign(k, { state: state('x1'), spent: spent(5n), prev: c0.signed_checkpoint, via: a.signed_amendment });
    expect(checkpointOf(k0.signed_checkpoint).checkpoint.prev).toBe(c0.checkpoint_id);
    await expectCode(sign(k, { state: state('x1'), prev: c0.signed_checkpoint, via: a.signed_amendment }), 'ERR_CHECKPOINT_SPEND_OMITTED');
    // without the amendment, or under a grant that is not the continuation, the run does not cross
    await expectCode(sign(k, { state: state('x1'), spent: spent(5n), prev: c0.signed_checkpoint }), 'ERR_CHECKPOINT_RUN_BROKEN');
    const stranger = await rootGrant({ budget_uj: 500n, nonce: nonce('x-stranger') });
    await expectCode(sign(stranger, { state: state('x1'), spent: spent(5n), prev: c0.signed_checkpoint, via: a.signed_amendment }), 'ERR_CHECKPOINT_RUN_BROKEN');
    // the verifying side, shown the crossing: a quiet first checkpoint under the continuation is refused
    const quiet = rawCheckpoint({ grant_id: k.grant_id, agent: bob.did, state: state('x2'), prev: c0.checkpoint_id });
    const qa = rawAmendment({ checkpoint: hex(blake3(checkpointBytes(checkpointOf(quiet).checkpoint))), amender: alice.did, budget_uj: 500n });
    const verifyQuiet = (via?: Uint8Array) => implementation().verifyCheckpoint({ grant: k.signed_grant, checkpoint: quiet, amendment: qa, prev: c0.signed_checkpoint, ...(via ? { via } : {}) });
    await expectCode(verifyQuiet(a.signed_amendment), 'ERR_CHECKPOINT_SPEND_OMITTED');
    await expectCode(verifyQuiet(), 'ERR_CHECKPOINT_RUN_BROKEN');
    // and the steered run's figure does not bind the continuation's: 5 µJ after 400 is no decrease
    const ka = await implementation().amendCheckpoint(alice.seed, k.signed_grant, k0.signed_checkpoint, { budget_uj: 495n }, c0.signed_checkpoint, a.signed_amendment);
    expect(grantOf(ka.continuation).grant.budget_uj).toBe(495n);
    await expectCode(implementation().amendCheckpoint(alice.seed, k.signed_grant, k0.signed_checkpoint, { budget_uj: 496n }, c0.signed_checkpoint, a.signed_amendment), 'ERR_AMENDMENT_ABOVE_REMAINDER');
  });

  clauseIt(['jcp/4.7#declared-spend-not-omitted', 'jcp/4.7#both-sides-enforce-remainder'], 'a steering side holding the run refuses a checkpoint that does not extend it: a quiet restart recovers nothing', async () => {
    const g = await G();
    const c0 = await sign(g, { state: state('q0'), spent: spent(900n) });
    // the agent starts "afresh": no prev, no spend — read alone, its ceiling would be the full issued budget
    const restart = await sign(g, { state: state('q1') });
    await expectCode(implementation().amendCheckpoint(alice.seed, g.signed_grant, restart.signed_checkpoint, { budget_uj: 1000n }, c0.signed_checkpoint), 'ERR_CHECKPOINT_RUN_BROKEN');
    const ra = rawAmendment({ checkpoint: restart.checkpoint_id, amender: alice.did, budget_uj: 1000n });
    await expectCode(implementation().verifyCheckpoint({ grant: g.signed_grant, checkpoint: restart.signed_checkpoint, amendment: ra, prev: c0.signed_checkpoint }), 'ERR_CHECKPOINT_RUN_BROKEN');
  });
});

describe('jcp §4.7 the amendment', () => {
  clauseIt(['jcp/4.7#amender-differs-from-agent', C21], 'the agent cannot steer itself, a non-issuer cannot amend, and the verifying side refuses both', async () => {
    const g = await G();
    const c = await sign(g, { state: state('s0'), spent: spent(100n) });
    const amend = (k: KeyPair) => implementation().amendCheckpoint(k.seed, g.signed_grant, c.signed_checkpoint, { budget_uj: 100n });
    await expectCode(amend(bob), 'ERR_AMENDMENT_SELF_STEER');
    await expectCode(amend(mallory), 'ERR_AMENDMENT_NOT_ISSUER');
    await expectCode(amend(carol), 'ERR_AMENDMENT_NOT_ISSUER');
    const ok = await amend(alice);
    expect(amendmentOf(ok.signed_amendment).amendment.amender).toBe(alice.did);
    const verify = (amendment: Uint8Array) => implementation().verifyCheckpoint({ grant: g.signed_grant, checkpoint: c.signed_checkpoint, amendment });
    const base = { checkpoint: c.checkpoint_id, budget_uj: 100n };
    await expectCode(verify(rawAmendment({ ...base, amender: bob.did }, bob)), 'ERR_AMENDMENT_SELF_STEER');
    await expectCode(verify(rawAmendment({ ...base, amender: mallory.did }, mallory)), 'ERR_AMENDMENT_NOT_ISSUER');
    // naming the issuer is not being the issuer
    await expectCode(verify(rawAmendment({ ...base, amender: alice.did }, mallory)), 'ERR_AMENDMENT_SIGNATURE_INVALID');
    expect((await verify(ok.signed_amendment)).amendment_id).toBe(ok.amendment_id);
    // a grant its issuer holds itself cannot be steered at all: the amender must differ from the agent
    const selfHeld = await rootGrant({ subject: alice.did, nonce: nonce('self-held') });
    const sc = await sign(selfHeld, { state: state('s1') }, alice);
    await expectCode(implementation().amendCheckpoint(alice.seed, selfHeld.signed_grant, sc.signed_checkpoint, { budget_uj: 1n }), 'ERR_AMENDMENT_SELF_STEER');
  });

  clauseIt(['jcp/4.7#amender-differs-from-agent', C21], 'an amendment cites one checkpoint: bound to another, or handed a forged checkpoint, it is refused', async () => {
    const g = await G();
    const c0 = await sign(g, { state: state('w0'), spent: spent(100n) });
    const c1 = await sign(g, { state: state('w1'), spent: spent(200n), prev: c0.signed_checkpoint });
    const a0 = await implementation().amendCheckpoint(alice.seed, g.signed_grant, c0.signed_checkpoint, { budget_uj: 800n });
    await expectCode(implementation().verifyCheckpoint({ grant: g.signed_grant, checkpoint: c1.signed_checkpoint, amendment: a0.signed_amendment, prev: c0.signed_checkpoint }), 'ERR_AMENDMENT_WRONG_CHECKPOINT');
    // a checkpoint claiming bob's authorship, signed by mallory
    const forged = rawCheckpoint(checkpointOf(c0.signed_checkpoint).checkpoint, mallory);
    await expectCode(implementation().amendCheckpoint(alice.seed, g.signed_grant, forged, { budget_uj: 1n }), 'ERR_CHECKPOINT_SIGNATURE_INVALID');
    // a checkpoint of another grant
    const other = await rootGrant({ nonce: nonce('w-other') });
    await expectCode(implementation().amendCheckpoint(alice.seed, other.signed_grant, c0.signed_checkpoint, { budget_uj: 1n }), 'ERR_CHECKPOINT_WRONG_GRANT');
  });

  clauseIt(['jcp/4.7#amendment-only-tightens', C21], 'an amendment only tightens: a larger budget, an added action or a later expiry is refused on both sides', async () => {
    const g = await G();
    const c = await sign(g, { state: state('t0') });
    const amend = (a: { budget_uj: bigint; actions?: string[]; expiry?: bigint }) => implementation().amendCheckpoint(alice.seed, g.signed_grant, c.signed_checkpoint, a);
    await expectCode(amend({ budget_uj: 1001n }), 'ERR_AMENDMENT_WIDENS');
    await expectCode(amend({ budget_uj: 10n, actions: ['call', 'delete'] }), 'ERR_AMENDMENT_WIDENS');
    await expectCode(amend({ budget_uj: 10n, expiry: 5001n }), 'ERR_AMENDMENT_WIDENS');
    await expectCode(amend({ budget_uj: 10n, expiry: 0n }), 'ERR_AMENDMENT_WIDENS'); // 0 = never expires
    const tight = await amend({ budget_uj: 1000n, actions: ['read'], expiry: 4000n });
    const k = grantOf(tight.continuation).grant;
    expect([k.budget_uj, [...k.capability.actions], k.expiry]).toEqual([1000n, ['read'], 4000n]);
    const verify = (a: Omit<Amendment, 'checkpoint' | 'amender'>) =>
      implementation().verifyCheckpoint({ grant: g.signed_grant, checkpoint: c.signed_checkpoint, amendment: rawAmendment({ checkpoint: c.checkpoint_id, amender: alice.did, ...a }) });
    await expectCode(verify({ budget_uj: 1001n }), 'ERR_AMENDMENT_WIDENS');
    await expectCode(verify({ budget_uj: 1n, actions: ['admin'] }), 'ERR_AMENDMENT_WIDENS');
    await expectCode(verify({ budget_uj: 1n, expiry: 9999n }), 'ERR_AMENDMENT_WIDENS');
    expect(await codeOf(verify({ budget_uj: 1000n }))).toBe('accepted');
  });

  clauseIt(['jcp/4.7#amendment-within-remainder', 'jcp/4.7#both-sides-enforce-remainder', C21], 'with a stated spend the ceiling is budget − spent, saturating at zero, on the amending and the verifying side', async () => {
    const g = await G();
    const c = await sign(g, { state: state('r0'), spent: spent(400n) });
    const amend = (budget_uj: bigint, cp = c, prev?: Uint8Array) => implementation().amendCheckpoint(alice.seed, g.signed_grant, cp.signed_checkpoint, { budget_uj }, prev);
    await expectCode(amend(601n), 'ERR_AMENDMENT_ABOVE_REMAINDER');
    await expectCode(amend(1000n), 'ERR_AMENDMENT_ABOVE_REMAINDER'); // within the issued budget, past what is left
    const ok = await amend(600n);
    expect(grantOf(ok.continuation).grant.budget_uj).toBe(600n);
    // the verifying side: an enforcement point handed a signed amendment never calls the amending routine
    const verify = (budget_uj: bigint) =>
      implementation().verifyCheckpoint({ grant: g.signed_grant, checkpoint: c.signed_checkpoint, amendment: rawAmendment({ checkpoint: c.checkpoint_id, amender: alice.did, budget_uj }) });
    await expectCode(verify(601n), 'ERR_AMENDMENT_ABOVE_REMAINDER');
    expect(await verify(600n)).toMatchObject({ remainder_uj: 600n });
    // saturating at zero: a spend past the budget leaves nothing to amend to but zero
    const over = await sign(g, { state: state('r1'), spent: spent(1500n), prev: c.signed_checkpoint });
    await expectCode(amend(1n, over, c.signed_checkpoint), 'ERR_AMENDMENT_ABOVE_REMAINDER');
    expect(grantOf((await amend(0n, over, c.signed_checkpoint)).continuation).grant.budget_uj).toBe(0n);
  });

  clauseIt(['jcp/4.7#absent-spend-not-zero', 'jcp/4.7#report-remainder-unknown'], 'with no stated spend the ceiling is the issued budget and the remainder is reported unknown, not full', async () => {
    const g = await G();
    const quiet = await sign(g, { state: state('u0') });
    const a = await implementation().amendCheckpoint(alice.seed, g.signed_grant, quiet.signed_checkpoint, { budget_uj: 1000n });
    const v = await implementation().verifyCheckpoint({ grant: g.signed_grant, checkpoint: quiet.signed_checkpoint, amendment: a.signed_amendment });
    expect(v).not.toHaveProperty('remainder_uj');
    // a stated zero is a different statement: its remainder is known, and is the full budget
    const zero = await sign(g, { state: state('u1'), spent: spent(0n) });
    const az = await implementation().amendCheckpoint(alice.seed, g.signed_grant, zero.signed_checkpoint, { budget_uj: 1000n });
    expect(await implementation().verifyCheckpoint({ grant: g.signed_grant, checkpoint: zero.signed_checkpoint, amendment: az.signed_amendment })).toMatchObject({ remainder_uj: 1000n });
  });

  clauseIt(['jcp/4.7#amendment-may-hand-instructions'], 'an amendment may hand the agent a new instruction-set commitment, signed into it', async () => {
    const g = await G();
    const c = await sign(g, { state: state('i0'), spent: spent(1n) });
    const instructions = contentId({ instructions: 'stop after the next file' });
    const a = await implementation().amendCheckpoint(alice.seed, g.signed_grant, c.signed_checkpoint, { budget_uj: 10n, instructions });
    const sa = amendmentOf(a.signed_amendment);
    expect(sa.amendment).toEqual({ checkpoint: c.checkpoint_id, amender: alice.did, budget_uj: 10n, instructions });
    expect(ed.verify(sa.signature, encodeCanonical({ checkpoint: c.checkpoint_id, amender: alice.did, budget_uj: 10n, instructions }), alice.publicKey)).toBe(true);
    expect(a.amendment_id).toBe(hex(blake3(amendmentBytes(sa.amendment))));
  });
});

describe('jcp §4.7 the continuation', () => {
  clauseIt(['jcp/4.7#amendment-within-remainder', 'jcp/4.7#amendment-only-tightens'], 'the run resumes under a continuation linked to the steered grant, and an enforcement point holds it to the amended budget', async () => {
    const g = await G();
    const c = await sign(g, { state: state('k0'), spent: spent(700n) });
    const a = await implementation().amendCheckpoint(alice.seed, g.signed_grant, c.signed_checkpoint, { budget_uj: 250n });
    const k = grantOf(a.continuation).grant;
    const steered = grantOf(g).grant;
    // same issuer, same agent, the amended budget, the link in its nonce (documented derivation)
    expect([k.issuer, k.subject, k.budget_uj, k.parent]).toEqual([alice.did, bob.did, 250n, undefined]);
    expect(hex(k.nonce)).toBe(hex(blake3(encodeCanonical({ continues: g.grant_id, amendment: a.amendment_id })).slice(0, 16)));
    expect(k.capability).toEqual(steered.capability);
    expect(k.expiry).toBe(steered.expiry);
    expect((await implementation().verifyGrant(a.continuation.signed_grant)).valid).toBe(true);
    const v = await implementation().verifyCheckpoint({ grant: g.signed_grant, checkpoint: c.signed_checkpoint, amendment: a.signed_amendment, continuation: a.continuation.signed_grant });
    expect(v).toEqual({ checkpoint_id: c.checkpoint_id, amendment_id: a.amendment_id, remainder_uj: 300n });
    // decided as any grant: 250 µJ and not one more
    const p = await point();
    const req = (uj: bigint) => ({ frame: frameFor(a.continuation), chain: [a.continuation.signed_grant], caller: bob.did, cost: cost(uj), now_s: 100n });
    expect((await p.decide(req(250n))).verdict).toBe('allow');
    expect((await p.decide(req(1n))).deny_reason).toBe('budget-exceeded');
  });

  clauseIt(['jcp/4.7#amendment-within-remainder', 'jcp/4.7#amendment-only-tightens'], 'a continuation that is not the one the amendment determines, or not linked to it, does not verify', async () => {
    const g = await G();
    const c = await sign(g, { state: state('m0'), spent: spent(700n) });
    const a = await implementation().amendCheckpoint(alice.seed, g.signed_grant, c.signed_checkpoint, { budget_uj: 250n });
    const k = grantOf(a.continuation).grant;
    const reissue = (over: Record<string, unknown>) =>
      implementation().mintGrant(alice.seed, {
        subject: k.subject,
        resource: k.capability.resource,
        actions: [...k.capability.actions],
        budget_uj: k.budget_uj,
        expiry: k.expiry,
        nonce: k.nonce,
        ...over,
      });
    const verify = async (m: Minted) =>
      codeOf(implementation().verifyCheckpoint({ grant: g.signed_grant, checkpoint: c.signed_checkpoint, amendment: a.signed_amendment, continuation: m.signed_grant }));
    expect(await verify(await reissue({}))).toBe('accepted'); // the same grant, re-minted: byte-identical
    expectRefusedAs(await verify(await reissue({ budget_uj: 300n })), 'ERR_CONTINUATION_MISMATCH', 'a continuation of another budget');
    expectRefusedAs(await verify(await reissue({ subject: carol.did })), 'ERR_CONTINUATION_MISMATCH', 'a continuation to another subject');
    expectRefusedAs(await verify(await reissue({ nonce: nonce('unlinked') })), 'ERR_CONTINUATION_UNLINKED', 'a continuation of another nonce');
    // mallory's grant with the same fields is not the issuer's re-binding
    const byMallory = await implementation().mintGrant(mallory.seed, { subject: k.subject, resource: k.capability.resource, actions: [...k.capability.actions], budget_uj: 250n, expiry: k.expiry, nonce: k.nonce });
    expectRefusedAs(await verify(byMallory), 'ERR_CONTINUATION_MISMATCH', "mallory's continuation");
  });

  clauseIt(
    ['jcp/4.7#amendment-within-remainder', 'jcp/4.7#both-sides-enforce-remainder', 'jcp/4.7#amendment-only-tightens'],
    'property: spent + the continuation\'s budget never exceeds the steered grant, whatever the spend and the amendment asked',
    async () => {
      const g = await G();
      let n = 0;
      let allowed = 0;
      const judge = refusalJudge();
      await assertProperty(
        fc.asyncProperty(fc.option(fc.bigInt({ min: 0n, max: 1500n }), { nil: undefined }), fc.bigInt({ min: 0n, max: 1500n }), async (s, budget_uj) => {
          const c = await sign(g, { state: state(`p${n++}`), ...(s !== undefined ? { spent: spent(s) } : {}) });
          const code = await codeOf(implementation().amendCheckpoint(alice.seed, g.signed_grant, c.signed_checkpoint, { budget_uj }));
          const ceiling = s === undefined ? 1000n : s >= 1000n ? 0n : 1000n - s;
          // accepted, or refused (spec) with the suite's code for why (byte contract)
          const want = budget_uj > 1000n ? 'ERR_AMENDMENT_WIDENS' : budget_uj > ceiling ? 'ERR_AMENDMENT_ABOVE_REMAINDER' : 'accepted';
          const what = `budget_uj ${budget_uj} after ${s === undefined ? 'no spend' : `a spend of ${s}`}`;
          if (want === 'accepted') expect(code, `amend: ${what}`).toBe('accepted');
          else judge(code, want, `amend: ${what}`);
          // the verifying side agrees on the same pair, signed directly
          const vcode = await codeOf(
            implementation().verifyCheckpoint({ grant: g.signed_grant, checkpoint: c.signed_checkpoint, amendment: rawAmendment({ checkpoint: c.checkpoint_id, amender: alice.did, budget_uj }) }),
          );
          if (want === 'accepted') expect(vcode, `verify: ${what}`).toBe('accepted');
          else judge(vcode, want, `verify: ${what}`);
          if (code === 'accepted') {
            allowed++;
            if (s !== undefined) expect((s < 1000n ? s : 1000n) + budget_uj <= 1000n).toBe(true);
          }
        }),
        fcParams(40),
      );
      expect(allowed).toBeGreaterThan(0);
    },
  );
});
