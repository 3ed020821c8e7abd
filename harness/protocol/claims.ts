// Which classes require which operations of jcp-testee/1: a testee that claims a class must implement every operation
// that class requires; an operation it answers `unimplemented` that no claimed class of the running test requires makes
// that test "not applicable" to the classes it does claim, neither passed nor failed (harness/PROTOCOL.md, "Claims").
// Derived from each class's line in jcp §9 (and the class lines of jouleclaw and sense): the operations through which a
// test can observe what the class line asks. One table, checked against OPS by harness/self/protocol.test.ts.

const j = (...ns: string[]) => ns.map((n) => `jcp:${n}`);

/** Classes whose tests decide frames at an enforcement point (jcp §7): they need a point and its decision. */
const DECIDING = j('C1', 'C2', 'C3', 'C4', 'C5', 'C6', 'C7', 'C10', 'C14', 'C15', 'C16', 'C19', 'C22', 'C23', 'C24', 'C25', 'C-neg');

/** Every operation, with the classes whose claim requires it. An operation no class requires maps to []. */
export const OP_CLASSES: Readonly<Record<string, readonly string[]>> = {
  hello: [],
  // jcp §2 identity and §3 encoding (C1: "a grant verifies only for its issuer's key"; C-neg: "canonical CBOR rejects floats/bools")
  'identity.from-seed': j('C1'),
  'identity.parse-did': j('C1'),
  'ed25519.sign': j('C1'),
  'ed25519.verify': j('C1', 'C13', 'C18'),
  'cbor.check': j('C1', 'C-neg'),
  // jcp §4 grants
  'grant.mint': [...DECIDING, ...j('C11', 'C17', 'C20', 'C21', 'C26')],
  'grant.attenuate': j('C2', 'C6', 'C7', 'C10', 'C16', 'C22', 'C24'),
  'grant.shard': j('C11'),
  'grant.verify': j('C1', 'C2', 'C7', 'C10', 'C-neg'),
  // the suite's tool for hostile grants (an amplifying child, a stranger's signature): the classes whose tests present one
  'grant.forge': j('C1', 'C2', 'C6', 'C7', 'C10', 'C22', 'C24', 'C-neg'),
  'revocation.mint': j('C6'),
  'frame.check': j('C4', 'C19'),
  // jcp §7 the decision, §8 the receipt
  'point.new': DECIDING,
  'point.decide': DECIDING,
  'point.spent': j('C3', 'C7', 'C14', 'C16', 'C22'),
  'point.trust-roots': j('C15'),
  'point.revoke': j('C6'),
  'point.authorize': j('C24'),
  'point.settle': j('C24'),
  'point.taint-floor': j('C25'),
  'point.spent-funds': j('C22'),
  'receipt.verify': j('C5', 'C14', 'C23'),
  'point.replay': j('C14', 'C16'),
  'accounting.group': j('C14'),
  // jcp §2.1 rotation, §2.2 threshold actors
  'rotation.incept': j('C12'),
  'rotation.rotate': j('C12'),
  'rotation.verify': j('C12'),
  'threshold.dealer': j('C13'),
  'threshold.dkg': j('C18'),
  'threshold.sign': j('C13', 'C18'),
  // jcp §4.5 channels, §4.6 standing grants, §4.7 checkpoints
  ...Object.fromEntries(['open', 'spend', 'statement', 'apply', 'ledger', 'overdraft-proof', 'verify-overdraft'].map((o) => [`channel.${o}`, j('C17')])),
  ...Object.fromEntries(['author', 'fire', 'ledger'].map((o) => [`standing.${o}`, j('C20')])),
  ...Object.fromEntries(['sign', 'amend', 'verify'].map((o) => [`checkpoint.${o}`, j('C21')])),
  // jcp §6.1 continuations (their clauses belong to C8 and C25), §4.10 forwarding (C25), §4.11 durable spend
  ...Object.fromEntries(['relay', 'first', 'bind', 'next', 'admit', 'close'].map((o) => [`continuation.${o}`, j('C8', 'C25')])),
  'forward.new': j('C25'),
  'forward.send': j('C25'),
  'durable.open': j('C14', 'C16', 'C26'),
  'durable.decide': j('C14', 'C16', 'C26'),
  'durable.close': j('C14', 'C16', 'C26'),
  // optional (jcp §4.11's in-flight state): without them the tests that need them read not applicable
  'durable.complete': ['jcp:P-INFLIGHT'],
  'durable.status': ['jcp:P-INFLIGHT'],
  // a testee without its own endpoint has its wire classes read NEEDS ENDPOINT (never failed): no class requires these
  'endpoint.start': [],
  'endpoint.restart': [],
};

/**
 * By prefix: the energy operations (jcp §5, C9; the same judgements sense §7 and jouleclaw §1.3 ask of their
 * figures), the transparency log, and the operations of the suite-defined profiles (spec-map/profiles.json), one
 * namespace each.
 */
const BY_PREFIX: ReadonlyArray<readonly [string, readonly string[]]> = [
  ['energy.', [...j('C9'), 'jcp:P-TRACE', 'sense:P-ENERGY', 'jouleclaw:P-ENERGY']],
  ['tlog.', ['jouleclaw:C-TLOG', 'jouleclaw:P-LOGGED']],
  ['propagation.', ['jcp:P-PROPAGATION']],
  ['dynamism.', ['jcp:P-DYNAMISM']],
  ['cascade.', ['jouleclaw:P-CASCADE']],
  ['claims.', ['jouleclaw:P-CLAIMS']],
  ['jc-energy.', ['jouleclaw:P-ENERGY']],
  ['mcp.', ['jouleclaw:P-MCP']],
  ['sidecar.', ['jouleclaw:P-SIDECAR']],
  ['workspace.', ['jouleclaw:P-WORKSPACE']],
  ['skill.', ['jouleclaw:P-SKILL']],
  ['vocab.', ['jouleclaw:P-VOCAB']],
  ['shapes.', ['jouleclaw:P-SHAPES']],
  ['orchestrator.', ['jouleclaw:P-ORCHESTRATOR']],
  ['value.', ['jouleclaw:P-VALUE']],
  ['observer.', ['sense:P-OBSERVER']],
  ['sense-energy.', ['sense:P-ENERGY']],
  ['jc.policy-', ['jouleclaw:P-POLICY']],
  ['jc.verify-policy-receipt', ['jouleclaw:P-POLICY']],
  ['jc.agent-check', ['jouleclaw:P-POLICY']],
  ['jc.receipt.', ['jouleclaw:P-RECEIPT']],
  ['jc.contract.', ['jouleclaw:P-CONTRACT']],
  ['jc.verdict.', ['jouleclaw:P-CONTRACT']],
  ['jc.run.', ['jouleclaw:P-HANDOFF']],
  ['jc.', []],
];

/** sense §2–§11: each operation's classes (sense §12's class lines; sense §6's answer energy, sense:P-HONESTY). */
const SENSE: Readonly<Record<string, readonly string[]>> = {
  'sense.event-id': ['sense:C2'],
  'sense.replay': ['sense:C1'],
  'sense.clock': ['sense:C1'],
  'sense.project': ['sense:P-OBSERVER'],
  'sense.detect': ['sense:C3'],
  'sense.gate': ['sense:C3'],
  'sense.ask': ['sense:C4', 'sense:P-HONESTY'],
  'sense.seal': ['sense:C5'],
  'sense.verify-chain': ['sense:C5'],
  'sense.inject': ['sense:C6'],
  'sense.agent-kinds': ['sense:C6'],
  'sense.agent-author': ['sense:C6'],
};

/** The classes whose claim requires `op` ([] for an operation no class requires, or one this suite does not know). */
export function classesRequiring(op: string): readonly string[] {
  const direct = OP_CLASSES[op];
  if (direct) return direct;
  const s = SENSE[op];
  if (s) return s;
  for (const [prefix, classes] of BY_PREFIX) if (op.startsWith(prefix)) return classes;
  return [];
}

/** Whether a test of `testClasses`, run on a testee claiming `claims`, requires `op`: some class of the test that is claimed requires it. */
export function requiredByClaimed(op: string, testClasses: readonly string[], claims: readonly string[]): boolean {
  return classesRequiring(op).some((k) => testClasses.includes(k) && claims.includes(k));
}

/** Whether `op` belongs to a class the testee claims (an operation of no class counts as belonging). */
export function opOfClaimedClass(op: string, claims: readonly string[]): boolean {
  const ks = classesRequiring(op);
  return ks.length === 0 || ks.some((k) => claims.includes(k));
}
