// Unit tests of the jcp/1 endpoint (jcp §11): decide at the endpoint's clock, freshness, caller authentication sealed,
// decide once, unrecorded; and over real sockets (TCP and Unix): partial reads, pipelining, oversize.
import { mkdtempSync, rmSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import { concatBytes, toHex } from '../bytes.ts';
import { decodeCanonical, encodeCanonical, type CborMap } from '../cbor/index.ts';
import { deriveSeed, keyPairFromSeed, defaultEd25519, type Ed25519 } from '../identity/ed25519.ts';
import { JcpError } from '../errors.ts';
import type { DecisionRequest } from '../jcp/decide.ts';
import { thrown } from '../_test-support.ts';
import { contentId } from '../jcp/content-id.ts';
import { grantId, mintGrant } from '../jcp/grant.ts';
import type { SignedGrant } from '../jcp/types.ts';
import { verifyReceipt } from '../receipt/verify.ts';
import { connectWire } from './client.ts';
import { decodeWireReply, encodeWireRequest, frameMessage, signWireRequest, WIRE_FRESHNESS_WINDOW_S, WireFrameReader, wireSigningBytes, type UnsignedWireRequest, type WireReply } from './codec.ts';
import { createMemoryWireGate, createWireServer, UNTYPED_REFUSAL_PREFIX, type MemoryWireGateOptions, type WireGate, type WireLimits } from './server.ts';

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

/** The request `u` as the gate is given it: decided at `now_s`. */
function decisionRequest(u: UnsignedWireRequest, now_s = T0): DecisionRequest {
  return { frame: u.frame, chain: u.chain, caller: u.caller, cost: u.cost, now_s };
}

/** The default Ed25519 backend with its signing and verifying counted; `over` replaces any of its functions. */
function countedBackend(over: Partial<Ed25519> = {}) {
  const base = defaultEd25519();
  const calls = { sign: 0, verify: 0 };
  const backend: Ed25519 = {
    name: base.name,
    publicKeyFromSeed: (seed) => base.publicKeyFromSeed(seed),
    sign: (seed, m) => (calls.sign++, base.sign(seed, m)),
    verify: (sig, m, pk) => (calls.verify++, base.verify(sig, m, pk)),
    ...over,
  };
  return { backend, calls };
}

/** The refusal of a reply (fails on a response). */
function refusalOf(r: WireReply) {
  if (r.kind !== 'refusal') throw new Error(`expected a refusal, got a ${r.response.decision.verdict} response`);
  return r.refusal;
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

  it('the memory gate throws ERR_WIRE_UNRECORDED, its recorder\'s error as cause, and decides nothing when recording fails', () => {
    // the WireGate contract: decideOnce "throws JcpError ERR_WIRE_UNRECORDED, having decided and debited nothing"
    const disk = new Error('disk full');
    const gate = createMemoryWireGate({
      steward,
      record: () => {
        throw disk;
      },
    });
    const sg = grant();
    const e = thrown(() => gate.decideOnce(new Uint8Array(32), decisionRequest(request(sg)), (d) => d.receipt));
    expect(e.code).toBe('ERR_WIRE_UNRECORDED');
    expect(e.message).toBe('ERR_WIRE_UNRECORDED: the request could not be recorded: disk full');
    expect(e.cause).toBe(disk);
    expect(gate.point.spent(grantId(sg.grant))).toBe(0n);
    expect(gate.remembered()).toBe(0);
    const odd = createMemoryWireGate({
      steward,
      record: () => {
        throw 'no room';
      },
    });
    expect(thrown(() => odd.decideOnce(new Uint8Array(32), decisionRequest(request(sg)), (d) => d.receipt)).message).toBe('ERR_WIRE_UNRECORDED: the request could not be recorded: no room');
  });

  it('the memory gate seals its wire refusals with the backend it is given', async () => {
    const { backend, calls } = countedBackend();
    const gate = createMemoryWireGate({ steward, window_s: WINDOW, backend });
    const server = createWireServer({ gate, now_s: () => T0, window_s: WINDOW });
    const d = decision(decodeWireReply(await server.handle(encodeWireRequest(signWireRequest(request(grant(), { now: T0 - WINDOW - 1n }), bob)))));
    expect(d.deny_reason).toBe('stale-request');
    expect(calls.sign).toBe(1);
  });

  it('verifies the caller with the backend it is given (jcp §11 caller authentication)', async () => {
    const { backend } = countedBackend({ verify: () => false });
    const gate = createMemoryWireGate({ steward, window_s: WINDOW });
    const server = createWireServer({ gate, now_s: () => T0, window_s: WINDOW, backend });
    const d = decision(decodeWireReply(await server.handle(encodeWireRequest(signWireRequest(request(grant()), bob)))));
    expect(d).toMatchObject({ verdict: 'deny', deny_reason: 'bad-signature' });
    expect(gate.remembered()).toBe(0);
  });

  describe('with no clock or window given', () => {
    afterEach(() => vi.useRealTimers());

    it('decides at the system clock, with the freshness window WIRE_FRESHNESS_WINDOW_S (jcp §11)', async () => {
      vi.useFakeTimers({ toFake: ['Date'] });
      vi.setSystemTime(Number(T0) * 1000 + 999);
      const server = createWireServer({ gate: createMemoryWireGate({ steward }) });
      expect(server.window_s).toBe(WIRE_FRESHNESS_WINDOW_S);
      const sg = grant(10_000n);
      const ask = async (now: bigint) => decision(decodeWireReply(await server.handle(encodeWireRequest(signWireRequest(request(sg, { now }), bob)))));
      for (const now of [T0 - WIRE_FRESHNESS_WINDOW_S, T0, T0 + WIRE_FRESHNESS_WINDOW_S]) {
        expect((await ask(now)).verdict).toBe('allow');
      }
      for (const now of [T0 - WIRE_FRESHNESS_WINDOW_S - 1n, T0 + WIRE_FRESHNESS_WINDOW_S + 1n]) expect((await ask(now)).deny_reason).toBe('stale-request');
    });
  });

  it('holds requests to the window it is given, at the edge and one past it', async () => {
    const server = createWireServer({ gate: createMemoryWireGate({ steward }), now_s: () => T0, window_s: 10n });
    expect(server.window_s).toBe(10n);
    const sg = grant(10_000n);
    const ask = async (now: bigint) => decision(decodeWireReply(await server.handle(encodeWireRequest(signWireRequest(request(sg, { now }), bob)))));
    expect((await ask(T0 + 10n)).verdict).toBe('allow');
    expect((await ask(T0 - 10n)).verdict).toBe('allow');
    expect((await ask(T0 + 11n)).deny_reason).toBe('stale-request');
    expect((await ask(T0 - 11n)).deny_reason).toBe('stale-request');
  });

  it('refuses, with its code and message, a gate failure other than unrecorded; an untyped one as ERR_BAD_ARGUMENT', async () => {
    const memory = createMemoryWireGate({ steward, window_s: WINDOW });
    let failure: unknown;
    const gate: WireGate = {
      steward: memory.steward,
      decideOnce: () => {
        throw failure;
      },
      sealRefusal: (req, reason) => memory.sealRefusal(req, reason),
    };
    const server = createWireServer({ gate, now_s: () => T0, window_s: WINDOW });
    const body = encodeWireRequest(signWireRequest(request(grant()), bob));
    const ask = async () => refusalOf(decodeWireReply(await server.handle(body)));
    failure = new JcpError('ERR_BAD_ARGUMENT', 'the gate is closed');
    expect(await ask()).toEqual({ error: 'ERR_BAD_ARGUMENT', message: 'ERR_BAD_ARGUMENT: the gate is closed' });
    failure = new TypeError('x is not a function');
    expect(await ask()).toEqual({ error: 'ERR_BAD_ARGUMENT', message: `${UNTYPED_REFUSAL_PREFIX}x is not a function` });
    failure = 'a thrown string';
    expect(await ask()).toEqual({ error: 'ERR_BAD_ARGUMENT', message: `${UNTYPED_REFUSAL_PREFIX}a thrown string` });
  });

  it('answers through a gate that decides and seals asynchronously; a refusal it cannot seal is refused with its code', async () => {
    const memory = createMemoryWireGate({ steward, window_s: WINDOW });
    let unrecorded = false;
    let sealFails = false;
    const gate: WireGate = {
      steward: memory.steward,
      decideOnce: async (key, req, encode) => {
        if (unrecorded) throw new JcpError('ERR_WIRE_UNRECORDED', 'the record is held');
        return memory.decideOnce(key, req, encode);
      },
      sealRefusal: (req, reason) => {
        if (sealFails) throw new JcpError('ERR_SEED_LENGTH', 'no steward key');
        return Promise.resolve(memory.sealRefusal(req, reason));
      },
    };
    const server = createWireServer({ gate, now_s: () => T0, window_s: WINDOW });
    const sg = grant();
    const body = (now: bigint) => encodeWireRequest(signWireRequest(request(sg, { now }), bob));
    const first = await server.handle(body(T0));
    expect(decision(decodeWireReply(first)).verdict).toBe('allow');
    expect(toHex(await server.handle(body(T0)))).toBe(toHex(first));
    unrecorded = true;
    expect(decision(decodeWireReply(await server.handle(body(T0 - 1n))))).toMatchObject({ verdict: 'deny', deny_reason: 'unrecorded' });
    expect(decision(decodeWireReply(await server.handle(body(T0 - WINDOW - 1n))))).toMatchObject({ verdict: 'deny', deny_reason: 'stale-request' });
    sealFails = true;
    expect(refusalOf(decodeWireReply(await server.handle(body(T0 - WINDOW - 1n))))).toEqual({ error: 'ERR_SEED_LENGTH', message: 'ERR_SEED_LENGTH: no steward key' });
    expect(memory.point.spent(grantId(sg.grant))).toBe(100n);
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

  /** Waits until `ok()` holds; the guard only bounds a wait that has failed, no assertion reads the time. */
  const until = async (ok: () => boolean, what: string, guardMs = 10_000) => {
    for (let waited = 0; !ok(); waited += 20) {
      if (waited > guardMs) throw new Error(`gave up waiting: ${what}`);
      await new Promise((r) => setTimeout(r, 20));
    }
  };
  const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
  const frameAt = (sg: SignedGrant, i: number, uj = 100n) => frameMessage(encodeWireRequest(signWireRequest(request(sg, { now: T0 - BigInt(i), cost: { uj, provenance: 'HwShunt' } }), bob)));

  /** A memory gate whose first `held` decisions wait until `release()`; `asked` counts the decisions begun. */
  function heldGate(held = Number.POSITIVE_INFINITY) {
    const memory = createMemoryWireGate({ steward, window_s: WINDOW });
    let release!: () => void;
    const open = new Promise<void>((r) => (release = r));
    const state = { asked: 0 };
    const gate: WireGate = {
      steward: memory.steward,
      decideOnce: (key, req, encode) => (state.asked++ < held ? open.then(() => memory.decideOnce(key, req, encode)) : memory.decideOnce(key, req, encode)),
      sealRefusal: (req, reason) => memory.sealRefusal(req, reason),
    };
    return { memory, gate, release, state };
  }

  /** An endpoint on loopback TCP over `gate` with `limits`, and a bare connection to it that reads its replies. */
  async function onLoopback(gate: WireGate, limits: Partial<WireLimits>) {
    const server = createWireServer({ gate, now_s: () => T0, window_s: WINDOW, limits });
    const at = await server.listen({ host: '127.0.0.1', port: 0 });
    if (!('port' in at)) throw new Error('no TCP port');
    const socket = connect(at.port, at.host);
    const replies: WireReply[] = [];
    const reader = new WireFrameReader();
    const state = { closed: false };
    socket.on('data', (d: Buffer) => replies.push(...reader.push(new Uint8Array(d)).map((b) => decodeWireReply(b))));
    socket.on('close', () => (state.closed = true));
    socket.on('error', () => {});
    await new Promise<void>((r) => socket.once('connect', () => r()));
    return { server, at, socket, replies, state };
  }
  const verdicts = (rs: WireReply[]) => rs.map((r) => r.kind === 'response' && r.response.decision.verdict);

  it('closes a connection whose frame is not whole within the frame deadline (WIRE.md "Limits")', async () => {
    const c = await onLoopback(heldGate().gate, { frameDeadlineMs: 100 });
    try {
      c.socket.write(frameAt(grant(), 0).subarray(0, 3));
      await until(() => c.state.closed, 'the deadline closes the connection');
      expect(c.replies).toEqual([]);
      await until(() => c.server.connections === 0, 'the endpoint lets the connection go');
    } finally {
      await c.server.close();
    }
  });

  it('runs the frame deadline from a frame\'s first byte: bytes trickling in do not restart it', async () => {
    const c = await onLoopback(heldGate().gate, { frameDeadlineMs: 200 });
    try {
      // a frame declaring 1,000 bytes, then one byte every 40 ms (it would take 40 s)
      c.socket.write(Uint8Array.of(0, 0, 0x03, 0xe8));
      for (let i = 0; i < 100 && !c.state.closed; i++) {
        c.socket.write(Uint8Array.of(0xa6));
        await sleep(40);
      }
      expect(c.state.closed).toBe(true);
    } finally {
      await c.server.close();
    }
  });

  it('holds no deadline over whole frames: a connection that sent whole frames stays open past it, and keeps serving', async () => {
    const h = heldGate(2);
    const c = await onLoopback(h.gate, { maxInFlight: 2, frameDeadlineMs: 100 });
    try {
      const sg = grant(10_000n);
      // two whole frames: reading pauses at maxInFlight, and resumes with no frame begun
      c.socket.write(concatBytes(frameAt(sg, 0), frameAt(sg, 1)));
      await until(() => h.state.asked === 1, 'the first decision begins');
      h.release();
      await until(() => c.replies.length === 2, 'two answers');
      await sleep(400);
      c.socket.write(frameAt(sg, 2));
      await until(() => c.replies.length === 3 || c.state.closed, 'a third answer');
      await sleep(400);
      c.socket.write(frameAt(sg, 3));
      await until(() => c.replies.length === 4 || c.state.closed, 'a fourth answer');
      expect(verdicts(c.replies)).toEqual(Array(4).fill('allow'));
      expect(c.state.closed).toBe(false);
      // and a frame begun now is held to the deadline again
      c.socket.write(frameAt(sg, 4).subarray(0, 3));
      await until(() => c.state.closed, 'the deadline closes the connection');
    } finally {
      await c.server.close();
    }
  });

  it('pauses reading at exactly maxInFlight bodies, and a partial frame behind them is not held to the deadline until reading resumes', async () => {
    const h = heldGate();
    const c = await onLoopback(h.gate, { maxInFlight: 2, frameDeadlineMs: 100 });
    try {
      const sg = grant(10_000n);
      const third = frameAt(sg, 2);
      c.socket.write(concatBytes(frameAt(sg, 0), frameAt(sg, 1), third.subarray(0, 3)));
      await until(() => h.state.asked === 1, 'the first decision begins');
      await sleep(500);
      expect(c.state.closed).toBe(false);
      c.socket.write(third.subarray(3));
      h.release();
      await until(() => c.replies.length === 3 || c.state.closed, 'three answers');
      expect(verdicts(c.replies)).toEqual(Array(3).fill('allow'));
      expect(c.state.closed).toBe(false);
    } finally {
      h.release();
      await c.server.close();
    }
  });

  it('holds a partial frame left when reading resumes to the deadline', async () => {
    const h = heldGate();
    const c = await onLoopback(h.gate, { maxInFlight: 2, frameDeadlineMs: 100 });
    try {
      const sg = grant(10_000n);
      c.socket.write(concatBytes(frameAt(sg, 0), frameAt(sg, 1), frameAt(sg, 2).subarray(0, 3)));
      await until(() => h.state.asked === 1, 'the first decision begins');
      h.release();
      await until(() => c.state.closed, 'the deadline closes the connection');
      expect(verdicts(c.replies)).toEqual(['allow', 'allow']);
    } finally {
      await c.server.close();
    }
  });

  it('below maxInFlight reading goes on, so a partial frame behind a body in flight is held to the deadline', async () => {
    const h = heldGate();
    const c = await onLoopback(h.gate, { maxInFlight: 2, frameDeadlineMs: 100 });
    try {
      const sg = grant(10_000n);
      c.socket.write(frameAt(sg, 0));
      await until(() => h.state.asked === 1, 'the first decision begins');
      // one body answered and one in flight: below the limit, reading is not paused
      c.socket.write(concatBytes(frameAt(sg, 1), frameAt(sg, 2).subarray(0, 3)));
      await until(() => c.state.closed, 'the deadline closes the connection');
    } finally {
      h.release();
      await c.server.close();
    }
  });

  it('answers in request order even when a later request is decided first', async () => {
    const h = heldGate(1);
    const c = await onLoopback(h.gate, {});
    try {
      const sg = grant(10_000n);
      c.socket.write(frameAt(sg, 0, 1n));
      await until(() => h.state.asked === 1, 'the first decision begins');
      c.socket.write(frameAt(sg, 1, 2n));
      await sleep(200);
      h.release();
      await until(() => c.replies.length === 2, 'two answers');
      expect(c.replies.map((r) => r.kind === 'response' && verifyReceipt(r.response.receipt).core.cost_uj)).toEqual([1n, 2n]);
    } finally {
      await c.server.close();
    }
  });

  it('closes an idle connection after idleMs, but not one whose answer is still being made', async () => {
    const idle = await onLoopback(heldGate().gate, { idleMs: 100 });
    try {
      await until(() => idle.state.closed, 'the idle connection is closed');
    } finally {
      await idle.server.close();
    }
    const h = heldGate();
    const busy = await onLoopback(h.gate, { idleMs: 100 });
    try {
      busy.socket.write(frameAt(grant(), 0));
      await until(() => h.state.asked === 1, 'the decision begins');
      await sleep(500);
      expect(busy.state.closed).toBe(false);
      h.release();
      await until(() => busy.replies.length === 1, 'the answer');
      expect(verdicts(busy.replies)).toEqual(['allow']);
    } finally {
      h.release();
      await busy.server.close();
    }
  });

  it('counts its connections, lets one go when its client closes it, and on close ends every one and stops listening', async () => {
    const c = await onLoopback(heldGate().gate, {});
    try {
      await until(() => c.server.connections === 1, 'one connection');
      c.socket.destroy();
      await until(() => c.server.connections === 0, 'the closed connection is let go');
      const port = 'port' in c.at ? c.at.port : 0;
      const other = connect(port, '127.0.0.1');
      let otherClosed = false;
      other.on('close', () => (otherClosed = true));
      other.on('error', () => {});
      await new Promise<void>((r) => other.once('connect', () => r()));
      await c.server.close();
      await until(() => otherClosed, 'close ends the open connection');
      const refused = await new Promise<string>((r) => {
        const s = connect(port, '127.0.0.1', () => {
          s.destroy();
          r('connected');
        });
        s.on('error', (e: NodeJS.ErrnoException) => r(e.code ?? 'error'));
      });
      expect(refused).toBe('ECONNREFUSED');
    } finally {
      await c.server.close();
    }
  });

  it('refuses to listen where it cannot, rejecting with the socket error', async () => {
    const server = createWireServer({ gate: heldGate().gate });
    const e = (await server.listen({ path: join(dir, 'no-such-dir', 's.sock') }).then(() => undefined, (x: unknown) => x)) as NodeJS.ErrnoException | undefined;
    // the code is the platform's (ENOENT, or EACCES for a Unix socket under a missing folder)
    expect(e).toBeInstanceOf(Error);
    expect(e?.code).toMatch(/^E[A-Z]+$/);
    await server.close();
  });

  for (const kind of ['tcp', 'unix'] as const) {
    it(`${kind}: pipelined requests, a message cut into single bytes, and an oversize declaration closing the stream`, async () => {
      const e = endpoint();
      const server = createWireServer({ gate: e.gate, now_s: () => T0, window_s: WINDOW, maxMessageBytes: 64 * 1024 });
      const at = await server.listen(kind === 'tcp' ? { host: '127.0.0.1', port: 0 } : { path: join(dir, 's.sock') });
      // the bound address: a TCP port picked on the host asked for, or the socket's path
      expect(at).toEqual(kind === 'tcp' ? { host: '127.0.0.1', port: expect.any(Number) } : { path: join(dir, 's.sock') });
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
