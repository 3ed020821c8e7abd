// impl/durable/entry.ts: the entries of a durable decision record (jcp §4.11, §8.1, §11) read back from their recorded
// CBOR — every shape of ./entry.ts's header comment round-trips whole, and every field that breaks it is refused
// ERR_RECORD_CORRUPT naming the entry and the field (or the codec's code, with its path, for a bad frame, grant,
// label or revocation).
import { describe, expect, it } from 'vitest';
import { thrown } from '../_test-support.ts';
import { decodeCanonical, encodeCanonical, type CborMap, type CborValue } from '../cbor/index.ts';
import { JcpError } from '../errors.ts';
import { mintRevocation } from '../jcp/revocation.ts';
import { alice, nonce, ROOT_ID, rootGrant, streamRequest, requestKey } from './_fixtures.ts';
import { entryToCbor, parseEntry, parseRequest, type DecisionEntry, type RecordEntry } from './entry.ts';

const RECEIPT = new Uint8Array(80).fill(0x5e);
const RESPONSE = Uint8Array.of(0xa1, 0x61, 0x76, 0x01);

/** A priced, labelled, partially covered request through a chain of two grants (jcp §4.8, §4.10). */
const pricedRequest = () => ({
  ...streamRequest(1, 10n, 7n),
  cost: { uj: 10n, provenance: 'HwShunt' as const, coverage: 'Partial' as const },
  cost_funds: { currency: 'EUR', minor: 40n },
  label: { integrity: 'untrusted' as const, origins: ['web'], readers: 'all' as const },
});
const keyed = (): DecisionEntry => ({ kind: 'decision', holder: 'worker-1', request: pricedRequest(), verdict: 'allow', receipt: RECEIPT, key: requestKey(0), response: RESPONSE });
const plain = (): DecisionEntry => ({ kind: 'decision', holder: 'worker-1', request: streamRequest(0, 5n), verdict: 'deny', receipt: RECEIPT });

/** The entry as it is read back from the record: its canonical CBOR, decoded. */
const recorded = (e: RecordEntry): CborMap => decodeCanonical(encodeCanonical(entryToCbor(e))) as CborMap;
/** `e` as recorded, with `edit` applied to the decoded map. */
function edited(e: RecordEntry, edit: (m: CborMap) => void): CborMap {
  const m = recorded(e);
  edit(m);
  return m;
}
const req = (m: CborMap): CborMap => m.get('request') as CborMap;
const cost = (m: CborMap): CborMap => req(m).get('cost') as CborMap;

describe('parseEntry: every entry shape round-trips', () => {
  it('a decision with a priced, labelled request, its request key and response (jcp §4.8, §4.10, §11)', () => {
    const e = keyed();
    const back = parseEntry(recorded(e), 3);
    expect(back).toEqual(e);
    expect((back as DecisionEntry).request.label).toEqual(e.request.label);
    expect((back as DecisionEntry).request.cost_funds).toEqual({ currency: 'EUR', minor: 40n });
  });

  it('a denied decision with no key, response, price or label: none of them appears', () => {
    const back = parseEntry(recorded(plain()), 3) as DecisionEntry;
    expect(back).toEqual(plain());
    expect(['key', 'response'].filter((k) => k in back)).toEqual([]);
    expect(['cost_funds', 'label'].filter((k) => k in back.request)).toEqual([]);
  });

  it('an outcome, with and without its note', () => {
    const withNote: RecordEntry = { kind: 'outcome', entry: 2, outcome: 'failed', note: 'operator: never ran' };
    expect(parseEntry(recorded(withNote), 3)).toEqual(withNote);
    const bare: RecordEntry = { kind: 'outcome', entry: 0, outcome: 'completed' };
    const back = parseEntry(recorded(bare), 3);
    expect(back).toEqual(bare);
    expect('note' in back).toBe(false);
  });

  it('a revocation with the grant it names', () => {
    const e: RecordEntry = { kind: 'revocation', revocation: mintRevocation(alice, ROOT_ID, nonce('entry:rev')), grant: rootGrant };
    const back = parseEntry(recorded(e), 3);
    expect(back.kind).toBe('revocation');
    expect(encodeCanonical(entryToCbor(back))).toEqual(encodeCanonical(entryToCbor(e)));
  });

  it('an unsigned integer field holds from 0 up; an outcome names an entry before its own (boundaries)', () => {
    const zero = parseEntry(edited(plain(), (m) => req(m).set('now_s', 0n)), 3) as DecisionEntry;
    expect(zero.request.now_s).toBe(0n);
    expect(parseEntry(recorded({ kind: 'outcome', entry: 2, outcome: 'completed' }), 3)).toMatchObject({ entry: 2 });
    expect(thrown(() => parseEntry(recorded({ kind: 'outcome', entry: 3, outcome: 'completed' }), 3)).message).toBe('ERR_RECORD_CORRUPT: record entry #3.entry: must name an earlier entry');
    expect(thrown(() => parseEntry(recorded({ kind: 'outcome', entry: 4, outcome: 'completed' }), 3)).message).toBe('ERR_RECORD_CORRUPT: record entry #3.entry: must name an earlier entry');
  });
});

describe('parseEntry: a damaged entry is refused ERR_RECORD_CORRUPT, naming the entry and the field', () => {
  const outcome: RecordEntry = { kind: 'outcome', entry: 1, outcome: 'completed' };
  const cases: readonly (readonly [string, () => CborValue, string])[] = [
    ['not a map', () => 'decision', '#3: must be a map'],
    ['an unknown field', () => edited(keyed(), (m) => m.set('extra', 1n)), '#3: has an unknown field extra'],
    ['a field keyed by a non-text key', () => edited(keyed(), (m) => req(m).set(7n, 'x')), '#3.request: has an unknown field 7'],
    ['a holder that is not text', () => edited(keyed(), (m) => m.set('holder', 5n)), '#3.holder: must be text'],
    ['a verdict other than allow or deny', () => edited(keyed(), (m) => m.set('verdict', 'maybe')), '#3.verdict: must be allow or deny'],
    ['a receipt that is not bytes', () => edited(keyed(), (m) => m.set('receipt', 'sealed')), '#3.receipt: must be a byte string'],
    ['a response that is not bytes', () => edited(keyed(), (m) => m.set('response', 'ok')), '#3.response: must be a byte string'],
    ['a request key of 31 bytes', () => edited(keyed(), (m) => m.set('key', new Uint8Array(31))), '#3.key: must be a byte string of 32 bytes'],
    ['a request key of 33 bytes', () => edited(keyed(), (m) => m.set('key', new Uint8Array(33))), '#3.key: must be a byte string of 32 bytes'],
    ['a request key that is not bytes', () => edited(keyed(), (m) => m.set('key', 'k')), '#3.key: must be a byte string of 32 bytes'],
    ['a request that is not a map', () => edited(keyed(), (m) => m.set('request', 'x')), '#3.request: must be a map'],
    ['an empty chain', () => edited(keyed(), (m) => req(m).set('chain', [])), '#3.request.chain: must be a non-empty array of signed grants'],
    ['no chain', () => edited(keyed(), (m) => req(m).delete('chain')), '#3.request.chain: must be a non-empty array of signed grants'],
    ['a chain that is not an array', () => edited(keyed(), (m) => req(m).set('chain', 'x')), '#3.request.chain: must be a non-empty array of signed grants'],
    ['a caller that is not text', () => edited(keyed(), (m) => req(m).set('caller', 1n)), '#3.request.caller: must be text'],
    ['a negative now_s', () => edited(keyed(), (m) => req(m).set('now_s', -1n)), '#3.request.now_s: must be an unsigned integer'],
    ['a now_s written as text', () => edited(keyed(), (m) => req(m).set('now_s', '5')), '#3.request.now_s: must be an unsigned integer'],
    ['a fractional now_s', () => edited(keyed(), (m) => req(m).set('now_s', 1.5)), '#3.request.now_s: must be an unsigned integer'],
    ['a cost that is not a map', () => edited(keyed(), (m) => req(m).set('cost', 'x')), '#3.request.cost: must be a map'],
    ['a cost with an unknown field', () => edited(keyed(), (m) => cost(m).set('measured', 1n)), '#3.request.cost: has an unknown field measured'],
    ['a negative cost', () => edited(keyed(), (m) => cost(m).set('uj', -1n)), '#3.request.cost.uj: must be an unsigned integer'],
    ['an unknown provenance (jcp §5)', () => edited(keyed(), (m) => cost(m).set('provenance', 'Guess')), '#3.request.cost.provenance: must be HwShunt, ModelBased or Estimator'],
    ['a coverage other than Partial (jcp §5.2)', () => edited(keyed(), (m) => cost(m).set('coverage', 'Full')), '#3.request.cost.coverage: must be "Partial" when present'],
    ['a price that is not a map', () => edited(keyed(), (m) => req(m).set('cost_funds', 'x')), '#3.request.cost_funds: must be a map'],
    ['a price currency that is not text', () => edited(keyed(), (m) => (req(m).get('cost_funds') as CborMap).set('currency', 9n)), '#3.request.cost_funds.currency: must be text'],
    ['a negative price', () => edited(keyed(), (m) => (req(m).get('cost_funds') as CborMap).set('minor', -1n)), '#3.request.cost_funds.minor: must be an unsigned integer'],
    ['an outcome other than completed or failed', () => edited(outcome, (m) => m.set('outcome', 'done')), '#3.outcome: must be completed or failed'],
    ['an outcome naming a negative entry', () => edited(outcome, (m) => m.set('entry', -1n)), '#3.entry: must be an unsigned integer'],
    ['an outcome note that is not text', () => edited(outcome, (m) => m.set('note', 5n)), '#3.note: must be text'],
    ['an outcome with an unknown field', () => edited(outcome, (m) => m.set('holder', 'w')), '#3: has an unknown field holder'],
    ['an unknown kind', () => new Map<CborValue, CborValue>([['kind', 'settlement']]), '#3.kind: unknown entry kind settlement'],
    ['no kind', () => new Map<CborValue, CborValue>([['holder', 'w']]), '#3.kind: unknown entry kind undefined'],
  ];
  for (const [what, make, message] of cases) {
    it(what, () => {
      const e = thrown(() => parseEntry(make(), 3));
      expect(e).toBeInstanceOf(JcpError);
      expect(e.code).toBe('ERR_RECORD_CORRUPT');
      expect(e.message).toBe(`ERR_RECORD_CORRUPT: record entry ${message}`);
    });
  }

  it('parseRequest names the request $request when no place is given', () => {
    expect(thrown(() => parseRequest(new Map())).message).toBe('ERR_RECORD_CORRUPT: record entry $request.chain: must be a non-empty array of signed grants');
  });
});

describe("parseEntry: a bad frame, grant, label or revocation is refused with the codec's code, at its place in the entry", () => {
  const revocation = (): RecordEntry => ({ kind: 'revocation', revocation: mintRevocation(alice, ROOT_ID, nonce('entry:rev')), grant: rootGrant });
  const cases: readonly (readonly [string, () => CborValue, string, string])[] = [
    ['a frame of an unknown kind', () => edited(keyed(), (m) => (req(m).get('frame') as CborMap).set('kind', 'teleport')), 'ERR_FRAME_MALFORMED', '#3.request.frame.kind'],
    ['a chained grant with a short signature', () => edited(keyed(), (m) => ((req(m).get('chain') as CborValue[])[1] as CborMap).set('signature', new Uint8Array(63))), 'ERR_GRANT_MALFORMED', '#3.request.chain[1].signature'],
    ['a label of unknown integrity', () => edited(keyed(), (m) => (req(m).get('label') as CborMap).set('integrity', 'murky')), 'ERR_BAD_ARGUMENT', '#3.request.label.integrity'],
    ['a revocation with a short signature', () => edited(revocation(), (m) => (m.get('revocation') as CborMap).set('signature', new Uint8Array(63))), 'ERR_REVOCATION_MALFORMED', '#3.revocation.signature'],
    ['a revoked grant with a short signature', () => edited(revocation(), (m) => (m.get('grant') as CborMap).set('signature', new Uint8Array(63))), 'ERR_GRANT_MALFORMED', '#3.grant.signature'],
  ];
  for (const [what, make, code, at] of cases) {
    it(what, () => {
      const e = thrown(() => parseEntry(make(), 3));
      expect(e.code).toBe(code);
      expect(e.detail).toEqual({ path: at });
    });
  }
});
