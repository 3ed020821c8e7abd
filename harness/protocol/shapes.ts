// The shapes the testee protocol's operations are written in (harness/PROTOCOL.md, harness/protocol/testee.cddl),
// and the ones several operations share: grants, frames, costs, the decision's arguments.


/** A value's expected shape. */
export type Shape =
  | 'text'
  | 'uint'
  | 'bytes'
  | 'bytes16'
  | 'bytes32'
  | 'bytes64'
  | 'any'
  | { readonly enum: readonly string[] }
  | { readonly array: Shape; readonly min?: number }
  | { readonly map: Readonly<Record<string, Shape>>; readonly optional?: readonly string[] }
  | { readonly textMap: Shape };

export const cid: Shape = 'text';
export const did: Shape = 'text';
export const PROVENANCE: Shape = { enum: ['HwShunt', 'ModelBased', 'Estimator'] };
export const VERDICT: Shape = { enum: ['allow', 'deny'] };
export const VALIDITY: Shape = { enum: ['valid', 'invalid'] };

export const CAVEAT: Shape = 'any'; // a one-entry map {Variant: parameter}; its content is checked by the implementation under test
export const GRANT_FIELDS: Shape = {
  map: {
    subject: did,
    capability: { map: { resource: cid, actions: { array: 'text' } } },
    budget_uj: 'uint',
    expiry: 'uint',
    nonce: 'bytes16',
    budget_funds: { map: { currency: 'text', minor: 'uint' } },
    caveats: { array: CAVEAT, min: 1 },
    delegate_depth: 'uint',
  },
  optional: ['budget_funds', 'caveats', 'delegate_depth'],
};
export const CHILD_FIELDS: Shape = {
  map: {
    subject: did,
    actions: { array: 'text' },
    budget_uj: 'uint',
    expiry: 'uint',
    delegate_depth: 'uint',
    add_caveats: { array: CAVEAT },
    budget_funds: { map: { currency: 'text', minor: 'uint' } },
    nonce: 'bytes16',
  },
  optional: ['actions', 'budget_uj', 'expiry', 'delegate_depth', 'add_caveats', 'budget_funds'],
};
export const MINTED: Shape = { map: { signed_grant: 'bytes', grant_id: cid } };
/** A grant's fields in the protocol's neutral form (caveats as {Variant: parameter}), whatever its signed layout. */
export const GRANT_VIEW: Shape = {
  map: { ...(GRANT_FIELDS as { map: Record<string, Shape> }).map, issuer: did, parent: cid },
  optional: ['budget_funds', 'caveats', 'delegate_depth', 'parent'],
};
export const FRAME: Shape = {
  map: { kind: 'text', trust: 'text', grant_id: 'text', action: 'text', resource: 'text', payload_hash: 'text', model: 'text' },
  optional: ['model'],
};
export const COST: Shape = { map: { uj: 'uint', provenance: PROVENANCE, coverage: { enum: ['Partial'] } }, optional: ['coverage'] };
// jcp §4.8 money cost and §4.10 label on a decision (optional: a testee without them stays valid)
export const FUNDS: Shape = { map: { currency: 'text', minor: 'uint' } };
// origins is [text…] or "any", readers [did…] or "all": checked by the implementation under test
export const LABEL: Shape = { map: { integrity: { enum: ['principal', 'untrusted'] }, origins: 'any', readers: 'any' } };
export const DECIDE_ARGS: Shape = {
  map: { point: 'text', frame: FRAME, chain: { array: 'bytes', min: 1 }, caller: did, cost: COST, now_s: 'uint', cost_funds: FUNDS, label: LABEL },
  optional: ['cost_funds', 'label'],
};

/** One operation: the shape of its arguments and of its result. */
export interface OpSpec {
  readonly args: Shape;
  readonly result: Shape;
  /** The class ids whose tests use it (informative). */
  readonly about: string;
}
