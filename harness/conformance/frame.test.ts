// Conformance: jcp §6 the Frame — canonical shape, an absent model omitted, strict parsing at the boundary (C-neg).
import { describe, expect } from 'vitest';
import { decodeCanonical, encodeCanonical, frameToCbor, isJcpError, parseFrame, type Frame } from '../../impl/index.ts';
import { clauseIt } from '../clause.ts';
import { frameFor, payload, rootGrant } from '../fixtures.ts';

const base: Frame = frameFor(rootGrant());

function codeOf(fn: () => unknown): string {
  try {
    fn();
    return 'accepted';
  } catch (e) {
    return isJcpError(e) ? e.code : 'not a JcpError';
  }
}

describe('jcp §6 frames', () => {
  clauseIt(['jcp/6#absent-model-omitted', 'jcp/4#absent-optional-omitted'], 'a frame without a model is byte-identical to one built before the field existed', () => {
    const bytes = encodeCanonical(frameToCbor(base));
    // exactly the six fields of the original frame: kind, trust, grant_id, action, resource, payload_hash
    expect(bytes[0]).toBe(0xa6);
    const explicit = encodeCanonical({
      kind: base.kind,
      trust: base.trust,
      grant_id: base.grant_id,
      action: base.action,
      resource: base.resource,
      payload_hash: base.payload_hash,
    });
    expect(Buffer.from(bytes).equals(Buffer.from(explicit))).toBe(true);
    const withModel = encodeCanonical(frameToCbor({ ...base, model: payload('model') }));
    expect(withModel[0]).toBe(0xa7);
    expect(parseFrame(decodeCanonical(withModel)).model).toBe(payload('model'));
    expect(parseFrame(decodeCanonical(bytes))).not.toHaveProperty('model');
  });

  clauseIt(['jcp/6#data-frame-refused', 'jcp/11#reject-non-canonical'], 'a malformed frame is refused with ERR_FRAME_MALFORMED naming the field', () => {
    const m = decodeCanonical(encodeCanonical(frameToCbor(base))) as Map<string, unknown>;
    const variant = (k: string, v: unknown) => {
      const c = new Map(m);
      if (v === undefined) c.delete(k);
      else c.set(k, v);
      return c as never;
    };
    expect(codeOf(() => parseFrame(variant('trust', 'maybe')))).toBe('ERR_FRAME_MALFORMED');
    expect(codeOf(() => parseFrame(variant('kind', 'tool-exec')))).toBe('ERR_FRAME_MALFORMED');
    expect(codeOf(() => parseFrame(variant('grant_id', 'ABC')))).toBe('ERR_FRAME_MALFORMED');
    expect(codeOf(() => parseFrame(variant('payload_hash', undefined)))).toBe('ERR_FRAME_MALFORMED');
    expect(codeOf(() => parseFrame(variant('extra', 'x')))).toBe('ERR_FRAME_MALFORMED');
    expect(codeOf(() => parseFrame(variant('model', 7)))).toBe('ERR_FRAME_MALFORMED');
    expect(codeOf(() => parseFrame([] as never))).toBe('ERR_FRAME_MALFORMED');
    for (const t of ['control', 'data']) expect(parseFrame(variant('trust', t)).trust).toBe(t);
  });
});
