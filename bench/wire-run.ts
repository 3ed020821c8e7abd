// The jcp/1 endpoint under load on loopback TCP (jcp §11): wire decisions per second — frame, parse, caller signature
// verified, decided, sealed, remembered, answered — as a ratio to the raw rate of one Ed25519 verify plus one sign
// (node:crypto, pre-built keys) measured in the same process (ARCHITECTURE.md: ratios, never absolute times).
//
// The endpoint runs in this process; its clients run in a child process of their own (this file run with --client),
// so what is timed is the endpoint's work alone: the load generator's signing, framing and reply parsing are not the
// endpoint's cost. The clients keep every connection's pipeline full. Timing is this process's CPU time (user +
// system, so the socket work counts, and time spent idle waiting for a client does not), in paired rounds as
// bench/run.ts takes them (bench/paired.ts): the raw baseline and the endpoint alternate in short chunks (A B B A), so
// a machine whose speed swings within a second weighs on both alike. The median of the rounds' ratios is reported.
import { createPrivateKey, createPublicKey, sign as rawSign, verify as rawVerify } from 'node:crypto';
import { fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { grantId, mintGrant } from '../impl/index.ts';
import { blake3 } from '../impl/hash/blake3.ts';
import { deriveSeed, keyPairFromSeed } from '../impl/identity/ed25519.ts';
import { contentId } from '../impl/jcp/content-id.ts';
import type { DecisionRequest } from '../impl/jcp/decide.ts';
import type { Decision } from '../impl/jcp/enforcement-point.ts';
import { connectWire } from '../impl/wire/client.ts';
import { decodeSign1, sigStructure } from '../impl/cose/sign1.ts';
import { decodeWireReply, encodeWireRequest, frameMessage, signWireRequest } from '../impl/wire/codec.ts';
import { createMemoryWireGate, createWireServer, type WireGate } from '../impl/wire/server.ts';
import { cpuMicros, pairedRoundAsync } from './paired.ts';

const ROUNDS = Number(process.env['BENCH_ROUNDS'] ?? 9);
const ROUND_MS = Number(process.env['BENCH_ROUND_MS'] ?? 600);
const CHUNK_MS = Number(process.env['BENCH_CHUNK_MS'] ?? 10);
const CLIENTS = Number(process.env['BENCH_WIRE_CLIENTS'] ?? 8);
const IN_FLIGHT = Number(process.env['BENCH_WIRE_IN_FLIGHT'] ?? 32);
const NOW_S = 1_700_000_000n;
const COST_UJ = 1_000n;
/** Requests signed ahead by the client process (about what the rounds use on this machine). */
const POOL = Number(process.env['BENCH_WIRE_POOL'] ?? 12_000);

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

// --- fixtures, derived from seeds alike in both processes -----------------------------------------------------------
const steward = keyPairFromSeed(deriveSeed('bench:steward'));
const issuer = keyPairFromSeed(deriveSeed('bench:issuer'));
const holder = keyPairFromSeed(deriveSeed('bench:holder'));
const resource = contentId({ resource: 'bench-tool' });
const grant = mintGrant(issuer, { subject: holder.did, resource, actions: ['call'], budget_uj: 1n << 62n, nonce: blake3(new Uint8Array([2])).slice(0, 16) });

/** Request `k` of connection `c`, framed and signed; each distinct (a repeat would be answered from memory). */
function request(c: number, k: number): Uint8Array {
  return frameMessage(
    encodeWireRequest(
      signWireRequest(
        {
          frame: { kind: 'tool-call', trust: 'control', grant_id: grantId(grant.grant), action: 'call', resource, payload_hash: contentId({ payload: [c, k] }) },
          chain: [grant],
          caller: holder.did,
          cost: { uj: COST_UJ, provenance: 'Estimator' },
          now: NOW_S,
        },
        holder,
      ),
    ),
  );
}

// --- the load: run as a child process ------------------------------------------------------------------------------
/** Keeps IN_FLIGHT requests outstanding on each of CLIENTS connections until told to stop; reports what came back. */
async function runClients(port: number): Promise<void> {
  const send = (m: unknown) => process.send!(m);
  // signed before the endpoint is timed, so that the client process is mostly idle beside it (the two processes share
  // the machine's cores); past the pool, requests are signed as they are sent
  const pool = Array.from({ length: CLIENTS }, (_, c) => Array.from({ length: Math.ceil(POOL / CLIENTS) }, (_, k) => request(c, k)));
  const conns = await Promise.all(Array.from({ length: CLIENTS }, () => connectWire({ host: '127.0.0.1', port })));
  let stopping = false;
  let sent = 0;
  let allowed = 0;
  let other = '';
  process.on('message', (m) => {
    if (m === 'stop') stopping = true;
  });
  send({ t: 'ready' });
  await Promise.all(
    conns.map(async (conn, c) => {
      let k = 0;
      const lane = async () => {
        while (!stopping) {
          const frame = pool[c]![k] ?? request(c, k);
          k++;
          sent++;
          const r = await conn.sendRaw(frame);
          if (r.kind === 'response' && r.response.decision.verdict === 'allow') allowed++;
          else other ||= JSON.stringify(r.kind === 'response' ? r.response.decision : r.refusal);
        }
      };
      await Promise.all(Array.from({ length: IN_FLIGHT }, lane));
    }),
  );
  await Promise.all(conns.map((c) => c.close()));
  send({ t: 'done', sent, allowed, other });
}

if (process.argv[2] === '--client') {
  await runClients(Number(process.argv[3]));
  process.exit(0);
}

// --- the endpoint and the measurement -------------------------------------------------------------------------------
const memory = createMemoryWireGate({ steward });
let decided = 0;
let wake: (() => void) | undefined;
let wakeAt = Infinity;
/** The memory gate, counting decisions (a chunk of endpoint work ends when enough more have been made). */
const gate: WireGate = {
  steward: memory.steward,
  decideOnce(key: Uint8Array, req: DecisionRequest, encode: (d: Decision) => Uint8Array) {
    const out = memory.decideOnce(key, req, encode);
    if (++decided >= wakeAt) {
      wakeAt = Infinity;
      wake?.();
    }
    return out;
  },
  sealRefusal: (req, reason) => memory.sealRefusal(req, reason),
};
const server = createWireServer({ gate, now_s: () => NOW_S });

/** Serves for about `us` microseconds of this process's CPU, in steps of 8 decisions (a CPU-time read each); [µs taken, decisions]. */
async function serve(us: number): Promise<[number, number]> {
  const t0 = cpuMicros();
  const d0 = decided;
  let elapsed = 0;
  while (elapsed < us) {
    await new Promise<void>((resolve) => {
      wake = resolve;
      wakeAt = decided + 8;
    });
    elapsed = cpuMicros() - t0;
  }
  return [elapsed, decided - d0];
}

// raw baseline: one node:crypto verify of a request's signature preimage and one sign of a receipt's Sig_structure
// (["Signature1", protected, h'', payload], built from a real receipt), with pre-built key objects
const priv = createPrivateKey({ key: Buffer.concat([Buffer.from('302e020100300506032b657004220420', 'hex'), Buffer.from(steward.seed)]), format: 'der', type: 'pkcs8' });
const pub = createPublicKey({ key: Buffer.concat([Buffer.from('302a300506032b6570032100', 'hex'), Buffer.from(steward.publicKey)]), format: 'der', type: 'spki' });
const sample = await server.handle(request(-1, -1).subarray(4));
const reply = decodeWireReply(sample);
if (reply.kind !== 'response') throw new Error(`the bench's sample request was refused: ${reply.refusal.message}`);
const sealed = decodeSign1(reply.response.receipt);
const toSign = Buffer.from(sigStructure(sealed.protectedBytes, sealed.payload));
// the preimage is the body less its signature entry (76 bytes): see wireSigningBytesOfBody
const toVerify = Buffer.alloc(request(-1, -2).length - 4 - 76, 7);
const sig = rawSign(null, toVerify, priv);
const raw = () => {
  rawVerify(null, toVerify, pub, sig);
  rawSign(null, toSign, priv);
};

const at = await server.listen({ host: '127.0.0.1', port: 0 });
if (!('port' in at)) throw new Error('the bench endpoint has no TCP port');
const child = fork(fileURLToPath(import.meta.url), ['--client', String(at.port)], { execArgv: process.execArgv, stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
const fromChild = new Promise<{ sent: number; allowed: number; other: string }>((resolve, reject) => {
  child.on('message', (m: { t: string; sent: number; allowed: number; other: string }) => {
    if (m.t === 'done') resolve(m);
  });
  child.on('exit', (code) => reject(new Error(`the client process exited (${code}) before it reported`)));
});
await new Promise<void>((resolve) => child.once('message', () => resolve()));
// warm: the endpoint's first few hundred decisions
await serve(100_000);
const ratios: number[] = [];
const rates: number[] = [];
for (let r = 0; r < ROUNDS; r++) {
  const round = await pairedRoundAsync(raw, serve, ROUND_MS, CHUNK_MS);
  ratios.push(round.ratio);
  rates.push(round.workRate);
  process.stdout.write(`round ${r + 1}/${ROUNDS}: ${round.ratio.toFixed(3)} × raw (verify + sign)\n`);
}
child.send('stop');
const load = await fromChild;
// the endpoint answers what is still in flight after the stop; then every connection closes
await server.close();
console.log('\nbenchmark (median of paired rounds)                                 ratio');
console.log(`${'endpoint decisions over loopback TCP / raw Ed25519 verify+sign'.padEnd(67)} ${median(ratios).toFixed(3)}`);
console.log(
  `(${CLIENTS} connections from a client process, ${IN_FLIGHT} in flight on each, ${decided} unique requests decided; absolute rate on this machine, for context only: ${Math.round(median(rates))} decisions per CPU-second of the endpoint's process)`,
);
// sanity: the load was real. Every request the clients had answered was allowed, and the grant was debited once for
// each decision the endpoint made
const spent = memory.point.spent(grantId(grant.grant));
if (load.allowed !== load.sent || load.other !== '') {
  console.log(`✗ ${load.sent - load.allowed} of ${load.sent} requests were not allowed (first: ${load.other}): the bench is not measuring decisions`);
  process.exitCode = 1;
} else if (spent !== BigInt(decided) * COST_UJ || load.allowed + 1 !== decided) {
  console.log(`✗ ${decided} decisions (the sample among them), ${load.allowed} allowed answers and ${spent} µJ debited do not agree (${COST_UJ} µJ each)`);
  process.exitCode = 1;
}
