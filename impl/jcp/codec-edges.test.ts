// Edge cases of the jcp grant, frame and revocation codec (impl/jcp/codec.ts): the canonical CBOR shapes of jcp §4, §4.3,
// §4.9, §4.10 and §6 (absent optional fields omitted, byte shapes as the module header and ARCHITECTURE.md fix them),
// and strict parsing at the boundary: each refusal's code, message and path, the unsigned-integer range of jcp §3
// (exactly at 2^64−1, one past it), the fixed lengths of nonces and signatures, and the one encoding of a label's sets.
import { describe, expect, it } from 'vitest';
import { lazyKey, thrown, TOOL_RESOURCE } from '../_test-support.ts';
import { toHex } from '../bytes.ts';
import { decodeCanonical, encodeCanonical, type CborInput, type CborValue } from '../cbor/index.ts';
import {
  caveatToCbor,
  frameToCbor,
  grantToCbor,
  labelToCbor,
  parseCaveats,
  parseFrame,
  parseGrant,
  parseLabel,
  parseSignedGrant,
  parseSignedRevocation,
  revocationToCbor,
  signedGrantToCbor,
  signedRevocationToCbor,
} from './codec.ts';
import { contentId } from './content-id.ts';
import type { Caveat, Frame, Grant, Label, Revocation } from './types.ts';

const alice = lazyKey('alice');
const bob = lazyKey('bob');
const carol = lazyKey('carol');
const U64_MAX = (1n << 64n) - 1n;
const cid = (n: number) => contentId({ n });
const nonce = (fill: number, len = 16) => new Uint8Array(len).fill(fill);

/** The CBOR value a decoder hands a parser for `x` (integers as number when safe, bigint beyond). */
const wire = (x: CborInput): CborValue => decodeCanonical(encodeCanonical(x));
/** Canonical bytes as hex, to compare two encodings. */
const hex = (x: CborInput) => toHex(encodeCanonical(x));
/** What a refusal says: its code, its message (which begins with the code) and its detail. */
const said = (fn: () => unknown) => {
  const e = thrown(fn);
  return { code: e.code, message: e.message, detail: e.detail };
};
/** The refusal `fn` throws as `code: path: msg`, with the path as its detail. */
const refusal = (code: string, path: string, msg: string) => ({ code, message: `${code}: ${path}: ${msg}`, detail: { path } });
const G = (path: string, msg: string) => refusal('ERR_GRANT_MALFORMED', path, msg);
const F = (path: string, msg: string) => refusal('ERR_FRAME_MALFORMED', path, msg);
const R = (path: string, msg: string) => refusal('ERR_REVOCATION_MALFORMED', path, msg);
const L = (path: string, msg: string) => refusal('ERR_BAD_ARGUMENT', path, msg);

/** A valid grant's fields, as the wire carries them (no optional field). */
const grantFields = (): Record<string, CborInput> => ({
  issuer: alice.did,
  subject: bob.did,
  capability: { resource: TOOL_RESOURCE, actions: ['call', 'read'] },
  budget_uj: 1000n,
  expiry: 0n,
  nonce: nonce(7),
});
/** A valid frame's fields, as the wire carries them (no model). */
const frameFields = (): Record<string, CborInput> => ({
  kind: 'tool-call',
  trust: 'control',
  grant_id: cid(1),
  action: 'call',
  resource: TOOL_RESOURCE,
  payload_hash: cid(2),
});
/** A valid signed revocation, as the wire carries it. */
const revFields = (): Record<string, CborInput> => ({
  revocation: { grant_id: cid(1), revoked_by: alice.did, nonce: nonce(3) },
  signature: nonce(9, 64),
});
/** A grant parsed from `fields` with one caveat list. */
const withCaveats = (caveats: CborInput) => parseGrant(wire({ ...grantFields(), caveats }));
/** A valid label, as the wire carries it. */
const labelFields = (): Record<string, CborInput> => ({ integrity: 'untrusted', origins: ['mail', 'web'], readers: 'all' });

describe('jcp §4 grantToCbor: the canonical shape of a grant', () => {
  it('absent optional fields and an empty caveat list are omitted: exactly the six required fields', () => {
    const g: Grant = { issuer: alice.did, subject: bob.did, capability: { resource: TOOL_RESOURCE, actions: ['call', 'read'] }, budget_uj: 1000n, expiry: 0n, nonce: nonce(7) };
    expect(hex(grantToCbor(g))).toBe(hex(grantFields()));
    expect(hex(grantToCbor({ ...g, caveats: [] }))).toBe(hex(grantFields()));
  });

  it('every optional field present is carried by its spec name, and reads back equal', () => {
    const g: Grant = {
      issuer: alice.did,
      subject: bob.did,
      capability: { resource: TOOL_RESOURCE, actions: ['call'] },
      budget_uj: 5n,
      budget_funds: { currency: 'EUR', minor: 250n },
      caveats: [{ ActionIn: ['call'] }, { NotAfter: 9n }],
      expiry: 100n,
      parent: cid(4),
      delegate_depth: 0n,
      nonce: nonce(2),
    };
    // the grant's own field names are the spec's, so the map is the grant's fields as they stand
    const explicit = { ...g } as unknown as CborInput;
    expect(hex(grantToCbor(g))).toBe(hex(explicit));
    expect(parseGrant(wire(grantToCbor(g)))).toEqual(g);
  });

  it('a signed grant is {grant, signature}', () => {
    const g = parseGrant(wire(grantFields()));
    const sg = { grant: g, signature: nonce(5, 64) };
    expect(hex(signedGrantToCbor(sg))).toBe(hex({ grant: grantFields(), signature: nonce(5, 64) }));
    expect(parseSignedGrant(wire(signedGrantToCbor(sg)))).toEqual(sg);
  });
});

describe('jcp §4.9, §4.10 caveatToCbor / labelToCbor: one-entry maps, sets as given or the extreme word', () => {
  it('each variant is {Variant: parameter}, an array parameter carried whole', () => {
    const cases: [Caveat, CborInput][] = [
      [{ ActionIn: ['call', 'read'] }, { ActionIn: ['call', 'read'] }],
      [{ PayloadIs: cid(1) }, { PayloadIs: cid(1) }],
      [{ CallerIs: bob.did }, { CallerIs: bob.did }],
      [{ NotBefore: 3n }, { NotBefore: 3n }],
      [{ NotAfter: 4n }, { NotAfter: 4n }],
      [{ MaxCostUj: 5n }, { MaxCostUj: 5n }],
      [{ ModelIn: [cid(1), cid(2)] }, { ModelIn: [cid(1), cid(2)] }],
    ];
    for (const [c, want] of cases) expect(hex(caveatToCbor(c)), Object.keys(c)[0]).toBe(hex(want));
  });

  it('FlowBelow carries its ceiling label, and its tainted budget only when it has one', () => {
    const ceiling: Label = { integrity: 'untrusted', origins: ['web'], readers: [bob.did] };
    const lab = { integrity: 'untrusted', origins: ['web'], readers: [bob.did] };
    expect(hex(caveatToCbor({ FlowBelow: { ceiling } }))).toBe(hex({ FlowBelow: { ceiling: lab } }));
    expect(hex(caveatToCbor({ FlowBelow: { ceiling, tainted_budget_uj: 7n } }))).toBe(hex({ FlowBelow: { ceiling: lab, tainted_budget_uj: 7n } }));
  });

  it('a label is {integrity, origins, readers}: a set as its items, or the word any / all', () => {
    expect(hex(labelToCbor({ integrity: 'principal', origins: 'any', readers: 'all' }))).toBe(hex({ integrity: 'principal', origins: 'any', readers: 'all' }));
    expect(hex(labelToCbor({ integrity: 'untrusted', origins: ['a', 'b'], readers: [bob.did] }))).toBe(hex({ integrity: 'untrusted', origins: ['a', 'b'], readers: [bob.did] }));
    expect(hex(labelToCbor({ integrity: 'principal', origins: [], readers: [] }))).toBe(hex({ integrity: 'principal', origins: [], readers: [] }));
  });
});

describe('jcp §4, §6, §4.3 the other objects: frames and revocations by their spec field names', () => {
  it('a frame with a model carries it as model', () => {
    const f: Frame = { kind: 'agent-task', trust: 'data', grant_id: cid(1), action: 'run', resource: TOOL_RESOURCE, payload_hash: cid(2), model: cid(3) };
    expect(hex(frameToCbor(f))).toBe(hex({ ...frameFields(), kind: 'agent-task', trust: 'data', action: 'run', model: cid(3) }));
    expect(parseFrame(wire(frameToCbor(f)))).toEqual(f);
  });

  it('a revocation is {grant_id, revoked_by, nonce}; a signed one {revocation, signature}', () => {
    const r: Revocation = { grant_id: cid(1), revoked_by: alice.did, nonce: nonce(3) };
    expect(hex(revocationToCbor(r))).toBe(hex(revFields().revocation!));
    const sr = { revocation: r, signature: nonce(9, 64) };
    expect(hex(signedRevocationToCbor(sr))).toBe(hex(revFields()));
    expect(parseSignedRevocation(wire(signedRevocationToCbor(sr)))).toEqual(sr);
  });
});

describe('jcp §4 strict grant parsing: every refusal names the field it read', () => {
  it('a non-map is refused at the path it was read from, each parser with its own default path', () => {
    expect(said(() => parseGrant(5))).toEqual(G('$grant', 'must be a map'));
    expect(said(() => parseSignedGrant([]))).toEqual(G('$signed_grant', 'must be a map'));
    expect(said(() => parseCaveats('x'))).toEqual(G('$caveats', 'must be an array of caveats'));
    expect(said(() => parseGrant(wire({ ...grantFields(), capability: 'x' })))).toEqual(G('$grant.capability', 'must be a map'));
    expect(said(() => parseGrant(wire({ ...grantFields(), budget_funds: [] })))).toEqual(G('$grant.budget_funds', 'must be a map'));
    // the caller's path is the one named
    expect(said(() => parseGrant(5, '$chain[2]'))).toEqual(G('$chain[2]', 'must be a map'));
    expect(said(() => parseGrant(wire({ ...grantFields(), budget_uj: -1 }), '$g'))).toEqual(G('$g.budget_uj', 'must be an unsigned integer'));
  });

  it('an unknown field is named, at the map that carries it; a non-text key by its value', () => {
    expect(said(() => parseGrant(wire({ ...grantFields(), extra: 1 })))).toEqual(G('$grant', 'unknown field "extra"'));
    expect(said(() => parseGrant(wire({ ...grantFields(), capability: { resource: TOOL_RESOURCE, actions: [], x: 1 } })))).toEqual(G('$grant.capability', 'unknown field "x"'));
    expect(said(() => parseGrant(wire({ ...grantFields(), budget_funds: { currency: 'EUR', minor: 1, note: 'x' } })))).toEqual(G('$grant.budget_funds', 'unknown field "note"'));
    expect(said(() => parseGrant(wire(new Map<CborInput, CborInput>([[7, 1]]))))).toEqual(G('$grant', 'unknown field 7'));
    expect(said(() => parseGrant(new Map<CborValue, CborValue>([[U64_MAX, 1]])))).toEqual(G('$grant', 'unknown field "18446744073709551615"'));
    expect(said(() => parseSignedGrant(wire({ grant: grantFields(), signature: nonce(1, 64), sig: 1 })))).toEqual(G('$signed_grant', 'unknown field "sig"'));
  });

  it('dids, content ids and texts are checked field by field', () => {
    expect(said(() => parseGrant(wire({ ...grantFields(), issuer: 'did:key:zNotAKey' })))).toEqual(G('$grant.issuer', 'must be an Ed25519 did:key'));
    expect(said(() => parseGrant(wire({ ...grantFields(), issuer: 5 })))).toEqual(G('$grant.issuer', 'must be an Ed25519 did:key'));
    expect(said(() => parseGrant(wire({ ...grantFields(), subject: undefined })))).toEqual(G('$grant.subject', 'must be an Ed25519 did:key'));
    expect(said(() => parseGrant(wire({ ...grantFields(), capability: { resource: TOOL_RESOURCE.toUpperCase(), actions: [] } })))).toEqual(
      G('$grant.capability.resource', 'must be a content id (64 lowercase hex digits)'),
    );
    expect(said(() => parseGrant(wire({ ...grantFields(), capability: { resource: TOOL_RESOURCE, actions: 'call' } })))).toEqual(G('$grant.capability.actions', 'must be an array of text'));
    expect(said(() => parseGrant(wire({ ...grantFields(), capability: { resource: TOOL_RESOURCE, actions: ['call', 5] } })))).toEqual(G('$grant.capability.actions[1]', 'must be text'));
    expect(said(() => parseGrant(wire({ ...grantFields(), budget_funds: { minor: 1 } })))).toEqual(G('$grant.budget_funds', 'currency must be text'));
    expect(said(() => parseGrant(wire({ ...grantFields(), budget_funds: { currency: 'EUR', minor: 'x' } })))).toEqual(G('$grant.budget_funds.minor', 'must be an unsigned integer'));
    expect(said(() => parseGrant(wire({ ...grantFields(), parent: 'p' })))).toEqual(G('$grant.parent', 'must be a content id (64 lowercase hex digits)'));
    expect(said(() => parseGrant(wire({ ...grantFields(), delegate_depth: -2 })))).toEqual(G('$grant.delegate_depth', 'must be an unsigned integer'));
    expect(said(() => parseGrant(wire({ ...grantFields(), expiry: 'soon' })))).toEqual(G('$grant.expiry', 'must be an unsigned integer'));
  });

  it('the nonce is a byte string of exactly 16 bytes, the signature of exactly 64', () => {
    expect(said(() => parseGrant(wire({ ...grantFields(), nonce: 'n' })))).toEqual(G('$grant.nonce', 'must be a byte string of 16 bytes'));
    expect(said(() => parseGrant(wire({ ...grantFields(), nonce: nonce(1, 15) })))).toEqual(G('$grant.nonce', 'must be 16 bytes, got 15'));
    expect(said(() => parseGrant(wire({ ...grantFields(), nonce: nonce(1, 17) })))).toEqual(G('$grant.nonce', 'must be 16 bytes, got 17'));
    expect(toHex(parseGrant(wire({ ...grantFields(), nonce: nonce(1, 16) })).nonce)).toBe('01'.repeat(16));
    const sg = (signature: CborInput) => wire({ grant: grantFields(), signature });
    expect(said(() => parseSignedGrant(sg(nonce(1, 63))))).toEqual(G('$signed_grant.signature', 'must be 64 bytes, got 63'));
    expect(said(() => parseSignedGrant(sg(nonce(1, 65))))).toEqual(G('$signed_grant.signature', 'must be 64 bytes, got 65'));
    expect(said(() => parseSignedGrant(wire({ grant: grantFields() })))).toEqual(G('$signed_grant.signature', 'must be a byte string of 64 bytes'));
    expect(parseSignedGrant(sg(nonce(1, 64))).signature).toHaveLength(64);
    // the grant inside is read at its own path
    expect(said(() => parseSignedGrant(wire({ grant: { ...grantFields(), nonce: nonce(1, 1) }, signature: nonce(1, 64) })))).toEqual(G('$signed_grant.grant.nonce', 'must be 16 bytes, got 1'));
  });

  it('jcp §4.9: a caveat list must be an array, and an empty one is omitted rather than encoded', () => {
    expect(said(() => withCaveats({ ActionIn: [] }))).toEqual(G('$grant.caveats', 'must be an array'));
    expect(said(() => withCaveats([]))).toEqual(G('$grant.caveats', 'an empty caveat set must be omitted, not encoded'));
    expect(withCaveats([{ NotBefore: 1 }]).caveats).toEqual([{ NotBefore: 1n }]);
  });

  it('an absent optional field stays absent; a present one is read', () => {
    const bare = parseGrant(wire(grantFields()));
    for (const k of ['budget_funds', 'caveats', 'parent', 'delegate_depth']) expect(bare, k).not.toHaveProperty(k);
    const full = parseGrant(wire({ ...grantFields(), budget_funds: { currency: 'USD', minor: 0 }, parent: cid(9), delegate_depth: 0 }));
    expect(full.budget_funds).toEqual({ currency: 'USD', minor: 0n });
    expect(full.parent).toBe(cid(9));
    expect(full.delegate_depth).toBe(0n);
  });

  it('what it returns is frozen, down to the capability, its actions, the funds, each caveat and its lists', () => {
    const g = parseGrant(wire({ ...grantFields(), budget_funds: { currency: 'USD', minor: 1 }, caveats: [{ ActionIn: ['call'] }, { FlowBelow: { ceiling: labelFields() } }] }));
    expect(Object.isFrozen(g)).toBe(true);
    expect(Object.isFrozen(g.capability)).toBe(true);
    expect(Object.isFrozen(g.capability.actions)).toBe(true);
    expect(Object.isFrozen(g.budget_funds)).toBe(true);
    expect(Object.isFrozen(g.caveats)).toBe(true);
    expect(Object.isFrozen(g.caveats![0])).toBe(true);
    const flow = g.caveats![1] as { FlowBelow: { ceiling: Label } };
    expect(Object.isFrozen(flow.FlowBelow)).toBe(true);
    expect(Object.isFrozen(flow.FlowBelow.ceiling)).toBe(true);
    expect(Object.isFrozen(flow.FlowBelow.ceiling.origins)).toBe(true);
    expect(Object.isFrozen(parseSignedGrant(wire({ grant: grantFields(), signature: nonce(1, 64) })))).toBe(true);
    const cs = parseCaveats(wire([{ NotAfter: 1 }, { ActionIn: ['call'] }, { ModelIn: [cid(1)] }]));
    expect(Object.isFrozen(cs)).toBe(true);
    expect(Object.isFrozen(cs[0])).toBe(true);
    expect(Object.isFrozen((cs[1] as { ActionIn: readonly string[] }).ActionIn)).toBe(true);
    expect(Object.isFrozen((cs[2] as { ModelIn: readonly string[] }).ModelIn)).toBe(true);
  });
});

describe('jcp §3 unsigned integers: 0 up to 2^64−1, nothing else', () => {
  const budget = (budget_uj: CborValue) => {
    const m = wire(grantFields()) as Map<CborValue, CborValue>;
    m.set('budget_uj', budget_uj);
    return () => parseGrant(m);
  };
  const notUint = G('$grant.budget_uj', 'must be an unsigned integer');

  it('0, as a number or a bigint, is read; -1 is refused', () => {
    expect(budget(0)().budget_uj).toBe(0n);
    expect(budget(0n)().budget_uj).toBe(0n);
    expect(budget(1)().budget_uj).toBe(1n);
    expect(said(budget(-1))).toEqual(notUint);
    expect(said(budget(-1n))).toEqual(notUint);
  });

  it('2^64−1 is read, 2^64 is refused', () => {
    expect(budget(U64_MAX)().budget_uj).toBe(U64_MAX);
    expect(parseGrant(wire({ ...grantFields(), budget_uj: U64_MAX })).budget_uj).toBe(U64_MAX);
    expect(said(budget(U64_MAX + 1n))).toEqual(notUint);
  });

  it('a number that is not an integer, or is past the safe range, is refused', () => {
    expect(said(budget(1.5))).toEqual(notUint);
    expect(said(budget(2 ** 53))).toEqual(notUint);
    expect(budget(Number.MAX_SAFE_INTEGER)().budget_uj).toBe(BigInt(Number.MAX_SAFE_INTEGER));
    expect(said(budget('1'))).toEqual(notUint);
  });
});

describe('jcp §4.9 caveats: one variant a map, each parameter checked', () => {
  it('a caveat is a map of exactly one variant, and only a variant this implementation supports', () => {
    expect(said(() => withCaveats(['ActionIn']))).toEqual(G('$grant.caveats[0]', 'must be a map'));
    expect(said(() => withCaveats([{}]))).toEqual(G('$grant.caveats[0]', 'a caveat is a map of exactly one variant'));
    expect(said(() => withCaveats([{ NotBefore: 1 }, { NotBefore: 1, NotAfter: 2 }]))).toEqual(G('$grant.caveats[1]', 'a caveat is a map of exactly one variant'));
    expect(said(() => withCaveats([{ ContentMatches: 'x' }]))).toEqual(G('$grant.caveats[0]', 'unknown field "ContentMatches"'));
    expect(said(() => parseCaveats(wire([{ NotBefore: 1 }, 5])))).toEqual(G('$caveats[1]', 'must be a map'));
    expect(said(() => parseCaveats(wire([5]), '$c'))).toEqual(G('$c[0]', 'must be a map'));
    expect(said(() => parseCaveats(5, '$c'))).toEqual(G('$c', 'must be an array of caveats'));
  });

  it('each variant reads back as the parameter it carries', () => {
    const all = [
      { ActionIn: ['call'] },
      { PayloadIs: cid(1) },
      { CallerIs: bob.did },
      { NotBefore: 2n },
      { NotAfter: 3n },
      { MaxCostUj: 4n },
      { ModelIn: [cid(5), cid(6)] },
      { FlowBelow: { ceiling: { integrity: 'untrusted', origins: ['mail', 'web'], readers: 'all' } } },
      { FlowBelow: { ceiling: { integrity: 'principal', origins: 'any', readers: [bob.did] }, tainted_budget_uj: 0n } },
    ];
    expect(parseCaveats(wire(all))).toEqual(all);
    expect(withCaveats(all).caveats).toEqual(all);
  });

  it('each parameter of the wrong shape is refused at Variant, the path its checker names', () => {
    const at = '$caveats[0]';
    const one = (c: CborInput) => said(() => parseCaveats(wire([c])));
    expect(one({ ActionIn: 'call' })).toEqual(G(`${at}.ActionIn`, 'must be an array of text'));
    expect(one({ ActionIn: ['call', 1] })).toEqual(G(`${at}.ActionIn[1]`, 'must be text'));
    expect(one({ PayloadIs: 'abc' })).toEqual(G(`${at}.PayloadIs`, 'must be a content id (64 lowercase hex digits)'));
    expect(one({ CallerIs: 'did:key:x' })).toEqual(G(`${at}.CallerIs`, 'must be an Ed25519 did:key'));
    expect(one({ NotBefore: -1 })).toEqual(G(`${at}.NotBefore`, 'must be an unsigned integer'));
    expect(one({ NotAfter: 'x' })).toEqual(G(`${at}.NotAfter`, 'must be an unsigned integer'));
    expect(one({ MaxCostUj: -5 })).toEqual(G(`${at}.MaxCostUj`, 'must be an unsigned integer'));
    // past 2^64−1 no encoder writes it; a decoder of a wider integer could hand it over
    expect(said(() => parseCaveats([new Map<CborValue, CborValue>([['MaxCostUj', U64_MAX + 1n]])]))).toEqual(G(`${at}.MaxCostUj`, 'must be an unsigned integer'));
    expect(one({ ModelIn: cid(1) })).toEqual(G(`${at}.ModelIn`, 'must be an array of content ids'));
    expect(one({ ModelIn: [cid(1), 'm'] })).toEqual(G(`${at}.ModelIn[1]`, 'must be a content id (64 lowercase hex digits)'));
    expect(one({ FlowBelow: [] })).toEqual(G(`${at}.FlowBelow`, 'must be a map'));
    expect(one({ FlowBelow: { ceiling: labelFields(), floor: 1 } })).toEqual(G(`${at}.FlowBelow`, 'unknown field "floor"'));
    expect(one({ FlowBelow: {} })).toEqual(G(`${at}.FlowBelow.ceiling`, 'must be a map'));
    expect(one({ FlowBelow: { ceiling: labelFields(), tainted_budget_uj: -1 } })).toEqual(G(`${at}.FlowBelow.tainted_budget_uj`, 'must be an unsigned integer'));
  });

  it('FlowBelow without a tainted budget has none', () => {
    const [c] = parseCaveats(wire([{ FlowBelow: { ceiling: labelFields() } }])) as [{ FlowBelow: object }];
    expect(c.FlowBelow).not.toHaveProperty('tainted_budget_uj');
    expect(Object.keys(c.FlowBelow)).toEqual(['ceiling']);
  });
});

describe('jcp §4.10 labels: integrity, and sets with exactly one encoding', () => {
  const lab = (x: Record<string, CborInput>) => () => parseLabel(wire(x));

  it('parseLabel refuses with ERR_BAD_ARGUMENT at $label, or at the path it is given', () => {
    expect(said(() => parseLabel(5))).toEqual(L('$label', 'must be a map'));
    expect(said(() => parseLabel(5, '$arg'))).toEqual(L('$arg', 'must be a map'));
    expect(said(lab({ ...labelFields(), extra: 1 }))).toEqual(L('$label', 'unknown field "extra"'));
  });

  it('integrity is the text principal or untrusted', () => {
    expect(said(lab({ origins: 'any', readers: 'all' }))).toEqual(L('$label', 'integrity must be text'));
    expect(said(lab({ ...labelFields(), integrity: 'trusted' }))).toEqual(L('$label.integrity', 'integrity must be principal or untrusted'));
    expect(parseLabel(wire({ ...labelFields(), integrity: 'principal' })).integrity).toBe('principal');
    expect(parseLabel(wire({ ...labelFields(), integrity: 'untrusted' })).integrity).toBe('untrusted');
  });

  it('origins: the word any, or an array of text; readers: the word all, or an array of dids', () => {
    expect(said(lab({ ...labelFields(), origins: 'all' }))).toEqual(L('$label.origins', 'must be an array of text or the word "any"'));
    expect(said(lab({ ...labelFields(), readers: 'any' }))).toEqual(L('$label.readers', 'must be an array of text or the word "all"'));
    expect(said(lab({ ...labelFields(), origins: ['a', 5] }))).toEqual(L('$label.origins[1]', 'must be text'));
    expect(said(lab({ ...labelFields(), readers: ['bob'] }))).toEqual(L('$label.readers[0]', 'must be an Ed25519 did:key'));
    expect(parseLabel(wire({ integrity: 'principal', origins: 'any', readers: 'all' }))).toEqual({ integrity: 'principal', origins: 'any', readers: 'all' });
    expect(parseLabel(wire({ integrity: 'principal', origins: [], readers: [] }))).toEqual({ integrity: 'principal', origins: [], readers: [] });
  });

  it('a set is sorted ascending without duplicates: a repeat or a step down is refused at the item', () => {
    expect(parseLabel(wire({ ...labelFields(), origins: ['a'] })).origins).toEqual(['a']);
    expect(parseLabel(wire({ ...labelFields(), origins: ['a', 'b', 'c'] })).origins).toEqual(['a', 'b', 'c']);
    expect(said(lab({ ...labelFields(), origins: ['a', 'a'] }))).toEqual(L('$label.origins[1]', 'must be sorted ascending without duplicates'));
    expect(said(lab({ ...labelFields(), origins: ['a', 'c', 'b'] }))).toEqual(L('$label.origins[2]', 'must be sorted ascending without duplicates'));
    const [lo, hi] = [bob.did, carol.did, alice.did].sort().slice(0, 2) as [string, string];
    expect(parseLabel(wire({ ...labelFields(), readers: [lo, hi] })).readers).toEqual([lo, hi]);
    expect(said(lab({ ...labelFields(), readers: [hi, lo] }))).toEqual(L('$label.readers[1]', 'must be sorted ascending without duplicates'));
  });

  it('a label inside a grant is refused ERR_GRANT_MALFORMED at its place in the grant', () => {
    expect(said(() => withCaveats([{ FlowBelow: { ceiling: { ...labelFields(), origins: ['b', 'a'] } } }]))).toEqual(
      G('$grant.caveats[0].FlowBelow.ceiling.origins[1]', 'must be sorted ascending without duplicates'),
    );
  });

  it('what it returns is frozen, its sets too', () => {
    const l = parseLabel(wire({ integrity: 'untrusted', origins: ['a'], readers: [bob.did] }));
    expect(Object.isFrozen(l)).toBe(true);
    expect(Object.isFrozen(l.origins)).toBe(true);
    expect(Object.isFrozen(l.readers)).toBe(true);
  });
});

describe('jcp §6 strict frame parsing', () => {
  const frame = (x: Record<string, CborInput | undefined>, at?: string) => () => parseFrame(wire(x), at);

  it('a non-map or an unknown field is refused ERR_FRAME_MALFORMED at $frame, or at the path it is given', () => {
    expect(said(() => parseFrame('f'))).toEqual(F('$frame', 'must be a map'));
    expect(said(() => parseFrame(1, '$.frame'))).toEqual(F('$.frame', 'must be a map'));
    expect(said(frame({ ...frameFields(), payload: 'x' }))).toEqual(F('$frame', 'unknown field "payload"'));
  });

  it('kind is one of the four of jcp §6', () => {
    expect(said(frame({ ...frameFields(), kind: undefined }))).toEqual(F('$frame', 'kind must be text'));
    expect(said(frame({ ...frameFields(), kind: 'tool-reply' }))).toEqual(F('$frame.kind', 'kind must be one of tool-call, tool-result, agent-task, agent-reply'));
    for (const kind of ['tool-call', 'tool-result', 'agent-task', 'agent-reply']) expect(parseFrame(wire({ ...frameFields(), kind })).kind).toBe(kind);
  });

  it('trust is control or data', () => {
    expect(said(frame({ ...frameFields(), trust: 1 }))).toEqual(F('$frame', 'trust must be text'));
    expect(said(frame({ ...frameFields(), trust: 'untrusted' }))).toEqual(F('$frame.trust', 'trust must be control or data'));
    expect(parseFrame(wire({ ...frameFields(), trust: 'data' })).trust).toBe('data');
    expect(parseFrame(wire({ ...frameFields(), trust: 'control' })).trust).toBe('control');
  });

  it('the action is non-empty text; the ids are content ids, each named', () => {
    expect(said(frame({ ...frameFields(), action: '' }))).toEqual(F('$frame.action', 'action must not be empty'));
    expect(said(frame({ ...frameFields(), action: ['call'] }))).toEqual(F('$frame', 'action must be text'));
    expect(parseFrame(wire({ ...frameFields(), action: 'x' })).action).toBe('x');
    const bad = 'f'.repeat(63);
    expect(said(frame({ ...frameFields(), grant_id: bad }))).toEqual(F('$frame.grant_id', 'must be a content id (64 lowercase hex digits)'));
    expect(said(frame({ ...frameFields(), resource: bad }))).toEqual(F('$frame.resource', 'must be a content id (64 lowercase hex digits)'));
    expect(said(frame({ ...frameFields(), payload_hash: bad }))).toEqual(F('$frame.payload_hash', 'must be a content id (64 lowercase hex digits)'));
    expect(said(frame({ ...frameFields(), model: bad }, '$f'))).toEqual(F('$f.model', 'must be a content id (64 lowercase hex digits)'));
  });

  it('what it returns is frozen, with no model when none was sent', () => {
    const f = parseFrame(wire(frameFields()));
    expect(Object.isFrozen(f)).toBe(true);
    expect(f).toEqual({ kind: 'tool-call', trust: 'control', grant_id: cid(1), action: 'call', resource: TOOL_RESOURCE, payload_hash: cid(2) });
    expect(f).not.toHaveProperty('model');
  });
});

describe('jcp §4.3 strict revocation parsing', () => {
  const rev = (x: Record<string, CborInput>, at?: string) => () => parseSignedRevocation(wire(x), at);
  const withRev = (r: Record<string, CborInput>) => ({ ...revFields(), revocation: { ...(revFields().revocation as Record<string, CborInput>), ...r } });

  it('a non-map or an unknown field is refused ERR_REVOCATION_MALFORMED at $signed_revocation, or the path given', () => {
    expect(said(() => parseSignedRevocation(7))).toEqual(R('$signed_revocation', 'must be a map'));
    expect(said(() => parseSignedRevocation(7, '$r'))).toEqual(R('$r', 'must be a map'));
    expect(said(rev({ ...revFields(), extra: 1 }))).toEqual(R('$signed_revocation', 'unknown field "extra"'));
    expect(said(rev({ ...revFields(), revocation: 1 }))).toEqual(R('$signed_revocation.revocation', 'must be a map'));
    expect(said(rev(withRev({ reason: 'x' })))).toEqual(R('$signed_revocation.revocation', 'unknown field "reason"'));
  });

  it('each field is checked and named', () => {
    expect(said(rev(withRev({ grant_id: 'g' }), '$r'))).toEqual(R('$r.revocation.grant_id', 'must be a content id (64 lowercase hex digits)'));
    expect(said(rev(withRev({ revoked_by: 'alice' })))).toEqual(R('$signed_revocation.revocation.revoked_by', 'must be an Ed25519 did:key'));
    expect(said(rev(withRev({ nonce: nonce(1, 15) })))).toEqual(R('$signed_revocation.revocation.nonce', 'must be 16 bytes, got 15'));
    expect(said(rev({ ...revFields(), signature: nonce(1, 63) }))).toEqual(R('$signed_revocation.signature', 'must be 64 bytes, got 63'));
  });

  it('what it returns is frozen, the revocation too', () => {
    const sr = parseSignedRevocation(wire(revFields()));
    expect(Object.isFrozen(sr)).toBe(true);
    expect(Object.isFrozen(sr.revocation)).toBe(true);
  });
});
