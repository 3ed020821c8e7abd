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
  encodeWireRequest,
  encodeWireResponse,
  frameMessage,
  signWireRequest,
  verifyWireSignature,
  WireFrameReader,
  wireSigningBytes,
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
