// Unit tests of the jcp/1 endpoint (jcp §11): decide at the endpoint's clock, freshness, caller authentication sealed,
// decide once, unrecorded; and over real sockets (TCP and Unix): partial reads, pipelining, oversize.
import { mkdtempSync, rmSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { concatBytes, toHex } from '../bytes.ts';
import { decodeCanonical, encodeCanonical, type CborMap } from '../cbor/index.ts';
import { deriveSeed, keyPairFromSeed, defaultEd25519 } from '../identity/ed25519.ts';
import { contentId } from '../jcp/content-id.ts';
import { grantId, mintGrant } from '../jcp/grant.ts';
import type { SignedGrant } from '../jcp/types.ts';
import { verifyReceipt } from '../receipt/verify.ts';
import { connectWire } from './client.ts';
import { decodeWireReply, encodeWireRequest, frameMessage, signWireRequest, WireFrameReader, wireSigningBytes, type UnsignedWireRequest, type WireReply } from './codec.ts';
import { createMemoryWireGate, createWireServer, type MemoryWireGateOptions, type WireGate } from './server.ts';

const alice = keyPairFromSeed(deriveSeed('alice'));
const bob = keyPairFromSeed(deriveSeed('bob'));
const mallory = keyPairFromSeed(deriveSeed('mallory'));
const steward = keyPairFromSeed(deriveSeed('steward'));
const resource = contentId({ resource: 'tool:search' });
const T0 = 1_700_000_000n;
const WINDOW = 300n;

function grant(budget_uj = 1000n, expiry = 0n, fill = 9): SignedGrant {
  return mintGrant(alice, { subject: bob.did, resource, actions: ['call'], budget_uj, expiry, nonce: new Uint8Array(16).fill(fill) });
}

function request(sg: SignedGrant, over: Partial<UnsignedWireRequest> = {}): UnsignedWireRequest {
  return {
    frame: { kind: 'tool-call', trust: 'control', grant_id: grantId(sg.grant), action: 'call', resource, payload_hash: contentId({ payload: 'args' }) },
    chain: [sg],
    caller: bob.did,
    cost: { uj: 100n, provenance: 'HwShunt' },
    now: T0,
    ...over,
  };
}

function endpoint(gateOpts: Partial<MemoryWireGateOptions> = {}) {
  let now = T0;
  const gate = createMemoryWireGate({ steward, window_s: WINDOW, ...gateOpts });
  const server = createWireServer({ gate, now_s: () => now, window_s: WINDOW });
  const ask = async (body: Uint8Array): Promise<WireReply> => decodeWireReply(await server.handle(body));
  return { gate, server, ask, setNow: (t: bigint) => (now = t) };
}

function decision(r: WireReply) {
  if (r.kind !== 'response') throw new Error(`expected a response, got refusal ${r.refusal.error}: ${r.refusal.message}`);
  const v = verifyReceipt(r.response.receipt, { steward: steward.did });
  expect(v.core.verdict).toBe(r.response.decision.verdict);
  expect(v.core.deny_reason).toBe(r.response.decision.deny_reason);
  return { ...r.response.decision, core: v.core };
}

describe('the endpoint decides (jcp §11)', () => {
  it('allows, debits once, and answers a repeat with the first response byte for byte', async () => {
    const e = endpoint();
    const sg = grant();
    const body = encodeWireRequest(signWireRequest(request(sg), bob));
    const first = await e.server.handle(body);
    const d = decision(decodeWireReply(first));
    expect(d.verdict).toBe('allow');
    expect(d.core.budget_remaining_uj).toBe(900n);
    e.setNow(T0 + 10n);
    const again = await e.server.handle(body);
    expect(toHex(again)).toBe(toHex(first));
    expect(e.gate.point.spent(grantId(sg.grant))).toBe(100n);
    // the same action stamped later is a new request: decided and debited again
    const later = decision(await e.ask(encodeWireRequest(signWireRequest(request(sg, { now: T0 + 1n }), bob))));
    expect(later.core.budget_remaining_uj).toBe(800n);
    expect(e.gate.point.spent(grantId(sg.grant))).toBe(200n);
  });

  it('denies stale-request a stamp more than the window off the endpoint clock, either side; admits the edge', async () => {
    const e = endpoint();
    const sg = grant();
    for (const now of [T0 - WINDOW - 1n, T0 + WINDOW + 1n]) {
      const d = decision(await e.ask(encodeWireRequest(signWireRequest(request(sg, { now }), bob))));
      expect(d).toMatchObject({ verdict: 'deny', deny_reason: 'stale-request' });
    }
    expect(e.gate.point.spent(grantId(sg.grant))).toBe(0n);
    expect(e.gate.remembered()).toBe(0);
    for (const now of [T0 - WINDOW, T0 + WINDOW]) {
      expect(decision(await e.ask(encodeWireRequest(signWireRequest(request(sg, { now }), bob)))).verdict).toBe('allow');
    }
  });

  it('a repeat whose stamp has left the window is stale, not replayed', async () => {
    const e = endpoint();
    const body = encodeWireRequest(signWireRequest(request(grant()), bob));
    expect(decision(await e.ask(body)).verdict).toBe('allow');
    e.setNow(T0 + WINDOW + 1n);
    expect(decision(await e.ask(body)).deny_reason).toBe('stale-request');
    e.setNow(T0 + 2n * WINDOW + 1n);
    await e.ask(encodeWireRequest(signWireRequest(request(grant(), { now: T0 + 2n * WINDOW + 1n }), bob)));
    // the first request's entry is gone (its stamp can no longer be inside the window)
    expect(e.gate.remembered()).toBe(1);
  });

  it('decides at its own clock, never at the stamp: a grant expired between stamp and clock is expired', async () => {
    const e = endpoint();
    const sg = grant(1000n, T0 + 5n);
    e.setNow(T0 + 10n);
    const d = decision(await e.ask(encodeWireRequest(signWireRequest(request(sg, { now: T0 }), bob))));
    expect(d).toMatchObject({ verdict: 'deny', deny_reason: 'expired' });
  });

  it('denies an impersonation bad-signature, seals it, debits nothing and remembers nothing', async () => {
    const e = endpoint();
    const sg = grant();
    const unsignedReq = request(sg);
    const forged = { ...unsignedReq, signature: defaultEd25519().sign(mallory.seed, wireSigningBytes(unsignedReq)) };
    const d = decision(await e.ask(encodeWireRequest(forged)));
    expect(d).toMatchObject({ verdict: 'deny', deny_reason: 'bad-signature' });
    expect(d.core.subject).toBe(bob.did);
    expect(d.core.budget_remaining_uj).toBe(1000n);
    expect(e.gate.point.spent(grantId(sg.grant))).toBe(0n);
    expect(e.gate.remembered()).toBe(0);
  });

  it('denies unrecorded when the request cannot be recorded, and decides it once recording works', async () => {
    let broken = true;
    const recorded: Uint8Array[] = [];
    const e = endpoint({
      record: (k) => {
        if (broken) throw new Error('disk full');
        recorded.push(k);
      },
    });
    const sg = grant();
    const body = encodeWireRequest(signWireRequest(request(sg), bob));
    expect(decision(await e.ask(body))).toMatchObject({ verdict: 'deny', deny_reason: 'unrecorded' });
    expect(e.gate.point.spent(grantId(sg.grant))).toBe(0n);
    broken = false;
    expect(decision(await e.ask(body)).verdict).toBe('allow');
    await e.ask(body);
    expect(recorded).toHaveLength(1);
  });

  it('refuses a non-canonical or malformed body without deciding', async () => {
    const e = endpoint();
    const body = encodeWireRequest(signWireRequest(request(grant()), bob));
    const loose = concatBytes(new Uint8Array([0xb8, 0x06]), body.subarray(1));
    const r = await e.ask(loose);
    expect(r.kind === 'refusal' && r.refusal.error).toBe('ERR_WIRE_NON_CANONICAL');
    const m = decodeCanonical(body) as CborMap;
    m.delete('cost');
    const r2 = await e.ask(encodeCanonical(m));
    expect(r2.kind === 'refusal' && r2.refusal.error).toBe('ERR_WIRE_MALFORMED');
    expect(e.gate.remembered()).toBe(0);
  });
});

describe('the endpoint on sockets', () => {
  const dir = mkdtempSync(join(tmpdir(), 'jcp-wire-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('a partial frame behind requests the endpoint is still answering is not held to the frame deadline while reading is paused', async () => {
    // WIRE.md "Limits": a frame's deadline runs while the endpoint reads. Here the endpoint pauses the socket (4 bodies
    // in flight at most) and takes 150 ms a decision, so ten queued requests keep it paused past the 1 s deadline;
    // the partial frame after them is the endpoint's delay, not the client's, and its clock starts again on resume
    const memory = createMemoryWireGate({ steward, window_s: WINDOW });
    const slow: WireGate = {
      steward: memory.steward,
      decideOnce: (key, req, encode) => new Promise((r) => setTimeout(() => r(memory.decideOnce(key, req, encode)), 150)),
      sealRefusal: (req, reason) => memory.sealRefusal(req, reason),
    };
    const server = createWireServer({ gate: slow, now_s: () => T0, window_s: WINDOW, limits: { maxInFlight: 4, frameDeadlineMs: 1_000 } });
    const at = await server.listen({ host: '127.0.0.1', port: 0 });
    if (!('port' in at)) throw new Error('no TCP port');
    try {
      const sg = grant(100_000n);
      const frames = Array.from({ length: 11 }, (_, i) => frameMessage(encodeWireRequest(signWireRequest(request(sg, { now: T0 - BigInt(i) }), bob))));
      const last = frames[10]!;
      const socket = connect(at.port, at.host);
      const replies: WireReply[] = [];
      const reader = new WireFrameReader();
      let closed = false;
      socket.on('data', (d: Buffer) => replies.push(...reader.push(new Uint8Array(d)).map((b) => decodeWireReply(b))));
      socket.on('close', () => (closed = true));
      await new Promise<void>((r) => socket.once('connect', () => r()));
      // ten whole frames and the first 3 bytes of an eleventh, in one write
      socket.write(concatBytes(...frames.slice(0, 10), last.subarray(0, 3)));
      const until = async (n: number) => {
        while (replies.length < n && !closed) await new Promise((r) => setTimeout(r, 20));
      };
      await until(10);
      expect(replies.map((r) => r.kind === 'response' && r.response.decision.verdict)).toEqual(Array(10).fill('allow'));
      // 1.5 s of answers after the partial frame began: the connection is still open and takes the rest of the frame
      expect(closed).toBe(false);
      socket.write(last.subarray(3));
      await until(11);
      expect(replies[10]?.kind === 'response' && replies[10].response.decision.verdict).toBe('allow');
      expect(memory.point.spent(grantId(sg.grant))).toBe(1_100n);
      socket.destroy();
    } finally {
      await server.close();
    }
  }, 30_000);

  for (const kind of ['tcp', 'unix'] as const) {
    it(`${kind}: pipelined requests, a message cut into single bytes, and an oversize declaration closing the stream`, async () => {
      const e = endpoint();
      const server = createWireServer({ gate: e.gate, now_s: () => T0, window_s: WINDOW, maxMessageBytes: 64 * 1024 });
      const at = await server.listen(kind === 'tcp' ? { host: '127.0.0.1', port: 0 } : { path: join(dir, 's.sock') });
      try {
        const c = await connectWire(at);
        const sg = grant(10_000n);
        const answers = await Promise.all(Array.from({ length: 20 }, (_, i) => c.decide(request(sg, { cost: { uj: BigInt(i + 1), provenance: 'Estimator' }, now: T0 - BigInt(i) }), bob)));
        expect(answers.map((a) => a.decision.verdict)).toEqual(Array(20).fill('allow'));
        // the answers come back in request order: each receipt names its own request's cost
        expect(answers.map((a) => verifyReceipt(a.receipt).core.cost_uj)).toEqual(Array.from({ length: 20 }, (_, i) => BigInt(i + 1)));
        expect(e.gate.point.spent(grantId(sg.grant))).toBe(210n);
        // one message written one byte at a time
        const framed = frameMessage(encodeWireRequest(signWireRequest(request(sg, { now: T0 + 1n }), bob)));
        const raw = await connectWire(at);
        const p = raw.sendRaw(framed.subarray(0, 1));
        for (let i = 1; i < framed.length; i++) {
          raw.writeRaw(framed.subarray(i, i + 1));
          await new Promise<void>((r) => setImmediate(r));
        }
        const reply = await p;
        expect(reply.kind === 'response' && reply.response.decision.verdict).toBe('allow');
        await raw.close();
        // a declaration over the cap is refused and the connection closed
        const big = await connectWire(at);
        const r = await big.sendRaw(new Uint8Array([0, 1, 0, 1]));
        expect(r.kind === 'refusal' && r.refusal.error).toBe('ERR_WIRE_OVERSIZE');
        await big.closed;
        await c.close();
      } finally {
        await server.close();
      }
    });
  }
});
