// Unit tests of the jcp/1 wire codec (jcp §11): canonical round trip, the signature preimage, strict parsing, framing.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { codeOf } from '../_test-support.ts';
import { concatBytes, toHex } from '../bytes.ts';
import { decodeCanonical, encodeCanonical, type CborMap } from '../cbor/index.ts';
import { isJcpError } from '../errors.ts';
import { defaultEd25519, deriveSeed, keyPairFromSeed } from '../identity/ed25519.ts';
import { contentId } from '../jcp/content-id.ts';
import { grantId, mintGrant } from '../jcp/grant.ts';
import { formatWireEndpoint, parseWireEndpoint } from './address.ts';
import {
  decodeWireReply,
  decodeWireRequest,
  encodeWireRefusal,
  parseWireRequest,
  WIRE_MAX_MESSAGE_BYTES,
  encodeWireRequest,
  encodeWireResponse,
  frameMessage,
  signWireRequest,
  verifyWireBodySignature,
  verifyWireSignature,
  WireFrameReader,
  wireSigningBytes,
  wireSigningBytesOfBody,
  type UnsignedWireRequest,
} from './codec.ts';

const alice = keyPairFromSeed(deriveSeed('alice'));
const bob = keyPairFromSeed(deriveSeed('bob'));
const mallory = keyPairFromSeed(deriveSeed('mallory'));
const resource = contentId({ resource: 'tool:search' });
const sg = mintGrant(alice, { subject: bob.did, resource, actions: ['call'], budget_uj: 1000n, nonce: new Uint8Array(16).fill(9) });

function unsigned(over: Partial<UnsignedWireRequest> = {}): UnsignedWireRequest {
  return {
    frame: { kind: 'tool-call', trust: 'control', grant_id: grantId(sg.grant), action: 'call', resource, payload_hash: contentId({ payload: 'args' }) },
    chain: [sg],
    caller: bob.did,
    cost: { uj: 42n, provenance: 'HwShunt' },
    now: 1_700_000_000n,
    ...over,
  };
}

const body = encodeWireRequest(signWireRequest(unsigned(), bob));

describe('WireRequest codec (jcp §11)', () => {
  it('round-trips canonically: decode then encode gives the same bytes', () => {
    const r = decodeWireRequest(body);
    expect(toHex(encodeWireRequest(r))).toBe(toHex(body));
    expect(r.now).toBe(1_700_000_000n);
    expect(r.caller).toBe(bob.did);
    expect(verifyWireSignature(r)).toBe(true);
  });

  it('the signature covers exactly every other field: the body map less "signature", canonically encoded', () => {
    const m = decodeCanonical(body) as CborMap;
    const sig = m.get('signature') as Uint8Array;
    m.delete('signature');
    const preimage = encodeCanonical(m);
    expect(toHex(wireSigningBytes(unsigned()))).toBe(toHex(preimage));
    expect(defaultEd25519().verify(sig, preimage, bob.publicKey)).toBe(true);
  });

  it('a change to any signed field breaks the signature; a signature by another key does not verify', () => {
    const r = decodeWireRequest(body);
    expect(verifyWireSignature({ ...r, now: r.now + 1n })).toBe(false);
    expect(verifyWireSignature({ ...r, cost: { uj: 43n, provenance: 'HwShunt' } })).toBe(false);
    expect(verifyWireSignature({ ...r, frame: { ...r.frame, action: 'read' } })).toBe(false);
    const forged = { ...r, signature: defaultEd25519().sign(mallory.seed, wireSigningBytes(unsigned())) };
    expect(verifyWireSignature(forged)).toBe(false);
    expect(codeOf(() => signWireRequest(unsigned(), mallory))).toBe('ERR_BAD_ARGUMENT');
  });

  it('the preimage read off an accepted body is the canonical encoding of its other fields, for any request', () => {
    const requests = fc.record({
      uj: fc.bigInt({ min: 0n, max: (1n << 64n) - 1n }),
      provenance: fc.constantFrom('HwShunt' as const, 'ModelBased' as const, 'Estimator' as const),
      partial: fc.boolean(),
      now: fc.bigInt({ min: 0n, max: (1n << 64n) - 1n }),
      payload: fc.string(),
      budget: fc.bigInt({ min: 0n, max: 1n << 40n }),
      trust: fc.constantFrom('control' as const, 'data' as const),
    });
    fc.assert(
      fc.property(requests, (x) => {
        const g = mintGrant(alice, { subject: bob.did, resource, actions: ['call'], budget_uj: x.budget, nonce: new Uint8Array(16).fill(3) });
        const u = unsigned({
          frame: { kind: 'tool-call', trust: x.trust, grant_id: grantId(g.grant), action: 'call', resource, payload_hash: contentId({ payload: x.payload }) },
          chain: [g],
          cost: { uj: x.uj, provenance: x.provenance, ...(x.partial ? { coverage: 'Partial' as const } : {}) },
          now: x.now,
        });
        const b = encodeWireRequest(signWireRequest(u, bob));
        const r = decodeWireRequest(b);
        expect(toHex(wireSigningBytesOfBody(b)!)).toBe(toHex(wireSigningBytes(u)));
        expect(verifyWireBodySignature(b, r)).toBe(true);
      }),
      { numRuns: 60 },
    );
  });

  it('verifies bodies of any size in any order, and leaves each body as it was', () => {
    const sized = (n: number) => encodeWireRequest(signWireRequest(unsigned({ frame: { ...unsigned().frame, action: 'a'.repeat(n) } }), bob));
    const bodies = [sized(4), sized(5_000), sized(70_000), sized(10), sized(100_000), sized(3)];
    for (const b of [...bodies, ...bodies.reverse()]) {
      const copy = b.slice();
      expect(verifyWireBodySignature(b, decodeWireRequest(b))).toBe(true);
      const forged = b.slice();
      forged[forged.length - 2] = forged[forged.length - 2]! ^ 4;
      expect(verifyWireBodySignature(forged, decodeWireRequest(forged))).toBe(false);
      expect(toHex(b)).toBe(toHex(copy));
    }
  });

  it('a body whose last entry is not a 64-byte signature gives no preimage; a changed signed byte fails either way', () => {
    expect(wireSigningBytesOfBody(body.subarray(0, body.length - 1))).toBeUndefined();
    expect(wireSigningBytesOfBody(new Uint8Array(0))).toBeUndefined();
    const other = body.slice();
    other[0] = 0xa5;
    expect(wireSigningBytesOfBody(other)).toBeUndefined();
    const r = decodeWireRequest(body);
    // the signature itself changed: the preimage is the same, the verdict false
    const forged = body.slice();
    forged[forged.length - 1] = forged[forged.length - 1]! ^ 1;
    expect(toHex(wireSigningBytesOfBody(forged)!)).toBe(toHex(wireSigningBytesOfBody(body)!));
    expect(verifyWireBodySignature(forged, decodeWireRequest(forged))).toBe(false);
    // a signed field changed (now), the old signature kept
    const moved = encodeWireRequest({ ...r, now: r.now + 1n });
    expect(verifyWireBodySignature(moved, decodeWireRequest(moved))).toBe(false);
  });

  it('refuses a non-canonical body with ERR_WIRE_NON_CANONICAL, naming the decoder code', () => {
    // the top-level map head 0xa6 (6 entries) written in the non-shortest form 0xb8 0x06
    expect(body[0]).toBe(0xa6);
    const loose = concatBytes(new Uint8Array([0xb8, 0x06]), body.subarray(1));
    try {
      decodeWireRequest(loose);
      expect.unreachable('a non-canonical body was accepted');
    } catch (e) {
      expect(isJcpError(e, 'ERR_WIRE_NON_CANONICAL')).toBe(true);
      expect((e as { detail: Record<string, unknown> }).detail['cause_code']).toBe('ERR_CBOR_NOT_SHORTEST');
    }
    expect(codeOf(() => decodeWireRequest(concatBytes(body, new Uint8Array([0]))))).toBe('ERR_WIRE_NON_CANONICAL');
  });

  it('refuses a canonical value that is not a WireRequest with ERR_WIRE_MALFORMED', () => {
    const m = decodeCanonical(body) as CborMap;
    const variant = (f: (x: CborMap) => void) => {
      const c = new Map(m);
      f(c);
      return encodeCanonical(c);
    };
    expect(codeOf(() => decodeWireRequest(variant((c) => c.delete('now'))))).toBe('ERR_WIRE_MALFORMED');
    expect(codeOf(() => decodeWireRequest(variant((c) => c.set('extra', 1))))).toBe('ERR_WIRE_MALFORMED');
    expect(codeOf(() => decodeWireRequest(variant((c) => c.set('chain', []))))).toBe('ERR_WIRE_MALFORMED');
    expect(codeOf(() => decodeWireRequest(variant((c) => c.set('caller', 'did:key:nope'))))).toBe('ERR_WIRE_MALFORMED');
    expect(codeOf(() => decodeWireRequest(variant((c) => c.set('signature', new Uint8Array(63)))))).toBe('ERR_WIRE_MALFORMED');
    expect(codeOf(() => decodeWireRequest(variant((c) => c.set('now', -1))))).toBe('ERR_WIRE_MALFORMED');
    expect(codeOf(() => decodeWireRequest(variant((c) => c.set('frame', 'x'))))).toBe('ERR_WIRE_MALFORMED');
    expect(codeOf(() => decodeWireRequest(encodeCanonical([1, 2])))).toBe('ERR_WIRE_MALFORMED');
  });

  it('omits an absent coverage and carries Partial when present', () => {
    const partial = encodeWireRequest(signWireRequest(unsigned({ cost: { uj: 1n, provenance: 'Estimator', coverage: 'Partial' } }), bob));
    expect(decodeWireRequest(partial).cost.coverage).toBe('Partial');
    const m = decodeCanonical(body) as CborMap;
    expect([...(m.get('cost') as CborMap).keys()]).toEqual(['uj', 'provenance']);
  });
});

describe('links seen before (jcp §11 strict parsing, unchanged by the memo of signed grants)', () => {
  const carol = keyPairFromSeed(deriveSeed('carol'));
  const second = mintGrant(bob, { subject: carol.did, resource, actions: ['call'], budget_uj: 10n, nonce: new Uint8Array(16).fill(4) });
  const twoLinks = encodeWireRequest(signWireRequest(unsigned({ chain: [sg, second] }), bob));

  /** What the strict decoder and the parser alone make of `b`: the request's bytes again, or the refusal. */
  function plain(b: Uint8Array): string {
    let v;
    try {
      v = decodeCanonical(b, { maxBytes: WIRE_MAX_MESSAGE_BYTES });
    } catch (e) {
      return `ERR_WIRE_NON_CANONICAL: the body is not canonical det-CBOR: ${(e as Error).message}`;
    }
    try {
      return toHex(encodeWireRequest(parseWireRequest(v)));
    } catch (e) {
      return isJcpError(e) ? e.message : `untyped ${String(e)}`;
    }
  }
  function viaCodec(b: Uint8Array): string {
    try {
      return toHex(encodeWireRequest(decodeWireRequest(b)));
    } catch (e) {
      return isJcpError(e) ? e.message : `untyped ${String(e)}`;
    }
  }

  it('a link whose bytes were accepted before comes back as the same frozen value, in a request equal to the strict reading', () => {
    const first = decodeWireRequest(twoLinks);
    const again = decodeWireRequest(twoLinks);
    expect(again.chain[0]).toBe(first.chain[0]);
    expect(again.chain[1]).toBe(first.chain[1]);
    expect(Object.isFrozen(again.chain[0])).toBe(true);
    expect(viaCodec(twoLinks)).toBe(plain(twoLinks));
    expect(viaCodec(twoLinks)).toBe(toHex(twoLinks));
  });

  it('every one-byte change and every truncation of a body with known links is read exactly as the strict path reads it', () => {
    decodeWireRequest(twoLinks);
    let refused = 0;
    for (let at = 0; at < twoLinks.length; at++) {
      for (const x of [0x01, 0x20, 0x80, 0xff]) {
        const b = twoLinks.slice();
        b[at] = b[at]! ^ x;
        const want = plain(b);
        expect(viaCodec(b), `byte ${at} ^ ${x}`).toBe(want);
        if (!/^[0-9a-f]+$/.test(want)) refused++;
      }
      const cut = twoLinks.subarray(0, at);
      expect(viaCodec(cut), `cut at ${at}`).toBe(plain(cut));
    }
    // the changes exercised both outcomes
    expect(refused).toBeGreaterThan(0);
    expect(refused).toBeLessThan(twoLinks.length * 4);
  });

  it('links reordered, repeated or dropped are read as the strict path reads them', () => {
    decodeWireRequest(twoLinks);
    for (const chain of [[second, sg], [sg, sg], [second], [sg, second, sg]]) {
      const b = encodeWireRequest(signWireRequest(unsigned({ chain }), bob));
      expect(viaCodec(b)).toBe(plain(b));
      expect(viaCodec(b)).toBe(toHex(b));
    }
    const oneByteLonger = concatBytes(twoLinks, new Uint8Array([0]));
    expect(viaCodec(oneByteLonger)).toBe(plain(oneByteLonger));
  });
});

describe('WireResponse / refusal codec', () => {
  it('round-trips a deny with its reason and an allow without one; a refusal carries a closed-list code', () => {
    const deny = encodeWireResponse({ decision: { verdict: 'deny', deny_reason: 'stale-request' }, receipt: new Uint8Array([1, 2]) });
    const r = decodeWireReply(deny);
    expect(r.kind === 'response' && r.response.decision).toEqual({ verdict: 'deny', deny_reason: 'stale-request' });
    const allow = encodeWireResponse({ decision: { verdict: 'allow' }, receipt: new Uint8Array([3]) });
    expect([...((decodeCanonical(allow) as CborMap).get('decision') as CborMap).keys()]).toEqual(['verdict']);
    const ref = decodeWireReply(encodeWireRefusal({ error: 'ERR_WIRE_OVERSIZE', message: 'too big' }));
    expect(ref.kind === 'refusal' && ref.refusal.error).toBe('ERR_WIRE_OVERSIZE');
    expect(codeOf(() => decodeWireReply(encodeCanonical({ error: 'ERR_MADE_UP', message: 'x' })))).toBe('ERR_WIRE_MALFORMED');
    expect(codeOf(() => decodeWireReply(encodeCanonical({ decision: { verdict: 'deny' }, receipt: new Uint8Array(1) })))).toBe('ERR_WIRE_MALFORMED');
    expect(codeOf(() => decodeWireReply(encodeCanonical({ decision: { verdict: 'allow', deny_reason: 'x' }, receipt: new Uint8Array(1) })))).toBe('ERR_WIRE_MALFORMED');
  });

  it("an allow's response is the canonical encoding of {decision, receipt} for a receipt of any length", () => {
    // the lengths at each byte-string head width (jcp §3 shortest form): one byte, 0x58 n, 0x59 n n, and past 0xffff
    for (const n of [0, 1, 23, 24, 255, 256, 300, 0xffff, 0x10000]) {
      const receipt = Uint8Array.from({ length: n }, (_, i) => (i * 7 + n) & 0xff);
      const generic = encodeCanonical({ decision: { verdict: 'allow' }, receipt });
      expect(toHex(encodeWireResponse({ decision: { verdict: 'allow' }, receipt })), `receipt of ${n} bytes`).toBe(toHex(generic));
    }
    const deny = { decision: { verdict: 'deny' as const, deny_reason: 'budget-exhausted' }, receipt: new Uint8Array(40).fill(5) };
    expect(toHex(encodeWireResponse(deny))).toBe(toHex(encodeCanonical({ decision: { verdict: 'deny', deny_reason: 'budget-exhausted' }, receipt: deny.receipt })));
  });
});

describe('framing (jcp §11: 4-byte big-endian length, declared cap)', () => {
  it('prefixes the body length big-endian', () => {
    expect(toHex(frameMessage(new Uint8Array([0xa0])))).toBe('00000001a0');
    expect(toHex(frameMessage(new Uint8Array(258)).subarray(0, 4))).toBe('00000102');
  });

  it('reassembles messages however the stream is cut (partial reads, several messages in one read)', () => {
    const bodies = [body, new Uint8Array([0xa0]), new Uint8Array(0), encodeCanonical({ x: 1 })];
    const stream = concatBytes(...bodies.map((b) => frameMessage(b)));
    fc.assert(
      fc.property(fc.uniqueArray(fc.integer({ min: 1, max: stream.length - 1 }), { maxLength: 12 }), (cuts) => {
        const r = new WireFrameReader();
        const got: Uint8Array[] = [];
        let at = 0;
        for (const c of [...cuts.sort((a, b) => a - b), stream.length]) {
          got.push(...r.push(stream.subarray(at, c)));
          at = c;
        }
        expect(got.map(toHex)).toEqual(bodies.map(toHex));
        expect(r.pending).toBe(0);
      }),
      { seed: 0x11, numRuns: 200 },
    );
  });

  it('refuses a declared length over the cap before the body arrives; accepts exactly the cap', () => {
    const r = new WireFrameReader(16);
    expect(codeOf(() => r.push(new Uint8Array([0, 0, 0, 17])))).toBe('ERR_WIRE_OVERSIZE');
    expect(new WireFrameReader(16).push(frameMessage(new Uint8Array(16), 16))).toHaveLength(1);
    expect(codeOf(() => frameMessage(new Uint8Array(17), 16))).toBe('ERR_WIRE_OVERSIZE');
    expect(codeOf(() => decodeWireRequest(body, body.length - 1))).toBe('ERR_WIRE_OVERSIZE');
  });
});

describe('endpoint addresses', () => {
  it('reads tcp://host:port and unix:/path, and refuses anything else', () => {
    expect(parseWireEndpoint('tcp://127.0.0.1:7070')).toEqual({ host: '127.0.0.1', port: 7070 });
    expect(parseWireEndpoint('tcp://[::1]:80')).toEqual({ host: '::1', port: 80 });
    expect(parseWireEndpoint('unix:/tmp/jcp.sock')).toEqual({ path: '/tmp/jcp.sock' });
    expect(parseWireEndpoint('unix:///tmp/jcp.sock')).toEqual({ path: '/tmp/jcp.sock' });
    expect(formatWireEndpoint({ host: '::1', port: 80 })).toBe('tcp://[::1]:80');
    for (const bad of ['http://x:1', 'tcp://x', 'tcp://x:0', 'tcp://x:70000', 'unix:', 'unix:rel/path']) expect(codeOf(() => parseWireEndpoint(bad))).toBe('ERR_BAD_ARGUMENT');
  });
});
