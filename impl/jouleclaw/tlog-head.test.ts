// Unit tests of the signed tree head (jouleclaw §22.2): the 49 signed bytes 0x02 ‖ size ‖ root ‖ timestamp with every
// byte of both u64 fields in place, the widths refused before signing, the wire form (steward and signature present
// only when given, a copy of the root kept), the strict parse with one message per refusal in the order tlog-head.ts
// fixes (malformed, root, unsigned, wrong key, bad signature), and equivocation (two roots at one size under one key).
import { describe, expect, it } from 'vitest';
import { lazy, lazyKey, thrown } from '../_test-support.ts';
import { toHex } from '../bytes.ts';
import { decodeCanonical, encodeCanonical } from '../cbor/index.ts';
import { encodeTreeHead, isEquivocation, parseTreeHead, signTreeHead, treeHeadSigningBytes, verifyTreeHead, type TreeHead } from './tlog-head.ts';

const steward = lazyKey('steward');
const mallory = lazyKey('mallory');
const ROOT = Uint8Array.from({ length: 32 }, (_, i) => i + 1);
const ROOT2 = Uint8Array.from({ length: 32 }, (_, i) => 0xff - i);
const U64_MAX = (1n << 64n) - 1n;

const signed = lazy(() => signTreeHead({ size: 5n, root: ROOT, timestamp: 1_700_000_000n }, steward));

/** A head's wire map with `over` set and `drop` removed (tlog-head.ts's wire form), canonically encoded. */
function wire(over: Record<string, unknown> = {}, drop: string[] = []): Uint8Array {
  const o: Record<string, unknown> = { root: toHex(signed.root), size: signed.size, timestamp: signed.timestamp, steward: signed.steward, signature: signed.signature, ...over };
  for (const k of drop) delete o[k];
  return encodeCanonical(o as never);
}

describe('tlog-head: the signed bytes (§22.2)', () => {
  it('writes all 8 bytes of size and timestamp big-endian, the top byte included', () => {
    const pre = treeHeadSigningBytes({ size: 0x0102030405060708n, root: ROOT, timestamp: 0xf1f2f3f4f5f6f7f8n });
    expect(toHex(pre)).toBe(`02${'0102030405060708'}${toHex(ROOT)}${'f1f2f3f4f5f6f7f8'}`);
    expect(toHex(treeHeadSigningBytes({ size: U64_MAX, root: ROOT, timestamp: 0n }))).toBe(`02${'ff'.repeat(8)}${toHex(ROOT)}${'00'.repeat(8)}`);
  });

  it('refuses a head that is not an object, naming its shape', () => {
    for (const h of [null, 5, 'head']) {
      const e = thrown(() => treeHeadSigningBytes(h as never));
      expect(e.code).toBe('ERR_BAD_ARGUMENT');
      expect(e.message).toBe('ERR_BAD_ARGUMENT: a tree head must be {size, root, timestamp}');
    }
  });

  it('refuses a size or timestamp outside 0 … 2^64−1 or not a bigint, naming the field; accepts both ends', () => {
    for (const k of ['size', 'timestamp'] as const) {
      for (const bad of [-1n, 1n << 64n, 5 as unknown as bigint]) {
        const h = { size: 0n, root: ROOT, timestamp: 0n, [k]: bad } as TreeHead;
        const e = thrown(() => treeHeadSigningBytes(h));
        expect(e.code).toBe('ERR_BAD_ARGUMENT');
        expect(e.message).toBe(`ERR_BAD_ARGUMENT: tree head ${k} must be a bigint in 0 … 2^64−1`);
        expect(thrown(() => signTreeHead(h, steward)).code).toBe('ERR_BAD_ARGUMENT');
        expect(thrown(() => encodeTreeHead(h)).message).toBe(`ERR_BAD_ARGUMENT: tree head ${k} must be a bigint in 0 … 2^64−1`);
      }
      for (const ok of [0n, U64_MAX]) expect(treeHeadSigningBytes({ size: 0n, root: ROOT, timestamp: 0n, [k]: ok } as TreeHead).length).toBe(49);
    }
  });

  it('refuses a root that is not 32 bytes', () => {
    for (const root of [new Uint8Array(31), new Uint8Array(33), toHex(ROOT) as never]) {
      const e = thrown(() => treeHeadSigningBytes({ size: 0n, root, timestamp: 0n }));
      expect(e.code).toBe('ERR_TLOG_ROOT_MALFORMED');
      expect(e.message).toBe('ERR_TLOG_ROOT_MALFORMED: a tree head root must be 32 bytes');
    }
  });
});

describe('tlog-head: signing and the wire form', () => {
  it('keeps its own copy of the root: changing the caller\'s bytes after signing changes nothing', () => {
    const root = ROOT.slice();
    const h = signTreeHead({ size: 1n, root, timestamp: 2n }, steward);
    root.fill(0);
    expect(toHex(h.root)).toBe(toHex(ROOT));
    expect(Object.isFrozen(h)).toBe(true);
    expect(verifyTreeHead(encodeTreeHead(h), steward.did).root).toEqual(ROOT);
  });

  it('writes an unsigned head without steward or signature keys, and a signed one with both', () => {
    const bare = decodeCanonical(encodeTreeHead({ size: 3n, root: ROOT, timestamp: 4n })) as Map<string, unknown>;
    expect([...bare.keys()].sort()).toEqual(['root', 'size', 'timestamp']);
    expect(toHex(encodeTreeHead({ size: 3n, root: ROOT, timestamp: 4n }))).toBe(toHex(encodeCanonical({ root: toHex(ROOT), size: 3, timestamp: 4 })));
    const withSteward = decodeCanonical(encodeTreeHead({ size: 3n, root: ROOT, timestamp: 4n, steward: steward.did })) as Map<string, unknown>;
    expect([...withSteward.keys()].sort()).toEqual(['root', 'size', 'steward', 'timestamp']);
    const full = decodeCanonical(encodeTreeHead(signed)) as Map<string, unknown>;
    expect([...full.keys()].sort()).toEqual(['root', 'signature', 'size', 'steward', 'timestamp']);
  });

  it('parses an unsigned head into an object with no steward or signature property at all', () => {
    const p = parseTreeHead(encodeTreeHead({ size: 3n, root: ROOT, timestamp: 4n }));
    expect(Object.keys(p).sort()).toEqual(['root', 'size', 'timestamp']);
    expect(p).toEqual({ size: 3n, root: ROOT, timestamp: 4n });
    const s = parseTreeHead(wire({}, ['signature']));
    expect(Object.keys(s).sort()).toEqual(['root', 'size', 'steward', 'timestamp']);
    expect(Object.keys(parseTreeHead(wire())).sort()).toEqual(['root', 'signature', 'size', 'steward', 'timestamp']);
  });

  it('reads sizes and timestamps up to 2^64−1, those past 2^53 included', () => {
    for (const v of [0n, (1n << 53n) - 1n, 1n << 53n, U64_MAX - 1n, U64_MAX]) {
      const p = parseTreeHead(encodeTreeHead({ size: v, root: ROOT, timestamp: v }));
      expect([p.size, p.timestamp]).toEqual([v, v]);
      const h = signTreeHead({ size: v, root: ROOT, timestamp: v }, steward);
      expect(verifyTreeHead(encodeTreeHead(h), steward.did).size).toBe(v);
    }
  });
});

describe('tlog-head: parse refusals, each with its own message', () => {
  const malformed = (bytes: Uint8Array, msg: string | RegExp) => {
    const e = thrown(() => parseTreeHead(bytes));
    expect(e.code).toBe('ERR_TLOG_HEAD_MALFORMED');
    if (typeof msg === 'string') expect(e.message).toBe(`ERR_TLOG_HEAD_MALFORMED: ${msg}`);
    else expect(e.message).toMatch(msg);
    return e;
  };

  it('refuses input that is not bytes', () => {
    for (const x of ['x', null, [1, 2]]) malformed(x as never, 'a tree head must be given as bytes');
  });

  it('refuses bytes that are not canonical CBOR, naming the decoder\'s code and keeping its error as the cause', () => {
    const e = malformed(Uint8Array.of(0xff), /^ERR_TLOG_HEAD_MALFORMED: a tree head is not canonical CBOR \(ERR_CBOR_INDEFINITE_LENGTH\): ERR_CBOR_INDEFINITE_LENGTH: /);
    expect((e.cause as { code?: string } | undefined)?.code).toBe('ERR_CBOR_INDEFINITE_LENGTH');
    // nesting past the head's two levels is the decoder's refusal, not a field's
    malformed(wire({ size: [[1]] }), /^ERR_TLOG_HEAD_MALFORMED: a tree head is not canonical CBOR \(ERR_CBOR_TOO_DEEP\)/);
  });

  it('carries no cause on its own refusals', () => {
    const e = malformed(encodeCanonical([1, 2]), 'a tree head must be a map');
    expect('cause' in e).toBe(false);
    expect('cause' in malformed(wire({ size: 'five' }), 'tree head size must be an unsigned integer of at most 64 bits')).toBe(false);
  });

  it('refuses a non-map and an unknown or non-text key', () => {
    malformed(encodeCanonical([1, 2]), 'a tree head must be a map');
    malformed(encodeCanonical('head'), 'a tree head must be a map');
    malformed(wire({ extra: 1 }), 'a tree head has an unknown field extra');
    malformed(encodeCanonical(new Map<number, number>([[1, 2]]) as never), 'a tree head has an unknown field 1');
  });

  it('refuses a size or timestamp that is not an unsigned integer of at most 64 bits, text digits and huge negatives included', () => {
    for (const k of ['size', 'timestamp']) {
      const msg = `tree head ${k} must be an unsigned integer of at most 64 bits`;
      for (const bad of ['five', '5', -1, -1n << 60n, -(1n << 64n), Uint8Array.of(5)]) malformed(wire({ [k]: bad }), msg);
      malformed(wire({}, [k]), msg);
    }
  });

  it('refuses a steward that is not an Ed25519 did:key', () => {
    for (const s of ['did:key:nope', 7, 'not a did']) malformed(wire({ steward: s }), 'a tree head steward must be an Ed25519 did:key');
  });

  it('refuses a signature that is not a 64-byte string, and a signature without a steward', () => {
    malformed(wire({ signature: 'x'.repeat(64) }), 'a tree head signature must be a byte string');
    malformed(wire({ signature: 'x' }), 'a tree head signature must be a byte string');
    malformed(wire({ signature: 64 }), 'a tree head signature must be a byte string');
    malformed(wire({ signature: new Uint8Array(63) }), 'a tree head signature must be 64 bytes, got 63');
    malformed(wire({ signature: new Uint8Array(65) }), 'a tree head signature must be 64 bytes, got 65');
    malformed(wire({}, ['steward']), 'a signed tree head must name its steward');
    // an empty signature is no signature: no steward needed
    expect(parseTreeHead(wire({ signature: new Uint8Array(0) }, ['steward'])).signature).toBeUndefined();
  });

  it('refuses a root that is not 64 lowercase hex digits with ERR_TLOG_ROOT_MALFORMED (§22.2 "MUST reject"), saying what came', () => {
    const root = (bytes: Uint8Array, msg: string) => {
      const e = thrown(() => parseTreeHead(bytes));
      expect(e.code).toBe('ERR_TLOG_ROOT_MALFORMED');
      expect(e.message).toBe(`ERR_TLOG_ROOT_MALFORMED: a tree head root must be 32 bytes as 64 lowercase hex digits, got ${msg}`);
    };
    root(wire({}, ['root']), 'none');
    root(wire({ root: '' }), '0 characters');
    root(wire({ root: toHex(ROOT).toUpperCase() }), '64 characters');
    root(wire({ root: toHex(ROOT).slice(2) }), '62 characters');
    root(wire({ root: `${toHex(ROOT)}00` }), '66 characters');
    root(wire({ root: ROOT }), 'a non-text value');
    root(wire({ root: 5 }), 'a non-text value');
    // a one-element list reads as its element when stringified: still not text
    root(wire({ root: [toHex(ROOT)] }), 'a non-text value');
  });
});

describe('tlog-head: verification refusals', () => {
  it('refuses an unsigned head, naming its size', () => {
    const e = thrown(() => verifyTreeHead(wire({}, ['signature']), steward.did));
    expect(e.code).toBe('ERR_TLOG_HEAD_UNSIGNED');
    expect(e.message).toBe('ERR_TLOG_HEAD_UNSIGNED: the tree head of size 5 is unsigned');
  });

  it('refuses a head signed by another key, naming both, with the expected and actual keys as detail', () => {
    const e = thrown(() => verifyTreeHead(wire(), mallory.did));
    expect(e.code).toBe('ERR_TLOG_HEAD_WRONG_KEY');
    expect(e.message).toBe(`ERR_TLOG_HEAD_WRONG_KEY: the tree head is signed by ${steward.did}, not by the receipts' sealer ${mallory.did}`);
    expect(e.detail).toEqual({ expected: mallory.did, actual: steward.did });
  });

  it('refuses a signature that does not cover the head\'s fields', () => {
    for (const over of [{ timestamp: 1n }, { size: 6n }, { root: toHex(ROOT2) }]) {
      const e = thrown(() => verifyTreeHead(wire(over), steward.did));
      expect(e.code).toBe('ERR_TLOG_HEAD_SIGNATURE_INVALID');
      expect(e.message).toBe(`ERR_TLOG_HEAD_SIGNATURE_INVALID: the tree head signature does not verify over 0x02 ‖ size ‖ root ‖ timestamp under ${steward.did}`);
    }
  });
});

describe('tlog-head: equivocation (§22.2)', () => {
  it('is two roots at one size under one key; not heads of different sizes or keys, nor equal roots', () => {
    const a = signTreeHead({ size: 5n, root: ROOT, timestamp: 1n }, steward);
    expect(isEquivocation(a, signTreeHead({ size: 5n, root: ROOT2, timestamp: 1n }, steward))).toBe(true);
    expect(isEquivocation(a, signTreeHead({ size: 6n, root: ROOT2, timestamp: 1n }, steward))).toBe(false);
    expect(isEquivocation(a, signTreeHead({ size: 5n, root: ROOT2, timestamp: 1n }, mallory))).toBe(false);
    expect(isEquivocation(a, signTreeHead({ size: 5n, root: ROOT, timestamp: 9n }, steward))).toBe(false);
  });
});
