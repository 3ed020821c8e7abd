// Runs the reference jcp/1 endpoint (jcp §11) in memory, for trying `certify --endpoint` and for benches:
//   tsx impl/wire/main.ts [tcp://127.0.0.1:7070 | unix:/path] [--steward-seed <hex>] [--window <s>] [--record <file>]
// The steward defaults to the suite's 'steward' fixture key. It prints one line, "listening <url> steward <did>",
// and serves until killed. With --record its decisions are kept in a durable record (impl/durable) and survive a
// restart; without, nothing survives it.
import { fromHex } from '../bytes.ts';
import { deriveSeed, keyPairFromSeed } from '../identity/ed25519.ts';
import { formatWireEndpoint, parseWireEndpoint } from './address.ts';
import { openDurablePoint } from '../durable/point.ts';
import { durableWireGate } from './durable-gate.ts';
import { createMemoryWireGate, createWireServer } from './server.ts';

const args = process.argv.slice(2);
const flag = (k: string): string | undefined => {
  const i = args.indexOf(k);
  return i >= 0 ? args[i + 1] : undefined;
};
const url = args.find((x) => x.startsWith('tcp://') || x.startsWith('unix:')) ?? 'tcp://127.0.0.1:0';
const seedHex = flag('--steward-seed');
const steward = keyPairFromSeed(seedHex ? fromHex(seedHex, '--steward-seed') : deriveSeed('steward'));
const window = flag('--window');
const window_s = window === undefined ? undefined : BigInt(window);
const record = flag('--record');
const gate = record
  ? durableWireGate(openDurablePoint({ path: record, steward, holder: `jcp/1 endpoint pid ${process.pid}` }), steward)
  : createMemoryWireGate({ steward, ...(window_s === undefined ? {} : { window_s }) });
const server = createWireServer({ gate, ...(window_s === undefined ? {} : { window_s }) });
// port 0 (any free port) is a listening address only, so it is read here rather than by parseWireEndpoint
const any = /^tcp:\/\/(.+):0$/.exec(url);
const at = await server.listen(any ? { host: any[1]!.replace(/^\[|\]$/g, ''), port: 0 } : parseWireEndpoint(url));
console.log(`listening ${formatWireEndpoint(at)} steward ${steward.did}`);
for (const sig of ['SIGINT', 'SIGTERM'] as const) process.on(sig, () => void server.close().then(() => process.exit(0)));
