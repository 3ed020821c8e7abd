// The endpoint process of the wire abuse test (impl/wire/abuse.test.ts): a reference jcp/1 endpoint over a memory
// gate on loopback, its clock fixed, its limits from argv (JSON). It prints "listening <port>" and answers each IPC
// message "stats" with its resident set size after a full garbage collection and its open connections, so the test
// reads memory the abusers left behind rather than garbage not yet collected. Run with node --expose-gc.
// Not part of the public surface.
import { deriveSeed, keyPairFromSeed } from '../identity/ed25519.ts';
import { createMemoryWireGate, createWireServer, type WireLimits } from './server.ts';

const limits = JSON.parse(process.argv[2] ?? '{}') as Partial<WireLimits>;
const steward = keyPairFromSeed(deriveSeed('abuse:steward'));
const server = createWireServer({ gate: createMemoryWireGate({ steward }), now_s: () => 1_700_000_000n, limits });
const at = await server.listen({ host: '127.0.0.1', port: 0 });
const gc = (globalThis as { gc?: () => void }).gc;
process.on('message', (msg) => {
  if (msg !== 'stats') return;
  gc?.();
  const m = process.memoryUsage();
  process.send!({ rss: m.rss, arrayBuffers: m.arrayBuffers, heapUsed: m.heapUsed, heapTotal: m.heapTotal, connections: server.connections, gc: gc !== undefined });
});
process.on('disconnect', () => void server.close().then(() => process.exit(0)));
console.log(`listening ${'port' in at ? at.port : 0}`);
