// npm run bench — decide-and-seal per second and receipt verifications per second, each as a ratio to raw node:crypto
// Ed25519 signs and verifies per second measured in the same run (ARCHITECTURE.md: ratios, never absolute times).
// Each round alternates the baseline and the measured work in 5 ms chunks of process CPU time (bench/paired.ts), and
// the median of the rounds' ratios is reported, because this machine is shared and its speed swings within a second.
import { createPrivateKey, createPublicKey, sign as rawSign, verify as rawVerify } from 'node:crypto';
import { availableParallelism, loadavg } from 'node:os';
import { createEnforcementPoint, grantId, mintGrant, verifyReceipt, type DecisionRequest } from '../impl/index.ts';
import { blake3 } from '../impl/hash/blake3.ts';
import { deriveSeed, keyPairFromSeed } from '../impl/identity/ed25519.ts';
import { contentId } from '../impl/jcp/content-id.ts';
import { decodeSign1, sigStructure } from '../impl/cose/sign1.ts';
import { pairedRound } from './paired.ts';

const ROUNDS = Number(process.env['BENCH_ROUNDS'] ?? 15);
const ROUND_MS = Number(process.env['BENCH_ROUND_MS'] ?? 1000);
const CHUNK_MS = Number(process.env['BENCH_CHUNK_MS'] ?? 5);

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const range = (xs: number[]) => `${Math.min(...xs).toFixed(3)}–${Math.max(...xs).toFixed(3)}`;
const load = () => loadavg().map((x) => x.toFixed(2)).join(' ');
const loadBefore = load();

// --- fixtures -------------------------------------------------------------------------------------------------------
const steward = keyPairFromSeed(deriveSeed('bench:steward'));
const issuer = keyPairFromSeed(deriveSeed('bench:issuer'));
const holder = keyPairFromSeed(deriveSeed('bench:holder'));
const resource = contentId({ resource: 'bench-tool' });
const grant = mintGrant(issuer, { subject: holder.did, resource, actions: ['call'], budget_uj: (1n << 62n), nonce: blake3(new Uint8Array([1])).slice(0, 16) });
const payloads = Array.from({ length: 256 }, (_, i) => contentId({ payload: i }));
const point = createEnforcementPoint({ steward });
const request = (i: number): DecisionRequest => ({
  frame: { kind: 'tool-call', trust: 'control', grant_id: grantId(grant.grant), action: 'call', resource, payload_hash: payloads[i & 255]! },
  chain: [grant],
  caller: holder.did,
  cost: { uj: 1_000n, provenance: 'Estimator' },
  now_s: 1_700_000_000n,
});
const receipts = Array.from({ length: 256 }, (_, i) => point.decide(request(i)).receipt);

// raw baseline: node:crypto Ed25519 with pre-built key objects, over a message the size of a receipt's Sig_structure
const priv = createPrivateKey({ key: Buffer.concat([Buffer.from('302e020100300506032b657004220420', 'hex'), Buffer.from(steward.seed)]), format: 'der', type: 'pkcs8' });
const pub = createPublicKey({ key: Buffer.concat([Buffer.from('302a300506032b6570032100', 'hex'), Buffer.from(steward.publicKey)]), format: 'der', type: 'spki' });
// the Sig_structure a receipt's signature covers: ["Signature1", protected, h'', payload], built from a real receipt
const sealed = decodeSign1(receipts[0]!);
const msg = Buffer.from(sigStructure(sealed.protectedBytes, sealed.payload));
const sig = rawSign(null, msg, priv);

const signR: number[] = [];
const decideR: number[] = [];
const verifyR: number[] = [];
const vReceiptR: number[] = [];
for (let r = 0; r < ROUNDS; r++) {
  const d = await pairedRound(() => rawSign(null, msg, priv), (i) => point.decide(request(i)), ROUND_MS, CHUNK_MS);
  const v = await pairedRound(() => rawVerify(null, msg, pub, sig), (i) => verifyReceipt(receipts[i & 255]!, { steward: steward.did }), ROUND_MS, CHUNK_MS);
  signR.push(d.ratio);
  verifyR.push(v.ratio);
  decideR.push(d.workRate);
  vReceiptR.push(v.workRate);
  process.stdout.write(`round ${r + 1}/${ROUNDS}: decide-and-seal ${d.ratio.toFixed(3)} × raw sign, verify receipt ${v.ratio.toFixed(3)} × raw verify\n`);
}

const rows = [
  { what: 'decide-and-seal / raw Ed25519 sign', ratio: median(signR), rounds: signR, target: 0.8 },
  { what: 'receipt verification / raw Ed25519 verify', ratio: median(verifyR), rounds: verifyR, target: 0.8 },
];
console.log('\nbenchmark (median of paired rounds)                 ratio   target  result   range over rounds  rounds ≥ target');
for (const r of rows) {
  const above = r.rounds.filter((x) => x >= r.target).length;
  console.log(`${r.what.padEnd(52)} ${r.ratio.toFixed(3)}   ≥ ${r.target}   ${(r.ratio >= r.target ? 'met' : 'NOT MET').padEnd(8)} ${range(r.rounds).padEnd(18)} ${above}/${r.rounds.length}`);
}
// the machine is shared: the load average says how much the rounds were disturbed
console.log(`(load average 1/5/15 min: ${loadBefore} before, ${load()} after, on ${availableParallelism()} CPUs)`);
console.log(`(absolute rates on this machine, for context only: ${Math.round(median(decideR))} decide-and-seal/s, ${Math.round(median(vReceiptR))} receipt verifications/s)`);
process.exitCode = rows.every((r) => r.ratio >= r.target) ? 0 : 1;
