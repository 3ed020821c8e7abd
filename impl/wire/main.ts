// Runs the reference jcp/1 endpoint (jcp §11) in memory, for trying `certify --endpoint` and for benches:
//   tsx impl/wire/main.ts [tcp://127.0.0.1:7070 | unix:/path] [--steward-seed <hex>] [--window <s>] [--record <file>]
//     [--max-connections <n>] [--max-in-flight <n>] [--idle-ms <ms>] [--frame-deadline-ms <ms>]
// The four limits are WIRE.md "Limits" (defaults DEFAULT_WIRE_LIMITS); an unknown flag or a bad number is refused in
// one line with exit 2.
// The steward defaults to the suite's 'steward' fixture key. It prints one line, "listening <url> steward <did>",
// and serves until killed. With --record its decisions are kept in a durable record (impl/durable) and survive a
// restart; without, nothing survives it. A torn tail its record's open cut away is said in one line on stderr; a
// record it cannot open (held, damaged, a bad path) is said there with its code, and it exits 1.
import { parseArgs } from 'node:util';
import { fromHex } from '../bytes.ts';
import { deriveSeed, keyPairFromSeed } from '../identity/ed25519.ts';
import { formatWireEndpoint, parseWireEndpoint } from './address.ts';
import { openDurablePoint } from '../durable/point.ts';
import { durableWireGate } from './durable-gate.ts';
import { createMemoryWireGate, createWireServer, type WireGate, type WireLimits } from './server.ts';
import { isJcpError } from '../errors.ts';

const say = (line: string): void => void process.stderr.write(`${line}\n`);
const USAGE =
  'tsx impl/wire/main.ts [tcp://127.0.0.1:7070 | unix:/path] [--steward-seed <hex>] [--window <s>] [--record <file>]\n' +
  '  [--max-connections <n>] [--max-in-flight <n>] [--idle-ms <ms>] [--frame-deadline-ms <ms>]\n' +
  'Serves jcp/1 (jcp §11) until killed; prints "listening <url> steward <did>". Limits: impl/wire/WIRE.md "Limits".';
if (process.argv.slice(2).some((a) => a === '--help' || a === '-h')) {
  console.log(USAGE);
  process.exit(0);
}
const usage = (msg: string): never => {
  say(`jcp/1 endpoint: ${msg}`);
  process.exit(2);
};
const LIMIT_FLAGS = { 'max-connections': 'maxConnections', 'max-in-flight': 'maxInFlight', 'idle-ms': 'idleMs', 'frame-deadline-ms': 'frameDeadlineMs' } as const;
let parsed;
try {
  parsed = parseArgs({
    options: {
      'steward-seed': { type: 'string' },
      window: { type: 'string' },
      record: { type: 'string' },
      ...Object.fromEntries(Object.keys(LIMIT_FLAGS).map((k) => [k, { type: 'string' as const }])),
    },
    allowPositionals: true,
    strict: true,
  });
} catch (e) {
  usage((e as Error).message);
}
const { values: flags, positionals } = parsed!;
const whole = (name: string, v: string): number => (/^[1-9]\d*$/.test(v) && Number.isSafeInteger(Number(v)) ? Number(v) : usage(`--${name} takes a whole number above 0, not ${JSON.stringify(v)}`));
if (positionals.length > 1 || (positionals[0] !== undefined && !/^(tcp:\/\/|unix:)/.test(positionals[0]))) usage(`one address, tcp://host:port or unix:/path, not ${positionals.join(' ')}`);
const url = positionals[0] ?? 'tcp://127.0.0.1:0';
const seedHex = flags['steward-seed'] as string | undefined;
const steward = keyPairFromSeed(seedHex ? fromHex(seedHex, '--steward-seed') : deriveSeed('steward'));
const window = flags['window'] as string | undefined;
const window_s = window === undefined ? undefined : BigInt(whole('window', window));
const record = flags['record'] as string | undefined;
const limits: Partial<Record<keyof WireLimits, number>> = {};
for (const [flag, key] of Object.entries(LIMIT_FLAGS)) {
  const v = flags[flag as keyof typeof flags] as string | undefined;
  if (v !== undefined) limits[key] = whole(flag, v);
}
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
const server = createWireServer({ gate, limits, ...(window_s === undefined ? {} : { window_s }) });
// port 0 (any free port) is a listening address only, so it is read here rather than by parseWireEndpoint
const any = /^tcp:\/\/(.+):0$/.exec(url);
const at = await server.listen(any ? { host: any[1]!.replace(/^\[|\]$/g, ''), port: 0 } : parseWireEndpoint(url));
console.log(`listening ${formatWireEndpoint(at)} steward ${steward.did}`);
for (const sig of ['SIGINT', 'SIGTERM'] as const) process.on(sig, () => void server.close().then(() => process.exit(0)));
