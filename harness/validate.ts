// jcp-conformance validate --testee '<command>': the handshake, then every operation of the protocol (every op of
// harness/protocol/schema.ts OPS) driven along its success path with realistic arguments, each response checked
// against that table by the transport — and then against what its request asked. Before a certification run is
// attempted it says, a line per finding naming the op and the field, where an adapter answers in the right shape but
// the wrong content: a grant.verify that does not echo the mint's grant_id, a neutral grant view that is not the grant
// minted, a decision whose receipt says otherwise, a spend that does not move, a frame not echoed, a refusal that is
// not made. The core ops (jcp §2–§8) are checked in depth — success path, echoes, result shapes and the main refusal
// paths; the others are reached along their success path and schema-checked. An op needing a handle from another op
// (a point, a ticket, a channel, a relay...) takes it from that op's answer; where that op was refused, a placeholder
// handle is sent, so the op is still reached and its answer (most likely a refusal) is still schema-checked.
//
// Grades (harness/PROTOCOL.md "Grades"): a finding (✗) is a departure from the spec's own words or from what the
// request asked; which ERR_ code a refusal carries is the suite's byte contract, so a different code is a warning (!),
// as is an answer the spec permits but the suite does not expect — unless the testee claims the byte contract
// (`features: ["byte-contract"]`), when a different code is a finding. Exit status: 0 without findings, 1 with.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { CborInput, CborMap } from '../impl/cbor/index.ts';
import type { JcpErrorCode } from '../impl/errors.ts';
import {
  ChannelHandle,
  DurablePointHandle,
  Forwarder,
  Implementation,
  interpret,
  Point,
  Relay,
  TesteeError,
  TransparencyLogHandle,
  JcRunHandle,
  TesteeFailure,
  UnimplementedError,
  type DecideFields,
  type DecisionResult,
  type FrameFields,
  type Minted,
  type TesteeInfo,
} from './implementation.ts';
import { OPS } from './protocol/schema.ts';
import {
  blake3,
  caveatToCbor,
  contentId,
  decodeCanonical,
  defaultEd25519,
  deriveSeed,
  encodeCanonical,
  grantId,
  keyPairFromSeed,
  parseGrant,
  parseSignedGrant,
  toHex,
  verifyReceipt,
  type Caveat,
  type Grant,
  type KeyPair,
} from './oracle.ts';
import { PROFILE_GROUPS } from './validate-profiles.ts';

const key = (l: string): KeyPair => keyPairFromSeed(deriveSeed(`validate:${l}`));
const nonce = (l: string): Uint8Array => blake3(new TextEncoder().encode(l)).slice(0, 16);
const seed = (l: string): Uint8Array => deriveSeed(`validate:seed:${l}`);
/** A content id standing for a label (resources, payloads, event classes, states). */
const cid = (l: string): string => contentId({ validate: l });
const NO_ID = '0'.repeat(64);

/** One line of the report: a finding (✗) fails the run; a warning (!) is a byte-contract difference or a permitted reading. */
export interface Finding {
  readonly level: 'finding' | 'warning';
  readonly op: string;
  /** Where in the answer: `$.ok.grant_id`, `$.error.code`, `$` (the answer as a whole). */
  readonly path: string;
  readonly message: string;
}

/** The report's line for a finding. */
export function findingLine(f: Finding): string {
  return `${f.level === 'finding' ? '✗' : '!'} ${f.op}: ${f.path}: ${f.message}`;
}

/** What every group of attempts shares: the client, keys, the op outcomes, and the handles earlier answers gave. */
export interface Run {
  readonly impl: Implementation;
  readonly info: TesteeInfo;
  readonly issuer: KeyPair;
  readonly holder: KeyPair;
  readonly steward: KeyPair;
  /** The holder's delegate: the subject of the two-link chain's child. */
  readonly agent: KeyPair;
  /** A key that holds nothing: the non-holder, the wrong steward, the untrusted root. */
  readonly stranger: KeyPair;
  readonly resource: string;
  /** Sends one op's request; records its outcome; the answer, or undefined when it was refused or unimplemented. */
  attempt<T>(op: string, f: () => Promise<T>): Promise<T | undefined>;
  /** Records a finding (✗): the spec's own words, or what the request asked, were not kept. */
  fail(op: string, path: string, message: string): void;
  /** Records a warning (!): a reading the spec permits that the suite does not expect. */
  warn(op: string, path: string, message: string): void;
  /** A byte-contract difference: a warning, or a finding when the testee claims the byte contract. */
  contract(op: string, path: string, message: string): void;
  grant: Uint8Array;
  grantId: string;
  receipt: Uint8Array;
  point: Point;
}

/** Runs the validation and prints a line per operation, then a line per finding, then the count. Returns the exit code. */
export async function validateTestee(impl: Implementation, out: (line: string) => void = (l) => console.log(l)): Promise<number> {
  let broke = 0;
  const results: Record<string, string> = {};
  const findings: Finding[] = [];
  const seen = new Set<string>();
  const record = (level: Finding['level'], op: string, path: string, message: string): void => {
    const k = `${level}\u0000${op}\u0000${path}\u0000${message}`;
    if (!seen.has(k)) findings.push({ level, op, path, message });
    seen.add(k);
  };
  const attempt = async <T>(op: string, f: () => Promise<T>): Promise<T | undefined> => {
    try {
      const r = await f();
      results[op] ??= 'conforms';
      return r;
    } catch (e) {
      if (e instanceof TesteeError) results[op] ??= `conforms (refused ${e.code})`;
      else if (e instanceof UnimplementedError) results[op] ??= 'unimplemented';
      else if (e instanceof TesteeFailure) {
        results[op] = `BROKE THE PROTOCOL — ${e.message}`;
        broke++;
      } else throw e;
      return undefined;
    }
  };
  let info: TesteeInfo;
  try {
    info = await impl.info();
  } catch (e) {
    out(`hello: BROKE THE PROTOCOL — ${e instanceof Error ? e.message : String(e)}`);
    return 1;
  }
  out(`hello: ${info.name} ${info.version} speaks ${info.protocol}, claims ${info.claims.join(' ')}`);
  const claims = info.features.includes('byte-contract');
  if (claims) out('hello: claims the byte contract: a refusal carrying another ERR_ code than the suite\'s is a finding, not a warning');
  const run: Run = {
    impl,
    info,
    issuer: key('issuer'),
    holder: key('holder'),
    steward: key('steward'),
    agent: key('agent'),
    stranger: key('stranger'),
    resource: contentId({ resource: 'validate' }),
    attempt,
    fail: (op, path, message) => record('finding', op, path, message),
    warn: (op, path, message) => record('warning', op, path, message),
    contract: (op, path, message) => record(claims ? 'finding' : 'warning', op, path, claims ? `${message} (the testee claims the byte contract)` : `${message} (byte contract)`),
    grant: new Uint8Array([0xa0]),
    grantId: NO_ID,
    receipt: new Uint8Array([0xa0]),
    point: new Point(impl, 'no-point'),
  };
  try {
    for (const group of [baseline, metered, energy, rotationAndThreshold, checkpoints, channels, standing, replayAndAccounting, continuations, forwarding, durable, endpoint, transparencyLog, jouleclawReceipts, jouleclawPolicy, sense, ...PROFILE_GROUPS]) {
      await group(run);
    }
  } finally {
    await impl.transport.close();
  }
  const ops = Object.keys(OPS).filter((op) => op !== 'hello');
  for (const op of ops) out(`${op}: ${results[op] ?? 'not reached'}`);
  // a broken answer met outside an op's own attempt (a check's extra request) is a finding of that op
  for (const f of findings) out(findingLine(f));
  const reached = ops.filter((op) => results[op] !== undefined).length;
  const unimplemented = ops.filter((op) => results[op] === 'unimplemented').length;
  const failed = findings.filter((f) => f.level === 'finding').length + broke;
  const warned = findings.filter((f) => f.level === 'warning').length;
  out(`${reached} of ${ops.length} operations reached; unimplemented (${unimplemented} operation${unimplemented === 1 ? '' : 's'})`);
  out(broke ? `${broke} operation(s) broke the protocol` : 'every answer conforms to the protocol schema');
  out(`${failed} finding${failed === 1 ? '' : 's'} (✗), ${warned} warning${warned === 1 ? '' : 's'} (!)`);
  return failed ? 1 : 0;
}

/** The decision request every point-like op sends: the holder exercising the run's grant for 1 µJ at now_s 1. */
function decision(run: Run, over: Partial<DecideFields> = {}): DecideFields {
  return { frame: frameOf(run), chain: [run.grant], caller: run.holder.did, cost: { uj: 1n, provenance: 'Estimator' }, now_s: 1n, ...over };
}
function frameOf(run: Run): FrameFields {
  return { kind: 'tool-call', trust: 'control', grant_id: run.grantId, action: 'call', resource: run.resource, payload_hash: cid('payload') };
}
/** A fresh point trusting the issuer over the run's resource, not itself recorded as an attempt; a placeholder if refused. */
async function freshPoint(run: Run, roots: readonly string[] = [run.issuer.did]): Promise<Point> {
  return (await quietly(() => run.impl.newPoint(run.steward.seed, { [run.resource]: [...roots] }))) ?? new Point(run.impl, 'no-point');
}
/** A setup request whose outcome is not reported (its op is attempted on its own elsewhere): undefined if it failed. */
export async function quietly<T>(f: () => Promise<T>): Promise<T | undefined> {
  try {
    return await f();
  } catch (e) {
    if (e instanceof TesteeError || e instanceof UnimplementedError || e instanceof TesteeFailure) return undefined;
    throw e;
  }
}

// ---- reading answers for the checks -------------------------------------------------------------------------------

/** How one extra request of a check came back. */
type Outcome<T> = { readonly ok: T } | { readonly code: JcpErrorCode; readonly message: string } | { readonly unimplemented: true } | { readonly broke: string };

async function outcome<T>(f: () => Promise<T>): Promise<Outcome<T>> {
  try {
    return { ok: await f() };
  } catch (e) {
    if (e instanceof TesteeError) return { code: e.code, message: e.message };
    if (e instanceof UnimplementedError) return { unimplemented: true };
    if (e instanceof TesteeFailure) return { broke: e.message };
    throw e;
  }
}

/** One request, its raw `ok` map: for the optional fields the typed client does not carry (grant.verify's `grant`). */
async function raw(run: Run, op: string, args: Record<string, CborInput>): Promise<CborMap> {
  return interpret(op, await run.impl.transport.request(op, args));
}

/** A value as the report shows it: text quoted (long ones cut), integers bare, bytes as short hex, absent as absent. */
function show(v: unknown): string {
  if (v === undefined) return 'absent';
  return JSON.stringify(norm(v, true));
}
/** Plain data for comparing and showing: integers as one kind, bytes as hex, maps as objects. */
function norm(v: unknown, cut = false): unknown {
  if (typeof v === 'bigint' || typeof v === 'number') return cut ? Number(v) <= Number.MAX_SAFE_INTEGER ? Number(v) : String(v) : `#${String(v)}`;
  // content ids and did:keys are cut to their ends; other text is shown whole
  if (typeof v === 'string') return cut && /^([0-9a-f]{24,}|did:key:z\w{16,})$/.test(v) ? `${v.slice(0, v.startsWith('did:') ? 12 : 8)}…${v.slice(-4)}` : v;
  if (v instanceof Uint8Array) return cut ? `h'${toHex(v).slice(0, 16)}${v.length > 8 ? '…' : ''}'` : `h'${toHex(v)}'`;
  if (Array.isArray(v)) return v.map((x) => norm(x, cut));
  if (v instanceof Map) return Object.fromEntries([...v].map(([k, x]) => [String(k), norm(x, cut)]));
  if (v !== null && typeof v === 'object') return Object.fromEntries(Object.entries(v).filter(([, x]) => x !== undefined).map(([k, x]) => [k, norm(x, cut)]));
  return v;
}
const same = (a: unknown, b: unknown): boolean => JSON.stringify(norm(a)) === JSON.stringify(norm(b));
const caveatsOf = (g: Grant): unknown[] => (g.caveats ?? []).map(caveatToCbor);

/** The grant fields a check compares, by path under `grant`. */
const GRANT_FIELDS: ReadonlyArray<readonly [string, (g: Grant) => unknown]> = [
  ['issuer', (g) => g.issuer],
  ['subject', (g) => g.subject],
  ['capability.resource', (g) => g.capability.resource],
  ['capability.actions', (g) => g.capability.actions],
  ['budget_uj', (g) => g.budget_uj],
  ['expiry', (g) => g.expiry],
  ['nonce', (g) => g.nonce],
  ['budget_funds', (g) => g.budget_funds],
  ['caveats', (g) => (g.caveats?.length ? caveatsOf(g) : undefined)],
  ['parent', (g) => g.parent],
  ['delegate_depth', (g) => g.delegate_depth],
];

/** The fields of `got` that differ from `want`, among `fields` (all when omitted). */
function grantDiffs(want: Grant, got: Grant, fields?: readonly string[]): Array<{ field: string; want: unknown; got: unknown }> {
  return GRANT_FIELDS.filter(([f]) => !fields || fields.includes(f))
    .map(([field, get]) => ({ field, want: get(want), got: get(got) }))
    .filter((d) => !same(d.want, d.got));
}

/**
 * What a grant the testee made says, and the checks of grant.verify over it. Bytes in the published layout
 * (vectors/README.md) say it themselves (and their content id must be the one `op` answered: jcp §4 "A grant is
 * identified by blake3(canonical_cbor(grant))"); other bytes are read back through grant.verify's optional neutral
 * `grant`. grant.verify of a grant the testee made must say valid and echo the grant_id `op` answered, and its view,
 * when given, must say what the bytes say. Undefined when neither tells (the testee's own layout and no view).
 */
async function readGrant(run: Run, op: string, m: Minted, expect: 'valid' | 'invalid' = 'valid'): Promise<{ grant: Grant; via: string } | undefined> {
  let bytesGrant: Grant | undefined;
  try {
    bytesGrant = parseSignedGrant(decodeCanonical(m.signed_grant)).grant;
  } catch {
    bytesGrant = undefined;
  }
  if (bytesGrant && grantId(bytesGrant) !== m.grant_id) {
    run.fail(op, '$.ok.grant_id', `${show(m.grant_id)} is not the content id of the grant it signed (${show(grantId(bytesGrant))}; jcp §4: a grant is identified by blake3(canonical_cbor(grant)))`);
  }
  const v = await outcome(() => raw(run, 'grant.verify', { signed_grant: m.signed_grant }));
  let view: Grant | undefined;
  if ('broke' in v) run.fail('grant.verify', '$', `broke the protocol on the grant ${op} answered: ${v.broke}`);
  else if ('code' in v) {
    if (expect === 'valid') run.fail('grant.verify', '$.error', `refused the grant ${op} answered (${v.code}); jcp §4: a grant the implementation signed verifies`);
  } else if ('ok' in v) {
    const verdict = v.ok.get('verdict');
    if (verdict !== expect) {
      const why = expect === 'valid' ? 'a grant the implementation signed verifies (jcp §4)' : 'its signature was broken on purpose (grant.forge tamper)';
      run.fail('grant.verify', '$.ok.verdict', `${show(verdict)} for the grant ${op} answered; expected ${show(expect)}: ${why}`);
    }
    const id = v.ok.get('grant_id');
    if (id !== m.grant_id) run.fail('grant.verify', '$.ok.grant_id', `${show(id)} is not the grant_id ${op} answered (${show(m.grant_id)})`);
    const g = v.ok.get('grant');
    if (g !== undefined) {
      try {
        view = parseGrant(g, '$.ok.grant');
      } catch (e) {
        run.fail('grant.verify', '$.ok.grant', `is not a grant in the protocol's neutral form: ${e instanceof Error ? e.message : String(e)}`);
      }
    }
  }
  if (bytesGrant && view) {
    for (const d of grantDiffs(bytesGrant, view)) run.fail('grant.verify', `$.ok.grant.${d.field}`, `${show(d.got)}, but the grant ${op} signed says ${show(d.want)}`);
  }
  if (bytesGrant) return { grant: bytesGrant, via: '' };
  if (view) return { grant: view, via: ' (as grant.verify reads it back)' };
  if ('ok' in v) run.warn('grant.verify', '$.ok.grant', `absent for a grant in the testee's own layout: what the grants ${op} makes say cannot be checked`);
  return undefined;
}

/** Checks that a grant `op` made says what it was asked: each of `fields` equal to `want`'s. */
function grantAsAsked(run: Run, op: string, read: { grant: Grant; via: string } | undefined, want: Grant, fields: readonly string[], what: string): void {
  if (!read) return;
  for (const d of grantDiffs(want, read.grant, fields)) {
    run.fail(op, `$.ok.signed_grant${read.via}`, `grant.${d.field}: ${show(d.got)}, but ${what} ${show(d.want)}`);
  }
}

/**
 * A request that must be refused (the spec's grade): answered ok is a finding; refused with another code than the
 * suite's (`codes`) is a byte-contract difference.
 */
async function mustRefuse(run: Run, op: string, what: string, f: () => Promise<unknown>, codes: JcpErrorCode | readonly JcpErrorCode[] | RegExp, why: string): Promise<void> {
  const o = await outcome(f);
  if ('ok' in o) run.fail(op, '$.ok', `${what} was answered ${show(o.ok)}, not refused (${why})`);
  else if ('broke' in o) run.fail(op, '$', `${what}: broke the protocol: ${o.broke}`);
  else if ('code' in o) {
    const hit = codes instanceof RegExp ? codes.test(o.code) : typeof codes === 'string' ? o.code === codes : codes.includes(o.code);
    const named = codes instanceof RegExp ? `a code matching ${String(codes)}` : typeof codes === 'string' ? codes : codes.join(' or ');
    if (!hit) run.contract(op, '$.error.code', `${what}: refused with ${o.code}; the suite's code for it is ${named}`);
  }
}

/**
 * The checks of a sealed decision (jcp §7, §8): the receipt verifies under the steward (read by the suite's oracle:
 * the COSE_Sign1 envelope is fixed, harness/PROTOCOL.md "Determinism"), its core's verdict and deny_reason are the
 * answer's, and its core says what the decision was over. `want` is the verdict (and reason) the request calls for.
 */
function checkDecision(run: Run, op: string, d: DecisionResult, req: DecideFields, want: { verdict: 'allow' | 'deny'; deny_reason?: string; why: string }, ids: readonly string[]): void {
  if (d.verdict !== want.verdict) {
    run.fail(op, '$.ok.verdict', `${show(d.verdict)}${d.deny_reason ? ` (${d.deny_reason})` : ''} where ${want.verdict}${want.deny_reason ? ` ${want.deny_reason}` : ''} is due: ${want.why}`);
  } else if (want.deny_reason !== undefined && d.deny_reason !== want.deny_reason) {
    run.fail(op, '$.ok.deny_reason', `${show(d.deny_reason)} is not ${show(want.deny_reason)}: ${want.why}`);
  }
  if (d.verdict === 'allow' && d.deny_reason !== undefined) run.fail(op, '$.ok.deny_reason', `${show(d.deny_reason)} on an allow`);
  let core;
  try {
    core = verifyReceipt(d.receipt, { steward: run.steward.did }).core;
  } catch (e) {
    run.fail(op, '$.ok.receipt', `does not verify under the point's steward ${show(run.steward.did)}: ${e instanceof Error ? e.message : String(e)} (jcp §8: every decision seals a receipt signed by the steward)`);
    return;
  }
  if (core.verdict !== d.verdict) run.fail(op, '$.ok.verdict', `${show(d.verdict)}, but its receipt's core says ${show(core.verdict)} (jcp §8: the receipt seals the decision)`);
  if (d.verdict === 'deny' && core.deny_reason !== d.deny_reason) run.fail(op, '$.ok.receipt', `core.deny_reason ${show(core.deny_reason)} is not the answer's ${show(d.deny_reason)}`);
  const leaf = ids[ids.length - 1];
  const expected: Array<[string, unknown, unknown, string]> = [
    ['grant_id', core.grant_id, leaf, 'the id of the grant decided (the leaf)'],
    ['resource', core.resource, req.frame.resource, "the frame's resource"],
    ['action', core.action, req.frame.action, "the frame's action"],
    ['payload_hash', core.payload_hash, req.frame.payload_hash, "the frame's payload_hash (jcp §8: a conforming implementation MUST include it)"],
    ['frame_kind', core.frame_kind, req.frame.kind, "the frame's kind"],
    ['trust', core.trust, req.frame.trust, "the frame's trust"],
    ['cost_uj', core.cost_uj, req.cost.uj, 'the cost decided'],
    ['energy_provenance', core.energy_provenance, req.cost.provenance, "the cost's provenance"],
    ['steward', core.steward, run.steward.did, "the point's steward"],
  ];
  if (d.verdict === 'allow' && ids.length > 1) expected.push(['chain_ids', core.chain_ids, ids, 'every grant id debited, root first (jcp §8.1)']);
  for (const [field, got, exp, what] of expected) {
    if (!same(got, exp)) run.fail(op, '$.ok.receipt', `core.${field} ${show(got)} is not ${what} (${show(exp)})`);
  }
}

/** jcp §2–§8: identities, CBOR, grants, revocations, frames, the enforcement point, receipts. */
async function baseline(run: Run): Promise<void> {
  const { impl, issuer, holder, steward, agent, stranger, resource, attempt } = run;
  // ---- jcp §2: identities and Ed25519 ----
  const id = await attempt('identity.from-seed', () => impl.fromSeed(issuer.seed));
  if (id && !same(id.public_key, issuer.publicKey)) run.fail('identity.from-seed', '$.ok.public_key', `${show(id.public_key)} is not the RFC 8032 public key of the seed (${show(issuer.publicKey)})`);
  if (id && id.did !== issuer.did) run.fail('identity.from-seed', '$.ok.did', `${show(id.did)} is not the did:key of the seed's public key (${show(issuer.did)})`);
  const pk = await attempt('identity.parse-did', () => impl.parseDid(holder.did));
  if (pk && !same(pk, holder.publicKey)) run.fail('identity.parse-did', '$.ok.public_key', `${show(pk)} is not the key the did:key names (${show(holder.publicKey)})`);
  await mustRefuse(run, 'identity.parse-did', 'a did:key cut short by 4 characters', () => impl.parseDid(holder.did.slice(0, -4)), 'ERR_DID_MALFORMED', 'jcp §2: a did:key names one 32-byte Ed25519 key');
  const message = new TextEncoder().encode('jcp-conformance validate: a message');
  const expectedSig = defaultEd25519().sign(issuer.seed, message);
  const sig = await attempt('ed25519.sign', () => impl.sign(issuer.seed, message));
  if (sig && !same(sig, expectedSig)) run.fail('ed25519.sign', '$.ok.signature', `${show(sig)} is not the RFC 8032 signature of the message under the seed (${show(expectedSig)}; Ed25519 signing is deterministic)`);
  const ok = await attempt('ed25519.verify', () => impl.verify(issuer.publicKey, message, sig ?? expectedSig));
  if (ok === false) run.fail('ed25519.verify', '$.ok.verdict', `"invalid" for the seed's own signature of the message`);
  const other = await outcome(() => impl.verify(issuer.publicKey, new TextEncoder().encode('another message'), expectedSig));
  if ('ok' in other && other.ok) run.fail('ed25519.verify', '$.ok.verdict', `"valid" for a signature over another message`);
  if ('code' in other) run.warn('ed25519.verify', '$.error', `a well-formed signature over another message was refused (${other.code}) rather than answered "invalid"`);
  const short = await outcome(() => impl.verify(issuer.publicKey.slice(0, 31), message, expectedSig));
  if ('ok' in short && short.ok) run.fail('ed25519.verify', '$.ok.verdict', `"valid" for a 31-byte public key`);
  // jcp §2 names no error for a key of the wrong length: "invalid" is a reading it permits; the suite's is the error
  if ('ok' in short && !short.ok) run.warn('ed25519.verify', '$.ok.verdict', `a 31-byte public key answered "invalid"; the suite's reading is a refusal (ERR_KEY_LENGTH), the spec permits either`);
  if ('code' in short && short.code !== 'ERR_KEY_LENGTH') run.contract('ed25519.verify', '$.error.code', `a 31-byte public key: refused with ${short.code}; the suite's code for it is ERR_KEY_LENGTH`);
  // ---- jcp §3, §11: canonical CBOR ----
  const canonical = encodeCanonical({ a: 1n, bb: [1n, 'x'], c: new Uint8Array([0, 1]) });
  const echoed = await attempt('cbor.check', () => impl.cborCheck(canonical));
  if (echoed && !same(echoed, canonical)) run.fail('cbor.check', '$.ok.canonical', `${show(echoed)} is not the canonical input given (${show(canonical)}); a canonical item re-encodes to itself (jcp §3)`);
  const CBOR = /^ERR_CBOR_/;
  await mustRefuse(run, 'cbor.check', 'a map whose keys are out of canonical order ({"b": 1, "a": 2})', () => impl.cborCheck(Uint8Array.of(0xa2, 0x61, 0x62, 0x01, 0x61, 0x61, 0x02)), CBOR, 'jcp §3, §11: a body that is not canonical is refused');
  await mustRefuse(run, 'cbor.check', 'an integer in a wider head than it needs (0x18 0x01)', () => impl.cborCheck(Uint8Array.of(0x18, 0x01)), CBOR, 'jcp §3, §11: a body that is not canonical is refused');

  // ---- jcp §4, §4.9: a root grant with caveats ----
  const caveats: Caveat[] = [{ ActionIn: ['call', 'read'] }, { MaxCostUj: 9n }];
  const rootAsked: Grant = { issuer: issuer.did, subject: holder.did, capability: { resource, actions: ['call', 'read'] }, budget_uj: 10n, expiry: 5000n, nonce: nonce('g'), caveats };
  const m = await attempt('grant.mint', () =>
    impl.mintGrant(issuer.seed, { subject: holder.did, resource, actions: ['call', 'read'], budget_uj: 10n, expiry: 5000n, nonce: nonce('g'), caveats: caveats.map(caveatToCbor) }),
  );
  if (m) [run.grant, run.grantId] = [m.signed_grant, m.grant_id];
  const rootRead = m ? await readGrant(run, 'grant.mint', m) : undefined;
  grantAsAsked(run, 'grant.mint', rootRead, rootAsked, GRANT_FIELDS.map(([f]) => f), 'the mint was asked for');
  const root = rootRead?.grant ?? rootAsked;
  await attempt('grant.verify', () => impl.verifyGrant(run.grant));

  // ---- jcp §4.1, §4.9: the holder attenuates to its agent; a stranger may not; nor may the holder amplify ----
  const childAsk = { subject: agent.did, actions: ['call'], budget_uj: 6n, expiry: 4000n, add_caveats: [caveatToCbor({ CallerIs: agent.did })], nonce: nonce('c') };
  const c = await attempt('grant.attenuate', () => impl.attenuate(run.grant, holder.seed, childAsk));
  const childAsked: Grant = { issuer: holder.did, subject: agent.did, capability: { resource, actions: ['call'] }, budget_uj: 6n, expiry: 4000n, nonce: nonce('c'), parent: run.grantId };
  const childRead = c ? await readGrant(run, 'grant.attenuate', c) : undefined;
  grantAsAsked(run, 'grant.attenuate', childRead, childAsked, ['issuer', 'subject', 'capability.resource', 'capability.actions', 'budget_uj', 'expiry', 'nonce', 'parent'], "the holder's attenuation asked for");
  if (childRead) {
    // jcp §4.9: a child carries every caveat of its parent; §4.1 the holder may add its own
    const has = caveatsOf(childRead.grant).map((x) => JSON.stringify(norm(x)));
    for (const want of [...caveatsOf(root), caveatToCbor({ CallerIs: agent.did })]) {
      if (!has.includes(JSON.stringify(norm(want)))) run.fail('grant.attenuate', `$.ok.signed_grant${childRead.via}`, `grant.caveats ${show(caveatsOf(childRead.grant))} lacks ${show(want)} (jcp §4.9: a child carries every caveat of its parent, and the ones added)`);
    }
  }
  await mustRefuse(run, 'grant.attenuate', "an attenuation by a key other than the parent's subject", () => impl.attenuate(run.grant, stranger.seed, { subject: stranger.did, nonce: nonce('c-stranger') }), 'ERR_NOT_HOLDER', 'jcp §4.1: "MUST refuse delegation by anyone other than the parent\'s subject"');
  await mustRefuse(run, 'grant.attenuate', "a child whose budget_uj (11) exceeds its parent's (10)", () => impl.attenuate(run.grant, holder.seed, { subject: agent.did, budget_uj: 11n, nonce: nonce('c-amplify') }), 'ERR_ATTENUATION_VIOLATION', 'jcp §4.1: "MUST refuse any amplification"');

  // ---- jcp §4.5: shards ----
  const slices = [
    { subject: agent.did, budget_uj: 3n, nonce: nonce('s1') },
    { subject: steward.did, budget_uj: 2n, nonce: nonce('s2') },
  ];
  const shards = await attempt('grant.shard', () => impl.shard(run.grant, holder.seed, slices));
  if (shards && shards.length !== slices.length) run.fail('grant.shard', '$.ok.grants', `${shards.length} grants for ${slices.length} slices`);
  for (const [i, s] of (shards ?? []).slice(0, slices.length).entries()) {
    const read = await readGrant(run, 'grant.shard', s);
    const want: Grant = { ...childAsked, subject: slices[i]!.subject, budget_uj: slices[i]!.budget_uj, nonce: slices[i]!.nonce, parent: run.grantId };
    grantAsAsked(run, 'grant.shard', read, want, ['issuer', 'subject', 'capability.resource', 'budget_uj', 'nonce', 'parent'], `slice ${i} asked for`);
  }
  await mustRefuse(run, 'grant.shard', "slices of 6 + 6 µJ from a 10 µJ parent", () => impl.shard(run.grant, holder.seed, slices.map((s) => ({ ...s, budget_uj: 6n }))), 'ERR_SHARD_OVERSPEND', 'jcp §4.5: siblings fit their parent');

  // ---- grant.forge (harness tooling): exactly the fields given, signed; a broken signature on request ----
  const forged: Grant = { issuer: issuer.did, subject: holder.did, capability: { resource, actions: ['call'] }, budget_uj: 7n, expiry: 0n, nonce: nonce('forge'), caveats: [{ NotAfter: 9000n }], delegate_depth: 2n };
  const f = await attempt('grant.forge', () => impl.forgeGrant(issuer.seed, forged));
  if (f) grantAsAsked(run, 'grant.forge', await readGrant(run, 'grant.forge', f), forged, GRANT_FIELDS.map(([x]) => x), 'grant.forge was given');
  // the chain's broken link: the holder's child with its signature broken
  const badAsked: Grant = { ...childAsked, nonce: nonce('c-bad'), caveats: root.caveats ?? [], parent: m?.grant_id ?? NO_ID, expiry: 4000n };
  const bad = await quietly(() => impl.forgeGrant(holder.seed, badAsked, 'signature'));
  if (bad) await readGrant(run, 'grant.forge', bad, 'invalid');

  // ---- jcp §6: frames ----
  const frame: FrameFields = { kind: 'tool-call', trust: 'control', grant_id: c?.grant_id ?? NO_ID, action: 'call', resource, payload_hash: cid('payload'), model: cid('model') };
  const fr = await attempt('frame.check', () => impl.frameCheck(encodeCanonical({ ...frame })));
  if (fr) {
    for (const k of Object.keys(frame) as (keyof FrameFields)[]) {
      if (fr[k] !== frame[k]) run.fail('frame.check', `$.ok.frame.${k}`, fr[k] === undefined ? `absent, but the frame sent has ${show(frame[k])}` : `${show(fr[k])} is not the frame's ${show(frame[k])}`);
    }
  }
  const { payload_hash: _ph, ...noPayload } = frame;
  await mustRefuse(run, 'frame.check', 'a frame without payload_hash', () => impl.frameCheck(encodeCanonical({ ...noPayload })), 'ERR_FRAME_MALFORMED', 'jcp §6: payload_hash is a field of every frame');
  await mustRefuse(run, 'frame.check', 'a frame with trust "bogus"', () => impl.frameCheck(encodeCanonical({ ...frame, trust: 'bogus' })), 'ERR_FRAME_MALFORMED', 'jcp §6: trust is control | data');

  // ---- jcp §4.2, §7, §8: a point decides the two-link chain, debits every link, seals ----
  run.point = (await attempt('point.new', () => impl.newPoint(steward.seed))) ?? run.point;
  const p = run.point;
  await attempt('point.trust-roots', () => p.setTrustRoots(resource, [issuer.did]));
  const ids = [run.grantId, c?.grant_id ?? NO_ID];
  const chained: DecideFields = { frame, chain: [run.grant, c?.signed_grant ?? new Uint8Array([0xa0])], caller: agent.did, cost: { uj: 3n, provenance: 'Estimator' }, now_s: 1n };
  const d = await attempt('point.decide', () => p.decide(chained));
  if (d && c) {
    checkDecision(run, 'point.decide', d, chained, { verdict: 'allow', why: "the issuer's root and the holder's child both permit it (jcp §4.2, §7)" }, ids);
    run.receipt = d.receipt;
  }
  const allowed = d?.verdict === 'allow' ? 3n : 0n;
  const spent = await attempt('point.spent', () => p.spent(run.grantId));
  if (c && d?.verdict === 'allow') {
    // jcp §7: "On Allow, the runtime debits cost"; §4.2: "MUST be debited from all of them"
    if (spent !== undefined && spent !== allowed) run.fail('point.spent', '$.ok.spent_uj', `${show(spent)} against the root after an allow of 3 µJ over the chain; expected 3 (jcp §7, §4.2: an allow debits every link)`);
    const leafSpent = await quietly(() => p.spent(c.grant_id));
    if (leafSpent !== undefined && leafSpent !== allowed) run.fail('point.spent', '$.ok.spent_uj', `${show(leafSpent)} against the child after an allow of 3 µJ over the chain; expected 3 (jcp §7, §4.2: an allow debits every link)`);
  }
  if (c) {
    // the child has 6 − 3 = 3 µJ left; 4 more does not fit it (MaxCostUj 9 still holds)
    const over = { ...chained, cost: { uj: 4n, provenance: 'Estimator' } };
    const o = await quietly(() => p.decide(over));
    if (o) checkDecision(run, 'point.decide', o, over, { verdict: 'deny', deny_reason: 'budget-exceeded', why: 'the child has 3 µJ left of 6 and the cost is 4 (jcp §7, §4.2)' }, ids);
    const after = await quietly(() => p.spent(c.grant_id));
    if (after !== undefined && d?.verdict === 'allow' && after !== allowed) run.fail('point.spent', '$.ok.spent_uj', `${show(after)} against the child after an allow of 3 µJ and a deny; expected 3 (jcp §4.2: a deny debits nothing)`);
  }
  if (bad) {
    const broken = { ...chained, frame: { ...frame, grant_id: bad.grant_id }, chain: [run.grant, bad.signed_grant] };
    const o = await quietly(() => p.decide(broken));
    if (o) checkDecision(run, 'point.decide', o, broken, { verdict: 'deny', deny_reason: 'bad-signature', why: "the child's signature is broken (jcp §4.2, §7)" }, [run.grantId, bad.grant_id]);
  }
  if (c) {
    const untrusted = await freshPoint(run, [stranger.did]);
    const o = await quietly(() => untrusted.decide(chained));
    if (o) checkDecision(run, 'point.decide', o, chained, { verdict: 'deny', deny_reason: 'untrusted-root', why: "the point's only root for the resource is another key (jcp §7 trust roots)" }, ids);
  }
  // arguments outside the protocol's schema (harness/protocol/schema.ts): refused, never decided
  const args = { point: p.id, frame: { ...frame }, chain: [...chained.chain], caller: agent.did, cost: { uj: 1n, provenance: 'Estimator' }, now_s: 1n };
  await mustRefuse(run, 'point.decide', 'a cost with coverage "Whole" (the protocol names only "Partial"; Whole is its absence)', () => raw(run, 'point.decide', { ...args, cost: { ...args.cost, coverage: 'Whole' } }), 'ERR_BAD_ARGUMENT', 'an argument outside the protocol schema');
  await mustRefuse(run, 'point.decide', 'an empty chain', () => raw(run, 'point.decide', { ...args, chain: [] }), 'ERR_BAD_ARGUMENT', 'an argument outside the protocol schema: a chain has at least one grant');

  // ---- jcp §8: the receipt verified, and its core echoed ----
  const core = await attempt('receipt.verify', () => impl.verifyReceipt(run.receipt, steward.did));
  if (core && d) {
    let sealed;
    try {
      sealed = verifyReceipt(run.receipt, { steward: steward.did }).core as unknown as Record<string, unknown>;
    } catch {
      sealed = undefined; // already a finding of point.decide
    }
    for (const k of new Set([...Object.keys(sealed ?? {}), ...Object.keys(core)])) {
      if (sealed && !same(core[k], sealed[k])) run.fail('receipt.verify', `$.ok.core.${k}`, `${show(core[k])} is not the receipt's ${show(sealed[k])}`);
    }
  }
  if (d) {
    await mustRefuse(run, 'receipt.verify', 'the receipt checked against another steward', () => impl.verifyReceipt(run.receipt, stranger.did), 'ERR_RECEIPT_STEWARD_MISMATCH', 'jcp §8: steward = the signer\'s id');
    const flipped = run.receipt.slice();
    flipped[flipped.length - 1]! ^= 1;
    await mustRefuse(run, 'receipt.verify', 'the receipt with a bit of its signature flipped', () => impl.verifyReceipt(flipped, steward.did), 'ERR_RECEIPT_SIGNATURE_INVALID', 'jcp §8: a receipt is COSE_Sign1 signed by the steward');
  }

  // ---- jcp §4.3: revocation, on a point of its own so the run's grant stays usable at the points later groups open ----
  const rev = await attempt('revocation.mint', () => impl.mintRevocation(issuer.seed, run.grantId, nonce('r')));
  const q = await freshPoint(run);
  await attempt('point.revoke', async () => q.revoke(rev ?? (await impl.mintRevocation(issuer.seed, run.grantId, nonce('r2'))), run.grant));
  if (rev && c) {
    const o = await quietly(() => q.decide(chained));
    if (o) checkDecision(run, 'point.decide', o, chained, { verdict: 'deny', deny_reason: 'revoked', why: 'the root was revoked by its issuer at this point (jcp §4.3: a delegation subtree dies with any of its ancestors)' }, ids);
  }
  const foreign = await quietly(() => impl.mintRevocation(stranger.seed, run.grantId, nonce('r-stranger')));
  if (foreign) await mustRefuse(run, 'point.revoke', "a revocation signed by a key other than the grant's issuer", async () => (await freshPoint(run)).revoke(foreign, run.grant), 'ERR_REVOCATION_UNAUTHORIZED', 'jcp §4.3: "MUST verify authority before honoring one"');
}

/** jcp §11: the testee's own endpoint, started and restarted (what it serves is certified by the wire classes). */
async function endpoint(run: Run): Promise<void> {
  const { impl, attempt, steward } = run;
  const e = await attempt('endpoint.start', () => impl.startEndpoint(steward.seed));
  if (e && e.steward !== steward.did) run.fail('endpoint.start', '$.ok.steward', `${show(e.steward)} is not the did:key of the steward seed given (${show(steward.did)})`);
  if (e && !/^(tcp:\/\/|unix:)/.test(e.url)) run.fail('endpoint.start', '$.ok.url', `${show(e.url)} is neither tcp://host:port nor unix:/path`);
  await attempt('endpoint.restart', () => impl.restartEndpoint());
}

async function metered(run: Run): Promise<void> {
  const { attempt, point: p } = run;
  const a = await attempt('point.authorize', () => p.authorize(decision(run)));
  const ticket = a?.verdict === 'authorized' ? a.ticket : 'no-ticket';
  await attempt('point.settle', () => p.settle(ticket, { uj: 1n, provenance: 'Estimator' }, 2n));
  await attempt('point.taint-floor', () => p.setTaintFloor(cid('floored'), ['origin:validate']));
  await attempt('point.spent-funds', () => p.spentFunds(run.grantId));
}

/** jcp §5 energy honesty (C9): pure judgements over samples. */
async function energy(run: Run): Promise<void> {
  const { impl, attempt } = run;
  const samples = [
    { t_ns: 0n, value: 100n },
    { t_ns: 1_000_000_000n, value: 5_000_100n },
  ];
  const figure = { estimated_uj: 5n, provenance: 'Estimator' };
  await attempt('energy.make', () => impl.energyMake({ ...figure, obtained: { how: 'uncalibrated-model' } }));
  await attempt('energy.liveness', () => impl.energyLiveness([{ name: 'package-0', samples }]));
  await attempt('energy.rapl', () => impl.energyRapl([{ zone: 'intel-rapl:0', name: 'package-0', samples }]));
  await attempt('energy.plausibility', () => impl.energyPlausibility(5_000_000n, 1_000_000_000n, { draw_mw: [5000n] }));
  await attempt('energy.ladder', () => impl.energyLadder({ rungs: [{ rung: 'rapl', status: 'absent' }], estimated_uj: 5n }));
  await attempt('energy.task-total', () => impl.energyTaskTotal(figure));
  const payload = await attempt('energy.efficiency-seal', () => impl.energyEfficiencySeal(figure, 10n));
  await attempt('energy.efficiency-read', () => impl.energyEfficiencyRead(payload ?? { energy_uj: 5n }));
  await attempt('energy.efficiency-totals', () => impl.energyEfficiencyTotals([payload ?? { energy_uj: 5n, provenance: 'Estimator' }], 1n));
  await attempt('energy.trace', () => impl.energyTrace({ uj: 5n, provenance: 'Estimator' }, ['a'], { a: { uj: 3n, provenance: 'Estimator' } }));
  await attempt('energy.conservation-floor', () => impl.energyConservationFloor(1000n, ['Estimator']));
  await attempt('energy.physical-bound', () => impl.energyPhysicalBound(5_000_000n, 1_000_000_000n, 1000n, 100_000n));
  const thread = { before_nj: 10n, after_nj: 10n };
  await attempt('energy.proc-span', () => impl.energyProcSpan({ self: { start: thread, stop: thread }, gaps: [] }));
}

/** jcp §2.1 rotation (C12), §2.2 threshold actors (C13, C18). */
async function rotationAndThreshold(run: Run): Promise<void> {
  const { impl, attempt } = run;
  const [k0, k1, k2] = [key('rot-0'), key('rot-1'), key('rot-2')];
  const inception = await attempt('rotation.incept', () => impl.incept(k0.seed, k1.publicKey, nonce('incept')));
  const first = inception?.key_event ?? new Uint8Array([0xa0]);
  const rotation = await attempt('rotation.rotate', () => impl.rotate(first, k1.seed, k2.publicKey, nonce('rotate')));
  await attempt('rotation.verify', () => impl.verifyKeyLog(rotation ? [first, rotation.key_event] : [first]));
  const dealt = await attempt('threshold.dealer', () => impl.thresholdDealer(2, 3, seed('dealer')));
  await attempt('threshold.dkg', () => impl.thresholdDkg(2, 3, [seed('dkg-1'), seed('dkg-2'), seed('dkg-3')]));
  const group = { min: 2, max: 3, group_public_key: dealt?.group_public_key ?? new Uint8Array(32) };
  const signers = dealt?.shares.slice(0, 2) ?? [1, 2].map((identifier) => ({ identifier, signing_share: seed(`share-${identifier}`) }));
  await attempt('threshold.sign', () => impl.thresholdSign(group, signers, new Uint8Array([1, 2, 3]), seed('nonces')));
}

/** jcp §4.7 checkpoints and amendments (C21): the holder checkpoints its run, the issuer amends it. */
async function checkpoints(run: Run): Promise<void> {
  const { impl, attempt, issuer, holder, grant } = run;
  const cp = await attempt('checkpoint.sign', () => impl.signCheckpoint(holder.seed, grant, { state: cid('state'), spent: { uj: 1n, provenance: 'Estimator' } }));
  const checkpoint = cp?.signed_checkpoint ?? new Uint8Array([0xa0]);
  const am = await attempt('checkpoint.amend', () => impl.amendCheckpoint(issuer.seed, grant, checkpoint, { budget_uj: 5n }));
  await attempt('checkpoint.verify', () =>
    impl.verifyCheckpoint({ grant, checkpoint, amendment: am?.signed_amendment ?? new Uint8Array([0xa0]), ...(am ? { continuation: am.continuation.signed_grant } : {}) }),
  );
}

/** jcp §4.5 budget channels (C17): two points sharing the run's grant, one applying the other's statement. */
async function channels(run: Run): Promise<void> {
  const { impl, attempt, grant } = run;
  const [a, b] = [key('channel-a'), key('channel-b')];
  const members = [a.did, b.did];
  const mine = await attempt('channel.open', () => impl.openChannel(a.seed, [grant], members));
  const theirs = await quietly(() => impl.openChannel(b.seed, [grant], members));
  const ch = mine ?? new ChannelHandle(impl, 'no-channel');
  await attempt('channel.spend', () => ch.spend(1n));
  const statement = theirs && (await quietly(async () => (await theirs.spend(2n), await theirs.statement())));
  await attempt('channel.statement', () => ch.statement());
  await attempt('channel.apply', () => ch.apply(statement ?? new Uint8Array([0xa0])));
  await attempt('channel.ledger', () => ch.ledger());
  const proof = await attempt('channel.overdraft-proof', () => ch.overdraftProof());
  // Within budget there is no proof: an empty map stands in, which a conforming testee refuses.
  await attempt('channel.verify-overdraft', () => impl.verifyOverdraft(proof ?? new Uint8Array([0xa0]), members));
}

/** jcp §4.6 standing grants (C20): the issuer authors a mint policy, the holder fires it at the run's point. */
async function standing(run: Run): Promise<void> {
  const { impl, attempt, issuer, holder, steward, grant, grantId, point: p } = run;
  const event_class = cid('event-class');
  const policy = await attempt('standing.author', () => impl.authorPolicy(issuer.seed, grant, { event_class, per_firing_uj: 1n, max_firings: 2n }));
  await attempt('standing.fire', () =>
    impl.fire(p, { policy: policy?.signed_policy ?? new Uint8Array([0xa0]), grant, holder_seed: holder.seed, event_class, child: { subject: steward.did, nonce: nonce('fire') } }),
  );
  await attempt('standing.ledger', () => impl.mintLedger(p, policy?.policy_id ?? NO_ID, grantId));
}

/** jcp §8.1 replay (C14, C16) into a fresh point, §8.2 group accounting (C14), over the run's one receipt. */
async function replayAndAccounting(run: Run): Promise<void> {
  const { impl, attempt, steward, receipt } = run;
  const fresh = await freshPoint(run);
  await attempt('point.replay', () => impl.replay(fresh, [receipt]));
  await attempt('accounting.group', () => impl.groupAccounting(steward.did, [receipt]));
}

/** jcp §6.1 continuations: a relay's first request, bound to a handle, a later exchange, its admission and close. */
async function continuations(run: Run): Promise<void> {
  const { impl, attempt, steward } = run;
  const p = await freshPoint(run);
  const relay = (await attempt('continuation.relay', () => impl.newRelay(p, steward.seed))) ?? new Relay(impl, 'no-relay');
  const first = await attempt('continuation.first', () => relay.first(decision(run)));
  const handle = 'validate-task';
  await attempt('continuation.bind', () => relay.bind(first?.receipt_id ?? NO_ID, handle));
  const { frame, chain, caller, cost } = decision(run);
  await attempt('continuation.next', () => relay.next({ handle, sent_hash: cid('sent'), frame, chain, caller, cost, now_s: 2n }));
  await attempt('continuation.admit', () => relay.admit(handle, cid('outcome')));
  await attempt('continuation.close', () => relay.close(handle, cid('outcome'), 3n));
}

/** jcp §4.10 forwarding (C25): a forwarder gated by a fresh point sends one labelled request. */
async function forwarding(run: Run): Promise<void> {
  const { impl, attempt } = run;
  const p = await freshPoint(run);
  const f = (await attempt('forward.new', () => impl.newForwarder(p))) ?? new Forwarder(impl, 'no-forwarder', []);
  const { payload_hash: _, ...route } = frameOf(run);
  const { chain, caller, cost, now_s } = decision(run);
  const bottom = { integrity: 'principal', origins: [], readers: 'all' } as const;
  await attempt('forward.send', () => f.send({ route, chain, caller, cost, now_s, arguments: { q: 'validate' }, arguments_label: bottom, fields: [] }));
}

/** jouleclaw §2/§7 cascade receipts, §16 contracts + verdict receipts, §17 handoffs + run journal. */
async function jouleclawReceipts(run: Run): Promise<void> {
  const { impl, steward, attempt } = run;
  const tools = [{ tool_id: 't', joules_uj: 1, energy_provenance: 'Estimator' }];
  const w = { id: '00000000-0000-4000-8000-000000000001', closed_at: '2026-01-01T00:00:00Z', input_hash: '0'.repeat(64), tier: 'L0', joules_uj: 1, tools_touched: tools, claims: [] };
  const r = await attempt('jc.receipt.build', () => impl.jcBuildReceipt(w));
  await attempt('jc.receipt.check', () => impl.jcCheckReceipt(r ?? { jc_receipt: '1', ...w, energy_provenance: 'Estimator' }));
  await attempt('jc.receipt.open', () => impl.jcOpenReceipt(new Uint8Array([0xa0])));
  const contract = { jc_contract: 'contract/1', title: 'v', assertions: [{ id: 'A', title: 'a', priority: 'must_have', check: { kind: 'checker', checker_id: 'k' } }], features: [] };
  await attempt('jc.contract.check', () => impl.jcCheckContract(contract));
  const v = await attempt('jc.contract.verify', () => impl.jcVerifyContract(contract, []));
  const sealed = await attempt('jc.verdict.seal', () => impl.jcSealVerdict({ steward_seed: steward.seed, id: w.id, closed_at: w.closed_at, engine_id: 'v', audit_sequence: 0n, verdict_json: v?.verdict_json ?? '{}' }));
  await attempt('jc.verdict.open', () => impl.jcOpenVerdict(sealed ?? new Uint8Array([0xa0])));
  const j = await attempt('jc.run.start', () => impl.jcStartRun('validate', [{ node_id: 'n', replay: 'safe' }]));
  const h = j ?? new JcRunHandle(impl, 'no-run');
  await attempt('jc.run.dispatch', () => h.dispatch('n'));
  await attempt('jc.run.handoff', () => h.handoff({ worker: 'w', closed_at: 0n }));
  const s = await attempt('jc.run.state', () => h.state());
  const o = await attempt('jc.run.open', () => impl.jcOpenRun(s?.entries ?? [new Uint8Array([0xa0])]));
  const h2 = o?.run ?? h;
  await attempt('jc.run.recover', () => h2.recover());
  await attempt('jc.run.complete', () => h2.complete('n', 1n));
  await attempt('jc.run.approve', () => h2.approve('n', 'op'));
  await attempt('jc.run.fail', () => h2.fail('validate'));
}

/** jouleclaw §8 agent identity, §9 policy engine, §10 policy_digest and policy/1 receipts. */
async function jouleclawPolicy(run: Run): Promise<void> {
  const { impl, attempt, steward, holder } = run;
  const read = { kind: 'filesystem', path: '/workspace/x', mode: 'read' } as const;
  const policy = { version: 1n, rules: [{ name: 'read-workspace', effect: 'allow' as const, agents: 'any' as const, action: { kind: 'filesystem', path_glob: '/workspace/**', modes: ['read'] } }] };
  await attempt('jc.agent-check', () => impl.jcAgentCheck(holder.did, holder.publicKey));
  const digest = await attempt('jc.policy-digest', () => impl.jcPolicyDigest(policy));
  await attempt('jc.policy-evaluate', () => impl.jcPolicyEvaluate('validate', [{ evaluate: { agent: holder.did, action: read } }], { policy }));
  const sealed = await attempt('jc.policy-receipt', () =>
    impl.jcPolicyReceipt(steward.seed, { id: '00000000-0000-4000-8000-000000000002', closed_at: '2026-01-01T00:00:00Z', engine_id: 'validate', audit_sequence: 1n, policy_version: 1n, ...(digest ? { policy_digest: digest } : {}), agent: holder.did, action: read, decision: { kind: 'allow', rule: 'read-workspace' } }),
  );
  await attempt('jc.verify-policy-receipt', () => impl.jcVerifyPolicyReceipt(sealed ?? new Uint8Array([0xa0]), { steward: steward.did }));
}

/** sense §2–§11 (sense:C1–C6): one event, replay, clock, projection, detector, gate, recall, chain and an injection. */
async function sense(run: Run): Promise<void> {
  const { impl, attempt } = run;
  const host = key('sense-host');
  const ev = { physical_ns: 1n, logical: 0n, source: 'shell', trust: 'FirstParty', payload: new Uint8Array([1]), line: 'git status' };
  const id = await attempt('sense.event-id', () => impl.senseEventId(ev));
  await attempt('sense.replay', () => impl.senseReplay([ev]));
  await attempt('sense.clock', () => impl.senseClock([5n], { physical_ns: 1n, logical: 0n }));
  await attempt('sense.project', () => impl.senseProject([{ source: 'shell', trust: 'FirstParty' }]));
  await attempt('sense.detect', () => impl.senseDetect('salience', [100_000n, 900_000n]));
  await attempt('sense.gate', () => impl.senseGate([{ probe: 'salience', score: 900_000n }], { engagement_ppm: 0n, active_modality: 'audio', surface_modality: 'visual' }, 10n, 5n));
  await attempt('sense.ask', () => impl.senseAsk([ev], 'what was the last command?', 4n));
  const event_id = id?.event_id ?? '0'.repeat(64);
  const sealed = await attempt('sense.seal', () =>
    impl.senseSeal(host.seed, [{ event_id, trust: 'FirstParty', highlight: { probe: 'salience', score: 900_000n }, value: 900_000n, cost: 0n, decision: 'surface', charged_uj: 5n, budget_uj: 5n }]),
  );
  const links = sealed?.links ?? [new Uint8Array([0xa0])];
  await attempt('sense.verify-chain', () => impl.senseVerifyChain(host.did, links));
  await attempt('sense.inject', () =>
    impl.senseInject({ link: links[0]!, recipient: key('sense-agent').did, position: 0n, destination: 'own', run_state: 'running', delivery: { uj: 1n, provenance: 'Estimator' } }),
  );
  await attempt('sense.agent-kinds', () => impl.senseAgentKinds());
  await attempt('sense.agent-author', () => impl.senseAgentAuthor('injected_observation'));
}

/** jouleclaw §22 transparency log (C-TLOG): a log, a decision appended on its path, a receipt appended, heads and proofs made and verified. */
async function transparencyLog(run: Run): Promise<void> {
  const { impl, attempt, steward } = run;
  const log = (await attempt('tlog.new', () => impl.newLog(steward.seed))) ?? new TransparencyLogHandle(impl, 'no-log');
  const point = await freshPoint(run);
  const d = await attempt('tlog.decide', () => log.decide(point, decision(run)));
  const e = await attempt('tlog.append', () => log.append(d?.receipt ?? run.receipt, 2n));
  const h1 = d?.entry?.head ?? new Uint8Array([0xa0]);
  const h2 = (await attempt('tlog.head', () => log.head(3n))) ?? e?.head ?? new Uint8Array([0xa0]);
  const inc = (await attempt('tlog.inclusion', () => log.inclusion(0n, 2n))) ?? [];
  const cons = (await attempt('tlog.consistency', () => log.consistency(1n, 2n))) ?? [];
  await attempt('tlog.verify-head', () => impl.verifyTreeHead(h2, steward.did));
  await attempt('tlog.verify-inclusion', () => impl.verifyLogInclusion(h2, steward.did, d?.receipt ?? run.receipt, 0n, inc));
  await attempt('tlog.verify-consistency', () => impl.verifyLogConsistency(h1, h2, steward.did, cons));
}

/** jcp §4.11 durable record (C26): a record in a temporary directory, opened, decided on, closed, then removed. */
async function durable(run: Run): Promise<void> {
  const { impl, attempt, issuer, steward, resource } = run;
  const dir = mkdtempSync(join(tmpdir(), 'jcp-validate-'));
  try {
    const dp =
      (await attempt('durable.open', () => impl.openDurable(join(dir, 'record'), 'validate', steward.seed, { [resource]: [issuer.did] }))) ??
      new DurablePointHandle(impl, 'no-durable-point', 0n);
    const d = await attempt('durable.decide', () => dp.decide(decision(run)));
    // the optional in-flight operations (jcp §4.11), on the decision just recorded (a name the testee never gave: "e0")
    await attempt('durable.status', () => dp.status(d?.entry ?? 'e0'));
    await attempt('durable.complete', () => dp.complete(d?.entry ?? 'e0', 'completed'));
    await attempt('durable.close', () => dp.close());
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
