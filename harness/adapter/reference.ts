// The reference implementation behind the testee protocol (harness/PROTOCOL.md): one `handle` that answers every
// operation. The in-process driver calls it directly; harness/adapter/testee-main.ts serves it over stdio, so the
// suite can run the reference as a separate process exactly as it runs anyone else's implementation.
import {
  attenuate,
  createEnforcementPoint,
  decodeCanonical,
  encodeCanonical,
  frameToCbor,
  grantId,
  JcpError,
  keyPairFromSeed,
  mintGrant,
  mintRevocation,
  parseCaveats,
  parseFrame,
  parseSignedGrant,
  parseSignedRevocation,
  publicKeyFromDid,
  shard,
  signedGrantToCbor,
  signedRevocationToCbor,
  verifyGrantSignature,
  verifyReceipt,
  coreToCbor,
  defaultEd25519,
  type CborInput,
  type CborMap,
  type CborValue,
  type Caveat,
  type EnforcementPoint,
  type SignedGrant,
} from '../../impl/index.ts';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PROTOCOL_VERSION } from '../protocol/schema.ts';

/** The project root: the nearest folder above this module holding spec-map/implemented.json (works bundled too). */
function findRoot(from: string): string {
  let dir = from;
  for (;;) {
    if (existsSync(join(dir, 'spec-map', 'implemented.json')) && existsSync(join(dir, 'package.json'))) return dir;
    const up = dirname(dir);
    if (up === dir) throw new Error(`jcp reference testee: no project root above ${from}`);
    dir = up;
  }
}
const ROOT = findRoot(dirname(fileURLToPath(import.meta.url)));

/** What the reference says of itself at the handshake. */
export const REFERENCE_INFO = {
  name: 'jcp-reference',
  version: (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string }).version,
  language: 'TypeScript',
  // the classes the reference claims are the spec map's implemented classes: one list, kept in spec-map/
  // JCP_EXTRA_CLAIMS (comma list) adds classes under development, so their tests run before the class is claimed
  claims: [
    ...(JSON.parse(readFileSync(join(ROOT, 'spec-map', 'implemented.json'), 'utf8')) as { classes: string[] }).classes,
    ...(process.env['JCP_EXTRA_CLAIMS']?.split(',').filter(Boolean) ?? []),
  ],
  features: ['caveats'],
} as const;

/** Thrown by a handler for an operation it does not implement. */
export class Unimplemented extends Error {
  override readonly name = 'Unimplemented';
}

function arg(args: CborMap, k: string): CborValue {
  const v = args.get(k);
  if (v === undefined) throw new JcpError('ERR_BAD_ARGUMENT', `argument ${k} is missing`);
  return v;
}
const bytes = (args: CborMap, k: string): Uint8Array => {
  const v = arg(args, k);
  if (!(v instanceof Uint8Array)) throw new JcpError('ERR_BAD_ARGUMENT', `argument ${k} must be a byte string`);
  return v;
};
const text = (args: CborMap, k: string): string => {
  const v = arg(args, k);
  if (typeof v !== 'string') throw new JcpError('ERR_BAD_ARGUMENT', `argument ${k} must be text`);
  return v;
};
const uint = (v: CborValue | undefined, k: string): bigint => {
  if (typeof v === 'number' && Number.isSafeInteger(v) && v >= 0) return BigInt(v);
  if (typeof v === 'bigint' && v >= 0n) return v;
  throw new JcpError('ERR_BAD_ARGUMENT', `argument ${k} must be an unsigned integer`);
};
const map = (v: CborValue | undefined, k: string): CborMap => {
  if (!(v instanceof Map)) throw new JcpError('ERR_BAD_ARGUMENT', `argument ${k} must be a map`);
  return v;
};
const texts = (v: CborValue | undefined, k: string): string[] => {
  if (!Array.isArray(v) || !v.every((x) => typeof x === 'string')) throw new JcpError('ERR_BAD_ARGUMENT', `argument ${k} must be an array of text`);
  return v as string[];
};

/** A money ceiling {currency, minor} from its CBOR value. */
function funds(v: CborValue | undefined): { currency: string; minor: bigint } {
  const m = map(v, 'budget_funds');
  return { currency: text(m, 'currency'), minor: uint(m.get('minor'), 'budget_funds.minor') };
}

function signedGrantFromBytes(b: Uint8Array): SignedGrant {
  return parseSignedGrant(decodeCanonical(b));
}

function minted(sg: SignedGrant): CborInput {
  return { signed_grant: encodeCanonical(signedGrantToCbor(sg)), grant_id: grantId(sg.grant) };
}

/** A fresh adapter: its enforcement points live as long as it does. */
export function createReferenceAdapter(): { handle(op: string, args: CborMap): CborInput } {
  const points = new Map<string, EnforcementPoint>();
  let nextPoint = 1;
  const point = (args: CborMap): EnforcementPoint => {
    const id = text(args, 'point');
    const p = points.get(id);
    if (!p) throw new JcpError('ERR_BAD_ARGUMENT', `no enforcement point ${id}`);
    return p;
  };

  const handlers: Record<string, (a: CborMap) => CborInput> = {
    hello: () => ({ ...REFERENCE_INFO, protocol: PROTOCOL_VERSION, claims: [...REFERENCE_INFO.claims], features: [...REFERENCE_INFO.features] }),
    'identity.from-seed': (a) => {
      const k = keyPairFromSeed(bytes(a, 'seed'));
      return { public_key: k.publicKey, did: k.did };
    },
    'identity.parse-did': (a) => ({ public_key: publicKeyFromDid(text(a, 'did')) }),
    'ed25519.sign': (a) => ({ signature: defaultEd25519().sign(bytes(a, 'seed'), bytes(a, 'message')) }),
    'ed25519.verify': (a) => ({
      verdict: defaultEd25519().verify(bytes(a, 'signature'), bytes(a, 'message'), bytes(a, 'public_key')) ? 'valid' : 'invalid',
    }),
    'cbor.check': (a) => ({ canonical: encodeCanonical(decodeCanonical(bytes(a, 'bytes'))) }),
    'grant.mint': (a) => {
      const issuer = keyPairFromSeed(bytes(a, 'issuer_seed'));
      const g = map(a.get('grant'), 'grant');
      const cap = map(g.get('capability'), 'grant.capability');
      const caveats: Caveat[] | undefined = g.has('caveats') ? parseCaveats(g.get('caveats')!) : undefined;
      const sg = mintGrant(issuer, {
        subject: text(g, 'subject'),
        resource: text(cap, 'resource'),
        actions: texts(cap.get('actions'), 'grant.capability.actions'),
        budget_uj: uint(g.get('budget_uj'), 'grant.budget_uj'),
        expiry: uint(g.get('expiry'), 'grant.expiry'),
        nonce: bytes(g, 'nonce'),
        ...(g.has('budget_funds') ? { budget_funds: funds(g.get('budget_funds')) } : {}),
        ...(caveats ? { caveats } : {}),
        ...(g.has('delegate_depth') ? { delegate_depth: uint(g.get('delegate_depth'), 'grant.delegate_depth') } : {}),
      });
      return minted(sg);
    },
    'grant.attenuate': (a) => {
      const parent = signedGrantFromBytes(bytes(a, 'parent'));
      const holder = keyPairFromSeed(bytes(a, 'holder_seed'));
      const c = map(a.get('child'), 'child');
      const sg = attenuate(parent, holder, {
        subject: text(c, 'subject'),
        nonce: bytes(c, 'nonce'),
        ...(c.has('actions') ? { actions: texts(c.get('actions'), 'child.actions') } : {}),
        ...(c.has('budget_uj') ? { budget_uj: uint(c.get('budget_uj'), 'child.budget_uj') } : {}),
        ...(c.has('expiry') ? { expiry: uint(c.get('expiry'), 'child.expiry') } : {}),
        ...(c.has('delegate_depth') ? { delegate_depth: uint(c.get('delegate_depth'), 'child.delegate_depth') } : {}),
        ...(c.has('add_caveats') ? { add_caveats: parseCaveats(c.get('add_caveats')!) } : {}),
        ...(c.has('budget_funds') ? { budget_funds: funds(c.get('budget_funds')) } : {}),
      });
      return minted(sg);
    },
    'grant.shard': (a) => {
      const parent = signedGrantFromBytes(bytes(a, 'parent'));
      const holder = keyPairFromSeed(bytes(a, 'holder_seed'));
      const slices = arg(a, 'slices');
      if (!Array.isArray(slices)) throw new JcpError('ERR_BAD_ARGUMENT', 'slices must be an array');
      const out = shard(
        parent,
        holder,
        slices.map((s, i) => {
          const m = map(s, `slices[${i}]`);
          return { subject: text(m, 'subject'), budget_uj: uint(m.get('budget_uj'), 'budget_uj'), nonce: bytes(m, 'nonce') };
        }),
      );
      return { grants: out.map(minted) };
    },
    'grant.verify': (a) => {
      const sg = signedGrantFromBytes(bytes(a, 'signed_grant'));
      return { verdict: verifyGrantSignature(sg) ? 'valid' : 'invalid', grant_id: grantId(sg.grant) };
    },
    'revocation.mint': (a) => {
      const r = mintRevocation(keyPairFromSeed(bytes(a, 'revoker_seed')), text(a, 'grant_id'), bytes(a, 'nonce'));
      return { signed_revocation: encodeCanonical(signedRevocationToCbor(r)) };
    },
    'frame.check': (a) => ({ frame: frameToCbor(parseFrame(decodeCanonical(bytes(a, 'frame')))) }),
    'point.new': (a) => {
      const roots: Record<string, string[]> = {};
      if (a.has('trust_roots')) for (const [k, v] of map(a.get('trust_roots'), 'trust_roots')) roots[String(k)] = texts(v, `trust_roots.${String(k)}`);
      const id = `p${nextPoint++}`;
      points.set(id, createEnforcementPoint({ steward: keyPairFromSeed(bytes(a, 'steward_seed')), trustRoots: roots }));
      return { point: id };
    },
    'point.trust-roots': (a) => {
      point(a).setTrustRoots(text(a, 'resource'), texts(a.get('roots'), 'roots'));
      return {};
    },
    'point.revoke': (a) => {
      const p = point(a);
      p.revoke(parseSignedRevocation(decodeCanonical(bytes(a, 'revocation'))), signedGrantFromBytes(bytes(a, 'grant')));
      return {};
    },
    'point.decide': (a) => {
      const p = point(a);
      const chainV = arg(a, 'chain');
      if (!Array.isArray(chainV)) throw new JcpError('ERR_BAD_ARGUMENT', 'chain must be an array of signed grants');
      const cost = map(a.get('cost'), 'cost');
      const coverage = cost.get('coverage');
      const d = p.decide({
        frame: parseFrame(map(a.get('frame'), 'frame')),
        chain: chainV.map((b, i) => {
          if (!(b instanceof Uint8Array)) throw new JcpError('ERR_BAD_ARGUMENT', `chain[${i}] must be a byte string`);
          return signedGrantFromBytes(b);
        }),
        caller: text(a, 'caller'),
        cost: { uj: uint(cost.get('uj'), 'cost.uj'), provenance: text(cost, 'provenance') as never, ...(coverage !== undefined ? { coverage: coverage as 'Partial' } : {}) },
        now_s: uint(a.get('now_s'), 'now_s'),
      });
      return { verdict: d.verdict, ...(d.deny_reason !== undefined ? { deny_reason: d.deny_reason } : {}), receipt: d.receipt };
    },
    'point.spent': (a) => ({ spent_uj: point(a).spent(text(a, 'grant_id')) }),
    'receipt.verify': (a) => {
      const steward = a.get('steward');
      const v = verifyReceipt(bytes(a, 'receipt'), typeof steward === 'string' ? { steward } : {});
      return { core: coreToCbor(v.core) };
    },
  };

  return {
    handle(op: string, args: CborMap): CborInput {
      const h = handlers[op];
      if (!h) throw new Unimplemented(`operation ${op} is not implemented`);
      return h(args);
    },
  };
}
