// Deterministic fixtures for impl/durable's unit tests and crash test (not part of the public surface).
// alice grants bob `call` on a tool (budget ROOT_BUDGET_UJ); bob delegates a narrower child to carol (CHILD_BUDGET_UJ),
// so the stream exercises single-grant and chained debits (an ancestor debited through its child, jcp §4.2, §8.1).
import { blake3 } from '../hash/blake3.ts';
import { deriveSeed, keyPairFromSeed, type KeyPair } from '../identity/ed25519.ts';
import { attenuate } from '../jcp/attenuate.ts';
import { contentId } from '../jcp/content-id.ts';
import type { DecisionRequest } from '../jcp/decide.ts';
import { grantId, mintGrant } from '../jcp/grant.ts';
import type { SignedGrant } from '../jcp/types.ts';

const utf8 = new TextEncoder();

export const alice: KeyPair = keyPairFromSeed(deriveSeed('alice'));
export const bob: KeyPair = keyPairFromSeed(deriveSeed('bob'));
export const carol: KeyPair = keyPairFromSeed(deriveSeed('carol'));
export const steward: KeyPair = keyPairFromSeed(deriveSeed('steward'));
export const otherSteward: KeyPair = keyPairFromSeed(deriveSeed('durable:other-steward'));
export const TOOL = contentId({ resource: 'tool:search' });

/** A 16-byte nonce from a label. */
export function nonce(label: string): Uint8Array {
  return blake3(utf8.encode(`nonce:${label}`)).slice(0, 16);
}

export const ROOT_BUDGET_UJ = 10_000n;
export const CHILD_BUDGET_UJ = 4_000n;

/** alice → bob, `call` on TOOL. */
export const rootGrant: SignedGrant = mintGrant(alice, { subject: bob.did, resource: TOOL, actions: ['call'], budget_uj: ROOT_BUDGET_UJ, nonce: nonce('durable:root') });
/** bob → carol, a child of rootGrant with a smaller budget. */
export const childGrant: SignedGrant = attenuate(rootGrant, bob, { subject: carol.did, budget_uj: CHILD_BUDGET_UJ, nonce: nonce('durable:child') });
export const ROOT_ID = grantId(rootGrant.grant);
export const CHILD_ID = grantId(childGrant.grant);

/** Request `n` of a stream: even n by bob on the root grant, odd n by carol through the chain; payload names n. */
export function streamRequest(n: number, uj: bigint, now_s = 1_000n): DecisionRequest {
  const chained = n % 2 === 1;
  const chain = chained ? [rootGrant, childGrant] : [rootGrant];
  return {
    frame: { kind: 'tool-call', trust: 'control', grant_id: chained ? CHILD_ID : ROOT_ID, action: 'call', resource: TOOL, payload_hash: contentId({ payload: `durable:${n}` }) },
    chain,
    caller: chained ? carol.did : bob.did,
    cost: { uj, provenance: 'Estimator' },
    now_s,
  };
}

/** The 32-byte request key of request `n` (what a wire binding would derive from the signed request's bytes). */
export function requestKey(n: number): Uint8Array {
  return blake3(utf8.encode(`durable:request:${n}`));
}

/** The cost of request `n`, from a fixed pattern (10 … 400 µJ). */
export function streamCost(n: number): bigint {
  return BigInt(10 + ((n * 7919) % 391));
}
