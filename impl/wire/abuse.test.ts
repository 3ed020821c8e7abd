// The jcp/1 endpoint under abuse, on loopback only, bounded (it stops by itself): while one client pipelines 500 KB
// of 5-byte frames, 150 others trickle a frame a few bytes at a time, and 100 more each hold most of a 1 MiB frame,
// a well-behaved client's decisions keep their p99 latency within LATENCY_MULTIPLE × the p99 of the same client
// unloaded, measured in the same run (WIRE.md "Limits"); the frame deadline closes every trickler and holder, and
// after they go the endpoint holds none of their bytes and its RSS returns to within RSS_MARGIN of what it was before. Also: the connection
// cap and the idle timeout close what they should. The endpoint runs in a process of its own (./_abuse-endpoint.ts).
import { spawn, type ChildProcess } from 'node:child_process';
import { connect, type Socket } from 'node:net';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { blake3 } from '../hash/blake3.ts';
import { deriveSeed, keyPairFromSeed } from '../identity/ed25519.ts';
import { contentId } from '../jcp/content-id.ts';
import { grantId, mintGrant } from '../jcp/grant.ts';
import { connectWire, type WireClient } from './client.ts';
import { encodeWireRequest, frameMessage, signWireRequest } from './codec.ts';
import { createMemoryWireGate, createWireServer, type WireLimits } from './server.ts';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const CHILD = join(ROOT, 'impl', 'wire', '_abuse-endpoint.ts');
const NOW_S = 1_700_000_000n;
/** The loaded p99 may be at most this many times the unloaded p99 (stated in WIRE.md "Limits"). */
const LATENCY_MULTIPLE = 40;
/** A floor under the unloaded p99 the multiple applies to (ms): below it, timer granularity and scheduling dominate. */
const LATENCY_FLOOR_MS = 2;
/**
 * Once the abusers are gone the endpoint holds none of their bytes: its array buffers are back within BUFFER_MARGIN
 * of their level before. Its RSS comes back within RSS_MARGIN: what stays is V8's committed heap (the pipeliner's
 * 100,000 refusals grow it by about 25 MiB) and the free pages the C allocator keeps (30 to 45 MiB seen here), not
 * frames; the 100 MiB of partial frames the holders sent are freed (before these limits it stayed 140 MiB up).
 */
const BUFFER_MARGIN = 8 * 1024 * 1024;
const RSS_MARGIN = 96 * 1024 * 1024;
const LIMITS: Partial<WireLimits> = { maxConnections: 300, frameDeadlineMs: 2_000, idleMs: 20_000 };

const steward = keyPairFromSeed(deriveSeed('abuse:steward'));
const issuer = keyPairFromSeed(deriveSeed('abuse:issuer'));
const holder = keyPairFromSeed(deriveSeed('abuse:holder'));
const resource = contentId({ resource: 'abuse-tool' });
const grant = mintGrant(issuer, { subject: holder.did, resource, actions: ['call'], budget_uj: 1n << 60n, nonce: blake3(Uint8Array.of(9)).slice(0, 16) });

/** Framed, signed, distinct requests (a repeat would be answered from memory, not decided). */
function requests(tag: string, n: number): Uint8Array[] {
  return Array.from({ length: n }, (_, k) =>
    frameMessage(
      encodeWireRequest(
        signWireRequest(
          {
            frame: { kind: 'tool-call', trust: 'control', grant_id: grantId(grant.grant), action: 'call', resource, payload_hash: contentId({ payload: [tag, k] }) },
            chain: [grant],
            caller: holder.did,
            cost: { uj: 1_000n, provenance: 'Estimator' },
            now: NOW_S,
          },
          holder,
        ),
      ),
    ),
  );
}

const p99 = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length * 0.99)]!;

/** Sends each request after the last is answered; resolves to each one's latency (ms). Every one must be allowed. */
async function latencies(c: WireClient, batch: Uint8Array[]): Promise<number[]> {
  const out: number[] = [];
  for (const b of batch) {
    const t0 = performance.now();
    const r = await c.sendRaw(b);
    out.push(performance.now() - t0);
    expect(r.kind === 'response' && r.response.decision.verdict).toBe('allow');
  }
  return out;
}

let endpoint: ChildProcess;
let port = 0;

function stats(): Promise<{ rss: number; arrayBuffers: number; heapUsed: number; heapTotal: number; connections: number; gc: boolean }> {
  return new Promise((res) => {
    endpoint.once('message', (m) => res(m as { rss: number; arrayBuffers: number; heapUsed: number; heapTotal: number; connections: number; gc: boolean }));
    endpoint.send('stats');
  });
}

async function until(what: string, ok: () => Promise<boolean>, guardMs: number, state: () => unknown = () => ''): Promise<void> {
  // the guard only bounds a wait that has failed; no assertion reads the time
  const end = Date.now() + guardMs;
  while (!(await ok())) {
    if (Date.now() > end) throw new Error(`gave up waiting: ${what} (${JSON.stringify(await state())})`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

const open = (): Promise<Socket> =>
  new Promise((res, rej) => {
    const s = connect(port, '127.0.0.1', () => res(s));
    s.on('error', rej);
  });

beforeAll(async () => {
  endpoint = spawn(process.execPath, ['--expose-gc', '--import', 'tsx', CHILD, JSON.stringify(LIMITS)], { cwd: ROOT, stdio: ['ignore', 'pipe', 'inherit', 'ipc'] });
  port = await new Promise<number>((res, rej) => {
    let buf = '';
    endpoint.stdout!.setEncoding('utf8').on('data', (d: string) => {
      buf += d;
      const m = /listening (\d+)/.exec(buf);
      if (m) res(Number(m[1]));
    });
    endpoint.once('exit', (code) => rej(new Error(`the endpoint exited (${code}) before listening`)));
  });
}, 60_000);

afterAll(() => {
  endpoint?.kill('SIGKILL');
});

describe('the jcp/1 endpoint under abuse', () => {
  it('keeps a well-behaved client within its latency bound, closes every abuser, and gives its memory back', { timeout: 420_000 }, async () => {
    const good = await connectWire({ host: '127.0.0.1', port });
    await latencies(good, requests('warm', 100));
    const unloaded = await latencies(good, requests('unloaded', 300));
    const before = await stats();
    expect(before.gc).toBe(true);

    // the pipeliner: 500 KB of 5-byte frames (each a refused body) in one write, its answers read and dropped
    const pipeliner = await open();
    let refusals = 0;
    pipeliner.on('data', (d: Buffer) => void (refusals += d.length));
    const tiny = new Uint8Array(100_000 * 5);
    for (let i = 0; i < 100_000; i++) tiny.set([0, 0, 0, 1, 0x00], i * 5);
    pipeliner.write(tiny);

    // 150 tricklers: a frame declaring 1,000 bytes, sent 5 bytes every 100 ms (it would take 20 s, past the deadline)
    const tricklers = await Promise.all(Array.from({ length: 150 }, open));
    const closedTricklers = new Set<Socket>();
    for (const t of tricklers) {
      t.on('close', () => closedTricklers.add(t));
      t.on('error', () => {});
      t.write(Uint8Array.of(0, 0, 0x03, 0xe8));
    }
    const trickle = setInterval(() => {
      for (const t of tricklers) if (!t.destroyed) t.write(new Uint8Array(5));
    }, 100);

    // 100 holders: most of a 1 MiB frame each, then silence
    const holders = await Promise.all(Array.from({ length: 100 }, open));
    const closedHolders = new Set<Socket>();
    const part = new Uint8Array(1024 * 1024 - 64);
    for (const h of holders) {
      h.on('close', () => closedHolders.add(h));
      h.on('error', () => {});
      h.write(Uint8Array.of(0, 0x10, 0, 0));
      h.write(part);
    }

    const loaded = await latencies(good, requests('loaded', 300));
    const peak = await stats();
    clearInterval(trickle);

    await until('the frame deadline closes every trickler and holder', async () => closedTricklers.size === 150 && closedHolders.size === 100, 150_000, () => ({ tricklers: closedTricklers.size, holders: closedHolders.size }));
    await until('the pipeliner has its 100,000 refusals', async () => refusals > 100_000 * 30, 150_000, () => ({ refusalBytes: refusals }));
    pipeliner.destroy();
    await until('the endpoint holds only the good connection', async () => (await stats()).connections === 1, 30_000, async () => await stats());
    const after = await stats();

    const figures = {
      unloadedP99Ms: +p99(unloaded).toFixed(2),
      loadedP99Ms: +p99(loaded).toFixed(2),
      ratio: +(p99(loaded) / p99(unloaded)).toFixed(1),
      rssBeforeMiB: Math.round(before.rss / 2 ** 20),
      rssPeakMiB: Math.round(peak.rss / 2 ** 20),
      rssAfterMiB: Math.round(after.rss / 2 ** 20),
      buffersBeforeMiB: Math.round(before.arrayBuffers / 2 ** 20),
      buffersPeakMiB: Math.round(peak.arrayBuffers / 2 ** 20),
      buffersAfterMiB: Math.round(after.arrayBuffers / 2 ** 20),
      heapBeforeMiB: Math.round(before.heapTotal / 2 ** 20),
      heapPeakMiB: Math.round(peak.heapTotal / 2 ** 20),
      heapAfterMiB: Math.round(after.heapTotal / 2 ** 20),
    };
    console.log(`wire abuse: ${JSON.stringify(figures)}`);
    expect(p99(loaded), JSON.stringify(figures)).toBeLessThanOrEqual(LATENCY_MULTIPLE * Math.max(p99(unloaded), LATENCY_FLOOR_MS));
    // the holders really were held: their partial frames were in the endpoint's memory while they lasted
    expect(peak.arrayBuffers - before.arrayBuffers, JSON.stringify(figures)).toBeGreaterThan(50 * 1024 * 1024);
    expect(after.arrayBuffers - before.arrayBuffers, JSON.stringify(figures)).toBeLessThanOrEqual(BUFFER_MARGIN);
    expect(after.rss - before.rss, JSON.stringify(figures)).toBeLessThanOrEqual(RSS_MARGIN);
    // and the good client is still served
    expect((await latencies(good, requests('after', 10))).length).toBe(10);
    await good.close();
  });
});

describe('the jcp/1 endpoint limits', () => {
  const server = createWireServer({ gate: createMemoryWireGate({ steward }), now_s: () => NOW_S, limits: { maxConnections: 4, idleMs: 300 } });
  let at = 0;
  beforeAll(async () => {
    const a = await server.listen({ host: '127.0.0.1', port: 0 });
    at = 'port' in a ? a.port : 0;
  });
  afterAll(() => server.close());

  it('closes every connection past its cap as it is accepted, and an idle connection after idleMs', async () => {
    const closed = new Set<number>();
    const sockets = await Promise.all(
      Array.from(
        { length: 7 },
        (_, i) =>
          new Promise<Socket>((res) => {
            const s = connect(at, '127.0.0.1', () => res(s));
            s.on('close', () => closed.add(i));
            s.on('error', () => {});
          }),
      ),
    );
    await until('three connections past the cap are closed', async () => closed.size >= 3, 10_000);
    expect(server.connections).toBeLessThanOrEqual(4);
    // the four held are idle: each is closed by the idle timeout
    await until('the idle connections are closed', async () => closed.size === 7, 10_000);
    expect(server.connections).toBe(0);
    for (const s of sockets) s.destroy();
  });

  it('keeps a connection that is waiting for its answers open however long they take to read', async () => {
    const c = await connectWire({ host: '127.0.0.1', port: at });
    const answers = await Promise.all(requests('held', 200).map((b) => c.sendRaw(b)));
    expect(answers.every((r) => r.kind === 'response' && r.response.decision.verdict === 'allow')).toBe(true);
    await c.close();
  });
});
