// profiles.json vectors of jcp:P-PROPAGATION, jcp:P-DYNAMISM, jcp:P-INFLIGHT, jcp:P-TRACE: the kinds' JSON Schemas and
// flags here, the cases in ./jcp-cases.ts (every expected answer written from the spec's words), the executor in
// ./jcp-execute.ts (each kind reports only what its clauses decide, normalised over the readings the spec permits).
// jcp:P-TRACE's §5.3 clauses are efficiency.json's Trace vectors; this group holds the rest of that profile.
import type { ProfileVectorGroup } from './group.ts';
import { JCP_PROFILE_TYPES } from './jcp-kinds.ts';
import { jcpCases } from './jcp-cases.ts';
import { JCP_RUN } from './jcp-execute.ts';
import { CID, DID, ERROR, HEX, SEED, UINT, obj, type S } from '../schema-parts.ts';

type Kind = (typeof JCP_PROFILE_TYPES)[number];

const ALLOW_OR_DENY: S = obj(['verdict'], { verdict: { enum: ['allow', 'deny'] }, deny_reason: { type: 'string' } });
const MEASURED_ON: S = obj(['silicon', 'occupancy', 'sampling_ns'], { silicon: { type: 'string' }, occupancy: { type: 'string' }, sampling_ns: UINT });
const WINDOWS_IN = (baseline: S, extra: S = {}, required: string[] = []): S =>
  obj(['series', 'windows', 'baseline', ...required], { series: MEASURED_ON, windows: { type: 'array', minItems: 1, items: obj(['duration_ns', 'uj'], { duration_ns: UINT, uj: UINT }) }, baseline, ...extra });
const BAND = { lo_uj: UINT, hi_uj: UINT };
const CAUSE: S = { enum: ['thermal-limit', 'host-contention', 'cold-start', 'frequency-scaling', 'coverage-gap'] };
const SHAPE: S = { enum: ['flat', 'ramp', 'alternating'] };
const PROVENANCE: S = { enum: ['HwShunt', 'ModelBased', 'Estimator'] };

/** Each kind's inputs and expected outputs (vectors/README.md's table, as jcp-execute.ts reads and reports them). */
const kinds: ProfileVectorGroup<Kind>['kinds'] = {
  PropagationAudit: {
    inputs: obj(['revoked_at', 'allows'], { revoked_at: UINT, allows: { type: 'array', items: obj([], { known_through: UINT }) } }),
    expected: { anyOf: [obj(['verdicts'], { verdicts: { type: 'array', items: { enum: ['explicable', 'violation', 'unverifiable-for-revocation'] } } }), ERROR] },
  },
  PropagationPath: {
    inputs: obj(['steward_seed', 'grants', 'points', 'ops'], {
      steward_seed: SEED,
      grants: {
        type: 'array',
        minItems: 1,
        items: {
          oneOf: [
            obj(['mint'], { mint: obj(['issuer_seed', 'subject', 'resource', 'actions', 'budget_uj', 'nonce'], { issuer_seed: SEED, subject: DID, resource: CID, actions: { type: 'array', items: { type: 'string' } }, budget_uj: UINT, nonce: HEX }) }),
            obj(['attenuate'], { attenuate: obj(['parent', 'holder_seed', 'subject', 'nonce'], { parent: UINT, holder_seed: SEED, subject: DID, nonce: HEX }) }),
          ],
        },
      },
      points: { type: 'array', minItems: 1, items: { type: 'string' } },
      ops: {
        type: 'array',
        items: {
          oneOf: [
            obj(['issue'], { issue: obj(['grant', 'revoker_seed', 'nonce'], { grant: UINT, revoker_seed: SEED, nonce: HEX }) }),
            obj(['deliver'], { deliver: { type: 'string' } }),
            obj(['decide'], { decide: obj(['point', 'chain', 'caller', 'resource', 'payload_hash', 'uj', 'now_s'], { point: { type: 'string' }, chain: { type: 'array', minItems: 1, items: UINT }, caller: DID, resource: CID, payload_hash: CID, uj: UINT, now_s: UINT }) }),
          ],
        },
      },
    }),
    expected: { anyOf: [obj(['defined', 'decisions', 'markers_hold'], { defined: { type: 'boolean' }, decisions: { type: 'array', items: ALLOW_OR_DENY }, markers_hold: { type: 'boolean' } }), ERROR] },
  },
  DynamismWindows: {
    inputs: WINDOWS_IN(obj(['lo_uj', 'hi_uj', 'measured_on'], { ...BAND, measured_on: MEASURED_ON })),
    expected: { anyOf: [obj(['windows'], { windows: { type: 'array', items: { type: 'string' } } }), ERROR] },
  },
  DynamismUndeclared: {
    inputs: WINDOWS_IN(obj(['lo_uj', 'hi_uj'], BAND)),
    expected: { anyOf: [obj(['applied'], { applied: { type: 'array', items: { type: 'boolean' } } }), ERROR] },
  },
  DynamismCauses: {
    inputs: WINDOWS_IN(obj(['lo_uj', 'hi_uj', 'measured_on'], { ...BAND, measured_on: MEASURED_ON }), { causes: { type: 'array', minItems: 1, items: obj(['window', 'cause'], { window: UINT, cause: CAUSE, evidence: CID }) } }, ['causes']),
    expected: { anyOf: [obj(['windows'], { windows: { type: 'array', items: obj(['window', 'explained'], { window: UINT, explained: { type: 'boolean' } }) } }), ERROR] },
  },
  DynamismShape: {
    inputs: obj(['declared', 'declared_at_ns', 'observed', 'observed_from_ns'], { declared: SHAPE, declared_at_ns: UINT, observed: SHAPE, observed_from_ns: UINT }),
    expected: { anyOf: [obj(['finding'], { finding: { type: 'string' } }), obj(['judged'], { judged: { const: false } }), ERROR] },
  },
  InflightScript: {
    inputs: obj(['issuer_seed', 'steward_seed', 'caller', 'now_s', 'grant', 'ops'], {
      issuer_seed: SEED,
      steward_seed: SEED,
      caller: DID,
      now_s: UINT,
      grant: obj(['subject', 'resource', 'actions', 'budget_uj', 'nonce'], { subject: DID, resource: CID, actions: { type: 'array', items: { type: 'string' } }, budget_uj: UINT, nonce: HEX }),
      ops: {
        type: 'array',
        minItems: 1,
        items: {
          oneOf: [
            obj(['open'], { open: { type: 'string' } }),
            obj(['close'], { close: { const: true } }),
            obj(['decide'], { decide: obj(['uj', 'payload_hash'], { uj: UINT, payload_hash: CID }) }),
            obj(['complete'], { complete: obj(['decision', 'outcome'], { decision: UINT, outcome: { enum: ['completed', 'failed'] } }) }),
            obj(['status'], { status: obj(['decision'], { decision: UINT }) }),
          ],
        },
      },
    }),
    expected: { anyOf: [obj(['ops'], { ops: { type: 'array', items: { oneOf: [obj(['decide'], { decide: ALLOW_OR_DENY }), obj(['status'], { status: { type: 'string' } })] } } }), ERROR] },
  },
  TraceUnjudgeable: {
    inputs: obj(['delta_uj', 'duration_ns', 'telemetry'], { delta_uj: UINT, duration_ns: UINT, telemetry: obj(['draw_mw'], { draw_mw: { type: 'array', items: UINT }, limit_mw: UINT }) }),
    expected: { anyOf: [obj(['overran'], { overran: { type: 'boolean' } }), ERROR] },
  },
  TraceFloorBasis: {
    inputs: obj(['budget_uj', 'provenances'], { budget_uj: UINT, provenances: { type: 'array', minItems: 1, items: PROVENANCE } }),
    expected: { anyOf: [obj(['rests_on'], { rests_on: { enum: ['measured', 'modelled'] } }), ERROR] },
  },
  TracePhysicalBound: {
    inputs: obj(['energy_uj', 'duration_ns', 'floor_mw', 'ceiling_mw'], { energy_uj: UINT, duration_ns: UINT, floor_mw: UINT, ceiling_mw: UINT }),
    expected: { anyOf: [obj(['finding'], { finding: { type: 'string' } }), ERROR] },
  },
};

/** The profiles.json group of jcp's suite-defined profiles: P-PROPAGATION, P-DYNAMISM, P-INFLIGHT and the rest of P-TRACE. */
export const jcpGroup: ProfileVectorGroup<Kind> = {
  profiles: ['jcp:P-PROPAGATION', 'jcp:P-DYNAMISM', 'jcp:P-INFLIGHT', 'jcp:P-TRACE'],
  types: JCP_PROFILE_TYPES,
  kinds,
  flags: {
    RevocationMarker: {
      bugType: 'REVOCATION',
      description: 'An allow audited against a revocation issued at marker M (jcp §4.3): explicable from a point at known_through < M, a violation at or above M, and unverifiable for revocation from a point that states no marker.',
      effect: 'An allow from a point that never said how current it was passes an audit as compliant, so a point that heard a revocation and ignored it cannot be told from one that had not heard.',
    },
    PropagationPath: {
      bugType: 'REVOCATION',
      description: 'The propagation path the implementation defines (jcp §4.3), run for a point, brings the revocation there: the point then denies the revoked grant and every chain containing it, and a stated marker says it has seen at least the revocation and never goes back.',
      effect: 'A revocation issued is never held where decisions are made, or a marker claims knowledge the point does not have: a revoked grant stays live at some enforcement points.',
    },
    BaselineScope: {
      bugType: 'ENERGY_ATTRIBUTION',
      description: 'A baseline applied only where it was measured (jcp §5.4): one declared nowhere, or measured on other silicon, at another occupancy or a coarser sampling window, is inapplicable.',
      effect: 'Deviations are manufactured from a yardstick that does not apply, and findings about the workload are invented.',
    },
    CauseEvidence: {
      bugType: 'ENERGY_ATTRIBUTION',
      description: "A named operational cause explains a deviation only with the content id of its supporting reading (jcp §5.4); windows no cause names with evidence are never explained.",
      effect: '"Explained" becomes the laundering channel: any inconvenient deviation is labelled and disappears.',
    },
    WindowFindings: {
      bugType: 'ENERGY_ATTRIBUTION',
      description: 'Unexplained, inapplicable and unresolvable windows kept apart, a phenomenon shorter than one sampling window unresolvable and never within band, and a deviation of any size unexplained rather than a verdict of intent (jcp §5.4).',
      effect: 'Three findings that call for different responses collapse into one score, or a deviation is reported as wrongdoing energy cannot show.',
    },
    ShapeInAdvance: {
      bugType: 'ENERGY_ATTRIBUTION',
      description: 'A work shape declared only once the observation had begun is no declaration (jcp §5.6); one declared in advance is refuted exactly when the observed shape differs.',
      effect: 'Post-hoc pattern matching: the shape is chosen after seeing the draw, so padding the books with a fictional operation is never refuted.',
    },
    InFlightUnresolved: {
      bugType: 'BUDGET_ENFORCEMENT',
      description: 'An allowed decision found on reopen with no recorded outcome (jcp §4.11): reported unresolved, never completed or failed, never decided again, its energy still debited, until an operator settles it.',
      effect: 'Paid work is retried and debited twice, or an action whose effect is unknown is reported as done or as failed.',
    },
    UnjudgeableCounter: {
      bugType: 'ENERGY_PROVENANCE',
      description: 'A counter judged with no usable draw reading left (every sample past the static limit) is unjudgeable and not reported as a counter that overran; the static limit is never discarded (jcp §5).',
      effect: 'An operator replaces a counter that was never shown wrong, or a counter past the static limit is excused by a broken draw sample.',
    },
    FloorBasis: {
      bugType: 'ENERGY_PROVENANCE',
      description: 'The conservation floor says whether it rests on measured figures or modelled ones (jcp §5.5): any ModelBased or Estimator figure makes it modelled.',
      effect: "A 1 ppm floor quoted over a model's figures reads as measured: exact arithmetic over a model's opinion passes for conservation.",
    },
    BoundNotVerification: {
      bugType: 'ENERGY_PROVENANCE',
      description: 'A figure inside the physical envelope (jcp §5.6), its edges included, is not refuted, and never reported as verified.',
      effect: 'Passing a permissive bound is read as proof the figure is true, though a fabricated figure inside the envelope passes too.',
    },
  },
  cases: jcpCases,
  run: JCP_RUN,
};
