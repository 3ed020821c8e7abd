// base58btc, the Bitcoin alphabet of the multibase `z` prefix (draft-msporny-base58, jcp §2 did:key).
import { JcpError } from '../errors.ts';

/** The base58btc alphabet: digits and letters without 0, O, I and l. */
export const BASE58BTC_ALPHABET = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';

/** Matches a string made only of base58btc characters (the empty string included). */
export const BASE58BTC_RE = /^[1-9A-HJ-NP-Za-km-z]*$/;

const _INDEX: Int8Array = (() => {
  const t = new Int8Array(128).fill(-1);
  for (let i = 0; i < BASE58BTC_ALPHABET.length; i++) t[BASE58BTC_ALPHABET.charCodeAt(i)] = i;
  return t;
})();

/** The base58btc text of `bytes`: one `1` per leading zero byte, then the big-endian number in base 58. */
export function base58btcEncode(bytes: Uint8Array): string {
  if (!(bytes instanceof Uint8Array)) throw new JcpError('ERR_BAD_ARGUMENT', 'base58 input must be a Uint8Array', { what: 'bytes' });
  let zeros = 0;
  while (zeros < bytes.length && bytes[zeros] === 0) zeros++;
  // Base-58 digits, least significant first; each input byte multiplies the number so far by 256 and adds itself.
  const digits: number[] = [];
  for (let i = zeros; i < bytes.length; i++) {
    let carry = bytes[i] as number;
    for (let j = 0; j < digits.length; j++) {
      carry += (digits[j] as number) << 8;
      digits[j] = carry % 58;
      carry = (carry / 58) | 0;
    }
    while (carry > 0) {
      digits.push(carry % 58);
      carry = (carry / 58) | 0;
    }
  }
  let out = '1'.repeat(zeros);
  for (let j = digits.length - 1; j >= 0; j--) out += BASE58BTC_ALPHABET[digits[j] as number]!;
  return out;
}

/**
 * The bytes of base58btc text. Throws ERR_BAD_ARGUMENT (detail.index) at the first character outside the alphabet.
 * Each leading `1` is a zero byte; the decoding is the inverse of {@link base58btcEncode} on every valid string.
 */
export function base58btcDecode(s: string): Uint8Array {
  if (typeof s !== 'string') throw new JcpError('ERR_BAD_ARGUMENT', 'base58 input must be a string', { what: 'text' });
  let zeros = 0;
  while (zeros < s.length && s.charCodeAt(zeros) === 49 /* '1' */) zeros++;
  // Bytes, least significant first; each digit multiplies the number so far by 58 and adds itself.
  const bytes: number[] = [];
  for (let i = zeros; i < s.length; i++) {
    const c = s.charCodeAt(i);
    const v = c < 128 ? (_INDEX[c] as number) : -1;
    if (v < 0) {
      throw new JcpError('ERR_BAD_ARGUMENT', `base58 character ${JSON.stringify(s[i])} at index ${i} is not in the alphabet`, { what: 'text', index: i });
    }
    let carry = v;
    for (let j = 0; j < bytes.length; j++) {
      carry += (bytes[j] as number) * 58;
      bytes[j] = carry & 0xff;
      carry >>= 8;
    }
    while (carry > 0) {
      bytes.push(carry & 0xff);
      carry >>= 8;
    }
  }
  const out = new Uint8Array(zeros + bytes.length);
  for (let j = 0; j < bytes.length; j++) out[out.length - 1 - j] = bytes[j] as number;
  return out;
}
