// The one-pass reader of request bodies (impl/wire/read-request.ts) against the strict path of jcp §11: whatever the
// reader takes, decodeCanonical then parseWireRequest takes too, as an equal request; everything else is left to the
// strict path, which names the fault.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { toHex } from '../bytes.ts';
import { decodeCanonical, encodeCanonical } from '../cbor/index.ts';
import { isJcpError } from '../errors.ts';
import { deriveSeed, keyPairFromSeed } from '../identity/ed25519.ts';
import { contentId } from '../jcp/content-id.ts';
import { attenuate } from '../jcp/attenuate.ts';
import { grantId, mintGrant } from '../jcp/grant.ts';
import { FRAME_KINDS } from '../jcp/types.ts';
import { decodeWireRequest, encodeWireRequest, parseWireRequest, signWireRequest, type UnsignedWireRequest, type WireRequest } from './codec.ts';
import { _readKnownWireRequest } from './read-request.ts';

const alice = keyPairFromSeed(deriveSeed('read-request:alice'));
const bob = keyPairFromSeed(deriveSeed('read-request:bob'));
const carol = keyPairFromSeed(deriveSeed('read-request:carol'));
const resource = contentId({ resource: 'tool:read-request' });
const root = mintGrant(alice, { subject: bob.did, resource, actions: ['call'], budget_uj: 1000n, nonce: new Uint8Array(16).fill(21) });
const child = attenuate(root, bob, { subject: carol.did, budget_uj: 500n, nonce: new Uint8Array(16).fill(22) });

function request(over: Partial<UnsignedWireRequest> = {}, signer = bob): Uint8Array {
  const r: UnsignedWireRequest = {
    frame: { kind: 'tool-call', trust: 'control', grant_id: grantId(root.grant), action: 'call', resource, payload_hash: contentId({ payload: 'args' }) },
    chain: [root],
    caller: signer.did,
    cost: { uj: 42n, provenance: 'HwShunt' },
    now: 1_700_000_000n,
    ...over,
  };
  return encodeWireRequest(signWireRequest(r, signer));
}

/** The strict reading of `b`: the request, or the refusal's code and message. */
function strict(b: Uint8Array): WireRequest | string {
  try {
    return parseWireRequest(decodeCanonical(b));
  } catch (e) {
    return isJcpError(e) ? `${e.code}: ${e.message}` : `untyped: ${String(e)}`;
  }
}

/** Checks the reader against the strict path on `b`; returns whether the reader took it. */
function agree(b: Uint8Array): boolean {
  const read = _readKnownWireRequest(b);
  if (read === undefined) return false;
  const want = strict(b);
  expect(typeof want, `the reader took a body the strict path refuses: ${String(want)}`).toBe('object');
  expect(read).toStrictEqual(want);
  expect(Object.isFrozen(read) && Object.isFrozen(read.frame) && Object.isFrozen(read.cost) && Object.isFrozen(read.chain)).toBe(true);
  return true;
}

/** Makes the strict path accept (and remember) the links of `b`. */
function learn(b: Uint8Array): void {
  decodeWireRequest(b);
}

describe('the one-pass request reader (jcp §11 strict parsing, unchanged)', () => {
  it('takes a request whose links were accepted before, equal to the strict reading and sharing their values', () => {
    const b = request({ chain: [root, child], caller: carol.did }, carol);
    learn(b);
    expect(agree(b)).toBe(true);
    const read = _readKnownWireRequest(b)!;
    expect(read.chain[0]).toBe(decodeWireRequest(b).chain[0]);
    expect(toHex(encodeWireRequest(read))).toBe(toHex(b));
  });

  it('leaves a body with a link never accepted to the strict path, which then remembers it', () => {
    const fresh = mintGrant(alice, { subject: bob.did, resource, actions: ['call'], budget_uj: 7n, nonce: new Uint8Array(16).fill(23) });
    const b = request({ chain: [fresh], frame: { kind: 'tool-call', trust: 'control', grant_id: grantId(fresh.grant), action: 'call', resource, payload_hash: contentId({ payload: 1 }) } });
    expect(_readKnownWireRequest(b)).toBeUndefined();
    learn(b);
    expect(agree(b)).toBe(true);
  });

  it('reads every shape the strict path reads: optional model and coverage, every kind, trust and provenance, every integer width', () => {
    learn(request());
    const uints = fc.oneof(fc.bigInt({ min: 0n, max: 23n }), fc.bigInt({ min: 24n, max: 0xffffn }), fc.bigInt({ min: 0x10000n, max: 0xffffffffn }), fc.bigInt({ min: 1n << 32n, max: (1n << 64n) - 1n }));
    const cid = fc.uint8Array({ minLength: 32, maxLength: 32 }).map(toHex);
    fc.assert(
      fc.property(
        fc.record({
          kind: fc.constantFrom(...FRAME_KINDS),
          trust: fc.constantFrom('control' as const, 'data' as const),
          action: fc.stringMatching(/^[ -~]{1,40}$/),
          payload: cid,
          model: fc.option(cid, { nil: undefined }),
          uj: uints,
          now: uints,
          provenance: fc.constantFrom('HwShunt' as const, 'ModelBased' as const, 'Estimator' as const),
          partial: fc.boolean(),
        }),
        (x) => {
          const b = request({
            frame: { kind: x.kind, trust: x.trust, grant_id: grantId(root.grant), action: x.action, resource, payload_hash: x.payload, ...(x.model === undefined ? {} : { model: x.model }) },
            cost: { uj: x.uj, provenance: x.provenance, ...(x.partial ? { coverage: 'Partial' as const } : {}) },
            now: x.now,
          });
          expect(agree(b)).toBe(true);
        },
      ),
      { numRuns: 300, seed: 20261205 },
    );
  });

  it('leaves text that is not ASCII to the strict path (which decodes UTF-8 and accepts it)', () => {
    learn(request());
    const b = request({ frame: { kind: 'tool-call', trust: 'control', grant_id: grantId(root.grant), action: 'überschreiben', resource, payload_hash: contentId({ payload: 2 }) } });
    expect(_readKnownWireRequest(b)).toBeUndefined();
    expect(decodeWireRequest(b).frame.action).toBe('überschreiben');
  });

  it('every one-byte change, truncation and extension of a body with known links is taken equal to the strict reading or left to it', () => {
    const b = request({ chain: [root, child], caller: carol.did }, carol);
    learn(b);
    let taken = 0;
    let left = 0;
    for (let at = 0; at < b.length; at++) {
      for (const x of [0x01, 0x02, 0x20, 0x40, 0x80, 0xff]) {
        const m = b.slice();
        m[at] = m[at]! ^ x;
        if (agree(m)) taken++;
        else left++;
      }
      if (agree(b.subarray(0, at))) taken++;
      else left++;
    }
    for (const tail of [[0], [0xa0], [0x40], [0xff]]) expect(agree(Uint8Array.from([...b, ...tail]))).toBe(false);
    // both outcomes were exercised: a changed hex digit of the payload hash or a changed signature byte is still a
    // request the strict path takes, a changed head is not
    expect(taken).toBeGreaterThan(50);
    expect(left).toBeGreaterThan(b.length);
  });

  it('leaves a body the strict path refuses to it, so the refusal keeps its code', () => {
    const b = request();
    learn(b);
    const v = decodeCanonical(b) as Map<string, unknown>;
    const cases: [string, Map<string, unknown>][] = [
      ['an unknown field', new Map([...v, ['extra', 1]])],
      ['an empty action', new Map([...v, ['frame', new Map([...(v.get('frame') as Map<string, unknown>), ['action', '']])]])],
      ['an upper-case content id', new Map([...v, ['frame', new Map([...(v.get('frame') as Map<string, unknown>), ['payload_hash', contentId({ p: 3 }).toUpperCase()]])]])],
      ['a coverage other than Partial', new Map([...v, ['cost', new Map([...(v.get('cost') as Map<string, unknown>), ['coverage', 'Whole']])]])],
      ['a signature of 63 bytes', new Map([...v, ['signature', new Uint8Array(63)]])],
      ['a caller that is no did:key', new Map([...v, ['caller', 'did:web:example.com']])],
      ['an empty chain', new Map([...v, ['chain', []]])],
    ];
    for (const [what, m] of cases) {
      const bad = encodeCanonical(m as never);
      expect(_readKnownWireRequest(bad), what).toBeUndefined();
      expect(typeof strict(bad), what).toBe('string');
    }
  });

  it('never throws, whatever the bytes', () => {
    learn(request());
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 900 }), (b) => {
        agree(b);
      }),
      { numRuns: 500, seed: 20261206 },
    );
    expect(_readKnownWireRequest(new Uint8Array(0))).toBeUndefined();
    expect(_readKnownWireRequest('not bytes' as never)).toBeUndefined();
  });

  it('a link is taken only on equal bytes: one that shares its first bytes with a known link but not the rest is left', () => {
    const b = request();
    learn(b);
    // a byte of the link's signature changed: the first bytes still find the known link, its bytes no longer match
    const sigAt = toHex(b).indexOf(toHex(root.signature)) / 2;
    expect(Number.isInteger(sigAt) && sigAt > 40).toBe(true);
    const m = b.slice();
    m[sigAt + 10] = m[sigAt + 10]! ^ 1;
    expect(_readKnownWireRequest(m)).toBeUndefined();
    expect(typeof strict(m)).toBe('object');
  });
  it('reads a chain of 23 links, the most a one-byte array head holds, and leaves a longer head to the strict path', () => {
    // jcp §3 shortest heads: 1 … 23 items take a one-byte array head (0x81 … 0x97); a head past it is off the shape
    const hops = Array.from({ length: 22 }, (_, i) => keyPairFromSeed(deriveSeed(`read-request:hop${i}`)));
    const links = [root];
    let holder = bob;
    for (const [i, k] of hops.entries()) {
      links.push(attenuate(links[links.length - 1]!, holder, { subject: k.did, budget_uj: 900n - BigInt(i), nonce: new Uint8Array(16).fill(40 + i) }));
      holder = k;
    }
    expect(links).toHaveLength(23);
    const leaf = links[22]!;
    const b = request({ chain: links, caller: holder.did, frame: { kind: 'tool-call', trust: 'control', grant_id: grantId(leaf.grant), action: 'call', resource, payload_hash: contentId({ payload: 23 }) } }, holder);
    learn(b);
    expect(agree(b)).toBe(true);
    expect(_readKnownWireRequest(b)!.chain).toHaveLength(23);
    // 31 known links under the one-byte head 0x9f (an indefinite-length array, never canonical): the strict path
    // refuses it, so the reader must leave it
    const long = request({ chain: Array.from({ length: 31 }, () => root) });
    learn(long);
    const at = toHex(long).indexOf(`${toHex(new TextEncoder().encode('chain'))}981f`) / 2 + 5;
    expect(Number.isInteger(at) && at > 6).toBe(true);
    const indefinite = Uint8Array.from([...long.subarray(0, at), 0x9f, ...long.subarray(at + 2)]);
    expect(_readKnownWireRequest(indefinite)).toBeUndefined();
    expect(typeof strict(indefinite)).toBe('string');
  });

  it('answers undefined, without throwing, for an array of numbers that begins like a request body', () => {
    const b = request();
    learn(b);
    expect(_readKnownWireRequest(Array.from(b) as never)).toBeUndefined();
    expect(_readKnownWireRequest([0xa6] as never)).toBeUndefined();
  });
});
