// Unit tests of the Frame codec's own API (impl/jcp/codec.ts frameToCbor / parseFrame): an absent model is omitted,
// and a value that is not a map is refused ERR_FRAME_MALFORMED. Frame checks over the protocol live in
// harness/conformance/frame.test.ts.
import { describe, expect, it } from 'vitest';
import { codeOf } from '../_test-support.ts';
import { decodeCanonical, encodeCanonical } from '../cbor/index.ts';
import { frameToCbor, parseFrame } from './codec.ts';
import { contentId } from './content-id.ts';
import type { Frame } from './types.ts';

const base: Frame = {
  kind: 'tool-call',
  trust: 'control',
  grant_id: contentId({ grant: 'g' }),
  action: 'call',
  resource: contentId({ resource: 'tool:search' }),
  payload_hash: contentId({ payload: 'args' }),
};

describe('frameToCbor / parseFrame', () => {
  it('encodes a frame without a model as exactly the six original fields; with a model, seven', () => {
    const bytes = encodeCanonical(frameToCbor(base));
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
    const withModel = encodeCanonical(frameToCbor({ ...base, model: contentId({ payload: 'model' }) }));
    expect(withModel[0]).toBe(0xa7);
    expect(parseFrame(decodeCanonical(withModel)).model).toBe(contentId({ payload: 'model' }));
    expect(parseFrame(decodeCanonical(bytes))).not.toHaveProperty('model');
  });

  it('refuses a value that is not a map with ERR_FRAME_MALFORMED', () => {
    expect(codeOf(() => parseFrame([] as never))).toBe('ERR_FRAME_MALFORMED');
    expect(codeOf(() => parseFrame(7 as never))).toBe('ERR_FRAME_MALFORMED');
  });
});
