// The catalog of clause mutants (issue 7 item 4): hand-written semantic mutants of the reference, each breaking ONE
// rule of the jcp spec, kept outside impl/. Each is served as a testee by mutation/testees/variant-main.ts <id> (built
// in mutation/testees/registry.ts); `npm run mutation:matrix` (mutation/matrix.ts) runs the conformance suite against
// each and requires every one to be killed. Clause ids are those of spec-map/clauses/jcp.json.
// harness/self/kill-matrix.test.ts checks this catalog's integrity (clauses exist, every MUST-level clause of the
// claimed classes has a mutant or a listed reason, every id is known to variant-main).

/** One clause mutant. */
export interface Mutant {
  readonly id: string;
  /** The clause ids whose rule the mutant breaks (spec-map/clauses/jcp.json). */
  readonly clauses: readonly string[];
  /** The class the mutant is filed under in the matrix (one of its clauses' classes). */
  readonly class: string;
  readonly description: string;
  /** How the fault is applied (which op handler is overridden, or which impl function is re-implemented). */
  readonly applied: string;
}

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
  { id: 'subject-after-resource', clauses: ['jcp/7#checks-in-order'], class: 'jcp:C-neg', description: 'deny-reason order swapped: wrong-subject checked after wrong-resource', applied: `${J} the subject check moved after the capability resource check` },
  // ---- C16 (claim pending: the matrix runs it with JCP_EXTRA_CLAIMS) ----
  { id: 'no-chain-ids', clauses: ['jcp/8.1#chain-ids'], class: 'jcp:C16', description: 'a multi-hop receipt is sealed without chain_ids', applied: 'point.decide re-signs the core without chain_ids' },
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
  { clause: 'jcp/4.11#record-allowed-durably', reason: 'C14/C16 durable recording: not yet written (C16 is not claimed; its durable ops are another helper\'s in-progress work)' },
  { clause: 'jcp/4.11#re-establish-before-deciding', reason: 'C14/C16: not yet written (claim pending)' },
  { clause: 'jcp/4.11#in-flight-stays-debited', reason: 'C14/C16: not yet written (claim pending)' },
  { clause: 'jcp/8.1#rebuild-by-replay', reason: 'C14/C16 point.replay: not yet written (claim pending)' },
  { clause: 'jcp/9#c16-chained-replay', reason: 'C16 test-description clause: not yet written (claim pending)' },
  { clause: 'jcp/4.5#statement-verified-and-counted', reason: 'C17 channels: not yet written (claim pending)' },
  { clause: 'jcp/9#c17-channels', reason: 'C17 test-description clause: not yet written (claim pending)' },
  { clause: 'jcp/4.6#policy-not-amplify', reason: 'C20 standing grants: not yet written (claim pending)' },
  { clause: 'jcp/9#c20-standing', reason: 'C20 test-description clause: not yet written (claim pending)' },
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
 * (The classes the reference claimed when the catalog was written.)
 */
export const COVERED_CLASSES: readonly string[] = ['jcp:C1', 'jcp:C2', 'jcp:C3', 'jcp:C4', 'jcp:C5', 'jcp:C6', 'jcp:C7', 'jcp:C10', 'jcp:C11', 'jcp:C15', 'jcp:C23', 'jcp:C-neg'];

/**
 * Classes covered only in part: each MUST-level clause has a mutant or is listed in UNBROKEN, where "not yet written"
 * is an allowed reason. The matrix adds them to the testee's claims (JCP_EXTRA_CLAIMS) while the reference does not
 * claim them yet.
 */
export const PENDING_CLASSES: readonly string[] = ['jcp:C16', 'jcp:C17', 'jcp:C20'];
