// Edges of the jcp/1 client (jcp §11 "Wire binding": framing with a declared cap, one request/response pair per action,
// answers matched in request order; caller authentication — the client signs as the caller). Against a real endpoint
// for signing, and against a scripted peer (a bare socket server) for what an endpoint may do to a connection: refuse,
// answer with a message over the cap or one no request asked for, close it, or reset it.
import { mkdtempSync, rmSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import { isJcpError } from '../errors.ts';
import { defaultEd25519, deriveSeed, keyPairFromSeed, type Ed25519 } from '../identity/ed25519.ts';
import { contentId } from '../jcp/content-id.ts';
import { grantId, mintGrant } from '../jcp/grant.ts';
import { verifyReceipt } from '../receipt/verify.ts';
import { connectWire } from './client.ts';
import { encodeWireRefusal, frameMessage, signWireRequest, WireFrameReader, type UnsignedWireRequest } from './codec.ts';
import { createMemoryWireGate, createWireServer } from './server.ts';

const T0 = 1_700_000_000n;
const dir = mkdtempSync(join(tmpdir(), 'jcp-wire-client-'));
let n = 0;
const sockPath = () => join(dir, `s${n++}.sock`);
const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
  vi.restoreAllMocks();
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** `p`, or a rejection naming `what` after `ms` (so a mutant that never settles fails fast instead of hanging). */
function within<T>(p: Promise<T>, what: string, ms = 3000): Promise<T> {
  return Promise.race([p, new Promise<never>((_, reject) => setTimeout(() => reject(new Error(`timed out: ${what}`)), ms).unref())]);
}

/** The rejection of `p` (fails when it resolves). */
async function rejection(p: Promise<unknown>, what: string): Promise<Error> {
  try {
    await within(p, what);
  } catch (e) {
    return e as Error;
  }
  throw new Error(`expected ${what} to reject`);
}

/** A scripted peer: `onBody` sees each framed body the client sends, with the server side of the connection. */
async function peer(onBody: (body: Uint8Array, s: net.Socket, i: number) => void, onConnection?: (s: net.Socket) => void, tcp = false) {
  const sockets = new Set<net.Socket>();
  const seen: { ended: boolean }[] = [];
  const server = net.createServer((s) => {
    sockets.add(s);
    const state = { ended: false };
    seen.push(state);
    s.on('end', () => (state.ended = true));
    s.on('error', () => {});
    s.on('close', () => sockets.delete(s));
    const reader = new WireFrameReader();
    let i = 0;
    s.on('data', (chunk) => {
      for (const b of reader.push(new Uint8Array(chunk))) onBody(b, s, i++);
    });
    onConnection?.(s);
  });
  const path = sockPath();
  await new Promise<void>((r) => (tcp ? server.listen(0, '127.0.0.1', r) : server.listen(path, r)));
  const url = tcp ? `tcp://127.0.0.1:${(server.address() as net.AddressInfo).port}` : `unix:${path}`;
  cleanups.push(
    () =>
      new Promise<void>((r) => {
        for (const s of sockets) s.destroy();
        server.close(() => r());
      }),
  );
  return { path, url, seen };
}

const frame = (body: Uint8Array) => frameMessage(body, Number.MAX_SAFE_INTEGER);
const refusalBody = (message: string) => encodeWireRefusal({ error: 'ERR_WIRE_NON_CANONICAL', message });

/** Keys, a grant to `subject` (bob by default), and a request by `subject`, built inside each test. */
function fixture(subjectSeed = deriveSeed('bob')) {
  const alice = keyPairFromSeed(deriveSeed('alice'));
  const subject = keyPairFromSeed(subjectSeed);
  const steward = keyPairFromSeed(deriveSeed('steward'));
  const resource = contentId({ resource: 'tool:search' });
  const sg = mintGrant(alice, { subject: subject.did, resource, actions: ['call'], budget_uj: 1000n, nonce: new Uint8Array(16).fill(5) });
  const request = (now = T0): UnsignedWireRequest => ({
    frame: { kind: 'tool-call', trust: 'control', grant_id: grantId(sg.grant), action: 'call', resource, payload_hash: contentId({ payload: 'args' }) },
    chain: [sg],
    caller: subject.did,
    cost: { uj: 10n, provenance: 'HwShunt' },
    now,
  });
  return { subject, steward, sg, request };
}

async function realEndpoint(steward: ReturnType<typeof fixture>['steward']) {
  const gate = createMemoryWireGate({ steward });
  const server = createWireServer({ gate, now_s: () => T0 });
  const at = await server.listen({ path: sockPath() });
  cleanups.push(() => server.close());
  return { gate, at };
}

describe('the client signs as the caller (jcp §11 "Caller authentication")', () => {
  it('decide signs with a key pair or with its 32-byte seed, send sends a signed request; each is allowed once', async () => {
    const { subject, steward, sg, request } = fixture();
    const { gate, at } = await realEndpoint(steward);
    const c = await within(connectWire(at), 'connect');
    cleanups.push(() => c.close());
    const bySeed = await within(c.decide(request(T0), deriveSeed('bob')), 'decide by seed');
    expect(bySeed.decision).toEqual({ verdict: 'allow' });
    expect(verifyReceipt(bySeed.receipt, { steward: steward.did }).core.budget_remaining_uj).toBe(990n);
    const byPair = await within(c.decide(request(T0 + 1n), subject), 'decide by key pair');
    expect(byPair.decision).toEqual({ verdict: 'allow' });
    const sent = await within(c.send(signWireRequest(request(T0 + 2n), subject)), 'send');
    expect(sent.decision).toEqual({ verdict: 'allow' });
    expect(verifyReceipt(sent.receipt, { steward: steward.did }).core.budget_remaining_uj).toBe(970n);
    expect(gate.point.spent(grantId(sg.grant))).toBe(30n);
  });

  it('two seeds are two callers, even seeds whose bytes read the same as UTF-8 text (0xff… and 0xfe…)', async () => {
    const a = fixture(new Uint8Array(32).fill(0xff));
    const b = fixture(new Uint8Array(32).fill(0xfe));
    expect(a.subject.did).not.toBe(b.subject.did);
    const { at } = await realEndpoint(a.steward);
    const c = await within(connectWire(at), 'connect');
    cleanups.push(() => c.close());
    expect((await within(c.decide(a.request(), new Uint8Array(32).fill(0xff)), 'decide as a')).decision).toEqual({ verdict: 'allow' });
    expect((await within(c.decide(b.request(), new Uint8Array(32).fill(0xfe)), 'decide as b')).decision).toEqual({ verdict: 'allow' });
  });

  it('signs with the backend it is given, deriving a seed\'s key once per connection', async () => {
    const { steward, request } = fixture();
    const { at } = await realEndpoint(steward);
    const base = defaultEd25519();
    const calls = { publicKeyFromSeed: 0, sign: 0 };
    const backend: Ed25519 = {
      name: base.name,
      publicKeyFromSeed: (s) => (calls.publicKeyFromSeed++, base.publicKeyFromSeed(s)),
      sign: (s, m) => (calls.sign++, base.sign(s, m)),
      verify: (sig, m, k) => base.verify(sig, m, k),
    };
    const c = await within(connectWire(at, { backend }), 'connect');
    cleanups.push(() => c.close());
    for (const now of [T0, T0 + 1n]) expect((await within(c.decide(request(now), deriveSeed('bob')), 'decide')).decision).toEqual({ verdict: 'allow' });
    expect(calls).toEqual({ publicKeyFromSeed: 1, sign: 2 });
  });

  it('turns Nagle off on its socket, so a pipelined request is not held back', async () => {
    const spy = vi.spyOn(net.Socket.prototype, 'setNoDelay');
    const p = await peer(() => {});
    const c = await within(connectWire(`unix:${p.path}`), 'connect');
    cleanups.push(() => c.close());
    expect(spy).toHaveBeenCalledWith(true);
    expect(spy.mock.calls.every((args) => args[0] === true)).toBe(true);
  });
});

describe('what the endpoint answers (jcp §11 "Framing", "Messages")', () => {
  it('a refusal comes back unjudged from sendBody and rejects send/decide with its code and message', async () => {
    const { subject, request } = fixture();
    const p = await peer((_, s, i) => s.write(frame(refusalBody(`no ${i}`))));
    const c = await within(connectWire(`unix:${p.path}`), 'connect');
    cleanups.push(() => c.close());
    expect(await within(c.sendBody(new Uint8Array([0xa0])), 'sendBody')).toEqual({ kind: 'refusal', refusal: { error: 'ERR_WIRE_NON_CANONICAL', message: 'no 0' } });
    const e1 = await rejection(c.send(signWireRequest(request(), subject)), 'send');
    expect(isJcpError(e1, 'ERR_WIRE_NON_CANONICAL')).toBe(true);
    expect(e1.message).toBe('ERR_WIRE_NON_CANONICAL: the endpoint refused the request: no 1');
    const e2 = await rejection(c.decide(request(), subject), 'decide');
    expect(isJcpError(e2, 'ERR_WIRE_NON_CANONICAL')).toBe(true);
    expect(e2.message).toBe('ERR_WIRE_NON_CANONICAL: the endpoint refused the request: no 2');
  });

  it('a reply body that is no reply rejects its own request only; the connection stays in step', async () => {
    const p = await peer((_, s, i) => s.write(frame(i === 0 ? new Uint8Array([0xa0]) : refusalBody('next'))));
    const c = await within(connectWire(`unix:${p.path}`), 'connect');
    cleanups.push(() => c.close());
    const e = await rejection(c.sendBody(new Uint8Array([0xa0])), 'first');
    expect(isJcpError(e, 'ERR_WIRE_MALFORMED')).toBe(true);
    expect(e.message).toBe('ERR_WIRE_MALFORMED: $: missing field decision');
    expect(await within(c.sendBody(new Uint8Array([0xa0])), 'second')).toEqual({ kind: 'refusal', refusal: { error: 'ERR_WIRE_NON_CANONICAL', message: 'next' } });
  });

  it('takes a reply of exactly maxMessageBytes; one byte over is ERR_WIRE_OVERSIZE, closes, and fails every later request alike', async () => {
    const atCap = refusalBody('x'.repeat(40));
    const cap = atCap.length;
    const over = refusalBody('x'.repeat(41));
    expect(over.length).toBe(cap + 1);
    const p = await peer((_, s, i) => s.write(frame(i === 0 ? atCap : over)));
    const c = await within(connectWire(`unix:${p.path}`, { maxMessageBytes: cap }), 'connect');
    expect(await within(c.sendBody(new Uint8Array([0xa0])), 'at the cap')).toEqual({ kind: 'refusal', refusal: { error: 'ERR_WIRE_NON_CANONICAL', message: 'x'.repeat(40) } });
    const e = await rejection(c.sendBody(new Uint8Array([0xa0])), 'over the cap');
    expect(isJcpError(e, 'ERR_WIRE_OVERSIZE')).toBe(true);
    expect(e.message).toBe(`ERR_WIRE_OVERSIZE: a message declares ${cap + 1} bytes, over the ${cap}-byte cap`);
    await within(c.closed, 'closed');
    // the first failure stays the connection's failure (not the close that followed it)
    expect(await rejection(c.sendBody(new Uint8Array([0xa0])), 'after')).toBe(e);
  });

  it('without maxMessageBytes the cap is WIRE_MAX_MESSAGE_BYTES (1 MiB): a declaration one over it is refused', async () => {
    const p = await peer((_, s) => s.write(new Uint8Array([0, 0x10, 0, 1])));
    const c = await within(connectWire(`unix:${p.path}`), 'connect');
    const e = await rejection(c.sendBody(new Uint8Array([0xa0])), 'over the cap');
    expect(isJcpError(e, 'ERR_WIRE_OVERSIZE')).toBe(true);
    expect(e.message).toBe(`ERR_WIRE_OVERSIZE: a message declares ${(1 << 20) + 1} bytes, over the ${1 << 20}-byte cap`);
  });

  it('a reply to no request is ERR_WIRE_MALFORMED and ends the connection', async () => {
    const p = await peer(() => {}, (s) => s.write(frame(refusalBody('unasked'))));
    const c = await within(connectWire(`unix:${p.path}`), 'connect');
    await within(c.closed, 'closed');
    const e = await rejection(c.sendBody(new Uint8Array([0xa0])), 'after');
    expect(isJcpError(e, 'ERR_WIRE_MALFORMED')).toBe(true);
    expect(e.message).toBe('ERR_WIRE_MALFORMED: the endpoint sent a reply to no request');
  });
});

describe('the connection', () => {
  it('closed by the endpoint: a waiting request and every later one reject ERR_WIRE_CLOSED; writeRaw then does nothing', async () => {
    const p = await peer((_, s) => s.end());
    const c = await within(connectWire(`unix:${p.path}`), 'connect');
    const e = await rejection(c.sendBody(new Uint8Array([0xa0])), 'waiting');
    expect(isJcpError(e, 'ERR_WIRE_CLOSED')).toBe(true);
    expect(e.message).toBe('ERR_WIRE_CLOSED: the connection to the endpoint closed');
    await within(c.closed, 'closed');
    expect(await rejection(c.sendBody(new Uint8Array([0xa0])), 'later')).toBe(e);
    expect(await rejection(c.sendRaw(new Uint8Array([0, 0, 0, 1, 0xa0])), 'later raw')).toBe(e);
    expect(() => c.writeRaw(new Uint8Array([0, 0, 0, 1, 0xa0]))).not.toThrow();
    await within(c.close(), 'close after closed');
  });

  it('reset by the endpoint: a waiting request rejects with the socket error (ECONNRESET), not a close', async () => {
    // a reset is a TCP notion: this peer listens on TCP
    const p = await peer((_, s) => s.resetAndDestroy(), undefined, true);
    const c = await within(connectWire(p.url), 'connect');
    const e = await rejection(c.sendBody(new Uint8Array([0xa0])), 'waiting');
    expect((e as NodeJS.ErrnoException).code).toBe('ECONNRESET');
    await within(c.closed, 'closed');
    expect(await rejection(c.sendBody(new Uint8Array([0xa0])), 'later')).toBe(e);
  });

  it('an endpoint that is not there rejects the connect with the socket error', async () => {
    const missing = join(dir, 'nobody.sock');
    const e = await rejection(connectWire(`unix:${missing}`), 'connect');
    expect((e as NodeJS.ErrnoException).code).toBe('ENOENT');
  });

  it('close ends the connection (the endpoint sees its end) and resolves; closed resolves after it', async () => {
    const p = await peer(() => {});
    const c = await within(connectWire(`unix:${p.path}`), 'connect');
    await within(c.close(), 'close');
    await within(c.closed, 'closed');
    await within(
      (async () => {
        while (!p.seen[0]?.ended) await new Promise((r) => setTimeout(r, 10));
      })(),
      'the endpoint sees the end',
    );
  });

  it('close gives up on an endpoint that takes no more bytes: it destroys the socket and resolves', async () => {
    const p = await peer(() => {}, (s) => s.pause());
    const c = await within(connectWire(`unix:${p.path}`), 'connect');
    // far more than the socket buffers hold, so the end can never be flushed
    c.writeRaw(new Uint8Array(64 << 20));
    await within(c.close(), 'close', 5000);
    await within(c.closed, 'closed');
  });
});
