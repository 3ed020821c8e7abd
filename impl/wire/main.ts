// Runs the reference jcp/1 endpoint (jcp §11) in memory, for trying `certify --endpoint` and for benches:
//   tsx impl/wire/main.ts [tcp://127.0.0.1:7070 | unix:/path] [--steward-seed <hex>] [--window <s>] [--record <file>]
//     [--max-connections <n>] [--max-in-flight <n>] [--idle-ms <ms>] [--frame-deadline-ms <ms>]
// What the flags mean, and how they are read, is ./endpoint-cli.ts. An unknown flag, a bad number or a bad seed is
// refused in one line with exit 2. It prints one line, "listening <url> steward <did>", and serves until killed. A torn
// tail its record's open cut away is said in one line on stderr; a record it cannot open (held, damaged, a bad path)
// is said there with its code, and it exits 1.
import { isJcpError } from '../errors.ts';
import { ENDPOINT_USAGE, openEndpointGate, parseEndpointArgs, startEndpoint, type EndpointOptions } from './endpoint-cli.ts';
import type { WireGate } from './server.ts';

const say = (line: string): void => void process.stderr.write(`${line}\n`);
let opts: 'help' | EndpointOptions;
try {
  opts = parseEndpointArgs(process.argv.slice(2));
} catch (e) {
  if (!isJcpError(e)) throw e;
  say(`jcp/1 endpoint: ${e.message}`);
  process.exit(2);
}
if (opts === 'help') {
  console.log(ENDPOINT_USAGE);
  process.exit(0);
}
let gate: WireGate;
try {
  gate = openEndpointGate(opts, `jcp/1 endpoint pid ${process.pid}`, say);
} catch (e) {
  // a record that is held, damaged, or at a path that cannot hold one: its typed refusal, then exit
  if (!isJcpError(e)) throw e;
  say(`jcp/1 endpoint: ${e.message}`);
  process.exit(1);
}
const { server, line } = await startEndpoint(opts, gate);
console.log(line);
for (const sig of ['SIGINT', 'SIGTERM'] as const) process.on(sig, () => void server.close().then(() => process.exit(0)));
