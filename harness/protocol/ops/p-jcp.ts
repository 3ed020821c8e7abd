// The testee protocol's operations of the suite-defined profiles jcp:P-PROPAGATION, jcp:P-DYNAMISM (spec-map/profiles.json;
// harness/protocol/profiles/jcp.md).
import type { OpSpec, Shape } from '../shapes.ts';

/** jcp §4.3: the auditor's verdict on one allow against a revocation. */
const AUDIT_VERDICT: Shape = { enum: ['explicable', 'violation', 'unverifiable-for-revocation'] };

/** jcp §5.4: where a series or a baseline was measured. */
const MEASURED_ON: Shape = { map: { silicon: 'text', occupancy: 'text', sampling_ns: 'uint' } };
/** jcp §5.6: the shapes of work it names. */
const SHAPE: Shape = { enum: ['flat', 'ramp', 'alternating'] };

export const P_JCP_OPS: Readonly<Record<string, OpSpec>> = {
  // ---- jcp:P-PROPAGATION (jcp §4.3 Propagation) ----
  'propagation.define': {
    about: 'jcp:P-PROPAGATION (jcp §4.3)',
    args: { map: {} },
    result: { map: { path: 'text', marker: 'text' }, optional: ['marker'] },
  },
  'propagation.feed-new': { about: 'jcp:P-PROPAGATION (jcp §4.3)', args: { map: {} }, result: { map: { feed: 'text' } } },
  'propagation.issue': {
    about: 'jcp:P-PROPAGATION (jcp §4.3)',
    args: { map: { feed: 'text', revocation: 'bytes', grant: 'bytes' } },
    result: { map: { marker: 'uint' }, optional: ['marker'] },
  },
  'propagation.deliver': {
    about: 'jcp:P-PROPAGATION (jcp §4.3)',
    args: { map: { feed: 'text', point: 'text' } },
    result: { map: { known_through: 'uint' }, optional: ['known_through'] },
  },
  'propagation.audit': {
    about: 'jcp:P-PROPAGATION (jcp §4.3)',
    args: { map: { revoked_at: 'uint', allows: { array: { map: { known_through: 'uint' }, optional: ['known_through'] } } } },
    result: { map: { verdicts: { array: AUDIT_VERDICT } } },
  },
  // ---- jcp:P-DYNAMISM (jcp §5.4 Dynamism, §5.6 declared shapes) ----
  'dynamism.windows': {
    about: 'jcp:P-DYNAMISM (jcp §5.4)',
    args: {
      map: {
        series: MEASURED_ON,
        windows: { array: { map: { duration_ns: 'uint', uj: 'uint' } } },
        baseline: { map: { lo_uj: 'uint', hi_uj: 'uint', measured_on: MEASURED_ON }, optional: ['measured_on'] },
        causes: { array: { map: { window: 'uint', cause: { enum: ['thermal-limit', 'host-contention', 'cold-start', 'frequency-scaling', 'coverage-gap'] }, evidence: 'text' }, optional: ['evidence'] } },
      },
      optional: ['causes'],
    },
    // kind is text, not a closed list, so that an answer outside §5.4's kinds (a verdict of intent) reaches the test
    result: { map: { windows: { array: { map: { kind: 'text', cause: 'text', evidence: 'text' }, optional: ['cause', 'evidence'] } } } },
  },
  'dynamism.shape': {
    about: 'jcp:P-DYNAMISM (jcp §5.6)',
    args: { map: { declared: SHAPE, declared_at_ns: 'uint', observed: SHAPE, observed_from_ns: 'uint' } },
    result: { map: { finding: { enum: ['refuted', 'not-refuted', 'not-in-advance'] } } },
  },
};
