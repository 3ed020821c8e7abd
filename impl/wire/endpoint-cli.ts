// The reference jcp/1 endpoint's command line (jcp §11), read and started in process; impl/wire/main.ts is the program
// that runs it. The four limits are WIRE.md "Limits" (defaults DEFAULT_WIRE_LIMITS). The steward defaults to the
// suite's 'steward' fixture key. With a record its decisions are kept in a durable record (impl/durable) and survive a
// restart (jcp §4.11); without, nothing survives the process.
import { parseArgs } from 'node:util';
import { fromHex } from '../bytes.ts';
import { deriveSeed, keyPairFromSeed, type KeyPair } from '../identity/ed25519.ts';
import { JcpError, isJcpError } from '../errors.ts';
import { formatWireEndpoint, parseWireEndpoint, type WireAddress } from './address.ts';
import { openDurablePoint } from '../durable/point.ts';
import { durableWireGate } from './durable-gate.ts';
import { createMemoryWireGate, createWireServer, type WireGate, type WireLimits, type WireServer } from './server.ts';

export const ENDPOINT_USAGE =
  'tsx impl/wire/main.ts [tcp://127.0.0.1:7070 | unix:/path] [--steward-seed <hex>] [--window <s>] [--record <file>]\n' +
  '  [--max-connections <n>] [--max-in-flight <n>] [--idle-ms <ms>] [--frame-deadline-ms <ms>]\n' +
  'Serves jcp/1 (jcp §11) until killed; prints "listening <url> steward <did>". Limits: impl/wire/WIRE.md "Limits".';

/** What the command line asks the endpoint for. */
export interface EndpointOptions {
  /** tcp://host:port (port 0: any free port) or unix:/path */
  readonly url: string;
  readonly steward: KeyPair;
  readonly window_s?: bigint;
  /** the durable record's file, where one is asked for */
  readonly record?: string;
  readonly limits: Partial<Record<keyof WireLimits, number>>;
}

const LIMIT_FLAGS = { 'max-connections': 'maxConnections', 'max-in-flight': 'maxInFlight', 'idle-ms': 'idleMs', 'frame-deadline-ms': 'frameDeadlineMs' } as const;

/** A usage error: ERR_BAD_ARGUMENT, whose message the program prints before it exits 2. */
const usage = (msg: string): never => {
  throw new JcpError('ERR_BAD_ARGUMENT', msg);
};

/**
 * The command line's arguments (after the program's name): `'help'` where --help or -h is among them, else the
 * options. A flag the endpoint does not know, a bad number, a second address, an address of another scheme and a
 * steward seed that is not 32 bytes of hex are refused with ERR_BAD_ARGUMENT, its message saying which.
 */
export function parseEndpointArgs(argv: readonly string[]): 'help' | EndpointOptions {
  if (argv.some((a) => a === '--help' || a === '-h')) return 'help';
  let parsed;
  try {
    parsed = parseArgs({
      args: [...argv],
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
    return usage((e as Error).message);
  }
  const { values: flags, positionals } = parsed;
  const whole = (name: string, v: string): number => (/^[1-9]\d*$/.test(v) && Number.isSafeInteger(Number(v)) ? Number(v) : usage(`--${name} takes a whole number above 0, not ${JSON.stringify(v)}`));
  if (positionals.length > 1 || (positionals[0] !== undefined && !/^(tcp:\/\/|unix:)/.test(positionals[0]))) usage(`one address, tcp://host:port or unix:/path, not ${positionals.join(' ')}`);
  const seedHex = flags['steward-seed'] as string | undefined;
  let steward: KeyPair;
  try {
    steward = keyPairFromSeed(seedHex === undefined ? deriveSeed('steward') : fromHex(seedHex, '--steward-seed'));
  } catch (e) {
    if (!isJcpError(e)) throw e;
    return usage(`--steward-seed takes 32 bytes as 64 lowercase hex digits (${e.message})`);
  }
  const window = flags['window'] as string | undefined;
  const record = flags['record'] as string | undefined;
  const limits: Partial<Record<keyof WireLimits, number>> = {};
  for (const [flag, key] of Object.entries(LIMIT_FLAGS)) {
    const v = flags[flag as keyof typeof flags] as string | undefined;
    if (v !== undefined) limits[key] = whole(flag, v);
  }
  return {
    url: positionals[0] ?? 'tcp://127.0.0.1:0',
    steward,
    ...(window === undefined ? {} : { window_s: BigInt(whole('window', window)) }),
    ...(record === undefined ? {} : { record }),
    limits,
  };
}

/**
 * The endpoint's gate: over the durable record where one is asked for (a torn tail its open cut away is said through
 * `say`: jcp §4.11, nothing the record lost goes unsaid), else in memory. A record that is held, damaged or at a path
 * that cannot hold one is its typed refusal, thrown.
 */
export function openEndpointGate(opts: EndpointOptions, holder: string, say: (line: string) => void): WireGate {
  return opts.record !== undefined
    ? durableWireGate(openDurablePoint({ path: opts.record, steward: opts.steward, holder }), opts.steward, undefined, say)
    : createMemoryWireGate({ steward: opts.steward, ...(opts.window_s === undefined ? {} : { window_s: opts.window_s }) });
}

/** The endpoint serving `gate` at the options' address, and the line it prints: "listening <url> steward <did>". */
export async function startEndpoint(opts: EndpointOptions, gate: WireGate): Promise<{ server: WireServer; at: WireAddress; line: string }> {
  const server = createWireServer({ gate, limits: opts.limits, ...(opts.window_s === undefined ? {} : { window_s: opts.window_s }) });
  // port 0 (any free port) is a listening address only, so it is read here rather than by parseWireEndpoint
  const any = /^tcp:\/\/(.+):0$/.exec(opts.url);
  const at = await server.listen(any ? { host: any[1]!.replace(/^\[|\]$/g, ''), port: 0 } : parseWireEndpoint(opts.url));
  return { server, at, line: `listening ${formatWireEndpoint(at)} steward ${opts.steward.did}` };
}
