// Edge cases of jcp §4.7 checkpoints and amendments (impl/jcp/checkpoint.ts): strict parsing field by field (each
// refusal's message and path), the unsigned-integer range of jcp §3, the typed refusals at the entry points, the
// boundaries of every §4.7 rule (exactly at a limit, one past it) and the continuation "linked back to the steered
// grant" (byte shapes as the module header and ARCHITECTURE.md fix them).
import { describe, expect, it } from 'vitest';
import { lazy, lazyKey, thrown, TOOL_RESOURCE } from '../_test-support.ts';
import { decodeCanonical, encodeCanonical, type CborValue } from '../cbor/index.ts';
import { defaultEd25519, type Ed25519 } from '../identity/ed25519.ts';
import { bytesEqual } from '../bytes.ts';
import {
  amend,
  amendmentBytes,
  amendmentId,
  checkpointBytes,
  checkpointId,
  checkRunStep,
  continuationNonce,
  continuationOf,
  issueContinuation,
  parseAmendment,
  parseCheckpoint,
  parseSignedAmendment,
  parseSignedCheckpoint,
  signCheckpoint,
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
const state = (n: number) => contentId({ state: n });
const ed = defaultEd25519();
const U64_MAX = (1n << 64n) - 1n;

/** The run's grant: alice to bob, call+read, 1000 µJ, expiring at 5000 (as impl/jcp/checkpoint.test.ts). */
const G: SignedGrant = lazy(() => mintGrant(alice, { subject: bob.did, resource: TOOL_RESOURCE, actions: ['call', 'read'], budget_uj: 1000n, expiry: 5000n, nonce: new Uint8Array(16).fill(1) }));

/** Signs any checkpoint as given (no rule applied), as a lying agent could. */
const rawCheckpoint = (c: Checkpoint, k = bob): SignedCheckpoint => ({ checkpoint: c, signature: ed.sign(k.seed, checkpointBytes(c)) });
/** Signs any amendment as given (no rule applied), as a careless or hostile amender could. */
const rawAmendment = (a: Amendment, k = alice): SignedAmendment => ({ amendment: a, signature: ed.sign(k.seed, amendmentBytes(a)) });

/** The CBOR value a decoder hands a parser for `x` (integers as number when safe, bigint beyond). */
const wire = (x: Record<string, unknown>): CborValue => decodeCanonical(encodeCanonical(x as never));
/** A valid checkpoint's fields, as the wire carries them. */
const cpFields = () => ({ grant_id: grantId(G.grant), agent: bob.did, state: state(0) });
/** A valid amendment's fields, as the wire carries them. */
const amFields = () => ({ checkpoint: state(1), amender: alice.did, budget_uj: 10n });
/** What a refusal says: its message (which begins with the code) and its detail. */
const said = (fn: () => unknown) => {
  const e = thrown(fn);
  return { message: e.message, detail: e.detail };
};

describe('jcp §4.7 strict parsing: every refusal names the field it read', () => {
  it('a non-map is refused at the path it was read from, each parser with its own default path', () => {
    expect(said(() => parseCheckpoint(5))).toEqual({ message: 'ERR_CHECKPOINT_MALFORMED: $checkpoint: must be a map', detail: { path: '$checkpoint' } });
    expect(said(() => parseAmendment('x'))).toEqual({ message: 'ERR_AMENDMENT_MALFORMED: $amendment: must be a map', detail: { path: '$amendment' } });
    expect(said(() => parseSignedCheckpoint([]))).toEqual({ message: 'ERR_CHECKPOINT_MALFORMED: $signed_checkpoint: must be a map', detail: { path: '$signed_checkpoint' } });
    expect(said(() => parseSignedAmendment(undefined))).toEqual({ message: 'ERR_AMENDMENT_MALFORMED: $signed_amendment: must be a map', detail: { path: '$signed_amendment' } });
    expect(said(() => parseCheckpoint(wire({ ...cpFields(), spent: 5 })))).toEqual({ message: 'ERR_CHECKPOINT_MALFORMED: $checkpoint.spent: must be a map', detail: { path: '$checkpoint.spent' } });
    // the caller's path is the one named
    expect(thrown(() => parseCheckpoint(5, '$run[3]')).detail).toEqual({ path: '$run[3]' });
  });

  it('an unknown field is named, at the map that carries it', () => {
    expect(said(() => parseCheckpoint(wire({ ...cpFields(), extra: 1 })))).toEqual({ message: 'ERR_CHECKPOINT_MALFORMED: $checkpoint: unknown field "extra"', detail: { path: '$checkpoint' } });
    expect(said(() => parseCheckpoint(wire({ ...cpFields(), spent: { uj: 1, provenance: 'HwShunt', note: 'x' } })))).toEqual({
      message: 'ERR_CHECKPOINT_MALFORMED: $checkpoint.spent: unknown field "note"',
      detail: { path: '$checkpoint.spent' },
    });
    expect(said(() => parseAmendment(wire({ ...amFields(), reason: 'x' })))).toEqual({ message: 'ERR_AMENDMENT_MALFORMED: $amendment: unknown field "reason"', detail: { path: '$amendment' } });
  });

  it('each checkpoint field is refused by its own path and rule', () => {
    const CID = 'must be a content id (64 lowercase hex digits)';
    const cases: Array<[Record<string, unknown>, string, string]> = [
      [{ grant_id: 'ABC' }, '$checkpoint.grant_id', CID],
      [{ agent: 'did:key:zNotAKey' }, '$checkpoint.agent', 'must be an Ed25519 did:key'],
      [{ agent: 7 }, '$checkpoint.agent', 'must be an Ed25519 did:key'],
      [{ state: state(0).toUpperCase() }, '$checkpoint.state', CID],
      [{ spent: { uj: 1, provenance: 'Guess' } }, '$checkpoint.spent.provenance', 'must be HwShunt, ModelBased or Estimator'],
      [{ spent: { uj: 'one', provenance: 'HwShunt' } }, '$checkpoint.spent.uj', 'must be an unsigned integer'],
      [{ prev: 'x' }, '$checkpoint.prev', CID],
    ];
    for (const [over, path, rule] of cases) {
      expect([path, said(() => parseCheckpoint(wire({ ...cpFields(), ...over })))]).toEqual([path, { message: `ERR_CHECKPOINT_MALFORMED: ${path}: ${rule}`, detail: { path } }]);
    }
    // nested in a signed checkpoint, the path runs from the outer map
    expect(thrown(() => parseSignedCheckpoint(wire({ checkpoint: { ...cpFields(), state: 'ABC' }, signature: new Uint8Array(64) }))).detail).toEqual({ path: '$signed_checkpoint.checkpoint.state' });
  });

  it('each amendment field is refused by its own path and rule', () => {
    const cases: Array<[Record<string, unknown>, string, string]> = [
      [{ checkpoint: 'ABC' }, '$amendment.checkpoint', 'must be a content id (64 lowercase hex digits)'],
      [{ amender: 'did:web:example.com' }, '$amendment.amender', 'must be an Ed25519 did:key'],
      [{ budget_uj: -1 }, '$amendment.budget_uj', 'must be an unsigned integer'],
      [{ actions: 'call' }, '$amendment.actions', 'must be an array of text'],
      [{ actions: [5] }, '$amendment.actions', 'must be an array of text'],
      [{ actions: ['call', 5] }, '$amendment.actions', 'must be an array of text'],
      [{ expiry: 'soon' }, '$amendment.expiry', 'must be an unsigned integer'],
      [{ instructions: 'v2' }, '$amendment.instructions', 'must be a content id (64 lowercase hex digits)'],
    ];
    for (const [over, path, rule] of cases) {
      expect([path, said(() => parseAmendment(wire({ ...amFields(), ...over })))]).toEqual([path, { message: `ERR_AMENDMENT_MALFORMED: ${path}: ${rule}`, detail: { path } }]);
    }
    // the optional fields, well-formed, are read back as given
    const full = parseAmendment(wire({ ...amFields(), actions: ['read'], expiry: 0n, instructions: state(9) }));
    expect(full).toEqual({ ...amFields(), actions: ['read'], expiry: 0n, instructions: state(9) });
  });

  it('a signature is exactly 64 bytes (Ed25519), on both signed objects', () => {
    const cp = { checkpoint: cpFields(), signature: new Uint8Array(63) };
    expect(said(() => parseSignedCheckpoint(wire(cp)))).toEqual({
      message: 'ERR_CHECKPOINT_MALFORMED: $signed_checkpoint.signature: must be a byte string of 64 bytes',
      detail: { path: '$signed_checkpoint.signature' },
    });
    expect(thrown(() => parseSignedCheckpoint(wire({ ...cp, signature: new Uint8Array(65) }))).detail).toEqual({ path: '$signed_checkpoint.signature' });
    expect(thrown(() => parseSignedCheckpoint(wire({ ...cp, signature: 'sig' }))).detail).toEqual({ path: '$signed_checkpoint.signature' });
    expect(parseSignedCheckpoint(wire({ ...cp, signature: new Uint8Array(64) })).signature).toHaveLength(64);
    const am = { amendment: amFields(), signature: new Uint8Array(63) };
    expect(said(() => parseSignedAmendment(wire(am)))).toEqual({
      message: 'ERR_AMENDMENT_MALFORMED: $signed_amendment.signature: must be a byte string of 64 bytes',
      detail: { path: '$signed_amendment.signature' },
    });
    expect(parseSignedAmendment(wire({ ...am, signature: new Uint8Array(64) })).signature).toHaveLength(64);
  });
});

describe('jcp §4.7 / §3 unsigned integers: 0 … 2^64−1, as the decoder hands them (number when safe, bigint beyond)', () => {
  /** The spend a checkpoint carrying `uj` (as CBOR value) parses to. */
  const spendOf = (uj: CborValue) => parseCheckpoint(new Map<CborValue, CborValue>([...Object.entries(cpFields()), ['spent', new Map<CborValue, CborValue>([['uj', uj], ['provenance', 'HwShunt']])]])).spent;
  const refusal = (uj: CborValue) => said(() => spendOf(uj));
  const REFUSED = { message: 'ERR_CHECKPOINT_MALFORMED: $checkpoint.spent.uj: must be an unsigned integer', detail: { path: '$checkpoint.spent.uj' } };

  it('every value in range is read back as a bigint, the ends included', () => {
    expect(spendOf(0)?.uj).toBe(0n);
    expect(spendOf(7)?.uj).toBe(7n);
    expect(spendOf(0n)?.uj).toBe(0n);
    expect(spendOf(2n ** 60n)?.uj).toBe(2n ** 60n);
    expect(spendOf(U64_MAX)?.uj).toBe(U64_MAX);
    // and as decoded from the wire: 2^60 and 2^64−1 come back as bigints
    expect(parseCheckpoint(wire({ ...cpFields(), spent: { uj: U64_MAX, provenance: 'Estimator' } })).spent?.uj).toBe(U64_MAX);
    expect(parseAmendment(wire({ ...amFields(), budget_uj: 2n ** 60n })).budget_uj).toBe(2n ** 60n);
  });

  it('a negative, fractional, textual or over-wide value is refused', () => {
    for (const uj of [-1, -(2n ** 60n), -1n, 1.5, '5', 2n ** 64n, new Uint8Array(1)] as CborValue[]) {
      expect([String(uj), refusal(uj)]).toEqual([String(uj), REFUSED]);
    }
  });
});

describe('jcp §4.7 entry points: what is not even shaped like the object is refused with its own code', () => {
  const c = lazy(() => signCheckpoint(G, bob, { state: state(0), spent: { uj: 1n, provenance: 'HwShunt' } }));

  it('a non-object grant, checkpoint, predecessor or amendment is named', () => {
    for (const junk of [undefined, null, 0, 'x']) {
      const x = junk as never;
      expect(said(() => verifyCheckpoint(x, c))).toEqual({ message: 'ERR_GRANT_MALFORMED: the grant must be an object', detail: undefined });
      expect(said(() => verifyCheckpoint(G, x))).toEqual({ message: 'ERR_CHECKPOINT_MALFORMED: the checkpoint must be an object', detail: undefined });
      // an absent predecessor is no predecessor; anything else must be one
      if (junk !== undefined) {
        expect(said(() => verifyCheckpoint(G, c, x))).toEqual({ message: 'ERR_CHECKPOINT_MALFORMED: the previous checkpoint must be an object', detail: undefined });
      }
      expect(said(() => verifyAmendment(G, c, x))).toEqual({ message: 'ERR_AMENDMENT_MALFORMED: the amendment must be an object', detail: undefined });
    }
  });

  it('an object that is not well-formed is refused with the code of what it stands in for, never a crash', () => {
    expect(messageStart(() => verifyCheckpoint({} as never, c))).toBe('ERR_GRANT_MALFORMED: the grant is not well-formed: ');
    expect(messageStart(() => verifyCheckpoint(G, {} as never))).toBe('ERR_CHECKPOINT_MALFORMED: the checkpoint is not well-formed: ');
    expect(messageStart(() => verifyCheckpoint(G, c, {} as never))).toBe('ERR_CHECKPOINT_MALFORMED: the previous checkpoint is not well-formed: ');
    expect(messageStart(() => verifyAmendment(G, c, {} as never))).toBe('ERR_AMENDMENT_MALFORMED: the amendment is not well-formed: ');
  });

  it("a field the strict parser refuses keeps the parser's own refusal: its path is named", () => {
    const bad = { checkpoint: { ...c.checkpoint, state: 'ABC' }, signature: c.signature };
    expect(said(() => verifyCheckpoint(G, bad))).toEqual({
      message: 'ERR_CHECKPOINT_MALFORMED: $signed_checkpoint.checkpoint.state: must be a content id (64 lowercase hex digits)',
      detail: { path: '$signed_checkpoint.checkpoint.state' },
    });
    // a null spend (the byte shapes carry no nulls, jcp §3) is the encoder's refusal, not a crash
    expect(thrown(() => verifyCheckpoint(G, { checkpoint: { ...c.checkpoint, spent: null as never }, signature: c.signature })).code).toBe('ERR_CBOR_UNENCODABLE');
  });

  it('a signing key that is not a KeyPair is refused as a bad argument', () => {
    const WANT = { message: 'ERR_BAD_ARGUMENT: the signing key must be a KeyPair {seed, publicKey, did}', detail: undefined };
    for (const k of [null, undefined, 1, { did: 5, seed: bob.seed }, { did: bob.did, seed: [1, 2] }]) {
      expect([String(k), said(() => signCheckpoint(G, k as never, { state: state(1) }))]).toEqual([String(k), WANT]);
    }
  });

  it('a checkpoint is its documented fields only: extra properties of a spend claim are not signed', () => {
    const spent = { uj: 3n, provenance: 'ModelBased', note: 'not signed' } as never;
    const cp: Checkpoint = { ...cpFields(), spent };
    expect(checkpointBytes(cp)).toEqual(encodeCanonical({ ...cpFields(), spent: { uj: 3n, provenance: 'ModelBased' } }));
    expect(signCheckpoint(G, bob, { state: state(0), spent }).checkpoint.spent).toEqual({ uj: 3n, provenance: 'ModelBased' });
  });
});

/** The start of a refusal's message up to and including "not well-formed: " (what follows is the runtime's wording). */
function messageStart(fn: () => unknown): string {
  const m = thrown(fn).message;
  const i = m.indexOf('not well-formed: ');
  return i < 0 ? m : m.slice(0, i + 'not well-formed: '.length);
}

describe('jcp §4.7 strict parsing of the signed envelopes', () => {
  it('a malformed amendment inside a signed amendment is named by its path from the outer map', () => {
    const bad = wire({ amendment: { ...amFields(), budget_uj: 'ten' }, signature: new Uint8Array(64) });
    expect(said(() => parseSignedAmendment(bad))).toEqual({
      message: 'ERR_AMENDMENT_MALFORMED: $signed_amendment.amendment.budget_uj: must be an unsigned integer',
      detail: { path: '$signed_amendment.amendment.budget_uj' },
    });
    expect(said(() => parseSignedAmendment(wire({ amendment: amFields(), signature: new Uint8Array(64), extra: 0 })))).toEqual({
      message: 'ERR_AMENDMENT_MALFORMED: $signed_amendment: unknown field "extra"',
      detail: { path: '$signed_amendment' },
    });
    expect(said(() => parseSignedCheckpoint(wire({ checkpoint: cpFields(), signature: new Uint8Array(64), extra: 0 })))).toEqual({
      message: 'ERR_CHECKPOINT_MALFORMED: $signed_checkpoint: unknown field "extra"',
      detail: { path: '$signed_checkpoint' },
    });
  });
});

describe('jcp §4.7 the run rules: each refusal says which rule, about which checkpoints', () => {
  const c0 = lazy(() => signCheckpoint(G, bob, { state: state(0), spent: { uj: 400n, provenance: 'HwShunt' } }));
  const id0 = () => checkpointId(c0.checkpoint);

  it('a checkpoint that does not name the predecessor presented is refused, saying what it names', () => {
    const restart = signCheckpoint(G, bob, { state: state(5) });
    expect(said(() => verifyCheckpoint(G, restart, c0))).toEqual({
      message: "ERR_CHECKPOINT_RUN_BROKEN: the checkpoint's prev (none) is not the id of the checkpoint presented before it",
      detail: undefined,
    });
    const fork = rawCheckpoint({ ...cpFields(), state: state(6), prev: state(99) });
    expect(said(() => verifyCheckpoint(G, fork, c0)).message).toBe(`ERR_CHECKPOINT_RUN_BROKEN: the checkpoint's prev ${state(99)} is not the id of the checkpoint presented before it`);
    // and a checkpoint naming a predecessor is not judged without it
    expect(said(() => verifyCheckpoint(G, fork)).message).toBe(`ERR_CHECKPOINT_RUN_BROKEN: the checkpoint follows ${state(99)}; the run rules need that checkpoint presented`);
  });

  it("a predecessor by another agent does not start this agent's run", () => {
    // mallory's own (validly signed) checkpoint, which bob's names as its predecessor
    const theirs = rawCheckpoint({ grant_id: grantId(G.grant), agent: mallory.did, state: state(0) }, mallory);
    const next = rawCheckpoint({ ...cpFields(), state: state(1), prev: checkpointId(theirs.checkpoint) });
    expect(said(() => verifyCheckpoint(G, next, theirs))).toEqual({
      message: `ERR_CHECKPOINT_RUN_BROKEN: the checkpoint's agent ${bob.did} is not its predecessor's ${mallory.did}`,
      detail: undefined,
    });
    expect(thrown(() => checkRunStep(theirs.checkpoint, next.checkpoint)).code).toBe('ERR_CHECKPOINT_RUN_BROKEN');
  });

  it('a predecessor whose signature does not verify is refused, whatever it claims', () => {
    // a predecessor claiming bob's authorship with a lower spend, signed by mallory
    const forged = rawCheckpoint({ ...cpFields(), state: state(2), spent: { uj: 1n, provenance: 'HwShunt' } }, mallory);
    const next = rawCheckpoint({ ...cpFields(), state: state(3), spent: { uj: 2n, provenance: 'HwShunt' }, prev: checkpointId(forged.checkpoint) });
    expect(said(() => verifyCheckpoint(G, next, forged))).toEqual({
      message: "ERR_CHECKPOINT_SIGNATURE_INVALID: the previous checkpoint's signature does not verify under its agent's key",
      detail: undefined,
    });
  });

  it('crossing grants without a link is refused, also when the rules are asked with no link at all', () => {
    const a = amend(G, c0, alice, { budget_uj: 500n });
    const k = issueContinuation(G, c0, a, alice);
    const k0 = signCheckpoint(k, bob, { state: state(2), spent: { uj: 5n, provenance: 'HwShunt' }, prev: c0, via: a });
    const WANT = `ERR_CHECKPOINT_RUN_BROKEN: the checkpoint cites grant ${grantId(k.grant)}, its predecessor ${grantId(G.grant)}, and no amendment links them`;
    expect(thrown(() => checkRunStep(c0.checkpoint, k0.checkpoint)).message).toBe(WANT);
    expect(thrown(() => checkRunStep(c0.checkpoint, k0.checkpoint, { grant: k.grant })).message).toBe(WANT);
    expect(said(() => verifyCheckpoint(k, k0, c0)).message).toBe(WANT);
    // with the amendment that steered the predecessor, the same step is the run's
    expect(() => checkRunStep(c0.checkpoint, k0.checkpoint, { grant: k.grant, via: a.amendment })).not.toThrow();
    expect(() => verifyCheckpoint(k, k0, c0, a)).not.toThrow();
  });

  it("a continuation of another checkpoint's amendment does not carry this run across (no fork into another branch)", () => {
    // the issuer steered a sibling checkpoint c7; its continuation is genuine, but not the one c0's run may enter
    const c7 = signCheckpoint(G, bob, { state: state(7), spent: { uj: 400n, provenance: 'HwShunt' } });
    const a7 = amend(G, c7, alice, { budget_uj: 600n });
    const k7 = issueContinuation(G, c7, a7, alice);
    const f = { state: state(8), spent: { uj: 1n, provenance: 'HwShunt' as const }, prev: c0, via: a7 };
    expect(said(() => signCheckpoint(k7, bob, f))).toEqual({
      message: `ERR_CHECKPOINT_RUN_BROKEN: the amendment presented steers checkpoint ${checkpointId(c7.checkpoint)}, not the predecessor ${id0()}`,
      detail: undefined,
    });
    // from c7 itself it does
    expect(signCheckpoint(k7, bob, { ...f, prev: c7 }).checkpoint.prev).toBe(checkpointId(c7.checkpoint));
  });

  it("a grant is the continuation only when the amendment's amender issued it and its nonce is the link", () => {
    const a = amend(G, c0, alice, { budget_uj: 500n });
    const link = continuationNonce(grantId(G.grant), amendmentId(a.amendment));
    // mallory mints bob a grant carrying the right link: not the issuer's re-binding
    const byMallory = mintGrant(mallory, { subject: bob.did, resource: TOOL_RESOURCE, actions: ['call', 'read'], budget_uj: 500n, expiry: 5000n, nonce: link });
    const f = { state: state(2), spent: { uj: 5n, provenance: 'HwShunt' as const }, prev: c0, via: a };
    expect(said(() => signCheckpoint(byMallory, bob, f))).toEqual({
      message: `ERR_CHECKPOINT_RUN_BROKEN: grant ${grantId(byMallory.grant)} is not the continuation that amendment ${amendmentId(a.amendment)} determines for grant ${grantId(G.grant)}`,
      detail: undefined,
    });
    // alice's grant with another nonce is not linked either
    const unlinked = mintGrant(alice, { subject: bob.did, resource: TOOL_RESOURCE, actions: ['call'], budget_uj: 500n, nonce: new Uint8Array(16).fill(4) });
    expect(thrown(() => signCheckpoint(unlinked, bob, f)).code).toBe('ERR_CHECKPOINT_RUN_BROKEN');
    // the same link minted by alice is
    const byAlice = mintGrant(alice, { subject: bob.did, resource: TOOL_RESOURCE, actions: ['call', 'read'], budget_uj: 500n, expiry: 5000n, nonce: link });
    expect(bytesEqual(byAlice.grant.nonce, link)).toBe(true);
    expect(signCheckpoint(byAlice, bob, f).checkpoint.grant_id).toBe(grantId(byAlice.grant));
  });

  it('an amendment linking the run into a continuation must verify under its amender', () => {
    // an amendment naming alice, signed by mallory, and a continuation alice signed for it
    const forged = rawAmendment({ checkpoint: id0(), amender: alice.did, budget_uj: 500n }, mallory);
    const k = signGrant(continuationOf(G.grant, forged.amendment), alice);
    const k0 = rawCheckpoint({ grant_id: grantId(k.grant), agent: bob.did, state: state(2), spent: { uj: 5n, provenance: 'HwShunt' }, prev: id0() });
    expect(said(() => verifyCheckpoint(k, k0, c0, forged))).toEqual({
      message: "ERR_AMENDMENT_SIGNATURE_INVALID: the amendment linking the run into this continuation does not verify under its amender's key",
      detail: undefined,
    });
    // signed by alice, the same link verifies
    const real = rawAmendment(forged.amendment);
    expect(() => verifyCheckpoint(k, k0, c0, real)).not.toThrow();
  });

  it('an omitted or decreased spend is refused with the figures', () => {
    expect(said(() => signCheckpoint(G, bob, { state: state(1), prev: c0 }))).toEqual({
      message: 'ERR_CHECKPOINT_SPEND_OMITTED: the previous checkpoint stated 400 µJ spent; this one omits its spend',
      detail: undefined,
    });
    expect(said(() => signCheckpoint(G, bob, { state: state(1), spent: { uj: 399n, provenance: 'HwShunt' }, prev: c0 }))).toEqual({
      message: "ERR_CHECKPOINT_SPEND_DECREASED: declared spend 399 µJ is below the previous checkpoint's 400 µJ",
      detail: { spent_uj: '399', previous_uj: '400' },
    });
  });
});

describe('jcp §4.7 signing and verifying a checkpoint: each refusal says why', () => {
  it('fields that are not an object, or a predecessor or link that is not one, are refused by name', () => {
    for (const f of [null, 5, 'x']) {
      expect(said(() => signCheckpoint(G, bob, f as never))).toEqual({ message: 'ERR_CHECKPOINT_MALFORMED: the checkpoint fields must be an object {state, spent?, prev?}', detail: undefined });
    }
    expect(said(() => signCheckpoint(G, bob, { state: state(1), prev: 5 as never }))).toEqual({ message: 'ERR_CHECKPOINT_MALFORMED: the previous checkpoint must be an object', detail: undefined });
    const c0 = signCheckpoint(G, bob, { state: state(0) });
    for (const via of [5, 'x', null]) {
      expect([String(via), said(() => signCheckpoint(G, bob, { state: state(1), prev: c0, via: via as never }))]).toEqual([
        String(via),
        { message: 'ERR_AMENDMENT_MALFORMED: the amendment must be an object', detail: undefined },
      ]);
    }
    expect(thrown(() => signCheckpoint(G, bob, { state: state(1), prev: c0, via: {} as never })).code).toBe('ERR_AMENDMENT_MALFORMED');
  });

  it('a signer that is not the subject, a checkpoint of another grant or author, and a bad signature are named', () => {
    expect(said(() => signCheckpoint(G, mallory, { state: state(0) })).message).toBe(`ERR_CHECKPOINT_NOT_AGENT: ${mallory.did} is not the grant's subject ${bob.did}: only the agent checkpoints its run`);
    const c = signCheckpoint(G, bob, { state: state(0) });
    const forgedGrant = { grant: G.grant, signature: ed.sign(mallory.seed, new Uint8Array(1)) };
    expect(said(() => verifyCheckpoint(forgedGrant, c))).toEqual({ message: "ERR_STEERED_GRANT_INVALID: the grant's issuer signature does not verify", detail: undefined });
    const other = mintGrant(alice, { subject: bob.did, resource: TOOL_RESOURCE, actions: ['call'], budget_uj: 1000n, nonce: new Uint8Array(16).fill(2) });
    expect(said(() => verifyCheckpoint(other, c)).message).toBe(`ERR_CHECKPOINT_WRONG_GRANT: the checkpoint cites grant ${grantId(G.grant)}, not the grant presented ${grantId(other.grant)}`);
    const byMallory = rawCheckpoint({ ...c.checkpoint, agent: mallory.did }, mallory);
    expect(said(() => verifyCheckpoint(G, byMallory)).message).toBe(`ERR_CHECKPOINT_NOT_AGENT: the checkpoint's author ${mallory.did} is not the grant's subject ${bob.did}`);
    expect(said(() => verifyCheckpoint(G, rawCheckpoint(c.checkpoint, mallory)))).toEqual({
      message: "ERR_CHECKPOINT_SIGNATURE_INVALID: the checkpoint's signature does not verify under its agent's key",
      detail: undefined,
    });
  });

  it('a verifier backend that throws verifies nothing', () => {
    const c = signCheckpoint(G, bob, { state: state(0) });
    // throws for the agent's key only: the grant (alice's) still verifies through it
    const throwing: Ed25519 = {
      name: ed.name,
      publicKeyFromSeed: (s) => ed.publicKeyFromSeed(s),
      sign: (s, m) => ed.sign(s, m),
      verify: (sig, m, pk) => {
        if (bytesEqual(pk, bob.publicKey)) throw new Error('backend failure');
        return ed.verify(sig, m, pk);
      },
    };
    expect(thrown(() => verifyCheckpoint(G, c, undefined, undefined, throwing)).code).toBe('ERR_CHECKPOINT_SIGNATURE_INVALID');
    expect(() => verifyCheckpoint(G, c, undefined, undefined, ed)).not.toThrow();
  });
});

describe('jcp §4.7 the amendment: each rule at its boundary, each refusal with its axis', () => {
  const c0 = lazy(() => signCheckpoint(G, bob, { state: state(0), spent: { uj: 400n, provenance: 'HwShunt' } }));
  /** An amendment of c0 as given, signed by its named amender's key (alice unless stated). */
  const pair = (a: Partial<Amendment>, k = alice) => rawAmendment({ checkpoint: checkpointId(c0.checkpoint), amender: alice.did, budget_uj: 1n, ...a }, k);

  it('each refusal of an amendment names what it found, on the verifying side', () => {
    const quiet = signCheckpoint(G, bob, { state: state(3) }); // no spend: the ceiling is the issued budget
    const qa = (a: Partial<Amendment>) => rawAmendment({ checkpoint: checkpointId(quiet.checkpoint), amender: alice.did, budget_uj: 1n, ...a });
    expect(said(() => verifyAmendment(G, quiet, qa({ budget_uj: 1001n })))).toEqual({
      message: 'ERR_AMENDMENT_WIDENS: amended budget_uj 1001 is above the grant\'s 1000',
      detail: { axis: 'budget' },
    });
    expect(said(() => verifyAmendment(G, quiet, qa({ actions: ['read', 'delete'] })))).toEqual({
      message: 'ERR_AMENDMENT_WIDENS: the amendment grants action "delete" the grant does not',
      detail: { axis: 'actions' },
    });
    expect(said(() => verifyAmendment(G, quiet, qa({ expiry: 5001n })))).toEqual({
      message: "ERR_AMENDMENT_WIDENS: amended expiry 5001 outlives the grant's 5000",
      detail: { axis: 'expiry' },
    });
    expect(said(() => verifyAmendment(G, c0, pair({ budget_uj: 601n })))).toEqual({
      message: 'ERR_AMENDMENT_ABOVE_REMAINDER: amended budget_uj 601 is above the 600 µJ the grant has left at the checkpoint (budget 1000 − spent 400)',
      detail: { remainder_uj: '600' },
    });
    expect(said(() => verifyAmendment(G, c0, pair({ checkpoint: state(42) }))).message).toBe(
      `ERR_AMENDMENT_WRONG_CHECKPOINT: the amendment is bound to checkpoint ${state(42)}, not ${checkpointId(c0.checkpoint)}`,
    );
    expect(said(() => verifyAmendment(G, c0, pair({ amender: bob.did }, bob))).message).toBe(
      `ERR_AMENDMENT_SELF_STEER: the amender ${bob.did} is the agent itself (the grant's subject): an agent cannot steer its own run`,
    );
    expect(said(() => verifyAmendment(G, c0, pair({ amender: mallory.did }, mallory))).message).toBe(`ERR_AMENDMENT_NOT_ISSUER: the amender ${mallory.did} is not the grant's issuer ${alice.did}`);
    expect(said(() => verifyAmendment(G, c0, pair({}, mallory)))).toEqual({ message: "ERR_AMENDMENT_SIGNATURE_INVALID: the amendment's signature does not verify under its amender's key", detail: undefined });
  });

  it('an expiry exactly at the grant\'s is no widening; one second later is (jcp §4.1 expiry, 0 = never)', () => {
    expect(verifyAmendment(G, c0, pair({ expiry: 5000n }))).toEqual({ known: true, uj: 600n });
    expect(verifyAmendment(G, c0, pair({ expiry: 1n }))).toEqual({ known: true, uj: 600n });
    expect(thrown(() => verifyAmendment(G, c0, pair({ expiry: 5001n }))).code).toBe('ERR_AMENDMENT_WIDENS');
    expect(thrown(() => amend(G, c0, alice, { budget_uj: 1n, expiry: 5001n })).code).toBe('ERR_AMENDMENT_WIDENS');
    expect(amend(G, c0, alice, { budget_uj: 1n, expiry: 5000n }).amendment.expiry).toBe(5000n);
  });

  it('a grant that never expires can be amended to any expiry, "never" included', () => {
    const forever = mintGrant(alice, { subject: bob.did, resource: TOOL_RESOURCE, actions: ['call'], budget_uj: 1000n, nonce: new Uint8Array(16).fill(5) });
    expect(forever.grant.expiry).toBe(0n);
    const c = signCheckpoint(forever, bob, { state: state(0) });
    for (const expiry of [0n, 1n, U64_MAX]) {
      const a = amend(forever, c, alice, { budget_uj: 10n, expiry });
      expect(a.amendment.expiry).toBe(expiry);
      expect(issueContinuation(forever, c, a, alice).grant.expiry).toBe(expiry);
    }
  });

  it('the amending side refuses fields that are not an object, by name', () => {
    for (const f of [null, 5]) {
      expect(said(() => amend(G, c0, alice, f as never))).toEqual({
        message: 'ERR_AMENDMENT_MALFORMED: the amendment fields must be an object {budget_uj, actions?, expiry?, instructions?}',
        detail: undefined,
      });
    }
  });
});

describe('jcp §4.7 the continuation: what an auditor is told when it is not the one the amendment determines', () => {
  const c0 = lazy(() => signCheckpoint(G, bob, { state: state(0), spent: { uj: 400n, provenance: 'HwShunt' } }));
  const a = lazy(() => amend(G, c0, alice, { budget_uj: 600n }));
  const want = () => continuationOf(G.grant, a.amendment);

  it('a field other than the one the amendment determines is named', () => {
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ budget_uj: 601n }, 'budget_uj'],
      [{ subject: mallory.did }, 'subject'],
      [{ expiry: 4999n }, 'expiry'],
      [{ capability: { resource: TOOL_RESOURCE, actions: ['call'] } }, 'capability'],
      [{ delegate_depth: 1 }, 'delegate_depth'],
    ];
    for (const [over, field] of cases) {
      const k = signGrant({ ...want(), ...over } as never, alice);
      expect([field, said(() => verifyContinuation(G, c0, a, k))]).toEqual([
        field,
        { message: `ERR_CONTINUATION_MISMATCH: the continuation's ${field} is not what the amendment determines`, detail: { field } },
      ]);
    }
  });

  it('an unlinked nonce and a bad signature are refused, each saying so', () => {
    const relinked = signGrant({ ...want(), nonce: new Uint8Array(16).fill(9) }, alice);
    expect(said(() => verifyContinuation(G, c0, a, relinked))).toEqual({
      message: "ERR_CONTINUATION_UNLINKED: the continuation's nonce does not link it to the steered grant and this amendment",
      detail: undefined,
    });
    const forged = { grant: want(), signature: ed.sign(mallory.seed, new Uint8Array(1)) };
    expect(said(() => verifyContinuation(G, c0, a, forged))).toEqual({
      message: "ERR_CONTINUATION_MISMATCH: the continuation's issuer signature does not verify",
      detail: { field: 'signature' },
    });
    expect(verifyContinuation(G, c0, a, signGrant(want(), alice))).toEqual({ known: true, uj: 600n });
  });
});
