// Unit tests of the value report (impl/jouleclaw/value-report.ts, jouleclaw §19): the check kinds, the report's
// closure_rate and fully_closed, RFC 6901 resolution and the aggregate that skips reports without checks.
import { describe, expect, it } from 'vitest';
import { isJcpError } from '../errors.ts';
import { canonicalJsonHash } from './contract-json.ts';
import { meanClosureRate, resolveJsonPointer, runValueCheck, valueReport } from './value-report.ts';

const OK = { status: 200, body: { a: [1, { 'b/c': 'x', 'd~e': null }] } };

describe('jouleclaw §19.2 check kinds', () => {
  it('status and status_matches_contract read the status against codes and the declared menu', () => {
    expect(runValueCheck({ kind: 'status', codes: [200] }, OK).passed).toBe(true);
    expect(runValueCheck({ kind: 'status', codes: [201] }, OK)).toMatchObject({ passed: false, check: 'status' });
    expect(runValueCheck({ kind: 'status_matches_contract' }, OK, [200, 400, 500]).passed).toBe(true);
    expect(runValueCheck({ kind: 'status_matches_contract' }, OK, [400]).passed).toBe(false);
    expect(runValueCheck({ kind: 'status_matches_contract' }, OK).passed).toBe(false);
  });
  it('output_hash_equals hashes the canonical JSON of the body', () => {
    expect(runValueCheck({ kind: 'output_hash_equals', hash: canonicalJsonHash({ a: [1, { 'd~e': null, 'b/c': 'x' }] }) }, OK).passed).toBe(true);
    expect(runValueCheck({ kind: 'output_hash_equals', hash: canonicalJsonHash({ a: [] }) }, OK).passed).toBe(false);
  });
  it('json_pointer_equals resolves RFC 6901 pointers, escapes included', () => {
    expect(resolveJsonPointer(OK.body, '/a/1/b~1c')).toEqual({ found: true, value: 'x' });
    expect(resolveJsonPointer(OK.body, '/a/1/d~0e')).toEqual({ found: true, value: null });
    expect(resolveJsonPointer(OK.body, '')).toEqual({ found: true, value: OK.body });
    for (const p of ['/a/01', '/a/-', '/a/2', 'a', '/a/1/b~2c', '/a/0/x']) expect(resolveJsonPointer(OK.body, p).found, p).toBe(false);
    expect(runValueCheck({ kind: 'json_pointer_equals', pointer: '/a/0', expected: 1 }, OK).passed).toBe(true);
    expect(runValueCheck({ kind: 'json_pointer_equals', pointer: '/a/0', expected: 2 }, OK).passed).toBe(false);
  });
  it('an unknown kind fails with a reason naming it; a check without a kind is refused', () => {
    const r = runValueCheck({ kind: 'x_semantic' }, OK);
    expect(r.passed).toBe(false);
    expect(r.reason).toContain('x_semantic');
    expect(() => runValueCheck({ codes: [200] }, OK)).toThrow(expect.objectContaining({ code: 'ERR_BAD_ARGUMENT' }));
  });
});

describe('jouleclaw §19.1, §19.3 report and aggregate', () => {
  it('closure_rate and fully_closed', () => {
    expect(valueReport('i', 't', OK, [])).toMatchObject({ closure_rate: 0, fully_closed: false });
    expect(valueReport('i', 't', OK, [{ kind: 'status', codes: [200] }, { kind: 'x' }])).toMatchObject({ closure_rate: 0.5, fully_closed: false });
    expect(valueReport('i', 't', OK, [{ kind: 'status', codes: [200] }])).toMatchObject({ closure_rate: 1, fully_closed: true });
  });
  it('the mean skips reports without checks', () => {
    const full = valueReport('i', 't', OK, [{ kind: 'status', codes: [200] }]);
    const empty = valueReport('i', 't', OK, []);
    expect(meanClosureRate([full, empty] as never)).toBe(1);
    expect(meanClosureRate([empty] as never)).toBeUndefined();
    try {
      meanClosureRate([{ checks: 1 }]);
      expect.unreachable();
    } catch (e) {
      expect(isJcpError(e, 'ERR_BAD_ARGUMENT')).toBe(true);
    }
  });
});
