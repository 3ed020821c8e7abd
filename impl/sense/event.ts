// sense §2 (the observed event) and §3 (content address): an Event, its payload Cid = blake3(payload_bytes) in
// lowercase hex, and its content id — blake3 over a fixed-order, length-prefixed concatenation of its fields, binding
// the source class and the trust level (conformance C2).
//
// The suite's reading of the concatenation (the spec fixes "fixed-order, length-prefixed", not the bytes), published
// as EVENT_ID_FIELD_ORDER:
//   for each field, in the order hlc, source, valid_time_ns, trust, payload, line:
//     u32 big-endian byte length ‖ the field's bytes
//   hlc            12 bytes: physical_ns u64 BE ‖ logical u32 BE (hlc.ts)
//   source         UTF-8 of the class name ("file_change", …, or "vendor:<code>")
//   valid_time_ns  8 bytes u64 BE when present; ZERO bytes when absent (so absent ≠ 0)
//   trust          UTF-8 of the level name ("Attested", "FirstParty", "Inferred", "Untrusted")
//   payload        the 32 raw bytes of the payload Cid
//   line           UTF-8 of the line
// Source classes travel by name, not by number: the spec lists the classes and says codes are stable but publishes
// no numbers for the standard ones, so a name is the only encoding a second implementation can derive from it.
import { concatBytes, fromHex, toHex } from '../bytes.ts';
import { JcpError } from '../errors.ts';
import { blake3 } from '../hash/blake3.ts';
import { _oneOf, _text, _uint } from './_read.ts';
import { hlcBytes, makeHlc, type Hlc } from './hlc.ts';

/** sense §2: the vendor-neutral source classes. */
export const SOURCE_CLASSES = [
  'file_change',
  'app_focus',
  'system_log',
  'process_tree',
  'thermal_power',
  'shell',
  'accessibility',
  'network',
  'endpoint',
  'salience',
] as const;
/** A source class: one of {@link SOURCE_CLASSES} or `vendor:<code>` with code ≥ 1024. */
export type SourceClass = (typeof SOURCE_CLASSES)[number] | `vendor:${number}`;

/** sense §2: vendor-specific classes "use vendor:<code> with code ≥ 1024". */
export const VENDOR_CODE_MIN = 1024n;

/** sense §2: the trust levels, strongest first ("Untrusted (the default)"). */
export const TRUST_LEVELS = ['Attested', 'FirstParty', 'Inferred', 'Untrusted'] as const;
/** A trust level. */
export type TrustLevel = (typeof TRUST_LEVELS)[number];

/** The field order of the content id's concatenation (the suite's reading; see the header). */
export const EVENT_ID_FIELD_ORDER = ['hlc', 'source', 'valid_time_ns', 'trust', 'payload', 'line'] as const;

/** sense §2: one datum on the log. `payload` is the Cid of the raw bytes. */
export interface Event {
  readonly hlc: Hlc;
  readonly source: SourceClass;
  readonly valid_time_ns?: bigint;
  readonly trust: TrustLevel;
  readonly payload: string;
  readonly line: string;
}

const CID_RE = /^[0-9a-f]{64}$/;
const VENDOR_RE = /^vendor:(0|[1-9][0-9]*)$/;
const utf8 = new TextEncoder();
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** sense §3: "A Cid is blake3(payload_bytes), lowercase-hex on the wire." */
export function payloadCid(payload_bytes: Uint8Array): string {
  if (!(payload_bytes instanceof Uint8Array)) throw new JcpError('ERR_SENSE_EVENT_MALFORMED', 'payload bytes must be a byte string');
  return toHex(blake3(payload_bytes));
}

/** `v` as a source class, else ERR_SENSE_EVENT_MALFORMED. */
export function sourceClass(v: unknown): SourceClass {
  const s = _text(v, 'source', 'ERR_SENSE_EVENT_MALFORMED');
  if ((SOURCE_CLASSES as readonly string[]).includes(s)) return s as SourceClass;
  const m = VENDOR_RE.exec(s);
  // sense §2: "vendor-specific classes use vendor:<code> with code ≥ 1024"
  if (m && BigInt(m[1]!) >= VENDOR_CODE_MIN) return s as SourceClass;
  throw new JcpError('ERR_SENSE_EVENT_MALFORMED', `source must be a standard class or vendor:<code> with code ≥ 1024, got ${JSON.stringify(s)}`);
}

/** `v` as a trust level, else ERR_SENSE_EVENT_MALFORMED. */
export function trustLevel(v: unknown): TrustLevel {
  return _oneOf(v, TRUST_LEVELS, 'trust', 'ERR_SENSE_EVENT_MALFORMED');
}

/** The fields a caller gives for an event; `trust` defaults to Untrusted (sense §2: "the default"). */
export interface EventFields {
  readonly hlc: Hlc;
  readonly source: string;
  readonly valid_time_ns?: bigint;
  readonly trust?: string;
  readonly payload: string;
  readonly line: string;
}

/** The validating constructor of an {@link Event}: ERR_SENSE_EVENT_MALFORMED naming the first bad field. */
export function makeEvent(f: EventFields): Event {
  if (typeof f !== 'object' || f === null) throw new JcpError('ERR_SENSE_EVENT_MALFORMED', 'an event must be an object');
  const hlc = makeHlc(f.hlc?.physical_ns, f.hlc?.logical);
  const payload = _text(f.payload, 'payload', 'ERR_SENSE_EVENT_MALFORMED');
  if (!CID_RE.test(payload)) throw new JcpError('ERR_SENSE_EVENT_MALFORMED', 'payload must be a Cid: 64 lowercase hex digits');
  const line = _text(f.line, 'line', 'ERR_SENSE_EVENT_MALFORMED');
  if (LONE_SURROGATE.test(line)) throw new JcpError('ERR_SENSE_EVENT_MALFORMED', 'line must be well-formed Unicode');
  const valid_time_ns = f.valid_time_ns === undefined ? undefined : _uint(f.valid_time_ns, 'valid_time_ns', 'ERR_SENSE_EVENT_MALFORMED');
  return Object.freeze({
    hlc,
    source: sourceClass(f.source),
    ...(valid_time_ns !== undefined ? { valid_time_ns } : {}),
    trust: f.trust === undefined ? 'Untrusted' : trustLevel(f.trust),
    payload,
    line,
  });
}

function lengthPrefixed(field: Uint8Array): Uint8Array {
  const head = new Uint8Array(4);
  new DataView(head.buffer).setUint32(0, field.length);
  return concatBytes(head, field);
}

function u64be(n: bigint): Uint8Array {
  const out = new Uint8Array(8);
  new DataView(out.buffer).setBigUint64(0, n);
  return out;
}

/** The bytes the content id hashes: each field of {@link EVENT_ID_FIELD_ORDER}, u32-BE length-prefixed. */
export function eventIdPreimage(e: Event): Uint8Array {
  // sense §2: "blake3 over a fixed-order, length-prefixed concatenation of its fields"
  return concatBytes(
    lengthPrefixed(hlcBytes(e.hlc)),
    lengthPrefixed(utf8.encode(e.source)),
    lengthPrefixed(e.valid_time_ns === undefined ? new Uint8Array(0) : u64be(e.valid_time_ns)),
    lengthPrefixed(utf8.encode(e.trust)),
    lengthPrefixed(fromHex(e.payload, 'payload')),
    lengthPrefixed(utf8.encode(e.line)),
  );
}

/** The event's raw 32-byte content id. */
export function eventIdBytes(e: Event): Uint8Array {
  return blake3(eventIdPreimage(e));
}

/** sense §2: the event's content id, lowercase hex. Re-tagging its source class or trust level changes it. */
export function eventId(e: Event): string {
  return toHex(eventIdBytes(e));
}
