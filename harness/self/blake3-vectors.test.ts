// Self-tests of the suite's own tooling: the reference's BLAKE3 (content ids, jcp/3#content-id-blake3; deriveSeed),
// reached through the oracle, and the library under it, against the BLAKE3 team's test_vectors.json (35 cases):
// hash, keyed_hash and derive_key, 32-byte and full 131-byte XOF. That an implementation's grant ids are BLAKE3 of its
// grant bytes is checked through the protocol in harness/conformance/grant.test.ts.
import { blake3 as nobleBlake3 } from '@noble/hashes/blake3.js';
import { expect, it } from 'vitest';
import { describeWithShared, readVectorJson } from '../external-vectors.ts';
import { blake3, blake3DeriveKey, toHex } from '../oracle.ts';

interface Blake3Case {
  readonly input_len: number;
  readonly hash: string;
  readonly keyed_hash: string;
  readonly derive_key: string;
}
interface Blake3File {
  readonly key: string;
  readonly context_string: string;
  readonly cases: readonly Blake3Case[];
}

/** The vectors' input: byte i is i % 251. */
function input(len: number): Uint8Array {
  const b = new Uint8Array(len);
  for (let i = 0; i < len; i++) b[i] = i % 251;
  return b;
}

describeWithShared('vectors', 'BLAKE3 test_vectors.json', (dir) => {
  const file = readVectorJson<Blake3File>(dir, 'blake3/test_vectors.json');
  const key = new TextEncoder().encode(file.key);
  const context = new TextEncoder().encode(file.context_string);

  it('blake3() is the first 32 bytes of each case’s hash', () => {
    let run = 0;
    for (const c of file.cases) {
      expect(toHex(blake3(input(c.input_len))), `input_len ${c.input_len}`).toBe(c.hash.slice(0, 64));
      run++;
    }
    expect(run).toBe(35);
  });

  it('the library agrees on hash, keyed_hash and derive_key, full 131-byte XOF', () => {
    const counts = { hash: 0, keyed_hash: 0, derive_key: 0 };
    expect(key.length).toBe(32);
    for (const c of file.cases) {
      const m = input(c.input_len);
      const what = `input_len ${c.input_len}`;
      expect(c.hash.length).toBe(262);
      expect(toHex(nobleBlake3(m, { dkLen: 131 })), `${what} hash`).toBe(c.hash);
      counts.hash++;
      expect(toHex(nobleBlake3(m, { key, dkLen: 131 })), `${what} keyed_hash`).toBe(c.keyed_hash);
      counts.keyed_hash++;
      expect(toHex(nobleBlake3(m, { context, dkLen: 131 })), `${what} derive_key`).toBe(c.derive_key);
      // The wrapper deriveSeed relies on gives the same bytes, at 32 bytes and at full length.
      expect(toHex(blake3DeriveKey(file.context_string, m)), `${what} blake3DeriveKey`).toBe(c.derive_key.slice(0, 64));
      expect(toHex(blake3DeriveKey(file.context_string, m, 131)), `${what} blake3DeriveKey 131`).toBe(c.derive_key);
      counts.derive_key++;
    }
    expect(counts).toEqual({ hash: 35, keyed_hash: 35, derive_key: 35 });
  });
});
