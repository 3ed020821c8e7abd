// Testees that misbehave on purpose, for the harness's own tests: the reference behind the testee protocol with ONE
// fault, chosen by the first argument. Rule breakers (the suite must flag each on the clause it broke, and nowhere
// else) and program faults (the harness must survive each and say what happened):
//   debit-on-deny            a denied call still debits its cost (jcp §7, C3)
//   drop-inherited-caveat    attenuation drops the parent's caveats (jcp §4.9, C7)
//   accept-non-canonical     cbor.check accepts any well-formed CBOR, canonical or not (jcp §3, §11)
//   no-payload-hash          receipts are sealed without payload_hash (jcp §8, C23)
//   slow:<op>                answers <op> after 60 s (a timeout)
//   crash:<op>               exits on <op> (a crash)
//   garbage:<op>             answers <op> with a non-canonical frame
//   oversize:<op>            answers <op> with a frame header declaring 2 GiB
//   exit-early               exits before the handshake
// and the clause mutants of mutation/catalog.ts, by id (built in ./registry.ts); an unknown non-empty id exits 2.
import { decode as laxDecode } from 'cborg';
import { createReferenceAdapter } from '../../harness/adapter/reference.ts';
import { respond, type Adapter } from '../../harness/adapter/respond.ts';
import { encodeFrame, FrameReader } from '../../harness/protocol/framing.ts';
import { LEGACY_VARIANTS, MUTANT_BUILDERS } from './registry.ts';
import {
  decodeCanonical,
  decodeSign1,
  encodeCanonical,
  grantId,
  JcpError,
  keyPairFromSeed,
  parseCaveats,
  parseSignedGrant,
  signedGrantToCbor,
  signGrant,
  signSign1,
  stewardKid,
  defaultEd25519,
  type CborInput,
  type CborMap,
  type CborValue,
  type Grant,
  type KeyPair,
} from '../../impl/index.ts';

const variant = process.argv[2] ?? '';
const [fault, faultOp] = variant.split(':') as [string, string | undefined];

if (fault === 'exit-early') process.exit(4);
// clause mutants (issue 7 item 4): any other id must be a known one, so a typo never serves the faithful reference
const PROGRAM_FAULTS = ['slow', 'crash', 'garbage', 'oversize'];
if (variant !== '' && !PROGRAM_FAULTS.includes(fault) && !(LEGACY_VARIANTS as readonly string[]).includes(variant) && !MUTANT_BUILDERS[variant]) {
  process.stderr.write(`variant-main: unknown variant ${variant}\n`);
  process.exit(2);
}

/** A lenient CBOR reader standing in for a non-strict implementation: cborg's lenient defaults, values mapped to ours. */
function lenient(b: Uint8Array): CborValue {
  const conv = (v: unknown): CborValue => {
    if (v instanceof Uint8Array) return v;
    if (Array.isArray(v)) return v.map(conv);
    if (v instanceof Map) return new Map([...v].map(([k, x]) => [conv(k), conv(x)]));
    if (typeof v === 'object' && v !== null) return new Map(Object.entries(v).map(([k, x]) => [k, conv(x)]));
    if (typeof v === 'number' && !Number.isSafeInteger(v)) throw new JcpError('ERR_CBOR_FLOAT', 'a float');
    if (typeof v === 'number' || typeof v === 'bigint' || typeof v === 'string') return v;
    throw new JcpError('ERR_CBOR_SIMPLE_VALUE', 'a simple value');
  };
  try {
    return conv(laxDecode(b, { useMaps: true }));
  } catch (e) {
    if (e instanceof JcpError) throw e;
    throw new JcpError('ERR_CBOR_TRUNCATED', String(e));
  }
}

function wrap(base: Adapter): Adapter {
  const stewards = new Map<string, KeyPair>();
  const extraSpend = new Map<string, bigint>();
  return {
    handle(op: string, args: CborMap): CborInput {
      switch (fault) {
        case 'debit-on-deny': {
          const out = base.handle(op, args) as Record<string, unknown>;
          if (op === 'point.decide' && out['verdict'] === 'deny') {
            const chain = args.get('chain') as Uint8Array[];
            const leaf = grantId(parseSignedGrant(decodeCanonical(chain[chain.length - 1]!)).grant);
            const uj = (args.get('cost') as CborMap).get('uj');
            const k = `${String(args.get('point'))}|${leaf}`;
            extraSpend.set(k, (extraSpend.get(k) ?? 0n) + BigInt(uj as number | bigint));
          }
          if (op === 'point.spent') {
            const k = `${String(args.get('point'))}|${String(args.get('grant_id'))}`;
            return { spent_uj: BigInt(out['spent_uj'] as number | bigint) + (extraSpend.get(k) ?? 0n) };
          }
          return out as CborInput;
        }
        case 'drop-inherited-caveat': {
          const out = base.handle(op, args) as Record<string, unknown>;
          if (op !== 'grant.attenuate') return out as CborInput;
          const child = parseSignedGrant(decodeCanonical(out['signed_grant'] as Uint8Array)).grant;
          const added = (args.get('child') as CborMap).get('add_caveats');
          const own = added === undefined ? [] : parseCaveats(added);
          const { caveats: _dropped, ...rest } = child;
          const g: Grant = own.length ? { ...rest, caveats: own } : rest;
          const sg = signGrant(g, keyPairFromSeed(args.get('holder_seed') as Uint8Array));
          return { signed_grant: encodeCanonical(signedGrantToCbor(sg)), grant_id: grantId(g) };
        }
        case 'accept-non-canonical':
          if (op === 'cbor.check') return { canonical: encodeCanonical(lenient(args.get('bytes') as Uint8Array) as CborInput) };
          return base.handle(op, args);
        case 'no-payload-hash': {
          // seals receipts without payload_hash (its verifier is the reference's, unchanged)
          const out = base.handle(op, args) as Record<string, unknown>;
          if (op === 'point.new') stewards.set(out['point'] as string, keyPairFromSeed(args.get('steward_seed') as Uint8Array));
          if (op === 'point.decide') {
            const key = stewards.get(String(args.get('point')))!;
            const s = decodeSign1(out['receipt'] as Uint8Array);
            const core = decodeCanonical(s.payload) as CborMap;
            core.delete('payload_hash');
            return { ...out, receipt: signSign1(encodeCanonical(core), stewardKid(key.did), key.seed, defaultEd25519()) };
          }
          return out as CborInput;
        }
        default:
          return base.handle(op, args);
      }
    },
  };
}

const built = MUTANT_BUILDERS[variant]; // a clause mutant, or undefined for the variants above
const adapter = built ? built(createReferenceAdapter()) : wrap(createReferenceAdapter());
const reader = new FrameReader();
process.stdin.on('data', (chunk: Buffer) => {
  for (const req of reader.push(new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength)) as CborMap[]) {
    const op = req.get('op');
    if (op === faultOp) {
      if (fault === 'crash') process.exit(70);
      if (fault === 'slow') {
        setTimeout(() => process.stdout.write(encodeFrame(respond(adapter, req))), 60_000);
        continue;
      }
      if (fault === 'garbage') {
        process.stdout.write(Uint8Array.of(0, 0, 0, 2, 0x18, 0x00));
        continue;
      }
      if (fault === 'oversize') {
        process.stdout.write(Uint8Array.of(0x80, 0, 0, 0, 1, 2, 3));
        continue;
      }
    }
    process.stdout.write(encodeFrame(respond(adapter, req)));
  }
});
process.stdin.on('end', () => process.exit(0));
