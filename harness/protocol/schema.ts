// The testee protocol's messages and their shapes (harness/PROTOCOL.md, harness/protocol/testee.cddl): one table that
// the drivers validate every message against, so a testee's drift is caught at the message that drifted. The table's
// operations are written per spec area in ./ops/, in the shapes of ./shapes.ts.
import type { CborValue } from '../../impl/cbor/index.ts';
import { ERROR_CODES } from '../../impl/errors.ts';
import { CORE_OPS } from './ops/core.ts';
import { MONEY_OPS } from './ops/money.ts';
import { ENERGY_OPS } from './ops/energy.ts';
import { IDENTITY_OPS } from './ops/identity.ts';
import { CHECKPOINTS_OPS } from './ops/checkpoints.ts';
import { CHANNELS_OPS } from './ops/channels.ts';
import { REPLAY_OPS } from './ops/replay.ts';
import { FORWARDING_OPS } from './ops/forwarding.ts';
import { DURABLE_OPS } from './ops/durable.ts';
import { SENSE_OPS } from './ops/sense.ts';
import { JOULECLAW_TLOG_OPS } from './ops/jouleclaw-tlog.ts';
import { JOULECLAW_RECEIPTS_OPS } from './ops/jouleclaw-receipts.ts';
import { JOULECLAW_POLICY_OPS } from './ops/jouleclaw-policy.ts';
import { P_JCP_OPS } from './ops/p-jcp.ts';
import { P_ENERGY_OPS } from './ops/p-energy.ts';
import { P_DOCUMENTS_OPS } from './ops/p-documents.ts';
import { P_SEMANTIC_OPS } from './ops/p-semantic.ts';
import { P_RUNTIME_OPS } from './ops/p-runtime.ts';
import type { OpSpec, Shape } from './shapes.ts';

export type { OpSpec, Shape } from './shapes.ts';

/** The protocol version this suite speaks. A testee naming another is refused at the handshake. */
export const PROTOCOL_VERSION = 'jcp-testee/1';

/** Every operation of protocol jcp-testee/1. */
export const OPS: Readonly<Record<string, OpSpec>> = {
  ...CORE_OPS,
  ...MONEY_OPS,
  ...ENERGY_OPS,
  ...IDENTITY_OPS,
  ...CHECKPOINTS_OPS,
  ...CHANNELS_OPS,
  ...REPLAY_OPS,
  ...FORWARDING_OPS,
  ...DURABLE_OPS,
  ...SENSE_OPS,
  ...JOULECLAW_TLOG_OPS,
  ...JOULECLAW_RECEIPTS_OPS,
  ...JOULECLAW_POLICY_OPS,
  // the suite-defined profiles (spec-map/profiles.json)
  ...P_JCP_OPS,
  ...P_ENERGY_OPS,
  ...P_DOCUMENTS_OPS,
  ...P_SEMANTIC_OPS,
  ...P_RUNTIME_OPS,
};

/** The envelope of a request. */
export const REQUEST: Shape = { map: { seq: 'uint', op: 'text', args: 'any' } };

/** Problems with `v` against `shape`, each naming its path; empty when it conforms. */
export function validate(shape: Shape, v: CborValue | undefined, path = '$'): string[] {
  if (shape === 'any') return v === undefined ? [`${path}: missing`] : [];
  if (shape === 'text') return typeof v === 'string' ? [] : [`${path}: expected text`];
  if (shape === 'uint') {
    return (typeof v === 'number' && Number.isSafeInteger(v) && v >= 0) || (typeof v === 'bigint' && v >= 0n) ? [] : [`${path}: expected an unsigned integer`];
  }
  if (shape === 'bytes' || shape === 'bytes16' || shape === 'bytes32' || shape === 'bytes64') {
    if (!(v instanceof Uint8Array)) return [`${path}: expected a byte string`];
    const n = shape === 'bytes' ? undefined : Number(shape.slice(5));
    return n !== undefined && v.length !== n ? [`${path}: expected ${n} bytes, got ${v.length}`] : [];
  }
  if ('enum' in shape) return typeof v === 'string' && shape.enum.includes(v) ? [] : [`${path}: expected one of ${shape.enum.join(' | ')}`];
  if ('array' in shape) {
    if (!Array.isArray(v)) return [`${path}: expected an array`];
    const out = v.length < (shape.min ?? 0) ? [`${path}: expected at least ${shape.min} item(s)`] : [];
    v.forEach((x, i) => out.push(...validate(shape.array, x, `${path}[${i}]`)));
    return out;
  }
  if ('textMap' in shape) {
    if (!(v instanceof Map)) return [`${path}: expected a map`];
    const out: string[] = [];
    for (const [k, x] of v) {
      if (typeof k !== 'string') out.push(`${path}: a key is not text`);
      else out.push(...validate(shape.textMap, x, `${path}.${k}`));
    }
    return out;
  }
  if (!(v instanceof Map)) return [`${path}: expected a map`];
  const out: string[] = [];
  for (const k of v.keys()) if (typeof k !== 'string' || !(k in shape.map)) out.push(`${path}: unexpected field ${String(k)}`);
  for (const [k, s] of Object.entries(shape.map)) {
    if (!v.has(k)) {
      if (!shape.optional?.includes(k)) out.push(`${path}.${k}: missing`);
      continue;
    }
    out.push(...validate(s, v.get(k), `${path}.${k}`));
  }
  return out;
}

/** Problems with a response to `op` (any of its three forms), against the op's result shape. */
export function validateResponse(op: string, seq: number, v: CborValue): string[] {
  if (!(v instanceof Map)) return ['$: a response must be a map'];
  const out: string[] = [];
  const got = v.get('seq');
  if (got !== seq) out.push(`$.seq: expected ${seq}, got ${String(got)}`);
  const forms = ['ok', 'error', 'unimplemented'].filter((k) => v.has(k));
  if (forms.length !== 1) return [...out, '$: a response carries exactly one of ok, error, unimplemented'];
  for (const k of v.keys()) if (k !== 'seq' && k !== forms[0]) out.push(`$: unexpected field ${String(k)}`);
  const form = forms[0]!;
  if (form === 'ok') {
    const spec = OPS[op];
    if (spec) out.push(...validate(spec.result, v.get('ok'), '$.ok'));
  } else if (form === 'error') {
    out.push(...validate({ map: { code: { enum: ERROR_CODES }, message: 'text' } }, v.get('error'), '$.error'));
  } else out.push(...validate('text', v.get('unimplemented'), '$.unimplemented'));
  return out;
}
