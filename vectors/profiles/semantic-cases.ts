// The named cases of jouleclaw:P-MCP, jouleclaw:P-VOCAB and jouleclaw:P-SHAPES (vectors/profiles/semantic.ts runs
// them). Each expected answer is written here from the spec's words, never read from the reference:
//  - §5: every call sits between two counter reads and has a ToolTouch of the counter's advance across it, so with n
//    calls a counter of fewer than n + 1 readings cannot meter them (refused), and one of 2n + 2 or more (the slack the
//    conformance test gives, whether two calls share a read or not, and a read or two more) meters them all;
//  - §5.1: where either side does not advertise x-jouleclaw/joule-mcp@1, every frame is JSON-RPC and the session works;
//  - §13: the signed core of a receipt holds no @context and the receipt's own fields unchanged;
//  - §15: whether an input conforms is decided here from the shapes' constraints and SHACL's and JSON-LD's own rules,
//    as the conformance test decides it (harness/conformance/p-semantic-shapes.test.ts), never by asking a validator.
// Left open (the executor or the expected answer leaves it out, case by case): how many counter reads a run takes and
// whether consecutive calls share one; both sides advertising (§5.1's MAY); whether a receipt with @context nested in
// a member or an extra field is sealed without it or refused.
import { toHex } from '../../impl/bytes.ts';
import { deriveSeed, keyPairFromSeed } from '../../impl/identity/ed25519.ts';
import type { Case } from '../cases.ts';
import type { Json, JsonObject } from '../model.ts';
import { CLAIM_CONTEXT, CLAIM_SHAPES_TTL, JC, XSD } from '../../harness/shapes-fixture.ts';

const P = 'profiles' as const;
const exactly = (e: JsonObject, result: 'valid' | 'invalid' = 'valid') => ({ exactly: e, result });

// ---- jouleclaw:P-MCP ----------------------------------------------------------------------------------------------

const METERED = 'jouleclaw/5#mcp-call-metered';
const FALLBACK = 'jouleclaw/5.1#fallback-to-json-rpc';
const TAG = 'x-jouleclaw/joule-mcp@1';

type Call = { tool: string; arguments: JsonObject };

function mcpDispatchCases(): Case[] {
  const out: Case[] = [];
  const D = (name: string, comment: string, tools: string[], calls: Call[], counter: number[], provenance: string): void => {
    const n = calls.length;
    // §5: a call needs a read before and after it; a counter that runs backwards is not what these vectors decide
    if (counter.some((x, i) => i > 0 && x < counter[i - 1]!)) throw new Error(`semantic-cases: ${name}: the counter runs backwards`);
    let expected: JsonObject;
    let result: 'valid' | 'invalid' = 'valid';
    if (counter.length < n + 1) {
      // fewer readings than any bracketing of n calls needs: no run meters every call, so the run is refused
      expected = { error: 'ERR_BAD_ARGUMENT' };
      result = 'invalid';
    } else {
      if (counter.length < 2 * n + 2) throw new Error(`semantic-cases: ${name}: between n + 1 and 2n + 1 readings, whether the run completes is a reading`);
      expected = { reads_in_turn: true, calls: calls.map((c) => ({ tool: c.tool, bracketed: true, metered: true, echo: c.arguments })), touches: n };
    }
    out.push({
      pack: P,
      name,
      type: 'McpDispatch',
      comment,
      flags: result === 'invalid' ? ['McpMetered', 'SuiteErrorCode'] : ['McpMetered'],
      clauses: [METERED],
      inputs: { tools, calls, counter, provenance },
      intent: exactly(expected, result),
    });
  };
  D(
    'mcp-metered-three-calls',
    'echo, lookup, echo, the counter answering 1000, 1500, 1500, 4200, 5000, 5001, 9000, 9000: each call bracketed by reads, one ToolTouch of the advance per call, each echo its arguments',
    ['echo', 'lookup'],
    [
      { tool: 'echo', arguments: { q: 'a' } },
      { tool: 'lookup', arguments: { n: 2 } },
      { tool: 'echo', arguments: { q: 'b', deep: { x: [1, 2] } } },
    ],
    [1000, 1500, 1500, 4200, 5000, 5001, 9000, 9000],
    'HwShunt',
  );
  D('mcp-metered-zero-advance', 'one call while the counter stands still at 7: still bracketed, still a ToolTouch (of 0 µJ)', ['echo'], [{ tool: 'echo', arguments: { q: 'still' } }], [7, 7, 7, 7], 'Estimator');
  D(
    'mcp-metered-past-2-32',
    'two calls while the counter crosses 2^32 (4294967000 … 8589934600): each ToolTouch is the advance, not a 32-bit remainder',
    ['fetch'],
    [
      { tool: 'fetch', arguments: { url: 'https://a.example/x' } },
      { tool: 'fetch', arguments: { url: 'https://b.example/y' } },
    ],
    [4294967000, 4294967295, 4294967296, 4294968000, 8589934592, 8589934600],
    'ModelBased',
  );
  D('mcp-metered-near-2-53', 'one call with the counter at 2^53 − 1 and just below it: the advance exactly', ['echo'], [{ tool: 'echo', arguments: { big: 9007199254740991 } }], [9007199254000000, 9007199254740000, 9007199254740990, 9007199254740991], 'HwShunt');
  D(
    'mcp-metered-five-calls-one-tool',
    'five calls of one tool (empty arguments, nested values, non-ASCII text) over twelve readings: five bracketed calls, five ToolTouches, five echoes',
    ['echo', 'lookup', 'fetch'],
    [
      { tool: 'echo', arguments: {} },
      { tool: 'echo', arguments: { a: [1, [2, [3]]], b: null, c: true } },
      { tool: 'echo', arguments: { text: 'Grüße, 日本, 🙂' } },
      { tool: 'echo', arguments: { n: -12, x: 0.5 } },
      { tool: 'echo', arguments: { q: '' } },
    ],
    [0, 10, 25, 25, 40, 100, 101, 150, 151, 152, 300, 301],
    'ModelBased',
  );
  D('mcp-counter-one-reading', 'one call and a single reading: the call cannot be bracketed, so the run is refused', ['echo'], [{ tool: 'echo', arguments: { q: 'a' } }], [1000], 'HwShunt');
  D('mcp-counter-no-reading', 'one call and a counter that answers nothing: refused', ['echo'], [{ tool: 'echo', arguments: { q: 'a' } }], [], 'HwShunt');
  D(
    'mcp-counter-short-by-one',
    'three calls and three readings: even with shared reads three calls need four, so the run is refused',
    ['echo'],
    [
      { tool: 'echo', arguments: { q: 'a' } },
      { tool: 'echo', arguments: { q: 'b' } },
      { tool: 'echo', arguments: { q: 'c' } },
    ],
    [10, 20, 30],
    'HwShunt',
  );
  return out;
}

function mcpSessionCases(): Case[] {
  const out: Case[] = [];
  // the messages an MCP client sends (MCP's initialize, notifications/initialized, tools/list, tools/call), as JSON-RPC
  const S = (name: string, comment: string, experimental: JsonObject | undefined, advertise: 'yes' | 'no', tools: string[], calls: Call[]): void => {
    const messages: JsonObject[] = [
      { jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: experimental ? { experimental } : {}, clientInfo: { name: 'jcp-vectors', version: '1.0.0' } } },
      { jsonrpc: '2.0', method: 'notifications/initialized' },
      { jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} },
      ...calls.map((c, i): JsonObject => ({ jsonrpc: '2.0', id: 2 + i, method: 'tools/call', params: { name: c.tool, arguments: c.arguments } })),
    ];
    // §5.1: the client advertises only with the tag itself in its handshake; either side silent → JSON-RPC throughout
    const clientAdvertises = experimental !== undefined && Object.hasOwn(experimental, TAG);
    if (clientAdvertises && advertise === 'yes') throw new Error(`semantic-cases: ${name}: both sides advertise, which §5.1 leaves to a MAY`);
    const replies: JsonObject[] = [
      { json_rpc: true, answer: 'result', advertises: advertise === 'yes' },
      { json_rpc: true },
      { json_rpc: true, answer: 'result', listed: tools },
      ...calls.map((c): JsonObject => ({ json_rpc: true, answer: 'result', echo: c.arguments })),
    ];
    out.push({ pack: P, name, type: 'McpSession', comment, flags: ['McpFallback'], clauses: [FALLBACK], inputs: { advertise, tools, messages }, intent: exactly({ replies }) });
  };
  S('mcp-json-rpc-plain-client-server-advertises', 'a client advertising nothing, the server advertising joule-mcp: initialize, tools/list and tools/call all answered as JSON-RPC', undefined, 'yes', ['echo'], [{ tool: 'echo', arguments: { q: 'ping', n: 7 } }]);
  S('mcp-json-rpc-plain-client-server-silent', 'neither side advertising: JSON-RPC throughout', undefined, 'no', ['echo'], [{ tool: 'echo', arguments: { q: 'ping', n: 7 } }]);
  S(
    'mcp-json-rpc-client-advertises-server-silent',
    'the client advertising joule-mcp, the server not: every frame after the handshake still JSON-RPC, over two tools and three calls',
    { [TAG]: {} },
    'no',
    ['echo', 'lookup'],
    [
      { tool: 'echo', arguments: { q: 'ping', n: 7 } },
      { tool: 'lookup', arguments: { key: 'k' } },
      { tool: 'echo', arguments: { q: 'again' } },
    ],
  );
  S(
    'mcp-json-rpc-client-other-tag-server-advertises',
    'the server advertising joule-mcp, the client advertising only other tags (x-jouleclaw/joule-mcp@2, x-other/ext@1): not the tag of §5.1, so JSON-RPC throughout',
    { 'x-jouleclaw/joule-mcp@2': {}, 'x-other/ext@1': {} },
    'yes',
    ['echo'],
    [
      { tool: 'echo', arguments: { q: 'ping' } },
      { tool: 'echo', arguments: {} },
    ],
  );
  return out;
}

// ---- jouleclaw:P-VOCAB --------------------------------------------------------------------------------------------

const NOT_IN_CORE = 'jouleclaw/13#context-not-in-signed-core';
const CONTEXT_URL = 'https://jouleclaw.transaction.science/vocab/v1.jsonld';
const INLINE: JsonObject = { jc: JC, tier: 'jc:tier', energy_provenance: { '@id': 'jc:energyProvenance', '@type': '@vocab' } };

type Tool = { tool_id: string; joules_uj: number; energy_provenance: string };
/** §2: a receipt's energy_provenance is the worst across tools_touched (Estimator worse than ModelBased worse than HwShunt). */
const RANK: Record<string, number> = { HwShunt: 0, ModelBased: 1, Estimator: 2 };

function vocabCases(): Case[] {
  const steward = keyPairFromSeed(deriveSeed('jcp-vectors/v1:steward'));
  const seed = toHex(steward.seed);
  /** A §2 cascade receipt of the steward; `context` first unless `last`; one claim (as §2's example) unless `noClaims`. */
  const receipt = (tier: string, tools: Tool[], context: Json | undefined, last = false, noClaims = false): JsonObject => {
    const worst = tools.reduce((w, t) => (RANK[t.energy_provenance]! > RANK[w]! ? t.energy_provenance : w), tools[0]!.energy_provenance);
    const body: JsonObject = {
      jc_receipt: '1',
      id: '0f8fad5b-d9cb-469f-a165-70867728950e',
      closed_at: '2026-06-08T12:00:00Z',
      input_hash: 'ab'.repeat(32),
      tier,
      joules_uj: tools.reduce((s, t) => s + t.joules_uj, 0),
      energy_provenance: worst,
      tools_touched: tools,
      claims: noClaims ? [] : [{ source: 'https://en.wikipedia.org/wiki/Gemma_(model)', content_hash: 'cd'.repeat(32), fetched_at: '2026-06-08T11:59:00Z', trust_tier: 9 }],
      steward: steward.did,
    };
    if (context === undefined) return body;
    return last ? { ...body, '@context': context } : { '@context': context, ...body };
  };
  const GEMMA: Tool[] = [{ tool_id: 'model:gemma4-9b-q5_k_m', joules_uj: 3500000, energy_provenance: 'ModelBased' }];
  const out: Case[] = [];
  const V = (name: string, comment: string, r: JsonObject): void => {
    // §13: no @context in the core, and the receipt's own fields carried as they are ("without changing any other field")
    out.push({ pack: P, name, type: 'VocabSeal', comment, flags: ['ContextInCore'], clauses: [NOT_IN_CORE], inputs: { steward_seed: seed, receipt: r }, intent: exactly({ complies: true, core: { verifies: true, changed: [] } }) });
  };
  const NESTED = (name: string, comment: string, r: JsonObject): void => {
    // refused, or sealed with the nested @context dropped: either way no signed core holds it (which, is left open)
    out.push({ pack: P, name, type: 'VocabSeal', comment: `${comment}: never sealed as it stands (sealed without it, or refused)`, flags: ['ContextInCore'], clauses: [NOT_IN_CORE], inputs: { steward_seed: seed, receipt: r }, intent: exactly({ complies: true }, 'invalid') });
  };
  V('vocab-context-url', 'an L3 receipt with "@context" the v1 URL (§13\'s production default): sealed, its core without @context, every other field unchanged', receipt('L3', GEMMA, CONTEXT_URL));
  V('vocab-context-array', 'the v1 URL in an array', receipt('L3', GEMMA, [CONTEXT_URL]));
  V('vocab-context-inline', 'an inline context object (jc:, tier, energy_provenance)', receipt('L2', [{ tool_id: 'embed:bge-small', joules_uj: 900, energy_provenance: 'HwShunt' }], INLINE));
  V('vocab-context-array-mixed', 'an array of the v1 URL and an inline context', receipt('L3', GEMMA, [CONTEXT_URL, INLINE]));
  V('vocab-context-null', '"@context": null (a JSON-LD context reset) on an L1 receipt with no claims: the key itself is kept out of the core, not sealed as null; claims stays []', receipt('L1', [{ tool_id: 'lawful:git-status', joules_uj: 12, energy_provenance: 'HwShunt' }], null, false, true));
  V('vocab-context-last', 'the v1 URL as the last member of the receipt, after steward', receipt('L3', GEMMA, CONTEXT_URL, true));
  V('vocab-no-context', 'the same receipt without @context (§13: valid with or without it): sealed, every field unchanged', receipt('L3', GEMMA, undefined));
  V(
    'vocab-context-many-tools',
    'an L4 receipt of three tools (HwShunt, Estimator, ModelBased; Estimator the worst) and no claims, with the v1 URL: core without @context, the ledger in order',
    receipt(
      'L4',
      [
        { tool_id: 'cache:l0', joules_uj: 0, energy_provenance: 'HwShunt' },
        { tool_id: 'wire:frontier', joules_uj: 41000000, energy_provenance: 'Estimator' },
        { tool_id: 'model:gemma4-9b-q5_k_m', joules_uj: 3500000, energy_provenance: 'ModelBased' },
      ],
      CONTEXT_URL,
      false,
      true,
    ),
  );
  const nestedTool = receipt('L3', GEMMA, CONTEXT_URL);
  nestedTool['tools_touched'] = [{ '@context': CONTEXT_URL, ...GEMMA[0]! }];
  NESTED('vocab-context-nested-tool-touch', 'the v1 URL at the top and again inside tools_touched[0]', nestedTool);
  const nestedClaim = receipt('L3', GEMMA, undefined);
  nestedClaim['claims'] = [{ '@context': INLINE, ...(nestedClaim['claims'] as JsonObject[])[0]! }];
  NESTED('vocab-context-nested-claim', 'no top-level @context, an inline one inside claims[0]', nestedClaim);
  NESTED('vocab-context-in-extra-field', 'the v1 URL at the top and a JSON-LD form in an extra member x_jsonld (itself holding @context)', { ...receipt('L3', GEMMA, CONTEXT_URL), x_jsonld: { '@context': CONTEXT_URL, tier: 'L3' } });
  return out;
}

// ---- jouleclaw:P-SHAPES -------------------------------------------------------------------------------------------

const NOT_SENT = 'jouleclaw/15#invalid-input-not-sent';


const claim = (over: JsonObject = {}, drop: string[] = []): JsonObject => {
  const c: JsonObject = { '@context': CLAIM_CONTEXT, '@type': 'jc:ClaimProvenance', source: 'https://en.wikipedia.org/wiki/Gemma_(model)', content_hash: 'ab'.repeat(32), trust_tier: 9, ...over };
  for (const k of drop) delete c[k];
  return c;
};
const touch = (over: JsonObject = {}, drop: string[] = []): JsonObject => {
  const t: JsonObject = { tool_id: 'model:x', joules_uj: 5, energy_provenance: 'HwShunt', ...over };
  for (const k of drop) delete t[k];
  return t;
};
const toolCall = (t: Json): JsonObject => ({ '@context': CLAIM_CONTEXT, '@type': 'jc:ToolCall', touch: t });
/** The claim shape's constraints on two fields, for drawn-like claims: trust_tier an integer in 0..10, content_hash 64 lower-case hex digits. */
const claimConforms = (trust: number, hash: string): boolean => Number.isInteger(trust) && trust >= 0 && trust <= 10 && /^[0-9a-f]{64}$/.test(hash);

function shapesCases(): Case[] {
  const out: Case[] = [];
  /** Inputs called in order on a fresh tool, each with whether it conforms: exactly the conforming ones reach the tool. */
  const SC = (name: string, comment: string, docs: [JsonObject, boolean][]): void => {
    const refused = docs.some(([, ok]) => !ok);
    out.push({
      pack: P,
      name,
      type: 'ShapesCalls',
      comment,
      flags: refused ? ['ShapeViolation', 'SuiteErrorCode'] : ['ShapeConforms'],
      clauses: [NOT_SENT],
      inputs: { shapes_ttl: CLAIM_SHAPES_TTL, inputs: docs.map(([d]) => d) },
      intent: exactly({ calls: docs.map(([, ok]) => (ok ? { accepted: true } : { error: 'ERR_SHAPE_VIOLATION' })), received: docs.filter(([, ok]) => ok).map(([d]) => d) }, refused ? 'invalid' : 'valid'),
    });
  };
  const ok = claim();
  // a conforming input first, so that a testee refusing everything fails each case too
  const bad = (name: string, what: string, d: JsonObject, first: JsonObject = ok): void => SC(name, `a conforming input, then ${what}: refused, and only the first reaches the tool`, [[first, true], [d, false]]);
  SC('shapes-conforming-claim', 'a claim meeting every constraint of its shape reaches the tool exactly as given', [[ok, true]]);
  SC('shapes-inclusive-bounds', 'trust_tier 0 and 10, sh:minInclusive 0 and sh:maxInclusive 10 being inclusive: both reach the tool, in order', [[claim({ trust_tier: 0 }), true], [claim({ trust_tier: 10 }), true]]);
  SC('shapes-coerced-integer-string', 'trust_tier "9", a JSON string the context coerces to "9"^^xsd:integer (JSON-LD type coercion): conforms, reaches the tool', [[claim({ trust_tier: '9' }), true]]);
  SC('shapes-untargeted-node', 'a claim typed jc:Other (trust_tier 11, content_hash upper case): no shape targets it, so the input conforms (SHACL §3.4 targets) and reaches the tool', [[claim({ '@type': 'jc:Other', trust_tier: 11, content_hash: 'AB'.repeat(32) }), true]]);
  bad('shapes-max-inclusive', 'trust_tier 11 (sh:maxInclusive 10)', claim({ trust_tier: 11 }));
  bad('shapes-min-inclusive', 'trust_tier -1 (sh:minInclusive 0)', claim({ trust_tier: -1 }));
  bad('shapes-pattern-upper-case', 'content_hash in upper case (sh:pattern ^[0-9a-f]{64}$)', claim({ content_hash: 'AB'.repeat(32) }));
  SC('shapes-pattern-length', 'a conforming claim, then content_hash of 63 and of 65 hex digits (sh:pattern ^[0-9a-f]{64}$): both refused', [
    [ok, true],
    [claim({ content_hash: 'a'.repeat(63) }), false],
    [claim({ content_hash: 'a'.repeat(65) }), false],
  ]);
  bad('shapes-min-count', 'a claim without source (sh:minCount 1)', claim({}, ['source']));
  bad('shapes-max-count', 'a claim with two sources (sh:maxCount 1)', claim({ source: ['https://a.example/x', 'https://b.example/y'] }));
  bad('shapes-node-kind', 'source as a literal value object, not an IRI (sh:nodeKind sh:IRI)', claim({ source: { '@value': 'https://a.example/x' } }));
  bad('shapes-datatype-string', 'trust_tier "9"^^xsd:string (sh:datatype xsd:integer)', claim({ trust_tier: { '@value': '9', '@type': `${XSD}string` } }));
  bad('shapes-datatype-decimal', 'trust_tier 5 typed xsd:decimal: an integer value, but not of datatype xsd:integer (sh:datatype compares the datatype IRI)', claim({ trust_tier: { '@value': 5, '@type': `${XSD}decimal` } }));
  SC('shapes-node-conforming', 'a tool call whose touch meets the ToolTouch shape (through sh:node) reaches the tool', [[toolCall(touch()), true]]);
  const okCall = toolCall(touch());
  bad('shapes-node-in', 'a touch whose energy_provenance is outside the enumeration (sh:in, through sh:node)', toolCall(touch({ energy_provenance: 'Guessed' })), okCall);
  bad('shapes-node-min-count', 'a touch without tool_id (sh:minCount, through sh:node)', toolCall(touch({}, ['tool_id'])), okCall);
  bad('shapes-node-min-inclusive', 'a touch of joules_uj -1 (sh:minInclusive 0, through sh:node)', toolCall(touch({ joules_uj: -1 })), okCall);
  bad('shapes-node-every-value', 'a tool call of two touches, the second with two tool_ids (sh:node holds for every value; sh:maxCount)', toolCall([touch(), touch({ tool_id: ['model:x', 'model:y'] })]), okCall);
  bad('shapes-missing-touch', 'a tool call with no touch at all (sh:minCount 1 on jc:touch)', { '@context': CLAIM_CONTEXT, '@type': 'jc:ToolCall' }, okCall);
  // the property test's kind of run: claims mixed, exactly the conforming ones reach the tool, in order
  const drawn: [number, string][] = [
    [3, 'c'.repeat(64)],
    [12, 'c'.repeat(64)],
    [10, '0123456789abcdef'.repeat(4)],
    [7, '0123456789ABCDEF'.repeat(4)],
    [-3, 'f'.repeat(64)],
    [0, 'e'.repeat(64)],
    [5, ''],
  ];
  SC('shapes-mixed-run', `seven claims (trust_tier, content_hash) in turn — ${drawn.map(([t, h]) => `${t}/${h.length ? h.slice(0, 4) + '…' : '""'}`).join(', ')}: the tool is sent exactly the conforming ones, in order`, drawn.map(([t, h]) => [claim({ trust_tier: t, content_hash: h }), claimConforms(t, h)]));
  return out;
}

/** Every case of the group, profile by profile, in a stable order. */
export function semanticCases(): Case[] {
  return [...mcpDispatchCases(), ...mcpSessionCases(), ...vocabCases(), ...shapesCases()];
}
