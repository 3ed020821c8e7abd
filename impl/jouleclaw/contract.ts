// jouleclaw §16.1–§16.4, §16.6 (producer side): the validation contract "contract/1" — assertions, features, checks,
// acceptance — read and refused at the boundary (duplicate ids, claims of unknown assertions), and its content hash.
import { JcpError } from '../errors.ts';
import { canonicalJsonHash, jsonFields, readJson, type JsonObject } from './contract-json.ts';
import { expectSchema } from './versioning.ts';

/** jouleclaw §16.2 assertion priorities. */
export const PRIORITIES = ['must_have', 'should_have', 'nice_to_have'] as const;
export type Priority = (typeof PRIORITIES)[number];

/** jouleclaw §16.2 the four check kinds an assertion may carry. */
export type Check =
  | { readonly kind: 'tool'; readonly tool_id: string; readonly args_hash?: string }
  | { readonly kind: 'artifact'; readonly path: string; readonly expected_hash?: string }
  | { readonly kind: 'command'; readonly command_hash: string; readonly expected_exit: number }
  | { readonly kind: 'checker'; readonly checker_id: string };

/** jouleclaw §16.2 one falsifiable claim. */
export interface Assertion {
  readonly id: string;
  readonly title: string;
  readonly rationale?: string;
  readonly priority: Priority;
  readonly check: Check;
}

/** jouleclaw §16.3 one unit of work and the assertion ids it claims. */
export interface Feature {
  readonly id: string;
  readonly title: string;
  readonly description?: string;
  readonly claims: readonly string[];
}

/** jouleclaw §16.1 a parsed contract; `hash` is the content hash of the document as given. */
export interface Contract {
  readonly jc_contract: string;
  readonly title: string;
  readonly authored_by: string;
  readonly assertions: readonly Assertion[];
  readonly features: readonly Feature[];
  /** acceptance.block_on_should_have (absent = false). */
  readonly block_on_should_have: boolean;
  readonly hash: string;
}

const C = 'ERR_CONTRACT_MALFORMED' as const;

function readCheck(v: unknown, path: string): Check {
  const f = jsonFields(v, C, path);
  const kind = f.text('kind');
  switch (kind) {
    case 'tool': {
      const args_hash = f.optText('args_hash');
      return Object.freeze({ kind, tool_id: f.text('tool_id'), ...(args_hash !== undefined ? { args_hash } : {}) });
    }
    case 'artifact': {
      const expected_hash = f.optText('expected_hash');
      return Object.freeze({ kind, path: f.text('path'), ...(expected_hash !== undefined ? { expected_hash } : {}) });
    }
    case 'command':
      return Object.freeze({ kind, command_hash: f.text('command_hash'), expected_exit: f.int('expected_exit') });
    case 'checker':
      return Object.freeze({ kind, checker_id: f.text('checker_id') });
    default:
      throw new JcpError(C, `${path}.kind "${kind}" is not one of tool, artifact, command, checker`);
  }
}

function readAssertion(v: unknown, i: number): Assertion {
  const path = `assertions[${i}]`;
  const f = jsonFields(v, C, path);
  const priority = f.text('priority');
  if (!(PRIORITIES as readonly string[]).includes(priority)) throw new JcpError(C, `${path}.priority must be one of ${PRIORITIES.join(' | ')}, got "${priority}"`);
  const rationale = f.optText('rationale');
  return Object.freeze({
    id: f.text('id'),
    title: f.text('title'),
    ...(rationale !== undefined ? { rationale } : {}),
    priority: priority as Priority,
    check: readCheck(f.obj['check'], `${path}.check`),
  });
}

function readFeature(v: unknown, i: number): Feature {
  const f = jsonFields(v, C, `features[${i}]`);
  const description = f.optText('description');
  return Object.freeze({ id: f.text('id'), title: f.text('title'), ...(description !== undefined ? { description } : {}), claims: Object.freeze([...f.texts('claims')]) });
}

function firstDuplicate(ids: readonly string[]): string | undefined {
  const seen = new Set<string>();
  for (const id of ids) {
    if (seen.has(id)) return id;
    seen.add(id);
  }
  return undefined;
}

/** The contracts {@link parseContract} made: only these are taken as read; a JSON form shaped like one is read again. */
const readContracts = new WeakSet<Contract>();

/**
 * Reads a contract (JSON text or parsed) and refuses what §16.6 says a producer must refuse: a jc_contract other than
 * "contract/1" (ERR_JC_SCHEMA_UNKNOWN; a later minor is read as contract/1, §7), duplicate assertion or feature ids
 * (ERR_CONTRACT_DUPLICATE_ID), a feature claiming an assertion id the contract lacks (ERR_CONTRACT_UNKNOWN_CLAIM), and
 * any malformed field (ERR_CONTRACT_MALFORMED). Unknown fields are ignored, but they are part of the content hash.
 */
export function parseContract(json: unknown): Contract {
  const doc = readJson(json, C, 'contract');
  const f = jsonFields(doc, C, 'contract');
  const jc_contract = f.text('jc_contract');
  // jouleclaw §16.6: "Set jc_contract to "contract/1"."
  expectSchema(jc_contract, 'contract', 1, 'jc_contract', C);
  const assertions = f.array('assertions').map(readAssertion);
  const features = f.array('features').map(readFeature);
  // jouleclaw §16.1: "Ids MUST be unique within the contract." / §16.6 "Reject duplicate assertion ids"
  const dupA = firstDuplicate(assertions.map((a) => a.id));
  if (dupA !== undefined) throw new JcpError('ERR_CONTRACT_DUPLICATE_ID', `assertion id "${dupA}" appears more than once`, { id: dupA, list: 'assertions' });
  // jouleclaw §16.1: features "Ids MUST be unique." / §16.6 "… and duplicate feature ids"
  const dupF = firstDuplicate(features.map((x) => x.id));
  if (dupF !== undefined) throw new JcpError('ERR_CONTRACT_DUPLICATE_ID', `feature id "${dupF}" appears more than once`, { id: dupF, list: 'features' });
  const known = new Set(assertions.map((a) => a.id));
  for (const feat of features) {
    for (const claim of feat.claims) {
      // jouleclaw §16.1: "Each feature's claims MUST reference only assertion ids that exist in the contract."
      if (!known.has(claim)) throw new JcpError('ERR_CONTRACT_UNKNOWN_CLAIM', `feature "${feat.id}" claims assertion "${claim}", which the contract does not hold`, { feature: feat.id, claim });
    }
  }
  const acceptance = f.optObject('acceptance');
  const block = acceptance === undefined ? undefined : jsonFields(acceptance, C, 'contract.acceptance').optBool('block_on_should_have');
  const authored = f.obj['authored_by'];
  if (authored !== undefined && typeof authored !== 'string') throw new JcpError(C, 'contract.authored_by must be a string');
  const contract: Contract = Object.freeze({
    jc_contract,
    title: f.text('title'),
    authored_by: typeof authored === 'string' ? authored : '',
    assertions: Object.freeze(assertions),
    features: Object.freeze(features),
    block_on_should_have: block === true,
    hash: contractHash(doc as JsonObject),
  });
  readContracts.add(contract);
  return contract;
}

/** Whether `v` is a contract {@link parseContract} returned (and so already checked and hashed). */
export function isParsedContract(v: unknown): v is Contract {
  return readContracts.has(v as Contract);
}

/** jouleclaw §16.1 "The contract's content hash is BLAKE3 over the canonical JSON serialisation" (RFC 8785; contract-json.ts). */
export function contractHash(doc: unknown): string {
  return canonicalJsonHash(readJson(doc, C, 'contract'), C);
}
