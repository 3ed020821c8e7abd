// Unit tests of the value report (impl/jouleclaw/value-report.ts, jouleclaw §19): the check kinds, the report's
// closure_rate and fully_closed, RFC 6901 resolution and the aggregate that skips reports without checks.
import { describe, expect, it } from 'vitest';
import { thrown } from '../_test-support.ts';
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

describe('jouleclaw §19.2 reasons and refusals', () => {
  const check = (c: Record<string, unknown>, status = 404, statusCodes?: number[]) => runValueCheck(c as never, { status, body: OK.body }, statusCodes);
  const refusal = (c: Record<string, unknown>) => thrown(() => check(c)).message;

  it('RFC 6901 resolution says why a pointer names nothing', () => {
    const why = (p: string) => resolveJsonPointer(OK.body, p);
    expect(why('a')).toEqual({ found: false, why: 'pointer "a" does not start with "/"' });
    expect(why('/a~2')).toEqual({ found: false, why: 'reference token "a~2" holds a bad escape' });
    expect(why('/a/x')).toEqual({ found: false, why: '"x" is no array index' });
    expect(why('/a/2')).toEqual({ found: false, why: "index 2 is past the array's end" });
    expect(why('/z')).toEqual({ found: false, why: 'no member "z"' });
    expect(why('/a/0/x')).toEqual({ found: false, why: '"x" reaches into a scalar' });
  });

  it('an array index may have several digits', () => {
    expect(resolveJsonPointer([...Array(11).keys()], '/10')).toEqual({ found: true, value: 10 });
  });

  it('a failed check names the status, hash or pointer value it saw', () => {
    expect(check({ kind: 'status', codes: [200] })).toEqual({ check: 'status', passed: false, reason: 'status 404 is not in [200]' });
    expect(check({ kind: 'status_matches_contract' }).reason).toBe('the operation declares no statusCodes menu');
    expect(check({ kind: 'status_matches_contract' }, 404, [200, 201]).reason).toBe('status 404 is not in the declared statusCodes [200,201]');
    const got = canonicalJsonHash(OK.body);
    expect(check({ kind: 'output_hash_equals', hash: 'ab' }).reason).toBe(`the body's canonical-JSON BLAKE3 is ${got}, not ab`);
    expect(check({ kind: 'json_pointer_equals', pointer: '/z', expected: 1 }).reason).toBe('pointer "/z" does not resolve: no member "z"');
    expect(check({ kind: 'json_pointer_equals', pointer: '/a/0', expected: 2 }).reason).toBe('pointer "/a/0" resolves to 1, not the expected value');
  });

  it('status codes are unsigned integers, zero included', () => {
    expect(check({ kind: 'status', codes: [0] }, 0).passed).toBe(true);
    for (const codes of [undefined, 200, [-1], [200.5], ['200']]) {
      expect(refusal({ kind: 'status', codes })).toBe('ERR_BAD_ARGUMENT: status.codes must be an array of status codes');
    }
  });

  it('refuses a check missing what its kind needs', () => {
    expect(refusal({ kind: 5 })).toBe('ERR_BAD_ARGUMENT: a value check must be a JSON object with a text "kind"');
    expect(refusal({ kind: 'output_hash_equals' })).toBe('ERR_BAD_ARGUMENT: output_hash_equals.hash must be text');
    const needs = 'ERR_BAD_ARGUMENT: json_pointer_equals needs a text pointer and an expected value';
    expect(refusal({ kind: 'json_pointer_equals', expected: 1 })).toBe(needs);
    expect(refusal({ kind: 'json_pointer_equals', pointer: '/a' })).toBe(needs);
  });

  it('meanClosureRate refuses what is not a value report, naming its index', () => {
    const ok = { checks: [], closure_rate: 0 };
    for (const bad of [5, { closure_rate: 1 }, { checks: [], closure_rate: '1' }]) {
      expect(thrown(() => meanClosureRate([ok, bad as never])).message).toBe('ERR_BAD_ARGUMENT: report 1 must be a value report with checks and a closure_rate');
    }
  });
});
