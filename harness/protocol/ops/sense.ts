// The testee protocol's operations for sense §2–§11 (sense:C1–C6): events, replay, attention, cascade, surfacing chain,
// injected observations (harness/PROTOCOL.md).
import { type OpSpec, type Shape, cid, did, PROVENANCE } from '../shapes.ts';

export const SENSE_OPS: Readonly<Record<string, OpSpec>> = {
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
};
