// The testee protocol's messages and their shapes (harness/PROTOCOL.md, harness/protocol/testee.cddl): one table that
// the drivers validate every message against, so a testee's drift is caught at the message that drifted.
import type { CborValue } from '../../impl/cbor/index.ts';
import { ERROR_CODES } from '../../impl/errors.ts';

/** The protocol version this suite speaks. A testee naming another is refused at the handshake. */
export const PROTOCOL_VERSION = 'jcp-testee/1';

/** A value's expected shape. */
export type Shape =
  | 'text'
  | 'uint'
  | 'bytes'
  | 'bytes16'
  | 'bytes32'
  | 'bytes64'
  | 'any'
  | { readonly enum: readonly string[] }
  | { readonly array: Shape; readonly min?: number }
  | { readonly map: Readonly<Record<string, Shape>>; readonly optional?: readonly string[] }
  | { readonly textMap: Shape };

const cid: Shape = 'text';
const did: Shape = 'text';
const PROVENANCE: Shape = { enum: ['HwShunt', 'ModelBased', 'Estimator'] };
const VERDICT: Shape = { enum: ['allow', 'deny'] };
const VALIDITY: Shape = { enum: ['valid', 'invalid'] };

const CAVEAT: Shape = 'any'; // a one-entry map {Variant: parameter}; its content is checked by the implementation under test
const GRANT_FIELDS: Shape = {
  map: {
    subject: did,
    capability: { map: { resource: cid, actions: { array: 'text' } } },
    budget_uj: 'uint',
    expiry: 'uint',
    nonce: 'bytes16',
    budget_funds: { map: { currency: 'text', minor: 'uint' } },
    caveats: { array: CAVEAT, min: 1 },
    delegate_depth: 'uint',
  },
  optional: ['budget_funds', 'caveats', 'delegate_depth'],
};
const CHILD_FIELDS: Shape = {
  map: {
    subject: did,
    actions: { array: 'text' },
    budget_uj: 'uint',
    expiry: 'uint',
    delegate_depth: 'uint',
    add_caveats: { array: CAVEAT },
    budget_funds: { map: { currency: 'text', minor: 'uint' } },
    nonce: 'bytes16',
  },
  optional: ['actions', 'budget_uj', 'expiry', 'delegate_depth', 'add_caveats', 'budget_funds'],
};
const MINTED: Shape = { map: { signed_grant: 'bytes', grant_id: cid } };
const FRAME: Shape = {
  map: { kind: 'text', trust: 'text', grant_id: 'text', action: 'text', resource: 'text', payload_hash: 'text', model: 'text' },
  optional: ['model'],
};
const COST: Shape = { map: { uj: 'uint', provenance: PROVENANCE, coverage: { enum: ['Partial'] } }, optional: ['coverage'] };

/** One operation: the shape of its arguments and of its result. */
export interface OpSpec {
  readonly args: Shape;
  readonly result: Shape;
  /** The class ids whose tests use it (informative). */
  readonly about: string;
}

/** Every operation of protocol jcp-testee/1. */
export const OPS: Readonly<Record<string, OpSpec>> = {
  hello: {
    about: 'handshake',
    args: { map: { protocol: 'text', suite: 'text' } },
    result: {
      map: { name: 'text', version: 'text', protocol: 'text', language: 'text', claims: { array: 'text' }, features: { array: 'text' } },
      optional: ['language', 'features'],
    },
  },
  'identity.from-seed': { about: 'jcp §2', args: { map: { seed: 'bytes32' } }, result: { map: { public_key: 'bytes32', did: did } } },
  'identity.parse-did': { about: 'jcp §2', args: { map: { did: 'text' } }, result: { map: { public_key: 'bytes32' } } },
  'ed25519.sign': { about: 'jcp §2', args: { map: { seed: 'bytes32', message: 'bytes' } }, result: { map: { signature: 'bytes64' } } },
  'ed25519.verify': {
    about: 'jcp §2',
    args: { map: { public_key: 'bytes', message: 'bytes', signature: 'bytes' } },
    result: { map: { verdict: VALIDITY } },
  },
  'cbor.check': { about: 'jcp §3, §11', args: { map: { bytes: 'bytes' } }, result: { map: { canonical: 'bytes' } } },
  'grant.mint': { about: 'jcp §4', args: { map: { issuer_seed: 'bytes32', grant: GRANT_FIELDS } }, result: MINTED },
  'grant.attenuate': {
    about: 'jcp §4.1, §4.4',
    args: { map: { parent: 'bytes', holder_seed: 'bytes32', child: CHILD_FIELDS } },
    result: MINTED,
  },
  'grant.shard': {
    about: 'jcp §4.5',
    args: { map: { parent: 'bytes', holder_seed: 'bytes32', slices: { array: { map: { subject: did, budget_uj: 'uint', nonce: 'bytes16' } }, min: 1 } } },
    result: { map: { grants: { array: MINTED } } },
  },
  'grant.verify': { about: 'jcp §4', args: { map: { signed_grant: 'bytes' } }, result: { map: { verdict: VALIDITY, grant_id: cid } } },
  'revocation.mint': {
    about: 'jcp §4.3',
    args: { map: { revoker_seed: 'bytes32', grant_id: cid, nonce: 'bytes16' } },
    result: { map: { signed_revocation: 'bytes' } },
  },
  'frame.check': { about: 'jcp §6', args: { map: { frame: 'bytes' } }, result: { map: { frame: FRAME } } },
  'point.new': {
    about: 'jcp §7',
    args: { map: { steward_seed: 'bytes32', trust_roots: { textMap: { array: did } } }, optional: ['trust_roots'] },
    result: { map: { point: 'text' } },
  },
  'point.trust-roots': { about: 'jcp §7 C15', args: { map: { point: 'text', resource: cid, roots: { array: did } } }, result: { map: {} } },
  'point.revoke': { about: 'jcp §4.3', args: { map: { point: 'text', revocation: 'bytes', grant: 'bytes' } }, result: { map: {} } },
  'point.decide': {
    about: 'jcp §7, §8',
    args: { map: { point: 'text', frame: FRAME, chain: { array: 'bytes', min: 1 }, caller: did, cost: COST, now_s: 'uint' } },
    result: { map: { verdict: VERDICT, deny_reason: 'text', receipt: 'bytes' }, optional: ['deny_reason'] },
  },
  'point.spent': { about: 'jcp §7', args: { map: { point: 'text', grant_id: cid } }, result: { map: { spent_uj: 'uint' } } },
  'receipt.verify': {
    about: 'jcp §8',
    args: { map: { receipt: 'bytes', steward: did }, optional: ['steward'] },
    result: { map: { core: { textMap: 'any' } } },
  },
};

/** The envelope of a request. */
export const REQUEST: Shape = { map: { seq: 'uint', op: 'text', args: 'any' } };

/** Problems with `v` against `shape`, each naming its path; empty when it conforms. */
export function validate(shape: Shape, v: CborValue | undefined, path = '$'): string[] {
  if (shape === 'any') return v === undefined ? [`${path}: missing`] : [];
  if (shape === 'text') return typeof v === 'string' ? [] : [`${path}: expected text`];
  if (shape === 'uint') {
    return (typeof v === 'number' && Number.isSafeInteger(v) && v >= 0) || (typeof v === 'bigint' && v >= 0n) ? [] : [`${path}: expected an unsigned integer`];
  }
  if (shape === 'bytes' || shape === 'bytes16' || shape === 'bytes32' || shape === 'bytes64') {
    if (!(v instanceof Uint8Array)) return [`${path}: expected a byte string`];
    const n = shape === 'bytes' ? undefined : Number(shape.slice(5));
    return n !== undefined && v.length !== n ? [`${path}: expected ${n} bytes, got ${v.length}`] : [];
  }
  if ('enum' in shape) return typeof v === 'string' && shape.enum.includes(v) ? [] : [`${path}: expected one of ${shape.enum.join(' | ')}`];
  if ('array' in shape) {
    if (!Array.isArray(v)) return [`${path}: expected an array`];
    const out = v.length < (shape.min ?? 0) ? [`${path}: expected at least ${shape.min} item(s)`] : [];
    v.forEach((x, i) => out.push(...validate(shape.array, x, `${path}[${i}]`)));
    return out;
  }
  if ('textMap' in shape) {
    if (!(v instanceof Map)) return [`${path}: expected a map`];
    const out: string[] = [];
    for (const [k, x] of v) {
      if (typeof k !== 'string') out.push(`${path}: a key is not text`);
      else out.push(...validate(shape.textMap, x, `${path}.${k}`));
    }
    return out;
  }
  if (!(v instanceof Map)) return [`${path}: expected a map`];
  const out: string[] = [];
  for (const k of v.keys()) if (typeof k !== 'string' || !(k in shape.map)) out.push(`${path}: unexpected field ${String(k)}`);
  for (const [k, s] of Object.entries(shape.map)) {
    if (!v.has(k)) {
      if (!shape.optional?.includes(k)) out.push(`${path}.${k}: missing`);
      continue;
    }
    out.push(...validate(s, v.get(k), `${path}.${k}`));
  }
  return out;
}

/** Problems with a response to `op` (any of its three forms), against the op's result shape. */
export function validateResponse(op: string, seq: number, v: CborValue): string[] {
  if (!(v instanceof Map)) return ['$: a response must be a map'];
  const out: string[] = [];
  const got = v.get('seq');
  if (got !== seq) out.push(`$.seq: expected ${seq}, got ${String(got)}`);
  const forms = ['ok', 'error', 'unimplemented'].filter((k) => v.has(k));
  if (forms.length !== 1) return [...out, '$: a response carries exactly one of ok, error, unimplemented'];
  for (const k of v.keys()) if (k !== 'seq' && k !== forms[0]) out.push(`$: unexpected field ${String(k)}`);
  const form = forms[0]!;
  if (form === 'ok') {
    const spec = OPS[op];
    if (spec) out.push(...validate(spec.result, v.get('ok'), '$.ok'));
  } else if (form === 'error') {
    out.push(...validate({ map: { code: { enum: ERROR_CODES }, message: 'text' } }, v.get('error'), '$.error'));
  } else out.push(...validate('text', v.get('unimplemented'), '$.unimplemented'));
  return out;
}
