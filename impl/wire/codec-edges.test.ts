// Edge cases of the jcp/1 wire codec (impl/wire/codec.ts, jcp §11 "Wire binding"; byte shapes as impl/wire/WIRE.md
// fixes them): the refusal codes, messages and details of framing over the declared cap and of strict parsing field by
// field; the boundaries of the cap (exactly at it, one past it) and of the frame reader's large-body gathering; the
// signature preimage read off a body against the one encoded again; every response the encoder is given written as
// its own canonical encoding (a deny is never written as an allow); and bodies at the limits of the short paths' reading
// (nesting past the decoder's depth, chains of 23 and 24 links, links with long texts) read as the strict path reads them.
import { describe, expect, it } from 'vitest';
import { lazy, lazyKey, thrown, TOOL_RESOURCE } from '../_test-support.ts';
import { concatBytes, toHex } from '../bytes.ts';
import { decodeCanonical, encodeCanonical, type CborMap, type CborValue } from '../cbor/index.ts';
import { blake3 } from '../hash/blake3.ts';
import { contentId } from '../jcp/content-id.ts';
import { grantId, mintGrant } from '../jcp/grant.ts';
import type { SignedGrant } from '../jcp/types.ts';
import {
  decodeWireReply,
  decodeWireRequest,
  encodeWireRefusal,
  encodeWireRequest,
  encodeWireResponse,
  frameMessage,
  parseWireRequest,
  signWireRequest,
  verifyWireBodySignature,
  verifyWireSignature,
  WIRE_FRESHNESS_WINDOW_S,
  WIRE_MAX_MESSAGE_BYTES,
  WireFrameReader,
  wireRequestKey,
  wireSigningBytes,
  type UnsignedWireRequest,
  type WireResponse,
} from './codec.ts';

const alice = lazyKey('alice');
const bob = lazyKey('bob');
const mallory = lazyKey('mallory');

/** alice grants bob `call` on the tool, 1000 µJ (as impl/wire/codec.test.ts). */
const G: SignedGrant = lazy(() => mintGrant(alice, { subject: bob.did, resource: TOOL_RESOURCE, actions: ['call'], budget_uj: 1000n, nonce: new Uint8Array(16).fill(9) }));

function unsigned(over: Partial<UnsignedWireRequest> = {}): UnsignedWireRequest {
  return {
    frame: { kind: 'tool-call', trust: 'control', grant_id: grantId(G.grant), action: 'call', resource: TOOL_RESOURCE, payload_hash: contentId({ payload: 'args' }) },
    chain: [G],
    caller: bob.did,
    cost: { uj: 42n, provenance: 'HwShunt' },
    now: 1_700_000_000n,
    ...over,
  };
}

/** The canonical body of the request `unsigned(over)` signed by bob. */
const bodyOf = (over: Partial<UnsignedWireRequest> = {}) => encodeWireRequest(signWireRequest(unsigned(over), bob));

describe('jcp §11 the declared constants (WIRE.md "Framing", "WireResponse")', () => {
  it('the cap is 1 MiB of body; the freshness window 300 s', () => {
    expect(WIRE_MAX_MESSAGE_BYTES).toBe(1_048_576);
    expect(WIRE_FRESHNESS_WINDOW_S).toBe(300n);
  });
});

describe('jcp §11 "Caller authentication": signing and the preimage', () => {
  it('a key that is not the caller is refused, naming both dids; the signed request is frozen', () => {
    const e = thrown(() => signWireRequest(unsigned(), mallory));
    expect(e.message).toBe(`ERR_BAD_ARGUMENT: the signing key ${mallory.did} is not the request's caller ${bob.did}`);
    const r = signWireRequest(unsigned(), bob);
    expect(Object.isFrozen(r)).toBe(true);
    expect(verifyWireSignature(r)).toBe(true);
  });

  it('a body without the canonical shape is checked as verifyWireSignature checks the request', () => {
    const r = decodeWireRequest(bodyOf());
    // the preimage alone (a five-entry map), an empty body, and the body with its last byte cut: none has the shape
    for (const other of [wireSigningBytes(unsigned()), new Uint8Array(0), bodyOf().subarray(0, bodyOf().length - 1)]) {
      expect(verifyWireBodySignature(other, r), `${other.length} bytes`).toBe(true);
      expect(verifyWireBodySignature(other, { ...r, now: r.now + 1n }), `${other.length} bytes, now changed`).toBe(false);
    }
  });

  it('the key under which a request is remembered is blake3 of its exact body, 32 bytes', () => {
    const b = bodyOf();
    expect(toHex(wireRequestKey(b))).toBe(toHex(blake3(b)));
    expect(wireRequestKey(b)).toHaveLength(32);
    expect(toHex(wireRequestKey(bodyOf({ now: 1_700_000_001n })))).not.toBe(toHex(wireRequestKey(b)));
  });
});

describe('jcp §11 WireResponse: the canonical body of whatever response it is given', () => {
  const receipt = new Uint8Array([7, 8, 9]);
  const generic = (r: WireResponse) => toHex(encodeCanonical({ decision: { verdict: r.decision.verdict, deny_reason: r.decision.deny_reason }, receipt: r.receipt }));

  it('a deny without a reason stays a deny; an allow given a reason keeps it (the decoder then refuses both)', () => {
    const denyBare: WireResponse = { decision: { verdict: 'deny' }, receipt };
    const allowReason: WireResponse = { decision: { verdict: 'allow', deny_reason: 'budget-exhausted' }, receipt };
    expect(toHex(encodeWireResponse(denyBare))).toBe(generic(denyBare));
    expect(toHex(encodeWireResponse(allowReason))).toBe(generic(allowReason));
    const msg = 'ERR_WIRE_MALFORMED: $.decision.deny_reason is present, as text, exactly on deny';
    expect(thrown(() => decodeWireReply(encodeWireResponse(denyBare))).message).toBe(msg);
    expect(thrown(() => decodeWireReply(encodeWireResponse(allowReason))).message).toBe(msg);
  });

  it('a receipt that is no byte string (an untyped caller\'s array) is written as what it is, never as bytes; the decoder refuses it', () => {
    const given = { decision: { verdict: 'allow' }, receipt: [7, 8, 9] } as unknown as WireResponse;
    expect(toHex(encodeWireResponse(given))).toBe(generic(given));
    expect(thrown(() => decodeWireReply(encodeWireResponse(given))).message).toBe('ERR_WIRE_MALFORMED: $.receipt must be a byte string');
  });

  it('a refusal is {error, message}, canonically', () => {
    expect(toHex(encodeWireRefusal({ error: 'ERR_WIRE_MALFORMED', message: 'x' }))).toBe(toHex(encodeCanonical({ error: 'ERR_WIRE_MALFORMED', message: 'x' })));
  });
});

describe('jcp §11 "Framing": the 4-byte length and the declared cap', () => {
  it('frameMessage: exactly the cap is framed; one past it refused with its length and the cap', () => {
    expect(frameMessage(new Uint8Array(5), 5)).toHaveLength(9);
    expect(thrown(() => frameMessage(new Uint8Array(6), 5)).message).toBe('ERR_WIRE_OVERSIZE: a message of 6 bytes exceeds the 5-byte cap');
    expect(frameMessage(new Uint8Array(WIRE_MAX_MESSAGE_BYTES))).toHaveLength(WIRE_MAX_MESSAGE_BYTES + 4);
    expect(thrown(() => frameMessage(new Uint8Array(WIRE_MAX_MESSAGE_BYTES + 1))).message).toBe('ERR_WIRE_OVERSIZE: a message of 1048577 bytes exceeds the 1048576-byte cap');
  });

  it('the reader refuses a declaration over its cap with the declared length and the cap; the default cap is 1 MiB', () => {
    const e = thrown(() => new WireFrameReader(16).push(new Uint8Array([0, 0, 0, 17])));
    expect(e.message).toBe('ERR_WIRE_OVERSIZE: a message declares 17 bytes, over the 16-byte cap');
    expect(e.detail).toEqual({ declared: 17, cap: 16 });
    const d = thrown(() => new WireFrameReader().push(new Uint8Array([0, 0x10, 0, 1])));
    expect(d.detail).toEqual({ declared: WIRE_MAX_MESSAGE_BYTES + 1, cap: WIRE_MAX_MESSAGE_BYTES });
    // exactly the default cap is taken: the header alone is pending
    const r = new WireFrameReader();
    expect(r.push(new Uint8Array([0, 0x10, 0, 0]))).toEqual([]);
    expect(r.pending).toBe(4);
  });

  it('pending counts a partial header, then the header and the body bytes come so far', () => {
    const r = new WireFrameReader();
    expect(r.push(new Uint8Array([0, 0]))).toEqual([]);
    expect(r.pending).toBe(2);
    expect(r.push(new Uint8Array([0, 10, 1, 2, 3]))).toEqual([]);
    expect(r.pending).toBe(7);
    const done = r.push(new Uint8Array([4, 5, 6, 7, 8, 9, 10, 0, 0]));
    expect(done.map(toHex)).toEqual(['0102030405060708090a']);
    expect(r.pending).toBe(2);
  });

  it('a body over 64 KiB that arrives in pieces comes back whole, however it was cut', () => {
    const n = 200_000;
    const big = Uint8Array.from({ length: n }, (_, i) => (i * 31 + (i >> 8)) & 0xff);
    const stream = concatBytes(frameMessage(big), frameMessage(new Uint8Array([0xa0])));
    for (const step of [1000, 65_536, 65_537, 99_999]) {
      const r = new WireFrameReader();
      const got: Uint8Array[] = [];
      for (let at = 0; at < stream.length; at += step) got.push(...r.push(stream.subarray(at, at + step)));
      expect(got.map((b) => b.length), `pieces of ${step}`).toEqual([n, 1]);
      expect(toHex(got[0]!) === toHex(big), `pieces of ${step}`).toBe(true);
      expect(r.pending).toBe(0);
    }
  });

  it('keeps nothing of a chunk it was given: a chunk overwritten after the push leaves every body as sent', () => {
    const body = Uint8Array.from({ length: 300 }, (_, i) => i & 0xff);
    const framed = frameMessage(body);
    const r = new WireFrameReader();
    const first = framed.slice(0, 100);
    expect(r.push(first)).toEqual([]);
    first.fill(0xee);
    const whole = framed.slice(100);
    const [got] = r.push(whole);
    whole.fill(0xee);
    expect(toHex(got!)).toBe(toHex(body));
    // a body that came in one chunk is a copy on a buffer of its own as well
    const one = frameMessage(body).slice();
    const [alone] = new WireFrameReader().push(one);
    one.fill(0);
    expect(toHex(alone!)).toBe(toHex(body));
    expect(alone!.buffer.byteLength).toBe(300);
  });
});

/** The body of the request with one field of its map changed (`f` edits the decoded map; re-encoded canonically). */
function variant(f: (m: CborMap) => void, b: Uint8Array = bodyOf()): Uint8Array {
  const m = decodeCanonical(b) as CborMap;
  f(m);
  return encodeCanonical(m);
}
/** The refusal of `decodeWireRequest(b)`: its message (which begins with the code) and its detail. */
const refusal = (b: Uint8Array) => {
  const e = thrown(() => decodeWireRequest(b));
  return { message: e.message, detail: e.detail };
};
const cost = (c: Record<string, CborValue>) => (m: CborMap) => m.set('cost', new Map(Object.entries(c)) as CborMap);

describe('jcp §11 strict parsing: a canonical value that is no WireRequest is refused, naming the field', () => {
  it('not a map, an unknown field (text or not), a missing field', () => {
    expect(refusal(encodeCanonical([1, 2]))).toEqual({ message: 'ERR_WIRE_MALFORMED: $ must be a map', detail: undefined });
    expect(refusal(variant((m) => m.set('extra', 1)))).toEqual({ message: 'ERR_WIRE_MALFORMED: $: unknown field extra', detail: undefined });
    expect(refusal(variant((m) => m.set(7, 1)))).toEqual({ message: 'ERR_WIRE_MALFORMED: $: unknown field 7', detail: undefined });
    for (const k of ['frame', 'chain', 'caller', 'cost', 'now', 'signature']) {
      expect(refusal(variant((m) => m.delete(k))).message, k).toBe(`ERR_WIRE_MALFORMED: $: missing field ${k}`);
    }
  });

  it('the chain: an array of at least one link (jcp §11 "a single un-delegated grant is a one-link chain")', () => {
    const msg = 'ERR_WIRE_MALFORMED: $.chain must be a non-empty array of signed grants, root first';
    expect(refusal(variant((m) => m.set('chain', []))).message).toBe(msg);
    expect(refusal(variant((m) => m.set('chain', (m.get('chain') as CborValue[])[0]!))).message).toBe(msg);
    // a bad link is the grant parser's refusal, under the wire's code, with the link's index in its path
    const bad = refusal(variant((m) => m.set('chain', [(m.get('chain') as CborValue[])[0]!, 5])));
    expect(bad).toEqual({ message: 'ERR_WIRE_MALFORMED: ERR_GRANT_MALFORMED: $.chain[1]: must be a map', detail: { cause_code: 'ERR_GRANT_MALFORMED' } });
    // a request read on the strict path (its link never seen before) is frozen, its chain too
    const fresh = mintGrant(alice, { subject: bob.did, resource: TOOL_RESOURCE, actions: ['call'], budget_uj: 7n, nonce: new Uint8Array(16).fill(6) });
    const r = decodeWireRequest(bodyOf({ chain: [fresh] }));
    expect(Object.isFrozen(r) && Object.isFrozen(r.chain)).toBe(true);
    expect(r.chain.map((g) => grantId(g.grant))).toEqual([grantId(fresh.grant)]);
  });

  it('the caller: text that is an Ed25519 did:key', () => {
    const msg = 'ERR_WIRE_MALFORMED: $.caller must be an Ed25519 did:key';
    expect(refusal(variant((m) => m.set('caller', 5))).message).toBe(msg);
    expect(refusal(variant((m) => m.set('caller', 'did:key:nope'))).message).toBe(msg);
  });

  it('the signature: a byte string of exactly 64 bytes', () => {
    const msg = 'ERR_WIRE_MALFORMED: $.signature must be a byte string of 64 bytes';
    for (const s of [new Uint8Array(63), new Uint8Array(65), 'x'.repeat(64)]) expect(refusal(variant((m) => m.set('signature', s))).message).toBe(msg);
  });

  it('the frame: the frame parser\'s refusal under the wire\'s code, the cause named in the detail and kept', () => {
    const e = thrown(() => decodeWireRequest(variant((m) => m.set('frame', 'x'))));
    expect(e.message).toBe('ERR_WIRE_MALFORMED: ERR_FRAME_MALFORMED: $.frame: must be a map');
    expect(e.detail).toEqual({ cause_code: 'ERR_FRAME_MALFORMED' });
    expect((e.cause as Error).message).toBe('ERR_FRAME_MALFORMED: $.frame: must be a map');
  });

  it('a refusal of a field itself names no cause and no detail; only a nested parser\'s refusal carries one', () => {
    for (const b of [variant((m) => m.set('caller', 5)), variant((m) => m.set('now', -1)), variant((m) => m.set('cost', 42)), encodeCanonical([1])]) {
      const e = thrown(() => decodeWireRequest(b));
      expect(e.code).toBe('ERR_WIRE_MALFORMED');
      expect(e.detail, e.message).toBeUndefined();
      expect('cause' in e, e.message).toBe(false);
    }
    const nested = thrown(() => decodeWireRequest(variant((m) => m.set('frame', 'x'))));
    expect('cause' in nested).toBe(true);
  });

  it('the cost: {uj, provenance, coverage?}, coverage only "Partial"', () => {
    expect(refusal(variant((m) => m.set('cost', 42))).message).toBe('ERR_WIRE_MALFORMED: $.cost must be a map');
    expect(refusal(variant(cost({ uj: 1, provenance: 'HwShunt', joules: 1 }))).message).toBe('ERR_WIRE_MALFORMED: $.cost: unknown field joules');
    expect(refusal(variant(cost({ provenance: 'HwShunt' }))).message).toBe('ERR_WIRE_MALFORMED: $.cost: missing field uj');
    expect(refusal(variant(cost({ uj: 1 }))).message).toBe('ERR_WIRE_MALFORMED: $.cost: missing field provenance');
    expect(refusal(variant(cost({ uj: 1, provenance: 'Guess' }))).message).toBe('ERR_WIRE_MALFORMED: $.cost.provenance must be HwShunt, ModelBased or Estimator');
    for (const c of ['Whole', 'partial', 1]) {
      expect(refusal(variant(cost({ uj: 1, provenance: 'HwShunt', coverage: c }))).message).toBe('ERR_WIRE_MALFORMED: $.cost.coverage is either absent (Whole) or "Partial"');
    }
    for (const uj of [-1, '1', new Uint8Array(1)] as CborValue[]) {
      expect(refusal(variant(cost({ uj, provenance: 'HwShunt' }))).message).toBe('ERR_WIRE_MALFORMED: $.cost.uj must be an unsigned integer');
    }
    // every provenance of jcp §5.1 is taken, and coverage comes back only when Partial
    for (const provenance of ['HwShunt', 'ModelBased', 'Estimator'] as const) {
      const r = decodeWireRequest(variant(cost({ uj: 0, provenance })));
      expect(r.cost).toEqual({ uj: 0n, provenance });
      expect(Object.isFrozen(r.cost)).toBe(true);
    }
    expect(decodeWireRequest(variant(cost({ uj: 0, provenance: 'Estimator', coverage: 'Partial' }))).cost).toEqual({ uj: 0n, provenance: 'Estimator', coverage: 'Partial' });
  });

  it('now and uj: every unsigned integer of 64 bits, from 0 to 2^64 - 1; nothing past either end', () => {
    const U64_MAX = (1n << 64n) - 1n;
    for (const v of [0n, 1n, (1n << 53n) - 1n, 1n << 53n, U64_MAX]) {
      const r = decodeWireRequest(variant((m) => (m.set('now', v), cost({ uj: v, provenance: 'HwShunt' })(m))));
      expect([r.now, r.cost.uj]).toEqual([v, v]);
    }
    for (const v of [-1n, -(1n << 64n), 'now', new Uint8Array(8)] as CborValue[]) {
      expect(refusal(variant((m) => m.set('now', v))).message, String(v)).toBe('ERR_WIRE_MALFORMED: $.now must be an unsigned integer');
    }
    // parseWireRequest takes any CBOR value: a bigint past 2^64 - 1 or a number that is no unsigned integer is refused too
    const value = decodeCanonical(bodyOf()) as CborMap;
    for (const v of [1n << 64n, 1.5, -1, Number.NaN] as CborValue[]) {
      const m = new Map(value);
      m.set('now', v);
      expect(thrown(() => parseWireRequest(m)).message, String(v)).toBe('ERR_WIRE_MALFORMED: $.now must be an unsigned integer');
    }
    for (const v of [0n, U64_MAX]) {
      const m = new Map(value);
      m.set('now', v);
      m.set('cost', new Map<CborValue, CborValue>([['uj', v], ['provenance', 'HwShunt']]));
      const r = parseWireRequest(m);
      expect([r.now, r.cost.uj]).toEqual([v, v]);
    }
  });
});

describe('jcp §11 "Framing": a request body over the cap, or not canonical', () => {
  it('over the cap: its length and the cap, even when every link of it was read before; exactly the cap is read', () => {
    const carol = lazyKey('carol');
    const second = mintGrant(bob, { subject: carol.did, resource: TOOL_RESOURCE, actions: ['call'], budget_uj: 10n, nonce: new Uint8Array(16).fill(4) });
    const b = bodyOf({ chain: [G, second] });
    // read once, so that both links are known (impl/wire/grant-memo.ts) and a repeat may take the short paths
    const read = decodeWireRequest(b);
    expect(read.chain).toHaveLength(2);
    expect(thrown(() => decodeWireRequest(b, b.length - 1)).message).toBe(`ERR_WIRE_OVERSIZE: a message of ${b.length} bytes exceeds the ${b.length - 1}-byte cap`);
    expect(toHex(encodeWireRequest(decodeWireRequest(b, b.length)))).toBe(toHex(b));
    // one link known, one never seen: over the cap all the same
    const unseen = mintGrant(bob, { subject: carol.did, resource: TOOL_RESOURCE, actions: ['call'], budget_uj: 11n, nonce: new Uint8Array(16).fill(5) });
    const mixed = bodyOf({ chain: [G, unseen] });
    expect(thrown(() => decodeWireRequest(mixed, mixed.length - 1)).message).toBe(`ERR_WIRE_OVERSIZE: a message of ${mixed.length} bytes exceeds the ${mixed.length - 1}-byte cap`);
    // exactly the cap, one link known and one never seen: read, the known link the same frozen value as before
    const atCap = decodeWireRequest(mixed, mixed.length);
    expect(atCap.chain[0]).toBe(read.chain[0]);
    expect(toHex(encodeWireRequest(atCap))).toBe(toHex(mixed));
  });

  it('not canonical: the decoder\'s refusal in the message, its code in the detail, the decoder\'s error as the cause', () => {
    const b = bodyOf();
    const e = thrown(() => decodeWireRequest(concatBytes(b, new Uint8Array([0]))));
    expect(e.message).toBe(`ERR_WIRE_NON_CANONICAL: the body is not canonical det-CBOR: ERR_CBOR_TRAILING_BYTES: at byte ${b.length}: 1 byte(s) after the one top-level item`);
    expect(e.detail).toEqual({ cause_code: 'ERR_CBOR_TRAILING_BYTES' });
    expect((e.cause as { code: string }).code).toBe('ERR_CBOR_TRAILING_BYTES');
  });
});

describe('jcp §11 WireResponse and the refusal: strict decoding of a reply', () => {
  const reply = (x: CborValue) => encodeCanonical(x);
  const map = (x: Record<string, CborValue>) => new Map(Object.entries(x)) as CborMap;
  const said = (x: CborValue) => thrown(() => decodeWireReply(reply(x))).message;

  it('a refusal: {error, message}, the error a code of the closed list, the message text', () => {
    const r = decodeWireReply(encodeWireRefusal({ error: 'ERR_WIRE_NON_CANONICAL', message: 'why' }));
    expect(r).toEqual({ kind: 'refusal', refusal: { error: 'ERR_WIRE_NON_CANONICAL', message: 'why' } });
    expect(Object.isFrozen(r) && r.kind === 'refusal' && Object.isFrozen(r.refusal)).toBe(true);
    expect(said(map({ error: 'ERR_MADE_UP', message: 'x' }))).toBe('ERR_WIRE_MALFORMED: $.error must be a code of the closed list, got ERR_MADE_UP');
    expect(said(map({ error: 5, message: 'x' }))).toBe('ERR_WIRE_MALFORMED: $.error must be a code of the closed list, got 5');
    expect(said(map({ error: 'ERR_WIRE_OVERSIZE', message: 5 }))).toBe('ERR_WIRE_MALFORMED: $.message must be text');
    expect(said(map({ error: 'ERR_WIRE_OVERSIZE' }))).toBe('ERR_WIRE_MALFORMED: $: missing field message');
    expect(said(map({ error: 'ERR_WIRE_OVERSIZE', message: 'x', receipt: new Uint8Array(1) }))).toBe('ERR_WIRE_MALFORMED: $: unknown field receipt');
  });

  it('a response: {decision, receipt}; decision {verdict, deny_reason?}, the reason non-empty text exactly on deny', () => {
    const receipt = new Uint8Array([1]);
    expect(said(5)).toBe('ERR_WIRE_MALFORMED: $ must be a map');
    expect(said(map({ decision: map({ verdict: 'allow' }) }))).toBe('ERR_WIRE_MALFORMED: $: missing field receipt');
    expect(said(map({ receipt }))).toBe('ERR_WIRE_MALFORMED: $: missing field decision');
    expect(said(map({ decision: 'allow', receipt }))).toBe('ERR_WIRE_MALFORMED: $.decision must be a map');
    expect(said(map({ decision: map({}), receipt }))).toBe('ERR_WIRE_MALFORMED: $.decision: missing field verdict');
    expect(said(map({ decision: map({ verdict: 'allow', why: 'x' }), receipt }))).toBe('ERR_WIRE_MALFORMED: $.decision: unknown field why');
    for (const verdict of ['maybe', '', 1]) expect(said(map({ decision: map({ verdict }), receipt }))).toBe('ERR_WIRE_MALFORMED: $.decision.verdict must be allow or deny');
    const reasonMsg = 'ERR_WIRE_MALFORMED: $.decision.deny_reason is present, as text, exactly on deny';
    for (const deny_reason of ['', 5, new Uint8Array(1)]) expect(said(map({ decision: map({ verdict: 'deny', deny_reason }), receipt }))).toBe(reasonMsg);
    expect(said(map({ decision: map({ verdict: 'deny' }), receipt }))).toBe(reasonMsg);
    expect(said(map({ decision: map({ verdict: 'allow', deny_reason: '' }), receipt }))).toBe(reasonMsg);
    expect(said(map({ decision: map({ verdict: 'allow' }), receipt: 'r' }))).toBe('ERR_WIRE_MALFORMED: $.receipt must be a byte string');
  });

  it('decodes an allow and a deny to frozen values carrying exactly the decision and the receipt', () => {
    const allow = decodeWireReply(encodeWireResponse({ decision: { verdict: 'allow' }, receipt: new Uint8Array([4, 5]) }));
    expect(allow.kind).toBe('response');
    if (allow.kind !== 'response') return;
    expect(allow.response.decision).toEqual({ verdict: 'allow' });
    expect(Object.keys(allow.response.decision)).toEqual(['verdict']);
    expect(toHex(allow.response.receipt)).toBe('0405');
    expect(Object.isFrozen(allow) && Object.isFrozen(allow.response) && Object.isFrozen(allow.response.decision)).toBe(true);
    const deny = decodeWireReply(encodeWireResponse({ decision: { verdict: 'deny', deny_reason: 'x' }, receipt: new Uint8Array(0) }));
    expect(deny.kind === 'response' && deny.response.decision).toEqual({ verdict: 'deny', deny_reason: 'x' });
  });

  it('a reply over the cap is ERR_WIRE_OVERSIZE; exactly the cap is read; a non-canonical one ERR_WIRE_NON_CANONICAL', () => {
    const b = encodeWireRefusal({ error: 'ERR_WIRE_OVERSIZE', message: 'x' });
    expect(thrown(() => decodeWireReply(b, b.length - 1)).message).toBe(`ERR_WIRE_OVERSIZE: a message of ${b.length} bytes exceeds the ${b.length - 1}-byte cap`);
    expect(decodeWireReply(b, b.length).kind).toBe('refusal');
    expect(thrown(() => decodeWireReply(concatBytes(b, new Uint8Array([0])))).detail).toEqual({ cause_code: 'ERR_CBOR_TRAILING_BYTES' });
  });
});

describe('jcp §11 strict parsing, done once per signed grant (the module\'s memo of links accepted before)', () => {
  let fill = 100;
  /** A grant never seen before, alice to bob, with the budget given (its head width varies with it). */
  const fresh = (budget_uj: bigint) => mintGrant(alice, { subject: bob.did, resource: TOOL_RESOURCE, actions: ['call'], budget_uj, nonce: new Uint8Array(16).fill(fill++) });

  it('a link read before is the same frozen value in a later request that also carries a link never seen', () => {
    // now and uj before the chain at every head width (jcp §3: 0, 1, 2, 4 and 8 argument bytes), links of each width inside
    const widths = [0n, 23n, 24n, 255n, 256n, 65_535n, 65_536n, (1n << 32n) - 1n, 1n << 32n, (1n << 64n) - 1n];
    for (const v of widths) {
      const known = fresh(v);
      const over = (chain: SignedGrant[]) => ({ chain, now: v, cost: { uj: v, provenance: 'ModelBased' as const, coverage: 'Partial' as const } });
      const first = decodeWireRequest(bodyOf(over([known, fresh(v)])));
      const later = decodeWireRequest(bodyOf(over([fresh(v === 0n ? 1n : v - 1n), known])));
      expect(later.chain[1], `width of ${v}`).toBe(first.chain[0]);
      expect(Object.isFrozen(later.chain[1])).toBe(true);
      // and the request is the one the strict path reads
      expect(toHex(encodeWireRequest(later))).toBe(toHex(bodyOf(over([later.chain[0]!, known]))));
    }
  });
});

describe('jcp §11 "Caller authentication": the preimage of a body in the canonical shape is read off the body itself', () => {
  it('the check is over the bytes the caller sent, the five other entries of that body, not over the request object again', () => {
    const b = bodyOf();
    const r = decodeWireRequest(b);
    // the body carries the signed fields: a request object whose now differs is still checked against the body's bytes
    expect(verifyWireBodySignature(b, { ...r, now: r.now + 1n })).toBe(true);
    // and a body whose now moved, under the first signature, fails although the object given is the one signed
    const moved = encodeWireRequest({ ...r, now: r.now + 1n });
    expect(verifyWireBodySignature(moved, r)).toBe(false);
  });
});

describe('jcp §11 strict parsing of bodies the short paths must not misread (chains and items at their size limits)', () => {
  /** A nonce for link `i` of test `tag`: 16 bytes, distinct from every other nonce this file mints. */
  const nonce = (tag: number, i: number) => Uint8Array.from({ length: 16 }, (_, j) => (j === 0 ? 0xd0 + tag : j === 1 ? i : 0));
  const link = (tag: number, i: number, actions: string[] = ['call']) => mintGrant(alice, { subject: bob.did, resource: TOOL_RESOURCE, actions, budget_uj: BigInt(i), nonce: nonce(tag, i) });
  const ids = (chain: readonly SignedGrant[]) => chain.map((g) => grantId(g.grant));

  it('a body nested deeper than det-CBOR allows is refused ERR_WIRE_NON_CANONICAL with the decoder\'s code, never overflowing', () => {
    // a one-entry map whose key is 200 000 arrays (0x81) or tags (0xc6) deep: far past the decoder's depth of 64
    for (const [head, cause, why] of [
      [0x81, 'ERR_CBOR_TOO_DEEP', 'at byte 64: nesting deeper than maxDepth 64'],
      [0xc6, 'ERR_CBOR_TAG', 'at byte 1: tag 6 is not allowed here'],
    ] as const) {
      const b = concatBytes(new Uint8Array([0xa1]), new Uint8Array(200_000).fill(head), new Uint8Array([0, 0]));
      const e = thrown(() => decodeWireRequest(b));
      expect(e.message).toBe(`ERR_WIRE_NON_CANONICAL: the body is not canonical det-CBOR: ${cause}: ${why}`);
      expect(e.detail).toEqual({ cause_code: cause });
    }
  });

  it('a chain of 24 links (past a one-byte array head) is read link for link, and each link is itself in a later request', () => {
    const links = Array.from({ length: 24 }, (_, i) => link(1, i));
    const r = decodeWireRequest(bodyOf({ chain: links }));
    expect(ids(r.chain)).toEqual(ids(links));
    for (const [i, g] of links.entries()) expect(ids(decodeWireRequest(bodyOf({ chain: [g] })).chain), `link ${i}`).toEqual([grantId(g.grant)]);
  });

  it('a chain of 23 links, one read before and the rest never seen: the known one is the same frozen value', () => {
    const known = link(2, 0);
    const first = decodeWireRequest(bodyOf({ chain: [known] })).chain[0]!;
    const links = [known, ...Array.from({ length: 22 }, (_, i) => link(2, i + 1))];
    const r = decodeWireRequest(bodyOf({ chain: links }));
    expect(ids(r.chain)).toEqual(ids(links));
    expect(r.chain[0]).toBe(first);
  });

  it('a link with a long text (a two- or four-byte length head) is read to its exact end: it and the link after it are known later', () => {
    for (const [t, n] of [
      [3, 300],
      [4, 70_000],
    ] as const) {
      const long = link(t, 0, ['call', 'x'.repeat(n)]);
      const after = link(t, 1);
      const first = decodeWireRequest(bodyOf({ chain: [long, after] }));
      expect(ids(first.chain), `${n}`).toEqual(ids([long, after]));
      expect(decodeWireRequest(bodyOf({ chain: [after] })).chain[0], `the link after a text of ${n}`).toBe(first.chain[1]);
      if (n < 4096) expect(decodeWireRequest(bodyOf({ chain: [long] })).chain[0], `the link with a text of ${n}`).toBe(first.chain[0]);
    }
  });
});
