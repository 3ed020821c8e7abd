// The jcp/1 endpoint under bounded load on loopback TCP (jcp §11): wire decisions per second — frame, parse, caller
// signature verified, decided, sealed, remembered, answered — as a ratio to the raw rate of one Ed25519 verify plus one
// sign (node:crypto, pre-built keys) measured in the same run (ARCHITECTURE.md: ratios, never absolute times).
// Rounds interleave the baseline and the load; the median ratio is reported. Both are timed in this process's CPU
// time (user + system, so the socket work counts), not wall time: on a shared machine a preempted process loses wall
// time that says nothing about the code. The endpoint and its clients share this process (requests are signed before
// the clock starts, so the clients only frame, write and read), which makes the figure a lower bound on the endpoint.
import { createPrivateKey, createPublicKey, sign as rawSign, verify as rawVerify } from 'node:crypto';
import { grantId, mintGrant } from '../impl/index.ts';
import { blake3 } from '../impl/hash/blake3.ts';
import { deriveSeed, keyPairFromSeed } from '../impl/identity/ed25519.ts';
import { contentId } from '../impl/jcp/content-id.ts';
import { connectWire, type WireClient } from '../impl/wire/client.ts';
import { encodeWireRequest, frameMessage, signWireRequest } from '../impl/wire/codec.ts';
import { createMemoryWireGate, createWireServer } from '../impl/wire/server.ts';
import { cpuMicros } from './paired.ts';

const ROUNDS = Number(process.env['BENCH_ROUNDS'] ?? 7);
const ROUND_MS = Number(process.env['BENCH_ROUND_MS'] ?? 250);
const CLIENTS = Number(process.env['BENCH_WIRE_CLIENTS'] ?? 8);
const PER_CLIENT = Number(process.env['BENCH_WIRE_REQUESTS'] ?? 250);
const IN_FLIGHT = Number(process.env['BENCH_WIRE_IN_FLIGHT'] ?? 32);
const NOW_S = 1_700_000_000n;

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
/** This process's CPU time in nanoseconds. */
const cpuNs = (): number => cpuMicros() * 1000;

// --- fixtures -------------------------------------------------------------------------------------------------------
const steward = keyPairFromSeed(deriveSeed('bench:steward'));
const issuer = keyPairFromSeed(deriveSeed('bench:issuer'));
const holder = keyPairFromSeed(deriveSeed('bench:holder'));
const resource = contentId({ resource: 'bench-tool' });
const grant = mintGrant(issuer, { subject: holder.did, resource, actions: ['call'], budget_uj: 1n << 62n, nonce: blake3(new Uint8Array([2])).slice(0, 16) });
const gate = createMemoryWireGate({ steward });
const server = createWireServer({ gate, now_s: () => NOW_S });

/** Framed, signed, unique requests for one round (each distinct: a repeat would be answered from memory). */
function requests(round: number): Uint8Array[][] {
  return Array.from({ length: CLIENTS }, (_, c) =>
    Array.from({ length: PER_CLIENT }, (_, k) =>
      frameMessage(
        encodeWireRequest(
          signWireRequest(
            {
              frame: { kind: 'tool-call', trust: 'control', grant_id: grantId(grant.grant), action: 'call', resource, payload_hash: contentId({ payload: [round, c, k] }) },
              chain: [grant],
              caller: holder.did,
              cost: { uj: 1_000n, provenance: 'Estimator' },
              now: NOW_S,
            },
            holder,
          ),
        ),
      ),
    ),
  );
}

/** Sends every client's requests, at most IN_FLIGHT outstanding per connection; resolves to decisions per CPU-second. */
async function load(clients: WireClient[], batch: Uint8Array[][]): Promise<number> {
  const t0 = cpuNs();
  let allowed = 0;
  await Promise.all(
    clients.map(async (c, ci) => {
      const mine = batch[ci]!;
      let next = 0;
      const lane = async () => {
        while (next < mine.length) {
          const r = await c.sendRaw(mine[next++]!);
          if (r.kind === 'response' && r.response.decision.verdict === 'allow') allowed++;
        }
      };
      await Promise.all(Array.from({ length: IN_FLIGHT }, lane));
    }),
  );
  const s = (cpuNs() - t0) / 1e9;
  const sent = batch.reduce((n, xs) => n + xs.length, 0);
  if (allowed !== sent) throw new Error(`only ${allowed} of ${sent} requests were allowed: the bench is not measuring decisions`);
  return sent / s;
}

// raw baseline: one node:crypto verify plus one sign, over messages the size of a request preimage and a receipt
const priv = createPrivateKey({ key: Buffer.concat([Buffer.from('302e020100300506032b657004220420', 'hex'), Buffer.from(steward.seed)]), format: 'der', type: 'pkcs8' });
const pub = createPublicKey({ key: Buffer.concat([Buffer.from('302a300506032b6570032100', 'hex'), Buffer.from(steward.publicKey)]), format: 'der', type: 'spki' });
const sample = requests(-1)[0]![0]!;
const msg = Buffer.alloc(sample.length - 4 - 64, 7);
const sig = rawSign(null, msg, priv);

function rawRate(ms = ROUND_MS): number {
  const t0 = cpuNs();
  let n = 0;
  let elapsed = 0;
  while (elapsed < ms * 1e6) {
    for (let k = 0; k < 25; k++, n++) {
      rawVerify(null, msg, pub, sig);
      rawSign(null, msg, priv);
    }
    elapsed = cpuNs() - t0;
  }
  return n / (elapsed / 1e9);
}

const at = await server.listen({ host: '127.0.0.1', port: 0 });
const clients = await Promise.all(Array.from({ length: CLIENTS }, () => connectWire(at)));
// warm: one small round through every connection
const WARM = 20;
await load(clients, requests(-2).map((xs) => xs.slice(0, WARM)));
const ratios: number[] = [];
const rates: number[] = [];
for (let r = 0; r < ROUNDS; r++) {
  const batch = requests(r);
  const raw = rawRate();
  const wire = await load(clients, batch);
  ratios.push(wire / raw);
  rates.push(wire);
  process.stdout.write(`round ${r + 1}/${ROUNDS}: ${(wire / raw).toFixed(3)} × raw (verify + sign)\n`);
}
// a sanity check that the load was real: every request of every round debited the grant once
const expected = BigInt(CLIENTS * (ROUNDS * PER_CLIENT + WARM)) * 1_000n;
const spent = gate.point.spent(grantId(grant.grant));
console.log('\nbenchmark (median of interleaved rounds)                       ratio');
console.log(`${'wire decisions over loopback TCP / raw Ed25519 verify+sign'.padEnd(62)} ${median(ratios).toFixed(3)}`);
console.log(`(${CLIENTS} connections × ${PER_CLIENT} unique requests per round, ${IN_FLIGHT} in flight per connection; absolute rate on this machine, for context only: ${Math.round(median(rates))} decisions per CPU-second)`);
await Promise.all(clients.map((c) => c.close()));
await server.close();
if (spent !== expected) {
  console.log(`✗ the grant was debited ${spent} µJ, not the ${expected} µJ the allowed requests cost`);
  process.exitCode = 1;
}
