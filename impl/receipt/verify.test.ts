// Unit tests of verifyReceipt's own API (impl/receipt/verify.ts): the maxBytes option and junk in place of bytes.
// The protocol-level refusals live in harness/conformance/receipt.test.ts.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { allowedDecision, codeOf, lazyKey, TOOL_RESOURCE } from '../_test-support.ts';
import { cborTag, decodeCanonical, encodeCanonical, type CborValue } from '../cbor/index.ts';
import { decodeSign1, signSign1 } from '../cose/sign1.ts';
import { JcpError } from '../errors.ts';
import { defaultEd25519, type KeyPair } from '../identity/ed25519.ts';
import { contentId } from '../jcp/content-id.ts';
import { attenuate } from '../jcp/attenuate.ts';
import { createEnforcementPoint } from '../jcp/enforcement-point.ts';
import { grantId, mintGrant } from '../jcp/grant.ts';
import type { Frame, SignedGrant } from '../jcp/types.ts';
import { _readReceipt } from './read-receipt.ts';
import { stewardKid } from './seal.ts';
import { _verifyReceiptStrict, verifyReceipt, type VerifiedReceipt, type VerifyReceiptOptions } from './verify.ts';

const steward = lazyKey('steward');

function realReceipt(): Uint8Array {
  return allowedDecision(4).receipt;
}

describe('verifyReceipt options and inputs', () => {
  it('honours maxBytes: a receipt one byte over the cap is refused ERR_COSE_TOO_LARGE, at the cap it verifies', () => {
    const r = realReceipt();
    expect(codeOf(() => verifyReceipt(r, { maxBytes: r.length - 1 }))).toBe('ERR_COSE_TOO_LARGE');
    expect(verifyReceipt(r, { maxBytes: r.length }).core.steward).toBe(steward.did);
    expect(codeOf(() => verifyReceipt(new Uint8Array(64 * 1024 + 1)))).toBe('ERR_COSE_TOO_LARGE');
  });

  it('refuses a value that is not bytes with ERR_COSE_MALFORMED', () => {
    expect(codeOf(() => verifyReceipt('not bytes' as never))).toBe('ERR_COSE_MALFORMED');
    expect(codeOf(() => verifyReceipt(undefined as never))).toBe('ERR_COSE_MALFORMED');
  });
});

// ---- the one-pass reader (impl/receipt/read-receipt.ts) against the strict path ------------------------------------
// verifyReceipt first tries a reader of the one expected receipt shape and leaves everything else to the strict path
// (decodeSign1, decodeCanonical, parseReceiptCore). These tests check that the two give the same outcome — the same
// core, key order included, and payload, or the same error code, message and detail — over mutated and crafted
// receipts, and that the reader is really taken (else the comparison would prove nothing).

const hex = (b: Uint8Array) => Buffer.from(b).toString('hex');

/** What a verification gives, in a comparable form. */
function outcome(f: () => VerifiedReceipt): unknown {
  try {
    const v = f();
    return { ok: true, core: v.core, keys: Object.keys(v.core), frozen: Object.isFrozen(v.core), payload: hex(v.payload), own: v.payload.byteOffset === 0 && v.payload.buffer.byteLength === v.payload.length };
  } catch (e) {
    if (!(e instanceof JcpError)) return { thrown: String(e) };
    return { ok: false, code: e.code, message: e.message, detail: e.detail };
  }
}

/** Checks fast and strict agree on `bytes` under `opts`; returns whether the reader took it. */
function agree(bytes: Uint8Array, opts: VerifyReceiptOptions = {}): boolean {
  expect(outcome(() => verifyReceipt(bytes, opts))).toEqual(outcome(() => _verifyReceiptStrict(bytes, opts)));
  return _readReceipt(bytes, opts.maxBytes) !== undefined;
}

const alice = lazyKey('alice');
const bob = lazyKey('bob');
const carol = lazyKey('carol');
const resource = TOOL_RESOURCE;

/** Real receipts of every shape the reference seals: allow, deny, chained (chain_ids), Partial coverage. */
function realReceipts(): Uint8Array[] {
  const root = mintGrant(alice, { subject: bob.did, resource, actions: ['call'], budget_uj: 1000n, nonce: new Uint8Array(16).fill(9) });
  const child = attenuate(root, bob, { subject: carol.did, budget_uj: 500n, nonce: new Uint8Array(16).fill(10) });
  const p = createEnforcementPoint({ steward });
  const frame = (g: SignedGrant, over: Partial<Frame> = {}): Frame => ({ kind: 'tool-call', trust: 'control', grant_id: grantId(g.grant), action: 'call', resource, payload_hash: contentId({ payload: 'args' }), ...over });
  const cost = { uj: 42n, provenance: 'HwShunt' } as const;
  return [
    p.decide({ frame: frame(root), chain: [root], caller: bob.did, cost, now_s: 1n }).receipt,
    p.decide({ frame: frame(root, { trust: 'data' }), chain: [root], caller: bob.did, cost, now_s: 1n }).receipt,
    p.decide({ frame: frame(root, { action: 'überschreiben' }), chain: [root], caller: bob.did, cost, now_s: 1n }).receipt,
    p.decide({ frame: frame(child), chain: [root, child], caller: carol.did, cost: { uj: 7n, provenance: 'ModelBased', coverage: 'Partial' }, now_s: 1n }).receipt,
    p.decide({ frame: frame(child), chain: [root, child], caller: carol.did, cost: { uj: 5000n, provenance: 'Estimator' }, now_s: 1n }).receipt,
  ];
}

/** The core map of a receipt, read with the strict decoder. */
function coreOf(receipt: Uint8Array): Map<CborValue, CborValue> {
  return decodeCanonical(decodeSign1(receipt).payload) as Map<CborValue, CborValue>;
}

/** A receipt over any core map, sealed by `key` with its own did as kid (crafted, not minted). */
function reseal(core: Map<CborValue, CborValue>, key: KeyPair = steward): Uint8Array {
  return signSign1(encodeCanonical(core), stewardKid(key.did), key.seed, defaultEd25519());
}

describe('verifyReceipt: the one-pass reader agrees with the strict path', () => {
  it('takes every shape of real receipt, with the strict path’s core and payload', () => {
    const all = realReceipts();
    // the receipt whose action is not ASCII is left to the strict path (its UTF-8 decoder), and still verifies
    expect(all.map((r) => agree(r, { steward: steward.did }))).toEqual([true, true, false, true, true]);
    expect(verifyReceipt(all[2]!).core.action).toBe('überschreiben');
    for (const r of all) {
      agree(r);
      // a wrong expected steward and a tight cap go to the strict path, which names them
      agree(r, { steward: alice.did });
      expect(agree(r, { maxBytes: r.length - 1 })).toBe(false);
      agree(r, { maxBytes: r.length });
    }
  });

  it('agrees on every one-byte change, truncation and extension of real receipts', () => {
    let fast = 0;
    let strict = 0;
    const all = realReceipts();
    for (const r of [all[0]!, all[1]!, all[3]!]) {
      for (let i = 0; i < r.length; i++) {
        for (const x of [0x01, 0x20, 0x80, 0xff]) {
          const m = r.slice();
          m[i] = m[i]! ^ x;
          if (agree(m, { steward: steward.did })) fast++;
          else strict++;
        }
        agree(r.slice(0, i));
      }
      for (const tail of [0x00, 0x40, 0xa0]) agree(Uint8Array.of(...r, tail));
    }
    // flips inside the signature or the payload hash keep the shape (and fail the signature): both paths were exercised
    expect(fast).toBeGreaterThan(100);
    expect(strict).toBeGreaterThan(100);
  });

  it('agrees on jcp/1 cores and on cores that break a rule of the profile', () => {
    const base = coreOf(realReceipts()[0]!);
    const deny = coreOf(realReceipts()[1]!);
    const chained = coreOf(realReceipts()[3]!);
    const set = (m: Map<CborValue, CborValue>, k: string, v: CborValue | undefined) => {
      const c = new Map(m);
      if (v === undefined) c.delete(k);
      else c.set(k, v);
      return c;
    };
    const v1 = set(set(base, 'jcp_receipt', 'jcp/1'), 'payload_hash', undefined);
    expect(agree(reseal(v1), { steward: steward.did })).toBe(true);
    const variants: Map<CborValue, CborValue>[] = [
      set(v1, 'payload_hash', contentId({ p: 1 })),
      set(v1, 'energy_coverage', 'Partial'),
      set(base, 'payload_hash', undefined),
      set(base, 'jcp_receipt', 'jcp/3'),
      set(base, 'jcp_receipt', undefined),
      set(base, 'jcp_receipt', 2),
      set(base, 'deny_reason', 'expired'),
      set(deny, 'deny_reason', undefined),
      set(base, 'chain_ids', [base.get('grant_id')!]),
      set(base, 'chain_ids', []),
      set(chained, 'chain_ids', [...(chained.get('chain_ids') as CborValue[])].reverse()),
      set(base, 'extra', 1),
      set(base, 'energy_coverage', 'Whole'),
      set(base, 'cost_uj', -1),
      set(base, 'cost_uj', (1n << 64n) - 1n),
      set(base, 'cost_uj', 0x1_0000_0000),
      set(base, 'cost_uj', 'ten'),
      set(base, 'action', ''),
      set(base, 'action', 'x'.repeat(300)),
      set(base, 'action', 'ａ'),
      // interned as an action's text (taken), the same bytes must still be refused as a did
      set(base, 'action', 'x'.repeat(56)),
      set(base, 'subject', 'x'.repeat(56)),
      set(base, 'resource', alice.did),
      set(base, 'grant_id', (base.get('grant_id') as string).toUpperCase()),
      set(base, 'grant_id', (base.get('grant_id') as string).slice(1)),
      set(base, 'issuer', 'did:key:z6Mk'),
      set(base, 'issuer', alice.did + ' '),
      set(base, 'issuer', new TextEncoder().encode(alice.did)),
      set(base, 'frame_kind', 'tool'),
      set(base, 'trust', 'Control'),
      set(base, 'verdict', 'allowed'),
      set(base, 'energy_provenance', 'Guess'),
      set(base, 'steward', alice.did),
      new Map([...base, [1, 2]]),
    ];
    let fast = 0;
    for (const core of variants) if (agree(reseal(core), { steward: steward.did })) fast++;
    // only the shapes the profile allows are taken by the reader: the two in-range integers (2^64 − 1, 2^32), the
    // long action and chain_ids of the grant id alone (a single grant debited, §8.1)
    expect(fast).toBe(4);
    // a core sealed by the steward its kid names, other than the expected one
    expect(agree(reseal(set(base, 'steward', alice.did), alice), { steward: steward.did })).toBe(true);
    expect(agree(reseal(set(base, 'steward', alice.did), alice))).toBe(true);
  });

  it('agrees on envelopes that differ from the one expected shape', () => {
    const r = realReceipts()[0]!;
    const s = decodeSign1(r);
    const kid = stewardKid(steward.did);
    const env = (items: CborValue[], tag = 18) => encodeCanonical(cborTag(tag, items), { allowTags: true });
    const prot = (m: Map<CborValue, CborValue>) => encodeCanonical(m);
    // the receipt rebuilt item by item is the receipt, and is taken
    expect(agree(env([s.protectedBytes, new Map(), s.payload, s.signature]), { steward: steward.did })).toBe(true);
    const cases: Uint8Array[] = [
      env([s.protectedBytes, new Map(), s.payload, s.signature], 17),
      encodeCanonical([s.protectedBytes, new Map(), s.payload, s.signature]),
      env([s.protectedBytes, new Map([[1, -8]]), s.payload, s.signature]),
      env([prot(new Map<CborValue, CborValue>([[1, -7], [4, kid]])), new Map(), s.payload, s.signature]),
      env([prot(new Map<CborValue, CborValue>([[1, -8]])), new Map(), s.payload, s.signature]),
      env([prot(new Map<CborValue, CborValue>([[1, -8], [4, kid], [5, 0]])), new Map(), s.payload, s.signature]),
      env([prot(new Map<CborValue, CborValue>([[1, -8], [4, stewardKid(alice.did)]])), new Map(), s.payload, s.signature]),
      env([prot(new Map<CborValue, CborValue>([[1, -8], [4, Uint8Array.of(0xff, 0xfe)]])), new Map(), s.payload, s.signature]),
      env([prot(new Map<CborValue, CborValue>([[1, -8], [4, 'text']])), new Map(), s.payload, s.signature]),
      env([new Uint8Array(0), new Map(), s.payload, s.signature]),
      env([s.protectedBytes, new Map(), s.payload, s.signature.subarray(0, 63)]),
      env([s.protectedBytes, new Map(), s.payload]),
      env([s.protectedBytes, new Map(), encodeCanonical([1, 2]), s.signature]),
      // the protected bucket with a non-shortest kid length, and the payload with a non-shortest length
      Uint8Array.of(0xd2, 0x84, 0x58, s.protectedBytes.length + 1, 0xa2, 0x01, 0x27, 0x04, 0x58, kid.length, ...kid, 0xa0, 0x59, 0, s.payload.length, ...s.payload, 0x58, 0x40, ...s.signature),
      Uint8Array.of(0xd2, 0x84, 0x58, s.protectedBytes.length, ...s.protectedBytes, 0xa0, 0x59, 0, s.payload.length, ...s.payload, 0x58, 0x40, ...s.signature),
    ];
    for (const c of cases) expect(agree(c, { steward: steward.did })).toBe(false);
    // a view into shared memory, a view at an offset, junk in place of bytes
    const shared = new Uint8Array(new SharedArrayBuffer(r.length));
    shared.set(r);
    expect(agree(shared, { steward: steward.did })).toBe(false);
    const padded = new Uint8Array(r.length + 8);
    padded.set(r, 5);
    expect(agree(padded.subarray(5, 5 + r.length), { steward: steward.did })).toBe(true);
    for (const junk of ['x', undefined, null, 7, [1, 2], {}]) agree(junk as never);
  });

  it('agrees over random cores (fast-check)', () => {
    const base = coreOf(realReceipts()[0]!);
    const texts = fc.constantFrom<CborValue>('', 'a', 'call', 'é', 'x'.repeat(24), 'x'.repeat(255), 'x'.repeat(256), 'allow', 'deny', 'jcp/1', 'jcp/2', 'Partial', 'tool-call', 'control', 'data', 'HwShunt', steward.did, alice.did, contentId({ q: 1 }), 0, 23, 24, 255, 256, 65535, 65536, 2 ** 32, 2 ** 53 - 1, 1n << 53n, (1n << 64n) - 1n, -1, new Uint8Array(2), [contentId({ q: 1 })]);
    const names = fc.constantFrom(...base.keys(), 'extra', 'a');
    fc.assert(
      fc.property(fc.array(fc.tuple(names, texts), { maxLength: 4 }), fc.array(names, { maxLength: 2 }), (sets, dels) => {
        const c = new Map(base);
        for (const [k, v] of sets) c.set(k, v);
        for (const k of dels) c.delete(k);
        agree(reseal(c), { steward: steward.did });
      }),
      { seed: 0x4a4350, numRuns: 300 },
    );
  });
});
