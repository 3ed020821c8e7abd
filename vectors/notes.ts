// The flags of conformance/v1, each defined once (Wycheproof `notes`): the kind of bug a flagged vector catches and
// what that bug lets happen. A pack's `notes` carries exactly the flags its tests use.
import type { FlagNote } from './model.ts';
import { PROFILE_VECTOR_GROUPS } from './profiles/groups.ts';

export const FLAG_NOTES: Readonly<Record<string, FlagNote>> = {
  FoundByProperty: {
    bugType: 'DIFFERENTIAL',
    description: 'An operation sequence a differential property (harness/property/) found an implementation getting wrong, shrunk and promoted: each step must be observed as the reference observes it.',
    effect: 'The implementation disagrees with the reference somewhere along a sequence of ordinary operations, a fault no single fixed vector pinned.',
  },
  Canonical: {
    bugType: 'CANONICAL_ENCODING',
    description: 'The output bytes (canonical det-CBOR, content id, Ed25519 signature) must be reproduced exactly: jcp §3 fixes one encoding and Ed25519 is deterministic.',
    effect: 'Two implementations disagree on an id or signature, so grants minted by one are refused or mis-addressed by the other.',
  },
  IntegerBoundary: {
    bugType: 'CANONICAL_ENCODING',
    description: 'An integer at the edge of a CBOR head size (23/24, 2^16, 2^32): the shortest form is required (jcp §3).',
    effect: 'A non-shortest integer changes the content id and the signed bytes.',
  },
  Malformed: {
    bugType: 'MALFORMED_INPUT',
    description: 'The input is not well formed and must be refused with the stated error code, never accepted or crashed on.',
    effect: 'Accepting malformed input lets two readings of one object coexist (malleability) or crashes the verifier.',
  },
  SuiteErrorCode: {
    bugType: 'ERROR_CODE',
    description: "The expected code is the suite's closed error list (impl/errors.ts); the spec requires the refusal, the suite names it.",
    effect: 'A refusal with another code is still a refusal, but reports and tooling that read the code misclassify it.',
  },
  ModifiedSignature: {
    bugType: 'SIGNATURE_MALLEABILITY',
    description: 'A signature that does not verify over the object (a flipped bit, or the wrong signer).',
    effect: 'Accepting it lets anyone forge authority (jcp §2: an actor proves itself by signing).',
  },
  ModifiedGrant: {
    bugType: 'SIGNATURE_MALLEABILITY',
    description: 'A grant field changed after signing, the old signature kept.',
    effect: 'Accepting it lets a holder raise its own budget or widen its capability.',
  },
  Amplification: {
    bugType: 'AUTHORITY_AMPLIFICATION',
    description: 'A child wider than its parent on some axis (budget, actions, resource, expiry, depth, caveats) — jcp §4.1, §4.2.',
    effect: 'Delegation conveys more authority or more energy than the root granted.',
  },
  NonHolder: {
    bugType: 'AUTHORITY_AMPLIFICATION',
    description: "A hop issued by someone other than the parent's subject (jcp §4.1, §4.2).",
    effect: 'Anyone who sees a grant can delegate it.',
  },
  ChainStructure: {
    bugType: 'CHAIN_VERIFICATION',
    description: 'A chain that is not root first, leaf last, each parent the id of the link before (jcp §4.2): spliced, reordered, alone or under a leaf-only parent.',
    effect: 'A leaf is decided without proof that it narrows its root.',
  },
  DepthLimit: {
    bugType: 'AUTHORITY_AMPLIFICATION',
    description: 'delegate_depth must narrow per hop and a leaf-only grant cannot be delegated (jcp §4.4).',
    effect: 'A worker deepens its own delegation tree.',
  },
  SiblingConservation: {
    bugType: 'BUDGET_CONSERVATION',
    description: 'An allow debits every link of the chain; siblings share their parent budget (jcp §4.2).',
    effect: 'Delegation mints joules: two children spend more than their root.',
  },
  BudgetBoundary: {
    bugType: 'BUDGET_ENFORCEMENT',
    description: 'Spend at or past budget_uj: prior spend + cost > budget_uj is denied and not debited (jcp §7).',
    effect: 'An off-by-one or a debit on deny lets spend pass the ceiling or wastes budget.',
  },
  Revoked: {
    bugType: 'REVOCATION',
    description: 'A revocation honoured only when its issuer is the grant issuer, then denying the grant and its subtree (jcp §4.3).',
    effect: 'A revoked grant stays live, or a forged revocation kills a live one.',
  },
  TrustRoot: {
    bugType: 'TRUST_ROOT',
    description: 'Once any root is configured for a resource only listed keys anchor authority; an unconfigured resource is open (jcp §7).',
    effect: 'A validly signed grant from a stranger exercises a guarded resource.',
  },
  Expiry: {
    bugType: 'EXPIRY',
    description: 'A grant (or any chain link) past its expiry is denied; expiry 0 never expires (jcp §4, §7).',
    effect: 'Expired authority keeps working, or a never-expiring grant is refused.',
  },
  CheckOrder: {
    bugType: 'DECISION_ORDER',
    description: 'Two rules broken at once: the earlier check of jcp §7 must name the reason.',
    effect: 'Receipts name different reasons for the same decision across implementations, so audits disagree.',
  },
  Caveat: {
    bugType: 'CAVEAT',
    description: 'A caveat embedded in the signed grant must hold for an allow, on every link (jcp §4.9).',
    effect: 'A condition the issuer imposed is bypassed.',
  },
  DroppedCaveat: {
    bugType: 'AUTHORITY_AMPLIFICATION',
    description: "A child that does not carry its parent's caveat (jcp §4.9: dropping one is an amplification).",
    effect: 'A delegate sheds the conditions it was given.',
  },
  ReceiptBytes: {
    bugType: 'CANONICAL_ENCODING',
    description: "The exact COSE_Sign1 bytes of each sealed receipt (tag 18, protected {1: -8, 4: kid}, empty unprotected, canonical core, deterministic Ed25519). The kid is the UTF-8 of the steward's did:key: a byte shape the suite fixes where jcp §8 says only 'the COSE kid'.",
    effect: 'Receipts from two implementations of one decision differ in bytes, so a receipt id or an audit diff disagrees.',
  },
  StewardMismatch: {
    bugType: 'SIGNER_BINDING',
    description: 'The steward named by the core, the kid and the expected steward must agree (jcp §8).',
    effect: 'A receipt sealed by one party is credited to another.',
  },
  ModifiedReceipt: {
    bugType: 'SIGNATURE_MALLEABILITY',
    description: 'A receipt whose core or signature changed after sealing.',
    effect: 'An audit trail can be rewritten (a payload substituted, a cost raised) undetected.',
  },
  UnknownProfile: {
    bugType: 'PROFILE_VERSIONING',
    description: 'A jcp_receipt tag the verifier does not implement must be refused, not assumed (jcp §8).',
    effect: 'A verifier reads a future profile under the wrong preimage.',
  },
  MoneyCeiling: {
    bugType: 'BUDGET_ENFORCEMENT',
    description: 'A money ceiling (budget_funds) enforced beside the joule ceiling, never reconciled by an exchange rate; both debited on allow, neither on deny (jcp §4.8).',
    effect: 'Spend passes a payment mandate, or a foreign-currency cost is silently converted.',
  },
  Standing: {
    bugType: 'AUTHORITY_AMPLIFICATION',
    description: "A standing grant's mint policy: signed by the grant's issuer, never amplifying it; each firing mints a strictly weaker child, and the mint ledger refuses the wrong class, an exhausted count or a firing past the grant (jcp §4.6).",
    effect: 'A trigger spends past the grant, fires without limit, or a webhook of one source spends a grant meant for another.',
  },
  Channel: {
    bugType: 'BUDGET_CONSERVATION',
    description: "Points of a budget channel spend optimistically and settle by signed statements of cumulative spend; forged, stale, regressing, foreign and outsider statements are refused and change nothing; after settlement the merged ledger binds and an overdraft is provable (jcp §4.5).",
    effect: 'Points sharing one grant spend past it unseen, or a forged statement blocks or frees budget.',
  },
  ProfileMigration: {
    bugType: 'PROFILE_VERSIONING',
    description: 'A jcp/1 receipt (no payload_hash) is recomputed under jcp/1 and keeps verifying; a core mixing the profiles does not (jcp §8).',
    effect: 'Published jcp/1 receipts stop verifying, or a mixed core is read under the wrong preimage.',
  },
  // ---- efficiency.json: jcp §5.2 coverage and efficiency/1, §5.3 traceability (C9) ----
  EfficiencyHeadline: {
    bugType: 'ENERGY_COVERAGE',
    description: 'A Partial efficiency/1 receipt carries no uj_per_accepted_token, and a verifier refuses one that does (jcp §5.2).',
    effect: 'A figure that covers part of the work is divided by tokens and read as what the work cost per token.',
  },
  CoverageOneValue: {
    bugType: 'ENERGY_COVERAGE',
    description: 'energy_coverage, when present, has exactly one value, "Partial"; "Whole" and any other value are refused, absence reads as Whole (jcp §5.2).',
    effect: 'Two verifiers read one receipt at two coverages, or a sealer spells Whole and changes the bytes of every receipt.',
  },
  PartialTotal: {
    bugType: 'ENERGY_COVERAGE',
    description: 'A Partial figure is not a task total (jcp §5.2): its remainder is unmeasured, not zero.',
    effect: 'Work metered in part is reported as having cost only the part that was read.',
  },
  ResidualSigned: {
    bugType: 'ENERGY_TRACEABILITY',
    description: 'residual_uj = outcome_total_uj − Σ activity.joules_uj in exact signed integers, never clamped at zero (jcp §5.3).',
    effect: 'Double-counted or misbound activities (a negative residual) are hidden as a balanced trace.',
  },
  BoundTwice: {
    bugType: 'ENERGY_TRACEABILITY',
    description: 'An activity named twice by one outcome is refused before any sum (jcp §5.3).',
    effect: 'Counting an activity twice inflates the accounted figure and shrinks the residual, flattering the trace.',
  },
  Untraceable: {
    bugType: 'ENERGY_TRACEABILITY',
    description: 'An outcome naming no activity, or an activity that does not resolve, is not traced (jcp §5.3).',
    effect: 'An outcome asserts any total it likes with nothing a verifier can re-add.',
  },
  GradeFloor: {
    bugType: 'ENERGY_PROVENANCE',
    description: 'The composite provenance and coverage of a trace are the floors across the outcome and every activity, never an average or the best (jcp §5.3).',
    effect: 'Aggregation improves a grade: one estimated part is reported as a measured whole.',
  },
  // ---- JouleClaw (jouleclaw_tlog, jouleclaw_policy, jouleclaw_receipts) and Sense (sense) ----
  ModifiedProof: {
    bugType: 'PROOF_FORGERY',
    description: 'An inclusion or consistency proof that does not prove its claim (a flipped bit, a hash missing, the wrong index, leaf or sizes, or heads in the wrong order): it must be refused (jouleclaw §22, RFC 9162 §2.1.3.2, §2.1.4.2).',
    effect: 'Accepting it lets a log claim an entry it never held, or hide a rewrite of its history between two heads.',
  },
  UnsignedHead: {
    bugType: 'MISSING_SIGNATURE',
    description: 'A tree head with no signature (absent or empty): an unsigned root never verifies a proof (jouleclaw §22.2).',
    effect: 'Anyone can publish a root; proofs against it prove nothing about what the steward decided.',
  },
  WrongKey: {
    bugType: 'WRONG_SIGNER',
    description: "A head or receipt signed by a key other than the receipts' sealer, or whose kid disagrees with the steward it names (jouleclaw §10, §22.2).",
    effect: 'A head or receipt signed by another party is taken as the steward\'s: a party that made no decision is made to commit to it.',
  },
  MalformedRoot: {
    bugType: 'MALFORMED_INPUT',
    description: 'A signed head whose root is not 32 bytes as 64 lowercase hex digits (absent, empty, short, long, odd, non-hex, raw bytes, a number): rejected, never treated as absent or empty (jouleclaw §22.2).',
    effect: 'A verifier that reads a malformed root as empty or absent verifies proofs against a root nobody signed.',
  },
  DenyLogged: {
    bugType: 'INCOMPLETE_LOG',
    description: 'Denials are appended to the log on the verdict\'s own path exactly like allows (jouleclaw §22.3); the entries, heads and proofs are pinned.',
    effect: 'A log of allows only hides what was refused; an auditor cannot tell a quiet log from a censored one.',
  },
  AgentOrder: {
    bugType: 'CANONICAL_ENCODING',
    description: 'Two policies differing only in the order their rule names agents share one policy_digest: agent ids are sorted by UTF-8 bytes (jouleclaw §10.1).',
    effect: 'Equal policies get different digests, so a receipt bound to one fails against the other.',
  },
  RuleOrder: {
    bugType: 'CANONICAL_ENCODING',
    description: 'Rule order is kept in the digest (first matching Allow wins, §9): reordering rules changes policy_digest (jouleclaw §10.1).',
    effect: 'A digest that sorts rules binds two policies with different behaviour to one value.',
  },
  PortRange: {
    bugType: 'CANONICAL_ENCODING',
    description: 'Port ranges are hashed as written, two big-endian u16 (jouleclaw §10.1): a reversed range is not normalised and hashes differently.',
    effect: 'Normalising a range makes two different written policies share a digest, or two readers disagree on the bytes.',
  },
  WorstProvenance: {
    bugType: 'ENERGY_PROVENANCE',
    description: "A cascade receipt's energy_provenance is the worst counter across tools_touched; a stated provenance better than the worst is refused (jouleclaw §2).",
    effect: 'One measured tool makes a mostly estimated walk look measured.',
  },
  AttentionOrder: {
    bugType: 'DECISION_ORDER',
    description: 'The attention gate applies the value test before the budget test and debits only surfacings (sense §5): each decision of the sequence is pinned.',
    effect: 'An unworthy highlight reported as held for budget, or a hold that spends budget, skews the record of what the user was spared.',
  },
  ChainBreak: {
    bugType: 'TAMPER_DETECTION',
    description: 'A surfacing chain excised, reordered, forged or edited (even re-signed by its own host): verify_chain must report the first break, its index and why (sense §8).',
    effect: 'A tampered surfacing log verifies, or the break is placed where it hides the edited link.',
  },
  // ---- profiles.json: the suite-defined profiles (spec-map/profiles.json) ----
  CheckKind: {
    bugType: 'VALUE_REPORT',
    description: "Each check kind judged as jouleclaw §19.2 defines it: the status in the codes, in the declared statusCodes menu, the canonical-JSON BLAKE3 of the body, an RFC 6901 pointer resolving to the expected value (suite profile jouleclaw:P-VALUE).",
    effect: 'A value report claims work delivered that was not, or fails work that was, so the closure rate misstates what was attempted and achieved.',
  },
  UnknownCheckKind: {
    bugType: 'VALUE_REPORT',
    description: 'A check of a kind the consumer does not know is tolerated as passed: false with a reason naming the kind, and the known checks beside it are judged as ever (jouleclaw §19.2).',
    effect: 'A report with a newer check kind is refused whole, or the unknown check silently counts as passed.',
  },
  SkipEmptyReports: {
    bugType: 'VALUE_REPORT',
    description: 'Reports with no checks declared are skipped in the mean closure rate (jouleclaw §19.3).',
    effect: 'Reports that convey no value information drag the system\'s delivered / attempted metric down (or up).',
  },
  BadPath: {
    bugType: 'MALFORMED_INPUT',
    description: 'A workspace path that is absolute or empty, or has an empty, . or .. segment or a NUL byte, is refused on write and never reaches the manifest (jouleclaw §11).',
    effect: 'A write escapes the workspace or aliases another entry, and the signed manifest names a path no reader can resolve alike.',
  },
  SkillLimits: {
    bugType: 'INTEROPERABILITY',
    description: "An emitted SKILL.md carries agentskills.io's required frontmatter: a name of at most 64 chars matching ^[a-z0-9]([a-z0-9-]*[a-z0-9])?$ and a description of at most 1024 (jouleclaw §12). Asked for a skill outside the limits, the emitter refuses or emits one within them (§12 does not say which).",
    effect: 'The skill is refused or misread by the other agents the format exists to reach.',
  },
  CascadeOrder: {
    bugType: 'DECISION_ORDER',
    description: 'The cascade calls the tiers cheapest first (L0 … L4, the §1.1 table), never a tier before every cheaper offered one returned Unresolvable, and stops at the first that closes (jouleclaw §1.1).',
    effect: 'Inference runs where a cache, a deterministic primitive or retrieval would have answered, spending joules the doctrine exists to save.',
  },
  // the groups of vectors/profiles/, each defining its own flags
  ...Object.assign({}, ...PROFILE_VECTOR_GROUPS.map((g) => g.flags)),
};
