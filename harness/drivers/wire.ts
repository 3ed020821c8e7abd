// The wire driver: a live jcp/1 enforcement endpoint (jcp §11) as the thing under test. JCP_ENDPOINT names one
// (tcp://host:port or unix:/path); without it the reference endpoint (impl/wire over impl/durable's point, its record
// in a temp dir) is started in this process on loopback TCP and on a Unix socket, with a fixed clock, and can be
// restarted by the tests (an external endpoint cannot: the tests that need it read "unimplemented"). The wire carries only WireRequests, so the
// transport this driver gives the other conformance tests answers every testee op "unimplemented": a certification of
// an endpoint tests what the wire can show and reads everything else as not tested.
//
// What the harness assumes of an external endpoint (jcp §11 has no handshake; the endpoint's operator states these):
//   JCP_ENDPOINT_STEWARD     the did:key that seals its receipts (required: every receipt is verified against it)
//   JCP_ENDPOINT_WINDOW_S    its freshness window in seconds (default 300)
//   JCP_ENDPOINT_CAP_BYTES   its declared cap on a message body (default 1 MiB)
//   JCP_ENDPOINT_ISSUER_SEED hex seed of a root issuer it honours for the harness's resources (default: the suite's
//                            'alice' key; an endpoint with no trust roots configured for those resources is open, §7)
//   JCP_ENDPOINT_CLAIMS      classes claimed (default jcp:C8,jcp:C13)
//   JCP_ENDPOINT_RUN         a label mixed into every grant nonce and resource, so a durable endpoint that kept the
//                            spend of an earlier run starts this one on fresh grants (default: the current time)
//   JCP_ENDPOINT_SECOND      a shell command that starts a second instance of the endpoint on its record, in the
//                            foreground: it must fail to start (exit non-zero) while the endpoint runs (jcp §4.11).
//                            Without it the one-writer test reads "needs --endpoint-second".
//   JCP_ENDPOINT_RESTART     a shell command that restarts the endpoint (it returns once the restart is under way;
//                            the harness then waits up to 30 s for the endpoint to accept connections). Without it
//                            the restart tests read "needs --endpoint-restart" (harness/clause.ts RunLacks).
// Its clock is assumed within a few seconds of the harness's: requests are stamped with the harness's clock.
import { execSync, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fromHex } from '../../impl/bytes.ts';
import type { CborInput, CborMap } from '../../impl/cbor/index.ts';
import { deriveSeed, keyPairFromSeed, type KeyPair } from '../../impl/identity/ed25519.ts';
import { formatWireEndpoint, parseWireEndpoint } from '../../impl/wire/address.ts';
import { connectWire, type WireClient } from '../../impl/wire/client.ts';
import { WIRE_FRESHNESS_WINDOW_S, WIRE_MAX_MESSAGE_BYTES } from '../../impl/wire/codec.ts';
import { createWireServer, type WireGate } from '../../impl/wire/server.ts';
import { TesteeFailure, UnimplementedError, type TesteeInfo, type Transport } from '../implementation.ts';
import { PROTOCOL_VERSION } from '../protocol/schema.ts';

/** The classes a jcp/1 endpoint can show over the wire alone. */
export const WIRE_CLASSES = ['jcp:C8', 'jcp:C13'] as const;

/** Where the in-process reference endpoint's clock starts (unix seconds); it moves only when a test advances it. */
export const IN_PROCESS_NOW_S = 1_700_000_000n;

/** An endpoint under test and what the harness knows of it. */
export interface WireTarget {
  /** Every address to exercise (the in-process endpoint listens on TCP and on a Unix socket). */
  readonly urls: readonly string[];
  /** The did:key its receipts must be sealed by. */
  readonly steward: string;
  readonly window_s: bigint;
  readonly cap_bytes: number;
  /** A root issuer the endpoint honours for resources named by {@link WireTarget.label}. */
  readonly issuer: KeyPair;
  /** Mixes the run label into a label (grant nonces, resources), so a run never meets an earlier run's spend. */
  label(s: string): string;
  /** The endpoint's clock as the harness knows it. */
  now_s(): bigint;
  /** In process only: the spend the reference holds for a grant (a cross-check beside what receipts show). */
  readonly spent?: (grant_id: string) => bigint;
  /** In process only: closes the endpoint's durable point and opens it again from its record (a restart). */
  readonly restart?: () => Promise<void>;
  /** In process only: moves the endpoint's clock on by `s` seconds (an external endpoint's clock moves by itself). */
  readonly advance?: (s: bigint) => void;
  /**
   * Tries to start a second instance on the endpoint's record while it runs (jcp §4.11: one writer per record).
   * Resolves to undefined when the second was refused, or to what shows it started.
   */
  readonly second?: () => Promise<string | undefined>;
  readonly inProcess: boolean;
  close(): Promise<void>;
}

/** `fn` over a fresh connection to the target's first address, closed afterwards whatever `fn` did. */
export async function onConnection<T>(t: WireTarget, fn: (c: WireClient) => Promise<T>): Promise<T> {
  const c = await connectWire(t.urls[0]!);
  try {
    return await fn(c);
  } finally {
    await c.close();
  }
}

let shared: Promise<WireTarget> | undefined;

function envBigint(name: string, dflt: bigint): bigint {
  const v = process.env[name];
  if (v === undefined || v === '') return dflt;
  if (!/^\d+$/.test(v)) throw new Error(`${name} must be a non-negative integer, got ${v}`);
  return BigInt(v);
}

/**
 * The clauses of the wire tests that restart the endpoint (harness/conformance/wire.test.ts and wire-decisions.test.ts,
 * which name them themselves so the spec map reads them there; harness/self/claimed-verdicts.test.ts holds this list
 * equal to theirs): an external endpoint can be restarted only through --endpoint-restart, so certify says up front
 * which claimed classes need it.
 */
export const RESTART_TEST_CLAUSES = [
  'jcp/11#replay-before-new',
  'jcp/11#record-before-deciding',
  'jcp/11#repeat-gets-same-response',
  'jcp/11#repeat-not-redecided',
  'jcp/9#c16-chained-replay',
  'jcp/8.1#rebuild-by-replay',
  'jcp/4.11#re-establish-before-deciding',
  'jcp/4.11#record-allowed-durably',
] as const;

/** The clauses of the wire test that starts a second instance on the endpoint's record (harness/conformance/wire.test.ts). */
export const SECOND_WRITER_CLAUSES = ['jcp/4.11#single-writer', 'jcp/4.11#fail-start-if-held', 'jcp/9#c26-one-writer'] as const;

function externalTarget(url: string): WireTarget {
  parseWireEndpoint(url);
  const steward = process.env['JCP_ENDPOINT_STEWARD'];
  if (!steward) throw new Error('JCP_ENDPOINT_STEWARD must name the did:key that seals the endpoint\'s receipts');
  const seedHex = process.env['JCP_ENDPOINT_ISSUER_SEED'];
  const run = process.env['JCP_ENDPOINT_RUN'] || String(Date.now());
  const restartCmd = process.env['JCP_ENDPOINT_RESTART'];
  const secondCmd = process.env['JCP_ENDPOINT_SECOND'];
  return {
    ...(restartCmd ? { restart: () => restartExternal(url, restartCmd) } : {}),
    ...(secondCmd ? { second: () => secondExternal(secondCmd) } : {}),
    urls: [url],
    steward,
    window_s: envBigint('JCP_ENDPOINT_WINDOW_S', WIRE_FRESHNESS_WINDOW_S),
    cap_bytes: Number(envBigint('JCP_ENDPOINT_CAP_BYTES', BigInt(WIRE_MAX_MESSAGE_BYTES))),
    issuer: keyPairFromSeed(seedHex ? fromHex(seedHex, 'JCP_ENDPOINT_ISSUER_SEED') : deriveSeed('alice')),
    label: (s) => `${s} run:${run}`,
    now_s: () => BigInt(Math.floor(Date.now() / 1000)),
    inProcess: false,
    close: async () => {},
  };
}

/**
 * Runs the operator's restart command, then waits (up to 30 s) until the endpoint accepts a connection again — and
 * makes sure it is a new instance that answers: a connection opened before the restart must have been closed by it
 * (the old process ended). A connection still open means the instance from before is the one answering (a restart
 * command that did not take, or a stale endpoint left on the address), and the restart is refused as not done.
 */
async function restartExternal(url: string, cmd: string): Promise<void> {
  const before = await connectWire(url);
  let closed = false;
  void before.closed.then(() => (closed = true));
  try {
    execSync(cmd, { stdio: 'ignore', shell: '/bin/sh', timeout: 30_000 });
    await awaitAccepting(url);
    // the old instance's sockets close as it ends; give a slow exit a few seconds
    for (let i = 0; i < 50 && !closed; i++) await new Promise((r) => setTimeout(r, 100));
    if (!closed) throw new Error(`after --endpoint-restart the endpoint at ${url} is the instance from before: a connection opened before the restart is still open (the command did not restart it, or another endpoint answers on the address)`);
  } finally {
    await before.close().catch(() => {});
  }
}

/** How long a second instance has to refuse to start (exit non-zero) before it counts as started. */
const SECOND_GRACE_MS = 20_000;

/**
 * Runs the operator's second-instance command (a second endpoint on the running one's record, in the foreground, in
 * a process group of its own): refused when it exits non-zero within SECOND_GRACE_MS; exiting 0, or still running
 * then, is a second instance that started — its group is killed.
 */
async function secondExternal(cmd: string): Promise<string | undefined> {
  const child = spawn('/bin/sh', ['-c', cmd], { stdio: 'ignore', detached: true });
  const outcome = await new Promise<{ code: number | null; signal: NodeJS.Signals | null } | 'running'>((res) => {
    const timer = setTimeout(() => res('running'), SECOND_GRACE_MS);
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      res({ code, signal });
    });
    child.once('error', () => {
      clearTimeout(timer);
      res({ code: 127, signal: null });
    });
  });
  if (outcome === 'running') {
    try {
      process.kill(-child.pid!, 'SIGKILL');
    } catch {
      // already gone
    }
    return `the second instance was still running ${SECOND_GRACE_MS / 1000} s after it started: it did not fail to start`;
  }
  if (outcome.code === 0) return 'the second instance exited 0: it started (and ended) rather than failing to start';
  return undefined;
}

/** Waits (up to 30 s) until the endpoint at `url` accepts a connection. */
export async function awaitAccepting(url: string): Promise<void> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    try {
      const c = await connectWire(url);
      await c.close();
      return;
    } catch (e) {
      if (Date.now() > deadline) throw new Error(`the endpoint ${url} did not accept connections within 30 s: ${e instanceof Error ? e.message : String(e)}`);
      await new Promise((r) => setTimeout(r, 200));
    }
  }
}

async function inProcessTarget(): Promise<WireTarget> {
  // loaded here, not at the top: the durable point needs koffi (flock), and only the in-process endpoint needs it
  const { openDurablePoint } = await import('../../impl/durable/point.ts');
  const { durableWireGate } = await import('../../impl/wire/durable-gate.ts');
  const steward = keyPairFromSeed(deriveSeed('steward'));
  const dir = mkdtempSync(join(tmpdir(), 'jcp-wire-'));
  const open = () => openDurablePoint({ path: join(dir, 'decisions.record'), steward, holder: 'jcp-conformance wire driver' });
  let point = open();
  let gate = durableWireGate(point, steward);
  // the server keeps listening across a restart; only the point behind it is closed and reopened from its record
  const current: WireGate = {
    steward: steward.did,
    decideOnce: (k, req, enc) => gate.decideOnce(k, req, enc),
    sealRefusal: (req, reason) => gate.sealRefusal(req, reason),
  };
  // the endpoint's clock: fixed, moved on only by advance()
  let clock = IN_PROCESS_NOW_S;
  const server = createWireServer({ gate: current, now_s: () => clock });
  const tcp = await server.listen({ host: '127.0.0.1', port: 0 });
  const unix = await server.listen({ path: join(dir, 'endpoint.sock') });
  return {
    urls: [formatWireEndpoint(tcp), formatWireEndpoint(unix)],
    steward: steward.did,
    window_s: server.window_s,
    cap_bytes: server.maxMessageBytes,
    issuer: keyPairFromSeed(deriveSeed('alice')),
    label: (s) => s,
    now_s: () => clock,
    advance: (s) => {
      clock += s;
    },
    spent: (id) => point.spent(id),
    restart: async () => {
      point.close();
      point = open();
      gate = durableWireGate(point, steward);
    },
    second: async () => {
      // another holder opening the same record, as a second endpoint process would
      try {
        const other = openDurablePoint({ path: join(dir, 'decisions.record'), steward, holder: 'a second endpoint' });
        other.close();
        return 'a second point opened the record the running endpoint holds';
      } catch (e) {
        if (e instanceof Error && 'code' in e && e.code === 'ERR_RECORD_LOCKED') return undefined;
        throw e;
      }
    },
    inProcess: true,
    close: async () => {
      await server.close();
      point.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/**
 * The endpoint a stdio testee started itself (endpoint.start): its own jcp/1 endpoint, never the reference's in its
 * place. One that cannot start one answers `unimplemented`, and its wire tests read "not applicable" with `needs:
 * wire` (NEEDS ENDPOINT in the class table; no class requires the pseudo-operation, harness/protocol/claims.ts).
 */
async function testeeTarget(): Promise<WireTarget> {
  const { implementation } = await import('../driver.ts');
  const impl = implementation();
  let e: Awaited<ReturnType<typeof impl.startEndpoint>>;
  try {
    e = await impl.startEndpoint(deriveSeed('steward'));
  } catch (err) {
    if (err instanceof UnimplementedError) throw new UnimplementedError('wire', `the testee starts no jcp/1 endpoint of its own (endpoint.start: ${err.message}); certify a live one with --endpoint`);
    throw err;
  }
  parseWireEndpoint(e.url);
  await awaitAccepting(e.url);
  return {
    urls: [e.url],
    steward: e.steward,
    window_s: e.window_s,
    cap_bytes: Number(e.cap_bytes),
    issuer: keyPairFromSeed(deriveSeed('alice')),
    label: (s) => s,
    now_s: () => BigInt(Math.floor(Date.now() / 1000)),
    restart: async () => {
      await impl.restartEndpoint();
      await awaitAccepting(e.url);
    },
    inProcess: false,
    close: async () => {},
  };
}

/** The endpoint under test: JCP_ENDPOINT; a stdio testee's own (endpoint.start); or the reference started in process (one per test worker). */
export function wireTarget(): Promise<WireTarget> {
  const url = process.env['JCP_ENDPOINT'];
  shared ??= url ? Promise.resolve(externalTarget(url)) : process.env['JCP_TESTEE'] ? testeeTarget() : inProcessTarget();
  return shared;
}

/** Stops the in-process endpoint, if one was started. */
export async function closeWireTarget(): Promise<void> {
  const t = shared;
  shared = undefined;
  // a target that never came up (a testee that starts no endpoint) has nothing to close
  if (t) await t.then((x) => x.close(), () => undefined);
}

/**
 * The testee transport of an endpoint: its handshake is the harness's own statement of what the endpoint claims (the
 * wire has none), after a connection to it succeeds; every op of the adapter protocol answers "unimplemented".
 */
export function wireTransport(url: string): Transport {
  const claims = (process.env['JCP_ENDPOINT_CLAIMS'] ?? WIRE_CLASSES.join(','))
    .split(',')
    .filter(Boolean)
    .map((c) => (c.includes(':') ? c : `jcp:${c}`));
  let seq = 0;
  let info: TesteeInfo | undefined;
  return {
    description: `jcp/1 endpoint ${url}`,
    async hello() {
      if (info) return info;
      try {
        const c = await connectWire(url);
        await c.close();
      } catch (e) {
        throw new TesteeFailure('crash', `cannot connect to the endpoint ${url}: ${e instanceof Error ? e.message : String(e)}`);
      }
      info = { name: `jcp/1 endpoint ${url}`, version: '', protocol: PROTOCOL_VERSION, claims, features: [] };
      return info;
    },
    async request(op: string, _args: CborInput): Promise<CborMap> {
      return new Map<string, string | number>([
        ['seq', ++seq],
        ['unimplemented', `a jcp/1 endpoint answers only WireRequests (jcp §11); the adapter op ${op} is not on the wire`],
      ]) as CborMap;
    },
    async close() {},
  };
}

// The reference's wire codec and client, for the conformance tests to build, sign and send requests with.
export { connectWire, type WireClient } from '../../impl/wire/client.ts';
export { parseWireEndpoint } from '../../impl/wire/address.ts';
export {
  decodeWireReply,
  encodeWireRequest,
  frameMessage,
  signWireRequest,
  wireSigningBytes,
  type UnsignedWireRequest,
  type WireReply,
  type WireResponse,
} from '../../impl/wire/codec.ts';
