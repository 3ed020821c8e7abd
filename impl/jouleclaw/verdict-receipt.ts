// jouleclaw §16.7 the verdict receipt "verdict-receipt/1": a ContractVerdict landed on the unified log. The signed core
// carries the verdict as the JSON string verdict_json with verdict_hash = hex BLAKE3 of its bytes (never a nested
// object: the JCR-1 canonical subset has no bools or nulls), contract_hash = the contract's content hash, sealed in
// the JCR-1 COSE_Sign1 envelope (receipt-envelope.ts) under the steward.
//
// verdict_json is the RFC 8785 canonical JSON of the verdict (contract-json.ts), a byte shape the suite fixes; a
// verifier hashes the bytes as signed and does not re-canonicalise them.
import { JcpError } from '../errors.ts';
import { isDidKey } from '../identity/did-key.ts';
import { defaultEd25519, type Ed25519, type KeyPair } from '../identity/ed25519.ts';
import { blake3HexOfText, jsonFields, readJson, type JsonObject } from './contract-json.ts';
import { contractHash } from './contract.ts';
import { openJcReceipt, sealJcCore } from './receipt-envelope.ts';
import { verdictJson, type ContractVerdict } from './verdict.ts';

/** The schema tag of a verdict receipt. */
export const VERDICT_RECEIPT_SCHEMA = 'verdict-receipt/1';

/** jouleclaw §16.7 the signed core of a verdict receipt. */
export interface VerdictReceiptCore {
  readonly jc_receipt: string;
  readonly id: string;
  readonly closed_at: string;
  readonly steward: string;
  readonly engine_id: string;
  readonly audit_sequence: number;
  readonly contract_hash: string;
  readonly verdict_json: string;
  readonly verdict_hash: string;
}

/** What the producer supplies besides the verdict: ids and clocks are inputs (ARCHITECTURE.md determinism). */
export interface VerdictReceiptFields {
  readonly id: string;
  readonly closed_at: string;
  readonly engine_id: string;
  readonly audit_sequence: number;
}

const M = 'ERR_JC_RECEIPT_MALFORMED' as const;

/**
 * Builds the signed core of a verdict receipt. `verdict` is a ContractVerdict object or its JSON text (carried as given
 * when text, else as its canonical JSON). When `contract` is given its content hash must equal the verdict's
 * contract_hash (ERR_VERDICT_CONTRACT_MISMATCH): §16.7 "contract_hash MUST equal the BLAKE3 content hash of the
 * ValidationContract the verdict was produced against".
 */
export function verdictReceiptCore(fields: VerdictReceiptFields, steward: string, verdict: ContractVerdict | string, contract?: unknown): VerdictReceiptCore {
  const verdict_json = typeof verdict === 'string' ? verdict : verdictJson(verdict);
  const v = readVerdictObject(verdict_json);
  if (contract !== undefined) {
    const h = contractHash(contract);
    if (h !== v.contract_hash) throw new JcpError('ERR_VERDICT_CONTRACT_MISMATCH', `the verdict was produced against contract ${v.contract_hash}, not the given contract ${h}`);
  }
  if (!isDidKey(steward)) throw new JcpError('ERR_BAD_ARGUMENT', 'steward must be a did:key handle');
  if (!Number.isSafeInteger(fields.audit_sequence) || fields.audit_sequence < 0) throw new JcpError('ERR_BAD_ARGUMENT', 'audit_sequence must be a non-negative integer');
  return Object.freeze({
    jc_receipt: VERDICT_RECEIPT_SCHEMA,
    id: fields.id,
    closed_at: fields.closed_at,
    steward,
    engine_id: fields.engine_id,
    audit_sequence: fields.audit_sequence,
    // §16.7: contract_hash beside the verdict, so a log reader may index without parsing verdict_json
    contract_hash: v.contract_hash,
    // §16.7: "carries the verdict as a JSON-string field named verdict_json … with a sibling verdict_hash"
    verdict_json,
    verdict_hash: blake3HexOfText(verdict_json),
  });
}

/** Seals a verdict receipt under `steward` (see {@link verdictReceiptCore}). */
export function sealVerdictReceipt(fields: VerdictReceiptFields, steward: KeyPair, verdict: ContractVerdict | string, contract?: unknown, backend: Ed25519 = defaultEd25519()): Uint8Array {
  return sealJcCore({ ...verdictReceiptCore(fields, steward.did, verdict, contract) }, steward, backend);
}

function readVerdictObject(verdict_json: string): { contract_hash: string; obj: JsonObject } {
  const v = readJson(verdict_json, M, 'verdict_json');
  const f = jsonFields(v, M, 'verdict');
  if (f.text('jc_verdict') !== 'verdict/1') throw new JcpError('ERR_JC_SCHEMA_UNKNOWN', 'the verdict is not a "verdict/1" ContractVerdict');
  return { contract_hash: f.text('contract_hash'), obj: f.obj };
}

/** A verified verdict receipt: the signed core, and the wire form with the verdict nested (§16.7 MAY). */
export interface OpenedVerdictReceipt {
  readonly core: VerdictReceiptCore;
  readonly wire: JsonObject;
}

/**
 * Opens and checks a sealed verdict receipt: the envelope (kid = steward, signature), jc_receipt "verdict-receipt/1"
 * (any minor), verdict_hash = BLAKE3(verdict_json) (ERR_VERDICT_HASH_MISMATCH), the inner verdict's contract_hash =
 * the core's (ERR_VERDICT_CONTRACT_MISMATCH), and, when `contract` is given, its content hash = contract_hash.
 */
export function openVerdictReceipt(bytes: Uint8Array, contract?: unknown, backend: Ed25519 = defaultEd25519()): OpenedVerdictReceipt {
  const opened = openJcReceipt(bytes, backend);
  if (opened.kind !== 'verdict' || !opened.core) throw new JcpError('ERR_JC_SCHEMA_UNKNOWN', `expected a verdict receipt, got jc_receipt "${opened.jc_receipt}"`);
  return checkVerdictCore(opened.core, contract);
}

/** The checks of {@link openVerdictReceipt} over an already verified core. */
export function checkVerdictCore(core: JsonObject, contract?: unknown): OpenedVerdictReceipt {
  const f = jsonFields(core, M, 'verdict receipt');
  const c: VerdictReceiptCore = Object.freeze({
    jc_receipt: f.text('jc_receipt'),
    id: f.text('id'),
    closed_at: f.text('closed_at'),
    steward: f.text('steward'),
    engine_id: f.text('engine_id'),
    audit_sequence: f.uint('audit_sequence'),
    contract_hash: f.text('contract_hash'),
    verdict_json: f.text('verdict_json'),
    verdict_hash: f.text('verdict_hash'),
  });
  // §16.7: "verdict_hash field set to hex BLAKE3 of the verdict_json bytes"
  const h = blake3HexOfText(c.verdict_json);
  if (h !== c.verdict_hash) throw new JcpError('ERR_VERDICT_HASH_MISMATCH', `verdict_hash ${c.verdict_hash} is not BLAKE3 of verdict_json (${h})`);
  const v = readVerdictObject(c.verdict_json);
  if (v.contract_hash !== c.contract_hash) throw new JcpError('ERR_VERDICT_CONTRACT_MISMATCH', `the core's contract_hash ${c.contract_hash} differs from the verdict's ${v.contract_hash}`);
  if (contract !== undefined) {
    const ch = contractHash(contract);
    // §16.7: "contract_hash MUST equal the BLAKE3 content hash of the ValidationContract the verdict was produced against"
    if (ch !== c.contract_hash) throw new JcpError('ERR_VERDICT_CONTRACT_MISMATCH', `the receipt binds contract ${c.contract_hash}, not the given contract ${ch}`);
  }
  const wire: JsonObject = { jc_receipt: c.jc_receipt, id: c.id, closed_at: c.closed_at, steward: c.steward, engine_id: c.engine_id, audit_sequence: c.audit_sequence, contract_hash: c.contract_hash, verdict: v.obj };
  return Object.freeze({ core: c, wire });
}

