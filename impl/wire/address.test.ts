// Unit tests of endpoint addresses for the jcp/1 wire binding (jcp §11 "any ordered byte stream (TCP, Unix socket, …)";
// impl/wire/WIRE.md "Addresses"): tcp://host:port (IPv6 in brackets) or unix:/absolute/path, read and written back.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { thrown } from '../_test-support.ts';
import { formatWireEndpoint, parseWireEndpoint, type WireAddress } from './address.ts';

const refusal = (url: unknown) => thrown(() => parseWireEndpoint(url as string));

describe('parseWireEndpoint: Unix sockets (jcp §11)', () => {
  it('reads unix:/path and unix:///path as the same absolute path', () => {
    expect(parseWireEndpoint('unix:/tmp/jcp.sock')).toEqual({ path: '/tmp/jcp.sock' });
    expect(parseWireEndpoint('unix:///tmp/jcp.sock')).toEqual({ path: '/tmp/jcp.sock' });
  });

  it('drops only the leading // of unix:///, never a run of slashes inside the path', () => {
    expect(parseWireEndpoint('unix:/a///b')).toEqual({ path: '/a///b' });
    expect(parseWireEndpoint('unix:/run/jcp//x///y.sock')).toEqual({ path: '/run/jcp//x///y.sock' });
  });

  it('refuses an empty or relative socket path, naming the endpoint', () => {
    for (const url of ['unix:', 'unix:rel/path', 'unix:sock', 'unix:./s']) {
      const e = refusal(url);
      expect(e.code).toBe('ERR_BAD_ARGUMENT');
      expect(e.message).toBe(`ERR_BAD_ARGUMENT: a unix endpoint names an absolute socket path (unix:/path), got ${url}`);
    }
  });
});

describe('parseWireEndpoint: TCP (jcp §11)', () => {
  it('reads tcp://host:port, with an IPv6 host in brackets and the brackets dropped', () => {
    expect(parseWireEndpoint('tcp://127.0.0.1:7070')).toEqual({ host: '127.0.0.1', port: 7070 });
    expect(parseWireEndpoint('tcp://example.org:443')).toEqual({ host: 'example.org', port: 443 });
    expect(parseWireEndpoint('tcp://[::1]:80')).toEqual({ host: '::1', port: 80 });
    expect(parseWireEndpoint('tcp://[::ffff:10.0.0.1]:9')).toEqual({ host: '::ffff:10.0.0.1', port: 9 });
  });

  it('accepts the port range exactly at its ends, 1 and 65535', () => {
    expect(parseWireEndpoint('tcp://h:1')).toEqual({ host: 'h', port: 1 });
    expect(parseWireEndpoint('tcp://h:65535')).toEqual({ host: 'h', port: 65535 });
    expect(parseWireEndpoint('tcp://[::1]:65535')).toEqual({ host: '::1', port: 65535 });
  });

  it('refuses a port one past either end, 0 and 65536, naming the port as written', () => {
    for (const [url, port] of [['tcp://h:0', '0'], ['tcp://h:65536', '65536'], ['tcp://h:00000', '00000'], ['tcp://h:99999', '99999']] as const) {
      const e = refusal(url);
      expect(e.code).toBe('ERR_BAD_ARGUMENT');
      expect(e.message).toBe(`ERR_BAD_ARGUMENT: port ${port} is not 1…65535`);
    }
  });

  it('refuses anything before tcp:// or after the port, and a port of more than five digits', () => {
    for (const url of ['xtcp://h:80', ' tcp://h:80', 'http://h:80', 'tcp://h:80 ', 'tcp://h:80/', 'tcp://h:80x', 'tcp://h:123456', 'tcp://h:0000080', 'tcp://h', 'tcp://:80']) {
      const e = refusal(url);
      expect(e.code).toBe('ERR_BAD_ARGUMENT');
      expect(e.message).toBe(`ERR_BAD_ARGUMENT: an endpoint is tcp://host:port or unix:/path, got ${url}`);
    }
  });

  it('refuses an endpoint that is not a string with ERR_BAD_ARGUMENT, not a TypeError', () => {
    for (const url of [7070, null, undefined, { host: 'h', port: 1 }, ['tcp://h:1']]) {
      const e = refusal(url);
      expect(e.code).toBe('ERR_BAD_ARGUMENT');
      expect(e.message).toBe('ERR_BAD_ARGUMENT: an endpoint is a string: tcp://host:port or unix:/path');
    }
  });
});

describe('formatWireEndpoint (jcp §11)', () => {
  it('writes a host without a colon bare, an IPv6 host in brackets, and a socket path after unix:', () => {
    expect(formatWireEndpoint({ host: '127.0.0.1', port: 7070 })).toBe('tcp://127.0.0.1:7070');
    expect(formatWireEndpoint({ host: 'example.org', port: 1 })).toBe('tcp://example.org:1');
    expect(formatWireEndpoint({ host: '::1', port: 80 })).toBe('tcp://[::1]:80');
    expect(formatWireEndpoint({ path: '/tmp/jcp.sock' })).toBe('unix:/tmp/jcp.sock');
  });

  it('is the inverse of parseWireEndpoint on every address it writes', () => {
    const host = fc.oneof(
      fc.stringMatching(/^[a-z0-9][a-z0-9.-]{0,20}$/),
      fc.ipV4(),
      fc.ipV6(),
    );
    const address: fc.Arbitrary<WireAddress> = fc.oneof(
      fc.record({ host, port: fc.integer({ min: 1, max: 65535 }) }),
      fc.record({ path: fc.stringMatching(/^\/([a-zA-Z0-9._-][a-zA-Z0-9._/-]{0,30})?$/) }),
    );
    fc.assert(
      fc.property(address, (a) => {
        expect(parseWireEndpoint(formatWireEndpoint(a))).toEqual(a);
      }),
      { seed: 20261206, numRuns: 300 },
    );
  });
});
