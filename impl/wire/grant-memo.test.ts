// The memo of accepted chain links (impl/wire/grant-memo.ts) behind jcp §11's strict parsing: what it keeps, that it
// stays bounded, and that a link is taken only on equal bytes lying wholly inside the body.
import { describe, expect, it } from 'vitest';
import { deriveSeed, keyPairFromSeed } from '../identity/ed25519.ts';
import { contentId } from '../jcp/content-id.ts';
import { grantId, mintGrant } from '../jcp/grant.ts';
import type { SignedGrant } from '../jcp/types.ts';
import { decodeWireRequest, encodeWireRequest, signWireRequest } from './codec.ts';
import { _memoSize, knownLink, knownLinkAt, rememberLink } from './grant-memo.ts';

const alice = keyPairFromSeed(deriveSeed('grant-memo:alice'));
const bob = keyPairFromSeed(deriveSeed('grant-memo:bob'));
const resource = contentId({ resource: 'tool:grant-memo' });

function grant(n: number, actions = ['call']): SignedGrant {
  const nonce = new Uint8Array(16);
  new DataView(nonce.buffer).setUint32(0, n);
  nonce[15] = 0x5a;
  return mintGrant(alice, { subject: bob.did, resource, actions, budget_uj: 1000n, nonce });
}

function body(g: SignedGrant): Uint8Array {
  const frame = { kind: 'tool-call' as const, trust: 'control' as const, grant_id: grantId(g.grant), action: 'call', resource, payload_hash: contentId({ payload: 'x' }) };
  return encodeWireRequest(signWireRequest({ frame, chain: [g], caller: bob.did, cost: { uj: 1n, provenance: 'HwShunt' }, now: 1n }, bob));
}

/** Where the one link of `b` lies (its bytes are the encoding of the signed grant, found in the body). */
function linkSpan(b: Uint8Array, g: SignedGrant): [number, number] {
  const first = decodeWireRequest(b);
  expect(first.chain[0]).toStrictEqual(g);
  const hex = Buffer.from(b).toString('hex');
  const sig = Buffer.from(g.signature).toString('hex');
  const end = (hex.indexOf(sig) + sig.length) / 2;
  // the link is the map {grant, signature}: a2, then "grant" (65 …), and it ends with the signature
  const start = hex.indexOf('a265' + Buffer.from('grant').toString('hex')) / 2;
  expect(Number.isInteger(start) && start > 0 && end > start).toBe(true);
  return [start, end];
}

describe('the memo of accepted links (jcp §11 strict parsing, done once per signed grant)', () => {
  it('keeps a link the strict path accepted and gives it back on equal bytes only, wholly inside the body', () => {
    const g = grant(1);
    const b = body(g);
    const [start, end] = linkSpan(b, g);
    const sg = knownLink(b, start, end);
    expect(sg).toBeDefined();
    expect(decodeWireRequest(b).chain[0]).toBe(sg);
    expect(knownLinkAt(b, start, b.length)).toEqual({ sg, end });
    expect(knownLinkAt(b, start, end)).toEqual({ sg, end });
    // a limit one byte short of the link's end: not inside the body's room for it
    expect(knownLinkAt(b, start, end - 1)).toBeUndefined();
    // the same first bytes, a later byte changed
    const m = b.slice();
    m[end - 3] = m[end - 3]! ^ 1;
    expect(knownLink(m, start, end)).toBeUndefined();
    expect(knownLinkAt(m, start, m.length)).toBeUndefined();
    // a span one byte shorter or longer than the link
    expect(knownLink(b, start, end - 1)).toBeUndefined();
    expect(knownLink(b, start, end + 1)).toBeUndefined();
  });

  it('does not keep a link over 4096 bytes, or under 64: each read of it is its own', () => {
    const big = grant(2, Array.from({ length: 90 }, (_, i) => `action-${i}-${'x'.repeat(40)}`));
    const b = body(big);
    const [start, end] = linkSpan(b, big);
    expect(end - start).toBeGreaterThan(4096);
    expect(knownLink(b, start, end)).toBeUndefined();
    expect(decodeWireRequest(b).chain[0]).not.toBe(decodeWireRequest(b).chain[0]);
    // just under the bound: kept
    const fits = grant(3, Array.from({ length: 70 }, (_, i) => `action-${i}-${'x'.repeat(40)}`));
    const fb = body(fits);
    const [fs, fe] = linkSpan(fb, fits);
    expect(fe - fs).toBeLessThanOrEqual(4096);
    expect(fe - fs).toBeGreaterThan(3500);
    expect(decodeWireRequest(fb).chain[0]).toBe(decodeWireRequest(fb).chain[0]);
    // a span of 63 bytes is neither kept nor found; 64 is
    const g = grant(4);
    const small = new Uint8Array(200).fill(7);
    expect(rememberLink(small, 10, 73, g)).toBe(g);
    expect(knownLink(small, 10, 73)).toBeUndefined();
    expect(knownLinkAt(small, 10, 73)).toBeUndefined();
    rememberLink(small, 10, 74, g);
    expect(knownLink(small, 10, 74)).toBe(g);
    expect(knownLinkAt(small, 10, 74)).toEqual({ sg: g, end: 74 });
    expect(knownLinkAt(small, 10, 73)).toBeUndefined();
  });

  it('holds at most 1024 links, dropping the oldest first; keeping a link again does not grow it', () => {
    const first = grant(100);
    const fb = body(first);
    decodeWireRequest(fb);
    const kept = decodeWireRequest(fb).chain[0];
    for (let n = 0; n < 1100; n++) {
      const g = grant(1000 + n);
      const b = body(g);
      decodeWireRequest(b);
      expect(_memoSize()).toBeLessThanOrEqual(1024);
    }
    expect(_memoSize()).toBe(1024);
    // the first link was dropped: it is read again as a new value
    expect(decodeWireRequest(fb).chain[0]).not.toBe(kept);
    // the newest is kept, and reading it again keeps the size
    const last = body(grant(1000 + 1099));
    expect(decodeWireRequest(last).chain[0]).toBe(decodeWireRequest(last).chain[0]);
    expect(_memoSize()).toBe(1024);
  });
});
