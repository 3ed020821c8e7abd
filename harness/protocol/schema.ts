// The testee protocol's messages and their shapes (harness/PROTOCOL.md, harness/protocol/testee.cddl): one table that
// the drivers validate every message against, so a testee's drift is caught at the message that drifted.
import type { CborValue } from '../../impl/cbor/index.ts';
import { ERROR_CODES } from '../../impl/errors.ts';

/** The protocol version this suite speaks. A testee naming another is refused at the handshake. */
export const PROTOCOL_VERSION = 'jcp-testee/1';

/** A value's expected shape. */
export type Shape =
  | 'text'
  | 'uint'
  | 'bytes'
  | 'bytes16'
  | 'bytes32'
  | 'bytes64'
  | 'any'
  | { readonly enum: readonly string[] }
  | { readonly array: Shape; readonly min?: number }
  | { readonly map: Readonly<Record<string, Shape>>; readonly optional?: readonly string[] }
  | { readonly textMap: Shape };

const cid: Shape = 'text';
const did: Shape = 'text';
const PROVENANCE: Shape = { enum: ['HwShunt', 'ModelBased', 'Estimator'] };
const VERDICT: Shape = { enum: ['allow', 'deny'] };
const VALIDITY: Shape = { enum: ['valid', 'invalid'] };

const CAVEAT: Shape = 'any'; // a one-entry map {Variant: parameter}; its content is checked by the implementation under test
const GRANT_FIELDS: Shape = {
  map: {
    subject: did,
    capability: { map: { resource: cid, actions: { array: 'text' } } },
    budget_uj: 'uint',
    expiry: 'uint',
    nonce: 'bytes16',
    budget_funds: { map: { currency: 'text', minor: 'uint' } },
    caveats: { array: CAVEAT, min: 1 },
    delegate_depth: 'uint',
  },
  optional: ['budget_funds', 'caveats', 'delegate_depth'],
};
const CHILD_FIELDS: Shape = {
  map: {
    subject: did,
    actions: { array: 'text' },
    budget_uj: 'uint',
    expiry: 'uint',
    delegate_depth: 'uint',
    add_caveats: { array: CAVEAT },
    budget_funds: { map: { currency: 'text', minor: 'uint' } },
    nonce: 'bytes16',
  },
  optional: ['actions', 'budget_uj', 'expiry', 'delegate_depth', 'add_caveats', 'budget_funds'],
};
const MINTED: Shape = { map: { signed_grant: 'bytes', grant_id: cid } };
/** A grant's fields in the protocol's neutral form (caveats as {Variant: parameter}), whatever its signed layout. */
const GRANT_VIEW: Shape = {
  map: { ...(GRANT_FIELDS as { map: Record<string, Shape> }).map, issuer: did, parent: cid },
  optional: ['budget_funds', 'caveats', 'delegate_depth', 'parent'],
};
const FRAME: Shape = {
  map: { kind: 'text', trust: 'text', grant_id: 'text', action: 'text', resource: 'text', payload_hash: 'text', model: 'text' },
  optional: ['model'],
};
const COST: Shape = { map: { uj: 'uint', provenance: PROVENANCE, coverage: { enum: ['Partial'] } }, optional: ['coverage'] };
// ---- jcp §4.8 money cost and §4.10 label on a decision (optional: a testee without them stays valid) ----
const FUNDS: Shape = { map: { currency: 'text', minor: 'uint' } };
// origins is [text…] or "any", readers [did…] or "all": checked by the implementation under test
const LABEL: Shape = { map: { integrity: { enum: ['principal', 'untrusted'] }, origins: 'any', readers: 'any' } };
const DECIDE_ARGS: Shape = {
  map: { point: 'text', frame: FRAME, chain: { array: 'bytes', min: 1 }, caller: did, cost: COST, now_s: 'uint', cost_funds: FUNDS, label: LABEL },
  optional: ['cost_funds', 'label'],
};
// ---- end §4.8 / §4.10 decision fields ----

/** One operation: the shape of its arguments and of its result. */
export interface OpSpec {
  readonly args: Shape;
  readonly result: Shape;
  /** The class ids whose tests use it (informative). */
  readonly about: string;
}

/** Every operation of protocol jcp-testee/1. */
export const OPS: Readonly<Record<string, OpSpec>> = {
  hello: {
    about: 'handshake',
    args: { map: { protocol: 'text', suite: 'text' } },
    result: {
      map: { name: 'text', version: 'text', protocol: 'text', language: 'text', claims: { array: 'text' }, features: { array: 'text' }, readings: { textMap: 'text' } },
      optional: ['language', 'features', 'readings'],
    },
  },
  'identity.from-seed': { about: 'jcp §2', args: { map: { seed: 'bytes32' } }, result: { map: { public_key: 'bytes32', did: did } } },
  'identity.parse-did': { about: 'jcp §2', args: { map: { did: 'text' } }, result: { map: { public_key: 'bytes32' } } },
  'ed25519.sign': { about: 'jcp §2', args: { map: { seed: 'bytes32', message: 'bytes' } }, result: { map: { signature: 'bytes64' } } },
  'ed25519.verify': {
    about: 'jcp §2',
    args: { map: { public_key: 'bytes', message: 'bytes', signature: 'bytes' } },
    result: { map: { verdict: VALIDITY } },
  },
  'cbor.check': { about: 'jcp §3, §11', args: { map: { bytes: 'bytes' } }, result: { map: { canonical: 'bytes' } } },
  'grant.mint': { about: 'jcp §4', args: { map: { issuer_seed: 'bytes32', grant: GRANT_FIELDS } }, result: MINTED },
  'grant.attenuate': {
    about: 'jcp §4.1, §4.4',
    args: { map: { parent: 'bytes', holder_seed: 'bytes32', child: CHILD_FIELDS } },
    result: MINTED,
  },
  'grant.shard': {
    about: 'jcp §4.5',
    args: { map: { parent: 'bytes', holder_seed: 'bytes32', slices: { array: { map: { subject: did, budget_uj: 'uint', nonce: 'bytes16' } }, min: 1 } } },
    result: { map: { grants: { array: MINTED } } },
  },
  'grant.verify': {
    about: 'jcp §4: the signature verdict, the content id, and (optional) the grant read back in the neutral form',
    args: { map: { signed_grant: 'bytes' } },
    result: { map: { verdict: VALIDITY, grant_id: cid, grant: GRANT_VIEW }, optional: ['grant'] },
  },
  'grant.forge': {
    about: 'harness tooling: sign exactly the fields given, in the testee\'s own layout, with no check of authority or narrowing (hostile objects: an amplifying child, a stranger\'s grant, a broken signature)',
    args: { map: { signer_seed: 'bytes32', grant: GRANT_VIEW, tamper: { enum: ['signature'] } }, optional: ['tamper'] },
    result: MINTED,
  },
  'revocation.mint': {
    about: 'jcp §4.3',
    args: { map: { revoker_seed: 'bytes32', grant_id: cid, nonce: 'bytes16' } },
    result: { map: { signed_revocation: 'bytes' } },
  },
  'frame.check': { about: 'jcp §6', args: { map: { frame: 'bytes' } }, result: { map: { frame: FRAME } } },
  'point.new': {
    about: 'jcp §7',
    args: { map: { steward_seed: 'bytes32', trust_roots: { textMap: { array: did } } }, optional: ['trust_roots'] },
    result: { map: { point: 'text' } },
  },
  'point.trust-roots': { about: 'jcp §7 C15', args: { map: { point: 'text', resource: cid, roots: { array: did } } }, result: { map: {} } },
  'point.revoke': { about: 'jcp §4.3', args: { map: { point: 'text', revocation: 'bytes', grant: 'bytes' } }, result: { map: {} } },
  'point.decide': {
    about: 'jcp §7, §8 (optional cost_funds §4.8 C22, label §4.10 C25)',
    args: DECIDE_ARGS,
    result: { map: { verdict: VERDICT, deny_reason: 'text', receipt: 'bytes' }, optional: ['deny_reason'] },
  },
  // ---- jcp §4.8 money (C22), §4.9 the two-phase metered path (C24), §4.10 flow (C25) ----
  'point.authorize': {
    about: 'jcp §4.9 metered path, first phase (C24)',
    args: DECIDE_ARGS,
    result: {
      map: { verdict: { enum: ['authorized', 'deny'] }, deny_reason: 'text', receipt: 'bytes', ticket: 'text', pending_caveats: { array: CAVEAT } },
      optional: ['deny_reason', 'receipt', 'ticket', 'pending_caveats'],
    },
  },
  'point.settle': {
    about: 'jcp §4.9 metered path, the debit point (C24)',
    args: { map: { point: 'text', ticket: 'text', cost: COST, now_s: 'uint' } },
    result: { map: { verdict: VERDICT, deny_reason: 'text', receipt: 'bytes' }, optional: ['deny_reason'] },
  },
  'point.taint-floor': { about: 'jcp §4.10 (C25)', args: { map: { point: 'text', resource: cid, origins: { array: 'text' } } }, result: { map: {} } },
  'point.spent-funds': { about: 'jcp §4.8 (C22)', args: { map: { point: 'text', grant_id: cid } }, result: { map: { spent_minor: 'uint' } } },
  // ---- end §4.8 / §4.9 / §4.10 ----
  // ---- jcp §5 energy honesty (C9): pure judgements over samples (impl/energy) ----
  ...((): Record<string, OpSpec> => {
    const ENERGY: Shape = { map: { measured_uj: 'uint', estimated_uj: 'uint', provenance: PROVENANCE, coverage: { enum: ['Partial'] } }, optional: ['measured_uj', 'coverage'] };
    const COUNTER: Shape = {
      map: { zone: 'text', name: 'text', max_energy_range_uj: 'uint', samples: { array: { map: { t_ns: 'uint', value: 'uint' } } } },
      optional: ['zone', 'max_energy_range_uj'],
    };
    const LIVE: Shape = { enum: ['live', 'not-live'] };
    const TELEMETRY: Shape = { map: { draw_mw: { array: 'uint' }, limit_mw: 'uint' }, optional: ['limit_mw'] };
    const PLAUSIBILITY: Shape = {
      map: {
        verdict: { enum: ['not-refuted', 'counter-under-rate', 'counter-over-rate', 'indeterminate', 'no-bound'] },
        rate_mw: 'uint',
        bound: { enum: ['draw', 'limit'] },
        bound_mw: 'uint',
        floor_mw: 'uint',
        ceiling_mw: 'uint',
        mean_draw_mw: 'uint',
        reason: 'text',
        discarded: 'uint',
      },
      optional: ['bound', 'bound_mw', 'floor_mw', 'ceiling_mw', 'mean_draw_mw', 'reason', 'discarded'],
    };
    const FIGURE: Shape = { map: { uj: 'uint', provenance: PROVENANCE, coverage: { enum: ['Partial'] } }, optional: ['coverage'] };
    const THREAD_CHECK: Shape = { map: { before_nj: 'uint', after_nj: 'uint' } };
    const MEMBER: Shape = {
      map: {
        pid: 'uint',
        start_time: 'uint',
        parent: 'uint',
        reaped_cpu_ns: 'uint',
        exit_time: 'uint',
        threads: { array: { enum: ['running', 'stopped', 'waiting', 'uninterruptible', 'halted'] } },
        child_gone: { enum: ['gone'] },
      },
      optional: ['exit_time', 'child_gone'],
    };
    const TREE_END: Shape = { map: { walk: { array: MEMBER }, confirm: { array: MEMBER } }, optional: ['confirm'] };
    return {
      'energy.make': {
        about: 'jcp §5, §5.1 (C9)',
        args: {
          map: {
            measured_uj: 'uint',
            estimated_uj: 'uint',
            provenance: PROVENANCE,
            coverage: { enum: ['Partial'] },
            obtained: {
              map: {
                how: { enum: ['counter', 'apportioned-reading', 'host-calibrated-model', 'uncalibrated-model', 'constant'] },
                live: LIVE,
                read: { enum: ['both-ends', 'failed-mid-reading'] },
                plausibility: { enum: ['not-refuted', 'no-bound', 'refuted', 'indeterminate'] },
                covers: { enum: ['Whole', 'Partial'] },
              },
              optional: ['live', 'read', 'plausibility', 'covers'],
            },
          },
          optional: ['measured_uj', 'coverage'],
        },
        result: { map: { energy: ENERGY } },
      },
      'energy.liveness': {
        about: 'jcp §5 Liveness (C9)',
        args: { map: { counters: { array: COUNTER, min: 1 } } },
        result: {
          map: {
            verdict: LIVE,
            not_live: { array: 'text' },
            counters: { array: { map: { name: 'text', verdict: LIVE, reason: 'text', counted: 'uint', advanced: 'uint', counted_ns: 'uint' }, optional: ['reason'] } },
          },
        },
      },
      'energy.rapl': {
        about: 'jcp §5.1 rung 1 (C9)',
        args: { map: { zones: { array: COUNTER } } },
        result: {
          map: { total_uj: 'uint', summed: { array: 'text' }, excluded: { array: { map: { zone: 'text', reason: 'text' } } }, verdict: LIVE, not_live: { array: 'text' } },
          optional: ['total_uj'],
        },
      },
      'energy.plausibility': {
        about: 'jcp §5 Plausibility (C9)',
        args: { map: { delta_uj: 'uint', duration_ns: 'uint', telemetry: TELEMETRY } },
        result: PLAUSIBILITY,
      },
      'energy.ladder': {
        about: 'jcp §5.1 (C9)',
        args: {
          map: {
            rungs: {
              array: {
                map: {
                  rung: { enum: ['rapl', 'nvml', 'proc-self', 'proc-tree', 'ioreport'] },
                  status: { enum: ['absent', 'failed', 'read'] },
                  at: { enum: ['start', 'stop'] },
                  error: 'text',
                  counters: { array: COUNTER },
                  telemetry: TELEMETRY,
                  gaps: { array: 'text' },
                },
                optional: ['at', 'error', 'counters', 'telemetry', 'gaps'],
              },
            },
            calibrated_uj: 'uint',
            estimated_uj: 'uint',
          },
          optional: ['calibrated_uj'],
        },
        result: {
          map: {
            rung: 'text',
            energy: ENERGY,
            declined: { array: { map: { rung: 'text', reason: 'text', detail: 'text', not_live: { array: 'text' }, plausibility: PLAUSIBILITY }, optional: ['detail', 'not_live', 'plausibility'] } },
          },
        },
      },
      'energy.task-total': { about: 'jcp §5.2 (C9)', args: { map: { energy: ENERGY } }, result: { map: { total_uj: 'uint' } } },
      'energy.efficiency-seal': {
        about: 'jcp §5.2 efficiency/1 (C9)',
        args: { map: { energy: ENERGY, accepted_tokens: 'uint' } },
        result: { map: { payload: { textMap: 'any' } } },
      },
      'energy.efficiency-read': {
        about: 'jcp §5.2 efficiency/1 (C9)',
        args: { map: { payload: { textMap: 'any' } } },
        result: { map: { energy_uj: 'uint', provenance: PROVENANCE, coverage: { enum: ['Partial'] } }, optional: ['coverage'] },
      },
      // ---- jcp §5.2 totals over efficiency/1 receipts (C9) ----
      'energy.efficiency-totals': {
        about: 'jcp §5.2 (C9): the sum, the provenance floor, Partial when any is, a per-unit figure only when Whole',
        args: { map: { payloads: { array: { textMap: 'any' }, min: 1 }, units: 'uint' } },
        result: { map: { energy_uj: 'uint', provenance_floor: PROVENANCE, coverage: { enum: ['Partial'] }, units: 'uint', uj_per_unit: 'uint' }, optional: ['coverage', 'uj_per_unit'] },
      },
      // ---- end totals ----
      'energy.trace': {
        about: 'jcp §5.3',
        args: { map: { outcome: FIGURE, activity_ids: { array: 'text' }, activities: { textMap: FIGURE } } },
        // residual_uj is a signed integer (never clamped): 'any' because the table has no signed-int shape
        result: { map: { residual_uj: 'any', activities_uj: 'uint', provenance: PROVENANCE, coverage: { enum: ['Partial'] } }, optional: ['coverage'] },
      },
      'energy.conservation-floor': {
        about: 'jcp §5.5',
        args: { map: { budget_uj: 'uint', provenances: { array: PROVENANCE, min: 1 } } },
        result: { map: { ppm_numerator: 'uint', ppm_denominator: 'uint', rests_on: { enum: ['measured', 'modelled'] } } },
      },
      'energy.physical-bound': {
        about: 'jcp §5.6',
        args: { map: { energy_uj: 'uint', duration_ns: 'uint', floor_mw: 'uint', ceiling_mw: 'uint' } },
        result: { map: { finding: 'text' } },
      },
      'energy.proc-span': {
        about: 'jcp §5.1 rung 3 (C9)',
        args: {
          map: {
            self: { map: { start: THREAD_CHECK, stop: THREAD_CHECK } },
            tree: { map: { start: TREE_END, stop: TREE_END, declaration: { enum: ['declared', 'undeclared'] } } },
            gaps: { array: 'text' },
          },
          optional: ['self', 'tree', 'gaps'],
        },
        result: { map: { verdict: { enum: ['reading', 'no-reading'] }, why_not: 'text', coverage: { enum: ['Whole', 'Partial'] }, gaps: { array: 'text' } }, optional: ['why_not', 'coverage'] },
      },
    };
  })(),
  // ---- end jcp §5 energy ----
  'point.spent': { about: 'jcp §7', args: { map: { point: 'text', grant_id: cid } }, result: { map: { spent_uj: 'uint' } } },
  'receipt.verify': {
    about: 'jcp §8',
    args: { map: { receipt: 'bytes', steward: did }, optional: ['steward'] },
    result: { map: { core: { textMap: 'any' } } },
  },
  // ---- jcp §2.1 rotation (C12) and §2.2 threshold actors (C13, C18) ----
  'rotation.incept': {
    about: 'jcp §2.1 (C12)',
    args: { map: { identity_seed: 'bytes32', next_public_key: 'bytes32', nonce: 'bytes16' } },
    result: { map: { key_event: 'bytes', event_id: cid } },
  },
  'rotation.rotate': {
    about: 'jcp §2.1 (C12)',
    args: { map: { prior: 'bytes', signer_seed: 'bytes32', next_public_key: 'bytes32', nonce: 'bytes16' } },
    result: { map: { key_event: 'bytes', event_id: cid } },
  },
  'rotation.verify': {
    about: 'jcp §2.1 (C12)',
    args: { map: { log: { array: 'bytes' } } },
    result: { map: { identity: did, current: did, seq: 'uint', next_hash: cid, head: cid } },
  },
  'threshold.dealer': {
    about: 'jcp §2.2 (C13)',
    args: { map: { min: 'uint', max: 'uint', seed: 'bytes32' } },
    result: { map: { group_public_key: 'bytes32', did: did, shares: { array: { map: { identifier: 'uint', signing_share: 'bytes32' } } } } },
  },
  'threshold.dkg': {
    about: 'jcp §2.2 (C18)',
    args: { map: { min: 'uint', max: 'uint', seeds: { array: 'bytes32' } } },
    result: { map: { participants: { array: { map: { identifier: 'uint', signing_share: 'bytes32', group_public_key: 'bytes32' } } } } },
  },
  'threshold.sign': {
    about: 'jcp §2.2 (C13, C18)',
    args: {
      map: {
        min: 'uint',
        max: 'uint',
        group_public_key: 'bytes32',
        signers: { array: { map: { identifier: 'uint', signing_share: 'bytes32' } } },
        message: 'bytes',
        nonce_seed: 'bytes32',
        nonce_randomness: { array: { map: { identifier: 'uint', hiding: 'bytes32', binding: 'bytes32' } } },
      },
      optional: ['nonce_seed', 'nonce_randomness'],
    },
    result: {
      map: {
        signature: 'bytes64',
        shares: { array: { map: { identifier: 'uint', hiding_commitment: 'bytes32', binding_commitment: 'bytes32', sig_share: 'bytes32' } } },
      },
    },
  },
  // ---- end §2.1 / §2.2 ----
  // ---- jcp §4.7 checkpoints and amendments (C21) ----
  'checkpoint.sign': {
    about: 'jcp §4.7 (C21)',
    args: {
      map: { agent_seed: 'bytes32', grant: 'bytes', state: cid, spent: { map: { uj: 'uint', provenance: PROVENANCE } }, prev: 'bytes', via: 'bytes' },
      optional: ['spent', 'prev', 'via'],
    },
    result: { map: { signed_checkpoint: 'bytes', checkpoint_id: cid } },
  },
  'checkpoint.amend': {
    about: 'jcp §4.7 (C21)',
    args: {
      map: {
        amender_seed: 'bytes32',
        grant: 'bytes',
        checkpoint: 'bytes',
        prev: 'bytes',
        via: 'bytes',
        amendment: { map: { budget_uj: 'uint', actions: { array: 'text' }, expiry: 'uint', instructions: cid }, optional: ['actions', 'expiry', 'instructions'] },
      },
      optional: ['prev', 'via'],
    },
    result: { map: { signed_amendment: 'bytes', amendment_id: cid, continuation: MINTED } },
  },
  'checkpoint.verify': {
    about: 'jcp §4.7 (C21)',
    args: { map: { grant: 'bytes', checkpoint: 'bytes', amendment: 'bytes', continuation: 'bytes', prev: 'bytes', via: 'bytes' }, optional: ['continuation', 'prev', 'via'] },
    result: { map: { checkpoint_id: cid, amendment_id: cid, remainder_uj: 'uint' }, optional: ['remainder_uj'] },
  },
  // ---- end §4.7 ----
  // ---- jcp §4.5 budget channels (C17) and §4.6 standing grants (C20) ----
  'channel.open': {
    about: 'jcp §4.5 (C17)',
    args: { map: { point_seed: 'bytes32', chain: { array: 'bytes', min: 1 }, members: { array: did, min: 1 } } },
    result: { map: { channel: 'text' } },
  },
  'channel.spend': {
    about: 'jcp §4.5 (C17)',
    args: { map: { channel: 'text', cost_uj: 'uint' } },
    result: { map: { verdict: VERDICT, deny_reason: 'text' }, optional: ['deny_reason'] },
  },
  'channel.statement': { about: 'jcp §4.5 (C17)', args: { map: { channel: 'text' } }, result: { map: { signed_statement: 'bytes' } } },
  'channel.apply': { about: 'jcp §4.5 (C17)', args: { map: { channel: 'text', statement: 'bytes' } }, result: { map: {} } },
  'channel.ledger': {
    about: 'jcp §4.5 (C17)',
    args: { map: { channel: 'text' } },
    result: { map: { local_uj: 'uint', total_uj: 'uint', peers: { textMap: { map: { seq: 'uint', spent_uj: 'uint' } } } } },
  },
  'channel.overdraft-proof': { about: 'jcp §4.5 (C17)', args: { map: { channel: 'text' } }, result: { map: { proof: 'bytes' }, optional: ['proof'] } },
  'channel.verify-overdraft': {
    about: 'jcp §4.5 (C17)',
    args: { map: { proof: 'bytes', members: { array: did, min: 1 } } },
    result: { map: { overdraft_uj: 'uint' } },
  },
  'standing.author': {
    about: 'jcp §4.6 (C20)',
    args: { map: { issuer_seed: 'bytes32', grant: 'bytes', policy: { map: { event_class: cid, per_firing_uj: 'uint', max_firings: 'uint' } } } },
    result: { map: { signed_policy: 'bytes', policy_id: cid } },
  },
  'standing.fire': {
    about: 'jcp §4.6 (C20)',
    args: { map: { point: 'text', policy: 'bytes', grant: 'bytes', holder_seed: 'bytes32', event_class: cid, child: { map: { subject: did, nonce: 'bytes16' } } } },
    result: MINTED,
  },
  'standing.ledger': {
    about: 'jcp §4.6 (C20)',
    args: { map: { point: 'text', policy_id: cid, grant_id: cid } },
    result: { map: { firings: 'uint', cumulative_uj: 'uint' } },
  },
  // ---- end §4.5 channels / §4.6 ----
  // ---- jcp §8.1 replay (C14, C16), §8.2 group accounting (C14), §6.1 continuations (C8, C25) ----
  'point.replay': {
    about: 'jcp §8.1 (C14, C16)',
    args: { map: { point: 'text', receipts: { array: 'bytes' } } },
    result: {
      map: {
        verified: 'uint',
        allowed: 'uint',
        refused: 'uint',
        refusals: { array: { map: { index: 'uint', code: { enum: ERROR_CODES } } } },
        spend: { textMap: 'uint' },
      },
    },
  },
  'accounting.group': {
    about: 'jcp §8.2 (C14)',
    args: { map: { steward: did, receipts: { array: 'bytes' } } },
    result: {
      map: {
        rows: { array: { map: { grant_id: cid, subject: did, allowed: 'uint', refused: 'uint', spent_uj: 'uint' } } },
        verified: 'uint',
        unverified: 'uint',
        failures: { array: { map: { index: 'uint', code: { enum: ERROR_CODES } } } },
      },
    },
  },
  'continuation.relay': { about: 'jcp §6.1', args: { map: { point: 'text', steward_seed: 'bytes32' } }, result: { map: { relay: 'text' } } },
  'continuation.first': {
    about: 'jcp §6.1',
    args: { map: { relay: 'text', frame: FRAME, chain: { array: 'bytes', min: 1 }, caller: did, cost: COST, now_s: 'uint', label: LABEL }, optional: ['label'] },
    result: { map: { verdict: VERDICT, deny_reason: 'text', receipt: 'bytes', receipt_id: cid }, optional: ['deny_reason'] },
  },
  'continuation.bind': { about: 'jcp §6.1', args: { map: { relay: 'text', receipt_id: cid, handle: 'text' } }, result: { map: {} } },
  'continuation.next': {
    about: 'jcp §6.1',
    args: {
      map: { relay: 'text', handle: 'text', sent_hash: cid, frame: FRAME, chain: { array: 'bytes', min: 1 }, caller: did, cost: COST, now_s: 'uint', label: LABEL },
      optional: ['label'],
    },
    result: { map: { verdict: VERDICT, deny_reason: 'text', receipt: 'bytes', receipt_id: cid }, optional: ['deny_reason'] },
  },
  'continuation.admit': {
    about: 'jcp §6.1',
    args: { map: { relay: 'text', handle: 'text', outcome_digest: cid, output_label: LABEL }, optional: ['output_label'] },
    result: { map: { frame: FRAME, label: LABEL }, optional: ['label'] },
  },
  'continuation.close': {
    about: 'jcp §6.1',
    args: { map: { relay: 'text', handle: 'text', outcome_digest: cid, now_s: 'uint', between: COST }, optional: ['between'] },
    result: { map: { verdict: VERDICT, deny_reason: 'text', receipt: 'bytes', receipt_id: cid, record: 'bytes' }, optional: ['deny_reason'] },
  },
  // ---- end §8.1 / §8.2 / §6.1 ----
  // ---- jcp §4.10 forwarding: open fields labelled and sealed with the arguments, or not forwarded (C25) ----
  'forward.new': {
    about: 'jcp §4.10 C25',
    args: { map: { point: 'text', omit: { array: 'text' } }, optional: ['omit'] },
    result: { map: { forwarder: 'text', omitted_fields: { array: 'text' } } },
  },
  'forward.send': {
    about: 'jcp §4.10 C25',
    args: {
      map: {
        forwarder: 'text',
        route: { map: { kind: 'text', trust: 'text', grant_id: 'text', action: 'text', resource: 'text', model: 'text' }, optional: ['model'] },
        chain: { array: 'bytes', min: 1 },
        caller: did,
        cost: COST,
        now_s: 'uint',
        cost_funds: FUNDS,
        arguments: 'any',
        arguments_label: LABEL,
        fields: { array: { map: { name: 'text', value: 'any', label: LABEL }, optional: ['label'] } },
      },
      optional: ['cost_funds', 'arguments_label', 'fields'],
    },
    result: {
      map: { verdict: VERDICT, deny_reason: 'text', receipt: 'bytes', payload_hash: cid, forwarded: 'bytes', label: LABEL, omitted: { array: 'text' }, dropped: { array: 'text' } },
      optional: ['deny_reason', 'forwarded', 'label'],
    },
  },
  // ---- end §4.10 forwarding ----
  // ---- jcp §4.11 durable spend, one writer per record (C26) ----
  'durable.open': {
    about: 'jcp §4.11 C26',
    // simulate "no-exclusivity": open as on a platform that cannot provide exclusivity at all (jcp §4.11), the one way a
    // black-box test can stand such a platform in
    args: { map: { path: 'text', holder: 'text', steward_seed: 'bytes32', trust_roots: { textMap: { array: did } }, simulate: { enum: ['no-exclusivity'] } }, optional: ['trust_roots', 'simulate'] },
    // exclusive: whether the open holds the record exclusively ("no": it proceeded without, jcp §4.11 "checkable at run time");
    // torn_tail: an incomplete last write the open found and cut away, said rather than silently dropped
    result: {
      map: {
        point: 'text',
        replayed: 'uint',
        exclusive: { enum: ['yes', 'no'] },
        torn_tail: { map: { offset: 'uint', length: 'uint', summary: 'text', request_key: 'bytes32' }, optional: ['request_key'] },
      },
      optional: ['exclusive', 'torn_tail'],
    },
  },
  'durable.decide': {
    about: 'jcp §4.11 C26',
    args: DECIDE_ARGS,
    // entry: the testee's own name for the recorded decision, stable across a reopen (durable.status, durable.complete)
    result: { map: { verdict: VERDICT, deny_reason: 'text', receipt: 'bytes', entry: 'text' }, optional: ['deny_reason', 'receipt', 'entry'] },
  },
  'durable.close': { about: 'jcp §4.11 C26', args: { map: { point: 'text' } }, result: { map: {} } },
  // jcp §4.11 an allowed decision's action: its outcome recorded by the party that ran it (or an operator settling an
  // unresolved one); where it stands. Optional: no class requires them, and a testee without them has the in-flight
  // tests read not applicable
  'durable.complete': { about: 'jcp §4.11', args: { map: { point: 'text', entry: 'text', outcome: { enum: ['completed', 'failed'] } } }, result: { map: {} } },
  'durable.status': {
    about: 'jcp §4.11',
    args: { map: { point: 'text', entry: 'text' } },
    result: { map: { status: { enum: ['denied', 'in-flight', 'unresolved', 'completed', 'failed'] }, holder: 'text' }, optional: ['holder'] },
  },
  'endpoint.start': {
    about: 'jcp §11 (C8, C13): start the testee\'s own jcp/1 endpoint on a loopback address (tcp://127.0.0.1:port or unix:/path), sealing with steward_seed, open to every issuer (no trust roots), on its own clock; say where and what it declares. Once per process: a second call answers the same endpoint',
    args: { map: { steward_seed: 'bytes32' } },
    result: { map: { url: 'text', steward: did, window_s: 'uint', cap_bytes: 'uint' } },
  },
  'endpoint.restart': { about: 'jcp §11, §4.11: restart the endpoint behind the same address, its spend re-established from its durable record', args: { map: {} }, result: { map: {} } },
  // ---- end §4.11 ----
  // ---- sense §2–§11 (sense:C1–C6): events, replay, attention, cascade, surfacing chain, injected observations ----
  ...((): Record<string, OpSpec> => {
    const HLC: Shape = { map: { physical_ns: 'uint', logical: 'uint' } };
    const EVENT: Shape = {
      map: { physical_ns: 'uint', logical: 'uint', source: 'text', trust: 'text', payload: 'bytes', line: 'text', valid_time_ns: 'uint' },
      optional: ['valid_time_ns'],
    };
    const OUTCOME: Shape = { enum: ['surface', 'hold:value', 'hold:budget'] };
    const HIGHLIGHT: Shape = { map: { probe: 'text', score: 'uint' } };
    const SENSE_COST: Shape = { map: { uj: 'uint', provenance: PROVENANCE, coverage: { enum: ['Partial'] } }, optional: ['coverage'] };
    return {
      'sense.event-id': { about: 'sense §2, §3 (C2)', args: { map: { event: EVENT } }, result: { map: { event_id: cid, payload: cid } } },
      'sense.replay': {
        about: 'sense §3 (C1)',
        args: { map: { events: { array: EVENT }, since: HLC }, optional: ['since'] },
        result: { map: { event_ids: { array: cid }, replay_digest: cid } },
      },
      'sense.clock': { about: 'sense §3 (C1)', args: { map: { seed: HLC, anchors: { array: 'uint' } }, optional: ['seed'] }, result: { map: { stamps: { array: HLC } } } },
      'sense.project': {
        about: 'sense §4',
        args: { map: { events: { array: { map: { source: 'text', trust: 'text' } } } } },
        result: { map: { projections: { array: { map: { salience: 'uint', novelty: 'uint', uncertainty: 'uint' } } } } },
      },
      'sense.detect': {
        about: 'sense §5 (C3)',
        args: { map: { probe: 'text', scores: { array: 'uint' } } },
        result: { map: { highlights: { array: { map: { index: 'uint', score: 'uint' } } } } },
      },
      'sense.gate': {
        about: 'sense §5 (C3)',
        args: {
          map: {
            highlights: { array: HIGHLIGHT },
            user: { map: { engagement_ppm: 'uint', active_modality: 'text', surface_modality: 'text' } },
            budget_uj: 'uint',
            price_uj: 'uint',
          },
        },
        result: { map: { decisions: { array: { map: { value: 'uint', cost: 'uint', outcome: OUTCOME, charged_uj: 'uint', budget_uj: 'uint' } } } } },
      },
      'sense.ask': {
        about: 'sense §6 (C4)',
        args: { map: { events: { array: EVENT }, query: 'text', k: 'uint' } },
        result: {
          map: {
            tier: { enum: ['tier0', 'fallback'] },
            model_calls: 'uint',
            answer: 'text',
            spans: { array: cid },
            envelope_id: cid,
            energy: { map: { measured_uj: 'uint', estimated_uj: 'uint', provenance: PROVENANCE }, optional: ['measured_uj'] },
          },
        },
      },
      'sense.seal': {
        about: 'sense §8 (C5)',
        args: {
          map: {
            host_seed: 'bytes32',
            decisions: {
              array: {
                map: { event_id: cid, trust: 'text', highlight: HIGHLIGHT, value: 'uint', cost: 'uint', decision: OUTCOME, charged_uj: 'uint', budget_uj: 'uint' },
              },
            },
          },
        },
        result: { map: { links: { array: 'bytes' }, link_ids: { array: cid } } },
      },
      'sense.verify-chain': {
        about: 'sense §8 (C5)',
        args: { map: { host: did, links: { array: 'bytes' } } },
        result: { map: { n: 'uint', break: { map: { index: 'uint', reason: 'text' } } }, optional: ['break'] },
      },
      'sense.inject': {
        about: 'sense §11 (C6)',
        args: {
          map: {
            link: 'bytes',
            recipient: did,
            position: 'uint',
            destination: 'text',
            run_state: { enum: ['running', 'parked'] },
            wake_authority: 'bytes',
            delivery: SENSE_COST,
          },
          optional: ['wake_authority'],
        },
        result: { map: { frame: 'bytes', frame_id: cid } },
      },
      'sense.agent-kinds': { about: 'sense §11 (C6)', args: { map: {} }, result: { map: { kinds: { array: 'text' } } } },
      'sense.agent-author': { about: 'sense §11 (C6)', args: { map: { kind: 'text' } }, result: { map: {} } },
    };
  })(),
  // ---- end sense ----
  // ---- jouleclaw §22 transparency log (C-TLOG): heads are the wire form of impl/jouleclaw/tlog-head.ts ----
  ...((): Record<string, OpSpec> => {
    const decide = DECIDE_ARGS as { map: Readonly<Record<string, Shape>>; optional: readonly string[] };
    const ENTRY: Shape = { map: { index: 'uint', head: 'bytes', proof: { array: 'bytes32' } } };
    return {
      'tlog.new': { about: 'jouleclaw §22 (C-TLOG)', args: { map: { steward_seed: 'bytes32', capacity: 'uint' }, optional: ['capacity'] }, result: { map: { log: 'text' } } },
      'tlog.append': { about: 'jouleclaw §22.1, §22.2 (C-TLOG)', args: { map: { log: 'text', receipt: 'bytes', now_s: 'uint' } }, result: ENTRY },
      'tlog.decide': {
        about: 'jouleclaw §22.3 (C-TLOG): point.decide, appended before it answers',
        args: { map: { ...decide.map, log: 'text' }, optional: decide.optional },
        result: { map: { verdict: VERDICT, deny_reason: 'text', receipt: 'bytes', entry: ENTRY }, optional: ['deny_reason', 'receipt', 'entry'] },
      },
      'tlog.head': { about: 'jouleclaw §22.2 (C-TLOG)', args: { map: { log: 'text', now_s: 'uint' } }, result: { map: { head: 'bytes' } } },
      'tlog.inclusion': { about: 'jouleclaw §22.1 (C-TLOG)', args: { map: { log: 'text', index: 'uint', size: 'uint' } }, result: { map: { proof: { array: 'bytes32' } } } },
      'tlog.consistency': { about: 'jouleclaw §22.3 (C-TLOG)', args: { map: { log: 'text', size1: 'uint', size2: 'uint' } }, result: { map: { proof: { array: 'bytes32' } } } },
      'tlog.verify-head': {
        about: 'jouleclaw §22.2 (C-TLOG)',
        args: { map: { head: 'bytes', steward: 'text' } },
        result: { map: { size: 'uint', root: 'bytes32', timestamp: 'uint' } },
      },
      'tlog.verify-inclusion': {
        about: 'jouleclaw §22.2 (C-TLOG)',
        args: { map: { head: 'bytes', steward: 'text', receipt: 'bytes', index: 'uint', proof: { array: 'bytes' } } },
        result: { map: {} },
      },
      'tlog.verify-consistency': {
        about: 'jouleclaw §22.2, §22.3 (C-TLOG)',
        args: { map: { head1: 'bytes', head2: 'bytes', steward: 'text', proof: { array: 'bytes' } } },
        result: { map: {} },
      },
    };
  })(),
  // ---- end jouleclaw §22 ----
  // ---- jouleclaw §2/§7 cascade receipts, §16 contracts and verdict receipts, §17 handoffs and the run journal ----
  // contracts, evidence, verdicts and cascade receipts cross as JSON text (they hold booleans the wire has no form for)
  ...(() => {
    const RUN: Shape = { map: { run: 'text' } };
    const NODES: Shape = { array: { map: { node_id: 'text', replay: { enum: ['safe', 'never'] } }, optional: ['replay'] } };
    const HANDOFF_IN: Shape = {
      map: {
        worker: 'text',
        node_id: 'text',
        feature_id: 'text',
        closed_at: 'uint',
        completed: { array: 'text' },
        undone: { array: 'text' },
        commands: { array: { map: { argv: { array: 'text' }, exit_code: 'any' } } },
        issues_found: { array: 'text' },
        procedures_followed: { array: 'text' },
      },
      optional: ['node_id', 'feature_id', 'completed', 'undone', 'commands', 'issues_found', 'procedures_followed'],
    };
    return {
      'jc.receipt.build': { about: 'jouleclaw §2', args: { map: { walk_json: 'text' } }, result: { map: { receipt_json: 'text' } } },
      'jc.receipt.check': { about: 'jouleclaw §2, §7', args: { map: { receipt_json: 'text' } }, result: { map: { receipt_json: 'text' } } },
      'jc.receipt.open': {
        about: 'jouleclaw §7, §10',
        args: { map: { receipt: 'bytes' } },
        result: { map: { kind: { enum: ['cascade', 'policy', 'verdict', 'unknown'] }, jc_receipt: 'text', core_json: 'text' }, optional: ['core_json'] },
      },
      'jc.contract.check': { about: 'jouleclaw §16.1, §16.6', args: { map: { contract_json: 'text' } }, result: { map: { contract_hash: 'text' } } },
      'jc.contract.verify': { about: 'jouleclaw §16.4–§16.6', args: { map: { contract_json: 'text', evidence_json: 'text' } }, result: { map: { verdict_json: 'text' } } },
      'jc.verdict.seal': {
        about: 'jouleclaw §16.7',
        args: {
          map: { steward_seed: 'bytes32', id: 'text', closed_at: 'text', engine_id: 'text', audit_sequence: 'uint', verdict_json: 'text', contract_json: 'text' },
          optional: ['contract_json'],
        },
        result: { map: { receipt: 'bytes' } },
      },
      'jc.verdict.open': { about: 'jouleclaw §16.7', args: { map: { receipt: 'bytes', contract_json: 'text' }, optional: ['contract_json'] }, result: { map: { wire_json: 'text' } } },
      'jc.run.start': { about: 'jouleclaw §17.3', args: { map: { run_id: 'text', nodes: NODES } }, result: RUN },
      'jc.run.open': {
        about: 'jouleclaw §17.2, §17.3',
        args: { map: { entries: { array: 'bytes', min: 1 } } },
        result: { map: { run: 'text', in_flight: { array: 'text' }, handoffs: { array: 'any' } } },
      },
      'jc.run.dispatch': { about: 'jouleclaw §17.3', args: { map: { run: 'text', node_id: 'text' } }, result: { map: {} } },
      'jc.run.complete': { about: 'jouleclaw §17.3', args: { map: { run: 'text', node_id: 'text', energy_uj: 'uint' } }, result: { map: {} } },
      'jc.run.recover': {
        about: 'jouleclaw §17.3',
        args: { map: { run: 'text', observed_uj: { textMap: 'uint' } }, optional: ['observed_uj'] },
        result: { map: { interrupted: { array: 'text' } } },
      },
      'jc.run.approve': { about: 'jouleclaw §17.3', args: { map: { run: 'text', node_id: 'text', approved_by: 'text' } }, result: { map: {} } },
      'jc.run.fail': { about: 'jouleclaw §17.3', args: { map: { run: 'text', reason: 'text' } }, result: { map: {} } },
      'jc.run.handoff': { about: 'jouleclaw §17.1, §17.2', args: { map: { run: 'text', handoff: HANDOFF_IN } }, result: { map: { handoff: 'any' } } },
      'jc.run.state': {
        about: 'jouleclaw §17.3',
        args: RUN,
        result: {
          map: { ready: { array: 'text' }, in_flight: { array: 'text' }, held: { array: 'text' }, completed: { array: 'text' }, status: { enum: ['running', 'failed'] }, entries: { array: 'bytes' } },
        },
      },
    } satisfies Record<string, OpSpec>;
  })(),
  // ---- end jouleclaw §2/§7/§16/§17 ----
  // ---- jouleclaw §8 agent identity, §9 policy engine, §10 policy_digest and policy/1 receipt ----
  ...(() => {
    const PREDICATE: Shape = {
      map: { kind: { enum: ['filesystem', 'network', 'process'] }, path_glob: 'text', modes: { array: 'text' }, host_glob: 'text', from: 'uint', to: 'uint', methods: { array: 'text' }, binary_glob: 'text' },
      optional: ['path_glob', 'modes', 'host_glob', 'from', 'to', 'methods', 'binary_glob'],
    };
    // agents: "any" or an array of ids (checked by the implementation under test)
    const POLICY: Shape = { map: { version: 'uint', rules: { array: { map: { name: 'text', effect: { enum: ['allow', 'deny'] }, agents: 'any', action: PREDICATE } } } } };
    const ACTION: Shape = {
      map: { kind: { enum: ['filesystem', 'network', 'process'] }, path: 'text', mode: 'text', host: 'text', port: 'uint', method: 'text', binary: 'text', argv: { array: 'text' } },
      optional: ['path', 'mode', 'host', 'port', 'method', 'binary', 'argv'],
    };
    const DECISION: Shape = { map: { kind: { enum: ['allow', 'deny'] }, rule: 'text', reason: { enum: ['no_matching_allow', 'explicit_deny'] } }, optional: ['rule', 'reason'] };
    const EVENT: Shape = { map: { sequence: 'uint', policy_version: 'uint', policy_digest: 'text', agent: 'text', action: ACTION, decision: DECISION }, optional: ['policy_digest'] };
    const FIELDS = { id: 'text', closed_at: 'text', engine_id: 'text', audit_sequence: 'uint', policy_version: 'uint', policy_digest: 'text', agent: 'text', action: ACTION, decision: DECISION } as const;
    const STEP: Shape = {
      map: {
        evaluate: { map: { agent: 'text', action: ACTION } },
        install: POLICY,
        seal: { map: { step: 'uint', id: 'text', closed_at: 'text', bind: { enum: ['digest', 'none'] } } },
      },
      optional: ['evaluate', 'install', 'seal'],
    };
    return {
      'jc.policy-digest': { about: 'jouleclaw §10.1', args: { map: { policy: POLICY } }, result: { map: { digest: 'text' } } },
      'jc.policy-evaluate': {
        about: 'jouleclaw §9, §10.1',
        args: { map: { engine_id: 'text', policy: POLICY, steward_seed: 'bytes32', steps: { array: STEP, min: 1 } }, optional: ['policy', 'steward_seed'] },
        result: {
          map: { results: { array: { map: { event: EVENT, installed: 'uint', refused: { enum: ERROR_CODES }, receipt: 'bytes' }, optional: ['event', 'installed', 'refused', 'receipt'] } }, audit: { array: EVENT } },
        },
      },
      'jc.policy-receipt': {
        about: 'jouleclaw §10',
        args: { map: { steward_seed: 'bytes32', ...FIELDS }, optional: ['policy_digest'] },
        result: { map: { receipt: 'bytes' } },
      },
      'jc.verify-policy-receipt': {
        about: 'jouleclaw §10, §10.1',
        args: { map: { receipt: 'bytes', steward: 'text', binding: { enum: ['required'] } }, optional: ['steward', 'binding'] },
        result: { map: { core: { map: { jc_receipt: 'text', steward: 'text', ...FIELDS }, optional: ['policy_digest'] } } },
      },
      'jc.agent-check': {
        about: 'jouleclaw §8',
        args: { map: { handle: 'text', public_key: 'bytes', message: 'bytes', signature: 'bytes' }, optional: ['message', 'signature'] },
        result: { map: { verdict: VALIDITY } },
      },
    } satisfies Record<string, OpSpec>;
  })(),
  // ---- end jouleclaw §8/§9/§10 ----
};

/** The envelope of a request. */
export const REQUEST: Shape = { map: { seq: 'uint', op: 'text', args: 'any' } };

/** Problems with `v` against `shape`, each naming its path; empty when it conforms. */
export function validate(shape: Shape, v: CborValue | undefined, path = '$'): string[] {
  if (shape === 'any') return v === undefined ? [`${path}: missing`] : [];
  if (shape === 'text') return typeof v === 'string' ? [] : [`${path}: expected text`];
  if (shape === 'uint') {
    return (typeof v === 'number' && Number.isSafeInteger(v) && v >= 0) || (typeof v === 'bigint' && v >= 0n) ? [] : [`${path}: expected an unsigned integer`];
  }
  if (shape === 'bytes' || shape === 'bytes16' || shape === 'bytes32' || shape === 'bytes64') {
    if (!(v instanceof Uint8Array)) return [`${path}: expected a byte string`];
    const n = shape === 'bytes' ? undefined : Number(shape.slice(5));
    return n !== undefined && v.length !== n ? [`${path}: expected ${n} bytes, got ${v.length}`] : [];
  }
  if ('enum' in shape) return typeof v === 'string' && shape.enum.includes(v) ? [] : [`${path}: expected one of ${shape.enum.join(' | ')}`];
  if ('array' in shape) {
    if (!Array.isArray(v)) return [`${path}: expected an array`];
    const out = v.length < (shape.min ?? 0) ? [`${path}: expected at least ${shape.min} item(s)`] : [];
    v.forEach((x, i) => out.push(...validate(shape.array, x, `${path}[${i}]`)));
    return out;
  }
  if ('textMap' in shape) {
    if (!(v instanceof Map)) return [`${path}: expected a map`];
    const out: string[] = [];
    for (const [k, x] of v) {
      if (typeof k !== 'string') out.push(`${path}: a key is not text`);
      else out.push(...validate(shape.textMap, x, `${path}.${k}`));
    }
    return out;
  }
  if (!(v instanceof Map)) return [`${path}: expected a map`];
  const out: string[] = [];
  for (const k of v.keys()) if (typeof k !== 'string' || !(k in shape.map)) out.push(`${path}: unexpected field ${String(k)}`);
  for (const [k, s] of Object.entries(shape.map)) {
    if (!v.has(k)) {
      if (!shape.optional?.includes(k)) out.push(`${path}.${k}: missing`);
      continue;
    }
    out.push(...validate(s, v.get(k), `${path}.${k}`));
  }
  return out;
}

/** Problems with a response to `op` (any of its three forms), against the op's result shape. */
export function validateResponse(op: string, seq: number, v: CborValue): string[] {
  if (!(v instanceof Map)) return ['$: a response must be a map'];
  const out: string[] = [];
  const got = v.get('seq');
  if (got !== seq) out.push(`$.seq: expected ${seq}, got ${String(got)}`);
  const forms = ['ok', 'error', 'unimplemented'].filter((k) => v.has(k));
  if (forms.length !== 1) return [...out, '$: a response carries exactly one of ok, error, unimplemented'];
  for (const k of v.keys()) if (k !== 'seq' && k !== forms[0]) out.push(`$: unexpected field ${String(k)}`);
  const form = forms[0]!;
  if (form === 'ok') {
    const spec = OPS[op];
    if (spec) out.push(...validate(spec.result, v.get('ok'), '$.ok'));
  } else if (form === 'error') {
    out.push(...validate({ map: { code: { enum: ERROR_CODES }, message: 'text' } }, v.get('error'), '$.error'));
  } else out.push(...validate('text', v.get('unimplemented'), '$.unimplemented'));
  return out;
}
