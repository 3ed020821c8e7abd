// Unit tests of the COSE_Sign1 assembly (impl/cose/sign1.ts): the directly assembled Sig_structure and envelope equal
// the generic canonical encoder's bytes of the RFC 9052 structures, and decodeSign1 reads a foreign tag-18 envelope.
import { describe, expect, it } from 'vitest';
import { lazyKey } from '../_test-support.ts';
import { cborTag, encodeCanonical } from '../cbor/index.ts';
import { defaultEd25519 } from '../identity/ed25519.ts';
import { stewardKid } from '../receipt/seal.ts';
import { SIGN1_TAIL_ROOM, decodeSign1, protectedHeaderBytes, sigPrefixRoom, sigStructure, signSign1, signSign1InPlace } from './sign1.ts';

const steward = lazyKey('steward');
const hex = (b: Uint8Array) => Buffer.from(b).toString('hex');

describe('COSE_Sign1 assembly', () => {
  it('Sig_structure and the tagged COSE_Sign1 are canonical CBOR of the RFC 9052 structures', () => {
    for (const len of [0, 1, 23, 24, 255, 256, 65535, 65536]) {
      const payload = new Uint8Array(len).fill(7);
      const prot = protectedHeaderBytes(stewardKid(steward.did));
      expect(hex(sigStructure(prot, payload))).toBe(hex(encodeCanonical(['Signature1', prot, new Uint8Array(), payload])));
      const env = signSign1(payload, stewardKid(steward.did), steward.seed, defaultEd25519());
      const sig = env.slice(env.length - 64);
      expect(defaultEd25519().verify(sig, sigStructure(prot, payload), steward.publicKey)).toBe(true);
      const generic = encodeCanonical(cborTag(18, [prot, new Map(), payload, sig]), { allowTags: true });
      expect(hex(env)).toBe(hex(generic));
    }
  });

  it('decodeSign1 accepts a foreign tag-18 envelope (its own headers are not a JCP receipt)', () => {
    const prot = encodeCanonical(new Map([[1, -7]]));
    const foreign = encodeCanonical(cborTag(18, [prot, new Map([[33, 'x']]), Uint8Array.of(1, 2, 3), new Uint8Array(64).fill(9)]), { allowTags: true });
    const s = decodeSign1(foreign);
    expect(s.protectedHeader.get(1)).toBe(-7);
    expect(s.unprotected.get(33)).toBe('x');
    expect(hex(s.payload)).toBe('010203');
    expect(s.signature).toHaveLength(64);
    // and a JCP envelope reads the same way
    const own = decodeSign1(signSign1(Uint8Array.of(0xa0), stewardKid(steward.did), steward.seed, defaultEd25519()));
    expect(own.unprotected.size).toBe(0);
    expect(own.signature).toHaveLength(64);
  });

  it('signSign1InPlace gives the copying path\'s bytes, with room to spare, exactly enough, or too little (fallback)', () => {
    const prot = protectedHeaderBytes(stewardKid(steward.did));
    for (const len of [0, 23, 24, 255, 256, 700, 65535, 65536]) {
      const payload = Uint8Array.from({ length: len }, (_, i) => (i * 31 + 7) & 0xff);
      const expected = hex(signSign1(payload, stewardKid(steward.did), steward.seed, defaultEd25519()));
      const exact = 12 + 2 + prot.length + 1 + (len < 24 ? 1 : len < 0x100 ? 2 : len < 0x10000 ? 3 : 5); // the prefix itself
      expect(sigPrefixRoom(prot)).toBeGreaterThanOrEqual(exact);
      // after the payload: `tail` bytes, of which the caller gives up `free` (too few for the signature: the copying
      // envelope; enough: the envelope laid out in the frame), the rest to be left alone
      for (const [room, tail, free] of [sigPrefixRoom(prot) + 9, exact, exact - 1, 0].flatMap((r) => [[r, 5, 5], [r, 200, SIGN1_TAIL_ROOM - 1], [r, 200, SIGN1_TAIL_ROOM], [r, 200, 100], [r, 200, 0], [r, 100, 300]] as const)) {
        const frame = new Uint8Array(room + len + tail).fill(0xee);
        frame.set(payload, room);
        const env = signSign1InPlace(frame, room, room + len, prot, steward.seed, defaultEd25519(), room + len + free);
        expect(hex(env)).toBe(expected);
        // the result is a plain array on an ArrayBuffer of its own, never a view of the caller's frame
        expect(env.buffer).not.toBe(frame.buffer);
        expect(env.byteOffset).toBe(0);
        expect(env.buffer.byteLength).toBe(env.length);
        // the payload itself is left as it was
        expect(hex(frame.subarray(room, room + len))).toBe(hex(payload));
        // what lies past the part given up is left as it was
        expect(frame.subarray(room + len + free).every((b) => b === 0xee)).toBe(true);
      }
    }
  });

  it('signSign1InPlace over a Buffer frame (whose slice would be a view) still hands back bytes of their own', () => {
    const prot = protectedHeaderBytes(stewardKid(steward.did));
    const payload = Uint8Array.from({ length: 300 }, (_, i) => i & 0xff);
    const room = sigPrefixRoom(prot);
    const frame = Buffer.alloc(room + payload.length + 200, 0xee);
    frame.set(payload, room);
    const env = signSign1InPlace(frame, room, room + payload.length, prot, steward.seed, defaultEd25519(), frame.length);
    expect(hex(env)).toBe(hex(signSign1(payload, stewardKid(steward.did), steward.seed, defaultEd25519())));
    expect(Object.getPrototypeOf(env)).toBe(Uint8Array.prototype);
    expect(env.buffer).not.toBe(frame.buffer);
    expect(env.buffer.byteLength).toBe(env.length);
  });
});
