// `jcp-conformance validate` for the operations of the suite-defined profiles (spec-map/profiles.json;
// harness/protocol/profiles/): each operation sent once with well-formed arguments, its answer held to the schema.
// The arguments are those of the profiles' conformance tests (harness/conformance/p-*.test.ts). An op needing a handle
// from another op (a feed, a workspace, a tool, a session) takes it from that op's answer; where that op was refused, a
// placeholder is sent, so the op is still reached and its answer (most likely a refusal) is still schema-checked.
import type { CborMap, CborValue } from '../impl/cbor/index.ts';
import { Point } from './implementation.ts';
import { blake3, contentId } from './oracle.ts';
import { quietly, type Run } from './validate.ts';

const utf8 = new TextEncoder();
const nonce = (l: string): Uint8Array => blake3(utf8.encode(`validate-profiles:${l}`)).slice(0, 16);
/** A field of an answer, or undefined where the op was refused. */
const field = (m: CborMap | undefined, k: string): CborValue | undefined => m?.get(k);

/** jcp §4.3 propagation (jcp:P-PROPAGATION), §5.4 dynamism and §5.6 declared shapes (jcp:P-DYNAMISM). */
async function jcpProfiles(run: Run): Promise<void> {
  const { impl, attempt, issuer, steward } = run;
  const call = (op: string, args: Record<string, unknown>) => attempt(op, () => impl._call(op, args));
  await call('propagation.define', {});
  const feed = (field(await call('propagation.feed-new', {}), 'feed') as string | undefined) ?? 'no-feed';
  // the run's grant revoked, delivered to a point of its own so that the run's point keeps the grant live
  const revocation = (await quietly(() => impl.mintRevocation(issuer.seed, run.grantId, nonce('propagation')))) ?? new Uint8Array([0xa0]);
  await call('propagation.issue', { feed, revocation, grant: run.grant });
  const p = (await quietly(() => impl.newPoint(steward.seed))) ?? new Point(impl, 'no-point');
  await call('propagation.deliver', { feed, point: p.id });
  await call('propagation.audit', { revoked_at: 2n, allows: [{ known_through: 1n }, { known_through: 2n }, {}] });
  // jcp §5.4: a band declared where the series was measured; a deviation with an evidenced cause
  const on = { silicon: 'validate-silicon', occupancy: 'exclusive', sampling_ns: 100_000_000n };
  await call('dynamism.windows', {
    series: on,
    windows: [{ duration_ns: 200_000_000n, uj: 1_500n }, { duration_ns: 200_000_000n, uj: 3_000n }],
    baseline: { lo_uj: 1_000n, hi_uj: 2_000n, measured_on: on },
    causes: [{ window: 1n, cause: 'thermal-limit', evidence: contentId({ validate: 'reading' }) }],
  });
  await call('dynamism.shape', { declared: 'flat', declared_at_ns: 500n, observed: 'flat', observed_from_ns: 1_000n });
}

/** sense §7 (sense:P-ENERGY), sense §4 (sense:P-OBSERVER), jouleclaw §1.3, §9.4 (jouleclaw:P-ENERGY). */
async function energyProfiles(run: Run): Promise<void> {
  const { impl, attempt } = run;
  const call = (op: string, args: Record<string, unknown>) => attempt(op, () => impl._call(op, args));
  // a CPU rail sampled at the probe's 25 ms tick for 1 s, advancing 1,000 µJ at every tick
  const samples = Array.from({ length: 41 }, (_, i) => ({ t_ns: BigInt(i) * 25_000_000n, value: 7_000n + BigInt(i) * 1_000n }));
  await call('sense-energy.meter', { domains: ['cpu'], counters: [{ domain: 'cpu', samples, delta_uj: 40_000n }], estimated_uj: 4_321n });
  await call('observer.project', { events: [{ source: 'shell', trust: 'FirstParty' }, { source: 'network', trust: 'Inferred' }] });
  await call('jc-energy.floors', { counter: 'rapl' });
  await call('jc-energy.breaker', { counters: [{ resolution_uj: 1n, min_window_ns: 10_000_000n }, { resolution_uj: 1_000n, min_window_ns: 100_000_000n }] });
  const checked = { before_nj: 1_000n, after_nj: 1_350n };
  await call('jc-energy.proc-self', { start: checked, stop: checked, cpu_nj: 5_000_000n, gpu: { own_gpu_ns: 0n, clients_gpu_ns: 0n, rail_nj: 0n }, estimated_uj: 9_999n });
}

/** jouleclaw §19 (P-VALUE), §11 (P-WORKSPACE), §12 (P-SKILL), §6 (P-SIDECAR). */
async function documentsProfiles(run: Run): Promise<void> {
  const { impl, attempt, holder } = run;
  const call = (op: string, args: Record<string, unknown>) => attempt(op, () => impl._call(op, args));
  // jouleclaw §19.1, §19.2: a response checked against its status codes and its contract's; §19.3 the mean over it
  const report = field(
    await call('value.check', {
      intent: 'fetch the page',
      tool_id: 'jouleclaw:fetch',
      status: 200n,
      body_json: '{"ok":true}',
      checks_json: JSON.stringify([{ kind: 'status', codes: [200] }, { kind: 'status_matches_contract' }]),
      status_codes: [200n],
    }),
    'report_json',
  ) as string | undefined;
  const fallback = { intent: 'fetch the page', tool_id: 'jouleclaw:fetch', checks: [{ check: 'status', passed: true }], closure_rate: 1, fully_closed: true };
  await call('value.aggregate', { reports_json: `[${report ?? JSON.stringify(fallback)}]` });
  // jouleclaw §11: a workspace written, its manifest signed by its owner, then verified
  const workspace = (field(await call('workspace.new', { owner_seed: holder.seed }), 'workspace') as string | undefined) ?? 'no-workspace';
  await call('workspace.write', { workspace, path: 'notes/validate.md', content: utf8.encode('# validate\n'), kind: 'text' });
  const m = await call('workspace.manifest', { workspace });
  await call('workspace.verify', { manifest_json: (field(m, 'manifest_json') as string | undefined) ?? '{}', signature: (field(m, 'signature') as Uint8Array | undefined) ?? new Uint8Array(64) });
  // jouleclaw §12
  await call('skill.emit', { name: 'validate-skill', description: 'A skill emitted by jcp-conformance validate.', body: '# Use\n\nRun the procedure.\n', metadata_json: '{"version":"1"}' });
  // jouleclaw §6: a CascadeBuild vector of conformance/v1, without its answer
  const walk = {
    id: '00000000-0000-4000-8000-000000000003',
    closed_at: '2026-01-01T00:00:00Z',
    input_hash: 'a'.repeat(64),
    tier: 'L3',
    joules_uj: 400_000,
    tools_touched: [{ tool_id: 'fetch:wikipedia', joules_uj: 400_000, energy_provenance: 'Estimator' }],
    claims: [{ source: 'https://en.wikipedia.org/wiki/Gemma_(model)', content_hash: 'b'.repeat(64), fetched_at: '2025-12-31T23:59:00Z', trust_tier: 9 }],
  };
  await call('sidecar.run-vector', { vector_json: JSON.stringify({ tcId: 1, case: 'validate', inputs: { walk } }) });
}

/** jouleclaw §13 (P-VOCAB), §15 (P-SHAPES), §5 and §5.1 (P-MCP). */
async function semanticProfiles(run: Run): Promise<void> {
  const { impl, attempt, steward } = run;
  const call = (op: string, args: Record<string, unknown>) => attempt(op, () => impl._call(op, args));
  // jouleclaw §13: a cascade receipt carrying the v1 "@context"
  const receipt = {
    '@context': 'https://jouleclaw.transaction.science/vocab/v1.jsonld',
    jc_receipt: '1',
    id: '00000000-0000-4000-8000-000000000004',
    closed_at: '2026-01-01T00:00:00Z',
    input_hash: 'ab'.repeat(32),
    tier: 'L3',
    joules_uj: 3_500_000,
    energy_provenance: 'ModelBased',
    tools_touched: [{ tool_id: 'model:gemma4-9b-q5_k_m', joules_uj: 3_500_000, energy_provenance: 'ModelBased' }],
    claims: [{ source: 'https://en.wikipedia.org/wiki/Gemma_(model)', content_hash: 'cd'.repeat(32), fetched_at: '2025-12-31T23:59:00Z', trust_tier: 9 }],
    steward: steward.did,
  };
  await call('vocab.seal', { receipt_json: JSON.stringify(receipt), steward_seed: steward.seed });
  // jouleclaw §15: a fake tool, a claim conforming to its shape sent to it, then what it was sent
  const JC = 'https://jouleclaw.transaction.science/vocab/v1#';
  const XSD = 'http://www.w3.org/2001/XMLSchema#';
  const shapes_ttl = [
    '@prefix sh: <http://www.w3.org/ns/shacl#> .',
    `@prefix xsd: <${XSD}> .`,
    `@prefix jc: <${JC}> .`,
    'jc:ClaimProvenanceShape a sh:NodeShape ; sh:targetClass jc:ClaimProvenance ;',
    '  sh:property [ sh:path jc:trustTier ; sh:minCount 1 ; sh:maxCount 1 ; sh:datatype xsd:integer ; sh:minInclusive 0 ; sh:maxInclusive 10 ] .',
  ].join('\n');
  const input = { '@context': { jc: JC, xsd: XSD, trust_tier: { '@id': 'jc:trustTier', '@type': 'xsd:integer' } }, '@type': 'jc:ClaimProvenance', trust_tier: 9 };
  const tool = (field(await call('shapes.tool', {}), 'tool') as string | undefined) ?? 'no-tool';
  await call('shapes.call', { tool, shapes_ttl, input_json: JSON.stringify(input) });
  await call('shapes.calls', { tool });
  // jouleclaw §5: one call to an echo tool, bracketed by the counter's readings
  await call('mcp.dispatch', { tools: ['echo'], calls: [{ tool: 'echo', arguments_json: '{"q":"validate"}' }], counter: [1_000n, 1_500n, 1_500n, 2_000n], provenance: 'Estimator' });
  // jouleclaw §5.1: the testee serving MCP, sent a client's initialize request
  const session = (field(await call('mcp.serve-open', { advertise: 'no', tools: ['echo'] }), 'session') as string | undefined) ?? 'no-session';
  const initialize = { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'jcp-conformance validate', version: '1.0.0' } } };
  await call('mcp.serve-frame', { session, frame: utf8.encode(JSON.stringify(initialize)) });
}

/** jouleclaw §1.1 (P-CASCADE), §1.2 and §4 (P-CLAIMS), §18.2 (P-ORCHESTRATOR). */
async function runtimeProfiles(run: Run): Promise<void> {
  const { impl, attempt, agent } = run;
  const call = (op: string, args: Record<string, unknown>) => attempt(op, () => impl._call(op, args));
  await call('cascade.run', { tiers: [{ tier: 'L0', outcome: 'unresolvable' }, { tier: 'L1', outcome: 'closes' }] });
  await call('claims.resolve', {
    now: '2026-01-01T00:00:00Z',
    threshold: 5n,
    inference_cost_uj: 1_000n,
    sources: [{ source: 'https://example.org/validate', content: utf8.encode('validate'), trust_tier: 9n, cost_uj: 10n, outcome: 'closes' }],
  });
  await call('orchestrator.run', { run_id: 'validate', now_s: 1_780_000_000n, features: [{ feature_id: 'f1', worker: agent.did, state: 'mutates', completed: ['f1: done'] }] });
}

/** The profile groups' steps, run after validate.ts's own. */
export const PROFILE_GROUPS: ReadonlyArray<(run: Run) => Promise<void>> = [jcpProfiles, energyProfiles, documentsProfiles, semanticProfiles, runtimeProfiles];
