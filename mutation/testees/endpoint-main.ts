// jcp/1 endpoints that break ONE rule on purpose, each a process of its own, for the harness's self-test of
// `certify --endpoint` (harness/self/rule-breaking-endpoints.test.ts): the reference endpoint (impl/wire over a durable
// record), its fault set through a seam the reference offers, never by editing impl/:
//   window-narrowed         decides by a window 10 s narrower than the 300 s the harness is told (jcp §11 stale-request)
//   cap-edge-refused        caps a message body one byte below the 1 MiB the harness is told (jcp §11 reject-oversize)
//   write-behind[:ms]       writes its record ms (default 10) behind each answer (jcp §4.11, §11 record before deciding)
//   second-writer-allowed   takes no exclusive claim, so a second instance opens the held record (jcp §4.11 one writer)
// Usage: tsx mutation/testees/endpoint-main.ts <fault> <tcp://host:port | unix:/path> --record <file>
// Prints "listening <url> steward <did>" (as impl/wire/main.ts does) and serves until killed; exit 2 on bad usage.
import { deriveSeed, keyPairFromSeed } from '../../impl/identity/ed25519.ts';
import { formatWireEndpoint, parseWireEndpoint } from '../../impl/wire/address.ts';
import { openDurablePoint } from '../../impl/durable/point.ts';
import { durableWireGate } from '../../impl/wire/durable-gate.ts';
import { WIRE_FRESHNESS_WINDOW_S, WIRE_MAX_MESSAGE_BYTES } from '../../impl/wire/codec.ts';
import { createWireServer } from '../../impl/wire/server.ts';
import { writeBehindIo } from './process-faults.ts';

export const ENDPOINT_FAULTS = ['window-narrowed', 'cap-edge-refused', 'write-behind', 'second-writer-allowed'] as const;

const [variant, url, flag, record] = process.argv.slice(2);
const [fault, gap] = (variant ?? '').split(':') as [string, string | undefined];
const behindMs = fault === 'write-behind' && gap !== undefined && /^\d{1,5}$/.test(gap) ? Number(gap) : 10;
if (!(ENDPOINT_FAULTS as readonly string[]).includes(fault) || (gap !== undefined && fault !== 'write-behind') || !url || flag !== '--record' || !record) {
  process.stderr.write(`endpoint-main: usage: <${ENDPOINT_FAULTS.join(' | ')}> <url> --record <file>\n`);
  process.exit(2);
}
const steward = keyPairFromSeed(deriveSeed('steward'));
const point = openDurablePoint({
  path: record,
  steward,
  holder: `rule-breaking endpoint (${variant}) pid ${process.pid}`,
  ...(fault === 'write-behind' ? { io: writeBehindIo(behindMs) } : {}),
  ...(fault === 'second-writer-allowed' ? { exclusivity: { mechanism: 'none (claims nothing)', claim: () => ({ ok: true as const }) } } : {}),
});
const server = createWireServer({
  gate: durableWireGate(point, steward),
  ...(fault === 'window-narrowed' ? { window_s: WIRE_FRESHNESS_WINDOW_S - 10n } : {}),
  ...(fault === 'cap-edge-refused' ? { maxMessageBytes: WIRE_MAX_MESSAGE_BYTES - 1 } : {}),
});
const any = /^tcp:\/\/(.+):0$/.exec(url);
const at = await server.listen(any ? { host: any[1]!, port: 0 } : parseWireEndpoint(url));
console.log(`listening ${formatWireEndpoint(at)} steward ${steward.did}`);
