// The catalog of clause mutants: hand-written semantic mutants of the reference, each breaking ONE
// rule of the jcp spec, kept outside impl/. Each is served as a testee by mutation/testees/variant-main.ts <id> (built
// in mutation/testees/registry.ts); `npm run mutation:matrix` (mutation/matrix.ts) runs the conformance suite against
// each and requires every one to be killed. Clause ids are those of spec-map/clauses/*.json (jcp, jouleclaw, sense).
// harness/self/kill-matrix.test.ts checks this catalog's integrity (clauses exist, every MUST-level clause of the
// claimed classes has a mutant or a listed reason, every id is known to variant-main).

import { suiteProfiles } from '../spec-map/index.ts';
import { JCP_PROFILE_MUTANTS, JCP_PROFILE_UNBROKEN } from './profiles/jcp.ts';
import { ENERGY_PROFILE_MUTANTS, ENERGY_PROFILE_UNBROKEN } from './profiles/energy.ts';
import { DOCUMENTS_PROFILE_MUTANTS, DOCUMENTS_PROFILE_UNBROKEN } from './profiles/documents.ts';
import { SEMANTIC_PROFILE_MUTANTS, SEMANTIC_PROFILE_UNBROKEN } from './profiles/semantic.ts';
import { RUNTIME_PROFILE_MUTANTS, RUNTIME_PROFILE_UNBROKEN } from './profiles/runtime.ts';
import { ACCOUNTING_PROFILE_MUTANTS, ACCOUNTING_PROFILE_UNBROKEN } from './profiles/accounting.ts';
import { CONTRACTS_PROFILE_MUTANTS, CONTRACTS_PROFILE_UNBROKEN } from './profiles/contracts.ts';
import { RECORDS_PROFILE_MUTANTS, RECORDS_PROFILE_UNBROKEN } from './profiles/records.ts';
import { LOG_ANSWER_PROFILE_MUTANTS, LOG_ANSWER_PROFILE_UNBROKEN } from './profiles/log-and-answer.ts';
import { READINGS_PROFILE_MUTANTS, READINGS_PROFILE_UNBROKEN } from './profiles/readings.ts';
import { P } from './profiles/applied.ts';

/** One clause mutant. */
export interface Mutant {
  readonly id: string;
  /** The clause ids whose rule the mutant breaks (spec-map/clauses/*.json). */
  readonly clauses: readonly string[];
  /** The class the mutant is filed under in the matrix: one of its clauses' classes, or {@link NO_CLASS} when they have none. */
  readonly class: string;
  readonly description: string;
  /** How the fault is applied (which op handler is overridden, or which impl function is re-implemented). */
  readonly applied: string;
}

/** The matrix row of mutants whose clauses belong to no class the spec defines nor any profile of this suite (none now: spec-map/profiles.json holds them). */
export const NO_CLASS = 'jcp:(no class)';

/** A MUST-level clause with no mutant, and why. */
export interface Unbroken {
  readonly clause: string;
  readonly reason: string;
}

const J = 'point.decide judged by mutation/testees/judge.ts (a copy of impl/jcp/decide.ts judge) with';
const A = 'impl/jcp/attenuate.ts narrowingFault re-implemented (mutation/testees/judge.ts) with';

/** The control: the decision copy with no fault. It must pass every test (the matrix fails if it is killed). */
export const CONTROL: Mutant = {
  id: 'control-decide-copy',
  clauses: [],
  class: 'control',
  description: 'every decision judged and sealed by the mutants\' copy of the decision, with no fault: must survive',
  applied: `${J} no switch set, for every request (not only those a fault changes)`,
};

export const MUTANTS: readonly Mutant[] = [
  // ---- C1 ----
  { id: 'did-multicodec-unchecked', clauses: ['jcp/2#actor-is-ed25519-did-key'], class: 'jcp:C1', description: 'a did:key with any multicodec (e.g. X25519 0xec01) is parsed as an Ed25519 key', applied: 'identity.parse-did answers the last 32 bytes where the reference refuses with fault multicodec' },
  { id: 'ed25519-verify-accepts-any', clauses: ['jcp/2#actor-proves-by-signing'], class: 'jcp:C1', description: 'any Ed25519 signature verifies', applied: 'ed25519.verify always answers valid' },
  { id: 'grant-verify-accepts-any', clauses: ['jcp/4#grant-id-and-signature', 'jcp/2#actor-proves-by-signing'], class: 'jcp:C1', description: "a grant verifies whatever its issuer's signature", applied: 'grant.verify always answers valid' },
  { id: 'content-id-sha256', clauses: ['jcp/3#content-id-blake3', 'jcp/4#grant-id-and-signature'], class: 'jcp:C1', description: 'grant ids are SHA-256 of the canonical bytes instead of BLAKE3', applied: 'grant.mint/attenuate/shard/verify answer grant_id = sha256 hex' },
  { id: 'absent-caveats-written-empty', clauses: ['jcp/4#absent-optional-omitted'], class: 'jcp:C1', description: 'an absent caveat list is encoded (and signed) as an empty array instead of omitted', applied: 'grant.mint re-encodes and re-signs the grant with caveats: []' },
  { id: 'url-resource-accepted', clauses: ['jcp/4#resource-by-content'], class: 'jcp:C1', description: 'a URL resource is accepted, addressed by the hash of its text', applied: 'grant.mint replaces a non-content-id resource by blake3(utf8(url)) instead of refusing' },
  { id: 'accept-non-canonical', clauses: ['jcp/11#reject-non-canonical', 'jcp/3#canonical-det-cbor'], class: 'jcp:C-neg', description: 'cbor.check accepts any well-formed CBOR, canonical or not', applied: 'variant-main.ts (kept): cbor.check decodes leniently with cborg' },
  { id: 'cbor-accept-unsorted-keys', clauses: ['jcp/3#key-order-length-first', 'jcp/3#canonical-det-cbor'], class: 'jcp:C1', description: 'map keys out of length-first order are accepted', applied: 'cbor.check answers the input where the reference refuses ERR_CBOR_UNSORTED_KEYS' },
  { id: 'cbor-accept-non-shortest', clauses: ['jcp/3#shortest-integer-form'], class: 'jcp:C1', description: 'integers and lengths not in shortest form are accepted', applied: 'cbor.check answers the input where the reference refuses ERR_CBOR_NOT_SHORTEST' },
  { id: 'cbor-accept-float-simple', clauses: ['jcp/3#no-float-bool-null'], class: 'jcp:C-neg', description: 'floats, booleans and null are accepted', applied: 'cbor.check answers the input where the reference refuses ERR_CBOR_FLOAT / ERR_CBOR_SIMPLE_VALUE' },
  { id: 'grant-id-unchecked', clauses: ['jcp/7#grant-id-mismatch'], class: 'jcp:C1', description: "a frame naming another grant's id is not denied", applied: `${J} the frame grant_id comparison skipped` },
  { id: 'resource-unchecked', clauses: ['jcp/7#wrong-resource'], class: 'jcp:C1', description: "a frame for another resource than the capability's is not denied", applied: `${J} the capability resource comparison skipped` },
  { id: 'action-unchecked', clauses: ['jcp/7#action-not-granted'], class: 'jcp:C1', description: 'an action outside the capability is allowed', applied: `${J} the action check skipped` },
  { id: 'signature-unchecked', clauses: ['jcp/7#bad-signature'], class: 'jcp:C1', description: "a single grant whose issuer signature does not verify is allowed", applied: `${J} the single-grant signature check skipped` },
  // ---- C2 ----
  { id: 'attenuate-widened-budget', clauses: ['jcp/4.1#refuse-amplification', 'jcp/4.1#child-strictly-weaker'], class: 'jcp:C2', description: 'a child with a larger budget than its parent is minted and honoured', applied: `${A} the budget axis off, at grant.attenuate and hop by hop in point.decide` },
  { id: 'attenuate-added-action', clauses: ['jcp/4.1#refuse-amplification', 'jcp/4.1#child-strictly-weaker'], class: 'jcp:C2', description: 'a child granting an action its parent does not is minted and honoured', applied: `${A} the actions axis off` },
  { id: 'attenuate-other-resource', clauses: ['jcp/4.1#refuse-amplification', 'jcp/4.1#child-strictly-weaker'], class: 'jcp:C2', description: 'a chain whose child names another resource is honoured', applied: `${A} the resource axis off` },
  { id: 'attenuate-outliving-expiry', clauses: ['jcp/4.1#expiry-not-outlive'], class: 'jcp:C2', description: "a child outliving its parent's expiry is minted and honoured", applied: `${A} the expiry axis off` },
  { id: 'attenuate-non-holder', clauses: ['jcp/4.1#refuse-non-holder'], class: 'jcp:C2', description: "anyone may attenuate a grant, not only its subject (skip the holder check)", applied: 'grant.attenuate re-implemented (mutation/testees/clause-faults.ts) without the holder check' },
  // ---- C3 ----
  { id: 'debit-on-deny', clauses: ['jcp/7#debit-on-allow', 'jcp/5#debit-coupling'], class: 'jcp:C3', description: 'a denied call still debits its cost', applied: 'variant-main.ts (kept): point.spent adds the cost of denied decisions' },
  { id: 'no-debit-on-allow', clauses: ['jcp/7#debit-on-allow', 'jcp/5#debit-coupling'], class: 'jcp:C3', description: 'an allowed call debits nothing', applied: `${J} no fault, for every request, the allow debit left out` },
  { id: 'budget-ignores-prior', clauses: ['jcp/7#budget-exceeded'], class: 'jcp:C3', description: 'the budget test compares the cost alone, not prior spend + cost', applied: `${J} prior spend read as 0` },
  { id: 'budget-exact-fit-denied', clauses: ['jcp/7#budget-exceeded'], class: 'jcp:C3', description: 'prior + cost == budget is denied (>= instead of >)', applied: `${J} the budget comparison made >=` },
  { id: 'expiry-wall-clock', clauses: ['jcp/7#decision-deterministic', 'jcp/7#expired'], class: 'jcp:C3', description: "the decision reads the wall clock instead of the request's now_s (not a pure function of its inputs)", applied: `${J} expiry compared with Date.now()` },
  // ---- C4 ----
  { id: 'data-frame-allowed', clauses: ['jcp/6#data-frame-refused', 'jcp/7#untrusted-control'], class: 'jcp:C4', description: 'a data-tagged frame may exercise a capability', applied: `${J} the trust check skipped` },
  // ---- C5 ----
  { id: 'deny-unsealed', clauses: ['jcp/8#every-decision-sealed'], class: 'jcp:C5', description: 'a denial is answered without a sealed receipt', applied: 'point.decide answers an empty receipt on deny' },
  { id: 'receipt-untagged', clauses: ['jcp/8#cose-sign1-eddsa'], class: 'jcp:C5', description: 'receipts are sealed as untagged COSE_Sign1 (no tag 18)', applied: 'point.decide strips the leading tag byte 0xd2 of the receipt' },
  { id: 'receipt-kid-issuer', clauses: ['jcp/8#steward-is-kid'], class: 'jcp:C5', description: "the COSE kid names the grant's issuer, not the steward that signed", applied: 'point.decide re-signs the receipt core with kid = utf8(issuer did)' },
  { id: 'verify-ignores-steward', clauses: ['jcp/8#steward-is-kid'], class: 'jcp:C5', description: 'a receipt sealed by another steward than the expected one verifies (accept a wrong steward)', applied: 'receipt.verify drops the expected steward argument' },
  { id: 'coverage-whole-written', clauses: ['jcp/8#coverage-only-when-partial'], class: 'jcp:C5', description: 'energy_coverage is written as "Whole" instead of omitted', applied: 'point.decide re-signs the receipt core with energy_coverage: Whole added' },
  // ---- C6 ----
  { id: 'revocation-any-revoker', clauses: ['jcp/4.3#verify-revocation-authority', 'jcp/4.3#revoked-by-equals-issuer'], class: 'jcp:C6', description: "a revocation signed by someone other than the grant's issuer is honoured", applied: `point.revoke accepts fault not-issuer; ${J} no fault, for every request, over the accepted revocations` },
  { id: 'revocation-unsigned-accepted', clauses: ['jcp/4.3#verify-revocation-authority'], class: 'jcp:C6', description: "a revocation whose signature does not verify is honoured", applied: `point.revoke accepts fault signature; ${J} no fault, for every request, over the accepted revocations` },
  { id: 'revocation-ancestor-ignored', clauses: ['jcp/4.3#subtree-dies'], class: 'jcp:C6', description: "revocation of an ancestor is ignored: only the leaf's revocation is checked", applied: `${J} revocation checked for the leaf only` },
  { id: 'revocation-direct-ignored', clauses: ['jcp/4.3#both-decision-paths', 'jcp/7#revoked'], class: 'jcp:C6', description: 'the single-grant path ignores revocation', applied: `${J} revocation unchecked on the direct path` },
  { id: 'revocation-chained-ignored', clauses: ['jcp/4.3#both-decision-paths', 'jcp/7#revoked'], class: 'jcp:C6', description: 'the chained path ignores revocation', applied: `${J} revocation unchecked on the chained path` },
  // ---- C7 ----
  { id: 'chain-parent-link-unchecked', clauses: ['jcp/4.2#verify-hop-by-hop', 'jcp/4.2#broken-or-amplifying-denied'], class: 'jcp:C7', description: "a hop whose parent is not the previous grant's id is accepted", applied: `${J} the parent-link comparison of structuralFault skipped` },
  { id: 'chain-hop-issuer-unchecked', clauses: ['jcp/4.2#verify-hop-by-hop', 'jcp/4.2#broken-or-amplifying-denied'], class: 'jcp:C7', description: "skip the issuer check on attenuation: a hop not issued by the previous grant's subject is accepted", applied: `${J} the hop-issuer comparison of structuralFault skipped` },
  { id: 'chain-signatures-unchecked', clauses: ['jcp/4.2#verify-hop-by-hop'], class: 'jcp:C7', description: "links' signatures are not verified on the chained path", applied: `${J} the chained signature loop skipped` },
  { id: 'amplifying-chain-denied-chain-broken', clauses: ['jcp/4.2#broken-or-amplifying-denied'], class: 'jcp:C7', description: 'an amplifying chain is denied chain-broken instead of attenuation-violation', applied: `${J} the narrowing failure reported as chain-broken` },
  { id: 'delegated-alone-accepted', clauses: ['jcp/4.2#delegated-alone-chain-broken'], class: 'jcp:C7', description: 'a delegated grant decided on its own (no chain) is accepted', applied: `${J} the root-has-no-parent check skipped for a single grant` },
  { id: 'caveats-first-only', clauses: ['jcp/4.9#caveats-all-hold'], class: 'jcp:C7', description: 'only the first caveat of each grant must hold', applied: `${J} the first caveat of each link only` },
  { id: 'budget-leaf-only', clauses: ['jcp/4.2#sibling-conservation'], class: 'jcp:C7', description: "only the leaf's budget is tested on a chain", applied: `${J} the budget test on the leaf only` },
  { id: 'debit-leaf-only', clauses: ['jcp/4.2#sibling-conservation'], class: 'jcp:C7', description: 'an allowed chain debits only its leaf, not every link', applied: `${J} no fault, for every request, debiting the leaf only` },
  { id: 'drop-inherited-caveat', clauses: ['jcp/4.9#child-carries-parent-caveats', 'jcp/4.9#drop-caveat-refused'], class: 'jcp:C7', description: "attenuation drops the parent's caveats", applied: 'variant-main.ts (kept): grant.attenuate re-signs the child without inherited caveats' },
  { id: 'chain-drops-caveat-accepted', clauses: ['jcp/4.9#drop-caveat-refused', 'jcp/4.9#child-carries-parent-caveats'], class: 'jcp:C7', description: "a child that drops its parent's caveat is minted and honoured in a chain", applied: `${A} the caveats axis off` },
  { id: 'chained-expiry-before-revocation', clauses: ['jcp/7#chained-order'], class: 'jcp:C7', description: 'deny-reason order swapped on the chained path: expiry before revocation and trust root', applied: `${J} the chained expiry loop moved before the revocation check` },
  // ---- C10 ----
  { id: 'depth-not-narrowed', clauses: ['jcp/4.4#depth-narrows'], class: 'jcp:C10', description: "a child may carry a delegate_depth above its parent's − 1", applied: `${A} the depth axis off` },
  { id: 'leaf-only-delegable', clauses: ['jcp/4.4#leaf-only-refused'], class: 'jcp:C10', description: 'a leaf-only (delegate_depth 0) grant may be delegated', applied: 'grant.attenuate re-implemented without the leaf-only check; point.decide judged without the structural leaf-only check' },
  // ---- C11 ----
  { id: 'shard-overspend-accepted', clauses: ['jcp/4.5#shard-refuse-overspend', 'jcp/4.5#holder-must-shard'], class: 'jcp:C11', description: 'shard slices summing past the parent are minted', applied: 'grant.shard re-implemented without the sum check' },
  // ---- C15 ----
  { id: 'untrusted-root-allowed', clauses: ['jcp/7#untrusted-root', 'jcp/7#unlisted-root-denied'], class: 'jcp:C15', description: 'an unlisted root issuer is allowed on a configured resource', applied: `${J} the trust-root check skipped` },
  { id: 'unconfigured-resource-closed', clauses: ['jcp/7#unconfigured-resource-open'], class: 'jcp:C15', description: 'a resource with no configured roots is closed instead of open', applied: `${J} an unconfigured resource denied untrusted-root` },
  { id: 'trust-root-leaf-issuer', clauses: ['jcp/7#unlisted-root-denied', 'jcp/7#untrusted-root'], class: 'jcp:C15', description: "the leaf's issuer is compared with the trust roots instead of the chain's root issuer", applied: `${J} the leaf issuer taken as the anchor` },
  // ---- C23 ----
  { id: 'no-payload-hash', clauses: ['jcp/8#payload-hash-included'], class: 'jcp:C23', description: 'drop payload_hash from the signed preimage: receipts are sealed without it', applied: 'variant-main.ts (kept): point.decide re-signs the core without payload_hash' },
  { id: 'receipt-jcp1-refused', clauses: ['jcp/8#recompute-under-profile'], class: 'jcp:C23', description: 'a jcp/1 receipt is refused (the verifier assumes jcp/2)', applied: 'receipt.verify refuses ERR_RECEIPT_PROFILE_UNKNOWN when the core says jcp/1' },
  { id: 'receipt-unknown-profile-accepted', clauses: ['jcp/8#refuse-unknown-profile'], class: 'jcp:C23', description: 'a receipt with an unknown profile tag is accepted', applied: 'receipt.verify answers the decoded core where the reference refuses ERR_RECEIPT_PROFILE_UNKNOWN' },
  { id: 'mint-jcp1', clauses: ['jcp/8#never-mint-jcp1'], class: 'jcp:C23', description: 'decisions are sealed as jcp/1 receipts', applied: 'point.decide re-signs the core as jcp/1 (payload_hash, energy_coverage dropped)' },
  // ---- C-neg ----
  { id: 'expired-at-boundary-accepted', clauses: ['jcp/7#expired'], class: 'jcp:C-neg', description: 'accept expired: a grant is live at now == expiry', applied: `${J} expired only when now > expiry` },
  { id: 'subject-unchecked', clauses: ['jcp/7#wrong-subject'], class: 'jcp:C-neg', description: "a caller other than the grant's subject is allowed", applied: `${J} the subject check skipped` },
  { id: 'expired-before-signature', clauses: ['jcp/7#checks-in-order'], class: 'jcp:C-neg', description: 'deny-reason order swapped: expired checked before bad-signature', applied: `${J} the two single-grant checks swapped` },
  { id: 'frame-model-type-unchecked', clauses: ['jcp/6#typed-frame'], class: 'jcp:C-neg', description: "a frame whose model is not a content id is read as a frame without one instead of refused", applied: `${P('impl/jcp/codec.ts')} parseFrame skips a model that is a number` },
  { id: 'subject-after-resource', clauses: ['jcp/7#checks-in-order'], class: 'jcp:C-neg', description: 'deny-reason order swapped: wrong-subject checked after wrong-resource', applied: `${J} the subject check moved after the capability resource check` },
  // ---- C16 (claim pending: the matrix runs it with JCP_EXTRA_CLAIMS) ----
  { id: 'no-chain-ids', clauses: ['jcp/8.1#chain-ids'], class: 'jcp:C16', description: 'a multi-hop receipt is sealed without chain_ids', applied: 'point.decide re-signs the core without chain_ids' },

  // ==== source-patch mutants (mutation/testees/patches.ts): a one-place change to a copy of an impl/ module, served in process ====
  // ---- C12 ----
  { id: 'rotation-seq-gap-accepted', clauses: ['jcp/2.1#reject-broken-event-log'], class: 'jcp:C12', description: 'a key event log with a sequence gap verifies', applied: `${P('impl/identity/rotation.ts')} the seq check of verifyKeyLog skipped` },
  { id: 'rotation-parent-unchecked', clauses: ['jcp/2.1#reject-broken-event-log'], class: 'jcp:C12', description: "a rotation event whose parent is not the previous event's id verifies", applied: `${P('impl/identity/rotation.ts')} the parent-link check skipped` },
  { id: 'rotation-signature-unchecked', clauses: ['jcp/2.1#reject-broken-event-log'], class: 'jcp:C12', description: 'a key event with a bad signature verifies', applied: `${P('impl/identity/rotation.ts')} the event signature check skipped` },
  { id: 'rotation-not-precommitted', clauses: ['jcp/2.1#rotation-key-precommitted', 'jcp/9#c12-rotation'], class: 'jcp:C12', description: 'an un-pre-committed key can rotate an identity', applied: `${P('impl/identity/rotation.ts')} the next_hash check skipped in rotateIdentity and verifyKeyLog` },
  { id: 'inception-current-unchecked', clauses: ['jcp/2.1#inception-current-is-identity'], class: 'jcp:C12', description: "an inception whose current key is not the identity verifies", applied: `${P('impl/identity/rotation.ts')} the inception current == identity check skipped` },
  // ---- C13 ----
  { id: 'threshold-too-few-signers', clauses: ['jcp/9#c13-threshold'], class: 'jcp:C13', description: 'one share of a 2-of-3 actor is let into the signing round (the too-few-signers refusal skipped)', applied: `${P('impl/identity/threshold.ts')} the signers.length < min check skipped` },
  // ---- C21 ----
  { id: 'amendment-self-steer', clauses: ['jcp/4.7#amender-differs-from-agent'], class: 'jcp:C21', description: 'an agent may amend its own run', applied: `${P('impl/jcp/checkpoint.ts')} the amender == subject check skipped` },
  { id: 'amendment-any-issuer', clauses: ['jcp/9#c21-checkpoints'], class: 'jcp:C21', description: "a non-issuer may amend", applied: `${P('impl/jcp/checkpoint.ts')} the amender == issuer check skipped` },
  { id: 'amendment-widens-budget', clauses: ['jcp/4.7#amendment-only-tightens'], class: 'jcp:C21', description: "an amendment may raise the budget above the grant's", applied: `${P('impl/jcp/checkpoint.ts')} the budget widening check skipped` },
  { id: 'amendment-above-remainder', clauses: ['jcp/4.7#amendment-within-remainder', 'jcp/4.7#both-sides-enforce-remainder'], class: 'jcp:C21', description: 'an amendment may set a budget above the remainder at a checkpoint that stated its spend', applied: `${P('impl/jcp/checkpoint.ts')} the remainder check skipped (both sides)` },
  { id: 'amendment-verifier-lax', clauses: ['jcp/4.7#both-sides-enforce-remainder'], class: 'jcp:C21', description: 'the verifying side does not re-apply the amendment rules (only the amending side does)', applied: `${P('impl/jcp/checkpoint.ts')} verifyAmendment ignores _amendmentFault` },
  { id: 'absent-spend-read-zero', clauses: ['jcp/4.7#absent-spend-not-zero'], class: 'jcp:C21', description: 'a checkpoint with no stated spend is read as zero spend (remainder = the whole budget)', applied: `${P('impl/jcp/checkpoint.ts')} remainderAt answers the full budget for an absent spend` },
  { id: 'checkpoint-spend-decreases', clauses: ['jcp/4.7#declared-spend-not-decrease'], class: 'jcp:C21', description: 'a declared spend may decrease across a run', applied: `${P('impl/jcp/checkpoint.ts')} the decreasing-spend check skipped` },
  { id: 'checkpoint-spend-omitted', clauses: ['jcp/4.7#declared-spend-not-omitted'], class: 'jcp:C21', description: 'a checkpoint may omit a spend its predecessor stated', applied: `${P('impl/jcp/checkpoint.ts')} the omitted-spend check skipped` },
  { id: 'amendment-wrong-checkpoint', clauses: ['jcp/9#c21-checkpoints'], class: 'jcp:C21', description: 'an amendment bound to another checkpoint is accepted', applied: `${P('impl/jcp/checkpoint.ts')} the amendment.checkpoint binding check skipped` },
  // ---- C17 ----
  { id: 'statement-forged-accepted', clauses: ['jcp/4.5#statement-verified-and-counted', 'jcp/9#c17-channels'], class: 'jcp:C17', description: "a peer statement whose signature does not verify is applied", applied: `${P('impl/jcp/channel.ts')} the statement signature check skipped` },
  { id: 'statement-stale-accepted', clauses: ['jcp/4.5#statement-verified-and-counted', 'jcp/9#c17-channels'], class: 'jcp:C17', description: 'a statement whose seq does not increase is applied', applied: `${P('impl/jcp/channel.ts')} the seq check skipped` },
  { id: 'statement-regressing-accepted', clauses: ['jcp/4.5#statement-verified-and-counted', 'jcp/9#c17-channels'], class: 'jcp:C17', description: 'a statement whose spent_uj decreases is applied', applied: `${P('impl/jcp/channel.ts')} the regressing-spend check skipped` },
  { id: 'channel-settled-not-counted', clauses: ['jcp/4.5#statement-verified-and-counted'], class: 'jcp:C17', description: "peers' settled spend is not counted against the shared budget", applied: `${P('impl/jcp/channel.ts')} spend() compares local + cost only` },
  // ---- C20 ----
  { id: 'policy-amplifies-budget', clauses: ['jcp/4.6#policy-not-amplify'], class: 'jcp:C20', description: "a mint policy whose per-firing budget exceeds the grant's is authored", applied: `${P('impl/jcp/standing.ts')} the per_firing_uj > budget_uj check skipped` },
  { id: 'policy-any-issuer', clauses: ['jcp/9#c20-standing'], class: 'jcp:C20', description: "a mint policy not signed by the grant's issuer is honoured", applied: `${P('impl/jcp/standing.ts')} the policy issuer check skipped` },
  { id: 'firing-wrong-event-class', clauses: ['jcp/9#c20-standing'], class: 'jcp:C20', description: 'a firing of the wrong event class mints', applied: `${P('impl/jcp/standing.ts')} the event-class check skipped` },
  { id: 'firings-not-exhausted', clauses: ['jcp/9#c20-standing'], class: 'jcp:C20', description: 'a policy may fire past max_firings', applied: `${P('impl/jcp/standing.ts')} the firing count check skipped` },
  { id: 'firing-over-budget', clauses: ['jcp/9#c20-standing'], class: 'jcp:C20', description: 'firings may exceed the cumulative budget', applied: `${P('impl/jcp/standing.ts')} the cumulative budget check skipped` },
  // ---- C8 (the wire endpoint: suite-scoped patches) ----
  { id: 'wire-stale-accepted', clauses: ['jcp/11#stale-request-denied'], class: 'jcp:C8', description: 'accept a stale request: a request stamped outside the freshness window is decided', applied: `${P('impl/wire/server.ts')} the freshness check skipped (suite scope)` },
  { id: 'wire-caller-signature-unchecked', clauses: ['jcp/11#verify-caller-signature'], class: 'jcp:C8', description: "the endpoint decides a request whose caller signature does not verify", applied: `${P('impl/wire/server.ts')} verifyWireSignature skipped (suite scope)` },
  { id: 'wire-repeat-redecided', clauses: ['jcp/11#remember-decided-requests', 'jcp/11#repeat-gets-same-response', 'jcp/11#repeat-not-redecided', 'jcp/9#c8-wire'], class: 'jcp:C8', description: 'a request presented again is decided and debited again', applied: `${P('impl/durable/point.ts')} decideOnce's remembered-response lookup skipped (suite scope: the wire driver's endpoint sits on the durable gate)` },
  { id: 'wire-decides-at-named-time', clauses: ['jcp/11#decide-at-own-clock', 'jcp/11#not-decided-at-named-time'], class: 'jcp:C8', description: "the endpoint decides as of the time the request names, not its own clock", applied: `${P('impl/wire/server.ts')} now_s taken from the request (suite scope)` },
  // from AWAITING_TESTS: wire.test.ts's rejection() read its own silence timeout as a close (its message says "closed"); fixed
  { id: 'wire-reply-non-canonical', clauses: ['jcp/9#c8-round-trip'], class: 'jcp:C8', description: "the endpoint's reply body carries a trailing byte: not the one canonical form of its value", applied: `${P('impl/wire/server.ts')} a zero byte appended to each decided reply before framing (suite scope)` },
  { id: 'wire-oversize-accepted', clauses: ['jcp/11#reject-oversize'], class: 'jcp:C8', description: 'a message declaring more than the cap is read', applied: `${P('impl/wire/server.ts')} the server reads and decodes with no cap while declaring one (suite scope)` },
  { id: 'replay-at-current-time', clauses: ['jcp/11#replay-before-new'], class: 'jcp:C8', description: 'on restart the recorded requests are replayed at the current time, not the time each was decided', applied: `${P('impl/durable/point.ts')} the replay decides each recorded request as of the system clock (suite scope: the wire's durable gate too)` },
  { id: 'wire-debit-on-deny', clauses: ['jcp/7#debit-on-allow', 'jcp/5#debit-coupling'], class: 'jcp:C3', description: 'the endpoint debits the cost of a call it denies', applied: `${P('impl/jcp/enforcement-point.ts')} decide debits whatever the verdict (suite scope: the wire's endpoint too)` },
  { id: 'wire-window-narrowed', clauses: ['jcp/11#stale-request-denied'], class: 'jcp:C8', description: 'the endpoint decides by a window 10 s narrower than the one it declares: a request just inside the declared window is denied stale', applied: `${P('impl/wire/server.ts')} the freshness check compares with window − 10 s (suite scope)` },
  { id: 'wire-window-widened', clauses: ['jcp/11#stale-request-denied'], class: 'jcp:C8', description: 'the endpoint decides by a window 10 s wider than the one it declares: a request just past the declared window is decided', applied: `${P('impl/wire/server.ts')} the freshness check compares with window + 10 s (suite scope)` },
  { id: 'wire-cap-edge-refused', clauses: ['jcp/11#reject-oversize'], class: 'jcp:C8', description: 'the endpoint refuses a message of exactly its declared cap (its real cap is one byte less)', applied: `${P('impl/wire/server.ts')} the frame reader capped at cap − 1 (suite scope)` },
  { id: 'continuation-unknown-handle-served', clauses: ['jcp/6.1#unknown-handle-refused', 'jcp/6.1#client-text-checked'], class: 'jcp:C8', description: 'a later exchange naming an unknown handle is decided against the chain it presents instead of refused', applied: `${P('impl/jcp/continuation.ts')} next() decides an unknown handle's exchange` },
  { id: 'continuation-not-chained', clauses: ['jcp/6.1#continuation-receipt-chain'], class: 'jcp:C8', description: "a continuation's payload does not commit to the receipt it continues", applied: `${P('impl/jcp/continuation.ts')} continues: dropped from the payload` },
  { id: 'continuation-not-metered', clauses: ['jcp/6.1#continuation-metered'], class: 'jcp:C8', description: "later exchanges are left out of the work's metered sum", applied: `${P('impl/jcp/continuation.ts')} metered_uj not advanced` },
  { id: 'outcome-admitted-as-control', clauses: ['jcp/6.1#outcome-admitted-as-data'], class: 'jcp:C8', description: 'what comes back is admitted as control', applied: `${P('impl/jcp/continuation.ts')} admit() frames the outcome trust control` },
  { id: 'closing-sum-whole', clauses: ['jcp/6.1#closing-sum-partial'], class: 'jcp:C8', description: 'the closing record is not marked Partial when the meter did not read between exchanges', applied: `${P('impl/jcp/continuation.ts')} partial computed without the between === undefined term` },
  // ---- C9 ----
  { id: 'hwshunt-unmeasured-accepted', clauses: ['jcp/5#hwshunt-measured-required'], class: 'jcp:C9', description: 'a HwShunt figure without measured_uj is made', applied: `${P('impl/energy/energy.ts')} the check skipped` },
  { id: 'estimator-measured-accepted', clauses: ['jcp/5#estimator-measured-absent'], class: 'jcp:C9', description: 'an Estimator figure with measured_uj is made', applied: `${P('impl/energy/energy.ts')} the check skipped` },
  { id: 'provenance-overclaim-accepted', clauses: ['jcp/5.1#provenance-not-overclaimed'], class: 'jcp:C9', description: 'a figure may claim better provenance than it earned', applied: `${P('impl/energy/energy.ts')} the provenance rank check skipped` },
  { id: 'counter-not-live-graded', clauses: ['jcp/5#not-live-no-hw-grade'], class: 'jcp:C9', description: 'a counter that is not live earns a hardware grade', applied: `${P('impl/energy/energy.ts')} counterInadmissible ignores liveness` },
  { id: 'counter-half-read-graded', clauses: ['jcp/5.1#provenance-not-overclaimed', 'jcp/9#c9-energy-honesty'], class: 'jcp:C9', description: 'a backend that failed mid-reading still earns a hardware grade', applied: `${P('impl/energy/energy.ts')} counterInadmissible ignores read_both_ends` },
  { id: 'coverage-overclaim-accepted', clauses: ['jcp/5#coverage-not-overclaimed'], class: 'jcp:C9', description: 'a figure may claim Whole coverage over a counter that reads part of the domain', applied: `${P('impl/energy/energy.ts')} the coverage check skipped` },
  { id: 'rate-over-limit-accepted', clauses: ['jcp/5#rate-over-bound-no-hw-grade', 'jcp/5#rate-checked-against-bound'], class: 'jcp:C9', description: "a counter whose rate exceeds the static limit is not refuted", applied: `${P('impl/energy/plausibility.ts')} the limit check skipped` },
  { id: 'rate-under-draw-accepted', clauses: ['jcp/5#rate-under-draw-no-hw-grade'], class: 'jcp:C9', description: 'a counter far below the board draw is not refuted', applied: `${P('impl/energy/plausibility.ts')} the under-rate check skipped` },
  { id: 'rate-over-draw-accepted', clauses: ['jcp/5#rate-over-bound-no-hw-grade'], class: 'jcp:C9', description: 'a counter far above the board draw is not refuted', applied: `${P('impl/energy/plausibility.ts')} the over-rate (draw) check skipped` },
  { id: 'lumpy-counter-live', clauses: ['jcp/5#not-live-no-hw-grade'], class: 'jcp:C9', description: 'a counter republished in lumps is judged live', applied: `${P('impl/energy/liveness.ts')} the republished-in-lumps verdict skipped` },
  // from AWAITING_TESTS, their tests landed (energy.test.ts 'recorded reason is frozen', 'RAPL exclusions, each with why')
  { id: 'frozen-counter-live', clauses: ['jcp/5#observe-counter-advance', 'jcp/5#not-live-no-hw-grade'], class: 'jcp:C9', description: 'a frozen counter is judged live', applied: `${P('impl/energy/liveness.ts')} the frozen verdict skipped` },
  { id: 'psys-summed', clauses: ['jcp/5#every-summed-counter-live'], class: 'jcp:C9', description: 'sum psys with packages', applied: `${P('impl/energy/liveness.ts')} psys not excluded from the package sum` },
  // ---- C25 ----
  { id: 'unlabelled-read-clean', clauses: ['jcp/4.10#not-computed-not-clean', 'jcp/4.10#ceiling-not-on-unlabelled'], class: 'jcp:C25', description: 'an unlabelled argument is read as clean under a flow ceiling', applied: `${P('impl/jcp/decide.ts')} flowFault answers no fault for an absent label` },
  { id: 'flow-ceiling-unchecked', clauses: ['jcp/9#c25-flow'], class: 'jcp:C25', description: "a label above the grant's flow ceiling passes", applied: `${P('impl/jcp/decide.ts')} the labelLeq check skipped` },
  // ---- C24 ----
  { id: 'cost-caveat-at-authorize', clauses: ['jcp/4.9#cost-caveat-at-debit', 'jcp/4.9#no-implied-cost-caveat-pass'], class: 'jcp:C24', description: 'a cost-dependent caveat is evaluated at authorization (against the estimate), not held for the debit point', applied: `${P('impl/jcp/decide.ts')} the authorize-phase deferral skipped` },
  { id: 'settle-breach-not-debited', clauses: ['jcp/4.9#breach-still-debited'], class: 'jcp:C24', description: 'a breach found at the debit point debits nothing', applied: `${P('impl/jcp/enforcement-point.ts')} settle debits on allow only` },
  { id: 'caveat-maxcost-unchecked', clauses: ['jcp/4.9#support-caveat-variants'], class: 'jcp:C24', description: 'MaxCostUj always holds', applied: `${P('impl/jcp/decide.ts')} caveatHolds answers true for MaxCostUj` },
  { id: 'caveat-model-unchecked', clauses: ['jcp/4.9#support-caveat-variants'], class: 'jcp:C24', description: 'ModelIn always holds', applied: `${P('impl/jcp/decide.ts')} caveatHolds answers true for ModelIn` },
  { id: 'caveat-notafter-unchecked', clauses: ['jcp/4.9#support-caveat-variants'], class: 'jcp:C24', description: 'NotAfter always holds', applied: `${P('impl/jcp/decide.ts')} caveatHolds answers true for NotAfter` },
  // ---- C22 ----
  { id: 'money-currency-unchecked', clauses: ['jcp/4.8#no-exchange-rate'], class: 'jcp:C22', description: 'a price in another currency is counted against the ceiling as if the same', applied: `${P('impl/jcp/decide.ts')} the currency-mismatch check skipped` },
  { id: 'money-ceiling-unchecked', clauses: ['jcp/4.8#priced-decision-both-ceilings', 'jcp/9#c22-dual-ceilings'], class: 'jcp:C22', description: 'a priced decision is not held to the money ceiling', applied: `${P('impl/jcp/decide.ts')} the funds-exceeded check skipped` },
  // from AWAITING_TESTS, its test landed (money.test.ts 'denied at the debit point (settle) moves no money')
  { id: 'money-debited-on-deny', clauses: ['jcp/9#c22-dual-ceilings'], class: 'jcp:C22', description: 'money is debited on a deny found at the debit point', applied: `${P('impl/jcp/enforcement-point.ts')} settle debits money whatever the verdict` },
  // ---- C14 / C16 ----
  { id: 'failed-receipts-skipped', clauses: ['jcp/8.2#count-failed-receipts'], class: 'jcp:C14', description: 'an aggregator silently skips receipts that fail verification', applied: `${P('impl/receipt/accounting.ts')} failures not recorded` },
  { id: 'replay-leaf-only', clauses: ['jcp/9#c16-chained-replay', 'jcp/8.1#rebuild-by-replay'], class: 'jcp:C16', description: "replay restores only the leaf's spend of a chained receipt", applied: `${P('impl/receipt/replay.ts')} only the last debited id replayed` },
  { id: 'replay-counts-denied', clauses: ['jcp/8.1#rebuild-by-replay', 'jcp/9#c14-replay'], class: 'jcp:C14', description: 'replay debits denied receipts too', applied: `${P('impl/receipt/replay.ts')} the verdict filter skipped` },
  // ---- C26 ----
  { id: 'record-opened-when-held', clauses: ['jcp/4.11#single-writer', 'jcp/4.11#exclusive-access-on-open', 'jcp/4.11#fail-start-if-held', 'jcp/9#c26-one-writer'], class: 'jcp:C26', description: 'a second writer opens a held record', applied: `${P('impl/durable/lock.ts')} the failed claim ignored` },
  // from AWAITING_TESTS, its test landed (durable.test.ts 'asked to stand in a platform without exclusivity…')
  { id: 'no-exclusivity-opened', clauses: ['jcp/4.11#no-exclusivity-fail-open'], class: 'jcp:C26', description: 'a platform with no exclusivity opens the record unlocked', applied: `${P('impl/durable/lock.ts')} claimRecord returns where it must throw ERR_RECORD_NO_EXCLUSIVITY` },
  // ---- second round ----
  { id: 'continuation-against-presented-chain', clauses: ['jcp/6.1#continuation-decided-against-first-grant'], class: 'jcp:C8', description: 'a later exchange is decided against the chain it presents, not the grant the first was decided on', applied: `${P('impl/jcp/continuation.ts')} next() decides x.presented.chain` },
  { id: 'closing-record-control', clauses: ['jcp/6.1#closing-record-sealed'], class: 'jcp:C8', description: 'the closing record is sealed as a control frame (decided and debited) instead of data debiting nothing', applied: `${P('impl/jcp/continuation.ts')} close() frames trust control` },
  { id: 'answers-not-flow-checked', clauses: ['jcp/6.1#flow-check-answers'], class: 'jcp:C25', description: "the answers' label is not passed to the gate on a later exchange", applied: `${P('impl/jcp/continuation.ts')} next() drops x.label` },
  { id: 'cost-independent-not-resettled', clauses: ['jcp/4.9#cost-independent-both-phases'], class: 'jcp:C24', description: 'cost-independent caveats are not enforced again at the debit point', applied: `${P('impl/jcp/decide.ts')} settle evaluates only cost-dependent caveats` },
  { id: 'breach-not-in-verdict', clauses: ['jcp/4.9#breach-recorded-in-verdict'], class: 'jcp:C24', description: 'a caveat breach found at the debit point is sealed as an allow', applied: `${P('impl/jcp/enforcement-point.ts')} settle seals caveat-unsatisfied as allow` },
  { id: 'model-written-absent', clauses: ['jcp/6#absent-model-omitted', 'jcp/4#absent-optional-omitted'], class: 'jcp:C24', description: 'an absent frame model is encoded as an empty string instead of omitted', applied: `${P('impl/jcp/codec.ts')} frameToCbor writes model ?? ''` },
  { id: 'unlabelled-field-forwarded', clauses: ['jcp/4.10#label-seal-or-drop-fields'], class: 'jcp:C25', description: 'an unlabelled field that is not fixed machinery is forwarded (unsealed) instead of dropped', applied: `${P('impl/jcp/forward.ts')} classify omits instead of dropping` },
  { id: 'omitted-fields-unnamed', clauses: ['jcp/4.10#name-omitted-fields'], class: 'jcp:C25', description: 'the forwarder does not say which fields it leaves out', applied: `${P('impl/jcp/forward.ts')} classify answers no omitted fields` },
  { id: 'partial-task-total', clauses: ['jcp/5.2#partial-not-task-total'], class: 'jcp:C9', description: 'a Partial figure is presented as a task total', applied: `${P('impl/energy/outcomes.ts')} taskTotalUj's Partial refusal skipped` },
  { id: 'partial-per-token-sealed', clauses: ['jcp/5.2#partial-no-per-token'], class: 'jcp:C9', description: 'a Partial efficiency receipt carries uj_per_accepted_token', applied: `${P('impl/energy/outcomes.ts')} efficiencyPayload's Partial branch removed` },
  { id: 'partial-per-token-read', clauses: ['jcp/5.2#verifier-refuses-partial-per-token'], class: 'jcp:C9', description: 'a verifier reads a Partial receipt that carries uj_per_accepted_token', applied: `${P('impl/energy/outcomes.ts')} the refusal skipped` },
  { id: 'empty-list-whole', clauses: ['jcp/5.1#whole-not-on-empty-list'], class: 'jcp:C9', description: "a tree's figure is graded Whole on an empty gap list alone (no declaration of no outside delegation)", applied: `${P('impl/energy/tree.ts')} treeCoverage ignores the declaration` },
  { id: 'unconfirmed-walk-accepted', clauses: ['jcp/5.1#walk-confirmed'], class: 'jcp:C9', description: 'a walk not confirmed by a second one is accepted', applied: `${P('impl/energy/tree.ts')} the unconfirmed-walk gap never added` },
  { id: 'unsettled-member-accepted', clauses: ['jcp/5.1#member-read-at-rest', 'jcp/5.1#kernel-wait-waited-out'], class: 'jcp:C9', description: "a member read with a thread on a core, queued or in a kernel wait is accepted", applied: `${P('impl/energy/tree.ts')} the unsettled gap never added` },
  { id: 'thread-left-core-unchecked', clauses: ['jcp/5.1#check-thread-left-core'], class: 'jcp:C9', description: 'a self span is read without checking the reading thread left its core', applied: `${P('impl/energy/tree.ts')} the threadLeftCore check skipped` },
  { id: 'impossible-draw-kept', clauses: ['jcp/5#impossible-bound-discarded'], class: 'jcp:C9', description: 'a draw reading above the static limit is kept as a bound', applied: `${P('impl/energy/plausibility.ts')} usableDraw keeps draws above the limit` },
  { id: 'under-rate-near-idle', clauses: ['jcp/5#floor-not-near-idle', 'jcp/5#floor-allows-imprecision'], class: 'jcp:C9', description: 'the under-rate floor takes no slack: it fires near idle', applied: `${P('impl/energy/plausibility.ts')} underRateFloorMw without GPU_DRAW_SLACK_MW` },
  { id: 'unjudgeable-graded', clauses: ['jcp/5#unjudgeable-no-hw-grade'], class: 'jcp:C9', description: 'a counter with no usable draw is graded not-refuted instead of indeterminate', applied: `${P('impl/energy/plausibility.ts')} the indeterminate verdict answered as not-refuted` },
  { id: 'whole-coverage-read', clauses: ['jcp/5.2#intercept-coverage-one-value'], class: 'jcp:C9', description: 'a verifier reads energy_coverage "Whole" instead of refusing it', applied: `${P('impl/energy/outcomes.ts')} readCoverageField accepts Whole` },
  { id: 'flow-check-before-capability', clauses: ['jcp/4.10#flow-check-position'], class: 'jcp:C25', description: 'the flow check runs before the chain, signature and capability checks', applied: `${P('impl/jcp/decide.ts')} the flowFault block moved up after the trust check` },
  { id: 'taint-floor-any-accepted', clauses: ['jcp/4.10#not-computed-not-clean'], class: 'jcp:C25', description: "origins 'any' pass a resource's taint floor", applied: `${P('impl/jcp/decide.ts')} the origins-any refusal at a taint floor returns no refusal (accepts)` },
  { id: 'allowed-not-recorded', clauses: ['jcp/4.11#record-allowed-durably', 'jcp/11#record-before-deciding'], class: 'jcp:C14', description: 'an allowed decision is not appended to the durable record', applied: `${P('impl/durable/point.ts')} recordDecision appends denials only (suite scope: the wire's durable gate too)` },
  { id: 'durable-write-behind', clauses: ['jcp/4.11#record-allowed-durably'], class: 'jcp:C14', description: 'durable.decide answers 10 ms before its record entry is written (write-behind)', applied: 'mutation/testees/process-faults.ts: every record write held back 10 ms after the answer; served as a testee process (JCP_MUTANT_TESTEE), which the durable crash test SIGKILLs' },
  { id: 'in-flight-reported-completed', clauses: ['jcp/4.11#in-flight-not-settled'], class: 'jcp:P-INFLIGHT', description: 'a decision found on reopen with no recorded outcome is reported completed', applied: `${P('impl/durable/point.ts')} status() answers completed for an unresolved decision` },
  { id: 'in-flight-retried', clauses: ['jcp/4.11#in-flight-not-retried'], class: 'jcp:P-INFLIGHT', description: 'on reopen each decision with no recorded outcome is decided (and debited) again', applied: `${P('impl/durable/point.ts')} open re-decides every unresolved request after the replay` },
  { id: 'in-flight-refunded', clauses: ['jcp/4.11#in-flight-stays-debited'], class: 'jcp:C14', description: 'on reopen an allowed decision with no recorded outcome (its action was in flight) is no longer debited', applied: `${P('impl/durable/point.ts')} replay re-decides such a decision at zero cost and skips the receipt comparison` },
  { id: 'reopen-fresh-spend', clauses: ['jcp/4.11#re-establish-before-deciding', 'jcp/11#replay-before-new'], class: 'jcp:C14', description: 'a restart is a fresh budget: the record is not replayed on open', applied: `${P('impl/durable/point.ts')} open replays nothing (suite scope: the wire's durable gate too)` },
  { id: 'partial-aggregate-per-unit', clauses: ['jcp/5.2#partial-total-no-per-unit'], class: 'jcp:C9', description: 'a total summed over a Partial receipt still gives a per-unit figure', applied: `${P('impl/energy/outcomes.ts')} aggregateEfficiency ignores coverage for uj_per_unit` },
  // ---- builder mutants of the second round ----
  { id: 'attenuate-money-amplified', clauses: ['jcp/4.8#child-money-not-amplify', 'jcp/4.8#drop-raise-redenominate-refused'], class: 'jcp:C22', description: "a child may drop, raise or re-denominate its parent's money ceiling", applied: `${A} the funds axis off` },
  { id: 'injection-data-steers', clauses: ['jcp/6#outputs-tagged-data', 'jcp/9#c19-injection'], class: 'jcp:C19', description: 'a data-tagged frame (a tool output) may exercise a capability', applied: `${J} the trust check skipped (the C4 fault, filed for the injection corpus)` },
  { id: 'dkg-share-swapped', clauses: ['jcp/9#c18-dkg'], class: 'jcp:C18', description: "a DKG participant's share is another's, so k shares no longer sign under the group key", applied: "threshold.dkg answers participant 1 with participant 2's signing share" },
  // ==== jouleclaw:C-TLOG and sense:C1–C6: source-patch mutants of impl/jouleclaw/tlog*.ts and impl/sense/*.ts; clause ids of spec-map/clauses/jouleclaw.json and sense.json ====
  // ---- jouleclaw:C-TLOG (§22.2) ----
  { id: 'head-served-unsigned', clauses: ['jouleclaw/22.2#head-signed-across-boundary'], class: 'jouleclaw:C-TLOG', description: "the log serves its heads (at every append and on request) without their signature", applied: `${P('impl/jouleclaw/tlog-head.ts')} encodeTreeHead leaves the signature out of the wire form` },
  { id: 'head-timestamp-unsigned', clauses: ['jouleclaw/22.2#signature-covers-three-fields'], class: 'jouleclaw:C-TLOG', description: "the head signature covers size and root but not the timestamp (its 8 bytes left zero)", applied: `${P('impl/jouleclaw/tlog-head.ts')} treeHeadSigningBytes never writes the timestamp` },
  { id: 'head-any-signer-accepted', clauses: ['jouleclaw/22.2#head-key-is-receipt-sealer'], class: 'jouleclaw:C-TLOG', description: "a head signed by whatever key it names verifies, whether or not that key seals the receipts", applied: `${P('impl/jouleclaw/tlog-head.ts')} verifyTreeHead skips the steward == sealer check and verifies under the key the head names` },
  { id: 'unsigned-root-verifies-proof', clauses: ['jouleclaw/22.2#unsigned-root-not-used'], class: 'jouleclaw:C-TLOG', description: "an inclusion proof is checked against the root of a head whose signature is never judged (an unsigned head included)", applied: `${P('impl/jouleclaw/tlog.ts')} verifyLogInclusion parses the head instead of verifying it` },
  { id: 'absent-root-read-as-zero', clauses: ['jouleclaw/22.2#reject-malformed-root'], class: 'jouleclaw:C-TLOG', description: "a head with an absent or empty root is read as 32 zero bytes instead of refused", applied: `${P('impl/jouleclaw/tlog-head.ts')} parseTreeHead lets an absent or empty root through as zeros` },
  // ---- sense:C1 / C2 (§2, §3) ----
  { id: 'cid-double-hashed', clauses: ['sense/3#cid-blake3-hex'], class: 'sense:C1', description: "a payload Cid is blake3(blake3(payload)) instead of blake3(payload)", applied: `${P('impl/sense/event.ts')} payloadCid hashes twice` },
  { id: 'hlc-restart-from-zero', clauses: ['sense/3#hlc-strictly-past-restart'], class: 'sense:C1', description: "a restarted clock ignores the maximum stored stamp and starts from Hlc::ZERO", applied: `${P('impl/sense/hlc.ts')} createHlcClock seeds at zero` },
  { id: 'replay-digest-reversed', clauses: ['sense/3#replay-digest'], class: 'sense:C1', description: "the replay digest hashes the content ids in reverse clock order", applied: `${P('impl/sense/log.ts')} replayDigest reverses the ids` },
  { id: 'event-id-not-length-prefixed', clauses: ['sense/2#event-id-fixed-concatenation'], class: 'sense:C2', description: "an event id hashes the plain concatenation of its fields, without length prefixes", applied: `${P('impl/sense/event.ts')} lengthPrefixed answers the field alone` },
  { id: 'event-id-trust-unbound', clauses: ['sense/2#event-id-binds-source-trust'], class: 'sense:C2', description: "the trust level is left out of the event id: an event can be re-trusted keeping its id", applied: `${P('impl/sense/event.ts')} the trust field dropped from eventIdPreimage` },
  { id: 'event-id-source-unbound', clauses: ['sense/2#event-id-binds-source-trust'], class: 'sense:C2', description: "the source class is left out of the event id: an event can be re-classified keeping its id", applied: `${P('impl/sense/event.ts')} the source field dropped from eventIdPreimage` },
  // ---- sense:C3 (§5) ----
  { id: 'baseline-updated-before-decision', clauses: ['sense/5#decide-against-prior-baseline'], class: 'sense:C3', description: "a reading is judged against a baseline that already took it in, so a single spike suppresses its own fire", applied: `${P('impl/sense/highlight.ts')} the baseline update moved before the fire test` },
  { id: 'surface-margin-dropped', clauses: ['sense/5#surface-condition'], class: 'sense:C3', description: "a highlight surfaces when value > cost, with no margin", applied: `${P('impl/sense/attention.ts')} decideOutcome compares value > cost` },
  { id: 'surface-unpaid', clauses: ['sense/5#surface-condition'], class: 'sense:C3', description: "a highlight surfaces although the budget cannot pay its price (charged what is left)", applied: `${P('impl/sense/attention.ts')} the budget_uj < price_uj check skipped; the surfacing charges min(price, budget)` },
  { id: 'budget-test-first', clauses: ['sense/5#value-test-first'], class: 'sense:C3', description: "the budget test comes before the value test: an unworthy highlight on an empty budget is hold:budget", applied: `${P('impl/sense/attention.ts')} the two tests of decideOutcome swapped` },
  { id: 'detector-state-shared', clauses: ['sense/5#decision-deterministic'], class: 'sense:C3', description: "the debounce state is shared by every detector of the process, so a decision depends on earlier, unrelated streams", applied: `${P('impl/sense/highlight.ts')} lastFire moved to module scope` },
  { id: 'hold-value-debits', clauses: ['sense/5#surfacing-debits-hold-free'], class: 'sense:C3', description: "a hold:value debits the surfacing price (when the budget can pay it)", applied: `${P('impl/sense/attention.ts')} charged_uj is the price for a surface and for a hold:value the budget can pay` },
  // ---- sense:C4 (§6) ----
  { id: 'recall-escalated', clauses: ['sense/6#deterministic-recall-first'], class: 'sense:C4', description: "a factual-recall query the spans can answer goes to the fallback (a model call) instead of Tier 0", applied: `${P('impl/sense/recall.ts')} ask never takes the Tier-0 answer` },
  { id: 'unbacked-recall-answered', clauses: ['sense/6#escalate-last-resort'], class: 'sense:C4', description: "a recall query no span backs is answered at Tier 0 (empty) instead of reaching the fallback", applied: `${P('impl/sense/recall.ts')} tier0's no-span escalation skipped` },
  // ---- sense:C5 (§3, §8) ----
  { id: 'link-not-shortest-form', clauses: ['sense/3#receipt-core-det-cbor'], class: 'sense:C5', description: "sealed links are written with a non-shortest map head (0xb9 0x0002), not canonical det-CBOR", applied: `${P('impl/sense/chain.ts')} signedLinkBytes re-heads the canonical map` },
  { id: 'hold-not-sealed', clauses: ['sense/8#holds-chained', 'sense/8#every-decision-chained'], class: 'sense:C5', description: "only surfacings are chained; holds are signed and forgotten", applied: `${P('impl/sense/chain.ts')} seal keeps surface links only` },
  { id: 'core-trust-uncommitted', clauses: ['sense/8#signed-core-commits'], class: 'sense:C5', description: "the signed core leaves out the event's trust level", applied: `${P('impl/sense/chain.ts')} linkCoreToCbor drops trust` },
  { id: 'prev-over-signed-link', clauses: ['sense/8#prev-and-seq'], class: 'sense:C5', description: "prev is the id of the previous signed link (core and signature), not of its canonical core", applied: `${P('impl/sense/chain.ts')} seal hashes signedLinkBytes for prev` },
  { id: 'link-prev-unchecked', clauses: ['sense/8#tamper-breaks-chain', 'sense/8#verify-chain-first-break'], class: 'sense:C5', description: "verify_chain ignores prev: a link edited and re-signed by the host does not break the chain", applied: `${P('impl/sense/chain.ts')} the prev check skipped` },
  { id: 'link-signature-unchecked', clauses: ['sense/8#verify-chain-first-break', 'sense/8#tamper-breaks-chain'], class: 'sense:C5', description: "verify_chain checks no signature: a link signed by another key passes", applied: `${P('impl/sense/chain.ts')} the signature check skipped` },
  { id: 'link-seq-unchecked', clauses: ['sense/8#verify-chain-first-break', 'sense/8#tamper-breaks-chain'], class: 'sense:C5', description: "verify_chain ignores seq: a renumbered link passes", applied: `${P('impl/sense/chain.ts')} the seq check skipped` },
  // ---- sense:C6 (§11) ----
  { id: 'frame-position-dropped', clauses: ['sense/11#injected-frame-states', 'sense/11#not-result-words-or-out-of-order'], class: 'sense:C6', description: "the injected frame does not state its position in the recipient's order", applied: `${P('impl/sense/inject.ts')} position left out of the frame` },
  { id: 'frame-cites-signed-bytes', clauses: ['sense/11#frame-cites-link'], class: 'sense:C6', description: "the frame cites the link by the hash of its signed bytes, not of its signed core", applied: `${P('impl/sense/inject.ts')} link: contentIdOfBytes(signedLinkBytes(link))` },
  { id: 'inject-link-signature-unchecked', clauses: ['sense/11#frame-binds-event-trust'], class: 'sense:C6', description: "a link whose event or trust was re-tagged after sealing is delivered", applied: `${P('impl/sense/inject.ts')} the link signature check skipped` },
  { id: 'wake-authority-unnamed', clauses: ['sense/11#frame-states-wake-authority', 'sense/11.2#wake-names-authority'], class: 'sense:C6', description: "a frame that woke a parked run does not name the authority that permitted it", applied: `${P('impl/sense/inject.ts')} wake_authority left out of the frame` },
  { id: 'delivery-states-surfacing-charge', clauses: ['sense/11#frame-states-delivery-joules'], class: 'sense:C6', description: "the frame states the joules §5 charged for surfacing, not what the delivery charged", applied: `${P('impl/sense/inject.ts')} delivery.uj = core.charged_uj` },
  { id: 'frame-kind-tool-result', clauses: ['sense/11#not-result-words-or-out-of-order'], class: 'sense:C6', description: "the injected observation is presented as a tool result", applied: `${P('impl/sense/inject.ts')} kind: 'tool-result'` },
  { id: 'injected-kind-offered', clauses: ['sense/11#kind-not-offered-for-authoring'], class: 'sense:C6', description: "the injected kind is listed among the kinds an agent may author", applied: `${P('impl/sense/inject.ts')} INJECTED_KIND added to AGENT_AUTHORABLE_KINDS` },
  { id: 'recipient-authors-injected', clauses: ['sense/11#refuse-recipient-authoring'], class: 'sense:C6', description: "an agent authoring the injected kind is let through", applied: `${P('impl/sense/inject.ts')} assertAgentMayAuthor returns for the injected kind` },
  { id: 'destination-unstated', clauses: ['sense/11.1#destination-stated'], class: 'sense:C6', description: "the frame does not state its destination", applied: `${P('impl/sense/inject.ts')} destination left out of the frame` },
  { id: 'hold-delivered', clauses: ['sense/11.2#hold-refused'], class: 'sense:C6', description: "a hold is delivered as an observation", applied: `${P('impl/sense/inject.ts')} the hold refusal skipped` },
  { id: 'self-delivery-accepted', clauses: ['sense/11.2#author-not-recipient'], class: 'sense:C6', description: "an observation authored by its recipient is delivered to it", applied: `${P('impl/sense/inject.ts')} the author == recipient refusal skipped` },
  { id: 'unpermitted-wake-delivered', clauses: ['sense/11.2#wake-refused-without-authority', 'sense/11.2#running-and-unpermitted-distinct'], class: 'sense:C6', description: "waking a parked run with no authority is delivered, in the shape of a delivery to a running recipient", applied: `${P('impl/sense/inject.ts')} a parked recipient with no authority answered as running` },
  { id: 'zero-priced-delivered', clauses: ['sense/11.2#zero-priced-refused'], class: 'sense:C6', description: "a delivery priced at zero is delivered", applied: `${P('impl/sense/inject.ts')} the zero-price refusal skipped` },
  { id: 'frame-address-unbound', clauses: ['sense/11.2#frame-address-binds-destination-wake'], class: 'sense:C6', description: "the frame address leaves out the destination and the wake, so either can change keeping the address", applied: `${P('impl/sense/inject.ts')} frame_id hashes the frame without destination, recipient_state and wake_authority` },
  // the suite-defined profiles (spec-map/profiles.json)
  ...JCP_PROFILE_MUTANTS,
  ...ENERGY_PROFILE_MUTANTS,
  ...DOCUMENTS_PROFILE_MUTANTS,
  ...SEMANTIC_PROFILE_MUTANTS,
  ...RUNTIME_PROFILE_MUTANTS,
  ...RECORDS_PROFILE_MUTANTS,
  ...CONTRACTS_PROFILE_MUTANTS,
  ...ACCOUNTING_PROFILE_MUTANTS,
  ...LOG_ANSWER_PROFILE_MUTANTS,
  ...READINGS_PROFILE_MUTANTS,
];

/**
 * MUST-level clauses of the claimed (and about-to-be-claimed) classes with no mutant, and why. Listed as data so the
 * self-test can require every such clause to be either broken by a mutant or named here.
 */
export const UNBROKEN: readonly Unbroken[] = [
  {
    clause: 'jcp/4.2#caveats-every-link',
    reason:
      "no single change is observable: §4.9 makes every child carry each caveat of its parent, and the chain check refuses a child that drops one (attenuation-violation) before caveats are evaluated, so the leaf's caveats contain every link's; evaluating the leaf's alone decides identically (see EQUIVALENT: caveats-leaf-only)",
  },
  {
    clause: 'jcp/4.9#no-invented-predicate',
    reason: 'a prohibition on adding a predicate: the reference has no invented predicate to remove, and the caveat set is closed by the codec (an unknown variant is refused ERR_GRANT_MALFORMED), so no single change of its code breaks the rule observably',
  },
  {
    clause: 'jcp/4.11#proceeding-checkable',
    reason: 'conditional on proceeding without exclusivity, which the reference never does (it refuses ERR_RECORD_NO_EXCLUSIVITY; the mutant no-exclusivity-opened breaks that); there is no proceeding path whose checkability one change could remove',
  },
  ...JCP_PROFILE_UNBROKEN,
  ...ENERGY_PROFILE_UNBROKEN,
  ...DOCUMENTS_PROFILE_UNBROKEN,
  ...SEMANTIC_PROFILE_UNBROKEN,
  ...RUNTIME_PROFILE_UNBROKEN,
  ...RECORDS_PROFILE_UNBROKEN,
  ...CONTRACTS_PROFILE_UNBROKEN,
  ...ACCOUNTING_PROFILE_UNBROKEN,
  ...LOG_ANSWER_PROFILE_UNBROKEN,
  ...READINGS_PROFILE_UNBROKEN,
];

/**
 * Mutants written and run that SURVIVED because the suite lacks a test (findings, reported to the suite's authors): kept
 * servable and out of MUTANTS so the matrix's 100% gate stays meaningful for the rest; the matrix prints them, and
 * `--only <id>` re-runs one once its test lands (then it moves back to MUTANTS). `missing` names the test wanted.
 */
export const AWAITING_TESTS: readonly (Mutant & { readonly missing: string })[] = [
  // none: the last one (no-exclusivity-opened) was killed once durable.open could be asked to stand in a platform
  // without exclusivity (simulate "no-exclusivity", harness/PROTOCOL.md)
];

/** Mutants written, run, and found equivalent to the reference (no test can tell them apart), with why; not run. */
export const EQUIVALENT: readonly { readonly id: string; readonly clauses: readonly string[]; readonly reason: string }[] = [
  {
    id: 'caveats-leaf-only',
    clauses: ['jcp/4.2#caveats-every-link'],
    reason: "survived every test of C7 (matrix run of 2026-11-30): a valid chain's leaf carries every ancestor's caveats (§4.9), and one that drops any is denied attenuation-violation before caveats are read",
  },
  {
    id: 'chained-expiry-leaf-only',
    clauses: ['jcp/7#chained-order', 'jcp/4.2#verify-hop-by-hop'],
    reason: "survived every test of C7: a child's expiry never outlives its parent's (§4.1, checked hop by hop before expiry), so when any link has expired the leaf has too, and the reason is the same",
  },
];

/**
 * The classes whose every MUST-level clause has a mutant here, or a reason in UNBROKEN that no single change breaks it.
 * (C8 and C26 include wire and durable mutants served by suite-scoped patches; see mutation/testees/patches.ts.)
 */
export const COVERED_CLASSES: readonly string[] = [
  'jcp:C1', 'jcp:C2', 'jcp:C3', 'jcp:C4', 'jcp:C5', 'jcp:C6', 'jcp:C7', 'jcp:C8', 'jcp:C9', 'jcp:C10', 'jcp:C11', 'jcp:C12', 'jcp:C13',
  'jcp:C14', 'jcp:C15', 'jcp:C16', 'jcp:C17', 'jcp:C18', 'jcp:C19', 'jcp:C20', 'jcp:C21', 'jcp:C22', 'jcp:C23', 'jcp:C24', 'jcp:C25', 'jcp:C26', 'jcp:C-neg',
  // the claimed JouleClaw and Sense classes (source-patch mutants of impl/jouleclaw/tlog*.ts, impl/sense/*.ts)
  'jouleclaw:C-TLOG', 'sense:C1', 'sense:C2', 'sense:C3', 'sense:C4', 'sense:C5', 'sense:C6',
  // the suite-defined profiles the reference claims (mutation/profiles/)
  ...suiteProfiles().filter((p) => p.implemented).map((p) => p.id),
];

/**
 * Classes covered only in part: each MUST-level clause has a mutant or is listed in UNBROKEN, where "not yet written"
 * is an allowed reason. The matrix adds them to the testee's claims (JCP_EXTRA_CLAIMS) while the reference does not
 * claim them yet.
 */
export const PENDING_CLASSES: readonly string[] = [];
