// jcp §4.5 receipt-settled budget channels (OPTIONAL profile, conformance class C17): N enforcement points spend
// optimistically against one grant and settle by exchanging signed statements of cumulative local spend.
//
// Byte shapes fixed here (the spec names the fields, not their CBOR layout; ARCHITECTURE.md "byte shapes"):
//   Statement        = { grant_id: tstr (content id), point: tstr (did:key), spent_uj: uint, seq: uint }
//   SignedStatement  = { statement: Statement, signature: bstr .size 64 }
//     the signature is Ed25519 by `point` over canonical_cbor(Statement) (jcp §4.5 "signed by point over its
//     canonical bytes"); the channel is named by the grant id, one channel per grant.
//   OverdraftProof   = { chain: [+ SignedGrant], statements: [+ SignedStatement] }
//     chain is the shared grant's chain, root first, the shared grant last (a root grant alone is a chain of one).
//
// Readings taken where the spec leaves the meaning open (each named where it is applied):
//   - Membership. The spec says a receiving point verifies "the signature" but not who may make a claim. A channel is
//     opened with its member points (as an enforcement point is configured with its trust roots, jcp §7); a statement
//     from any other key is refused, and so is one naming this point itself (its own spend is counted locally).
//   - The first statement from a peer is accepted at any seq; after it, seq must strictly increase ("stale" otherwise)
//     and spent_uj must not decrease ("regressing" otherwise). An equal spent_uj at a higher seq is accepted.
//   - "count the peer's settled spend against the shared budget": a local spend is allowed only when
//     local spend + Σ settled peer spend + cost ≤ budget_uj (the merged ledger binds).
//   - Overdraft: the sum, over distinct member points, of the spent_uj of one signed statement each, past the grant's
//     budget_uj. Statements are cumulative, so one statement per point is the whole claim; a proof naming one point
//     twice is refused (it would count that point's spend twice).
import { decodeCanonical, encodeCanonical, type CborInput, type CborValue } from '../cbor/index.ts';
import { JcpError } from '../errors.ts';
import { didPublicKey, isDidKey } from '../identity/did-key.ts';
import { defaultEd25519, type Ed25519, type KeyPair } from '../identity/ed25519.ts';
import { narrowingFault, structuralFault } from './attenuate.ts';
import { parseSignedGrant, signedGrantToCbor } from './codec.ts';
import { isContentId } from './content-id.ts';
import { grantId, validateGrant, verifyGrantSignature } from './grant.ts';
import type { ContentId, Did, Grant, SignedGrant } from './types.ts';

const U64_MAX = (1n << 64n) - 1n;

/** jcp §4.5 Statement: a point's claim of its cumulative allowed spend against one grant. */
export interface Statement {
  readonly grant_id: ContentId;
  /** The enforcement point making the claim (its signer). */
  readonly point: Did;
  /** Cumulative µJ allowed at this point since the channel opened. */
  readonly spent_uj: bigint;
  /** Strictly increasing per point. */
  readonly seq: bigint;
}

/** A statement with its point's Ed25519 signature over the statement's canonical bytes. */
export interface SignedStatement {
  readonly statement: Statement;
  readonly signature: Uint8Array;
}

// ---- encoding ------------------------------------------------------------------------------------------------------

/** The CBOR value of a statement. */
export function statementToCbor(s: Statement): CborInput {
  return { grant_id: s.grant_id, point: s.point, spent_uj: s.spent_uj, seq: s.seq };
}

/** The CBOR value of a signed statement. */
export function signedStatementToCbor(ss: SignedStatement): CborInput {
  return { statement: statementToCbor(ss.statement), signature: ss.signature };
}

/** The canonical bytes a point signs (jcp §4.5 "signed by point over its canonical bytes"). */
export function statementBytes(s: Statement): Uint8Array {
  return encodeCanonical(statementToCbor(s));
}

function malformed(msg: string, at: string): never {
  throw new JcpError('ERR_STATEMENT_MALFORMED', `${at}: ${msg}`, { path: at });
}

function _uint(v: CborValue | undefined, at: string): bigint {
  if (typeof v === 'number' && Number.isSafeInteger(v) && v >= 0) return BigInt(v);
  if (typeof v === 'bigint' && v >= 0n && v <= U64_MAX) return v;
  return malformed('must be an unsigned integer', at);
}

function _fields(v: CborValue | undefined, allowed: readonly string[], at: string): Map<CborValue, CborValue> {
  if (!(v instanceof Map)) malformed('must be a map', at);
  for (const k of v.keys()) if (typeof k !== 'string' || !allowed.includes(k)) malformed(`unknown field ${String(k)}`, at);
  for (const k of allowed) if (!v.has(k)) malformed(`${k} is missing`, at);
  return v;
}

/** A Statement from its CBOR value, validated field by field; throws ERR_STATEMENT_MALFORMED naming the field. */
export function parseStatement(v: CborValue | undefined, at = '$statement'): Statement {
  const sm = _fields(v, ['grant_id', 'point', 'spent_uj', 'seq'], at);
  const grant_id = sm.get('grant_id');
  if (!isContentId(grant_id)) malformed('must be a content id (64 lowercase hex digits)', `${at}.grant_id`);
  const point = sm.get('point');
  if (typeof point !== 'string' || !isDidKey(point)) malformed('must be an Ed25519 did:key', `${at}.point`);
  return Object.freeze({
    grant_id: grant_id as string,
    point,
    spent_uj: _uint(sm.get('spent_uj'), `${at}.spent_uj`),
    seq: _uint(sm.get('seq'), `${at}.seq`),
  });
}

/** A SignedStatement from its CBOR value, validated field by field; throws ERR_STATEMENT_MALFORMED naming the field. */
export function parseSignedStatement(v: CborValue, at = '$signed_statement'): SignedStatement {
  const m = _fields(v, ['statement', 'signature'], at);
  const statement = parseStatement(m.get('statement'), `${at}.statement`);
  const signature = m.get('signature');
  if (!(signature instanceof Uint8Array) || signature.length !== 64) malformed('must be a byte string of 64 bytes', `${at}.signature`);
  return Object.freeze({ statement, signature });
}

/** A signed statement from its canonical bytes (strict decode, then {@link parseSignedStatement}). */
export function decodeSignedStatement(bytes: Uint8Array): SignedStatement {
  return parseSignedStatement(decodeCanonical(bytes));
}

/** Signs a statement as `point`; throws ERR_BAD_ARGUMENT when the key is not the statement's point. */
export function signStatement(s: Statement, point: KeyPair, backend: Ed25519 = defaultEd25519()): SignedStatement {
  if (typeof s !== 'object' || s === null) throw new JcpError('ERR_BAD_ARGUMENT', 'a statement is {grant_id, point, spent_uj, seq}');
  if (_keyPairArg(point, 'point').did !== s.point) throw new JcpError('ERR_BAD_ARGUMENT', `the signing key ${point.did} is not the statement's point ${s.point}`);
  // the rules parseSignedStatement applies on the wire, so nothing signed here is refused there
  const statement = parseStatement(decodeCanonical(encodeCanonical(statementToCbor(s))));
  return Object.freeze({ statement, signature: backend.sign(point.seed, statementBytes(statement)) });
}

/** Does the statement's signature verify under its point's key? */
export function verifyStatementSignature(ss: SignedStatement, backend: Ed25519 = defaultEd25519()): boolean {
  try {
    return backend.verify(ss.signature, statementBytes(ss.statement), didPublicKey(ss.statement.point));
  } catch {
    return false;
  }
}

// ---- arguments at the boundary -------------------------------------------------------------------------------------

/**
 * Returns `v` when it is a signed grant whose grant is well-formed (validated as the wire would read it); throws
 * ERR_BAD_ARGUMENT (or the grant's own ERR_GRANT_MALFORMED) naming `what` otherwise. Shared with standing.ts.
 */
export function _signedGrantArg(v: unknown, what: string): SignedGrant {
  _signedGrantShape(v, what);
  try {
    validateGrant(v.grant as unknown as Grant);
  } catch (e) {
    if (e instanceof JcpError) throw e;
    throw _notAGrant(what);
  }
  return v as unknown as SignedGrant;
}

/**
 * Throws ERR_BAD_ARGUMENT naming `what` unless `v` has the shape of a signed grant, {grant: object, signature: bytes};
 * the grant's fields are not looked at. Shared with enforcement-point.ts.
 */
export function _signedGrantShape(v: unknown, what: string): asserts v is { grant: Record<string, unknown>; signature: Uint8Array } {
  const o = v as { grant?: unknown; signature?: unknown } | null;
  if (typeof o !== 'object' || o === null || typeof o.grant !== 'object' || o.grant === null || !(o.signature instanceof Uint8Array)) {
    throw new JcpError('ERR_BAD_ARGUMENT', `${what} must be a signed grant {grant, signature}`);
  }
}

/** The refusal of a signed grant whose grant is not one (in memory, never parsed from the wire). */
export function _notAGrant(what: string): JcpError {
  return new JcpError('ERR_BAD_ARGUMENT', `${what}.grant is not a grant (parse wire input with parseSignedGrant first)`);
}

/** Returns `v` when it is a key pair {did, seed}; throws ERR_BAD_ARGUMENT naming `what` otherwise. Shared with standing.ts. */
export function _keyPairArg(v: unknown, what: string): KeyPair {
  const k = v as { did?: unknown; seed?: unknown } | null;
  if (typeof k !== 'object' || k === null || typeof k.did !== 'string' || !(k.seed instanceof Uint8Array)) {
    throw new JcpError('ERR_BAD_ARGUMENT', `${what} must be a key pair {did, seed, publicKey}`);
  }
  return v as KeyPair;
}

// ---- chains ------------------------------------------------------------------------------------------------------

/**
 * jcp §4.2 verification of a chain root first: the root has no parent, every hop is the structural next link and
 * narrows, every signature verifies. Throws ERR_CHAIN_BROKEN (structure, signature) or ERR_ATTENUATION_VIOLATION.
 */
export function verifyGrantChain(chain: readonly SignedGrant[], backend: Ed25519 = defaultEd25519()): void {
  if (!Array.isArray(chain)) throw new JcpError('ERR_BAD_ARGUMENT', 'a chain is an array of signed grants, root first');
  chain.forEach((sg, i) => _signedGrantArg(sg, `chain[${i}]`));
  if (chain.length === 0) throw new JcpError('ERR_CHAIN_BROKEN', 'the chain is empty');
  if (chain[0]!.grant.parent !== undefined) throw new JcpError('ERR_CHAIN_BROKEN', 'the first grant of the chain has a parent: it is not a root');
  for (let i = 1; i < chain.length; i++) {
    const f = structuralFault(chain[i - 1]!, chain[i]!);
    if (f) throw new JcpError('ERR_CHAIN_BROKEN', `hop ${i}: ${f}`, { hop: i });
    const n = narrowingFault(chain[i - 1]!.grant, chain[i]!.grant);
    if (n) throw new JcpError('ERR_ATTENUATION_VIOLATION', `hop ${i}: ${n.message}`, { hop: i, axis: n.axis });
  }
  chain.forEach((sg, i) => {
    if (!verifyGrantSignature(sg, backend)) throw new JcpError('ERR_CHAIN_BROKEN', `link ${i}: the issuer's signature does not verify`, { link: i });
  });
}

// ---- the channel state at one point --------------------------------------------------------------------------------

/** A peer's last accepted statement. */
export interface Settled {
  readonly seq: bigint;
  readonly spent_uj: bigint;
  /** The statement itself, kept as evidence for an overdraft proof. */
  readonly signed: SignedStatement;
}

/** What a channel is opened with. */
export interface ChannelOptions {
  /** The shared grant's chain, root first; the shared grant is its last link. Verified at open (jcp §4.2). */
  readonly chain: readonly SignedGrant[];
  /** This enforcement point's key: it signs this point's statements. */
  readonly self: KeyPair;
  /** Every point of the channel, this one included. */
  readonly members: readonly Did[];
  readonly backend?: Ed25519;
}

/** The outcome of a local spend. */
export type SpendVerdict = { readonly verdict: 'allow' } | { readonly verdict: 'deny'; readonly deny_reason: 'budget-exceeded'; readonly why: string };

/** One enforcement point's view of a budget channel (jcp §4.5). */
export interface Channel {
  /** The shared grant's id: the channel's name. */
  readonly grant_id: ContentId;
  readonly budget_uj: bigint;
  readonly self: Did;
  /**
   * Spends `cost_uj` optimistically at this point. Allowed when local + settled peer spend + cost ≤ budget_uj (the
   * merged ledger binds); an allow adds the cost to the local spend, a deny changes nothing.
   */
  spend(cost_uj: bigint): SpendVerdict;
  /** Signs this point's next statement: its cumulative local spend at the next seq (1 for the first). */
  statement(): SignedStatement;
  /**
   * jcp §4.5: verifies a peer's statement and settles it, or refuses it with the state unchanged: ERR_STATEMENT_MALFORMED,
   * ERR_STATEMENT_WRONG_GRANT (another grant), ERR_STATEMENT_NOT_MEMBER (not a peer of this channel),
   * ERR_STATEMENT_FORGED (the signature does not verify), ERR_STATEMENT_STALE (seq not increasing),
   * ERR_STATEMENT_REGRESSING (spent_uj decreasing).
   */
  apply(ss: SignedStatement): void;
  /** This point's own cumulative allowed spend. */
  localSpent(): bigint;
  /** The last accepted statement of each peer. */
  settled(): ReadonlyMap<Did, Settled>;
  /** local + Σ settled peer spend: the merged ledger. */
  total(): bigint;
  /**
   * An overdraft proof when the merged ledger, as this point's own latest statement plus each peer's settled
   * statement, is past the budget; undefined otherwise. Signs a fresh statement of this point's spend when its last
   * one is out of date.
   */
  overdraftProof(): OverdraftProof | undefined;
}

/** jcp §4.5 "after settlement the overdraft is provable from the signed statements". */
export interface OverdraftProof {
  /** The shared grant's chain, root first. */
  readonly chain: readonly SignedGrant[];
  /** One signed statement per point. */
  readonly statements: readonly SignedStatement[];
}

function checkMembers(members: readonly Did[], self: Did): ReadonlySet<Did> {
  if (!Array.isArray(members) || members.length === 0) throw new JcpError('ERR_BAD_ARGUMENT', 'members must be a non-empty array of did:key');
  for (const m of members) if (typeof m !== 'string' || !isDidKey(m)) throw new JcpError('ERR_BAD_ARGUMENT', `member ${String(m)} is not an Ed25519 did:key`);
  const set = new Set(members);
  if (set.size !== members.length) throw new JcpError('ERR_BAD_ARGUMENT', 'members name a point twice');
  if (!set.has(self)) throw new JcpError('ERR_BAD_ARGUMENT', `this point ${self} is not one of the channel's members`);
  return set;
}

/** Opens one point's side of a channel over the last grant of a verified chain, with empty local and settled spend. */
export function openChannel(opts: ChannelOptions): Channel {
  if (typeof opts !== 'object' || opts === null) throw new JcpError('ERR_BAD_ARGUMENT', 'a channel is opened with {chain, self, members}');
  const backend = opts.backend ?? defaultEd25519();
  // a snapshot of the chain, verified as verifyGrantChain reads it (a non-array is refused there, with its fault)
  const chain = Array.isArray(opts.chain) ? [...opts.chain] : opts.chain;
  verifyGrantChain(chain, backend);
  const self = _keyPairArg(opts.self, 'self');
  const members = checkMembers(opts.members, self.did);
  const shared = chain[chain.length - 1]!.grant;
  const gid = grantId(shared);
  let local = 0n;
  let seq = 0n;
  let last: SignedStatement | undefined;
  const peers = new Map<Did, Settled>();

  const settledSum = (): bigint => [...peers.values()].reduce((a, s) => a + s.spent_uj, 0n);

  function statement(): SignedStatement {
    seq += 1n;
    last = signStatement({ grant_id: gid, point: self.did, spent_uj: local, seq }, self, backend);
    return last;
  }

  return Object.freeze({
    grant_id: gid,
    budget_uj: shared.budget_uj,
    self: self.did,
    spend(cost_uj: bigint): SpendVerdict {
      if (typeof cost_uj !== 'bigint' || cost_uj < 0n || cost_uj > U64_MAX) throw new JcpError('ERR_BAD_ARGUMENT', 'cost_uj must be a bigint in 0 … 2^64−1');
      const settled = settledSum();
      // jcp §4.5: "thereafter count the peer's settled spend against the shared budget"
      if (local + settled + cost_uj > shared.budget_uj) {
        return { verdict: 'deny', deny_reason: 'budget-exceeded', why: `local ${local} + settled ${settled} + cost ${cost_uj} > budget_uj ${shared.budget_uj}` };
      }
      local += cost_uj;
      return { verdict: 'allow' };
    },
    statement,
    apply(ss: SignedStatement): void {
      const snap = parseSignedStatement(_snapshotStatement(ss));
      const s = snap.statement;
      if (s.grant_id !== gid) throw new JcpError('ERR_STATEMENT_WRONG_GRANT', `the statement is about grant ${s.grant_id}, not this channel's ${gid}`);
      if (s.point === self.did) throw new JcpError('ERR_STATEMENT_NOT_MEMBER', "a point's own spend is counted locally, never from a statement", { point: s.point });
      if (!members.has(s.point)) throw new JcpError('ERR_STATEMENT_NOT_MEMBER', `${s.point} is not a point of this channel`, { point: s.point });
      // jcp §4.5: "A receiving point MUST verify the signature"
      if (!verifyStatementSignature(snap, backend)) {
        throw new JcpError('ERR_STATEMENT_FORGED', `the statement's signature does not verify under ${s.point}`, { point: s.point });
      }
      const prior = peers.get(s.point);
      if (prior) {
        // jcp §4.5: "refuse stale (seq not increasing)"
        if (s.seq <= prior.seq) throw new JcpError('ERR_STATEMENT_STALE', `seq ${s.seq} does not increase past ${prior.seq}`, { seq: String(s.seq), last_seq: String(prior.seq) });
        // jcp §4.5: "and regressing (spent_uj decreasing) statements"
        if (s.spent_uj < prior.spent_uj) {
          throw new JcpError('ERR_STATEMENT_REGRESSING', `spent_uj ${s.spent_uj} decreases from ${prior.spent_uj}`, { spent_uj: String(s.spent_uj), last_spent_uj: String(prior.spent_uj) });
        }
      }
      peers.set(s.point, Object.freeze({ seq: s.seq, spent_uj: s.spent_uj, signed: snap }));
    },
    localSpent: () => local,
    settled: () => new Map(peers),
    total: () => local + settledSum(),
    overdraftProof(): OverdraftProof | undefined {
      if (local + settledSum() <= shared.budget_uj) return undefined;
      const own = last !== undefined && last.statement.spent_uj === local ? last : statement();
      return Object.freeze({ chain, statements: [own, ...[...peers.values()].map((p) => p.signed)] });
    },
  });
}

/** A signed statement's canonical bytes decoded again: the snapshot `apply` validates (wire rules, no aliasing). */
function _snapshotStatement(ss: SignedStatement): CborValue {
  const o = ss as unknown as { statement?: unknown; signature?: unknown } | null;
  if (typeof o !== 'object' || o === null || typeof o.statement !== 'object' || o.statement === null || !(o.signature instanceof Uint8Array)) {
    throw new JcpError('ERR_STATEMENT_MALFORMED', 'a signed statement is {statement, signature}');
  }
  return decodeCanonical(encodeCanonical(signedStatementToCbor(ss)));
}

// ---- overdraft proofs ----------------------------------------------------------------------------------------------

/** The CBOR value of an overdraft proof. */
export function overdraftProofToCbor(p: OverdraftProof): CborInput {
  return { chain: p.chain.map(signedGrantToCbor), statements: p.statements.map(signedStatementToCbor) };
}

/** An overdraft proof from its canonical bytes; throws ERR_OVERDRAFT_PROOF_INVALID when it is not one. */
export function decodeOverdraftProof(bytes: Uint8Array): OverdraftProof {
  const v = decodeCanonical(bytes);
  if (!(v instanceof Map) || v.size !== 2 || !Array.isArray(v.get('chain')) || !Array.isArray(v.get('statements'))) {
    throw new JcpError('ERR_OVERDRAFT_PROOF_INVALID', 'an overdraft proof is {chain: [signed grant], statements: [signed statement]}', { fault: 'malformed' });
  }
  const chain = (v.get('chain') as CborValue[]).map((g, i) => parseSignedGrant(g, `$proof.chain[${i}]`));
  const statements = (v.get('statements') as CborValue[]).map((s, i) => parseSignedStatement(s, `$proof.statements[${i}]`));
  return Object.freeze({ chain, statements });
}

function invalid(fault: string, msg: string): never {
  throw new JcpError('ERR_OVERDRAFT_PROOF_INVALID', msg, { fault });
}

/**
 * Verifies an overdraft proof from the signed objects alone and returns the overdraft in µJ (> 0): Σ spent_uj of one
 * statement per distinct member point, less the shared grant's budget_uj. `members` are the channel's points as the
 * verifier knows them (membership is configuration, not something a statement can assert of itself). Throws
 * ERR_OVERDRAFT_PROOF_INVALID with detail.fault 'chain' | 'empty' | 'grant' | 'not-member' | 'duplicate-point' |
 * 'signature' | 'no-overdraft'.
 */
export function verifyOverdraftProof(p: OverdraftProof, members: readonly Did[], backend: Ed25519 = defaultEd25519()): bigint {
  if (!Array.isArray(p?.chain) || !Array.isArray(p?.statements)) invalid('malformed', 'an overdraft proof is {chain, statements}');
  if (!Array.isArray(members)) throw new JcpError('ERR_BAD_ARGUMENT', 'members must be an array of did:key');
  // every statement read again as the wire reads it: a look-alike object is refused, never trusted
  const statements = p.statements.map((ss, i) => parseSignedStatement(_snapshotStatement(ss), `$proof.statements[${i}]`));
  try {
    verifyGrantChain(p.chain, backend);
  } catch (e) {
    invalid('chain', `the shared grant's chain does not verify: ${(e as Error).message}`);
  }
  const shared = p.chain[p.chain.length - 1]!.grant;
  const gid = grantId(shared);
  const known = new Set(members);
  const seen = new Set<Did>();
  if (statements.length === 0) invalid('empty', 'an overdraft proof needs at least one statement');
  let sum = 0n;
  for (const ss of statements) {
    const s = ss.statement;
    if (s.grant_id !== gid) invalid('grant', `a statement is about grant ${s.grant_id}, not the shared ${gid}`);
    if (!known.has(s.point)) invalid('not-member', `${s.point} is not a point of the channel`);
    // cumulative statements: one per point is its whole claim, and a second would count it twice
    if (seen.has(s.point)) invalid('duplicate-point', `${s.point} appears twice`);
    seen.add(s.point);
    if (!verifyStatementSignature(ss, backend)) invalid('signature', `the statement of ${s.point} does not verify`);
    sum += s.spent_uj;
  }
  if (sum <= shared.budget_uj) invalid('no-overdraft', `the statements sum to ${sum} µJ, within budget_uj ${shared.budget_uj}`);
  return sum - shared.budget_uj;
}
