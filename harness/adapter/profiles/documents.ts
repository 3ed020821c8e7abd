// The reference's handlers for the suite-defined profiles jouleclaw:P-VALUE, P-WORKSPACE, P-SKILL, P-SIDECAR (harness/protocol/profiles/documents.md).
import type { CborInput, CborMap } from '../../../impl/cbor/index.ts';
import { JcpError } from '../../../impl/errors.ts';
import type { EnforcementPoint } from '../../../impl/index.ts';
import { readJson, type JsonValue } from '../../../impl/jouleclaw/contract-json.ts';
import { emitSkillMd } from '../../../impl/jouleclaw/skill.ts';
import { receiptForVector } from '../../../impl/jouleclaw/vector-run.ts';
import { meanClosureRate, valueReport } from '../../../impl/jouleclaw/value-report.ts';
import { manifestHash, Workspace, verifySignedWorkspaceManifest } from '../../../impl/jouleclaw/workspace.ts';
import { bytes, text, uint } from '../args.ts';

const jsonArray = (args: CborMap, k: string): JsonValue[] => {
  const v = readJson(text(args, k), 'ERR_BAD_ARGUMENT', k);
  if (!Array.isArray(v)) throw new JcpError('ERR_BAD_ARGUMENT', `argument ${k} must be a JSON array`);
  return v;
};
const uints = (v: CborInput | undefined, k: string): number[] => {
  if (!Array.isArray(v)) throw new JcpError('ERR_BAD_ARGUMENT', `argument ${k} must be an array of unsigned integers`);
  return v.map((x, i) => Number(uint(x as never, `${k}[${i}]`)));
};

export function documentsProfileHandlers(_point: (a: CborMap) => EnforcementPoint): Record<string, (a: CborMap) => CborInput> {
  const workspaces = new Map<string, Workspace>();
  const workspace = (a: CborMap): Workspace => {
    const name = text(a, 'workspace');
    const w = workspaces.get(name);
    if (!w) throw new JcpError('ERR_BAD_ARGUMENT', `no workspace ${name}`);
    return w;
  };
  return {
    // jouleclaw §19.1, §19.2
    'value.check': (a) => {
      const codes = a.get('status_codes');
      const report = valueReport(
        text(a, 'intent'),
        text(a, 'tool_id'),
        { status: Number(uint(a.get('status'), 'status')), body: readJson(text(a, 'body_json'), 'ERR_BAD_ARGUMENT', 'body_json') },
        jsonArray(a, 'checks_json'),
        codes === undefined ? undefined : uints(codes, 'status_codes'),
      );
      return { report_json: JSON.stringify(report) };
    },
    // jouleclaw §19.3
    'value.aggregate': (a) => ({ mean_json: JSON.stringify(meanClosureRate(jsonArray(a, 'reports_json')) ?? null) }),
    // jouleclaw §6
    'sidecar.run-vector': (a) => ({ receipt_json: JSON.stringify(receiptForVector(text(a, 'vector_json'))) }),
    // jouleclaw §12
    'skill.emit': (a) => {
      const m = a.get('metadata_json');
      const metadata = m === undefined ? undefined : readJson(text(a, 'metadata_json'), 'ERR_BAD_ARGUMENT', 'metadata_json');
      if (metadata !== undefined && (metadata === null || typeof metadata !== 'object' || Array.isArray(metadata))) throw new JcpError('ERR_BAD_ARGUMENT', 'metadata_json must be a JSON object');
      return { skill_md: emitSkillMd({ name: text(a, 'name'), description: text(a, 'description'), body: text(a, 'body'), ...(metadata === undefined ? {} : { metadata }) }) };
    },
    // jouleclaw §11
    'workspace.new': (a) => {
      const seed = bytes(a, 'owner_seed');
      if (seed.length !== 32) throw new JcpError('ERR_SEED_LENGTH', 'owner_seed must be 32 bytes');
      const name = `w${workspaces.size + 1}`;
      workspaces.set(name, new Workspace(seed));
      return { workspace: name };
    },
    'workspace.write': (a) => {
      const kind = a.get('kind');
      if (kind !== undefined && typeof kind !== 'string') throw new JcpError('ERR_BAD_ARGUMENT', 'argument kind must be text');
      return { content_hash: workspace(a).write(text(a, 'path'), bytes(a, 'content'), kind) };
    },
    'workspace.manifest': (a) => {
      const { manifest, signature } = workspace(a).sign();
      return { manifest_json: JSON.stringify(manifest), manifest_hash: manifestHash(manifest as never), signature };
    },
    'workspace.verify': (a) => ({
      verdict: verifySignedWorkspaceManifest(readJson(text(a, 'manifest_json'), 'ERR_BAD_ARGUMENT', 'manifest_json'), bytes(a, 'signature')) ? 'valid' : 'invalid',
    }),
  };
}
