// The rule breakers of mutation/testees/ (legacy.ts) and the clauses each breaks, with the files they are run over: one
// table for harness/self/testees.test.ts (on the reference) and harness/self/independent.test.ts (rebuilt on the
// independent implementation).

/** For each rule breaker, the clauses of the rule it breaks: every failing test must name one of them. */
export const BREAKERS: Record<string, readonly string[]> = {
  'debit-on-deny': ['jcp/7#debit-on-allow', 'jcp/5#debit-coupling', 'jcp/7#budget-exceeded'],
  'drop-inherited-caveat': ['jcp/4.9#child-carries-parent-caveats', 'jcp/4.9#drop-caveat-refused', 'jcp/4.2#caveats-every-link'],
  'accept-non-canonical': ['jcp/11#reject-non-canonical', 'jcp/3#shortest-integer-form', 'jcp/3#key-order-length-first', 'jcp/3#no-float-bool-null', 'jcp/3#canonical-det-cbor', 'jcp/3#open-key-order', 'jcp/3#open-tags-in-canonical-check'],
  // its own verifier refuses what it seals, so every decision's receipt fails to verify: C5 as well as C23
  'no-payload-hash': ['jcp/8#payload-hash-included', 'jcp/8#every-decision-sealed'],
};

/**
 * The files the rule breakers run over: the baseline classes' conformance tests and the third-party vectors. The later
 * classes' files (money, flow, replay, wire, …) re-check the same rules inside their own mechanisms — a deny debits
 * nothing, every receipt verifies — so a breaker fails them too, under their own clauses. Whether those files catch
 * their own classes' rule breakers is the clause-mutant kill matrix's job (npm run mutation:matrix); that they name
 * exactly the clause they catch it on is checked here for the baseline files only.
 */
export const BREAKER_FILES = [
  'cbor', 'chain', 'decision', 'frame', 'grant', 'identity', 'junk', 'properties', 'receipt-fields', 'receipt',
].map((f) => `harness/conformance/${f}.test.ts`).concat(['harness/external']);

