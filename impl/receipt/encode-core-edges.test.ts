// Edge cases of the direct receipt-core writer (impl/receipt/encode-core.ts), jcp §3 and §8: the shortest heads of text,
// arrays and unsigned integers at each width boundary (exactly at a limit, one past it), the cores it hands to the
// generic encoder (non-ASCII text, integers outside 0 … 2^64−1, values of other types) with that encoder's bytes or its
// refusal (code, message, path), the reuse of the previous core's bytes, and the room writeReceiptCoreAt promises its
// caller before and after a core. Every core's bytes are held to the generic encoder's, the module's own contract.
import { describe, expect, it } from 'vitest';
import { thrown } from '../_test-support.ts';
import { encodeCanonical } from '../cbor/index.ts';
import { coreToCbor, type ReceiptCore } from './core.ts';
import { encodeReceiptCore, writeReceiptCore, writeReceiptCoreAt } from './encode-core.ts';

const hex = (b: Uint8Array) => Buffer.from(b).toString('hex');
const U64_MAX = (1n << 64n) - 1n;
const DID = 'did:key:z6Mk' + 'a'.repeat(44);
const CID = (c: string) => c.repeat(64);

/** A full jcp/2 allow core (every field but deny_reason, energy_coverage and chain_ids), ASCII throughout. */
const BASE = {
  jcp_receipt: 'jcp/2', grant_id: CID('b'), issuer: DID, subject: DID, resource: CID('c'), action: 'call',
  payload_hash: CID('d'), frame_kind: 'tool-call', trust: 'control', verdict: 'allow', cost_uj: 42n,
  energy_provenance: 'HwShunt', budget_remaining_uj: 958n, budget_uj: 1000n, steward: DID,
} as const;
const core = (over: Record<string, unknown> = {}) => ({ ...BASE, ...over }) as unknown as ReceiptCore;
/** The generic canonical encoder's bytes of a core, which the direct writer must equal (jcp §3). */
const generic = (c: ReceiptCore) => hex(encodeCanonical(coreToCbor(c)));

/** The core as written at offset `room`: its bytes and where they lie. */
function at(c: ReceiptCore, room = 7) {
  const w = writeReceiptCoreAt(c, room);
  return { hex: hex(w.bytes.subarray(w.at, w.end)), at: w.at };
}
/** The encoded text key of a field name (each is shorter than 24 bytes). */
const keyHex = (name: string) => hex(Uint8Array.from([0x60 + name.length, ...Buffer.from(name)]));

describe('jcp §3 shortest form: text heads at each width boundary', () => {
  it('a text of 0, 23, 24, 255, 256, 65535 and 65536 bytes gets a 1-, 2-, 3- or 5-byte head, written directly', () => {
    const cases: Array<[number, string]> = [
      [0, '60'], [23, '77'], [24, '7818'], [255, '78ff'], [256, '790100'], [0xffff, '79ffff'], [0x10000, '7a00010000'], [0x10203, '7a00010203'],
    ];
    for (const [n, head] of cases) {
      const c = core({ action: 'x'.repeat(n) });
      const w = at(c);
      expect([n, w.hex]).toEqual([n, generic(c)]);
      expect([n, w.hex.includes(keyHex('action') + head + '78'.repeat(Math.min(n, 4)))]).toEqual([n, true]);
      // ASCII text and a uint core: the direct path, at the headroom asked for
      expect([n, w.at]).toEqual([n, 7]);
    }
  });

  it('a chain id of 40 characters or more (the long-text path) gets the same heads, in a fresh core and a repeated one', () => {
    for (const n of [39, 40, 255, 256, 0x10000]) {
      const id = 'e'.repeat(n);
      // twice each: the second time the id's encoding is already known to the writer
      for (let k = 0; k < 2; k++) {
        const c = core({ chain_ids: [id, CID('f')], grant_id: CID(String(k)) });
        expect([n, k, at(c).hex]).toEqual([n, k, generic(c)]);
        expect(at(c).at).toBe(7);
      }
    }
  });
});

describe('jcp §3 shortest form: array heads of chain_ids (§8.1) at each width boundary', () => {
  it('0, 23, 24, 255, 256 and 65536 ids get a 1-, 2-, 3- or 5-byte head', () => {
    const cases: Array<[number, string]> = [[0, '80'], [23, '97'], [24, '9818'], [255, '98ff'], [256, '990100'], [0x10000, '9a00010000']];
    for (const [n, head] of cases) {
      const c = core({ chain_ids: Array.from({ length: n }, () => 'a') });
      const w = at(c);
      expect([n, w.hex]).toEqual([n, generic(c)]);
      expect([n, w.hex.includes(keyHex('chain_ids') + head)]).toEqual([n, true]);
      expect(w.at).toBe(7);
    }
  });
});

describe('jcp §3 unsigned integers 0 … 2^64−1 in the shortest form; §8 cost_uj, budget_uj, budget_remaining_uj are uint', () => {
  it('each head width, exactly at its limit and one past it, in every uint field', () => {
    const cases: Array<[bigint, string]> = [
      [0n, '00'], [23n, '17'], [24n, '1818'], [255n, '18ff'], [256n, '190100'], [0xffffn, '19ffff'], [0x10000n, '1a00010000'],
      [0x01020304n, '1a01020304'], [0xffffffffn, '1affffffff'], [0x100000000n, '1b0000000100000000'], [0x0102030405060708n, '1b0102030405060708'], [U64_MAX, '1bffffffffffffffff'],
    ];
    for (const name of ['cost_uj', 'budget_uj', 'budget_remaining_uj']) {
      for (const [v, enc] of cases) {
        const c = core({ [name]: v });
        const w = at(c);
        expect([name, v, w.hex]).toEqual([name, v, generic(c)]);
        expect([name, v, w.hex.includes(keyHex(name) + enc)]).toEqual([name, v, true]);
        expect([name, v, w.at]).toEqual([name, v, 7]);
      }
    }
  });

  it('a negative integer is not a uint: the generic encoder writes it (major type 1), as it would any core', () => {
    for (const v of [-1n, -(1n << 64n)]) {
      const c = core({ cost_uj: v });
      const w = at(c);
      expect(w.hex).toBe(generic(c));
      expect(w.at).toBe(0);
    }
    expect(generic(core({ cost_uj: -1n }))).toContain(keyHex('cost_uj') + '20');
  });

  it('2^64 and beyond are refused with the generic encoder\'s ERR_CBOR_UNENCODABLE, naming the field', () => {
    for (const name of ['cost_uj', 'budget_uj', 'budget_remaining_uj']) {
      const e = thrown(() => encodeReceiptCore(core({ [name]: 1n << 64n })));
      expect(e.code).toBe('ERR_CBOR_UNENCODABLE');
      expect(e.message).toBe(`ERR_CBOR_UNENCODABLE: 18446744073709551616 is outside −2^64 … 2^64−1 at $.${name}`);
      expect(e.detail).toEqual({ path: `$.${name}` });
    }
    expect(thrown(() => writeReceiptCoreAt(core({ cost_uj: -(1n << 64n) - 1n }), 3)).message).toBe(
      'ERR_CBOR_UNENCODABLE: -18446744073709551617 is outside −2^64 … 2^64−1 at $.cost_uj',
    );
  });
});

describe('cores only the generic encoder takes: its bytes, in a fresh array at 0, or its refusal', () => {
  const TEXT_FIELDS = ['trust', 'action', 'issuer', 'steward', 'subject', 'verdict', 'grant_id', 'resource', 'frame_kind', 'deny_reason', 'jcp_receipt', 'payload_hash', 'energy_coverage', 'energy_provenance'];

  it('non-ASCII text in any text field, at its first or last character, short or long', () => {
    for (const name of TEXT_FIELDS) {
      for (const v of ['é', 'appel-é', 'é' + 'a'.repeat(50), 'a'.repeat(50) + '€', '\u0080', 'a\u{1D11E}']) {
        const c = core({ [name]: v });
        const w = writeReceiptCoreAt(c, 9, 5);
        expect([name, v, hex(w.bytes.subarray(w.at, w.end))]).toEqual([name, v, generic(c)]);
        expect([name, v, w.at, w.end, w.limit]).toEqual([name, v, 0, w.bytes.length, w.bytes.length]);
      }
    }
  });

  it('the last ASCII character (0x7f) is written directly, the first beyond it (0x80) is not', () => {
    const direct = core({ action: 'a\u007f' });
    expect(at(direct)).toEqual({ hex: generic(direct), at: 7 });
    const other = core({ action: 'a\u0080' });
    expect(at(other)).toEqual({ hex: generic(other), at: 0 });
  });

  it('a non-ASCII chain id, short or long, and an id that is not text', () => {
    for (const ids of [['é'], [CID('a'), 'é'.repeat(45)], ['a'.repeat(45) + 'é', CID('a')]]) {
      // twice: a long non-ASCII id is not remembered as written
      for (let k = 0; k < 2; k++) {
        const c = core({ chain_ids: ids });
        expect([ids, k, at(c)]).toEqual([ids, k, { hex: generic(c), at: 0 }]);
      }
    }
    for (const ids of [[CID('a'), 5], [7n]]) {
      const c = core({ chain_ids: ids });
      expect([ids, at(c).hex]).toEqual([ids, generic(c)]);
    }
  });

  it('a field of another type (a number, null, a boolean) goes to the generic encoder, which writes or refuses it', () => {
    const num = core({ cost_uj: 5 });
    expect(at(num).hex).toBe(generic(num));
    const e = thrown(() => encodeReceiptCore(core({ trust: null })));
    expect(e.message).toBe('ERR_CBOR_UNENCODABLE: null (no nulls in a signed core) at $.trust');
    expect(thrown(() => encodeReceiptCore(core({ verdict: true }))).message).toBe('ERR_CBOR_UNENCODABLE: true (no bools in a signed core) at $.verdict');
    expect(thrown(() => encodeReceiptCore(core({ budget_uj: 1.5 }))).message).toBe('ERR_CBOR_UNENCODABLE: 1.5 is not a safe integer (no floats; use a bigint beyond 2^53) at $.budget_uj');
  });

  it('text with a lone surrogate is refused as the generic encoder refuses it, at its field or chain index', () => {
    const e = thrown(() => encodeReceiptCore(core({ action: 'call\uD800' })));
    expect(e.code).toBe('ERR_CBOR_UNENCODABLE');
    expect(e.message).toBe('ERR_CBOR_UNENCODABLE: text with a lone surrogate at UTF-16 index 4 (not valid Unicode, no UTF-8 form) at $.action');
    expect(e.detail).toEqual({ path: '$.action' });
    expect(thrown(() => encodeReceiptCore(core({ chain_ids: [CID('a'), 'x'.repeat(44) + '\uDC00'] }))).message).toBe(
      'ERR_CBOR_UNENCODABLE: text with a lone surrogate at UTF-16 index 44 (not valid Unicode, no UTF-8 form) at $.chain_ids[1]',
    );
  });

  it('encodeReceiptCore hands back the generic bytes as an array of their own', () => {
    const c = core({ action: 'appel-é' });
    const b = encodeReceiptCore(c);
    expect(hex(b)).toBe(generic(c));
    expect(b.byteOffset).toBe(0);
    expect(b.buffer.byteLength).toBe(b.length);
  });
});

describe('jcp §8: a sequence of cores, each field equal to the last core\'s or not, writes each core\'s own bytes', () => {
  it('a chain_ids array changed in place since the last core is written as it now is', () => {
    const ids = [CID('a'), CID('b')];
    const c = core({ chain_ids: ids });
    expect(at(c).hex).toBe(generic(c));
    ids[1] = CID('e');
    expect(at(c).hex).toBe(generic(c));
    ids.push(CID('f'));
    expect(at(c).hex).toBe(generic(c));
  });

  it('fields that vanish, appear or change between two otherwise equal cores', () => {
    const seq = [
      core(),
      core({ verdict: 'deny', deny_reason: 'expired' }),
      core({ verdict: 'deny', deny_reason: 'expired', energy_coverage: 'Partial' }),
      core({ energy_coverage: 'Partial' }),
      core({ trust: 'data', budget_remaining_uj: 0n }),
      core({ trust: 'data', budget_remaining_uj: 0n, cost_uj: 0n }),
      core(),
      core({ steward: DID + 'b', payload_hash: CID('e') }),
      core({ steward: DID + 'b', payload_hash: CID('e') }),
      core(),
    ];
    for (const [i, c] of seq.entries()) {
      expect([i, at(c, i)]).toEqual([i, { hex: generic(c), at: i }]);
      expect([i, hex(writeReceiptCore(c))]).toEqual([i, generic(c)]);
    }
  });

  it('a core sent to the generic encoder partway through does not disturb the next core\'s reuse of the last one', () => {
    const a = core({ chain_ids: [CID('a')] });
    expect(at(a).hex).toBe(generic(a));
    // its early fields equal a's, its last non-ASCII: written partway, then handed to the generic encoder
    const odd = core({ chain_ids: [CID('a')], energy_provenance: 'Estimaté' });
    expect(at(odd)).toEqual({ hex: generic(odd), at: 0 });
    const refused = core({ budget_remaining_uj: 1n << 64n });
    expect(thrown(() => encodeReceiptCore(refused)).code).toBe('ERR_CBOR_UNENCODABLE');
    const b = core({ chain_ids: [CID('a')], issuer: DID + 'x', budget_remaining_uj: 1n });
    expect(at(b).hex).toBe(generic(b));
    expect(at(a).hex).toBe(generic(a));
  });

  it('a core equal to the last one, field for field, is written in full: jcp/1 (no payload_hash), or only its last fields', () => {
    const v1 = { ...BASE, jcp_receipt: 'jcp/1', payload_hash: undefined } as unknown as ReceiptCore;
    expect(at(v1).hex).toBe(generic(v1));
    expect(at({ ...v1 }).hex).toBe(generic(v1));
    // a partial core (the writer, like the generic encoder, takes any): every field it has is the last core's
    const tail = { energy_provenance: 'HwShunt', budget_remaining_uj: 958n } as unknown as ReceiptCore;
    expect(at(tail).hex).toBe(generic(tail));
    expect(at({ ...tail }).hex).toBe(generic(tail));
    expect(generic(tail)).toBe('a2' + keyHex('energy_provenance') + hex(Buffer.from('gHwShunt')) + keyHex('budget_remaining_uj') + '1903be');
  });

  it('an empty core (every field absent) is the empty map, and a core after it is written in full', () => {
    const empty = {} as ReceiptCore;
    expect(at(empty).hex).toBe('a0');
    expect(at(empty).hex).toBe('a0');
    expect(at(core()).hex).toBe(generic(core()));
  });
});

describe('writeReceiptCoreAt: the room before and after a core is the caller\'s until the next call', () => {
  it('headroom beyond the scratch array\'s size, and tailroom beyond it, are given', () => {
    for (const [head, tail] of [[0, 0], [5000, 0], [0, 9000], [20000, 40000]] as const) {
      const c = core({ chain_ids: [CID('a')] });
      const w = writeReceiptCoreAt(c, head, tail);
      expect([head, tail, w.at, hex(w.bytes.subarray(w.at, w.end))]).toEqual([head, tail, head, generic(c)]);
      expect(w.limit - w.end).toBeGreaterThanOrEqual(tail);
      expect(w.limit).toBeLessThanOrEqual(w.bytes.length);
    }
  });

  it('what the caller writes before and after the core does not change the next core\'s bytes', () => {
    const seq = [core(), core(), core({ action: 'read' }), core({ chain_ids: [CID('a'), CID('b')] }), core({ chain_ids: [CID('a'), CID('b')] }), core()];
    for (const [i, c] of seq.entries()) {
      const w = writeReceiptCoreAt(c, 40, 100);
      expect([i, hex(w.bytes.subarray(w.at, w.end))]).toEqual([i, generic(c)]);
      // the caller fills all the room it was given, before and after
      w.bytes.fill(0xee, 0, w.at);
      w.bytes.fill(0xee, w.end, w.limit);
    }
  });

  it('a field whose last byte lands exactly on the last call\'s limit leaves the last core intact for the next field', () => {
    // the last core: no trust, so its first field is action, which the next core repeats
    const last = core({ trust: undefined });
    // the next core's trust, ending exactly at the limit: a pair written before (14 bytes), a new text (6 + 2 + 30
    // bytes), and a new text whose key (6 bytes) ends there
    expect(at(core()).hex).toBe(generic(core()));
    const cases: Array<[string, number]> = [['control', 1 + 14], ['T'.repeat(30), 1 + 38], ['U'.repeat(30), 1 + 6]];
    for (const [trust, before] of cases) {
      const limit = writeReceiptCoreAt(last, 0).limit;
      const next = core({ trust });
      const w = writeReceiptCoreAt(next, limit - before);
      expect([trust, w.at, hex(w.bytes.subarray(w.at, w.end))]).toEqual([trust, limit - before, generic(next)]);
    }
  });

  it('the bytes of a core written in place are the map head and the fields, with room asked for none', () => {
    const c = core();
    const w = writeReceiptCoreAt(c, 0);
    expect(w.at).toBe(0);
    expect(w.bytes[0]).toBe(0xa0 | 15);
    expect(hex(w.bytes.subarray(0, w.end))).toBe(generic(c));
  });
});
