// Edge cases of the receipt core (impl/receipt/core.ts), jcp §8 and §8.1: the field list of each profile (jcp/2 with
// payload_hash and energy_coverage, jcp/1 without), the refusal of a tag not implemented (its code, message and the
// profile named), strict reading field by field (each refusal's code, message and field, the unsigned integers of
// jcp §3 at 0 and at their top), a field outside the profile or missing from it, deny_reason present exactly on deny,
// chain_ids (at least a root and the leaf, the receipt's own grant last), and the CBOR value a core is written from.
import { describe, expect, it } from 'vitest';
import { lazyKey, thrown, TOOL_RESOURCE } from '../_test-support.ts';
import { encodeCanonical, type CborValue } from '../cbor/index.ts';
import { FRAME_KINDS } from '../jcp/types.ts';
import { PROVENANCES } from '../energy/cost.ts';
import { coreToCbor, parseReceiptCore, PROFILE_FIELDS, RECEIPT_PROFILES } from './core.ts';

const alice = lazyKey('alice'); // the issuer
const bob = lazyKey('bob'); // the subject
const steward = lazyKey('steward');
const CID = (c: string) => c.repeat(64);
const GRANT = CID('b');
const ROOT = CID('a');
const U64_MAX = (1n << 64n) - 1n;

/** A jcp/2 allow core's fields as the strict decoder hands them over (small integers as numbers). */
const fields = (): Record<string, CborValue> => ({
  jcp_receipt: 'jcp/2', grant_id: GRANT, issuer: alice.did, subject: bob.did, resource: TOOL_RESOURCE, action: 'call',
  payload_hash: CID('d'), frame_kind: 'tool-call', trust: 'control', verdict: 'allow', cost_uj: 42,
  energy_provenance: 'HwShunt', budget_remaining_uj: 958, budget_uj: 1000, steward: steward.did,
});
/** The core map of `fields()` with `over` applied; a field set to undefined is left out. */
const core = (over: Record<string, CborValue | undefined> = {}): Map<CborValue, CborValue> =>
  new Map(Object.entries({ ...fields(), ...over }).filter((e): e is [string, CborValue] => e[1] !== undefined));
/** The same core as jcp/1: no payload_hash. */
const v1 = (over: Record<string, CborValue | undefined> = {}) => core({ jcp_receipt: 'jcp/1', payload_hash: undefined, ...over });
/** What a refusal says: its code, its message (which begins with the code) and its detail. */
const said = (fn: () => unknown) => {
  const e = thrown(fn);
  return { code: e.code, message: e.message, detail: e.detail };
};
const malformed = (msg: string, field?: string) => ({
  code: 'ERR_RECEIPT_MALFORMED',
  message: `ERR_RECEIPT_MALFORMED: ${msg}`,
  detail: field === undefined ? undefined : { field },
});

describe('jcp §8 profile versioning: each profile has its own field list', () => {
  it('jcp/1 and jcp/2 are the profiles verified', () => {
    expect([...RECEIPT_PROFILES]).toEqual(['jcp/1', 'jcp/2']);
  });

  it('the jcp/2 field list is jcp/1\'s with payload_hash (required) and energy_coverage (optional) added', () => {
    const optional = ['deny_reason', 'chain_ids'];
    const v1Fields = ['jcp_receipt', 'grant_id', 'issuer', 'subject', 'resource', 'action', 'frame_kind', 'trust', 'verdict', 'deny_reason', 'cost_uj', 'energy_provenance', 'budget_remaining_uj', 'budget_uj', 'steward', 'chain_ids'];
    const req = (p: 'jcp/1' | 'jcp/2') => Object.fromEntries(Object.entries(PROFILE_FIELDS[p]).map(([k, f]) => [k, f.required]));
    expect(req('jcp/1')).toEqual(Object.fromEntries(v1Fields.map((k) => [k, !optional.includes(k)])));
    expect(req('jcp/2')).toEqual({ ...req('jcp/1'), payload_hash: true, energy_coverage: false });
  });

  it('a jcp/1 core, without payload_hash, is read under jcp/1', () => {
    const c = parseReceiptCore(v1());
    expect(c.jcp_receipt).toBe('jcp/1');
    expect(c).not.toHaveProperty('payload_hash');
    expect(c.cost_uj).toBe(42n);
  });

  it('a jcp/1 core carrying payload_hash or energy_coverage is refused: they are no fields of jcp/1', () => {
    expect(said(() => parseReceiptCore(v1({ payload_hash: CID('d') })))).toEqual(malformed('field "payload_hash" is not part of the jcp/1 profile', 'payload_hash'));
    expect(said(() => parseReceiptCore(v1({ energy_coverage: 'Partial' })))).toEqual(malformed('field "energy_coverage" is not part of the jcp/1 profile', 'energy_coverage'));
  });

  it('a jcp/2 core without payload_hash is refused, not read as jcp/1', () => {
    expect(said(() => parseReceiptCore(core({ payload_hash: undefined })))).toEqual(malformed('jcp/2 receipt lacks required field payload_hash', 'payload_hash'));
  });
});

describe('jcp §8 "it MUST refuse a tag it does not implement rather than assume a profile"', () => {
  const KNOWN = '(known: jcp/1, jcp/2)';

  it('an unknown text tag is refused ERR_RECEIPT_PROFILE_UNKNOWN, naming it', () => {
    for (const tag of ['jcp/3', 'jcp/0', 'JCP/2', 'jcp/2 ', '']) {
      expect([tag, said(() => parseReceiptCore(core({ jcp_receipt: tag })))]).toEqual([
        tag,
        { code: 'ERR_RECEIPT_PROFILE_UNKNOWN', message: `ERR_RECEIPT_PROFILE_UNKNOWN: receipt profile ${JSON.stringify(tag)} is not implemented ${KNOWN}`, detail: { profile: tag } },
      ]);
    }
  });

  it('a missing tag, or a tag that is not text, is refused with no profile named', () => {
    expect(said(() => parseReceiptCore(core({ jcp_receipt: undefined })))).toEqual({
      code: 'ERR_RECEIPT_PROFILE_UNKNOWN',
      message: `ERR_RECEIPT_PROFILE_UNKNOWN: receipt profile undefined is not implemented ${KNOWN}`,
      detail: { profile: null },
    });
    expect(said(() => parseReceiptCore(core({ jcp_receipt: 2 })))).toEqual({
      code: 'ERR_RECEIPT_PROFILE_UNKNOWN',
      message: `ERR_RECEIPT_PROFILE_UNKNOWN: receipt profile 2 is not implemented ${KNOWN}`,
      detail: { profile: null },
    });
    // an integer beyond 2^53 (a bigint) and a byte string are refused the same way, by code
    for (const tag of [1n << 60n, new TextEncoder().encode('jcp/2'), ['jcp/2']]) {
      const e = thrown(() => parseReceiptCore(core({ jcp_receipt: tag })));
      expect([e.code, e.detail]).toEqual(['ERR_RECEIPT_PROFILE_UNKNOWN', { profile: null }]);
    }
  });

  it('the tag is read first: a core wrong in every other way under an unknown tag is refused for its tag', () => {
    const m = new Map<CborValue, CborValue>([['jcp_receipt', 'jcp/9'], ['extra', 1]]);
    expect(thrown(() => parseReceiptCore(m)).code).toBe('ERR_RECEIPT_PROFILE_UNKNOWN');
  });
});

describe('jcp §8 strict reading: the core is a map of the profile\'s fields, each of its type', () => {
  it('a core that is not a map is refused, naming no field', () => {
    for (const v of [[], 'core', 5, null as unknown as CborValue, fields() as unknown as CborValue]) {
      expect(said(() => parseReceiptCore(v))).toEqual(malformed('a receipt core must be a map'));
    }
  });

  it('a field outside the profile is refused, named, whatever its key', () => {
    expect(said(() => parseReceiptCore(core({ extra: 1 })))).toEqual(malformed('field "extra" is not part of the jcp/2 profile', 'extra'));
    // a property every object inherits is no field of the profile
    for (const k of ['toString', 'constructor', '__proto__', 'hasOwnProperty']) {
      expect([k, said(() => parseReceiptCore(core({ [k]: 'x' })))]).toEqual([k, malformed(`field "${k}" is not part of the jcp/2 profile`, k)]);
    }
    const withInt = new Map([...core(), [1, 2]] as Array<[CborValue, CborValue]>);
    expect(said(() => parseReceiptCore(withInt))).toEqual(malformed('field "1" is not part of the jcp/2 profile', '1'));
    // a key that is not text, even one whose string form is a field's name, is not that field
    const arrayKey = core({ trust: undefined });
    arrayKey.set(['trust'], 'control');
    const e = thrown(() => parseReceiptCore(arrayKey));
    expect([e.code, e.detail]).toEqual(['ERR_RECEIPT_MALFORMED', { field: 'trust' }]);
  });

  it('each required field, missing alone, is refused by name', () => {
    for (const [profile, make] of [['jcp/2', core], ['jcp/1', v1]] as const) {
      for (const [name, f] of Object.entries(PROFILE_FIELDS[profile])) {
        if (!f.required || name === 'jcp_receipt') continue;
        expect([profile, name, said(() => parseReceiptCore(make({ [name]: undefined })))]).toEqual([profile, name, malformed(`${profile} receipt lacks required field ${name}`, name)]);
      }
    }
  });

  it('each field of the wrong type or value is refused with its rule, naming it', () => {
    const cases: Array<[Record<string, CborValue>, string, string]> = [
      [{ grant_id: GRANT.toUpperCase() }, 'grant_id', 'grant_id must be a content id'],
      [{ grant_id: GRANT.slice(1) }, 'grant_id', 'grant_id must be a content id'],
      [{ resource: 7 }, 'resource', 'resource must be a content id'],
      [{ payload_hash: 'x' }, 'payload_hash', 'payload_hash must be a content id'],
      [{ issuer: 'did:key:z6Mk' }, 'issuer', 'issuer must be an Ed25519 did:key'],
      [{ subject: 7 }, 'subject', 'subject must be an Ed25519 did:key'],
      [{ steward: 'did:web:example.com' }, 'steward', 'steward must be an Ed25519 did:key'],
      [{ action: '' }, 'action', 'action must be non-empty text'],
      [{ action: 5 }, 'action', 'action must be non-empty text'],
      // not text though it has a length: an array of text, a byte string
      [{ action: ['call'] }, 'action', 'action must be non-empty text'],
      [{ verdict: 'deny', deny_reason: new TextEncoder().encode('expired') }, 'deny_reason', 'deny_reason must be non-empty text'],
      [{ verdict: 'deny', deny_reason: '' }, 'deny_reason', 'deny_reason must be non-empty text'],
      [{ frame_kind: 'tool' }, 'frame_kind', 'frame_kind must be a frame kind'],
      [{ trust: 'Control' }, 'trust', 'trust must be control or data'],
      [{ verdict: 'allowed' }, 'verdict', 'verdict must be allow or deny'],
      [{ energy_provenance: 'Guess' }, 'energy_provenance', 'energy_provenance must be HwShunt, ModelBased or Estimator'],
      [{ energy_provenance: 5 }, 'energy_provenance', 'energy_provenance must be HwShunt, ModelBased or Estimator'],
      [{ chain_ids: [] }, 'chain_ids', 'chain_ids must be a non-empty array of content ids'],
      [{ chain_ids: GRANT }, 'chain_ids', 'chain_ids must be a non-empty array of content ids'],
      [{ chain_ids: [ROOT, 'x', GRANT] }, 'chain_ids', 'chain_ids[1] must be a content id'],
      [{ chain_ids: [ROOT, GRANT.toUpperCase()] }, 'chain_ids', 'chain_ids[1] must be a content id'],
    ];
    for (const [over, field, rule] of cases) {
      expect([over, said(() => parseReceiptCore(core(over)))]).toEqual([over, malformed(rule, field)]);
    }
  });

  it('jcp §5.2: energy_coverage, when present, is exactly "Partial"; any other value, "Whole" included, is refused', () => {
    for (const v of ['Whole', 'partial', 'Partial ', '', 1]) {
      expect([v, said(() => parseReceiptCore(core({ energy_coverage: v })))]).toEqual([v, malformed('energy_coverage may only be "Partial" (absent means Whole)', 'energy_coverage')]);
    }
    expect(parseReceiptCore(core({ energy_coverage: 'Partial' })).energy_coverage).toBe('Partial');
    expect(parseReceiptCore(core())).not.toHaveProperty('energy_coverage');
  });

  it('every value of each closed set is read as given', () => {
    for (const k of FRAME_KINDS) expect(parseReceiptCore(core({ frame_kind: k })).frame_kind).toBe(k);
    for (const t of ['control', 'data']) expect(parseReceiptCore(core({ trust: t })).trust).toBe(t);
    for (const p of PROVENANCES) expect(parseReceiptCore(core({ energy_provenance: p })).energy_provenance).toBe(p);
  });

  it('a well-formed core is read field for field, its unsigned integers as bigints, and frozen', () => {
    const c = parseReceiptCore(core());
    expect(c).toEqual({ ...fields(), cost_uj: 42n, budget_remaining_uj: 958n, budget_uj: 1000n });
    expect(Object.isFrozen(c)).toBe(true);
  });
});

describe('jcp §3, §8 cost_uj, budget_uj, budget_remaining_uj are uint: 0 … 2^64−1', () => {
  const UINTS = ['cost_uj', 'budget_uj', 'budget_remaining_uj'] as const;

  it('0 (as the decoder gives it, or as a bigint), the largest safe integer and 2^64−1 are read as bigints', () => {
    for (const name of UINTS) {
      for (const [v, want] of [[0, 0n], [0n, 0n], [1, 1n], [2 ** 53 - 1, (1n << 53n) - 1n], [1n << 53n, 1n << 53n], [U64_MAX, U64_MAX]] as const) {
        expect([name, v, parseReceiptCore(core({ [name]: v }))[name]]).toEqual([name, v, want]);
      }
    }
  });

  it('a negative integer, a fraction, an unsafe float, text, bytes or 2^64 is no uint', () => {
    for (const name of UINTS) {
      for (const v of [-1, -1n, 1.5, 2 ** 53, Number.NaN, Infinity, '42', new Uint8Array(1), U64_MAX + 1n]) {
        expect([name, v, said(() => parseReceiptCore(core({ [name]: v })))]).toEqual([name, v, malformed(`${name} must be an unsigned integer`, name)]);
      }
    }
  });
});

describe('jcp §8 "deny_reason = string ; omitted on allow"', () => {
  it('an allow core carrying deny_reason is refused', () => {
    expect(said(() => parseReceiptCore(core({ deny_reason: 'expired' })))).toEqual(malformed('an allow receipt carries no deny_reason', 'deny_reason'));
  });

  it('a deny core without deny_reason is refused', () => {
    expect(said(() => parseReceiptCore(core({ verdict: 'deny' })))).toEqual(malformed('a deny receipt must name its deny_reason', 'deny_reason'));
    expect(said(() => parseReceiptCore(v1({ verdict: 'deny' })))).toEqual(malformed('a deny receipt must name its deny_reason', 'deny_reason'));
  });

  it('a deny core with its reason, and an allow core without one, are read', () => {
    const d = parseReceiptCore(core({ verdict: 'deny', deny_reason: 'budget-exceeded' }));
    expect([d.verdict, d.deny_reason]).toEqual(['deny', 'budget-exceeded']);
    const a = parseReceiptCore(core());
    expect(a.verdict).toBe('allow');
    expect(a).not.toHaveProperty('deny_reason');
  });
});

describe('jcp §8.1 chain_ids: every grant id the decision debited, root first', () => {
  const CHAIN_RULE = 'chain_ids must list the grant ids debited, root first, ending with the receipt\'s grant_id';

  it('two links, the root then the receipt\'s grant, are read as given, frozen', () => {
    const c = parseReceiptCore(core({ chain_ids: [ROOT, GRANT] }));
    expect(c.chain_ids).toEqual([ROOT, GRANT]);
    expect(Object.isFrozen(c.chain_ids)).toBe(true);
    expect(parseReceiptCore(core({ chain_ids: [ROOT, CID('c'), GRANT] })).chain_ids).toEqual([ROOT, CID('c'), GRANT]);
  });

  it('one link is read when it is the receipt\'s grant (a single grant debited), refused when it is another', () => {
    expect(parseReceiptCore(core({ chain_ids: [GRANT] })).chain_ids).toEqual([GRANT]);
    expect(said(() => parseReceiptCore(core({ chain_ids: [ROOT] })))).toEqual(malformed(CHAIN_RULE, 'chain_ids'));
  });

  it('a chain whose last link is not the receipt\'s grant is refused, the grant first (leaf first) included', () => {
    expect(said(() => parseReceiptCore(core({ chain_ids: [GRANT, ROOT] })))).toEqual(malformed(CHAIN_RULE, 'chain_ids'));
    expect(said(() => parseReceiptCore(core({ chain_ids: [ROOT, CID('c')] })))).toEqual(malformed(CHAIN_RULE, 'chain_ids'));
    expect(said(() => parseReceiptCore(core({ chain_ids: [ROOT, GRANT, CID('c')] })))).toEqual(malformed(CHAIN_RULE, 'chain_ids'));
  });

  it('chain_ids is a field of jcp/1 as well (its §8.1 in the earlier revision)', () => {
    expect(parseReceiptCore(v1({ chain_ids: [ROOT, GRANT] })).chain_ids).toEqual([ROOT, GRANT]);
  });
});

describe('coreToCbor: the CBOR value a core is signed over, absent optional fields omitted (jcp §5.2, §8)', () => {
  it('a parsed core, every optional field present, round-trips to the bytes it was read from', () => {
    const m = core({ verdict: 'deny', deny_reason: 'expired', energy_coverage: 'Partial', chain_ids: [ROOT, GRANT] });
    const c = parseReceiptCore(m);
    expect(encodeCanonical(coreToCbor(c))).toEqual(encodeCanonical(m));
  });

  it('a core without its optional fields has no such keys, and a jcp/1 core no payload_hash', () => {
    for (const m of [core(), v1()]) {
      expect(encodeCanonical(coreToCbor(parseReceiptCore(m)))).toEqual(encodeCanonical(m));
    }
  });
});
