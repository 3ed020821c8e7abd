// The transcripts' diagnostic notation (harness/report/diagnostic.ts) against RFC 8949 Appendix A, whose table pairs
// each encoded example with its diagnostic notation; and what it prints for bytes that are not well-formed CBOR.
import { describe, expect, it } from 'vitest';
import { diagnosticOfHex } from '../report/diagnostic.ts';

// RFC 8949 Appendix A, Table 6 (a bignum's row is its tag form, as §8 writes a tag)
const APPENDIX_A: ReadonlyArray<readonly [string, string]> = [
  ['00', '0'], ['01', '1'], ['0a', '10'], ['17', '23'], ['1818', '24'], ['1819', '25'], ['1864', '100'], ['1903e8', '1000'],
  ['1a000f4240', '1000000'], ['1b000000e8d4a51000', '1000000000000'], ['1bffffffffffffffff', '18446744073709551615'],
  ['c249010000000000000000', "2(h'010000000000000000')"], ['3bffffffffffffffff', '-18446744073709551616'],
  ['c349010000000000000000', "3(h'010000000000000000')"], ['20', '-1'], ['29', '-10'], ['3863', '-100'], ['3903e7', '-1000'],
  ['f90000', '0.0'], ['f98000', '-0.0'], ['f93c00', '1.0'], ['fb3ff199999999999a', '1.1'], ['f93e00', '1.5'], ['f97bff', '65504.0'],
  ['fa47c35000', '100000.0'], ['fa7f7fffff', '3.4028234663852886e+38'], ['fb7e37e43c8800759c', '1.0e+300'],
  ['f90001', '5.960464477539063e-8'], ['f90400', '0.00006103515625'], ['f9c400', '-4.0'], ['fbc010666666666666', '-4.1'],
  ['f97c00', 'Infinity'], ['f97e00', 'NaN'], ['f9fc00', '-Infinity'], ['fa7f800000', 'Infinity'], ['fa7fc00000', 'NaN'],
  ['faff800000', '-Infinity'], ['fb7ff0000000000000', 'Infinity'], ['fb7ff8000000000000', 'NaN'], ['fbfff0000000000000', '-Infinity'],
  ['f4', 'false'], ['f5', 'true'], ['f6', 'null'], ['f7', 'undefined'], ['f0', 'simple(16)'], ['f8ff', 'simple(255)'],
  ['c074323031332d30332d32315432303a30343a30305a', '0("2013-03-21T20:04:00Z")'], ['c11a514b67b0', '1(1363896240)'],
  ['c1fb41d452d9ec200000', '1(1363896240.5)'], ['d74401020304', "23(h'01020304')"], ['d818456449455446', "24(h'6449455446')"],
  ['d82076687474703a2f2f7777772e6578616d706c652e636f6d', '32("http://www.example.com")'],
  ['40', "h''"], ['4401020304', "h'01020304'"], ['60', '""'], ['6161', '"a"'], ['6449455446', '"IETF"'], ['62225c', '"\\"\\\\"'],
  ['62c3bc', '"ü"'], ['63e6b0b4', '"水"'], ['64f0908591', '"𐅑"'],
  ['80', '[]'], ['83010203', '[1, 2, 3]'], ['8301820203820405', '[1, [2, 3], [4, 5]]'],
  ['98190102030405060708090a0b0c0d0e0f101112131415161718181819', `[${Array.from({ length: 25 }, (_, i) => i + 1).join(', ')}]`],
  ['a0', '{}'], ['a201020304', '{1: 2, 3: 4}'], ['a26161016162820203', '{"a": 1, "b": [2, 3]}'], ['826161a161626163', '["a", {"b": "c"}]'],
  ['a56161614161626142616361436164614461656145', '{"a": "A", "b": "B", "c": "C", "d": "D", "e": "E"}'],
  ['5f42010243030405ff', "(_ h'0102', h'030405')"], ['7f657374726561646d696e67ff', '(_ "strea", "ming")'], ['9fff', '[_ ]'],
  ['9f018202039f0405ffff', '[_ 1, [2, 3], [_ 4, 5]]'], ['9f01820203820405ff', '[_ 1, [2, 3], [4, 5]]'],
  ['83018202039f0405ff', '[1, [2, 3], [_ 4, 5]]'], ['83019f0203ff820405', '[1, [_ 2, 3], [4, 5]]'],
  ['bf61610161629f0203ffff', '{_ "a": 1, "b": [_ 2, 3]}'], ['826161bf61626163ff', '["a", {_ "b": "c"}]'], ['bf6346756ef563416d7421ff', '{_ "Fun": true, "Amt": -2}'],
];

describe('CBOR diagnostic notation', () => {
  it.each(APPENDIX_A)('%s reads %s (RFC 8949 Appendix A)', (hex, diag) => {
    expect(diagnosticOfHex(hex)).toBe(diag);
  });

  it('prints what is well-formed, then a comment naming the byte and the reason where the bytes stop being CBOR', () => {
    // a map of two entries cut before its second value
    expect(diagnosticOfHex('a26161016162')).toBe('{"a": 1, "b": / not well-formed at byte 6: truncated: 1 byte(s) wanted, 0 left /');
    expect(diagnosticOfHex('a2616101616')).toBe('/ not hex /');
    expect(diagnosticOfHex('5a000000ff00')).toBe("/ not well-formed at byte 0: a length of 255 runs past the end (1 byte(s) left) /");
    expect(diagnosticOfHex('ff')).toBe('/ not well-formed at byte 0: a break outside an indefinite-length item /');
    expect(diagnosticOfHex('1c')).toBe('/ not well-formed at byte 0: reserved additional information 28 /');
    expect(diagnosticOfHex('62ff00')).toBe("h'ff00' / text string that is not UTF-8 /");
    expect(diagnosticOfHex('')).toBe('/ no bytes /');
  });

  it('reads a sequence of items (RFC 8742) and stops nesting past its depth bound without exhausting the stack', () => {
    expect(diagnosticOfHex('0102')).toBe('1, 2');
    const deep = diagnosticOfHex('81'.repeat(100_000));
    expect(deep).toMatch(/\/ not well-formed at byte 257: nested deeper than 256 \/$/);
  });
});
