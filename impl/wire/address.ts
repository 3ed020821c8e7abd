// jcp §11 "any ordered byte stream (TCP, Unix socket, …)": how an endpoint is named — tcp://host:port or unix:/path.
import { JcpError } from '../errors.ts';

/** Where an endpoint listens: a TCP host and port, or a Unix socket path. */
export type WireAddress = { readonly host: string; readonly port: number } | { readonly path: string };

/** Reads `tcp://host:port` (IPv6 hosts in brackets) or `unix:/path` (also `unix:///path`); ERR_BAD_ARGUMENT otherwise. */
export function parseWireEndpoint(url: string): WireAddress {
  if (typeof url !== 'string') throw new JcpError('ERR_BAD_ARGUMENT', 'an endpoint is a string: tcp://host:port or unix:/path');
  if (url.startsWith('unix:')) {
    const path = url.slice(5).replace(/^\/\/(?=\/)/, '');
    if (path.length === 0 || !path.startsWith('/')) throw new JcpError('ERR_BAD_ARGUMENT', `a unix endpoint names an absolute socket path (unix:/path), got ${url}`);
    return Object.freeze({ path });
  }
  const m = /^tcp:\/\/(\[[0-9a-fA-F:.]+\]|[^:/[\]]+):(\d{1,5})$/.exec(url);
  if (!m) throw new JcpError('ERR_BAD_ARGUMENT', `an endpoint is tcp://host:port or unix:/path, got ${url}`);
  const port = Number(m[2]);
  if (port < 1 || port > 65535) throw new JcpError('ERR_BAD_ARGUMENT', `port ${m[2]} is not 1…65535`);
  return Object.freeze({ host: m[1]!.replace(/^\[|\]$/g, ''), port });
}

/** The URL of an address, the inverse of {@link parseWireEndpoint}. */
export function formatWireEndpoint(a: WireAddress): string {
  if ('path' in a) return `unix:${a.path}`;
  return `tcp://${a.host.includes(':') ? `[${a.host}]` : a.host}:${a.port}`;
}
