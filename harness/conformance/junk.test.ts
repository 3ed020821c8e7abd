// Junk thrown at the implementation through the testee protocol (STYLE.md): arguments of the right protocol shape but
// bad content — a chain element that is not a signed grant, a frame with a trust value the spec does not name, a cost
// provenance 'Guess', an unknown enforcement point — and arguments of the wrong shape. Each must come back as a refusal
// (a TesteeError: the spec grade), never a TesteeFailure (a crash, a hang, a broken response), never an accept; its code
// one of those each case names below (the suite's byte contract: the spec names no ERR_ code); and no state may change:
// the point's spend stays where it was, nothing is revoked.
// Junk that cannot cross the protocol at all (undefined, functions, a number where a bigint is due) is thrown at the
// reference's TypeScript API in impl/jcp/junk.test.ts.
import { describe, expect } from 'vitest';
import { clauseIt } from '../clause.ts';
import { expectRefusedAs } from '../contract-codes.ts';
import { codeOf } from '../refusal.ts';
import { implementation } from '../driver.ts';
import { alice, bob, carol, cost, frameFor, grantOf, nonce, point, rootGrant } from '../fixtures.ts';
import { interpret, Point, TesteeError, type DecideFields, type FrameFields } from '../implementation.ts';
import {
  concatBytes,
  decodeCanonical,
  encodeCanonical,
  ERROR_CODES,
  fromHex,
  grantToCbor,
  parseSignedRevocation,
  signedRevocationToCbor,
  toHex,
  type CborInput,
  type JcpErrorCode,
} from '../oracle.ts';

/** Refused (spec), with one of `codes` (byte contract). */
async function expectRefused(p: Promise<unknown>, codes: readonly JcpErrorCode[], what: string): Promise<void> {
  expectRefusedAs(await codeOf(p), codes, what);
}

const CBOR_CODES: readonly JcpErrorCode[] = ERROR_CODES.filter((c) => c.startsWith('ERR_CBOR_'));
/** A chain element that is canonical CBOR but no signed grant. */
const NOT_A_GRANT: readonly JcpErrorCode[] = ['ERR_GRANT_MALFORMED', 'ERR_BAD_ARGUMENT'];
/** A chain element that is not even canonical CBOR: the strict decoder may name the fault, or the grant parser. */
const NOT_CANONICAL_GRANT: readonly JcpErrorCode[] = [...NOT_A_GRANT, ...CBOR_CODES];
const BAD_FRAME: readonly JcpErrorCode[] = ['ERR_FRAME_MALFORMED', 'ERR_BAD_ARGUMENT'];

/** Canonical CBOR items that are neither a signed grant, a signed revocation nor a COSE_Sign1. */
const CANONICAL_JUNK: readonly (readonly [string, Uint8Array])[] = [
  ['0', encodeCanonical(0)],
  ['-1', encodeCanonical(-1)],
  ['"x"', encodeCanonical('x')],
  ['empty bytes item', encodeCanonical(new Uint8Array(0))],
  ['[]', encodeCanonical([])],
  ['[[]]', encodeCanonical([[]])],
  ['{}', encodeCanonical(new Map())],
  ['{a: 1}', encodeCanonical({ a: 1 })],
  ['{grant: {}, signature: 64 bytes}', encodeCanonical({ grant: {}, signature: new Uint8Array(64) })],
  ['{revocation: {}, signature: 64 bytes}', encodeCanonical({ revocation: {}, signature: new Uint8Array(64) })],
  ['a four-item array', encodeCanonical([new Uint8Array(0), new Map(), new Uint8Array(0), new Uint8Array(64)])],
];

/** Byte strings that are not one canonical CBOR item. */
const NON_CANONICAL_JUNK: readonly (readonly [string, Uint8Array])[] = [
  ['no bytes', new Uint8Array(0)],
  ['a break byte', fromHex('ff')],
  ['null', fromHex('f6')],
  ['a float', fromHex('f93c00')],
  ['a tag-18 COSE_Sign1 shape', fromHex('d28440a0f6' + '5840' + '00'.repeat(64))],
  ['a wide head', fromHex('1800')],
  ['a truncated map', fromHex('a16161')],
  ['two items', fromHex('0000')],
  ['an indefinite array', fromHex('9f00ff')],
];

describe('junk through the protocol', () => {
  // the clauses these assertions decide: a chain element that is no signed grant is not one (§4), a non-canonical one is
  // rejected (§11), and nothing refused is debited (§7); which code each refusal carries is the byte contract
  clauseIt(['jcp/4#grant-id-and-signature', 'jcp/11#reject-non-canonical', 'jcp/7#debit-on-allow'], 'decide refuses junk of the right shape with a code, and debits nothing', async () => {
    const impl = implementation();
    const g = await rootGrant({ nonce: nonce('junk') });
    const sg = grantOf(g);
    const good: DecideFields = { frame: frameFor(g), chain: [g.signed_grant], caller: bob.did, cost: cost(1n), now_s: 1n };
    const p = await point();

    // chain elements that are not a signed grant
    const grantMap = grantToCbor(sg.grant);
    const notGrants: [string, Uint8Array, readonly JcpErrorCode[]][] = [
      ...CANONICAL_JUNK.map(([w, b]) => [w, b, NOT_A_GRANT] as [string, Uint8Array, readonly JcpErrorCode[]]),
      ['the grant alone, unsigned', encodeCanonical(grantMap), NOT_A_GRANT],
      ['a 3-byte signature', encodeCanonical({ grant: grantMap, signature: new Uint8Array(3) }), NOT_A_GRANT],
      ['an extra field', encodeCanonical({ grant: grantMap, signature: sg.signature, extra: 1 }), NOT_A_GRANT],
      ['the grant under another name', encodeCanonical({ grunt: grantMap, signature: sg.signature }), NOT_A_GRANT],
      ...NON_CANONICAL_JUNK.map(([w, b]) => [w, b, NOT_CANONICAL_GRANT] as [string, Uint8Array, readonly JcpErrorCode[]]),
      ['the signed grant and a trailing byte', concatBytes(g.signed_grant, Uint8Array.of(0)), NOT_CANONICAL_GRANT],
      ['the signed grant cut short', g.signed_grant.subarray(0, g.signed_grant.length - 1), NOT_CANONICAL_GRANT],
      ['the signed grant with a widened map head', concatBytes(Uint8Array.of(0xb8, g.signed_grant[0]! & 31), g.signed_grant.subarray(1)), NOT_CANONICAL_GRANT],
      ['the signed grant under tag 18', concatBytes(Uint8Array.of(0xd2), g.signed_grant), NOT_CANONICAL_GRANT],
    ];
    expect(toHex(g.signed_grant).slice(0, 2)).toBe('a2'); // {grant, signature}: the widened head above is b8 02
    for (const [what, bytes, codes] of notGrants) {
      await expectRefused(p.decide({ ...good, chain: [bytes] }), codes, `chain [${what}]`);
      await expectRefused(p.decide({ ...good, chain: [g.signed_grant, bytes] }), codes, `chain [grant, ${what}]`);
    }

    // frames whose fields have the right type and the wrong content
    const frames: [string, Partial<FrameFields>][] = [
      ['trust "bogus"', { trust: 'bogus' }],
      ['trust ""', { trust: '' }],
      ['trust "Control"', { trust: 'Control' }],
      ['kind "bogus"', { kind: 'bogus' }],
      ['grant_id not a content id', { grant_id: 'not a content id' }],
      ['resource not a content id', { resource: 'x' }],
      ['payload_hash empty', { payload_hash: '' }],
      ['model not a content id', { model: 'not-a-cid' }],
    ];
    for (const [what, over] of frames) await expectRefused(p.decide({ ...good, frame: { ...good.frame, ...over } }), BAD_FRAME, `frame with ${what}`);

    // costs the spec does not name
    for (const provenance of ['Guess', 'hwshunt', '', 'Estimator ']) {
      await expectRefused(p.decide({ ...good, cost: { uj: 1n, provenance } }), ['ERR_BAD_ARGUMENT'], `provenance ${JSON.stringify(provenance)}`);
    }
    await expectRefused(p.decide({ ...good, cost: { uj: 1n, provenance: 'HwShunt', coverage: 'Whole' as 'Partial' } }), ['ERR_BAD_ARGUMENT'], 'coverage Whole');

    // a point the implementation never made
    const ghost = new Point(impl, 'no-such-point');
    await expectRefused(ghost.decide(good), ['ERR_BAD_ARGUMENT'], 'decide on an unknown point');
    await expectRefused(ghost.spent(g.grant_id), ['ERR_BAD_ARGUMENT'], 'spent on an unknown point');

    // nothing was debited, and the point still decides
    expect(await p.spent(g.grant_id)).toBe(0n);
    expect((await p.decide(good)).verdict).toBe('allow');
    expect(await p.spent(g.grant_id)).toBe(1n);
  });

  // arguments outside the protocol's schema are the suite's contract (ERR_BAD_ARGUMENT); what the spec decides here is
  // that a request that was not decided moves no spend (§7: only an allow debits)
  clauseIt(['jcp/7#debit-on-allow'], 'decide refuses arguments of the wrong shape with ERR_BAD_ARGUMENT, and debits nothing', async () => {
    const impl = implementation();
    const g = await rootGrant({ nonce: nonce('junk-shape') });
    const p = await point();
    const frame: Record<string, CborInput> = { ...frameFor(g) };
    const args: Record<string, CborInput> = {
      point: p.id,
      frame,
      chain: [g.signed_grant],
      caller: bob.did,
      cost: { uj: 1n, provenance: 'Estimator' },
      now_s: 1n,
    };
    const send = async (a: Record<string, CborInput>): Promise<unknown> => interpret('point.decide', await impl.transport.request('point.decide', a));
    // the well-formed request is accepted as sent, so each refusal below is the variant's doing
    expect(await send(args)).toBeInstanceOf(Map);
    expect(await p.spent(g.grant_id)).toBe(1n);

    const without = (k: string): Record<string, CborInput> => Object.fromEntries(Object.entries(args).filter(([x]) => x !== k));
    const variants: [string, Record<string, CborInput>, readonly JcpErrorCode[]][] = [
      ...Object.keys(args).map((k) => [`no ${k}`, without(k), ['ERR_BAD_ARGUMENT']] as [string, Record<string, CborInput>, readonly JcpErrorCode[]]),
      ['point 5', { ...args, point: 5 }, ['ERR_BAD_ARGUMENT']],
      ['chain []', { ...args, chain: [] }, ['ERR_BAD_ARGUMENT']],
      ['chain a byte string', { ...args, chain: g.signed_grant }, ['ERR_BAD_ARGUMENT']],
      ['chain [text]', { ...args, chain: ['grant'] }, NOT_A_GRANT],
      ['chain [a map]', { ...args, chain: [{ grant: {} }] }, NOT_A_GRANT],
      ['frame 1', { ...args, frame: 1 }, BAD_FRAME],
      ['frame []', { ...args, frame: [] }, BAD_FRAME],
      ['frame without trust', { ...args, frame: Object.fromEntries(Object.entries(frame).filter(([k]) => k !== 'trust')) }, BAD_FRAME],
      ['frame with trust 1', { ...args, frame: { ...frame, trust: 1 } }, BAD_FRAME],
      ['frame with an unknown field', { ...args, frame: { ...frame, colour: 'red' } }, BAD_FRAME],
      ['caller 5', { ...args, caller: 5 }, ['ERR_BAD_ARGUMENT']],
      ['caller bytes', { ...args, caller: new Uint8Array(32) }, ['ERR_BAD_ARGUMENT']],
      ['cost 1', { ...args, cost: 1 }, ['ERR_BAD_ARGUMENT']],
      ['cost.uj −1', { ...args, cost: { uj: -1, provenance: 'Estimator' } }, ['ERR_BAD_ARGUMENT']],
      ['cost.uj "1"', { ...args, cost: { uj: '1', provenance: 'Estimator' } }, ['ERR_BAD_ARGUMENT']],
      ['cost without provenance', { ...args, cost: { uj: 1 } }, ['ERR_BAD_ARGUMENT']],
      ['now_s −1', { ...args, now_s: -1 }, ['ERR_BAD_ARGUMENT']],
      ['now_s "1"', { ...args, now_s: '1' }, ['ERR_BAD_ARGUMENT']],
    ];
    for (const [what, a, codes] of variants) await expectRefused(send(a), codes, what);
    expect(await p.spent(g.grant_id)).toBe(1n);
  });

  clauseIt(['jcp/4#grant-id-and-signature', 'jcp/11#reject-non-canonical'], 'verifiers refuse junk bytes with their malformed codes', async () => {
    const impl = implementation();
    const g = await rootGrant({ nonce: nonce('junk-parse') });
    const p = await point();
    for (const [what, b] of CANONICAL_JUNK) {
      await expectRefused(impl.verifyGrant(b), ['ERR_GRANT_MALFORMED'], `grant.verify(${what})`);
      await expectRefused(p.revoke(b, g.signed_grant), ['ERR_REVOCATION_MALFORMED'], `point.revoke(${what})`);
      await expectRefused(impl.verifyReceipt(b), ['ERR_COSE_MALFORMED', 'ERR_COSE_TOO_LARGE'], `receipt.verify(${what})`);
    }
    for (const [what, b] of NON_CANONICAL_JUNK) {
      await expectRefused(impl.verifyGrant(b), ['ERR_GRANT_MALFORMED', ...CBOR_CODES], `grant.verify(${what})`);
      await expectRefused(p.revoke(b, g.signed_grant), ['ERR_REVOCATION_MALFORMED', ...CBOR_CODES], `point.revoke(${what})`);
      await expectRefused(impl.verifyReceipt(b), ['ERR_COSE_MALFORMED', 'ERR_COSE_TOO_LARGE', ...CBOR_CODES], `receipt.verify(${what})`);
    }
    // nothing of that revoked the grant
    expect((await p.decide({ frame: frameFor(g), chain: [g.signed_grant], caller: bob.did, cost: cost(1n), now_s: 1n })).verdict).toBe('allow');
  });

  // a junk revocation proves no authority (§4.3), a junk parent or signature is no signed grant (§4), and the point's
  // spend and revocations are as before (§7)
  clauseIt(['jcp/4.3#verify-revocation-authority', 'jcp/4#grant-id-and-signature', 'jcp/7#debit-on-allow'], 'revoke and attenuate refuse junk without changing state', async () => {
    const impl = implementation();
    const g = await rootGrant({ nonce: nonce('junk') });
    const sg = grantOf(g);
    const good: DecideFields = { frame: frameFor(g), chain: [g.signed_grant], caller: bob.did, cost: cost(1n), now_s: 1n };
    const p = await point();
    const r = await impl.mintRevocation(alice.seed, g.grant_id, nonce('junk-rev'));

    // a junk revocation, or a good revocation with a junk grant: refused, and nothing is revoked
    const badRevocations: [string, Uint8Array][] = [
      ['{}', encodeCanonical(new Map())],
      ['{revocation: {}, signature}', encodeCanonical({ revocation: {}, signature: new Uint8Array(64) })],
      ['a 3-byte signature', encodeCanonical(signedRevocationToCbor({ revocation: parseSignedRevocation(decodeCanonical(r)).revocation, signature: new Uint8Array(3) }))],
      ['no bytes', new Uint8Array(0)],
    ];
    for (const [what, b] of badRevocations) {
      await expectRefused(p.revoke(b, g.signed_grant), ['ERR_REVOCATION_MALFORMED', 'ERR_BAD_ARGUMENT', ...CBOR_CODES], `revoke(${what}, grant)`);
    }
    for (const [what, b] of [['{}', encodeCanonical(new Map())], ['{grant: {}, signature}', encodeCanonical({ grant: {}, signature: new Uint8Array(64) })]] as const) {
      await expectRefused(p.revoke(r, b), ['ERR_GRANT_MALFORMED', 'ERR_BAD_ARGUMENT', ...CBOR_CODES], `revoke(revocation, ${what})`);
    }
    await expectRefused(new Point(impl, 'no-such-point').revoke(r, g.signed_grant), ['ERR_BAD_ARGUMENT'], 'revoke on an unknown point');
    const d = await p.decide(good);
    expect(d.verdict, d.deny_reason).toBe('allow');

    // attenuations with junk content: refused
    await expectRefused(impl.attenuate(g.signed_grant, bob.seed, { subject: 'not a did', nonce: nonce('j1') }), ['ERR_GRANT_MALFORMED', 'ERR_DID_MALFORMED'], 'subject "not a did"');
    await expectRefused(impl.attenuate(g.signed_grant, bob.seed, { subject: carol.did, nonce: new Uint8Array(2) }), ['ERR_GRANT_MALFORMED', 'ERR_BAD_ARGUMENT'], 'a 2-byte nonce');
    await expectRefused(impl.attenuate(encodeCanonical(new Map()), bob.seed, { subject: carol.did, nonce: nonce('j3') }), NOT_A_GRANT, 'parent {}');
    await expectRefused(impl.attenuate(fromHex('ff'), bob.seed, { subject: carol.did, nonce: nonce('j4') }), NOT_CANONICAL_GRANT, 'parent ff');

    // a signature of the wrong length is refused or fails; one of zeros fails
    const verdict = async (b: Uint8Array): Promise<string> => {
      try {
        return (await impl.verifyGrant(b)).valid ? 'valid' : 'invalid';
      } catch (e) {
        if (e instanceof TesteeError) return e.code;
        throw e;
      }
    };
    expect(await verdict(encodeCanonical({ grant: grantToCbor(sg.grant), signature: sg.signature }))).toBe('valid');
    const short = await verdict(encodeCanonical({ grant: grantToCbor(sg.grant), signature: new Uint8Array(3) }));
    if (short !== 'invalid') expectRefusedAs(short, ['ERR_GRANT_MALFORMED', 'ERR_SIGNATURE_LENGTH'], 'a 3-byte signature: invalid or refused');
    expect(await verdict(encodeCanonical({ grant: grantToCbor(sg.grant), signature: new Uint8Array(64) }))).toBe('invalid');

    // and the good revocation still works after all that
    await p.revoke(r, g.signed_grant);
    const after = await p.decide(good);
    expect(after.verdict).toBe('deny');
    expect(after.deny_reason).toBe('revoked');
    expect(await p.spent(g.grant_id)).toBe(1n);
  });
});

