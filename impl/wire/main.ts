// Runs the reference jcp/1 endpoint (jcp §11) in memory, for trying `certify --endpoint` and for benches:
//   tsx impl/wire/main.ts [tcp://127.0.0.1:7070 | unix:/path] [--steward-seed <hex>] [--window <s>] [--record <file>]
// The steward defaults to the suite's 'steward' fixture key. It prints one line, "listening <url> steward <did>",
// and serves until killed. With --record its decisions are kept in a durable record (impl/durable) and survive a
// restart; without, nothing survives it. A torn tail its record's open cut away is said in one line on stderr; a
// record it cannot open (held, damaged, a bad path) is said there with its code, and it exits 1.
import { fromHex } from '../bytes.ts';
import { deriveSeed, keyPairFromSeed } from '../identity/ed25519.ts';
import { formatWireEndpoint, parseWireEndpoint } from './address.ts';
import { openDurablePoint } from '../durable/point.ts';
import { durableWireGate } from './durable-gate.ts';
import { createMemoryWireGate, createWireServer, type WireGate } from './server.ts';
import { isJcpError } from '../errors.ts';

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
const say = (line: string): void => void process.stderr.write(`${line}\n`);
let gate: WireGate;
try {
  // a torn tail the open cut away is said on stderr (jcp §4.11: nothing the record lost goes unsaid)
  gate = record
    ? durableWireGate(openDurablePoint({ path: record, steward, holder: `jcp/1 endpoint pid ${process.pid}` }), steward, undefined, say)
    : createMemoryWireGate({ steward, ...(window_s === undefined ? {} : { window_s }) });
} catch (e) {
  // a record that is held, damaged, or at a path that cannot hold one: its typed refusal, then exit
  if (!isJcpError(e)) throw e;
  say(`jcp/1 endpoint: ${e.message}`);
  process.exit(1);
}
const server = createWireServer({ gate, ...(window_s === undefined ? {} : { window_s }) });
// port 0 (any free port) is a listening address only, so it is read here rather than by parseWireEndpoint
const any = /^tcp:\/\/(.+):0$/.exec(url);
const at = await server.listen(any ? { host: any[1]!.replace(/^\[|\]$/g, ''), port: 0 } : parseWireEndpoint(url));
console.log(`listening ${formatWireEndpoint(at)} steward ${steward.did}`);
for (const sig of ['SIGINT', 'SIGTERM'] as const) process.on(sig, () => void server.close().then(() => process.exit(0)));
