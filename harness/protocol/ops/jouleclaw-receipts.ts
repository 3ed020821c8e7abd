// The testee protocol's operations for jouleclaw §2/§7 cascade receipts, §16 contracts and verdict receipts, §17
// handoffs and the run journal (harness/PROTOCOL.md).
import { type OpSpec, type Shape } from '../shapes.ts';

export const JOULECLAW_RECEIPTS_OPS: Readonly<Record<string, OpSpec>> = {
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
};
