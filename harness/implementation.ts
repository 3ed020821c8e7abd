// The one interface every conformance test is written against (issue: the certification harness). A client over a
// transport: the in-process reference, or a testee process speaking harness/PROTOCOL.md. Results are plain values;
// a refusal is a TesteeError carrying one code of the suite's closed list (impl/errors.ts).
import type { CborInput, CborMap, CborValue } from '../impl/cbor/index.ts';
import type { JcpErrorCode } from '../impl/errors.ts';
import { OPS, PROTOCOL_VERSION, validate, validateResponse } from './protocol/schema.ts';

/** What a testee says of itself at the handshake. */
export interface TesteeInfo {
  readonly name: string;
  readonly version: string;
  readonly protocol: string;
  readonly language?: string;
  /** Class ids it claims, e.g. jcp:C1. */
  readonly claims: readonly string[];
  readonly features: readonly string[];
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
  };
  if (info.protocol !== PROTOCOL_VERSION) {
    throw new TesteeFailure('protocol', `the testee speaks ${info.protocol}; this suite speaks ${PROTOCOL_VERSION}`);
  }
  return info;
}

export { validateResponse };

// ---- the typed client -------------------------------------------------------------------------------------------

const U = (v: CborValue | undefined): bigint => (typeof v === 'bigint' ? v : BigInt(v as number));

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
}

/** A sealed decision as the implementation answered it. */
export interface DecisionResult {
  readonly verdict: 'allow' | 'deny';
  readonly deny_reason?: string;
  readonly receipt: Uint8Array;
}

/** A receipt core as plain values (integers as bigint). */
export type Core = Readonly<Record<string, string | bigint | readonly string[]>>;

function plain(v: CborValue): unknown {
  if (v instanceof Map) return Object.fromEntries([...v].map(([k, x]) => [String(k), plain(x)]));
  if (Array.isArray(v)) return v.map(plain);
  if (typeof v === 'number') return BigInt(v);
  return v;
}

const omitUndef = (o: Record<string, unknown>): Record<string, CborInput> =>
  Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Record<string, CborInput>;

/** The interface conformance tests call. Every method is one protocol operation. */
export class Implementation {
  constructor(readonly transport: Transport) {}

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
    return minted(await this.call('grant.mint', { issuer_seed, grant }));
  }
  async attenuate(parent: Uint8Array, holder_seed: Uint8Array, f: ChildFields): Promise<Minted> {
    const child = omitUndef({ ...f, actions: f.actions ? [...f.actions] : undefined, add_caveats: f.add_caveats ? [...f.add_caveats] : undefined });
    return minted(await this.call('grant.attenuate', { parent, holder_seed, child }));
  }
  async shard(parent: Uint8Array, holder_seed: Uint8Array, slices: ReadonlyArray<{ subject: string; budget_uj: bigint; nonce: Uint8Array }>): Promise<Minted[]> {
    const r = await this.call('grant.shard', { parent, holder_seed, slices: slices.map((s) => ({ ...s })) });
    return (r.get('grants') as CborMap[]).map(minted);
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
  /** A fresh enforcement point sealing with `steward_seed`; trust roots per resource, if any. */
  async newPoint(steward_seed: Uint8Array, trust_roots?: Readonly<Record<string, readonly string[]>>): Promise<Point> {
    const r = await this.call('point.new', { steward_seed, trust_roots: trust_roots ? Object.fromEntries(Object.entries(trust_roots).map(([k, v]) => [k, [...v]])) : undefined });
    return new Point(this, r.get('point') as string);
  }
  async verifyReceipt(receipt: Uint8Array, steward?: string): Promise<Core> {
    const r = await this.call('receipt.verify', { receipt, steward });
    return plain(r.get('core') as CborValue) as Core;
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
    const r = await this.impl._call('point.decide', {
      point: this.id,
      frame: omitUndef({ ...d.frame }),
      chain: [...d.chain],
      caller: d.caller,
      cost: omitUndef({ ...d.cost }),
      now_s: d.now_s,
    });
    const reason = r.get('deny_reason');
    return { verdict: r.get('verdict') as 'allow' | 'deny', ...(typeof reason === 'string' ? { deny_reason: reason } : {}), receipt: r.get('receipt') as Uint8Array };
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

function minted(r: CborMap): Minted {
  return { signed_grant: r.get('signed_grant') as Uint8Array, grant_id: r.get('grant_id') as string };
}

function plainFrame(m: CborMap): FrameFields {
  return Object.fromEntries([...m].map(([k, v]) => [String(k), v])) as unknown as FrameFields;
}
