// The one interface every conformance test is written against: a client over a transport to the in-process reference
// or to a testee process speaking harness/PROTOCOL.md. Results are plain values; a refusal is a TesteeError carrying
// one code of the suite's closed list (impl/errors.ts).
import type { CborInput, CborMap, CborValue } from '../impl/cbor/index.ts';
import type { JcpErrorCode } from '../impl/errors.ts';
import { OPS, PROTOCOL_VERSION, validate, validateResponse } from './protocol/schema.ts';
import { FEATURES, OPEN_POINTS } from './protocol/readings.ts';
import { caveatToCbor, decodeCanonical, parseGrant, parseSignedGrant, toHex, type Grant } from './oracle.ts';
import { ChannelHandle } from './implementation/channels.ts';
import { DurablePointHandle } from './implementation/durable.ts';
import { Forwarder } from './implementation/forward.ts';
import { keyEventMinted, shareOf, type KeyEventMinted, type ThresholdGroupResult, type ThresholdShareFields, type ThresholdSignResult } from './implementation/identity.ts';
import { JcRunHandle } from './implementation/journal.ts';
import { jcPolicyArg, type JcPolicyFields, type JcPolicyReceiptFields, type JcPolicyStep } from './implementation/policy.ts';
import { Relay, type GroupLedgerResult, type ReplayResult } from './implementation/relay.ts';
import { TransparencyLogHandle } from './implementation/tlog.ts';
import { U, decideArgs, decisionResult, jsonText, minted, omitUndef, plain, plainFrame } from './implementation/values.ts';

// The handles and field types of each area, in modules of their own (harness/implementation/), exported from here too.
export * from './implementation/channels.ts';
export * from './implementation/durable.ts';
export * from './implementation/forward.ts';
export * from './implementation/identity.ts';
export * from './implementation/journal.ts';
export * from './implementation/policy.ts';
export * from './implementation/relay.ts';
export * from './implementation/tlog.ts';

/** What a testee says of itself at the handshake. */
export interface TesteeInfo {
  readonly name: string;
  readonly version: string;
  readonly protocol: string;
  readonly language?: string;
  /** Class ids it claims, e.g. jcp:C1. */
  readonly claims: readonly string[];
  /** Defined values: harness/protocol/readings.ts FEATURES (`byte-contract`). */
  readonly features: readonly string[];
  /** The reading declared for each open point it names (harness/protocol/readings.ts OPEN_POINTS). */
  readonly readings?: Readonly<Record<string, string>>;
}

/** The testee refused an operation with a code of the suite's closed list. */
export class TesteeError extends Error {
  override readonly name = 'TesteeError';
  constructor(
    readonly code: JcpErrorCode,
    message: string,
  ) {
    super(`${code}: ${message}`);
  }
}

/** The testee answered that it does not implement an operation. */
export class UnimplementedError extends Error {
  override readonly name = 'UnimplementedError';
  constructor(readonly op: string, message: string) {
    super(`${op} is unimplemented: ${message}`);
  }
}

/** The testee failed as a program: it hung, died, or broke the protocol. The harness recovers; the test does not. */
export class TesteeFailure extends Error {
  override readonly name = 'TesteeFailure';
  constructor(
    readonly kind: 'timeout' | 'crash' | 'protocol',
    message: string,
    /** Request and response bytes (hex) where there were any: the evidence for a report. */
    readonly transcript?: { readonly request?: string; readonly response?: string; readonly stderr?: string },
  ) {
    super(`${kind}: ${message}`);
  }
}

/** Moves one request to an implementation and brings back its raw response map. */
export interface Transport {
  /** A short description for reports: "in-process reference", or the testee command. */
  readonly description: string;
  /** The handshake's answer (performed once, replayed after a respawn). */
  hello(): Promise<TesteeInfo>;
  /** Sends one request and returns the response map {seq, ok | error | unimplemented}, already schema-validated. */
  request(op: string, args: CborInput): Promise<CborMap>;
  close(): Promise<void>;
}

/** Reads a response map into a value, or throws what it says. */
export function interpret(op: string, response: CborMap): CborMap {
  if (response.has('ok')) return response.get('ok') as CborMap;
  if (response.has('unimplemented')) throw new UnimplementedError(op, String(response.get('unimplemented')));
  const e = response.get('error') as CborMap;
  throw new TesteeError(e.get('code') as JcpErrorCode, String(e.get('message')));
}

/** What is wrong with a handshake's features and readings: each must be one this suite defines. */
export function handshakeProblems(info: TesteeInfo): string[] {
  const out: string[] = [];
  for (const f of info.features) if (!FEATURES[f]) out.push(`$.ok.features: unknown feature ${JSON.stringify(f)} (defined: ${Object.keys(FEATURES).join(', ')})`);
  for (const [k, v] of Object.entries(info.readings ?? {})) {
    const point = OPEN_POINTS[k];
    if (!point) out.push(`$.ok.readings: unknown open point ${JSON.stringify(k)} (defined: ${Object.keys(OPEN_POINTS).join(', ')})`);
    else if (!point.readings[v]) out.push(`$.ok.readings.${k}: ${JSON.stringify(v)} is not a reading of ${point.clause} (permitted: ${Object.keys(point.readings).join(', ')})`);
  }
  return out;
}

/** Validates a handshake answer and reads it. */
export function readHello(ok: CborValue | undefined): TesteeInfo {
  const problems = validate(OPS['hello']!.result, ok, '$.ok');
  if (problems.length) throw new TesteeFailure('protocol', `the handshake answer does not conform: ${problems.join('; ')}`);
  const m = ok as CborMap;
  const info: TesteeInfo = {
    name: m.get('name') as string,
    version: m.get('version') as string,
    protocol: m.get('protocol') as string,
    ...(m.has('language') ? { language: m.get('language') as string } : {}),
    claims: [...(m.get('claims') as string[])],
    features: [...((m.get('features') as string[] | undefined) ?? [])],
    ...(m.has('readings') ? { readings: Object.fromEntries([...(m.get('readings') as CborMap)].map(([k, v]) => [String(k), String(v)])) } : {}),
  };
  const bad = handshakeProblems(info);
  if (bad.length) throw new TesteeFailure('protocol', `the handshake answer does not conform: ${bad.join('; ')}`);
  if (info.protocol !== PROTOCOL_VERSION) {
    throw new TesteeFailure('protocol', `the testee speaks ${info.protocol}; this suite speaks ${PROTOCOL_VERSION}`);
  }
  return info;
}

export { validateResponse };

// ---- the typed client -------------------------------------------------------------------------------------------


/** Grant fields a root mint takes (the issuer comes from the seed). */
export interface MintFields {
  readonly subject: string;
  readonly resource: string;
  readonly actions: readonly string[];
  readonly budget_uj: bigint;
  readonly expiry?: bigint;
  readonly nonce: Uint8Array;
  readonly budget_funds?: { readonly currency: string; readonly minor: bigint };
  /** Caveats in their CBOR form, e.g. { ActionIn: ['read'] } or { MaxCostUj: 10n }. */
  readonly caveats?: readonly CborInput[];
  readonly delegate_depth?: bigint;
}

/** What a holder chooses when attenuating; omitted axes are inherited. */
export interface ChildFields {
  readonly subject: string;
  readonly nonce: Uint8Array;
  readonly actions?: readonly string[];
  readonly budget_uj?: bigint;
  readonly expiry?: bigint;
  readonly delegate_depth?: bigint;
  readonly add_caveats?: readonly CborInput[];
  readonly budget_funds?: { readonly currency: string; readonly minor: bigint };
}

/** A minted grant: its canonical signed bytes and content id. */
export interface Minted {
  readonly signed_grant: Uint8Array;
  readonly grant_id: string;
}

/** A frame as sent to a decision. */
export interface FrameFields {
  readonly kind: string;
  readonly trust: string;
  readonly grant_id: string;
  readonly action: string;
  readonly resource: string;
  readonly payload_hash: string;
  readonly model?: string;
}

/** A decision request. */
export interface DecideFields {
  readonly frame: FrameFields;
  readonly chain: readonly Uint8Array[];
  readonly caller: string;
  readonly cost: { readonly uj: bigint; readonly provenance: string; readonly coverage?: 'Partial' };
  readonly now_s: bigint;
  // ---- jcp §4.8 (C22) and §4.10 (C25): optional, omitted from the request when absent ----
  /** The action's money cost: present = a priced decision. */
  readonly cost_funds?: { readonly currency: string; readonly minor: bigint };
  /** The argument's flow label; absent = its provenance was not computed. */
  readonly label?: LabelFields;
}

/** jcp §4.10 a flow label as sent: sets sorted ascending without duplicates, or the word naming the extreme. */
export interface LabelFields {
  readonly integrity: 'principal' | 'untrusted';
  readonly origins: readonly string[] | 'any';
  readonly readers: readonly string[] | 'all';
}

/** jcp §4.9 the first phase of the metered path, as the implementation answered it. */
export type AuthorizationResult =
  | { readonly verdict: 'authorized'; readonly ticket: string; readonly pending_caveats: readonly unknown[] }
  | { readonly verdict: 'deny'; readonly deny_reason?: string; readonly receipt: Uint8Array };

/** A sealed decision as the implementation answered it. */
export interface DecisionResult {
  readonly verdict: 'allow' | 'deny';
  readonly deny_reason?: string;
  readonly receipt: Uint8Array;
}

/** A receipt core as plain values (integers as bigint). */
export type Core = Readonly<Record<string, string | bigint | readonly string[]>>;

/** What the harness knows of a grant the testee made: its fields in the neutral form and the testee's content id. */
export interface GrantView {
  readonly grant: Grant;
  readonly grant_id: string;
}

/** The interface conformance tests call. Every method is one protocol operation. */
export class Implementation {
  constructor(readonly transport: Transport) {}

  /** Grants made by the testee in a layout other than the published one, as grant.verify read them back. */
  private readonly views = new Map<string, GrantView>();

  /**
   * Learns what a grant the testee just made says. Bytes in the published layout (vectors/README.md) say it
   * themselves; other bytes are the testee's own layout, read back through grant.verify's neutral `grant`, so a
   * behaviour test never depends on the layout the testee chose (harness/PROTOCOL.md "Grades").
   */
  private async learn(m: Minted): Promise<Minted> {
    try {
      parseSignedGrant(decodeCanonical(m.signed_grant));
      return m;
    } catch {
      const r = await this.call('grant.verify', { signed_grant: m.signed_grant });
      const g = r.get('grant');
      if (g !== undefined) this.views.set(toHex(m.signed_grant), { grant: parseGrant(g), grant_id: r.get('grant_id') as string });
      return m;
    }
  }

  /** The neutral view of a grant this client saw the testee make in its own layout, if any. */
  grantView(signed_grant: Uint8Array): GrantView | undefined {
    return this.views.get(toHex(signed_grant));
  }

  /**
   * What a grant the testee made says: its bytes read in the published layout, else the neutral view learnt when it was
   * made; undefined when neither reads it (harness/PROTOCOL.md "Grades": a behaviour test never leans on the layout).
   */
  readGrant(signed_grant: Uint8Array): Grant | undefined {
    try {
      return parseSignedGrant(decodeCanonical(signed_grant)).grant;
    } catch {
      return this.grantView(signed_grant)?.grant;
    }
  }

  private async call(op: string, args: Record<string, unknown>): Promise<CborMap> {
    return interpret(op, await this.transport.request(op, omitUndef(args) as CborInput));
  }

  /** The handshake answer. */
  info(): Promise<TesteeInfo> {
    return this.transport.hello();
  }

  async fromSeed(seed: Uint8Array): Promise<{ public_key: Uint8Array; did: string }> {
    const r = await this.call('identity.from-seed', { seed });
    return { public_key: r.get('public_key') as Uint8Array, did: r.get('did') as string };
  }
  async parseDid(did: string): Promise<Uint8Array> {
    return (await this.call('identity.parse-did', { did })).get('public_key') as Uint8Array;
  }
  async sign(seed: Uint8Array, message: Uint8Array): Promise<Uint8Array> {
    return (await this.call('ed25519.sign', { seed, message })).get('signature') as Uint8Array;
  }
  async verify(public_key: Uint8Array, message: Uint8Array, signature: Uint8Array): Promise<boolean> {
    return (await this.call('ed25519.verify', { public_key, message, signature })).get('verdict') === 'valid';
  }
  /** Strict decode then canonical re-encode: the bytes back, or a refusal with a CBOR error code. */
  async cborCheck(bytes: Uint8Array): Promise<Uint8Array> {
    return (await this.call('cbor.check', { bytes })).get('canonical') as Uint8Array;
  }
  async mintGrant(issuer_seed: Uint8Array, f: MintFields): Promise<Minted> {
    const grant = omitUndef({
      subject: f.subject,
      capability: { resource: f.resource, actions: [...f.actions] },
      budget_uj: f.budget_uj,
      expiry: f.expiry ?? 0n,
      nonce: f.nonce,
      budget_funds: f.budget_funds,
      caveats: f.caveats && f.caveats.length > 0 ? [...f.caveats] : undefined,
      delegate_depth: f.delegate_depth,
    });
    return this.learn(minted(await this.call('grant.mint', { issuer_seed, grant })));
  }
  async attenuate(parent: Uint8Array, holder_seed: Uint8Array, f: ChildFields): Promise<Minted> {
    const child = omitUndef({ ...f, actions: f.actions ? [...f.actions] : undefined, add_caveats: f.add_caveats ? [...f.add_caveats] : undefined });
    return this.learn(minted(await this.call('grant.attenuate', { parent, holder_seed, child })));
  }
  /**
   * Signs exactly `grant` (its issuer named in it) with `signer_seed`, in the testee's own layout, unchecked: the
   * harness's way to a hostile grant (an amplifying child, a stranger's grant; `tamper: 'signature'` flips a bit).
   */
  async forgeGrant(signer_seed: Uint8Array, grant: Grant, tamper?: 'signature'): Promise<Minted> {
    const view = omitUndef({
      issuer: grant.issuer,
      subject: grant.subject,
      capability: { resource: grant.capability.resource, actions: [...grant.capability.actions] },
      budget_uj: grant.budget_uj,
      expiry: grant.expiry,
      nonce: grant.nonce,
      budget_funds: grant.budget_funds ? { ...grant.budget_funds } : undefined,
      caveats: grant.caveats?.length ? grant.caveats.map(caveatToCbor) : undefined,
      parent: grant.parent,
      delegate_depth: grant.delegate_depth,
    });
    return this.learn(minted(await this.call('grant.forge', omitUndef({ signer_seed, grant: view, tamper }))));
  }
  async shard(parent: Uint8Array, holder_seed: Uint8Array, slices: ReadonlyArray<{ subject: string; budget_uj: bigint; nonce: Uint8Array }>): Promise<Minted[]> {
    const r = await this.call('grant.shard', { parent, holder_seed, slices: slices.map((s) => ({ ...s })) });
    return Promise.all((r.get('grants') as CborMap[]).map((g) => this.learn(minted(g))));
  }
  async verifyGrant(signed_grant: Uint8Array): Promise<{ valid: boolean; grant_id: string }> {
    const r = await this.call('grant.verify', { signed_grant });
    return { valid: r.get('verdict') === 'valid', grant_id: r.get('grant_id') as string };
  }
  async mintRevocation(revoker_seed: Uint8Array, grant_id: string, nonce: Uint8Array): Promise<Uint8Array> {
    return (await this.call('revocation.mint', { revoker_seed, grant_id, nonce })).get('signed_revocation') as Uint8Array;
  }
  async frameCheck(frame: Uint8Array): Promise<FrameFields> {
    return plainFrame((await this.call('frame.check', { frame })).get('frame') as CborMap);
  }
  /** jcp §11: the testee's own jcp/1 endpoint on a loopback address, sealing with `steward_seed`, and what it declares. */
  async startEndpoint(steward_seed: Uint8Array): Promise<{ url: string; steward: string; window_s: bigint; cap_bytes: bigint }> {
    const r = await this.call('endpoint.start', { steward_seed });
    return { url: r.get('url') as string, steward: r.get('steward') as string, window_s: U(r.get('window_s')), cap_bytes: U(r.get('cap_bytes')) };
  }
  /** Restarts the testee's endpoint behind the same address, its spend re-established from its record. */
  async restartEndpoint(): Promise<void> {
    await this.call('endpoint.restart', {});
  }
  /** A fresh enforcement point sealing with `steward_seed`; trust roots per resource, if any. */
  async newPoint(steward_seed: Uint8Array, trust_roots?: Readonly<Record<string, readonly string[]>>): Promise<Point> {
    const r = await this.call('point.new', { steward_seed, trust_roots: trust_roots ? Object.fromEntries(Object.entries(trust_roots).map(([k, v]) => [k, [...v]])) : undefined });
    return new Point(this, r.get('point') as string);
  }
  async verifyReceipt(receipt: Uint8Array, steward?: string): Promise<Core> {
    const r = await this.call('receipt.verify', { receipt, steward });
    return plain(r.get('core') as CborValue) as Core;
  }

  // ---- jcp §2.1 rotation (C12) and §2.2 threshold actors (C13, C18) ----
  /** Inception of an identity (seq 0) signed by its key, pre-committing to `next_public_key`. */
  async incept(identity_seed: Uint8Array, next_public_key: Uint8Array, nonce: Uint8Array): Promise<KeyEventMinted> {
    return keyEventMinted(await this.call('rotation.incept', { identity_seed, next_public_key, nonce }));
  }
  /** The rotation after `prior`, signed by `signer_seed` (which must be the pre-committed key). */
  async rotate(prior: Uint8Array, signer_seed: Uint8Array, next_public_key: Uint8Array, nonce: Uint8Array): Promise<KeyEventMinted> {
    return keyEventMinted(await this.call('rotation.rotate', { prior, signer_seed, next_public_key, nonce }));
  }
  /** Verifies a key event log (inception first); the identity and its current key at the end, or a refusal. */
  async verifyKeyLog(log: readonly Uint8Array[]): Promise<{ identity: string; current: string; seq: bigint; next_hash: string; head: string }> {
    const r = await this.call('rotation.verify', { log: [...log] });
    return { identity: r.get('identity') as string, current: r.get('current') as string, seq: U(r.get('seq')), next_hash: r.get('next_hash') as string, head: r.get('head') as string };
  }
  /** A trusted-dealer min-of-max group from a 32-byte seed. */
  async thresholdDealer(min: number, max: number, seed: Uint8Array): Promise<ThresholdGroupResult> {
    const r = await this.call('threshold.dealer', { min, max, seed });
    return { group_public_key: r.get('group_public_key') as Uint8Array, did: r.get('did') as string, shares: (r.get('shares') as CborMap[]).map(shareOf) };
  }
  /** A DKG among `max` participants, participant i drawing only on seeds[i-1]: each participant's own result. */
  async thresholdDkg(min: number, max: number, seeds: readonly Uint8Array[]): Promise<Array<ThresholdShareFields & { group_public_key: Uint8Array }>> {
    const r = await this.call('threshold.dkg', { min, max, seeds: [...seeds] });
    return (r.get('participants') as CborMap[]).map((m) => ({ ...shareOf(m), group_public_key: m.get('group_public_key') as Uint8Array }));
  }
  /** One FROST signing round; nonce randomness from `nonces` (a 32-byte seed, or explicit per-signer randomness). */
  async thresholdSign(
    group: { min: number; max: number; group_public_key: Uint8Array },
    signers: readonly ThresholdShareFields[],
    message: Uint8Array,
    nonces: Uint8Array | ReadonlyArray<{ identifier: number; hiding: Uint8Array; binding: Uint8Array }>,
  ): Promise<ThresholdSignResult> {
    const r = await this.call('threshold.sign', {
      ...group,
      signers: signers.map((s) => ({ ...s })),
      message,
      ...(nonces instanceof Uint8Array ? { nonce_seed: nonces } : { nonce_randomness: nonces.map((n) => ({ ...n })) }),
    });
    return {
      signature: r.get('signature') as Uint8Array,
      shares: (r.get('shares') as CborMap[]).map((m) => ({
        identifier: Number(U(m.get('identifier'))),
        hiding_commitment: m.get('hiding_commitment') as Uint8Array,
        binding_commitment: m.get('binding_commitment') as Uint8Array,
        sig_share: m.get('sig_share') as Uint8Array,
      })),
    };
  }
  // ---- jcp §4.7 checkpoints and amendments (C21) ----
  /** The agent signs a checkpoint of its state under `grant`; `prev` is the run's previous signed checkpoint. */
  async signCheckpoint(
    agent_seed: Uint8Array,
    grant: Uint8Array,
    f: { readonly state: string; readonly spent?: { readonly uj: bigint; readonly provenance: string }; readonly prev?: Uint8Array; readonly via?: Uint8Array },
  ): Promise<{ signed_checkpoint: Uint8Array; checkpoint_id: string }> {
    const r = await this.call('checkpoint.sign', { agent_seed, grant, state: f.state, spent: f.spent ? { ...f.spent } : undefined, prev: f.prev, via: f.via });
    return { signed_checkpoint: r.get('signed_checkpoint') as Uint8Array, checkpoint_id: r.get('checkpoint_id') as string };
  }
  /** The amender steers the run at `checkpoint`; the answer carries the re-issued continuation grant. */
  async amendCheckpoint(
    amender_seed: Uint8Array,
    grant: Uint8Array,
    checkpoint: Uint8Array,
    a: { readonly budget_uj: bigint; readonly actions?: readonly string[]; readonly expiry?: bigint; readonly instructions?: string },
    prev?: Uint8Array,
    via?: Uint8Array,
  ): Promise<{ signed_amendment: Uint8Array; amendment_id: string; continuation: Minted }> {
    const amendment = omitUndef({ budget_uj: a.budget_uj, actions: a.actions ? [...a.actions] : undefined, expiry: a.expiry, instructions: a.instructions });
    const r = await this.call('checkpoint.amend', { amender_seed, grant, checkpoint, prev, via, amendment });
    return { signed_amendment: r.get('signed_amendment') as Uint8Array, amendment_id: r.get('amendment_id') as string, continuation: minted(r.get('continuation') as CborMap) };
  }
  /** The verifying side: a checkpoint+amendment pair (with its continuation, and the prev checkpoint, if given). */
  async verifyCheckpoint(p: {
    readonly grant: Uint8Array;
    readonly checkpoint: Uint8Array;
    readonly amendment: Uint8Array;
    readonly continuation?: Uint8Array;
    readonly prev?: Uint8Array;
    readonly via?: Uint8Array;
  }): Promise<{ checkpoint_id: string; amendment_id: string; remainder_uj?: bigint }> {
    const r = await this.call('checkpoint.verify', { ...p });
    const rem = r.get('remainder_uj');
    return { checkpoint_id: r.get('checkpoint_id') as string, amendment_id: r.get('amendment_id') as string, ...(rem !== undefined ? { remainder_uj: U(rem) } : {}) };
  }

  // ---- jcp §4.5 budget channels (C17) and §4.6 standing grants (C20) ----
  /** One point's side of a budget channel over the last grant of `chain` (root first), signing as `point_seed`. */
  async openChannel(point_seed: Uint8Array, chain: readonly Uint8Array[], members: readonly string[]): Promise<ChannelHandle> {
    const r = await this.call('channel.open', { point_seed, chain: [...chain], members: [...members] });
    return new ChannelHandle(this, r.get('channel') as string);
  }
  /** Verifies an overdraft proof against the channel's members: the overdraft in µJ, or a refusal. */
  async verifyOverdraft(proof: Uint8Array, members: readonly string[]): Promise<bigint> {
    return U((await this.call('channel.verify-overdraft', { proof, members: [...members] })).get('overdraft_uj'));
  }
  /** The standing grant's issuer signs a mint policy over it. */
  async authorPolicy(issuer_seed: Uint8Array, grant: Uint8Array, policy: { event_class: string; per_firing_uj: bigint; max_firings: bigint }): Promise<{ signed_policy: Uint8Array; policy_id: string }> {
    const r = await this.call('standing.author', { issuer_seed, grant, policy: { ...policy } });
    return { signed_policy: r.get('signed_policy') as Uint8Array, policy_id: r.get('policy_id') as string };
  }
  /** Fires a policy at `point`'s mint ledger: the child minted to `child.subject`, or a refusal. */
  async fire(point: Point, f: { policy: Uint8Array; grant: Uint8Array; holder_seed: Uint8Array; event_class: string; child: { subject: string; nonce: Uint8Array } }): Promise<Minted> {
    return this.learn(minted(await this.call('standing.fire', { point: point.id, ...f, child: { ...f.child } })));
  }
  /** `point`'s mint ledger for one policy and its standing grant. */
  async mintLedger(point: Point, policy_id: string, grant_id: string): Promise<{ firings: bigint; cumulative_uj: bigint }> {
    const r = await this.call('standing.ledger', { point: point.id, policy_id, grant_id });
    return { firings: U(r.get('firings')), cumulative_uj: U(r.get('cumulative_uj')) };
  }
  // ---- jcp §8.1 replay (C14, C16), §8.2 group accounting (C14), §6.1 continuations ----
  /** Replays a receipt stream into `point` (verified under its own steward): what was admitted, refused, and rebuilt. */
  async replay(point: Point, receipts: readonly Uint8Array[]): Promise<ReplayResult> {
    const r = await this.call('point.replay', { point: point.id, receipts: [...receipts] });
    return {
      verified: U(r.get('verified')),
      allowed: U(r.get('allowed')),
      refused: U(r.get('refused')),
      refusals: (r.get('refusals') as CborMap[]).map((m) => ({ index: U(m.get('index')), code: m.get('code') as string })),
      spend: new Map([...(r.get('spend') as CborMap)].map(([k, v]) => [String(k), U(v)])),
    };
  }
  /** Per-(grant_id, subject) attribution from a receipt stream verified under `steward` (jcp §8.2). */
  async groupAccounting(steward: string, receipts: readonly Uint8Array[]): Promise<GroupLedgerResult> {
    const r = await this.call('accounting.group', { steward, receipts: [...receipts] });
    return {
      rows: (r.get('rows') as CborMap[]).map((m) => ({
        grant_id: m.get('grant_id') as string,
        subject: m.get('subject') as string,
        allowed: U(m.get('allowed')),
        refused: U(m.get('refused')),
        spent_uj: U(m.get('spent_uj')),
      })),
      verified: U(r.get('verified')),
      unverified: U(r.get('unverified')),
      failures: (r.get('failures') as CborMap[]).map((m) => ({ index: U(m.get('index')), code: m.get('code') as string })),
    };
  }
  /** A continuation relay (jcp §6.1) in front of `point`, sealing with `steward_seed` (the point's own). */
  async newRelay(point: Point, steward_seed: Uint8Array): Promise<Relay> {
    return new Relay(this, (await this.call('continuation.relay', { point: point.id, steward_seed })).get('relay') as string);
  }
  // ---- jcp §4.10 forwarding (C25) ----
  /** A forwarder (jcp §4.10) in front of an endpoint, gated by `point`, leaving the declared fixed machinery `omit` out of the label. */
  async newForwarder(point: Point, omit?: readonly string[]): Promise<Forwarder> {
    const r = await this.call('forward.new', { point: point.id, omit: omit === undefined ? undefined : [...omit] });
    return new Forwarder(this, r.get('forwarder') as string, r.get('omitted_fields') as string[]);
  }

  // ---- jcp §5 energy honesty (C9): each returns the op's result as plain values (maps as objects, integers as bigint) ----
  /** energy.make — the validating constructor of an energy figure (jcp §5, §5.1); a refusal is a TesteeError. */
  async energyMake(args: {
    measured_uj?: bigint;
    estimated_uj: bigint;
    provenance: string;
    coverage?: 'Partial';
    obtained: { how: string; live?: 'live' | 'not-live'; read?: 'both-ends' | 'failed-mid-reading'; plausibility?: string; covers?: 'Whole' | 'Partial' };
  }): Promise<Readonly<Record<string, unknown>>> {
    return plain((await this.call('energy.make', { ...args, obtained: omitUndef(args.obtained) })).get('energy') as CborValue) as Record<string, unknown>;
  }
  /** energy.liveness — is every counter of a summed domain live (jcp §5 Liveness). Samples: t_ns and raw value. */
  async energyLiveness(counters: ReadonlyArray<{ name: string; max_energy_range_uj?: bigint; samples: ReadonlyArray<{ t_ns: bigint; value: bigint }> }>): Promise<Readonly<Record<string, unknown>>> {
    return plain(await this.call('energy.liveness', { counters: counters.map((c) => omitUndef({ ...c, samples: c.samples.map((s) => ({ ...s })) })) })) as Record<string, unknown>;
  }
  /** energy.rapl — which powercap zones are summed, the wrap-corrected package total, and the domain's liveness (jcp §5.1). */
  async energyRapl(zones: ReadonlyArray<{ zone: string; name: string; max_energy_range_uj?: bigint; samples: ReadonlyArray<{ t_ns: bigint; value: bigint }> }>): Promise<Readonly<Record<string, unknown>>> {
    return plain(await this.call('energy.rapl', { zones: zones.map((z) => omitUndef({ ...z, samples: z.samples.map((s) => ({ ...s })) })) })) as Record<string, unknown>;
  }
  /** energy.plausibility — a counter's rate over a span against the board's telemetry (jcp §5 Plausibility). */
  async energyPlausibility(delta_uj: bigint, duration_ns: bigint, telemetry: { draw_mw: readonly bigint[]; limit_mw?: bigint }): Promise<Readonly<Record<string, unknown>>> {
    return plain(await this.call('energy.plausibility', { delta_uj, duration_ns, telemetry: omitUndef({ ...telemetry, draw_mw: [...telemetry.draw_mw] }) })) as Record<string, unknown>;
  }
  /** energy.ladder — the metering ladder over one span's per-rung raw evidence (jcp §5.1). */
  async energyLadder(args: { rungs: ReadonlyArray<Record<string, unknown>>; calibrated_uj?: bigint; estimated_uj: bigint }): Promise<Readonly<Record<string, unknown>>> {
    return plain(await this.call('energy.ladder', { ...args, rungs: args.rungs.map((r) => omitUndef({ ...r })) })) as Record<string, unknown>;
  }
  /** energy.task-total — a figure as a task total; a Partial one is refused (jcp §5.2). */
  async energyTaskTotal(energy: Readonly<Record<string, unknown>>): Promise<bigint> {
    return U((await this.call('energy.task-total', { energy: omitUndef({ ...energy }) })).get('total_uj'));
  }
  /** energy.efficiency-seal — the energy fields an efficiency/1 receipt seals for a figure (jcp §5.2). */
  async energyEfficiencySeal(energy: Readonly<Record<string, unknown>>, accepted_tokens: bigint): Promise<Readonly<Record<string, unknown>>> {
    return plain((await this.call('energy.efficiency-seal', { energy: omitUndef({ ...energy }), accepted_tokens })).get('payload') as CborValue) as Record<string, unknown>;
  }
  /** energy.efficiency-read — an efficiency/1 payload's energy fields read as a verifier must (jcp §5.2). */
  async energyEfficiencyRead(payload: Readonly<Record<string, unknown>>): Promise<Readonly<Record<string, unknown>>> {
    return plain(await this.call('energy.efficiency-read', { payload: omitUndef({ ...payload }) })) as Record<string, unknown>;
  }
  /** energy.efficiency-totals — totals over efficiency/1 payloads: sum, provenance floor, coverage floor, per-unit only when Whole (jcp §5.2). */
  async energyEfficiencyTotals(payloads: ReadonlyArray<Readonly<Record<string, unknown>>>, units: bigint): Promise<Readonly<Record<string, unknown>>> {
    return plain(await this.call('energy.efficiency-totals', { payloads: payloads.map((p) => omitUndef({ ...p })), units })) as Record<string, unknown>;
  }
  /** energy.trace — an outcome traced to its activities by content-id: signed residual, floors (jcp §5.3). */
  async energyTrace(outcome: Readonly<Record<string, unknown>>, activity_ids: readonly string[], activities: Readonly<Record<string, Readonly<Record<string, unknown>>>>): Promise<Readonly<Record<string, unknown>>> {
    const acts = Object.fromEntries(Object.entries(activities).map(([k, v]) => [k, omitUndef({ ...v })]));
    return plain(await this.call('energy.trace', { outcome: omitUndef({ ...outcome }), activity_ids: [...activity_ids], activities: acts })) as Record<string, unknown>;
  }
  /** energy.conservation-floor — the floor against a grant and whether it rests on measured or modelled figures (jcp §5.5). */
  async energyConservationFloor(budget_uj: bigint, provenances: readonly string[]): Promise<Readonly<Record<string, unknown>>> {
    return plain(await this.call('energy.conservation-floor', { budget_uj, provenances: [...provenances] })) as Record<string, unknown>;
  }
  /** energy.physical-bound — a figure against the part's envelope: a refutation or "not-refuted", never "verified" (jcp §5.6). */
  async energyPhysicalBound(energy_uj: bigint, duration_ns: bigint, floor_mw: bigint, ceiling_mw: bigint): Promise<string> {
    return (await this.call('energy.physical-bound', { energy_uj, duration_ns, floor_mw, ceiling_mw })).get('finding') as string;
  }
  /** energy.proc-span — rung 3's end checks: whether a span is a reading, its gaps and coverage (jcp §5.1). */
  async energyProcSpan(args: Readonly<Record<string, unknown>>): Promise<Readonly<Record<string, unknown>>> {
    return plain(await this.call('energy.proc-span', { ...args })) as Record<string, unknown>;
  }
  // ---- jcp §4.11 durable record, one writer per record (C26) ----
  /** Opens (creating) the durable decision record at `path` as `holder`: exclusively, replayed before it decides anything. */
  async openDurable(path: string, holder: string, steward_seed: Uint8Array, trust_roots?: Readonly<Record<string, readonly string[]>>, opts: { simulate?: 'no-exclusivity' } = {}): Promise<DurablePointHandle> {
    const roots = trust_roots ? Object.fromEntries(Object.entries(trust_roots).map(([k, v]) => [k, [...v]])) : undefined;
    const r = await this.call('durable.open', { path, holder, steward_seed, trust_roots: roots, simulate: opts.simulate });
    const ex = r.get('exclusive');
    const torn = r.get('torn_tail');
    const tornTail =
      torn instanceof Map
        ? { offset: U(torn.get('offset')), length: U(torn.get('length')), summary: torn.get('summary') as string, ...(torn.has('request_key') ? { request_key: torn.get('request_key') as Uint8Array } : {}) }
        : undefined;
    return new DurablePointHandle(this, r.get('point') as string, U(r.get('replayed')), ex === undefined ? undefined : ex === 'yes', tornTail);
  }
  // ---- jouleclaw §2/§7 cascade receipts, §16 contracts and verdict receipts, §17 handoffs and the run journal ----
  /** jc.receipt.build — a cascade walk (JSON) to its "1" receipt, as parsed JSON. */
  async jcBuildReceipt(walk: unknown): Promise<Record<string, unknown>> {
    return JSON.parse((await this.call('jc.receipt.build', { walk_json: jsonText(walk) })).get('receipt_json') as string) as Record<string, unknown>;
  }
  /** jc.receipt.check — a cascade receipt read under §7, its known fields, as parsed JSON. */
  async jcCheckReceipt(receipt: unknown): Promise<Record<string, unknown>> {
    return JSON.parse((await this.call('jc.receipt.check', { receipt_json: jsonText(receipt) })).get('receipt_json') as string) as Record<string, unknown>;
  }
  /** jc.receipt.open — a sealed JouleClaw receipt dispatched on jc_receipt; `core` absent for an unknown namespace. */
  async jcOpenReceipt(receipt: Uint8Array): Promise<{ kind: string; jc_receipt: string; core?: Record<string, unknown> }> {
    const r = await this.call('jc.receipt.open', { receipt });
    const core = r.get('core_json');
    return { kind: r.get('kind') as string, jc_receipt: r.get('jc_receipt') as string, ...(typeof core === 'string' ? { core: JSON.parse(core) as Record<string, unknown> } : {}) };
  }
  /** jc.contract.check — a contract/1 accepted (its content hash) or refused. */
  async jcCheckContract(contract: unknown): Promise<string> {
    return (await this.call('jc.contract.check', { contract_json: jsonText(contract) })).get('contract_hash') as string;
  }
  /** jc.contract.verify — the verdict/1 over an evidence bag: its JSON text and the parsed verdict. */
  async jcVerifyContract(contract: unknown, evidence: unknown): Promise<{ verdict_json: string; verdict: Record<string, unknown> }> {
    const verdict_json = (await this.call('jc.contract.verify', { contract_json: jsonText(contract), evidence_json: jsonText(evidence) })).get('verdict_json') as string;
    return { verdict_json, verdict: JSON.parse(verdict_json) as Record<string, unknown> };
  }
  /** jc.verdict.seal — a verdict-receipt/1 sealed by `steward_seed` (checked against `contract` when given). */
  async jcSealVerdict(f: { steward_seed: Uint8Array; id: string; closed_at: string; engine_id: string; audit_sequence: bigint; verdict_json: string; contract?: unknown }): Promise<Uint8Array> {
    const { contract, ...rest } = f;
    return (await this.call('jc.verdict.seal', { ...rest, contract_json: contract === undefined ? undefined : jsonText(contract) })).get('receipt') as Uint8Array;
  }
  /** jc.verdict.open — a verdict receipt's wire form (verdict nested), or a refusal. */
  async jcOpenVerdict(receipt: Uint8Array, contract?: unknown): Promise<Record<string, unknown>> {
    const r = await this.call('jc.verdict.open', { receipt, contract_json: contract === undefined ? undefined : jsonText(contract) });
    return JSON.parse(r.get('wire_json') as string) as Record<string, unknown>;
  }
  /** jc.run.start — a fresh run journal over `nodes`. */
  async jcStartRun(run_id: string, nodes: readonly { node_id: string; replay?: 'safe' | 'never' }[]): Promise<JcRunHandle> {
    const r = await this.call('jc.run.start', { run_id, nodes: nodes.map((n) => omitUndef({ ...n })) });
    return new JcRunHandle(this, r.get('run') as string);
  }
  /** jc.run.open — a run reopened from its journal entries after a restart: the chain verified, handoffs, nodes in flight. */
  async jcOpenRun(entries: readonly Uint8Array[]): Promise<{ run: JcRunHandle; in_flight: string[]; handoffs: Record<string, unknown>[] }> {
    const r = await this.call('jc.run.open', { entries: [...entries] });
    return {
      run: new JcRunHandle(this, r.get('run') as string),
      in_flight: [...(r.get('in_flight') as string[])],
      handoffs: (r.get('handoffs') as CborValue[]).map((h) => plain(h) as Record<string, unknown>),
    };
  }
  // ---- jouleclaw §22 transparency log (C-TLOG) ----
  /** A fresh transparency log whose heads are signed by `steward_seed` (the receipts' sealer); at most `capacity` entries when given. */
  async newLog(steward_seed: Uint8Array, capacity?: bigint): Promise<TransparencyLogHandle> {
    return new TransparencyLogHandle(this, (await this.call('tlog.new', { steward_seed, capacity })).get('log') as string);
  }
  /** Verifies a tree head (wire form) as signed by `steward`; its fields, or a refusal. */
  async verifyTreeHead(head: Uint8Array, steward: string): Promise<{ size: bigint; root: Uint8Array; timestamp: bigint }> {
    const r = await this.call('tlog.verify-head', { head, steward });
    return { size: U(r.get('size')), root: r.get('root') as Uint8Array, timestamp: U(r.get('timestamp')) };
  }
  /** Verifies that `receipt` is entry `index` of the tree the signed `head` commits to; resolves, or a refusal. */
  async verifyLogInclusion(head: Uint8Array, steward: string, receipt: Uint8Array, index: bigint, proof: readonly Uint8Array[]): Promise<void> {
    await this.call('tlog.verify-inclusion', { head, steward, receipt, index, proof: [...proof] });
  }
  /** Verifies that the log only grew from signed `head1` to signed `head2`; resolves, or a refusal. */
  async verifyLogConsistency(head1: Uint8Array, head2: Uint8Array, steward: string, proof: readonly Uint8Array[]): Promise<void> {
    await this.call('tlog.verify-consistency', { head1, head2, steward, proof: [...proof] });
  }
  // ---- jouleclaw §8 agent identity, §9 policy engine, §10 policy_digest and policy/1 receipt ----
  /** jc.policy-digest — the §10.1 policy_digest (hex) of a policy's rules. */
  async jcPolicyDigest(policy: JcPolicyFields): Promise<string> {
    return (await this.call('jc.policy-digest', { policy: jcPolicyArg(policy) })).get('digest') as string;
  }
  /** jc.policy-evaluate — a fresh engine runs `steps`; one result per step and the audit log at the end (plain values, integers as bigint). */
  async jcPolicyEvaluate(
    engine_id: string,
    steps: readonly JcPolicyStep[],
    opts: { policy?: JcPolicyFields; steward_seed?: Uint8Array } = {},
  ): Promise<{ results: Record<string, unknown>[]; audit: Record<string, unknown>[] }> {
    const stepArgs = steps.map((s) => ('install' in s ? { install: jcPolicyArg(s.install) } : { ...s }));
    const r = await this.call('jc.policy-evaluate', { engine_id, policy: opts.policy === undefined ? undefined : jcPolicyArg(opts.policy), steward_seed: opts.steward_seed, steps: stepArgs });
    return { results: plain(r.get('results') as CborValue) as Record<string, unknown>[], audit: plain(r.get('audit') as CborValue) as Record<string, unknown>[] };
  }
  /** jc.policy-receipt — a policy/1 receipt of `fields` sealed by `steward_seed` (policy_digest omitted when undefined). */
  async jcPolicyReceipt(steward_seed: Uint8Array, fields: JcPolicyReceiptFields): Promise<Uint8Array> {
    return (await this.call('jc.policy-receipt', { steward_seed, ...fields })).get('receipt') as Uint8Array;
  }
  /** jc.verify-policy-receipt — the verified core (plain values), or a refusal; `binding: 'required'` demands policy_digest. */
  async jcVerifyPolicyReceipt(receipt: Uint8Array, opts: { steward?: string; binding?: 'required' } = {}): Promise<Record<string, unknown>> {
    return plain((await this.call('jc.verify-policy-receipt', { receipt, ...opts })).get('core') as CborValue) as Record<string, unknown>;
  }
  /** jc.agent-check — handle = did:key(public_key), then (with message and signature) whether the signature verifies. */
  async jcAgentCheck(handle: string, public_key: Uint8Array, message?: Uint8Array, signature?: Uint8Array): Promise<'valid' | 'invalid'> {
    return (await this.call('jc.agent-check', { handle, public_key, message, signature })).get('verdict') as 'valid' | 'invalid';
  }

  // ---- sense §2–§11 (sense:C1–C6); wire shapes in harness/protocol/testee.cddl ----
  /** sense §2, §3: an event's content id and its payload's Cid. `event` is {physical_ns, logical, source, trust, payload (raw bytes), line, valid_time_ns?}. */
  async senseEventId(event: Record<string, CborInput>): Promise<{ event_id: string; payload: string }> {
    const r = await this.call('sense.event-id', { event: omitUndef(event) });
    return { event_id: r.get('event_id') as string, payload: r.get('payload') as string };
  }
  /** sense §3: events_since(`since`, default Hlc::ZERO) of a log fed `events` in the given order, and the replay digest. */
  async senseReplay(events: ReadonlyArray<Record<string, CborInput>>, since?: { physical_ns: bigint; logical: bigint }): Promise<{ event_ids: string[]; replay_digest: string }> {
    const r = await this.call('sense.replay', { events: events.map(omitUndef), since: since ? { ...since } : undefined });
    return { event_ids: [...(r.get('event_ids') as string[])], replay_digest: r.get('replay_digest') as string };
  }
  /** sense §3: the stamps a clock seeded past `seed` issues at each anchor reading. */
  async senseClock(anchors: readonly bigint[], seed?: { physical_ns: bigint; logical: bigint }): Promise<Array<{ physical_ns: bigint; logical: bigint }>> {
    const r = await this.call('sense.clock', { anchors: [...anchors], seed: seed ? { ...seed } : undefined });
    return (r.get('stamps') as CborMap[]).map((m) => ({ physical_ns: U(m.get('physical_ns')), logical: U(m.get('logical')) }));
  }
  /** sense §4: the projection after each event, in ppm. */
  async senseProject(events: ReadonlyArray<{ source: string; trust: string }>): Promise<Array<{ salience: bigint; novelty: bigint; uncertainty: bigint }>> {
    const r = await this.call('sense.project', { events: events.map((e) => ({ ...e })) });
    return (r.get('projections') as CborMap[]).map((m) => ({ salience: U(m.get('salience')), novelty: U(m.get('novelty')), uncertainty: U(m.get('uncertainty')) }));
  }
  /** sense §5: one probe's highlights over a stream of ppm scores. */
  async senseDetect(probe: string, scores: readonly bigint[]): Promise<Array<{ index: bigint; score: bigint }>> {
    const r = await this.call('sense.detect', { probe, scores: [...scores] });
    return (r.get('highlights') as CborMap[]).map((m) => ({ index: U(m.get('index')), score: U(m.get('score')) }));
  }
  /** sense §5: each highlight gated in order, with the charge and the budget after it. */
  async senseGate(
    highlights: ReadonlyArray<{ probe: string; score: bigint }>,
    user: { engagement_ppm: bigint; active_modality: string; surface_modality: string },
    budget_uj: bigint,
    price_uj: bigint,
  ): Promise<Array<{ value: bigint; cost: bigint; outcome: string; charged_uj: bigint; budget_uj: bigint }>> {
    const r = await this.call('sense.gate', { highlights: highlights.map((h) => ({ probe: h.probe, score: h.score })), user: { ...user }, budget_uj, price_uj });
    return (r.get('decisions') as CborMap[]).map((m) => ({
      value: U(m.get('value')),
      cost: U(m.get('cost')),
      outcome: m.get('outcome') as string,
      charged_uj: U(m.get('charged_uj')),
      budget_uj: U(m.get('budget_uj')),
    }));
  }
  /** sense §6: the recall cascade's answer to `query` over a log of `events`, with `k` envelope slots. */
  async senseAsk(
    events: ReadonlyArray<Record<string, CborInput>>,
    query: string,
    k: bigint,
  ): Promise<{ tier: string; model_calls: bigint; answer: string; spans: string[]; envelope_id: string; energy: { measured_uj?: bigint; estimated_uj: bigint; provenance: string } }> {
    const r = await this.call('sense.ask', { events: events.map(omitUndef), query, k });
    const e = r.get('energy') as CborMap;
    const measured = e.get('measured_uj');
    return {
      tier: r.get('tier') as string,
      model_calls: U(r.get('model_calls')),
      answer: r.get('answer') as string,
      spans: [...(r.get('spans') as string[])],
      envelope_id: r.get('envelope_id') as string,
      energy: { ...(measured !== undefined ? { measured_uj: U(measured) } : {}), estimated_uj: U(e.get('estimated_uj')), provenance: e.get('provenance') as string },
    };
  }
  /** sense §8: seals gate decisions as a chain signed by `host_seed`: the links' bytes and ids. */
  async senseSeal(host_seed: Uint8Array, decisions: ReadonlyArray<Record<string, CborInput>>): Promise<{ links: Uint8Array[]; link_ids: string[] }> {
    const r = await this.call('sense.seal', { host_seed, decisions: [...decisions] });
    return { links: [...(r.get('links') as Uint8Array[])], link_ids: [...(r.get('link_ids') as string[])] };
  }
  /** sense §8 verify_chain: the links verified and the first break. */
  async senseVerifyChain(host: string, links: readonly Uint8Array[]): Promise<{ n: bigint; break?: { index: bigint; reason: string } }> {
    const r = await this.call('sense.verify-chain', { host, links: [...links] });
    const b = r.get('break') as CborMap | undefined;
    return { n: U(r.get('n')), ...(b ? { break: { index: U(b.get('index')), reason: b.get('reason') as string } } : {}) };
  }
  /** sense §11: delivers a sealed surfacing link into `recipient`'s record: the frame's bytes and address, or a refusal. */
  async senseInject(a: {
    link: Uint8Array;
    recipient: string;
    position: bigint;
    destination: string;
    run_state: 'running' | 'parked';
    wake_authority?: Uint8Array;
    delivery: { uj: bigint; provenance: string; coverage?: 'Partial' };
  }): Promise<{ frame: Uint8Array; frame_id: string }> {
    const r = await this.call('sense.inject', { ...a, delivery: omitUndef({ ...a.delivery }) });
    return { frame: r.get('frame') as Uint8Array, frame_id: r.get('frame_id') as string };
  }
  /** sense §11: the kinds a recipient agent may author. */
  async senseAgentKinds(): Promise<string[]> {
    return [...((await this.call('sense.agent-kinds', {})).get('kinds') as string[])];
  }
  /** sense §11: the recipient authors an entry of `kind`; resolves, or a refusal. */
  async senseAgentAuthor(kind: string): Promise<void> {
    await this.call('sense.agent-author', { kind });
  }

  /** @internal used by Point */
  _call(op: string, args: Record<string, unknown>): Promise<CborMap> {
    return this.call(op, args);
  }
}

/** An enforcement point living inside the implementation under test. */
export class Point {
  constructor(
    private readonly impl: Implementation,
    readonly id: string,
  ) {}
  async decide(d: DecideFields): Promise<DecisionResult> {
    return decisionResult(await this.impl._call('point.decide', decideArgs(this.id, d)));
  }
  // ---- jcp §4.8 (C22), §4.9 metered path (C24), §4.10 taint floors (C25) ----
  /** The first phase of the metered path over an estimated cost: authorized with a ticket, or a sealed denial. */
  async authorize(d: DecideFields): Promise<AuthorizationResult> {
    const r = await this.impl._call('point.authorize', decideArgs(this.id, d));
    if (r.get('verdict') === 'authorized') {
      return { verdict: 'authorized', ticket: r.get('ticket') as string, pending_caveats: plain((r.get('pending_caveats') as CborValue | undefined) ?? []) as unknown[] };
    }
    return decisionResult(r) as AuthorizationResult;
  }
  /** The debit point of the metered path: the measured cost of the ticket's work. */
  async settle(ticket: string, cost: DecideFields['cost'], now_s: bigint): Promise<DecisionResult> {
    return decisionResult(await this.impl._call('point.settle', { point: this.id, ticket, cost: omitUndef({ ...cost }), now_s }));
  }
  async setTaintFloor(resource: string, origins: readonly string[]): Promise<void> {
    await this.impl._call('point.taint-floor', { point: this.id, resource, origins: [...origins] });
  }
  async spentFunds(grant_id: string): Promise<bigint> {
    return U((await this.impl._call('point.spent-funds', { point: this.id, grant_id })).get('spent_minor'));
  }
  async revoke(revocation: Uint8Array, grant: Uint8Array): Promise<void> {
    await this.impl._call('point.revoke', { point: this.id, revocation, grant });
  }
  async setTrustRoots(resource: string, roots: readonly string[]): Promise<void> {
    await this.impl._call('point.trust-roots', { point: this.id, resource, roots: [...roots] });
  }
  async spent(grant_id: string): Promise<bigint> {
    return U((await this.impl._call('point.spent', { point: this.id, grant_id })).get('spent_uj'));
  }
}
