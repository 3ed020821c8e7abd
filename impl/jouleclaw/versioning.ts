// jouleclaw §7 wire format versioning: the jc_receipt schema tag ("1" cascade, "policy/1", "verdict-receipt/1"),
// unknown major → reject, unknown minor → accept ignoring unknown fields, new schemas under a prefixed namespace.
//
// Readings taken where §7 leaves the form open:
// - A tag is "<major>[.<minor>]" (bare, reserved for the cascade-walk receipt) or "<name>/<major>[.<minor>]", with
//   name = [a-z0-9-]+ and major/minor decimal without leading zeros. Anything else is malformed (ERR_JC_RECEIPT_MALFORMED).
// - "Unknown major → reject" applies to a namespace this implementation knows (bare, policy, verdict-receipt): "2",
//   "policy/2" are refused with ERR_JC_SCHEMA_UNKNOWN. A namespace it does not know at all is not refused but reported
//   'unknown', so a unified-log reader can skip it (§10: "unknown → forward-compat skip").
// - "Unknown minor → accept by ignoring unknown fields": any minor of a known major is read under that major, and the
//   readers of this module family ignore fields they do not know (for the defined minor too: a field a later minor adds
//   may appear before its tag does).
import { JcpError, type JcpErrorCode } from '../errors.ts';

/** The jc_receipt namespaces this implementation knows, with the one major of each it reads. */
export const KNOWN_RECEIPT_SCHEMAS = Object.freeze({ cascade: { name: '', major: 1 }, policy: { name: 'policy', major: 1 }, verdict: { name: 'verdict-receipt', major: 1 } });

/** What a schema tag names. */
export type ReceiptKind = keyof typeof KNOWN_RECEIPT_SCHEMAS | 'unknown';

/** A parsed schema tag. `name` is '' for the bare (cascade) form. */
export interface SchemaTag {
  readonly name: string;
  readonly major: number;
  readonly minor?: number;
}

const TAG = /^(?:([a-z0-9][a-z0-9-]*)\/)?(0|[1-9][0-9]{0,8})(?:\.(0|[1-9][0-9]{0,8}))?$/;

/** Parses a schema tag ("1", "1.3", "policy/1", "verdict-receipt/1.2"); `code` (ERR_JC_RECEIPT_MALFORMED) on any other text. */
export function parseSchemaTag(tag: unknown, field = 'jc_receipt', code: JcpErrorCode = 'ERR_JC_RECEIPT_MALFORMED'): SchemaTag {
  if (typeof tag !== 'string') throw new JcpError(code, `${field} must be a string schema tag`);
  const m = TAG.exec(tag);
  if (!m) throw new JcpError(code, `${field} "${tag}" is neither "<N>[.<minor>]" nor "<name>/<N>[.<minor>]"`);
  return Object.freeze({ name: m[1] ?? '', major: Number(m[2]), ...(m[3] !== undefined ? { minor: Number(m[3]) } : {}) });
}

/**
 * The kind of receipt a jc_receipt tag names: cascade, policy, verdict, or 'unknown' for a namespace this implementation
 * does not know. A known namespace under a major other than the one it reads is ERR_JC_SCHEMA_UNKNOWN.
 */
export function receiptKindOf(tag: unknown): ReceiptKind {
  const t = parseSchemaTag(tag);
  for (const [kind, s] of Object.entries(KNOWN_RECEIPT_SCHEMAS) as [ReceiptKind, { name: string; major: number }][]) {
    if (s.name !== t.name) continue;
    // jouleclaw §7: "Unknown major → reject."
    if (t.major !== s.major) {
      throw new JcpError('ERR_JC_SCHEMA_UNKNOWN', `jc_receipt "${String(tag)}": major ${t.major} of ${t.name === '' ? 'the cascade receipt' : `"${t.name}"`} is unknown (this implementation reads ${s.major})`);
    }
    return kind;
  }
  return 'unknown';
}

/** Throws ERR_JC_SCHEMA_UNKNOWN unless `tag` names namespace `name` at major `major` (any minor). */
export function expectSchema(tag: unknown, name: string, major: number, field = 'jc_receipt', malformed: JcpErrorCode = 'ERR_JC_RECEIPT_MALFORMED'): SchemaTag {
  const t = parseSchemaTag(tag, field, malformed);
  if (t.name !== name || t.major !== major) {
    throw new JcpError('ERR_JC_SCHEMA_UNKNOWN', `${field} "${String(tag)}" is not ${name === '' ? '' : `${name}/`}${major}[.minor]`);
  }
  return t;
}
