// The reference jcp/1 endpoint's command line (impl/wire/endpoint-cli.ts; jcp §11, WIRE.md "Limits", jcp §4.11 for
// the record): every flag read into its option, each bad argument refused as ERR_BAD_ARGUMENT saying which, the gate
// over a record or in memory, and the listening line. The program itself (main.ts) is run once, for its exit codes.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { thrown } from '../_test-support.ts';
import { toHex } from '../bytes.ts';
import { openDurablePoint } from '../durable/point.ts';
import { deriveSeed, keyPairFromSeed } from '../identity/ed25519.ts';
import { ENDPOINT_USAGE, openEndpointGate, parseEndpointArgs, startEndpoint, type EndpointOptions } from './endpoint-cli.ts';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});
const tempDir = (): string => {
  const d = fs.mkdtempSync(path.join(os.tmpdir(), 'jcp-endpoint-cli-'));
  dirs.push(d);
  return d;
};
const options = (argv: string[]): EndpointOptions => {
  const o = parseEndpointArgs(argv);
  if (o === 'help') throw new Error('expected options, got help');
  return o;
};
const refusal = (argv: string[]): string => {
  const e = thrown(() => parseEndpointArgs(argv));
  expect(e.code).toBe('ERR_BAD_ARGUMENT');
  return e.message;
};

describe('parseEndpointArgs', () => {
  it('with no argument: any free port on the loopback, the suite\'s steward, no window, no record, the default limits', () => {
    const o = options([]);
    expect(o.url).toBe('tcp://127.0.0.1:0');
    expect(o.steward.did).toBe(keyPairFromSeed(deriveSeed('steward')).did);
    expect(o).not.toHaveProperty('window_s');
    expect(o).not.toHaveProperty('record');
    expect(o.limits).toEqual({});
  });

  it('reads each flag into its option', () => {
    const seed = new Uint8Array(32).fill(7);
    const o = options(['unix:/tmp/jcp.sock', '--steward-seed', toHex(seed), '--window', '300', '--record', '/tmp/r.jcpr', '--max-connections', '5', '--max-in-flight', '2', '--idle-ms', '1000', '--frame-deadline-ms', '250']);
    expect(o.url).toBe('unix:/tmp/jcp.sock');
    expect(o.steward.did).toBe(keyPairFromSeed(seed).did);
    expect(o.window_s).toBe(300n);
    expect(o.record).toBe('/tmp/r.jcpr');
    expect(o.limits).toEqual({ maxConnections: 5, maxInFlight: 2, idleMs: 1000, frameDeadlineMs: 250 });
    expect(options(['tcp://127.0.0.1:7070']).url).toBe('tcp://127.0.0.1:7070');
  });

  it('answers help for --help or -h wherever it stands, before reading anything else', () => {
    expect(parseEndpointArgs(['--help'])).toBe('help');
    expect(parseEndpointArgs(['tcp://127.0.0.1:1', '-h'])).toBe('help');
    expect(parseEndpointArgs(['--no-such-flag', '--help'])).toBe('help');
    expect(ENDPOINT_USAGE).toMatch(/^tsx impl\/wire\/main\.ts /);
  });

  it('takes whole numbers above 0 up to the largest safe integer, and refuses any other number naming the flag and the value', () => {
    expect(options(['--idle-ms', '1']).limits).toEqual({ idleMs: 1 });
    expect(options(['--max-connections', String(Number.MAX_SAFE_INTEGER)]).limits).toEqual({ maxConnections: Number.MAX_SAFE_INTEGER });
    expect(options(['--window', '1']).window_s).toBe(1n);
    for (const [flag, v] of [['idle-ms', '0'], ['max-in-flight', '01'], ['frame-deadline-ms', '1.5'], ['max-connections', '1e3'], ['max-connections', '9007199254740992'], ['window', 'abc'], ['window', '']] as const) {
      expect(refusal([`--${flag}`, v])).toBe(`ERR_BAD_ARGUMENT: --${flag} takes a whole number above 0, not ${JSON.stringify(v)}`);
    }
  });

  it('refuses a second address and one of another scheme', () => {
    expect(refusal(['tcp://127.0.0.1:1', 'tcp://127.0.0.1:2'])).toBe('ERR_BAD_ARGUMENT: one address, tcp://host:port or unix:/path, not tcp://127.0.0.1:1 tcp://127.0.0.1:2');
    expect(refusal(['http://127.0.0.1:1'])).toBe('ERR_BAD_ARGUMENT: one address, tcp://host:port or unix:/path, not http://127.0.0.1:1');
  });

  it('refuses a flag it does not know and a flag without its value, in the words of node\'s parser', () => {
    expect(refusal(['--no-such-flag'])).toMatch(/^ERR_BAD_ARGUMENT: Unknown option '--no-such-flag'/);
    expect(refusal(['--record'])).toMatch(/^ERR_BAD_ARGUMENT: Option '--record <value>' argument missing/);
  });

  it('refuses a steward seed that is not 32 bytes of lowercase hex, saying why (never a crash)', () => {
    expect(refusal(['--steward-seed', 'zz'])).toBe('ERR_BAD_ARGUMENT: --steward-seed takes 32 bytes as 64 lowercase hex digits (ERR_HEX_MALFORMED: --steward-seed is not even-length lowercase hex)');
    expect(refusal(['--steward-seed', '07'.repeat(31)])).toBe('ERR_BAD_ARGUMENT: --steward-seed takes 32 bytes as 64 lowercase hex digits (ERR_SEED_LENGTH: seed must be 32 bytes, got 31)');
    expect(refusal(['--steward-seed', '07'.repeat(33)])).toMatch(/got 33\)$/);
  });
});

describe('openEndpointGate', () => {
  it('without a record: a gate in memory, sealing as the steward asked for', () => {
    const o = options(['--steward-seed', '07'.repeat(32), '--window', '60']);
    expect(openEndpointGate(o, 'test holder', () => {}).steward).toBe(keyPairFromSeed(new Uint8Array(32).fill(7)).did);
  });

  it('with a record: the record is claimed (jcp §4.11), so one another writer holds is refused with its code', () => {
    const file = path.join(tempDir(), 'held.jcpr');
    const steward = keyPairFromSeed(deriveSeed('steward'));
    const first = openDurablePoint({ path: file, steward, holder: 'the first writer' });
    try {
      const e = thrown(() => openEndpointGate(options(['--record', file]), 'the endpoint', () => {}));
      expect(e.code).toBe('ERR_RECORD_LOCKED');
      expect(e.message).toContain('the first writer');
    } finally {
      first.close();
    }
  });
});

describe('startEndpoint', () => {
  it('listens on a free port for port 0 and says where, with the steward', async () => {
    const o = options(['--max-connections', '3']);
    const { server, at, line } = await startEndpoint(o, openEndpointGate(o, 'test holder', () => {}));
    try {
      expect(at).toMatchObject({ host: '127.0.0.1' });
      const port = (at as { port: number }).port;
      expect(port).toBeGreaterThan(0);
      expect(line).toBe(`listening tcp://127.0.0.1:${port} steward ${o.steward.did}`);
    } finally {
      await server.close();
    }
  });

  it('listens on a unix socket path as given', async () => {
    const sock = path.join(tempDir(), 'e.sock');
    const o = options([`unix:${sock}`]);
    const { server, at, line } = await startEndpoint(o, openEndpointGate(o, 'test holder', () => {}));
    try {
      expect(at).toEqual({ path: sock });
      expect(line).toBe(`listening unix:${sock} steward ${o.steward.did}`);
      expect(fs.statSync(sock).isSocket()).toBe(true);
    } finally {
      await server.close();
    }
  });
});

describe('the program (main.ts)', () => {
  it('exits 2 with one line on a bad seed, 0 with the usage on --help', () => {
    // run as durable-gate.test.ts runs it: node with tsx's loader, from the checkout's root
    const root = fileURLToPath(new URL('../..', import.meta.url));
    const run = (...args: string[]) => spawnSync(process.execPath, ['--import', 'tsx', 'impl/wire/main.ts', ...args], { cwd: root, encoding: 'utf8', timeout: 60_000 });
    const bad = run('--steward-seed', '0011');
    expect(bad.status).toBe(2);
    expect(bad.stderr).toBe('jcp/1 endpoint: ERR_BAD_ARGUMENT: --steward-seed takes 32 bytes as 64 lowercase hex digits (ERR_SEED_LENGTH: seed must be 32 bytes, got 2)\n');
    const help = run('--help');
    expect(help.status).toBe(0);
    expect(help.stdout).toBe(`${ENDPOINT_USAGE}\n`);
  });
});
