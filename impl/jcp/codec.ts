// jcp §3, §4, §4.3, §6: the canonical CBOR shape of grants, frames and revocations, and strict parsing at the boundary.
// Byte shapes the spec does not fix are fixed here once (ARCHITECTURE.md): every object is a text-keyed map named by the
// spec's field names; content ids and DIDs are text; nonces are byte strings; integers are uints; a caveat is a one-entry
// map {Variant: parameter}; a signed object is {<object>: map, signature: bstr(64)}.
// jcp §4.10: a label is {integrity: "principal"|"untrusted", origins: [text…]|"any", readers: [did…]|"all"}, its sets
// sorted and unique; a FlowBelow caveat is {FlowBelow: {ceiling: label, tainted_budget_uj?: uint}}.
import type { CborInput, CborMap, CborValue } from '../cbor/index.ts';
import { JcpError, type JcpErrorCode } from '../errors.ts';
import { isDidKey } from '../identity/did-key.ts';
import { isContentId } from './content-id.ts';
import {
  CAVEAT_VARIANTS,
  FRAME_KINDS,
  type Caveat,
  type FlowCeiling,
  type Frame,
  type Grant,
  type Label,
  type Revocation,
  type SignedGrant,
  type SignedRevocation,
} from './types.ts';

const U64_MAX = (1n << 64n) - 1n;

// ---- to CBOR -------------------------------------------------------------------------------------------------------

/** The CBOR value of a flow label (jcp §4.10). */
export function labelToCbor(l: Label): CborInput {
  return {
    integrity: l.integrity,
    origins: l.origins === 'any' ? 'any' : [...l.origins],
    readers: l.readers === 'all' ? 'all' : [...l.readers],
  };
}

function flowCeilingToCbor(f: FlowCeiling): CborInput {
  return { ceiling: labelToCbor(f.ceiling), tainted_budget_uj: f.tainted_budget_uj };
}

/** The CBOR value of a caveat: a one-entry map {Variant: parameter}. */
export function caveatToCbor(c: Caveat): CborInput {
  if ('FlowBelow' in c) return { FlowBelow: flowCeilingToCbor(c.FlowBelow) };
  const [k, v] = Object.entries(c)[0] as [string, CborInput];
  return { [k]: Array.isArray(v) ? [...(v as readonly CborInput[])] : v };
}

/** The CBOR value of a grant; absent optional fields (and an empty caveat list) are omitted (jcp §4). */
export function grantToCbor(g: Grant): CborInput {
  return {
    issuer: g.issuer,
    subject: g.subject,
    capability: { resource: g.capability.resource, actions: [...g.capability.actions] },
    budget_uj: g.budget_uj,
    budget_funds: g.budget_funds === undefined ? undefined : { currency: g.budget_funds.currency, minor: g.budget_funds.minor },
    // jcp §4.9: "An empty caveat set is omitted from the canonical encoding"
    caveats: g.caveats === undefined || g.caveats.length === 0 ? undefined : g.caveats.map(caveatToCbor),
    expiry: g.expiry,
    parent: g.parent,
    delegate_depth: g.delegate_depth,
    nonce: g.nonce,
  };
}

/** The CBOR value of a signed grant. */
export function signedGrantToCbor(sg: SignedGrant): CborInput {
  return { grant: grantToCbor(sg.grant), signature: sg.signature };
}

/** The CBOR value of a frame; an absent model is omitted (jcp §6). */
export function frameToCbor(f: Frame): CborInput {
  return {
    kind: f.kind,
    trust: f.trust,
    grant_id: f.grant_id,
    action: f.action,
    resource: f.resource,
    payload_hash: f.payload_hash,
    model: f.model,
  };
}

/** The CBOR value of a revocation. */
export function revocationToCbor(r: Revocation): CborInput {
  return { grant_id: r.grant_id, revoked_by: r.revoked_by, nonce: r.nonce };
}

/** The CBOR value of a signed revocation. */
export function signedRevocationToCbor(sr: SignedRevocation): CborInput {
  return { revocation: revocationToCbor(sr.revocation), signature: sr.signature };
}

// ---- from CBOR (strict) --------------------------------------------------------------------------------------------

type Code = Extract<JcpErrorCode, 'ERR_GRANT_MALFORMED' | 'ERR_FRAME_MALFORMED' | 'ERR_REVOCATION_MALFORMED' | 'ERR_BAD_ARGUMENT'>;

class Reader {
  constructor(
    private readonly code: Code,
    private readonly path: string,
  ) {}

  fail(msg: string, at = this.path): never {
    throw new JcpError(this.code, `${at}: ${msg}`, { path: at });
  }

  map(v: CborValue | undefined, allowed: readonly string[], at = this.path): CborMap {
    if (!(v instanceof Map)) this.fail('must be a map', at);
    for (const k of v.keys()) {
      if (typeof k !== 'string' || !allowed.includes(k)) this.fail(`unknown field ${JSON.stringify(typeof k === 'bigint' ? String(k) : k)}`, at);
    }
    return v;
  }

  text(m: CborMap, k: string, at: string): string {
    const v = m.get(k);
    if (typeof v !== 'string') this.fail(`${k} must be text`, at);
    return v;
  }

  uint(v: CborValue | undefined, at: string): bigint {
    if (typeof v === 'number' && Number.isSafeInteger(v) && v >= 0) return BigInt(v);
    if (typeof v === 'bigint' && v >= 0n && v <= U64_MAX) return v;
    return this.fail('must be an unsigned integer', at);
  }

  bytes(v: CborValue | undefined, len: number, at: string): Uint8Array {
    if (!(v instanceof Uint8Array)) this.fail(`must be a byte string of ${len} bytes`, at);
    if (v.length !== len) this.fail(`must be ${len} bytes, got ${v.length}`, at);
    return v;
  }

  did(v: CborValue | undefined, at: string): string {
    if (typeof v !== 'string' || !isDidKey(v)) this.fail('must be an Ed25519 did:key', at);
    return v;
  }

  cid(v: CborValue | undefined, at: string): string {
    if (!isContentId(v)) this.fail('must be a content id (64 lowercase hex digits)', at);
    return v as string;
  }

  texts(v: CborValue | undefined, at: string): string[] {
    if (!Array.isArray(v)) this.fail('must be an array of text', at);
    return v.map((x, i) => (typeof x === 'string' ? x : this.fail('must be text', `${at}[${i}]`)));
  }
}

const GRANT_FIELDS = ['issuer', 'subject', 'capability', 'budget_uj', 'budget_funds', 'caveats', 'expiry', 'parent', 'delegate_depth', 'nonce'];

function parseCaveat(r: Reader, v: CborValue, at: string): Caveat {
  const m = r.map(v, CAVEAT_VARIANTS, at);
  if (m.size !== 1) r.fail('a caveat is a map of exactly one variant', at);
  const [k, p] = [...m.entries()][0] as [string, CborValue];
  const pat = `${at}.${k}`;
  switch (k) {
    case 'ActionIn':
      return { ActionIn: Object.freeze(r.texts(p, pat)) };
    case 'PayloadIs':
      return { PayloadIs: r.cid(p, pat) };
    case 'CallerIs':
      return { CallerIs: r.did(p, pat) };
    case 'NotBefore':
      return { NotBefore: r.uint(p, pat) };
    case 'NotAfter':
      return { NotAfter: r.uint(p, pat) };
    case 'MaxCostUj':
      return { MaxCostUj: r.uint(p, pat) };
    case 'ModelIn': {
      if (!Array.isArray(p)) r.fail('must be an array of content ids', pat);
      return { ModelIn: Object.freeze(p.map((x, i) => r.cid(x, `${pat}[${i}]`))) };
    }
    case 'FlowBelow': {
      const fm = r.map(p, ['ceiling', 'tainted_budget_uj'], pat);
      const ceiling = readLabel(r, fm.get('ceiling'), `${pat}.ceiling`);
      return { FlowBelow: Object.freeze(fm.has('tainted_budget_uj') ? { ceiling, tainted_budget_uj: r.uint(fm.get('tainted_budget_uj'), `${pat}.tainted_budget_uj`) } : { ceiling }) };
    }
    default:
      return r.fail(`unknown caveat variant ${k}`, at);
  }
}

/** A set (sorted, unique text) or the one word naming its extreme (jcp §4.10: 'any' origins, 'all' readers). */
function readSet(r: Reader, v: CborValue | undefined, word: string, at: string, item: (x: CborValue, at: string) => string): readonly string[] | string {
  if (v === word) return word;
  if (!Array.isArray(v)) return r.fail(`must be an array of text or the word ${JSON.stringify(word)}`, at);
  const xs = v.map((x, i) => item(x, `${at}[${i}]`));
  for (let i = 1; i < xs.length; i++) {
    // one encoding per set: caveats compare by exact identity (jcp §4.9), so a set's order is fixed
    if (!(xs[i - 1]! < xs[i]!)) r.fail('must be sorted ascending without duplicates', `${at}[${i}]`);
  }
  return Object.freeze(xs);
}

function readLabel(r: Reader, v: CborValue | undefined, at: string): Label {
  const m = r.map(v, ['integrity', 'origins', 'readers'], at);
  const integrity = r.text(m, 'integrity', at);
  if (integrity !== 'principal' && integrity !== 'untrusted') r.fail('integrity must be principal or untrusted', `${at}.integrity`);
  const text = (x: CborValue, p: string): string => (typeof x === 'string' ? x : r.fail('must be text', p));
  const origins = readSet(r, m.get('origins'), 'any', `${at}.origins`, text) as Label['origins'];
  const readers = readSet(r, m.get('readers'), 'all', `${at}.readers`, (x, p) => r.did(x, p)) as Label['readers'];
  return Object.freeze({ integrity, origins, readers });
}

/** A flow label (jcp §4.10) from its CBOR value, e.g. a decision's argument label; throws ERR_BAD_ARGUMENT naming the field. */
export function parseLabel(v: CborValue, at = '$label'): Label {
  return readLabel(new Reader('ERR_BAD_ARGUMENT', at), v, at);
}

/** A list of caveats from its CBOR value (jcp §4.9), each validated; throws ERR_GRANT_MALFORMED naming the item. */
export function parseCaveats(v: CborValue, at = '$caveats'): readonly Caveat[] {
  const r = new Reader('ERR_GRANT_MALFORMED', at);
  if (!Array.isArray(v)) return r.fail('must be an array of caveats', at);
  return Object.freeze(v.map((c, i) => Object.freeze(parseCaveat(r, c, `${at}[${i}]`))));
}

/** A Grant from its CBOR value, validated field by field; throws ERR_GRANT_MALFORMED naming the field. */
export function parseGrant(v: CborValue, at = '$grant'): Grant {
  const r = new Reader('ERR_GRANT_MALFORMED', at);
  const m = r.map(v, GRANT_FIELDS);
  const capM = r.map(m.get('capability'), ['resource', 'actions'], `${at}.capability`);
  const g: {
    -readonly [K in keyof Grant]: Grant[K];
  } = {
    issuer: r.did(m.get('issuer'), `${at}.issuer`),
    subject: r.did(m.get('subject'), `${at}.subject`),
    capability: Object.freeze({
      resource: r.cid(capM.get('resource'), `${at}.capability.resource`),
      actions: Object.freeze(r.texts(capM.get('actions'), `${at}.capability.actions`)),
    }),
    budget_uj: r.uint(m.get('budget_uj'), `${at}.budget_uj`),
    expiry: r.uint(m.get('expiry'), `${at}.expiry`),
    nonce: r.bytes(m.get('nonce'), 16, `${at}.nonce`),
  };
  if (m.has('budget_funds')) {
    const f = r.map(m.get('budget_funds'), ['currency', 'minor'], `${at}.budget_funds`);
    g.budget_funds = Object.freeze({ currency: r.text(f, 'currency', `${at}.budget_funds`), minor: r.uint(f.get('minor'), `${at}.budget_funds.minor`) });
  }
  if (m.has('caveats')) {
    const cv = m.get('caveats');
    if (!Array.isArray(cv)) return r.fail('must be an array', `${at}.caveats`);
    // jcp §4.9: "An empty caveat set is omitted from the canonical encoding"
    if (cv.length === 0) r.fail('an empty caveat set must be omitted, not encoded', `${at}.caveats`);
    g.caveats = Object.freeze(cv.map((c, i) => Object.freeze(parseCaveat(r, c, `${at}.caveats[${i}]`))));
  }
  if (m.has('parent')) g.parent = r.cid(m.get('parent'), `${at}.parent`);
  if (m.has('delegate_depth')) g.delegate_depth = r.uint(m.get('delegate_depth'), `${at}.delegate_depth`);
  return Object.freeze(g);
}

/** A SignedGrant from its CBOR value. */
export function parseSignedGrant(v: CborValue, at = '$signed_grant'): SignedGrant {
  const r = new Reader('ERR_GRANT_MALFORMED', at);
  const m = r.map(v, ['grant', 'signature']);
  const grant = parseGrant(m.get('grant') as CborValue, `${at}.grant`);
  return Object.freeze({ grant, signature: r.bytes(m.get('signature'), 64, `${at}.signature`) });
}


/** A Frame from its CBOR value; throws ERR_FRAME_MALFORMED naming the field. */
export function parseFrame(v: CborValue, at = '$frame'): Frame {
  const r = new Reader('ERR_FRAME_MALFORMED', at);
  const m = r.map(v, ['kind', 'trust', 'grant_id', 'action', 'resource', 'payload_hash', 'model']);
  const kind = r.text(m, 'kind', at);
  if (!(FRAME_KINDS as readonly string[]).includes(kind)) r.fail(`kind must be one of ${FRAME_KINDS.join(', ')}`, `${at}.kind`);
  const trust = r.text(m, 'trust', at);
  if (trust !== 'control' && trust !== 'data') r.fail('trust must be control or data', `${at}.trust`);
  const f: { -readonly [K in keyof Frame]: Frame[K] } = {
    kind: kind as Frame['kind'],
    trust: trust as Frame['trust'],
    grant_id: r.cid(m.get('grant_id'), `${at}.grant_id`),
    action: r.text(m, 'action', at) || r.fail('action must not be empty', `${at}.action`),
    resource: r.cid(m.get('resource'), `${at}.resource`),
    payload_hash: r.cid(m.get('payload_hash'), `${at}.payload_hash`),
  };
  if (m.has('model')) f.model = r.cid(m.get('model'), `${at}.model`);
  return Object.freeze(f);
}

/** A SignedRevocation from its CBOR value; throws ERR_REVOCATION_MALFORMED naming the field. */
export function parseSignedRevocation(v: CborValue, at = '$signed_revocation'): SignedRevocation {
  const r = new Reader('ERR_REVOCATION_MALFORMED', at);
  const m = r.map(v, ['revocation', 'signature']);
  const rm = r.map(m.get('revocation'), ['grant_id', 'revoked_by', 'nonce'], `${at}.revocation`);
  const revocation = Object.freeze({
    grant_id: r.cid(rm.get('grant_id'), `${at}.revocation.grant_id`),
    revoked_by: r.did(rm.get('revoked_by'), `${at}.revocation.revoked_by`),
    nonce: r.bytes(rm.get('nonce'), 16, `${at}.revocation.nonce`),
  });
  return Object.freeze({ revocation, signature: r.bytes(m.get('signature'), 64, `${at}.signature`) });
}
