// profiles.json vectors of jouleclaw:P-MCP, jouleclaw:P-VOCAB, jouleclaw:P-SHAPES (harness/protocol/profiles/semantic.md):
// the kinds' JSON Schemas, the flags, and the executor that runs one vector through the profiles' testee operations and
// reports only what their clauses decide, read from the answer the way the profiles' conformance tests read it
// (harness/conformance/p-semantic-mcp, -vocab, -shapes.test.ts), so that every reading the spec permits gives the same
// JSON:
//  - McpDispatch (jouleclaw §5, mcp.dispatch): whether the counter reads are the scripted readings taken in turn, and
//    per tool call in the order made, its tool, whether a counter read sits right before and right after it, whether its
//    ToolTouch is the counter's advance across it, and the echo it got back. Not the trace itself: how many reads, and
//    whether two calls share the read between them, §5 leaves open; nor tool_id's spelling or a ToolTouch's provenance.
//  - McpSession (jouleclaw §5.1, mcp.serve-open / mcp.serve-frame): per JSON-RPC message delivered, whether every frame
//    the server sent back is JSON-RPC 2.0 text, and for a request how it was answered and what the answer says of the
//    session (the server advertising the tag, the tools listed, the echo). Not serverInfo, protocolVersion or wording.
//  - VocabSeal (jouleclaw §13, vocab.seal): `complies` (refused, or sealed with no `@context` key anywhere in the signed
//    core) and, for a sealed receipt, whether the envelope verifies under the steward's key and which of the receipt's
//    own fields the core does not carry unchanged. Extra fields in the core are not judged (§13 leaves a separate field
//    open).
//  - ShapesCalls (jouleclaw §15, shapes.tool / shapes.call / shapes.calls): a fresh fake tool, each input called in
//    order (accepted, or the refusal), then every input the tool was sent, read back as JSON.
// Refusals are `{ error: code }` (vectors/p-execute.ts wraps the executor).
import { TesteeError, type Implementation } from '../../harness/implementation.ts';
import { toHex } from '../../impl/bytes.ts';
import { decodeCanonical, type CborValue } from '../../impl/cbor/index.ts';
import { decodeSign1, verifySign1 } from '../../impl/cose/sign1.ts';
import { defaultEd25519, keyPairFromSeed } from '../../impl/identity/ed25519.ts';
import type { FlagNote, Json, JsonObject } from '../model.ts';
import { arr, hex, obj as objIn, str, uint } from '../inputs.ts';
import { refusal } from '../jc-execute.ts';
import { ANY_OBJ, ERROR, SEED, UINT, obj, type S } from '../schema-parts.ts';
import type { ProfileVectorGroup } from './group.ts';
import { SEMANTIC_PROFILE_TYPES } from './semantic-kinds.ts';
import { semanticCases } from './semantic-cases.ts';

type Kind = (typeof SEMANTIC_PROFILE_TYPES)[number];

/** jouleclaw §5.1 the capability tag. */
const JOULE_MCP_TAG = 'x-jouleclaw/joule-mcp@1';
const utf8 = new TextEncoder();
const utf8d = new TextDecoder('utf-8', { fatal: true });

// ---- reading answers ----------------------------------------------------------------------------------------------

/** A member of an answered map (CBOR maps decode to Map; a plain object is read alike). */
function field(m: unknown, k: string): unknown {
  if (m instanceof Map) return m.get(k);
  if (m !== null && typeof m === 'object') return (m as Record<string, unknown>)[k];
  return undefined;
}
const num = (v: unknown): number | undefined => (typeof v === 'bigint' ? Number(v) : typeof v === 'number' ? v : undefined);
const list = (v: unknown, what: string): unknown[] => {
  if (!Array.isArray(v)) throw new Error(`the implementation answered ${what} that is not an array`);
  return v;
};
/** JSON text read back as JSON; text that is not JSON is reported as the text itself. */
function jsonOf(t: unknown): Json {
  if (typeof t !== 'string') return null;
  try {
    return JSON.parse(t) as Json;
  } catch {
    return t;
  }
}
/** A decoded CBOR value as plain JSON (integers as numbers, maps as objects, bytes as hex). */
function plain(v: CborValue): Json {
  if (typeof v === 'bigint') return Number(v);
  if (v instanceof Uint8Array) return toHex(v);
  if (Array.isArray(v)) return v.map(plain);
  if (v instanceof Map) return Object.fromEntries([...v].map(([k, x]) => [String(k), plain(x)]));
  return v as Json;
}
/** Canonical JSON (members sorted): equality of JSON values whatever their member order. */
function canon(v: Json | undefined): string {
  if (v === undefined) return '(absent)';
  if (Array.isArray(v)) return `[${v.map(canon).join(',')}]`;
  if (v !== null && typeof v === 'object') return `{${Object.keys(v).sort().map((k) => `${JSON.stringify(k)}:${canon(v[k])}`).join(',')}}`;
  return JSON.stringify(v);
}
/** Every map key at any depth of `v`. */
function keysDeep(v: Json): string[] {
  if (Array.isArray(v)) return v.flatMap(keysDeep);
  if (v !== null && typeof v === 'object') return Object.entries(v).flatMap(([k, x]) => [k, ...keysDeep(x)]);
  return [];
}

// ---- jouleclaw:P-MCP ----------------------------------------------------------------------------------------------

/**
 * mcp.dispatch (jouleclaw §5 "brackets the call with energy counter reads and pushes a ToolTouch entry onto the running
 * receipt's tools_touched ledger"): the reads are the counter's readings in turn; each call, in the order made, has a
 * read right before and right after it (`bracketed`) and the ToolTouch of its rank names a tool and is the counter's
 * advance between those two reads (`metered`); its output read back as JSON (`echo`); and how many ToolTouches there are.
 */
async function mcpDispatch(impl: Implementation, inp: JsonObject): Promise<JsonObject> {
  const calls = arr(inp['calls'], 'calls').map((c, i) => {
    const o = objIn(c, `calls[${i}]`);
    return { tool: str(o['tool'], `calls[${i}].tool`), arguments_json: JSON.stringify(objIn(o['arguments'], `calls[${i}].arguments`)) };
  });
  const readings = arr(inp['counter'], 'counter').map((v, i) => uint(v, `counter[${i}]`));
  const r = await impl._call('mcp.dispatch', {
    tools: arr(inp['tools'], 'tools').map((t, i) => str(t, `tools[${i}]`)),
    calls,
    counter: readings,
    provenance: str(inp['provenance'], 'provenance'),
  });
  const trace = list(r.get('trace'), 'trace').map((s) => ({ read: num(field(s, 'read')), call: field(s, 'call') }));
  const touched = list(r.get('tools_touched'), 'tools_touched');
  const outputs = list(r.get('outputs'), 'outputs');
  const reads = trace.filter((s) => s.read !== undefined).map((s) => s.read!);
  const reads_in_turn = reads.length <= readings.length && reads.every((x, i) => x === Number(readings[i]));
  const callAt = trace.flatMap((s, i) => (s.read === undefined ? [i] : []));
  return {
    reads_in_turn,
    calls: callAt.map((at, k) => {
      const before = trace[at - 1]?.read;
      const after = trace[at + 1]?.read;
      const bracketed = before !== undefined && after !== undefined;
      const t = touched[k];
      const toolId = field(t, 'tool_id');
      const metered = bracketed && typeof toolId === 'string' && toolId.length > 0 && num(field(t, 'joules_uj')) === after - before;
      return { tool: String(trace[at]!.call), bracketed, metered, echo: jsonOf(outputs[k]) };
    }),
    touches: touched.length,
  };
}

/** The JSON-RPC 2.0 messages of one frame (a message or a batch of them), or undefined when it is not JSON-RPC text. */
function jsonRpcMessages(frame: unknown): Record<string, unknown>[] | undefined {
  if (!(frame instanceof Uint8Array)) return undefined;
  let v: unknown;
  try {
    v = JSON.parse(utf8d.decode(frame));
  } catch {
    return undefined;
  }
  const ms = Array.isArray(v) ? v : [v];
  const ok = ms.length > 0 && ms.every((m) => m !== null && typeof m === 'object' && !Array.isArray(m) && (m as { jsonrpc?: unknown }).jsonrpc === '2.0');
  return ok ? (ms as Record<string, unknown>[]) : undefined;
}

/**
 * mcp.serve-open then mcp.serve-frame per message (jouleclaw §5.1 "When either side does not advertise, the encoding
 * MUST fall back to standard MCP JSON-RPC"): per message, `json_rpc` — every frame sent back is JSON-RPC 2.0 text — and,
 * for a request, `answer` (the response with its id: result, error, or none) and from a result what the session needs
 * of it: whether initialize's server capabilities advertise the tag (capabilities.experimental, the op's definition),
 * which of the echo tools tools/list names, and the echo tools/call's text content carries, read back as JSON.
 */
async function mcpSession(impl: Implementation, inp: JsonObject): Promise<JsonObject> {
  const tools = arr(inp['tools'], 'tools').map((t, i) => str(t, `tools[${i}]`));
  const session = (await impl._call('mcp.serve-open', { advertise: str(inp['advertise'], 'advertise'), tools })).get('session');
  if (typeof session !== 'string') throw new Error('mcp.serve-open answered no session');
  const replies: Json[] = [];
  for (const [i, m] of arr(inp['messages'], 'messages').entries()) {
    const message = objIn(m, `messages[${i}]`);
    const frames = list((await impl._call('mcp.serve-frame', { session, frame: utf8.encode(JSON.stringify(message)) })).get('frames'), 'frames');
    const parsed = frames.map(jsonRpcMessages);
    const out: JsonObject = { json_rpc: parsed.every((p) => p !== undefined) };
    if ('id' in message) {
      const id = canon(message['id'] as Json);
      const resp = parsed.flatMap((p) => p ?? []).find((x) => ('result' in x || 'error' in x) && canon(x['id'] as Json) === id);
      out['answer'] = resp === undefined ? 'none' : 'result' in resp ? 'result' : 'error';
      const result = resp?.['result'] as Record<string, unknown> | undefined;
      if (result !== undefined && result !== null && typeof result === 'object') {
        if (message['method'] === 'initialize') {
          const exp = (result['capabilities'] as { experimental?: unknown } | undefined)?.experimental;
          out['advertises'] = exp !== null && typeof exp === 'object' && Object.hasOwn(exp, JOULE_MCP_TAG);
        } else if (message['method'] === 'tools/list') {
          const names = Array.isArray(result['tools']) ? (result['tools'] as { name?: unknown }[]).map((t) => t?.name) : [];
          out['listed'] = tools.filter((t) => names.includes(t));
        } else if (message['method'] === 'tools/call') {
          const content = Array.isArray(result['content']) ? (result['content'] as { type?: unknown; text?: unknown }[]) : [];
          out['echo'] = jsonOf(content.filter((c) => c?.type === 'text' && typeof c.text === 'string').map((c) => c.text as string).join(''));
        }
      }
    }
    replies.push(out);
  }
  return { replies };
}

// ---- jouleclaw:P-VOCAB --------------------------------------------------------------------------------------------

/**
 * vocab.seal (jouleclaw §13 "The canonical signed core of a JCR-1 envelope MUST NOT include @context"): a refusal
 * complies (it signs no core); a sealed receipt complies when no map of its signed core (the COSE_Sign1 payload, §10)
 * has an `@context` key, and `core` says whether the envelope verifies under the steward's key and which of the
 * receipt's own fields (all but `@context`) the core does not carry unchanged.
 */
async function vocabSeal(impl: Implementation, inp: JsonObject): Promise<JsonObject> {
  const seed = hex(inp['steward_seed'], 'steward_seed');
  const receipt = objIn(inp['receipt'], 'receipt');
  let sealed: unknown;
  try {
    sealed = (await impl._call('vocab.seal', { receipt_json: JSON.stringify(receipt), steward_seed: seed })).get('receipt');
  } catch (e) {
    if (e instanceof TesteeError) return { complies: true };
    throw e;
  }
  let core: Json;
  let verifies: boolean;
  try {
    const s = decodeSign1(sealed as Uint8Array);
    core = plain(decodeCanonical(s.payload));
    verifies = verifySign1(s, keyPairFromSeed(seed).publicKey, defaultEd25519());
  } catch {
    return { complies: false, core: 'unreadable' };
  }
  const fields = core !== null && typeof core === 'object' && !Array.isArray(core) ? core : {};
  const changed = Object.keys(receipt).filter((k) => k !== '@context' && canon(fields[k]) !== canon(receipt[k])).sort();
  return { complies: !keysDeep(core).includes('@context'), core: { verifies, changed } };
}

// ---- jouleclaw:P-SHAPES -------------------------------------------------------------------------------------------

/** shapes.tool, shapes.call per input in order, then shapes.calls (jouleclaw §15 "MUST NOT be sent to the tool"). */
async function shapesCalls(impl: Implementation, inp: JsonObject): Promise<JsonObject> {
  const shapes_ttl = str(inp['shapes_ttl'], 'shapes_ttl');
  const tool = (await impl._call('shapes.tool', {})).get('tool');
  if (typeof tool !== 'string') throw new Error('shapes.tool answered no tool');
  const calls: Json[] = [];
  for (const [i, x] of arr(inp['inputs'], 'inputs').entries()) {
    const input_json = JSON.stringify(objIn(x, `inputs[${i}]`));
    calls.push(
      await refusal(async () => {
        await impl._call('shapes.call', { tool, shapes_ttl, input_json });
        return { accepted: true };
      }),
    );
  }
  const received = list((await impl._call('shapes.calls', { tool })).get('inputs'), 'inputs').map(jsonOf);
  return { calls, received };
}

// ---- the group ----------------------------------------------------------------------------------------------------

const TEXT: S = { type: 'string' };
const TEXTS: S = { type: 'array', items: TEXT };
const BOOL: S = { type: 'boolean' };
const ANY: S = {};
const PROVENANCE: S = { enum: ['HwShunt', 'ModelBased', 'Estimator'] };

const FLAGS: Record<string, FlagNote> = {
  McpMetered: {
    bugType: 'ENERGY_ACCOUNTING',
    description:
      "Every MCP tool call must sit between two energy counter reads and push one ToolTouch whose joules_uj is the counter's advance across it (jouleclaw §5 dispatch_metered); a call the counter cannot bracket (fewer readings than calls + 1) is refused, never made unmetered.",
    effect: "A tool's energy is spent off the books: the running receipt's tools_touched under-reports, or misattributes, what the run drew.",
  },
  McpFallback: {
    bugType: 'PROTOCOL_NEGOTIATION',
    description:
      'Where the client or the server does not advertise x-jouleclaw/joule-mcp@1 (the client not at all, with another tag, or the server not), every frame must stay standard MCP JSON-RPC and the session (initialize, tools/list, tools/call) must work (jouleclaw §5.1).',
    effect: 'A stock MCP client (Claude Code, Codex, an SDK) that never opted into the CBOR profile is sent frames it cannot read, and the tool surface is unusable to it.',
  },
  ContextInCore: {
    bugType: 'SIGNED_CORE',
    description:
      'A receipt carrying @context (a URL, an array, an inline context, null, placed last, nested in a member, or inside an extra field) must be sealed with no @context anywhere in its signed core and its own fields unchanged, or refused (jouleclaw §13).',
    effect: 'The signature covers JSON-LD metadata: one receipt sealed with and without a context signs different bytes, and what a verifier checks depends on a document fetched from a URL.',
  },
  ShapeViolation: {
    bugType: 'INPUT_VALIDATION',
    description:
      'A tool input failing one SHACL Core constraint of jouleclaw §15 (sh:minCount, sh:maxCount, sh:datatype, sh:nodeKind, sh:in, sh:pattern, sh:minInclusive, sh:maxInclusive, directly or through sh:node) must be refused and never reach the tool.',
    effect: 'An input the published shapes reject reaches the tool anyway: the validation the operator published protects nothing.',
  },
  ShapeConforms: {
    bugType: 'INPUT_VALIDATION',
    description:
      "An input that conforms under SHACL's own reading (inclusive bounds, JSON-LD type coercion of a string, a node no target selects) must reach the tool exactly as given, in order (the op's definition; jouleclaw §15 validates, it does not refuse lawful inputs).",
    effect: 'A validator stricter than SHACL refuses lawful tool inputs; one refusing everything would otherwise pass every negative vector.',
  },
};

export const semanticGroup: ProfileVectorGroup<Kind> = {
  profiles: ['jouleclaw:P-MCP', 'jouleclaw:P-VOCAB', 'jouleclaw:P-SHAPES'],
  types: SEMANTIC_PROFILE_TYPES,
  kinds: {
    McpDispatch: {
      inputs: obj(['tools', 'calls', 'counter', 'provenance'], {
        tools: { type: 'array', minItems: 1, items: TEXT },
        calls: { type: 'array', minItems: 1, items: obj(['tool', 'arguments'], { tool: TEXT, arguments: ANY_OBJ }) },
        counter: { type: 'array', items: UINT },
        provenance: PROVENANCE,
      }),
      expected: {
        anyOf: [
          obj(['reads_in_turn', 'calls', 'touches'], {
            reads_in_turn: BOOL,
            calls: { type: 'array', items: obj(['tool', 'bracketed', 'metered', 'echo'], { tool: TEXT, bracketed: BOOL, metered: BOOL, echo: ANY }) },
            touches: UINT,
          }),
          ERROR,
        ],
      },
    },
    McpSession: {
      inputs: obj(['advertise', 'tools', 'messages'], { advertise: { enum: ['yes', 'no'] }, tools: TEXTS, messages: { type: 'array', minItems: 1, items: ANY_OBJ } }),
      expected: {
        anyOf: [
          obj(['replies'], {
            replies: { type: 'array', items: obj(['json_rpc'], { json_rpc: BOOL, answer: { enum: ['result', 'error', 'none'] }, advertises: BOOL, listed: TEXTS, echo: ANY }) },
          }),
          ERROR,
        ],
      },
    },
    VocabSeal: {
      inputs: obj(['steward_seed', 'receipt'], { steward_seed: SEED, receipt: ANY_OBJ }),
      expected: {
        anyOf: [obj(['complies'], { complies: BOOL, core: { anyOf: [obj(['verifies', 'changed'], { verifies: BOOL, changed: TEXTS }), { const: 'unreadable' }] } }), ERROR],
      },
    },
    ShapesCalls: {
      inputs: obj(['shapes_ttl', 'inputs'], { shapes_ttl: TEXT, inputs: { type: 'array', minItems: 1, items: ANY_OBJ } }),
      expected: {
        anyOf: [obj(['calls', 'received'], { calls: { type: 'array', items: { anyOf: [obj(['accepted'], { accepted: { const: true } }), ERROR] } }, received: { type: 'array' } }), ERROR],
      },
    },
  },
  flags: FLAGS,
  cases: semanticCases,
  run: { McpDispatch: mcpDispatch, McpSession: mcpSession, VocabSeal: vocabSeal, ShapesCalls: shapesCalls },
  // a receipt whose @context sits inside a member or an extra field may be sealed (the member's @context dropped) or
  // refused — both keep @context out of every signed core (§13) — so such a vector's expected leaves `core` out
  open: ['VocabSeal'],
};
