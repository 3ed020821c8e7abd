// Deterministic fixtures for conformance tests: keys from labelled seeds, nonces and resources from labels.
import {
  blake3,
  contentId,
  createEnforcementPoint,
  deriveSeed,
  keyPairFromSeed,
  mintGrant,
  type Cost,
  type EnforcementPoint,
  type Frame,
  type KeyPair,
  type RootGrantFields,
  type SignedGrant,
} from '../impl/index.ts';
import { grantId } from '../impl/jcp/grant.ts';

const utf8 = new TextEncoder();

/** A key pair from a label: the same label gives the same key on every machine. */
export function key(label: string): KeyPair {
  return keyPairFromSeed(deriveSeed(label));
}

/** A 16-byte nonce from a label. */
export function nonce(label: string): Uint8Array {
  return blake3(utf8.encode(`nonce:${label}`)).slice(0, 16);
}

/** A content-addressed resource named by a label. */
export function resource(label: string): string {
  return contentId({ resource: label });
}

/** A content id standing for a payload named by a label. */
export function payload(label: string): string {
  return contentId({ payload: label });
}

export const alice = key('alice'); // a root issuer
export const bob = key('bob'); // a holder
export const carol = key('carol'); // a delegate
export const dave = key('dave'); // another delegate
export const mallory = key('mallory'); // an attacker
export const steward = key('steward'); // seals receipts
export const TOOL = resource('tool:search');

/** An estimated cost of `uj` microjoules. */
export function cost(uj: bigint, provenance: Cost['provenance'] = 'Estimator'): Cost {
  return { uj, provenance };
}

/** A root grant from alice to bob over TOOL, 1000 µJ, actions call and read, unless overridden. */
export function rootGrant(over: Partial<RootGrantFields> = {}, issuer: KeyPair = alice): SignedGrant {
  return mintGrant(issuer, {
    subject: bob.did,
    resource: TOOL,
    actions: ['call', 'read'],
    budget_uj: 1000n,
    nonce: nonce('root'),
    ...over,
  });
}

/** A control tool-call frame exercising `sg` with action `call`, unless overridden. */
export function frameFor(sg: SignedGrant, over: Partial<Frame> = {}): Frame {
  return {
    kind: 'tool-call',
    trust: 'control',
    grant_id: grantId(sg.grant),
    action: 'call',
    resource: sg.grant.capability.resource,
    payload_hash: payload('args'),
    ...over,
  };
}

/** A fresh enforcement point sealing with the steward key. */
export function point(trustRoots?: Record<string, string[]>): EnforcementPoint {
  return createEnforcementPoint({ steward, ...(trustRoots ? { trustRoots } : {}) });
}
