// The four rule-breaking variants mutation/testees/variant-main.ts has served since before the clause catalog
// (debit-on-deny, drop-inherited-caveat, accept-non-canonical, no-payload-hash), as one adapter wrapper, so the
// testee process and the in-process matrix (./mutant-adapter.ts) serve the same fault. Moved here unchanged.
import { decode as laxDecode } from 'cborg';
import type { Adapter } from '../../harness/adapter/respond.ts';
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

/** `base` with the legacy variant `fault` applied (any other fault: `base` unchanged). */
export function legacyVariant(base: Adapter, fault: string): Adapter {
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

