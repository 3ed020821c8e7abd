// Clause mutants: the builders of the mutant testees mutation/testees/variant-main.ts serves, by id.
// Each builder wraps the reference adapter with exactly one fault (./clause-faults.ts, ./judge.ts). The catalog
// (mutation/catalog.ts) says which clause each breaks; harness/self/kill-matrix.test.ts checks the two agree.
import type { Adapter } from '../../harness/adapter/respond.ts';
import { decodeCanonical, decodeSign1, JcpError, isJcpError, type CborInput, type CborMap, type CborValue, type NarrowingAxis } from '../../impl/index.ts';
import {
  attenuationFaults,
  cborAccepts,
  decisionFaults,
  didMulticodecUnchecked,
  emptyCaveatsWritten,
  override,
  resealReceipts,
  sha256Ids,
  shardOverspend,
  urlResourceAccepted,
  type DecisionFaults,
} from './clause-faults.ts';
import type { JudgeFault } from './judge.ts';
import { MUTANT_PATCHES } from './patches.ts';
import { PROCESS_MUTANTS } from './process-faults.ts';
import { stewardKid } from '../../impl/index.ts';

/** The rule breakers and program faults variant-main.ts handles itself (kept as they were). */
export const LEGACY_VARIANTS = ['debit-on-deny', 'drop-inherited-caveat', 'accept-non-canonical', 'no-payload-hash'] as const;

const judge = (...faults: JudgeFault[]): ((b: Adapter) => Adapter) => (b) => decisionFaults(b, { judge: new Set(faults), unchecked: new Set() });
const decision = (f: Partial<DecisionFaults>): ((b: Adapter) => Adapter) => (b) => decisionFaults(b, { judge: new Set(), unchecked: new Set(), ...f });
/** A narrowing axis left unchecked everywhere it is checked: at attenuation and hop by hop in a chain. */
const axis = (a: NarrowingAxis): ((b: Adapter) => Adapter) => (b) =>
  attenuationFaults(decisionFaults(b, { judge: new Set(), unchecked: new Set([a]) }), { unchecked: new Set([a]) });

const coreOf = (receipt: Uint8Array): Map<CborValue, CborValue> => decodeCanonical(decodeSign1(receipt).payload) as Map<CborValue, CborValue>;

/** The clause mutants, by id. */
export const MUTANT_BUILDERS: Readonly<Record<string, (base: Adapter) => Adapter>> = {
  // the control: every decision through the copy in ./judge.ts, no fault — must SURVIVE (the mechanism is faithful)
  'control-decide-copy': decision({ always: true }),

  // C1 identity, encoding, grants, the single-grant checks
  'did-multicodec-unchecked': didMulticodecUnchecked,
  'ed25519-verify-accepts-any': (b) => override(b, { 'ed25519.verify': () => ({ verdict: 'valid' }) }),
  'grant-verify-accepts-any': (b) => override(b, { 'grant.verify': (op, a) => ({ ...(b.handle(op, a) as Record<string, CborInput>), verdict: 'valid' }) }),
  'content-id-sha256': sha256Ids,
  'absent-caveats-written-empty': emptyCaveatsWritten,
  'url-resource-accepted': urlResourceAccepted,
  'cbor-accept-unsorted-keys': (b) => cborAccepts(b, ['ERR_CBOR_UNSORTED_KEYS']),
  'cbor-accept-non-shortest': (b) => cborAccepts(b, ['ERR_CBOR_NOT_SHORTEST']),
  'cbor-accept-float-simple': (b) => cborAccepts(b, ['ERR_CBOR_FLOAT', 'ERR_CBOR_SIMPLE_VALUE']),
  'grant-id-unchecked': judge('grant-id-unchecked'),
  'resource-unchecked': judge('resource-unchecked'),
  'action-unchecked': judge('action-unchecked'),
  'signature-unchecked': judge('signature-unchecked'),

  // C2 attenuation
  'attenuate-widened-budget': axis('budget'),
  'attenuate-added-action': axis('actions'),
  'attenuate-other-resource': axis('resource'),
  'attenuate-outliving-expiry': axis('expiry'),
  'attenuate-non-holder': (b) => attenuationFaults(b, { holderUnchecked: true }),

  // C3 budget and debit
  'no-debit-on-allow': decision({ always: true, debit: 'none' }),
  'budget-ignores-prior': judge('budget-ignores-prior'),
  'budget-exact-fit-denied': judge('budget-exact-fit-denied'),
  'expiry-wall-clock': judge('expiry-wall-clock'),

  // C4 data frames
  'data-frame-allowed': judge('data-frame-allowed'),

  // C5 receipts
  'deny-unsealed': (b) => override(b, { 'point.decide': (op, a) => {
    const out = b.handle(op, a) as Record<string, CborInput>;
    return out['verdict'] === 'deny' ? { ...out, receipt: new Uint8Array(0) } : out;
  } }),
  'receipt-untagged': (b) => override(b, { 'point.decide': (op, a) => {
    const out = b.handle(op, a) as Record<string, CborInput>;
    const r = out['receipt'] as Uint8Array;
    return { ...out, receipt: r[0] === 0xd2 ? r.slice(1) : r };
  } }),
  'receipt-kid-issuer': (b) => resealReceipts(b, () => {}, (_k, core) => stewardKid(String(core.get('issuer')))),
  'coverage-whole-written': (b) => resealReceipts(b, (core) => {
    if (!core.has('energy_coverage')) core.set('energy_coverage', 'Whole');
  }),
  'verify-ignores-steward': (b) => override(b, { 'receipt.verify': (op, a) => {
    const loose = new Map(a) as CborMap;
    loose.delete('steward');
    return b.handle(op, loose);
  } }),

  // C6 revocation
  'revocation-any-revoker': decision({ always: true, acceptRevocation: new Set(['not-issuer']) }),
  'revocation-unsigned-accepted': decision({ always: true, acceptRevocation: new Set(['signature']) }),
  'revocation-ancestor-ignored': judge('revocation-leaf-only'),
  'revocation-direct-ignored': judge('revocation-unchecked-direct'),
  'revocation-chained-ignored': judge('revocation-unchecked-chained'),

  // C7 chains and caveats
  'chain-parent-link-unchecked': judge('structure-parent-unchecked'),
  'chain-hop-issuer-unchecked': judge('structure-issuer-unchecked'),
  'chain-signatures-unchecked': judge('chain-signatures-unchecked'),
  'amplifying-chain-denied-chain-broken': judge('amplifying-denied-chain-broken'),
  'delegated-alone-accepted': judge('delegated-alone-accepted'),
  'caveats-leaf-only': judge('caveats-leaf-only'),
  'caveats-first-only': judge('caveats-first-only'),
  'budget-leaf-only': judge('budget-leaf-only'),
  'debit-leaf-only': decision({ always: true, debit: 'leaf-only' }),
  'chain-drops-caveat-accepted': axis('caveats'),
  'chained-expiry-before-revocation': judge('chained-expiry-before-revocation'),
  'chained-expiry-leaf-only': judge('chained-expiry-leaf-only'),

  // C10 delegation depth
  'depth-not-narrowed': axis('depth'),
  'leaf-only-delegable': (b) => attenuationFaults(judge('structure-leaf-only-unchecked')(b), { leafOnlyUnchecked: true }),

  // C11 shards
  'shard-overspend-accepted': shardOverspend,

  // C15 trust roots
  'untrusted-root-allowed': judge('roots-unchecked'),
  'unconfigured-resource-closed': judge('roots-closed-when-unconfigured'),
  'trust-root-leaf-issuer': judge('roots-leaf-issuer'),

  // C23 receipt profiles
  'receipt-jcp1-refused': (b) => override(b, { 'receipt.verify': (op, a) => {
    let tag: CborValue | undefined;
    try {
      tag = coreOf(a.get('receipt') as Uint8Array).get('jcp_receipt');
    } catch {
      tag = undefined;
    }
    if (tag === 'jcp/1') throw new JcpError('ERR_RECEIPT_PROFILE_UNKNOWN', 'this verifier reads jcp/2 only');
    return b.handle(op, a);
  } }),
  'receipt-unknown-profile-accepted': (b) => override(b, { 'receipt.verify': (op, a) => {
    try {
      return b.handle(op, a);
    } catch (e) {
      if (!isJcpError(e, 'ERR_RECEIPT_PROFILE_UNKNOWN')) throw e;
      return { core: coreOf(a.get('receipt') as Uint8Array) as CborInput };
    }
  } }),
  'mint-jcp1': (b) => resealReceipts(b, (core) => {
    core.set('jcp_receipt', 'jcp/1');
    core.delete('payload_hash');
    core.delete('energy_coverage');
  }),

  // C-neg
  'expired-at-boundary-accepted': judge('expiry-boundary-open'),
  'subject-unchecked': judge('subject-unchecked'),
  'expired-before-signature': judge('expired-before-signature'),
  'subject-after-resource': judge('subject-after-resource'),

  // C22 money ceilings: the funds axis of the narrowing checks off (attenuation and hop by hop)
  'attenuate-money-amplified': axis('funds'),
  // C19 injection: the C4 fault, filed under C19's clauses (the injection corpus is its own suite)
  'injection-data-steers': judge('data-frame-allowed'),
  // C18 DKG: participant 1 answered with participant 2's share, so no two-share signature verifies under the group key
  'dkg-share-swapped': (b) => override(b, { 'threshold.dkg': (op, a) => {
    const out = b.handle(op, a) as { participants: Array<Record<string, CborInput>> };
    const ps = out.participants.map((x) => ({ ...x }));
    if (ps.length >= 2) ps[0] = { ...ps[0]!, signing_share: ps[1]!['signing_share']! };
    return { participants: ps };
  } }),

  // C16 (claim pending)
  'no-chain-ids': (b) => resealReceipts(b, (core) => {
    core.delete('chain_ids');
  }),
};

/** Every clause-mutant id: those variant-main.ts serves, and the source patches served in process only. */
export function knownMutantIds(): string[] {
  return [...LEGACY_VARIANTS, ...Object.keys(MUTANT_BUILDERS), ...Object.keys(MUTANT_PATCHES), ...Object.keys(PROCESS_MUTANTS)];
}
