// Unit tests of jcp §4.7 checkpoints and amendments (impl/jcp/checkpoint.ts): byte shapes, each refusal's code, and
// the conservation property — no sequence of checkpoints and amendments lets the run be allowed more than its grant.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { codeOf, lazy, lazyKey, TOOL_RESOURCE } from '../_test-support.ts';
import { toHex } from '../bytes.ts';
import { decodeCanonical, encodeCanonical } from '../cbor/index.ts';
import { defaultEd25519 } from '../identity/ed25519.ts';
import {
  amend,
  amendmentBytes,
  amendmentId,
  checkpointBytes,
  checkpointId,
  continuationNonce,
  continuationOf,
  issueContinuation,
  parseSignedAmendment,
  parseSignedCheckpoint,
  remainderAt,
  signCheckpoint,
  signedAmendmentToCbor,
  signedCheckpointToCbor,
  verifyAmendment,
  verifyCheckpoint,
  verifyContinuation,
  type Amendment,
  type Checkpoint,
  type SignedAmendment,
  type SignedCheckpoint,
} from './checkpoint.ts';
import { contentId } from './content-id.ts';
import { grantId, mintGrant, signGrant } from './grant.ts';
import type { SignedGrant } from './types.ts';

const alice = lazyKey('alice'); // the issuer (steward of the run)
const bob = lazyKey('bob'); // the agent
const mallory = lazyKey('mallory');
const RES = TOOL_RESOURCE;
const state = (n: number) => contentId({ state: n });
const ed = defaultEd25519();

const G: SignedGrant = lazy(() => mintGrant(alice, { subject: bob.did, resource: RES, actions: ['call', 'read'], budget_uj: 1000n, expiry: 5000n, nonce: new Uint8Array(16).fill(1) }));

/** Signs any checkpoint as given (bypassing signCheckpoint's rules), as a lying agent could. */
const rawCheckpoint = (c: Checkpoint, k = bob): SignedCheckpoint => ({ checkpoint: c, signature: ed.sign(k.seed, checkpointBytes(c)) });
/** Signs any amendment as given (bypassing amend's rules), as a careless or hostile amender could. */
const rawAmendment = (a: Amendment, k = alice): SignedAmendment => ({ amendment: a, signature: ed.sign(k.seed, amendmentBytes(a)) });

describe('jcp §4.7 byte shapes', () => {
  it('a checkpoint without a spend omits the field; with one it carries {uj, provenance}; both round-trip strictly', () => {
    const c0 = signCheckpoint(G, bob, { state: state(0) });
    const m0 = decodeCanonical(encodeCanonical(signedCheckpointToCbor(c0))) as Map<string, unknown>;
    expect([...(m0.get('checkpoint') as Map<string, unknown>).keys()].sort()).toEqual(['agent', 'grant_id', 'state']);
    const c1 = signCheckpoint(G, bob, { state: state(1), spent: { uj: 10n, provenance: 'HwShunt' }, prev: c0 });
    const back = parseSignedCheckpoint(decodeCanonical(encodeCanonical(signedCheckpointToCbor(c1))));
    expect(back.checkpoint).toEqual(c1.checkpoint);
    expect(checkpointId(back.checkpoint)).toBe(checkpointId(c1.checkpoint));
    expect(c1.checkpoint.prev).toBe(checkpointId(c0.checkpoint));
    expect(toHex(checkpointBytes(c1.checkpoint))).toBe(
      toHex(encodeCanonical({ grant_id: grantId(G.grant), agent: bob.did, state: state(1), spent: { uj: 10n, provenance: 'HwShunt' }, prev: checkpointId(c0.checkpoint) })),
    );
  });

  it('strict parsing refuses unknown fields, a bad provenance, a non-cid state', () => {
    const c = signCheckpoint(G, bob, { state: state(0) });
    const enc = (inner: Record<string, unknown>) => decodeCanonical(encodeCanonical({ checkpoint: inner as never, signature: c.signature }));
    const base = { grant_id: grantId(G.grant), agent: bob.did, state: state(0) };
    expect(codeOf(() => parseSignedCheckpoint(enc({ ...base, extra: 1 })))).toBe('ERR_CHECKPOINT_MALFORMED');
    expect(codeOf(() => parseSignedCheckpoint(enc({ ...base, spent: { uj: 1, provenance: 'Guess' } })))).toBe('ERR_CHECKPOINT_MALFORMED');
    expect(codeOf(() => parseSignedCheckpoint(enc({ ...base, state: 'ABC' })))).toBe('ERR_CHECKPOINT_MALFORMED');
    expect(codeOf(() => parseSignedAmendment(decodeCanonical(encodeCanonical({ amendment: { checkpoint: state(0) }, signature: c.signature }))))).toBe('ERR_AMENDMENT_MALFORMED');
    expect(codeOf(() => signCheckpoint(G, bob, { state: 'not-a-cid' }))).toBe('ERR_CHECKPOINT_MALFORMED');
  });

  it('an amendment round-trips; the continuation is the steered grant with the amended budget and a linking nonce', () => {
    const c = signCheckpoint(G, bob, { state: state(0), spent: { uj: 300n, provenance: 'Estimator' } });
    const a = amend(G, c, alice, { budget_uj: 500n, actions: ['read'], instructions: contentId({ instructions: 'v2' }) });
    expect(parseSignedAmendment(decodeCanonical(encodeCanonical(signedAmendmentToCbor(a))))).toEqual(a);
    const k = issueContinuation(G, c, a, alice);
    expect(k.grant.issuer).toBe(alice.did);
    expect(k.grant.subject).toBe(bob.did);
    expect(k.grant.budget_uj).toBe(500n);
    expect(k.grant.capability.actions).toEqual(['read']);
    expect(k.grant.expiry).toBe(5000n);
    expect(k.grant.parent).toBeUndefined();
    expect(toHex(k.grant.nonce)).toBe(toHex(continuationNonce(grantId(G.grant), amendmentId(a.amendment))));
    expect(verifyContinuation(G, c, a, k)).toEqual({ known: true, uj: 700n });
  });
});

describe('jcp §4.7 refusals, each with its own code', () => {
  const c0 = lazy(() => signCheckpoint(G, bob, { state: state(0), spent: { uj: 400n, provenance: 'HwShunt' } }));

  it('only the agent checkpoints; a forged checkpoint signature and a checkpoint of another grant are refused', () => {
    expect(codeOf(() => signCheckpoint(G, alice, { state: state(0) }))).toBe('ERR_CHECKPOINT_NOT_AGENT');
    expect(codeOf(() => verifyAmendment(G, rawCheckpoint(c0.checkpoint, mallory), rawAmendment({ checkpoint: checkpointId(c0.checkpoint), amender: alice.did, budget_uj: 1n })))).toBe('ERR_CHECKPOINT_SIGNATURE_INVALID');
    const other = mintGrant(alice, { subject: bob.did, resource: RES, actions: ['call'], budget_uj: 1000n, nonce: new Uint8Array(16).fill(2) });
    expect(codeOf(() => amend(other, c0, alice, { budget_uj: 1n }))).toBe('ERR_CHECKPOINT_WRONG_GRANT');
    const byAlice = rawCheckpoint({ ...c0.checkpoint, agent: alice.did }, alice);
    expect(codeOf(() => amend(G, byAlice, alice, { budget_uj: 1n }))).toBe('ERR_CHECKPOINT_NOT_AGENT');
    const forgedGrant = { grant: G.grant, signature: ed.sign(mallory.seed, new Uint8Array(1)) };
    expect(codeOf(() => amend(forgedGrant, c0, alice, { budget_uj: 1n }))).toBe('ERR_STEERED_GRANT_INVALID');
  });

  it('the agent cannot amend its own grant, nor can a non-issuer; a self-issued grant cannot be steered at all', () => {
    expect(codeOf(() => amend(G, c0, bob, { budget_uj: 100n }))).toBe('ERR_AMENDMENT_SELF_STEER');
    expect(codeOf(() => amend(G, c0, mallory, { budget_uj: 100n }))).toBe('ERR_AMENDMENT_NOT_ISSUER');
    const self = mintGrant(bob, { subject: bob.did, resource: RES, actions: ['call'], budget_uj: 1000n, nonce: new Uint8Array(16).fill(3) });
    const sc = signCheckpoint(self, bob, { state: state(0) });
    expect(codeOf(() => amend(self, sc, bob, { budget_uj: 1n }))).toBe('ERR_AMENDMENT_SELF_STEER');
    // the verifying side refuses the same pairs, signed directly
    const id = checkpointId(c0.checkpoint);
    expect(codeOf(() => verifyAmendment(G, c0, rawAmendment({ checkpoint: id, amender: bob.did, budget_uj: 100n }, bob)))).toBe('ERR_AMENDMENT_SELF_STEER');
    expect(codeOf(() => verifyAmendment(G, c0, rawAmendment({ checkpoint: id, amender: mallory.did, budget_uj: 100n }, mallory)))).toBe('ERR_AMENDMENT_NOT_ISSUER');
    expect(codeOf(() => verifyAmendment(G, c0, rawAmendment({ checkpoint: id, amender: alice.did, budget_uj: 100n }, mallory)))).toBe('ERR_AMENDMENT_SIGNATURE_INVALID');
  });

  it('an amendment only tightens, and never past the remainder of a checkpoint that stated its spend (both sides)', () => {
    expect(codeOf(() => amend(G, c0, alice, { budget_uj: 1001n }))).toBe('ERR_AMENDMENT_WIDENS');
    expect(codeOf(() => amend(G, c0, alice, { budget_uj: 601n }))).toBe('ERR_AMENDMENT_ABOVE_REMAINDER');
    expect(codeOf(() => amend(G, c0, alice, { budget_uj: 600n }))).toBe('accepted');
    expect(codeOf(() => amend(G, c0, alice, { budget_uj: 1n, actions: ['call', 'delete'] }))).toBe('ERR_AMENDMENT_WIDENS');
    expect(codeOf(() => amend(G, c0, alice, { budget_uj: 1n, expiry: 5001n }))).toBe('ERR_AMENDMENT_WIDENS');
    expect(codeOf(() => amend(G, c0, alice, { budget_uj: 1n, expiry: 0n }))).toBe('ERR_AMENDMENT_WIDENS');
    const id = checkpointId(c0.checkpoint);
    expect(codeOf(() => verifyAmendment(G, c0, rawAmendment({ checkpoint: id, amender: alice.did, budget_uj: 601n })))).toBe('ERR_AMENDMENT_ABOVE_REMAINDER');
    expect(codeOf(() => verifyAmendment(G, c0, rawAmendment({ checkpoint: id, amender: alice.did, budget_uj: 600n })))).toBe('accepted');
    // saturating at zero: a spend past the budget leaves nothing
    const over = signCheckpoint(G, bob, { state: state(1), spent: { uj: 5000n, provenance: 'Estimator' }, prev: c0 });
    expect(remainderAt(G.grant, over.checkpoint)).toEqual({ known: true, uj: 0n });
    expect(codeOf(() => amend(G, over, alice, { budget_uj: 1n }, c0))).toBe('ERR_AMENDMENT_ABOVE_REMAINDER');
    expect(codeOf(() => amend(G, over, alice, { budget_uj: 0n }, c0))).toBe('accepted');
  });

  it('an absent spend is not zero: the remainder is unknown and the ceiling is the issued budget', () => {
    const quiet = signCheckpoint(G, bob, { state: state(0) });
    expect(remainderAt(G.grant, quiet.checkpoint)).toEqual({ known: false });
    expect(codeOf(() => amend(G, quiet, alice, { budget_uj: 1000n }))).toBe('accepted');
    expect(codeOf(() => amend(G, quiet, alice, { budget_uj: 1001n }))).toBe('ERR_AMENDMENT_WIDENS');
  });

  it('a declared spend never decreases and is never dropped; the run is prev-linked', () => {
    expect(codeOf(() => signCheckpoint(G, bob, { state: state(1), spent: { uj: 399n, provenance: 'HwShunt' }, prev: c0 }))).toBe('ERR_CHECKPOINT_SPEND_DECREASED');
    expect(codeOf(() => signCheckpoint(G, bob, { state: state(1), prev: c0 }))).toBe('ERR_CHECKPOINT_SPEND_OMITTED');
    expect(codeOf(() => signCheckpoint(G, bob, { state: state(1), spent: { uj: 400n, provenance: 'HwShunt' }, prev: c0 }))).toBe('accepted');
    // the verifying side: a lying agent signs directly
    const id0 = checkpointId(c0.checkpoint);
    const down = rawCheckpoint({ ...c0.checkpoint, state: state(1), spent: { uj: 10n, provenance: 'HwShunt' }, prev: id0 });
    const quiet = rawCheckpoint({ grant_id: c0.checkpoint.grant_id, agent: bob.did, state: state(1), prev: id0 });
    const a = (c: SignedCheckpoint) => rawAmendment({ checkpoint: checkpointId(c.checkpoint), amender: alice.did, budget_uj: 900n });
    expect(codeOf(() => verifyAmendment(G, down, a(down), c0))).toBe('ERR_CHECKPOINT_SPEND_DECREASED');
    expect(codeOf(() => verifyAmendment(G, quiet, a(quiet), c0))).toBe('ERR_CHECKPOINT_SPEND_OMITTED');
    // a checkpoint naming a predecessor cannot be verified without it, nor against another one
    expect(codeOf(() => verifyAmendment(G, quiet, a(quiet)))).toBe('ERR_CHECKPOINT_RUN_BROKEN');
    const c0b = signCheckpoint(G, bob, { state: state(9), spent: { uj: 1n, provenance: 'HwShunt' } });
    expect(codeOf(() => verifyAmendment(G, quiet, a(quiet), c0b))).toBe('ERR_CHECKPOINT_RUN_BROKEN');
  });

  it('the run crosses into its continuation only by the amendment that links them; a stated spend is still stated there', () => {
    const a = amend(G, c0, alice, { budget_uj: 500n });
    const k = issueContinuation(G, c0, a, alice);
    // under the continuation the ledger restarts: a figure below the steered grant's last one is not a decrease
    const k0 = signCheckpoint(k, bob, { state: state(2), spent: { uj: 5n, provenance: 'HwShunt' }, prev: c0, via: a });
    expect(k0.checkpoint.prev).toBe(checkpointId(c0.checkpoint));
    expect(codeOf(() => signCheckpoint(k, bob, { state: state(2), prev: c0, via: a }))).toBe('ERR_CHECKPOINT_SPEND_OMITTED');
    expect(codeOf(() => signCheckpoint(k, bob, { state: state(2), spent: { uj: 5n, provenance: 'HwShunt' }, prev: c0 }))).toBe('ERR_CHECKPOINT_RUN_BROKEN');
    // an amendment bound to another checkpoint, or a grant that is not its continuation, does not link
    const other = amend(G, signCheckpoint(G, bob, { state: state(7) }), alice, { budget_uj: 500n });
    expect(codeOf(() => signCheckpoint(k, bob, { state: state(2), spent: { uj: 5n, provenance: 'HwShunt' }, prev: c0, via: other }))).toBe('ERR_CHECKPOINT_RUN_BROKEN');
    const notK = mintGrant(alice, { subject: bob.did, resource: RES, actions: ['call'], budget_uj: 500n, nonce: new Uint8Array(16).fill(4) });
    expect(codeOf(() => signCheckpoint(notK, bob, { state: state(2), spent: { uj: 5n, provenance: 'HwShunt' }, prev: c0, via: a }))).toBe('ERR_CHECKPOINT_RUN_BROKEN');
    // the verifying side: the continuation's first checkpoint is judged with the steered one and the amendment
    const ka = amend(k, k0, alice, { budget_uj: 495n }, c0, a);
    expect(verifyContinuation(k, k0, ka, issueContinuation(k, k0, ka, alice, c0, a), c0, a)).toEqual({ known: true, uj: 495n });
    const quietK = rawCheckpoint({ grant_id: grantId(k.grant), agent: bob.did, state: state(3), prev: checkpointId(c0.checkpoint) });
    const qa = rawAmendment({ checkpoint: checkpointId(quietK.checkpoint), amender: alice.did, budget_uj: 500n });
    expect(codeOf(() => verifyAmendment(k, quietK, qa, c0, a))).toBe('ERR_CHECKPOINT_SPEND_OMITTED');
  });

  it('a verifier holding the run refuses a checkpoint that does not extend it (a quiet restart)', () => {
    const restart = signCheckpoint(G, bob, { state: state(5) }); // no prev, no spend: as if the run had just begun
    const ra = rawAmendment({ checkpoint: checkpointId(restart.checkpoint), amender: alice.did, budget_uj: 1000n });
    expect(codeOf(() => verifyAmendment(G, restart, ra, c0))).toBe('ERR_CHECKPOINT_RUN_BROKEN');
    expect(codeOf(() => amend(G, restart, alice, { budget_uj: 1000n }, c0))).toBe('ERR_CHECKPOINT_RUN_BROKEN');
  });

  it('an amendment bound to a different checkpoint is refused', () => {
    const c1 = signCheckpoint(G, bob, { state: state(1), spent: { uj: 500n, provenance: 'HwShunt' }, prev: c0 });
    const a0 = amend(G, c0, alice, { budget_uj: 600n });
    expect(codeOf(() => verifyAmendment(G, c1, a0, c0))).toBe('ERR_AMENDMENT_WRONG_CHECKPOINT');
  });

  it('a continuation not linked to the pair, or not the one it determines, is refused', () => {
    const a = amend(G, c0, alice, { budget_uj: 600n });
    const want = continuationOf(G.grant, a.amendment);
    const relinked = signGrant({ ...want, nonce: new Uint8Array(16).fill(9) }, alice);
    expect(codeOf(() => verifyContinuation(G, c0, a, relinked))).toBe('ERR_CONTINUATION_UNLINKED');
    const fatter = signGrant({ ...want, budget_uj: 601n }, alice);
    expect(codeOf(() => verifyContinuation(G, c0, a, fatter))).toBe('ERR_CONTINUATION_MISMATCH');
    const toMallory = signGrant({ ...want, subject: mallory.did }, alice);
    expect(codeOf(() => verifyContinuation(G, c0, a, toMallory))).toBe('ERR_CONTINUATION_MISMATCH');
    const forged = { grant: want, signature: ed.sign(mallory.seed, new Uint8Array(1)) };
    expect(codeOf(() => verifyContinuation(G, c0, a, forged))).toBe('ERR_CONTINUATION_MISMATCH');
    expect(codeOf(() => verifyContinuation(G, c0, a, issueContinuation(G, c0, a, alice)))).toBe('accepted');
  });
});

describe('jcp §4.7 conservation (property)', () => {
  const PARAMS = { seed: 0x4a4350, numRuns: 200 };
  /** One step of a hostile run: the agent declares a spend (any figure, possibly lower or absent), the amender picks any budget. */
  const step = fc.record({
    spend: fc.option(fc.oneof(fc.bigInt({ min: 0n, max: 100n }), fc.bigInt({ min: 0n, max: 1500n })), { nil: undefined, freq: 3 }),
    checkpoints: fc.integer({ min: 1, max: 3 }),
    // small amendments are the ones a continuation's small remainder can still take
    budget: fc.oneof(fc.bigInt({ min: 0n, max: 200n }), fc.bigInt({ min: 0n, max: 1500n })),
    /** Whether the agent links its checkpoints to the run (prev), or tries a quiet restart. */
    linked: fc.boolean(),
  });

  it('no sequence of checkpoints and amendments lets the run be allowed more than the original grant', () => {
    let steered = 0;
    let refused = 0;
    fc.assert(
      fc.property(fc.array(step, { minLength: 1, maxLength: 5 }), (steps) => {
        // the steering side holds the run: the last checkpoint it accepted, that checkpoint's own predecessor and
        // link, and the amendment the run crossed by (set until the first checkpoint under the continuation)
        let active = G;
        let held: SignedCheckpoint | undefined;
        let heldPred: { prev?: SignedCheckpoint; via?: SignedAmendment } = {};
        let crossing: SignedAmendment | undefined;
        let stated = false;
        // what the run has consumed of the original grant at each steering: the declared spend under each steered grant
        let consumed = 0n;
        let n = 0;
        for (const s of steps) {
          // checkpoints signed directly (no signCheckpoint rules), linked or not: the verifier alone holds the line
          for (let i = 0; i < s.checkpoints; i++) {
            const spent = s.spend === undefined ? undefined : s.spend + BigInt(i) * (i % 2 === 0 ? 1n : -1n);
            const c = rawCheckpoint({
              grant_id: grantId(active.grant),
              agent: bob.did,
              state: state(n++),
              ...(spent !== undefined && spent >= 0n ? { spent: { uj: spent, provenance: 'Estimator' as const } } : {}),
              ...(held !== undefined && s.linked ? { prev: checkpointId(held.checkpoint) } : {}),
            });
            if (codeOf(() => verifyCheckpoint(active, c, held, crossing)) !== 'accepted') {
              refused++;
              continue;
            }
            heldPred = { ...(held !== undefined ? { prev: held } : {}), ...(crossing !== undefined ? { via: crossing } : {}) };
            held = c;
            crossing = undefined;
            stated ||= c.checkpoint.spent !== undefined;
          }
          if (held === undefined || held.checkpoint.grant_id !== grantId(active.grant)) continue;
          // the amendment signed directly too: only verifyContinuation decides whether the run moves on
          const a = rawAmendment({ checkpoint: checkpointId(held.checkpoint), amender: alice.did, budget_uj: s.budget });
          const k = signGrant(continuationOf(active.grant, a.amendment), alice);
          let rem;
          try {
            rem = verifyContinuation(active, held, a, k, heldPred.prev, heldPred.via);
          } catch {
            refused++;
            continue; // refused: the run stays under the active grant
          }
          steered++;
          // a run that never stated its spend is under the spec's weaker rule (ceiling = issued budget), which no
          // conservation bound covers (see the next property); one that once stated it can never get there
          if (!rem.known) return !stated;
          consumed += held.checkpoint.spent!.uj < active.grant.budget_uj ? held.checkpoint.spent!.uj : active.grant.budget_uj;
          active = k;
          crossing = a;
          // jcp §4.7: the amended budget fits what is left, so consumed + allowed never passes the original
          if (consumed + active.grant.budget_uj > G.grant.budget_uj) return false;
        }
        return consumed + active.grant.budget_uj <= G.grant.budget_uj;
      }),
      PARAMS,
    );
    // not vacuous: runs were both steered and refused
    expect(steered).toBeGreaterThan(20);
    expect(refused).toBeGreaterThan(20);
  });

  it('where a checkpoint states no spend, a continuation is still never above the steered grant', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: 0n, max: 3000n }), (budget) => {
        const c = rawCheckpoint({ grant_id: grantId(G.grant), agent: bob.did, state: state(0) });
        const a = rawAmendment({ checkpoint: checkpointId(c.checkpoint), amender: alice.did, budget_uj: budget });
        const k = signGrant(continuationOf(G.grant, a.amendment), alice);
        const ok = codeOf(() => verifyContinuation(G, c, a, k)) === 'accepted';
        return ok === budget <= G.grant.budget_uj;
      }),
      PARAMS,
    );
  });
});

describe('jcp §4.7 junk at the entry points (STYLE.md): a typed refusal, never a crash', () => {
  const c = lazy(() => signCheckpoint(G, bob, { state: state(0), spent: { uj: 1n, provenance: 'HwShunt' } }));
  const a = lazy(() => amend(G, c, alice, { budget_uj: 1n }));
  const JUNK: unknown[] = [undefined, null, 0, 1n, 'x', [], {}, { grant: 1 }, { checkpoint: {} }, { amendment: { budget_uj: -1n } }, () => 1, Symbol('s')];
  const isTyped = (code: string) => !code.startsWith('not a JcpError');

  it('every public function refuses junk in every position with a JcpError', () => {
    for (const j of JUNK) {
      const x = j as never;
      for (const [what, fn] of [
        ['signCheckpoint grant', () => signCheckpoint(x, bob, { state: state(1) })],
        ['signCheckpoint agent', () => signCheckpoint(G, x, { state: state(1) })],
        ['signCheckpoint fields', () => signCheckpoint(G, bob, x)],
        ['signCheckpoint state', () => signCheckpoint(G, bob, { state: x })],
        ['signCheckpoint spent', () => signCheckpoint(G, bob, { state: state(1), spent: x })],
        ['signCheckpoint prev', () => signCheckpoint(G, bob, { state: state(1), prev: x })],
        ['amend grant', () => amend(x, c, alice, { budget_uj: 1n })],
        ['amend checkpoint', () => amend(G, x, alice, { budget_uj: 1n })],
        ['amend amender', () => amend(G, c, x, { budget_uj: 1n })],
        ['amend fields', () => amend(G, c, alice, x)],
        ['amend budget', () => amend(G, c, alice, { budget_uj: x })],
        ['amend actions', () => amend(G, c, alice, { budget_uj: 1n, actions: x })],
        ['verifyAmendment amendment', () => verifyAmendment(G, c, x)],
        ['verifyAmendment prev', () => verifyAmendment(G, c, a, x)],
        ['verifyContinuation continuation', () => verifyContinuation(G, c, a, x)],
        ['issueContinuation issuer', () => issueContinuation(G, c, a, x)],
        ['parseSignedCheckpoint', () => parseSignedCheckpoint(x)],
        ['parseSignedAmendment', () => parseSignedAmendment(x)],
      ] as Array<[string, () => unknown]>) {
        const code = codeOf(fn);
        expect([what, String(j), isTyped(code)]).toEqual([what, String(j), true]);
      }
    }
  });
});
