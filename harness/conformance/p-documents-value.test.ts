// The value report's check kinds (jouleclaw §19.2) and aggregation (§19.3), through the implementation under test
// (suite-defined profile jouleclaw:P-VALUE; operations in harness/protocol/profiles/documents.md).
//
// Every expected verdict is computed here from §19.2's words: membership of the status in the codes or in the declared
// statusCodes menu; a canonical JSON written below (members sorted, no whitespace) hashed with @noble/hashes' BLAKE3;
// an RFC 6901 resolution of the test's own (the pointers are built from the paths the generator walked, escaped per
// RFC 6901 §3, and RFC 6901 §5's example table is pinned). §19 names no canonical JSON form, so the bodies hashed are
// kept to the values every canonical JSON form writes alike (ASCII member names and strings without escapes, integers,
// true, false, null); rates are compared to 1e-9, not bit for bit.
import { blake3 as nobleBlake3 } from '@noble/hashes/blake3.js';
import fc from 'fast-check';
import { describe, expect } from 'vitest';
import { clauseIt } from '../clause.ts';
import { implementation } from '../driver.ts';
import { fcParams } from '../external-vectors.ts';
import { TesteeError } from '../implementation.ts';
import { assertProperty } from '../refusal.ts';

const IN_CODES = 'jouleclaw/19.2#status-in-codes';
const IN_CONTRACT = 'jouleclaw/19.2#status-in-contract';
const HASH = 'jouleclaw/19.2#output-hash-equals';
const POINTER = 'jouleclaw/19.2#json-pointer-equals';
const UNKNOWN = 'jouleclaw/19.2#unknown-kind-fails';
const SKIP = 'jouleclaw/19.3#skip-reports-without-checks';

type Json = null | boolean | number | string | Json[] | { [k: string]: Json };
interface Verdict {
  check?: unknown;
  passed: boolean;
  reason?: string;
}

/** value.check: the report's per-check verdicts, in the order of the checks. */
async function check(status: number, body: string, checks: readonly Json[], statusCodes?: readonly number[]): Promise<Verdict[]> {
  const args: Record<string, unknown> = { intent: 'fetch the page', tool_id: 'jouleclaw:fetch', status: BigInt(status), body_json: body, checks_json: JSON.stringify(checks) };
  if (statusCodes) args['status_codes'] = statusCodes.map(BigInt);
  const report = JSON.parse((await implementation()._call('value.check', args)).get('report_json') as string) as { checks: Verdict[] };
  expect(report.checks, 'one verdict per check').toHaveLength(checks.length);
  for (const v of report.checks) expect(typeof v.passed, 'passed is a boolean').toBe('boolean');
  return report.checks;
}
const passedOf = async (status: number, body: string, c: Json, statusCodes?: readonly number[]): Promise<boolean> => (await check(status, body, [c], statusCodes))[0]!.passed;

/** Whether the check is refused or failed: for a malformed pointer, refusing the check is as good as failing it. */
async function refusedOrFailed(status: number, body: string, c: Json): Promise<boolean> {
  try {
    return !(await passedOf(status, body, c));
  } catch (e) {
    if (e instanceof TesteeError) return true;
    throw e;
  }
}

// ---- canonical JSON and its BLAKE3, written here: members sorted by name, no whitespace ----
function canon(v: Json): string {
  if (Array.isArray(v)) return `[${v.map(canon).join(',')}]`;
  if (v !== null && typeof v === 'object') return `{${Object.keys(v).sort().map((k) => `${JSON.stringify(k)}:${canon(v[k]!)}`).join(',')}}`;
  return JSON.stringify(v);
}
const b3 = (s: string): string => Buffer.from(nobleBlake3(new TextEncoder().encode(s))).toString('hex');
/** The same value written otherwise: members in reverse order, indented. */
function scrambled(v: Json): Json {
  if (Array.isArray(v)) return v.map(scrambled);
  if (v !== null && typeof v === 'object') return Object.fromEntries(Object.keys(v).reverse().map((k) => [k, scrambled(v[k]!)]));
  return v;
}
const render = (v: Json): string => JSON.stringify(scrambled(v), null, 2);

// bodies every canonical JSON form writes alike
const safeText = fc.stringMatching(/^[a-zA-Z0-9 _.-]{0,8}$/);
const safeJson: fc.Arbitrary<Json> = fc.letrec<{ v: Json }>((tie) => ({
  v: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.constant(null),
    fc.boolean(),
    fc.integer({ min: -1_000_000, max: 1_000_000 }),
    safeText,
    fc.array(tie('v'), { maxLength: 4 }),
    fc.dictionary(fc.stringMatching(/^[a-zA-Z_][a-zA-Z0-9_]{0,5}$/), tie('v'), { maxKeys: 4 }),
  ),
})).v;
// documents for pointers: member names with the characters RFC 6901 escapes, and the empty name
const pointerKey = fc.oneof(fc.stringMatching(/^[a-z~/ ]{0,4}$/), fc.constantFrom('~', '/', '~0', '~1', '', '0', '01'));
const pointerJson: fc.Arbitrary<Json> = fc.letrec<{ v: Json }>((tie) => ({
  v: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.integer({ min: -9, max: 99 }),
    safeText,
    fc.constant(null),
    fc.array(tie('v'), { maxLength: 12 }),
    fc.dictionary(pointerKey, tie('v'), { maxKeys: 4 }),
  ),
})).v;

/** Every path into `doc` (arrays by index, objects by member name), with the value it names. */
function paths(doc: Json, at: (string | number)[] = []): { path: (string | number)[]; value: Json }[] {
  const out = [{ path: at, value: doc }];
  if (Array.isArray(doc)) doc.forEach((x, i) => out.push(...paths(x, [...at, i])));
  else if (doc !== null && typeof doc === 'object') for (const k of Object.keys(doc)) out.push(...paths(doc[k]!, [...at, k]));
  return out;
}
/** RFC 6901 §3: "~" written "~0" and "/" written "~1", each token after a "/". */
const pointerOf = (path: readonly (string | number)[]): string => path.map((t) => `/${String(t).replace(/~/g, '~0').replace(/\//g, '~1')}`).join('');

const STATUS = fc.integer({ min: 100, max: 599 });
const CODES = fc.uniqueArray(fc.oneof(STATUS, fc.constantFrom(200, 201, 204, 400, 404, 500)), { maxLength: 6 });

describe('jouleclaw §19.2 check kinds', () => {
  clauseIt([IN_CODES], 'status { codes } passes exactly when the status code appears in codes (property)', async () => {
    expect(await passedOf(200, '{}', { kind: 'status', codes: [200, 201] })).toBe(true);
    expect(await passedOf(404, '{}', { kind: 'status', codes: [200, 201] })).toBe(false);
    expect(await passedOf(200, '{}', { kind: 'status', codes: [] })).toBe(false);
    await assertProperty(
      fc.asyncProperty(STATUS, CODES, async (status, codes) => {
        expect(await passedOf(status, '{"ok":1}', { kind: 'status', codes }), `${status} in ${JSON.stringify(codes)}`).toBe(codes.includes(status));
      }),
      fcParams(40),
    );
  });

  clauseIt([IN_CONTRACT], 'status_matches_contract passes exactly when the status is in the declared statusCodes menu (property)', async () => {
    // §14's default menu
    expect(await passedOf(200, '{}', { kind: 'status_matches_contract' }, [200, 400, 500])).toBe(true);
    expect(await passedOf(404, '{}', { kind: 'status_matches_contract' }, [200, 400, 500])).toBe(false);
    await assertProperty(
      fc.asyncProperty(STATUS, CODES, async (status, menu) => {
        expect(await passedOf(status, '{}', { kind: 'status_matches_contract' }, menu), `${status} in menu ${JSON.stringify(menu)}`).toBe(menu.includes(status));
      }),
      fcParams(40),
    );
  });

  clauseIt([HASH], 'output_hash_equals passes exactly when the canonical-JSON BLAKE3 of the body equals hash, however the body is written (property)', async () => {
    const body = { b: 1, a: [true, null, 'x'] };
    const want = b3('{"a":[true,null,"x"],"b":1}');
    expect(canon(body)).toBe('{"a":[true,null,"x"],"b":1}');
    expect(await passedOf(200, ' { "b" : 1 ,\n "a" : [ true , null , "x" ] } ', { kind: 'output_hash_equals', hash: want })).toBe(true);
    // the hash of the text as written is not the canonical hash
    expect(await passedOf(200, '{"a":[true,null,"x"],"b":1}', { kind: 'output_hash_equals', hash: b3('{"b":1,"a":[true,null,"x"]}') })).toBe(false);
    await assertProperty(
      fc.asyncProperty(safeJson, safeJson, async (v, w) => {
        const h = b3(canon(v));
        expect(await passedOf(200, render(v), { kind: 'output_hash_equals', hash: h }), `body ${canon(v)}`).toBe(true);
        // one nibble changed
        const other = (h[0] === '0' ? '1' : '0') + h.slice(1);
        expect(await passedOf(200, render(v), { kind: 'output_hash_equals', hash: other }), `body ${canon(v)}, another hash`).toBe(false);
        if (canon(v) !== canon(w)) expect(await passedOf(200, render(w), { kind: 'output_hash_equals', hash: h }), `body ${canon(w)} against ${canon(v)}'s hash`).toBe(false);
      }),
      fcParams(30),
    );
  });

  clauseIt([POINTER], 'json_pointer_equals resolves RFC 6901 §5\'s examples, and passes only on the value the pointer names', async () => {
    const doc = { foo: ['bar', 'baz'], '': 0, 'a/b': 1, 'c%d': 2, 'e^f': 3, 'g|h': 4, 'i\\j': 5, 'k"l': 6, ' ': 7, 'm~n': 8 };
    const body = JSON.stringify(doc);
    const table: [string, Json][] = [
      ['', doc], ['/foo', ['bar', 'baz']], ['/foo/0', 'bar'], ['/', 0], ['/a~1b', 1], ['/c%d', 2], ['/e^f', 3], ['/g|h', 4], ['/i\\j', 5], ['/k"l', 6], ['/ ', 7], ['/m~0n', 8],
    ];
    const verdicts = await check(200, body, table.map(([pointer, expected]) => ({ kind: 'json_pointer_equals', pointer, expected: scrambled(expected) })));
    expect(verdicts.map((v) => v.passed), 'every RFC 6901 §5 example resolves to its value').toEqual(table.map(() => true));
    const wrong = await check(200, body, table.map(([pointer]) => ({ kind: 'json_pointer_equals', pointer, expected: 'no such value' })));
    expect(wrong.map((v) => v.passed), 'no example resolves to another value').toEqual(table.map(() => false));
    // well-formed pointers that name nothing: past the array, "-", a member absent, into a scalar, ~1 and ~0 decoded in order
    for (const pointer of ['/foo/2', '/foo/-', '/nope', '/a~1b/x', '/a/b', '/m~01']) {
      expect(await passedOf(200, body, { kind: 'json_pointer_equals', pointer, expected: null }), pointer).toBe(false);
    }
    // RFC 6901 §4: ~1 is decoded before ~0, so "~01" is the name "~1", not "/"
    expect((await check(200, '{"~1":9,"/":10}', [9, 10].map((expected) => ({ kind: 'json_pointer_equals', pointer: '/~01', expected })))).map((v) => v.passed)).toEqual([true, false]);
    // not a pointer RFC 6901's grammar admits (a token with a leading zero, no leading "/", a bad escape): failed, or refused
    for (const pointer of ['/foo/01', 'foo', '/m~2n']) expect(await refusedOrFailed(200, body, { kind: 'json_pointer_equals', pointer, expected: 'baz' }), pointer).toBe(true);
  });

  clauseIt([POINTER], 'json_pointer_equals passes for every path into a document with its value, fails with another value or a path that names nothing (property)', async () => {
    await assertProperty(
      fc.asyncProperty(pointerJson, fc.nat(), async (doc, pick) => {
        const all = paths(doc);
        const { path, value } = all[pick % all.length]!;
        const pointer = pointerOf(path);
        const body = render(doc);
        const other: Json = canon(value) === canon('another') ? 'yet another' : 'another';
        const missing = Array.isArray(value) ? `${pointer}/${value.length}` : value !== null && typeof value === 'object' ? `${pointer}/~0absent~1` : `${pointer}/0`;
        const [hit, miss, none] = await check(200, body, [
          { kind: 'json_pointer_equals', pointer, expected: scrambled(value) },
          { kind: 'json_pointer_equals', pointer, expected: other },
          { kind: 'json_pointer_equals', pointer: missing, expected: null },
        ]);
        const what = `${pointer} in ${canon(doc)}`;
        expect(hit!.passed, `${what} resolves to ${canon(value)}`).toBe(true);
        expect(miss!.passed, `${what} is not ${canon(other)}`).toBe(false);
        expect(none!.passed, `${missing} names nothing in ${canon(doc)}`).toBe(false);
      }),
      fcParams(40),
    );
  });

  clauseIt([UNKNOWN], 'an unknown check kind is tolerated: passed false, with a reason naming the kind, the other checks judged as ever (property)', async () => {
    const kind = fc.stringMatching(/^x_[a-z_]{1,12}$/);
    await assertProperty(
      fc.asyncProperty(kind, fc.dictionary(fc.stringMatching(/^[a-z]{1,6}$/).filter((k) => k !== 'kind'), safeJson, { maxKeys: 3 }), async (k, params) => {
        const [known, unknown, after] = await check(200, '{"a":1}', [{ kind: 'status', codes: [200] }, { ...params, kind: k }, { kind: 'json_pointer_equals', pointer: '/a', expected: 1 }]);
        expect(known!.passed, 'the known check before it').toBe(true);
        expect(unknown!.passed, `unknown kind ${k}`).toBe(false);
        expect(typeof unknown!.reason === 'string' && unknown!.reason.includes(k), `the reason ${JSON.stringify(unknown!.reason)} names ${k}`).toBe(true);
        expect(after!.passed, 'the known check after it').toBe(true);
      }),
      fcParams(20),
    );
  });
});

describe('jouleclaw §19.3 aggregation', () => {
  /** A §19.1 report of `n` status checks of which `p` passed. */
  const report = (n: number, p: number): Json => ({
    intent: 'book the flight',
    tool_id: 'jouleclaw:book',
    checks: Array.from({ length: n }, (_, i) => (i < p ? { check: 'status', passed: true } : { check: 'status', passed: false, reason: 'status 500 is not in [200]' })),
    closure_rate: n === 0 ? 0 : p / n,
    fully_closed: n > 0 && p === n,
  });
  const mean = async (reports: readonly Json[]): Promise<Json> => JSON.parse((await implementation()._call('value.aggregate', { reports_json: JSON.stringify(reports) })).get('mean_json') as string) as Json;
  const close = (got: Json, want: number, what: string): void => {
    expect(typeof got, `${what}: the mean is a number`).toBe('number');
    expect(Math.abs((got as number) - want), `${what}: mean ${String(got)}, want ${want}`).toBeLessThan(1e-9);
  };

  clauseIt([SKIP], 'reports with no checks declared are skipped: the mean is over the reports that declare checks (property)', async () => {
    close(await mean([report(2, 2), report(0, 0)]), 1, 'a full report and an empty one');
    close(await mean([report(0, 0), report(4, 1), report(0, 0), report(2, 1)]), 0.375, 'two empty reports among two');
    // every report empty: no value information; no number but null or 0 is a reading of "skipped"
    expect([null, 0], 'the mean of nothing counted').toContainEqual(await mean([report(0, 0), report(0, 0)]));
    await assertProperty(
      fc.asyncProperty(
        fc.array(fc.integer({ min: 0, max: 5 }).chain((n) => fc.tuple(fc.constant(n), fc.integer({ min: 0, max: n }))), { minLength: 1, maxLength: 8 }).filter((rs) => rs.some(([n]) => n > 0)),
        async (rs) => {
          const counted = rs.filter(([n]) => n > 0);
          const want = counted.reduce((s, [n, p]) => s + p / n, 0) / counted.length;
          close(await mean(rs.map(([n, p]) => report(n, p))), want, JSON.stringify(rs));
        },
      ),
      fcParams(40),
    );
  });

  clauseIt([SKIP, IN_CODES], 'the reports the implementation wrote aggregate with their empty ones skipped', async () => {
    const impl = implementation();
    const write = async (checks: Json[]): Promise<Json> =>
      JSON.parse((await impl._call('value.check', { intent: 'i', tool_id: 't', status: 500n, body_json: '{}', checks_json: JSON.stringify(checks) })).get('report_json') as string) as Json;
    const failed = await write([{ kind: 'status', codes: [200] }]);
    const closed = await write([{ kind: 'status', codes: [500] }, { kind: 'status', codes: [500, 200] }]);
    const empty = await write([]);
    close(await mean([failed, empty, closed, empty]), 0.5, 'one failed, one closed, two empty');
  });
});
