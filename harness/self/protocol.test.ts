// Self-tests of the testee protocol's pieces: framing, the schema validator, and the CDDL document agreeing with the
// schema the drivers enforce.
import { ERROR_CODES } from '../../impl/errors.ts';
import { readFileSync, readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { encodeFrame, FrameReader, FramingError } from '../protocol/framing.ts';
import { OPS, validate, validateResponse } from '../protocol/schema.ts';

const HERE = dirname(fileURLToPath(import.meta.url));

describe('framing', () => {
  it('reassembles frames split across chunks and joined in one chunk', () => {
    const a = encodeFrame({ seq: 1, op: 'hello', args: {} });
    const b = encodeFrame({ seq: 2, op: 'x', args: { n: 5 } });
    const all = Uint8Array.from([...a, ...b]);
    for (let cut = 0; cut <= all.length; cut++) {
      const r = new FrameReader();
      const got = [...r.push(all.subarray(0, cut)), ...r.push(all.subarray(cut))];
      expect(got.length).toBe(2);
      expect(r.pending).toBe(0);
    }
  });

  it('refuses a declared length over the cap before buffering it, and a non-canonical body', () => {
    const r = new FrameReader(100);
    expect(() => r.push(Uint8Array.of(0, 0, 0, 101))).toThrow(FramingError);
    const r2 = new FrameReader();
    expect(() => r2.push(Uint8Array.of(0, 0, 0, 2, 0x18, 0x00))).toThrow(/not canonical/);
  });
});

describe('schema', () => {
  it('validates shapes and names the path of each problem', () => {
    const ok = new Map<unknown, unknown>([['seq', 3], ['ok', new Map([['spent_uj', 5]])]]);
    expect(validateResponse('point.spent', 3, ok as never)).toEqual([]);
    expect(validateResponse('point.spent', 4, ok as never)).toEqual(['$.seq: expected 4, got 3']);
    const bad = new Map<unknown, unknown>([['seq', 3], ['ok', new Map([['spent_uj', 'five']])]]);
    expect(validateResponse('point.spent', 3, bad as never)).toEqual(['$.ok.spent_uj: expected an unsigned integer']);
    const two = new Map<unknown, unknown>([['seq', 3], ['ok', new Map()], ['unimplemented', 'x']]);
    expect(validateResponse('point.spent', 3, two as never)[0]).toMatch(/exactly one of/);
    const err = new Map<unknown, unknown>([['seq', 3], ['error', new Map([['code', 'ERR_MADE_UP'], ['message', 'x']])]]);
    expect(validateResponse('point.spent', 3, err as never)[0]).toMatch(/\$\.error\.code: expected one of/);
    expect(validate('bytes32', new Uint8Array(31))).toEqual(['$: expected 32 bytes, got 31']);
  });

  it('the CDDL document names the arguments and result of every operation the drivers enforce', () => {
    // testee.cddl, and a document per group of suite-defined profiles beside it (harness/protocol/profiles/)
    const profiles = join(HERE, '..', 'protocol', 'profiles');
    const cddl = [join(HERE, '..', 'protocol', 'testee.cddl'), ...readdirSync(profiles).filter((f) => f.endsWith('.cddl')).sort().map((f) => join(profiles, f))]
      .map((f) => readFileSync(f, 'utf8'))
      .join('\n');
    for (const op of Object.keys(OPS)) {
      expect(cddl, op).toMatch(new RegExp(`(^|\\s)${op.replace('.', '\\.')}-args = `));
      expect(cddl, op).toMatch(new RegExp(`(^|\\s)${op.replace('.', '\\.')}-ok = `));
    }
    const documented = [...cddl.matchAll(/(?:^|\s)([a-z0-9.-]+)-args = /g)].map((m) => m[1]);
    expect(documented.sort()).toEqual(Object.keys(OPS).sort());
  });

  it('the CDDL document lists exactly the closed set of error codes', () => {
    const cddl = readFileSync(join(HERE, '..', 'protocol', 'testee.cddl'), 'utf8');
    const rule = /(?:^|\n)error-code = ([\s\S]*?)\n\n/.exec(cddl)?.[1] ?? '';
    const listed = [...rule.matchAll(/"(ERR_[A-Z0-9_]+)"/g)].map((m) => m[1]);
    expect(listed).toEqual([...ERROR_CODES]);
  });
});
