// The named cases of profiles.json: the suite-defined profiles of spec-map/profiles.json whose rules are pure input →
// output and whose outcome every conforming testee must give — jouleclaw:P-VALUE (§19.2 check kinds, §19.3
// aggregation), jouleclaw:P-WORKSPACE (§11 paths refused on write), jouleclaw:P-SKILL (§12 frontmatter limits) and
// jouleclaw:P-CASCADE (§1.1 tier order). The cases are the fixed cases of the profiles' conformance tests
// (harness/conformance/p-documents-value, -workspace, -skill, p-runtime-cascade.test.ts), and each expected answer is
// written here from the spec's words, never read from the reference: a canonical-JSON BLAKE3 computed with
// @noble/hashes, RFC 6901 §5's table, means of closure rates, §11's list of bad paths, §12's pattern and counts, §1.1's
// cost order. Where the spec permits several answers the vector leaves the point out: pointers RFC 6901's grammar
// rejects (refused or failed), the mean of reports that are all empty (null or 0), names with "--" (agentskills.io
// refuses them), what a skill outside the limits becomes (refused, or emitted within them: `complies` either way),
// the tiers a walk in which nothing closes invokes, the order of manifest entries (not what §11's path rule decides).
import { blake3 as nobleBlake3 } from '@noble/hashes/blake3.js';
import { toHex } from '../impl/bytes.ts';
import { deriveSeed } from '../impl/identity/ed25519.ts';
import type { Case } from './cases.ts';
import type { Json, JsonObject } from './model.ts';
import { PROFILE_VECTOR_GROUPS } from './profiles/groups.ts';

const P = 'profiles' as const;
const utf8 = new TextEncoder();
const b3 = (s: string): string => toHex(nobleBlake3(utf8.encode(s)));
/** Canonical JSON of the values every canonical form writes alike (members sorted, no whitespace). */
function canon(v: Json): string {
  if (Array.isArray(v)) return `[${v.map(canon).join(',')}]`;
  if (v !== null && typeof v === 'object') return `{${Object.keys(v).sort().map((k) => `${JSON.stringify(k)}:${canon(v[k]!)}`).join(',')}}`;
  return JSON.stringify(v);
}
/** The same value written otherwise: members in reverse order. */
function scrambled(v: Json): Json {
  if (Array.isArray(v)) return v.map(scrambled);
  if (v !== null && typeof v === 'object') return Object.fromEntries(Object.keys(v).reverse().map((k) => [k, scrambled(v[k]!)]));
  return v;
}
const exactly = (e: JsonObject, result: 'valid' | 'invalid' = 'valid') => ({ exactly: e, result });

// ---- jouleclaw:P-VALUE ------------------------------------------------------------------------------------------

const IN_CODES = 'jouleclaw/19.2#status-in-codes';
const IN_CONTRACT = 'jouleclaw/19.2#status-in-contract';
const HASH = 'jouleclaw/19.2#output-hash-equals';
const POINTER = 'jouleclaw/19.2#json-pointer-equals';
const UNKNOWN = 'jouleclaw/19.2#unknown-kind-fails';
const SKIP = 'jouleclaw/19.3#skip-reports-without-checks';

function valueCases(): Case[] {
  const VC = (name: string, comment: string, flags: string[], clauses: string[], status: number, body: string, checks: Json[], verdicts: JsonObject[], statusCodes?: number[]): Case => ({
    pack: P,
    name,
    type: 'ValueCheck',
    comment,
    flags,
    clauses,
    inputs: { status, body_json: body, checks, ...(statusCodes ? { status_codes: statusCodes } : {}) },
    intent: exactly({ checks: verdicts }),
  });
  const pass = (b: boolean): JsonObject => ({ passed: b });
  const out: Case[] = [];
  // §19.2 status { codes }: the status MUST appear in codes
  out.push(
    VC('value-status-200-in-codes', 'status 200 against codes [200, 201], [404, 500] and []: in, not in, not in', ['CheckKind'], [IN_CODES], 200, '{}', [{ kind: 'status', codes: [200, 201] }, { kind: 'status', codes: [404, 500] }, { kind: 'status', codes: [] }], [pass(true), pass(false), pass(false)]),
    VC('value-status-404-in-codes', 'status 404 against codes [200, 201] and [404]: not in, in', ['CheckKind'], [IN_CODES], 404, '{"ok":1}', [{ kind: 'status', codes: [200, 201] }, { kind: 'status', codes: [404] }], [pass(false), pass(true)]),
  );
  // §19.2 status_matches_contract: the status MUST be in the declared statusCodes menu
  const MENU = [200, 400, 500];
  out.push(
    VC('value-status-in-contract', 'status 200 with the statusCodes menu [200, 400, 500]: in the menu', ['CheckKind'], [IN_CONTRACT], 200, '{}', [{ kind: 'status_matches_contract' }], [pass(true)], MENU),
    VC('value-status-outside-contract', 'status 404 with the statusCodes menu [200, 400, 500]: not in the menu', ['CheckKind'], [IN_CONTRACT], 404, '{}', [{ kind: 'status_matches_contract' }], [pass(false)], MENU),
  );
  // §19.2 output_hash_equals: canonical-JSON BLAKE3 of the body MUST equal hash (bodies every canonical form writes alike)
  const body = { b: 1, a: [true, null, 'x'] } as Json;
  const h = b3(canon(body));
  if (canon(body) !== '{"a":[true,null,"x"],"b":1}') throw new Error('p-cases: canonical JSON disagrees with the written form');
  const other = (h[0] === '0' ? '1' : '0') + h.slice(1);
  out.push(
    VC('value-output-hash-canonical', 'the body written with whitespace and its members reversed: its canonical-JSON BLAKE3 equals hash; one nibble changed does not', ['CheckKind'], [HASH], 200, ' { "b" : 1 ,\n "a" : [ true , null , "x" ] } ', [{ kind: 'output_hash_equals', hash: h }, { kind: 'output_hash_equals', hash: other }], [pass(true), pass(false)]),
    VC('value-output-hash-not-of-text', 'the hash of the body as first written (members b, a) is not its canonical-JSON hash', ['CheckKind'], [HASH], 200, '{"a":[true,null,"x"],"b":1}', [{ kind: 'output_hash_equals', hash: b3('{"b":1,"a":[true,null,"x"]}') }], [pass(false)]),
  );
  // §19.2 json_pointer_equals: RFC 6901 §5's example table
  const doc = { foo: ['bar', 'baz'], '': 0, 'a/b': 1, 'c%d': 2, 'e^f': 3, 'g|h': 4, 'i\\j': 5, 'k"l': 6, ' ': 7, 'm~n': 8 } as JsonObject;
  const table: [string, Json][] = [['', doc], ['/foo', ['bar', 'baz']], ['/foo/0', 'bar'], ['/', 0], ['/a~1b', 1], ['/c%d', 2], ['/e^f', 3], ['/g|h', 4], ['/i\\j', 5], ['/k"l', 6], ['/ ', 7], ['/m~0n', 8]];
  const docText = JSON.stringify(doc);
  out.push(
    VC('value-pointer-rfc6901-examples', "RFC 6901 §5's twelve examples, each with its value (written with members reversed): all pass", ['CheckKind'], [POINTER], 200, docText, table.map(([pointer, expected]) => ({ kind: 'json_pointer_equals', pointer, expected: scrambled(expected) })), table.map(() => pass(true))),
    VC('value-pointer-rfc6901-other-value', "RFC 6901 §5's twelve pointers, each against another value: all fail", ['CheckKind'], [POINTER], 200, docText, table.map(([pointer]) => ({ kind: 'json_pointer_equals', pointer, expected: 'no such value' })), table.map(() => pass(false))),
    VC('value-pointer-names-nothing', 'well-formed pointers that name nothing (past the array, "-", an absent member, into a scalar, "~01" is "~1"): all fail', ['CheckKind'], [POINTER], 200, docText, ['/foo/2', '/foo/-', '/nope', '/a~1b/x', '/a/b', '/m~01'].map((pointer) => ({ kind: 'json_pointer_equals', pointer, expected: null })), Array.from({ length: 6 }, () => pass(false))),
    VC('value-pointer-decode-order', 'RFC 6901 §4: "~1" is decoded before "~0", so "/~01" names the member "~1" (9), not "/" (10)', ['CheckKind'], [POINTER], 200, '{"~1":9,"/":10}', [9, 10].map((expected) => ({ kind: 'json_pointer_equals', pointer: '/~01', expected })), [pass(true), pass(false)]),
  );
  // §19.2 unknown kinds: passed false with a reason naming the kind; the known checks on either side judged as ever
  out.push(
    VC('value-unknown-kind', 'an unknown kind x_future_kind between two passing known checks: passed false, the reason names x_future_kind', ['UnknownCheckKind'], [UNKNOWN, IN_CODES, POINTER], 200, '{"a":1}', [{ kind: 'status', codes: [200] }, { kind: 'x_future_kind', limit: 3 }, { kind: 'json_pointer_equals', pointer: '/a', expected: 1 }], [pass(true), { passed: false, reason_names_kind: true }, pass(true)]),
    VC('value-unknown-kind-alone', 'a report whose only check is of the unknown kind x_latency_budget: passed false, the reason names it', ['UnknownCheckKind'], [UNKNOWN], 500, '{}', [{ kind: 'x_latency_budget' }], [{ passed: false, reason_names_kind: true }]),
  );
  // §19.3: reports with no checks declared are skipped; the means are dyadic, so every correct float sum gives them exactly
  const report = (n: number, p: number): Json => ({
    intent: 'book the flight',
    tool_id: 'jouleclaw:book',
    checks: Array.from({ length: n }, (_, i) => (i < p ? { check: 'status', passed: true } : { check: 'status', passed: false, reason: 'status 500 is not in [200]' })),
    closure_rate: n === 0 ? 0 : p / n,
    fully_closed: n > 0 && p === n,
  });
  const VA = (name: string, comment: string, rs: [number, number][]): Case => {
    const counted = rs.filter(([n]) => n > 0);
    const mean = counted.reduce((s, [n, p]) => s + p / n, 0) / counted.length;
    return { pack: P, name, type: 'ValueAggregate', comment, flags: ['SkipEmptyReports'], clauses: [SKIP], inputs: { reports: rs.map(([n, p]) => report(n, p)) }, intent: exactly({ mean }) };
  };
  out.push(
    VA('value-mean-skips-empty', 'a fully closed report and one with no checks: the mean is 1, not 0.5', [[2, 2], [0, 0]]),
    VA('value-mean-two-empty-among-two', 'two empty reports among 1/4 and 1/2: the mean is 0.375, not 0.1875', [[0, 0], [4, 1], [0, 0], [2, 1]]),
    VA('value-mean-empty-between', '3/4, an empty report, 1/2: the mean is 0.625', [[4, 3], [0, 0], [2, 1]]),
  );
  return out;
}

// ---- jouleclaw:P-WORKSPACE --------------------------------------------------------------------------------------

const PATHS = 'jouleclaw/11#reject-bad-paths';
/** §11: "Absolute paths, empty paths, empty segments, . and .. segments, and NUL bytes are MUST rejected on write." */
const BAD_PATHS: [string, string, string][] = [
  ['empty', '', 'the empty path'],
  ['root', '/', 'the absolute path "/"'],
  ['absolute', '/abs', 'an absolute path'],
  ['absolute-nested', '/notes/x.md', 'an absolute path of two segments'],
  ['empty-segment', 'a//b', 'an empty inner segment'],
  ['trailing-slash', 'a/', 'an empty last segment'],
  ['double-slash', '//', 'two empty segments'],
  ['dot', '.', 'the segment "."'],
  ['dotdot', '..', 'the segment ".."'],
  ['dot-first', './a', 'a leading "." segment'],
  ['dot-inner', 'a/./b', 'an inner "." segment'],
  ['dot-last', 'a/.', 'a last "." segment'],
  ['dotdot-first', '../x', 'a leading ".." segment'],
  ['dotdot-inner', 'a/../b', 'an inner ".." segment'],
  ['dotdot-last', 'a/..', 'a last ".." segment'],
  ['nul-inner', 'a\u0000b', 'a NUL byte inside a segment'],
  ['nul-alone', '\u0000', 'a NUL byte alone'],
  ['nul-last', 'notes/x.md\u0000', 'a NUL byte at the end'],
];
/** Paths §11 does not reject: relative, non-empty segments, none "." or "..", no NUL; of [a-z0-9_] with inner "." and "-" only (§11 names only what must be rejected). */
const GOOD_PATHS = ['notes/x.md', 'a', 'a/b/c', 'x.y-z_1', 'v1.2/a-b_c.txt', 'a..b'];

function workspaceCases(): Case[] {
  const owner = toHex(deriveSeed('jcp-vectors/v1:alice'));
  const content = (p: string): string => toHex(utf8.encode(`content of ${JSON.stringify(p)}`));
  const out: Case[] = [
    {
      pack: P,
      name: 'workspace-good-paths',
      type: 'WorkspaceWrites',
      comment: `relative paths of non-empty segments, none "." or ".." and no NUL (${GOOD_PATHS.map((p) => JSON.stringify(p)).join(', ')}): each written, each in the manifest`,
      flags: [],
      clauses: [PATHS],
      inputs: { owner_seed: owner, writes: GOOD_PATHS.map((path) => ({ path, content: content(path) })) },
      intent: exactly({ writes: GOOD_PATHS.map(() => ({ written: true })), paths: [...GOOD_PATHS].sort() }),
    },
  ];
  for (const [label, path, what] of BAD_PATHS) {
    out.push({
      pack: P,
      name: `workspace-refuse-${label}`,
      type: 'WorkspaceWrites',
      comment: `notes/x.md written, then ${what} (${JSON.stringify(path)}): refused on write, and only notes/x.md reaches the manifest`,
      flags: ['BadPath', 'SuiteErrorCode'],
      clauses: [PATHS],
      inputs: { owner_seed: owner, writes: [{ path: 'notes/x.md', content: content('notes/x.md') }, { path, content: content(path) }] },
      intent: exactly({ writes: [{ written: true }, { error: 'ERR_BAD_ARGUMENT' }], paths: ['notes/x.md'] }, 'invalid'),
    });
  }
  return out;
}

// ---- jouleclaw:P-SKILL ------------------------------------------------------------------------------------------

const FRONT = 'jouleclaw/12#skill-frontmatter';
const SKILL_NAME = /^[a-z0-9]([a-z0-9-]*[a-z0-9])?$/;
const BODY = '# Use\n\nRun the procedure.\n';
const D = 'Resolve a git status query from the working tree.';
const chain = (n: number): string => Array.from({ length: n }, (_, i) => 'abcdefghij0123456789'[i % 20]).join('');

function skillCases(): Case[] {
  const out: Case[] = [];
  const within = (label: string, name: string, description: string, what: string): void => {
    if (!(name.length <= 64 && SKILL_NAME.test(name) && !name.includes('--') && description.length <= 1024 && description.length > 0)) throw new Error(`p-cases: ${label} is not within §12's limits`);
    out.push({ pack: P, name: `skill-within-${label}`, type: 'SkillEmit', comment: `${what}: within §12's limits, emitted with that name and description`, flags: ['SkillLimits'], clauses: [FRONT], inputs: { name, description, body: BODY }, intent: exactly({ complies: true, emitted: { name, description } }) });
  };
  const past = (label: string, name: string, description: string, what: string): void => {
    if (name.length <= 64 && SKILL_NAME.test(name) && description.length <= 1024) throw new Error(`p-cases: ${label} is within §12's limits`);
    out.push({ pack: P, name: `skill-past-${label}`, type: 'SkillEmit', comment: `${what}: outside §12's limits, never emitted as it is (refused, or emitted within the limits)`, flags: ['SkillLimits'], clauses: [FRONT], inputs: { name, description, body: BODY }, intent: exactly({ complies: true }, 'invalid') });
  };
  within('name-1', 'a', D, 'the one-character name "a"');
  within('name-digit', '0', D, 'the one-digit name "0"');
  within('name-hyphen', 'a-b', D, 'the name "a-b"');
  within('name-63', chain(63), D, 'a name of 63 chars');
  within('name-64', chain(64), D, 'a name of 64 chars');
  within('name-64-digits', '9'.repeat(64), D, 'a name of 64 nines');
  within('name-yaml-number', '123', D, 'the name "123", which YAML would read as a number');
  within('name-yaml-null', 'null', D, 'the name "null", which YAML would read as null');
  within('name-yaml-bool', 'yes', D, 'the name "yes", which YAML 1.1 would read as a boolean');
  within('name-leading-zero', '012', D, 'the name "012"');
  within('description-1024', 'git-status', 'd'.repeat(1024), 'a description of 1024 chars');
  within('description-yaml-map', 'git-status', 'a: b # not a comment', 'a description that YAML would read as a mapping and a comment');
  within('description-yaml-syntax', 'git-status', '- a list? > folded | literal [1, 2] {a: 1}', 'a description full of YAML syntax');
  within('description-lines', 'git-status', 'two\nlines', 'a description of two lines');
  within('description-document-marker', 'git-status', '---', 'the description "---"');
  past('name-empty', '', D, 'the empty name');
  past('name-65', chain(65), D, 'a name of 65 chars');
  past('name-upper', 'Git-status', D, 'a name with an upper-case letter');
  past('name-underscore', 'git_status', D, 'a name with "_"');
  past('name-space', 'git status', D, 'a name with a space');
  past('name-leading-hyphen', '-git', D, 'a name with a leading hyphen');
  past('name-trailing-hyphen', 'git-', D, 'a name with a trailing hyphen');
  past('name-dot', 'git.status', D, 'a name with "."');
  past('name-non-ascii', 'gït', D, 'a name with a non-ASCII letter');
  past('name-newline', 'git\n', D, 'a name ending in a newline');
  past('description-1025', 'git-status', 'd'.repeat(1025), 'a description of 1025 chars');
  return out;
}

// ---- jouleclaw:P-CASCADE ----------------------------------------------------------------------------------------

const DISPATCH = 'jouleclaw/1.1#dispatch-through-cascade';
const STOP = 'jouleclaw/1.1#stop-at-first-closing-tier';
const NO_HIGHER = 'jouleclaw/1.1#no-higher-tier-before-unresolvable';
/** §1.1's table, cheapest first. */
const COST_ORDER = ['L0', 'L1', 'L2', 'L3', 'L4'];

function cascadeCases(): Case[] {
  const out: Case[] = [];
  const C = (name: string, comment: string, pairs: [string, 'closes' | 'unresolvable'][]): void => {
    // §1.1: every offered tier cheaper than the cheapest closing one, in cost order (each returned Unresolvable), then it
    const sorted = [...pairs].sort((a, b) => COST_ORDER.indexOf(a[0]) - COST_ORDER.indexOf(b[0]));
    const closing = sorted.findIndex(([, o]) => o === 'closes');
    const expected: JsonObject = closing < 0 ? {} : { invoked: sorted.slice(0, closing + 1).map(([t]) => t), resolved: sorted[closing]![0] };
    out.push({
      pack: P,
      name,
      type: 'CascadeRun',
      comment,
      flags: ['CascadeOrder'],
      clauses: closing < 0 ? [DISPATCH] : [DISPATCH, STOP, NO_HIGHER],
      inputs: { tiers: pairs.map(([tier, outcome]) => ({ tier, outcome })) },
      intent: exactly(expected),
    });
  };
  C('cascade-offered-reversed', 'L4 and L3 close, L2, L1, L0 unresolvable, offered most expensive first: L0, L1, L2, L3 invoked, L3 resolves', [['L4', 'closes'], ['L3', 'closes'], ['L2', 'unresolvable'], ['L1', 'unresolvable'], ['L0', 'unresolvable']]);
  C('cascade-cache-hit', 'L4, L0 and L3 all close: only L0 (the cache) is invoked, and resolves', [['L4', 'closes'], ['L0', 'closes'], ['L3', 'closes']]);
  C('cascade-lawful', 'L3 and L1 close, L0 unresolvable: L0 then L1, which resolves', [['L3', 'closes'], ['L1', 'closes'], ['L0', 'unresolvable']]);
  C('cascade-gaps', 'L2 closes, L4 and L0 unresolvable (no L1 or L3 backend): L0 then L2, which resolves', [['L2', 'closes'], ['L4', 'unresolvable'], ['L0', 'unresolvable']]);
  C('cascade-wire-only', 'only L4 offered, and it closes: L4 invoked and resolves', [['L4', 'closes']]);
  C('cascade-wire-last', 'all five offered, only L4 closes: every tier in cost order, L4 resolves', [['L2', 'unresolvable'], ['L4', 'closes'], ['L0', 'unresolvable'], ['L3', 'unresolvable'], ['L1', 'unresolvable']]);
  C('cascade-none-closes', 'L2 and L0 unresolvable: no resolution (which tiers were invoked is not what this decides)', [['L2', 'unresolvable'], ['L0', 'unresolvable']]);
  return out;
}

/** Every profiles.json case, profile by profile, in a stable order. */
export function profileCases(): Case[] {
  return [...valueCases(), ...workspaceCases(), ...skillCases(), ...cascadeCases(), ...PROFILE_VECTOR_GROUPS.flatMap((g) => g.cases())];
}
