// jouleclaw §2 the cascade receipt (jc_receipt "1"): one per cascade walk, its energy_provenance the worst counter seen
// across tools_touched (normative); §4 ClaimProvenance envelopes; §7 read under major 1 ignoring unknown fields.
import { PROVENANCES, isProvenance, type Provenance } from '../energy/cost.ts';
import { provenanceFloor } from '../energy/energy.ts';
import { JcpError } from '../errors.ts';
import { isDidKey } from '../identity/did-key.ts';
import { jsonFields, readJson, type JsonObject } from './contract-json.ts';
import { expectSchema } from './versioning.ts';

/** jouleclaw §1.1 / §7 the cascade tier wire tags, cheapest first; stable across versions, never renumbered. */
export const TIERS = ['L0', 'L1', 'L2', 'L3', 'L4'] as const;
/** A cascade tier wire tag. */
export type Tier = (typeof TIERS)[number];

/** jouleclaw §5: one metered tool call on the receipt's tools_touched ledger. */
export interface ToolTouch {
  readonly tool_id: string;
  readonly joules_uj: number;
  readonly energy_provenance: Provenance;
}

/** jouleclaw §4 ClaimProvenance: one retrieved claim that contributed to the resolution. */
export interface ClaimProvenance {
  readonly source: string;
  readonly content_hash: string;
  readonly fetched_at: string;
  /** 0..10. */
  readonly trust_tier: number;
}

/** jouleclaw §2 the cascade receipt. Optional fields are omitted, never null (eoc_stage: null in §2 is written absent). */
export interface CascadeReceipt {
  /** "1", or "1.<minor>" when read from a later minor. */
  readonly jc_receipt: string;
  readonly id: string;
  readonly closed_at: string;
  readonly input_hash: string;
  readonly tier: Tier;
  readonly joules_uj: number;
  readonly energy_provenance: Provenance;
  readonly tools_touched: readonly ToolTouch[];
  readonly claims: readonly ClaimProvenance[];
  readonly eoc_stage?: string;
  /** jouleclaw §8: the steward's did:key handle, when self-describing. */
  readonly steward?: string;
}

/** What a cascade walk hands the receipt builder; energy_provenance is derived (and checked when given). */
export type CascadeWalk = Omit<CascadeReceipt, 'jc_receipt' | 'energy_provenance'> & { readonly energy_provenance?: Provenance };

const HEX64 = /^[0-9a-f]{64}$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
// RFC 3339 date-time (§5.6), with the seconds fraction and zone it allows
const RFC3339 = /^\d{4}-\d{2}-\d{2}[Tt ]\d{2}:\d{2}:\d{2}(\.\d+)?([Zz]|[+-]\d{2}:\d{2})$/;

function malformed(msg: string): never {
  throw new JcpError('ERR_JC_RECEIPT_MALFORMED', msg);
}

/** The worst provenance across `tools` (Estimator worse than ModelBased worse than HwShunt), or undefined when none. */
export function worstProvenance(tools: readonly { readonly energy_provenance: Provenance }[]): Provenance | undefined {
  let worst: Provenance | undefined;
  for (const t of tools) worst = worst === undefined ? t.energy_provenance : provenanceFloor(worst, t.energy_provenance);
  return worst;
}

/**
 * Checks the §2 rule on a receipt's provenance: with tools touched it must be exactly the worst of theirs —
 * better is an overclaim, and worse names a counter no tool saw. ERR_JC_PROVENANCE_NOT_WORST otherwise.
 */
export function checkWorstProvenance(energy_provenance: Provenance, tools: readonly ToolTouch[]): void {
  const worst = worstProvenance(tools);
  // jouleclaw §2: "A receipt's energy_provenance is the worst counter seen across all tools_touched — not the best."
  if (worst !== undefined && energy_provenance !== worst) {
    throw new JcpError('ERR_JC_PROVENANCE_NOT_WORST', `energy_provenance is ${energy_provenance} but the worst counter across tools_touched is ${worst}`, {
      stated: energy_provenance,
      worst,
    });
  }
}

function readProvenance(v: unknown, path: string): Provenance {
  if (!isProvenance(v)) malformed(`${path} must be one of ${PROVENANCES.join(', ')}`);
  return v;
}

function readTool(v: unknown, i: number): ToolTouch {
  const f = jsonFields(v, 'ERR_JC_RECEIPT_MALFORMED', `tools_touched[${i}]`);
  return Object.freeze({ tool_id: f.text('tool_id'), joules_uj: f.uint('joules_uj'), energy_provenance: readProvenance(f.obj['energy_provenance'], `tools_touched[${i}].energy_provenance`) });
}

function readClaim(v: unknown, i: number): ClaimProvenance {
  const f = jsonFields(v, 'ERR_JC_RECEIPT_MALFORMED', `claims[${i}]`);
  const content_hash = f.text('content_hash');
  // jouleclaw §4: "content_hash": "<blake3 hex of bytes as fetched>"
  if (!HEX64.test(content_hash)) malformed(`claims[${i}].content_hash must be 64 lowercase hex digits`);
  const fetched_at = f.text('fetched_at');
  if (!RFC3339.test(fetched_at)) malformed(`claims[${i}].fetched_at must be an RFC 3339 date-time`);
  const trust_tier = f.uint('trust_tier');
  // jouleclaw §4: "trust_tier is 0..10"
  if (trust_tier > 10) malformed(`claims[${i}].trust_tier must be 0..10, got ${trust_tier}`);
  return Object.freeze({ source: f.text('source'), content_hash, fetched_at, trust_tier });
}

/** Reads the fields common to a walk and a receipt; unknown fields are ignored (§7). */
function readBody(o: JsonObject): Omit<CascadeWalk, 'energy_provenance'> {
  const f = jsonFields(o, 'ERR_JC_RECEIPT_MALFORMED', 'receipt');
  const id = f.text('id');
  if (!UUID.test(id)) malformed(`id must be a lowercase UUID, got "${id}"`);
  const closed_at = f.text('closed_at');
  if (!RFC3339.test(closed_at)) malformed('closed_at must be an RFC 3339 date-time');
  const input_hash = f.text('input_hash');
  if (!HEX64.test(input_hash)) malformed('input_hash must be 64 lowercase hex digits (blake3 of the normalised input)');
  const tier = f.text('tier');
  // jouleclaw §7: the tier wire tags of major 1 are L0–L4; a tier only a later major adds is not one of them
  if (!(TIERS as readonly string[]).includes(tier)) malformed(`tier must be one of ${TIERS.join(', ')}, got "${tier}"`);
  const eoc = o['eoc_stage'];
  if (eoc !== undefined && eoc !== null && typeof eoc !== 'string') malformed('eoc_stage must be a string when present');
  const steward = f.optText('steward');
  if (steward !== undefined && !isDidKey(steward)) malformed('steward must be a did:key handle');
  return {
    id,
    closed_at,
    input_hash,
    tier: tier as Tier,
    joules_uj: f.uint('joules_uj'),
    tools_touched: Object.freeze(f.array('tools_touched').map(readTool)),
    claims: Object.freeze(f.array('claims').map(readClaim)),
    // JSON's "eoc_stage": null reads as absent: optional fields are omitted, never null
    ...(typeof eoc === 'string' ? { eoc_stage: eoc } : {}),
    ...(steward !== undefined ? { steward } : {}),
  };
}

/**
 * jouleclaw §2 "Every cascade walk MUST produce one Receipt": builds the "1" receipt of a walk, its energy_provenance
 * the worst across tools_touched. A walk with no tool touched must state its own provenance (an L0 cache hit);
 * a stated provenance that is not the worst is ERR_JC_PROVENANCE_NOT_WORST; a malformed walk ERR_JC_RECEIPT_MALFORMED.
 */
export function buildCascadeReceipt(walk: unknown): CascadeReceipt {
  const o = readJson(walk, 'ERR_JC_RECEIPT_MALFORMED', 'walk');
  const body = readBody(o as JsonObject);
  const stated = (o as JsonObject)['energy_provenance'];
  const worst = worstProvenance(body.tools_touched);
  const energy_provenance = stated === undefined ? worst : readProvenance(stated, 'energy_provenance');
  if (energy_provenance === undefined) malformed('a walk that touched no tool must state its energy_provenance');
  checkWorstProvenance(energy_provenance, body.tools_touched);
  return Object.freeze({ jc_receipt: '1', ...body, energy_provenance });
}

/**
 * Reads a cascade receipt as JSON (text or parsed): jc_receipt must be "1" or "1.<minor>" (any other major of the bare
 * namespace, or another namespace: ERR_JC_SCHEMA_UNKNOWN); unknown fields are ignored; the §2 worst rule is checked.
 */
export function parseCascadeReceipt(json: unknown): CascadeReceipt {
  const o = readJson(json, 'ERR_JC_RECEIPT_MALFORMED', 'receipt');
  const f = jsonFields(o, 'ERR_JC_RECEIPT_MALFORMED', 'receipt');
  const jc_receipt = f.text('jc_receipt');
  // jouleclaw §7: "Unknown major → reject. Unknown minor → accept by ignoring unknown fields."
  expectSchema(jc_receipt, '', 1);
  const body = readBody(f.obj);
  const energy_provenance = readProvenance(f.obj['energy_provenance'], 'energy_provenance');
  checkWorstProvenance(energy_provenance, body.tools_touched);
  return Object.freeze({ jc_receipt, ...body, energy_provenance });
}

/** The receipt as a JSON object with only the fields this schema defines (the form sealed as the signed core). */
export function cascadeReceiptJson(r: CascadeReceipt): JsonObject {
  return {
    jc_receipt: r.jc_receipt,
    id: r.id,
    closed_at: r.closed_at,
    input_hash: r.input_hash,
    tier: r.tier,
    joules_uj: r.joules_uj,
    energy_provenance: r.energy_provenance,
    tools_touched: r.tools_touched.map((t) => ({ tool_id: t.tool_id, joules_uj: t.joules_uj, energy_provenance: t.energy_provenance })),
    claims: r.claims.map((c) => ({ source: c.source, content_hash: c.content_hash, fetched_at: c.fetched_at, trust_tier: c.trust_tier })),
    ...(r.eoc_stage !== undefined ? { eoc_stage: r.eoc_stage } : {}),
    ...(r.steward !== undefined ? { steward: r.steward } : {}),
  };
}
