// The reference implementation behind the testee protocol (harness/PROTOCOL.md): one `handle` that answers every
// operation. The in-process driver calls it directly; harness/adapter/testee-main.ts serves it over stdio, so the
// suite can run the reference as a separate process exactly as it runs anyone else's implementation.
import {
  attenuate,
  createEnforcementPoint,
  decodeCanonical,
  encodeCanonical,
  frameToCbor,
  grantId,
  JcpError,
  keyPairFromSeed,
  mintGrant,
  mintRevocation,
  parseCaveats,
  parseFrame,
  parseSignedGrant,
  parseSignedRevocation,
  publicKeyFromDid,
  shard,
  signedGrantToCbor,
  signedRevocationToCbor,
  verifyGrantSignature,
  verifyReceipt,
  coreToCbor,
  defaultEd25519,
  type CborInput,
  type CborMap,
  type CborValue,
  type Caveat,
  type EnforcementPoint,
  type SignedGrant,
  type Grant,
  grantBytes,
  validateGrant,
} from '../../impl/index.ts';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { createWireServer } from '../../impl/wire/server.ts';
import { durableWireGate } from '../../impl/wire/durable-gate.ts';
import { fileURLToPath } from 'node:url';
import { PROTOCOL_VERSION } from '../protocol/schema.ts';
import { OPEN_POINTS } from '../protocol/readings.ts';
import { arg, bytes, map, text, texts, uint } from './args.ts';
import { jcpProfileHandlers } from './profiles/jcp.ts';
import { energyProfileHandlers } from './profiles/energy.ts';
import { documentsProfileHandlers } from './profiles/documents.ts';
import { semanticProfileHandlers } from './profiles/semantic.ts';
import { runtimeProfileHandlers } from './profiles/runtime.ts';
import { implementedClasses } from '../../spec-map/index.ts';
// jcp §8.1 replay, §8.2 group accounting (C14, C16), §6.1 continuations
import { aggregateReceipts, createContinuationRelay, labelToCbor, replayInto, type ContinuationRelay, type RelayedDecision } from '../../impl/index.ts';
// jcp §4.8 money (C22), §4.9 metered path (C24), §4.10 flow (C25)
import { caveatToCbor, parseLabel, type DecisionRequest } from '../../impl/index.ts';
// jcp §4.11 durable record (C26)
import { openDurablePoint, type DurablePoint } from '../../impl/index.ts';
import type { RecordIo } from '../../impl/durable/record.ts';
// jcp §4.10 forwarding (C25)
import { createForwarder, type ForwardField, type Forwarder, type Route } from '../../impl/index.ts';
// jcp §5 energy honesty (C9)
import {
  conservationFloor,
  efficiencyPayload,
  isProvenance,
  judgeDomainLiveness,
  judgePlausibility,
  makeEnergy,
  meterSpan,
  physicalBound,
  readEfficiencyPayload,
  aggregateEfficiency,
  sumRaplPackages,
  taskTotalUj,
  traceOutcome,
  type BoardTelemetry,
  type Energy,
  type LivenessVerdict,
  type Obtained,
  type PlausibilityVerdict,
  type RaplZoneSeries,
  type RungEvidence,
  judgeSelfSpan,
  judgeTreeSpan,
  type ProcSpanJudgement,
  type ThreadRunState,
  type Walk,
} from '../../impl/index.ts';
// jcp §2.1 rotation (C12), §2.2 threshold actors (C13, C18)
import {
  dealerShares,
  dkg,
  inceptIdentity,
  keyEventId,
  rotateIdentity,
  signedKeyEventFromBytes,
  signedKeyEventToCbor,
  thresholdSign,
  verifyKeyLog,
  type SignedKeyEvent,
  type ThresholdShare,
} from '../../impl/index.ts';
// jcp §4.7 checkpoints and amendments (C21)
import {
  amend as amendCheckpoint,
  amendmentId,
  checkpointId,
  issueContinuation,
  parseSignedAmendment,
  parseSignedCheckpoint,
  signCheckpoint,
  signedAmendmentToCbor,
  signedCheckpointToCbor,
  verifyAmendment,
  verifyContinuation,
  type SignedAmendment,
  type SignedCheckpoint,
} from '../../impl/index.ts';
// jcp §4.5 budget channels (C17) and §4.6 standing grants (C20)
import {
  authorMintPolicy,
  createMintLedger,
  decodeOverdraftProof,
  decodeSignedMintPolicy,
  decodeSignedStatement,
  mintPolicyId,
  openChannel,
  overdraftProofToCbor,
  signedMintPolicyToCbor,
  signedStatementToCbor,
  verifyOverdraftProof,
  type Channel,
  type MintLedger,
} from '../../impl/index.ts';

/** The project root: the nearest folder above this module holding spec-map/implemented.json (works bundled too). */
function findRoot(from: string): string {
  let dir = from;
  for (;;) {
    if (existsSync(join(dir, 'spec-map', 'implemented.json')) && existsSync(join(dir, 'package.json'))) return dir;
    const up = dirname(dir);
    if (up === dir) throw new Error(`jcp reference testee: no project root above ${from}`);
    dir = up;
  }
}
const ROOT = findRoot(dirname(fileURLToPath(import.meta.url)));

/** What the reference says of itself at the handshake. */
export const REFERENCE_INFO = {
  name: 'jcp-reference',
  version: (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string }).version,
  language: 'TypeScript',
  // the classes the reference claims are the spec map's implemented classes: one list, kept in spec-map/
  // JCP_EXTRA_CLAIMS (comma list) adds classes under development, so their tests run before the class is claimed
  claims: [
    ...implementedClasses(),
    ...(process.env['JCP_EXTRA_CLAIMS']?.split(',').filter(Boolean) ?? []),
  ],
  // the reference lays its bytes out as the published vectors do and answers the suite's ERR_ codes
  features: ['byte-contract'],
  // and takes, on each open point, the reading the spec map records as the reference's
  readings: Object.fromEntries(Object.entries(OPEN_POINTS).map(([k, p]) => [k, p.reference])),
} as const;

/** Thrown by a handler for an operation it does not implement. */
export class Unimplemented extends Error {
  override readonly name = 'Unimplemented';
}

/** A money ceiling {currency, minor} from its CBOR value. */
function funds(v: CborValue | undefined): { currency: string; minor: bigint } {
  const m = map(v, 'budget_funds');
  return { currency: text(m, 'currency'), minor: uint(m.get('minor'), 'budget_funds.minor') };
}

/** A grant's fields in the protocol's neutral form: the protocol's caveat form, whatever the signed layout. */
function grantView(g: Grant): CborInput {
  return {
    issuer: g.issuer,
    subject: g.subject,
    capability: { resource: g.capability.resource, actions: [...g.capability.actions] },
    budget_uj: g.budget_uj,
    expiry: g.expiry,
    nonce: g.nonce,
    ...(g.budget_funds ? { budget_funds: { currency: g.budget_funds.currency, minor: g.budget_funds.minor } } : {}),
    ...(g.caveats?.length ? { caveats: g.caveats.map(caveatToCbor) } : {}),
    ...(g.parent !== undefined ? { parent: g.parent } : {}),
    ...(g.delegate_depth !== undefined ? { delegate_depth: g.delegate_depth } : {}),
  };
}

/** A grant from its neutral form (grant.forge): each field read as given, the caveats in the protocol's form. */
function grantFromView(g: CborMap): Grant {
  const cap = map(g.get('capability'), 'grant.capability');
  return {
    issuer: text(g, 'issuer'),
    subject: text(g, 'subject'),
    capability: { resource: text(cap, 'resource'), actions: texts(cap.get('actions'), 'grant.capability.actions') },
    budget_uj: uint(g.get('budget_uj'), 'grant.budget_uj'),
    expiry: uint(g.get('expiry'), 'grant.expiry'),
    nonce: bytes(g, 'nonce'),
    ...(g.has('budget_funds') ? { budget_funds: funds(g.get('budget_funds')) } : {}),
    ...(g.has('caveats') ? { caveats: parseCaveats(g.get('caveats')!) } : {}),
    ...(g.has('parent') ? { parent: text(g, 'parent') } : {}),
    ...(g.has('delegate_depth') ? { delegate_depth: uint(g.get('delegate_depth'), 'grant.delegate_depth') } : {}),
  };
}

function signedGrantFromBytes(b: Uint8Array): SignedGrant {
  return parseSignedGrant(decodeCanonical(b));
}

// ---- jcp §2.1 / §2.2 argument readers ----
function keyEventOut(se: SignedKeyEvent): CborInput {
  return { key_event: encodeCanonical(signedKeyEventToCbor(se)), event_id: keyEventId(se.event) };
}
function byteList(args: CborMap, k: string): Uint8Array[] {
  const v = arg(args, k);
  if (!Array.isArray(v) || !v.every((x) => x instanceof Uint8Array)) throw new JcpError('ERR_BAD_ARGUMENT', `argument ${k} must be an array of byte strings`);
  return v as Uint8Array[];
}
function maps(args: CborMap, k: string): CborMap[] {
  const v = arg(args, k);
  if (!Array.isArray(v)) throw new JcpError('ERR_BAD_ARGUMENT', `argument ${k} must be an array of maps`);
  return v.map((x, i) => map(x, `${k}[${i}]`));
}
/** A small count (a threshold, a participant number) as a number; ERR_THRESHOLD_PARAMS when out of range. */
function small(args: CborMap, k: string): number {
  const n = uint(args.get(k), k);
  if (n > 255n) throw new JcpError('ERR_THRESHOLD_PARAMS', `${k} must be at most 255, got ${n}`);
  return Number(n);
}

// jcp §4.7 (C21)
function signedCheckpointFromBytes(b: Uint8Array): SignedCheckpoint {
  return parseSignedCheckpoint(decodeCanonical(b));
}
function signedAmendmentFromBytes(b: Uint8Array): SignedAmendment {
  return parseSignedAmendment(decodeCanonical(b));
}

// ---- jcp §4.8 / §4.10: a decision request from point.decide / point.authorize arguments ----
function costOf(a: CborMap): DecisionRequest['cost'] {
  const cost = map(a.get('cost'), 'cost');
  const coverage = cost.get('coverage');
  return { uj: uint(cost.get('uj'), 'cost.uj'), provenance: text(cost, 'provenance') as never, ...(coverage !== undefined ? { coverage: coverage as 'Partial' } : {}) };
}

/** The `chain` argument: an array of signed grants, each as its canonical bytes. */
function chainOf(a: CborMap): SignedGrant[] {
  const chainV = arg(a, 'chain');
  if (!Array.isArray(chainV)) throw new JcpError('ERR_BAD_ARGUMENT', 'chain must be an array of signed grants');
  return chainV.map((b, i) => {
    if (!(b instanceof Uint8Array)) throw new JcpError('ERR_BAD_ARGUMENT', `chain[${i}] must be a byte string`);
    return signedGrantFromBytes(b);
  });
}

function decisionRequest(a: CborMap): DecisionRequest {
  return {
    frame: parseFrame(map(a.get('frame'), 'frame')),
    chain: chainOf(a),
    caller: text(a, 'caller'),
    cost: costOf(a),
    now_s: uint(a.get('now_s'), 'now_s'),
    ...(a.has('cost_funds') ? { cost_funds: funds(a.get('cost_funds')) } : {}),
    ...(a.has('label') ? { label: parseLabel(a.get('label')!, '$label') } : {}),
  };
}

function minted(sg: SignedGrant): CborInput {
  return { signed_grant: encodeCanonical(signedGrantToCbor(sg)), grant_id: grantId(sg.grant) };
}

// ---- jcp §4.5 budget channels (C17) and §4.6 standing grants (C20) ----
/** The channel.* and standing.* handlers of one adapter: channels by name, one mint ledger per enforcement point. */
function channelStandingHandlers(point: (a: CborMap) => EnforcementPoint): Record<string, (a: CborMap) => CborInput> {
  const channels = new Map<string, Channel>();
  const ledgers = new WeakMap<EnforcementPoint, MintLedger>();
  let nextChannel = 1;
  const channel = (a: CborMap): Channel => {
    const c = channels.get(text(a, 'channel'));
    if (!c) throw new JcpError('ERR_BAD_ARGUMENT', `no channel ${text(a, 'channel')}`);
    return c;
  };
  const ledger = (a: CborMap): MintLedger => {
    const p = point(a);
    let l = ledgers.get(p);
    if (!l) ledgers.set(p, (l = createMintLedger()));
    return l;
  };
  return {
    'channel.open': (a) => {
      const c = openChannel({ chain: chainOf(a), self: keyPairFromSeed(bytes(a, 'point_seed')), members: texts(a.get('members'), 'members') });
      const id = `c${nextChannel++}`;
      channels.set(id, c);
      return { channel: id };
    },
    'channel.spend': (a) => {
      const v = channel(a).spend(uint(a.get('cost_uj'), 'cost_uj'));
      return v.verdict === 'allow' ? { verdict: 'allow' } : { verdict: 'deny', deny_reason: v.deny_reason };
    },
    'channel.statement': (a) => ({ signed_statement: encodeCanonical(signedStatementToCbor(channel(a).statement())) }),
    'channel.apply': (a) => {
      const c = channel(a);
      c.apply(decodeSignedStatement(bytes(a, 'statement')));
      return {};
    },
    'channel.ledger': (a) => {
      const c = channel(a);
      const peers: Record<string, CborInput> = {};
      for (const [d, s] of c.settled()) peers[d] = { seq: s.seq, spent_uj: s.spent_uj };
      return { local_uj: c.localSpent(), total_uj: c.total(), peers };
    },
    'channel.overdraft-proof': (a) => {
      const p = channel(a).overdraftProof();
      return p ? { proof: encodeCanonical(overdraftProofToCbor(p)) } : {};
    },
    'channel.verify-overdraft': (a) => ({ overdraft_uj: verifyOverdraftProof(decodeOverdraftProof(bytes(a, 'proof')), texts(a.get('members'), 'members')) }),
    'standing.author': (a) => {
      const pm = map(a.get('policy'), 'policy');
      const sp = authorMintPolicy(signedGrantFromBytes(bytes(a, 'grant')), keyPairFromSeed(bytes(a, 'issuer_seed')), {
        event_class: text(pm, 'event_class'),
        per_firing_uj: uint(pm.get('per_firing_uj'), 'policy.per_firing_uj'),
        max_firings: uint(pm.get('max_firings'), 'policy.max_firings'),
      });
      return { signed_policy: encodeCanonical(signedMintPolicyToCbor(sp)), policy_id: mintPolicyId(sp.policy) };
    },
    'standing.fire': (a) => {
      const l = ledger(a);
      const child = map(a.get('child'), 'child');
      return minted(
        l.fire({
          policy: decodeSignedMintPolicy(bytes(a, 'policy')),
          standing: signedGrantFromBytes(bytes(a, 'grant')),
          holder: keyPairFromSeed(bytes(a, 'holder_seed')),
          event_class: text(a, 'event_class'),
          subject: text(child, 'subject'),
          nonce: bytes(child, 'nonce'),
        }),
      );
    },
    'standing.ledger': (a) => {
      const l = ledger(a);
      return { firings: l.firings(text(a, 'policy_id')), cumulative_uj: l.cumulative(text(a, 'grant_id')) };
    },
  };
}

/** A fresh adapter: its enforcement points live as long as it does. */
/** Seams of the reference adapter: the durable record's writes (impl/durable/record.ts RecordIo), for rule breakers. */
export interface ReferenceAdapterOptions {
  readonly recordIo?: RecordIo;
}

export function createReferenceAdapter(options: ReferenceAdapterOptions = {}): { handle(op: string, args: CborMap): CborInput } {
  const points = new Map<string, EnforcementPoint>();
  let nextPoint = 1;
  const point = (args: CborMap): EnforcementPoint => {
    const id = text(args, 'point');
    const p = points.get(id);
    if (!p) throw new JcpError('ERR_BAD_ARGUMENT', `no enforcement point ${id}`);
    return p;
  };

  const handlers: Record<string, (a: CborMap) => CborInput> = {
    hello: () => ({ ...REFERENCE_INFO, protocol: PROTOCOL_VERSION, claims: [...REFERENCE_INFO.claims], features: [...REFERENCE_INFO.features], readings: { ...REFERENCE_INFO.readings } }),
    'identity.from-seed': (a) => {
      const k = keyPairFromSeed(bytes(a, 'seed'));
      return { public_key: k.publicKey, did: k.did };
    },
    'identity.parse-did': (a) => ({ public_key: publicKeyFromDid(text(a, 'did')) }),
    'ed25519.sign': (a) => ({ signature: defaultEd25519().sign(bytes(a, 'seed'), bytes(a, 'message')) }),
    'ed25519.verify': (a) => ({
      verdict: defaultEd25519().verify(bytes(a, 'signature'), bytes(a, 'message'), bytes(a, 'public_key')) ? 'valid' : 'invalid',
    }),
    'cbor.check': (a) => ({ canonical: encodeCanonical(decodeCanonical(bytes(a, 'bytes'))) }),
    'grant.mint': (a) => {
      const issuer = keyPairFromSeed(bytes(a, 'issuer_seed'));
      const g = map(a.get('grant'), 'grant');
      const cap = map(g.get('capability'), 'grant.capability');
      const caveats: readonly Caveat[] | undefined = g.has('caveats') ? parseCaveats(g.get('caveats')!) : undefined;
      const sg = mintGrant(issuer, {
        subject: text(g, 'subject'),
        resource: text(cap, 'resource'),
        actions: texts(cap.get('actions'), 'grant.capability.actions'),
        budget_uj: uint(g.get('budget_uj'), 'grant.budget_uj'),
        expiry: uint(g.get('expiry'), 'grant.expiry'),
        nonce: bytes(g, 'nonce'),
        ...(g.has('budget_funds') ? { budget_funds: funds(g.get('budget_funds')) } : {}),
        ...(caveats ? { caveats } : {}),
        ...(g.has('delegate_depth') ? { delegate_depth: uint(g.get('delegate_depth'), 'grant.delegate_depth') } : {}),
      });
      return minted(sg);
    },
    'grant.attenuate': (a) => {
      const parent = signedGrantFromBytes(bytes(a, 'parent'));
      const holder = keyPairFromSeed(bytes(a, 'holder_seed'));
      const c = map(a.get('child'), 'child');
      const sg = attenuate(parent, holder, {
        subject: text(c, 'subject'),
        nonce: bytes(c, 'nonce'),
        ...(c.has('actions') ? { actions: texts(c.get('actions'), 'child.actions') } : {}),
        ...(c.has('budget_uj') ? { budget_uj: uint(c.get('budget_uj'), 'child.budget_uj') } : {}),
        ...(c.has('expiry') ? { expiry: uint(c.get('expiry'), 'child.expiry') } : {}),
        ...(c.has('delegate_depth') ? { delegate_depth: uint(c.get('delegate_depth'), 'child.delegate_depth') } : {}),
        ...(c.has('add_caveats') ? { add_caveats: parseCaveats(c.get('add_caveats')!) } : {}),
        ...(c.has('budget_funds') ? { budget_funds: funds(c.get('budget_funds')) } : {}),
      });
      return minted(sg);
    },
    'grant.shard': (a) => {
      const parent = signedGrantFromBytes(bytes(a, 'parent'));
      const holder = keyPairFromSeed(bytes(a, 'holder_seed'));
      const slices = arg(a, 'slices');
      if (!Array.isArray(slices)) throw new JcpError('ERR_BAD_ARGUMENT', 'slices must be an array');
      const out = shard(
        parent,
        holder,
        slices.map((s, i) => {
          const m = map(s, `slices[${i}]`);
          return { subject: text(m, 'subject'), budget_uj: uint(m.get('budget_uj'), 'budget_uj'), nonce: bytes(m, 'nonce') };
        }),
      );
      return { grants: out.map(minted) };
    },
    'grant.verify': (a) => {
      const sg = signedGrantFromBytes(bytes(a, 'signed_grant'));
      return { verdict: verifyGrantSignature(sg) ? 'valid' : 'invalid', grant_id: grantId(sg.grant), grant: grantView(sg.grant) };
    },
    'grant.forge': (a) => {
      // exactly the fields given, well-formed but unchecked for authority and narrowing: signed by whoever signer_seed is
      const g = validateGrant(grantFromView(map(a.get('grant'), 'grant')));
      const signature = defaultEd25519().sign(bytes(a, 'signer_seed'), grantBytes(g));
      if (a.has('tamper')) signature[signature.length - 1]! ^= 1;
      return minted({ grant: g, signature });
    },
    'revocation.mint': (a) => {
      const r = mintRevocation(keyPairFromSeed(bytes(a, 'revoker_seed')), text(a, 'grant_id'), bytes(a, 'nonce'));
      return { signed_revocation: encodeCanonical(signedRevocationToCbor(r)) };
    },
    'frame.check': (a) => ({ frame: frameToCbor(parseFrame(decodeCanonical(bytes(a, 'frame')))) }),
    'point.new': (a) => {
      const roots: Record<string, string[]> = {};
      if (a.has('trust_roots')) for (const [k, v] of map(a.get('trust_roots'), 'trust_roots')) roots[String(k)] = texts(v, `trust_roots.${String(k)}`);
      const id = `p${nextPoint++}`;
      points.set(id, createEnforcementPoint({ steward: keyPairFromSeed(bytes(a, 'steward_seed')), trustRoots: roots }));
      return { point: id };
    },
    'point.trust-roots': (a) => {
      point(a).setTrustRoots(text(a, 'resource'), texts(a.get('roots'), 'roots'));
      return {};
    },
    'point.revoke': (a) => {
      const p = point(a);
      p.revoke(parseSignedRevocation(decodeCanonical(bytes(a, 'revocation'))), signedGrantFromBytes(bytes(a, 'grant')));
      return {};
    },
    'point.decide': (a) => {
      const d = point(a).decide(decisionRequest(a));
      return { verdict: d.verdict, ...(d.deny_reason !== undefined ? { deny_reason: d.deny_reason } : {}), receipt: d.receipt };
    },
    // ---- jcp §4.8 money (C22), §4.9 metered path (C24), §4.10 taint floors (C25) ----
    'point.authorize': (a) => {
      const r = point(a).authorize(decisionRequest(a));
      if (r.verdict === 'authorized') return { verdict: 'authorized', ticket: r.ticket, pending_caveats: r.pending.map(caveatToCbor) };
      return { verdict: r.verdict, ...(r.deny_reason !== undefined ? { deny_reason: r.deny_reason } : {}), receipt: r.receipt };
    },
    'point.settle': (a) => {
      const d = point(a).settle(text(a, 'ticket'), costOf(a), uint(a.get('now_s'), 'now_s'));
      return { verdict: d.verdict, ...(d.deny_reason !== undefined ? { deny_reason: d.deny_reason } : {}), receipt: d.receipt };
    },
    'point.taint-floor': (a) => {
      point(a).setTaintFloor(text(a, 'resource'), texts(a.get('origins'), 'origins'));
      return {};
    },
    'point.spent-funds': (a) => ({ spent_minor: point(a).spentFunds(text(a, 'grant_id')) }),
    // ---- jcp §5 energy honesty (C9): impl/energy's pure judgements ----
    ...((): Record<string, (a: CborMap) => CborInput> => {
      const optUint = (m: CborMap, k: string): bigint | undefined => (m.has(k) ? uint(m.get(k), k) : undefined);
      const list = (v: CborValue | undefined, k: string): CborValue[] => {
        if (!Array.isArray(v)) throw new JcpError('ERR_BAD_ARGUMENT', `argument ${k} must be an array`);
        return v;
      };
      const counters = (v: CborValue | undefined, k: string): RaplZoneSeries[] =>
        list(v, k).map((c, i) => {
          const m = map(c, `${k}[${i}]`);
          const max = optUint(m, 'max_energy_range_uj');
          const samples = list(m.get('samples'), `${k}[${i}].samples`).map((s, j) => {
            const sm = map(s, `${k}[${i}].samples[${j}]`);
            return { t_ns: uint(sm.get('t_ns'), 't_ns'), value: uint(sm.get('value'), 'value') };
          });
          return { zone: m.has('zone') ? text(m, 'zone') : text(m, 'name'), name: text(m, 'name'), samples, ...(max !== undefined ? { max_energy_range_uj: max } : {}) };
        });
      const telemetry = (v: CborValue | undefined): BoardTelemetry => {
        const m = map(v, 'telemetry');
        const limit = optUint(m, 'limit_mw');
        return { draw_mw: list(m.get('draw_mw'), 'telemetry.draw_mw').map((d) => uint(d, 'draw_mw')), ...(limit !== undefined ? { limit_mw: limit } : {}) };
      };
      const provenance = (m: CborMap, k: string) => {
        const p = text(m, k);
        if (!isProvenance(p)) throw new JcpError('ERR_BAD_ARGUMENT', `${k} must be HwShunt, ModelBased or Estimator`);
        return p;
      };
      const energyOut = (e: Energy): CborInput => ({
        ...(e.measured_uj !== undefined ? { measured_uj: e.measured_uj } : {}),
        estimated_uj: e.estimated_uj,
        provenance: e.provenance,
        ...(e.coverage === 'Partial' ? { coverage: 'Partial' } : {}),
      });
      /** A figure as the testee protocol carries it (coverage present only as Partial), taken as given. */
      const energyIn = (v: CborValue | undefined): Energy => {
        const m = map(v, 'energy');
        const measured = optUint(m, 'measured_uj');
        return { ...(measured !== undefined ? { measured_uj: measured } : {}), estimated_uj: uint(m.get('estimated_uj'), 'estimated_uj'), provenance: provenance(m, 'provenance'), coverage: m.get('coverage') === 'Partial' ? 'Partial' : 'Whole' };
      };
      const livenessOut = (name: string, v: LivenessVerdict): CborInput => ({
        name,
        verdict: v.live ? 'live' : 'not-live',
        ...(v.reason ? { reason: v.reason } : {}),
        counted: v.counted,
        advanced: v.advanced,
        counted_ns: v.counted_ns,
      });
      const plausibilityOut = (v: PlausibilityVerdict): CborInput => Object.fromEntries(Object.entries(v).filter(([, x]) => x !== undefined)) as CborInput;
      const figureIn = (v: CborValue | undefined, k: string) => {
        const m = map(v, k);
        return { uj: uint(m.get('uj'), `${k}.uj`), provenance: provenance(m, 'provenance'), coverage: m.get('coverage') === 'Partial' ? ('Partial' as const) : ('Whole' as const) };
      };
      return {
        'energy.make': (a) => {
          const o = map(a.get('obtained'), 'obtained');
          const how = text(o, 'how');
          const obtained = (
            how === 'counter'
              ? {
                  how,
                  live: o.get('live') === 'live',
                  read_both_ends: o.get('read') === 'both-ends',
                  plausibility: o.has('plausibility') ? text(o, 'plausibility') : 'no-bound',
                  covers: o.get('covers') === 'Partial' ? 'Partial' : 'Whole',
                }
              : { how }
          ) as Obtained;
          const measured = optUint(a, 'measured_uj');
          const e = makeEnergy({
            ...(measured !== undefined ? { measured_uj: measured } : {}),
            estimated_uj: uint(a.get('estimated_uj'), 'estimated_uj'),
            provenance: provenance(a, 'provenance'),
            ...(a.get('coverage') === 'Partial' ? { coverage: 'Partial' as const } : {}),
            obtained,
          });
          return { energy: energyOut(e) };
        },
        'energy.liveness': (a) => {
          const d = judgeDomainLiveness(counters(a.get('counters'), 'counters'));
          return { verdict: d.live ? 'live' : 'not-live', not_live: [...d.not_live], counters: d.counters.map((c) => livenessOut(c.name, c.verdict)) };
        },
        'energy.rapl': (a) => {
          const f = sumRaplPackages(counters(a.get('zones'), 'zones'));
          return {
            ...(f.total_uj !== undefined ? { total_uj: f.total_uj } : {}),
            summed: f.per_package.map((p) => p.zone),
            excluded: f.excluded.map((x) => ({ zone: x.zone, reason: x.reason })),
            verdict: f.liveness.live ? 'live' : 'not-live',
            not_live: [...f.liveness.not_live],
          };
        },
        'energy.plausibility': (a) =>
          plausibilityOut(judgePlausibility({ delta_uj: uint(a.get('delta_uj'), 'delta_uj'), duration_ns: uint(a.get('duration_ns'), 'duration_ns') }, telemetry(a.get('telemetry')))),
        'energy.ladder': (a) => {
          const rungs: RungEvidence[] = list(a.get('rungs'), 'rungs').map((r, i) => {
            const m = map(r, `rungs[${i}]`);
            const rung = text(m, 'rung') as RungEvidence['rung'];
            const status = text(m, 'status');
            if (status === 'absent') return { rung, status };
            if (status === 'failed') return { rung, status, at: text(m, 'at') === 'start' ? 'start' : 'stop', error: m.has('error') ? text(m, 'error') : '' };
            return {
              rung,
              status: 'read',
              counters: counters(m.get('counters'), `rungs[${i}].counters`),
              ...(m.has('telemetry') ? { telemetry: telemetry(m.get('telemetry')) } : {}),
              ...(m.has('gaps') ? { gaps: texts(m.get('gaps'), 'gaps') } : {}),
            };
          });
          const calibrated = optUint(a, 'calibrated_uj');
          const c = meterSpan(rungs, { estimated_uj: uint(a.get('estimated_uj'), 'estimated_uj'), ...(calibrated !== undefined ? { calibrated_uj: calibrated } : {}) });
          return {
            rung: c.rung,
            energy: energyOut(c.energy),
            declined: c.declined.map((d) => ({
              rung: d.rung,
              reason: d.reason,
              ...(d.detail !== undefined ? { detail: d.detail } : {}),
              ...(d.not_live ? { not_live: [...d.not_live] } : {}),
              ...(d.plausibility ? { plausibility: plausibilityOut(d.plausibility) } : {}),
            })),
          };
        },
        'energy.task-total': (a) => ({ total_uj: taskTotalUj(energyIn(a.get('energy'))) }),
        'energy.efficiency-seal': (a) => ({ payload: efficiencyPayload(energyIn(a.get('energy')), uint(a.get('accepted_tokens'), 'accepted_tokens')) as unknown as CborInput }),
        'energy.efficiency-read': (a) => {
          const p = map(a.get('payload'), 'payload');
          const r = readEfficiencyPayload(Object.fromEntries([...p].map(([k, v]) => [String(k), typeof v === 'number' ? BigInt(v) : v])));
          return { energy_uj: r.energy_uj, provenance: r.provenance, ...(r.coverage === 'Partial' ? { coverage: 'Partial' } : {}) };
        },
        // jcp §5.2 totals: every payload read as a verifier reads it, then aggregated (floors, per-unit only when Whole)
        'energy.efficiency-totals': (a) => {
          const list = a.get('payloads');
          if (!Array.isArray(list) || list.length === 0) throw new JcpError('ERR_BAD_ARGUMENT', 'payloads must be a non-empty array of efficiency/1 payloads');
          const read = list.map((x, i) => readEfficiencyPayload(Object.fromEntries([...map(x, `payloads[${i}]`)].map(([k, v]) => [String(k), typeof v === 'number' ? BigInt(v) : v]))));
          const t = aggregateEfficiency(read, uint(a.get('units'), 'units'));
          return { energy_uj: t.energy_uj, provenance_floor: t.provenance_floor, ...(t.coverage === 'Partial' ? { coverage: 'Partial' } : {}), units: t.units, ...(t.uj_per_unit !== undefined ? { uj_per_unit: t.uj_per_unit } : {}) };
        },
        'energy.trace': (a) => {
          const acts = map(a.get('activities'), 'activities');
          const t = traceOutcome(figureIn(a.get('outcome'), 'outcome'), texts(a.get('activity_ids'), 'activity_ids'), (id) =>
            acts.has(id) ? figureIn(acts.get(id), `activities.${id}`) : undefined,
          );
          return { residual_uj: t.residual_uj, activities_uj: t.activities_uj, provenance: t.provenance, ...(t.coverage === 'Partial' ? { coverage: 'Partial' } : {}) };
        },
        'energy.conservation-floor': (a) => {
          const provs = list(a.get('provenances'), 'provenances').map((p) => {
            if (!isProvenance(p)) throw new JcpError('ERR_BAD_ARGUMENT', 'provenances must be provenance labels');
            return { provenance: p };
          });
          const f = conservationFloor(uint(a.get('budget_uj'), 'budget_uj'), provs);
          return { ppm_numerator: f.ppm_numerator, ppm_denominator: f.ppm_denominator, rests_on: f.rests_on };
        },
        'energy.physical-bound': (a) => ({
          finding: physicalBound(uint(a.get('energy_uj'), 'energy_uj'), uint(a.get('duration_ns'), 'duration_ns'), {
            floor_mw: uint(a.get('floor_mw'), 'floor_mw'),
            ceiling_mw: uint(a.get('ceiling_mw'), 'ceiling_mw'),
          }),
        }),
        'energy.proc-span': (a) => {
          const gaps = a.has('gaps') ? texts(a.get('gaps'), 'gaps') : [];
          const check = (v: CborValue | undefined, k: string) => {
            const m = map(v, k);
            return { before_nj: uint(m.get('before_nj'), `${k}.before_nj`), after_nj: uint(m.get('after_nj'), `${k}.after_nj`) };
          };
          const walkOf = (v: CborValue | undefined, k: string): Walk =>
            list(v, k).map((x, i) => {
              const m = map(x, `${k}[${i}]`);
              const exit = optUint(m, 'exit_time');
              return {
                pid: Number(uint(m.get('pid'), 'pid')),
                start_time: uint(m.get('start_time'), 'start_time'),
                parent: Number(uint(m.get('parent'), 'parent')),
                reaped_cpu_ns: uint(m.get('reaped_cpu_ns'), 'reaped_cpu_ns'),
                ...(exit !== undefined ? { exit_time: exit } : {}),
                threads: texts(m.get('threads'), 'threads') as ThreadRunState[],
                ...(m.get('child_gone') === 'gone' ? { child_gone: true } : {}),
              };
            });
          const endOf = (v: CborValue | undefined, k: string) => {
            const m = map(v, k);
            return { walk: walkOf(m.get('walk'), `${k}.walk`), ...(m.has('confirm') ? { confirm: walkOf(m.get('confirm'), `${k}.confirm`) } : {}) };
          };
          let j: ProcSpanJudgement;
          if (a.has('self')) {
            const s = map(a.get('self'), 'self');
            j = judgeSelfSpan(check(s.get('start'), 'self.start'), check(s.get('stop'), 'self.stop'), gaps);
          } else {
            const t = map(a.get('tree'), 'tree');
            j = judgeTreeSpan(endOf(t.get('start'), 'tree.start'), endOf(t.get('stop'), 'tree.stop'), t.get('declaration') === 'declared', gaps);
          }
          return { verdict: j.reading ? 'reading' : 'no-reading', ...(j.why_not ? { why_not: j.why_not } : {}), ...(j.coverage ? { coverage: j.coverage } : {}), gaps: [...j.gaps] };
        },
      };
    })(),
    'point.spent': (a) => ({ spent_uj: point(a).spent(text(a, 'grant_id')) }),
    'receipt.verify': (a) => {
      const steward = a.get('steward');
      const v = verifyReceipt(bytes(a, 'receipt'), typeof steward === 'string' ? { steward } : {});
      return { core: coreToCbor(v.core) };
    },
    // ---- jcp §2.1 rotation (C12) and §2.2 threshold actors (C13, C18) ----
    'rotation.incept': (a) =>
      keyEventOut(inceptIdentity(keyPairFromSeed(bytes(a, 'identity_seed')), bytes(a, 'next_public_key'), bytes(a, 'nonce'))),
    'rotation.rotate': (a) =>
      keyEventOut(rotateIdentity(signedKeyEventFromBytes(bytes(a, 'prior')), keyPairFromSeed(bytes(a, 'signer_seed')), bytes(a, 'next_public_key'), bytes(a, 'nonce'))),
    'rotation.verify': (a) => {
      const v = verifyKeyLog(byteList(a, 'log').map(signedKeyEventFromBytes));
      return { identity: v.identity, current: v.current, seq: v.seq, next_hash: v.next_hash, head: v.head };
    },
    'threshold.dealer': (a) => {
      const g = dealerShares(small(a, 'min'), small(a, 'max'), bytes(a, 'seed'));
      return { group_public_key: g.group_public_key, did: g.did, shares: g.shares.map((s) => ({ identifier: s.identifier, signing_share: s.signing_share })) };
    },
    'threshold.dkg': (a) => {
      const parts = dkg(small(a, 'min'), small(a, 'max'), byteList(a, 'seeds'));
      return { participants: parts.map((p) => ({ identifier: p.identifier, signing_share: p.signing_share, group_public_key: p.group_public_key })) };
    },
    'threshold.sign': (a) => {
      const signers: ThresholdShare[] = maps(a, 'signers').map((m) => ({ identifier: small(m, 'identifier'), signing_share: bytes(m, 'signing_share') }));
      if (a.has('nonce_seed') === a.has('nonce_randomness')) throw new JcpError('ERR_BAD_ARGUMENT', 'give exactly one of nonce_seed and nonce_randomness');
      const nonces = a.has('nonce_seed')
        ? bytes(a, 'nonce_seed')
        : maps(a, 'nonce_randomness').map((m) => ({ identifier: small(m, 'identifier'), hiding: bytes(m, 'hiding'), binding: bytes(m, 'binding') }));
      const group = { min: small(a, 'min'), max: small(a, 'max'), group_public_key: bytes(a, 'group_public_key') };
      const r = thresholdSign(group, signers, bytes(a, 'message'), nonces);
      return { signature: r.signature, shares: r.shares.map((s) => ({ ...s })) };
    },
    // ---- jcp §4.7 checkpoints and amendments (C21) ----
    'checkpoint.sign': (a) => {
      const spent = a.get('spent');
      const s = spent === undefined ? undefined : map(spent, 'spent');
      const sc = signCheckpoint(signedGrantFromBytes(bytes(a, 'grant')), keyPairFromSeed(bytes(a, 'agent_seed')), {
        state: text(a, 'state'),
        ...(s ? { spent: { uj: uint(s.get('uj'), 'spent.uj'), provenance: text(s, 'provenance') as never } } : {}),
        ...(a.has('prev') ? { prev: signedCheckpointFromBytes(bytes(a, 'prev')) } : {}),
        ...(a.has('via') ? { via: signedAmendmentFromBytes(bytes(a, 'via')) } : {}),
      });
      return { signed_checkpoint: encodeCanonical(signedCheckpointToCbor(sc)), checkpoint_id: checkpointId(sc.checkpoint) };
    },
    'checkpoint.amend': (a) => {
      const grant = signedGrantFromBytes(bytes(a, 'grant'));
      const sc = signedCheckpointFromBytes(bytes(a, 'checkpoint'));
      const prev = a.has('prev') ? signedCheckpointFromBytes(bytes(a, 'prev')) : undefined;
      const via = a.has('via') ? signedAmendmentFromBytes(bytes(a, 'via')) : undefined;
      const amender = keyPairFromSeed(bytes(a, 'amender_seed'));
      const f = map(a.get('amendment'), 'amendment');
      const sa = amendCheckpoint(
        grant,
        sc,
        amender,
        {
          budget_uj: uint(f.get('budget_uj'), 'amendment.budget_uj'),
          ...(f.has('actions') ? { actions: texts(f.get('actions'), 'amendment.actions') } : {}),
          ...(f.has('expiry') ? { expiry: uint(f.get('expiry'), 'amendment.expiry') } : {}),
          ...(f.has('instructions') ? { instructions: text(f, 'instructions') } : {}),
        },
        prev,
        via,
      );
      const continuation = issueContinuation(grant, sc, sa, amender, prev, via);
      return { signed_amendment: encodeCanonical(signedAmendmentToCbor(sa)), amendment_id: amendmentId(sa.amendment), continuation: minted(continuation) };
    },
    'checkpoint.verify': (a) => {
      const grant = signedGrantFromBytes(bytes(a, 'grant'));
      const sc = signedCheckpointFromBytes(bytes(a, 'checkpoint'));
      const sa = signedAmendmentFromBytes(bytes(a, 'amendment'));
      const prev = a.has('prev') ? signedCheckpointFromBytes(bytes(a, 'prev')) : undefined;
      const via = a.has('via') ? signedAmendmentFromBytes(bytes(a, 'via')) : undefined;
      const rem = a.has('continuation')
        ? verifyContinuation(grant, sc, sa, signedGrantFromBytes(bytes(a, 'continuation')), prev, via)
        : verifyAmendment(grant, sc, sa, prev, via);
      return { checkpoint_id: checkpointId(sc.checkpoint), amendment_id: amendmentId(sa.amendment), ...(rem.known ? { remainder_uj: rem.uj } : {}) };
    },
    ...channelStandingHandlers(point), // jcp §4.5 channels (C17), §4.6 standing grants (C20)
    ...replayAndContinuationHandlers(point), // jcp §8.1 replay, §8.2 group accounting, §6.1 continuations
    ...durableHandlers(options.recordIo), // jcp §4.11 durable record, one writer per record (C26)
    ...endpointHandlers(), // jcp §11 the testee's own jcp/1 endpoint, on a loopback socket (C8, C13)
    ...forwardHandlers(point), // jcp §4.10 forwarding (C25)
    ...tlogHandlers(point), // jouleclaw §22 transparency log (C-TLOG)
    ...senseHandlers(), // sense §2–§11 (sense:C1–C6)
    ...jouleclawRunHandlers(), // jouleclaw §2/§7 cascade receipts, §16 contracts + verdict receipts, §17 handoffs + run journal
    ...jcPolicyHandlers(), // jouleclaw §8 agent identity, §9 policy engine, §10 policy_digest + policy/1 receipt
    // the suite-defined profiles (spec-map/profiles.json)
    ...jcpProfileHandlers(point),
    ...energyProfileHandlers(point),
    ...documentsProfileHandlers(point),
    ...semanticProfileHandlers(point),
    ...runtimeProfileHandlers(point),
  };

  return {
    handle(op: string, args: CborMap): CborInput {
      const h = handlers[op];
      if (!h) throw new Unimplemented(`operation ${op} is not implemented`);
      return h(args);
    },
  };
}

// ---- jcp §8.1 replay (C14, C16), §8.2 group accounting (C14), §6.1 continuations ----
function receiptsArg(a: CborMap): Uint8Array[] {
  const v = arg(a, 'receipts');
  if (!Array.isArray(v)) throw new JcpError('ERR_BAD_ARGUMENT', 'receipts must be an array of byte strings');
  // a non-bytes entry reaches the verifier, which refuses it as a counted entry (never silently skipped)
  return v as Uint8Array[];
}

function relayedOut(d: RelayedDecision): Record<string, CborInput> {
  return { verdict: d.verdict, ...(d.deny_reason !== undefined ? { deny_reason: d.deny_reason } : {}), receipt: d.receipt, receipt_id: d.receipt_id };
}

/** The handlers of point.replay, accounting.group and the continuation.* ops, over the adapter's points. */
function replayAndContinuationHandlers(point: (a: CborMap) => EnforcementPoint): Record<string, (a: CborMap) => CborInput> {
  const relays = new Map<string, ContinuationRelay>();
  let nextRelay = 1;
  const relay = (a: CborMap): ContinuationRelay => {
    const id = text(a, 'relay');
    const r = relays.get(id);
    if (!r) throw new JcpError('ERR_BAD_ARGUMENT', `no continuation relay ${id}`);
    return r;
  };
  const refusals = (rs: ReadonlyArray<{ index: number; code: string }>) => rs.map((r) => ({ index: r.index, code: r.code }));
  return {
    'point.replay': (a) => {
      const r = replayInto(point(a), receiptsArg(a));
      return { verified: r.verified, allowed: r.allowed, refused: r.refused, refusals: refusals(r.refusals), spend: Object.fromEntries(r.spend) };
    },
    'accounting.group': (a) => {
      const l = aggregateReceipts(receiptsArg(a), { steward: text(a, 'steward') });
      return { rows: l.rows.map((r) => ({ ...r })), verified: l.verified, unverified: l.unverified, failures: refusals(l.failures) };
    },
    'continuation.relay': (a) => {
      const id = `r${nextRelay++}`;
      relays.set(id, createContinuationRelay({ point: point(a), steward: keyPairFromSeed(bytes(a, 'steward_seed')) }));
      return { relay: id };
    },
    'continuation.first': (a) => relayedOut(relay(a).decide(decisionRequest(a))),
    'continuation.bind': (a) => {
      relay(a).bind(text(a, 'receipt_id'), text(a, 'handle'));
      return {};
    },
    'continuation.next': (a) => {
      const r = decisionRequest(a);
      return relayedOut(
        relay(a).next({
          handle: text(a, 'handle'),
          sent_hash: text(a, 'sent_hash'),
          caller: r.caller,
          cost: r.cost,
          now_s: r.now_s,
          presented: { frame: r.frame, chain: r.chain },
          ...(r.label !== undefined ? { label: r.label } : {}),
        }),
      );
    },
    'continuation.admit': (a) => {
      const out = relay(a).admit(text(a, 'handle'), text(a, 'outcome_digest'), a.has('output_label') ? parseLabel(a.get('output_label')!, '$output_label') : undefined);
      return { frame: frameToCbor(out.frame), ...(out.label !== undefined ? { label: labelToCbor(out.label) } : {}) };
    },
    'continuation.close': (a) => {
      const between = a.has('between') ? costOf(new Map([['cost', a.get('between')!]])) : undefined;
      const c = relay(a).close(text(a, 'handle'), text(a, 'outcome_digest'), uint(a.get('now_s'), 'now_s'), between);
      return { ...relayedOut(c.decision), record: c.record };
    },
  };
}

// ---- jcp §4.10 forwarding (C25) ----
/** The handlers of forward.new / forward.send: forwarders (impl/jcp/forward.ts) named f1, f2, … in front of the adapter's points. */
function forwardHandlers(point: (a: CborMap) => EnforcementPoint): Record<string, (a: CborMap) => CborInput> {
  const forwarders = new Map<string, Forwarder>();
  let next = 1;
  const forwarder = (a: CborMap): Forwarder => {
    const f = forwarders.get(text(a, 'forwarder'));
    if (!f) throw new JcpError('ERR_BAD_ARGUMENT', `no forwarder ${text(a, 'forwarder')}`);
    return f;
  };
  const fieldsOf = (v: CborValue | undefined): ForwardField[] => {
    if (v === undefined) return [];
    if (!Array.isArray(v)) throw new JcpError('ERR_BAD_ARGUMENT', 'fields must be an array of {name, value, label?}');
    return v.map((x, i) => {
      const m = map(x, `fields[${i}]`);
      return { name: text(m, 'name'), value: arg(m, 'value'), ...(m.has('label') ? { label: parseLabel(m.get('label')!, `$fields[${i}].label`) } : {}) };
    });
  };
  return {
    'forward.new': (a) => {
      const f = createForwarder({ point: point(a), ...(a.has('omit') ? { omit: texts(a.get('omit'), 'omit') } : {}) });
      const id = `f${next++}`;
      forwarders.set(id, f);
      return { forwarder: id, omitted_fields: [...f.omittedFields] };
    },
    'forward.send': (a) => {
      const r = forwarder(a).forward({
        // the route's text members go to the point, which checks them as it checks a frame (a payload_hash is refused)
        route: Object.fromEntries(map(a.get('route'), 'route')) as unknown as Route,
        chain: chainOf(a),
        caller: text(a, 'caller'),
        cost: costOf(a),
        now_s: uint(a.get('now_s'), 'now_s'),
        ...(a.has('cost_funds') ? { cost_funds: funds(a.get('cost_funds')) } : {}),
        arguments: arg(a, 'arguments'),
        ...(a.has('arguments_label') ? { arguments_label: parseLabel(a.get('arguments_label')!, '$arguments_label') } : {}),
        fields: fieldsOf(a.get('fields')),
      });
      const d = r.decision;
      return {
        verdict: d.verdict,
        ...(d.deny_reason !== undefined ? { deny_reason: d.deny_reason } : {}),
        receipt: d.receipt,
        payload_hash: r.payload_hash,
        ...(r.forwarded !== undefined ? { forwarded: r.forwarded } : {}),
        ...(r.label !== undefined ? { label: labelToCbor(r.label) } : {}),
        omitted: [...r.omitted],
        dropped: [...r.dropped],
      };
    },
  };
}

// ---- jcp §4.11 durable record, one writer per record (C26) ----
/** The handlers of durable.open / durable.decide / durable.close: durable points (impl/durable) named d1, d2, … */
function durableHandlers(io?: RecordIo): Record<string, (a: CborMap) => CborInput> {
  const durables = new Map<string, DurablePoint>();
  let next = 1;
  const durable = (a: CborMap): DurablePoint => {
    const id = text(a, 'point');
    const p = durables.get(id);
    if (!p) throw new JcpError('ERR_BAD_ARGUMENT', `no open durable point ${id}`);
    return p;
  };
  /** A recorded decision's name as durable.decide gave it (`e` and its entry id). */
  const entryOf = (a: CborMap): number => {
    const m = /^e(0|[1-9]\d{0,9})$/.exec(text(a, 'entry'));
    if (!m) throw new JcpError('ERR_BAD_ARGUMENT', `entry ${JSON.stringify(text(a, 'entry'))} is not a decision this point recorded (e<number>)`);
    return Number(m[1]);
  };
  return {
    'durable.open': (a) => {
      const roots: Record<string, string[]> = {};
      if (a.has('trust_roots')) for (const [k, v] of map(a.get('trust_roots'), 'trust_roots')) roots[String(k)] = texts(v, `trust_roots.${String(k)}`);
      // simulate "no-exclusivity": a platform whose lock call fails as flock(2) does where it is unsupported (ENOSYS)
      const noExclusivity = a.has('simulate') ? { exclusivity: { mechanism: 'none (simulated)', claim: () => ({ ok: false as const, held: false as const, why: 'the platform cannot provide exclusivity (simulated)' }) } } : {};
      const opts = { path: text(a, 'path'), holder: text(a, 'holder'), steward: keyPairFromSeed(bytes(a, 'steward_seed')), trustRoots: roots, ...noExclusivity, ...(io ? { io } : {}) };
      let p: DurablePoint;
      try {
        p = openDurablePoint(opts);
      } catch (e) {
        // impl/durable answers every bad path with a typed code; anything else the file system throws is still an
        // answer to this request (ERR_RECORD_IO naming the path), never the end of the testee
        if (e instanceof JcpError) throw e;
        throw new JcpError('ERR_RECORD_IO', `record ${opts.path}: opening it failed: ${e instanceof Error ? e.message : String(e)}`, { path: opts.path }, { cause: e });
      }
      const id = `d${next++}`;
      durables.set(id, p);
      const torn = p.tornTail;
      return {
        point: id,
        replayed: BigInt(p.replayed),
        exclusive: p.exclusive ? 'yes' : 'no',
        ...(torn ? { torn_tail: { offset: BigInt(torn.offset), length: BigInt(torn.length), summary: torn.summary, ...(torn.requestKey ? { request_key: torn.requestKey } : {}) } } : {}),
      };
    },
    'durable.decide': (a) => {
      const d = durable(a).decide(decisionRequest(a));
      if (!d.recorded) return { verdict: d.verdict, deny_reason: d.deny_reason };
      return { verdict: d.verdict, ...(d.deny_reason !== undefined ? { deny_reason: d.deny_reason } : {}), receipt: d.receipt, entry: `e${d.entryId}` };
    },
    'durable.complete': (a) => {
      durable(a).complete(entryOf(a), text(a, 'outcome') as 'completed' | 'failed'); // impl/durable refuses any other outcome
      return {};
    },
    'durable.status': (a) => {
      const p = durable(a);
      const id = entryOf(a);
      const status = p.status(id);
      // jcp §4.11: an unresolved decision is surfaced "naming the party that held it"
      const holder = status === 'unresolved' ? p.unresolved().find((u) => u.entryId === id)?.holder : undefined;
      return { status, ...(holder !== undefined ? { holder } : {}) };
    },
    'durable.close': (a) => {
      durable(a).close();
      durables.delete(text(a, 'point'));
      return {};
    },
  };
}

// ---- jouleclaw §22 transparency log (C-TLOG) ----
import { createTransparencyLog, decideAndLog, encodeTreeHead, verifyLogConsistency, verifyLogInclusion, verifyTreeHead, type LogEntry, type TransparencyLog } from '../../impl/index.ts';

/** The tlog.* handlers: transparency logs (impl/jouleclaw/tlog.ts) named l1, l2, …, deciding through the adapter's points. */
/**
 * jcp §11: the reference's jcp/1 endpoint (impl/wire over a durable point, its record in a temp folder) on a Unix
 * socket of its own, so a stdio certification tests the wire too. The address is answered at once; the harness waits
 * until it accepts connections. endpoint.restart closes the durable point and reopens it from its record.
 */
function endpointHandlers(): Record<string, (a: CborMap) => CborInput> {
  let running: { url: string; steward: string; window_s: bigint; cap: number; restart(): void } | undefined;
  return {
    'endpoint.start': (a) => {
      if (!running) {
        const steward = keyPairFromSeed(bytes(a, 'steward_seed'));
        const dir = mkdtempSync(join(tmpdir(), 'jcp-testee-endpoint-'));
        const open = () => openDurablePoint({ path: join(dir, 'decisions.record'), steward, holder: `jcp-reference testee ${process.pid}` });
        let point = open();
        let gate = durableWireGate(point, steward);
        const server = createWireServer({
          gate: { steward: steward.did, decideOnce: (k, req, enc) => gate.decideOnce(k, req, enc), sealRefusal: (req, reason) => gate.sealRefusal(req, reason) },
        });
        const path = join(dir, 'endpoint.sock');
        process.on('exit', () => rmSync(dir, { recursive: true, force: true }));
        server.listen({ path }).catch((e: unknown) => process.stderr.write(`endpoint: ${e instanceof Error ? e.message : String(e)}\n`));
        running = {
          url: `unix:${path}`,
          steward: steward.did,
          window_s: server.window_s,
          cap: server.maxMessageBytes,
          restart: () => {
            point.close();
            point = open();
            gate = durableWireGate(point, steward);
          },
        };
      }
      return { url: running.url, steward: running.steward, window_s: running.window_s, cap_bytes: BigInt(running.cap) };
    },
    'endpoint.restart': () => {
      if (!running) throw new JcpError('ERR_BAD_ARGUMENT', 'no endpoint was started (endpoint.start)');
      running.restart();
      return {};
    },
  };
}

function tlogHandlers(point: (a: CborMap) => EnforcementPoint): Record<string, (a: CborMap) => CborInput> {
  const logs = new Map<string, TransparencyLog>();
  let next = 1;
  const log = (a: CborMap): TransparencyLog => {
    const l = logs.get(text(a, 'log'));
    if (!l) throw new JcpError('ERR_BAD_ARGUMENT', `no transparency log ${text(a, 'log')}`);
    return l;
  };
  /** A size or index of an in-memory log, as a number. */
  const count = (a: CborMap, k: string): number => {
    const n = uint(a.get(k), k);
    if (n > BigInt(Number.MAX_SAFE_INTEGER)) throw new JcpError('ERR_BAD_ARGUMENT', `${k} is beyond any log this testee holds`);
    return Number(n);
  };
  const entryOut = (e: LogEntry): CborInput => ({ index: BigInt(e.index), head: e.headBytes, proof: [...e.proof] });
  return {
    'tlog.new': (a) => {
      const l = createTransparencyLog({ sealer: keyPairFromSeed(bytes(a, 'steward_seed')), ...(a.has('capacity') ? { capacity: count(a, 'capacity') } : {}) });
      const id = `l${next++}`;
      logs.set(id, l);
      return { log: id };
    },
    'tlog.append': (a) => entryOut(log(a).append(bytes(a, 'receipt'), uint(a.get('now_s'), 'now_s'))),
    'tlog.decide': (a) => {
      const d = decideAndLog(point(a), log(a), decisionRequest(a));
      if (!d.recorded) return { verdict: d.verdict, deny_reason: d.deny_reason };
      return { verdict: d.verdict, ...(d.deny_reason !== undefined ? { deny_reason: d.deny_reason } : {}), receipt: d.receipt, entry: entryOut(d.entry) };
    },
    'tlog.head': (a) => ({ head: encodeTreeHead(log(a).head(uint(a.get('now_s'), 'now_s'))) }),
    'tlog.inclusion': (a) => ({ proof: log(a).inclusionProof(count(a, 'index'), count(a, 'size')) }),
    'tlog.consistency': (a) => ({ proof: log(a).consistencyProof(count(a, 'size1'), count(a, 'size2')) }),
    'tlog.verify-head': (a) => {
      const h = verifyTreeHead(bytes(a, 'head'), text(a, 'steward'));
      return { size: h.size, root: h.root, timestamp: h.timestamp };
    },
    'tlog.verify-inclusion': (a) => {
      verifyLogInclusion(bytes(a, 'head'), text(a, 'steward'), bytes(a, 'receipt'), uint(a.get('index'), 'index'), byteList(a, 'proof'));
      return {};
    },
    'tlog.verify-consistency': (a) => {
      verifyLogConsistency(bytes(a, 'head1'), bytes(a, 'head2'), text(a, 'steward'), byteList(a, 'proof'));
      return {};
    },
  };
}

// ---- sense §2–§11 (sense:C1–C6): the sense.* handlers over impl/sense ----
import * as sense from '../../impl/sense/index.ts';

/** The suite's reading of what the reference's fallback (its stand-in for a frontier model) reports: an Estimator figure. */
const SENSE_FALLBACK_ESTIMATE_UJ = 1_000_000n;

/** A sense event from its wire map (payload as raw bytes; the event carries its Cid). */
function senseEvent(v: CborValue | undefined, k: string): sense.Event {
  const m = map(v, k);
  const payload = m.get('payload');
  if (!(payload instanceof Uint8Array)) throw new JcpError('ERR_SENSE_EVENT_MALFORMED', `${k}.payload must be a byte string`);
  return sense.makeEvent({
    hlc: sense.makeHlc(m.get('physical_ns'), m.get('logical')),
    source: m.get('source') as string,
    trust: m.get('trust') as string,
    payload: sense.payloadCid(payload),
    line: m.get('line') as string,
    ...(m.has('valid_time_ns') ? { valid_time_ns: m.get('valid_time_ns') as bigint } : {}),
  });
}
function senseEvents(a: CborMap): sense.Event[] {
  const v = arg(a, 'events');
  if (!Array.isArray(v)) throw new JcpError('ERR_BAD_ARGUMENT', 'events must be an array');
  return v.map((e, i) => senseEvent(e, `events[${i}]`));
}
function senseHlc(v: CborValue | undefined, k: string): sense.Hlc {
  const m = map(v, k);
  return sense.makeHlc(m.get('physical_ns'), m.get('logical'));
}
/** A log fed `events` in the order given. */
function senseLog(events: readonly sense.Event[]): sense.EventLog {
  const log = sense.createEventLog();
  for (const e of events) log.append(e);
  return log;
}
function senseUints(a: CborMap, k: string): bigint[] {
  const v = arg(a, k);
  if (!Array.isArray(v)) throw new JcpError('ERR_BAD_ARGUMENT', `${k} must be an array of unsigned integers`);
  return v.map((x, i) => uint(x, `${k}[${i}]`));
}
function senseHighlight(v: CborValue | undefined, k: string, index: number): sense.Highlight {
  const m = map(v, k);
  return { probe: m.get('probe') as sense.Probe, index, score: uint(m.get('score'), `${k}.score`) };
}

/** The sense.* handlers (stateless: every op carries the log or stream it is about). */
function senseHandlers(): Record<string, (a: CborMap) => CborInput> {
  return {
    'sense.event-id': (a) => {
      const e = senseEvent(a.get('event'), 'event');
      return { event_id: sense.eventId(e), payload: e.payload };
    },
    'sense.replay': (a) => {
      const since = a.has('since') ? senseHlc(a.get('since'), 'since') : sense.HLC_ZERO;
      const replayed = senseLog(senseEvents(a)).eventsSince(since);
      return { event_ids: replayed.map(sense.eventId), replay_digest: sense.replayDigest(replayed) };
    },
    'sense.clock': (a) => {
      const clock = sense.createHlcClock(a.has('seed') ? senseHlc(a.get('seed'), 'seed') : sense.HLC_ZERO);
      return { stamps: senseUints(a, 'anchors').map((n) => ({ ...clock.tick(n) })) };
    },
    'sense.project': (a) => {
      const v = arg(a, 'events');
      if (!Array.isArray(v)) throw new JcpError('ERR_BAD_ARGUMENT', 'events must be an array');
      const evs = v.map((x, i) => {
        const m = map(x, `events[${i}]`);
        return { source: sense.sourceClass(m.get('source')), trust: sense.trustLevel(m.get('trust')) };
      });
      return { projections: sense.project(evs).map((p) => ({ ...p })) };
    },
    'sense.detect': (a) => ({
      highlights: sense.detect(text(a, 'probe') as sense.Probe, senseUints(a, 'scores')).map((h) => ({ index: h.index, score: h.score })),
    }),
    'sense.gate': (a) => {
      const hv = arg(a, 'highlights');
      if (!Array.isArray(hv)) throw new JcpError('ERR_BAD_ARGUMENT', 'highlights must be an array');
      const u = map(a.get('user'), 'user');
      const user = {
        engagement_ppm: uint(u.get('engagement_ppm'), 'user.engagement_ppm'),
        active_modality: text(u, 'active_modality'),
        surface_modality: text(u, 'surface_modality'),
      };
      const ds = sense.gateAll(hv.map((h, i) => senseHighlight(h, `highlights[${i}]`, i)), user, uint(a.get('budget_uj'), 'budget_uj'), uint(a.get('price_uj'), 'price_uj'));
      return { decisions: ds.map((d) => ({ value: d.value, cost: d.cost, outcome: d.outcome, charged_uj: d.charged_uj, budget_uj: d.budget_uj })) };
    },
    'sense.ask': (a) => {
      const log = senseLog(senseEvents(a));
      const k = uint(a.get('k'), 'k');
      if (k > 1024n) throw new JcpError('ERR_BAD_ARGUMENT', `k must be at most 1024 envelope slots, got ${k}`);
      const r = sense.ask(log.eventsSince(sense.HLC_ZERO), text(a, 'query'), Number(k), (env) => ({
        answer: `fallback answer over envelope ${sense.envelopeId(env)}`,
        energy: makeEnergy({ estimated_uj: SENSE_FALLBACK_ESTIMATE_UJ, provenance: 'Estimator', obtained: { how: 'constant' } }),
      }));
      const e = r.energy;
      return {
        tier: r.tier,
        model_calls: r.model_calls,
        answer: r.answer,
        spans: r.spans.map(sense.eventId),
        envelope_id: r.envelope_id,
        energy: { ...(e.measured_uj !== undefined ? { measured_uj: e.measured_uj } : {}), estimated_uj: e.estimated_uj, provenance: e.provenance },
      };
    },
    'sense.seal': (a) => {
      const log = sense.createSurfacingLog(keyPairFromSeed(bytes(a, 'host_seed')));
      for (const [i, d] of maps(a, 'decisions').entries()) {
        // the wire map's fields as given: the log's own parse checks each one (ERR_SENSE_LINK_MALFORMED)
        const f = Object.fromEntries([...d].filter(([k]) => typeof k === 'string')) as Record<string, unknown>;
        const hl = map(f['highlight'] as CborValue, `decisions[${i}].highlight`);
        log.seal({ ...f, highlight: { probe: hl.get('probe'), score: hl.get('score') } } as unknown as sense.LinkFields);
      }
      const links = log.links();
      return { links: links.map(sense.signedLinkBytes), link_ids: links.map((l) => sense.linkId(l.core)) };
    },
    'sense.verify-chain': (a) => {
      const v = sense.verifyChain(byteList(a, 'links'), text(a, 'host'));
      return { n: v.n, ...(v.break ? { break: { index: v.break.index, reason: v.break.reason } } : {}) };
    },
    'sense.inject': (a) => {
      const d = map(a.get('delivery'), 'delivery');
      const out = sense.injectObservation({
        link: sense.parseSignedLink(bytes(a, 'link')),
        recipient: text(a, 'recipient'),
        position: uint(a.get('position'), 'position'),
        destination: text(a, 'destination') as sense.Destination,
        run_state: text(a, 'run_state') as sense.RunState,
        ...(a.has('wake_authority') ? { wake_authority: signedGrantFromBytes(bytes(a, 'wake_authority')) } : {}),
        delivery: { uj: uint(d.get('uj'), 'delivery.uj'), provenance: text(d, 'provenance') as never, ...(d.has('coverage') ? { coverage: d.get('coverage') as 'Partial' } : {}) },
      });
      return { frame: out.bytes, frame_id: out.frame_id };
    },
    'sense.agent-kinds': () => ({ kinds: [...sense.AGENT_AUTHORABLE_KINDS] }),
    'sense.agent-author': (a) => {
      sense.assertAgentMayAuthor(text(a, 'kind'));
      return {};
    },
  };
}

// ---- jouleclaw §2/§7 cascade receipts, §16 contracts and verdict receipts, §17 handoffs and the run journal ----
import * as jc from '../../impl/index.ts';

/** The jc.* handlers: JSON crosses as text (it holds booleans); runs are named j1, j2, … and live as long as the adapter. */
function jouleclawRunHandlers(): Record<string, (a: CborMap) => CborInput> {
  const runs = new Map<string, jc.Run>();
  let next = 1;
  const named = (r: jc.Run): string => {
    const id = `j${next++}`;
    runs.set(id, r);
    return id;
  };
  const run = (a: CborMap): jc.Run => {
    const r = runs.get(text(a, 'run'));
    if (!r) throw new JcpError('ERR_BAD_ARGUMENT', `no run ${text(a, 'run')}`);
    return r;
  };
  const optText = (a: CborMap, k: string): string | undefined => (a.has(k) ? text(a, k) : undefined);
  const handoffIn = (v: CborValue | undefined): jc.HandoffInput => {
    const m = map(v, 'handoff');
    const list = (k: string): string[] | undefined => (m.has(k) ? texts(m.get(k), `handoff.${k}`) : undefined);
    const cmds = m.get('commands');
    if (cmds !== undefined && !Array.isArray(cmds)) throw new JcpError('ERR_BAD_ARGUMENT', 'handoff.commands must be an array');
    const int = (x: CborValue | undefined): bigint => {
      if (typeof x === 'number' || typeof x === 'bigint') return BigInt(x);
      throw new JcpError('ERR_HANDOFF_MALFORMED', 'exit_code must be an integer');
    };
    return {
      worker: text(m, 'worker'),
      ...(m.has('node_id') ? { node_id: text(m, 'node_id') } : {}),
      ...(m.has('feature_id') ? { feature_id: text(m, 'feature_id') } : {}),
      closed_at: uint(m.get('closed_at'), 'handoff.closed_at'),
      ...(list('completed') ? { completed: list('completed')! } : {}),
      ...(list('undone') ? { undone: list('undone')! } : {}),
      ...(list('issues_found') ? { issues_found: list('issues_found')! } : {}),
      ...(list('procedures_followed') ? { procedures_followed: list('procedures_followed')! } : {}),
      ...(cmds !== undefined
        ? { commands: cmds.map((c, i) => ({ argv: texts(map(c, `handoff.commands[${i}]`).get('argv'), `handoff.commands[${i}].argv`), exit_code: int((c as CborMap).get('exit_code')) })) }
        : {}),
    };
  };
  return {
    'jc.receipt.build': (a) => ({ receipt_json: JSON.stringify(jc.cascadeReceiptJson(jc.buildCascadeReceipt(text(a, 'walk_json')))) }),
    'jc.receipt.check': (a) => ({ receipt_json: JSON.stringify(jc.cascadeReceiptJson(jc.parseCascadeReceipt(text(a, 'receipt_json')))) }),
    'jc.receipt.open': (a) => {
      const o = jc.openJcReceipt(bytes(a, 'receipt'));
      return { kind: o.kind, jc_receipt: o.jc_receipt, ...(o.core !== undefined ? { core_json: JSON.stringify(o.core) } : {}) };
    },
    'jc.contract.check': (a) => ({ contract_hash: jc.parseContract(text(a, 'contract_json')).hash }),
    'jc.contract.verify': (a) => ({ verdict_json: jc.verdictJson(jc.verifyContract(text(a, 'contract_json'), text(a, 'evidence_json'))) }),
    'jc.verdict.seal': (a) => {
      const seq = uint(a.get('audit_sequence'), 'audit_sequence');
      if (seq > BigInt(Number.MAX_SAFE_INTEGER)) throw new JcpError('ERR_BAD_ARGUMENT', 'audit_sequence is too large');
      const fields = { id: text(a, 'id'), closed_at: text(a, 'closed_at'), engine_id: text(a, 'engine_id'), audit_sequence: Number(seq) };
      return { receipt: jc.sealVerdictReceipt(fields, keyPairFromSeed(bytes(a, 'steward_seed')), text(a, 'verdict_json'), optText(a, 'contract_json')) };
    },
    'jc.verdict.open': (a) => ({ wire_json: JSON.stringify(jc.openVerdictReceipt(bytes(a, 'receipt'), optText(a, 'contract_json')).wire) }),
    'jc.run.start': (a) => {
      const nodesV = arg(a, 'nodes');
      if (!Array.isArray(nodesV)) throw new JcpError('ERR_BAD_ARGUMENT', 'nodes must be an array');
      const nodes = nodesV.map((n, i) => {
        const m = map(n, `nodes[${i}]`);
        const replay = optText(m, 'replay');
        if (replay !== undefined && replay !== 'safe' && replay !== 'never') throw new JcpError('ERR_BAD_ARGUMENT', `nodes[${i}].replay must be safe or never`);
        return { node_id: text(m, 'node_id'), ...(replay !== undefined ? { replay: replay as jc.Replay } : {}) };
      });
      return { run: named(jc.startRun(text(a, 'run_id'), nodes)) };
    },
    'jc.run.open': (a) => {
      const r = jc.openRun(byteList(a, 'entries'));
      return { run: named(r), in_flight: [...r.view().in_flight], handoffs: r.handoffs().map(jc.handoffToCbor) };
    },
    'jc.run.dispatch': (a) => {
      run(a).dispatch(text(a, 'node_id'));
      return {};
    },
    'jc.run.complete': (a) => {
      run(a).complete(text(a, 'node_id'), uint(a.get('energy_uj'), 'energy_uj'));
      return {};
    },
    'jc.run.recover': (a) => {
      const observed = new Map<string, bigint>();
      if (a.has('observed_uj')) for (const [k, v] of map(a.get('observed_uj'), 'observed_uj')) observed.set(String(k), uint(v, `observed_uj.${String(k)}`));
      return { interrupted: run(a).recover(observed) };
    },
    'jc.run.approve': (a) => {
      run(a).approveRerun(text(a, 'node_id'), text(a, 'approved_by'));
      return {};
    },
    'jc.run.fail': (a) => {
      run(a).fail(text(a, 'reason'));
      return {};
    },
    'jc.run.handoff': (a) => ({ handoff: jc.handoffToCbor(run(a).recordHandoff(handoffIn(a.get('handoff')))) }),
    'jc.run.state': (a) => {
      const r = run(a);
      const v = r.view();
      return { ready: [...v.ready], in_flight: [...v.in_flight], held: [...v.held], completed: [...v.completed], status: v.failed ? 'failed' : 'running', entries: r.entries() };
    },
  };
}

// ---- jouleclaw §8 agent identity, §9 policy engine, §10 policy_digest and policy/1 receipt ----
import {
  actionToPlain,
  checkAgentIdentity,
  createPolicyEngine,
  decisionToPlain,
  parsePolicy,
  parsePolicyAction,
  policyDigest,
  policyReceiptFieldsFromEvent,
  sealPolicyReceipt,
  verifyAgentSignature,
  verifyPolicyReceipt,
  type PolicyAction,
  type PolicyAuditEvent,
  type PolicyDecision,
  type PolicyReceiptCore,
} from '../../impl/index.ts';

/** A CBOR value as the plain (JSON-shaped) value impl/jouleclaw/policy.ts reads: maps as objects, integers kept. */
function jcPlain(v: CborValue | undefined): unknown {
  if (v instanceof Map) return Object.fromEntries([...v].map(([k, x]) => [String(k), jcPlain(x)]));
  if (Array.isArray(v)) return v.map(jcPlain);
  return v;
}

function jcEventOut(e: PolicyAuditEvent): CborInput {
  return { sequence: e.sequence, policy_version: e.policy_version, policy_digest: e.policy_digest, agent: e.agent, action: actionToPlain(e.action) as CborInput, decision: decisionToPlain(e.decision) };
}

function jcCoreOut(c: PolicyReceiptCore): CborInput {
  return {
    jc_receipt: c.jc_receipt,
    steward: c.steward,
    id: c.id,
    closed_at: c.closed_at,
    engine_id: c.engine_id,
    audit_sequence: c.audit_sequence,
    policy_version: c.policy_version,
    policy_digest: c.policy_digest,
    agent: c.agent,
    action: actionToPlain(c.action) as CborInput,
    decision: decisionToPlain(c.decision),
  };
}

/** The jc.policy-* and jc.agent-check handlers over impl/jouleclaw/{identity,policy,policy-digest,policy-receipt}.ts. */
function jcPolicyHandlers(): Record<string, (a: CborMap) => CborInput> {
  return {
    'jc.policy-digest': (a) => ({ digest: policyDigest(parsePolicy(jcPlain(arg(a, 'policy')))) }),
    'jc.policy-evaluate': (a) => {
      const engine = createPolicyEngine({ engine_id: text(a, 'engine_id'), ...(a.has('policy') ? { policy: parsePolicy(jcPlain(a.get('policy'))) } : {}) });
      const steps = arg(a, 'steps');
      if (!Array.isArray(steps)) throw new JcpError('ERR_BAD_ARGUMENT', 'steps must be an array');
      // the audit event of each evaluate step, by step index, for the seal steps after it
      const decided = new Map<number, PolicyAuditEvent>();
      const results = steps.map((sv, i): CborInput => {
        const s = map(sv, `steps[${i}]`);
        if (s.size !== 1) throw new JcpError('ERR_BAD_ARGUMENT', `steps[${i}] must hold exactly one of evaluate, install, seal`);
        if (s.has('evaluate')) {
          const e = map(s.get('evaluate'), `steps[${i}].evaluate`);
          const ev = engine.evaluate(text(e, 'agent'), parsePolicyAction(jcPlain(e.get('action'))));
          decided.set(i, ev);
          return { event: jcEventOut(ev) };
        }
        if (s.has('install')) {
          try {
            engine.installPolicy(parsePolicy(jcPlain(s.get('install'))));
            return { installed: engine.policyVersion() };
          } catch (e) {
            if (e instanceof JcpError) return { refused: e.code };
            throw e;
          }
        }
        if (s.has('seal')) {
          const q = map(s.get('seal'), `steps[${i}].seal`);
          const step = uint(q.get('step'), 'seal.step');
          const ev = step < BigInt(i) ? decided.get(Number(step)) : undefined;
          if (!ev) throw new JcpError('ERR_BAD_ARGUMENT', `steps[${i}].seal: step ${step} is not an earlier evaluate step`);
          const opts = { id: text(q, 'id'), closed_at: text(q, 'closed_at'), bind: text(q, 'bind') === 'digest' };
          return { receipt: sealPolicyReceipt(policyReceiptFieldsFromEvent(engine.engine_id, ev, opts), keyPairFromSeed(bytes(a, 'steward_seed'))) };
        }
        throw new JcpError('ERR_BAD_ARGUMENT', `steps[${i}] must hold exactly one of evaluate, install, seal`);
      });
      return { results, audit: engine.audit().map(jcEventOut) };
    },
    'jc.policy-receipt': (a) => {
      const fields = {
        id: text(a, 'id'),
        closed_at: text(a, 'closed_at'),
        engine_id: text(a, 'engine_id'),
        audit_sequence: uint(a.get('audit_sequence'), 'audit_sequence'),
        policy_version: uint(a.get('policy_version'), 'policy_version'),
        ...(a.has('policy_digest') ? { policy_digest: text(a, 'policy_digest') } : {}),
        agent: text(a, 'agent'),
        action: jcPlain(arg(a, 'action')) as PolicyAction,
        decision: jcPlain(arg(a, 'decision')) as PolicyDecision,
      };
      return { receipt: sealPolicyReceipt(fields, keyPairFromSeed(bytes(a, 'steward_seed'))) };
    },
    'jc.verify-policy-receipt': (a) => {
      const v = verifyPolicyReceipt(bytes(a, 'receipt'), { ...(a.has('steward') ? { steward: text(a, 'steward') } : {}), requireDigest: a.get('binding') === 'required' });
      return { core: jcCoreOut(v.core) };
    },
    'jc.agent-check': (a) => {
      const identity = { handle: text(a, 'handle'), public_key: bytes(a, 'public_key') };
      if (a.has('message') !== a.has('signature')) throw new JcpError('ERR_BAD_ARGUMENT', 'give both message and signature, or neither');
      if (!a.has('message')) {
        checkAgentIdentity(identity);
        return { verdict: 'valid' };
      }
      return { verdict: verifyAgentSignature(identity, bytes(a, 'message'), bytes(a, 'signature')) ? 'valid' : 'invalid' };
    },
  };
}
