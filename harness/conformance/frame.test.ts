// Conformance: jcp §6 the Frame — canonical shape, an absent model omitted, strict parsing at the boundary (C-neg).
// Frames are encoded by the oracle and judged by the implementation under test's frame.check.
import { describe, expect } from 'vitest';
import { AcceptableReading, clauseIt, declaredReading } from '../clause.ts';
import { codeOf, expectCode } from '../refusal.ts';
import { implementation } from '../driver.ts';
import { frameFor, payload, rootGrant } from '../fixtures.ts';
import type { FrameFields } from '../implementation.ts';
import { encodeCanonical, type CborValue } from '../oracle.ts';

/** A control frame over a root grant minted by the implementation under test (built on first use, inside a test). */
let baseP: Promise<FrameFields> | undefined;
const base = () => (baseP ??= rootGrant().then((m) => frameFor(m)));

/** The canonical bytes of a frame's fields, in the original six-field shape plus model when present. */
function frameBytes(f: FrameFields): Uint8Array {
  return encodeCanonical({
    kind: f.kind,
    trust: f.trust,
    grant_id: f.grant_id,
    action: f.action,
    resource: f.resource,
    payload_hash: f.payload_hash,
    ...(f.model !== undefined ? { model: f.model } : {}),
  });
}

const hex = (b: Uint8Array) => Buffer.from(b).toString('hex');

describe('jcp §6 frames', () => {
  clauseIt(['jcp/6#absent-model-omitted', 'jcp/4#absent-optional-omitted'], 'a frame without a model is byte-identical to one built before the field existed', async () => {
    const f = await base();
    const bytes = frameBytes(f);
    // exactly the six fields of the original frame: kind, trust, grant_id, action, resource, payload_hash
    expect(bytes[0]).toBe(0xa6);
    const back = await implementation().frameCheck(bytes);
    expect(Object.keys(back).sort()).toEqual(['action', 'grant_id', 'kind', 'payload_hash', 'resource', 'trust']);
    expect(back).not.toHaveProperty('model');
    expect(back).toEqual(f);
    expect(hex(encodeCanonical(back as unknown as Record<string, CborValue>))).toBe(hex(bytes));

    const withModel = frameBytes({ ...f, model: payload('model') });
    expect(withModel[0]).toBe(0xa7);
    const backM = await implementation().frameCheck(withModel);
    expect(Object.keys(backM)).toHaveLength(7);
    expect(backM.model).toBe(payload('model'));
    expect(backM).toEqual({ ...f, model: payload('model') });
    expect(hex(encodeCanonical(backM as unknown as Record<string, CborValue>))).toBe(hex(withModel));
  });

  clauseIt(['jcp/6#typed-frame'], 'a malformed frame is refused with ERR_FRAME_MALFORMED naming the field', async () => {
    const f = await base();
    const m = new Map<string, CborValue>(Object.entries(f));
    const variant = (k: string, v: CborValue | undefined): Uint8Array => {
      const c = new Map(m);
      if (v === undefined) c.delete(k);
      else c.set(k, v);
      return encodeCanonical(c);
    };
    const cases: Array<[string, Uint8Array]> = [
      ['trust maybe', variant('trust', 'maybe')],
      ['kind tool-exec', variant('kind', 'tool-exec')],
      ['grant_id not a content id', variant('grant_id', 'ABC')],
      ['payload_hash missing', variant('payload_hash', undefined)],
      ['model not text', variant('model', 7)],
    ];
    for (const [what, bytes] of cases) await expectCode(implementation().frameCheck(bytes), 'ERR_FRAME_MALFORMED', what);
    // not a map at all
    await expectCode(implementation().frameCheck(encodeCanonical([])), 'ERR_FRAME_MALFORMED');
    for (const t of ['control', 'data']) expect((await implementation().frameCheck(variant('trust', t))).trust).toBe(t);
  });

  clauseIt(['jcp/6#open-unknown-frame-fields'], 'a frame with a field outside jcp §6 is read as the declared reading of unknown frame fields says', async () => {
    const f = await base();
    const bytes = encodeCanonical(new Map<string, CborValue>([...Object.entries(f), ['extra', 'x']]));
    const impl = implementation();
    // harness/protocol/readings.ts: refused (ERR_FRAME_MALFORMED) or ignored (the known fields answered alone)
    const declared = declaredReading('unknown-frame-fields');
    if (declared === 'refused') return expectCode(impl.frameCheck(bytes), 'ERR_FRAME_MALFORMED', 'an extra field');
    const got = await impl.frameCheck(bytes).then(
      (back) => back,
      (e: unknown) => codeOf(Promise.reject(e)),
    );
    if (declared === 'ignored') return void expect(got, 'the declared reading ignored: the known fields alone').toEqual(f);
    if (typeof got === 'string' || JSON.stringify(got) === JSON.stringify(f)) {
      throw new AcceptableReading(`a frame with an extra field: ${typeof got === 'string' ? `refused ${got}` : 'read as its known fields'}, a reading the text permits (none declared)`);
    }
    expect(got, 'either reading permits only a refusal or the known fields here').toEqual(f);
  });
});
