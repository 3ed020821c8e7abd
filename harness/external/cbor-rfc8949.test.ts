// RFC 8949 Appendix A, replayed from vectors/external/cbor/ against jcp §3 det-CBOR and the §11 refusals,
// through the implementation's strict decoder (cbor.check): each canonical item comes back byte for byte, each item a
// signed core must refuse and each non-canonical item is refused (the spec grade), with its code (the suite's byte
// contract: the spec names no ERR_ code). The tagged items, and the canonical map with integer keys, are graded against
// the declared readings of jcp/3#open-tags-in-canonical-check and jcp/3#open-map-key-types. The reference (the suite's oracle) is
// also checked to read each canonical item to the value the file writes, and to write that value back to the bytes:
// that keeps the file's value notation honest, and is not a conformance check of the implementation under test.
import { describe, expect, it } from 'vitest';
import { AcceptableReading, classesOfClauses, clauseIt, declaredReading } from '../clause.ts';
import { expectRefusedAs, isRefusal } from '../contract-codes.ts';
import { implementation, testeeInfo } from '../driver.ts';
import { describeWithShared, readVectorJson } from '../external-vectors.ts';
import { TesteeError } from '../implementation.ts';
import { cborEquals, cborTag, decodeCanonical, encodeCanonical, fromHexLoose, isJcpError, toHex, type CborValue, type JcpErrorCode } from '../oracle.ts';

/** The vector file's shape (see its `valueNotation`). */
interface Rfc8949Vectors {
  readonly source: string;
  readonly valueNotation: string;
  readonly canonical: readonly { readonly hex: string; readonly value: unknown }[];
  readonly refusedInSignedCore: readonly { readonly hex: string; readonly why: string }[];
  readonly nonCanonical: readonly { readonly hex: string; readonly why: string }[];
}

const FILE = 'cbor/rfc8949-appendix-a.json';

/**
 * A value in the file's notation as a CborValue. A string is text, except the top-level value of an item whose first
 * byte is major type 0 or 1: there it is a decimal integer beyond 2^53.
 */
function fromNotation(v: unknown, topMajor?: number): CborValue {
  if (typeof v === 'number') {
    if (!Number.isSafeInteger(v)) throw new Error(`notation: ${v} is not a safe integer`);
    return v;
  }
  if (typeof v === 'string') {
    if (topMajor === 0 || topMajor === 1) {
      if (!/^-?[0-9]+$/.test(v)) throw new Error(`notation: integer item written as ${JSON.stringify(v)}`);
      return BigInt(v);
    }
    return v;
  }
  if (Array.isArray(v)) return v.map((x) => fromNotation(x));
  if (typeof v === 'object' && v !== null) {
    const o = v as Record<string, unknown>;
    if (typeof o['bytes'] === 'string' && Object.keys(o).length === 1) return fromHexLoose(o['bytes'], 'notation bytes');
    if (Array.isArray(o['map']) && Object.keys(o).length === 1) {
      const m = new Map<CborValue, CborValue>();
      for (const entry of o['map'] as unknown[]) {
        if (!Array.isArray(entry) || entry.length !== 2) throw new Error('notation: a map entry is not [key, value]');
        m.set(fromNotation(entry[0]), fromNotation(entry[1]));
      }
      return m;
    }
  }
  throw new Error(`notation: cannot read ${JSON.stringify(v)}`);
}

/** The code a signed core's refusal must carry, from the item's first byte alone. */
function refusalCodeOf(hex: string): JcpErrorCode {
  const ib = parseInt(hex.slice(0, 2), 16);
  const major = ib >> 5;
  const ai = ib & 31;
  if (ai === 31) return 'ERR_CBOR_INDEFINITE_LENGTH';
  if (major === 6) return 'ERR_CBOR_TAG';
  if (major === 7 && ai >= 25 && ai <= 27) return 'ERR_CBOR_FLOAT';
  if (major === 7 && ai <= 24) return 'ERR_CBOR_SIMPLE_VALUE';
  throw new Error(`no expected refusal for first byte 0x${hex.slice(0, 2)}`);
}

/** The code a non-canonical vector must be refused with, read from its `why` (first rule that matches wins). */
const WHY_RULES: readonly (readonly [RegExp, JcpErrorCode])[] = [
  [/shortest form|in an? \d-byte argument/i, 'ERR_CBOR_NOT_SHORTEST'],
  [/out of order/i, 'ERR_CBOR_UNSORTED_KEYS'],
  [/duplicate/i, 'ERR_CBOR_DUPLICATE_KEY'],
  [/truncated|missing|cut short/i, 'ERR_CBOR_TRUNCATED'],
  [/trailing/i, 'ERR_CBOR_TRAILING_BYTES'],
  [/invalid utf-8/i, 'ERR_CBOR_INVALID_UTF8'],
];

function nonCanonicalCodeOf(why: string): JcpErrorCode {
  for (const [re, code] of WHY_RULES) if (re.test(why)) return code;
  throw new Error(`no expected code for a non-canonical vector whose why is ${JSON.stringify(why)}: add a rule`);
}

/** What the implementation's strict decoder made of `hex`: 'same' when it came back byte for byte, or the refusal's code. */
async function check(hex: string): Promise<string> {
  const bytes = fromHexLoose(hex);
  try {
    const out = await implementation().cborCheck(bytes);
    return toHex(out) === toHex(bytes) ? 'same' : `accepted but re-encoded as ${toHex(out)}`;
  } catch (e) {
    if (e instanceof TesteeError) return e.code;
    throw e;
  }
}

const CANONICAL_IDS = ['jcp/3#canonical-det-cbor', 'jcp/3#shortest-integer-form', 'jcp/3#key-order-length-first'];
const REFUSED_IDS = ['jcp/3#no-float-bool-null', 'jcp/11#reject-non-canonical'];
/** An indefinite length is no float, bool or null: it is not the canonical form of its item (RFC 8949 §4.2.1). */
const INDEFINITE_IDS = ['jcp/11#reject-non-canonical', 'jcp/3#canonical-det-cbor'];
const NON_CANONICAL_IDS = ['jcp/11#reject-non-canonical', 'jcp/3#canonical-det-cbor'];
const TAGS_IDS = ['jcp/3#open-tags-in-canonical-check'];
const KEY_TYPES_IDS = ['jcp/3#open-map-key-types'];

/** Whether a value in the file's notation holds a map with a key that is not text. */
function hasNonTextKey(v: unknown): boolean {
  if (Array.isArray(v)) return v.some(hasNonTextKey);
  if (typeof v !== 'object' || v === null) return false;
  const m = (v as Record<string, unknown>)['map'];
  if (!Array.isArray(m)) return false;
  return m.some((e) => Array.isArray(e) && (typeof e[0] !== 'string' || hasNonTextKey(e[0]) || hasNonTextKey(e[1])));
}

const idsOfCanonical = (c: { readonly value: unknown }): readonly string[] => (hasNonTextKey(c.value) ? KEY_TYPES_IDS : CANONICAL_IDS);
const idsOfRefused = (r: { readonly hex: string }): readonly string[] => {
  const code = refusalCodeOf(r.hex);
  return code === 'ERR_CBOR_TAG' ? TAGS_IDS : code === 'ERR_CBOR_INDEFINITE_LENGTH' ? INDEFINITE_IDS : REFUSED_IDS;
};

describeWithShared('vectors', 'RFC 8949 Appendix A against det-CBOR', (dir) => {
  const v = readVectorJson<Rfc8949Vectors>(dir, FILE);
  const ran = { canonical: 0, refusedInSignedCore: 0, nonCanonical: 0 };

  describe('canonical: the implementation gives the bytes back unchanged', () => {
    for (const c of v.canonical) {
      if (idsOfCanonical(c) === KEY_TYPES_IDS) {
        // the integer keys of this map: kept unless the declared reading of map-key types refuses them (all their keys
        // are integers here, so int-and-text and any-type keep them, text-only refuses them)
        clauseIt(KEY_TYPES_IDS, `${c.hex} ⇄ ${JSON.stringify(c.value)}, as the declared reading of map-key types says`, async () => {
          const got = await check(c.hex);
          const declared = declaredReading('map-key-types');
          if (declared === 'text-only') expect(isRefusal(got), `${c.hex}: refused by the declared reading text-only, but ${got}`).toBe(true);
          else if (declared) expect(got, c.hex).toBe('same');
          else if (got === 'same' || isRefusal(got)) {
            ran.canonical++;
            throw new AcceptableReading(`${c.hex}: ${got === 'same' ? 'kept' : `refused ${got}`}, a reading the text permits (none declared)`);
          } else expect(got, c.hex).toBe('same');
          ran.canonical++;
        });
        continue;
      }
      clauseIt(
        CANONICAL_IDS,
        `${c.hex} ⇄ ${JSON.stringify(c.value)}`,
        async () => {
          expect(await check(c.hex), c.hex).toBe('same');
          ran.canonical++;
        },
      );
    }
  });

  describe('canonical, read by the oracle: decode equals the value, encode equals the bytes', () => {
    it('every canonical item decodes to the value the file writes, which encodes back to the item', () => {
      for (const c of v.canonical) {
        const bytes = fromHexLoose(c.hex);
        const value = fromNotation(c.value, (bytes[0] ?? 0) >> 5);
        expect(cborEquals(decodeCanonical(bytes), value), `decode(${c.hex})`).toBe(true);
        expect(toHex(encodeCanonical(value)), JSON.stringify(c.value)).toBe(c.hex.toLowerCase());
      }
    });
  });

  describe('refused in a signed core, with the code its first byte names', () => {
    for (const r of v.refusedInSignedCore) {
      if (idsOfRefused(r) === TAGS_IDS) {
        clauseIt(TAGS_IDS, `${r.hex} (${r.why}), as the declared reading of tags says`, async () => {
          // harness/protocol/readings.ts: refused (ERR_CBOR_TAG) or passed-through (kept as data)
          const got = await check(r.hex);
          const declared = declaredReading('canonical-tags');
          if (declared === 'refused') expectRefusedAs(got, 'ERR_CBOR_TAG', `${r.hex} (${r.why})`);
          else if (declared === 'passed-through') expect(got, `${r.hex}: the declared reading passed-through`).toBe('same');
          else if (got === 'same' || isRefusal(got)) {
            ran.refusedInSignedCore++;
            throw new AcceptableReading(`${r.hex}: ${got === 'same' ? 'kept' : `refused ${got}`}, a reading the text permits (none declared)`);
          } else expect(got, r.hex).toBe('same');
          ran.refusedInSignedCore++;
        });
        continue;
      }
      clauseIt(idsOfRefused(r), `${r.hex} (${r.why})`, async () => {
        expectRefusedAs(await check(r.hex), refusalCodeOf(r.hex), `${r.hex} (${r.why})`);
        ran.refusedInSignedCore++;
      });
    }
    // the oracle's tag option (the COSE envelope's tag 18 is read with it): a check of the reference, not of the testee
    it('the oracle decodes the tagged items when their tag is allowed, contents under the same rules', () => {
      let tagged = 0;
      for (const r of v.refusedInSignedCore) {
        if (refusalCodeOf(r.hex) !== 'ERR_CBOR_TAG') continue;
        const bytes = fromHexLoose(r.hex);
        const tag = (bytes[0] as number) & 31;
        expect(tag, `${r.hex}: these vectors carry tag numbers in the initial byte`).toBeLessThan(24);
        const decoded = decodeCanonical(bytes, { allowTags: [tag] });
        expect(cborEquals(decoded, cborTag(tag, decodeCanonical(bytes.subarray(1)))), r.hex).toBe(true);
        expect(toHex(encodeCanonical(decoded, { allowTags: true }))).toBe(r.hex.toLowerCase());
        expectRefusedWith(() => decodeCanonical(bytes, { allowTags: [tag + 1] }), 'ERR_CBOR_TAG');
        tagged++;
      }
      expect(tagged).toBeGreaterThan(0);
    });
  });

  describe('non-canonical: refused with the code its why names', () => {
    for (const n of v.nonCanonical) {
      clauseIt(NON_CANONICAL_IDS, `${n.hex} (${n.why})`, async () => {
        expectRefusedAs(await check(n.hex), nonCanonicalCodeOf(n.why), `${n.hex} (${n.why})`);
        ran.nonCanonical++;
      });
    }
  });

  clauseIt(['jcp/3#canonical-det-cbor', 'jcp/11#reject-non-canonical'], 'every vector of every group ran', async () => {
    expect(v.canonical.length).toBeGreaterThan(0);
    expect(v.refusedInSignedCore.length).toBeGreaterThan(0);
    expect(v.nonCanonical.length).toBeGreaterThan(0);
    // a group runs when one of its classes is selected (certify --classes) and claimed; otherwise none of it should
    const claims = (await testeeInfo()).claims;
    const selected = process.env['JCP_CLASSES']?.split(',').filter(Boolean);
    const runs = (ids: readonly string[]) => classesOfClauses(ids).some((k) => claims.includes(k) && (!selected || selected.includes(k)));
    expect(ran).toEqual({
      canonical: v.canonical.filter((c) => runs(idsOfCanonical(c))).length,
      refusedInSignedCore: v.refusedInSignedCore.filter((r) => runs(idsOfRefused(r))).length,
      nonCanonical: runs(NON_CANONICAL_IDS) ? v.nonCanonical.length : 0,
    });
  });
});

function expectRefusedWith(f: () => unknown, code: JcpErrorCode): void {
  let e: unknown;
  try {
    f();
  } catch (x) {
    e = x;
  }
  expect(isJcpError(e, code), `expected ${code}, got ${String(e)}`).toBe(true);
}
