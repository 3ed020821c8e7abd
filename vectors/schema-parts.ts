// The pieces the conformance/v1 JSON Schemas (vectors/schemas.ts) are built from, shared with the suite-defined
// profiles' group modules (vectors/profiles/) so that every kind's schema speaks the same words for bytes, ids, seeds,
// keys, integers and refusals.

export type S = Record<string, unknown>;

export const HEX: S = { type: 'string', pattern: '^([0-9a-f]{2})*$' };
export const CID: S = { type: 'string', pattern: '^[0-9a-f]{64}$' };
export const SEED: S = { type: 'string', pattern: '^[0-9a-f]{64}$' };
export const DID: S = { type: 'string', pattern: '^did:key:z[1-9A-HJ-NP-Za-km-z]+$' };
export const UINT: S = { type: 'integer', minimum: 0 };
export const ERROR: S = { type: 'object', required: ['error'], additionalProperties: false, properties: { error: { type: 'string', pattern: '^ERR_[A-Z0-9_]+$' } } };
export const obj = (required: string[], properties: S, extra: boolean | S = false): S => ({ type: 'object', required, properties, additionalProperties: extra });
/** Any JSON object (its members are checked by the replay, not the schema). */
export const ANY_OBJ: S = { type: 'object' };
