// The testee protocol's operations of the suite-defined profiles jouleclaw:P-VALUE, P-WORKSPACE, P-SKILL, P-SIDECAR (spec-map/profiles.json;
// harness/protocol/profiles/documents.md).
import { type OpSpec, VALIDITY } from '../shapes.ts';

export const P_DOCUMENTS_OPS: Readonly<Record<string, OpSpec>> = {
  // jouleclaw §19: reports cross as JSON text (they hold booleans and a rate the wire has no form for)
  'value.check': {
    about: 'jouleclaw §19.1, §19.2',
    args: { map: { intent: 'text', tool_id: 'text', status: 'uint', body_json: 'text', checks_json: 'text', status_codes: { array: 'uint' } }, optional: ['status_codes'] },
    result: { map: { report_json: 'text' } },
  },
  'value.aggregate': { about: 'jouleclaw §19.3', args: { map: { reports_json: 'text' } }, result: { map: { mean_json: 'text' } } },
  // jouleclaw §11: manifests cross as JSON text, signatures as bytes
  'workspace.new': { about: 'jouleclaw §11', args: { map: { owner_seed: 'bytes32' } }, result: { map: { workspace: 'text' } } },
  'workspace.write': {
    about: 'jouleclaw §11',
    args: { map: { workspace: 'text', path: 'text', content: 'bytes', kind: 'text' }, optional: ['kind'] },
    result: { map: { content_hash: 'text' } },
  },
  'workspace.manifest': { about: 'jouleclaw §11', args: { map: { workspace: 'text' } }, result: { map: { manifest_json: 'text', manifest_hash: 'text', signature: 'bytes64' } } },
  // jouleclaw §6: a published conformance vector in, the runtime's receipt for it out, both JSON text
  'sidecar.run-vector': { about: 'jouleclaw §6', args: { map: { vector_json: 'text' } }, result: { map: { receipt_json: 'text' } } },
  // jouleclaw §12
  'skill.emit': {
    about: 'jouleclaw §12',
    args: { map: { name: 'text', description: 'text', body: 'text', metadata_json: 'text' }, optional: ['metadata_json'] },
    result: { map: { skill_md: 'text' } },
  },
  'workspace.verify': { about: 'jouleclaw §8, §11', args: { map: { manifest_json: 'text', signature: 'bytes' } }, result: { map: { verdict: VALIDITY } } },
};
