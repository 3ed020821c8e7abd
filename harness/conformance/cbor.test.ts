// jcp §3 canonical det-CBOR and the §11 "MUST reject a non-canonical body", checked through the implementation's
// strict decoder (cbor.check: a strict decode, then a canonical re-encode). Canonical bytes must come back byte for
// byte; every non-canonical form, float, bool, null, simple value, indefinite length, truncation, trailing byte,
// invalid UTF-8, unsorted or duplicate key must be refused (the spec grade), with its ERR_CBOR_* code (the suite's byte
// contract: the spec names no ERR_ code). Tags, map keys of other types than text, and the order of keys of different
// major types (RFC 7049 length-first or RFC 8949 bytewise) are open points of jcp §3 (jcp/3#open-tags-in-canonical-check,
// jcp/3#open-map-key-types, jcp/3#open-key-order): graded against the declared reading. Where an input breaks two
// rules at once (a tag whose head is also too wide), either code is accepted: the spec names no order among them. The reference's TypeScript encoder/decoder API (options, encode
// refusals of JS values, refusal offsets, the exact code of each multi-fault input) is unit-tested in
// impl/cbor/cbor.test.ts.
import fc from 'fast-check';
import { describe, expect } from 'vitest';
import { AcceptableReading, clauseIt, declaredReading, note } from '../clause.ts';
import { expectRefusedAs, isRefusal, refusalJudge } from '../contract-codes.ts';
import { assertProperty } from '../refusal.ts';
import { implementation } from '../driver.ts';
import { fcParams } from '../external-vectors.ts';
import { TesteeError } from '../implementation.ts';
import { concatBytes, decodeCanonical, encodeCanonical, fromHex, isJcpError, toHex, type CborMap, type CborValue, type JcpErrorCode } from '../oracle.ts';

const CANONICAL = 'jcp/3#canonical-det-cbor';
const KEY_ORDER = 'jcp/3#key-order-length-first';
const OPEN_KEY_ORDER = 'jcp/3#open-key-order';
const SHORTEST = 'jcp/3#shortest-integer-form';
const NO_FLOAT_BOOL_NULL = 'jcp/3#no-float-bool-null';
const REJECT = 'jcp/11#reject-non-canonical';
const OPEN_TAGS = 'jcp/3#open-tags-in-canonical-check';
const OPEN_KEY_TYPES = 'jcp/3#open-map-key-types';

// ---- helpers ----

const SAME = 'same';

/**
 * What the implementation's strict decoder made of `input`: 'same' when it came back byte for byte, a description
 * when it came back changed, or the code of the TesteeError refusing it. Anything else (a TesteeFailure: the testee
 * hung, died or broke the protocol) propagates and fails the test.
 */
async function check(input: Uint8Array | string): Promise<string> {
  const bytes = typeof input === 'string' ? fromHex(input) : input;
  try {
    const out = await implementation().cborCheck(bytes);
    if (toHex(out) === toHex(bytes)) return SAME;
    const h = toHex(out);
    return `accepted but re-encoded as ${h.length > 80 ? `${h.slice(0, 80)}…` : h}`;
  } catch (e) {
    if (e instanceof TesteeError) return e.code;
    throw e;
  }
}

const label = (hex: string): string => (hex.length > 64 ? `${hex.slice(0, 64)}… (${hex.length / 2} bytes)` : hex || '(empty)');

async function expectSame(hex: string): Promise<void> {
  expect(await check(hex), label(hex)).toBe(SAME);
}

/** Refused (spec), with `code`, or with one of `codes` where the input breaks more than one rule (byte contract). */
async function expectRefused(hex: string, code: JcpErrorCode | readonly JcpErrorCode[]): Promise<void> {
  expectRefusedAs(await check(hex), code, label(hex));
}

/**
 * A judge of tagged inputs against the declared reading of `canonical-tags` (harness/protocol/readings.ts): refused
 * (ERR_CBOR_TAG) or passed-through (the bytes come back unchanged). `asData` is what the input is with its tags read as
 * data: canonical (the default), or the code of the §3 rule it then breaks (a tagged map key that no longer sorts in
 * order), refused by either reading. With none declared each may be either, and `done` ends the test as acceptable.
 */
function tagReading(): { judge: (got: string, what: string, asData?: JcpErrorCode) => void; done: (what: string) => void } {
  const declared = declaredReading('canonical-tags');
  const codes = refusalJudge();
  const seen = new Set<string>();
  return {
    judge(got, what, asData) {
      if (declared === 'refused') codes(got, 'ERR_CBOR_TAG', what);
      else if (asData !== undefined) codes(got, declared === 'passed-through' ? asData : ['ERR_CBOR_TAG', asData], what);
      else if (declared === 'passed-through') expect(got, `${what}: the declared reading passed-through`).toBe(SAME);
      else {
        expect(got === SAME || isRefusal(got), `${what}: refused or kept, but ${got}`).toBe(true);
        seen.add(got === SAME ? 'kept' : 'refused');
      }
    },
    done(what) {
      if (!declared) throw new AcceptableReading(`${what}: ${[...seen].join(' and ')}, a reading the text permits (none declared)`);
    },
  };
}

/** Undefined when `b` is canonical with tag `tag` read as data (jcp §3 otherwise), else the code of the rule it breaks. */
function asData(b: Uint8Array, tag: number): JcpErrorCode | undefined {
  try {
    decodeCanonical(b, { allowTags: [tag] });
    return undefined;
  } catch (e) {
    if (isJcpError(e)) return e.code;
    throw e;
  }
}

/**
 * Whether the declared reading of `map-key-types` keeps map keys of `type` ('int', or 'other': byte strings, arrays,
 * maps); undefined when none is declared. Text keys are kept by every reading.
 */
function keptKeyType(type: 'int' | 'other'): boolean | undefined {
  const d = declaredReading('map-key-types');
  if (d === undefined) return undefined;
  return d === 'any-type' || (type === 'int' && d === 'int-and-text');
}

/**
 * For a test of key order over maps with keys of `types`: true, once each of `hexes` is refused, when the declared
 * reading of map-key types refuses one of those types (key order does not arise then); false otherwise.
 */
async function refusedForKeyTypes(types: readonly ('int' | 'other')[], hexes: readonly string[]): Promise<boolean> {
  if (!types.some((t) => keptKeyType(t) === false)) return false;
  for (const hex of hexes) expect(isRefusal(await check(hex)), `${label(hex)}: keys the declared reading of map-key types refuses`).toBe(true);
  return true;
}

/** A reading of the open point `key-order` (harness/protocol/readings.ts). */
type KeyOrder = 'length-first' | 'bytewise';
const KEY_ORDERS: readonly KeyOrder[] = ['length-first', 'bytewise'];

const compareBytes = (a: Uint8Array, b: Uint8Array): number => {
  for (let i = 0; i < Math.min(a.length, b.length); i++) if (a[i] !== b[i]) return (a[i] as number) - (b[i] as number);
  return a.length - b.length;
};

/**
 * Encoded keys in `order`: length-first (RFC 7049 canonical: the shorter encoding first, then bytewise) or bytewise
 * (RFC 8949 §4.2.1). The two agree on keys of one major type, whose heads order them by length.
 */
const keyOrder = (order: KeyOrder) => (a: Uint8Array, b: Uint8Array): number => (order === 'length-first' && a.length !== b.length ? a.length - b.length : compareBytes(a, b));

/** Encoded map entries (key ‖ value, hex) sorted by their keys in `order`. */
function sortedEntries(entries: readonly string[], order: KeyOrder): string[] {
  const keyOf = (e: string): Uint8Array => {
    const b = fromHex(e);
    return b.subarray(0, walk(b)[0]!.end);
  };
  return [...entries].sort((x, y) => keyOrder(order)(keyOf(x), keyOf(y)));
}

/** The canonical encoding of `x` with every map's keys in `order` (length-first is the reference encoder's). */
function encodeInOrder(x: CborValue, order: KeyOrder): Uint8Array {
  if (x instanceof Map) {
    const es = [...x].map(([k, v]) => [encodeInOrder(k, order), encodeInOrder(v, order)] as const).sort(([a], [b]) => keyOrder(order)(a, b));
    return concatBytes(fromHex(head(5, es.length)), ...es.flat());
  }
  if (Array.isArray(x)) return concatBytes(fromHex(head(4, x.length)), ...x.map((v) => encodeInOrder(v, order)));
  return encodeCanonical(x);
}

/**
 * Maps whose keys are of different major types, each given as its entries, where the readings of `key-order` differ:
 * the order of the declared reading must come back unchanged and every other order be refused (ERR_CBOR_UNSORTED_KEYS).
 * With none declared, the implementation must keep to one reading over all of them, and the test ends acceptable.
 */
async function expectKeyOrderAsDeclared(maps: readonly (readonly string[])[]): Promise<void> {
  const declared = declaredReading('key-order') as KeyOrder | undefined;
  if (declared) {
    for (const entries of maps) await expectOnlyCanonicalOrder(sortedEntries(entries, declared));
    return;
  }
  const keptTo = new Set(KEY_ORDERS);
  const codes = refusalJudge();
  for (const entries of maps) {
    const canonical = new Map(KEY_ORDERS.map((o) => [o, mapOf(sortedEntries(entries, o))]));
    for (const p of permutations(entries)) {
      const hex = mapOf(p);
      const got = await check(hex);
      for (const o of KEY_ORDERS) if ((hex === canonical.get(o)) !== (got === SAME)) keptTo.delete(o);
      if (got !== SAME) codes(got, 'ERR_CBOR_UNSORTED_KEYS', label(hex));
    }
    expect([...keptTo], `${label(canonical.get('length-first')!)}: kept in neither reading's order alone`).not.toEqual([]);
  }
  throw new AcceptableReading(`keys of different major types: in ${[...keptTo].join(' and ')} order, a reading the text permits (none declared)`);
}

/** fc.assert for async properties; a TesteeFailure or UnimplementedError inside a run surfaces as itself. */
const hexByte = (n: number): string => n.toString(16).padStart(2, '0');

/** A head of major type `major` for `arg`, in the form `ai` names (24 … 27), or the shortest when omitted. */
function head(major: number, arg: number | bigint, ai?: 24 | 25 | 26 | 27): string {
  const a = BigInt(arg);
  const form = ai ?? (a < 24n ? undefined : a < 0x100n ? 24 : a < 0x10000n ? 25 : a < 0x100000000n ? 26 : 27);
  if (form === undefined) return hexByte((major << 5) | Number(a));
  const n = 1 << (form - 24);
  return hexByte((major << 5) | form) + a.toString(16).padStart(2 * n, '0');
}

/** Every wider encoding of the first head of `hex` (the rest unchanged): each must be refused ERR_CBOR_NOT_SHORTEST. */
function widened(hex: string): string[] {
  const b = fromHex(hex);
  const it = walk(b)[0]!;
  return widerHeads(it.major, it.arg, it.headLen).map((h) => toHex(splice(b, 0, it.headLen, h)));
}

function permutations<T>(xs: readonly T[]): T[][] {
  if (xs.length <= 1) return [[...xs]];
  return xs.flatMap((x, i) => permutations([...xs.slice(0, i), ...xs.slice(i + 1)]).map((rest) => [x, ...rest]));
}

/** A map of the given encoded entries, in the order given. */
const mapOf = (entries: readonly string[]): string => head(5, entries.length) + entries.join('');

/** Every order of `entries` but the canonical one (as given) is refused ERR_CBOR_UNSORTED_KEYS. */
async function expectOnlyCanonicalOrder(entries: readonly string[]): Promise<void> {
  const canonical = mapOf(entries);
  await expectSame(canonical);
  let refused = 0;
  for (const p of permutations(entries)) {
    const hex = mapOf(p);
    if (hex === canonical) continue;
    await expectRefused(hex, 'ERR_CBOR_UNSORTED_KEYS');
    refused++;
  }
  expect(refused).toBe(permutations(entries).length - 1);
}

// ---- canonical forms ----

describe('canonical forms come back unchanged; wider heads are refused', () => {
  clauseIt([CANONICAL, SHORTEST], '{a: 1} is a1 61 61 01 (a one-byte map head); wider map heads are refused', async () => {
    await expectSame('a1616101');
    for (const w of widened('a1616101')) await expectRefused(w, 'ERR_CBOR_NOT_SHORTEST');
    expect(widened('a1616101')).toEqual(['b8016161' + '01', 'b900016161' + '01', 'ba000000016161' + '01', 'bb00000000000000016161' + '01']);
  });

  clauseIt([SHORTEST], 'each integer in its shortest head comes back unchanged; every wider head is refused', async () => {
    const cases = [
      '00', '17', '1818', '18ff', '190100', '19ffff', '1a00010000', '1affffffff', '1b0000000100000000', '1b0000010000000000',
      '1b001fffffffffffff', '1b0020000000000000', '1bffffffffffffffff', '05',
      '20', '37', '3818', '38ff', '390100', '3affffffff', '3b0000000100000000', '3b001ffffffffffffe', '3b001fffffffffffff',
      '3bffffffffffffffff',
    ];
    let wider = 0;
    for (const hex of cases) {
      await expectSame(hex);
      for (const w of widened(hex)) {
        await expectRefused(w, 'ERR_CBOR_NOT_SHORTEST');
        wider++;
      }
    }
    expect(wider).toBe(41);
  });

  clauseIt([CANONICAL, SHORTEST], 'integers beyond 2^53 keep every bit, up to ±2^64', async () => {
    // a decoder that reads integers as doubles changes these bytes
    for (const hex of ['1b001fffffffffffff', '1b0020000000000000', '1b0020000000000001', '1bfffffffffffffffe', '1bffffffffffffffff']) await expectSame(hex);
    for (const hex of ['3b001ffffffffffffe', '3b001fffffffffffff', '3b0020000000000000', '3bfffffffffffffffe', '3bffffffffffffffff']) await expectSame(hex);
  });

  clauseIt([CANONICAL, SHORTEST], 'strings and containers in the shortest length head come back unchanged; wider heads are refused', async () => {
    const text = (utf8Hex: string): string => head(3, utf8Hex.length / 2) + utf8Hex;
    const cases = [
      '60',
      text('78'.repeat(23)),
      text('78'.repeat(24)),
      text('78'.repeat(255)),
      text('78'.repeat(256)),
      text('c3a9'.repeat(12)), // 24 UTF-8 bytes from 12 UTF-16 units
      text('c3a9'.repeat(128)), // 256 bytes
      text('f09f9880'.repeat(40)), // 80 UTF-16 units, 160 UTF-8 bytes
      text('78'.repeat(100)),
      text('78'.repeat(30000)),
      text('78'.repeat(99) + 'c3a9'),
      '40',
      head(2, 24) + '00'.repeat(24),
      head(4, 24) + '00'.repeat(24),
      head(5, 24) + Array.from({ length: 24 }, (_, i) => head(0, i) + '00').join(''),
      '69c3bce6b0b4f0908591', // ü水𐅑
    ];
    expect(cases.map((h) => h.slice(0, 6))).toEqual([
      '60', '777878', '781878', '78ff78', '790100', '7818c3', '790100', '78a0f0', '786478', '797530', '786578', '40', '581800',
      '981800', 'b81800', '69c3bc',
    ]);
    for (const hex of cases) {
      await expectSame(hex);
      for (const w of widened(hex)) await expectRefused(w, 'ERR_CBOR_NOT_SHORTEST');
    }
  });
});

describe('key order', () => {
  clauseIt([KEY_ORDER], 'text keys: shorter first, then bytewise; every other order is refused', async () => {
    await expectOnlyCanonicalOrder(['616102', '616204', '62626201', '6363636303']);
    // UTF-8 byte order, not UTF-16 order: U+FF5E (ef bd 9e) sorts before U+1F600 (f0 9f 98 80) by length alone,
    // and U+FFFF "a" (ef bf bf 61) before U+10000 (f0 90 80 80) bytewise, though U+D800… is below U+FFFF in UTF-16
    await expectOnlyCanonicalOrder(['63efbd9e02', '64f09f988001']);
    await expectOnlyCanonicalOrder(['64efbfbf6102', '64f090808001']);
  });

  clauseIt([OPEN_KEY_ORDER, REJECT], 'mixed int and text keys come back in the declared reading’s key order only', async () => {
    const entries = ['0104', '2003', '181802', '616101', '19010005'];
    // length-first: 01, 20 (1 byte) < 1818, 6161 (2 bytes) < 190100 (3 bytes); bytewise: 01 < 1818 < 190100 < 20 < 6161
    expect(mapOf(sortedEntries(entries, 'length-first'))).toBe('a50104200318180261610119010005');
    expect(mapOf(sortedEntries(entries, 'bytewise'))).toBe('a50104181802190100052003616101');
    if (await refusedForKeyTypes(['int'], ['a50104200318180261610119010005'])) return;
    await expectKeyOrderAsDeclared([entries]);
  });

  clauseIt([OPEN_KEY_ORDER, REJECT], '24 and −1, a text and a byte-string key: the orders the two readings differ on', async () => {
    if (await refusedForKeyTypes(['int', 'other'], ['a22002181801', 'a2616102' + '42000001'])) return;
    // length-first: 20 (1 byte) < 18 18 (2 bytes); bytewise over encoded keys: 18 18 < 20
    expect(mapOf(sortedEntries(['181801', '2002'], 'bytewise'))).toBe('a2181801' + '2002');
    // and a short text key before a longer byte-string key (length-first), though 0x42.. < 0x61.. (bytewise)
    expect(mapOf(sortedEntries(['616102', '42000001'], 'length-first'))).toBe('a2' + '616102' + '42000001');
    await expectKeyOrderAsDeclared([['181801', '2002'], ['616102', '42000001']]);
  });

  clauseIt([CANONICAL, REJECT], 'duplicate keys are refused, whatever their type', async () => {
    await expectRefused('a2616101616102', 'ERR_CBOR_DUPLICATE_KEY');
    await expectRefused('a2' + '0101' + '0102', 'ERR_CBOR_DUPLICATE_KEY');
    await expectRefused('a2' + '410100' + '410101', 'ERR_CBOR_DUPLICATE_KEY');
    await expectRefused('a2' + '810100' + '810101', 'ERR_CBOR_DUPLICATE_KEY');
    await expectRefused('a1' + '61' + '61' + 'a2616101616102', 'ERR_CBOR_DUPLICATE_KEY'); // nested
  });

  clauseIt([OPEN_KEY_TYPES], 'keys of other types than text come back unchanged or are refused, as the declared reading of map-key types says', async () => {
    // harness/protocol/readings.ts: any-type keeps them all; int-and-text refuses byte-string, array and map keys;
    // text-only refuses integer keys too (the suite has no ERR_CBOR_ code for such a refusal: refused is what counts)
    const cases: [string, string, 'int' | 'other'][] = [
      ['byte-string, array and map keys', 'a3' + '4101' + '00' + '8101' + '01' + 'a10102' + '02', 'other'],
      ['a byte-string key', 'a1' + '4101' + '00', 'other'],
      ['integer keys and a text key', 'a3' + '01' + '636f6e65' + '20' + '636e6567' + '686772616e745f6964' + '6167', 'int'], // {1: "one", -1: "neg", "grant_id": "g"}
      ['integer keys', 'a2' + '0102' + '0304', 'int'],
    ];
    const seen: string[] = [];
    for (const [what, hex, type] of cases) {
      const got = await check(hex);
      const kept = keptKeyType(type);
      if (kept === true) expect(got, `${what}: kept by the declared reading`).toBe(SAME);
      else if (kept === false) expect(isRefusal(got), `${what}: refused by the declared reading, but ${got}`).toBe(true);
      else {
        expect(got === SAME || isRefusal(got), `${what}: kept or refused, but ${got}`).toBe(true);
        seen.push(`${what} ${got === SAME ? 'kept' : 'refused'}`);
      }
    }
    if (seen.length) throw new AcceptableReading(`${seen.join('; ')}: readings the text permits (none declared)`);
  });
});

describe('what a signed core never carries', () => {
  clauseIt([NO_FLOAT_BOOL_NULL, REJECT], 'every float and every simple value, wherever it sits', async () => {
    for (const hex of ['f90000', 'f93c00', 'fa47c35000', 'fb3ff199999999999a', 'f97c00', 'f97e00', 'fbfff0000000000000']) {
      await expectRefused(hex, 'ERR_CBOR_FLOAT');
      await expectRefused('81' + hex, 'ERR_CBOR_FLOAT');
      await expectRefused('a1' + '6161' + hex, 'ERR_CBOR_FLOAT');
      await expectRefused('a1' + hex + '01', 'ERR_CBOR_FLOAT');
    }
    // a float cut short is also truncated
    for (const hex of ['f9', 'fb00', '81f9']) await expectRefused(hex, ['ERR_CBOR_FLOAT', 'ERR_CBOR_TRUNCATED']);
    for (let ai = 0; ai < 24; ai++) {
      const hex = hexByte(0xe0 | ai);
      await expectRefused(hex, 'ERR_CBOR_SIMPLE_VALUE');
      await expectRefused('8201' + hex, 'ERR_CBOR_SIMPLE_VALUE');
    }
    for (const hex of ['f820', 'f8ff', 'a1f401', 'a101f5', '8201f6', 'a1f701']) await expectRefused(hex, 'ERR_CBOR_SIMPLE_VALUE');
    // simple(0) in a two-byte head is also not the shortest form (RFC 8949 §3.3 makes it not well-formed)
    await expectRefused('f800', ['ERR_CBOR_SIMPLE_VALUE', 'ERR_CBOR_NOT_SHORTEST']);
  });

  clauseIt([OPEN_TAGS], 'tags, tag 18 (the COSE envelope) included, are refused or kept as the declared reading of tags says', async () => {
    // harness/protocol/readings.ts: refused (ERR_CBOR_TAG: a signed core carries none) or passed-through (kept as data)
    const tags = tagReading();
    for (const hex of [
      'd28443a10127a04100420000', // a COSE_Sign1 shape
      'c101',
      'c11a514b67b0',
      'c249010000000000000000',
      'd74401020304',
      'd2d201',
      'd2c101',
      'd81801',
      'dbffffffffffffffff01',
      '81c101',
      '8201c101',
      'a1' + '6161' + 'c101',
      'a1' + 'c101' + '01',
    ]) {
      tags.judge(await check(hex), label(hex));
    }
    tags.done('tags');
  });

  clauseIt([REJECT, SHORTEST, NO_FLOAT_BOOL_NULL], 'a tag whose number or contents also break a rule is refused for either', async () => {
    await expectRefused('d81201', ['ERR_CBOR_TAG', 'ERR_CBOR_NOT_SHORTEST']); // tag 18 in a 1-byte argument
    await expectRefused('d80100', ['ERR_CBOR_TAG', 'ERR_CBOR_NOT_SHORTEST']);
    await expectRefused('d2f6', ['ERR_CBOR_TAG', 'ERR_CBOR_SIMPLE_VALUE']);
    await expectRefused('d2f93c00', ['ERR_CBOR_TAG', 'ERR_CBOR_FLOAT']);
    await expectRefused('d21800', ['ERR_CBOR_TAG', 'ERR_CBOR_NOT_SHORTEST']);
    await expectRefused('d2', ['ERR_CBOR_TAG', 'ERR_CBOR_TRUNCATED']);
    await expectRefused('df00', ['ERR_CBOR_TAG', 'ERR_CBOR_INDEFINITE_LENGTH']);
  });
});

// ---- strict refusals ----

describe('strict refusals', () => {
  clauseIt([REJECT], 'truncation, including empty input and declared lengths beyond the input', async () => {
    for (const hex of ['', '18', '19ff', '1a0001', '1b00000001', '62c3', '8301', 'a16161', 'a1', '5818', '9b0000000100000000', 'a20102', '5f', 'c2']) {
      // 5f and c2 are also indefinite / tagged
      const also: JcpErrorCode | undefined = hex === '5f' ? 'ERR_CBOR_INDEFINITE_LENGTH' : hex === 'c2' ? 'ERR_CBOR_TAG' : undefined;
      await expectRefused(hex, also ? ['ERR_CBOR_TRUNCATED', also] : 'ERR_CBOR_TRUNCATED');
    }
    // huge declared lengths: refused, not allocated (an implementation may call them too large rather than truncated)
    for (const hex of ['5bffffffffffffffff', '7bffffffffffffffff', '9bffffffffffffffff', 'bbffffffffffffffff', '5affffffff', 'baffffffff']) {
      await expectRefused(hex + '00', ['ERR_CBOR_TRUNCATED', 'ERR_CBOR_TOO_LARGE']);
    }
  });

  clauseIt([REJECT], 'trailing bytes after the one item', async () => {
    for (const hex of ['0000', 'a0ff', '820102' + '03', '6161' + '6161', 'a1616101' + '00']) await expectRefused(hex, 'ERR_CBOR_TRAILING_BYTES');
  });

  clauseIt([SHORTEST, REJECT], 'arguments and lengths not in the shortest form', async () => {
    for (const hex of ['1800', '1817', '190017', '1900ff', '1a0000ffff', '1b00000000ffffffff', '3817', '3a0000ffff', '5800', '780161', '9800', 'b800', '590002aabb']) {
      await expectRefused(hex, 'ERR_CBOR_NOT_SHORTEST');
    }
    for (const hex of ['1818', '190100', '1a00010000', '1b0000000100000000']) await expectSame(hex);
  });

  clauseIt([REJECT], 'indefinite lengths in every major type, and a lone break byte', async () => {
    for (const hex of ['1f', '3f', '5f40ff', '7f60ff', '9fff', 'bfff', 'ff', '81ff', '9f', '9f01ff', 'bf616101ff']) {
      await expectRefused(hex, 'ERR_CBOR_INDEFINITE_LENGTH');
    }
  });

  clauseIt([REJECT], 'reserved additional information 28 … 30', async () => {
    for (let major = 0; major < 8; major++) {
      for (const ai of [28, 29, 30]) {
        const hex = hexByte((major << 5) | ai) + '00';
        // in major type 6 the item is also a tag, in 7 also a simple value or float
        const also: JcpErrorCode[] = major === 6 ? ['ERR_CBOR_TAG'] : major === 7 ? ['ERR_CBOR_SIMPLE_VALUE', 'ERR_CBOR_FLOAT'] : [];
        await expectRefused(hex, also.length ? ['ERR_CBOR_RESERVED_ADDITIONAL_INFO', ...also] : 'ERR_CBOR_RESERVED_ADDITIONAL_INFO');
      }
    }
  });

  clauseIt([REJECT], 'text must be valid UTF-8; a byte order mark is valid and kept', async () => {
    for (const hex of ['61ff', '61c0', '62c080', '62c328', '63eda080', '64f4908080', '64f8888080', '6180', '7818' + '61'.repeat(23) + 'c3', 'a161ff01', '8161ff']) {
      await expectRefused(hex, 'ERR_CBOR_INVALID_UTF8');
    }
    await expectSame('63efbbbf');
    await expectSame('64efbbbf61');
  });

  clauseIt([REJECT], 'deep nesting is refused with a code or kept, never a crash', async () => {
    const nest = (n: number): string => '81'.repeat(n) + '00';
    await expectSame(nest(8));
    // a hundred thousand open arrays and no item: too deep, or truncated
    await expectRefused('81'.repeat(100_000), ['ERR_CBOR_TOO_DEEP', 'ERR_CBOR_TRUNCATED']);
    const deep = await check(nest(100_000));
    if (deep !== SAME) expectRefusedAs(deep, 'ERR_CBOR_TOO_DEEP', `${label(nest(100_000))}: kept or refused`);
  });
});

// ---- properties ----

const U64 = 1n << 64n;
const BOUNDARY_INTS: (number | bigint)[] = [
  0, 23, 24, 255, 256, 65535, 65536, 2 ** 32 - 1, 2 ** 32, Number.MAX_SAFE_INTEGER, -Number.MAX_SAFE_INTEGER,
  -1, -24, -25, -256, -257, -65536, -65537, -(2 ** 32), -(2 ** 32) - 1, 2n ** 53n, -(2n ** 53n), U64 - 1n, -U64,
];

const intArb: fc.Arbitrary<number | bigint> = fc.oneof(
  fc.integer({ min: -30, max: 300 }),
  fc.constantFrom(...BOUNDARY_INTS),
  fc.integer(),
  fc.maxSafeInteger(),
  fc.bigInt({ min: -U64, max: U64 - 1n }),
);
/** `make()` on the first call, the same value after. */
const memo = <T>(make: () => T): (() => T) => {
  let made: T | undefined;
  return () => (made ??= make());
};
// The text arbitraries are made on first use, inside the properties: `unit: 'binary'` (every code point) costs fast-check
// about a second of tables when made, which a run whose classes skip these properties should not pay at load.
const textArb = memo(() =>
  fc.oneof(
    fc.string({ maxLength: 6 }),
    fc.string({ unit: 'binary', maxLength: 6 }),
    fc.string({ unit: 'grapheme', maxLength: 3 }),
    fc.string({ minLength: 20, maxLength: 30 }),
    fc.string({ unit: 'binary', minLength: 90, maxLength: 140 }),
  ),
);
const bytesArb: fc.Arbitrary<Uint8Array> = fc.oneof(fc.uint8Array({ maxLength: 8 }), fc.uint8Array({ minLength: 20, maxLength: 300 }));
const shortTextArb = memo(() => fc.oneof(fc.string({ maxLength: 4 }), fc.string({ unit: 'binary', maxLength: 3 }), fc.string({ minLength: 23, maxLength: 25 })));
const shortBytesArb: fc.Arbitrary<Uint8Array> = fc.uint8Array({ maxLength: 4 });
const keyId = (k: number | bigint | string): string => (typeof k === 'string' ? `s${k}` : `i${BigInt(k)}`);

/**
 * Trees of CborValue: integers (bigints included), text, bytes, arrays, and maps with text keys, and int keys too unless
 * `textKeys` (jcp/3#open-map-key-types: a reading may refuse integer keys). With `oneKeyType`, the keys of each map
 * share a major type (unsigned, negative or text), where the readings of jcp/3#open-key-order agree.
 */
function treeArb(opts: { small?: boolean; textKeys?: boolean; oneKeyType?: boolean } = {}): fc.Arbitrary<CborValue> {
  const text = opts.small === true ? shortTextArb() : textArb();
  const bytes = opts.small === true ? shortBytesArb : bytesArb;
  const keys: fc.Arbitrary<number | bigint | string> = opts.textKeys === true ? text : fc.oneof(intArb, text);
  const keyKinds: fc.Arbitrary<number | bigint | string>[] =
    opts.textKeys === true ? [text] : [intArb.filter((k) => BigInt(k) >= 0n), intArb.filter((k) => BigInt(k) < 0n), text];
  return fc.letrec<{ value: CborValue; array: CborValue[]; map: CborMap }>((tie) => {
    const mapOfKeys = (k: fc.Arbitrary<number | bigint | string>): fc.Arbitrary<CborMap> =>
      fc.uniqueArray(fc.tuple(k, tie('value')), { maxLength: 6, selector: ([key]) => keyId(key) }).map((es) => new Map<CborValue, CborValue>(es));
    return {
      value: fc.oneof({ depthSize: 'small', maxDepth: 4 }, intArb, text, bytes, tie('array'), tie('map')),
      array: fc.array(tie('value'), { maxLength: 5 }),
      map: opts.oneKeyType === true ? fc.oneof(...keyKinds.map(mapOfKeys)) : mapOfKeys(keys),
    };
  }).value;
}

const anyTree = memo(() => treeArb());
const smallTree = memo(() => treeArb({ small: true }));
/**
 * Trees whose map keys the declared reading of map-key types keeps (integer keys only where it keeps them), each map's
 * keys of one major type, so that their canonical encoding is the same under either reading of key order.
 */
const keptTree = (small: boolean): fc.Arbitrary<CborValue> => treeArb({ small, textKeys: keptKeyType('int') !== true, oneKeyType: true });

/** One item of a canonical encoding, as a minimal independent walk sees it. */
interface Item {
  readonly at: number;
  readonly major: number;
  readonly headLen: number;
  readonly arg: bigint;
  end: number;
  entries?: { k: number; ke: number; ve: number }[];
}

/** Every item of a well-formed definite-length encoding, in order (test-side; trusts its input). */
function walk(b: Uint8Array): Item[] {
  const items: Item[] = [];
  let p = 0;
  const item = (): void => {
    const at = p;
    const ib = b[p] as number;
    const ai = ib & 31;
    const n = ai < 24 ? 0 : 1 << (ai - 24);
    let arg = ai < 24 ? BigInt(ai) : 0n;
    for (let i = 0; i < n; i++) arg = arg * 256n + BigInt(b[at + 1 + i] as number);
    const it: Item = { at, major: ib >> 5, headLen: 1 + n, arg, end: 0 };
    items.push(it);
    p = at + 1 + n;
    if (it.major === 2 || it.major === 3) p += Number(arg);
    else if (it.major === 4) for (let i = 0n; i < arg; i++) item();
    else if (it.major === 5) {
      it.entries = [];
      for (let i = 0n; i < arg; i++) {
        const k = p;
        item();
        const ke = p;
        item();
        it.entries.push({ k, ke, ve: p });
      }
    } else if (it.major === 6) item();
    it.end = p;
  };
  item();
  return items;
}

const splice = (b: Uint8Array, from: number, to: number, ...ins: Uint8Array[]): Uint8Array =>
  concatBytes(b.subarray(0, from), ...ins, b.subarray(to));

/** Heads for `arg` in every form longer than `headLen` bytes. */
function widerHeads(major: number, arg: bigint, headLen: number): Uint8Array[] {
  const out: Uint8Array[] = [];
  for (const [ai, n] of [[24, 1], [25, 2], [26, 4], [27, 8]] as const) {
    if (1 + n <= headLen) continue;
    const h = new Uint8Array(1 + n);
    h[0] = (major << 5) | ai;
    let a = arg;
    for (let i = n; i >= 1; i--) {
      h[i] = Number(a & 0xffn);
      a >>= 8n;
    }
    out.push(h);
  }
  return out;
}

/** Every non-canonical mutation of canonical `b`, each with the code it must be refused with. */
function mutations(b: Uint8Array): [string, Uint8Array, JcpErrorCode][] {
  const out: [string, Uint8Array, JcpErrorCode][] = [];
  const one = (x: number): Uint8Array => Uint8Array.of(x);
  for (let p = 0; p < b.length; p++) out.push([`truncated at ${p}`, b.subarray(0, p), 'ERR_CBOR_TRUNCATED']);
  out.push(['a trailing byte', concatBytes(b, one(b.length & 0xff)), 'ERR_CBOR_TRAILING_BYTES']);
  out.push(['a second item', concatBytes(b, b), 'ERR_CBOR_TRAILING_BYTES']);
  for (const it of walk(b)) {
    for (const h of widerHeads(it.major, it.arg, it.headLen)) {
      out.push([`head at ${it.at} widened to ${h.length} bytes`, splice(b, it.at, it.at + it.headLen, h), 'ERR_CBOR_NOT_SHORTEST']);
    }
    out.push([`reserved ai at ${it.at}`, splice(b, it.at, it.at + 1, one((it.major << 5) | 28)), 'ERR_CBOR_RESERVED_ADDITIONAL_INFO']);
    if (it.major === 4 || it.major === 5) {
      const body = b.subarray(it.at + it.headLen, it.end);
      out.push([`indefinite container at ${it.at}`, splice(b, it.at, it.end, one((it.major << 5) | 31), body, one(0xff)), 'ERR_CBOR_INDEFINITE_LENGTH']);
    }
    if (it.major === 2 || it.major === 3) {
      const whole = b.subarray(it.at, it.end);
      out.push([`indefinite string at ${it.at}`, splice(b, it.at, it.end, one((it.major << 5) | 31), whole, one(0xff)), 'ERR_CBOR_INDEFINITE_LENGTH']);
    }
    if (it.major <= 3) {
      out.push([`null at ${it.at}`, splice(b, it.at, it.end, one(0xf6)), 'ERR_CBOR_SIMPLE_VALUE']);
      out.push([`float at ${it.at}`, splice(b, it.at, it.end, fromHex('f93c00')), 'ERR_CBOR_FLOAT']);
    }
    const es = it.entries ?? [];
    for (let j = 0; j + 1 < es.length; j++) {
      const x = es[j]!;
      const y = es[j + 1]!;
      const ex = b.subarray(x.k, x.ve);
      const ey = b.subarray(y.k, y.ve);
      out.push([`entries ${j}, ${j + 1} swapped at ${x.k}`, splice(b, x.k, y.ve, ey, ex), 'ERR_CBOR_UNSORTED_KEYS']);
      out.push([`entry ${j} repeated at ${y.k}`, splice(b, y.k, y.ve, ex), 'ERR_CBOR_DUPLICATE_KEY']);
    }
  }
  return out;
}

/** Runs of (c): each yields dozens of mutations (about 3 500 in all), each one protocol call. */
const MUTATION_RUNS = 60;

describe('properties (fast-check, fixed seed)', () => {
  clauseIt([CANONICAL, REJECT], '(b) every canonical encoding comes back unchanged', async () => {
    await assertProperty(
      fc.asyncProperty(keptTree(false), async (x) => {
        const b = encodeCanonical(x);
        expect(await check(b), toHex(b)).toBe(SAME);
      }),
      fcParams(150),
    );
  });

  clauseIt([OPEN_KEY_ORDER, REJECT], '(b′) canonical encodings whose maps mix key types come back in the declared reading’s key order', async () => {
    // harness/protocol/readings.ts: length-first or bytewise; each tree is sent in both orders where they differ
    if (keptKeyType('int') === false) {
      note('integer keys are refused by the declared reading of map-key types: keys of different major types do not arise');
      return;
    }
    // {24: 1, -1: 2, "a": [{"b": 3, 0: 4}]}: bytewise 18 18 < 20 < 61 61, and 00 < 61 62 inside; length-first 20 first
    const sample = new Map<CborValue, CborValue>([[24, 1], [-1, 2], ['a', [new Map<CborValue, CborValue>([['b', 3], [0, 4]])]]]);
    expect(toHex(encodeInOrder(sample, 'bytewise'))).toBe('a3' + '181801' + '2002' + '6161' + '81a2' + '0004' + '616203');
    expect(toHex(encodeInOrder(sample, 'length-first'))).toBe('a3' + '2002' + '181801' + '6161' + '81a2' + '0004' + '616203');
    const declared = declaredReading('key-order') as KeyOrder | undefined;
    const keptTo = new Set(declared ? [declared] : KEY_ORDERS);
    const codes = refusalJudge();
    let differ = 0;
    let refusedForKeys = 0;
    await assertProperty(
      fc.asyncProperty(anyTree(), async (x) => {
        const enc = { 'length-first': encodeInOrder(x, 'length-first'), bytewise: encodeInOrder(x, 'bytewise') };
        expect(toHex(enc['length-first']), 'the reference encoder orders keys length-first').toBe(toHex(encodeCanonical(x)));
        if (toHex(enc['length-first']) === toHex(enc.bytewise)) return;
        differ++;
        const got = { 'length-first': await check(enc['length-first']), bytewise: await check(enc.bytewise) };
        // integer keys refused, where no reading of map-key types is declared: key order does not arise
        if (keptKeyType('int') === undefined && isRefusal(got['length-first']) && isRefusal(got.bytewise)) {
          refusedForKeys++;
          return;
        }
        for (const o of KEY_ORDERS) {
          if (got[o] !== SAME) keptTo.delete(o);
          else codes(got[o === 'length-first' ? 'bytewise' : 'length-first'], 'ERR_CBOR_UNSORTED_KEYS', `${toHex(enc[o === 'length-first' ? 'bytewise' : 'length-first'])} beside ${toHex(enc[o])}`);
        }
        expect([...keptTo], `${toHex(enc['length-first'])}: ${declared ? `not kept in the declared reading's order (${declared})` : 'kept in neither reading’s order alone'}`).not.toEqual([]);
      }),
      fcParams(150),
    );
    expect(differ, 'trees on which the two orders differ').toBeGreaterThan(20);
    if (refusedForKeys > 0) note(`${refusedForKeys} trees refused in both orders (integer keys; no reading of map-key types declared)`);
    if (!declared) throw new AcceptableReading(`keys of different major types: in ${[...keptTo].join(' and ')} order, a reading the text permits (none declared)`);
  });

  clauseIt([REJECT, SHORTEST, KEY_ORDER, NO_FLOAT_BOOL_NULL], '(c) every non-canonical mutation is refused with its code', async () => {
    let checked = 0;
    const judge = refusalJudge();
    await assertProperty(
      fc.asyncProperty(keptTree(true), async (x) => {
        const b = encodeCanonical(x);
        for (const [what, m, code] of mutations(b)) {
          judge(await check(m), code, `${what} of ${toHex(b)}`);
          checked++;
        }
      }),
      fcParams(MUTATION_RUNS),
    );
    expect(checked).toBeGreaterThan(1000);
  });

  clauseIt([OPEN_TAGS], '(e) any item of a canonical encoding under a tag is refused or kept, as the declared reading of tags says', async () => {
    // tag 55799 (self-described CBOR, RFC 8949 §3.4.6) may stand before any item
    const tags = tagReading();
    let checked = 0;
    await assertProperty(
      fc.asyncProperty(smallTree(), async (x) => {
        const b = encodeCanonical(x);
        for (const it of walk(b)) {
          const m = splice(b, it.at, it.end, fromHex('d9d9f7'), b.subarray(it.at, it.end));
          // a tagged map key is ordered by its encoding, tag head included: read as data, it may no longer sort in order
          tags.judge(await check(m), `tagged at ${it.at} of ${toHex(b)}`, asData(m, 55799));
          checked++;
        }
      }),
      fcParams(20),
    );
    expect(checked).toBeGreaterThan(20);
    tags.done('a tag before an item');
  });

  clauseIt([REJECT], '(d) junk either comes back unchanged or is refused with an ERR_CBOR code', async () => {
    // kept byte for byte or refused (spec); refused with an ERR_CBOR_ code (byte contract)
    const codes = refusalJudge();
    const judge = async (b: Uint8Array): Promise<void> => {
      const got = await check(b);
      if (got !== SAME) codes(got, /^ERR_CBOR_/, toHex(b));
    };
    const headByte = fc.oneof(fc.integer({ min: 0, max: 255 }), fc.constantFrom(0x18, 0x19, 0x1a, 0x1b, 0x5b, 0x7b, 0x9b, 0xbb, 0xa1, 0x81, 0x61, 0xd2, 0xf6, 0xff));
    await assertProperty(
      fc.asyncProperty(fc.uint8Array({ maxLength: 40 }), (b) => judge(b)),
      fcParams(250),
    );
    await assertProperty(
      fc.asyncProperty(fc.array(headByte, { maxLength: 24 }), (xs) => judge(Uint8Array.from(xs))),
      fcParams(250),
    );
    await assertProperty(
      fc.asyncProperty(anyTree(), fc.nat(), fc.integer({ min: 0, max: 255 }), async (x, at, byte) => {
        const b = encodeCanonical(x);
        const m = b.slice();
        m[at % m.length] = byte;
        await judge(m);
        await judge(m.subarray(0, at % (m.length + 1)));
      }),
      fcParams(150),
    );
  });
});
