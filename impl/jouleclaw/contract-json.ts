// jouleclaw §16.1 "BLAKE3 over the canonical JSON serialisation": the canonical JSON this suite fixes (RFC 8785 JCS for
// the values a contract or verdict holds), and the JSON reading at the boundary that every jouleclaw/ parser shares.
//
// The spec does not name a canonical JSON form (open point; reading taken: RFC 8785, the JSON Canonicalization Scheme):
// no whitespace, object members sorted by their names' UTF-16 code units, strings escaped as ECMAScript
// JSON.stringify escapes them, numbers in ECMAScript's shortest round-trip form. Non-finite numbers and lone surrogates
// are refused, since RFC 8785 has no form for them.
import { JcpError, type JcpErrorCode } from '../errors.ts';
import { blake3 } from '../hash/blake3.ts';
import { toHex } from '../bytes.ts';

/** A JSON value as JSON.parse returns it. */
export type JsonValue = null | boolean | number | string | JsonValue[] | { [k: string]: JsonValue };
/** A JSON object. */
export type JsonObject = { [k: string]: JsonValue };

const utf8 = new TextEncoder();
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/**
 * The RFC 8785 canonical JSON text of `v`. Throws `code` (default ERR_BAD_ARGUMENT) for anything that is not a JSON
 * value: undefined, a function, a bigint, a non-finite number, a string with a lone surrogate, a cycle.
 */
export function canonicalJson(v: unknown, code: JcpErrorCode = 'ERR_BAD_ARGUMENT', path = '$', depth = 0): string {
  if (depth > 64) throw new JcpError(code, `${path}: JSON nested deeper than 64 levels`);
  if (v === null) return 'null';
  if (typeof v === 'boolean') return v ? 'true' : 'false';
  if (typeof v === 'number') {
    if (!Number.isFinite(v)) throw new JcpError(code, `${path}: ${String(v)} has no JSON form`);
    return JSON.stringify(v);
  }
  if (typeof v === 'string') {
    if (LONE_SURROGATE.test(v)) throw new JcpError(code, `${path}: a string holds a lone surrogate, which RFC 8785 refuses`);
    return JSON.stringify(v);
  }
  if (Array.isArray(v)) return `[${v.map((x, i) => canonicalJson(x, code, `${path}[${i}]`, depth + 1)).join(',')}]`;
  if (typeof v === 'object' && Object.getPrototypeOf(v) === Object.prototype) {
    const o = v as Record<string, unknown>;
    // RFC 8785 §3.2.3: members sorted by name as arrays of UTF-16 code units (JavaScript's default string order)
    const keys = Object.keys(o).sort();
    return `{${keys.map((k) => `${canonicalJson(k, code, path)}:${canonicalJson(o[k], code, `${path}.${k}`, depth + 1)}`).join(',')}}`;
  }
  throw new JcpError(code, `${path}: ${typeof v} is not a JSON value`);
}

/** Hex BLAKE3 of the UTF-8 bytes of `text`. */
export function blake3HexOfText(text: string): string {
  return toHex(blake3(utf8.encode(text)));
}

/** Hex BLAKE3 of the canonical JSON of `v` (jouleclaw §16.1 "identical contracts → identical hashes"). */
export function canonicalJsonHash(v: unknown, code: JcpErrorCode = 'ERR_BAD_ARGUMENT'): string {
  return blake3HexOfText(canonicalJson(v, code));
}

/** Parses JSON text, or a value already parsed; throws `code` saying what was wrong when the text is not JSON. */
export function readJson(input: unknown, code: JcpErrorCode, what: string): JsonValue {
  if (typeof input !== 'string') {
    // an already-parsed value is checked by serialising it: anything JSON cannot carry is refused here
    canonicalJson(input, code, what);
    return input as JsonValue;
  }
  try {
    return JSON.parse(input) as JsonValue;
  } catch (e) {
    throw new JcpError(code, `${what} is not JSON: ${(e as Error).message}`);
  }
}

/** A field reader over one JSON object: each getter names the path and throws `code` when the field is missing or wrong. */
export interface JsonFields {
  readonly obj: JsonObject;
  text(k: string): string;
  optText(k: string): string | undefined;
  /** A non-negative safe integer. */
  uint(k: string): number;
  optUint(k: string): number | undefined;
  int(k: string): number;
  bool(k: string): boolean;
  optBool(k: string): boolean | undefined;
  texts(k: string): string[];
  array(k: string): JsonValue[];
  optArray(k: string): JsonValue[] | undefined;
  object(k: string): JsonObject;
  optObject(k: string): JsonObject | undefined;
}

/** True when `v` is a plain JSON object (not an array, not null). */
export function isJsonObject(v: unknown): v is JsonObject {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** The {@link JsonFields} reader of `v`, which must be an object, else `code`. */
export function jsonFields(v: unknown, code: JcpErrorCode, path: string): JsonFields {
  if (!isJsonObject(v)) throw new JcpError(code, `${path} must be a JSON object`);
  const obj = v;
  const bad = (k: string, want: string): never => {
    throw new JcpError(code, `${path}.${k} must be ${want}`, { field: k });
  };
  const present = (k: string): boolean => Object.prototype.hasOwnProperty.call(obj, k) && obj[k] !== undefined;
  const need = (k: string): JsonValue => {
    if (!present(k)) throw new JcpError(code, `${path}.${k} is missing`, { field: k });
    return obj[k] as JsonValue;
  };
  const f: JsonFields = {
    obj,
    text: (k) => {
      const x = need(k);
      return typeof x === 'string' ? x : bad(k, 'a string');
    },
    optText: (k) => (present(k) ? f.text(k) : undefined),
    uint: (k) => {
      const x = need(k);
      return typeof x === 'number' && Number.isSafeInteger(x) && x >= 0 ? x : bad(k, 'a non-negative integer');
    },
    optUint: (k) => (present(k) ? f.uint(k) : undefined),
    int: (k) => {
      const x = need(k);
      return typeof x === 'number' && Number.isSafeInteger(x) ? x : bad(k, 'an integer');
    },
    bool: (k) => {
      const x = need(k);
      return typeof x === 'boolean' ? x : bad(k, 'a boolean');
    },
    optBool: (k) => (present(k) ? f.bool(k) : undefined),
    texts: (k) => {
      const x = need(k);
      return Array.isArray(x) && x.every((s) => typeof s === 'string') ? (x as string[]) : bad(k, 'an array of strings');
    },
    array: (k) => {
      const x = need(k);
      return Array.isArray(x) ? x : bad(k, 'an array');
    },
    optArray: (k) => (present(k) ? f.array(k) : undefined),
    object: (k) => {
      const x = need(k);
      return isJsonObject(x) ? x : bad(k, 'an object');
    },
    optObject: (k) => (present(k) ? f.object(k) : undefined),
  };
  return f;
}
